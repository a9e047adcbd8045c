#!/usr/bin/env python3
"""The column reader against one vectorised pass over the same bytes, side by side (issue 22.3).

Times, best of ``--repeat``, on one column file (default: the 1M-token corpus of ``bench.py``):

- one pass: read the file's bytes and count its line ends with numpy (``np.count_nonzero(a == 10)``),
  the least any reader that looks at every byte does;
- the column reader: ``read_column_blocks`` over the whole file (blocks of whole sentences, the gold
  and system columns), what ``ts-eval score FILE`` reads with;
- with ``--baseline SRC`` (a directory holding an earlier ``ts_eval``, e.g. from
  ``git archive COMMIT ts_eval | tar -x -C SRC``), the same reader of SRC, in a child process,
  interleaved with this copy's rounds.

Wall and CPU seconds are both shown (on a shared machine the CPU time is the steadier one).

    python scripts/bench_column_pass.py [--file FILE] [--repeat 9] [--baseline SRC]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, Optional, Tuple

HERE = Path(__file__).resolve().parent
CHILD = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import ts_eval
assert ts_eval.__file__.startswith(sys.argv[1]), ts_eval.__file__
from ts_eval.io.columns import read_column_blocks

def one_pass(path):
    with open(path, "rb") as fh:
        return int(np.count_nonzero(np.frombuffer(fh.read(), np.uint8) == 10))

def reader(path):
    return sum(cf.lines for cf in read_column_blocks(path, columns=(-2, -1)))

out = {}
for name, fn in (("one pass", one_pass), ("column reader", reader)):
    w0, c0 = time.perf_counter(), time.process_time()
    fn(sys.argv[2])
    out[name] = (time.perf_counter() - w0, time.process_time() - c0)
print(json.dumps(out))
'''


def run(src: str, path: str) -> Dict[str, Tuple[float, float]]:
    done = subprocess.run([sys.executable, "-c", CHILD, src, path], capture_output=True, text=True, check=True)
    return {k: (v[0], v[1]) for k, v in json.loads(done.stdout).items()}


Best = Dict[Tuple[str, str], Tuple[float, float]]


def interleaved(copies: Dict[str, str], repeat: int, measure: Callable[[str, str], Dict[str, Tuple[float, float]]],
                ) -> Best:
    """The best (wall, CPU) seconds of each (copy, what) over ``repeat`` rounds of ``measure(copy, src)``, the
    copies taking turns in each round (so that they see the same load)."""
    best: Best = {}
    for _ in range(repeat):
        for copy, src in copies.items():
            for name, (wall, cpu) in measure(copy, src).items():
                old = best.get((copy, name), (float("inf"), float("inf")))
                best[(copy, name)] = (min(old[0], wall), min(old[1], cpu))
    return best


def parser(doc: str, repeat: int) -> argparse.ArgumentParser:
    """The options of this script and of ``bench_imports.py``: --file, --repeat, --baseline."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--file", default="/tmp/ts_eval_bench/synth_v1_1000000tok_seed13.conll",
                    help="column file (default: the 1M-token corpus of bench.py; run bench.py once to make it)")
    ap.add_argument("--repeat", type=int, default=repeat, help=f"rounds (default {repeat})")
    ap.add_argument("--baseline", metavar="SRC", help="also time the ts_eval package in SRC")
    return ap


def copies_of(a: argparse.Namespace) -> Optional[Dict[str, str]]:
    """{"now": this copy's source, "baseline": SRC}; None (said on stderr) when the file is missing."""
    if not os.path.exists(a.file):
        print(f"{a.file}: no such file (run scripts/bench.py once, or give --file)", file=sys.stderr)
        return None
    return {"now": str(HERE.parent), **({"baseline": os.path.abspath(a.baseline)} if a.baseline else {})}


def main() -> int:
    a = parser(__doc__, 9).parse_args()
    copies = copies_of(a)
    if copies is None:
        return 2
    best = interleaved(copies, a.repeat, lambda copy, src: run(src, a.file))
    print(f"{a.file} ({os.path.getsize(a.file) / 1e6:.1f} MB), best of {a.repeat}, load {os.getloadavg()[0]:.2f}")
    print(f"{'copy':<10} {'what':<15} {'wall s':>8} {'cpu s':>8} {'x one pass (wall)':>18}")
    for copy in copies:
        base = best[(copy, "one pass")][0]
        for name in ("one pass", "column reader"):
            wall, cpu = best[(copy, name)]
            print(f"{copy:<10} {name:<15} {wall:8.4f} {cpu:8.4f} {wall / base:18.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
