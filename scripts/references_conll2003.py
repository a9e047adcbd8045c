#!/usr/bin/env python3
"""CoNLL-2003 English under two references: the original test set (``gold.iob2``) and CoNLL++'s
correction (``gold-conllpp.iob2``, Wang et al. 2019), with the 28 system outputs (``systems/*.conll``).

    python scripts/references_conll2003.py                  # exact-match F1 and the other default models
    python scripts/references_conll2003.py --data /path/to/conll2003-en --changes 10

Prints what changed (spans added, removed, relabelled, re-bounded, per label; the sentences that
differ), and per system its exact-match F1 under both references, the difference, its F1 on the changed
sentences under both, on the unchanged ones (the same under both: checked), and its errors that change
sides; then each default ranking model's mean difference and Spearman's rho between the two rankings.
The data are Reuters text without an open licence: the script prints a few changed spans to the terminal
(``--changes``) and writes nothing.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, read_original_and_conllpp  # noqa: E402  (scripts/ is on the path)

from ts_eval.comparison.references import compare_references  # noqa: E402

EXACT = "exact-f1-micro"


def pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def print_changes(result, shown: int) -> None:
    ch = result.changes
    print(f"changes from {ch.reference_a} to {ch.reference_b}: " + ", ".join(f"{k} {v}" for k, v in ch.counts.items())
          + f"; {len(ch.changed_sentences)} of {ch.sentences} sentences differ")
    print(f"{'label':<6} {'added':>6} {'removed':>8} {'relabelled':>11} {'rebounded':>10}")
    for label, counts in ch.labels.items():
        print(f"{label:<6} " + " ".join(f"{counts[k]:>{w}}" for k, w in
                                       (("added", 6), ("removed", 8), ("relabelled", 11), ("rebounded", 10))))
    print("relabelled: " + ", ".join(f"{k} {v}" for k, v in ch.transitions.items()))
    for c in ch.changes[:shown]:
        d = c.to_dict()
        before = f"{d['before']['label']} [{d['before']['text']}]" if d["before"] else "-"
        after = f"{d['after']['label']} [{d['after']['text']}]" if d["after"] else "-"
        print(f"  s{c.sentence + 1:<5} {c.kind:<10} {before}  ->  {after}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the conll2003-en folder")
    ap.add_argument("--changes", type=int, default=8, help="changed spans to print (terminal only)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    corpus = read_original_and_conllpp(args.data)
    t1 = time.perf_counter()
    result = compare_references(corpus, "conllpp")
    t2 = time.perf_counter()
    print(f"{corpus.n_tokens} tokens, {corpus.n_sentences} sentences, {len(corpus.gold)} spans (original), "
          f"{len(corpus.systems['conllpp'])} (CoNLL++), {len(result.systems)} systems; read {t1 - t0:.1f} s, "
          f"compared {t2 - t1:.1f} s ({len(result.models)} models)")
    print_changes(result, args.changes)

    print(f"\nexact-match F1 (%): whole test set, the {len(result.changes.changed_sentences)} changed sentences, "
          "the unchanged ones; errors = FP + FN")
    print(f"{'system':<34} {'orig':>6} {'conll++':>7} {'diff':>6} | {'chg orig':>8} {'chg ++':>6} | {'unchg':>6} | "
          f"{'errors':>6} {'fixed':>5} {'new':>4} {'errors++':>8}")
    rows = sorted(result.systems, key=lambda s: -s.scores[EXACT]["whole"]["score_a"])
    for s in rows:
        e = s.scores[EXACT]
        assert e["unchanged"]["score_a"] == e["unchanged"]["score_b"], s.name
        assert s.errors_b == s.errors_a - s.wrong_a_right_b + s.right_a_wrong_b, s.name
        print(f"{s.name:<34} {pct(e['whole']['score_a'])} {pct(e['whole']['score_b']):>7} "
              f"{100 * e['whole']['difference']:+6.2f} | {pct(e['changed']['score_a']):>8} "
              f"{pct(e['changed']['score_b'])} | {pct(e['unchanged']['score_a'])} | {s.errors_a:>6} "
              f"{s.wrong_a_right_b:>5} {s.right_a_wrong_b:>4} {s.errors_b:>8}")
    print("(fixed: errors under the original that are none under CoNLL++; new: the reverse; the unchanged "
          "sentences' F1 is the same under both references for every system and model: checked)")

    print("\nerrors that change sides by kind of change, mean per system: fixed / new")
    groups = {"neural (12)": [s for s in result.systems if not s.name.startswith("task2003")],
              "2003 (16)": [s for s in result.systems if s.name.startswith("task2003")]}
    print(f"{'kind':<11} {'spans':>5} " + " ".join(f"{g:>15}" for g in groups))
    for kind, n in result.changes.counts.items():
        spans = n * (2 if kind in ("relabelled", "rebounded") else 1)
        cells = [f"{np.mean([s.kinds[kind]['wrong_a_right_b'] for s in g]):6.1f} / "
                 f"{np.mean([s.kinds[kind]['right_a_wrong_b'] for s in g]):5.1f}" for g in groups.values()]
        print(f"{kind:<11} {spans:>5} " + " ".join(f"{c:>15}" for c in cells))

    from scipy.stats import spearmanr

    print(f"\n{'model':<18} {'mean diff':>9} {'min':>6} {'max':>6} {'rho':>6} {'rank moves':>10}")
    for m in result.models:
        a = np.array([s.scores[m]["whole"]["score_a"] for s in result.systems])
        b = np.array([s.scores[m]["whole"]["score_b"] for s in result.systems])
        for s in result.systems:
            u = s.scores[m]["unchanged"]
            assert u["score_a"] == u["score_b"] or (np.isnan(u["score_a"]) and np.isnan(u["score_b"])), (s.name, m)
        if np.isnan(a).all():
            print(f"{m:<18} (not available for these inputs)")
            continue
        d = b - a
        rho = spearmanr(a, b)[0]
        ranks_a, ranks_b = (np.argsort(np.argsort(-x, kind="stable")) for x in (a, b))
        moves = int(np.count_nonzero(ranks_a != ranks_b))
        print(f"{m:<18} {100 * np.nanmean(d):+9.2f} {100 * np.nanmin(d):+6.2f} {100 * np.nanmax(d):+6.2f} "
              f"{rho:6.3f} {moves:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
