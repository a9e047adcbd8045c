"""Work done in other processes (``--jobs``), each forked with everything the caller holds: the one place
``score``, ``fair``, ``rank``, ``agree`` and ``germeval`` start processes.

:func:`start` forks processes for pieces of work (functions of no arguments): a process has the caller's
memory as it was (a statistics matrix, the plan of a ranking, the options of a read) without pickling it,
and hands back only its result, pickled.  At most ``workers`` pieces run at a time and at most one more
waits, so a long list of shards does not hold every shard's result at once.  A piece's
:class:`~ts_eval.errors.TsEvalError` or ``ValueError`` is handed back and raised where its result is asked
for, so the caller sees the error of the first piece in order, as one process would.  On systems without
``fork`` each piece is done in the caller when its result is asked for (the same results, one after the
other).
"""
from __future__ import annotations

import itertools
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..errors import TsEvalError

#: the work of the processes being forked, by (the Started it belongs to, its number): a forked process
#: finds its own there, so the work is never pickled
_WORK: Dict[Tuple[int, int], Callable[[], Any]] = {}
_NEXT = itertools.count()


def forks() -> bool:
    """Whether this system starts processes by ``fork`` (what :func:`start` needs to work beside the caller)."""
    return "fork" in multiprocessing.get_all_start_methods()


class Started:
    """Work under way in other processes: :meth:`result` waits for one piece and returns its result (or raises
    its error); iterating gives every result in order."""

    def __init__(self, works: Sequence[Callable[[], Any]], workers: Optional[int] = None) -> None:
        self.works = list(works)
        self.key = next(_NEXT)
        self.workers = max(1, min(workers or len(self.works), len(self.works)))
        self.pool: Optional[ProcessPoolExecutor] = None
        self.futures: List[Future[Any]] = []
        if forks() and self.works:
            _WORK.update(((self.key, k), w) for k, w in enumerate(self.works))
            # a pool of forked processes forks every worker at its first submit, with the work above in it
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"))
            self._submit(self.workers + 1)

    def _submit(self, upto: int) -> None:
        assert self.pool is not None
        while len(self.futures) < min(upto, len(self.works)):
            self.futures.append(self.pool.submit(_run, (self.key, len(self.futures))))

    def result(self, k: int) -> Any:
        """The result of work ``k`` (its error raised)."""
        if self.pool is not None:
            self._submit(k + 1)
            got = self.futures[k].result()
            self._submit(k + self.workers + 2)      # the next ones, while the caller uses this one
        else:
            got = _run_one(self.works[k])
        if isinstance(got, BaseException):
            raise got
        return got

    def __iter__(self) -> Iterator[Any]:
        """Every result in the order of the work (the first error raised where its result comes)."""
        for k in range(len(self.works)):
            yield self.result(k)

    def close(self) -> None:
        """Let the processes go (work not begun is cancelled)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
        for k in range(len(self.works)):
            _WORK.pop((self.key, k), None)

    def __enter__(self) -> Started:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def start(works: Sequence[Callable[[], Any]], workers: Optional[int] = None) -> Started:
    """Each of ``works`` begun in a process of its own, at most ``workers`` at a time (default: all at once);
    see the module docstring."""
    return Started(works, workers)


def _run(key: Tuple[int, int]) -> Any:
    """In the forked process: the result of the work at ``key``, or the error it raised (handed back as the result)."""
    return _run_one(_WORK[key])


def _run_one(work: Callable[[], Any]) -> Any:
    try:
        return work()
    except (TsEvalError, ValueError) as err:
        return err
