"""``ts-eval rank``'s options of models, statistics and output, the model sets ``--models`` names, and the list
``--list-models`` shows."""
from __future__ import annotations

import argparse
from typing import List, Optional

from . import lists
from .input_options import processes
from .matching import add_matching_options
from .outputs import add_output_options


def add_rank_options(p: argparse.ArgumentParser) -> None:
    """The groups ``models and statistics`` and ``output``."""
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
    m.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help="N processes: the statistics of one column FILE in shards of whole sentences, and the "
                        "permutation test beside the bootstrap (default 1; the same numbers whatever N)")
    m.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    m.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    m.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the significance groups (Holm-corrected neighbour tests) and of "
                        "the flips (default 0.05)")
    m.add_argument("--aso-resamples", type=int, default=1000, metavar="N",
                   help="systems of several runs (--runs): bootstrap resamples of the runs for Almost Stochastic "
                        "Order's epsilon_min (default 1000; 0 = no ASO)")
    m.add_argument("--aso-threshold", type=float, default=0.2, metavar="EPS",
                   help="systems of several runs: epsilon_min below it is almost stochastic dominance, which "
                        "starts a new significance group and settles a flip (default 0.2)")
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


def models_arg(text: Optional[str], germeval: bool = False, generated: bool = False) -> Optional[List[str]]:
    """``--models``: the models named (None: the default set), ``paper`` and ``all`` as their names."""
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
    """What ``--list-models`` shows: every model, its column title and description, the default ones starred."""
    from ..ranking import sufficient

    lines = ["available models (name, column title, description); * = default"]
    defaults = set(sufficient.default_models())
    for m in sufficient.REGISTRY.values():
        lines.append(f"{'*' if m.name in defaults else ' '} {m.name:22} {m.title:9} {m.description}")
    for name, why in sufficient.UNAVAILABLE.items():
        lines.append(f"  {name:22} {'-':9} not available: {why}")
    return "\n".join(lines) + "\n"
