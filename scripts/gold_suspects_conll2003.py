#!/usr/bin/env python3
"""The error analysis on the 28 CoNLL-2003 English system outputs: how fast it is, and the gold
suspects it finds (gold spans that a clear majority of the systems reject in the same way, spans
they agree gold lacks), to be checked by eye against what is known of the test set's label errors
(Reiss et al. 2020; CleanCoNLL, Rücker & Akbik 2023).

    python scripts/gold_suspects_conll2003.py --data CONLL2003            # top 20 suspects, timings
    python scripts/gold_suspects_conll2003.py --data CONLL2003 --top 50 --repeat 7

Reads ``gold.iob2`` and ``systems/*.conll``.  Times, in one run and side by side, the median of
``--repeat`` runs of: ``evaluate`` under the exact, TS and fair models (what ``ts-eval score``
computes for all 28 systems) and ``error_analysis`` (confusion matrices, grouped errors, documents,
suspects, inconsistent gold), on the same corpus read once.  Then prints the suspects and the
inconsistent gold strings with their sentences, to the terminal only: the data are Reuters text
without an open licence, so nothing of it is written anywhere.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, system_files  # noqa: E402  (scripts/ is on the path)

from ts_eval.analysis.errors import error_analysis  # noqa: E402
from ts_eval.io import read_conll_pair  # noqa: E402
from ts_eval.models.evaluate import evaluate  # noqa: E402
from ts_eval.output.builders.compare_tables import inline_text  # noqa: E402


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times: List[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the conll2003-en folder")
    ap.add_argument("--top", type=int, default=20, help="suspects and inconsistent strings shown")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs (the median is shown)")
    args = ap.parse_args()
    data = Path(args.data)
    files = system_files(data)
    t = time.perf_counter()
    corpus = read_conll_pair(str(data / "gold.iob2"), files)
    read = time.perf_counter() - t
    print(f"{corpus.n_tokens} tokens, {corpus.n_sentences} sentences, {len(corpus.gold)} gold spans, "
          f"{len(files)} systems; read in {read:.2f} s")
    score = median_time(lambda: evaluate(corpus, models=["exact", "ts", "fair"]), args.repeat)
    analysis = median_time(lambda: error_analysis(corpus, top=args.top), args.repeat)
    print(f"median of {args.repeat} runs, same corpus: evaluate (exact, ts, fair) {score:.3f} s, "
          f"error_analysis {analysis:.3f} s")
    ea = error_analysis(corpus, top=args.top)
    s = ea.suspects
    print(f"\ngold suspects: {s.total} (at least {s.min_agree} of {len(files)} systems agree against gold); "
          f"strings with several gold labels: {s.label_total}; annotated here, not there: {s.unannotated_total}")
    by_type: Dict[str, int] = {}
    for one in error_analysis(corpus, top=None).suspects.suspects:
        by_type[one.type] = by_type.get(one.type, 0) + 1
    print("suspects by type: " + ", ".join(f"{k} {v}" for k, v in sorted(by_type.items())))
    for n, sx in enumerate(s.suspects, 1):
        e = sx.example
        gold = f"[{sx.gold_text}]{sx.gold_label}" if sx.gold_label else "nothing"
        alt = f"[{sx.text}]{sx.label}" if sx.label else "nothing"
        print(f"\n{n:2d}. {sx.type}: gold {gold}, systems {alt}; {sx.agreeing} agree, {sx.confirming} confirm gold; "
              f"line {e.where['gold']['line']}")
        print("    gold:    " + inline_text(e, "gold", ("*", "*")))
        print("    systems: " + inline_text(e, "systems", ("*", "*")))
    for kind, items in (("several gold labels", s.labels), ("annotated here, not there", s.unannotated)):
        print(f"\nstrings, {kind}:")
        for x in items:
            labels = ", ".join(f"{k} {v}" for k, v in x.labels.items())
            print(f"  {x.text!r}: {labels}; deviating {x.deviating}, line {x.example.where['gold']['line']} "
                  f"(most frequent label / annotated at line {x.reference.where['gold']['line']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
