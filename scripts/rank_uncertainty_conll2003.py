#!/usr/bin/env python3
"""How sure is the CoNLL-2003 rank study? Flips, correlation intervals, groups, and the time they cost.

Part 1 ranks the 16 CoNLL-2003 submissions (``task2003-*.conll``) with the default models,
1000 paired bootstrap resamples and 1000 permutations, and prints the flip analysis of
exact-match F1 micro (the official score) against TS-F1 macro, the intervals of their
Spearman and Kendall coefficients, and the significance groups under both models.
Part 2 times ``ts-eval rank`` end to end (process start to JSON written) on all 28
systems with every model (``--models all``), 1000 resamples and 1000 permutations,
``--repeat`` times, and prints the library's own phase timings of the last run.

    python scripts/rank_uncertainty_conll2003.py [--data ../shared/data/conll2003-en] [--repeat 3]

Only numbers and system names are printed (the CoNLL-2003 text is never copied).
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
from typing import List, Optional

from ts_eval.io import read_conll_pair
from ts_eval.ranking import study as ranking

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "conll2003-en"
A, B = "exact-f1-micro", "ts-f1-macro"


def part1(data: Path, resamples: int, permutations: int) -> None:
    files = sorted((data / "systems").glob("task2003-*.conll"))
    corpus = read_conll_pair(str(data / "gold.iob2"), [str(f) for f in files],
                             names=[f.stem.replace("task2003-", "") for f in files])
    r = ranking.rank_corpus(corpus, bootstrap=resamples, permutations=permutations, seed=0)
    ka, kb = r.models.index(A), r.models.index(B)
    u = r.uncertainty
    print(f"16 CoNLL-2003 submissions, default models, {resamples} resamples, {permutations} permutations, seed 0")
    print(f"\nSpearman {A} / {B}: {r.spearman[ka, kb]:.3f}, {100 * u.confidence:g}% interval "
          f"{u.spearman_low[ka, kb]:.3f}-{u.spearman_high[ka, kb]:.3f}")
    print(f"Kendall tau-b {A} / {B}: {r.kendall[ka, kb]:.3f}, interval "
          f"{u.kendall_low[ka, kb]:.3f}-{u.kendall_high[ka, kb]:.3f}")
    f = r.flips(A, B)
    print(f"\nFlips {A} vs {B}: {f.summary}")
    for p in f.pairs:
        star = "  *" if p.p_a < f.alpha and p.p_b < f.alpha else ""
        print(f"  {p.better_under_a:>10} > {p.better_under_b:<10} under {A} (p {p.p_a:.3f}), "
              f"the other way under {B} (p {p.p_b:.3f}){star}")
    print(f"\nSignificance groups (Holm over each model's neighbour tests, alpha {u.alpha:g}):")
    for k in (ka, kb):
        groups = [[r.systems[i] for i in r.order[k] if u.groups[i, k] == g]
                  for g in range(1, int(u.groups[:, k].max()) + 1)]
        print(f"  {r.models[k]}: " + " | ".join(", ".join(g) for g in groups))
    print("\nAgreement of each model with the reference:")
    for k, m in enumerate(r.models):
        if k != ka:
            print(f"  {m:18} rho {r.spearman[ka, k]:.3f} [{u.spearman_low[ka, k]:.3f}-{u.spearman_high[ka, k]:.3f}]"
                  f"  tau-b {r.kendall[ka, k]:.3f} [{u.kendall_low[ka, k]:.3f}-{u.kendall_high[ka, k]:.3f}]"
                  f"  {r.flips(A, m).summary}")


def part2(data: Path, repeat: int, resamples: int, permutations: int, ts_eval: Optional[str]) -> None:
    cmd = ts_eval.split() if ts_eval else [sys.executable, "-m", "ts_eval"]
    walls: List[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rank.json")
        args = cmd + ["rank", "--gold", str(data / "gold.iob2"), str(data / "systems"), "--models", "all",
                      "--bootstrap", str(resamples), "--permutations", str(permutations), "--format", "json",
                      "-o", out, "--no-progress"]
        for _ in range(repeat):
            t0 = time.perf_counter()
            subprocess.run(args, check=True, cwd=REPO)   # this checkout's ts_eval (python -m)
            walls.append(time.perf_counter() - t0)
        d = json.loads(Path(out).read_text())
    print(f"\nts-eval rank, 28 systems x {len(d['models'])} models (--models all), {resamples} resamples, "
          f"{permutations} permutations, JSON written: wall " + ", ".join(f"{w:.2f}" for w in walls)
          + f" s (best {min(walls):.2f}, median {statistics.median(walls):.2f}; target < 5 s)")
    print("phases of the last run: " + "; ".join(f"{k} {v:.2f} s" for k, v in d["timings"].items()))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA), help=f"the conll2003-en folder (default {DEFAULT_DATA})")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--permutations", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of part 2 (default 3)")
    ap.add_argument("--ts-eval", default=None, help="command that runs ts-eval (default: this python -m ts_eval)")
    args = ap.parse_args(argv)
    data = Path(args.data)
    if not (data / "gold.iob2").exists():
        print(f"no gold.iob2 in {data}; give --data", file=sys.stderr)
        return 2
    part1(data, args.resamples, args.permutations)
    part2(data, args.repeat, args.resamples, args.permutations, args.ts_eval)
    return 0


if __name__ == "__main__":
    sys.exit(main())
