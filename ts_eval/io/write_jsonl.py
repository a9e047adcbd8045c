"""Documents -> JSON Lines, one document per line, in the shapes the readers read:

* ``jsonl-tokens``: ``{"id"?, "tokens": [..], "spans": [{"start", "end", "label"}]}`` with token
  offsets (end exclusive);
* ``jsonl-text``: ``{"id"?, "text": .., "spans": [{"start", "end", "label"}], "tokens"?: [{"start",
  "end"}]}`` with character offsets.  An input without texts (columns, token lists) gets each
  document's tokens joined by one space as its text.  ``tokens="auto"`` writes a document's
  token offsets only where the default tokenizer would split its text differently (so the file
  reads back to the same tokens and stays plain spaCy/Prodigy JSON where it can);
  ``"always"`` writes them for every document.

Both hold nested and overlapping spans.  ``id`` is written when the input has one.
"""
from __future__ import annotations

import json
import re
from json.encoder import encode_basestring
from typing import Any, List, Optional, Sequence

import numpy as np

from ..errors import InputError, OptionError
from .documents import TOKEN_SEP, Documents
from .feed import raising
from .sink import Streamed
from .tokenizer import tokenize
from .writing import ConversionReport, Failed, grouped, texts_of, written

TOKEN_MODES = ("auto", "always")
_DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
_SPAN = '{{"start": {}, "end": {}, "label": {}}}'.format
_TOKEN = '{{"start": {}, "end": {}}}'.format
_PLAIN = 1        # the rank of jsonl-text's check (tokens that joined by spaces come apart again)

#: a character ``json`` escapes in a string (``ensure_ascii=False``), but for TOKEN_SEP (\x1f), which joins tokens
_ESCAPED = re.compile('[\x00-\x1e\\\\"]')


def records(columns: Sequence[Sequence[str]]) -> str:
    """JSON Lines made of pieces (what ``json`` with separators ``, `` and ``: `` writes for each record): the
    ``k``-th piece of every document from ``columns[k]``, the last of which ends the line."""
    n, k = len(columns[0]), len(columns)
    pieces: List[str] = [""] * (n * k)
    for j, col in enumerate(columns):
        pieces[j::k] = col
    return "".join(pieces)


def listed(items: List[str], counts: np.ndarray) -> List[str]:
    """Per document its items (flat, document after document; ``counts``: how many each has) joined by ``, ``."""
    out = [""] * len(counts)
    at = 0
    for d, c in zip(np.flatnonzero(counts).tolist(), counts[counts > 0].tolist()):
        out[d] = items[at] if c == 1 else ", ".join(items[at:at + c])
        at += c
    return out


def strings(texts: List[str]) -> List[str]:
    """Every text as a JSON string."""
    if _ESCAPED.search("".join(texts)) is None and TOKEN_SEP not in "".join(texts):
        return ['"' + t + '"' for t in texts]
    return list(map(encode_basestring, texts))


def quoted(keys: List[str], sep: str) -> List[str]:
    """Per document its tokens (``keys``: joined by TOKEN_SEP) as JSON strings joined by ``sep`` (a document
    key that is empty: no token)."""
    if _ESCAPED.search(TOKEN_SEP.join(keys)) is None:
        inner = '"' + sep + '"'
        return ['"' + key.replace(TOKEN_SEP, inner) + '"' if key else "" for key in keys]
    return [sep.join(map(encode_basestring, key.split(TOKEN_SEP))) if key else "" for key in keys]


def _heads(docs: Documents, after: str) -> List[str]:
    """Per document the start of its record: ``{``, its id if it has one, then ``after``."""
    if all(i is None for i in docs.ids):
        return ["{" + after] * docs.n_docs
    return ["{" + after if i is None else f'{{"id": {_DUMPS(i)}, {after}' for i in docs.ids]


def _spans(docs: Documents, start: np.ndarray, end: np.ndarray) -> List[str]:
    """Per document its spans (in (start, last, label) order) as JSON objects joined by ``, ``, with ``start``
    and ``end`` picked from ``start``/``end`` by their first and last token."""
    idx, bounds = grouped(docs)
    labels = [encode_basestring(x) for x in docs.labels]
    lab = [labels[k] for k in docs.label[idx].tolist()]
    items = list(map(_SPAN, start[docs.start[idx]].tolist(), end[docs.last[idx]].tolist(), lab))
    return listed(items, np.diff(bounds))


class TokensWriter:
    """:class:`~ts_eval.io.writing.BlockWriter` of ``jsonl-tokens``."""

    def __init__(self, path: str) -> None:
        self.out = Streamed(path)
        self.written = 0

    def check(self, docs: Documents) -> Optional[Failed]:
        return None

    def write(self, docs: Documents) -> None:
        rel = np.arange(docs.n_tokens) - np.repeat(docs.offsets[:-1], np.diff(docs.offsets))
        n = docs.n_docs
        self.out.write(records([_heads(docs, '"tokens": ['), quoted(docs.keys, ", "), ['], "spans": ['] * n,
                                _spans(docs, rel, rel + 1), [']}\n'] * n]))
        self.written += len(docs.start)

    def verdict(self) -> Optional[Failed]:
        return None

    def finish(self, rep: ConversionReport) -> None:
        self.out.close()
        rep.written = self.written

    def abort(self) -> None:
        self.out.abort()


class TextWriter:
    """:class:`~ts_eval.io.writing.BlockWriter` of ``jsonl-text``."""

    def __init__(self, path: str, tokens: str) -> None:
        if tokens not in TOKEN_MODES:
            raise OptionError(f"expected one of {', '.join(TOKEN_MODES)}", option="tokens", value=tokens)
        self.tokens = tokens
        self.out = Streamed(path)
        self.written = self.own = self.documents = 0
        self.made = False
        self.block: Any = None

    def check(self, docs: Documents) -> Optional[Failed]:
        try:
            self.block = texts_of(docs)
        except InputError as err:
            return _PLAIN, raising(err)
        return None

    def write(self, docs: Documents) -> None:
        texts, ts, te, made = self.block
        self.block = None
        own = np.ones(docs.n_docs, bool) if self.tokens == "always" \
            else differs_from(texts, docs.offsets, ts, te, "default")
        flags = own.tolist()
        lens = np.diff(docs.offsets)
        mine = np.repeat(own, lens)
        tokens = listed(list(map(_TOKEN, ts[mine].tolist(), te[mine].tolist())), np.where(own, lens, 0))
        self.out.write(records([_heads(docs, '"text": '), strings(texts), [', "spans": ['] * docs.n_docs,
                                _spans(docs, ts, te), ['], "tokens": [' if x else "]" for x in flags], tokens,
                                [']}\n' if x else '}\n' for x in flags]]))
        self.written += len(docs.start)
        self.own += int(own.sum())
        self.documents += docs.n_docs
        self.made = self.made or made

    def verdict(self) -> Optional[Failed]:
        return None

    def finish(self, rep: ConversionReport) -> None:
        self.out.close()
        rep.written = self.written
        if self.made:
            rep.notes.append("texts made by joining each document's tokens with one space")
        rep.notes.append(f"token offsets written for {self.own} of {self.documents} documents "
                         f"(tokens={self.tokens}: where the default tokenizer splits differently)")

    def abort(self) -> None:
        self.out.abort()


def write_jsonl_tokens(blocks: Any, path: str) -> ConversionReport:
    """Write an input's blocks of documents (in order) as one token-offset JSON Lines file at ``path`` (``-``,
    .gz/.bz2/.xz allowed), block by block."""
    return written(TokensWriter(path), blocks, path, "jsonl-tokens")


def write_jsonl_text(blocks: Any, path: str, tokens: str = "auto") -> ConversionReport:
    """Write an input's blocks of documents (in order) as one character-offset JSON Lines file at ``path``
    (``-``, .gz/.bz2/.xz allowed), block by block."""
    return written(TextWriter(path, tokens), blocks, path, "jsonl-text", tokens=tokens)


def differs_from(texts: List[str], offsets: np.ndarray, ts: np.ndarray, te: np.ndarray, tokenizer: str) -> np.ndarray:
    """Per document: does ``tokenizer`` split its text into other tokens than ``ts``/``te``?"""
    a_off, a_s, a_e = tokenize(texts, tokenizer)
    lens = np.diff(offsets)
    out = np.diff(a_off) != lens
    same_count = np.flatnonzero(~out)
    if len(same_count):
        # compare token by token in the documents with as many tokens on both sides (in document order)
        mine = np.flatnonzero(np.repeat(~out, lens))
        theirs = np.flatnonzero(np.repeat(~out, np.diff(a_off)))
        bad = (ts[mine] != a_s[theirs]) | (te[mine] != a_e[theirs])
        doc = np.repeat(same_count, lens[same_count])
        out[np.unique(doc[bad])] = True
    return np.asarray(out, bool)
