#!/usr/bin/env python3
"""Time ``ts_eval.compat.seqeval.classification_report`` against seqeval's, side by side.

Builds a seeded synthetic IOB2 corpus in memory (lists of tag lists, as both APIs
take them) with a noisy system: boundary shifts, label switches, misses, spurious
and ill-formed spans (I- after O).  Then times both reports in the same process,
interleaved and repeated, checks that the two texts are identical and prints the
ratio.

    python scripts/bench_compat.py                     # 1M tokens, 3 repeats
    python scripts/bench_compat.py --tokens 200000 --repeats 5 --mode strict

Targets (issue 13) are reported, not enforced: at least 10x faster than seqeval.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ts_eval.compat import seqeval as compat

LABELS = ("PER", "LOC", "ORG", "MISC")
TARGET_RATIO = 10.0


def corpus(tokens: int, seed: int) -> Tuple[List[List[str]], List[List[str]]]:
    """Gold and a noisy system, sentences of 5..40 tokens, about one entity per 6 tokens."""
    rng = random.Random(seed)
    y_true: List[List[str]] = []
    y_pred: List[List[str]] = []
    made = 0
    while made < tokens:
        n = min(rng.randint(5, 40), tokens - made)
        gold = ["O"] * n
        pred = ["O"] * n
        i = 0
        while i < n:
            if rng.random() < 0.18:
                length = min(rng.choice((1, 1, 1, 2, 2, 3, 4)), n - i)
                lab = rng.choice(LABELS)
                gold[i] = f"B-{lab}"
                for j in range(i + 1, i + length):
                    gold[j] = f"I-{lab}"
                r = rng.random()
                plab = rng.choice(LABELS) if 0.80 < r < 0.86 else lab
                if r < 0.06:  # missed
                    pass
                else:
                    b, e = i, i + length - 1
                    if 0.86 <= r < 0.93:  # boundary shift
                        e = min(n - 1, max(b, e + rng.choice((-1, 1))))
                    pred[b] = f"I-{plab}" if 0.93 <= r < 0.96 else f"B-{plab}"  # ill-formed start
                    for j in range(b + 1, e + 1):
                        pred[j] = f"I-{plab}"
                i += length + 1
            else:
                if rng.random() < 0.01:  # spurious
                    pred[i] = f"B-{rng.choice(LABELS)}"
                i += 1
        y_true.append(gold)
        y_pred.append(pred)
        made += n
    return y_true, y_pred


def timed(fn, *args, **kwargs) -> Tuple[float, object]:
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - t0, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--mode", choices=("default", "strict"), default="default")
    args = ap.parse_args(argv)
    try:
        from seqeval.metrics import classification_report as seqeval_report
        from seqeval.scheme import IOB2
    except ImportError:
        print("seqeval is not installed (pip install seqeval, or the bench/test extra)", file=sys.stderr)
        return 2

    y_true, y_pred = corpus(args.tokens, args.seed)
    kw_ref = {"mode": "strict", "scheme": IOB2} if args.mode == "strict" else {}
    kw_ours = {"mode": "strict", "scheme": "IOB2"} if args.mode == "strict" else {}
    print(f"corpus: {sum(map(len, y_true)):,} tokens, {len(y_true):,} sentences, mode {args.mode}")
    ours_t, ref_t = [], []
    ours_out = ref_out = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(args.repeats):
            t, ours_out = timed(compat.classification_report, y_true, y_pred, digits=4, **kw_ours)
            ours_t.append(t)
            t, ref_out = timed(seqeval_report, y_true, y_pred, digits=4, **kw_ref)
            ref_t.append(t)
    same = ours_out == ref_out
    ours_m, ref_m = statistics.median(ours_t), statistics.median(ref_t)
    ratio = ref_m / ours_m
    print(f"ts_eval.compat.seqeval.classification_report: median {ours_m:.3f} s  "
          f"(runs: {', '.join(f'{x:.3f}' for x in ours_t)})")
    print(f"seqeval.metrics.classification_report:        median {ref_m:.3f} s  "
          f"(runs: {', '.join(f'{x:.3f}' for x in ref_t)})")
    print(f"ratio seqeval / ts_eval: {ratio:.1f}x (target >= {TARGET_RATIO:.0f}x: "
          f"{'met' if ratio >= TARGET_RATIO else 'NOT met'})")
    print(f"reports identical: {same}")
    if not same:
        print("--- seqeval\n" + str(ref_out) + "\n--- ts_eval\n" + str(ours_out))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
