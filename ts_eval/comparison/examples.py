"""Example sentences for the most frequent transitions: the sentence (or a window of it)
around the tokens a transition is about, with the gold, A and B spans as plain data."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..core.corpus import Corpus, SpanSet
from .results import CLASSES, Example, SpanDiff, TokenDiff
from .windows import window_example


def make_example(corpus: Corpus, sides: Dict[str, str], level: str, cls: str, transition: str,
                 focus_first: int, focus_last: int, window: int = 12,
                 sorted_spans: Optional[Dict[str, SpanSet]] = None) -> Example:
    """The sentence around tokens focus_first..focus_last (global), with every side's spans.

    ``sides`` maps the role shown (gold, A, B) to the corpus side name ("gold" or a system);
    ``sorted_spans``: the spans of every role, sorted by start (:func:`sorted_sides`), when at hand."""
    spans, where = {}, {}
    for role, side in sides.items():
        spans[role] = corpus.gold if side == "gold" else corpus.systems[side]
        info = corpus.gold_info if side == "gold" else corpus.system_info[side]
        path, line = info.where(focus_first) if info.token_lines is not None else (info.path, None)
        where[role] = {"path": path, "line": line}
    if sorted_spans is not None:
        return window_example(corpus, sorted_spans, where, level, cls, transition, focus_first, focus_last, window,
                              in_order=True)
    return window_example(corpus, spans, where, level, cls, transition, focus_first, focus_last, window)


def sorted_sides(corpus: Corpus, sides: Dict[str, str]) -> Dict[str, SpanSet]:
    """The spans of every role of ``sides``, sorted by start."""
    out = {}
    for role, side in sides.items():
        ss = corpus.gold if side == "gold" else corpus.systems[side]
        out[role] = ss.sorted() if len(ss) and np.any(np.diff(ss.start) < 0) else ss
    return out


Candidates = List[Tuple[int, Example]]      # (sentence, example) in the order of the corpus


class ExampleSums:
    """The example sentences of a corpus read in blocks.  Which transitions are shown is known at the end
    only, so every transition keeps its first occurrence in each of its first ``keep`` sentences as an
    :class:`Example` (the sentences one transition shows, preferring sentences no earlier one shows, are
    among them): grows with the distinct transitions, not with the corpus."""

    def __init__(self, sides: Dict[str, str], per: int, top: Optional[int]) -> None:
        self.sides = sides
        self.per = per
        # the sentences an earlier transition shows are at most per x (3 classes x top) at each level
        self.keep = None if top is None else per * (1 + len(CLASSES) * top)
        self.found: Dict[Tuple[str, str, str], Candidates] = {}      # (level, class, transition) -> candidates

    def add(self, corpus: Corpus, level: str, cls: str, transitions: Sequence[str], which: np.ndarray,
            first: np.ndarray, last: np.ndarray, at: Tuple[int, int]) -> None:
        """One block's units of one class in the order of the corpus: ``which`` indexes ``transitions`` (their
        names); ``first`` and ``last`` are their tokens; ``at``: the tokens and sentences before the block."""
        if not len(which):
            return
        S = max(corpus.n_sentences, 1)
        spans = sorted_sides(corpus, self.sides)
        sents = corpus.sentence_of(first)
        u, where = np.unique(which.astype(np.int64) * S + sents, return_index=True)   # first unit per sentence
        starts = np.flatnonzero(np.r_[True, np.diff(u // S) != 0])
        for lo, hi in zip(starts.tolist(), np.r_[starts[1:], len(u)].tolist()):
            t = transitions[int(u[lo] // S)]
            got = self.found.setdefault((level, cls, t), [])
            room = hi - lo if self.keep is None else min(hi - lo, self.keep - len(got))
            for k in where[lo:lo + max(room, 0)].tolist():
                e = make_example(corpus, self.sides, level, cls, t, int(first[k]), int(last[k]), sorted_spans=spans)
                e.sentence += at[1]
                e.first_token += at[0]
                got.append((e.sentence, e))

    def result(self, tok: TokenDiff, sd: Optional[SpanDiff]) -> List[Example]:
        """Up to ``per`` example sentences for every top token and span transition of the pair."""
        out: List[Example] = []
        for level, diff in (("token", tok), ("span", sd)):
            shown: Set[int] = set()
            if diff is None:
                continue
            for cls in CLASSES:
                for t in diff.classes[cls].top:
                    out += _first_in_distinct_sentences(self.found.get((level, cls, t.name), []), self.per, shown)
        return out


def _first_in_distinct_sentences(found: Candidates, per: int, shown: Set[int]) -> List[Example]:
    """Up to ``per`` examples in distinct sentences, preferring sentences not ``shown`` yet."""
    picked: List[int] = []
    used = set()
    for fresh in (True, False):
        for k, (s, _) in enumerate(found):
            if len(picked) >= per:
                break
            if s in used or (fresh and s in shown):
                continue
            used.add(s)
            picked.append(k)
    shown.update(used)
    return [found[k][1] for k in sorted(picked)]
