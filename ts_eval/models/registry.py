"""The registry of evaluation models: what a model is, and where it is found by name.

Two kinds of entries, both filled by the family modules of :mod:`ts_eval.models` (this
module imports none of them):

- a :class:`Model` is what ``rank`` (and ``compare``) scores: a function giving a
  system's per-sentence sufficient statistics (sentences x k) and a function from
  statistics *summed* over any multiset of sentences to one number;
- a :class:`Family` is what ``score`` reports: a function counting one system over some
  sentences (a :class:`~ts_eval.models.tally.Tally`: the totals of the statistics that
  ``rank`` resamples per sentence, counted without the per-sentence table) and a function
  from the tally of the whole corpus to the full result (per-label, micro and macro counts
  and scores).  Tallies of two runs of sentences add up to the tally of both, which is how
  ``score`` streams a corpus in blocks and in shards (:class:`ts_eval.models.counts.Counts`).

Adding a model is one new module in :mod:`ts_eval.models` that calls :func:`register`
(and :func:`register_family` for a ``score`` model) and is imported by the package's
``__init__``; since importing this module first runs that ``__init__``, the registry is
full whenever anyone imports it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.matching import DEFAULT_MATCHING, MatchSettings
from ..errors import OptionError

StatsFn = Callable[[Any], np.ndarray]          # SystemData -> (sentences, k)
ScoreFn = Callable[[np.ndarray], np.ndarray]   # (..., k) summed statistics -> (...) scores


@dataclass(frozen=True)
class Model:
    """A ranking model: per-sentence statistics + a score of their sums."""

    name: str
    title: str                 # short column header (paper notation)
    stats: StatsFn
    score: ScoreFn
    description: str = ""
    options: Tuple[str, ...] = ()   # keywords of ``score`` a study may set (:func:`configure`)
    matched: bool = False           # its statistics read the matcher's settings (minimum overlap, assignment)
    needs: str = ""                 # the input it needs beyond spans: "germeval" (two levels), "generated" (strings)
    #: how its statistics' columns depend on the labels: (columns of the sentence as a whole, first; then
    #: columns per label, label after label in the corpus's order); None: not known, so statistics of
    #: parts of a corpus with different labels cannot be put side by side (``rank`` then reads it whole)
    columns: Optional[Tuple[int, int]] = None


@dataclass(frozen=True)
class ScoreSettings:
    """The options of ``score`` that a family's result depends on."""

    separator_weight: float = 1.0
    beta: float = 1.0
    k1: Optional[int] = None
    k2: Optional[int] = None
    focus: str = "target"
    weights: Any = "eq7"
    fair_mode: str = "paper"
    all_labels_row: bool = False
    matching: MatchSettings = DEFAULT_MATCHING   # minimum overlap and assignment of span-level models
    partial_weight: float = 0.5                  # SemEval: credit of a partial match


@dataclass(frozen=True)
class Family:
    """A ``score`` model: ``count(system_data, settings)`` tallies one system over the sentences of a
    corpus (a :class:`~ts_eval.models.tally.Tally`; the tallies of two runs of sentences add up),
    ``result(tally, totals)`` builds the system's result dict from the tally of the whole corpus
    (``totals``: the labels, the settings and the two sides, :class:`~ts_eval.models.tally.Totals`)."""

    name: str
    count: Callable[[Any, ScoreSettings], Any]
    result: Callable[[Any, Any], Dict[str, Any]]
    description: str = ""

    def report(self, sd: Any, settings: ScoreSettings) -> Dict[str, Any]:
        """The result of one system of one corpus (``sd``: its :class:`~ts_eval.models.context.SystemData`)."""
        from .tally import Totals

        return self.result(self.count(sd, settings), Totals.of(sd, settings))


#: the ``score`` families whose counts the matcher's settings (minimum overlap, assignment) change
MATCHED_FAMILIES = ("overlap", "constrained", "contain", "semeval")


def check_matching(matching: MatchSettings, models: Sequence[str], what: str = "model") -> None:
    """OptionError when a minimum overlap or one-to-one assignment is set but none of ``models``
    (names of families or of ranking models) reads them: nothing would change, silently."""
    if matching.is_default:
        return
    reads = [m for m in models if m in MATCHED_FAMILIES or (m in REGISTRY and REGISTRY[m].matched)]
    if reads:
        return
    option, value = (("min_overlap", str(matching.min_overlap)) if matching.min_overlap is not None
                     else ("assignment", matching.assignment))
    chosen = f"({', '.join(models)})" if models else "(none chosen)"
    raise OptionError(f"changes none of the chosen {what}s {chosen}: it applies to the span-level "
                      f"models {', '.join(MATCHED_FAMILIES)} (exact match is met by any threshold and is "
                      "one-to-one already)", option=option, value=value)


REGISTRY: Dict[str, Model] = {}
UNAVAILABLE: Dict[str, str] = {}   # name -> why it cannot be used here
FAMILIES: Dict[str, Family] = {}
GROUPS: Dict[str, Tuple[str, ...]] = {}   # a name that stands for several models (semeval)

DEFAULT_MODELS: Tuple[str, ...] = (
    "exact-f1-micro", "exact-f1-macro", "ts-f1-micro", "ts-f1-macro", "t-f1-macro",
    "ts-kappa-micro", "ts-kappa-macro", "fair-f1", "weighted-f1", "overlap-f1-micro",
)
PAPER_MODELS: Tuple[str, ...] = ("exact-f1-micro", "ts-f1-macro", "t-f1-macro")
REFERENCE_MODEL = "exact-f1-micro"


def register(model: Model) -> Model:
    """Add a ranking model (a later registration under the same name replaces the earlier one)."""
    REGISTRY[model.name] = model
    UNAVAILABLE.pop(model.name, None)
    return model


def register_group(name: str, models: Tuple[str, ...]) -> None:
    """Let ``name`` stand for several ranking models in :func:`resolve_models`."""
    GROUPS[name] = tuple(models)


def register_family(family: Family) -> Family:
    """Add a ``score`` model family (``ts``, ``exact``, ``fair``, ...)."""
    FAMILIES[family.name] = family
    return family


def get_family(name: str) -> Family:
    if name not in FAMILIES:
        raise OptionError(f"unknown model(s) {name}; expected some of {', '.join(FAMILIES)}")
    return FAMILIES[name]


def default_models(corpus: Any = None) -> List[str]:
    """The default ranking models that are registered; with a corpus read from GermEval-layout
    files, GermEval Metric 1 (the official score) too; with generated outputs (strings without
    offsets) the strings model's micro F1 too, or only the strings models when every system was
    read in the ``strings`` mode."""
    out = [m for m in DEFAULT_MODELS if m in REGISTRY]
    modes = [((getattr(i, "reading", None) or {}).get("generated") or {}).get("mode")
             for i in (corpus.system_info.values() if corpus is not None else ())]
    if modes and all(m == "strings" for m in modes):      # generated outputs scored as strings only
        return ["strings-f1-micro", "strings-f1-macro"]
    if any(modes):
        out.append("strings-f1-micro")
    if corpus is not None and "germeval-m1" in REGISTRY and corpus.system_info and all(
            getattr(i, "germeval", None) is not None for i in corpus.system_info.values()):
        out.append("germeval-m1")
    return out


def configure(model: Model, **settings: Any) -> Model:
    """``model`` with the settings its score takes (its ``options``, e.g. ``partial_weight``) bound;
    settings it does not take are left out, and the statistics function stays the same object, so
    models that share statistics still compute them once."""
    given = {k: v for k, v in settings.items() if k in model.options}
    return dataclasses.replace(model, score=partial(model.score, **given)) if given else model


def get_model(name: str) -> Model:
    """The registered ranking model ``name`` (OptionError naming the available ones otherwise)."""
    if name in REGISTRY:
        return REGISTRY[name]
    if name in UNAVAILABLE:
        raise OptionError(f"model {name!r} is not available: {UNAVAILABLE[name]}")
    raise OptionError(f"unknown model {name!r}; available: {', '.join(REGISTRY)}")


def resolve_models(names: Optional[Sequence[str]], corpus: Any = None) -> List[Model]:
    """The models of ``names`` (default: :func:`default_models`), each once."""
    names = default_models(corpus) if names is None else [n for g in names for n in GROUPS.get(g, (g,))]
    if not names:
        raise OptionError("no model given")
    seen = set()
    for n in names:
        if n in seen:
            raise OptionError(f"model {n!r} is given twice")
        seen.add(n)
    return [get_model(n) for n in names]
