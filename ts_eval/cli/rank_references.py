"""``ts-eval rank --gold NAME=PATH --gold NAME=PATH [--gold NAME=PATH ...] SYSTEM...``: the systems ranked under two
or more references of the same tokens (a test set and its corrections, or annotators with ``--annotators``), with,
from one reference to the next (``--pairs all``: every pair), the differences and their paired intervals, the
correlations between the rankings, the flips, the sensitivity per model, what changed and the gold suspects
checked against it; with ``--annotators`` each annotator scored against the others beside the systems
(:func:`ts_eval.ranking.references.rank_several`).  One ``--gold`` is today's ``rank``.  The references are read
as ``score``, ``compare`` and ``analyze`` read them (:mod:`.gold_references`).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Callable

from .errors import option_errors
from .gold_references import not_with, read_corpus, references_of
from .matching import matching_options
from .outputs import emit
from .progress import Bar

if TYPE_CHECKING:
    from ..io.inputs import Inputs


def run(args: argparse.Namespace, models: object, reference: str, rank_references: Callable[..., Any],
        shared: Inputs) -> int:
    """Rank the systems under the references of ``--gold`` with ``rank_references``
    (:func:`ts_eval.ranking.references.rank_several`) and emit the result; ``shared``: the reading options
    (:func:`ts_eval.cli.inputs.inputs_of`).  ``rank`` passes both, so that this module imports neither the study
    nor the input options (the chain of imports stays at eight floors)."""
    refs = references_of(args.gold)
    not_with(args, ("--task", "--manifest", "--germeval", "--runs", "--flips", "--plot", "--site", "--anonymise"))
    corpus, names = read_corpus(args, refs, args.inputs, shared, "rank", args.glob)
    numbers = {k: getattr(args, k) for k in ("bootstrap", "permutations", "seed", "confidence", "alpha")}
    with option_errors(), Bar(not args.no_progress and (args.bootstrap or args.permutations)) as bar:
        result = rank_references(corpus, [n for n, _ in refs], systems=names, models=models,
                                 reference=reference, unit=args.unit, progress=lambda *a: bar("rank", *a),
                                 annotators=args.annotators, pairs=args.pairs, **numbers, **matching_options(args))
    emit(result, args, details=args.details, width=120)
    return 0
