"""GermEval 2014 counting: the official scorer's counts behind Metrics 1-4.

Metrics 1-4 are computed exactly as the shared task's scorer ``nereval.perl``
(version 2014-05-19) computes them, including its ways:

- **Chunks** (policy ``nereval``, the default; see :func:`ts_eval.io.germeval_data.decode_level`):
  a chunk starts at ``B-`` or at an ``I-`` after ``O`` and runs to the next ``B-`` or
  ``O``; an ``I-`` of another label does *not* open a new chunk (``I-LOC I-ORG`` and
  ``B-LOC I-ORG`` are one chunk), and since the scorer skips blank lines a chunk runs
  on into the next sentence when that sentence starts with ``I-``.  A chunk is filed
  under the label of its first token.
- **Correct** (strict): gold and system chunk start and end on the same tokens and every
  token of it has the same label in both (the ``B``/``I`` prefix does not matter: ``I-LOC``
  after ``O`` matches ``B-LOC``).  Loose: the same with ``deriv``/``part`` collapsed onto
  the base class.  A correct chunk is counted under its gold label at its last token.
  The scorer never counts a correct chunk that ends on the last token of the input
  (its end is only noticed on the next line); ``eof_quirk=True`` (default) does the same
  and the report says how many chunks that concerns.
- **Metric 1**, strict combined: outer and inner chunks pooled, P = correct / found,
  R = correct / gold.  **Metric 2**: the same, loose.  **Metric 3**: each level alone,
  strict.  **Metric 4**: token accuracy: a token is right on a level when its tag string
  equals gold's (loose: same prefix and base class); the combined accuracies average the
  two levels.
- **Per-type breakdown**: the type names of gold and found chunks of all four
  (level, mode) runs, sorted; strict lines for every type, loose lines for the four base
  classes only (loose counts of a base class include its ``deriv`` and ``part`` chunks).

Every span-pair computation reads the shared matcher's pairs
(:func:`ts_eval.core.matching.match`): a pair is correct when it has no token outside the
overlap on either side, the same label, and no token whose labels differ.

:func:`germeval_counts` gives, per level and mode, the chunk counts by type and the tag
counts, and Metric 1's counts per sentence; :mod:`.evaluate` turns them into the report.  For
ranking, the model ``germeval-m1`` (:mod:`ts_eval.models.germeval`) reads Metric 1's per-sentence
counts from each system side of a GermEval corpus (:meth:`.corpus.GermEvalSide.metric1_sentences`)
and scores their sums with :func:`ts_eval.models.germeval.metric1_f1`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

import numpy as np

from ..core import measures
from ..core.matching import Pairs, match
from ..io.germeval_data import (
    BASES,
    LABELS,
    LEVELS,
    TAG_BASE,
    TAG_LABEL,
    TAG_PREFIX,
    GermEvalData,
    LevelChunks,
    level_chunks,
    spanset,
)

MODES = ("strict", "loose")
#: ``[gold_tag * tags + system_tag]``: the two tags are the same in the loose mode (prefix and base class)
_LOOSE_SAME = ((TAG_PREFIX[:, None] == TAG_PREFIX[None, :]) & (TAG_BASE[:, None] == TAG_BASE[None, :])).ravel()

# ---------------------------------------------------------------------------
# counts


@dataclass
class LevelCounts:
    """One level under one mode: per type (12 labels strict, 4 base classes loose) counts."""

    types: Tuple[str, ...]
    gold: np.ndarray          # chunks in gold, by the label of their first token
    found: np.ndarray         # system chunks, by the label of their first token
    correct: np.ndarray       # correct chunks, by gold's label at their last token
    tags_correct: int         # tokens whose tag is right (Metric 4)
    eof_dropped: int = 0      # correct chunks ending on the last token, not counted (eof_quirk)

    def totals(self) -> Tuple[int, int, int]:
        return int(self.gold.sum()), int(self.found.sum()), int(self.correct.sum())


@dataclass
class GermEvalCounts:
    """Everything Metrics 1-4 are computed from, for one system."""

    n_tokens: int
    policy: str
    eof_quirk: bool
    levels: Dict[Tuple[str, str], LevelCounts]            # (mode, level) -> counts
    chunks: Dict[Tuple[str, str], LevelChunks]            # (side, level) -> chunks
    m1_sentences: np.ndarray                              # (sentences, 3): gold, found, correct (Metric 1)

    def get(self, mode: str, level: str) -> LevelCounts:
        return self.levels[(mode, level)]


def _correct_pairs(pairs: Pairs, gold: LevelChunks, system: LevelChunks, gold_tags: np.ndarray,
                   sys_tags: np.ndarray, mode: str) -> np.ndarray:
    """Mask of the matcher's pairs that the official scorer counts as correct (before the EOF rule)."""
    same_bounds = (pairs.gold_only == 0) & (pairs.system_only == 0)
    if mode == "strict":
        same = pairs.same_label
        tok_label = TAG_LABEL
    else:
        same = (gold.label[pairs.gold] // 3) == (system.label[pairs.system] // 3)
        tok_label = TAG_BASE
    differ = tok_label[gold_tags] != tok_label[sys_tags]
    cum = np.concatenate(([0], np.cumsum(differ, dtype=np.int64)))
    s, e = gold.start[pairs.gold], gold.last[pairs.gold]
    correct: np.ndarray = same_bounds & same & ((cum[e + 1] - cum[s]) == 0)
    return correct


def germeval_counts(data: GermEvalData, policy: str = "nereval", eof_quirk: bool = True,
                    chunks: Optional[Dict[Tuple[str, str], LevelChunks]] = None,
                    at_end: bool = True, sentences: bool = True) -> GermEvalCounts:
    """The official scorer's counts for one system (both levels, strict and loose); ``at_end`` False: data
    is a piece of the input before its end, where the end-of-input rule does not apply; ``sentences``
    False: no per-sentence Metric 1 counts (``m1_sentences`` has no rows)."""
    chunks = chunks if chunks is not None else level_chunks(data, policy)
    n = data.n_tokens
    offsets = data.sent_offsets
    n_sent = len(offsets) - 1 if sentences else 0
    m1 = np.zeros((n_sent, 3), np.int64)

    def sent(starts: np.ndarray) -> np.ndarray:
        return np.searchsorted(offsets, starts, side="right") - 1

    levels: Dict[Tuple[str, str], LevelCounts] = {}
    for level in LEVELS:
        g, s = chunks[("gold", level)], chunks[("system", level)]
        gt, st = data.row("gold", level), data.row("system", level)
        pairs = match(spanset(g), spanset(s))
        for mode in MODES:
            ok = _correct_pairs(pairs, g, s, gt, st, mode)
            at_eof = ok & (g.last[pairs.gold] == n - 1) & at_end
            dropped = int(at_eof.sum()) if eof_quirk else 0
            if eof_quirk:
                ok &= ~at_eof
            gi = pairs.gold[ok]
            last_label = TAG_LABEL[gt[g.last[gi]]]
            if mode == "strict":
                types, key_g, key_s, key_c = LABELS, g.label, s.label, last_label
                tags_ok = int(np.count_nonzero(gt == st))
            else:
                types, key_g, key_s, key_c = BASES, g.label // 3, s.label // 3, last_label // 3
                tags_ok = int(np.count_nonzero(_LOOSE_SAME[gt.astype(np.intp) * len(TAG_BASE) + st]))
            k = len(types)
            levels[(mode, level)] = LevelCounts(
                types, np.bincount(key_g, minlength=k)[:k], np.bincount(key_s, minlength=k)[:k],
                np.bincount(key_c, minlength=k)[:k], tags_ok, dropped)
            if mode == "strict" and sentences:
                m1[:, 0] += np.bincount(sent(g.start), minlength=n_sent)[:n_sent]
                m1[:, 1] += np.bincount(sent(s.start), minlength=n_sent)[:n_sent]
                m1[:, 2] += np.bincount(sent(g.start[gi]), minlength=n_sent)[:n_sent]
    return GermEvalCounts(n, policy, eof_quirk, levels, chunks, m1)


# ---------------------------------------------------------------------------
# Metric 1 per sentence (what ranking resamples)


@dataclass
class Metric1Stats:
    """Per-sentence Metric 1 counts of one system (outer and inner chunks pooled).

    ``stats[:, 0]`` gold chunks, ``[:, 1]`` found chunks, ``[:, 2]`` correct chunks, each
    filed under the sentence of its first token.  Their column sums are exactly the
    official scorer's totals (including the end-of-input rule when ``eof_quirk``).
    """

    name: str
    stats: np.ndarray      # (sentences, 3) int64
    sent_offsets: np.ndarray

    @property
    def totals(self) -> np.ndarray:
        totals: np.ndarray = self.stats.sum(axis=0)
        return totals

    @property
    def f1(self) -> float:
        return float(self._prf()[2])

    @property
    def precision(self) -> float:
        return self._prf()[0]

    @property
    def recall(self) -> float:
        return self._prf()[1]

    def _prf(self) -> Tuple[float, float, float]:
        g, f, k = (int(x) for x in self.totals)
        return measures.prf(k, f - k, g - k)


def metric1_stats(data: GermEvalData, policy: str = "nereval", eof_quirk: bool = True) -> Metric1Stats:
    """Metric 1's per-sentence (gold, found, correct) counts of one system."""
    c = germeval_counts(data, policy, eof_quirk)
    return Metric1Stats(data.name, c.m1_sentences, data.sent_offsets)
