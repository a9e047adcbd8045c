"""``ts-eval rank``: rank many systems under many evaluation models, with intervals and tests.

Inputs (one task unless said otherwise):

- ``ts-eval rank --gold GOLD SYSTEM_FILE_OR_DIR ...``: one file per system (a directory
  stands for the files in it, ``--glob`` filters them); tokens must line up with GOLD;
- ``ts-eval rank FILE``: one column file with gold and several system columns
  (by the shared column rule: ``--gold-col N`` makes every later column a system);
- ``--task NAME GOLD SYSTEM...`` repeated, or ``--manifest FILE``: several tasks,
  per-task tables and the correlation matrices averaged over tasks.

Columns, reading options and system names follow the shared loader (:mod:`ts_eval.cli.inputs`);
the tasks are read in :mod:`ts_eval.cli.tasks`.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Union

from . import lists
from .errors import UsageError, option_errors
from .input_options import add_column_options, add_reading_options
from .inputs import check_paths, inputs_of, load
from .matching import add_matching_options, matching_options
from .outputs import add_output_options, emit, format_choices

if TYPE_CHECKING:   # the tasks are read in run(): building the parser (every command does) does without them
    from ..io.inputs import Inputs
    from .tasks import TaskSpec

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


def register(subparsers) -> argparse.ArgumentParser:
    """Add the ``rank`` command to an ``add_subparsers()`` object; returns its parser."""
    p = subparsers.add_parser("rank", help="rank several systems under several evaluation models",
                              description=DESCRIPTION, epilog=EPILOG)
    p.add_argument("inputs", nargs="*", metavar="SYSTEM",
                   help="system files or directories (with --gold), or one FILE with several system columns")
    p.add_argument("--gold", metavar="GOLD", help="gold file (one file per system)")
    p.add_argument("--task", nargs="+", action="append", metavar="ARG",
                   help="NAME GOLD SYSTEM... : one task (repeat for several)")
    p.add_argument("--manifest", metavar="FILE",
                   help="tasks from a file (.json, .toml, or 'NAME GOLD SYSTEM...' lines)")
    p.add_argument("--germeval", action="store_true",
                   help="GermEval 2014 layout (both levels, twelve labels): 6-column files (index, token, gold "
                        "outer/inner, system outer/inner) or, with --gold, a gold file and 4- or 6-column system "
                        "files; adds GermEval Metric 1 (germeval-m1) to the default models")
    p.add_argument("--glob", default="*", metavar="PATTERN",
                   help="files to take from a system directory (default '*'; hidden files are skipped)")
    add_column_options(p, "in one FILE several columns are several systems; with --gold one for every file")
    add_reading_options(p, policies=("conlleval", "strict", "discard", "nereval"))
    m = p.add_argument_group("models and statistics")
    m.add_argument("--models", default=None, metavar="LIST",
                   help="comma-separated model names in display order, or 'default', 'paper', 'all' "
                        "(default: the default set; see --list-models)")
    m.add_argument("--reference", default=None, metavar="MODEL",
                   help="reference model of the rank table (default exact-f1-micro, the official CoNLL score)")
    m.add_argument("--list-models", action="store_true", help="list the models and exit")
    add_matching_options(m)
    m.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="paired bootstrap resamples (default 1000; 0 = none)")
    m.add_argument("--permutations", type=int, default=1000, metavar="N",
                   help="approximate-randomisation permutations per neighbour test (default 1000; 0 = none)")
    m.add_argument("--unit", default="sentence", choices=("sentence", "document"),
                   help="what the bootstrap and the permutation test resample (document: from -DOCSTART-)")
    m.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    m.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    m.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the significance groups (Holm-corrected neighbour tests) and of "
                        "the flips (default 0.05)")
    m.add_argument("--flips", action="append", default=[], metavar="A,B",
                   help="show in full the system pairs models A and B order differently, with both p-values "
                        "(repeatable; the JSON and CSV have every model pair's flips)")
    o = p.add_argument_group("output")
    add_output_options(o)
    o.add_argument("--details", action="store_true",
                   help="table format: also the per-model intervals and leaderboards, p-value rows, every flip "
                        "table and (single task) per-label scores and fair error types; the default is the "
                        "summary: leaderboard with intervals and significance groups, rank shifts, correlations "
                        "(the other formats always hold everything; html: the details open)")
    o.add_argument("--plot", metavar="FILE", help="bump chart of the ranks with interval bars (.png, .svg, .pdf; "
                                                  "needs matplotlib: pip install 'ts_eval[plot]')")
    o.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _models_arg(text: Optional[str], germeval: bool = False, generated: bool = False) -> Optional[List[str]]:
    from ..ranking import sufficient

    if text is None or text.strip() == "default":
        return None
    if text.strip() == "paper":
        return list(sufficient.PAPER_MODELS)
    if text.strip() == "all":    # GermEval Metric 1 and the strings models only where they apply
        given = {"germeval": germeval, "generated": generated}
        return [m for m, model in sufficient.REGISTRY.items() if not model.needs or given.get(model.needs)]
    return lists.names(text)


def list_models() -> str:
    from ..ranking import sufficient

    lines = ["available models (name, column title, description); * = default"]
    defaults = set(sufficient.default_models())
    for m in sufficient.REGISTRY.values():
        lines.append(f"{'*' if m.name in defaults else ' '} {m.name:22} {m.title:9} {m.description}")
    for name, why in sufficient.UNAVAILABLE.items():
        lines.append(f"  {name:22} {'-':9} not available: {why}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# running


class _Bar:
    """A rich progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, enabled: bool):
        self.progress = None
        self.tasks: Dict[str, Any] = {}
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            console = Console(stderr=True)
            if console.is_terminal:
                self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                         TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                         console=console, transient=True)

    def __enter__(self):
        if self.progress:
            self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        if self.progress:
            self.progress.__exit__(*exc)

    def __call__(self, task: str, phase: str, done: int, total: int) -> None:
        if not self.progress:
            return
        key = f"{task}: {phase}"
        if key not in self.tasks:
            self.tasks[key] = self.progress.add_task(key, total=total)
        self.progress.update(self.tasks[key], completed=done)


def run(args) -> int:
    """Run ``ts-eval rank`` for parsed arguments; returns the exit code (errors are raised)."""
    from ..ranking import study as ranking
    from ..ranking import sufficient

    if args.list_models:
        from .outputs import write_output

        write_output(list_models(), args.output)
        return 0
    models = _models_arg(args.models, args.germeval, getattr(args, "generated", None) is not None)
    reference = args.reference or sufficient.REFERENCE_MODEL
    matching = matching_options(args)
    with option_errors():
        sufficient.resolve_models(models)                 # unknown names fail before reading anything
        sufficient.get_model(reference)
    ranking.check_options(bootstrap=args.bootstrap, permutations=args.permutations, seed=args.seed,
                          confidence=args.confidence, alpha=args.alpha)
    from .tasks import task_specs

    specs = task_specs(args)
    names = [s.name for s in specs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UsageError(f"task name(s) {', '.join(dup)} given twice; task names must be unique")
    inputs = [("--manifest", args.manifest)] + [
        (f"{role} of task {s.name}" if len(specs) > 1 else role, path) for s in specs
        for role, path in [("--gold", s.gold)] + [("system", p) for p in s.systems]]
    check_paths(args, inputs, [("--output", args.output), ("--plot", args.plot)])
    if args.plot:
        from ..output.plot import check_available
        check_available()
    sources = [(s.name, _source(s, args)) for s in specs]
    for _, source in sources:      # every task's resampling fits in memory before the first is ranked
        chosen = ranking.model_set(source.corpus, models, reference)[0]
        ranking.check_memory(args.bootstrap, source.systems, len(chosen))
    options = dict(models=models, reference=reference, bootstrap=args.bootstrap, permutations=args.permutations,
                   unit=args.unit, seed=args.seed, confidence=args.confidence, alpha=args.alpha,
                   flips=[lists.model_pair(f) for f in args.flips], **matching)
    report = len(sources) == 1 and (args.format == "html" or (args.format == "table" and args.details))
    with _Bar(not args.no_progress and (args.bootstrap or args.permutations)) as bar:
        results = {}
        for name, source in sources:
            results[name] = source.rank(args, report, task=name, progress=lambda *a, n=name: bar(n, *a), **options)
        result: Union[ranking.RankingResult, ranking.MultiTaskResult]
        result = results[sources[0][0]] if len(sources) == 1 else ranking.combine(results)
    page: Dict[str, Any] = {"every_flip": args.format == "csv"}
    if report:       # the HTML page and the detailed terminal (one task): per-label scores and fair error types
        page["report"] = sources[0][1].report
    emit(result, args, page_options=page, details=args.details, width=120)
    if args.plot:
        from ..output.plot import bump_chart
        bump_chart(result, args.plot)
        print(f"ts-eval: bump chart written to {args.plot}", file=sys.stderr)
    return 0


class _Task:
    """One task's input: a corpus read whole, or inputs read in blocks of sentences (``inputs``, when
    ``blocks``), whose statistics are then taken block by block (:func:`ts_eval.ranking.blocks.rank_blocks`),
    never holding the corpus."""

    def __init__(self, spec: TaskSpec, args: argparse.Namespace, inputs: Optional[Inputs], blocks: bool) -> None:
        self.spec, self.inputs, self.blocks = spec, inputs, blocks
        self.corpus: Any = None if blocks else load_task(spec, args)
        self.report: Any = None

    @property
    def systems(self) -> int:
        if self.corpus is not None:
            return len(self.corpus.systems)
        assert self.inputs is not None
        if self.inputs.gold is not None:
            return len(self.inputs.system_inputs())
        return len(self.inputs.names or self.inputs.system_columns or (-1,))

    def rank(self, args: argparse.Namespace, report: bool, **options: Any) -> Any:
        """The task's ranking (and with ``report`` the score report of its systems, for the page)."""
        from ..ranking import study as ranking

        if self.blocks:
            from ..io.inputs import taken_from_directories

            with taken_from_directories(self.spec.systems, self.spec.options.get("glob", args.glob)), \
                    option_errors():
                return self._rank_blocks(report, **options)
        if report:
            from ..models.evaluate import evaluate

            self.report = evaluate(self.corpus)
        return ranking.rank_corpus(self.corpus, **options)

    def _rank_blocks(self, report: bool, **options: Any) -> Any:
        from dataclasses import replace as with_fields

        from ..models.counts import add_up, count_corpus
        from ..models.evaluate import DEFAULT_MODELS, score_settings
        from ..ranking import blocks as in_blocks

        parts: List[Any] = []
        settings = score_settings()
        assert self.inputs is not None
        inputs = with_fields(self.inputs, block_bytes=in_blocks.BLOCK_BYTES)

        def blocks() -> Iterator[Any]:
            for block in inputs.read("ranking", min_systems=2):
                if report:      # what evaluate() counts of the whole corpus, added up block by block
                    parts[:] = [add_up(parts + [count_corpus(block, DEFAULT_MODELS, settings)])]
                yield block

        result = in_blocks.rank_blocks(blocks(), **options)
        if report:
            self.report = parts[0].report()
        return result


def _source(spec: TaskSpec, args: argparse.Namespace) -> _Task:
    """A task read in blocks when its models say how their statistics depend on the labels (and it is no
    GermEval task), else read whole now."""
    from ..ranking import sufficient

    inputs = _inputs(spec, args)
    blocks = False
    if inputs is not None and args.policy != "nereval":
        with option_errors():
            models = sufficient.resolve_models(_models_arg(args.models, args.germeval,
                                                           getattr(args, "generated", None) is not None))
            blocks = all(m.columns is not None for m in models) and \
                sufficient.get_model(args.reference or sufficient.REFERENCE_MODEL).columns is not None
    return _Task(spec, args, inputs, blocks)


# ---------------------------------------------------------------------------
# reading a task


def load_task(spec: TaskSpec, args: argparse.Namespace):
    """Read one task into a Corpus (at least two systems)."""
    if args.policy == "nereval" and not args.germeval:
        raise UsageError("--policy nereval is GermEval's chunk rule: use it with --germeval")
    if args.germeval:
        if args.map_label:
            raise UsageError("--map-label does not apply to --germeval: GermEval's metrics are defined on its "
                             "twelve labels (Metric 2 already collapses deriv and part)")
        return _load_germeval(spec, args)
    from ..io.inputs import taken_from_directories

    inputs = _inputs(spec, args)
    assert inputs is not None
    with taken_from_directories(spec.systems, spec.options.get("glob", args.glob)):
        return load(inputs, "ranking", min_systems=2)


def _inputs(spec: TaskSpec, args: argparse.Namespace) -> Optional[Inputs]:
    """What a (not GermEval) task reads (None: a GermEval task)."""
    from ..io.inputs import expand

    if args.germeval:
        return None
    opts = spec.options
    system_col = opts.get("system_col", args.system_col)
    cols = dict(names=spec.names, columns=False, gold_column=opts.get("gold_col", args.gold_col),
                system_columns=None if system_col is None else tuple([system_col] if isinstance(system_col, int)
                                                                     else system_col))
    inputs = inputs_of(args, **cols)
    scheme = opts.get("scheme")
    if scheme:
        inputs = replace(inputs, scheme=scheme)
    if opts.get("single_file"):
        return replace(inputs, file=spec.systems[0])
    files = expand(spec.systems, opts.get("glob", args.glob), exclude=[spec.gold])
    _check_two(spec, files)
    return replace(inputs, gold=spec.gold, systems=tuple(files))


def _check_two(spec: TaskSpec, files: List[str]) -> None:
    """A ranking needs two systems (the message names the task, which the shared loader does not know)."""
    if len(files) < 2:
        raise UsageError(f"ranking needs at least two systems; task {spec.name!r} has {len(files)}"
                         + (f" ({files[0]})" if files else ""))


def _load_germeval(spec: TaskSpec, args: argparse.Namespace):
    from ..germeval.corpus import germeval_corpus
    from ..io.inputs import expand, system_names

    files = expand(spec.systems, spec.options.get("glob", args.glob), exclude=[spec.gold] if spec.gold else [])
    names = system_names(files, spec.names)
    _check_two(spec, files)
    return germeval_corpus(spec.gold or None, files, names=names, policy=args.policy or "nereval")
