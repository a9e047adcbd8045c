"""The matcher's options, the same for ``score``, ``demo``, ``rank`` and ``compare``: ``--min-overlap``,
``--assignment`` and ``--partial-weight`` (see :mod:`ts_eval.core.matching`)."""
from __future__ import annotations

import argparse
from typing import Any, Dict


def add_matching_options(g: Any) -> None:
    """Add the three options to a parser or argument group."""
    g.add_argument("--min-overlap", default=None, metavar="KIND:R",
                   help="span-level models (overlap, constrained, contain, semeval): a pair counts only when it "
                        "shares at least the fraction R of the gold span's tokens (gold:R), of the system span's "
                        "(system:R) or of their union (iou:R); nervaluate:P is nervaluate's min_overlap_percentage "
                        "(default: any shared token; semeval: nervaluate:1)")
    g.add_argument("--assignment", default="many-to-many", choices=("many-to-many", "one-to-one"),
                   help="span-level models: every acceptable pair counts (many-to-many, the default: one system "
                        "span may hit several gold spans) or only those of a maximum one-to-one matching")
    g.add_argument("--partial-weight", type=float, default=0.5, metavar="W",
                   help="semeval: the credit of a partial match in the partial scheme (default 0.5, nervaluate's)")


def matching_options(args: argparse.Namespace) -> Dict[str, Any]:
    """The keyword arguments of ``evaluate``, ``rank_corpus`` and ``compare`` from the parsed options,
    checked (a bad value is a usage error before any input is read)."""
    from ..core.matching import match_settings
    from ..models.registry import check_partial_weight
    from .errors import option_errors

    with option_errors():
        settings = match_settings(args.min_overlap, args.assignment)
        weight = check_partial_weight(args.partial_weight)
    return {"min_overlap": settings.min_overlap, "assignment": settings.assignment, "partial_weight": weight}
