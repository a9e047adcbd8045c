#!/usr/bin/env python3
"""The gold suspects of the CoNLL-2003 English test set (``gold.iob2``), found from the 28 system outputs
(``systems/*.conll``), checked against what CoNLL++ (``gold-conllpp.iob2``, Wang et al. 2019) changed.

    python scripts/suspects_conll2003.py                     # precision at 20 and 50, recall, first 20
    python scripts/suspects_conll2003.py --data /path/to/conll2003-en --ks 10 20 50 100 --show 50

A suspect is *touched* when a change of CoNLL++ in its sentence shares a token with its gold span or the
systems' span; *agreed* when CoNLL++ made gold what the systems say (docs/references.md, "Gold suspects
checked").  Prints the precision of the first k suspects (touched, agreed), the recall of the changes (the
share some suspect points at, per kind of change) and the first suspects with their verdicts.  The data
are Reuters text without an open licence: the script prints to the terminal and writes nothing.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, read_original_and_conllpp  # noqa: E402  (scripts/ is on the path)

from ts_eval.analysis.errors import error_analysis  # noqa: E402
from ts_eval.analysis.suspects_checked import check_suspects  # noqa: E402
from ts_eval.comparison.references import reference_changes  # noqa: E402


def side(d) -> str:
    return f"{d['label']} [{d['text']}]" if d else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the conll2003-en folder")
    ap.add_argument("--ks", type=int, nargs="+", default=[20, 50], help="precision of the first k suspects")
    ap.add_argument("--show", type=int, default=20, help="suspects to print with their verdicts (terminal only)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    corpus = read_original_and_conllpp(args.data)
    names = [n for n in corpus.systems if n != "conllpp"]
    t1 = time.perf_counter()
    analysis = error_analysis(corpus, systems=names, top=None)
    changes = reference_changes(corpus, "conllpp")
    result = check_suspects(analysis, changes, ks=args.ks)
    t2 = time.perf_counter()
    print(f"{corpus.n_sentences} sentences, {len(corpus.gold)} spans (original), {len(names)} systems; "
          f"{len(result.suspects)} gold suspects (at least {analysis.suspects.min_agree} systems agree against "
          f"gold), {result.corrections} changes by CoNLL++ in {len(changes.changed_sentences)} sentences; "
          f"read {t1 - t0:.1f} s, analysed and checked {t2 - t1:.1f} s")
    for row in result.at:
        pa = "-" if row["precision_agreed"] is None else f"{row['precision_agreed']:.2f}"
        p = "-" if row["precision"] is None else f"{row['precision']:.2f}"
        print(f"precision at {row['top']:>3}: {p} touched ({row['touched']} of {row['checked']}), "
              f"{pa} agreed ({row['agreed']} of {row['checked']})")
    recall = "undefined (no change)" if result.recall is None else f"{result.recall:.3f}"
    print(f"all {len(result.suspects)} suspects: {result.touched} touched, {result.agreed} agreed; recall of the "
          f"changes: {recall} ({result.pointed} of {result.corrections})")
    print("per kind of change, pointed at / changes: "
          + ", ".join(f"{k} {v['pointed']}/{v['corrections']}" for k, v in result.kinds.items()))
    # what a list of gold spans picked at random would score: the share of gold spans a change touches
    gold = corpus.gold
    sentence = corpus.sentence_of(gold.start)
    offsets = corpus.sent_offsets[sentence]
    where = {}
    for ch in changes.changes:
        where.setdefault(ch.sentence, []).extend(x[1:] for x in (ch.before, ch.after) if x is not None)
    hit = sum(any(a <= int(gold.last[i] - offsets[i]) and int(gold.start[i] - offsets[i]) <= b
                  for a, b in where.get(int(sentence[i]), ())) for i in range(len(gold)))
    print(f"for comparison, gold spans picked at random: {hit / len(gold):.3f} touched ({hit} of {len(gold)})")
    by_type = {}
    for c in result.suspects:
        t = by_type.setdefault(c.suspect.type, [0, 0, 0])
        t[0] += 1
        t[1] += c.verdict != "untouched"
        t[2] += c.verdict == "agreed"
    print("per suspect type, touched / agreed / suspects: "
          + ", ".join(f"{k} {v[1]}/{v[2]}/{v[0]}" for k, v in sorted(by_type.items())))

    print(f"\nthe first {args.show} suspects (rank, type, gold -> systems, agreeing/confirming, verdict, what CoNLL++ "
          "did there):")
    for c in result.suspects[:args.show]:
        s = c.suspect
        gold = f"{s.gold_label} [{s.gold_text}]" if s.gold_label else "nothing"
        alt = f"{s.label} [{s.text}]" if s.label else "nothing"
        did = "; ".join(f"{ch.kind} {side(d['before'])} -> {side(d['after'])}"
                        for ch in c.changes for d in [ch.to_dict()]) or "-"
        print(f"{c.rank:3d}. {s.type:<3} s{s.sentence + 1:<5} {gold} -> {alt}  {s.agreeing}/{s.confirming}  "
              f"{c.verdict:<9} {did}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
