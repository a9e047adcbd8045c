"""Command line: ``ts-eval score``, ``ts-eval demo``.

Exit codes: 0 scored, 1 bad input (message on stderr), 2 bad usage.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from .version import __version__
from .errors import InputError, OptionError, UsageError
from .output import open_output, write_output

FORMAT_CHOICES = ("table", "json", "csv", "markdown", "latex", "conlleval", "faireval")
DEMO_FILE = Path(__file__).parent / "demo" / "germeval2014_test_sample.conll"
DEMO_SYSTEMS = ["gen-ap_rich_dev", "gen-crf_poor_dev", "gen-crf_rich_dev", "gen-mft_dev"]


def _scheme_name(value: str) -> str:
    from .schemes import resolve_scheme_name

    try:
        return resolve_scheme_name(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_reading_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("reading")
    g.add_argument("--scheme", default=None, type=_scheme_name,
                   help="tagging scheme: IOB2 (default), IOB1, IOE1, IOE2, IOBES (BIOES), BILOU, IO, "
                        "auto (detect), conlleval (accept any tag as conlleval.pl does; the default "
                        "with --format conlleval)")
    g.add_argument("--policy", default="conlleval", choices=("conlleval", "strict", "discard"),
                   help="ill-formed spans: conlleval = decode like conlleval.pl and count the repair "
                        "(default), strict = error, discard = drop the span")
    g.add_argument("--token-col", type=int, default=1, metavar="N", help="token column (default 1)")
    g.add_argument("--map-label", action="append", default=[], metavar="PATTERN=REPL",
                   help="rewrite labels with a regular expression before scoring (repeatable, applied in "
                        "order; a label rewritten to the empty string is dropped), e.g. 'deriv$='")


def _delimiter(value: str) -> Optional[str]:
    from .io.columns import parse_delimiter

    try:
        return parse_delimiter(value)
    except UsageError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _conlleval_input_options(p: argparse.ArgumentParser) -> None:
    """conlleval.pl's -d, -o, -r, and a mode for files without tokens."""
    g = p.add_argument_group("input layout (conlleval.pl's -d, -o, -r)")
    g.add_argument("--delimiter", "-d", type=_delimiter, default=None, metavar="CHAR",
                   help="field delimiter: one character, e.g. '\\t' for tab (default: any run of spaces "
                        "and tabs); an empty field is an error")
    g.add_argument("--outside-tag", default="O", metavar="TAG",
                   help="the tag that means outside any span (default O); it is read as O")
    g.add_argument("--raw", "-r", action="store_true",
                   help="tags carry no B-/I- prefixes: every token whose tag is not the outside tag is a "
                        "one-token span of that tag (conlleval.pl -r)")
    g.add_argument("--tags-only", "--no-token-check", dest="tags_only", action="store_true",
                   help="read no token column: two-file mode then checks that sentences and their token "
                        "counts agree instead of comparing tokens (a system file may hold only tags)")


def _scoring_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("scoring and output")
    g.add_argument("--separator-weight", type=float, default=1.0, metavar="W",
                   help="weight of a separator unit relative to a token (default 1; 0 = token-only T model)")
    g.add_argument("--beta", type=float, default=1.0, help="F-beta's beta (default 1)")
    g.add_argument("--models", default="ts,exact,fair", metavar="LIST",
                   help="comma-separated models to compute and show: ts, exact, overlap, constrained, contain, "
                        "fair, semeval (nervaluate's SemEval-2013 schemes) (default ts,exact,fair)")
    g.add_argument("--k1", type=int, default=None, metavar="N",
                   help="constrained/contain models: at most N spurious tokens (default 1 / unbounded)")
    g.add_argument("--k2", type=int, default=None, metavar="N",
                   help="constrained model: at most N missing tokens (default 1)")
    g.add_argument("--focus", default="target", choices=("target", "system"),
                   help="fair model: whose label LE and LBE errors count under (default target)")
    g.add_argument("--weights", default="eq7", metavar="SPEC",
                   help="fair model's weighted scores: a preset eq5, eq6, eq7 (default; the paper's equation 7), "
                        "or the FairEval syntax, e.g. 'LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, ...'")
    g.add_argument("--fair-mode", default="paper", choices=("paper", "faireval-skip"),
                   help="fair model: the paper's algorithm (default) or today's FairEval.py, which skips the "
                        "span after each match")
    g.add_argument("--confusion", action="store_true", help="table format: show the fair confusion matrices")
    g.add_argument("--all-labels-row", action="store_true",
                   help="add a TS row for all labels as one (the paper's ENTITY supertag)")
    g.add_argument("--format", default="table", choices=FORMAT_CHOICES, help="output format (default table)")
    g.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE instead of stdout")
    g.add_argument("--no-labels", action="store_true", help="table format: leave out the per-label tables")


# further commands live in their own modules (register(subparsers), run(args) -> int); only the
# module of the command being run is imported, so `score` never pays for scipy or matplotlib
COMMAND_MODULES = {"fair": "cli_fair", "rank": "cli_rank", "compare": "cli_compare", "germeval": "cli_germeval"}


def _command_modules(argv: Optional[List[str]]):
    import importlib

    wanted = [a for a in (argv or []) if not a.startswith("-")][:1]
    names = [n for n in COMMAND_MODULES if n in wanted] if wanted and wanted[0] in COMMAND_MODULES else (
        [] if wanted and wanted[0] in ("score", "demo") else list(COMMAND_MODULES))
    mods = {}
    for name in names:
        try:
            mods[name] = importlib.import_module(f"ts_eval.{COMMAND_MODULES[name]}")
        except ImportError:  # a command whose module is not there is simply not offered
            continue
    return mods


def build_parser(argv: Optional[List[str]] = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ts-eval",
        description="Evaluate labelled spans: token-and-separator scores, conlleval-exact segment scores.")
    parser.add_argument("--version", action="version", version=f"ts_eval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    sc = sub.add_parser("score", help="score one or more systems against gold",
                        description="Score IOB files. Either FILE with gold and system columns "
                                    "(default: conlleval's layout, the last two columns), or --gold G "
                                    "--system S [S ...] with one file per system. Columns are 1-based; "
                                    "negative numbers count from the end.")
    sc.add_argument("file", nargs="?", help="column file with gold and system columns")
    sc.add_argument("--gold", metavar="G", help="gold file (two-file mode)")
    sc.add_argument("--system", nargs="+", metavar="S", help="system file(s) (two-file mode)")
    sc.add_argument("--gold-col", type=int, default=None, metavar="N",
                    help="gold column (default -2 in FILE, -1 in the gold file)")
    sc.add_argument("--system-col", type=int, nargs="+", default=None, metavar="N",
                    help="system column(s) (default -1); several columns in FILE are several systems")
    sc.add_argument("--names", nargs="+", metavar="NAME", help="system names (default: file names or colN)")
    add_reading_options(sc)
    _conlleval_input_options(sc)
    sc.add_argument("--labels", metavar="L1,L2", help="score only these labels (after --map-label)")
    sc.add_argument("--exclude", metavar="L1,L2", help="leave these labels out (after --map-label)")
    _scoring_options(sc)

    demo = sub.add_parser("demo", help="score the bundled GermEval 2014 sample (four systems)")
    _scoring_options(demo)
    parser.set_defaults(extra_modules=_command_modules(argv))
    for mod in parser.get_default("extra_modules").values():
        mod.register(sub)
    return parser


def _load(args):
    from .corpus import parse_label_map
    from .io import read_conll, read_conll_pair

    scheme = args.scheme or ("conlleval" if args.format == "conlleval" else "IOB2")
    try:
        label_map = parse_label_map(args.map_label)
    except ValueError as err:
        raise UsageError(str(err)) from None
    common = dict(token_column=args.token_col, scheme=scheme, policy=args.policy, label_map=label_map,
                  delimiter=getattr(args, "delimiter", None), raw=getattr(args, "raw", False),
                  outside_tag=getattr(args, "outside_tag", "O"), tags_only=getattr(args, "tags_only", False))
    if args.gold or args.system:
        if args.file:
            raise UsageError("give either FILE or --gold/--system, not both")
        if not (args.gold and args.system):
            raise UsageError("two-file mode needs both --gold and --system")
        scols = args.system_col or [-1]
        if len(scols) != 1:
            raise UsageError("two-file mode takes one --system-col (the same for every system file)")
        return read_conll_pair(args.gold, args.system, gold_column=-1 if args.gold_col is None else args.gold_col,
                               system_column=scols[0], names=args.names, **common)
    if not args.file:
        raise UsageError("give a FILE, or --gold G --system S")
    return read_conll(args.file, gold_column=-2 if args.gold_col is None else args.gold_col,
                      system_columns=args.system_col or [-1],
                      names=args.names, **common)


def _emit(report, args) -> None:
    if args.format == "table":
        from rich.console import Console

        if args.output:
            with open_output(args.output) as fh:
                from .render import print_report
                print_report(report, Console(file=fh, width=200, no_color=True), per_label=not args.no_labels,
                             confusion=args.confusion)
        else:
            from .render import print_report
            print_report(report, per_label=not args.no_labels, confusion=args.confusion)
        return
    from .formats import FORMATS

    try:
        text = FORMATS[args.format](report)
    except ValueError as err:
        raise UsageError(str(err)) from None
    write_output(text, args.output)


def run(argv: Optional[List[str]] = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command in args.extra_modules:
        return args.extra_modules[args.command].run(args)
    from .evaluate import evaluate

    if args.command == "demo":
        args.file, args.gold, args.system = str(DEMO_FILE), None, None
        args.gold_col, args.system_col, args.names = 2, [3, 4, 5, 6], DEMO_SYSTEMS
        args.scheme, args.policy, args.token_col, args.map_label = "IOB2", "conlleval", 1, []
    corpus = _load(args)
    if getattr(args, "labels", None) or getattr(args, "exclude", None):
        from .corpus import select_labels

        split = lambda v: [x for x in (v or "").split(",") if x]  # noqa: E731
        try:
            corpus = select_labels(corpus, split(args.labels) or None, split(args.exclude))
        except ValueError as err:
            raise UsageError(str(err)) from None
    try:
        models = [m.strip() for m in args.models.split(",") if m.strip()]
        needed = {"conlleval": "exact", "faireval": "fair"}.get(args.format)
        if needed and needed not in models:
            models.append(needed)
        report = evaluate(corpus, separator_weight=args.separator_weight, beta=args.beta,
                          all_labels_row=args.all_labels_row, models=models, k1=args.k1, k2=args.k2,
                          focus=args.focus, weights=args.weights, fair_mode=args.fair_mode)
    except ValueError as err:
        raise UsageError(str(err)) from None
    report.settings["input"] = {
        "file": args.file, "gold": args.gold, "system": args.system,
        "gold_col": corpus.gold_info.column, "token_col": args.token_col,
        "system_cols": [i.column for i in corpus.system_info.values()],
        "delimiter": getattr(args, "delimiter", None), "raw": getattr(args, "raw", False),
        "outside_tag": getattr(args, "outside_tag", "O"), "tags_only": getattr(args, "tags_only", False),
    }
    _emit(report, args)
    return 0


def _keep_freed_memory() -> None:
    """Let glibc reuse freed memory instead of returning large blocks to the kernel.

    numpy's big temporaries are otherwise mmap-ed afresh each time and every page
    faults on first touch; on this project's reference machine that made reading
    a 1M-token file 5-10x slower (flatnonzero over 9 MB: 96 ms -> 13 ms).  Only
    the command-line process does this; importing ts_eval changes nothing.
    """
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD: serve big blocks from the heap
        libc.mallopt(-1, 1 << 31)  # M_TRIM_THRESHOLD: keep freed heap memory for reuse
    except (OSError, AttributeError):  # not glibc: nothing to tune
        pass


def main(argv: Optional[List[str]] = None) -> int:
    _keep_freed_memory()
    try:
        code = run(argv)
    except OptionError as err:  # UsageError (the CLI's) and the library's bad option values
        print(f"ts-eval: error: {err}", file=sys.stderr)
        code = 2
    except InputError as err:
        print(f"ts-eval: error: {err}", file=sys.stderr)
        code = 1
    except BrokenPipeError:
        code = 0
    except SystemExit as exc:  # argparse: usage errors (2), --help and --version (0)
        code = exc.code if isinstance(exc.code, int) else 2
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
