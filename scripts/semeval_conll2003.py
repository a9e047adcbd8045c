#!/usr/bin/env python3
"""ts_eval's SemEval-2013 categories against nervaluate on the 28 CoNLL-2003 English systems.

For every ``systems/NAME.conll`` (``TOKEN GOLD PRED``, IOB2 on both sides) this computes
the four schemes (strict, exact, partial, ent_type; overall and per label) with
:mod:`ts_eval.models.semeval` and with nervaluate twice:

* **spans**: nervaluate fed ts_eval's decoded spans (its list-of-dicts input), which
  tests the counting algorithm alone;
* **own loader**: nervaluate fed the raw tag lists (its IOB ``list`` loader), which adds
  nervaluate's own decoding of the tags, ill-formed ones included (an ``I-`` tag after
  ``O`` or after another type).

Every count and score must be equal (floats exactly).  It also counts the ill-formed
system tags per file, and for any disagreement of the own-loader run says whether the
decoded spans differ (then nervaluate's decoding is the cause).

    python scripts/semeval_conll2003.py
    python scripts/semeval_conll2003.py --data /path/to/conll2003-en

The data are Reuters text without an open licence: nothing is written anywhere.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, system_files  # noqa: E402  (scripts/ is on the path)
from nervaluate import Evaluator  # noqa: E402

from ts_eval.core.corpus import Corpus, SpanSet  # noqa: E402
from ts_eval.io import read_conll  # noqa: E402
from ts_eval.models.semeval import SCHEMES, semeval_model  # noqa: E402

KEYS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual", "precision", "recall")


def as_dicts(corpus: Corpus, spans: SpanSet) -> List[List[Dict]]:
    docs: List[List[Dict]] = [[] for _ in range(corpus.n_sentences)]
    for s, b, e, lab in zip(corpus.sentence_of(spans.start).tolist(), spans.start.tolist(), spans.last.tolist(),
                            spans.label.tolist()):
        o = int(corpus.sent_offsets[s])
        # nervaluate's entity dicts, whose "end" is the last token (inclusive)
        docs[s].append({"label": corpus.labels[lab], "start": b - o, "end": e - o})
    return docs


def raw_tags(path: str) -> Tuple[List[List[str]], List[List[str]]]:
    """Gold and system tag lists per sentence, -DOCSTART- lines left out (they carry O)."""
    gold: List[List[str]] = [[]]
    pred: List[List[str]] = [[]]
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if not parts:
                if gold[-1]:
                    gold.append([])
                    pred.append([])
                continue
            if parts[0] == "-DOCSTART-":
                continue
            gold[-1].append(parts[1])
            pred[-1].append(parts[2])
    if not gold[-1]:
        gold.pop()
        pred.pop()
    return gold, pred


def ill_formed(sentences: List[List[str]]) -> int:
    """I- tags that do not continue a span of their type (after O, at sentence start, after another type)."""
    n = 0
    for s in sentences:
        prev = "O"
        for t in s:
            if t.startswith("I-") and (prev == "O" or prev[2:] != t[2:]):
                n += 1
            prev = t
    return n


def decoding_differences(corpus: Corpus, name: str, gold: List[List[str]], pred: List[List[str]],
                         labels: List[str]) -> int:
    """Sentences whose spans from nervaluate's IOB list loader differ from ts_eval's (either side)."""
    ev = Evaluator(gold, pred, tags=labels, loader="list")
    n = 0
    for theirs, ours in ((ev.true, as_dicts(corpus, corpus.gold)), (ev.pred, as_dicts(corpus, corpus.systems[name]))):
        n += sum(1 for a, b in zip(theirs, ours) if [(e.label, e.start, e.end) for e in a]
                 != [(d["label"], d["start"], d["end"]) for d in b])
    return n


def differences(mine: Dict, ref: Dict) -> List[tuple]:
    out = []
    for sch in SCHEMES:
        rows = [("overall", mine[sch]["overall"], ref["overall"][sch])]
        rows += [(lab, mine[sch]["labels"][lab], ref["entities"][lab][sch]) for lab in ref["entities"]]
        present = {lab for lab, r in mine[sch]["labels"].items() if r["present"]}
        if present != set(ref["entities"]):
            out.append((sch, "labels", sorted(present), sorted(ref["entities"])))
        for where, a, r in rows:
            out += [(sch, where, k, a[k], getattr(r, k)) for k in KEYS if a[k] != getattr(r, k)]
            if a["f"] != r.f1:
                out.append((sch, where, "f", a["f"], r.f1))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=None, help="the conll2003-en folder")
    args = ap.parse_args()
    data = Path(args.data) if args.data else DEFAULT_DATA
    files = system_files(data)
    agree_spans = agree_own = 0
    t_ours = t_ref = 0.0
    print(f"{'system':36} {'ill-formed I-':>13} {'strict F':>9} {'exact F':>8} {'partial F':>9} {'ent_type F':>10}"
          f"  spans  own loader")
    for path in files:
        name = os.path.basename(path)[:-len(".conll")]
        corpus = read_conll(path, gold_column=2, system_columns=[3], names=[name])
        t0 = time.perf_counter()
        mine = semeval_model(corpus, corpus.systems[name])
        t_ours += time.perf_counter() - t0
        labels = list(corpus.labels)
        t0 = time.perf_counter()
        ref_spans = Evaluator(as_dicts(corpus, corpus.gold), as_dicts(corpus, corpus.systems[name]),
                              tags=labels, loader="dict").evaluate()
        t_ref += time.perf_counter() - t0
        gold, pred = raw_tags(path)
        ref_own = Evaluator(gold, pred, tags=labels, loader="list").evaluate()
        d_spans, d_own = differences(mine, ref_spans), differences(mine, ref_own)
        agree_spans += not d_spans
        agree_own += not d_own
        f = [mine[s]["overall"]["f"] * 100 for s in SCHEMES]
        print(f"{name:36} {ill_formed(pred):>13} {f[0]:9.2f} {f[1]:8.2f} {f[2]:9.2f} {f[3]:10.2f}"
              f"  {'equal' if not d_spans else 'DIFF':5}  {'equal' if not d_own else 'DIFF'}")
        for d in (d_spans + d_own)[:5]:
            print("    ", d)
        if d_own:
            print(f"     sentences where nervaluate's own decoding gives other spans than ts_eval's: "
                  f"{decoding_differences(corpus, name, gold, pred, labels)}")
    n = len(files)
    print(f"\nequal to nervaluate on the same spans: {agree_spans}/{n} systems; "
          f"with nervaluate's own IOB loader: {agree_own}/{n} systems "
          f"(all counts and scores of the four schemes, overall and per label)")
    print(f"time for the {n} systems: ts_eval {t_ours:.2f} s, nervaluate on spans {t_ref:.2f} s "
          f"({t_ref / t_ours:.0f}x)")
    return 0 if agree_spans == agree_own == n else 1


if __name__ == "__main__":
    sys.exit(main())
