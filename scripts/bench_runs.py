#!/usr/bin/env python3
"""Ranking systems of several runs against ranking every run as a system of its own, side by side in one run.

The shared runs (``shared/data/conll2003-en/runs/``: 4 taggers x 5 seeds on the CoNLL-2003 test set) are
ranked twice, interleaved, ``--repeat`` times each, and the median wall time and the largest peak RSS
(GNU time's ``%M``) are printed with their ratio:

- **runs**: ``ts-eval rank --gold gold.iob2 --runs NAME=DIR/*.conll ...`` (the default models, 1,000
  two-level resamples, ASO for every pair under every model, the HTML page written);
- **20 systems**: ``ts-eval rank --gold gold.iob2 RUN.conll ... --names ...`` (the same 20 files as 20
  systems: 1,000 resamples, 1,000 permutations, the HTML page written).

The issue's target is runs <= 2x the 20 systems.  Beside them: deep-significance's own time for the same
ASO matrices (``deepsig.multi_aso`` on every model's 4 x 5 run scores, 1,000 bootstrap iterations, its
Bonferroni correction), when ``deepsig`` is installed (the test extra), and ts_eval's time for them
(the ``aso`` phase of the ranking's ``timings``).

    python scripts/bench_runs.py --data ../shared/data --repeat 3
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

SYSTEMS = ("sgd-log", "perceptron", "passive-aggressive", "sgd-hinge-small")
GNU_TIME = "/usr/bin/time"


def commands(data: Path, out: Path) -> Dict[str, List[str]]:
    runs = data / "conll2003-en" / "runs"
    gold = str(data / "conll2003-en" / "gold.iob2")
    files = [str(p) for s in SYSTEMS for p in sorted((runs / s).glob("seed*.conll"))]
    names = [f"{Path(p).parent.name}-{Path(p).stem}" for p in files]
    base = [sys.executable, "-m", "ts_eval", "rank", "--gold", gold, "--no-progress", "--format", "html"]
    return {
        "runs (4 systems x 5 seeds)": base + [a for s in SYSTEMS for a in ("--runs", f"{s}={runs / s}/*.conll")]
        + ["--output", str(out / "runs.html")],
        "20 systems": base + files + ["--names", *names, "--output", str(out / "twenty.html")],
    }


def timed(cmd: Sequence[str]) -> Tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run; the output file is removed first (no output overwrites)."""
    target = Path(cmd[cmd.index("--output") + 1])
    if target.exists():
        target.unlink()
    t0 = time.perf_counter()
    done = subprocess.run([GNU_TIME, "-f", "%M", *cmd], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    return wall, int(done.stderr.strip().splitlines()[-1]) * 1024 / 1e6


def ranked(data: Path) -> Any:
    """The shared runs ranked in this process (no bootstrap; ASO with 1,000 resamples under every model): its
    ``timings["aso"]`` is ts_eval's time for the ASO matrices."""
    import ts_eval

    runs = data / "conll2003-en" / "runs"
    files = {f"{s}/{p.stem}": str(p) for s in SYSTEMS for p in sorted((runs / s).glob("seed*.conll"))}
    corpus = ts_eval.read(str(data / "conll2003-en" / "gold.iob2"), files)
    return ts_eval.rank(corpus, runs={s: [n for n in files if n.startswith(s + "/")] for s in SYSTEMS},
                        bootstrap=0)


def deepsig_time(result: Any, models: int) -> float:
    """deep-significance's multi_aso on the first ``models`` models' run scores (1,000 iterations, Bonferroni),
    seconds."""
    import numpy as np
    from deepsig import multi_aso

    t0 = time.perf_counter()
    for k in range(models):
        scores = {s: result.runs.scores_of(i, k).tolist() for i, s in enumerate(result.systems)}
        multi_aso(scores, confidence_level=0.95, num_bootstrap_iterations=1000, use_bonferroni=True,
                  seed=1234, show_progress=False, num_jobs=1, return_df=False)
    np.random.seed(None)
    return time.perf_counter() - t0


def main(argv: Sequence[str] = ()) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--deepsig-models", type=int, default=1,
                    help="time deep-significance on this many models' matrices (default 1: about 25 s each)")
    args = ap.parse_args(list(argv) or None)
    data = Path(args.data)
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}; "
          f"median wall of {args.repeat} interleaved runs, largest peak RSS")
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(data, Path(tmp))
        got: Dict[str, List[Tuple[float, float]]] = {k: [] for k in cmds}
        for _ in range(args.repeat):
            for name, cmd in cmds.items():
                got[name].append(timed(cmd))
    rows = {k: (statistics.median(w for w, _ in v), max(m for _, m in v)) for k, v in got.items()}
    base = rows["20 systems"][0]
    for name, (wall, mb) in rows.items():
        print(f"  {name:30} {wall:7.2f} s {mb:8.1f} MB   {wall / base:5.2f}x the 20 systems")
    ratio = rows["runs (4 systems x 5 seeds)"][0] / base
    print(f"runs / 20 systems: {ratio:.2f}x (target <= 2x: {'PASS' if ratio <= 2 else 'FAIL'})")
    result = ranked(data)
    m = len(result.models)
    print(f"ASO for all pairs under {m} models (1,000 resamples each): ts_eval {result.timings['aso']:.3f} s "
          f"({result.timings['aso'] / m:.4f} s a matrix)", end="")
    try:
        k = min(args.deepsig_models, m)
        took = deepsig_time(result, k)
        print(f"; deep-significance multi_aso {took:.2f} s for {k} (a matrix {took / k:.2f} s: "
              f"{took / k / (result.timings['aso'] / m):,.0f}x)")
    except ImportError:
        print("; deep-significance not installed (pip install 'ts_eval[test]')")
    print(json.dumps({k: {"wall_s": round(w, 3), "peak_mb": round(m, 1)} for k, (w, m) in rows.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
