"""``ts-eval score``: score one or more systems against gold; ``ts-eval demo``: the same on the bundled
GermEval 2014 sample (four systems)."""
from __future__ import annotations

import argparse
import os
import sys
from types import SimpleNamespace
from typing import Any, Dict, List, Optional, Tuple

from .errors import option_errors
from .inputs import (
    STDIN,
    add_column_options,
    add_file_arguments,
    add_reading_options,
    check_paths,
    file_request,
    input_settings,
    request_paths,
)
from .matching import add_matching_options, matching_options
from .outputs import add_output_options, emit, format_choices

LEGACY = ("conlleval", "faireval")     # byte-exact layouts; every other format is the report's page
FORMAT_CHOICES = format_choices(LEGACY)
DEMO_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "demo",
                         "germeval2014_test_sample.conll")
DEMO_INTRO = ("ts_eval scores labelled spans under several models of what counts as right. Here: four NER "
              "systems on 300 sentences of the GermEval 2014 test set.")
DEMO_SYSTEMS = ["gen-ap_rich_dev", "gen-crf_poor_dev", "gen-crf_rich_dev", "gen-mft_dev"]


def _scoring_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("scoring and output")
    g.add_argument("--separator-weight", type=float, default=1.0, metavar="W",
                   help="weight of a separator unit relative to a token (default 1; 0 = token-only T model)")
    g.add_argument("--beta", type=float, default=1.0, help="F-beta's beta (default 1)")
    g.add_argument("--models", default=None, metavar="LIST",
                   help="comma-separated models to compute and show: ts, exact, overlap, constrained, contain, "
                        "fair, semeval (nervaluate's SemEval-2013 schemes), strings (generated outputs) (default "
                        "ts,exact,fair; strings with --generated strings)")
    g.add_argument("--k1", type=int, default=None, metavar="N",
                   help="constrained/contain models: at most N spurious tokens (default 1 / unbounded)")
    g.add_argument("--k2", type=int, default=None, metavar="N",
                   help="constrained model: at most N missing tokens (default 1)")
    add_matching_options(g)
    g.add_argument("--focus", default="target", choices=("target", "system"),
                   help="fair model: whose label LE and LBE errors count under (default target)")
    g.add_argument("--weights", default="eq7", metavar="SPEC",
                   help="fair model's weighted scores: a preset eq5, eq6, eq7 (default; the paper's equation 7), "
                        "or the FairEval syntax, e.g. 'LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, ...'")
    g.add_argument("--fair-mode", default="paper", choices=("paper", "faireval-skip"),
                   help="fair model: the paper's algorithm (default) or today's FairEval.py, which skips the "
                        "span after each match")
    g.add_argument("--details", "--confusion", dest="confusion", action="store_true",
                   help="table format: also the detail sections (unit counts, fair confusion matrices, token "
                        "accuracy counts); html: open them")
    g.add_argument("--all-labels-row", action="store_true",
                   help="add a TS row for all labels as one (the paper's ENTITY supertag)")
    add_output_options(g, LEGACY)
    g.add_argument("--per-label", action="store_true",
                   help="table format: every score of every model and each system's per-label tables (the "
                        "default for one system; several systems show each model's F and rank first)")
    g.add_argument("--no-labels", action="store_true",
                   help="table format: every score of every model, without the per-label tables")


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes >= 1, got {value!r}")
    return n


def register(sub: Any) -> None:
    """Add ``score`` and ``demo`` to the ``ts-eval`` parser."""
    sc = sub.add_parser("score", help="score one or more systems against gold",
                        description="Score labelled spans. Either FILE with gold and system columns "
                                    "(default: conlleval's layout, the last two columns), or --gold G "
                                    "S [S ...] (also --gold G --system S [S ...]) with one file per system, "
                                    "in any input format (see --input-format).")
    add_file_arguments(sc)
    add_column_options(sc)
    add_reading_options(sc)
    sc.add_argument("--labels", metavar="L1,L2", help="score only these labels (after --map-label)")
    sc.add_argument("--exclude", metavar="L1,L2", help="leave these labels out (after --map-label)")
    sc.add_argument("--jobs", type=_positive, default=1, metavar="N",
                    help="score one column FILE in N processes, a shard of whole sentences each, and add up their "
                         "counts (default 1; standard input, compressed files, two-file mode and --scheme auto are "
                         "read in one)")
    _scoring_options(sc)
    demo = sub.add_parser("demo", help="score the bundled GermEval 2014 sample (four systems)",
                          description="Score the bundled sample of the GermEval 2014 test set (300 sentences; tokens "
                                      "in column 1, gold in column 2, four systems in columns 3-6) under the TS, "
                                      "exact and fair models: each model's F1 and each system's rank, on one "
                                      "screen, and the commands that show more.")
    demo.add_argument("--sample-path", action="store_true",
                      help="print the path of the bundled sample and exit (to give it to other commands)")
    _scoring_options(demo)


def _demo(args: argparse.Namespace) -> argparse.Namespace:
    """The demo as a ``score`` command: the bundled file, gold in column 2, four systems after it."""
    values = dict(file=DEMO_FILE, gold=None, system=None, gold_col=2, system_col=None, names=DEMO_SYSTEMS,
                  scheme="IOB2", policy="conlleval", token_col=1, map_label=[], delimiter=None, raw=False,
                  outside_tag="O", tags_only=False, labels=None, exclude=None)
    return argparse.Namespace(**{**vars(args), **values})


def _models(args: argparse.Namespace) -> List[str]:
    default = "strings" if getattr(args, "generated", None) == "strings" else "ts,exact,fair"
    models = [m.strip() for m in (args.models or default).split(",") if m.strip()]
    needed = {"conlleval": "exact", "faireval": "fair"}.get(args.format)
    if needed and needed not in models:
        models.append(needed)
    return models


def _split(v: Optional[str]) -> List[str]:
    return [x for x in (v or "").split(",") if x]


def _select(corpus: Any, args: argparse.Namespace, check: bool = True) -> Any:
    if not (args.labels or args.exclude):
        return corpus
    from ..core.corpus import select_labels

    with option_errors():
        return select_labels(corpus, _split(args.labels) or None, _split(args.exclude), check=check)


def _settings(args: argparse.Namespace) -> Any:
    from ..models.evaluate import score_settings

    return score_settings(separator_weight=args.separator_weight, beta=args.beta, all_labels_row=args.all_labels_row,
                          models=_models(args), k1=args.k1, k2=args.k2, focus=args.focus, weights=args.weights,
                          fair_mode=args.fair_mode, **matching_options(args))


def _counted(inputs: Any, args: argparse.Namespace) -> Tuple[Any, Any]:
    """(report, what ``settings["input"]`` reads of the corpus) of ``inputs`` read in blocks of sentences
    (documents), keeping only the running counts (:mod:`ts_eval.streaming.files`); one plain column file in
    ``--jobs`` processes, each a shard of it."""
    from ..core.corpus import check_selection
    from ..streaming.files import count

    options = {**{k: getattr(args, k) for k in SCORING}, **matching_options(args), "models": _models(args),
               "labels": _split(args.labels) or None, "exclude": _split(args.exclude)}
    with option_errors():
        counts = _in_shards(inputs, options, args.jobs) if getattr(args, "jobs", 1) > 1 else None
        if counts is None:
            counts = count(inputs, **options)
    if args.labels or args.exclude:
        with option_errors():
            check_selection(counts.input_labels, options["labels"], options["exclude"])
    sides = SimpleNamespace(gold_info=counts.gold, system_info={s.name: s.source for s in counts.systems})
    return counts.report(), sides


MIN_SHARD_BYTES = 32 << 20     # --jobs: a smaller shard costs more to start than it saves (~3M tokens)
SCORING = ("separator_weight", "beta", "all_labels_row", "k1", "k2", "focus", "weights", "fair_mode")


def _count_shard(job: Tuple[Any, Dict[str, Any]]) -> Any:
    """One process's shard: its counts, or the error it holds."""
    from ..errors import TsEvalError
    from ..streaming.files import count_file

    shard, options = job
    try:
        return count_file(shard, **options)
    except (TsEvalError, ValueError) as err:
        return err


def _in_shards(inputs: Any, options: Dict[str, Any], jobs: int) -> Any:
    """The counts of one plain column file from ``jobs`` processes (fewer for a file of less than ``jobs``
    times :data:`MIN_SHARD_BYTES`), one shard of whole sentences each, added in order (None: one process will
    do, or the file cannot be cut -- two-file mode, standard input, a compressed file, the scheme ``auto``).
    The first shard that holds an error holds the file's first: its error is raised, with the file's lines."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from ..errors import InputError
    from ..streaming.files import READING
    from ..streaming.shards import add_shards, file_shards, lines_before

    path = inputs.file
    if path is None or path == STDIN or (inputs.scheme or inputs.default_scheme) == "auto":
        return None
    jobs = min(jobs, os.path.getsize(path) // MIN_SHARD_BYTES)
    if jobs < 2:
        return None
    reading = {f: getattr(inputs, f) for f in READING if f not in ("glob", "block_bytes", "shard", "words",
                                                                    "default_scheme", "format", "gold_format")}
    reading["scheme"] = inputs.scheme or inputs.default_scheme
    reading = {k: v for k, v in reading.items() if v is not None}
    # The lines before each shard are not counted first (a pass over the bytes before the last shard, on
    # the path of every process): add_shards places a shard's line numbers where the report shows one.
    shards = file_shards(path, jobs, count_lines=False, **reading)
    if len(shards) < 2:
        return None
    with ProcessPoolExecutor(len(shards), mp_context=multiprocessing.get_context("fork")) as pool:
        parts = list(pool.map(_count_shard, [(shard, options) for shard in shards]))
    for shard, part in zip(shards, parts):
        if isinstance(part, InputError) and part.line is not None and shard.start:
            raise type(part)(list(part.parts), part.path, part.line + lines_before(path, shard.start))
        if isinstance(part, Exception):
            raise part
    return add_shards(shards, parts)


def _conlleval(report) -> str:
    from ..output.legacy.conlleval import to_conlleval

    return to_conlleval(report)


def _faireval(report) -> str:
    from ..output.legacy.faireval import score_to_faireval

    return score_to_faireval(report)


def _legacy():
    """The byte-exact layouts, each module imported only when its format is asked for."""
    return {"conlleval": _conlleval, "faireval": _faireval}


def _more(args: argparse.Namespace) -> List[Tuple[str, List[str]]]:
    """What the overview of several systems does not show, and the commands that show it."""
    if args.command == "demo":
        return [("Every score (P, R, kappa, macro) and each system's per-label tables",
                 ["ts-eval demo --per-label"]),
                ("All of it as one HTML page (sortable tables, error types, confusion heatmaps)",
                 ["ts-eval demo --format html -o demo.html"]),
                ("Ranks with 95% intervals and significance groups under every model",
                 ["DEMO=$(ts-eval demo --sample-path)",
                  'ts-eval rank "$DEMO" --gold-col 2 --names ap_rich crf_poor crf_rich mft'])]
    return [("Every score (P, R, kappa, macro) and each system's per-label tables", ["this command with --per-label"]),
            ("All of it as one HTML page", ["this command with --format html -o scores.html"]),
            ("Ranks with 95% intervals and significance groups under every model",
             ["ts-eval rank with the same input (ts-eval rank --help)"])]


def run(args: argparse.Namespace) -> int:
    """Run ``score`` or ``demo``; returns the exit code (errors are raised)."""

    if args.command == "demo":
        if args.sample_path:
            print(DEMO_FILE)
            return 0
        args = _demo(args)
    matching_options(args)          # (a bad value is a usage error before any input is read)
    inputs = file_request(args)
    check_paths(args, request_paths(inputs))
    with option_errors():
        _settings(args)             # a bad option before anything is read
    report, corpus = _counted(inputs, args)
    report.settings["input"] = input_settings(args, corpus)
    overview = args.format == "table" and len(report.systems) > 1 and not (
        args.per_label or args.no_labels or args.confusion or args.all_labels_row)
    options: Dict[str, Any] = {"overview": True, "more": _more(args), "intro": DEMO_INTRO if args.command == "demo"
                               else ""} if overview else {
        "per_label": not (args.no_labels and args.format == "table")}
    with option_errors():   # a layout that cannot show this report (conlleval with several systems, say)
        emit(report, args, _legacy, page_options=options, details=args.confusion)
    if args.format == "conlleval":   # the layout has no room for why its accuracy is n/a: say it beside
        for s in report.systems:
            why = s.get("exact", {}).get("token_accuracy_undefined")
            if why:
                print(f"ts-eval score: {s['name']}: accuracy n/a: conlleval token accuracy {why}", file=sys.stderr)
    return 0
