"""Texts with character-offset spans -> :class:`Documents` (shared by JSON Lines text and brat).

Tokens come from the record's own token offsets when it has them, else from the
default tokenizer (:mod:`ts_eval.io.tokenizer`).  Spans that do not fall on token
boundaries are counted and listed in ``notes["misaligned_spans"]`` and handled by
``align``; ``strict`` makes the first one an error.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

import numpy as np

from ..errors import Hint, InputError
from .documents import TOKEN_SEP, Documents, build_documents
from .formats import ALIGN_MODES
from .jsonl import is_int, short
from .tokenizer import align_spans, token_keys, tokenize


class MisalignedSpanError(InputError):
    """A span whose offsets do not fall on token boundaries (``align="strict"``)."""


@dataclass
class CharDocs:
    """What a text reader collects before tokenizing: per document id, text, line, own tokens."""

    path: str
    fmt: str
    ids: List[Optional[str]] = field(default_factory=list)
    texts: List[str] = field(default_factory=list)
    lines: List[int] = field(default_factory=list)
    own_tokens: List[Optional[Tuple[List[int], List[int]]]] = field(default_factory=list)  # starts, ends (chars)
    span_doc: List[int] = field(default_factory=list)
    span_start: List[int] = field(default_factory=list)
    span_end: List[int] = field(default_factory=list)
    span_label: List[str] = field(default_factory=list)
    span_line: List[Optional[int]] = field(default_factory=list)
    files: List[str] = field(default_factory=list)   # per document the file its spans are in (brat's .ann)

    #: the documents of the input before these (a block's): they number the messages
    first: int = 0

    def where(self, d: int) -> str:
        name = f"document {self.ids[d]!r}" if self.ids[d] is not None else f"document {self.first + d + 1}"
        return name

    def add_span(self, d: int, start: Any, end: Any, label: Any, line: Optional[int]) -> None:
        """Keep one character span as given; :meth:`validate` checks them all at once."""
        self.span_doc.append(d)
        self.span_start.append(start)
        self.span_end.append(end)
        self.span_label.append(label)
        self.span_line.append(line)

    def check_span(self, k: int) -> None:
        """Raise the error for span ``k`` if it is bad (offsets, range, label)."""
        d, start, end, label, line = (self.span_doc[k], self.span_start[k], self.span_end[k], self.span_label[k],
                                      self.span_line[k])
        text = self.texts[d]
        if not is_int(start) or not is_int(end):
            raise InputError(f"{self.where(d)}: span offsets {short(start)}, {short(end)} are not integers;"
                             " expected character offsets", self.path, line)
        if not 0 <= start < end <= len(text):
            raise InputError(f"{self.where(d)}: span [{start}, {end}) is outside the text (length {len(text)}) "
                             "or empty; expected 0 <= start < end <= length", self.path, line)
        if not isinstance(label, str) or not label:
            raise InputError(f"{self.where(d)}: span label {short(label)} is not a non-empty string",
                             self.path, line)

    def validate(self, text_lengths: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Check every span (vectorised; the first bad one is reported); (doc, start, end) arrays.
        ``text_lengths``: the texts' lengths, when the caller has them."""
        tl = np.fromiter(map(len, self.texts), np.int64, len(self.texts)) if text_lengths is None else text_lengths
        n = len(self.span_doc)
        doc = np.asarray(self.span_doc, np.int64)
        ok = set(map(type, self.span_start)) <= {int} and set(map(type, self.span_end)) <= {int} \
            and set(map(type, self.span_label)) <= {str} and "" not in set(self.span_label)
        if ok:
            try:
                cs, ce = np.asarray(self.span_start, np.int64), np.asarray(self.span_end, np.int64)
            except OverflowError:   # an offset beyond 64 bits: the span by span check names it
                ok = False
            else:
                ok = not np.any((cs < 0) | (cs >= ce) | (ce > tl[doc])) if n else True
        if not ok:
            for k in range(n):
                self.check_span(k)
        if not n:
            return doc, np.zeros(0, np.int64), np.zeros(0, np.int64)
        return doc, cs, ce


def _own_token_arrays(cd: CharDocs, auto: Tuple[np.ndarray, np.ndarray, np.ndarray]
                      ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token offsets: the documents' own where given (checked: in text order, not overlapping, inside the text;
    the first bad one is reported), the default tokenizer's elsewhere."""
    a_off, a_s, a_e = auto
    own = np.fromiter((t is not None for t in cd.own_tokens), bool, len(cd.own_tokens))
    docs = np.flatnonzero(own)
    given: List[Tuple[List[int], List[int]]] = [cd.own_tokens[d] or ([], []) for d in docs.tolist()]
    n_own = np.fromiter((len(t[0]) for t in given), np.int64, len(given))
    flat = [list(itertools.chain.from_iterable(t[j] for t in given)) for j in (0, 1)]
    try:
        s, e = (np.array(x, np.int64) for x in flat)
    except OverflowError:       # an offset beyond 64 bits (bad: the message shows it as given)
        s, e = (np.array([max(min(v, 1 << 62), -1) for v in x], np.int64) for x in flat)
    first = np.cumsum(n_own) - n_own                 # each own-token document's first token in s, e
    doc_of = np.repeat(np.arange(len(docs)), n_own)
    lengths = np.fromiter((len(cd.texts[d]) for d in docs.tolist()), np.int64, len(docs))
    follows = np.ones(len(s), bool)
    follows[first[n_own > 0]] = False
    bad = (s < 0) | (e <= s) | (e > lengths[doc_of]) | (follows & (s < np.concatenate(([0], e[:-1]))))
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        j, d = int(doc_of[k]), int(docs[doc_of[k]])
        start, end = flat[0][k], flat[1][k]
        raise InputError(f"{cd.where(d)}: token {k - int(first[j])} has offsets [{start}, {end}); expected tokens "
                         f"in text order, not overlapping, inside the text (length {lengths[j]})",
                         cd.path, cd.lines[d])
    counts = np.diff(a_off)
    counts[docs] = n_own
    off = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(counts, out=off[1:])
    from_own = np.repeat(own, counts)
    auto_kept = np.repeat(~own, np.diff(a_off))
    out_s, out_e = np.empty(int(off[-1]), np.int64), np.empty(int(off[-1]), np.int64)
    out_s[from_own], out_e[from_own] = s, e
    out_s[~from_own], out_e[~from_own] = a_s[auto_kept], a_e[auto_kept]
    return off, out_s, out_e


def to_documents(cd: CharDocs, align: str = "strict", tokenizer: str = "default", defer: bool = False) -> Documents:
    """Tokenize (``tokenizer``: default or whitespace, where a document has no tokens of its own),
    align the character spans to tokens and build the Documents.  ``defer``: a span off the token boundaries
    under ``align="strict"`` is not raised but kept as the Documents' ``deferred`` error (the joiner raises it
    once the document's text is compared with gold's: a text that differs is the error to report)."""
    if align not in ALIGN_MODES:
        raise ValueError(f"align {align!r}: expected one of {', '.join(ALIGN_MODES)}")
    if not cd.texts:
        raise InputError("no documents; expected at least one", cd.path)
    auto = tokenize(cd.texts, tokenizer)
    if cd.own_tokens.count(None) != len(cd.own_tokens):
        off, ts, te = _own_token_arrays(cd, auto)
    else:
        off, ts, te = auto
    lens = np.diff(off)
    if np.any(lens == 0):
        d = int(np.flatnonzero(lens == 0)[0])
        raise InputError(f"{cd.where(d)}: the text {cd.texts[d][:40]!r} has no tokens; expected at least one",
                         cd.path, cd.lines[d])
    tl = np.fromiter(map(len, cd.texts), np.int64, len(cd.texts))
    doc, cs, ce = cd.validate(tl)
    b, e, aligned = align_spans(off, ts, te, tl, doc, cs, ce, "expand" if defer and align == "strict" else align)
    listed = []
    deferred = None
    for k in np.flatnonzero(~aligned).tolist():
        d = int(doc[k])
        item = {"document": cd.ids[d] if cd.ids[d] is not None else cd.first + d + 1, "line": cd.lines[d],
                "start": int(cs[k]), "end": int(ce[k]), "label": cd.span_label[k],
                "text": cd.texts[d][cs[k]:ce[k]]}
        if align == "strict":
            in_file = bool(cd.files) and cd.span_line[k] is not None   # brat: the .ann line of the span
            err = MisalignedSpanError(
                [f"{cd.where(d)}: span [{cs[k]}, {ce[k]}) {item['text']!r} ({item['label']}) does not fall on "
                 "token boundaries; expected aligned offsets (or give ", Hint("align", "expand", "contract"), ")"],
                cd.files[d] if in_file else cd.path, cd.span_line[k] if in_file else cd.lines[d])
            if not defer:
                raise err
            deferred = (d, err)
            break
        item["tokens"] = [int(b[k]), int(e[k])] if b[k] < e[k] else None
        listed.append(item)
    keep = b < e
    dropped = int((~keep).sum())
    notes = {"tokenizer": tokenizer, "align": align, "misaligned": len(listed), "dropped_no_token": dropped,
             "misaligned_spans": listed}
    def keys() -> List[str]:
        return token_keys(cd.texts, off, ts, te, TOKEN_SEP)
    kept = np.flatnonzero(keep)
    labels = [cd.span_label[k] for k in kept.tolist()] if dropped else cd.span_label
    docs = build_documents(cd.path, cd.fmt, lens, cd.ids, keys, doc[kept], b[kept], e[kept], labels,
                           lines=cd.lines, texts=cd.texts, notes=notes, char_tokens=(ts, te), first=cd.first)
    docs.deferred = deferred
    return docs
