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
from typing import Any, Callable, Dict, List

import numpy as np

from ..errors import OptionError
from .documents import Documents
from .sink import write_text
from .tokenizer import tokenize
from .writing import ConversionReport, grouped, start_report, texts_of

TOKEN_MODES = ("auto", "always")


#: a document's record from its index and its spans (starts, ends exclusive, labels)
PerDocument = Callable[[int, List[int], List[int], List[str]], Dict[str, Any]]


def _records(docs: Documents, per_doc: PerDocument) -> str:
    idx, bounds = grouped(docs)
    lab = [docs.labels[k] for k in docs.label[idx].tolist()]
    s, e = docs.start[idx].tolist(), (docs.last[idx] + 1).tolist()
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
    out: List[str] = []
    for d in range(docs.n_docs):
        a, b = int(bounds[d]), int(bounds[d + 1])
        rec: Dict[str, Any] = {} if docs.ids[d] is None else {"id": docs.ids[d]}
        rec.update(per_doc(d, s[a:b], e[a:b], lab[a:b]))
        out.append(dumps(rec))
    return "\n".join(out) + "\n" if out else ""


def write_jsonl_tokens(docs: Documents, path: str) -> ConversionReport:
    """Write ``docs`` as token-offset JSON Lines at ``path`` (``-``, .gz/.bz2/.xz allowed)."""
    rep = start_report(docs, path, "jsonl-tokens")
    off = docs.offsets.tolist()

    def per_doc(d: int, s: List[int], e: List[int], lab: List[str]) -> Dict[str, Any]:
        base = off[d]
        return {"tokens": docs.tokens(d),
                "spans": [{"start": x - base, "end": y - base, "label": z} for x, y, z in zip(s, e, lab)]}
    write_text(path, _records(docs, per_doc))
    rep.written = len(docs.start)
    return rep


def write_jsonl_text(docs: Documents, path: str, tokens: str = "auto") -> ConversionReport:
    """Write ``docs`` as character-offset JSON Lines at ``path`` (``-``, .gz/.bz2/.xz allowed)."""
    if tokens not in TOKEN_MODES:
        raise OptionError(f"expected one of {', '.join(TOKEN_MODES)}", option="tokens", value=tokens)
    rep = start_report(docs, path, "jsonl-text", tokens=tokens)
    texts, ts, te, made = texts_of(docs)
    own = np.ones(docs.n_docs, bool) if tokens == "always" else differs_from(texts, docs.offsets, ts, te, "default")
    off = docs.offsets.tolist()
    tsl, tel = ts.tolist(), te.tolist()

    def per_doc(d: int, s: List[int], e: List[int], lab: List[str]) -> Dict[str, Any]:
        a = off[d]
        rec: Dict[str, Any] = {"text": texts[d],
                               "spans": [{"start": tsl[x], "end": tel[y - 1], "label": z}
                                         for x, y, z in zip(s, e, lab)]}
        if own[d]:
            rec["tokens"] = [{"start": x, "end": y} for x, y in zip(tsl[a:off[d + 1]], tel[a:off[d + 1]])]
        return rec
    write_text(path, _records(docs, per_doc))
    rep.written = len(docs.start)
    if made:
        rep.notes.append("texts made by joining each document's tokens with one space")
    rep.notes.append(f"token offsets written for {int(own.sum())} of {docs.n_docs} documents "
                     f"(tokens={tokens}: where the default tokenizer splits differently)")
    return rep


def differs_from(texts: List[str], offsets: np.ndarray, ts: np.ndarray, te: np.ndarray, tokenizer: str) -> np.ndarray:
    """Per document: does ``tokenizer`` split its text into other tokens than ``ts``/``te``?"""
    a_off, a_s, a_e = tokenize(texts, tokenizer)
    n = len(texts)
    out = np.diff(a_off) != np.diff(offsets)
    same_count = np.flatnonzero(~out)
    if len(same_count):
        # compare token by token in the documents with as many tokens on both sides
        mine = np.concatenate([np.arange(offsets[d], offsets[d + 1]) for d in same_count.tolist()]) \
            if n else np.zeros(0, np.int64)
        theirs = np.concatenate([np.arange(a_off[d], a_off[d + 1]) for d in same_count.tolist()])
        bad = (ts[mine] != a_s[theirs]) | (te[mine] != a_e[theirs])
        doc = np.repeat(same_count, np.diff(offsets)[same_count])
        out[np.unique(doc[bad])] = True
    return np.asarray(out, bool)
