#!/usr/bin/env python3
"""conlleval's token accuracy from a column file's tags against the same spans read as spans (#17.1).

For every system file of ``DATA/systems/*.conll`` (default DATA: ../shared/data/conll2003-en next to the
repository; ``TOKEN ... GOLD SYSTEM``), this scores it twice:

- as a column file (``ts_eval.io.read_conll``): the tags as read, conlleval.pl's own count (its
  ``-DOCSTART-`` lines count as correct O tokens);
- as spans (gold and system columns read by ``ts_eval.read`` into documents, paired with
  ``ts_eval.read``): the accuracy of the spans' IOB2 encoding, what every non-column input gets.

and prints both counts beside the system's ill-formed spans (repairs).  A system that is well-formed IOB2
(no repairs) must give the same count both ways once the ``-DOCSTART-`` lines (which only column files
have) are taken off; the exit status is 1 if one does not.  An ill-formed tag (``I-X`` after ``O``) is
compared as written in the first count and as its repaired span's ``B-X`` in the second, so those may differ.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import ts_eval  # noqa: E402
from ts_eval.models.evaluate import evaluate  # noqa: E402

DEFAULT_DATA = HERE.parent.parent / "shared" / "data" / "conll2003-en"


def counts(report) -> tuple:
    ex = report.systems[0]["exact"]
    return ex["tags_correct"], ex["tags_counted"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the conll2003-en folder")
    args = ap.parse_args()
    files = sorted(Path(args.data, "systems").glob("*.conll"))
    if not files:
        print(f"no system files in {args.data}/systems", file=sys.stderr)
        return 2
    bad = 0
    print(f"{'system':42} {'repairs':>7} {'columns':>15} {'docstart':>8} {'spans (IOB2)':>15}  same")
    for f in files:
        corpus = ts_eval.io.read_conll(str(f), gold_column=-2, system_columns=[-1], scheme="IOB2")
        col = counts(evaluate(corpus, models=["exact"]))
        gold = ts_eval.read(str(f), format="columns", column=-2)
        system = ts_eval.read(str(f), format="columns", column=-1)
        spans = counts(evaluate(ts_eval.read(gold, [system]), models=["exact"]))
        repairs = next(iter(corpus.system_info.values())).repairs
        d = corpus.docstart_lines
        same = (col[0] - d, col[1] - d) == spans
        bad += repairs == 0 and not same
        print(f"{f.stem:42} {repairs:7d} {col[0]:7d}/{col[1]:7d} {d:8d} {spans[0]:7d}/{spans[1]:7d}  "
              f"{'yes' if same else 'no'}")
    print(f"{bad} well-formed system(s) differ" if bad else "every well-formed system: the same count both ways")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
