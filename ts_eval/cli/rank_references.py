"""``ts-eval rank --gold NAME=PATH --gold NAME=PATH SYSTEM...``: the systems ranked under two references of the
same tokens (a test set and its correction), with the differences B - A and their paired intervals, the
correlations between the two rankings, the flips and the sensitivity per model
(:func:`ts_eval.ranking.references.rank_references`).  One ``--gold`` is today's ``rank``.
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
    """``--gold NAME=PATH`` given more than once: (name, path) each, two of them, names distinct."""
    out = []
    for g in golds:
        name, eq, path = g.partition("=")
        if not eq or not name or not path:
            raise UsageError(f"--gold {g}: with several references, give each as NAME=PATH "
                             "(e.g. --gold original=gold.iob2 --gold conllpp=gold-conllpp.iob2)")
        out.append((name, path))
    if len(out) != 2:
        raise UsageError(f"--gold given {len(out)} times: rank compares two references (NAME=PATH twice)")
    if out[0][0] == out[1][0]:
        raise UsageError(f"--gold: the two references are both called {out[0][0]!r}; name them apart")
    return out


def run(args: argparse.Namespace, models: object, reference: str, rank_references: Callable[..., Any],
        shared: Inputs) -> int:
    """Rank the systems under the two references of ``--gold`` with ``rank_references``
    (:func:`ts_eval.ranking.references.rank_references`) and emit the result; ``shared``: the reading options
    (:func:`ts_eval.cli.inputs.inputs_of`).  ``rank`` passes both, so that this module imports neither the study
    nor the input options (the chain of imports stays at eight floors)."""
    from ..io.paths import expand
    from ..io.sink import check_outputs, check_stdin_once
    from ..io.source import system_name

    (name_a, path_a), (name_b, path_b) = references_of(args.gold)
    for flag, given in (("--task", args.task), ("--manifest", args.manifest), ("--germeval", args.germeval),
                        ("--runs", args.runs), ("--flips", args.flips), ("--plot", args.plot), ("--site", args.site),
                        ("--anonymise", args.anonymise)):
        if given:
            raise UsageError(f"{flag} does not apply to several --gold references (give --gold NAME=PATH "
                             "twice and the system files)")
    if not args.inputs:
        raise UsageError("--gold NAME=PATH twice needs system files or directories after it")
    files = expand(list(args.inputs), args.glob, exclude=[path_a, path_b])
    names = list(args.names) if args.names else [system_name(f) or f"system{k + 1}" for k, f in enumerate(files)]
    if len(names) != len(files):
        raise UsageError(f"--names gives {len(names)} names for {len(files)} system files")
    if name_b in names or name_a in names:
        raise UsageError(f"a system is called {name_b if name_b in names else name_a!r}, the name of a reference; "
                         "name the references otherwise (--gold NAME=PATH)")
    named = [(f"--gold {name_a}", path_a), (f"--gold {name_b}", path_b)] + [("system", f) for f in files]
    check_stdin_once(named)                 # (before anything is read; no output is an input)
    check_outputs([("--output", args.output)] if args.output else [], named)
    inputs = replace(shared, gold=path_a, systems=(path_b, *files), names=(name_b, *names),
                     words=(f"reference {name_a}", f"reference {name_b}", *("system" for _ in files)))
    numbers = {k: getattr(args, k) for k in ("bootstrap", "permutations", "seed", "confidence", "alpha")}
    with option_errors():
        corpus = inputs.corpus("rank", 2)
        corpus.gold_info.name = name_a
        with Bar(not args.no_progress and (args.bootstrap or args.permutations)) as bar:
            result = rank_references(corpus, name_b, systems=names, models=models,
                                     reference=reference, unit=args.unit, progress=lambda *a: bar("rank", *a),
                                     **numbers, **matching_options(args))
    emit(result, args, details=args.details, width=120)
    return 0
