"""Example sentences for the most frequent transitions: the sentence (or a window of it)
around the tokens a transition is about, with the gold, A and B spans as plain data."""
from __future__ import annotations

from functools import partial
from typing import Callable, Dict, List, Optional, Sequence, Set

import numpy as np

from ..core.corpus import Corpus
from .outcomes import ExampleContext
from .results import CLASSES, GOLD_OUTCOMES, Example, SpanDiff, TokenDiff
from .tokens import change_masks
from .windows import window_example


def make_example(corpus: Corpus, sides: Dict[str, str], level: str, cls: str, transition: str,
                 focus_first: int, focus_last: int, window: int = 12) -> Example:
    """The sentence around tokens focus_first..focus_last (global), with every side's spans.

    ``sides`` maps the role shown (gold, A, B) to the corpus side name ("gold" or a system)."""
    spans, where = {}, {}
    for role, side in sides.items():
        spans[role] = corpus.gold if side == "gold" else corpus.systems[side]
        info = corpus.gold_info if side == "gold" else corpus.system_info[side]
        path, line = info.where(focus_first) if info.token_lines is not None else (info.path, None)
        where[role] = {"path": path, "line": line}
    return window_example(corpus, spans, where, level, cls, transition, focus_first, focus_last, window)


def pair_examples(corpus: Corpus, a: str, b: str, g: np.ndarray, xa: np.ndarray, xb: np.ndarray,
                  vocab: Sequence[str], tok: TokenDiff, sd: Optional[SpanDiff], ctx: Optional[ExampleContext],
                  per: int) -> List[Example]:
    """Up to ``per`` example sentences for every top token and span transition of the pair."""
    sides = {"gold": "gold", "A": a, "B": b}
    out: List[Example] = []
    masks = change_masks(g, xa, xb)
    index = {v: k for k, v in enumerate(vocab)}
    shown_tok: Set[int] = set()
    shown_span: Set[int] = set()
    for cls in CLASSES:
        m = masks[cls]
        for t in tok.classes[cls].top:
            ids = [index[x] for x in t.labels]
            sel = m & (xa == ids[-2]) & (xb == ids[-1])
            if cls == "changed_error":
                sel &= g == ids[0]
            out += _first_in_distinct_sentences(corpus, np.flatnonzero(sel), np.flatnonzero(sel), per,
                                                partial(make_example, corpus, sides, "token", cls, t.name),
                                                shown_tok)
    if sd is not None and ctx is not None:      # (both or neither: span_diff gives them)
        gold, sa, sb = corpus.gold, corpus.systems[a], corpus.systems[b]
        W = len(GOLD_OUTCOMES) + 1
        for k, cls in enumerate(CLASSES):
            for t in sd.classes[cls].top:
                if t.labels == ("FP", "TN"):
                    idx, src = ctx.dropped, sa
                elif t.labels == ("TN", "FP"):
                    idx, src = ctx.added, sb
                else:
                    key = GOLD_OUTCOMES.index(t.labels[0]) * W + GOLD_OUTCOMES.index(t.labels[1])
                    idx = np.flatnonzero((ctx.g_cls == k) & (ctx.gold_key == key))
                    src = gold
                out += _first_in_distinct_sentences(
                    corpus, src.start[idx], src.last[idx], per,
                    partial(make_example, corpus, sides, "span", cls, t.name), shown_span)
    return out


def _first_in_distinct_sentences(corpus: Corpus, first: np.ndarray, last: np.ndarray, per: int,
                                 make: Callable[[int, int], Example], shown: Set[int]) -> List[Example]:
    """Up to ``per`` examples in distinct sentences, preferring sentences not ``shown`` yet."""
    if not len(first):
        return []
    first, last = np.asarray(first), np.asarray(last)
    sents = corpus.sentence_of(first).tolist()
    picked: List[int] = []
    used = set()
    for fresh in (True, False):
        for k, s in enumerate(sents):
            if len(picked) >= per:
                break
            if s in used or (fresh and s in shown):
                continue
            used.add(s)
            picked.append(k)
    shown.update(used)
    return [make(int(first[k]), int(last[k])) for k in sorted(picked)]
