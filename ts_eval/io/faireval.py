"""Readers for the FairEval reference tool's inputs -> Corpus plus what fair evaluation needs.

Two formats (rubcompling/FairEval, README "Input"):

* **span files**: one span per line, four tab-separated columns ``label  begin
  end  tokens`` (1-based token indices within the sentence, ``end`` inclusive,
  ``tokens`` a comma-separated list; when it is empty the range begin..end is
  used); a blank line ends a sentence.  Sentences carry no tokens, so a
  sentence's length is the largest index any kept span of either file uses.
  Sentences without spans hold a dummy line (``NONE`` / ``EMPTY``); those labels
  are excluded by default.
* **CoNLL-2000 files**: one token per line, ``form  POS  annotation`` (whitespace
  separated; the POS is the 2nd column, the annotation the last), BIO tags with
  stacked spans joined by ``|`` (``I-S|I-VP|B-NP``, outermost first, any depth);
  ``O``, ``_`` or nothing as the whole annotation is outside every span; as one
  component of a stack (``I-S|``) it leaves the span at that level open without
  adding the token, as in the reference.

``ignore_punct`` (CoNLL only) removes punctuation tokens (by POS: STTS ``$.``
``$,`` ``$(``, UPOS ``PUNCT``, PTB punctuation, and the reference's custom tags)
from the spans' token sets exactly as the reference does: a span's begin moves
to its first non-punctuation token, its end moves back by one token if the last
token is punctuation, and spans left without tokens are dropped.  A span's range
(begin..last) is what the shared matcher pairs and what decides TP/LE/BE types;
its token set (the range minus punctuation) is what similarity and the
shrinking token sets of Algorithm 2 use.  Ranges stay in the SpanSet; token
sets that differ from the range travel beside the Corpus as
:class:`ts_eval.core.tokensets.TokenSets`.

Both are read in blocks of whole sentences on the one road of inputs (``io/source.py``'s
``line_blocks``, handed out by ``io/feed.py``'s ``DocumentFeed``), each block parsed by the same code
with the file's line numbers; reading a file whole is adding its blocks up (``_Raw.concat``), so the
spans and the first error are the same whatever the block size.

The reference pairs target and system sentences silently; here different
sentence (or, for CoNLL, token) counts are an error naming both.
"""
from __future__ import annotations

import codecs
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, SpanSet
from ..core.printable import control_message, first_control, has_control
from ..core.tokensets import TokenSets
from ..errors import InputError
from .feed import DocumentFeed, before_line, blank_before
from .source import BOM, RawBlock, line_blocks, open_stream

#: POS tags treated as punctuation: the reference's list (STTS, UPOS, its custom tags,
#: PTB-style ``. , : ( ) "`` and typographic quotes) plus the PTB's own tags for quotes
#: and brackets (`````, ``''``, ``-LRB-``, ``-RRB-``), which the reference's list misses
PUNCT_TAGS = frozenset({"$.", "$,", "$(", "PUNCT", "PUNKT", "KOMMA", "COMMA", "KLAMMER",
                        ".", ",", ":", "(", ")", '"', "\u2018", "\u201c", "\u2019", "\u201d",
                        "``", "''", "-LRB-", "-RRB-"})
#: dummy labels for sentences without spans; the reference always excludes them
DUMMY_LABELS = ("NONE", "EMPTY")
OUTSIDE = ("O", "_", "")


@dataclass
class SpanExtra:
    """Per side: input position of every span (the reference breaks ties by it) and
    the token sets that are not the span's whole range."""

    order: np.ndarray
    tokens: TokenSets


@dataclass
class FairData:
    """A target/system pair read for fair evaluation."""

    corpus: Corpus
    gold: SpanExtra
    system: SpanExtra
    format: str                       # "spans" or "conll2000"
    excluded: Dict[str, int] = field(default_factory=dict)   # side -> spans left out by labels/exclude
    punct_dropped: Dict[str, int] = field(default_factory=dict)  # side -> spans that were only punctuation

    @property
    def system_name(self) -> str:
        return next(iter(self.corpus.systems))


# ---------------------------------------------------------------------------
# raw spans per file: (sentence, label, begin, end, token list or None, line) with 0-based begin/end

@dataclass
class _Raw:
    """Spans of one file in input order; begin/end 0-based within the sentence."""

    path: str
    n_sent: int
    sent: List[int] = field(default_factory=list)
    label: List[str] = field(default_factory=list)
    begin: List[int] = field(default_factory=list)
    last: List[int] = field(default_factory=list)  # the file's ``end`` column (inclusive), 0-based
    line: List[int] = field(default_factory=list)
    tokens: Dict[int, List[int]] = field(default_factory=dict)  # span number -> 0-based tokens (irregular only)
    sent_len: Optional[np.ndarray] = None   # CoNLL: tokens per sentence
    repairs: int = 0                        # span lines with end < begin (swapped, as the reference does)
    punct_dropped: int = 0

    @property
    def n_docs(self) -> int:
        """Its sentences (what a feed hands out)."""
        return self.n_sent

    @staticmethod
    def concat(parts: Sequence[_Raw]) -> _Raw:
        """Consecutive blocks of one file as one: their sentences and spans end to end."""
        out = _Raw(parts[0].path, 0)
        lens = []
        for p in parts:
            base = len(out.label)
            out.sent += [k + out.n_sent for k in p.sent]
            out.label += p.label
            out.begin += p.begin
            out.last += p.last
            out.line += p.line
            out.tokens.update({k + base: v for k, v in p.tokens.items()})
            out.n_sent += p.n_sent
            out.repairs += p.repairs
            out.punct_dropped += p.punct_dropped
            if p.sent_len is not None:
                lens.append(p.sent_len)
        if lens:
            out.sent_len = np.concatenate(lens)
        return out


#: about how many bytes of a file a block holds (whole sentences)
BLOCK_BYTES = 1 << 22


def _added_up(feed: DocumentFeed, path: str) -> _Raw:
    """The blocks of ``feed`` added up (its first error raised; no block: no sentence)."""
    parts = []
    while not feed.done():
        parts.append(feed.take(None))
    return _Raw.concat(parts) if parts else _Raw(path, 0)


def _span_feed(path: str, block_bytes: Optional[int]) -> DocumentFeed:
    """A span file's sentences, a block at a time (each block's errors where they are, so the first error is
    the same whatever the block size)."""
    from .columns import sentence_cut

    state = _SpanState()

    def parse(raw: RawBlock, stop: Optional[int], first: int) -> _Raw:
        return _parse_span_block(raw, stop, path, state)

    blocks = line_blocks(lambda: open_stream(path), sentence_cut(None), block_bytes)
    return DocumentFeed(path, blocks, parse, before_line(path, True), lambda last: None,
                        lambda: InputError("empty file", path), blank=None, earliest=True)


@dataclass
class _SpanState:
    """What the blocks of a span file read so far tell the next: the BOM's length, and per block start (in
    bytes) the lines ended by a lone ``\\r`` before it."""

    bom: int = 0
    crs: Dict[int, int] = field(default_factory=lambda: {0: 0})


def _parse_span_block(raw: RawBlock, stop: Optional[int], path: str, state: _SpanState) -> _Raw:
    """A block of a span file (up to byte ``stop``) decoded as the file is read whole: UTF-8 (a BOM dropped),
    lines end at ``\\n``, ``\\r\\n`` or ``\\r``; ``state`` carries the BOM and the lines ended by a lone
    ``\\r`` in the blocks before."""
    data = raw.data if stop is None else raw.data[:stop]
    shift = len(BOM) if raw.bytes == 0 and data.startswith(BOM) else 0
    if raw.bytes == 0:
        state.bom = shift
    try:
        text = codecs.utf_8_decode(data[shift:], "strict", True)[0]
    except UnicodeDecodeError as err:
        at = shift + err.start
        before = blank_before(data, data.count(b"\n", 0, at) + 1)
        if before > 0:        # an error in the sentences before it comes first
            _parse_span_block(raw, before, path, state)
        raise InputError(f"not UTF-8 ({err.reason} at byte {raw.bytes + at - state.bom})", path) from None
    crs = state.crs.get(raw.bytes, 0)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if stop is None:
        state.crs[raw.bytes + len(data)] = crs + text.count("\n") - data.count(b"\n")
    return _span_block(text.split("\n"), path, raw.lines + crs)


def detect_format(path: str) -> str:
    """``spans`` when the first non-blank line has 3-4 tab-separated fields with integer
    begin and end, else ``conll2000``."""
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        for line in fh:
            s = line.strip()
            if not s:
                continue
            f = s.split("\t")
            if len(f) in (3, 4) and f[1].strip().lstrip("-").isdigit() and f[2].strip().lstrip("-").isdigit():
                return "spans"
            return "conll2000"
    return "spans"


def read_span_file(path: str, block_bytes: Optional[int] = BLOCK_BYTES) -> _Raw:
    """Parse a span file (all labels kept; filtering comes later), in blocks of whole
    sentences of about ``block_bytes`` (None: one block) added up.

    The common case (every line well formed, token lists equal to their range) is
    checked in bulk; any line that is not is looked at on its own, so errors name
    their line and irregular token sets are kept.
    """
    return _added_up(_span_feed(path, block_bytes), path)


def _span_block(lines: List[str], path: str, line0: int) -> _Raw:
    """The spans of a block of a span file (``lines``, after ``line0`` lines of the file)."""
    stripped = [ln.rstrip() for ln in lines]      # a leading tab is an empty label, not nothing
    nonblank = np.fromiter((bool(x) for x in stripped), bool, len(stripped))
    nb = np.flatnonzero(nonblank)
    at = nb + 1 + line0                           # the lines in the file
    raw = _Raw(path, 0)
    if not len(nb):
        return raw
    new_sent = np.ones(len(nb), bool)
    new_sent[1:] = nb[1:] != nb[:-1] + 1
    sent = np.cumsum(new_sent) - 1
    fields = [stripped[i].split("\t") for i in nb.tolist()]
    nf = np.fromiter(map(len, fields), np.int64, len(fields))
    bad = np.flatnonzero((nf < 3) | (nf > 4))
    if len(bad):
        _span_line(fields[bad[0]], path, int(at[bad[0]]))      # raises
    labels = [f[0].strip() for f in fields]
    bad_label = first_control(labels)
    if bad_label is not None:
        raise InputError(control_message(labels[bad_label], "label"), path, int(at[bad_label]))
    try:
        b = np.fromiter(map(int, (f[1] for f in fields)), np.int64, len(fields))
        e = np.fromiter(map(int, (f[2] for f in fields)), np.int64, len(fields))
        tok_field = [f[3] if len(f) == 4 else "" for f in fields]
        given = np.fromiter((bool(t.strip()) for t in tok_field), bool, len(fields))
        counts = np.fromiter((t.count(",") + 1 for t in tok_field), np.int64, len(fields))
        gi = np.flatnonzero(given)
        toks = np.fromiter(map(int, ",".join(tok_field[i] for i in gi.tolist()).split(",")), np.int64,
                           int(counts[gi].sum())) if len(gi) else np.zeros(0, np.int64)
    except ValueError:
        for k, f in enumerate(fields):
            _span_line(f, path, int(at[k]))
        raise AssertionError("unreachable") from None  # pragma: no cover
    ok = np.array([bool(x) for x in labels], bool) & (b >= 1) & (e >= b)
    # a given token list is the plain range when it has e-b+1 entries b, b+1, ..., e
    regular = ~given.copy()
    if len(gi):
        cnt = counts[gi]
        start = np.concatenate(([0], np.cumsum(cnt)[:-1]))
        expect = np.repeat(b[gi] - start, cnt) + np.arange(len(toks))
        match_all = np.logical_and.reduceat(toks == expect, start) if len(toks) else np.ones(len(gi), bool)
        regular[gi] = match_all & (cnt == e[gi] - b[gi] + 1)
    special = np.flatnonzero(~(ok & regular))
    raw.sent = sent.tolist()
    raw.label = labels
    raw.begin = (b - 1).tolist()
    raw.last = (e - 1).tolist()
    raw.line = at.tolist()
    for k in special.tolist():
        lab, bb, ee, tk, swapped = _span_line(fields[k], path, int(at[k]))
        raw.label[k], raw.begin[k], raw.last[k] = lab, bb - 1, ee - 1
        raw.repairs += swapped
        if tk is not None:
            raw.tokens[k] = [t - 1 for t in tk]
    raw.n_sent = int(sent[-1]) + 1
    return raw


def _span_line(f: List[str], path: str, n: int) -> Tuple[str, int, int, Optional[List[int]], int]:
    """One span-file line's fields -> (label, begin, end, token list or None, swapped); InputError if bad.

    Begin and end are 1-based; ``end < begin`` is swapped as the reference does
    (reported as a repair); a token list equal to begin..end is returned as None.
    """
    line = "\t".join(f)
    if len(f) not in (3, 4):
        raise InputError(f"{len(f)} tab-separated fields in {line[:60]!r}; expected 4: label, begin, end, "
                         "comma-separated token indices", path, n)
    label = f[0].strip()
    if not label:
        raise InputError(f"empty label in {line[:60]!r}; expected label, begin, end, tokens", path, n)
    try:
        b, e = int(f[1]), int(f[2])
    except ValueError:
        raise InputError(f"begin {f[1]!r} / end {f[2]!r}: expected integer token indices (1-based)",
                         path, n) from None
    if b < 1 or e < 1:
        raise InputError(f"begin {b} / end {e}: token indices start at 1", path, n)
    swapped = 0
    if e < b:
        b, e, swapped = e, b, 1
    toks = None
    if len(f) == 4 and f[3].strip():
        try:
            toks = sorted({int(v) for v in f[3].split(",")})
        except ValueError:
            raise InputError(f"tokens {f[3]!r}: expected comma-separated integers", path, n) from None
        if toks[0] < b or toks[-1] > e:
            raise InputError(f"tokens {f[3]!r}: indices must lie within begin {b} .. end {e}", path, n)
        if len(toks) == e - b + 1:
            toks = None
    return label, b, e, toks, swapped


_B, _I, _KEEP = 1, 2, 3


def _parse_annotation(value: str) -> Optional[List[Tuple[int, str]]]:
    """``I-S|B-NP`` -> [(I, 'S'), (B, 'NP')]; None for an outside token (``O``, ``_``, empty).

    A component ``O``, ``_`` or empty inside a stack (``I-S|``) is KEEP: like the
    reference, it leaves the span open at that level without extending it.
    ValueError (with the component) for anything else.
    """
    if value in OUTSIDE:
        return None
    out = []
    for comp in value.split("|"):
        comp = comp.strip()
        if comp in OUTSIDE:
            out.append((_KEEP, ""))
        elif comp[:2] in ("B-", "I-") and len(comp) > 2:
            out.append((_B if comp[0] == "B" else _I, comp[2:]))
        else:
            raise ValueError(comp)
    return out


def read_conll2000_file(path: str, ignore_punct: bool = True, block_bytes: Optional[int] = BLOCK_BYTES) -> _Raw:
    """Parse a CoNLL-2000 file (form, POS, BIO annotation with ``|``-stacked levels).

    Decoded per level as the reference's stack reader does: a span at level d
    starts at ``B-`` and is extended by each later ``I-`` at level d; a KEEP
    component (``I-S|``) leaves it open without adding the token (so a later
    ``I-`` leaves a gap in its token set); it is closed by an outside token, by a
    token with fewer levels, by a new span at level d or shallower, or by the
    sentence end.  Repairs where the reference would crash or mislabel (as
    conlleval does): an ``I-`` with no open span, or with another label than the
    open span, starts a new span.  Labels are everything after ``B-`` / ``I-``
    (the reference cuts at the next hyphen).  The spans come out in the order the
    reference emits them (it breaks ties by that order).
    """
    from .conll import ColumnOptions, column_feed

    parts = column_feed(path, [2, -1], ColumnOptions(), block_bytes)

    def parse(raw: RawBlock, stop: Optional[int], first: int) -> _Raw:
        return _conll2000_block(parts.parse(raw, stop, first).cf, path, ignore_punct)

    feed = DocumentFeed(parts.name, parts.blocks, parse, parts.cut_before, lambda last: None, parts.none, blank=None,
                        earliest=True)
    if feed.done():
        feed.end()      # a file without token lines
    return _added_up(feed, path)


def _conll2000_block(cf: Any, path: str, ignore_punct: bool) -> _Raw:
    """The spans of a block of whole sentences of a CoNLL-2000 file (its columns read: ``cf``)."""
    if not cf.n_tokens:
        return _Raw(path, 0)        # blank lines only
    if cf.n_columns < 3:
        raise InputError(f"{cf.n_columns} columns; a CoNLL-2000 file has 3: form, POS, annotation", path,
                         int(cf.token_line[0]) if cf.n_tokens else None)
    pos_vals, pos_ids = cf.strings(2)
    ann_vals, ann_ids = cf.strings(-1)
    n = cf.n_tokens
    table = _annotation_table(path, cf, ann_vals, ann_ids)
    sent_first = np.asarray(cf.sent_first, bool)
    offsets = np.append(np.flatnonzero(sent_first), n).astype(np.int64)
    raw = _Raw(path, len(offsets) - 1)
    raw.sent_len = np.diff(offsets)
    if n == 0 or table.depth == 0:
        return raw
    spans = _decode_levels(table, ann_ids, sent_first, offsets)
    if spans is None:
        return raw
    punct = np.zeros(n, bool)
    if ignore_punct and len(pos_vals):
        punct = np.array([v in PUNCT_TAGS for v in pos_vals], bool)[pos_ids]
    _fill_raw(raw, spans, _emission_order(spans, n), punct, ignore_punct, offsets, table.labels, cf.token_line)
    return raw


@dataclass
class _AnnotationTable:
    """The distinct annotation values, parsed: per value and level the component code
    (0 none, _B, _I, _KEEP) and label id, and the value's number of levels (-1: outside)."""

    code: np.ndarray      # (values, levels) int8
    label: np.ndarray     # (values, levels) int32, -1 where no label
    levels: np.ndarray    # (values,) int64
    labels: List[str]     # label ids -> names
    depth: int            # deepest stack in the file (0: no span at all)


def _annotation_table(path: str, cf: Any, ann_vals: Sequence[str], ann_ids: np.ndarray) -> _AnnotationTable:
    """Parse the annotation values the column uses (the column reader shares one
    vocabulary between the columns it decodes); InputError naming the first bad one."""
    used = np.zeros(len(ann_vals), bool)
    used[ann_ids] = True
    bad = [k for k, v in enumerate(ann_vals) if used[k] and has_control(v)]
    if bad:     # at the first line any of them is on
        tok = int(np.flatnonzero(np.isin(ann_ids, bad))[0])
        raise InputError(control_message(ann_vals[int(ann_ids[tok])], "annotation"), path, int(cf.token_line[tok]))
    parsed: List[Optional[List[Tuple[int, str]]]] = []
    for k, v in enumerate(ann_vals):
        if not used[k]:
            parsed.append(None)
            continue
        try:
            parsed.append(_parse_annotation(v))
        except ValueError as err:
            tok = int(np.flatnonzero(ann_ids == k)[0])
            raise InputError(f"annotation {v!r}: component {str(err)!r} is not B-LABEL, I-LABEL, O or _",
                             path, int(cf.token_line[tok])) from None
    depth = max((len(p) for p in parsed if p), default=0)
    labels = sorted({lab for p in parsed if p for c, lab in p if c != _KEEP})
    lab_index = {lab: i for i, lab in enumerate(labels)}
    V, D = len(ann_vals), max(depth, 1)
    P = np.zeros((V, D), np.int8)          # 0 = no component at this level
    LB = np.full((V, D), -1, np.int32)
    NC = np.zeros(V, np.int64)             # levels of the token (-1 = outside token)
    for k, p in enumerate(parsed):
        if p is None:
            NC[k] = -1
            continue
        NC[k] = len(p)
        for d, (c, lab) in enumerate(p):
            P[k, d] = c
            if c != _KEEP:
                LB[k, d] = lab_index[lab]
    return _AnnotationTable(P, LB, NC, labels, depth)


@dataclass
class _Decoded:
    """Spans of every level (by start token), their members and what closes them."""

    start: np.ndarray      # first token
    last: np.ndarray       # last B/I token
    level: np.ndarray
    label: np.ndarray
    close: np.ndarray      # token that closes the span (the next sentence's first token at the sentence end)
    member_tok: np.ndarray   # (token, span) pairs: the span's B/I tokens
    member_span: np.ndarray
    starts_at: np.ndarray  # (tokens, levels): a span starts here at this level
    levels: np.ndarray     # per token: number of levels (-1 outside)
    sent_end: np.ndarray   # per token: first token of the next sentence


def _decode_levels(table: _AnnotationTable, ann_ids: np.ndarray, sent_first: np.ndarray,
                   offsets: np.ndarray) -> Optional[_Decoded]:
    """Spans level by level, vectorised over tokens (None when there is none)."""
    n = len(ann_ids)
    D = table.code.shape[1]
    code, tlab, ncomp = table.code[ann_ids], table.label[ann_ids], table.levels[ann_ids]
    outside = ncomp < 0
    ar = np.arange(n)
    sent_end = offsets[np.searchsorted(offsets, ar, side="right")]   # first token of the next sentence
    starts_at = np.zeros((n, D), bool)
    st_l, en_l, lv_l, lab_l, cl_l = [], [], [], [], []
    member_tok, member_span = [], []
    shallower_start = np.zeros(n, bool)
    n_spans = 0
    for d in range(D):
        c = code[:, d]
        active = (c == _B) | (c == _I)
        breaker = sent_first | outside | (ncomp <= d) | shallower_start
        run_start = np.maximum.accumulate(np.where(breaker, ar, 0))
        last_active = np.maximum.accumulate(np.where(active, ar, -1))
        prev = np.concatenate(([-1], last_active[:-1]))
        has_prev = prev >= run_start
        start = active & ((c == _B) | ~has_prev | (tlab[np.maximum(prev, 0), d] != tlab[:, d]))
        starts_at[:, d] = start
        s_idx = np.flatnonzero(start)
        if len(s_idx):
            sid = np.maximum.accumulate(np.where(start, ar, -1))       # span (by start token) of each active token
            act = np.flatnonzero(active)
            owner = np.searchsorted(s_idx, sid[act])                   # 0..len(s_idx)-1
            lasts = np.full(len(s_idx), -1, np.int64)
            np.maximum.at(lasts, owner, act)
            # closing token: the next new span at this level or run break after the end, or the sentence end
            ev = np.flatnonzero(start | breaker)
            nxt = ev[np.minimum(np.searchsorted(ev, lasts, side="right"), len(ev) - 1)]
            nxt = np.where((nxt > lasts) & (nxt < sent_end[lasts]), nxt, sent_end[lasts])
            st_l.append(s_idx)
            en_l.append(lasts)
            lv_l.append(np.full(len(s_idx), d, np.int64))
            lab_l.append(tlab[s_idx, d])
            cl_l.append(nxt)
            member_tok.append(act)
            member_span.append(owner + n_spans)
            n_spans += len(s_idx)
        shallower_start |= start
    if not n_spans:
        return None
    return _Decoded(np.concatenate(st_l).astype(np.int64), np.concatenate(en_l).astype(np.int64),
                    np.concatenate(lv_l), np.concatenate(lab_l), np.concatenate(cl_l),
                    np.concatenate(member_tok), np.concatenate(member_span), starts_at, ncomp, sent_end)


def _emission_order(s: _Decoded, n: int) -> np.ndarray:
    """The reference's emission order: by closing token; at one token first the levels
    beyond the token's depth (innermost first), then those closed by the first new span
    (outermost first when that is at level 0, else innermost first); an outside token and
    the sentence end flush outermost first."""
    lv = s.level
    at_end = s.close == s.sent_end[s.last]
    ct = np.minimum(s.close, n - 1)
    flush = at_end | (s.levels[ct] < 0)
    beyond = lv >= s.levels[ct]
    fb = np.argmax(s.starts_at[ct], axis=1)
    k2 = np.where(flush | beyond, 0, 1)
    k3 = np.where(flush, lv, np.where(beyond, -lv, np.where(fb == 0, lv, -lv)))
    return np.lexsort((k3, k2, s.close))


def _fill_raw(raw: _Raw, s: _Decoded, order: np.ndarray, punct: np.ndarray, ignore_punct: bool,
              offsets: np.ndarray, labels: List[str], token_line: np.ndarray) -> None:
    """Token sets (the span's B/I tokens, minus punctuation when asked), the reference's
    begin/end moves, and the spans in emission order into ``raw``."""
    st, en, mtok, mspan = s.start, s.last, s.member_tok, s.member_span
    keep_tok = ~punct[mtok] if ignore_punct else np.ones(len(mtok), bool)
    n_tok = np.bincount(mspan[keep_tok], minlength=len(st))
    keep = n_tok > 0
    raw.punct_dropped = int((~keep).sum())
    if ignore_punct and punct.any():
        # the reference moves begin to the first non-punctuation token of the range
        # and end back by one token when it is punctuation
        nonp = np.flatnonzero(~punct)
        nb = nonp[np.minimum(np.searchsorted(nonp, st), max(len(nonp) - 1, 0))] if len(nonp) else st
        st = np.where(keep, nb, st)
        en = np.where(keep & punct[en], en - 1, en)
    irregular = keep & (n_tok != en - st + 1)
    order = order[keep[order]]
    new_index = np.full(len(st), -1, np.int64)
    new_index[order] = np.arange(len(order))
    base = offsets[np.searchsorted(offsets, st, side="right") - 1]
    irr = np.flatnonzero(irregular)
    if len(irr):
        # members grouped by span (CSR), token order within each span
        mo = np.lexsort((mtok, mspan))
        ms, mt, mk = mspan[mo], mtok[mo], keep_tok[mo]
        ptr = np.concatenate(([0], np.cumsum(np.bincount(ms, minlength=len(st)))))
        for k in irr.tolist():
            a, b = int(ptr[k]), int(ptr[k + 1])
            raw.tokens[int(new_index[k])] = (mt[a:b][mk[a:b]] - base[k]).tolist()
    raw.sent = (np.searchsorted(offsets, st[order], side="right") - 1).tolist()
    raw.label = [labels[i] for i in s.label[order].tolist()]
    raw.begin = (st[order] - base[order]).tolist()
    raw.last = (en[order] - base[order]).tolist()
    raw.line = token_line[st[order]].tolist()


# ---------------------------------------------------------------------------
# pairing files and building the corpus

def pair_files(target: str, system: str) -> List[Tuple[str, str]]:
    """(target file, system file) pairs: two files, or two directories matched by file name."""
    if os.path.isdir(target) != os.path.isdir(system):
        raise InputError(f"target_in {target!r} and system_in {system!r}: give two files or two directories")
    for p in (target, system):
        if not os.path.exists(p):
            raise InputError("no such file or directory", p)
    if not os.path.isdir(target):
        return [(target, system)]
    tn = sorted(f for f in os.listdir(target) if os.path.isfile(os.path.join(target, f)))
    sn = set(f for f in os.listdir(system) if os.path.isfile(os.path.join(system, f)))
    missing = [f for f in tn if f not in sn]
    extra = sorted(sn - set(tn))
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"no system file for {', '.join(missing[:5])}")
        if extra:
            parts.append(f"no target file for {', '.join(extra[:5])}")
        raise InputError(f"target and system directories must hold the same file names: {'; '.join(parts)}",
                         system)
    if not tn:
        raise InputError("directory holds no files", target)
    return [(os.path.join(target, f), os.path.join(system, f)) for f in tn]


def _keep_label(label: str, labels: Optional[Sequence[str]], exclude: Sequence[str]) -> bool:
    return label not in exclude and (labels is None or label in labels)


def read_faireval(
    target: str,
    system: str,
    *,
    labels: Optional[Sequence[str]] = None,
    exclude: Sequence[str] = DUMMY_LABELS,
    ignore_punct: bool = True,
    name: str = "system",
    fmt: Optional[str] = None,
    block_bytes: Optional[int] = BLOCK_BYTES,
) -> FairData:
    """Read target and system (files, or directories paired by file name) for fair evaluation.

    ``labels`` None keeps every label; ``exclude`` drops labels (``NONE`` and
    ``EMPTY`` are always dropped, as in the reference).  ``fmt`` forces ``spans``
    or ``conll2000`` (default: detected per file).  Each file is read in blocks of whole
    sentences of about ``block_bytes`` (None: one block); the result and the first error are
    the same whatever their size.
    """
    exclude = tuple(exclude) + tuple(d for d in DUMMY_LABELS if d not in exclude)
    if labels is not None and ("all" in labels):
        labels = None
    pairs = pair_files(target, system)
    t_raws, s_raws, formats = [], [], set()
    for tpath, spath in pairs:
        ft = fmt or detect_format(tpath)
        fs = fmt or detect_format(spath)
        if ft != fs:
            raise InputError(f"target {tpath} looks like a {ft} file, the system file like a {fs} file", spath)
        if ft not in ("spans", "conll2000"):
            raise InputError(f"unknown format {ft!r}: expected spans or conll2000", tpath)
        formats.add(ft)
        if ft == "spans":
            tr, sr = read_span_file(tpath, block_bytes), read_span_file(spath, block_bytes)
        else:
            tr = read_conll2000_file(tpath, ignore_punct, block_bytes)
            sr = read_conll2000_file(spath, ignore_punct, block_bytes)
        if tr.n_sent != sr.n_sent:
            raise InputError(f"target {tpath} has {tr.n_sent} sentences, system {spath} has {sr.n_sent}; "
                             "the files must hold the same sentences", spath)
        if tr.sent_len is not None and sr.sent_len is not None:
            bad = np.flatnonzero(tr.sent_len != sr.sent_len)
            if len(bad):
                k = int(bad[0])
                raise InputError(f"sentence {k + 1} has {tr.sent_len[k]} tokens in target {tpath} but "
                                 f"{sr.sent_len[k]} in system {spath}", spath)
        t_raws.append(tr)
        s_raws.append(sr)
    return _build(t_raws, s_raws, labels, exclude, name, "+".join(sorted(formats)),
                  [p[0] for p in pairs], [p[1] for p in pairs])


def _build(t_raws: List[_Raw], s_raws: List[_Raw], labels: Optional[Sequence[str]], exclude: Sequence[str],
           name: str, fmt: str, tfiles: List[str], sfiles: List[str]) -> FairData:
    """Filter labels, lay the sentences of all file pairs end to end, and build the Corpus."""
    lengths: List[np.ndarray] = []
    kept: Dict[str, List[Tuple[_Raw, np.ndarray, int]]] = {"gold": [], "system": []}
    excluded = {"gold": 0, "system": 0}
    sent_base = 0
    for tr, sr in zip(t_raws, s_raws):
        keeps = []
        for side, r in (("gold", tr), ("system", sr)):
            verdict = {lab: _keep_label(lab, labels, exclude) for lab in set(r.label)}
            k = np.fromiter(map(verdict.__getitem__, r.label), bool, len(r.label))
            excluded[side] += int((~k).sum())
            keeps.append(k)
        if tr.sent_len is not None:
            ln = tr.sent_len.astype(np.int64)
        else:
            ln = np.ones(tr.n_sent, np.int64)
            for r, k in zip((tr, sr), keeps):
                if k.any():
                    np.maximum.at(ln, np.asarray(r.sent, np.int64)[k], np.asarray(r.last, np.int64)[k] + 1)
        lengths.append(ln)
        for side, r, k in (("gold", tr, keeps[0]), ("system", sr, keeps[1])):
            kept[side].append((r, k, sent_base))
        sent_base += tr.n_sent
    lens = np.concatenate(lengths) if lengths else np.zeros(0, np.int64)
    offsets = np.concatenate(([0], np.cumsum(lens))).astype(np.int64)
    label_set = sorted({lab for side in kept.values() for r, k, _ in side
                        for lab, ok in zip(r.label, k.tolist()) if ok})
    index = {lab: i for i, lab in enumerate(label_set)}
    sets: Dict[str, SpanSet] = {}
    extras: Dict[str, SpanExtra] = {}
    infos: Dict[str, SideInfo] = {}
    for side in ("gold", "system"):
        st_l, en_l, lb_l, ord_l = [], [], [], []
        tok_sets: Dict[int, np.ndarray] = {}
        pos = 0
        order_base = 0
        repairs = 0
        for r, k, sb in kept[side]:
            idx = np.flatnonzero(k)
            sent = np.asarray(r.sent, np.int64)[idx] + sb
            base = offsets[sent]
            st_l.append(base + np.asarray(r.begin, np.int64)[idx])
            en_l.append(base + np.asarray(r.last, np.int64)[idx])
            lb_l.append(np.array([index[r.label[i]] for i in idx.tolist()], np.int32))
            ord_l.append(order_base + idx.astype(np.int64))
            for j, i in enumerate(idx.tolist()):
                if i in r.tokens:
                    tok_sets[pos + j] = int(base[j]) + np.asarray(r.tokens[i], np.int64)
            pos += len(idx)
            order_base += len(r.label)
            repairs += r.repairs
        st = np.concatenate(st_l) if st_l else np.zeros(0, np.int64)
        en = np.concatenate(en_l) if en_l else np.zeros(0, np.int64)
        lb = np.concatenate(lb_l) if lb_l else np.zeros(0, np.int32)
        od = np.concatenate(ord_l) if ord_l else np.zeros(0, np.int64)
        o = np.lexsort((lb, en, st))
        inv = np.empty(len(o), np.int64)
        inv[o] = np.arange(len(o))
        sets[side] = SpanSet(st[o], en[o], lb[o])
        extras[side] = SpanExtra(od[o], TokenSets.from_dict({int(inv[k]): v for k, v in tok_sets.items()}))
        files = tfiles if side == "gold" else sfiles
        where = files[0] if len(files) == 1 else os.path.dirname(files[0])
        infos[side] = SideInfo(side if side == "gold" else name, where, spans=len(o), repairs=repairs)
    corpus = Corpus(offsets, label_set, sets["gold"], {name: sets["system"]}, infos["gold"], {name: infos["system"]})
    return FairData(corpus, extras["gold"], extras["system"], fmt, excluded,
                    {"gold": sum(r.punct_dropped for r in t_raws), "system": sum(r.punct_dropped for r in s_raws)})
