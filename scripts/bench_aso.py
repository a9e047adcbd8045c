#!/usr/bin/env python3
"""Time Almost Stochastic Order: ts_eval's ``aso_matrix`` beside deep-significance's ``multi_aso``.

The issue's case is every ordered pair of 4 systems × 5 runs under about 10 evaluation models,
1000 resamples (a rank study with runs computes one matrix per model); the lead's upper case is 30
systems.  Scores are generated (F1-like, numpy), so no data is needed.  Printed side by side in one
run: ts_eval's time per matrix and for all models (best of ``--repeat``), and deepsig's time for
the same matrix (``--deepsig-models`` of the models; deepsig takes seconds per pair, so the 30-system
row gives deepsig's time measured on one pair, times the number of pairs and models, marked as an
estimate).

    python scripts/bench_aso.py [--models 10] [--resamples 1000] [--repeat 3] [--deepsig-models 1]
"""
from __future__ import annotations

import argparse
import time
import timeit
import warnings
from typing import Callable, List

import numpy as np

from ts_eval.ranking.aso import aso_matrix, eps_min


def best(fn: Callable[[], object], repeat: int) -> float:
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def studies(systems: int, models: int, runs: int, seed: int) -> List[np.ndarray]:
    """One systems × runs array of F1-like scores per model."""
    rng = np.random.default_rng(seed)
    means = rng.normal(88, 1.5, systems)
    return [np.round(rng.normal(means[:, None] + rng.normal(0, 0.3, (systems, 1)), 0.5, (systems, runs)), 2)
            for _ in range(models)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=10)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--deepsig-models", type=int, default=1,
                    help="models deepsig computes for the 4-system case (about 25 s each)")
    args = ap.parse_args()
    from deepsig import aso, multi_aso
    with warnings.catch_warnings():         # joblib's and numpy's first-call costs are not deepsig's
        warnings.simplefilter("ignore")
        aso([1.0, 2.0], [1.5, 2.5], num_bootstrap_iterations=5, seed=0, show_progress=False)
    aso_matrix([[1.0, 2.0], [1.5, 2.5]], resamples=5)

    print(f"{args.runs} runs per system, {args.resamples} resamples, {args.models} models; times in seconds "
          f"(ts_eval: best of {args.repeat})")
    print(f"{'systems':>7} {'pairs':>6} {'ts_eval/matrix':>15} {'ts_eval/all':>12} {'deepsig/matrix':>15} "
          f"{'deepsig/all':>12} {'ratio':>8}")
    for systems in (4, 10, 30):
        data = studies(systems, args.models, args.runs, seed=systems)
        pairs = systems * (systems - 1) // 2
        ours_all = best(lambda d=data: [aso_matrix(m, resamples=args.resamples, seed=0) for m in d], args.repeat)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if systems == 4:
                n = max(1, min(args.deepsig_models, args.models))
                t = time.perf_counter()
                for m in data[:n]:
                    multi_aso(m, num_bootstrap_iterations=args.resamples, seed=0, show_progress=False)
                ref_matrix = (time.perf_counter() - t) / n
                note = f"measured on {n} model(s)"
            else:
                t = time.perf_counter()
                aso(data[0][0], data[0][1], num_bootstrap_iterations=args.resamples, seed=0, show_progress=False)
                ref_matrix = (time.perf_counter() - t) * pairs
                note = "estimated: one pair measured × pairs"
        ref_all = ref_matrix * args.models
        print(f"{systems:>7} {pairs:>6} {ours_all / args.models:>15.4f} {ours_all:>12.3f} {ref_matrix:>15.1f} "
              f"{ref_all:>12.1f} {ref_all / ours_all:>7.0f}x  deepsig {note}")
    a, b = studies(2, 1, args.runs, seed=1)[0]
    one = best(lambda: eps_min(a, b, resamples=args.resamples), args.repeat)
    print(f"one pair (eps_min): ts_eval {one * 1000:.2f} ms")


if __name__ == "__main__":
    main()
