"""The evaluation models: one module per family, each registering itself in
:mod:`ts_eval.models.registry`.

- :mod:`~ts_eval.models.segment`: exact match (conlleval), overlap, constrained, contain;
- :mod:`~ts_eval.models.ts`: token & separator (TS) and token-only (T) F-scores, kappa;
- :mod:`~ts_eval.models.fair`: Ortmann's fair error types, fair and weighted F1;
- :mod:`~ts_eval.models.germeval`: GermEval 2014 Metric 1 (ranking only);
- :mod:`~ts_eval.models.semeval`: nervaluate's SemEval-2013 schemes (the counting and the registration);
- :mod:`~ts_eval.models.strings`: generated outputs scored as (normalised string, label) multisets;

Every family gives per-sentence sufficient statistics (:mod:`~ts_eval.models.context`
holds the corpus, the system and the matcher's pairs they read) and a function of their
sums.  A new model is one new module here, named in :data:`.registry.LATER` (imported the first
time a model of its is asked for or the registry is read whole; ``score``'s default families, imported
below, need none of them).  :mod:`.evaluate` (``ts_eval.evaluate`` and ``ts_eval.score``) runs every
requested family for every system.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ts, segment, fair, registry  # noqa: F401  # isort: skip  (registration order: the registry's order)
from .registry import (
    DEFAULT_MODELS,
    PAPER_MODELS,
    REFERENCE_MODEL,
    Family,
    Model,
    ScoreSettings,
    default_models,
    get_family,
    get_model,
    register,
    register_family,
    resolve_models,
)

if TYPE_CHECKING:
    from .registry import FAMILIES, REGISTRY, UNAVAILABLE

registry.settle()


def __getattr__(name: str) -> Any:
    if name in ("FAMILIES", "REGISTRY", "UNAVAILABLE"):   # the whole registry (registry.py imports what it lacks)
        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["DEFAULT_MODELS", "FAMILIES", "PAPER_MODELS", "REFERENCE_MODEL", "REGISTRY", "UNAVAILABLE", "Family",
           "Model", "ScoreSettings", "default_models", "get_family", "get_model", "register", "register_family",
           "resolve_models"]
