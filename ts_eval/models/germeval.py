"""GermEval 2014 Metric 1 as a ranking model (:data:`ts_eval.germeval_counts.RANK_MODEL`:
per-sentence gold, found, correct chunks of both levels; needs GermEval-layout input)."""
from __future__ import annotations

from ..germeval_counts import RANK_MODEL
from .registry import Model, register

register(Model(**RANK_MODEL))
