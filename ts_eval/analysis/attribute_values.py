"""Every attribute's values, read a block of sentences at a time, and at the end its buckets (issue 32).

``analyze`` reads its input in blocks of whole sentences (:meth:`ts_eval.io.inputs.Inputs.read`; a corpus
read whole is cut by :func:`ts_eval.analysis.corpus_blocks.sentence_blocks`).  :class:`AttributeValues` is
given each block in order (:meth:`~AttributeValues.add`): it reads the block's span values (gold's and each
analysed system's) and sentence values with the block's own :class:`~ts_eval.analysis.attributes.Text` and
keeps of them only codes into a table of the attribute's distinct values (one byte a span or sentence while
an attribute has at most 256 distinct values, two while at most 65,536, ...).  A block's labels are names
(its own sorted labels), so a label a later block brings is simply one more value.

At the end (:meth:`~AttributeValues.assigned`) the buckets are found from the distinct values and how many
gold spans (and others) have each: equal frequency over the gold values never splits a value, so the
counts per value are all the rule reads (:func:`ts_eval.analysis.buckets.numeric_buckets`); every span's
and every sentence's bucket is its value's.  The spans are numbered as ``analyze``'s statistics number
them: gold's in corpus order, then each system's.

The ``document`` slice numbers each block's documents on from the last block's (a block that does not open
with a -DOCSTART- goes on with the last document) and names them ``doc 1``, ``doc 2``, ... at the end.

Read whole, up front: InterpretEval's attributes (their buckets are given, ``extra["assigned"]``: its rules
read the whole corpus's tag sequences against the training tables) and record fields (their values are
known for every sentence before the blocks, read again from gold's JSON Lines records and checked against
the corpus's sentences, ``extra["every_sentence"]``; they are cut to each block here).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus
from .attributes import CATEGORICAL, SENTENCE, Attribute, Coded, Text, document_numbers
from .buckets import FEW_VALUES, Buckets, categorical_buckets, numeric_buckets

#: (the buckets, the bucket of every span, of every sentence (None for a span attribute)) of one attribute
Assigned = Tuple[Buckets, np.ndarray, Optional[np.ndarray]]


def code_type(n: int) -> Any:
    """The narrowest unsigned integer type that numbers ``n`` distinct values."""
    return np.uint8 if n <= 1 << 8 else np.uint16 if n <= 1 << 16 else np.uint32 if n <= 1 << 32 else np.uint64


class _Table:
    """The distinct values of one attribute, numbered in order of first occurrence, and the codes of its
    values (a list of parts, each a list of blocks' codes: the sentences, or gold's and each system's spans)."""

    def __init__(self, numeric: bool, parts: int):
        self.numeric = numeric
        self.index: Dict[Any, int] = {}         # a value (a number: its float64 bits) -> its code
        self.values: List[Any] = []
        self.parts: List[List[np.ndarray]] = [[] for _ in range(parts)]
        self.gold = np.zeros(0, np.int64)       # a sentence attribute: the gold spans of each value's sentences

    def codes(self, values: Any) -> np.ndarray:
        """The codes of ``values`` (new values get the next codes), in the narrowest type for the table."""
        if self.numeric:
            out: np.ndarray = self._numbers(np.asarray(values, float).reshape(-1) + 0.0)      # (-0.0 is 0.0)
        elif isinstance(values, Coded):     # a code a name the values have, then the values' codes looked up
            present = np.flatnonzero(np.bincount(values.codes, minlength=len(values.names))) if len(values) \
                else np.zeros(0, np.int64)
            mine = np.zeros(len(values.names), np.int64)
            mine[present] = [self._code(values.names[j], values.names[j]) for j in present.tolist()]
            out = mine[values.codes]
        else:
            every = np.asarray(values, dtype=object).reshape(-1)
            found = set(every.tolist())
            if len(found) > FEW_VALUES:        # one look-up a value
                out = np.fromiter((self._code(x, x) for x in every.tolist()), np.int64, len(every))
            else:                               # a comparison a value and distinct value, in numpy's loop
                out = np.zeros(len(every), np.int64)
                one = np.empty((), object)
                for x in found:
                    one[()] = x
                    out[every == one] = self._code(x, x)
        return out.astype(code_type(len(self.values)))

    def _numbers(self, v: np.ndarray) -> np.ndarray:
        """The codes of numbers ``v`` (a value's key: its float64 bits; new values numbered in their order)."""
        if len(v) and v.min() >= 0 and v.max() < 1 << 16 and np.array_equal(whole := v.astype(np.int64), v):
            present = np.flatnonzero(np.bincount(whole))     # small whole numbers (lengths): counted, not sorted
            code = np.zeros(int(present[-1]) + 1, np.int64)
            code[present] = [self._code(b, float(x)) for x, b in
                             zip(present.tolist(), present.astype(float).view(np.int64).tolist())]
            return code[whole]
        v[np.isnan(v)] = np.nan                                  # one nan
        distinct, inverse = np.unique(v.view(np.int64), return_inverse=True)
        code = np.array([self._code(b, float(x)) for b, x in
                         zip(distinct.tolist(), distinct.view(np.float64).tolist())], np.int64)
        return code[inverse.reshape(-1)] if len(v) else np.zeros(0, np.int64)

    def _code(self, key: Any, value: Any) -> int:
        code = self.index.get(key)
        if code is None:
            code = self.index[key] = len(self.values)
            self.values.append(value)
        return code

    def part(self, k: int) -> np.ndarray:
        """The codes of part ``k``, every block's one after the other."""
        blocks = self.parts[k]
        return np.concatenate(blocks) if blocks else np.zeros(0, np.uint8)

    def counts(self, codes: np.ndarray) -> np.ndarray:
        return np.bincount(codes, minlength=len(self.values)) if len(codes) else np.zeros(len(self.values), np.int64)


class AttributeValues:
    """The values of ``attrs`` over the blocks given (:meth:`add`), for gold and the systems ``names``; then
    each attribute's buckets and the bucket of every span and sentence (:meth:`assigned`).  ``spec``: the
    buckets asked for (:func:`ts_eval.analysis.buckets.parse_bucket_spec`)."""

    def __init__(self, attrs: Sequence[Attribute], names: Sequence[str], spec: Dict[str, Any]):
        self.attrs, self.names, self.spec = list(attrs), list(names), spec
        self.tables = [_Table(a.kind != CATEGORICAL, 1 if a.level == SENTENCE else 1 + len(self.names))
                       for a in self.attrs]
        self.sentences = 0
        self.documents = 0      # the documents numbered so far (a block may go on with the last one)
        self.reads_text = any(a.reads_text for a in self.attrs if a.extra.get("assigned") is None)

    def add(self, block: Corpus) -> None:
        """Read the values of the next block of sentences (a corpus of its own, numbered from its first)."""
        text = Text(block) if self.reads_text and block.tokens is not None else None
        sides = [block.gold] + [block.systems[n] for n in self.names]
        gold_sentence: Optional[np.ndarray] = None
        for attr, table in zip(self.attrs, self.tables):
            if attr.extra.get("assigned") is not None:
                continue
            t = text if attr.reads_text else None
            if attr.level != SENTENCE:
                for part, spans in zip(table.parts, sides):
                    part.append(table.codes(attr.values(block, spans, t)))
                continue
            every = attr.extra.get("every_sentence")
            values = every[self.sentences:self.sentences + block.n_sentences] if every is not None \
                else self._documents(block) if attr.extra.get("documents") else attr.values(block, t)
            codes = table.codes(values)
            table.parts[0].append(codes)
            if gold_sentence is None:
                gold_sentence = block.sentence_of(block.gold.start)
            gold = table.counts(codes[gold_sentence])
            gold[:len(table.gold)] += table.gold
            table.gold = gold
        self.sentences += block.n_sentences
        self.documents += self._documents_added(block)

    def _documents(self, block: Corpus) -> np.ndarray:
        """Per sentence of ``block`` the number of its document in the corpus (the block's first goes on with
        the last block's unless a -DOCSTART- opens it)."""
        if block.doc_offsets is None:           # no -DOCSTART- in the block: the last document goes on
            return np.full(block.n_sentences, max(self.documents - 1, 0), np.int64)
        goes_on = not block.opens_document and self.documents > 0
        return document_numbers(block) + self.documents - goes_on

    def _documents_added(self, block: Corpus) -> int:
        if not any(a.extra.get("documents") for a in self.attrs):
            return 0
        if block.doc_offsets is None:
            return 0 if self.documents else 1
        return len(block.doc_offsets) - 1 - (not block.opens_document and self.documents > 0)

    def assigned(self, k: int, span_sentence: np.ndarray) -> Assigned:
        """The buckets of attribute ``k`` and the bucket of every span (gold's, then each system's, in corpus
        order; int64) and of every sentence for a sentence attribute (``span_sentence``: every span's
        sentence, in that order)."""
        attr, table = self.attrs[k], self.tables[k]
        given: Optional[Assigned] = attr.extra.get("assigned")
        if given is not None:
            return given
        if attr.level == SENTENCE:
            codes = [table.part(0)]
            gold = np.zeros(len(table.values), np.int64)
            gold[:len(table.gold)] = table.gold
            others = table.counts(codes[0])
        else:
            codes = [table.part(i) for i in range(len(table.parts))]
            gold = table.counts(codes[0])
            others = sum((table.counts(c) for c in codes[1:]), np.zeros(len(table.values), np.int64))
        if attr.kind == CATEGORICAL:
            if attr.extra.get("documents"):       # doc 1, doc 2, ...: the documents that have a sentence, in order
                rank = np.argsort(np.argsort(np.asarray(table.values, np.int64), kind="stable"), kind="stable")
                table.values = [f"doc {r + 1}" for r in rank.tolist()]
            values = np.empty(len(table.values), object)
            values[:] = table.values
            bk = categorical_buckets(attr, table.values)
        else:
            values = np.asarray(table.values, float)
            bk = numeric_buckets(attr, values, gold, others, self.spec["k"], self.spec["edges"].get(attr.name))
        of_code = bk.assign(values)
        if attr.level == SENTENCE:
            sentence_bucket = of_code[codes[0]]
            return bk, sentence_bucket[span_sentence], sentence_bucket
        return bk, of_code[np.concatenate(codes)], None


