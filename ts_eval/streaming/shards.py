"""A plain column file cut into shards of whole sentences (``--jobs``, Dask): :func:`file_shards` gives
:class:`Shard` s, each counted on its own by :func:`ts_eval.streaming.files.count_file`, and the counts of
the shards, added in order, are the counts of the file (:func:`lines_before` places the counts of a shard
cut without counting its lines)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence, Tuple

import numpy as np

from ..io import columns
from ..io.columns import Head
from ..io.conll import conll_shards


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
    from its own start; ``counts.after_lines(lines_before(path, shard.start))`` places a shard's counts."""
    found = conll_shards(path, n, **reading)
    if found is None:
        return [Shard(path, 0, -1, 0, Head(0, 0, "", b""), tuple(sorted(reading.items())))]
    lines = _lines_before(path, [a for a, _, _ in found]) if count_lines else [0] * len(found)
    return [Shard(path, a, b, k, head, tuple(sorted(reading.items()))) for (a, b, head), k in zip(found, lines)]


def lines_before(path: str, offset: int) -> int:
    """How many lines of ``path`` lie before byte ``offset``."""
    return _lines_before(path, [offset])[0]


def _lines_before(path: str, offsets: Sequence[int]) -> List[int]:
    """How many lines of ``path`` lie before each offset (ascending)."""
    out, lines, at = [], 0, 0
    buf = bytearray(1 << 24)                # one buffer for every read: no new pages to fault in
    view, data = memoryview(buf), np.frombuffer(buf, np.uint8)
    with open(path, "rb", buffering=0) as fh:
        for offset in offsets:
            while at < offset:
                n = fh.readinto(view[:min(len(buf), offset - at)])
                if not n:
                    break
                lines += columns.count_newlines(data[:n])[0]
                at += n
            out.append(lines)
    return out
