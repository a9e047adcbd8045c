"""Work done in other processes (``rank``'s ``jobs``), each forked with everything the caller holds.

:func:`start` forks one process per piece of work: a process has the caller's memory as it was (a statistics
matrix, the plan of a ranking) without pickling it, and hands back only its result, pickled.  On systems
without ``fork`` the work is done in the caller when it is asked for (the same results, one after the other).
"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..errors import TsEvalError

#: the work of the processes being forked (a process finds its own by number: it is never pickled)
_WORK: Dict[int, Callable[[], Any]] = {}


def forks() -> bool:
    """Whether this system starts processes by ``fork`` (what :func:`start` needs to work beside the caller)."""
    return "fork" in multiprocessing.get_all_start_methods()


class Started:
    """Work under way in other processes: :meth:`result` waits for one and returns it (or raises its error)."""

    def __init__(self, works: Sequence[Callable[[], Any]]) -> None:
        self.works = list(works)
        self.pool: Optional[ProcessPoolExecutor] = None
        self.futures: List[Future[Any]] = []
        if forks() and self.works:
            _WORK.clear()
            _WORK.update(enumerate(self.works))
            self.pool = ProcessPoolExecutor(len(self.works), mp_context=multiprocessing.get_context("fork"))
            self.futures = [self.pool.submit(_run, k) for k in range(len(self.works))]
            _WORK.clear()

    def result(self, k: int) -> Any:
        """The result of work ``k`` (its error raised)."""
        got = self.futures[k].result() if self.pool is not None else _run_one(self.works[k])
        if isinstance(got, BaseException):
            raise got
        return got

    def close(self) -> None:
        """Let the processes go (work not begun is cancelled)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def start(works: Sequence[Callable[[], Any]]) -> Started:
    """Each of ``works`` begun in a process of its own (see the module docstring)."""
    return Started(works)


def _run(k: int) -> Any:
    """In the forked process: work ``k``'s result, or the error it raised (handed back as the result)."""
    return _run_one(_WORK[k])


def _run_one(work: Callable[[], Any]) -> Any:
    try:
        return work()
    except (TsEvalError, ValueError) as err:
        return err
