"""``ts-eval rank``'s tasks: from ``--gold``/files, one FILE, ``--task`` or a manifest (what to read; a manifest is
read by :func:`ts_eval.ranking.manifest.read_manifest`; :mod:`.rank` reads each task through
:func:`ts_eval.ranking.tasks.read_task`)."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, List, Optional, Tuple

from .errors import UsageError
from .gold_option import one_gold

if TYPE_CHECKING:   # (the manifest's reader is imported when tasks are read: building the parser does without it)
    from ..ranking.manifest import TaskSpec


def add_task_arguments(p: argparse.ArgumentParser) -> None:
    """The ways of giving tasks: system files with ``--gold``, one FILE, ``--task`` or ``--manifest``; ``--germeval``
    and ``--glob``."""
    p.add_argument("inputs", nargs="*", metavar="SYSTEM",
                   help="system files or directories (with --gold), or one FILE with several system columns")
    p.add_argument("--gold", metavar="GOLD", action="append",
                   help="gold file (one file per system); two or more times as NAME=PATH: the systems ranked "
                        "under several references of the same tokens (a test set and its corrections, or "
                        "annotators: --annotators)")
    p.add_argument("--annotators", action="store_true",
                   help="with several --gold NAME=PATH: the references are annotators of the same text; each is "
                        "also scored against the others, beside the systems (the human ceiling)")
    p.add_argument("--pairs", choices=("consecutive", "all"), default="consecutive",
                   help="with several --gold: compare each reference with the next (default) or every pair")
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


def task_specs(args: argparse.Namespace) -> List[TaskSpec]:
    """The tasks the arguments describe (exactly one way of giving inputs; each task's name once)."""
    if isinstance(args.gold, list):     # one --gold: its path (several: rank_references.py)
        args.gold = one_gold(args.gold)
    for flag, given in (("--annotators", args.annotators), ("--pairs", args.pairs != "consecutive")):
        if given:
            raise UsageError(f"{flag} applies to several references: give --gold NAME=PATH two or more times")
    specs = _specs(args)
    names = [s.name for s in specs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UsageError(f"task name(s) {', '.join(dup)} given twice; task names must be unique")
    return specs


def task_paths(specs: List[TaskSpec], args: argparse.Namespace) -> List[Tuple[str, Optional[str]]]:
    """The inputs the tasks name, each with how a message names it (for the checks before reading)."""
    return [("--manifest", args.manifest)] + [
        (f"{role} of task {s.name}" if len(specs) > 1 else role, path) for s in specs
        for role, path in [("--gold", s.gold)] + [("system", p) for p in s.systems]]


def _specs(args: argparse.Namespace) -> List[TaskSpec]:
    from ..ranking.manifest import TaskSpec, read_manifest

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
        if not args.inputs and not args.runs:
            raise UsageError("--gold needs system files or directories after it (or --runs NAME=PATTERN)")
        return [TaskSpec("task", args.gold, list(args.inputs), args.names)]
    if args.germeval:
        return [TaskSpec("task", "", list(args.inputs), args.names)]
    if len(args.inputs) != 1:
        raise UsageError("without --gold, give one FILE with a gold column and several system columns")
    return [TaskSpec("task", "", [args.inputs[0]], args.names, {"single_file": True})]


def check_germeval(args: argparse.Namespace) -> None:
    """The options that apply only with ``--germeval``, or not with it."""
    if args.policy == "nereval" and not args.germeval:
        raise UsageError("--policy nereval is GermEval's chunk rule: use it with --germeval")
    if args.germeval and args.map_label:
        raise UsageError("--map-label does not apply to --germeval: GermEval's metrics are defined on its "
                         "twelve labels (Metric 2 already collapses deriv and part)")
