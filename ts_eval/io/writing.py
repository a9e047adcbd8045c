"""What every writer shares: the report of a write, spans grouped by document, texts for
token-only inputs, and the choice of non-overlapping spans for one IOB column.

Text for an input without texts (columns, JSON Lines with tokens): a document's tokens
joined by one space, so token k starts after the k previous tokens and their spaces.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

from ..errors import Hint, InputError, OptionError
from .documents import TOKEN_SEP, Documents

OVERLAPPING = ("error", "outermost")
_SPACE = re.compile(r"\s")
LISTED = 20  # dropped spans listed by name in a report (all are counted)


@dataclass
class ConversionReport:
    """What a conversion read, wrote and could not hold."""

    source: Dict[str, Any]            # Documents.summary() of the input
    target: str                       # output path (``-``: standard output)
    format: str                       # output format
    documents: int = 0
    tokens: int = 0
    spans: int = 0                    # spans read
    written: int = 0                  # spans written
    dropped: int = 0                  # spans the target cannot hold, left out by option
    dropped_spans: List[Dict[str, Any]] = field(default_factory=list)  # the first LISTED of them
    ids_dropped: int = 0              # document ids the target has no place for
    notes: List[str] = field(default_factory=list)   # how the target holds what it holds
    options: Dict[str, Any] = field(default_factory=dict)
    verified: Optional[bool] = None   # read back and compared (convert(verify=True))

    @property
    def lossless(self) -> bool:
        return self.dropped == 0 and self.written == self.spans

    def to_dict(self) -> Dict[str, Any]:
        from dataclasses import asdict
        return {**asdict(self), "lossless": self.lossless}

    def lines(self) -> List[str]:
        """The report as short lines for a terminal."""
        out = [f"{self.source.get('path')} ({self.source.get('format')}) -> {self.target} ({self.format}): "
               f"{self.documents} documents, {self.tokens} tokens, {self.written} of {self.spans} spans written"]
        if self.source.get("nested") or self.source.get("crossing"):
            out.append(f"input spans: {self.source.get('nested', 0)} nested, {self.source.get('crossing', 0)} crossing")
        if self.dropped:
            out.append(f"dropped {self.dropped} spans the target cannot hold "
                       f"(overlapping={self.options.get('overlapping')}):")
            out += [f"  {d['document']}: {d['label']} tokens [{d['start']}, {d['end']}) ({d['reason']})"
                    for d in self.dropped_spans]
            if self.dropped > len(self.dropped_spans):
                out.append(f"  ... and {self.dropped - len(self.dropped_spans)} more")
        if self.ids_dropped:
            out.append(f"{self.ids_dropped} document ids dropped (the format has no place for them)")
        gen = self.source.get("generated")
        if gen:
            out.append(f"generated strings: {gen['strings']}, {gen['grounded']} placed, {gen['fuzzy_grounded']} "
                       f"placed by near match, {gen['ungrounded']} ungrounded (found nowhere in the text), "
                       f"{gen['unplaced']} without a span (not written), {gen['duplicates']} duplicates, "
                       f"{gen['outside_labels']} with labels outside gold's")
        out += self.notes
        if self.verified is not None:
            out.append("read back: the same spans" if self.verified else "read back: DIFFERENT spans")
        return out


def start_report(docs: Documents, target: str, fmt: str, **options: Any) -> ConversionReport:
    summary = {k: v for k, v in docs.summary().items() if not isinstance(v, list)}
    return ConversionReport(summary, str(target), fmt, docs.n_docs, docs.n_tokens, len(docs.start),
                            options=dict(options))


def span_docs(docs: Documents) -> np.ndarray:
    """The document of every span."""
    return np.searchsorted(docs.offsets, docs.start, side="right") - 1


def grouped(docs: Documents, keep: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Span indices sorted by (start, last, label) and, per document d, their slice
    ``bounds[d]:bounds[d+1]`` (spans kept by ``keep`` only)."""
    idx = np.lexsort((docs.label, docs.last, docs.start))
    if keep is not None:
        idx = idx[keep[idx]]
    bounds = np.searchsorted(docs.start[idx], docs.offsets, side="left")
    return idx, bounds


def outermost(docs: Documents, overlapping: str = "error") -> Tuple[np.ndarray, List[Dict[str, Any]], int]:
    """Spans one IOB column can hold: a mask of kept spans, the first dropped ones listed, and
    how many were dropped.  ``overlapping="error"`` refuses any overlap (naming the document and
    both spans); ``"outermost"`` keeps, in (start, longest first, label) order, every span that
    overlaps no span kept before it, and drops the rest."""
    if overlapping not in OVERLAPPING:
        raise OptionError(f"overlapping {overlapping!r}: expected one of {', '.join(OVERLAPPING)}")
    n = len(docs.start)
    keep = np.ones(n, bool)
    if n < 2:
        return keep, [], 0
    order = np.lexsort((docs.label, -docs.last, docs.start))
    s, e = docs.start[order], docs.last[order]
    prev_reach = np.concatenate(([-1], np.maximum.accumulate(e)[:-1]))
    clash = np.flatnonzero(prev_reach >= s)          # overlaps some earlier span (kept or not)
    if not len(clash):
        return keep, [], 0
    if overlapping == "error":
        k = int(clash[0])
        j = int(np.flatnonzero(e[:k] >= s[k])[-1])
        a, b = int(order[j]), int(order[k])
        d = int(np.searchsorted(docs.offsets, docs.start[b], side="right") - 1)
        raise InputError([f"{docs.where(d)}: spans {_span(docs, a, d)} and {_span(docs, b, d)} overlap; one IOB "
                          f"column cannot hold nested or overlapping spans ({len(clash)} spans overlap an earlier "
                          "one); give ", Hint("overlapping", "outermost"), " to keep the outermost spans and list "
                          "the dropped ones, or write a format that holds them (jsonl-tokens, jsonl-text, brat)"],
                         docs.path)
    # only spans in a run that overlaps need the sequential rule; walk those
    reach = -1
    for k in range(int(clash[0]) - 1, n):
        if s[k] <= reach:
            keep[order[k]] = False
        else:
            reach = e[k]
    dropped = np.flatnonzero(~keep)
    listed = []
    for i in dropped[:LISTED].tolist():
        d = int(np.searchsorted(docs.offsets, docs.start[i], side="right") - 1)
        listed.append({"document": docs.where(d), "start": int(docs.start[i] - docs.offsets[d]),
                       "end": int(docs.last[i] - docs.offsets[d] + 1), "label": docs.labels[docs.label[i]],
                       "reason": "overlaps a kept span"})
    return keep, listed, len(dropped)


def _span(docs: Documents, i: int, d: int) -> str:
    b = int(docs.start[i] - docs.offsets[d])
    return f"{docs.labels[docs.label[i]]!r} over tokens [{b}, {int(docs.last[i] - docs.offsets[d]) + 1})"


def token_lengths(docs: Documents) -> Tuple[List[str], np.ndarray]:
    """All token strings (one list) and their lengths in characters."""
    toks = TOKEN_SEP.join(docs.keys).split(TOKEN_SEP) if docs.n_tokens else []
    return toks, np.fromiter(map(len, toks), np.int64, len(toks))


def check_tokens_plain(docs: Documents, toks: List[str], what: str) -> None:
    """Tokens joined by spaces must come apart again: none may be empty or hold whitespace."""
    if "" not in toks and not _SPACE.search("".join(toks)):
        return
    bad = next(k for k, t in enumerate(toks) if not t or _SPACE.search(t))
    d = int(np.searchsorted(docs.offsets, bad, side="right") - 1)
    raise InputError(f"{docs.where(d)}: token {bad - int(docs.offsets[d])} {toks[bad]!r} is empty or holds "
                         f"whitespace; {what} separates tokens by whitespace", docs.path)


def texts_of(docs: Documents) -> Tuple[List[str], np.ndarray, np.ndarray, bool]:
    """Per document its text and its tokens' start/end characters (relative to that text);
    ``made`` is True when the texts were made by joining tokens with one space."""
    if docs.texts is not None and docs.char_tokens is not None:
        return list(docs.texts), docs.char_tokens[0], docs.char_tokens[1], False
    toks, lens = token_lengths(docs)
    check_tokens_plain(docs, toks, "a text made from tokens")
    ends_global = np.cumsum(lens + 1) - 1          # as if all tokens were joined by spaces
    starts_global = ends_global - lens
    base = starts_global[docs.offsets[:-1]] if docs.n_tokens else np.zeros(0, np.int64)
    doc = np.repeat(np.arange(docs.n_docs), np.diff(docs.offsets))
    texts = [" ".join(docs.tokens(d)) for d in range(docs.n_docs)]
    return texts, starts_global - base[doc], ends_global - base[doc], True


def same_spans(a: Documents, b: Documents) -> Optional[str]:
    """None when ``a`` and ``b`` hold the same documents (by id when both have ids on every
    document, else by order), tokens and spans; else what differs first."""
    if a.n_docs != b.n_docs:
        return f"{a.n_docs} vs {b.n_docs} documents"
    if all(i is not None for i in a.ids) and all(i is not None for i in b.ids):
        where = {i: d for d, i in enumerate(b.ids)}
        if set(where) != set(a.ids):
            return "different document ids"
        order = [where[i] for i in a.ids]
    else:
        order = list(range(a.n_docs))

    def spans(docs: Documents) -> Dict[int, Set[Tuple[int, int, str]]]:
        out: Dict[int, Set[Tuple[int, int, str]]] = {}
        dd = span_docs(docs)
        for d, s, e, lab in zip(dd.tolist(), docs.start.tolist(), docs.last.tolist(), docs.label.tolist()):
            base = int(docs.offsets[d])
            out.setdefault(d, set()).add((s - base, e - base, docs.labels[lab]))
        return out
    sa, sb = spans(a), spans(b)
    for d, db in enumerate(order):
        if a.keys[d] != b.keys[db]:
            return f"{a.where(d)}: tokens differ ({a.tokens(d)[:8]} vs {b.tokens(db)[:8]})"
        if sa.get(d, set()) != sb.get(db, set()):
            return f"{a.where(d)}: spans differ ({sorted(sa.get(d, set()) ^ sb.get(db, set()))[:4]})"
    return None
