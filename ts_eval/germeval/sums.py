"""Running sums of a GermEval report over pieces of the input (whole sentences, no chunk cut; see
:func:`ts_eval.io.germeval.germeval_blocks`).

Every number of the report is a sum over sentences: the scorer's chunk and tag counts per level and
mode, the validation counts, the TS unit counts (both levels at once, and each level), and the fair
counts per level.  :class:`GermEvalSums` adds each piece's (computed by :mod:`.evaluate`'s per-piece
functions) and keeps nothing else, so reading 10M tokens keeps one piece and these tables.  The
end-of-input rule applies in the last piece only (:func:`~.counts.germeval_counts`'s ``at_end``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, Optional, Tuple

import numpy as np

from ..fair.types import FairResult
from .counts import GermEvalCounts, LevelCounts

if TYPE_CHECKING:       # (made by the TS model; added here without it: one floor less for the germeval study)
    from ..models.ts import TSCounts

NONE = np.iinfo(np.int64).max      # FairResult.label_first of a label without gold spans


def _plus_level(a: LevelCounts, b: LevelCounts) -> LevelCounts:
    return LevelCounts(a.types, a.gold + b.gold, a.found + b.found, a.correct + b.correct,
                       a.tags_correct + b.tags_correct, a.eof_dropped + b.eof_dropped)


def _plus_optional(a: Optional[np.ndarray], b: Optional[np.ndarray]) -> Optional[np.ndarray]:
    return None if a is None or b is None else a + b


def plus_ts(a: TSCounts, b: TSCounts) -> TSCounts:
    """The TS counts of two pieces of a corpus, one after the other."""
    return dataclasses.replace(a, tok=a.tok + b.tok, sep=a.sep + b.sep, n_tokens=a.n_tokens + b.n_tokens,
                               n_separators=a.n_separators + b.n_separators,
                               confusion=_plus_optional(a.confusion, b.confusion),
                               confusion_sep=_plus_optional(a.confusion_sep, b.confusion_sep))


def plus_fair(a: FairResult, b: FairResult, gold_before: int) -> FairResult:
    """The fair counts of two pieces of a corpus, one after the other (``b``'s first gold spans per label
    moved after the ``gold_before`` gold spans of ``a``); without outcomes per span or per sentence."""
    first_b = np.where(b.label_first == NONE, NONE, b.label_first + gold_before)
    return dataclasses.replace(a, fair=a.fair + b.fair, traditional=a.traditional + b.traditional,
                               confusion=a.confusion + b.confusion, gold_count=a.gold_count + b.gold_count,
                               system_count=a.system_count + b.system_count,
                               label_first=np.minimum(a.label_first, first_b), outcomes=None, sentence_counts=None)


@dataclass
class GermEvalSums:
    """The report's counts over the pieces added so far."""

    policy: str
    eof_quirk: bool
    n_tokens: int = 0
    n_sentences: int = 0
    comment_lines: int = 0
    levels: Dict[Tuple[str, str], LevelCounts] = field(default_factory=dict)
    validation: Dict[str, Dict[str, int]] = field(default_factory=dict)
    gold_spans: Dict[str, int] = field(default_factory=dict)
    ts: Optional[TSCounts] = None
    ts_levels: Dict[str, TSCounts] = field(default_factory=dict)
    fair: Dict[str, Tuple[FairResult, int]] = field(default_factory=dict)    # level -> (sums, gold spans)

    def add_counts(self, c: GermEvalCounts, validation: Dict[str, Dict[str, int]], sentences: int,
                   comment_lines: int) -> None:
        """A piece's scorer counts and validation counts."""
        gold = {lv: len(ch) for (side, lv), ch in c.chunks.items() if side == "gold"}
        self._add(c.n_tokens, sentences, comment_lines, c.levels, validation, gold)

    def _add(self, tokens: int, sentences: int, comment_lines: int, levels: Dict[Tuple[str, str], LevelCounts],
             validation: Dict[str, Dict[str, int]], gold_spans: Dict[str, int]) -> None:
        self.n_tokens += tokens
        self.n_sentences += sentences
        self.comment_lines += comment_lines
        for key, lc in levels.items():
            self.levels[key] = _plus_level(self.levels[key], lc) if key in self.levels else lc
        for row, counts in validation.items():
            old = self.validation.get(row)
            self.validation[row] = counts if old is None else {k: old[k] + v for k, v in counts.items()}
        for lv, n in gold_spans.items():
            self.gold_spans[lv] = self.gold_spans.get(lv, 0) + n

    def add_sums(self, other: GermEvalSums) -> None:
        """The sums of the pieces that follow these (a shard of the input after the shards before)."""
        self._add(other.n_tokens, other.n_sentences, other.comment_lines, other.levels, other.validation,
                  other.gold_spans)
        if other.ts is not None:
            self.add_ts(other.ts, other.ts_levels)
        self.add_fair(other.fair)

    def add_ts(self, both: TSCounts, levels: Dict[str, TSCounts]) -> None:
        """A piece's TS counts (both levels at once, and each level)."""
        self.ts = both if self.ts is None else plus_ts(self.ts, both)
        for lv, t in levels.items():
            self.ts_levels[lv] = plus_ts(self.ts_levels[lv], t) if lv in self.ts_levels else t

    def add_fair(self, results: Dict[str, Tuple[FairResult, int]]) -> None:
        """A piece's fair counts per level, with its gold spans (cut at sentence ends)."""
        for lv, (r, n_gold) in results.items():
            if lv in self.fair:
                old, before = self.fair[lv]
                self.fair[lv] = (plus_fair(old, r, before), before + n_gold)
            else:
                self.fair[lv] = (r, n_gold)

    def counts(self) -> GermEvalCounts:
        """The scorer's counts of everything added (without chunks or per-sentence counts)."""
        return GermEvalCounts(self.n_tokens, self.policy, self.eof_quirk, dict(self.levels), {},
                              np.zeros((0, 3), np.int64))
