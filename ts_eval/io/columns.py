"""Whitespace-separated column files, read as bytes and split with numpy.

A file is scanned once: line and field boundaries come from byte masks, so a
million-token file never becomes a million Python strings.  Only the distinct
tags are decoded to ``str``; token texts are decoded on demand.

Rules (CoNLL layout): one token per line; fields separated by spaces, tabs (and a
CR before the line end); a blank line ends a sentence; a line whose first field
is ``-DOCSTART-`` starts a document and is not a token; a line whose first field
is ``-X-`` is a sentence boundary (conlleval.pl's rule) and is counted; a UTF-8
BOM is skipped.  All token lines must have the same number of fields.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

import numpy as np

from ..errors import InputError

_WS = np.zeros(256, bool)
_WS[[9, 10, 11, 12, 13, 32]] = True  # ASCII whitespace only: tokens may hold NBSP etc.
BOM = b"\xef\xbb\xbf"


@dataclass
class ColumnFile:
    """The token lines of one column file and where their fields are."""

    path: str
    data: np.ndarray          # the bytes (BOM removed)
    n_columns: int
    token_line: np.ndarray    # 1-based line number of every token
    first_field: np.ndarray   # per token: index of its first field in field_start/field_end
    field_start: np.ndarray
    field_end: np.ndarray
    sent_first: np.ndarray    # bool per token
    doc_first: np.ndarray     # bool per token: first token after a -DOCSTART- line
    docstart_lines: int
    boundary_lines: int       # -X- lines
    line_offset: int = 0      # bytes removed at the front (BOM), for error offsets

    @property
    def n_tokens(self) -> int:
        return len(self.token_line)

    def column_slices(self, column: int) -> Tuple[np.ndarray, np.ndarray]:
        """Byte offsets (start, end) of a 1-based column (negative: from the end)."""
        k = self.column_index(column)
        idx = self.first_field + k
        return self.field_start[idx], self.field_end[idx]

    def column_index(self, column: int) -> int:
        n = self.n_columns
        if column == 0 or not -n <= column <= n:
            raise InputError(f"column {column} does not exist: the file has {n} columns "
                             f"(give 1..{n}, or -1..-{n} counting from the end)", self.path)
        return column - 1 if column > 0 else n + column

    def strings(self, column: int) -> Tuple[List[str], np.ndarray]:
        """Distinct values of a column (decoded) and the per-token index into them."""
        starts, ends = self.column_slices(column)
        return unique_slices(self.data, starts, ends)

    def texts(self, column: int, a: int, b: int) -> List[str]:
        starts, ends = self.column_slices(column)
        raw = self.data
        return [raw[s:e].tobytes().decode("utf-8") for s, e in zip(starts[a:b].tolist(), ends[a:b].tolist())]

    def column_bytes(self, column: int) -> Tuple[np.ndarray, np.ndarray]:
        """All values of a column concatenated (bytes as uint8) and their lengths."""
        starts, ends = self.column_slices(column)
        lengths = ends - starts
        mark = np.zeros(len(self.data) + 1, np.int8)
        mark[starts] += 1
        mark[ends] -= 1
        inside = np.cumsum(mark[:-1], dtype=np.int8).view(bool)
        return self.data[inside], lengths


def read_column_file(path: str) -> ColumnFile:
    """Read and split a column file; raise :class:`InputError` on anything malformed."""
    try:
        raw = Path(path).read_bytes()
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path) from None
    return split_columns(raw, path)


def split_columns(raw: bytes, path: str = "<data>") -> ColumnFile:
    shift = 0
    if raw.startswith(BOM):
        raw, shift = raw[len(BOM):], len(BOM)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        bad = raw[err.start:err.end]
        raise InputError(f"not UTF-8: byte 0x{bad[0]:02x} at byte offset {err.start + shift} "
                         f"({err.reason}); expected UTF-8 text", path, line) from None
    data = np.frombuffer(raw, np.uint8)
    if len(data) == 0:
        raise InputError("empty file, expected token lines", path)
    ws = _WS[data]
    nl = np.flatnonzero(data == 10)
    n_lines = len(nl) + (0 if data[-1] == 10 else 1)
    edges = np.diff(np.concatenate(([0], (~ws).view(np.int8), [0])))
    fstart = np.flatnonzero(edges == 1)
    fend = np.flatnonzero(edges == -1)
    if len(fstart) == 0:
        raise InputError("empty file (only blank lines), expected token lines", path)
    fline = np.searchsorted(nl, fstart)                    # 0-based line of each field
    nfields = np.bincount(fline, minlength=n_lines)
    line_first_field = np.concatenate(([0], np.cumsum(nfields)[:-1]))
    nonblank = np.flatnonzero(nfields > 0)
    ff = line_first_field[nonblank]
    first_len = fend[ff] - fstart[ff]
    is_doc = _field_equals(data, fstart[ff], first_len, b"-DOCSTART-")
    is_bnd = _field_equals(data, fstart[ff], first_len, b"-X-")
    tok = ~(is_doc | is_bnd)
    tok_lines = nonblank[tok]
    if len(tok_lines) == 0:
        raise InputError("no token lines (only -DOCSTART-/-X- lines or blank lines)", path)
    counts = nfields[tok_lines]
    ncol = int(counts[0])
    bad = np.flatnonzero(counts != ncol)
    if len(bad):
        ln = int(tok_lines[bad[0]])
        raise InputError(f"{int(counts[bad[0]])} columns, expected {ncol} as on line {int(tok_lines[0]) + 1}: "
                         f"{_line_text(raw, nl, ln)!r}", path, ln + 1)
    doc_lines = nonblank[is_doc]
    doc_bad = np.flatnonzero((nfields[doc_lines] != 1) & (nfields[doc_lines] != ncol))
    if len(doc_bad):
        ln = int(doc_lines[doc_bad[0]])
        raise InputError(f"-DOCSTART- line with {int(nfields[ln])} columns, expected 1 or {ncol}", path, ln + 1)
    # a token starts a sentence when the line before it is not a token line
    prev_gap = np.diff(np.concatenate(([-2], tok_lines)))
    sent_first = prev_gap > 1
    # first token after a -DOCSTART- line (possibly after blank lines)
    doc_index = np.searchsorted(doc_lines, tok_lines)          # docstarts before each token
    doc_first = np.diff(np.concatenate(([0], doc_index))) > 0
    return ColumnFile(
        path=path, data=data, n_columns=ncol, token_line=tok_lines + 1,
        first_field=line_first_field[tok_lines], field_start=fstart, field_end=fend,
        sent_first=sent_first, doc_first=doc_first,
        docstart_lines=int(is_doc.sum()), boundary_lines=int(is_bnd.sum()), line_offset=shift,
    )


def _line_text(raw: bytes, nl: np.ndarray, line: int) -> str:
    a = int(nl[line - 1]) + 1 if line > 0 else 0
    b = int(nl[line]) if line < len(nl) else len(raw)
    return raw[a:b].decode("utf-8").rstrip("\r")


def _field_equals(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, word: bytes) -> np.ndarray:
    out = lengths == len(word)
    cand = np.flatnonzero(out)
    if len(cand):
        idx = starts[cand, None] + np.arange(len(word))
        out[cand] = np.all(data[idx] == np.frombuffer(word, np.uint8), axis=1)
    return out


_MULT = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5],
                 dtype=np.uint64)


def unique_slices(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Tuple[List[str], np.ndarray]:
    """Distinct byte slices ``data[s:e]`` (decoded, in first-seen-free sorted order) and inverse ids.

    Slices are padded to 8-byte words and hashed; the few distinct hashes are
    found with a sample plus ``searchsorted``, and every slice is checked
    against its representative, so a hash collision cannot merge two values.
    """
    n = len(starts)
    if n == 0:
        return [], np.zeros(0, np.int32)
    lengths = ends - starts
    width = int(-(-int(lengths.max()) // 8) * 8) or 8
    if width > 64:  # long values (tokens, odd tags): exact but slower path
        return _unique_slow(data, starts, ends)
    cols = np.arange(width)
    idx = starts[:, None] + cols
    padded = np.where(cols < lengths[:, None], data[np.minimum(idx, len(data) - 1)], 0).astype(np.uint8)
    words = np.ascontiguousarray(padded).view(np.uint64)
    key = words[:, 0] * _MULT[0]
    for j in range(1, words.shape[1]):
        key = (key ^ (key >> np.uint64(29))) + words[:, j] * _MULT[j % 4]
    key = key ^ lengths.astype(np.uint64) * _MULT[3]
    sample = np.unique(key[:: max(1, n // 4096)])
    pos = np.minimum(np.searchsorted(sample, key), len(sample) - 1)
    miss = sample[pos] != key
    if miss.any():
        sample = np.unique(np.concatenate((sample, key[miss])))
        pos = np.searchsorted(sample, key)
    first = np.full(len(sample), -1, np.int64)
    first[pos[::-1]] = np.arange(n - 1, -1, -1)  # first occurrence of each hash
    if not np.array_equal(padded, padded[first[pos]]) or not np.array_equal(lengths, lengths[first[pos]]):
        return _unique_slow(data, starts, ends)
    values = [data[starts[k]:ends[k]].tobytes().decode("utf-8") for k in first.tolist()]
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = np.empty(len(values), np.int32)
    rank[order] = np.arange(len(values), dtype=np.int32)
    return [values[k] for k in order], rank[pos]


def _unique_slow(data, starts, ends) -> Tuple[List[str], np.ndarray]:
    strings = [data[s:e].tobytes().decode("utf-8") for s, e in zip(starts.tolist(), ends.tolist())]
    values = sorted(set(strings))
    index = {v: k for k, v in enumerate(values)}
    return values, np.array([index[s] for s in strings], np.int32)
