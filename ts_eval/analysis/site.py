"""What a results site for participants shows beside the leaderboard (issue 35.4): for every system of a
ranking, its errors (:func:`ts_eval.analysis.errors.error_analysis`, that system alone) and its comparison
with the best system (the system first under the ranking's reference model; the best one is compared with
the second): ``compare``'s pair comparison of the two and the paired approximate-randomisation test of the
pair under every model of the ranking (:func:`ts_eval.ranking.uncertainty.pair_pvalues`, the test ``rank``
runs between neighbours, on the same statistics; one set of swaps for every system's pair with the best).

The error analysis is made once for all systems (each system's numbers depend only on gold and that
system) and cut into one view per system; each comparison reads a corpus of the two systems alone, so that
none of the several-systems tables is computed 28 times.

The two other studies are handed in by the caller (:func:`results_site`'s ``analyse`` and ``compare``:
:func:`ts_eval.analysis.errors.error_analysis` and :func:`ts_eval.comparison.compare`), as ``rank`` hands its
study to the ranking under two references: so that the command that writes the site stays within eight floors
of imports.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import match_settings
from ..models.registry import configure
from ..ranking.rows import distinct, integral
from ..ranking.sufficient import StatsMatrix, resolve_models, statistics
from ..ranking.uncertainty import pair_pvalues

if TYPE_CHECKING:
    from ..comparison.results import Comparison
    from ..ranking.study import RankingResult
    from ..validation.result import Validation
    from .errors import ErrorAnalysis


@dataclass
class SystemPage:
    """One system's part of the site: its errors, and its comparison with ``against`` (the best system; for
    the best, the second): ``comparison`` has ``against`` as A and this system as B, ``p_values`` the paired
    test's p-value under each of the ranking's models (its ``models`` order)."""

    name: str
    errors: ErrorAnalysis
    against: str
    comparison: Comparison
    p_values: np.ndarray
    #: the validation report of the system's input against gold, where the caller has one (:func:`by_system`)
    validation: Optional[Validation] = None


@dataclass
class ResultsSite:
    """A ranking and every system's page (in the order of the reference model's leaderboard)."""

    ranking: RankingResult
    systems: List[SystemPage]
    best: str
    settings: Dict[str, Any] = field(default_factory=dict)

    def page(self, name: str) -> SystemPage:
        return next(s for s in self.systems if s.name == name)


def named_files(corpus: Corpus, public: bool) -> Corpus:
    """``corpus`` with its files named as a site for participants names them (where example lines are counted):
    gold and each system by the file's name without its folders, and with ``public`` names each system as
    ``<name>'s file`` (its file's name may be the real one)."""
    def named(info: Any, name: str = "") -> Any:
        path = f"{name}'s file" if name and public else os.path.basename(info.path) if info.path else None
        return dataclasses.replace(info, path=path)

    return dataclasses.replace(corpus, gold_info=named(corpus.gold_info),
                               system_info={n: named(i, n) for n, i in corpus.system_info.items()})


def by_system(v: Validation, public: bool) -> Dict[str, Validation]:
    """A validation of several submissions as one per submission (by its name), the files named as
    :func:`named_files` names them, in the problems' texts too, and the settings without the inputs' paths."""
    out = {}
    for s in v.submissions:
        shown = f"{s.name}'s file" if public else os.path.basename(s.file)

        def clean(text: str, real: str = s.file, shown: str = shown) -> str:
            text = text.replace(real, shown)
            return text.replace(os.path.basename(real), shown) if public else text

        problems = [dataclasses.replace(p, file=shown, found=clean(p.found), expected=clean(p.expected))
                    for p in s.problems]
        one = dataclasses.replace(s, file=shown, problems=problems, notes={k: clean(t) for k, t in s.notes.items()})
        out[s.name] = dataclasses.replace(v, gold=os.path.basename(v.gold) if v.gold else v.gold, submissions=[one],
                                          settings={k: x for k, x in v.settings.items() if k != "input"})
    return out


def _one(ea: ErrorAnalysis, k: int) -> ErrorAnalysis:
    """The error analysis of its ``k``-th system alone (nothing pooled)."""
    d = ea.documents
    docs = dataclasses.replace(d, names=[d.names[k]], exact=d.exact[k:k + 1], exact_f=d.exact_f[k:k + 1],
                               ts=d.ts[k:k + 1], ts_f=d.ts_f[k:k + 1])
    return dataclasses.replace(ea, systems=[ea.systems[k]], pooled=None, documents=docs)


def _pair(corpus: Corpus, a: str, b: str) -> Corpus:
    """``corpus`` with the systems ``a`` and ``b`` alone, in that order."""
    return dataclasses.replace(corpus, systems={n: corpus.systems[n] for n in (a, b)},
                               system_info={n: corpus.system_info[n] for n in (a, b) if n in corpus.system_info})


def _statistics(corpus: Corpus, r: RankingResult) -> StatsMatrix:
    """The statistics the ranking ``r`` resampled (its models, unit and matcher's settings), as distinct rows
    when they are whole numbers."""
    st = r.settings
    models = [configure(m, partial_weight=st.get("partial_weight", 0.5)) for m in resolve_models(r.models, corpus)]
    matching = match_settings(st.get("min_overlap"), st.get("assignment", "many-to-many"))
    sm = statistics(corpus, models, st.get("unit", "sentence"), list(r.systems), matching)
    if integral(sm.data):
        table, ids = distinct(sm.data)
        sm = StatsMatrix(sm.systems, sm.models, table, sm.family_cols, sm.unit, sm.unit_sizes, ids)
    return sm


def results_site(corpus: Corpus, ranking: RankingResult, *, analyse: Callable[..., ErrorAnalysis],
                 compare: Callable[..., Comparison], top: Optional[int] = 10, examples: int = 1,
                 transitions: Optional[int] = 5, permutations: Optional[int] = None,
                 seed: Optional[int] = None) -> ResultsSite:
    """Every system's errors and comparison with the best system, for the ranking ``ranking`` of ``corpus``
    (``analyse``, ``compare``: the studies, see the module's docstring).

    ``top``: errors listed per system; ``examples`` and ``transitions``: ``compare``'s example sentences and
    transitions per class; ``permutations`` and ``seed``: of the paired test (default: the ranking's, 1000
    permutations when it ran none)."""
    r = ranking
    names = list(r.systems)
    order = [names[i] for i in r.order[r.reference_index]]
    best = order[0]
    ea = analyse(corpus, systems=names, top=top)
    sm = _statistics(corpus, r)
    perms = permutations if permutations is not None else (r.settings.get("permutations") or 1000)
    seed = r.settings.get("seed", 0) if seed is None else seed
    others = [i for i in range(len(names)) if names[i] != best]      # each pair with the best, one set of swaps
    pairs = (np.full(len(others), names.index(best)), np.array(others))
    p = np.array(pair_pvalues(sm, [pairs] * len(sm.models), perms, np.random.SeedSequence(seed)))  # (models, pairs)
    pages = []
    for name in order:
        against = order[1] if name == best else best
        column = others.index(names.index(name if name != best else against))
        comparison = compare(_pair(corpus, against, name), against, name, top=transitions, examples=examples)
        pages.append(SystemPage(name, _one(ea, names.index(name)), against, comparison, p[:, column]))
    settings = {"top": top, "examples": examples, "transitions": transitions, "permutations": perms, "seed": seed}
    return ResultsSite(r, pages, best, settings)
