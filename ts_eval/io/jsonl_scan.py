"""A byte-level (numpy) scan of token-list JSON Lines: the token, tag and span arrays without ``json``.

Stdlib ``json`` makes a Python string of every token; the readers only need where each token's text
lies in the file (the keys are cut from the bytes when pairing asks for them, as the column reader
does), the few distinct tags, and the spans as integer columns.  This module finds, in each line, the
top-level ``"tokens": [..]`` array (and ``"tags"`` or ``"spans"``), checks that it has exactly the
shape the scanner understands, takes the strings' byte ranges and the spans' integers directly, and
cuts the arrays out of the line: what is left (ids, extra keys; small) is parsed by ``json`` as before.

It is a fast path only.  A chunk of lines (the same chunks of :data:`ts_eval.io.jsonl.CHUNK_LINES`
non-blank lines the ``json`` path parses) is scanned only when every one of its lines is recognised:
no backslash anywhere in the chunk (so no JSON escape needs decoding), no control character inside a
string, exactly one such key per line, written as ``json.dumps`` writes keys (the colon right after
it), followed by an array of plain strings (a little whitespace around its commas and brackets is
fine), and ``"spans"`` as ``json.dumps`` writes ``{"start": int, "end": int, "label": str}`` objects, with
its default or its compact separators.  Anything else (and a file that is not UTF-8 or not JSON Lines
of objects) is left to the ``json`` path, chunk by chunk, which also reports every error: what the scan
accepts, ``json.loads`` would have read the same way.  Where a cut array (or id) was, the rest of the
line holds ``"\\"``, a value no line of a scanned chunk can hold: the reader checks that the records'
own top-level keys are the ones cut.
"""
from __future__ import annotations

import itertools
import json
import os
import re
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..errors import InputError
from . import jsonl
from .columns import byte_windows, unique_slices
from .jsonl import Chunk, parse_chunk
from .source import BOM, check_utf8

try:    # the compiled scanner (_jsonl_scan.c), built when a C compiler was at hand at installation
    from . import _jsonl_scan
except ImportError:     # pragma: no cover - exercised where no compiler is at hand
    _jsonl_scan = None  # type: ignore[assignment]

#: scan with the compiled scanner where it is built: it reads a chunk in one pass over its bytes, and gives a
#: chunk it does not recognise back to the numpy scan (and that one to ``json``); False (or the environment
#: variable TS_EVAL_NUMPY_READER=1): numpy only.  Tests compare the two.
COMPILED_PATH = not os.environ.get("TS_EVAL_NUMPY_READER")

_LEADING_SPACE = re.compile(rb"[ \t\n\r\x0b\x0c]*")    # what bytes.lstrip() strips

#: chunks scanned together (fewer numpy calls); a group that is not clean is scanned chunk by chunk
GROUP_CHUNKS = 8

_WS = np.zeros(256, np.uint8)         # JSON whitespace inside one line
_WS[[9, 13, 32]] = 1
_GAP_START = np.zeros(256, bool)      # a byte after a string that may begin a comma gap
_GAP_START[[9, 13, 32, 44]] = True
_LOW = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
#: what a cut array's content (and a cut id string) becomes in the rest of the line: the string of one
#: backslash, which no value of a scanned chunk can be (it holds no backslash)
_MARK = b'"\\\\"'
MARK = "\\"


@dataclass
class Scanned:
    """One chunk of records read by the scan: ``records`` are the lines with each scanned array as
    ``[MARK]``, so ids and other keys are as ``json`` reads them; or all lines are one ``template`` (with the
    id as MARK when ``ids`` are given)."""

    records: Optional[List[Dict[str, Any]]]
    lines: List[int]
    tok_start: np.ndarray             # byte offset of each token's text in the file (int64)
    tok_len: np.ndarray               # its length in bytes (int32)
    tok_count: np.ndarray             # tokens per record
    tags: Optional[Tuple[List[str], np.ndarray]] = None           # (values, per-token index)
    tags_seen: bool = False           # the tag values are in the order first seen, each used (compiled scanner)
    span_count: Optional[np.ndarray] = None                      # spans per record
    spans: Optional[Tuple[np.ndarray, np.ndarray, List[str]]] = None   # start, end, label per span
    values: Optional[List[Any]] = None                           # ner_tags, as json read them
    template: Optional[Any] = None    # instead of records: every record is this one (its id MARK when ids given)
    ids: Optional[Sequence[Optional[str]]] = None   # the records' ids, when their id values were cut as well
    source: Optional[Tuple[bytes, np.ndarray, np.ndarray]] = None   # the file, its lines' byte ranges

    @property
    def first(self) -> Any:
        """The first record (with its scanned arrays as [MARK])."""
        return self.records[0] if self.records is not None else self.template

    @property
    def objects(self) -> List[Any]:
        """The records the rest of the lines make (the one template for all, or one a line)."""
        if self.template is not None:
            return [self.template]
        assert self.records is not None
        return self.records

    def record_ids(self, cut: Dict[str, Any], id_key: str) -> Optional[List[Optional[str]]]:
        """The records' ids (as strings, or None) when every record is an object whose own keys ``cut`` hold
        what the scan cut from them (``[MARK]`` for an array, ``MARK`` for a string) and whose id is a string or
        integer (or absent); None otherwise (the chunk then goes to the json path)."""
        recs = self.objects
        if not set(map(type, recs)) <= {dict}:
            return None
        for key, mark in cut.items():
            got = list(map(dict.get, recs, itertools.repeat(key)))
            if got.count(mark) != len(got):
                return None
        rids: List[Any] = list(map(dict.get, recs, itertools.repeat(id_key)))
        if self.template is not None:
            if self.ids is not None:
                if rids != [MARK]:     # the id the scan cut is the record's own
                    return None
                rids = list(self.ids)
            else:
                rids = rids * len(self.lines)
        id_types = set(map(type, rids))
        if not id_types <= {str, int, type(None)}:
            return None
        return rids if id_types <= {str, type(None)} else [None if r is None else str(r) for r in rids]

    def parse(self, name: str) -> List[Dict[str, Any]]:
        """The chunk's records as the ``json`` path reads them (it reports what is wrong with them)."""
        assert self.source is not None
        data, starts, ends = self.source
        return parse_chunk(_text(data, starts, ends), self.lines, name)


Item = Union[Chunk, Scanned]
#: the array scanned besides the tokens (or the text), the id key, the text key (None: a token list)
Spec = Tuple[Optional[str], str, Optional[str]]


def scan_chunks(data: bytes, name: str, array: Optional[str], id_key: str = "id",
                chunk_lines: Optional[int] = None, text_key: Optional[str] = None) -> Optional[Iterator[Item]]:
    """The chunks of a JSON Lines file, each as :class:`Scanned` or as ``(records, lines)`` from the ``json``
    path; ``array`` is the key scanned besides ``"tokens"`` (``"tags"``, ``"spans"`` or None).  With
    ``text_key``, each record's one string under that key is scanned instead of a ``"tokens"`` array: the
    :class:`Scanned` chunk's "tokens" are then the records' texts, one each (``"spans"`` then hold character
    offsets, checked only to be increasing: the reader checks them against the texts).  None when the file is
    not for the scan at all (not UTF-8, a JSON array, empty, a text key the scan cannot name)."""
    if text_key is not None and not _nameable(text_key.encode("utf-8")):
        return None
    start = len(BOM) if data.startswith(BOM) else 0
    lead = _LEADING_SPACE.match(data, start)
    if lead is None or data[lead.end():lead.end() + 1] != b"{" or not _is_utf8(data, name):
        return None
    buf = np.frombuffer(data, np.uint8)
    nl = np.flatnonzero(buf[start:] == 10) + start
    line_start = np.concatenate(([start], nl + 1))
    line_end = np.concatenate((nl, [len(data)]))
    nonblank = np.zeros(len(line_start), bool)
    head = np.minimum(line_start, max(len(data) - 1, 0))
    nonblank[:] = (line_end > line_start) & (buf[head] == ord("{"))
    for k in np.flatnonzero(~nonblank & (line_end > line_start)).tolist():   # rare: as str.strip() says
        nonblank[k] = bool(data[line_start[k]:line_end[k]].decode("utf-8").strip())
    records = np.flatnonzero(nonblank)
    return _chunks(data, line_start, line_end, records, (array, id_key, text_key), name,
                   chunk_lines or jsonl.CHUNK_LINES)


def _nameable(key: bytes) -> bool:
    """Whether the scan can find a key by its bytes (1-8 bytes, no quote or backslash)."""
    return 0 < len(key) <= 8 and b'"' not in key and b"\\" not in key


def first_record(data: bytes) -> Any:
    """The first line of a JSON Lines file as ``json`` reads it (None when it is not JSON or not UTF-8): what
    a reader looks at to decide whether the file is for the scan."""
    at = data.find(b"{")
    if at < 0:
        return None
    end = data.find(b"\n", at)
    try:
        return json.loads(data[at:end if end >= 0 else len(data)].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def _is_utf8(data: bytes, name: str) -> bool:
    if data.isascii():
        return True
    try:
        check_utf8(data, name)
    except InputError:
        return False
    return True


def _chunks(data: bytes, line_start: np.ndarray, line_end: np.ndarray, records: np.ndarray, spec: Spec,
            name: str, chunk_lines: int) -> Iterator[Item]:
    chunks = [records[c:c + chunk_lines] for c in range(0, len(records), chunk_lines)]
    keys = _compiled_keys(spec) if COMPILED_PATH and _jsonl_scan is not None else None

    def one(ch: np.ndarray) -> Optional[Scanned]:
        return (_scan_group(data, line_start, line_end, [ch], spec) or [None])[0]
    for g in range(0, len(chunks), GROUP_CHUNKS):
        group = chunks[g:g + GROUP_CHUNKS]
        done: Optional[List[Optional[Scanned]]]
        if keys is not None:        # compiled, chunk by chunk; one it gives back: numpy, then json
            done = [_scan_compiled(data, line_start[ch], line_end[ch], ch, spec, keys) or one(ch) for ch in group]
        else:
            done = _scan_group(data, line_start, line_end, group, spec)
            if done is None and len(group) > 1:
                done = [one(ch) for ch in group]
        for ch, item in zip(group, done or [None] * len(group)):
            if item is None:
                nums = (ch + 1).tolist()
                yield parse_chunk(_text(data, line_start[ch], line_end[ch]), nums, name), nums
            else:
                yield item


#: what the compiled scanner looks for: the main key, whether it holds one text, the aux key and kind, the id key,
#: the keys that make a record go back
Keys = Tuple[bytes, bool, bytes, int, bytes, Tuple[bytes, ...]]
_AUX = {"tags": 1, "spans": 2}     # _jsonl_scan.c: AUX_TAGS, AUX_SPANS


def _compiled_keys(spec: Spec) -> Optional[Keys]:
    """The compiled scanner's keys for ``spec`` (None: numpy scans, as for ``ner_tags``, or keys the scanner
    cannot find by their bytes: a quote, a backslash or a control character in them, or two keys alike)."""
    array, id_key, text_key = spec
    if array not in _AUX:
        return None
    main = (text_key if text_key is not None else "tokens").encode("utf-8")
    aux, idk = array.encode("utf-8"), id_key.encode("utf-8")
    if len({main, aux, idk}) < 3 or any(b'"' in k or b"\\" in k or min(k, default=0) < 32 for k in (main, aux, idk)):
        return None
    reject = (b"data", b"tokens") if text_key is not None else ()
    return main, text_key is not None, aux, _AUX[array], idk, reject


def _scan_compiled(data: bytes, starts: np.ndarray, ends: np.ndarray, ch: np.ndarray, spec: Spec,
                   keys: Keys) -> Optional[Scanned]:
    """One chunk (its lines' byte ranges ``starts``..``ends``, record line indices ``ch``) read by the compiled
    scanner (``_jsonl_scan.c``): the :class:`Scanned` the numpy scan makes of it, or None (given back)."""
    assert _jsonl_scan is not None
    main, text, aux_key, aux, idk, reject = keys
    starts = np.ascontiguousarray(starts, np.int64)
    ends = np.ascontiguousarray(ends, np.int64)
    got = _jsonl_scan.scan(data, starts, ends, main, text, aux_key, aux, idk, reject)
    if got is None:
        return None
    tok_start, tok_len, tok_count, ids, more = got
    array, id_key, text_key = spec
    assert array is not None and more is not None
    template = {text_key or "tokens": MARK if text_key else [MARK], array: [MARK], id_key: MARK}
    item = Scanned(None, (ch + 1).tolist(), np.frombuffer(tok_start, np.int64), np.frombuffer(tok_len, np.int32),
                   np.frombuffer(tok_count, np.int64), source=(data, starts, ends), template=template,
                   ids=ids)
    if len(more) == 2:
        tag_ids, values = more
        item.tags = (values, np.frombuffer(tag_ids, np.int32))
        item.tags_seen = True
    else:
        counts, span_b, span_e, labels = more
        item.span_count = np.frombuffer(counts, np.int64)
        item.spans = (np.frombuffer(span_b, np.int64), np.frombuffer(span_e, np.int64), labels)
    return item


def _text(data: bytes, starts: np.ndarray, ends: np.ndarray) -> List[str]:
    return [data[a:b].decode("utf-8") for a, b in zip(starts.tolist(), ends.tolist())]


def _ranges(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + n) for s, n in zip(starts, lens)])`` without a Python loop."""
    keep = lens > 0
    starts, lens = starts[keep], lens[keep]
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    step = np.ones(total, np.int64)
    at = np.cumsum(lens) - lens
    step[0] = starts[0]
    step[at[1:]] = starts[1:] - (starts[:-1] + lens[:-1] - 1)
    return np.cumsum(step)


def _skip_ws(u: np.ndarray, p: np.ndarray, steps: int = 4) -> np.ndarray:
    for _ in range(steps):
        p = p + _WS[u[p]]
    return p


class _Block:
    """The strings of a run of whole lines (``u``: its bytes with 8 bytes of zero padding)."""

    def __init__(self, padded: bytes, n: int) -> None:
        self.n = n
        self.u = np.frombuffer(padded, np.uint8)
        self.win = byte_windows(padded)
        q = np.flatnonzero(self.u[:n] == 34)
        self.ok = len(q) % 2 == 0     # an odd number of quotes: not JSON Lines (the caller leaves it to json)
        q = q[:len(q) - len(q) % 2]
        self.q = q
        self.o, self.c = q[0::2], q[1::2]
        self.slen = self.c - self.o - 1
        # the keys: strings followed at once by ':' (as json.dumps writes them; else the json path)
        self.keys = np.flatnonzero(self.u[self.c + 1] == ord(":"))

    def string_is(self, k: np.ndarray, text: bytes) -> np.ndarray:
        """Those of the strings ``k`` whose text is ``text`` (at most 8 bytes)."""
        k = k[self.slen[k] == len(text)]
        return k[(self.win[self.o[k] + 1] & _LOW[len(text)]) == _word(text)]

    def named(self, key: bytes, value: bytes = b"[") -> Tuple[np.ndarray, np.ndarray]:
        """The keys equal to ``key`` (at most 8 bytes): their string indices, and the positions of the
        ``value`` byte (``[``) that follows the colon (whitespace between), or -1."""
        k = self.string_is(self.keys, key)
        p = _skip_ws(self.u, self.c[k] + 2)
        return k, np.where(self.u[p] == value[0], p, -1)


def _comma_stops(blk: _Block) -> np.ndarray:
    """The last string of every run of comma-separated strings (what an array of strings is made of)."""
    o, c = blk.o, blk.c
    m = len(o)
    # comma gaps: string i is followed (whitespace aside) by one comma and then string i + 1; the common
    # gaps ',' and ', ' are told by the bytes alone (the next '"' after a string opens the next string)
    w = blk.win[c + 1]
    comma = ((w & np.uint64(0xFFFF)) == np.uint64(0x222C)) | ((w & np.uint64(0xFFFFFF)) == np.uint64(0x22202C))
    comma[-1:] = False
    odd = np.flatnonzero(_GAP_START[(w & np.uint64(0xFF)).astype(np.uint8)] & ~comma)
    odd = odd[odd < m - 1]
    if len(odd):
        gw, gg = w[odd], o[odd + 1] - c[odd] - 1
        commas = np.zeros(len(odd), np.int64)
        other = gg > 8
        for j in range(8):
            byte = ((gw >> np.uint64(8 * j)) & np.uint64(0xFF)).astype(np.uint8)
            live = j < gg
            commas += live & (byte == 44)
            other |= live & (byte != 44) & (_WS[byte] == 0)
        comma[odd] = (commas == 1) & ~other
    return np.flatnonzero(~comma)


def _scan_group(data: bytes, line_start: np.ndarray, line_end: np.ndarray, group: Sequence[np.ndarray],
                spec: Spec) -> Optional[List[Optional[Scanned]]]:
    """Scan the lines of ``group`` (chunks of record line indices) at once: per chunk a :class:`Scanned`
    or None (that chunk goes to the json path); None when the run of lines cannot be scanned as one."""
    array, id_key, text_key = spec
    first, last = int(group[0][0]), int(group[-1][-1])
    a, b = int(line_start[first]), int(line_end[last])
    if data.find(b"\\", a, b) >= 0:
        return None
    blk = _Block(b"".join((memoryview(data)[a:b], bytes(8))), b - a)
    if not blk.ok:
        return None
    u, n, o, c = blk.u, blk.n, blk.o, blk.c
    ls = line_start[first:last + 1] - a       # every line of the run, blank ones too
    n_lines = len(ls)
    bad = np.zeros(n_lines, bool)             # lines the json path must read
    ctl = np.flatnonzero(u[:n] < 32)
    inside = (np.searchsorted(blk.q, ctl, "right") & 1).astype(bool)
    if inside.any():
        if np.any(u[ctl[inside]] == 10):
            return None                       # a string runs over a line end: not JSON
        bad[np.searchsorted(ls, ctl[inside], "right") - 1] = True

    def line_of(pos: np.ndarray) -> np.ndarray:
        return np.searchsorted(ls, pos, "right") - 1

    m = len(o)
    stops = _comma_stops(blk) if text_key is None else np.zeros(0, np.int64)

    def string_list(k: np.ndarray, lb: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For keys k with their ``[`` at lb: (ok, first string, number of strings), the array being
        ``[ "..", "..", .. ]`` with at least one string."""
        ok = lb >= 0
        i0 = np.searchsorted(o, np.where(ok, lb, 0))
        ok &= i0 < m
        i0 = np.minimum(i0, m - 1)
        ok &= _skip_ws(u, lb + 1) == o[i0]
        i1 = stops[np.minimum(np.searchsorted(stops, i0), len(stops) - 1)]
        rb = _skip_ws(u, c[i1] + 1)
        ok &= u[rb] == ord("]")
        return ok, i0, np.where(ok, i1 - i0 + 1, 0), rb

    def one_per_line(k: np.ndarray, ok: np.ndarray) -> np.ndarray:
        """Index into k of each line's key (-1 when a line has none); lines with two are marked bad."""
        line = line_of(o[k])
        count = np.bincount(line, minlength=n_lines)
        bad[:] |= count != 1
        bad[line[~ok]] = True
        at = np.full(n_lines, -1, np.int64)
        at[line] = np.arange(len(k))
        return at       # -1: index the arrays with a default appended

    cuts: List[Tuple[np.ndarray, np.ndarray]] = []

    def strings_of(key: bytes) -> Tuple[np.ndarray, np.ndarray]:
        """Per line: the first string and the number of strings of its array of strings ``key`` (0: none)."""
        k, lb = blk.named(key)
        ok, i0, count, rb = string_list(k, lb)
        at = one_per_line(k, ok)
        cuts.append((lb[ok] + 1, rb[ok]))
        return np.append(i0, 0)[at], np.append(count, 0)[at]
    def string_of(key: bytes) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per line: its one string value of ``key``, 1 (0: none) and its length in bytes."""
        k, p = blk.named(key, b'"')
        j = np.minimum(k + 1, max(m - 1, 0))
        ok = (p >= 0) & (k + 1 < m) & (np.append(o, -1)[j] == p)
        at = one_per_line(k, ok)
        cuts.append((o[j[ok]], c[j[ok]] + 1))
        has = at >= 0
        return np.append(j, 0)[at], has.astype(np.int64), np.where(has, np.append(blk.slen[j], 0)[at], 0)
    if text_key is None:
        tok_first, tok_count = strings_of(b"tokens")
        bad[:] |= tok_count == 0
        limit = tok_count
    else:       # the text: one "token" per record; its spans' offsets at most its length in bytes
        tok_first, tok_count, limit = string_of(text_key.encode("utf-8"))
    if array == "tags":
        tag_first, tag_count = strings_of(b"tags")
        bad[:] |= tag_count != tok_count
        tag_count[bad] = 0
    elif array == "spans":
        span = _spans(blk, *blk.named(b"spans"), limit, line_of, one_per_line, bad, cuts)
    # the skeleton: every scanned array's content cut down to MARK
    cut_s = np.concatenate([s for s, _ in cuts])
    cut_e = np.concatenate([e for _, e in cuts])
    order = np.argsort(cut_s, kind="stable")
    cut_s, cut_e = cut_s[order], cut_e[order]
    skeleton: List[List[str]] = []            # made when a chunk needs it (not one template)
    # the ids: a line's one string value of the id key, cut too, so that a chunk's lines often become one
    # template (parsed once) instead of a json.loads per line
    same: Optional[List[str]] = None
    ids: Optional[List[str]] = None
    key = id_key.encode("utf-8")
    if _nameable(key):
        k, p = blk.named(key, b'"')
        k, p = k[p >= 0], p[p >= 0]
        rec_rel = np.concatenate(group) - first
        if len(k) and k[-1] + 1 < len(o) and np.array_equal(o[k + 1], p) and \
                np.array_equal(line_of(o[k]), rec_rel):
            k = k + 1
            both_s, both_e = np.concatenate((cut_s, o[k])), np.concatenate((cut_e, c[k] + 1))
            order = np.argsort(both_s, kind="stable")
            both_s, both_e = both_s[order], both_e[order]
            # no id inside a scanned array; some chunk's lines all of one length without their cuts
            kept = (line_end[first:last + 1] - line_start[first:last + 1]) - \
                np.bincount(line_of(both_s), both_e - both_s, n_lines).astype(np.int64)
            if np.all(both_e[:-1] <= both_s[1:]) and any(np.all(kept[ch - first] == kept[ch[0] - first])
                                                         for ch in group):
                ids = _cut(u, n, o[k] + 1, c[k], keep=True)
                same = _cut(u, n, both_s, both_e, _MARK)
                id_line = np.full(n_lines, -1, np.int64)
                id_line[rec_rel] = np.arange(len(k))
    # per chunk
    out: List[Optional[Scanned]] = []
    tok_idx = _ranges(tok_first, tok_count)             # string index of every token, line by line
    starts_all = o[tok_idx] + 1
    tok_line_first = np.concatenate(([0], np.cumsum(tok_count)))
    tags = None
    if array == "tags":
        tag_idx = _ranges(tag_first, tag_count)
        tags = unique_slices(blk.win, o[tag_idx] + 1, c[tag_idx])
        tag_line_first = np.concatenate(([0], np.cumsum(tag_count)))
    if same is None:
        skeleton.append(_cut(u, n, cut_s, cut_e, _MARK))
        same = skeleton[0]
    for ch in group:
        rel = ch - first
        if bad[rel].any():
            out.append(None)
            continue
        rows = rel.tolist()
        recs: Optional[List[Any]] = None
        template = None
        chunk_ids = None
        if len(set(map(same.__getitem__, rows))) == 1 and (ids is None or bool(np.all(id_line[rel] >= 0))):
            with suppress(ValueError):
                template = json.loads(same[rows[0]])
                chunk_ids = None if ids is None else list(map(ids.__getitem__, id_line[rel].tolist()))
        if template is None:
            if not skeleton:
                skeleton.append(_cut(u, n, cut_s, cut_e, _MARK))
            try:
                recs = _loads([skeleton[0][r] for r in rows])
            except ValueError:
                out.append(None)
                continue
        lo, hi = int(tok_line_first[rel[0]]), int(tok_line_first[rel[-1] + 1])
        # the chunk's lines are consecutive records, blank lines between them hold no tokens
        ts = starts_all[lo:hi]
        item = Scanned(recs, (ch + 1).tolist(), ts + a, (c[tok_idx[lo:hi]] - ts).astype(np.int32), tok_count[rel],
                       source=(data, line_start[ch], line_end[ch]), template=template, ids=chunk_ids)
        if tags is not None:
            item.tags = (tags[0], tags[1][tag_line_first[rel[0]]:tag_line_first[rel[-1] + 1]])
        elif array == "spans":
            item.span_count, item.spans = span(rel)
        out.append(item)
    return out


def _cut(u: np.ndarray, n: int, cut_s: np.ndarray, cut_e: np.ndarray, mark: bytes = b"",
         keep: bool = False) -> List[str]:
    """The lines of ``u[:n]`` with the byte ranges [cut_s, cut_e) (sorted, apart) replaced by ``mark``, or
    (``keep``) the ranges themselves, one a line (gathered by numpy: the bytes kept are few, the ranges
    many)."""
    if keep:
        idx = _ranges(cut_s, cut_e - cut_s)
        sep = np.cumsum(cut_e - cut_s)
        return np.insert(u[idx], sep, 10).tobytes().decode("utf-8").split("\n")[:-1]
    src = np.concatenate((u[:n], np.frombuffer(mark, np.uint8)))     # the mark after the bytes
    starts = np.full(2 * len(cut_s) + 1, n, np.int64)                 # kept, mark, kept, .., kept
    lens = np.full(2 * len(cut_s) + 1, len(mark), np.int64)
    starts[0::2] = np.concatenate(([0], cut_e))
    lens[0::2] = np.concatenate((cut_s, [n])) - starts[0::2]
    return src[_ranges(starts, lens)].tobytes().decode("utf-8").split("\n")


def _loads(body: List[str]) -> List[Any]:
    recs = json.loads("[" + ",".join(body) + "]")
    if len(recs) != len(body):
        raise ValueError("not one record per line")
    return recs


def _word(text: bytes) -> np.uint64:
    return np.uint64(int.from_bytes(text, "little"))


def _gap_is(blk: _Block, at: np.ndarray, gap: np.ndarray, *texts: bytes) -> np.ndarray:
    """Whether the ``gap`` bytes from ``at`` are exactly one of ``texts`` (each at most 8 bytes)."""
    w = blk.win[at]
    out = np.zeros(len(at), bool)
    for text in texts:
        out |= (gap == len(text)) & ((w & _LOW[len(text)]) == _word(text))
    return out


def _spans(blk: _Block, k: np.ndarray, lb: np.ndarray, limit: np.ndarray, line_of: Any, one_per_line: Any,
           bad: np.ndarray, cuts: List[Tuple[np.ndarray, np.ndarray]]) -> Any:
    """The ``"spans"`` arrays: each ``[]`` or ``[{"start": i, "end": i, "label": "s"}, ..]`` as ``json.dumps``
    writes it (``", "``/``": "`` or ``","``/``":"`` separators; other layouts go to the json path): the
    strings between the objects' punctuation checked string by string, the integers read from the bytes.
    A span with ``start >= end`` or ``end`` beyond its line's ``limit`` (its tokens; its text's bytes) marks
    the line for the json path."""
    u, o, c, n = blk.u, blk.o, blk.c, blk.n
    m = len(o)
    slen = blk.slen

    keys = blk.keys[(slen[blk.keys] == 5) | (slen[blk.keys] == 3)]     # "start", "label", "end" only
    word = blk.win[o[keys] + 1]

    def named(text: bytes) -> np.ndarray:
        return keys[(slen[keys] == len(text)) & ((word & _LOW[len(text)]) == _word(text))]

    o_next = np.append(o, n + 8)

    def nxt_o(k: np.ndarray) -> np.ndarray:      # the next string's opening quote (past the end: none)
        return o_next[k + 1]
    # "start"/"end" keys: the gap to the next key is ':' or ': ', 1-7 digits (no leading 0), ',' or ', '
    k_start, k_end = named(b"start"), named(b"end")
    key = np.concatenate((k_start, k_end))
    p = c[key] + 2
    p = p + (u[p] == 32)
    dw = blk.win[np.minimum(p, n)]
    value = np.zeros(len(key), np.int64)
    digits = np.zeros(len(key), np.int64)
    run = (u[c[key] + 1] == ord(":"))
    for j in range(8):
        d = ((dw >> np.uint64(8 * j)) & np.uint64(0xFF)).astype(np.int64) - 48
        run &= (d >= 0) & (d < 10)
        if not run.any():
            break
        value += np.where(run, value * 9 + d, 0)
        digits += run
    q = np.minimum(p + digits, n + 6)
    int_ok = (digits > 0) & (digits < 8) & ((digits == 1) | (u[p] != ord("0"))) & (u[q] == ord(","))
    int_ok &= q + 1 + (u[q + 1] == 32) == nxt_o(key)
    ivalue = np.zeros(m + 4, np.int64)
    ivalue[key] = value
    end_ok = np.zeros(m + 4, bool)
    end_ok[k_end] = int_ok[len(k_start):]
    k_label = named(b"label")
    label_ok = np.zeros(m + 4, bool)
    label_ok[k_label] = _gap_is(blk, c[k_label] + 1, nxt_o(k_label) - c[k_label] - 1, b":", b": ")
    # an object: "start" int "end" int "label" "non-empty label", then '}, {' (more) or '}]' (the last)
    i = k_start[int_ok[:len(k_start)]]
    i = i[end_ok[i + 1] & label_ok[i + 2]]
    i = i[i + 3 < m]
    i = i[slen[i + 3] > 0]
    v = c[i + 3]
    more = _gap_is(blk, v + 1, nxt_o(i + 3) - v - 1, b"},{", b"}, {")
    tail = (u[v + 1] == ord("}")) & (u[v + 2] == ord("]"))
    cont = np.zeros(m + 4, bool)
    cont[i[more]] = True
    last = np.zeros(m + 4, bool)
    last[i[~more & tail]] = True
    # each array: [] or '[{' then objects from its first string i0 until one not followed by '}, {'
    ok = lb >= 0
    lbs = np.where(ok, lb, 0)
    empty = ok & (u[lbs + 1] == ord("]"))
    i0 = np.minimum(np.searchsorted(o, lbs), max(m - 1, 0))
    full = ok & ~empty & (m > 0) & (u[lbs + 1] == ord("{")) & (np.append(o, -1)[i0] == lbs + 2)
    end = np.full(len(lb), -1, np.int64)
    for r in range(4):
        stop = np.flatnonzero(~cont[r:m:4]) * 4 + r
        here = full & (i0 % 4 == r)
        if len(stop) and here.any():
            end[here] = stop[np.minimum(np.searchsorted(stop, i0[here]), len(stop) - 1)]
    full &= (end >= i0) & last[end]
    good = empty | full
    n_obj = np.where(full, (end - i0) // 4 + 1, 0)
    rb = np.where(full, np.append(c, 0)[np.where(full, end + 3, -1)] + 2, lbs + 1)   # after the last label
    at = one_per_line(k, good)
    line = line_of(o[k])
    cuts.append((lb[good] + 1, rb[good]))
    region_first = np.cumsum(n_obj) - n_obj
    # each span's "start" key, region by region: its region's first, then every fourth string
    first_key = np.repeat(i0 - 4 * region_first, n_obj) + 4 * np.arange(int(n_obj.sum()), dtype=np.int64)
    starts, ends = ivalue[first_key], ivalue[first_key + 1]
    lab = first_key + 3
    vals, lab_id = unique_slices(blk.win, o[lab] + 1, c[lab])
    names = np.empty(len(vals), object)      # the labels as strings: one take per chunk, not a loop per span
    names[:] = vals
    span_reg = np.repeat(np.arange(len(lb)), n_obj)
    # a span out of its record's tokens (its text) goes to the json path, which names it
    out_of = (starts >= ends) | (ends > limit[line[span_reg]])
    bad[line[span_reg[out_of]]] = True
    nspan = np.append(n_obj, 0)[at]

    def of_lines(rel: np.ndarray) -> Tuple[np.ndarray, Tuple[np.ndarray, np.ndarray, List[str]]]:
        cnt = nspan[rel]
        sel = _ranges(np.append(region_first, 0)[at[rel]], cnt)
        return cnt, (starts[sel], ends[sel], names[lab_id[sel]].tolist())
    return of_lines
