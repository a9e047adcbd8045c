"""What every statistics function reads: a corpus and one system, with the shared
intermediate results (the matcher's pairs, merged spans, bincount keys) computed once.

Statistics are computed for the whole corpus at once (``bincount`` on the sentence ids
of spans and of the matcher's pairs); nothing loops over sentences.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple, TypeVar

import numpy as np

from ..core import schemes
from ..core.corpus import Corpus, SpanSet, Unplaced
from ..core.matching import DEFAULT_MATCHING, MatchSettings, Pairs, match
from ..core.options import Options
from ..core.units import merge_overlaps

T = TypeVar("T")


@dataclass(frozen=True)
class ScoreSettings(Options):
    """The options of ``score`` that a model's statistics and result depend on."""

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


#: the settings ``rank`` and ``analyze`` count per-sentence statistics with (and the matcher's of the corpus data)
RANK_SETTINGS = ScoreSettings()


class CorpusData:
    """A corpus with the per-sentence facts every statistics function needs, and the matcher's
    settings (:class:`~ts_eval.core.matching.MatchSettings`) every span-level model reads;
    ``settings``: what the per-sentence statistics ``rank`` resamples are counted under (``score``'s
    defaults with these matcher's settings)."""

    def __init__(self, corpus: Corpus, matching: MatchSettings = DEFAULT_MATCHING):
        self.corpus = corpus
        self.matching = matching
        self.settings = ScoreSettings(matching=matching)
        self.n_sentences = corpus.n_sentences
        self.n_labels = len(corpus.labels)
        self._gold_key: Optional[np.ndarray] = None
        self._merged_gold: Optional[SpanSet] = None
        self._gold_iob2: Optional[np.ndarray] = None
        self._systems: Dict[str, SystemData] = {}

    def key(self, spans: SpanSet) -> np.ndarray:
        """sentence * labels + label of every span (the bincount key of per-sentence per-label counts)."""
        return self.corpus.sentence_of(spans.start) * self.n_labels + spans.label.astype(np.int64)

    @property
    def gold_key(self) -> np.ndarray:
        if self._gold_key is None:
            self._gold_key = self.key(self.corpus.gold)
        return self._gold_key

    @property
    def gold_iob2(self) -> np.ndarray:
        """Gold's per-token IOB2 tags as integers (:func:`iob2_codes`; gold must not overlap)."""
        if self._gold_iob2 is None:
            self._gold_iob2 = iob2_codes(self.corpus, self.corpus.gold)
        return self._gold_iob2

    @property
    def merged_gold(self) -> SpanSet:
        """Gold with the overlapping spans of one label merged (:func:`ts_eval.core.units.merge_overlaps`)."""
        if self._merged_gold is None:
            self._merged_gold = merge_overlaps(self.corpus.gold)
        return self._merged_gold

    def release(self) -> None:
        """Forget every system's data (each refers back to this corpus data): what they hold is freed as soon as
        the caller lets go of this, not when the cycle collector next runs."""
        self._systems.clear()

    def system(self, name: str) -> SystemData:
        if name not in self._systems:
            self._systems[name] = SystemData(self, name)
        return self._systems[name]


class SystemData:
    """One system of a corpus: its spans, the matcher's pairs, and cached statistics."""

    def __init__(self, cd: CorpusData, name: str):
        self.cd = cd
        self.name = name
        self.spans = cd.corpus.systems[name]
        self._pairs: Optional[Pairs] = None
        self._key: Optional[np.ndarray] = None
        self._merged: Optional[Tuple[SpanSet, SpanSet, Pairs]] = None
        self.cache: Dict[Hashable, Any] = {}

    @property
    def pairs(self) -> Pairs:
        """The shared matcher's gold x system pairs (computed once per system)."""
        if self._pairs is None:
            self._pairs = match(self.cd.corpus.gold, self.spans)
        return self._pairs

    @property
    def unplaced(self) -> Optional[Unplaced]:
        """The system's spans on no token (generated strings found nowhere), if any: each model
        counts them as false positives (:class:`~ts_eval.core.corpus.Unplaced`)."""
        info = self.cd.corpus.system_info.get(self.name)
        return info.unplaced if info is not None and info.unplaced is not None and len(info.unplaced) else None

    def unplaced_counts(self) -> np.ndarray:
        """(sentences, labels) unplaced spans per sentence and label."""
        u, S, L = self.unplaced, self.cd.n_sentences, self.cd.n_labels
        if u is None:
            return np.zeros((S, L))
        return np.bincount(u.sentence * L + u.label.astype(np.int64), minlength=S * L)[:S * L].reshape(S, L)

    @property
    def key(self) -> np.ndarray:
        if self._key is None:
            self._key = self.cd.key(self.spans)
        return self._key

    @property
    def merged(self) -> Tuple[SpanSet, SpanSet, Pairs]:
        """(gold, system, pairs) with each label's overlapping spans merged.  When merging
        changes nothing on either side, these are the spans themselves and the shared pairs."""
        if self._merged is None:
            gold, g = self.cd.corpus.gold, self.cd.merged_gold
            s = merge_overlaps(self.spans)
            if len(g) == len(gold) and len(s) == len(self.spans):
                self._merged = (gold, self.spans, self.pairs)
            else:
                self._merged = (g, s, match(g, s))
        return self._merged

    @property
    def merged_keys(self) -> Tuple[np.ndarray, np.ndarray]:
        """The bincount keys (sentence * labels + label) of :attr:`merged`'s gold and system spans."""
        g, s, _ = self.merged
        if g is self.cd.corpus.gold and s is self.spans:
            return self.cd.gold_key, self.key
        return self.cd.key(g), self.cd.key(s)

    def stats(self, fn: Callable[[SystemData], np.ndarray]) -> np.ndarray:
        """The (sentences, k) statistics of ``fn`` for this system (computed once)."""
        if fn not in self.cache:
            out = np.asarray(fn(self), float)
            if out.ndim != 2 or out.shape[0] != self.cd.n_sentences:
                raise ValueError(f"statistics function {fn!r} returned shape {out.shape}, "
                                 f"expected ({self.cd.n_sentences}, k)")
            self.cache[fn] = out
        stats: np.ndarray = self.cache[fn]
        return stats

    def cached(self, key: Hashable, make: Callable[[], T]) -> T:
        """A shared intermediate result (e.g. the fair outcomes), computed once."""
        if key not in self.cache:
            self.cache[key] = make()
        value: T = self.cache[key]
        return value


@dataclass
class Contributions:
    """The statistics of one system under one model as contributions of spans (what ``analyze`` puts
    in buckets of spans): entry i adds ``weight[i]`` to column ``col[i]`` of the sentence of gold span
    ``span[i]`` (``side`` 0) or of system span ``span[i]`` (``side`` 1).  ``whole``: columns no span
    contributes to (a bucket of spans has no value there)."""

    side: np.ndarray
    span: np.ndarray
    col: np.ndarray
    weight: np.ndarray
    k: int
    whole: Tuple[int, ...] = ()

    @classmethod
    def of(cls, parts: List[Tuple[int, Any, Any, Any]], k: int, whole: Tuple[int, ...] = ()) -> Contributions:
        """(side, spans, columns, weights) parts as one list of entries (zero weights dropped)."""
        kept: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        for d, s, c, x in parts:        # each part's zeros dropped (a part without any: not copied)
            s, c, x = np.asarray(s, np.int64), np.asarray(c, np.int64), np.asarray(x, float)
            keep = x != 0
            if not keep.all():
                s, c, x = s[keep], c[keep], x[keep]
            kept.append((np.full(len(s), d, np.int8), s, c, x))
        if not kept:
            return cls(np.zeros(0, np.int8), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), k, whole)
        side, span, col, w = (np.concatenate([p[j] for p in kept]) for j in range(4))
        return cls(side, span, col, w, k, whole)


def iob2_codes(corpus: Corpus, spans: SpanSet) -> np.ndarray:
    """Per token, the IOB2 tag of ``spans`` (which must not overlap) as one integer: 0 for O,
    ``2 * label + 1`` for B-label, ``2 * label + 2`` for I-label."""
    prefix, types = schemes.encode(spans.start, spans.last, spans.label, corpus.sent_first(), "IOB2")
    return np.where(types < 0, 0, 2 * types.astype(np.int64) + np.where(prefix == schemes.B, 1, 2))
