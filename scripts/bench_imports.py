#!/usr/bin/env python3
"""What ``ts-eval score FILE`` spends on imports, side by side with an earlier copy (issue 22.3).

A first child process runs ``score FILE`` (stdout to a file: no terminal, so no ``rich``) and lists the
modules it imported, in order; then, ``--repeat`` times, interleaved with the other copy's, a fresh process
imports those modules in that order and times it (best wall and CPU seconds): numpy first, then the rest
(the package's own modules and the standard library modules they need), with the thread settings the
command makes before numpy starts (one BLAS thread).  Python's start is not counted.

    python scripts/bench_imports.py [--file FILE] [--format table] [--repeat 15] [--baseline SRC]

SRC is a directory holding an earlier ``ts_eval`` (e.g. ``git archive COMMIT ts_eval | tar -x -C SRC``;
copy the compiled scanner's ``.so`` beside it if it should be used).  Run ``python -m compileall -q ts_eval``
in both first: timing the compilation of modules is not the point.  A Python with only numpy installed
(besides the standard library) shows what the package itself imports.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_column_pass import copies_of, interleaved, parser  # noqa: E402 -- a script beside this one

LIST = r'''
import os, sys
sys.path.insert(0, sys.argv[1])
before = set(sys.modules)      # (json is imported after the command: the command may import it too)
argv = ["score", sys.argv[2], "--format", sys.argv[3]]
sys.argv = ["ts-eval", *argv]      # as the console script sees it (the command chooses numpy's threads)
from ts_eval.cli import main
with open(os.devnull, "w") as out:
    real, sys.stdout = sys.stdout, out
    try:
        main(argv)
    finally:
        sys.stdout = real
mods = [m for m in sys.modules if m not in before and not m.startswith("__")]
import json
print(json.dumps([mods,
                  {k: v for k, v in os.environ.items() if k.endswith("_NUM_THREADS")}]))
'''

TIME = r'''
import importlib, sys, time
sys.path.insert(0, sys.argv[1])
mods = sys.argv[2].split()      # (not json: a module the command may import is timed, not imported before)
w0, c0 = time.perf_counter(), time.process_time()
import numpy
w1, c1 = time.perf_counter(), time.process_time()
for m in mods:
    try:
        importlib.import_module(m)
    except ImportError:      # a module made at run time (none expected)
        pass
w2, c2 = time.perf_counter(), time.process_time()
import json
import ts_eval
assert ts_eval.__file__.startswith(sys.argv[1]), ts_eval.__file__
print(json.dumps({"numpy": (w1 - w0, c1 - c0), "the rest": (w2 - w1, c2 - c1), "all": (w2 - w0, c2 - c0)}))
'''


def modules(src: str, path: str, fmt: str) -> Tuple[List[str], Dict[str, str]]:
    """The modules ``score`` imports, in order, and the thread settings it made before numpy's import (one
    BLAS thread: numpy then starts faster)."""
    done = subprocess.run([sys.executable, "-c", LIST, src, path, fmt], capture_output=True, text=True, check=True)
    mods, env = json.loads(done.stdout)
    return list(mods), dict(env)


def timed(src: str, mods: List[str], env: Dict[str, str]) -> Dict[str, Tuple[float, float]]:
    done = subprocess.run([sys.executable, "-c", TIME, src, " ".join(mods)], capture_output=True, text=True,
                          check=True, env={**os.environ, **env})
    return {k: (v[0], v[1]) for k, v in json.loads(done.stdout).items()}


def main() -> int:
    ap = parser(__doc__, 15)
    ap.add_argument("--format", default="table", help="score's --format (default table)")
    a = ap.parse_args()
    copies = copies_of(a)
    if copies is None:
        return 2
    listed = {copy: modules(src, a.file, a.format) for copy, src in copies.items()}
    best = interleaved(copies, a.repeat, lambda copy, src: timed(src, *listed[copy]))
    print(f"score FILE --format {a.format}: imports, best of {a.repeat}, load {os.getloadavg()[0]:.2f}")
    print(f"{'copy':<10} {'what':<10} {'wall s':>8} {'cpu s':>8} {'modules':>8}")
    for copy in copies:
        own = sum(m.split(".")[0] == "ts_eval" for m in listed[copy][0])
        for name in ("numpy", "the rest", "all"):
            wall, cpu = best[(copy, name)]
            count = f"{len(listed[copy][0])} ({own} own)" if name == "all" else ""
            print(f"{copy:<10} {name:<10} {wall:8.4f} {cpu:8.4f} {count:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
