#!/usr/bin/env python3
"""Tuggener's comparative evaluation on CoNLL-2003 English: two systems in detail, the
oracle upper bounds over all 28 system outputs.

    python scripts/compare_conll2003.py                       # florian (A) -> chieu (B)
    python scripts/compare_conll2003.py --a task2003-florian --b spanner-CflairWglove_lstmCrf
    python scripts/compare_conll2003.py --data /path/to/conll2003-en --json out.json

Reads ``../shared/data/conll2003-en/`` (gold.iob2 and systems/*.conll) and cross-checks
the per-system numbers against ``scores.tsv`` (conlleval.pl's exact-match recall and its
token accuracy, which counts the 231 -DOCSTART- lines as correct O tokens).  The data are
Reuters text without an open licence: this script prints a few example sentences to the
terminal and writes nothing into the repository.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, system_files  # noqa: E402  (scripts/ is on the path)

from ts_eval.comparison import CLASS_TITLES, CLASSES, compare  # noqa: E402
from ts_eval.io import read_conll_pair  # noqa: E402
from ts_eval.output.builders import build  # noqa: E402
from ts_eval.output.page import Page, Section  # noqa: E402
from ts_eval.output.renderers import render  # noqa: E402


def pct(x: float) -> str:
    return f"{100 * x:.2f}"


def first_examples(result) -> Page:
    """A document of the comparison's examples table cut to the first example of each level and class."""
    table = build(result).table("examples")
    seen, rows = set(), []
    for row in table.rows:
        key = (row[1].value, row[2].value)          # level, class
        if key not in seen:
            seen.add(key)
            rows.append(row)
    table = replace(table, title="Examples (terminal only: the first of each level and class)", rows=rows)
    return Page("compare", "examples", [Section("Examples", [table])])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the conll2003-en folder")
    ap.add_argument("--a", default="task2003-florian", help="baseline system (default: the shared task's best)")
    ap.add_argument("--b", default="task2003-chieu", help="new system (default: the shared task's second)")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--examples", type=int, default=1, help="example sentences per top transition (terminal only)")
    ap.add_argument("--json", metavar="FILE", help="also write the full comparison as JSON (outside the repo!)")
    args = ap.parse_args()

    data = Path(args.data)
    files = system_files(data)
    t0 = time.perf_counter()
    corpus = read_conll_pair(str(data / "gold.iob2"), files)
    t1 = time.perf_counter()
    result = compare(corpus, args.a, args.b, top=args.top, examples=args.examples)
    t2 = time.perf_counter()
    print(f"{corpus.n_tokens} tokens, {corpus.n_sentences} sentences, {len(corpus.gold)} gold spans, "
          f"{len(files)} systems; read {t1 - t0:.2f} s, compared {t2 - t1:.2f} s")

    # cross-check against conlleval.pl (scores.tsv)
    with open(data / "scores.tsv") as f:
        ref = {r["system"]: r for r in csv.DictReader(f, delimiter="\t")}
    worst_r = worst_acc = 0.0
    for s in result.systems:
        r = ref[s["name"]]
        acc_conll = (s["token_accuracy"] * corpus.n_tokens + corpus.docstart_lines) / (
            corpus.n_tokens + corpus.docstart_lines)
        worst_r = max(worst_r, abs(round(100 * s["recall"], 2) - float(r["conlleval_recall"])))
        worst_acc = max(worst_acc, abs(round(100 * acc_conll, 2) - float(r["conlleval_token_accuracy"])))
        assert s["tp"] == int(r["correct"]) and s["system"] == int(r["found"]), s["name"]
    print(f"check against scores.tsv: exact hits and found spans equal for all {len(result.systems)} systems; "
          f"largest difference in recall {worst_r:.2f}, in token accuracy (with -DOCSTART-) {worst_acc:.2f} points")

    # ---- the pair
    p = result.pair
    t = p.token
    print(f"\n== {t.a} (A) -> {t.b} (B)")
    delta = 100 * (t.accuracy_b - t.accuracy_a)
    print(f"token accuracy A {pct(t.accuracy_a)}  B {pct(t.accuracy_b)}  (delta {delta:+.2f})"
          f"; correct sentences A {pct(t.correct_sentences_a)}  B {pct(t.correct_sentences_b)}")
    print(f"Difference: {pct(t.diff)}% ({t.differing}/{t.tokens})")
    for k in CLASSES:
        c = t.classes[k]
        print(f"  {CLASS_TITLES[k]}: {pct(c.share)}% ({c.count}/{t.differing})")
        for tr in c.top:
            print(f"      {tr.name:<28} {pct(tr.share_of_class):>6}  ({tr.count})")
    s = p.span
    print(f"\nSpan level (fair outcomes): difference {pct(s.diff)}% ({s.differing}/{s.gold + s.spurious}: "
          f"{s.gold} gold spans + {s.spurious} spurious spans of A or B)")
    print("  outcomes A: " + ", ".join(f"{k} {v}" for k, v in s.outcomes_a.items()))
    print("  outcomes B: " + ", ".join(f"{k} {v}" for k, v in s.outcomes_b.items()))
    for k in CLASSES:
        c = s.classes[k]
        print(f"  {CLASS_TITLES[k]}: {pct(c.share)}% ({c.count}/{s.differing}): " +
              ", ".join(f"{tr.name} {tr.count}" for tr in c.top))
    print("  per label (corrections / new errors / changed, net):")
    for r in s.per_label:
        print(f"      {r['label']:<5} {r['correction']:>4} / {r['new_error']:>4} / {r['changed_error']:>4}  "
              f"net {r['net']:+d}   TP {r['tp_a']} -> {r['tp_b']}")
    tot = p.ts.total
    print(f"\nTS units (tokens + separators): B right & A wrong {tot['b_right_a_wrong']['units']:g}, "
          f"A right & B wrong {tot['a_right_b_wrong']['units']:g}, net {tot['net_units']:+g}")
    for r in p.ts.per_label:
        print(f"      {r['label']:<5} {r['b_right_a_wrong']['units']:>5g} vs {r['a_right_b_wrong']['units']:>5g}"
              f"  net {r['net_units']:+g}")

    # ---- all systems
    m = result.multi
    to, so = m.token_oracle["micro"], m.span_oracle["micro"]
    diffs = [r["diff"] for r in m.pairs]
    lo = min(m.pairs, key=lambda r: r["diff"])
    hi = max(m.pairs, key=lambda r: r["diff"])
    print(f"\n== all {len(m.names)} systems")
    print(f"pairwise diff: mean {pct(sum(diffs) / len(diffs))}%, smallest {pct(lo['diff'])}% ({lo['a']} / {lo['b']}), "
          f"largest {pct(hi['diff'])}% ({hi['a']} / {hi['b']})")
    print(f"oracle token accuracy {pct(to['oracle'])} vs best single {pct(to['best'])} ({to['best_system']}): "
          f"+{100 * to['gain']:.2f}")
    print(f"oracle span recall    {pct(so['oracle'])} vs best single {pct(so['best'])} ({so['best_system']}): "
          f"+{100 * so['gain']:.2f}")
    print("  per label (span recall): best single / best for the label / oracle / gain; hard, easy")
    for r in m.span_oracle["per_label"]:
        print(f"      {r['label']:<5} {pct(r['best'])} / {pct(r['best_for_label'])} ({r['best_for_label_system']}) / "
              f"{pct(r['oracle'])} / +{100 * r['gain']:.2f}; {r['hard']}, {r['easy']}")
    print("  per gold tag (token accuracy): best single / oracle / gain")
    for r in m.token_oracle["per_label"]:
        print(f"      {r['label']:<6} {pct(r['best'])} / {pct(r['oracle'])} / +{100 * r['gain']:.2f}")
    fb = m.found_by
    print(f"hard cases (no system finds the gold span exactly): {fb[0]} ({pct(fb[0] / sum(fb))}%); "
          f"easy (all {len(m.names)} find it): {fb[-1]} ({pct(fb[-1] / sum(fb))}%); "
          f"found by at most 3 systems: {sum(fb[:4])}")

    # a few examples, terminal only: the first example of each token-level and span-level class, from
    # the comparison's document through the terminal renderer (spans coloured on a terminal)
    if p.examples:
        print()
        sys.stdout.write(render(first_examples(result), "table", color=sys.stdout.isatty()))
    if args.json:
        out = Path(args.json).resolve()
        if HERE.parent in out.parents:
            print("refusing to write CoNLL-2003 material into the repository; pick a path outside it",
                  file=sys.stderr)
            return 1
        out.write_text(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
