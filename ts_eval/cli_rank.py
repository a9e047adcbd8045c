"""``ts-eval rank``: rank many systems under many evaluation models, with intervals and tests.

Inputs (one task unless said otherwise):

- ``ts-eval rank --gold GOLD SYSTEM_FILE_OR_DIR ...``: one file per system (a directory
  stands for the files in it, ``--glob`` filters them); tokens must line up with GOLD;
- ``ts-eval rank FILE``: one column file with gold and several system columns
  (``--gold-col``, default 2; ``--system-col``, default every column after gold);
- ``--task NAME GOLD SYSTEM...`` repeated, or ``--manifest FILE``: several tasks,
  per-task tables and the correlation matrices averaged over tasks.

The lead wires it into :mod:`ts_eval.cli` with :func:`register` and :func:`run`;
:func:`main` runs it on its own (``python -m ts_eval.cli_rank``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from .io.columns import count_columns
from .errors import InputError, OptionError, UsageError
from .output import open_output, write_output

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


# = formats_rank.FORMAT_CHOICES, not imported here so that registering the command stays cheap
FORMAT_CHOICES = ("table", "json", "csv", "markdown", "latex")


@dataclass
class TaskSpec:
    name: str
    gold: str
    systems: List[str]
    names: Optional[List[str]] = None
    options: Dict[str, Any] = field(default_factory=dict)   # gold_col, system_col, scheme per task


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
    p.add_argument("--names", nargs="+", metavar="NAME", help="system names (one task; default: file names)")
    p.add_argument("--germeval", action="store_true",
                   help="GermEval 2014 layout (both levels, twelve labels): 6-column files (index, token, gold "
                        "outer/inner, system outer/inner) or, with --gold, a gold file and 4- or 6-column system "
                        "files; adds GermEval Metric 1 (germeval-m1) to the default models")
    p.add_argument("--glob", default="*", metavar="PATTERN",
                   help="files to take from a system directory (default '*'; hidden files are skipped)")
    g = p.add_argument_group("reading")
    g.add_argument("--gold-col", type=int, default=None, metavar="N",
                   help="gold column (default: -1 in the gold file; 2 in a FILE with several systems)")
    g.add_argument("--system-col", type=int, nargs="+", default=None, metavar="N",
                   help="system column (default -1 in each system file; in FILE: every column after gold)")
    g.add_argument("--token-col", type=int, default=1, metavar="N", help="token column (default 1)")
    g.add_argument("--scheme", default="IOB2", help="tagging scheme (default IOB2; see 'ts-eval score --help')")
    g.add_argument("--policy", default=None, choices=("conlleval", "strict", "discard", "nereval"),
                   help="ill-formed spans (default conlleval; with --germeval: nereval, the official scorer's rule)")
    g.add_argument("--map-label", action="append", default=[], metavar="PATTERN=REPL",
                   help="rewrite labels with a regular expression before scoring (repeatable)")
    m = p.add_argument_group("models and statistics")
    m.add_argument("--models", default=None, metavar="LIST",
                   help="comma-separated model names in display order, or 'default', 'paper', 'all' "
                        "(default: the default set; see --list-models)")
    m.add_argument("--reference", default=None, metavar="MODEL",
                   help="reference model of the rank table (default exact-f1-micro, the official CoNLL score)")
    m.add_argument("--list-models", action="store_true", help="list the models and exit")
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
    o.add_argument("--format", default="table", choices=FORMAT_CHOICES, help="output format (default table)")
    o.add_argument("--output", "-o", metavar="FILE", help="write the output to FILE instead of stdout")
    o.add_argument("--plot", metavar="FILE", help="bump chart of the ranks with interval bars (.png, .svg, .pdf; "
                                                  "needs matplotlib: pip install 'ts_eval[plot]')")
    o.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


# ---------------------------------------------------------------------------
# inputs


def _expand(paths: Sequence[str], pattern: str, exclude: Sequence[str] = ()) -> List[str]:
    """Files, with each directory replaced by its (non-hidden, matching) files in sorted order."""
    skip = {os.path.realpath(x) for x in exclude}
    out: List[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted(str(f) for f in Path(p).glob(pattern)
                           if f.is_file() and not f.name.startswith(".") and os.path.realpath(f) not in skip)
            if not found:
                raise InputError(f"no system file matching {pattern!r} in this directory", p)
            out.extend(found)
        elif os.path.exists(p):
            out.append(p)
        else:
            raise InputError("no such file or directory", p)
    return out


def _stem(path: str) -> str:
    base = os.path.basename(path)
    return base.rsplit(".", 1)[0] if "." in base[1:] else base


def system_names(paths: Sequence[str], names: Optional[Sequence[str]] = None) -> List[str]:
    """Names of system files (their stems), refusing duplicates with the files that clash."""
    if names is not None:
        if len(names) != len(paths):
            raise UsageError(f"{len(names)} names for {len(paths)} system files")
        out = list(names)
    else:
        out = [_stem(p) for p in paths]
    seen: Dict[str, int] = {}
    for k, n in enumerate(out):
        if n in seen:
            a, b = paths[seen[n]], paths[k]
            raise UsageError(f"system name {n!r} is given twice ({a} and {b}); system names must be unique "
                             "(rename the files or give --names)")
        if n == "gold":
            raise UsageError("'gold' cannot be a system name")
        seen[n] = k
    return out


def read_manifest(path: str) -> List[TaskSpec]:
    """Tasks from a JSON, TOML or line manifest; relative paths are relative to the manifest."""
    base = os.path.dirname(os.path.abspath(path))

    def rel(p: str) -> str:
        return p if os.path.isabs(p) else os.path.join(base, p)

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot read the manifest: {err.strerror}", path) from None
    suffix = Path(path).suffix.lower()
    if suffix in (".json", ".toml"):
        try:
            if suffix == ".json":
                data = json.loads(text)
            else:
                import tomllib
                data = tomllib.loads(text)
        except (ValueError, ImportError) as err:
            raise InputError(f"cannot parse the manifest: {err}", path) from None
        items = data.get("tasks", data.get("task")) if isinstance(data, dict) else data
        if not isinstance(items, list) or not items:
            raise InputError("expected a list of tasks (JSON: {\"tasks\": [...]}; TOML: [[task]] tables), each "
                             "with name, gold and systems", path)
        tasks = []
        for k, t in enumerate(items):
            if not isinstance(t, dict) or not {"name", "gold", "systems"} <= set(t):
                raise InputError(f"task {k + 1}: expected name, gold and systems (a list of files or "
                                 "directories)", path)
            systems = t["systems"] if isinstance(t["systems"], list) else [t["systems"]]
            opts = {k2: t[k2] for k2 in ("gold_col", "system_col", "scheme", "glob") if k2 in t}
            tasks.append(TaskSpec(str(t["name"]), rel(str(t["gold"])), [rel(str(s)) for s in systems],
                                  t.get("names"), opts))
        return tasks
    tasks = []
    for lineno, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) < 3:
            raise InputError(f"expected 'NAME GOLD SYSTEM...', found {line.strip()!r}", path, lineno)
        tasks.append(TaskSpec(fields[0], rel(fields[1]), [rel(s) for s in fields[2:]]))
    if not tasks:
        raise InputError("no task in the manifest (lines 'NAME GOLD SYSTEM...')", path)
    return tasks


def task_specs(args) -> List[TaskSpec]:
    """The tasks the arguments describe (exactly one way of giving inputs)."""
    ways = [bool(args.task), bool(args.manifest), bool(args.gold) or bool(args.inputs)]
    if sum(ways) == 0:
        raise UsageError("no input: give --gold GOLD SYSTEM..., a FILE with several system columns, "
                         "--task NAME GOLD SYSTEM..., or --manifest FILE")
    if sum(ways) > 1:
        raise UsageError("give inputs one way only: --gold/files, --task, or --manifest")
    if args.task:
        for t in args.task:
            if len(t) < 3:
                raise UsageError(f"--task {' '.join(t)}: expected NAME GOLD SYSTEM...")
        if args.names and len(args.task) > 1:
            raise UsageError("--names applies to one task; name several tasks' systems by their files")
        return [TaskSpec(t[0], t[1], t[2:], args.names if len(args.task) == 1 else None) for t in args.task]
    if args.manifest:
        return read_manifest(args.manifest)
    if args.gold:
        if not args.inputs:
            raise UsageError("--gold needs system files or directories after it")
        return [TaskSpec("task", args.gold, list(args.inputs), args.names)]
    if args.germeval:
        return [TaskSpec("task", "", list(args.inputs), args.names)]
    if len(args.inputs) != 1:
        raise UsageError("without --gold, give one FILE with a gold column and several system columns")
    return [TaskSpec("task", "", [args.inputs[0]], args.names, {"single_file": True})]


def load_task(spec: TaskSpec, args):
    """Read one task into a Corpus."""
    from .corpus import parse_label_map
    from .io import read_conll, read_conll_pair

    try:
        label_map = parse_label_map(args.map_label)
    except ValueError as err:
        raise UsageError(str(err)) from None
    opts = spec.options
    if args.policy == "nereval":
        raise UsageError("--policy nereval is GermEval's chunk rule: use it with --germeval")
    common = dict(token_column=args.token_col, scheme=opts.get("scheme", args.scheme),
                  policy=args.policy or "conlleval", label_map=label_map)
    if args.germeval:
        return _load_germeval(spec, args)
    gold_col = opts.get("gold_col", args.gold_col)
    system_col = opts.get("system_col", args.system_col)
    if opts.get("single_file"):
        path = spec.systems[0]
        if os.path.isdir(path):
            raise UsageError(f"{path} is a directory: give --gold GOLD with a directory of system files")
        gcol = 2 if gold_col is None else gold_col
        if system_col is None:
            n = count_columns(path)
            g = gcol if gcol > 0 else n + gcol + 1
            system_col = list(range(g + 1, n + 1))
            if not system_col:
                raise UsageError(f"{path}: no column after the gold column {g}; give --system-col")
        names = spec.names
        if names is not None and len(names) != len(system_col):
            raise UsageError(f"{len(names)} names for {len(system_col)} system columns")
        if len(system_col) < 2:
            raise UsageError(f"ranking needs at least two systems; {path} has one system column "
                             f"({system_col[0]})")
        return read_conll(path, gold_column=gcol, system_columns=system_col,
                          names=names or [f"col{c}" for c in system_col], **common)
    files = _expand(spec.systems, opts.get("glob", args.glob), exclude=[spec.gold])
    names = system_names(files, spec.names)
    if len(files) < 2:
        raise UsageError(f"ranking needs at least two systems; task {spec.name!r} has {len(files)}"
                         + (f" ({files[0]})" if files else ""))
    scol = system_col if system_col is not None else -1
    if isinstance(scol, list):
        if len(scol) != 1:
            raise UsageError("with one file per system give one --system-col (the same in every file)")
        scol = scol[0]
    return read_conll_pair(spec.gold, files, gold_column=-1 if gold_col is None else gold_col,
                           system_column=scol, names=names, **common)


def _load_germeval(spec: TaskSpec, args):
    try:
        from .io.germeval import germeval_corpus
    except ImportError as err:
        raise UsageError(f"--germeval needs ts_eval.germeval, which is missing ({err})") from None
    files = _expand(spec.systems, spec.options.get("glob", args.glob), exclude=[spec.gold] if spec.gold else [])
    names = system_names(files, spec.names)
    if len(files) < 2:
        raise UsageError(f"ranking needs at least two systems; task {spec.name!r} has {len(files)}"
                         + (f" ({files[0]})" if files else ""))
    return germeval_corpus(spec.gold or None, files, names, policy=args.policy or "nereval")


def _models_arg(text: Optional[str], germeval: bool = False) -> Optional[List[str]]:
    from . import sufficient

    if text is None or text.strip() == "default":
        return None
    if text.strip() == "paper":
        return list(sufficient.PAPER_MODELS)
    if text.strip() == "all":    # GermEval Metric 1 only where it applies (GermEval-layout input)
        return [m for m in sufficient.REGISTRY if m != "germeval-m1" or germeval]
    return [m.strip() for m in text.split(",") if m.strip()]


def _flips_arg(text: str) -> List[str]:
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names):
        raise UsageError(f"--flips {text}: expected two model names separated by a comma (e.g. "
                         "exact-f1-micro,ts-f1-macro)")
    return names


def list_models() -> str:
    from . import sufficient

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
    from . import formats_rank, ranking, sufficient

    if args.list_models:
        write_output(list_models(), args.output)
        return 0
    if args.plot:
        from .plot import check_available
        check_available()
    models = _models_arg(args.models, args.germeval)
    sufficient.resolve_models(models)                     # unknown names fail before reading anything
    reference = args.reference or sufficient.REFERENCE_MODEL
    sufficient.get_model(reference)
    specs = task_specs(args)
    names = [s.name for s in specs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UsageError(f"task name(s) {', '.join(dup)} given twice; task names must be unique")
    corpora = [(s.name, load_task(s, args)) for s in specs]
    options = dict(models=models, reference=reference, bootstrap=args.bootstrap, permutations=args.permutations,
                   unit=args.unit, seed=args.seed, confidence=args.confidence, alpha=args.alpha,
                   flips=[_flips_arg(f) for f in args.flips])
    with _Bar(not args.no_progress and (args.bootstrap or args.permutations)) as bar:
        if len(corpora) == 1:
            name, corpus = corpora[0]
            result = ranking.rank_corpus(corpus, task=name, progress=lambda *a: bar(name, *a), **options)
        else:
            results = {}
            for name, corpus in corpora:
                results[name] = ranking.rank_corpus(corpus, task=name,
                                                    progress=lambda *a, n=name: bar(n, *a), **options)
            result = ranking.combine(results)
    if args.format == "table":
        if args.output:
            from rich.console import Console
            with open_output(args.output) as fh:
                formats_rank.print_ranking(result, Console(file=fh, width=220, no_color=True))
        else:
            formats_rank.print_ranking(result)
    else:
        write_output(formats_rank.FORMATS[args.format](result), args.output)
    if args.plot:
        from .plot import bump_chart
        bump_chart(result, args.plot)
        print(f"ts-eval: bump chart written to {args.plot}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ts-eval")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    register(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """``ts-eval rank ...`` on its own (argv without the program name, starting with 'rank')."""
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except OptionError as err:   # the CLI's UsageError and the library's bad option values
        print(f"ts-eval: error: {err}", file=sys.stderr)
        return 2
    except InputError as err:
        print(f"ts-eval: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:] if sys.argv[1:2] == ["rank"] else ["rank"] + sys.argv[1:]))
