"""``ts-eval rank``: rank many systems under many evaluation models, with intervals and tests.

Inputs: ``--gold GOLD SYSTEM_FILE_OR_DIR ...`` (one file per system; ``--glob`` filters a directory's files);
``FILE`` (gold and several system columns, by the shared column rule); ``--task NAME GOLD SYSTEM...`` repeated or
``--manifest FILE`` (several tasks; correlations averaged over tasks).  Reading options and system names follow
:mod:`ts_eval.cli.inputs`; tasks are parsed by :mod:`ts_eval.cli.tasks`, read by :mod:`ts_eval.ranking.tasks`;
``--anonymise`` and ``--site`` are :mod:`ts_eval.cli.rank_site`'s."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

from . import lists, rank_references, rank_site
from .errors import option_errors
from .input_options import add_column_options, add_reading_options
from .inputs import check_paths, inputs_of
from .matching import matching_options
from .outputs import emit, format_choices, write_output
from .progress import Bar
from .rank_options import add_rank_options, list_models, models_arg
from .runs import add_runs_option, check_runs, task_runs
from .tasks import add_task_arguments, check_germeval, task_paths, task_specs

if TYPE_CHECKING:
    from ..ranking.manifest import TaskSpec
    from ..ranking.study import RankingResult
    from ..ranking.tasks import Task
    from .errors import Subparsers

DESCRIPTION = (
    "Rank systems under several evaluation models: scores, the rank table in Esuli & Sebastiani's "
    "layout (each cell: the system's rank under the reference model), Spearman and Kendall "
    "correlations between the models' rankings, paired bootstrap intervals of scores and ranks, "
    "and a paired permutation test between neighbours in each ranking; from the same resamples and tests: "
    "intervals of the correlations, Holm-corrected significance groups, and the system pairs two models "
    "order differently (flips).")
EPILOG = (
    "Inputs: --gold GOLD SYSTEM... (files or directories), or FILE with several system columns, "
    "or --task NAME GOLD SYSTEM... (repeat for several tasks), or --manifest FILE (.json, .toml, or "
    "lines 'NAME GOLD SYSTEM...'; paths relative to the manifest). Models: --list-models.")


FORMAT_CHOICES = format_choices()    # the page formats and json: rank has no legacy layout


def register(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Add the ``rank`` command to an ``add_subparsers()`` object; returns its parser."""
    p = subparsers.add_parser("rank", help="rank several systems under several evaluation models",
                              description=DESCRIPTION, epilog=EPILOG)
    add_task_arguments(p)
    add_runs_option(p, "ranked by the mean of its runs' scores, with intervals from a two-level bootstrap")
    add_column_options(p, "in one FILE several columns are several systems; with --gold one for every file")
    add_reading_options(p, policies=("conlleval", "strict", "discard", "nereval"))
    add_rank_options(p)
    rank_site.add_site_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``ts-eval rank`` for parsed arguments; returns the exit code (errors are raised)."""
    from ..ranking import study as ranking
    from ..ranking import sufficient

    if args.list_models:
        write_output(list_models(), args.output)
        return 0
    models = models_arg(args.models, args.germeval, getattr(args, "generated", None) is not None)
    reference = args.reference or sufficient.REFERENCE_MODEL
    matching = matching_options(args)
    with option_errors():
        sufficient.resolve_models(models)                 # unknown names fail before reading anything
        sufficient.get_model(reference)
    if len(args.gold or []) > 1:                          # several references: --gold NAME=PATH twice
        from ..ranking.references import rank_several as ranked
        return rank_references.run(args, models, reference, ranked, inputs_of(args, names=None))
    numbers = {k: getattr(args, k) for k in ("bootstrap", "permutations", "seed", "confidence", "alpha",
                                             "aso_resamples", "aso_threshold")}
    ranking.check_options(**numbers)
    runs = check_runs(args, "rank")
    specs = rank_site.site_specs(args, task_specs(args))
    check_paths(args, task_paths(specs, args), [("--output", args.output), ("--plot", args.plot)])
    if args.plot:
        from ..output.plot import check_available
        check_available()
    tasks = _read(specs, args, models, reference, runs)
    for task in tasks:      # every task's resampling fits in memory before the first is ranked
        chosen = ranking.model_set(task.corpus, models, reference)[0]
        ranking.check_memory(args.bootstrap, task.systems, len(chosen))
    options = dict(models=models, reference=reference, unit=args.unit, flips=[lists.model_pair(f) for f in args.flips],
                   jobs=args.jobs, **numbers, **matching)
    report = len(tasks) == 1 and (args.format == "html" or (args.format == "table" and args.details) or args.site)
    with Bar(not args.no_progress and (args.bootstrap or args.permutations)) as bar:
        results = {}
        for task in tasks:
            results[task.name] = _rank(task, report, task=task.name, progress=lambda *a, n=task.name: bar(n, *a),
                                       runs=task.runs, **options)
        result: Union[ranking.RankingResult, ranking.MultiTaskResult]
        result = results[tasks[0].name] if len(tasks) == 1 else ranking.combine(results)
    rank_site.mark(args, results)
    page: Dict[str, Any] = {"every_flip": args.format == "csv"}
    if report:       # the HTML page and the detailed terminal (one task): per-label scores and fair error types
        page["report"] = tasks[0].score_report()
    emit(result, args, page_options=page, details=args.details, width=120)
    if args.plot:
        from ..output.plot import bump_chart
        bump_chart(result, args.plot)
        print(f"ts-eval: bump chart written to {args.plot}", file=sys.stderr)
    if args.site:       # (rank hands the studies over: the imports stay at eight floors)
        from ..analysis.errors import error_analysis
        from ..comparison.comparison import compare
        from ..validation.check import validate_inputs
        rank_site.write_site(args, tasks[0], result, page.get("report"), validate_inputs, analyse=error_analysis,
                             compare=compare)
    return 0


def _read(specs: List[TaskSpec], args: argparse.Namespace, models: Optional[List[str]], reference: str,
          runs: Dict[str, str]) -> List[Task]:
    """Each task, read whole now or in blocks (:func:`ts_eval.ranking.tasks.read_task`); ``runs``: ``--runs``."""
    from ..ranking.tasks import read_task, task_inputs

    shared = None if args.germeval else inputs_of(args, names=None)
    tasks = []
    for spec in specs:
        glob = spec.options.get("glob", args.glob)
        inputs, grouping = task_runs(spec, shared, glob, runs) if runs else (
            None if shared is None else task_inputs(spec, shared, glob), None)
        if inputs is not None and grouping:        # (no run file is an output)
            check_paths(args, [("--runs", f) for f in inputs.systems], [("--output", args.output),
                                                                        ("--plot", args.plot)])
        check_germeval(args)
        with option_errors() if inputs is not None else nullcontext():
            tasks.append(read_task(spec, inputs, glob, models, reference, args.policy))
        tasks[-1].runs = grouping
    return tasks


def _rank(one: Task, report: bool, jobs: int = 1, **options: Any) -> RankingResult:
    """A task's ranking: of its corpus, or of its blocks in ``--jobs`` processes (``report``: score report too)."""
    from ..ranking.blocks import block_bytes, rank_blocks
    from ..ranking.shards import task_blocks
    from ..ranking.study import rank_corpus

    if one.inputs is None:
        assert one.corpus is not None
        return rank_corpus(one.corpus, jobs=jobs, **options)
    with option_errors():     # (the first shard's blocks read here, the others' in processes begun by later)
        return rank_blocks(*task_blocks(one, block_bytes(one.known_systems), report, jobs), jobs=jobs, **options)
