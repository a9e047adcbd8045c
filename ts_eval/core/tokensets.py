"""Token sets of spans that do not own their whole ``start..last`` range.

A span is a contiguous range in the SpanSet; some evaluations need the tokens it
really holds when these are fewer (punctuation removed by FairEval's
``ignore_punct``, or a span file listing fewer tokens).  :class:`TokenSets` keeps
only those irregular spans, as a CSR array of global token indices, beside the
Corpus.  It belongs to the corpus layer: readers build it, models read it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

import numpy as np


@dataclass
class TokenSets:
    """Explicit token sets (global token indices) for the spans of one side whose set
    is not their whole ``start..last`` range (e.g. punctuation removed, or a span file
    listing fewer tokens).  Spans not listed own every token of their range."""

    span: np.ndarray     # sorted span indices (into the SpanSet)
    ptr: np.ndarray      # len(span) + 1 offsets into ``tokens``
    tokens: np.ndarray   # global token indices, sorted within each span

    @staticmethod
    def empty() -> TokenSets:
        z = np.zeros(0, np.int64)
        return TokenSets(z, np.zeros(1, np.int64), z.copy())

    def __len__(self) -> int:
        return len(self.span)

    def irregular(self, n_spans: int) -> np.ndarray:
        """Boolean mask over the side's spans: True where the token set is explicit."""
        mask = np.zeros(n_spans, bool)
        mask[self.span] = True
        return mask

    def get(self, k: int) -> Optional[np.ndarray]:
        """The token set of span ``k``, or None when it is the whole range."""
        i = int(np.searchsorted(self.span, k))
        if i < len(self.span) and self.span[i] == k:
            return self.tokens[self.ptr[i]:self.ptr[i + 1]]
        return None

    @staticmethod
    def from_dict(sets: Mapping[int, Iterable[int]]) -> TokenSets:
        """From ``{span index: token indices}`` (global token indices)."""
        if not sets:
            return TokenSets.empty()
        keys = sorted(sets)
        arrays = [np.unique(np.asarray(list(sets[k]), np.int64)) for k in keys]
        ptr = np.concatenate(([0], np.cumsum([len(a) for a in arrays]))).astype(np.int64)
        return TokenSets(np.asarray(keys, np.int64), ptr,
                         np.concatenate(arrays) if arrays else np.zeros(0, np.int64))
