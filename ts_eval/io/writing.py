"""What every writer shares: the report of a write, spans grouped by document, texts for
token-only inputs, the choice of non-overlapping spans for one IOB column, and the road of a write in
blocks (:func:`written`).

A writer writes an input block by block (:class:`BlockWriter`: each block's checks, then its text) and
keeps only running counts (:class:`Tally`, the report's figures); what it refuses is the error a write of the
whole input gives: the earliest of its checks that fails anywhere (each check has its ``rank``), at the
first place it fails, its counts the whole input's (the blocks after the first refusal are still read and
checked, not written).  A reading error in any block comes before all of them, as a whole read raises it
before anything is written.

Text for an input without texts (columns, JSON Lines with tokens): a document's tokens
joined by one space, so token k starts after the k previous tokens and their spaces.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Protocol, Set, Tuple

import numpy as np

from ..core.corpus import merge_reading, span_shape
from ..errors import Hint, InputError, OptionError
from .documents import TOKEN_SEP, Documents
from .feed import raising

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


class Tally:
    """The running figures of an input written in blocks: what :meth:`Documents.summary` of the whole says
    (documents, tokens, spans, nested and crossing spans, what reading noted), added up block by block."""

    def __init__(self) -> None:
        self.path: Optional[str] = None
        self.format: Optional[str] = None
        self.counts = {"documents": 0, "tokens": 0, "spans": 0, "nested": 0, "crossing": 0}
        self.notes: Optional[Dict[str, Any]] = None

    def add(self, docs: Documents) -> None:
        if self.path is None:
            self.path, self.format, self.notes = docs.path, docs.format, {}
        shape = span_shape(docs.start, docs.last)    # (spans never cross a document: the blocks' add up)
        for key, value in (("documents", docs.n_docs), ("tokens", docs.n_tokens), ("spans", len(docs.start)),
                           ("nested", shape["nested"]), ("crossing", shape["crossing"])):
            self.counts[key] += value
        self.notes = merge_reading(self.notes, docs.notes)

    def report(self, target: str, fmt: str, **options: Any) -> ConversionReport:
        """The report of the whole input written to ``target`` (as :func:`start_report` of the whole)."""
        summary = {"path": self.path, "format": self.format, **self.counts, **(self.notes or {})}
        summary = {k: v for k, v in summary.items() if not isinstance(v, list)}
        c = self.counts
        return ConversionReport(summary, str(target), fmt, c["documents"], c["tokens"], c["spans"],
                                options=dict(options))


#: a check a block (or the whole input) fails: its rank (the order of the whole write's checks, earlier
#: first) and the error, made when it is raised (its counts may be the whole input's)
Failed = Tuple[int, Callable[[], Exception]]
#: the rank of an error of the output itself (a full disk, a directory where a file is written): after
#: every check, as a whole write meets it only once all passed
OUTPUT_RANK = 100


class BlockWriter(Protocol):
    """A writer of one format that writes an input block by block (see the module's text)."""

    def check(self, docs: Documents) -> Optional[Failed]:
        """The earliest check ``docs`` fail (None: none); what :meth:`write` needs is kept for it."""

    def write(self, docs: Documents) -> None:
        """Write the block just checked (an error of the output is an :class:`InputError`)."""

    def verdict(self) -> Optional[Failed]:
        """After the last block: the checks of the whole input (None: all pass)."""

    def finish(self, rep: ConversionReport) -> None:
        """Complete the output (it replaces what was there) and add what was written to ``rep``."""

    def abort(self) -> None:
        """Leave every target as it was."""


class _Refusal(NamedTuple):
    rank: int
    error: Callable[[], Exception]


def written(writer: BlockWriter, blocks: Iterable[Documents], target: str, fmt: str,
            **options: Any) -> ConversionReport:
    """Write ``blocks`` (one input's documents, in order) with ``writer``; the report of the whole."""
    tally = Tally()
    found: Optional[_Refusal] = None
    try:
        for docs in blocks:               # a reading error is raised here, before any refusal
            tally.add(docs)
            got = writer.check(docs)
            if got is not None and (found is None or got[0] < found.rank):
                found = _Refusal(*got)
            if found is None:
                try:
                    writer.write(docs)
                except InputError as err:
                    found = _Refusal(OUTPUT_RANK, raising(err))
        last = writer.verdict()
        if last is not None and (found is None or last[0] < found.rank):
            found = _Refusal(*last)
        if found is not None:
            raise found.error()
        rep = tally.report(target, fmt, **options)
        writer.finish(rep)
    except BaseException:
        writer.abort()
        raise
    return rep


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
    check_overlapping(overlapping)
    found = overlaps(docs)
    if found is not None and overlapping == "error":
        raise overlap_error(docs, found, len(found[3]))
    return kept_outermost(docs, found)


def check_overlapping(overlapping: str) -> None:
    if overlapping not in OVERLAPPING:
        raise OptionError(f"overlapping {overlapping!r}: expected one of {', '.join(OVERLAPPING)}")


#: spans in (start, longest first, label) order, their starts and lasts, and which overlap an earlier one
Overlaps = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def overlaps(docs: Documents) -> Optional[Overlaps]:
    """The spans of ``docs`` that overlap an earlier span (kept or not); None: none do."""
    if len(docs.start) < 2:
        return None
    order = np.lexsort((docs.label, -docs.last, docs.start))
    s, e = docs.start[order], docs.last[order]
    prev_reach = np.concatenate(([-1], np.maximum.accumulate(e)[:-1]))
    clash = np.flatnonzero(prev_reach >= s)          # overlaps some earlier span (kept or not)
    return (order, s, e, clash) if len(clash) else None


def overlap_error(docs: Documents, found: Overlaps, total: int) -> InputError:
    """The error of ``overlapping="error"``: the first overlap in ``docs`` (``total``: how many spans of the
    whole input overlap an earlier one)."""
    order, s, e, clash = found
    k = int(clash[0])
    j = int(np.flatnonzero(e[:k] >= s[k])[-1])
    a, b = int(order[j]), int(order[k])
    d = int(np.searchsorted(docs.offsets, docs.start[b], side="right") - 1)
    return InputError([f"{docs.where(d)}: spans {_span(docs, a, d)} and {_span(docs, b, d)} overlap; one IOB "
                       f"column cannot hold nested or overlapping spans ({total} spans overlap an earlier "
                       "one); give ", Hint("overlapping", "outermost"), " to keep the outermost spans and list "
                       "the dropped ones, or write a format that holds them (jsonl-tokens, jsonl-text, brat)"],
                      docs.path)


def kept_outermost(docs: Documents, found: Optional[Overlaps],
                   listed: int = LISTED) -> Tuple[np.ndarray, List[Dict[str, Any]], int]:
    """``outermost``'s mask of kept spans, the first ``listed`` dropped ones and how many were dropped."""
    n = len(docs.start)
    keep = np.ones(n, bool)
    if found is None:
        return keep, [], 0
    order, s, e, clash = found
    # only spans in a run that overlaps need the sequential rule; walk those
    reach = -1
    for k in range(int(clash[0]) - 1, n):
        if s[k] <= reach:
            keep[order[k]] = False
        else:
            reach = e[k]
    dropped = np.flatnonzero(~keep)
    out = []
    for i in dropped[:listed].tolist():
        d = int(np.searchsorted(docs.offsets, docs.start[i], side="right") - 1)
        out.append({"document": docs.where(d), "start": int(docs.start[i] - docs.offsets[d]),
                    "end": int(docs.last[i] - docs.offsets[d] + 1), "label": docs.labels[docs.label[i]],
                    "reason": "overlaps a kept span"})
    return keep, out, len(dropped)


def _span(docs: Documents, i: int, d: int) -> str:
    b = int(docs.start[i] - docs.offsets[d])
    return f"{docs.labels[docs.label[i]]!r} over tokens [{b}, {int(docs.last[i] - docs.offsets[d]) + 1})"


def token_lengths(docs: Documents) -> Tuple[List[str], np.ndarray]:
    """All token strings (one list) and their lengths in characters."""
    toks = token_list(docs)
    return toks, np.fromiter(map(len, toks), np.int64, len(toks))


def token_list(docs: Documents) -> List[str]:
    """All token strings, one list."""
    return TOKEN_SEP.join(docs.keys).split(TOKEN_SEP) if docs.n_tokens else []


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
    texts = [key.replace(TOKEN_SEP, " ") for key in docs.keys]     # (= " ".join(docs.tokens(d)))
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
