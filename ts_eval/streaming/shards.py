"""A plain column file cut into shards of whole sentences (``--jobs``, Dask): :func:`file_shards` gives
:class:`Shard` s, each counted on its own by :func:`ts_eval.streaming.files.count_file`, and the counts of
the shards, added in order (:func:`add_shards`), are the counts of the file."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, List, Sequence, Tuple

import numpy as np

from ..errors import InputError
from ..io import columns
from ..io.columns import Head
from ..io.conll import conll_shards

if TYPE_CHECKING:
    from ..models.counts import Counts


@dataclass(frozen=True)
class Shard:
    """Bytes ``start``..``stop`` of the plain column file ``path``: whole sentences after ``lines`` lines."""

    path: str
    start: int
    stop: int
    lines: int
    head: Head
    options: Tuple[Tuple[str, Any], ...] = ()    # the reading options it was cut for


def file_shards(path: str, n: int, *, count_lines: bool = True, **reading: Any) -> List[Shard]:
    """``path`` cut into at most ``n`` shards of whole sentences of about equal size (one shard, the whole
    file, when it cannot be cut: standard input, a compressed file, a file without blank lines).

    ``count_lines=False`` does not count the lines before each shard (a pass over the bytes before the
    last shard): every shard's ``lines`` is 0, so its line numbers (in its counts and its errors) count
    from its own start; :func:`add_shards` places its counts where that shows."""
    found = conll_shards(path, n, **reading)
    if found is None:
        return [Shard(path, 0, -1, 0, Head(0, 0, "", b""), tuple(sorted(reading.items())))]
    lines = _lines_before(path, [a for a, _, _ in found]) if count_lines else [0] * len(found)
    return [Shard(path, a, b, k, head, tuple(sorted(reading.items()))) for (a, b, head), k in zip(found, lines)]


def add_shards(shards: Sequence[Shard], parts: Sequence[Counts]) -> Counts:
    """The counts of the file ``shards`` were cut from: ``parts``, their counts, added in order.  A later
    shard cut without counting its lines (``lines`` 0) numbers them from its own start: its counts are
    placed after the file's lines before it (:meth:`~ts_eval.models.counts.Counts.after_lines`) only where
    the sum shows one of its line numbers (a side's first repaired tag, when no shard before has one);
    those lines are counted then, in one pass over the file at most."""
    total = parts[0]
    counted = (0, 0)                        # (offset, lines before it) counted so far
    for shard, part in zip(shards[1:], parts[1:]):
        shows = any(a is None and b is not None for a, b in zip(total.line_numbers, part.line_numbers))
        if shard.lines == 0 and shard.start > 0 and shows:
            counted = (shard.start, lines_before(shard.path, shard.start, after=counted))
            part = part.after_lines(counted[1])
        total = total + part
    return total


def with_file_lines(err: InputError, shard: Shard) -> InputError:
    """``err``, raised reading ``shard`` (its lines counted from the shard's start), with the file's line numbers."""
    if err.line is None or not shard.start:
        return err
    return type(err)(list(err.parts), err.path, err.line + lines_before(shard.path, shard.start))


def lines_before(path: str, offset: int, *, after: Tuple[int, int] = (0, 0)) -> int:
    """How many lines of ``path`` lie before byte ``offset`` (``after``: an earlier offset and the lines
    before it, counted already)."""
    return _lines_before(path, [offset], after)[0]


def _lines_before(path: str, offsets: Sequence[int], after: Tuple[int, int] = (0, 0)) -> List[int]:
    """How many lines of ``path`` lie before each offset (ascending, from ``after``: an offset and the lines
    before it)."""
    at, lines = after
    out = []
    buf = bytearray(1 << 24)                # one buffer for every read: no new pages to fault in
    view, data = memoryview(buf), np.frombuffer(buf, np.uint8)
    with open(path, "rb", buffering=0) as fh:
        fh.seek(at)
        for offset in offsets:
            while at < offset:
                n = fh.readinto(view[:min(len(buf), offset - at)])
                if not n:
                    break
                lines += columns.count_newlines(data[:n])
                at += n
            out.append(lines)
    return out
