"""The default tokenizer for text inputs, and alignment of character spans to tokens.

Default tokenizer (documented in README): a token is a maximal run of word characters
(letters, digits, marks, ``_``) or a single other non-space character (punctuation,
symbols).  "New York-based, Inc." -> New | York | - | based | , | Inc | .  It is
vectorised over all documents of a side at once (numpy over code points).

Alignment: a span given in characters ``[cs, ce)`` is aligned when it starts at a
token start and ends at a token end.  Otherwise ``align`` decides: ``strict`` is an
error, ``expand`` takes every token the span overlaps, ``contract`` only the tokens
inside it (a span with no token inside is dropped and listed).
"""
from __future__ import annotations

import unicodedata
from typing import List, Sequence, Tuple

import numpy as np

_SPACE, _WORD, _PUNCT = 0, 1, 2


def _classes(cp: np.ndarray) -> np.ndarray:
    """Character class of every code point: space, word or other."""
    table = np.full(128, _PUNCT, np.int8)
    for c in range(128):
        ch = chr(c)
        if ch.isspace():
            table[c] = _SPACE
        elif ch.isalnum() or ch == "_":
            table[c] = _WORD
    if cp.dtype == np.uint8:            # all ASCII
        return np.asarray(table[cp], np.int8)
    out = np.empty(len(cp), np.int8)
    ascii_ = cp < 128
    out[ascii_] = table[cp[ascii_]]
    if not ascii_.all():
        rest = cp[~ascii_]
        uniq, inv = np.unique(rest, return_inverse=True)
        cls = np.array([_class_of(chr(int(c))) for c in uniq], np.int8)
        out[~ascii_] = cls[inv]
    return out


def _ascii_classes(whitespace: bool) -> bytes:
    """The class of every byte below 128 as a ``bytes.translate`` table (a whitespace tokenizer: no
    punctuation class)."""
    table = _classes(np.arange(128, dtype=np.uint8))
    if whitespace:
        table[table == _PUNCT] = _WORD
    return table.tobytes() + bytes(128)


def _class_of(ch: str) -> int:
    if ch.isspace():
        return _SPACE
    if ch.isalnum() or unicodedata.category(ch)[0] == "M":
        return _WORD
    return _PUNCT


TOKENIZERS = ("default", "whitespace")
_ASCII_CLASSES = {"default": _ascii_classes(False), "whitespace": _ascii_classes(True)}


def tokenize(texts: Sequence[str], tokenizer: str = "default") -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tokenize every text.  Returns (doc_offsets D+1 into the token arrays, token start and
    end character offsets relative to their own text).  ``tokenizer="whitespace"``: a token is
    a maximal run of non-space characters (brat's ``tokenizer:whitespace``; what the writers use
    when they make a text by joining tokens with spaces)."""
    if tokenizer not in TOKENIZERS:
        raise ValueError(f"tokenizer {tokenizer!r}: expected one of {', '.join(TOKENIZERS)}")
    joined = "\n".join(texts)
    base = np.zeros(len(texts) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, texts), np.int64, len(texts)) + 1, out=base[1:])
    # code points: one byte each when the texts are ASCII (a quarter of the memory of UTF-32)
    if joined.isascii():    # one C pass: bytes.translate maps every byte to its class
        cls = np.frombuffer(joined.encode("ascii").translate(_ASCII_CLASSES[tokenizer]), np.int8)
    else:
        cp = np.frombuffer(joined.encode("utf-32-le"), np.uint32)
        cls = _classes(cp)
        del cp
        if tokenizer == "whitespace":
            cls[cls == _PUNCT] = _WORD
    del joined
    # one byte per character for each mask, reused in place: the peak is a few bytes per character
    change = np.empty(len(cls) + 1, bool)       # change[i]: character i-1 and i differ in class (ends: True)
    change[0] = change[-1] = True
    np.not_equal(cls[1:], cls[:-1], out=change[1:-1])
    punct = cls == _PUNCT
    on = cls != _SPACE
    del cls
    mark = change[:-1] | punct                  # a token starts at a class change or at each punctuation mark
    mark &= on
    starts = np.flatnonzero(mark)
    np.logical_or(change[1:], punct, out=mark)  # ... and ends before the next change or after a mark
    mark &= on
    ends = np.flatnonzero(mark)
    del mark, change, punct, on
    ends += 1
    doc_offsets = np.searchsorted(starts, base)
    doc_offsets[-1] = len(starts)
    first = np.repeat(base[:-1], np.diff(doc_offsets))  # each token's document's first character
    starts -= first
    ends -= first
    return doc_offsets, starts, ends


def align_spans(doc_offsets: np.ndarray, tok_start: np.ndarray, tok_end: np.ndarray, text_lengths: np.ndarray,
                span_doc: np.ndarray, cs: np.ndarray, ce: np.ndarray, mode: str
                ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token range ``[b, e)`` (relative to the document) of every character span, and whether
    it was aligned.  ``b >= e`` means no token fits (only possible when not aligned)."""
    base = np.zeros(len(text_lengths) + 1, np.int64)
    np.cumsum(np.asarray(text_lengths, np.int64) + 1, out=base[1:])
    ge = np.repeat(base[:-1], np.diff(doc_offsets))     # each token's document's first character ...
    gs = tok_start + ge
    ge += tok_end                                        # ... made global in place: two arrays, not four
    a, z = cs + base[span_doc], ce + base[span_doc]
    # the tokens inside [a, z): from the first starting at or after a to the last ending at or before z
    b_con, e_con = np.searchsorted(gs, a, "left"), np.searchsorted(ge, z, "right")
    # the tokens it overlaps: one more on each side where a token runs across a (across z); the tokens are
    # in order and apart, so only the token before b_con can run across a, only the one at e_con across z
    n = len(gs)
    across_a = (b_con > 0) & (ge[np.maximum(b_con - 1, 0)] > a) if n else np.zeros(len(a), bool)
    across_z = (e_con < n) & (gs[np.minimum(e_con, n - 1)] < z) if n else np.zeros(len(z), bool)
    aligned = ~across_a & ~across_z & (b_con < e_con)
    b, e = (b_con - across_a, e_con + across_z) if mode == "expand" else (b_con, e_con)
    first = doc_offsets[span_doc]
    return b - first, e - first, aligned


def token_keys(texts: Sequence[str], doc_offsets: np.ndarray, tok_start: np.ndarray, tok_end: np.ndarray,
               sep: str) -> List[str]:
    """Each document's token texts joined by ``sep``."""
    ss, ee = tok_start.tolist(), tok_end.tolist()
    out = []
    for d, text in enumerate(texts):
        a, b = int(doc_offsets[d]), int(doc_offsets[d + 1])
        out.append(sep.join([text[s:e] for s, e in zip(ss[a:b], ee[a:b])]))
    return out
