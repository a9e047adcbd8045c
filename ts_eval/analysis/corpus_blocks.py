"""A corpus (a block the reader gives, or a corpus given whole), cut into blocks of whole sentences for
``analyze``'s statistics (:class:`ts_eval.analysis.study.Statistics` cuts each block it is given).

The models' per-sentence statistics and span contributions (:mod:`ts_eval.models`) are counted a
block of sentences at a time, so that no model's intermediate tables (the matcher's pairs, the
per-span and per-label tables) ever exist for the whole corpus at once: a block is a
:class:`~ts_eval.core.corpus.Corpus` of its own (tokens and spans numbered from the block's first),
the same sentences as the reader's blocks would give (``rank`` counts the same statistics from those).

A corpus is cut only where every statistic is a sum over sentences that a block reproduces: no side
carries conlleval.pl's chunk events (under the ``conlleval`` scheme its "correct chunk" state may run
on across a sentence break; the reader cuts only where every side is outside, which a corpus once read
no longer shows: the reader's blocks are counted each as it is), no side has spans on no token or generated
strings, no model needs more than spans, and no span crosses a sentence break.  Otherwise the corpus is one
block (:func:`sentence_blocks`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, SpanSet

#: tokens a block of sentences holds at least (its last sentence whole), unless it is the corpus's last
BLOCK_TOKENS = 1 << 17


@dataclass
class Block:
    """A block of sentences as a corpus of its own, and where its numbers start in the whole corpus."""

    corpus: Corpus
    first_sentence: int
    first_span: Dict[Optional[str], int]       # side (None: gold, else a system's name) -> its first span's id


def can_cut(corpus: Corpus, names: Sequence[str], needs: Sequence[str]) -> bool:
    """Whether the statistics of ``corpus``'s systems ``names`` may be counted block by block (see the module)."""
    if type(corpus) is not Corpus or any(needs):
        return False
    if any(n not in corpus.system_info for n in names):
        return False
    sides = [(corpus.gold, corpus.gold_info)] + [(corpus.systems[n], corpus.system_info[n]) for n in names]
    for spans, info in sides:
        if spans.conll is not None:
            return False
        if (info.unplaced is not None and len(info.unplaced)) or info.strings is not None:
            return False
        if len(spans) and not (bool(np.all(spans.start[1:] >= spans.start[:-1]))
                               and np.array_equal(corpus.sentence_of(spans.start), corpus.sentence_of(spans.last))):
            return False
    return True


def sentence_blocks(corpus: Corpus, names: Sequence[str], cut: bool, block_tokens: Optional[int] = None
                    ) -> Iterator[Block]:
    """The blocks of ``corpus`` (gold and the systems ``names``), each of whole sentences and at least
    ``block_tokens`` tokens (default :data:`BLOCK_TOKENS`) but the last; the corpus itself, one block, unless
    ``cut`` (:func:`can_cut`)."""
    S = corpus.n_sentences
    if not cut or S <= 1:
        yield Block(corpus, 0, {None: 0, **{n: 0 for n in names}})
        return
    size = max(1, BLOCK_TOKENS if block_tokens is None else block_tokens)
    offsets = corpus.sent_offsets
    a = 0
    while a < S:
        b = int(np.searchsorted(offsets, offsets[a] + size, side="left"))
        b = min(max(b, a + 1), S)
        yield _block(corpus, names, a, b)
        a = b


def blocks_of(corpus: Corpus, names: Sequence[str], needs: Sequence[str] = ()) -> Iterator[Corpus]:
    """``corpus`` (gold and the systems ``names``) as the blocks a reader gives: each of whole sentences, a corpus
    of its own numbered from 0 with its token texts (:func:`sentence_blocks`; the corpus itself where it cannot be
    cut, :func:`can_cut` with the models' ``needs``)."""
    for block in sentence_blocks(corpus, names, can_cut(corpus, names, needs)):
        yield block.corpus


def _block(corpus: Corpus, names: Sequence[str], a: int, b: int) -> Block:
    """Sentences a..b-1 of ``corpus`` as a corpus of their own."""
    t0, t1 = int(corpus.sent_offsets[a]), int(corpus.sent_offsets[b])
    first: Dict[Optional[str], int] = {}

    def side(key: Optional[str], spans: SpanSet, info: SideInfo) -> Tuple[SpanSet, SideInfo]:
        lo, hi = np.searchsorted(spans.start, [t0, t1])
        first[key] = int(lo)
        part = SpanSet(spans.start[lo:hi] - t0, spans.last[lo:hi] - t0, spans.label[lo:hi])
        return part, replace(info, tags=None if info.tags is None else info.tags[t0:t1],
                             token_lines=None if info.token_lines is None else info.token_lines[t0:t1], shape=None)

    gold, gold_info = side(None, corpus.gold, corpus.gold_info)
    systems: Dict[str, SpanSet] = {}
    infos: Dict[str, SideInfo] = {}
    for n in names:
        systems[n], infos[n] = side(n, corpus.systems[n], corpus.system_info[n])
    tokens = corpus.tokens
    doc, opens = corpus.doc_offsets, False
    if doc is not None:        # as a reader's block has them: the documents starting in it, 0 added, its end
        inside = np.asarray(doc)[(doc >= t0) & (doc < t1)] - t0
        opens = bool(len(inside)) and int(inside[0]) == 0
        doc = None if not len(inside) else np.concatenate([[] if opens else [0], inside, [t1 - t0]]).astype(np.int64)
    block = Corpus(corpus.sent_offsets[a:b + 1] - t0, list(corpus.labels), gold, systems, gold_info, infos,
                   scheme=corpus.scheme, scheme_requested=corpus.scheme_requested, policy=corpus.policy,
                   tag_vocab=corpus.tag_vocab, label_map=list(corpus.label_map), doc_offsets=doc,
                   opens_document=opens,
                   tokens=None if tokens is None else block_tokens(tokens, t0, t1 - t0))
    return Block(block, a, first)


class _ColumnSlice:
    """Tokens ``first``..``first + n - 1`` of a column file (``owner``) as a column file of their own: their
    texts, and their bytes for :func:`token_texts` (which then decodes only a block's distinct texts)."""

    def __init__(self, owner: Any, first: int, n: int):
        self.owner, self.first, self.n_tokens, self.has_tokens = owner, first, n, True

    def loaded(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        raw, start, length = self.owner.loaded()
        a, b = self.first, self.first + self.n_tokens
        return raw, start[a:b], length[a:b]

    def texts(self, a: int, b: int) -> List[str]:
        texts: List[str] = self.owner.texts(a + self.first, b + self.first)
        return texts


def block_tokens(tokens: Callable[[int, int], List[str]], first: int, n: int) -> Callable[[int, int], List[str]]:
    """The texts of tokens ``first``..``first + n - 1`` of ``tokens`` (a corpus's), numbered from 0: a column
    file's stay a column file's, read by their bytes."""
    owner: Any = getattr(tokens, "__self__", None)
    if getattr(tokens, "__name__", None) == "texts" and getattr(owner, "has_tokens", False):
        return _ColumnSlice(owner, first, n).texts
    return lambda i, j: tokens(i + first, j + first)


def concatenated(parts: List[np.ndarray], empty: np.ndarray) -> np.ndarray:
    """The parts one after the other (``empty`` when there is none)."""
    return np.concatenate(parts) if parts else empty
