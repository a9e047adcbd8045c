"""``--runs NAME=PATTERN`` of ``rank`` and ``score``: a system given as several runs (training seeds).

The option is parsed here (each ``NAME=PATTERN`` once per name); which files a pattern or folder names, their
names in the corpus and the grouping the library takes are the library's (:mod:`ts_eval.io.runs`).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from .errors import UsageError, option_errors

if TYPE_CHECKING:
    from ..io.inputs import Inputs
    from ..ranking.manifest import TaskSpec
    from .errors import Options

HELP = ("a system given as several runs (training seeds): NAME=PATTERN, a quoted glob or a folder of its run files "
        "(repeatable), e.g. --runs crf='runs/crf/*.conll'; each run is read as a system file named NAME/<file "
        "name> and needs --gold")


def add_runs_option(p: Options, what: str, models: bool = False) -> None:
    """``--runs NAME=PATTERN`` (repeatable); ``what`` the command does with the runs; ``models``: also
    ``--run-models`` (``score``, whose ``--models`` names its own models, not the ranking's)."""
    p.add_argument("--runs", action="append", default=[], metavar="NAME=PATTERN", help=f"{HELP}; {what}")
    if models:
        p.add_argument("--run-models", default=None, metavar="LIST",
                       help="--runs: the ranking models (as ts-eval rank --models names them) the runs are scored "
                            "under (default: rank's default set; see ts-eval rank --list-models)")


def runs_arg(values: List[str]) -> Dict[str, str]:
    """``--runs`` as system name -> pattern: each value ``NAME=PATTERN``, each name once."""
    out: Dict[str, str] = {}
    for value in values:
        name, eq, pattern = value.partition("=")
        name = name.strip()
        if not eq:
            raise UsageError(f"--runs {value}: expected NAME=PATTERN (a name, '=', then a quoted glob or a "
                             f"folder of the run files), e.g. --runs crf='runs/crf/*.conll'")
        if not name:
            raise UsageError(f"--runs {value}: the system's name is empty; expected NAME=PATTERN")
        if not pattern:
            raise UsageError(f"--runs {value}: no pattern after '='; expected NAME=PATTERN")
        if name in out:
            raise UsageError(f"--runs {value}: the system {name!r} is given twice (--runs {name}={out[name]} "
                             "already); give all its runs in one pattern or folder")
        out[name] = pattern
    return out


def check_runs(args: argparse.Namespace, command: str) -> Dict[str, str]:
    """``--runs`` parsed, and given only where it applies: with ``--gold`` (and for ``rank`` not with ``--task``
    or ``--manifest``)."""
    runs = runs_arg(getattr(args, "runs", None) or [])
    if not runs:
        return runs
    if getattr(args, "task", None) or getattr(args, "manifest", None):
        raise UsageError("--runs goes with --gold GOLD [SYSTEM...] (one task); with --task or --manifest give each "
                         "run as a system file")
    if getattr(args, "germeval", False):
        raise UsageError("--runs does not apply to --germeval; give each run as a system file")
    if not args.gold:
        raise UsageError(f"--runs needs --gold GOLD: the runs are system files scored against gold, e.g. ts-eval "
                         f"{command} --gold gold.conll --runs crf='runs/crf/*.conll' [SYSTEM...]")
    return runs


def with_run_files(inputs: Inputs, runs: Dict[str, str], glob: str = "*"
                   ) -> Tuple[Inputs, Optional[Dict[str, List[str]]]]:
    """``inputs`` with the runs' files added as systems, and the grouping (None without ``--runs``)."""
    if not runs:
        return inputs, None
    from ..io.runs import with_runs

    with option_errors():
        return with_runs(inputs, runs, glob)


def task_runs(spec: TaskSpec, shared: Optional[Inputs], glob: str, runs: Dict[str, str]
              ) -> Tuple[Inputs, Optional[Dict[str, List[str]]]]:
    """``rank``'s one task from ``--gold`` with its systems given as runs too: the inputs (the task's system
    files and folders, the runs' files) and the grouping."""
    from dataclasses import replace

    assert shared is not None        # (--runs is not for --germeval: check_runs)
    names = None if spec.names is None else tuple(spec.names)
    inputs = replace(shared, gold=spec.gold, systems=tuple(spec.systems), names=names, glob=glob)
    return with_run_files(inputs, runs, glob)
