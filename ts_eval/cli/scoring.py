"""The options of ``score`` and ``demo`` that say how systems are scored and shown (models, F-beta, the
fair model's weights, the matcher, what the table shows, ``--format``), and the keyword arguments of the
counting they give (:func:`ts_eval.streaming.files.count`)."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .errors import option_errors
from .matching import add_matching_options, matching_options
from .outputs import add_output_options

if TYPE_CHECKING:
    from .errors import Options

LEGACY = ("conlleval", "faireval")     # byte-exact layouts; every other format is the report's page
#: the options that go to the counting as they are
SCORING = ("separator_weight", "beta", "all_labels_row", "k1", "k2", "focus", "weights", "fair_mode")


def add_scoring_options(p: Options) -> None:
    """The group ``scoring and output``."""
    g = p.add_argument_group("scoring and output")
    g.add_argument("--separator-weight", type=float, default=1.0, metavar="W",
                   help="weight of a separator unit relative to a token (default 1; 0 = token-only T model)")
    g.add_argument("--beta", type=float, default=1.0, help="F-beta's beta (default 1)")
    g.add_argument("--models", default=None, metavar="LIST",
                   help="comma-separated models to compute and show: ts, exact, overlap, constrained, contain, "
                        "fair, semeval (nervaluate's SemEval-2013 schemes), strings (generated outputs) (default "
                        "ts,exact,fair; strings with --generated strings)")
    g.add_argument("--k1", type=int, default=None, metavar="N",
                   help="constrained/contain models: at most N spurious tokens (default 1 / unbounded)")
    g.add_argument("--k2", type=int, default=None, metavar="N",
                   help="constrained model: at most N missing tokens (default 1)")
    add_matching_options(g)
    g.add_argument("--focus", default="target", choices=("target", "system"),
                   help="fair model: whose label LE and LBE errors count under (default target)")
    g.add_argument("--weights", default="eq7", metavar="SPEC",
                   help="fair model's weighted scores: a preset eq5, eq6, eq7 (default; the paper's equation 7), "
                        "or the FairEval syntax, e.g. 'LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, ...'")
    g.add_argument("--fair-mode", default="paper", choices=("paper", "faireval-skip"),
                   help="fair model: the paper's algorithm (default) or today's FairEval.py, which skips the "
                        "span after each match")
    g.add_argument("--details", "--confusion", dest="confusion", action="store_true",
                   help="table format: also the detail sections (unit counts, fair confusion matrices, token "
                        "accuracy counts); html: open them")
    g.add_argument("--all-labels-row", action="store_true",
                   help="add a TS row for all labels as one (the paper's ENTITY supertag)")
    add_output_options(g, LEGACY)
    g.add_argument("--per-label", action="store_true",
                   help="table format: every score of every model and each system's per-label tables (the "
                        "default for one system; several systems show each model's F and rank first)")
    g.add_argument("--no-labels", action="store_true",
                   help="table format: every score of every model, without the per-label tables")


def models(args: argparse.Namespace) -> List[str]:
    """``--models`` (default ts, exact and fair; strings for generated strings), with the model a legacy
    layout shows."""
    default = "strings" if getattr(args, "generated", None) == "strings" else "ts,exact,fair"
    chosen = [m.strip() for m in (args.models or default).split(",") if m.strip()]
    needed = {"conlleval": "exact", "faireval": "fair"}.get(args.format)
    if needed and needed not in chosen:
        chosen.append(needed)
    return chosen


def labels(value: Optional[str]) -> List[str]:
    """``--labels`` or ``--exclude``: the labels of a comma list."""
    return [x for x in (value or "").split(",") if x]


def check_settings(args: argparse.Namespace) -> None:
    """A bad scoring option is a usage error before anything is read."""
    from ..models.evaluate import score_settings

    with option_errors():
        score_settings(separator_weight=args.separator_weight, beta=args.beta, all_labels_row=args.all_labels_row,
                       models=models(args), k1=args.k1, k2=args.k2, focus=args.focus, weights=args.weights,
                       fair_mode=args.fair_mode, **matching_options(args))


def counting_options(args: argparse.Namespace) -> Dict[str, Any]:
    """The scoring options and the labels kept, as :func:`ts_eval.streaming.files.count` takes them."""
    return {**{k: getattr(args, k) for k in SCORING}, **matching_options(args), "models": models(args),
            "labels": labels(args.labels) or None, "exclude": labels(args.exclude)}
