"""``ts-eval rank --gold NAME=PATH --gold NAME=PATH SYSTEM...``: the systems ranked under two references of the
same tokens (a test set and its correction), with the differences B - A and their paired intervals, the
correlations between the two rankings, the flips and the sensitivity per model
(:func:`ts_eval.ranking.references.rank_references`).  One ``--gold`` is today's ``rank``.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Callable, List, Tuple

from .errors import UsageError, option_errors
from .gold_references import not_with, read_corpus
from .gold_references import references_of as named_references
from .matching import matching_options
from .outputs import emit
from .progress import Bar

if TYPE_CHECKING:
    from ..io.inputs import Inputs


def references_of(golds: List[str]) -> List[Tuple[str, str]]:
    """``--gold NAME=PATH`` given more than once: (name, path) each, two of them, names distinct."""
    out = named_references(golds)
    if len(out) != 2:
        raise UsageError(f"--gold given {len(out)} times: rank compares two references (NAME=PATH twice)")
    return out


def run(args: argparse.Namespace, models: object, reference: str, rank_references: Callable[..., Any],
        shared: Inputs) -> int:
    """Rank the systems under the two references of ``--gold`` with ``rank_references``
    (:func:`ts_eval.ranking.references.rank_references`) and emit the result; ``shared``: the reading options
    (:func:`ts_eval.cli.inputs.inputs_of`).  ``rank`` passes both, so that this module imports neither the study
    nor the input options (the chain of imports stays at eight floors)."""
    refs = references_of(args.gold)
    not_with(args, ("--task", "--manifest", "--germeval", "--runs", "--flips", "--plot"))
    corpus, names = read_corpus(args, refs, args.inputs, shared, "rank", args.glob)
    name_b = refs[1][0]
    numbers = {k: getattr(args, k) for k in ("bootstrap", "permutations", "seed", "confidence", "alpha")}
    with option_errors(), Bar(not args.no_progress and (args.bootstrap or args.permutations)) as bar:
        result = rank_references(corpus, name_b, systems=names, models=models,
                                 reference=reference, unit=args.unit, progress=lambda *a: bar("rank", *a),
                                 **numbers, **matching_options(args))
    emit(result, args, details=args.details, width=120)
    return 0
