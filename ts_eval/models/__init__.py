"""The evaluation models: one module per model, each declaring a
:class:`~ts_eval.models.registry.ModelSpec` and registering it in :mod:`ts_eval.models.registry`.

- :mod:`~ts_eval.models.segment`: exact match (conlleval), overlap, constrained, contain;
- :mod:`~ts_eval.models.ts`: token & separator (TS) and token-only (T) F-scores, kappa;
- :mod:`~ts_eval.models.fair`: Ortmann's fair error types, fair and weighted F1;
- :mod:`~ts_eval.models.germeval`: GermEval 2014 Metric 1 (ranking only);
- :mod:`~ts_eval.models.semeval`: nervaluate's SemEval-2013 schemes;
- :mod:`~ts_eval.models.strings`: generated outputs scored as (normalised string, label) multisets;

Every model gives per-sentence sufficient statistics (:mod:`~ts_eval.models.context` holds the
corpus, the system and the matcher's pairs they read), the result ``score`` reports from their sums
and named scores of their sums for ``rank``.  A new model is one new module, here or anywhere
(:func:`register`); the registry imports the modules of this package that ``score``'s defaults,
imported below, do not need the first time one of their models is asked for.  :mod:`.evaluate`
(``ts_eval.evaluate`` and ``ts_eval.score``) runs every requested model for every system.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ts, segment, fair, registry  # noqa: F401  # isort: skip  (registration order: the registry's order)
from .context import Contributions, ScoreSettings, SystemData
from .registry import (
    DEFAULT_MODELS,
    PAPER_MODELS,
    REFERENCE_MODEL,
    Display,
    Model,
    ModelSpec,
    ResultColumn,
    Score,
    default_models,
    get_model,
    register,
    resolve_models,
)

if TYPE_CHECKING:
    from .registry import REGISTRY, SPECS, UNAVAILABLE

registry.settle()


def __getattr__(name: str) -> Any:
    if name in ("SPECS", "REGISTRY", "UNAVAILABLE"):   # the whole registry (registry.py imports what it lacks)
        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Contributions", "DEFAULT_MODELS", "Display", "Model", "ModelSpec", "PAPER_MODELS", "REFERENCE_MODEL",
           "REGISTRY", "ResultColumn", "SPECS", "Score", "ScoreSettings", "SystemData", "UNAVAILABLE", "default_models",
           "get_model", "register", "resolve_models"]
