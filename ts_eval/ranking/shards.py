"""``rank`` of one plain column file in several processes (``jobs``): the statistics of each shard of whole
sentences (:func:`ts_eval.streaming.shards.file_shards`) taken by a process of its own, and merged in order.

:func:`task_blocks` gives the blocks of the first shard, which the caller reads itself, and the function that
begins the other shards' processes (``later`` of :func:`ts_eval.ranking.blocks.rank_blocks`): each takes its
shard's statistics with a :class:`~ts_eval.ranking.blocks.StatsBuilder` of the caller's plan and hands it back,
and :meth:`~ts_eval.ranking.blocks.StatsBuilder.merge` continues the first shard's builder with them, in the order
of the file -- the statistics of the file read in one process, and so the same ranking to the last bit.  A shard's
error is raised with the file's line numbers once the shards before it have none; the score counts of the shards
(``report``) are added as ``score --jobs`` adds them.  Standard input, compressed files, gold with system files
and the scheme ``auto`` are read in one process, as is a file of less than two :data:`MIN_SHARD_BYTES`.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Iterator, List, Optional, Tuple

from ..errors import InputError
from ..io.source import STDIN
from ..streaming.processes import Started, forks, start

if TYPE_CHECKING:
    from ..core.corpus import Corpus
    from ..models.counts import Counts
    from ..streaming.shards import Shard
    from .blocks import Later, StatsBuilder
    from .tasks import Task

#: a shard of at least this many bytes (about 300,000 tokens): a smaller one costs more to fork than it saves
MIN_SHARD_BYTES = 4 << 20

def task_blocks(task: Task, block_bytes: int, report: bool, jobs: int) -> Tuple[Iterator[Corpus], Optional[Later]]:
    """(the blocks the caller reads, the ``later`` of :func:`~ts_eval.ranking.blocks.rank_blocks`: None when the
    task is read in one process)."""
    shards = _shards(task, jobs)
    if shards is None:
        return task.blocks(block_bytes, report), None
    first = (shards[0].start, shards[0].stop, shards[0].lines, shards[0].head)

    def later(make: Callable[[], StatsBuilder]) -> Iterator[StatsBuilder]:
        assert shards is not None
        started = start([_work(task, s, block_bytes, report, make) for s in shards[1:]])
        return _parts(task, shards, started, report)

    return task.blocks(block_bytes, report, shard=first), later


def _shards(task: Task, jobs: int) -> Optional[List[Shard]]:
    """The shards of the task's one column file for ``jobs`` processes (None: read in one)."""
    from ..streaming.shards import file_shards

    inputs = task.inputs
    if jobs < 2 or inputs is None or not forks():
        return None
    path, scheme = inputs.file, inputs.scheme or inputs.default_scheme
    if path is None or path == STDIN or scheme == "auto" or inputs.shard is not None:
        return None
    jobs = min(jobs, os.path.getsize(path) // MIN_SHARD_BYTES)
    if jobs < 2:
        return None
    cut = dict(delimiter=inputs.delimiter, scheme=scheme, gold_column=inputs.gold_column,
               system_columns=inputs.system_columns, outside_tag=inputs.outside_tag)
    shards = file_shards(path, jobs, count_lines=False, **{k: v for k, v in cut.items() if v is not None})
    return shards if len(shards) > 1 else None


def _work(task: Task, shard: Shard, block_bytes: int, report: bool, make: Callable[[], StatsBuilder]
          ) -> Callable[[], Tuple[StatsBuilder, Optional[Counts]]]:
    """What a shard's process does: its statistics (and score counts)."""
    def work() -> Tuple[StatsBuilder, Optional[Counts]]:
        builder = make()
        for block in task.blocks(block_bytes, report, shard=(shard.start, shard.stop, shard.lines, shard.head)):
            builder.add(block)
        return builder.part(), task.counts
    return work


def _parts(task: Task, shards: List[Shard], started: Started, report: bool) -> Iterator[StatsBuilder]:
    """The later shards' builders in order (their errors raised with the file's line numbers); with ``report``,
    then the task's counts and report are those of every shard."""
    from ..streaming.shards import add_shards, with_file_lines

    counts = [task.counts]
    try:
        for k, shard in enumerate(shards[1:]):
            try:
                builder, part = started.result(k)
            except InputError as err:
                raise with_file_lines(err, shard) from None
            counts.append(part)
            yield builder
    finally:
        started.close()
    if report:
        assert all(c is not None for c in counts)
        task.counts = add_shards(shards, [c for c in counts if c is not None])
        task.report = task.counts.report()

