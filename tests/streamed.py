"""Helpers of the tests that read inputs in blocks on the one road (:class:`ts_eval.io.inputs.Inputs`): a
command line run with every block-wise read at a given block size (None: one block, the inputs whole),
the number of blocks each read gave, and the comparison of a run read whole with the same run in blocks."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import sys
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import pytest

from ts_eval.cli.app import main
from ts_eval.io.inputs import Inputs

Run = Tuple[int, str, str]
MODELS = "ts,exact,overlap,constrained,contain,fair,semeval"
QUICK = ["--bootstrap", "60", "--permutations", "40", "--seed", "7", "--no-progress"]


def run(argv: List[str], stdin: bytes = b"") -> Run:
    """``ts-eval argv`` in this process: (exit code, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:
                rc = int(exc.code or 0)
    finally:
        sys.stdin = old
    return rc, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def blocks_of(block_bytes: Optional[int]) -> Iterator[List[int]]:
    """Inside: every read of :class:`Inputs` in blocks reads blocks of ``block_bytes`` (None: one block, the
    whole inputs; a read of the inputs whole stays whole); yields the number of blocks each read gave."""
    seen: List[int] = []
    real = Inputs.read

    def read(self: Inputs, *args: Any, **kw: Any) -> Iterator[Any]:
        inputs = self if self.block_bytes is None else dataclasses.replace(self, block_bytes=block_bytes)
        seen.append(0)
        for corpus in real(inputs, *args, **kw):
            seen[-1] += 1
            yield corpus

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Inputs, "read", read)
        yield seen


def without_timings(r: Run) -> Run:
    """The run with a JSON result's ``timings`` left out (seconds each phase took)."""
    rc, out, err = r
    if out.startswith("{") and '"timings"' in out:
        obj = json.loads(out)
        for task in [obj, *obj.get("tasks", {}).values()]:
            task.pop("timings", None)
        out = json.dumps(obj, sort_keys=True)
    return rc, out, err


def whole_and_streamed(argv: List[str], stdin: bytes = b"", block_bytes: Optional[int] = 1,
                       ) -> Tuple[Run, Run, List[int]]:
    """``argv`` run with the inputs read whole and in blocks of ``block_bytes``: both runs, and the blocks
    each read of the second gave."""
    with blocks_of(None):
        whole = run(argv, stdin)
    with blocks_of(block_bytes) as seen:
        streamed = run(argv, stdin)
    return without_timings(whole), without_timings(streamed), seen


def same_at(argv: List[str], sizes: Sequence[Optional[int]] = (1, 60), stdin: bytes = b"",
            whole: bool = True) -> Tuple[Run, List[int]]:
    """``argv`` gives the same at every block size of ``sizes`` and (``whole``) read whole: that run, and the
    blocks the last run read."""
    first: Optional[Run] = None
    seen: List[int] = []
    for size in ((None,) if whole else ()) + tuple(sizes):
        with blocks_of(size) as blocks:
            got = without_timings(run(argv, stdin))
        seen = blocks
        if first is None:
            first = got
        assert got == first, (size, got, first)
    assert first is not None
    return first, seen


def same_error(argv: List[str], sizes: Sequence[Optional[int]] = (1, 60), line: Optional[int] = None,
               stdin: bytes = b"", whole: bool = True) -> str:
    """``argv`` fails with one line on standard error (naming ``line`` if given), the same at every block
    size of ``sizes`` and (``whole``) read whole: that line."""
    (rc, out, err), _ = same_at(argv, sizes, stdin, whole)
    assert rc == 1 and err.count("\n") == 1, (rc, out, err)
    assert line is None or f":{line}: " in err, err
    return err
