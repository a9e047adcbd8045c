#!/usr/bin/env python3
"""Almost Stochastic Order on the shared CoNLL-2003 runs: ts_eval against deep-significance.

Reads ``runs/scores.tsv`` (conlleval FB1 of 4 taggers × 5 seeds) and prints, for the FB1 lists:

- the ε_min matrix of ``ts_eval.ranking.aso.aso_matrix`` (Bonferroni level as deepsig's, 1000
  resamples) at seed 0 and the median over ``--seeds`` seeds;
- deepsig's ``multi_aso`` matrix (same settings) at ``--seeds`` seeds spaced ``--resamples`` apart
  (deepsig seeds resample i with seed + i: consecutive seeds would share their resamples), as its
  median, minimum and maximum: the seed-to-seed spread;
- per ordered pair whether ts_eval agrees: its median over the seeds within deepsig's
  [min − margin, max + margin], margin = half of deepsig's range (tests/test_aso.py says why), and
  whether its seed-0 value lies within deepsig's plain [min, max]; then "pairs agreeing / total";
- the verdicts at τ = 0.5 and τ = 0.2 of both, and the beat probabilities.

    python scripts/aso_vs_deepsig.py [--data ../shared/data/conll2003-en] [--seeds 10] [--resamples 1000]

deepsig takes about 4 ms per resample and pair: 10 seeds × 6 pairs × 1000 resamples is 4-8 minutes.
"""
from __future__ import annotations

import argparse
import csv
import time
import warnings
from pathlib import Path
from typing import Dict, List

import numpy as np

from ts_eval.ranking.aso import aso_matrix, beat_probability, bonferroni_confidence


def read_fb1(path: Path) -> Dict[str, List[float]]:
    runs: Dict[str, List[float]] = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            runs.setdefault(row["system"], []).append(float(row["FB1"]))
    return runs


def show(title: str, names: List[str], m: np.ndarray, fmt: str = "{:7.4f}",
         reading: str = "row = A, column = B: ε_min(A, B)") -> None:
    width = max(len(n) for n in names)
    print(f"\n{title}  ({reading})")
    print(" " * width + "".join(f"{n[:18]:>20}" for n in names))
    for name, row in zip(names, m):
        print(f"{name:<{width}}" + "".join(f"{fmt.format(v):>20}" for v in row))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/conll2003-en")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--resamples", type=int, default=1000)
    args = ap.parse_args()
    runs = read_fb1(Path(args.data) / "runs" / "scores.tsv")
    names = list(runs)
    k = len(names)
    print("systems (FB1 of each run): " + "; ".join(f"{n}: {', '.join(f'{v:.2f}' for v in runs[n])}" for n in names))
    print(f"confidence 0.95, Bonferroni as deepsig's multi_aso: {bonferroni_confidence(0.95, k):.6f} "
          f"({k * (k - 1) // 2} comparisons); {args.resamples} resamples; {args.seeds} seeds each")

    t = time.perf_counter()
    ours = np.stack([aso_matrix(runs, resamples=args.resamples, seed=s) for s in range(args.seeds)])
    t_ours = time.perf_counter() - t

    from deepsig import multi_aso
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        refs = np.stack([multi_aso({n: np.array(v) for n, v in runs.items()}, num_bootstrap_iterations=args.resamples,
                                   seed=s * args.resamples, show_progress=False) for s in range(args.seeds)])
    t_ref = time.perf_counter() - t

    show("ts_eval, seed 0", names, ours[0])
    show(f"ts_eval, median over {args.seeds} seeds", names, np.median(ours, axis=0))
    show(f"deepsig multi_aso, median over {args.seeds} seeds", names, np.median(refs, axis=0))
    lo, hi = refs.min(axis=0), refs.max(axis=0)
    show("deepsig spread over its seeds (min-max)", names,
         np.array([[f"{a:.4f}-{b:.4f}" for a, b in zip(ra, rb)] for ra, rb in zip(lo, hi)]), fmt="{}")
    margin = (hi - lo) / 2
    mid = np.median(ours, axis=0)
    off = ~np.eye(k, dtype=bool)
    agree = (lo - margin <= mid) & (mid <= hi + margin)
    plain = (lo <= ours[0]) & (ours[0] <= hi)
    print(f"\nordered pairs agreeing (ts_eval's median within deepsig's [min - margin, max + margin], margin = half "
          f"its range): {int(agree[off].sum())} / {int(off.sum())}")
    print(f"ordered pairs whose ts_eval seed-0 value lies within deepsig's plain [min, max]: "
          f"{int(plain[off].sum())} / {int(off.sum())}")
    print(f"largest deepsig spread (max - min) over the pairs: {float((hi - lo)[off].max()):.5f}; "
          f"largest |ts_eval median - deepsig median|: {float(np.abs(mid - np.median(refs, axis=0))[off].max()):.5f}")
    for tau in (0.5, 0.2):
        a = [(names[i], names[j]) for i in range(k) for j in range(k) if i != j and mid[i, j] < tau]
        b = [(names[i], names[j]) for i in range(k) for j in range(k)
             if i != j and np.median(refs, axis=0)[i, j] < tau]
        print(f"τ = {tau}: ts_eval {len(a)} dominant pairs, deepsig {len(b)}, the same: {a == b}: "
              + ", ".join(f"{x} > {y}" for x, y in a))
    show("beat probability (a random run of A beats one of B)", names,
         np.array([[beat_probability(runs[x], runs[y]) for y in names] for x in names]),
         reading="row = A, column = B")
    print(f"\ntime: ts_eval {t_ours:.3f} s for {args.seeds} matrices, deepsig {t_ref:.1f} s")


if __name__ == "__main__":
    main()
