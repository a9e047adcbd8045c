#!/usr/bin/env python3
"""Reproduce the official GermEval 2014 scorer (nereval.perl) on the 11 stored system outputs.

For every ``systems-6col/NAME.tsv`` of the GermEval data folder this scores the file
with ``ts_eval.germeval`` (6-column mode, and with ``--pair`` also two-file mode against
``NER-de-test.tsv``), renders the report in the official layout (``--format nereval``)
and compares it line by line with ``nereval/NAME.out``, the scorer's stored output;
then it checks Metrics 1-3 and the found/gold counts against ``scores_nereval.tsv``.
It prints the agreement per system and a table of Metrics 1-4.

    python scripts/germeval_reproduce.py
    python scripts/germeval_reproduce.py --data /path/to/germeval2014 --pair --diff

Exit code 0 when every line and every table value agrees, 1 otherwise.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

from ts_eval.core.measures import prf
from ts_eval.germeval.evaluate import evaluate_germeval
from ts_eval.io.germeval import read_germeval, read_germeval_pair
from ts_eval.output.legacy.nereval import to_nereval

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "germeval2014"

TSV_CHECKS = (  # scores_nereval.tsv column -> (metric key, field) of the report
    ("strict_combined_p", "m1_strict_combined", "precision"), ("strict_combined_r", "m1_strict_combined", "recall"),
    ("strict_combined_f1", "m1_strict_combined", "f"), ("loose_combined_p", "m2_loose_combined", "precision"),
    ("loose_combined_r", "m2_loose_combined", "recall"), ("loose_combined_f1", "m2_loose_combined", "f"),
    ("outer_p", "m3_strict_outer", "precision"), ("outer_r", "m3_strict_outer", "recall"),
    ("outer_f1", "m3_strict_outer", "f"), ("inner_p", "m3_strict_inner", "precision"),
    ("inner_r", "m3_strict_inner", "recall"), ("inner_f1", "m3_strict_inner", "f"),
)


def compare_lines(ours: str, ref: str) -> Tuple[int, int, List[Tuple[int, str, str]]]:
    """(matching lines, reference lines, differing (line number, ours, reference))."""
    a, b = ours.split("\n"), ref.split("\n")
    diffs = [(k + 1, x, y) for k, (x, y) in enumerate(zip(a, b)) if x != y]
    for k in range(min(len(a), len(b)), max(len(a), len(b))):
        diffs.append((k + 1, a[k] if k < len(a) else "<missing>", b[k] if k < len(b) else "<missing>"))
    return len(b) - sum(1 for d in diffs if d[0] <= len(b)), len(b), diffs


def check_tsv(row: Dict[str, str], system: dict) -> List[str]:
    """Differences between a scores_nereval.tsv row and the report (values at 2 decimals, counts)."""
    g = system["germeval"]
    m = g["metrics"]
    out = []
    for col, key, fld in TSV_CHECKS:
        # the tsv holds the printed %6.2f values: compare at that precision, from the Perl-order numbers
        tp = m[key]["tp"]
        p, r, f = prf(tp, m[key]["system"] - tp, m[key]["gold"] - tp, percent=True)
        val = {"precision": p, "recall": r, "f": f}[fld]
        if "%.2f" % val != "%.2f" % float(row[col]):
            out.append(f"{col}: ours {val:.2f}, table {row[col]}")
    lv = g["levels"]
    for col, level, fld in (("found_outer", "outer", "system"), ("found_inner", "inner", "system"),
                            ("gold_outer", "outer", "gold"), ("gold_inner", "inner", "gold")):
        if lv[level]["strict"][fld] != int(row[col]):
            out.append(f"{col}: ours {lv[level]['strict'][fld]}, table {row[col]}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"GermEval data folder (default {DEFAULT_DATA})")
    ap.add_argument("--pair", action="store_true", help="also check two-file mode (gold NER-de-test.tsv + system)")
    ap.add_argument("--diff", action="store_true", help="print every differing line")
    args = ap.parse_args(argv)

    files = sorted((args.data / "systems-6col").glob("*.tsv"))
    if not files:
        print(f"no systems-6col/*.tsv under {args.data}", file=sys.stderr)
        return 2
    with open(args.data / "scores_nereval.tsv", encoding="utf-8") as fh:
        table = {r["system"]: r for r in csv.DictReader(fh, delimiter="\t")}
    ok_all = True
    results = []
    print(f"{'system':32s} {'mode':6s} {'lines':>9s} {'tsv':>4s} {'time':>6s}")
    for path in files:
        name = path.stem
        ref = (args.data / "nereval" / f"{name}.out").read_text(encoding="utf-8")
        modes = [("6col", lambda path=path, name=name: read_germeval(str(path), name=name))]
        if args.pair:
            modes.append(("pair", lambda path=path, name=name: read_germeval_pair(str(args.data / "NER-de-test.tsv"),
                                                                                   str(path), name=name)))
        for mode, load in modes:
            t0 = time.perf_counter()
            report = evaluate_germeval(load(), fair=False)
            dt = time.perf_counter() - t0
            same, total, diffs = compare_lines(to_nereval(report), ref)
            tsv_diffs = check_tsv(table[name], report.systems[0]) if name in table else ["not in scores_nereval.tsv"]
            ok = not diffs and not tsv_diffs
            ok_all &= ok
            print(f"{name:32s} {mode:6s} {same:4d}/{total:<4d} {'ok' if not tsv_diffs else 'DIFF':>4s} {dt:5.2f}s"
                  + ("" if ok else "  <-- differs"))
            if args.diff or not ok:
                for k, x, y in diffs:
                    print(f"    line {k}: ours {x!r}\n    {'':>{len(str(k)) + 5}} ref  {y!r}")
                for d in tsv_diffs:
                    print(f"    {d}")
            if mode == "6col":
                results.append((name, report.systems[0]))

    print("\nMetrics 1-4 (percent; M4 = token accuracy: strict combined / loose combined / outer / inner)")
    head = (f"{'system':30s} {'M1 P':>6s} {'M1 R':>6s} {'M1 F1':>6s} {'M2 F1':>6s} {'M3o F1':>6s} {'M3i F1':>6s}"
            f" {'M4 sc':>6s} {'M4 lc':>6s} {'M4 o':>6s} {'M4 i':>6s}")
    print(head)
    for name, s in sorted(results, key=lambda r: -r[1]["germeval"]["metrics"]["m1_strict_combined"]["f"]):
        m = s["germeval"]["metrics"]
        acc = m["m4_token_accuracy"]
        print(f"{name:30s} " + " ".join("%6.2f" % (100 * v) for v in (
            m["m1_strict_combined"]["precision"], m["m1_strict_combined"]["recall"], m["m1_strict_combined"]["f"],
            m["m2_loose_combined"]["f"], m["m3_strict_outer"]["f"], m["m3_strict_inner"]["f"],
            acc["strict_combined"], acc["loose_combined"], acc["outer"], acc["inner"])))
    print("\nall outputs agree with nereval.perl" if ok_all else "\nDIFFERENCES FOUND")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
