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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import InputError

_WS = np.zeros(256, bool)
_WS[[9, 10, 11, 12, 13, 32]] = True  # ASCII whitespace only: tokens may hold NBSP etc.
BOM = b"\xef\xbb\xbf"


CHUNK_BYTES = 1 << 22  # files are split at line ends into blocks of about 4 MiB


@dataclass
class ColumnFile:
    """The token lines of one column file: structure, token positions, decoded tag columns."""

    path: str
    data: np.ndarray          # the bytes (BOM removed); token texts are cut from it on demand
    n_columns: int
    token_line: np.ndarray    # 1-based line number of every token (int32)
    sent_first: np.ndarray    # bool per token
    doc_first: np.ndarray     # bool per token: first token after a -DOCSTART- line
    docstart_lines: int
    boundary_lines: int       # -X- lines
    token_column: int         # 1-based
    token_start: np.ndarray   # byte offset of every token's text
    token_len: np.ndarray
    columns: Dict[int, Tuple[List[str], np.ndarray]]  # 1-based column -> (distinct values, ids)

    @property
    def n_tokens(self) -> int:
        return len(self.token_line)

    def column_index(self, column: int) -> int:
        return _column_index(column, self.n_columns, self.path)

    def strings(self, column: int) -> Tuple[List[str], np.ndarray]:
        """Distinct values of a column (decoded) and the per-token index into them."""
        return self.columns[self.column_index(column) + 1]

    def texts(self, a: int, b: int) -> List[str]:
        """Token texts a..b-1."""
        raw = self.data
        return [raw[s:s + n].tobytes().decode("utf-8")
                for s, n in zip(self.token_start[a:b].tolist(), self.token_len[a:b].tolist())]

    def token_bytes(self, a: int, b: int) -> np.ndarray:
        """The texts of tokens a..b-1 concatenated (uint8)."""
        if b <= a:
            return np.zeros(0, np.uint8)
        starts = self.token_start[a:b].astype(np.int64)
        lo, hi = int(starts[0]), int(starts[-1]) + int(self.token_len[b - 1])
        mark = np.zeros(hi - lo + 1, np.int8)
        mark[starts - lo] += 1
        mark[starts - lo + self.token_len[a:b]] -= 1
        inside = np.cumsum(mark[:-1], dtype=np.int8).view(bool)
        return self.data[lo:hi][inside]


def _column_index(column: int, n: int, path: str) -> int:
    if column == 0 or not -n <= column <= n:
        raise InputError(f"column {column} does not exist: the file has {n} columns "
                         f"(give 1..{n}, or -1..-{n} counting from the end)", path)
    return column - 1 if column > 0 else n + column


def read_column_file(path: str, columns: Sequence[int] = (-1,), token_column: int = 1) -> ColumnFile:
    """Read a column file, decoding the tag ``columns`` (1-based, negative from the end)."""
    try:
        raw = Path(path).read_bytes()
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path) from None
    return split_columns(raw, path, columns, token_column)


@dataclass
class _Acc:
    """What the chunks of one file add up to."""

    ncol: int = -1
    first_token_line: int = -1
    token_line: List[np.ndarray] = field(default_factory=list)
    token_start: List[np.ndarray] = field(default_factory=list)
    token_len: List[np.ndarray] = field(default_factory=list)
    doc_lines: List[np.ndarray] = field(default_factory=list)
    boundary_lines: int = 0
    values: Dict[int, List[Tuple[List[str], np.ndarray]]] = field(default_factory=dict)


def split_columns(raw: bytes, path: str = "<data>", columns: Sequence[int] = (-1,),
                  token_column: int = 1) -> ColumnFile:
    """Split a file's bytes into token lines and decode the requested columns, in chunks."""
    shift = 0
    if raw.startswith(BOM):
        raw, shift = raw[len(BOM):], len(BOM)
    data = np.frombuffer(raw, np.uint8)
    if len(data) == 0:
        raise InputError("empty file, expected token lines", path)
    acc = _Acc()
    start, line0 = 0, 0
    cols: Optional[List[int]] = None
    while start < len(raw):
        stop = raw.find(b"\n", min(start + CHUNK_BYTES, len(raw)) - 1)
        stop = len(raw) if stop < 0 else stop + 1
        chunk = raw[start:stop]
        try:
            chunk.decode("utf-8")
        except UnicodeDecodeError as err:
            line = line0 + chunk.count(b"\n", 0, err.start) + 1
            bad = chunk[err.start:err.end]
            raise InputError(f"not UTF-8: byte 0x{bad[0]:02x} at byte offset {start + err.start + shift} "
                             f"({err.reason}); expected UTF-8 text", path, line) from None
        cols = _scan(data, start, stop, line0, path, columns, token_column, acc, cols)
        line0 += chunk.count(b"\n")
        start = stop
    if acc.ncol < 0:
        raise InputError("no token lines (the file is blank or holds only -DOCSTART-/-X- lines)", path)
    token_line = np.concatenate(acc.token_line)
    doc_lines = np.concatenate(acc.doc_lines) if acc.doc_lines else np.zeros(0, np.int64)
    sent_first = np.diff(token_line, prepend=-1) > 1          # a non-token line lies before it
    doc_index = np.searchsorted(doc_lines, token_line)         # -DOCSTART- lines before each token
    doc_first = np.diff(doc_index, prepend=0) > 0
    merged = {c: _merge_values(parts) for c, parts in acc.values.items()}
    starts = np.concatenate(acc.token_start)
    return ColumnFile(
        path=path, data=data, n_columns=acc.ncol, token_line=token_line, sent_first=sent_first,
        doc_first=doc_first, docstart_lines=len(doc_lines), boundary_lines=acc.boundary_lines,
        token_column=_column_index(token_column, acc.ncol, path) + 1,
        token_start=starts.astype(np.uint32) if len(data) < 2**32 else starts,
        token_len=np.concatenate(acc.token_len).astype(np.int32), columns=merged,
    )


def _scan(data: np.ndarray, a: int, b: int, line0: int, path: str, columns: Sequence[int],
          token_column: int, acc: _Acc, cols: Optional[List[int]]) -> Optional[List[int]]:
    """Find the token lines and fields of bytes a..b (whole lines) and decode the tag columns."""
    part = data[a:b]
    wpos = np.flatnonzero(part <= 32)
    wpos = wpos[_WS[part[wpos]]]
    w = np.concatenate(([-1], wpos, [len(part)]))
    newline = np.ones(len(w), bool)            # w[0] stands for a line start, w[-1] for the end
    newline[1:-1] = part[wpos] == 10
    n_lines = int(np.count_nonzero(newline[1:-1])) + (0 if part[-1] == 10 else 1)
    gap = np.flatnonzero(np.diff(w) > 1)       # a field lies between w[j] and w[j+1]
    fstart = w[gap] + 1
    fend = w[gap + 1]
    fline = (np.cumsum(newline, dtype=np.int32) - 1)[gap]  # chunk line of each field
    nfields = np.bincount(fline, minlength=n_lines)
    line_first_field = np.concatenate(([0], np.cumsum(nfields)[:-1]))
    nonblank = np.flatnonzero(nfields > 0)
    ff = line_first_field[nonblank]
    first_len = fend[ff] - fstart[ff]
    is_doc = _field_equals(part, fstart[ff], first_len, b"-DOCSTART-")
    is_bnd = _field_equals(part, fstart[ff], first_len, b"-X-")
    tok = ~(is_doc | is_bnd)
    tok_lines = nonblank[tok]
    acc.boundary_lines += int(is_bnd.sum())
    if len(tok_lines) and acc.ncol < 0:
        acc.ncol = int(nfields[tok_lines[0]])
        acc.first_token_line = line0 + int(tok_lines[0]) + 1
    ncol = acc.ncol
    if len(tok_lines):
        counts = nfields[tok_lines]
        bad = np.flatnonzero(counts != ncol)
        if len(bad):
            ln = int(tok_lines[bad[0]])
            text = part[line_start(part, ln):].tobytes().split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
            raise InputError(f"{int(counts[bad[0]])} columns, expected {ncol} as on line "
                             f"{acc.first_token_line}: {text!r}", path, line0 + ln + 1)
    doc = nonblank[is_doc]
    doc_bad = np.flatnonzero((nfields[doc] != 1) & (nfields[doc] != max(ncol, 1)) & (ncol > 0))
    if len(doc_bad):
        ln = int(doc[doc_bad[0]])
        raise InputError(f"-DOCSTART- line with {int(nfields[ln])} columns, expected 1 or {ncol}",
                         path, line0 + ln + 1)
    acc.doc_lines.append(doc + line0 + 1)
    if not len(tok_lines):
        return cols
    if cols is None:
        cols = [_column_index(c, ncol, path) for c in columns]
    first = line_first_field[tok_lines]
    acc.token_line.append((tok_lines + line0 + 1).astype(np.int32))
    k = _column_index(token_column, ncol, path)
    acc.token_start.append(fstart[first + k] + a)
    acc.token_len.append(fend[first + k] - fstart[first + k])
    for c in cols:
        acc.values.setdefault(c + 1, []).append(unique_slices(part, fstart[first + c], fend[first + c]))
    return cols


def line_start(part: np.ndarray, line: int) -> int:
    """Byte offset of a 0-based line (error path only)."""
    if line == 0:
        return 0
    return int(np.flatnonzero(part == 10)[line - 1]) + 1


def _merge_values(parts: List[Tuple[List[str], np.ndarray]]) -> Tuple[List[str], np.ndarray]:
    vocab = sorted(set().union(*[set(v) for v, _ in parts]))
    index = {t: k for k, t in enumerate(vocab)}
    dtype = np.uint16 if len(vocab) < 2**16 else np.int32
    ids = [np.array([index[t] for t in v], dtype)[inv] for v, inv in parts if len(inv)]
    return vocab, np.concatenate(ids) if ids else np.zeros(0, dtype)


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
    """Distinct byte slices ``data[s:e]`` (decoded, sorted) and the per-slice index into them.

    Each slice is packed into 8-byte words, gathered column by column (a tag
    column never becomes a million Python strings).  One word is the slice itself;
    longer slices are hashed over their words and every slice is checked against
    its representative, so a hash collision cannot merge two values.  The few
    distinct keys are found from a sample plus ``searchsorted``.
    """
    n = len(starts)
    if n == 0:
        return [], np.zeros(0, np.int32)
    lengths = ends - starts
    maxlen = int(lengths.max())
    if maxlen > 64:  # long values (tokens, odd tags): exact but slower path
        return _unique_slow(data, starts, ends)
    last = len(data) - 1
    words = []
    for w0 in range(0, maxlen, 8):
        word = np.zeros(n, np.uint64)
        for j in range(w0, min(w0 + 8, maxlen)):
            byte = data[np.minimum(starts + j, last)].astype(np.uint64)
            byte[lengths <= j] = 0
            word |= byte << np.uint64(8 * (j - w0))
        words.append(word)
    key = words[0] ^ (lengths.astype(np.uint64) << np.uint64(56)) if maxlen < 8 else words[0].copy()
    for j, word in enumerate(words[1:], 1):
        key = (key * _MULT[j % 4]) ^ (key >> np.uint64(29)) ^ word
    sample = np.unique(key[:: max(1, n // 4096)])
    pos = np.minimum(np.searchsorted(sample, key), len(sample) - 1)
    miss = sample[pos] != key
    if miss.any():
        sample = np.unique(np.concatenate((sample, key[miss])))
        pos = np.searchsorted(sample, key)
    first = np.full(len(sample), -1, np.int64)
    first[pos[::-1]] = np.arange(n - 1, -1, -1)  # first occurrence of each key
    rep = first[pos]
    if len(words) > 1 or maxlen >= 8:
        if not np.array_equal(lengths, lengths[rep]) or not all(np.array_equal(wd, wd[rep]) for wd in words):
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
