"""``ts-eval germeval``: GermEval 2014 nested NER scoring (Metrics 1-4 as the official scorer, TS, fair).

    ts-eval germeval FILE                              # 6 columns: index token gold-outer gold-inner sys-outer sys-inner
    ts-eval germeval --gold GOLD.tsv --system SYS.tsv  # 4 columns each: index token outer inner

Exit codes (set by ``ts_eval.cli.main``): 0 scored, 1 bad input, 2 bad usage.
"""
from __future__ import annotations

import argparse
from typing import Any, Dict, List, Optional

from .errors import UsageError
from .output import open_output, write_output

FORMATS = ("table", "json", "nereval", "latex")
POLICY_HELP = ("ill-formed IOB2 chunks: nereval = read them as the official scorer does (an I- tag of another "
               "label continues the chunk; default, needed for the official numbers), conlleval = an I- tag "
               "after O or another label opens a new chunk, strict = error, discard = drop the chunk")


def register(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "germeval", help="GermEval 2014 nested NER: official Metrics 1-4, TS over both levels, fair errors",
        description="Score GermEval 2014 NER output. Either FILE in the shared task's evaluation layout "
                    "(TAB-separated: index, token, gold outer, gold inner, system outer, system inner; '#' "
                    "and blank lines as in the data) or --gold and --system files in the data layout (index, "
                    "token, outer, inner). Metrics 1-4 and the per-type lines equal the official scorer's "
                    "(nereval.perl); --format nereval prints its report layout.")
    p.add_argument("file", nargs="?", help="6-column evaluation file")
    p.add_argument("--gold", metavar="GOLD", help="gold file, 4 columns (two-file mode)")
    p.add_argument("--system", metavar="SYS", help="system file, 4 columns (or 6: its last two are used)")
    p.add_argument("--name", metavar="NAME", help="system name (default: the file name)")
    p.add_argument("--policy", default="nereval", choices=("nereval", "conlleval", "strict", "discard"),
                   help=POLICY_HELP)
    p.add_argument("--separator-weight", type=float, default=1.0, metavar="W",
                   help="TS scores: weight of a separator unit relative to a token (default 1)")
    p.add_argument("--count-last-chunk", action="store_true",
                   help="count a correct chunk that ends on the very last token (the official scorer never "
                        "does; default: do as it does)")
    p.add_argument("--no-fair", action="store_true", help="leave out the fair error types")
    p.add_argument("--format", default="table", choices=FORMATS, help="output format (default table)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE instead of stdout")
    return p


def _load(args):
    from .io.germeval import read_germeval, read_germeval_pair

    if args.gold or args.system:
        if args.file:
            raise UsageError("give either FILE or --gold/--system, not both")
        if not (args.gold and args.system):
            raise UsageError("two-file mode needs both --gold and --system")
        return read_germeval_pair(args.gold, args.system, args.name, args.policy)
    if not args.file:
        raise UsageError("give a FILE (6 columns), or --gold GOLD --system SYS (4 columns each)")
    return read_germeval(args.file, args.name, args.policy)


def run(args) -> int:
    from .germeval import evaluate_germeval

    from . import measures

    try:
        measures.check_separator_weight(args.separator_weight)
    except ValueError as err:
        raise UsageError(f"--separator-weight: {err}") from None
    data = _load(args)
    report = evaluate_germeval(data, args.policy, separator_weight=args.separator_weight,
                               eof_quirk=not args.count_last_chunk, fair=not args.no_fair)
    report.settings["input"] = {"file": args.file, "gold": args.gold, "system": args.system}
    if args.format == "table":
        from rich.console import Console

        if args.output:
            with open_output(args.output) as fh:
                print_germeval(report, Console(file=fh, width=200, no_color=True))
        else:
            console = Console()
            print_germeval(report, console if console.is_terminal else Console(width=200))
        return 0
    from .formats_germeval import FORMATS as TEXT

    text = TEXT[args.format](report)
    write_output(text, args.output)
    return 0


# ---------------------------------------------------------------------------
# rich tables


def _f(x: Optional[float], digits: int = 2) -> str:
    if x is None:
        return "-"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text   # no "-0.000"


def notes(report) -> List[str]:
    """Validation findings worth a line: repaired or dropped chunks, the scorer's end-of-input rule."""
    out = []
    st = report.settings
    for s in report.systems:
        v = s["validation"]
        for row, d in v["rows"].items():
            if d["ill_formed"] or d["dropped"]:
                what = []
                if d["i_start"]:
                    what.append(f"{d['i_start']} start with I-")
                if d["label_change_inside"]:
                    what.append(f"{d['label_change_inside']} change label inside")
                if d["crosses_sentence"]:
                    what.append(f"{d['crosses_sentence']} run into the next sentence")
                if d["dropped"]:
                    what.append(f"{d['dropped']} dropped")
                out.append(f"{row}: {d['ill_formed'] + d['dropped']} ill-formed IOB2 chunks "
                           f"({', '.join(what)}); policy {st['policy']}")
        if v["eof_dropped_strict"]:
            out.append(f"{v['eof_dropped_strict']} correct chunk(s) end on the last token and are not counted, "
                       "as the official scorer does (--count-last-chunk counts them)")
    return out


def _table(title: str, cols: List[str]):
    from rich import box
    from rich.table import Table

    t = Table(title=title, title_justify="left", header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for k, c in enumerate(cols):
        t.add_column(c, justify="left" if k == 0 else "right", no_wrap=True)
    return t


METRIC_ROWS = ("M1 strict, combined (official)", "M2 loose, combined", "M3 strict, outer", "M3 strict, inner")


def _metrics_tables(s: Dict[str, Any]) -> list:
    """The official numbers: Metrics 1-4, then the per-type lines (the report's ``official`` part)."""
    official = s["germeval"]["official"]
    t = _table(f"{s['name']}: GermEval 2014 metrics (official scorer's numbers, %)",
               ["metric", "gold", "found", "correct", "P", "R", "F1", "token acc (M4)"])
    for name, b in zip(METRIC_ROWS, official["blocks"]):
        t.add_row(name, str(b["gold"]), str(b["found"]), str(b["correct"]), _f(b["precision"]), _f(b["recall"]),
                  _f(b["f1"]), _f(b["accuracy"]), style="bold" if name.startswith("M1") else None)
    t2 = _table("Metric 1 per type (strict; loose rows for the base classes), %",
                ["type", "run", "gold", "found", "correct", "P", "R", "F1"])
    for typ, rows in official["per_type"].items():
        for d in rows:
            t2.add_row(typ, d["run"], str(d["gold"]), str(d["found"]), str(d["correct"]), _f(d["precision"]),
                       _f(d["recall"]), _f(d["f1"]))
    return [t, t2]


def _ts_table(ts: Dict[str, Any]):
    t = _table("TS (token & separator units), both levels at once, %", ["label", "TP", "FP", "FN", "P", "R", "F", "κ"])
    for lab, d in ts["labels"].items():
        if d["present"]:
            t.add_row(lab, f"{d['tp']:g}", f"{d['fp']:g}", f"{d['fn']:g}", _f(100 * d["precision"]),
                      _f(100 * d["recall"]), _f(100 * d["f"]), _f(d["kappa"], 3))
    mi, ma = ts["micro"], ts["macro"]
    t.add_row("micro", f"{mi['tp']:g}", f"{mi['fp']:g}", f"{mi['fn']:g}", _f(100 * mi["precision"]),
              _f(100 * mi["recall"]), _f(100 * mi["f"]), _f(mi["kappa"], 3), style="bold")
    t.add_row("macro", "", "", "", _f(100 * ma["precision"]), _f(100 * ma["recall"]), _f(100 * ma["f"]),
              _f(ma["kappa"], 3), style="bold")
    for level, d in ts["levels"].items():
        t.add_row(f"{level} level (micro)", f"{d['tp']:g}", f"{d['fp']:g}", f"{d['fn']:g}",
                  _f(100 * d["precision"]), _f(100 * d["recall"]), _f(100 * d["f"]), _f(d["kappa"], 3))
    return t


def print_germeval(report, console=None) -> None:
    from rich.console import Console

    console = console or Console()
    co, st = report.corpus, report.settings
    console.print(f"[dim]{co['tokens']} tokens, {co['sentences']} sentences; policy {st['policy']}; "
                  f"TS separator weight {st['separator_weight']:g}[/dim]")
    for n in notes(report):
        console.print(f"[yellow]{n}[/yellow]")
    for s in report.systems:
        for t in _metrics_tables(s):
            console.print(t)
        if s.get("ts"):
            console.print(_ts_table(s["ts"]))
        fair = s.get("fair")
        if fair is not None:
            if not fair.get("available"):
                console.print(f"[dim]fair error types: {fair.get('note')}[/dim]")
            elif fair.get("table"):
                ft = fair["table"]
                t = _table("Fair error types per level (Ortmann 2022)", [str(h) for h in ft["header"]])
                for r in ft["rows"]:
                    t.add_row(*[str(v) for v in r])
                console.print(t)
    console.print("[dim]M1-M4 as nereval.perl computes them (chunks: an I- tag of another label does not open "
                  "a new chunk); TS: token & separator units, outer and inner chunks in one span set[/dim]")
