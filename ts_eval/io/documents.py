"""One side's documents as numpy columns: what every new reader produces.

A :class:`Documents` holds the token structure (documents or sentences as token
offsets), an id and a comparison key per document, and the spans over global token
indices (first token ``start``, last token ``last``, as in
:class:`ts_eval.core.corpus.SpanSet`).  Spans may nest and overlap; :func:`span_shape`
counts how many do.  Readers build it with :func:`build_documents` (from spans) or
:func:`documents_from_tags` (from tag sequences decoded by a scheme).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.corpus import SideInfo, corpus_from_tag_ids, merge_reading, span_shape
from ..core.printable import control_message, first_control
from ..errors import InputError

TOKEN_SEP = "\x1f"  # joins a document's tokens into its key (one string per document, not per token)


#: per-document (or per-span) integers: a list or a numpy array
Ints = Union[Sequence[int], np.ndarray]
#: every document's tokens joined by TOKEN_SEP, or how to make them when first asked for
Keys = Union[List[str], Callable[[], List[str]]]

@dataclass
class Documents:
    """The documents (or sentences) of one input and their spans.

    Span columns as in :class:`ts_eval.core.corpus.SpanSet`: ``start`` the first token,
    ``last`` the last token (inclusive), global token indices; :attr:`end` is ``last + 1``,
    the exclusive end of ts_eval's public ``(label, start, end)`` spans.
    """

    path: str
    format: str
    offsets: np.ndarray               # D+1 token offsets; document d = tokens [o[d], o[d+1])
    ids: List[Optional[str]]          # document ids (None when the input has none)
    key_data: Keys                    # tokens joined by TOKEN_SEP (or how to make them)
    start: np.ndarray                 # span first token (global, int64)
    last: np.ndarray                  # span last token (global, inclusive, int64); end = last + 1
    label: np.ndarray                 # int32 index into labels
    labels: List[str]
    lines: Optional[List[int]] = None  # line (or record) number of each document in the file
    texts: Optional[List[str]] = None  # document texts (character-offset formats)
    notes: Dict[str, Any] = field(default_factory=dict)  # what reading found (misaligned spans, ...)
    char_tokens: Optional[Tuple[np.ndarray, np.ndarray]] = None  # token start/end characters (text formats)
    first: int = 0                    # documents of the input before these (a block's): they number messages
    #: (document, error) found in reading that the joiner raises once the document is compared with gold's
    deferred: Optional[Tuple[int, InputError]] = None

    @property
    def keys(self) -> List[str]:
        """Per document its tokens joined by TOKEN_SEP: documents line up only if these are equal."""
        if callable(self.key_data):
            self.key_data = self.key_data()
        return self.key_data

    @property
    def end(self) -> np.ndarray:
        """Each span's end, exclusive: ``last + 1`` (a new array; read-only)."""
        return self.last + 1

    @property
    def n_docs(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_tokens(self) -> int:
        return int(self.offsets[-1])

    def where(self, d: int) -> str:
        """How a message names document ``d``."""
        parts = []
        if self.ids[d] is not None:
            parts.append(f"document {self.ids[d]!r}")
        else:
            parts.append(f"document {self.first + d + 1}")
        if self.lines is not None:
            parts.append(f"line {self.lines[d]}")
        return ", ".join(parts)

    @staticmethod
    def concat(parts: Sequence[Documents]) -> Documents:
        return concat_documents(list(parts))

    def take(self, order: Ints, notes: bool = False) -> Documents:
        """Documents ``order`` (indices, in that order) as Documents of their own; what reading counted
        (``notes``) is the whole's, not a part's: the new Documents have it only with ``notes`` (else only what
        holds of every part, :func:`lasting`)."""
        order = np.asarray(order, np.int64)
        lens = np.diff(self.offsets)[order]
        offsets = np.zeros(len(order) + 1, np.int64)
        np.cumsum(lens, out=offsets[1:])
        doc = np.searchsorted(self.offsets, self.start, side="right") - 1
        where = np.full(self.n_docs, -1, np.int64)
        where[order] = np.arange(len(order))
        keep = np.flatnonzero(where[doc] >= 0)
        keep = keep[np.argsort(where[doc[keep]], kind="stable")]
        shift = offsets[:-1][where[doc[keep]]] - self.offsets[:-1][doc[keep]]
        pick = order.tolist()
        keys = self.keys
        chars = None
        if self.char_tokens is not None:
            idx = np.concatenate([np.arange(self.offsets[d], self.offsets[d + 1]) for d in pick]) if pick \
                else np.zeros(0, np.int64)
            chars = (self.char_tokens[0][idx], self.char_tokens[1][idx])
        deferred = None
        if self.deferred is not None and self.deferred[0] in pick:
            deferred = (pick.index(self.deferred[0]), self.deferred[1])
        return Documents(self.path, self.format, offsets, [self.ids[d] for d in pick], [keys[d] for d in pick],
                         self.start[keep] + shift, self.last[keep] + shift, self.label[keep], list(self.labels),
                         [self.lines[d] for d in pick] if self.lines is not None else None,
                         [self.texts[d] for d in pick] if self.texts is not None else None,
                         dict(self.notes) if notes else lasting(self.notes), chars,
                         self.first + (pick[0] if pick and pick == list(range(pick[0], pick[0] + len(pick))) else 0),
                         deferred)

    def tokens(self, d: int) -> List[str]:
        key = self.keys[d]
        return key.split(TOKEN_SEP) if key else []

    def summary(self) -> Dict[str, Any]:
        """What reading found, for reports: documents, tokens, spans, nested/crossing spans, notes."""
        return {"path": self.path, "format": self.format, "documents": self.n_docs, "tokens": self.n_tokens,
                "spans": len(self.start), **span_shape(self.start, self.last), **self.notes}


def lasting(notes: Dict[str, Any]) -> Dict[str, Any]:
    """What reading found that holds of every part of an input (the scheme its tags were decoded with, ...):
    its texts, flags and Nones (counts and lists are the whole's; :func:`~ts_eval.core.corpus.merge_reading`)."""
    return {k: v for k, v in notes.items() if v is None or isinstance(v, (str, bool))}


def no_documents(name: str, fmt: str) -> Documents:
    """No documents (what a feed hands out at its end)."""
    return Documents(name, fmt, np.zeros(1, np.int64), [], [], np.zeros(0, np.int64), np.zeros(0, np.int64),
                     np.zeros(0, np.int32), [])


def concat_documents(parts: Sequence[Documents]) -> Documents:
    """Consecutive blocks of one input as one Documents (its labels the union, sorted; what reading found in
    each added up)."""
    if len(parts) == 1:
        return parts[0]
    labels = sorted(set().union(*(p.labels for p in parts)))
    index = {lab: k for k, lab in enumerate(labels)}
    base = np.cumsum([0] + [p.n_tokens for p in parts[:-1]])
    offsets = np.concatenate([np.zeros(1, np.int64)] + [p.offsets[1:] + b for p, b in zip(parts, base)])
    label = np.concatenate([np.array([index[x] for x in p.labels] or [0], np.int32)[p.label] for p in parts])
    notes: Optional[Dict[str, Any]] = {}
    for p in parts:
        notes = merge_reading(notes, p.notes)
    first = parts[0]
    at = np.cumsum([0] + [p.n_docs for p in parts[:-1]])
    deferred = next(((int(k) + p.deferred[0], p.deferred[1]) for p, k in zip(parts, at) if p.deferred is not None),
                    None)
    return Documents(first.path, first.format, offsets, [i for p in parts for i in p.ids],
                     [k for p in parts for k in p.keys],
                     np.concatenate([p.start + b for p, b in zip(parts, base)]),
                     np.concatenate([p.last + b for p, b in zip(parts, base)]), label, labels,
                     None if first.lines is None else [x for p in parts for x in (p.lines or [])],
                     None if first.texts is None else [x for p in parts for x in (p.texts or [])], notes or {},
                     _chars(parts), first.first, deferred)


def _chars(parts: Sequence[Documents]) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """The token characters of consecutive blocks (None: the input has none)."""
    got = [p.char_tokens for p in parts]
    if any(c is None for c in got):
        return None
    return (np.concatenate([c[0] for c in got if c is not None]), np.concatenate([c[1] for c in got if c is not None]))


def build_documents(path: str, fmt: str, lengths: Ints, ids: List[Optional[str]], keys: Keys,
                    span_doc: Ints, span_start: Ints, span_end: Ints,
                    span_label: Sequence[str], lines: Optional[List[int]] = None,
                    texts: Optional[List[str]] = None, notes: Optional[Dict[str, Any]] = None,
                    char_tokens: Optional[Tuple[np.ndarray, np.ndarray]] = None, first: int = 0) -> Documents:
    """Documents from per-document lengths and spans given as (document, first token,
    end token exclusive, label), already checked against the document's length (``first``: the documents
    of the input before these)."""
    lens = np.asarray(lengths, np.int64)
    offsets = np.zeros(len(lens) + 1, np.int64)
    np.cumsum(lens, out=offsets[1:])
    labels = sorted(set(span_label))
    # a label that prints like another: at its first line
    if first_control(labels) is not None and (k := first_control(span_label)) is not None:
        d = int(span_doc[k])
        where = f"document {ids[d]!r}" if ids[d] is not None else f"document {first + d + 1}"
        raise InputError(f"{where}: {control_message(span_label[k], 'label')}", str(path),
                         lines[d] if lines else None)
    index = {lab: k for k, lab in enumerate(labels)}
    doc = np.asarray(span_doc, np.int64)
    start = offsets[doc] + np.asarray(span_start, np.int64) if len(doc) else np.zeros(0, np.int64)
    last = offsets[doc] + np.asarray(span_end, np.int64) - 1 if len(doc) else np.zeros(0, np.int64)
    label = np.fromiter(map(index.__getitem__, span_label), np.int32, len(span_label))
    docs = Documents(str(path), fmt, offsets, ids, keys, start, last, label, labels, lines, texts,
                     dict(notes or {}), char_tokens, first)
    check_duplicates(docs)
    return docs


def check_duplicates(docs: Documents) -> None:
    """The same span (range and label) twice on one side is an error, not a silent merge."""
    if len(docs.start) < 2:
        return
    gap = docs.last - docs.start
    width, n_labels = int(gap.max()) + 1, max(len(docs.labels), 1)
    if int(gap.min()) >= 0 and int(docs.start.min()) >= 0 and int(docs.start.max()) < 2 ** 62 // (width * n_labels):
        # (start, last, label) as one integer in the same order: one sort instead of three (lexsort)
        key = (docs.start * width + gap) * n_labels + docs.label
        order = np.argsort(key, kind="stable")
        key = key[order]
        dup = key[1:] == key[:-1]
    else:
        order = np.lexsort((docs.label, docs.last, docs.start))
        dup = (np.diff(docs.start[order]) == 0) & (np.diff(docs.last[order]) == 0) & \
            (np.diff(docs.label[order]) == 0)
    s, e, lab = docs.start[order], docs.last[order], docs.label[order]
    if dup.any():
        k = int(np.flatnonzero(dup)[0])
        d = int(np.searchsorted(docs.offsets, s[k], side="right") - 1)
        b, last = int(s[k] - docs.offsets[d]), int(e[k] - docs.offsets[d])
        raise InputError(f"{docs.where(d)}: the span {docs.labels[lab[k]]!r} over tokens {b}..{last + 1} "
                         "(end exclusive) is given twice; expected each span once", docs.path)


def token_keys(data: np.ndarray, starts: np.ndarray, lens: np.ndarray, lengths: np.ndarray) -> Callable[[], List[str]]:
    """How to make every document's key (its tokens joined by TOKEN_SEP) from a file's bytes ``data``, in
    one pass: token k is ``data[starts[k]:starts[k] + lens[k]]``, document d holds ``lengths[d]`` tokens
    (tokens in order, at least one byte apart; documents not empty).  Called only when pairing or token
    texts need the keys."""
    starts, lens = starts.astype(np.int64, copy=False), lens.astype(np.int64, copy=False)

    def make() -> List[str]:
        n = len(starts)
        if n == 0:
            return []
        mark = np.zeros(len(data) + 1, np.int8)
        mark[starts] += 1                    # distinct positions: no np.add.at needed
        mark[starts + lens] -= 1
        inside = np.cumsum(mark[:-1], dtype=np.int8).view(bool)
        text = data[inside]                                  # all token bytes, concatenated
        ends = np.cumsum(lens)
        last = np.zeros(n, bool)
        last[np.cumsum(lengths) - 1] = True
        seps = np.where(last, ord("\n"), ord(TOKEN_SEP)).astype(np.uint8)
        joined = np.insert(text, ends, seps)
        return joined.tobytes().decode("utf-8").split("\n")[:-1]
    return make


def _tag_side(path: str, lengths: Ints, tag_ids: np.ndarray, lines: Optional[List[int]],
              token_lines: Optional[np.ndarray], first: int) -> Tuple[np.ndarray, np.ndarray, SideInfo]:
    """(document offsets, sentence starts, the side) of documents of tags (an error for a document without
    tokens)."""
    lens = np.asarray(lengths, np.int64)
    if np.any(lens == 0):
        d = int(np.flatnonzero(lens == 0)[0])
        raise InputError(f"document {first + d + 1}: no tokens; expected at least one", path,
                         lines[d] if lines else None)
    offsets = np.zeros(len(lens) + 1, np.int64)
    np.cumsum(lens, out=offsets[1:])
    sent_first = np.zeros(int(offsets[-1]), bool)
    sent_first[offsets[:-1]] = True
    # no side name: this file is read alone (gold or a system), so a message names the file, not a side
    return offsets, sent_first, SideInfo("", str(path), tags=np.asarray(tag_ids, np.int32), token_lines=token_lines)


def documents_from_tags(path: str, fmt: str, lengths: Ints, ids: List[Optional[str]],
                        keys: Keys, tag_vocab: List[str], tag_ids: np.ndarray,
                        scheme: str = "IOB2", policy: str = "conlleval",
                        lines: Optional[List[int]] = None, token_lines: Optional[np.ndarray] = None,
                        first: int = 0, detected: Optional[str] = None) -> Documents:
    """Documents from per-token tag ids, decoded by ``scheme`` with ``policy`` (as the column readers do;
    ``first``: the documents of the input before these; ``detected``: the scheme ``auto`` stands for, found
    beforehand over the whole input: :func:`tags_evidence`)."""
    offsets, sent_first, side = _tag_side(path, lengths, tag_ids, lines, token_lines, first)
    corpus = corpus_from_tag_ids(list(tag_vocab), [side], sent_first, scheme, policy, detected=detected)
    ss = corpus.gold
    notes = {"scheme": corpus.scheme, "repairs": side.repairs, "discarded": side.discarded}
    return Documents(str(path), fmt, offsets, ids, keys, ss.start, ss.last, ss.label, list(corpus.labels),
                     lines, None, notes, first=first)


def tags_evidence(path: str, lengths: Ints, tag_vocab: List[str], tag_ids: np.ndarray,
                  lines: Optional[List[int]] = None, token_lines: Optional[np.ndarray] = None,
                  first: int = 0) -> Any:
    """What the scheme ``auto`` is detected from in documents of tags (a part of an input: the evidence of
    every part ``|`` together, :func:`~ts_eval.core.schemes.scheme_of`, names the input's scheme)."""
    from ..core.corpus import scheme_evidence

    _, sent_first, side = _tag_side(path, lengths, tag_ids, lines, token_lines, first)
    return scheme_evidence(list(tag_vocab), [side], sent_first)

