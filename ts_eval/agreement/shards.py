"""``agree`` over a plain column file in several processes: :func:`in_shards` cuts the file into shards of whole
sentences (:func:`ts_eval.streaming.shards.file_shards`; a document may go on into the next shard), reads each
in another process (``work``: the digests of its blocks, :func:`ts_eval.agreement.stream.shard_digests`), and
gives what they give in the order of the file, which :func:`~ts_eval.agreement.stream.agreement_of_digests`
folds as it folds the digests of one process: the same running sums, the same report.

A shard is about :data:`SHARD_BYTES`; at most ``jobs + 1`` shards are read or waiting at a time, so the
memory of the processes does not grow with the file.  What cannot be cut is read in one process (None):
standard input, a compressed file, the scheme ``auto``, a file of less than two shards, and names that do not
fit the columns (the one process reports that where it does).
"""
from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence

from ..io.source import STDIN

if TYPE_CHECKING:
    from ..io.inputs import Inputs

#: about how many bytes of the file a process reads at a time (a few blocks of :mod:`.stream`)
SHARD_BYTES = 4 << 20

#: what a process does with its shard: (the shard's Inputs, the names given) -> what it gives, in order
Work = Callable[["Inputs", Optional[Sequence[str]]], List[Any]]


def in_shards(read: Inputs, names: Optional[Sequence[str]], annotators: int, jobs: int,
              work: Work) -> Optional[Iterator[Any]]:
    """What ``work`` gives for each shard of one plain column file, read in ``jobs`` processes, in the order of
    the file (None: it is read in one; see the module docstring); ``annotators``: its annotator columns."""
    import os

    from ..io.columns import count_columns
    from ..streaming.shards import file_shards

    path, scheme = read.file, read.scheme or read.default_scheme
    if jobs < 2 or path is None or path == STDIN or scheme == "auto" or not os.path.isfile(path):
        return None
    if names is not None and len(names) != annotators:
        return None
    n = int(os.path.getsize(path) // SHARD_BYTES)
    if n < 2:
        return None
    gold = read.gold_column if read.gold_column is not None else 2
    systems = read.system_columns
    if systems is None:
        width = count_columns(path, read.delimiter)
        systems = tuple(range((gold if gold > 0 else width + 1 + gold) + 1, width + 1))
    cut: Dict[str, Any] = dict(delimiter=read.delimiter, scheme=scheme, gold_column=gold, system_columns=systems,
                               outside_tag=read.outside_tag)
    shards = file_shards(path, n, **{k: v for k, v in cut.items() if v is not None})
    if len(shards) < 2:
        return None
    each = [functools.partial(work, dataclasses.replace(read, shard=(s.start, s.stop, s.lines, s.head), jobs=1), names)
            for s in shards]
    return _in_order(each, min(jobs, len(each)))


def _in_order(each: Sequence[Callable[[], List[Any]]], workers: int) -> Iterator[Any]:
    """What every shard gives, in order, from ``workers`` processes; the first error (a shard's lines are the
    file's) is raised where one process would raise it."""
    from ..streaming.processes import start

    with start(each, workers) as started:
        for got in started:
            yield from got
