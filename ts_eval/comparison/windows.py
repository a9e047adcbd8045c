"""An example sentence as plain data: the window of a sentence around some tokens, with the spans of
every role shown (used by the comparison's examples and the error analysis's; it imports only the
corpus and the comparison's result classes, so that both can use it)."""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

from ..core.arrays import search
from ..core.corpus import Corpus, SpanSet
from .results import Example


def _sentence_spans(spans: SpanSet, a: int, b: int) -> List[Tuple[int, int, int]]:
    lo, hi = search(spans.start, [a, b])
    return [(int(lab), int(s), int(e)) for s, e, lab in
            zip(spans.start[lo:hi].tolist(), spans.last[lo:hi].tolist(), spans.label[lo:hi].tolist())]


def window_example(corpus: Corpus, spans: Dict[str, SpanSet], where: Dict[str, Dict[str, Any]], level: str,
                   cls: str, transition: str, focus_first: int, focus_last: int, window: int = 12,
                   in_order: bool = False) -> Example:
    """The sentence around tokens focus_first..focus_last (global), cut to ``window`` tokens on each
    side, with the spans of every role (``spans``: role -> its spans; ``where``: role -> its path and line;
    ``in_order``: the spans are known to be sorted by start)."""
    s = int(np.searchsorted(corpus.sent_offsets, focus_first, side="right")) - 1
    sa, sb = int(corpus.sent_offsets[s]), int(corpus.sent_offsets[s + 1])
    a, b = max(sa, focus_first - window), min(sb, focus_last + 1 + window)
    toks = corpus.tokens(a, b) if corpus.tokens is not None else [f"t{i - sa}" for i in range(a, b)]
    shown = {}
    for role, ss in spans.items():
        ss = ss.sorted() if not in_order and len(ss) and np.any(np.diff(ss.start) < 0) else ss
        out = []
        for lab, st, en in _sentence_spans(ss, sa, sb):
            if en < a or st >= b:
                continue
            out.append((corpus.labels[lab], max(st, a) - a, min(en + 1, b) - a))   # end exclusive
        shown[role] = out
    return Example(level, cls, transition, s, a, toks, list(range(focus_first - a, focus_last - a + 1)),
                   shown, dict(where), a > sa, b < sb)
