#!/usr/bin/env python3
"""Time ts_eval's SemEval-2013 categories against nervaluate's, side by side.

The same seeded synthetic IOB2 corpus as ``bench_compat.py`` (1M tokens, a noisy
system with boundary shifts, label switches, misses, spurious and ill-formed spans),
timed in one process, interleaved and repeated, two ways:

* **from tags**: tag lists in, all four schemes overall and per label out --
  ``ts_eval.score(..., models=("semeval",))`` against
  ``nervaluate.Evaluator(..., loader="list").evaluate()``;
* **from spans**: the counting alone, on spans already decoded --
  :func:`ts_eval.models.semeval.semeval_model` on the Corpus against nervaluate's ``dict`` loader.

Both results are checked to be equal (every count and score) before the ratio is printed.

    python scripts/bench_semeval.py                       # 1M tokens, 3 repeats
    python scripts/bench_semeval.py --tokens 200000 --repeats 5

Target (issue 13), reported, not enforced: at least 10x faster than nervaluate.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_compat import corpus, timed  # noqa: E402  (the same synthetic corpus)
from semeval_conll2003 import as_dicts, differences  # noqa: E402

import ts_eval  # noqa: E402
from ts_eval.core.sequences import from_sequences  # noqa: E402
from ts_eval.models.semeval import semeval_model  # noqa: E402

TARGET_RATIO = 10.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    try:
        from nervaluate import Evaluator
    except ImportError:
        print("nervaluate is not installed (pip install nervaluate, or the test extra)", file=sys.stderr)
        return 2

    y_true, y_pred = corpus(args.tokens, args.seed)
    c = from_sequences(y_true, y_pred)
    labels = list(c.labels)
    gold_d, pred_d = as_dicts(c, c.gold), as_dicts(c, c.systems["system"])
    print(f"corpus: {c.n_tokens:,} tokens, {c.n_sentences:,} sentences, {len(c.gold):,} gold and "
          f"{len(c.systems['system']):,} system spans")

    def ours_tags():
        return ts_eval.score(y_true, y_pred, models=("semeval",)).system("system")["semeval"]

    def ref_tags():
        return Evaluator(y_true, y_pred, tags=labels, loader="list").evaluate()

    def ours_spans():
        return semeval_model(c, c.systems["system"])

    def ref_spans():
        return Evaluator(gold_d, pred_d, tags=labels, loader="dict").evaluate()

    ok = True
    for what, ours, ref in (("from tags", ours_tags, ref_tags), ("from spans", ours_spans, ref_spans)):
        ours_t, ref_t = [], []
        for _ in range(args.repeats):
            t, mine = timed(ours)
            ours_t.append(t)
            t, theirs = timed(ref)
            ref_t.append(t)
        diff = differences(mine, theirs)
        ok &= not diff
        om, rm = statistics.median(ours_t), statistics.median(ref_t)
        ratio = rm / om
        print(f"{what}: ts_eval median {om:.3f} s (runs {', '.join(f'{x:.3f}' for x in ours_t)}); "
              f"nervaluate median {rm:.3f} s (runs {', '.join(f'{x:.3f}' for x in ref_t)})")
        print(f"  ratio nervaluate / ts_eval: {ratio:.1f}x (target >= {TARGET_RATIO:.0f}x: "
              f"{'met' if ratio >= TARGET_RATIO else 'NOT met'}); results equal: {not diff}")
        for d in diff[:10]:
            print("   ", d)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
