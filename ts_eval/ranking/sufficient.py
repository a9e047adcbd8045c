"""The per-sentence statistics of many systems x models as one matrix (what ``rank`` resamples).

Each model of the registry (:mod:`ts_eval.models`) turns one system's annotation into a
matrix of per-sentence statistics and statistics *summed* over any multiset of sentences
into a score, so a bootstrap resample or a permutation of sentences is a matrix product of
weight counts with the statistics, never a re-evaluation.  :func:`statistics` puts the
statistics of every system and statistics family side by side (per sentence or per
document).  The registry's names are re-exported here for the callers of ``rank``; reading
:data:`REGISTRY` (as this module's import does) imports every model module of the package
(:mod:`ts_eval.models.registry`), so the registry is full here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Hashable, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import DEFAULT_MATCHING, MatchSettings
from ..errors import OptionError
from ..models.context import CorpusData, SystemData
from ..models.registry import (
    DEFAULT_MODELS,
    GROUPS,
    PAPER_MODELS,
    REFERENCE_MODEL,
    REGISTRY,
    UNAVAILABLE,
    Model,
    StatsFn,
    default_models,
    get_model,
    register,
    resolve_models,
)
from .rows import DenseSums, MovingSums, RowSums, Sums, SwapSums

#: the distinct rows added up at a time for the totals (a float64 slab of a few MB, never the whole table)
TOTAL_ROWS = 1 << 13

__all__ = ["CorpusData", "DEFAULT_MODELS", "GROUPS", "Model", "PAPER_MODELS", "REFERENCE_MODEL", "REGISTRY",
           "StatsMatrix", "SystemData", "UNAVAILABLE", "default_models", "get_model", "register", "resolve_models",
           "sentence_statistics", "statistics", "unit_ids"]


@dataclass
class StatsMatrix:
    """Per-unit statistics of every system and statistics family, side by side.

    ``data`` has one row per unit (sentence or document) and, for each statistics
    family f, ``n_systems * k_f`` columns (system-major inside the family), so a
    model's summed statistics of all systems are ``sums[..., cols].reshape(..., n, k_f)``.
    With ``ids`` (whole-number statistics only), ``data`` holds each distinct row once and ``ids`` every
    unit's row (:mod:`ts_eval.ranking.rows`); :meth:`dense` is then the matrix of every unit.
    """

    systems: List[str]
    models: List[Model]
    data: np.ndarray                        # (units, K); with ``ids``: (distinct rows, K)
    family_cols: Dict[Hashable, Tuple[int, int]]  # family -> (first column, k per system)
    unit: str = "sentence"
    unit_sizes: Optional[np.ndarray] = None  # sentences per unit
    ids: Optional[np.ndarray] = None         # (units,) the row of ``data`` of every unit (integer rows only)
    _totals: Optional[np.ndarray] = field(default=None, repr=False)

    @property
    def n_units(self) -> int:
        units: int = self.data.shape[0] if self.ids is None else len(self.ids)
        return units

    @property
    def totals(self) -> np.ndarray:
        if self._totals is None:
            if self.ids is None:
                self._totals = self.data.sum(0, dtype=np.float64)
            else:        # integers: the same sums in any order, a slab of rows at a time (no float64 copy
                uses = np.bincount(self.ids, minlength=self.data.shape[0]).astype(np.float64)   # of the table)
                total = np.zeros(self.data.shape[1], np.float64)
                some = np.flatnonzero(uses)         # only the rows some unit has, when they are few (a gather
                used = some if len(some) <= len(uses) // 2 else None        # costs a copy)
                for a in range(0, len(uses) if used is None else len(used), TOTAL_ROWS):
                    rows = slice(a, a + TOTAL_ROWS) if used is None else used[a:a + TOTAL_ROWS]
                    total += uses[rows] @ self.data[rows].astype(np.float64)
                self._totals = total
        return self._totals

    def sums(self) -> Sums:
        """The resampling sums of the units (:mod:`ts_eval.ranking.rows`)."""
        if self.ids is None:
            return DenseSums(self.data, self.n_units)
        return RowSums(self.data, self.ids)

    def swap_sums(self) -> SwapSums:
        """The sums of the permutation test (:meth:`~ts_eval.ranking.rows.Sums.swapped`), which reads only the
        differences between systems: with ``ids`` (whole numbers, so every sum and difference is exact) each
        system's statistics less the first system's, over the units whose systems differ under some family
        (:class:`~ts_eval.ranking.rows.MovingSums`): a unit whose every system has the same statistics adds the
        same to every system, and most sentences are such units when the systems agree on them."""
        if self.ids is None:
            return self.sums()
        n = len(self.systems)
        later = [np.arange(first + k, first + n * k) for first, k in self.family_cols.values()]
        base = [np.tile(np.arange(first, first + k), n - 1) for first, k in self.family_cols.values()]
        return MovingSums(self.data, self.ids, np.concatenate(later or [np.zeros(0, np.intp)]).astype(np.intp),
                          np.concatenate(base or [np.zeros(0, np.intp)]).astype(np.intp))

    def dense(self) -> np.ndarray:
        """(units, K): every unit's row."""
        out: np.ndarray = self.data if self.ids is None else self.data[self.ids]
        return out

    def block(self, sums: np.ndarray, model: Model) -> np.ndarray:
        """(..., systems, k) summed statistics of one model's family."""
        first, k = self.family_cols[model.stats]
        n = len(self.systems)
        return sums[..., first:first + n * k].reshape(sums.shape[:-1] + (n, k))

    def scores(self, sums: np.ndarray) -> np.ndarray:
        """(..., systems, models) scores of summed statistics ``sums`` (..., K)."""
        return np.stack([np.asarray(m.score(self.block(sums, m)), float) for m in self.models], axis=-1)


def unit_ids(corpus: Corpus, unit: str = "sentence") -> np.ndarray:
    """The resampling unit of every sentence: itself, or its document (from -DOCSTART-)."""
    if unit == "sentence":
        return np.arange(corpus.n_sentences)
    if unit == "document":
        if corpus.doc_offsets is None or len(corpus.doc_offsets) < 2:
            raise OptionError("needs documents, but the gold file has no -DOCSTART- lines", option="unit",
                              value="document")
        doc = np.searchsorted(np.asarray(corpus.doc_offsets), corpus.sent_offsets[:-1], side="right") - 1
        return np.unique(doc, return_inverse=True)[1].reshape(-1)   # drop empty documents
    raise OptionError("expected sentence or document", option="unit", value=unit)


def sentence_statistics(corpus: Corpus, models: Sequence[Model], systems: Optional[Sequence[str]] = None,
                        cd: Optional[CorpusData] = None, matching: MatchSettings = DEFAULT_MATCHING
                        ) -> Tuple[np.ndarray, Dict[Hashable, Tuple[int, int]]]:
    """(sentences, K) statistics of every system for the families of ``models`` (span-level models
    read the matcher's pairs with ``matching``)."""
    cd = cd or CorpusData(corpus, matching)
    systems = list(corpus.systems) if systems is None else list(systems)
    families: List[StatsFn] = []
    for m in models:
        if m.stats not in families:
            families.append(m.stats)
    blocks: List[np.ndarray] = []
    cols: Dict[Hashable, Tuple[int, int]] = {}
    first = 0
    for fam in families:
        per = [cd.system(name).stats(fam) for name in systems]
        k = per[0].shape[1]
        if any(p.shape[1] != k for p in per):
            raise ValueError(f"statistics family {fam!r} gives different widths for different systems")
        blocks.extend(per)
        cols[fam] = (first, k)
        first += k * len(systems)
    data = np.concatenate(blocks, axis=1) if blocks else np.zeros((corpus.n_sentences, 0))
    return data, cols


def statistics(corpus: Corpus, models: Sequence[Model], unit: str = "sentence",
               systems: Optional[Sequence[str]] = None, matching: MatchSettings = DEFAULT_MATCHING) -> StatsMatrix:
    """The :class:`StatsMatrix` of a corpus, per sentence or per document."""
    systems = list(corpus.systems) if systems is None else list(systems)
    data, cols = sentence_statistics(corpus, models, systems, matching=matching)
    ids = unit_ids(corpus, unit)
    sizes = np.bincount(ids).astype(float)
    if unit != "sentence":
        starts = np.flatnonzero(np.diff(ids, prepend=-1) != 0)
        if np.all(np.diff(ids) >= 0):
            data = np.add.reduceat(data, starts, axis=0) if len(data) else data
        else:  # not contiguous (cannot happen for -DOCSTART- documents): general sum
            out = np.zeros((ids.max() + 1, data.shape[1]))
            np.add.at(out, ids, data)
            data = out
    return StatsMatrix(systems, list(models), data, cols, unit, sizes)
