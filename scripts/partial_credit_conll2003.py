#!/usr/bin/env python3
"""Partial credit on the 28 CoNLL-2003 English systems: exact match beside the overlap model
under its thresholds and assignments, SemEval's partial scheme, and nervaluate's own
``min_overlap_percentage`` as the reference where ts_eval claims to match it.

Per system (``systems/NAME.conll``: ``TOKEN GOLD PRED``, IOB2):

* ``exact``: conlleval's F1;
* ``overlap``: any shared token, many-to-many (ts_eval's default: one system span may hit several
  gold spans), then ``iou:0.5``, then one-to-one (a maximum matching), then both;
* how many system spans hit two or more gold spans (what one-to-one stops counting twice);
* SemEval partial F (nervaluate's default and ``nervaluate:50``), and nervaluate 1.2.1's partial F
  with ``min_overlap_percentage=50`` on the same spans: they must be equal.

    python scripts/partial_credit_conll2003.py
    python scripts/partial_credit_conll2003.py --data /path/to/conll2003-en

The data are Reuters text without an open licence: nothing is written anywhere.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Dict, List

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, system_files  # noqa: E402  (scripts/ is on the path)

sys.path.insert(0, str(HERE))

from semeval_conll2003 import as_dicts  # noqa: E402  (nervaluate's entity dicts)

import ts_eval  # noqa: E402
from ts_eval.core.corpus import Corpus  # noqa: E402
from ts_eval.core.matching import match  # noqa: E402
from ts_eval.io import read_conll  # noqa: E402

SETTINGS = (("overlap", None, "many-to-many"), ("overlap iou:0.5", "iou:0.5", "many-to-many"),
            ("overlap 1:1", None, "one-to-one"), ("overlap iou:0.5 1:1", "iou:0.5", "one-to-one"))


def multi_hits(corpus: Corpus, name: str) -> int:
    """System spans that share a token with two or more gold spans of their label."""
    system = corpus.systems[name]
    pairs = match(corpus.gold, system)
    same = corpus.gold.label[pairs.gold] == system.label[pairs.system]
    hits = np.bincount(pairs.system[same], minlength=len(system))
    return int(np.count_nonzero(hits >= 2))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=None, help="the conll2003-en folder")
    args = ap.parse_args()
    data = Path(args.data) if args.data else DEFAULT_DATA
    files = system_files(data)
    from nervaluate import Evaluator
    heads = ["exact"] + [t for t, _, _ in SETTINGS] + ["multi", "SE partial", "SE p. n:50", "nervaluate 50"]
    print(f"{'system':36}" + "".join(f"{h:>21}" if h.startswith("overlap") else f"{h:>14}" for h in heads))
    cols: Dict[str, List[float]] = {h: [] for h in heads}
    agree = 0
    for path in files:
        name = os.path.basename(path)[:-len(".conll")]
        corpus = read_conll(path, gold_column=2, system_columns=[3], names=[name])
        row: Dict[str, float] = {}
        row["exact"] = ts_eval.score(corpus, models=["exact"]).systems[0]["exact"]["micro"]["f"]
        for title, threshold, assignment in SETTINGS:
            rep = ts_eval.score(corpus, models=["overlap"], min_overlap=threshold, assignment=assignment)
            row[title] = rep.systems[0]["overlap"]["micro"]["f"]
        row["multi"] = multi_hits(corpus, name)
        se = ts_eval.score(corpus, models=["semeval"]).systems[0]["semeval"]
        row["SE partial"] = se["partial"]["overall"]["f"]
        se50 = ts_eval.score(corpus, models=["semeval"], min_overlap="nervaluate:50").systems[0]["semeval"]
        row["SE p. n:50"] = se50["partial"]["overall"]["f"]
        ref = Evaluator(as_dicts(corpus, corpus.gold), as_dicts(corpus, corpus.systems[name]),
                        tags=list(corpus.labels), loader="dict", min_overlap_percentage=50).evaluate()
        row["nervaluate 50"] = ref["overall"]["partial"].f1
        same = all(se50[s]["overall"][k] == getattr(ref["overall"][s], k)
                   for s in ("strict", "exact", "partial", "ent_type")
                   for k in ("correct", "incorrect", "partial", "missed", "spurious"))
        agree += same and row["nervaluate 50"] == row["SE p. n:50"]
        for h in heads:
            cols[h].append(row[h])
        print(f"{name:36}" + "".join((f"{row[h]:21.2%}" if h.startswith("overlap") else
                                     f"{int(row[h]):14d}" if h == "multi" else f"{row[h]:14.2%}") for h in heads))
    print("\nmean over the systems:")
    for h in heads:
        v = np.array(cols[h], float)
        print(f"  {h:22} {v.mean() * (1 if h == 'multi' else 100):8.2f}" + ("" if h == "multi" else " %"))
    d = np.array(cols["overlap"]) - np.array(cols["overlap 1:1"])
    print(f"overlap many-to-many minus one-to-one: mean {d.mean() * 100:.3f} points, largest {d.max() * 100:.3f}; "
          f"systems with a span over two gold spans of its label: {sum(1 for m in cols['multi'] if m)}/{len(files)}")
    print(f"SemEval with nervaluate:50 equal to nervaluate 1.2.1's min_overlap_percentage=50 "
          f"(counts of the four schemes and partial F): {agree}/{len(files)} systems")
    return 0 if agree == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
