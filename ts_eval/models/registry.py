"""The registry of evaluation models: what a model is, and where it is found by name.

Two kinds of entries, both filled by the family modules of :mod:`ts_eval.models` (this
module imports only those of :data:`LATER`, and only when they are needed):

- a :class:`Model` is what ``rank`` (and ``compare``) scores: a function giving a
  system's per-sentence sufficient statistics (sentences x k) and a function from
  statistics *summed* over any multiset of sentences to one number;
- a :class:`Family` is what ``score`` reports: a function counting one system over some
  sentences (a :class:`~ts_eval.models.tally.Tally`: the totals of the statistics that
  ``rank`` resamples per sentence, counted without the per-sentence table) and a function
  from the tally of the whole corpus to the full result (per-label, micro and macro counts
  and scores).  Tallies of two runs of sentences add up to the tally of both, which is how
  ``score`` streams a corpus in blocks and in shards (:class:`ts_eval.models.counts.Counts`).

Adding a model is one new module in :mod:`ts_eval.models` whose ``register_models()`` calls
:func:`register` (and :func:`register_family` for a ``score`` model), named at the end of
:data:`LATER` (the families ``score`` counts by default register themselves when the package's
``__init__`` imports them).  The modules of :data:`LATER` are imported and registered, in that
order, the first time a name the package's ``__init__`` did not register is asked for, or the whole
registry is read: :data:`REGISTRY`, :data:`FAMILIES`,
:data:`GROUPS` and :data:`UNAVAILABLE` are full whenever anyone reads them (PEP 562), and ``score``
with its default families imports none of them.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

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


def check_partial_weight(w: float) -> float:
    """The credit of a partial match (SemEval's :attr:`ScoreSettings.partial_weight`), a number in [0, 1];
    OptionError otherwise."""
    try:
        v = float(w)
    except (TypeError, ValueError):
        raise OptionError("expected a number in [0, 1]", option="partial_weight", value=w) from None
    if not 0.0 <= v <= 1.0:
        raise OptionError("expected a number in [0, 1] (nervaluate's is 0.5)", option="partial_weight", value=w)
    return v


def check_matching(matching: MatchSettings, models: Sequence[str], what: str = "model") -> None:
    """OptionError when a minimum overlap or one-to-one assignment is set but none of ``models``
    (names of families or of ranking models) reads them: nothing would change, silently."""
    if matching.is_default:
        return
    load_all()
    reads = [m for m in models if m in MATCHED_FAMILIES or (m in _REGISTRY and _REGISTRY[m].matched)]
    if reads:
        return
    option, value = (("min_overlap", str(matching.min_overlap)) if matching.min_overlap is not None
                     else ("assignment", matching.assignment))
    chosen = f"({', '.join(models)})" if models else "(none chosen)"
    raise OptionError(f"changes none of the chosen {what}s {chosen}: it applies to the span-level "
                      f"models {', '.join(MATCHED_FAMILIES)} (exact match is met by any threshold and is "
                      "one-to-one already)", option=option, value=value)


_REGISTRY: Dict[str, Model] = {}
_UNAVAILABLE: Dict[str, str] = {}   # name -> why it cannot be used here
_FAMILIES: Dict[str, Family] = {}
_GROUPS: Dict[str, Tuple[str, ...]] = {}   # a name that stands for several models (semeval)

#: the family modules of this package that the package's ``__init__`` does not import (it imports ts,
#: segment and fair: ``score``'s default families), in the registry's order after those
LATER = ("germeval", "semeval", "strings")

if TYPE_CHECKING:   # read through __getattr__ below: the registry as a whole, every family module imported
    REGISTRY: Dict[str, Model]
    UNAVAILABLE: Dict[str, str]
    FAMILIES: Dict[str, Family]
    GROUPS: Dict[str, Tuple[str, ...]]
_WHOLE = ("REGISTRY", "UNAVAILABLE", "FAMILIES", "GROUPS")
_loaded = False    # the modules of LATER are imported (or being imported)
_settled = False   # the package's __init__ is done: a registration from now on comes from outside the package


def load_all() -> None:
    """Import the family modules of :data:`LATER` and register their models (``register_models()``), once,
    in that order: the registry's order is the same whatever asks for it first (importing one of them
    registers nothing)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    try:
        for name in LATER:
            importlib.import_module(f"{__package__}.{name}").register_models()
    except BaseException:
        _loaded = False
        raise


def settle() -> None:
    """The package's ``__init__`` has imported its family modules: a model registered from outside the
    package from now on comes after every model of the package, as it always did."""
    global _settled
    _settled = True


def __getattr__(name: str) -> Any:
    if name in _WHOLE:
        load_all()
        return globals()[f"_{name}"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

DEFAULT_MODELS: Tuple[str, ...] = (
    "exact-f1-micro", "exact-f1-macro", "ts-f1-micro", "ts-f1-macro", "t-f1-macro",
    "ts-kappa-micro", "ts-kappa-macro", "fair-f1", "weighted-f1", "overlap-f1-micro",
)
PAPER_MODELS: Tuple[str, ...] = ("exact-f1-micro", "ts-f1-macro", "t-f1-macro")
REFERENCE_MODEL = "exact-f1-micro"


def register(model: Model) -> Model:
    """Add a ranking model (a later registration under the same name replaces the earlier one)."""
    if _settled:
        load_all()
    _REGISTRY[model.name] = model
    _UNAVAILABLE.pop(model.name, None)
    return model


def register_group(name: str, models: Tuple[str, ...]) -> None:
    """Let ``name`` stand for several ranking models in :func:`resolve_models`."""
    if _settled:
        load_all()
    _GROUPS[name] = tuple(models)


def register_family(family: Family) -> Family:
    """Add a ``score`` model family (``ts``, ``exact``, ``fair``, ...)."""
    if _settled:
        load_all()
    _FAMILIES[family.name] = family
    return family


def get_family(name: str) -> Family:
    return families([name])[name]


def families(names: Sequence[str]) -> Dict[str, Family]:
    """The ``score`` families ``names``, in the registry's order (the modules of :data:`LATER` are imported
    when one of the names is not registered yet); OptionError naming every family for an unknown name."""
    if any(n not in _FAMILIES for n in names):
        load_all()
        unknown = [n for n in names if n not in _FAMILIES]
        if unknown:
            raise OptionError(f"unknown model(s) {', '.join(unknown)}; expected some of {', '.join(_FAMILIES)}")
    return {n: f for n, f in _FAMILIES.items() if n in names}


def default_models(corpus: Any = None) -> List[str]:
    """The default ranking models that are registered; with a corpus read from GermEval-layout
    files, GermEval Metric 1 (the official score) too; with generated outputs (strings without
    offsets) the strings model's micro F1 too, or only the strings models when every system was
    read in the ``strings`` mode."""
    load_all()
    out = [m for m in DEFAULT_MODELS if m in _REGISTRY]
    modes = [((getattr(i, "reading", None) or {}).get("generated") or {}).get("mode")
             for i in (corpus.system_info.values() if corpus is not None else ())]
    if modes and all(m == "strings" for m in modes):      # generated outputs scored as strings only
        return ["strings-f1-micro", "strings-f1-macro"]
    if any(modes):
        out.append("strings-f1-micro")
    if corpus is not None and "germeval-m1" in _REGISTRY and corpus.system_info and all(
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
    if name not in _REGISTRY:
        load_all()
    if name in _REGISTRY:
        return _REGISTRY[name]
    if name in _UNAVAILABLE:
        raise OptionError(f"model {name!r} is not available: {_UNAVAILABLE[name]}")
    raise OptionError(f"unknown model {name!r}; available: {', '.join(_REGISTRY)}")


def resolve_models(names: Optional[Sequence[str]], corpus: Any = None) -> List[Model]:
    """The models of ``names`` (default: :func:`default_models`), each once."""
    load_all()
    names = default_models(corpus) if names is None else [n for g in names for n in _GROUPS.get(g, (g,))]
    if not names:
        raise OptionError("no model given")
    seen = set()
    for n in names:
        if n in seen:
            raise OptionError(f"model {n!r} is given twice")
        seen.add(n)
    return [get_model(n) for n in names]
