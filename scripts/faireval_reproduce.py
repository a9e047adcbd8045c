#!/usr/bin/env python3
"""Reproduce Ortmann (2022)'s fair evaluation on the FairEval example data.

Runs ts_eval's fair evaluation on the span files of ``DATA/{target,system}/
{ner,chunk,topofield}_spans.csv`` (default DATA: ../shared/data/faireval next to
the repository), with the reference tool's settings (all labels, NONE/EMPTY
excluded, focus target, weights of the paper's equation 7 for the weighted
scores) and prints counts and traditional / fair / weighted precision, recall
and F1, overall and per label.  It then checks the printed numbers against the
paper: Table 1 (all three tasks), Table 2 (NER, every cell) and Figure 2 (the
NER confusion matrix, and the main-label blocks of the chunk and topological
field matrices).  Exit status 1 if any number differs.

``--mode faireval-skip`` shows the numbers of the current public FairEval.py
instead (no paper check then); ``--report DIR`` also writes each task's report
in the reference tool's layout (``eval_<task>.csv``).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ts_eval.core.matching import match  # noqa: E402
from ts_eval.fair import EQ7_FORMULA, fair_errors, fair_report, parse_weights  # noqa: E402
from ts_eval.io.faireval import read_faireval  # noqa: E402
from ts_eval.output.legacy.faireval import faireval_settings, to_faireval  # noqa: E402

TASKS = ("ner", "chunk", "topofield")

# Table 1: (precision, recall, F1) in percent
TABLE1 = {
    "ner": {"traditional": (86.66, 83.51, 85.05), "fair": (90.42, 87.23, 88.80)},
    "chunk": {"traditional": (97.20, 96.39, 96.79), "fair": (97.86, 97.86, 97.86)},
    "topofield": {"traditional": (93.41, 94.27, 93.84), "fair": (94.78, 95.92, 95.35)},
}
# Table 2 (NER): TP FP LE BEs BEl BEo BEall LBE FN Precision Recall F1
TABLE2_COLUMNS = ("tp", "fp", "le", "bes", "bel", "beo", "be", "lbe", "fn", "precision", "recall", "f")
TABLE2 = {
    "LOC": (2132, 81, 56, 29, 28, 0, 57, 40, 98, 93.12, 92.43, 92.78),
    "ORG": (1002, 87, 76, 16, 27, 0, 43, 48, 167, 85.46, 80.00, 82.64),
    "OTH": (473, 48, 89, 15, 26, 3, 44, 44, 142, 77.60, 67.24, 72.05),
    "PER": (1552, 37, 31, 11, 25, 0, 36, 23, 55, 94.98, 93.95, 94.46),
    "overall": (5159, 253, 252, 71, 106, 3, 180, 155, 462, 90.42, 87.23, 88.80),
}
# Figure 2: rows target label (or _ = FP), columns system labels then _ (= FN)
FIGURE2 = {
    "ner": (("LOC", "ORG", "OTH", "PER"), {
        "LOC": (57, 54, 14, 28, 98),
        "ORG": (66, 43, 32, 26, 167),
        "OTH": (41, 59, 44, 33, 142),
        "PER": (14, 29, 11, 36, 55),
        "_": (81, 87, 48, 37, None),
    }),
    "chunk": (("ADVX", "AX", "NX", "PX"), {
        "ADVX": (40, 113, 128, 14, 0),
        "AX": (57, 334, 403, 10, 0),
        "NX": (231, 86, 1782, 236, 6),
        "PX": (20, 11, 141, 323, 0),
        "_": (3, 1, 0, 0, None),
    }),
    "topofield": (("C", "LK", "LV", "MF", "NF", "VC", "VF"), {
        "C": (71, 0, 0, 4, 3, 0, 4, 4),
        "LK": (0, 45, 0, 0, 0, 19, 0, 4),
        "LV": (0, 0, 4, 2, 7, 0, 26, 26),
        "MF": (9, 1, 0, 885, 116, 1, 41, 215),
        "NF": (0, 2, 1, 197, 312, 1, 42, 338),
        "VC": (0, 34, 0, 2, 2, 110, 0, 6),
        "VF": (11, 1, 6, 79, 26, 0, 235, 137),
        "_": (16, 52, 23, 675, 270, 16, 563, None),
    }),
}
COUNT_COLS = ("tp", "fp", "fn", "le", "be", "bes", "bel", "beo", "lbe")


def evaluate(data_dir: str, task: str, mode: str) -> Tuple[dict, dict]:
    fd = read_faireval(os.path.join(data_dir, "target", f"{task}_spans.csv"),
                       os.path.join(data_dir, "system", f"{task}_spans.csv"))
    c = fd.corpus
    ss = c.systems[fd.system_name]
    res = fair_errors(c.gold, ss, match(c.gold, ss), c.labels, c, focus="target",
                      gold_tokens=fd.gold.tokens, system_tokens=fd.system.tokens,
                      gold_order=fd.gold.order, system_order=fd.system.order, mode=mode)
    weights = parse_weights(EQ7_FORMULA)
    rep = fair_report(res, weights=weights)
    settings = faireval_settings(f"target/{task}_spans.csv", f"system/{task}_spans.csv", ignore_punct=False,
                                 weights=weights)
    return rep, settings


def print_report(task: str, rep: dict) -> None:
    print(f"\n=== {task} ===")
    for m in ("traditional", "fair", "weighted"):
        cols = ("tp", "fp", "fn") if m == "traditional" else COUNT_COLS
        print(f"{m:<12}" + "".join(f"{c.upper():>7}" for c in cols) + f"{'P':>8}{'R':>8}{'F1':>8}")
        rows = list(rep[m]["labels"].items()) + [("overall", rep[m]["micro"])]
        for lab, r in sorted(rows[:-1]) + rows[-1:]:
            print(f"  {lab:<10}" + "".join(f"{r[c]:>7}" for c in cols)
                  + f"{r['precision'] * 100:8.2f}{r['recall'] * 100:8.2f}{r['f'] * 100:8.2f}")


def check(task: str, rep: dict) -> List[str]:
    """Differences from the paper (empty list: every number reproduced)."""
    bad: List[str] = []
    n = 0

    def cmp(what: str, got, want) -> None:
        nonlocal n
        n += 1
        if isinstance(want, float):
            ok = f"{got * 100:.2f}" == f"{want:.2f}"
            shown = f"{got * 100:.2f}"
        else:
            ok = got == want
            shown = str(got)
        if not ok:
            bad.append(f"{task} {what}: got {shown}, paper {want}")

    for m, vals in TABLE1[task].items():
        o = rep[m]["micro"]
        for name, v in zip(("precision", "recall", "f"), vals):
            cmp(f"Table 1 {m} {name}", o[name], v)
    if task == "ner":
        for lab, vals in TABLE2.items():
            r = rep["fair"]["micro"] if lab == "overall" else rep["fair"]["labels"][lab]
            for col, v in zip(TABLE2_COLUMNS, vals):
                cmp(f"Table 2 {lab} {col}", r[col], v)
    labels, rows = FIGURE2[task]
    conf = rep["confusion"]
    for t, vals in rows.items():
        for s, v in zip(labels + ("_",), vals):
            if v is not None:
                cmp(f"Figure 2 [{t}][{s}]", conf[t][s], v)
    print(f"{task}: {n - len(bad)}/{n} numbers of the paper reproduced" + ("" if not bad else ":"))
    for b in bad:
        print("  " + b)
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "faireval"))
    ap.add_argument("--mode", default="paper", choices=("paper", "faireval-skip"))
    ap.add_argument("--report", metavar="DIR", help="also write eval_<task>.csv in the reference layout here")
    ap.add_argument("--tasks", default=",".join(TASKS))
    args = ap.parse_args()
    failures: Dict[str, List[str]] = {}
    for task in [t.strip() for t in args.tasks.split(",") if t.strip()]:
        if task not in TASKS:
            ap.error(f"unknown task {task!r}; expected {', '.join(TASKS)}")
        rep, settings = evaluate(args.data, task, args.mode)
        print_report(task, rep)
        if args.report:
            os.makedirs(args.report, exist_ok=True)
            Path(args.report, f"eval_{task}.csv").write_text(to_faireval(rep, settings), encoding="utf-8")
        if args.mode == "paper":
            failures[task] = check(task, rep)
    if args.mode == "paper":
        total = sum(len(v) for v in failures.values())
        print("\nall numbers of Table 1, Table 2 and Figure 2 reproduced" if not total
              else f"\n{total} numbers differ from the paper")
        return 1 if total else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
