"""``ts-eval germeval``: GermEval 2014 nested NER scoring (Metrics 1-4 as the official scorer, TS, fair).

    ts-eval germeval FILE                              # 6 columns: index token gold-outer gold-inner
                                                       #   sys-outer sys-inner
    ts-eval germeval --gold GOLD.tsv --system SYS.tsv  # 4 columns each: index token outer inner

Exit codes (set by ``ts_eval.cli.errors``): 0 scored, 1 bad input, 2 bad usage.
"""
from __future__ import annotations

import argparse
from typing import Any, Callable, Dict

from ..errors import OptionError
from .errors import UsageError
from .input_options import processes
from .inputs import check_paths
from .outputs import add_output_options, emit

LEGACY = ("nereval",)     # the official scorer's layout, byte for byte; every other format is the page
POLICY_HELP = ("ill-formed IOB2 chunks: nereval = read them as the official scorer does (an I- tag of another "
               "label continues the chunk; default, needed for the official numbers), conlleval = an I- tag "
               "after O or another label opens a new chunk, strict = error, discard = drop the chunk")


def register(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
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
    p.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help="read FILE in N processes, a shard of whole sentences each, and add up their counts "
                        "(default 1; the same report; a file under 64 MB, standard input, compressed files and "
                        "two-file mode --gold/--system are read in one)")
    add_output_options(p, LEGACY)
    return p


def _check_mode(args: argparse.Namespace) -> None:
    """FILE, or --gold and --system."""
    if args.gold or args.system:
        if args.file:
            raise UsageError("give either FILE or --gold/--system, not both")
        if not (args.gold and args.system):
            raise UsageError("two-file mode needs both --gold and --system")
    elif not args.file:
        raise UsageError("give a FILE (6 columns), or --gold GOLD --system SYS (4 columns each)")


def _legacy() -> Dict[str, Callable[..., str]]:
    from ..output.legacy.nereval import to_nereval

    return {"nereval": to_nereval}


def run(args: argparse.Namespace) -> int:
    from ..core import measures
    from ..germeval.evaluate import evaluate_germeval_pieces
    from ..germeval.files import evaluate_germeval_file
    from ..io.germeval import read_germeval_pair

    try:
        measures.check_separator_weight(args.separator_weight)
    except OptionError as err:      # (a usage error of this command: the message names the option as typed)
        raise UsageError(err.parts) from None
    check_paths(args, [("FILE", args.file), ("--gold", args.gold), ("--system", args.system)])
    _check_mode(args)
    scoring = dict(policy=args.policy, separator_weight=args.separator_weight, eof_quirk=not args.count_last_chunk,
                   fair=not args.no_fair)
    if args.file:
        report = evaluate_germeval_file(args.file, name=args.name, jobs=args.jobs, **scoring)
    else:       # (two-file mode reads both files whole, in one process)
        data = read_germeval_pair(args.gold, args.system, name=args.name, policy=args.policy)
        report = evaluate_germeval_pieces([(data, True)], **scoring)
    report.settings["input"] = {"file": args.file, "gold": args.gold, "system": args.system}
    emit(report, args, _legacy, width=120)
    return 0
