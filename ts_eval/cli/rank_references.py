"""``ts-eval rank --gold NAME=PATH --gold NAME=PATH [--gold NAME=PATH ...] SYSTEM...``: the systems ranked under two
or more references of the same tokens (a test set and its corrections, or annotators with ``--annotators``), with,
from one reference to the next (``--pairs all``: every pair), the differences and their paired intervals, the
correlations between the rankings, the flips, the sensitivity per model, what changed and the gold suspects
checked against it; with ``--annotators`` each annotator scored against the others beside the systems
(:func:`ts_eval.ranking.references.rank_several`).  One ``--gold`` is today's ``rank``.
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, List, Tuple

from .errors import UsageError, option_errors
from .matching import matching_options
from .outputs import emit
from .progress import Bar

if TYPE_CHECKING:
    from ..io.inputs import Inputs


def references_of(golds: List[str]) -> List[Tuple[str, str]]:
    """``--gold NAME=PATH`` given more than once: (name, path) each, names distinct."""
    out = []
    for g in golds:
        name, eq, path = g.partition("=")
        if not eq or not name or not path:
            raise UsageError(f"--gold {g}: with several references, give each as NAME=PATH "
                             "(e.g. --gold original=gold.iob2 --gold conllpp=gold-conllpp.iob2)")
        out.append((name, path))
    names = [n for n, _ in out]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise UsageError(f"--gold: two references are both called {twice!r}; name them apart")
    return out


def run(args: argparse.Namespace, models: object, reference: str, rank_references: Callable[..., Any],
        shared: Inputs) -> int:
    """Rank the systems under the references of ``--gold`` with ``rank_references``
    (:func:`ts_eval.ranking.references.rank_several`) and emit the result; ``shared``: the reading options
    (:func:`ts_eval.cli.inputs.inputs_of`).  ``rank`` passes both, so that this module imports neither the study
    nor the input options (the chain of imports stays at eight floors)."""
    from ..io.paths import expand
    from ..io.sink import check_outputs, check_stdin_once
    from ..io.source import system_name

    refs = references_of(args.gold)
    for flag, given in (("--task", args.task), ("--manifest", args.manifest), ("--germeval", args.germeval),
                        ("--runs", args.runs), ("--flips", args.flips), ("--plot", args.plot)):
        if given:
            raise UsageError(f"{flag} does not apply to several --gold references (give --gold NAME=PATH "
                             "two or more times and the system files)")
    if not args.inputs:
        raise UsageError("--gold NAME=PATH given several times needs system files or directories after it")
    files = expand(list(args.inputs), args.glob, exclude=[p for _, p in refs])
    names = list(args.names) if args.names else [system_name(f) or f"system{k + 1}" for k, f in enumerate(files)]
    if len(names) != len(files):
        raise UsageError(f"--names gives {len(names)} names for {len(files)} system files")
    clash = next((n for n, _ in refs if n in names), None)
    if clash is not None:
        raise UsageError(f"a system is called {clash!r}, the name of a reference; "
                         "name the references otherwise (--gold NAME=PATH)")
    named = [(f"--gold {n}", p) for n, p in refs] + [("system", f) for f in files]
    check_stdin_once(named)                 # (before anything is read; no output is an input)
    check_outputs([("--output", args.output)] if args.output else [], named)
    (name_a, path_a), others = refs[0], refs[1:]
    inputs = replace(shared, gold=path_a, systems=(*(p for _, p in others), *files),
                     names=(*(n for n, _ in others), *names),
                     words=(*(f"reference {n}" for n, _ in refs), *("system" for _ in files)))
    numbers = {k: getattr(args, k) for k in ("bootstrap", "permutations", "seed", "confidence", "alpha")}
    with option_errors():
        corpus = inputs.corpus("rank", 2)
        corpus.gold_info.name = name_a
        with Bar(not args.no_progress and (args.bootstrap or args.permutations)) as bar:
            result = rank_references(corpus, [n for n, _ in refs], systems=names, models=models,
                                     reference=reference, unit=args.unit, progress=lambda *a: bar("rank", *a),
                                     annotators=args.annotators, pairs=args.pairs, **numbers,
                                     **matching_options(args))
    emit(result, args, details=args.details, width=120)
    return 0
