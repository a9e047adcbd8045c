"""The registry of evaluation models: what a model declares, and where it is found by name.

A model is one module that declares one :class:`ModelSpec` and registers it (:func:`register`) when it
is imported: its per-sentence statistics, the result ``score`` reports from their sums, its named
ranking scores (:class:`Score`, functions of the same sums), the summary columns it offers to the
score page (:class:`Display`) and, for ``analyze``, how its statistics split by span.  Everything
reads that one declaration:

- ``score`` counts a system with ``stats(system, settings, sentences=False)``: the column sums of
  the per-sentence statistics, counted without the per-sentence table (the same counting keyed by
  label instead of sentence and label), plus the corpus-level figures that are not sums over
  sentences (``extras``: confusion matrices, token accuracy); the counts of two runs of sentences
  add up (:class:`~ts_eval.models.tally.Tally`), and ``result`` turns those of the whole corpus
  into the report's dict;
- ``rank``, ``compare`` and ``analyze`` resample ``stats(system, settings, sentences=True)``, a
  (sentences, k) table, and score sums of its rows with the :class:`Score` functions: a
  :class:`Model` is one such score with the statistics it reads.

The package's own models are the modules of this package: ``ts``, ``segment`` and ``fair`` (``score``'s
defaults) are imported by the package's ``__init__``; the registry imports the others, every module of
the package it has not imported yet, in name order, the first time a name it does not know is asked for
or the registry is read whole (:data:`SPECS`, :data:`REGISTRY`, :data:`GROUPS`: PEP 562), so ``score``
with its default models imports none of them.  Whatever is imported first, the registry's order is the
same: the defaults, then the package's other models by module name, then models registered from outside
the package, in the order they were registered.
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..errors import OptionError

if TYPE_CHECKING:   # (types only: the registry sits low, below the page builders that read the declarations)
    from ..core.matching import MatchSettings
    from .context import ScoreSettings, SystemData
    from .tally import Tally, Totals

StatsFn = Callable[[Any], np.ndarray]          # SystemData -> (sentences, k)
ScoreFn = Callable[[np.ndarray], np.ndarray]   # (..., k) summed statistics -> (...) scores


@dataclass(frozen=True)
class Score:
    """A named ranking score of a model: one number of summed statistics, vectorised over leading axes."""

    name: str
    title: str                      # short column header (paper notation)
    score: ScoreFn
    description: str = ""
    options: Tuple[str, ...] = ()   # keywords of ``score`` a study may set (:func:`configure`)
    #: where ``score``'s result of the model holds the same number (keys from the result down), and the
    #: options of ``score`` under which it does (the invariant tests check every such pair)
    reported: Tuple[str, ...] = ()
    settings: Tuple[Tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Model:
    """A ranking model as ``rank`` runs it: per-sentence statistics + a score of their sums."""

    name: str
    title: str
    stats: StatsFn
    score: ScoreFn
    description: str = ""
    options: Tuple[str, ...] = ()
    matched: bool = False           # its statistics read the matcher's settings (minimum overlap, assignment)
    needs: str = ""                 # the input it needs beyond spans: "germeval" (two levels), "generated" (strings)
    #: how its statistics' columns depend on the labels: (columns of the sentence as a whole, first; then
    #: columns per label, label after label in the corpus's order); None: not known, so statistics of
    #: parts of a corpus with different labels cannot be put side by side (``rank`` then reads it whole)
    columns: Optional[Tuple[int, int]] = None
    spec: Optional[ModelSpec] = field(default=None, compare=False, repr=False)   # the declaration it comes from


@dataclass(frozen=True)
class ResultColumn:
    """A column the score page may show: the value at ``path`` in a system's result of the model, as a
    cell of ``kind`` with the counts ``counts`` of the same dict beside it; ``note``: the key of that dict
    whose text, when set, makes the value n/a and says why."""

    key: str
    header: str
    path: Tuple[str, ...]
    kind: str = "score"
    counts: Tuple[str, ...] = ("tp", "fp", "fn", "gold", "system")
    note: str = ""

    def holder(self, result: Mapping[str, Any]) -> Mapping[str, Any]:
        """The dict of a model's ``result`` that holds the value (its last key), the counts and the note."""
        for key in self.path[:-1]:
            result = result[key]
        return result


@dataclass(frozen=True)
class Display:
    """What the score page shows of a model (data the page builders read; models make no pages)."""

    group: str                                   # the summary table's column group
    summary: Tuple[ResultColumn, ...] = ()       # the summary table's columns, one row per system
    headline: Optional[ResultColumn] = None      # the first screen of several systems: the micro average
    other: Optional[ResultColumn] = None         # ... and the other average beside it
    other_title: str = ""                        # what the other table's title says the model adds to it
    gloss: str = ""                              # the first screen's words on what the model counts
    tables: Tuple[str, ...] = ()                 # per-system tables, by the names the score page knows
    details: Tuple[str, ...] = ()                # per-system detail blocks, likewise


@dataclass(frozen=True)
class ModelSpec:
    """One model's declaration (see the module docstring).

    ``stats(system_data, settings, sentences)``: (sentences, k) statistics of one system
    (:class:`~ts_eval.models.context.SystemData`; ``settings``: ``score``'s options,
    :class:`~ts_eval.models.context.ScoreSettings`, ``rank`` counts with their defaults), or (1, k), their
    column sums, with ``sentences`` False.  ``columns`` = (whole, per label): which columns belong to the
    sentence as a whole (first) and which to each label (then label after label).  ``result(tally,
    totals)``: ``score``'s dict from the tally of the whole corpus (``tally.sums``: the summed statistics;
    the arrays of ``extras(system_data, settings)``, a :class:`~ts_eval.models.tally.Tally` of figures
    that are not per-sentence sums); None for a model ``score`` does not offer.  ``rank_whole``: ranking
    resamples only the whole-sentence columns (all its scores read).  ``split`` (``analyze``): the
    statistics as contributions of spans (:class:`~ts_eval.models.context.Contributions`); ``counts``:
    the counts behind a score, summed over labels, of a system's summed statistics (``count_names``,
    per ``count_groups`` when there are several rows).
    """

    name: str
    description: str
    stats: Callable[[SystemData, ScoreSettings, bool], np.ndarray]
    columns: Tuple[int, int]
    scores: Tuple[Score, ...] = ()
    result: Optional[Callable[[Tally, Totals], Dict[str, Any]]] = None
    extras: Optional[Callable[[SystemData, ScoreSettings], Tally]] = None
    rank_whole: bool = False
    matched: bool = False
    needs: str = ""
    group: bool = False        # the name stands for all its scores in :func:`resolve_models`
    display: Display = Display("")
    split: Optional[Callable[[SystemData], Any]] = None
    counts: Optional[Callable[[np.ndarray], np.ndarray]] = None
    count_names: Tuple[str, ...] = ()
    count_groups: Tuple[str, ...] = ()
    models: Tuple[Model, ...] = field(default=(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        stats = partial(_sentence_stats, self)    # one object: the models of a spec share one computation
        whole = self.columns[0]
        object.__setattr__(self, "models", tuple(
            Model(s.name, s.title, stats, s.score, s.description, s.options, self.matched, self.needs,
                  (whole, 0) if self.rank_whole else self.columns, self) for s in self.scores))


def _sentence_stats(spec: ModelSpec, sd: SystemData) -> np.ndarray:
    """What ``rank`` resamples: the per-sentence statistics under the settings the corpus data counts with."""
    x = spec.stats(sd, sd.cd.settings, True)
    return x[:, :spec.columns[0]] if spec.rank_whole else x


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
    (names of ``score``'s models or of ranking models) reads them: nothing would change, silently."""
    if matching.is_default:
        return
    load_all()
    matched = [s.name for s in _SPECS.values() if s.matched and s.result is not None]
    if any(m in matched or (m in _REGISTRY and _REGISTRY[m].matched) for m in models):
        return
    option, value = (("min_overlap", str(matching.min_overlap)) if matching.min_overlap is not None
                     else ("assignment", matching.assignment))
    chosen = f"({', '.join(models)})" if models else "(none chosen)"
    raise OptionError(f"changes none of the chosen {what}s {chosen}: it applies to the span-level "
                      f"models {', '.join(matched)} (exact match is met by any threshold and is "
                      "one-to-one already)", option=option, value=value)


# ---------------------------------------------------------------------------
# the registry

_SPECS: Dict[str, ModelSpec] = {}        # every declaration, in the registry's order
_REGISTRY: Dict[str, Model] = {}         # every ranking model, in the registry's order
_GROUPS: Dict[str, Tuple[str, ...]] = {}  # a name that stands for several ranking models (semeval)
_UNAVAILABLE: Dict[str, str] = {}        # name -> why it cannot be used here (none: every model runs anywhere)
_ORDER: Dict[str, Tuple[Any, ...]] = {}  # spec -> where it goes (see the module docstring)

if TYPE_CHECKING:   # read through __getattr__ below: the registry as a whole, every model module imported
    SPECS: Dict[str, ModelSpec]
    REGISTRY: Dict[str, Model]
    UNAVAILABLE: Dict[str, str]
    GROUPS: Dict[str, Tuple[str, ...]]
_WHOLE = ("SPECS", "REGISTRY", "UNAVAILABLE", "GROUPS")
_loaded = False    # every module of the package is imported (or being imported)
_settled = False   # the package's __init__ has imported its default models


def load_all() -> None:
    """Import every module of this package not imported yet, in name order (each model module registers
    its model when it is imported), once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    package = sys.modules[__package__]
    try:
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if not info.name.startswith("_"):
                importlib.import_module(f"{__package__}.{info.name}")
    except BaseException:
        _loaded = False
        raise


def settle() -> None:
    """The package's ``__init__`` has imported its default models: the package's other models come after
    them in name order, and models registered from outside the package after every model of the package."""
    global _settled
    _settled = True


def __getattr__(name: str) -> Any:
    if name in _WHOLE:
        load_all()
        return globals()[f"_{name}"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register(spec: ModelSpec) -> ModelSpec:
    """Add a model (a later registration under the same name replaces the earlier one); the public way to
    add a model from outside the package (docs/architecture.md, "How to add a model")."""
    module = sys._getframe(1).f_globals.get("__name__", "")
    if not module.startswith(f"{__package__}."):
        key: Tuple[Any, ...] = (2, len(_ORDER))
    else:
        key = (1, module, len(_ORDER)) if _settled else (0, len(_ORDER))
    old = _SPECS.pop(spec.name, None)
    for m in old.models if old is not None else ():
        _REGISTRY.pop(m.name, None)
    _ORDER[spec.name] = key
    _SPECS[spec.name] = spec
    ordered = sorted(_SPECS.values(), key=lambda s: _ORDER[s.name])
    _SPECS.clear()
    _SPECS.update((s.name, s) for s in ordered)
    _REGISTRY.clear()
    _REGISTRY.update((m.name, m) for s in ordered for m in s.models)
    _GROUPS.clear()
    _GROUPS.update((s.name, tuple(m.name for m in s.models)) for s in ordered if s.group)
    return spec


def score_specs(names: Sequence[str]) -> Dict[str, ModelSpec]:
    """The models ``score`` offers named ``names``, in the registry's order (the other modules of the
    package are imported when one of the names is not registered yet); OptionError naming every such
    model for an unknown name."""
    def known(n: str) -> bool:
        return n in _SPECS and _SPECS[n].result is not None

    if not all(known(n) for n in names):
        load_all()
        unknown = [n for n in names if not known(n)]
        if unknown:
            raise OptionError(f"unknown model(s) {', '.join(unknown)}; expected some of {', '.join(score_names())}")
    return {n: s for n, s in _SPECS.items() if n in names}


def score_names(needs: Optional[str] = None) -> List[str]:
    """Every model ``score`` offers, in the registry's order (``needs``: only those that need that input,
    "" those that read spans alone)."""
    load_all()
    return [n for n, s in _SPECS.items() if s.result is not None and (needs is None or s.needs == needs)]


def known_specs(names: Sequence[str]) -> List[ModelSpec]:
    """The declarations of those of ``names`` that are registered, in the registry's order."""
    if any(n not in _SPECS for n in names):
        load_all()
    return [s for n, s in _SPECS.items() if n in names]


DEFAULT_MODELS: Tuple[str, ...] = (
    "exact-f1-micro", "exact-f1-macro", "ts-f1-micro", "ts-f1-macro", "t-f1-macro",
    "ts-kappa-micro", "ts-kappa-macro", "fair-f1", "weighted-f1", "overlap-f1-micro",
    "strings-f1-micro", "germeval-m1",
)
PAPER_MODELS: Tuple[str, ...] = ("exact-f1-micro", "ts-f1-macro", "t-f1-macro")
REFERENCE_MODEL = "exact-f1-micro"


def generated_modes(corpus: Any) -> List[Optional[str]]:
    """The mode each system of ``corpus`` was read in as a generated output (None: not one)."""
    out = []
    for info in corpus.system_info.values() if corpus is not None else ():
        gen = (getattr(info, "reading", None) or {}).get("generated")
        out.append(gen.get("mode") if isinstance(gen, Mapping) else None)
    return out


def default_models(corpus: Any = None) -> List[str]:
    """The default ranking models (:data:`DEFAULT_MODELS`) that are registered, those that need an input
    beyond spans where the corpus has it: generated outputs (strings without offsets) for the strings
    model, GermEval-layout files on every system side for GermEval Metric 1; with generated outputs all
    read in the ``strings`` mode, only the models that need them."""
    load_all()
    modes = generated_modes(corpus)
    if modes and all(m == "strings" for m in modes):      # generated outputs scored as strings only
        return [m.name for s in _SPECS.values() if s.needs == "generated" for m in s.models]
    given = {"generated": any(modes), "germeval": corpus is not None and bool(corpus.system_info) and all(
        getattr(i, "germeval", None) is not None for i in corpus.system_info.values())}
    return [m for m in DEFAULT_MODELS if m in _REGISTRY and given.get(_REGISTRY[m].needs, True)]


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
