#!/usr/bin/env python3
"""The human ceiling on CoNLL-2003 English: the original test set (``gold.iob2``) and CoNLL++'s
re-annotation of it (``gold-conllpp.iob2``, Wang et al. 2019) as two annotators of the same text, the 28
system outputs (``systems/*.conll``) scored against both, and each annotator against the other
(:func:`ts_eval.comparison.ceiling.human_ceiling`).

    python scripts/ceiling_conll2003.py                 # every default ranking model
    python scripts/ceiling_conll2003.py --data /path/to/conll2003-en --table exact-f1-micro

Prints, for the model ``--table``, systems and annotators ranked together by their mean score over the
annotators they are scored against (an annotator: the other one), with each one's score against each
annotator and, per annotator, whether a system reaches it like for like (over the same reference); then per
model the ceiling, the best system's mean and how many systems reach an annotator.

CoNLL++ is not an independent second annotation: its annotators corrected the original's labels in 186
sentences and left the rest as it was, so the two agree far more than two independent annotators would and
this ceiling is an upper bound of the human one.  The data are Reuters text without an open licence: the
script prints numbers only and writes nothing.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, system_files  # noqa: E402  (scripts/ is on the path)

from ts_eval.comparison.annotators import read_annotators  # noqa: E402
from ts_eval.comparison.ceiling import human_ceiling  # noqa: E402

ANNOTATORS = ("original", "conllpp")


def pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the conll2003-en folder")
    ap.add_argument("--table", default="exact-f1-micro", help="the model whose full table is printed")
    args = ap.parse_args()
    data = Path(args.data)
    t0 = time.perf_counter()
    corpus = read_annotators({"original": str(data / "gold.iob2"), "conllpp": str(data / "gold-conllpp.iob2")},
                             system_files(data))
    t1 = time.perf_counter()
    result = human_ceiling(corpus, list(ANNOTATORS))
    t2 = time.perf_counter()
    print(f"{corpus.n_tokens} tokens, {corpus.n_sentences} sentences; spans: original {len(corpus.gold)}, "
          f"conllpp {len(corpus.systems['conllpp'])}; {len(result.systems)} systems; read {t1 - t0:.1f} s, "
          f"scored {t2 - t1:.1f} s ({len(result.models)} models)")

    m = result.models[args.table]
    print(f"\n{args.table} (%): systems and annotators ranked by their mean over the annotators they are scored "
          "against;\nreaches: the annotators whose score the system reaches over the same reference (like for like)")
    print(f"{'rank':>5} {'side':<34} {'role':<9} {'vs orig':>7} {'vs ++':>6} {'mean':>6}  reaches")
    for r in m.rows:
        cells = [pct(r.versus[a]) if a in r.versus else "     -" for a in ANNOTATORS]
        reaches = "" if r.role == "annotator" else ", ".join(
            a for a in ANNOTATORS if m.like_for_like[a][r.name] >= m.row(a).mean - 1e-12)
        print(f"{r.rank:5g} {r.name:<34} {r.role:<9} {cells[0]:>7} {cells[1]:>6} {pct(r.mean)}  {reaches}")
    print(f"ceiling {pct(m.ceiling).strip()}")

    print(f"\n{'model':<18} {'ceiling':>7} {'best system':>11} {'gap':>6} {'reach one':>9} {'reach all':>9} "
          f"{'above ceiling':>13}")
    k = len(ANNOTATORS)
    for name, mc in result.models.items():
        systems = [r for r in mc.rows if r.role == "system"]
        if all(r.mean != r.mean for r in systems):
            print(f"{name:<18} (not available for these inputs)")
            continue
        best = systems[0].mean
        one = sum(1 for n in mc.reached.values() if n >= 1)
        every = sum(1 for n in mc.reached.values() if n == k)
        above = sum(1 for r in systems if r.mean >= mc.ceiling)
        print(f"{name:<18} {pct(mc.ceiling):>7} {pct(best):>11} {100 * (best - mc.ceiling):+6.2f} {one:>9} "
              f"{every:>9} {above:>13}")
    print("(reach one / all: systems whose score reaches one / every annotator's over the same reference; "
          "above ceiling: systems whose mean over both annotators reaches the annotators' mean)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
