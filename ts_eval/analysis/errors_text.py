"""The words of spans: token texts read once, the surface string of every span as an id (equal
strings share one), and example sentences around a span.

Strings are cut from the token texts of distinct ranges only (many systems mark the same
ranges), so a corpus's 160 000 spans of 28 systems cost a few thousand joins.  Without token
texts (files read as tags only) every string is empty: :attr:`Texts.available` is then False.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..comparison.results import Example
from ..comparison.windows import window_example
from ..core.corpus import Corpus, SpanSet
from .attributes import Tokens, token_texts

#: tokens shown on each side of an example's span in the error analysis, and of a gold suspect's
#: (:mod:`ts_eval.analysis.errors`' and :mod:`ts_eval.analysis.gold_suspects`' ``window``)
WINDOW = 12


def range_strings(tokens: Optional[Union[Sequence[str], Shifted]], n_tokens: int, start: np.ndarray, last: np.ndarray,
                  lower: bool = False) -> Tuple[np.ndarray, List[str]]:
    """:meth:`Texts.strings` of spans over ``tokens`` (texts of ``n_tokens`` tokens, sliced ``tokens[a:b]``,
    the strings of many ranges at once with ``tokens.joined(a, b, lower)`` where it has it; None: no texts)."""
    start, last = np.asarray(start, np.int64), np.asarray(last, np.int64)
    if tokens is None or not len(start):
        return np.zeros(len(start), np.int64), [""]
    key = start * (n_tokens + 1) + last
    ranges, inverse = np.unique(key, return_inverse=True)
    first, end = ranges // (n_tokens + 1), ranges % (n_tokens + 1) + 1
    joined = getattr(tokens, "joined", None)
    if joined is not None:
        text = joined(first, end, lower)
    else:
        text = [" ".join(tokens[a:b]) for a, b in zip(first.tolist(), end.tolist())]
        if lower:
            text = [t.lower() for t in text]
    names = sorted(set(text))
    index = {t: k for k, t in enumerate(names)}
    ids = np.fromiter(map(index.__getitem__, text), np.int64, len(text))
    return ids[inverse.reshape(-1)], names


class Shifted:
    """Token texts seen from a block: ``tokens[a:b]`` of the block is ``whole[a + first:b + first]`` (and so are
    the ranges of :meth:`joined`); ``token_id`` its ``n`` tokens' numbers among ``distinct``, the whole's texts
    (what :class:`ts_eval.analysis.errors_kept.Kept` reads of a block's texts, as of a block's own
    :class:`~ts_eval.analysis.attributes.Tokens`)."""

    def __init__(self, whole: Tokens, first: int, n: Optional[int] = None):
        self.whole, self.first = whole, first
        self.token_id = whole.token_id[first:None if n is None else first + n]
        self.distinct = whole.distinct

    def __getitem__(self, cut: slice) -> Sequence[str]:
        return self.whole[cut.start + self.first:cut.stop + self.first]

    def joined(self, a: np.ndarray, b: np.ndarray, lower: bool = False) -> List[str]:
        return self.whole.joined(np.asarray(a) + self.first, np.asarray(b) + self.first, lower)


class Texts:
    """Token texts of a corpus, and surface strings of spans over them."""

    def __init__(self, corpus: Corpus, tokens: Optional[Tokens] = None):
        self.corpus = corpus
        self.tokens: Optional[Tokens] = tokens if tokens is not None else (
            token_texts(corpus)[0] if corpus.tokens is not None and corpus.n_tokens else None)
        self._lower: Optional[np.ndarray] = None

    @property
    def available(self) -> bool:
        return self.tokens is not None

    def strings(self, start: np.ndarray, last: np.ndarray, lower: bool = False) -> Tuple[np.ndarray, List[str]]:
        """(per span the id of its string, the strings by id): the tokens from ``start`` to ``last``
        (inclusive) joined by a space, lower-cased with ``lower``; ids follow the strings' sorted order."""
        return range_strings(self.tokens, self.corpus.n_tokens, start, last, lower)

    def lower_ids(self) -> np.ndarray:
        """Per token an id of its lower-cased text (equal texts, equal ids; int32 while they fit)."""
        if self._lower is None:
            if self.tokens is None:
                self._lower = np.zeros(self.corpus.n_tokens, np.int64)
            else:     # each distinct token lower-cased once: ids in the order the lower-cased texts first occur
                self._lower = self.tokens.lower()[0][self.tokens.token_id]      # 4 bytes a token
        return self._lower

    def text(self, start: int, last: int) -> str:
        """The string of one span (tokens ``start`` to ``last``, inclusive)."""
        return " ".join(self.tokens[start:last + 1]) if self.tokens is not None else ""


def one_span(label: int, start: int, last: int) -> SpanSet:
    """A span set of one span (an agreed alternative shown in an example)."""
    return SpanSet(np.array([start], np.int64), np.array([last], np.int64), np.array([label], np.int32))


def gold_where(corpus: Corpus, token: int) -> Dict[str, Any]:
    """The gold file and line of a token (line None when the input has no lines)."""
    info = corpus.gold_info
    path, line = info.where(token) if info.token_lines is not None else (info.path, None)
    return {"path": path, "line": line}


def side_where(corpus: Corpus, name: str, token: int) -> Dict[str, Any]:
    """A system's file and line of a token."""
    info = corpus.system_info.get(name)
    if info is None:
        return {"path": None, "line": None}
    path, line = info.where(token) if info.token_lines is not None else (info.path, None)
    return {"path": path, "line": line}


def example(corpus: Corpus, spans: Dict[str, SpanSet], where: Dict[str, Dict[str, Any]], kind: str, what: str,
            first: int, last: int, window: int) -> Example:
    """The sentence around tokens ``first``..``last`` with each role's spans (level ``span``)."""
    return window_example(corpus, spans, where, "span", kind, what, first, last, window)


def focus(gold: Sequence[int], system: Sequence[int]) -> Tuple[int, int]:
    """The tokens an error is about: the union of its gold span (first, last) and its system span
    (either may be (-1, -1): no span)."""
    firsts = [x for x in (gold[0], system[0]) if x >= 0]
    lasts = [x for x in (gold[1], system[1]) if x >= 0]
    return min(firsts), max(lasts)
