"""``ts-eval score``: score one or more systems against gold; ``ts-eval demo``: the same on the bundled
GermEval 2014 sample (four systems; its parser and sample: :mod:`.demo`)."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from . import demo, gold_option
from .errors import option_errors
from .input_options import add_column_options, add_file_arguments, add_reading_options, processes
from .inputs import check_paths, file_request, input_settings, request_paths
from .matching import matching_options
from .outputs import Texts, emit, format_choices
from .runs import add_runs_option, check_runs, with_run_files
from .scoring import LEGACY, add_scoring_options, check_settings, counting_options

if TYPE_CHECKING:
    from ..io.inputs import Inputs
    from ..ranking.blocks import RunsCounter
    from ..results.report import Report
    from .errors import Subparsers

FORMAT_CHOICES = format_choices(LEGACY)
#: what the overview of several systems does not show, and the commands that show it
MORE = [("Every score (P, R, kappa, macro) and each system's per-label tables", ["this command with --per-label"]),
        ("All of it as one HTML page", ["this command with --format html -o scores.html"]),
        ("Ranks with 95% intervals and significance groups under every model",
         ["ts-eval rank with the same input (ts-eval rank --help)"])]


def register(sub: Subparsers) -> None:
    """Add ``score`` and ``demo`` to the ``ts-eval`` parser."""
    sc = sub.add_parser("score", help="score one or more systems against gold",
                        description="Score labelled spans. Either FILE with gold and system columns "
                                    "(default: conlleval's layout, the last two columns), or --gold G "
                                    "S [S ...] (also --gold G --system S [S ...]) with one file per system, "
                                    "in any input format (see --input-format).")
    add_file_arguments(sc, several=True)
    add_runs_option(sc, "each system's mean, sd, min and max over its runs and every run's score under the ranking "
                        "models", models=True)
    add_column_options(sc)
    add_reading_options(sc)
    sc.add_argument("--labels", metavar="L1,L2", help="score only these labels (after --map-label)")
    sc.add_argument("--exclude", metavar="L1,L2", help="leave these labels out (after --map-label)")
    sc.add_argument("--jobs", type=processes, default=1, metavar="N",
                    help="score one column FILE in N processes, a shard of whole sentences each, and add up their "
                         "counts (default 1; standard input, compressed files, two-file mode and --scheme auto are "
                         "read in one)")
    add_scoring_options(sc)
    add_scoring_options(demo.register(sub))


def _counted(inputs: Inputs, args: argparse.Namespace, runs: Optional[RunsCounter] = None
             ) -> Tuple[Report, SimpleNamespace]:
    """(report, what ``settings["input"]`` reads of the corpus) of ``inputs`` read in blocks of sentences
    (documents), keeping only the running counts (:mod:`ts_eval.streaming.files`; one plain column file in
    ``--jobs`` processes, each a shard of it; ``runs``: also handed every block)."""
    from ..core.corpus import check_selection
    from ..streaming.files import count

    options = counting_options(args)
    with option_errors():
        counts = count(inputs, each=None if runs is None else runs.add, **options)
    if args.labels or args.exclude:
        with option_errors():
            check_selection(counts.input_labels, options["labels"], options["exclude"])
    sides = SimpleNamespace(gold_info=counts.gold, system_info={s.name: s.source for s in counts.systems})
    return counts.report(), sides


def _conlleval(report: Report) -> str:
    from ..output.legacy.conlleval import to_conlleval

    return to_conlleval(report)


def _faireval(report: Report) -> str:
    from ..output.legacy.faireval import score_to_faireval

    return score_to_faireval(report)


def _legacy() -> Texts:
    """The byte-exact layouts, each module imported only when its format is asked for."""
    return {"conlleval": _conlleval, "faireval": _faireval}


def run(args: argparse.Namespace) -> int:
    """Run ``score`` or ``demo``; returns the exit code (errors are raised)."""
    if args.command != "demo":
        if len(args.gold or []) > 1:
            from ..comparison.by_reference import score_references
            from .gold_references import run_score
            from .inputs import inputs_of
            check_settings(args)
            return run_score(args, inputs_of(args, names=None), score_references, counting_options(args))
        args.gold = gold_option.one_gold(args.gold)
        return scored(args, MORE)
    if args.sample_path:
        print(demo.DEMO_FILE)
        return 0
    return scored(demo.as_score(args), demo.MORE, demo.DEMO_INTRO)


def scored(args: argparse.Namespace, more: Sequence[Tuple[str, List[str]]], intro: str = "") -> int:
    """Score what ``args`` name and write the report (the overview of several systems ends with ``more``, the
    commands that show more, and starts with ``intro``); returns the exit code."""
    matching_options(args)          # (a bad value is a usage error before any input is read)
    runs = check_runs(args, "score")
    inputs, grouping = with_run_files(file_request(args, runs=bool(runs)), runs)
    inputs = replace(inputs, jobs=getattr(args, "jobs", 1))
    check_paths(args, request_paths(inputs))
    check_settings(args)            # a bad option before anything is read
    counter = runs_counter(args, grouping)
    report, corpus = _counted(inputs, args, counter)
    report.settings["input"] = input_settings(args, corpus)
    if counter is not None:
        report.runs = counter.plain()
        report.settings["input"]["runs"] = [{"name": n, "runs": r} for n, r in (grouping or {}).items()]
    overview = args.format == "table" and len(report.systems) > 1 and not (
        args.per_label or args.no_labels or args.confusion or args.all_labels_row)
    options: Dict[str, Any] = {"overview": True, "more": list(more), "intro": intro} if overview else {
        "per_label": not (args.no_labels and args.format == "table")}
    with option_errors():   # a layout that cannot show this report (conlleval with several systems, say)
        emit(report, args, _legacy, page_options=options, details=args.confusion)
    if args.format == "conlleval":   # the layout has no room for why its accuracy is n/a: say it beside
        for s in report.systems:
            why = s.get("exact", {}).get("token_accuracy_undefined")
            if why:
                print(f"ts-eval score: {s['name']}: accuracy n/a: conlleval token accuracy {why}", file=sys.stderr)
    return 0


def runs_counter(args: argparse.Namespace, grouping: Optional[Dict[str, List[str]]]) -> Optional[RunsCounter]:
    """What tallies the runs' statistics as ``score`` reads its blocks (``--run-models``; the matcher's
    options), None without ``--runs``."""
    if grouping is None:
        return None
    from ..ranking.blocks import RunsCounter
    from .rank_options import models_arg

    with option_errors():
        return RunsCounter(grouping, models=models_arg(args.run_models, generated=args.generated is not None),
                           **matching_options(args))
