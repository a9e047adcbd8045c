"""``ts-eval compare``: system A (baseline) against system B against gold (Tuggener), and
with more systems the pairwise differences and the oracle upper bounds.

    ts-eval compare --gold GOLD A B [C ...]          one file per system (last column)
    ts-eval compare FILE [--gold-col N] [--system-col N N ...]   one file, several system columns

Exit codes as for ``score``: 0 done, 1 bad input, 2 bad usage.
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, Iterator

from .errors import UsageError, option_errors
from .gold_option import one_gold
from .input_options import COLUMN_RULE, add_column_options, add_reading_options, processes
from .inputs import check_paths, inputs_of, request_paths
from .matching import add_matching_options, matching_options
from .outputs import add_output_options, emit, format_choices

if TYPE_CHECKING:
    from ..core.corpus import Corpus
    from ..io.inputs import Inputs

FORMAT_CHOICES = format_choices()    # the page formats and json


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "compare", help="compare systems with each other against gold (corrections, new errors, oracle)",
        description="Compare system outputs (Tuggener): with two systems A (baseline) and B, which tokens, "
                    "spans and TS units B corrects, newly gets wrong or gets wrong differently; with more "
                    "systems the pairwise diff matrix, oracle upper bounds and the gold spans no system finds. "
                    "Either --gold GOLD A B [C ...] (one file per system), or FILE with a gold column and "
                    "several system columns. " + COLUMN_RULE)
    p.add_argument("inputs", nargs="+", metavar="FILE",
                   help="with --gold: the system files (A B [C ...]); without: one column file")
    p.add_argument("--gold", metavar="G", action="append",
                   help="gold file; the FILEs are then one file per system; several references of the same tokens: "
                        "NAME=PATH each, repeated (the pair under each, with a paired test)")
    add_column_options(p, "in one FILE several columns are several systems; with --gold one for every file")
    p.add_argument("--pair", nargs=2, metavar=("A", "B"),
                   help="the pair to compare in detail, baseline first (default with two systems: them, in order)")
    add_reading_options(p)
    p.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help="processes reading a plain column file, a shard of whole sentences each (default 1; "
                        "standard input, compressed files and one file per system are read in one)")
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
    g.add_argument("--models", default="", metavar="LIST",
                   help="comma-separated models of ts-eval score to add per system (ts, exact, overlap, constrained, "
                        "contain, fair, semeval), each as score reports it; semeval also compares the pair under the "
                        "SemEval-2013 schemes span by span (default: none)")
    add_matching_options(g)
    g.add_argument("--permutations", type=int, default=1000, metavar="N",
                   help="several --gold: permutations of the pair's paired test under each reference (default 1000)")
    g.add_argument("--seed", type=int, default=0, help="several --gold: the paired test's random seed (default 0)")
    g.add_argument("--details", action="store_true",
                   help="table format: also the detail sections (all system pairs, SemEval-2013 per label); "
                        "html: open them")
    g.add_argument("--cases", type=int, default=10, metavar="N",
                   help="table format: hard and easy gold spans listed (default 10; the other formats list all)")
    add_output_options(g)


def _inputs(args: argparse.Namespace) -> Inputs:
    if args.gold:
        return inputs_of(args, gold=args.gold, systems=args.inputs)
    if len(args.inputs) != 1:
        raise UsageError(f"{len(args.inputs)} files without --gold: give --gold GOLD A B [...], or one FILE "
                         "with a gold column and several system columns")
    return inputs_of(args, file=args.inputs[0])


def run(args: argparse.Namespace) -> int:
    from ..comparison.comparison import check_models, compare_blocks

    if args.top < 0 or args.examples < 0 or args.cases < 0:
        raise UsageError("--top, --examples and --cases must be >= 0")
    matching = matching_options(args)
    with option_errors("--models: "):
        models = check_models([m.strip() for m in args.models.split(",") if m.strip()])   # before reading
    if len(args.gold or []) > 1:
        from ..comparison.by_reference import compare_by_reference
        from ..comparison.comparison import compare
        from .gold_references import run_compare
        return run_compare(args, inputs_of(args, names=None), models, compare_by_reference, compare)
    args.gold = one_gold(args.gold)
    inputs = replace(_inputs(args), jobs=args.jobs)
    check_paths(args, request_paths(inputs))
    a, b = args.pair if args.pair else (None, None)
    columns: Dict[str, Any] = {}

    def blocks() -> Iterator[Corpus]:
        """The blocks of the inputs (read in blocks of whole sentences, as score reads them); the first's columns
        noted."""
        for corpus in inputs.read("compare", 2):
            if not columns:
                columns.update(gold_col=corpus.gold_info.column,
                               system_cols=[i.column for i in corpus.system_info.values()])
            yield corpus

    with option_errors():
        result = compare_blocks(blocks(), a, b, top=args.top, examples=args.examples, view=args.view,
                                separator_weight=args.separator_weight, spans=not args.no_spans,
                                fair_mode=args.fair_mode, models=models, **matching)
    result.settings["input"] = {"gold": args.gold, "files": list(args.inputs), **columns}
    emit(result, args, page_options={"cases": args.cases if args.format == "table" else None}, details=args.details)
    return 0
