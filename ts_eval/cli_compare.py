"""``ts-eval compare``: system A (baseline) against system B against gold (Tuggener), and
with more systems the pairwise differences and the oracle upper bounds.

    ts-eval compare --gold GOLD A B [C ...]          one file per system (last column)
    ts-eval compare FILE [--gold-col N] [--system-col N N ...]   one file, several system columns

Exit codes as for ``score``: 0 done, 1 bad input, 2 bad usage.
"""
from __future__ import annotations

import sys
from typing import List, Optional

from .errors import UsageError
from .output import open_output, write_output
from .io.columns import count_columns

FORMAT_CHOICES = ("table", "json", "csv", "markdown")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help="compare systems with each other against gold (corrections, new errors, oracle)",
        description="Compare system outputs (Tuggener): with two systems A (baseline) and B, which tokens, "
                    "spans and TS units B corrects, newly gets wrong or gets wrong differently; with more "
                    "systems the pairwise diff matrix, oracle upper bounds and the gold spans no system finds. "
                    "Either --gold GOLD A B [C ...] (one file per system, tags in the last column unless "
                    "--system-col), or FILE with a gold column and several system columns.")
    p.add_argument("inputs", nargs="+", metavar="FILE",
                   help="with --gold: the system files (A B [C ...]); without: one column file")
    p.add_argument("--gold", metavar="G", help="gold file; the FILEs are then one file per system")
    p.add_argument("--gold-col", type=int, default=None, metavar="N",
                   help="gold column (default: -1 in the gold file; 2 in a single FILE)")
    p.add_argument("--system-col", type=int, nargs="+", default=None, metavar="N",
                   help="system column: one for every system file (default -1); in a single FILE the "
                        "system columns (default: every column after the gold column)")
    p.add_argument("--names", nargs="+", metavar="NAME", help="system names (default: file names or colN)")
    p.add_argument("--pair", nargs=2, metavar=("A", "B"),
                   help="the pair to compare in detail, baseline first (default with two systems: them, in order)")
    from .cli import add_reading_options  # the same reading options as `score`

    add_reading_options(p)
    g = p.add_argument_group("comparison and output")
    g.add_argument("--top", type=int, default=5, metavar="K", help="transitions shown per class (default 5)")
    g.add_argument("--examples", type=int, default=1, metavar="N",
                   help="example sentences per top transition (default 1; 0: none)")
    g.add_argument("--view", default="auto", choices=("auto", "tag", "label"),
                   help="token labels: tag = the tags as read, label = the labels of the covering spans "
                        "(default auto: tags unless a label map is given)")
    g.add_argument("--separator-weight", type=float, default=1.0, metavar="W",
                   help="TS level: weight of a separator unit (default 1)")
    g.add_argument("--no-spans", action="store_true", help="skip the span-level comparison of the pair")
    g.add_argument("--fair-mode", default="paper", choices=("paper", "faireval-skip"),
                   help="span outcomes: Ortmann's algorithm as in the paper (default) or as the current "
                        "FairEval.py runs it (see ts-eval fair)")
    g.add_argument("--cases", type=int, default=10, metavar="N",
                   help="table format: hard and easy gold spans listed (default 10; the other formats list all)")
    g.add_argument("--format", default="table", choices=FORMAT_CHOICES, help="output format (default table)")
    g.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")


def load(args):
    """The corpus the arguments describe (gold + at least two systems); a bad option value
    (an unknown scheme, say) is a usage error."""
    try:
        return _load(args)
    except ValueError as err:
        raise UsageError(str(err)) from None


def _load(args):
    from .corpus import parse_label_map
    from .io import read_conll, read_conll_pair

    try:
        label_map = parse_label_map(args.map_label)
    except ValueError as err:
        raise UsageError(str(err)) from None
    common = dict(token_column=args.token_col, scheme=args.scheme or "IOB2", policy=args.policy,
                  label_map=label_map)
    if args.gold:
        if len(args.inputs) < 2:
            raise UsageError(f"compare needs at least two system files after --gold, got {len(args.inputs)}")
        scols = args.system_col or [-1]
        if len(scols) != 1:
            raise UsageError("with --gold give one --system-col (the same for every system file)")
        return read_conll_pair(args.gold, args.inputs, gold_column=args.gold_col or -1, system_column=scols[0],
                               names=args.names, **common)
    if len(args.inputs) != 1:
        raise UsageError(f"{len(args.inputs)} files without --gold: give --gold GOLD A B [...], or one FILE "
                         "with a gold column and several system columns")
    path = args.inputs[0]
    gcol = args.gold_col if args.gold_col is not None else 2
    scols = args.system_col
    if scols is None:
        n = count_columns(path)
        g = gcol if gcol > 0 else n + gcol + 1
        scols = list(range(g + 1, n + 1))
    if len(scols) < 2:
        raise UsageError(f"compare needs at least two system columns in {path}, got {len(scols)} "
                         f"({', '.join(map(str, scols)) or 'none'}); give --gold-col and --system-col")
    return read_conll(path, gold_column=gcol, system_columns=scols, names=args.names, **common)


def run(args) -> int:
    from .compare import compare

    if args.top < 0 or args.examples < 0 or args.cases < 0:
        raise UsageError("--top, --examples and --cases must be >= 0")
    corpus = load(args)
    a, b = args.pair if args.pair else (None, None)
    try:
        result = compare(corpus, a, b, top=args.top, examples=args.examples, view=args.view,
                         separator_weight=args.separator_weight, spans=not args.no_spans,
                         fair_mode=args.fair_mode)
    except ValueError as err:
        raise UsageError(str(err)) from None
    result.settings["input"] = {"gold": args.gold, "files": list(args.inputs),
                                "gold_col": corpus.gold_info.column,
                                "system_cols": [i.column for i in corpus.system_info.values()]}
    emit(result, args.format, args.output, args.cases)
    return 0


def emit(result, fmt: str, output: Optional[str] = None, cases: int = 10) -> None:
    if fmt == "table":
        from rich.console import Console

        from .formats_compare import print_comparison

        if output:
            with open_output(output) as fh:
                print_comparison(result, Console(file=fh, width=200, no_color=True), case_limit=cases)
        else:
            print_comparison(result, case_limit=cases)
        return
    from .formats_compare import FORMATS

    text = FORMATS[fmt](result)
    write_output(text, output)


def main(argv: Optional[List[str]] = None) -> int:  # pragma: no cover - convenience without cli.py
    from .cli import main as cli_main

    return cli_main(["compare", *(sys.argv[1:] if argv is None else argv)])
