"""Whitespace-separated column files, read as bytes and split with numpy.

A file is scanned once: line and field boundaries come from byte masks, so a
million-token file never becomes a million Python strings.  Only the distinct
tags are decoded to ``str``; token texts are decoded on demand.

Rules (CoNLL layout): one token per line; fields separated by spaces, tabs (and a
CR before the line end); a blank line ends a sentence; a line whose first field
is ``-DOCSTART-`` starts a document and is not a token; a line whose first field
is ``-X-`` is a sentence boundary (conlleval.pl's rule) and is counted; a UTF-8
BOM is skipped.  All token lines must have the same number of fields.

``delimiter`` (conlleval.pl's ``-d``): one character that alone separates fields
(a tab, say, so that tokens may hold spaces); an empty field between two
delimiters is an error, a delimiter at the line end is dropped (as Perl's split
does).  ``token_column=None``: the file has no token column (tags only).
"""
from __future__ import annotations

import codecs
import io
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..core.arrays import join_slices, ranges_tokens, unique
from ..errors import Hint, InputError, OptionError, Part, TsEvalError
from .source import (
    BOM,
    STDIN,
    Cut,
    display_name,
    is_compressed,
    not_utf8,
    read_head,
)

_WS = np.zeros(256, bool)
_WS[[9, 10, 11, 12, 13, 32]] = True  # ASCII whitespace only: tokens may hold NBSP etc.


CHUNK_BYTES = 1 << 18  # files are split at line ends into chunks of about 256 KiB: their temporaries stay
# small enough for the C allocator to reuse (chunks of 1 MiB spent about half their time in page faults)


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class ColumnFile:
    """The token lines of one column file: structure, token positions, decoded tag columns."""

    path: str
    data: Optional[np.ndarray]  # the bytes (BOM removed); token texts are cut from it on demand
    n_columns: int
    token_line: np.ndarray    # 1-based line number of every token (int32)
    sent_first: np.ndarray    # bool per token
    doc_first: np.ndarray     # bool per token: first token after a -DOCSTART- line
    docstart_lines: int
    boundary_lines: int       # -X- lines
    token_column: Optional[int]  # 1-based; None: the file has no token column
    token_start: Optional[np.ndarray]   # byte offset of every token's text
    token_len: Optional[np.ndarray]
    columns: Dict[int, Tuple[List[str], np.ndarray]]  # 1-based column -> (distinct values, ids)
    bom: int = 0              # bytes of BOM before ``data`` in the file
    delimiter: Optional[str] = None  # the field delimiter it was read with (None: whitespace)
    trailing_boundary: bool = False  # a line (blank, -X-, -DOCSTART-) follows the last token line
    first_text: str = ""      # the first token line (for messages about the columns)
    first_token_line: int = -1  # its line number
    first_field: bytes = b""  # its first field
    lines: int = 0            # line ends in the bytes read

    @property
    def has_tokens(self) -> bool:
        return self.token_column is not None

    def loaded(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(the file's bytes, every token's byte offset, every token's length in bytes)."""
        data, start, length = self.data, self.token_start, self.token_len
        if not self.has_tokens or data is None or start is None or length is None:
            raise InputError("the file was read without a token column: no token texts", self.path)
        return data, start, length

    @property
    def n_tokens(self) -> int:
        return len(self.token_line)

    def column_index(self, column: int) -> int:
        return _column_index(column, self.n_columns, self.path, self.width_note())

    def width_note(self) -> List[Part]:
        """Why the file has the columns it has, when that may surprise (:func:`width_note`)."""
        line = int(self.token_line[0]) if self.n_tokens else 0
        return width_note(self.n_columns, self.delimiter, line, self.first_text)

    def strings(self, column: int) -> Tuple[List[str], np.ndarray]:
        """Distinct values of a column (decoded) and the per-token index into them."""
        return self.columns[self.column_index(column) + 1]

    def texts(self, a: int, b: int) -> List[str]:
        """Token texts a..b-1."""
        raw, start, length = self.loaded()
        return [raw[s:s + n].tobytes().decode("utf-8") for s, n in zip(start[a:b].tolist(), length[a:b].tolist())]

    def joined(self, a: np.ndarray, b: np.ndarray) -> List[str]:
        """Per range the texts of tokens a[i]..b[i]-1 joined by one space (every range holds a token):
        :func:`join_slices` of the file's bytes."""
        raw, start, length = self.loaded()
        a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
        tok = ranges_tokens(a, b)
        return join_slices(raw, start[tok], length[tok], b - a)

    def token_bytes(self, a: int, b: int) -> np.ndarray:
        """The texts of tokens a..b-1 concatenated (uint8)."""
        if b <= a:
            return np.zeros(0, np.uint8)
        raw, start, length = self.loaded()
        starts = start[a:b].astype(np.int64)
        lo, hi = int(starts[0]), int(starts[-1]) + int(length[b - 1])
        mark = np.zeros(hi - lo + 1, np.int8)
        mark[starts - lo] += 1
        mark[starts - lo + length[a:b]] -= 1
        inside = np.cumsum(mark[:-1], dtype=np.int8).view(bool)
        return np.asarray(raw[lo:hi][inside], np.uint8)


def joined_texts(tokens: Callable[[int, int], List[str]], a: np.ndarray, b: np.ndarray) -> List[str]:
    """Per range the token texts a[i]..b[i]-1 joined by one space (``tokens(a, b)``: a corpus's texts of
    tokens a..b-1); a column file's cut from its bytes at once (:meth:`ColumnFile.joined`)."""
    owner = getattr(tokens, "__self__", None)
    if isinstance(owner, ColumnFile) and getattr(tokens, "__func__", None) is ColumnFile.texts and len(a) \
            and bool((np.asarray(b) > np.asarray(a)).all()):
        return owner.joined(a, b)
    return [" ".join(tokens(x, y)) for x, y in zip(np.asarray(a).tolist(), np.asarray(b).tolist())]


def _column_index(column: int, n: int, path: str, note: Sequence[Part] = ()) -> int:
    if column == 0 or not -n <= column <= n:
        raise missing_column(column, n, path, note)
    return column - 1 if column > 0 else n + column


def missing_column(column: int, n: int, path: str, note: Sequence[Part] = ()) -> TsEvalError:
    """The error for a column the file does not have.  A file of one column is bad input (it cannot hold a
    token and a tag, or gold and a system: exit 1); asking a wider file for a column beyond it is bad usage."""
    head = f"column {column} does not exist: the file has {n} column{'' if n == 1 else 's'}"
    if n == 1:
        return InputError([head, *note], path)
    return OptionError([f"{path}: {head} (give 1..{n}, or -1..-{n} counting from the end)", *note])


def width_note(n: int, delimiter: Optional[str], line: int, text: str) -> List[Part]:
    """With a delimiter, a file of one column most likely uses another one: say that the delimiter is not
    on the first token line and which separators are (the message part after the column count)."""
    if n != 1 or delimiter is None:
        return []
    name = {"\t": "tab", " ": "space"}.get(delimiter, repr(delimiter))
    seen = [word for char, word in ((" ", "spaces"), ("\t", "tabs")) if char != delimiter and char in text]
    note: List[Part] = [f"; no {name} (the delimiter) was found on line {line} {text!r}"]
    if seen:
        note += [f", which has {' and '.join(seen)}: leave out ", Hint("delimiter"),
                 " to split fields at any run of spaces and tabs"]
    return note


def delimiter_mask(delimiter: Optional[str]) -> np.ndarray:
    """Bytes that separate fields (and end lines): ASCII whitespace, or one delimiter plus CR/LF."""
    if delimiter is None:
        return _WS
    raw = delimiter.encode("utf-8")
    if len(raw) != 1 or raw in (b"\n", b"\r"):
        raise OptionError(f"delimiter {delimiter!r}: expected one ASCII character other than a line end "
                         "(e.g. a tab: '\\t')")
    mask = np.zeros(256, bool)
    mask[[10, 13, raw[0]]] = True
    return mask


def parse_delimiter(value: Optional[str]) -> Optional[str]:
    """The delimiter a user typed: one character, or an escape \\t / \\s ("whitespace", the default)."""
    if value is None or value in ("\\s", "\\s+", "whitespace"):
        return None
    value = {"\\t": "\t", "tab": "\t", "space": " "}.get(value, value)
    delimiter_mask(value)
    return value


def count_columns(path: str, delimiter: Optional[str] = None) -> int:
    """Fields of the first token line (not blank, not -DOCSTART-, not -X-): for choosing
    columns before the file is read.  ``delimiter`` as in :func:`read_column_file`; ``-`` is
    standard input, and compressed files are read through :mod:`ts_eval.io.source`."""
    head = read_head(path, 1 << 20)
    for line in head.decode("utf-8-sig", errors="replace").split("\n"):
        fields = line.split() if delimiter is None else _split_fields(line, delimiter)
        if fields and fields[0] not in ("-DOCSTART-", "-X-"):
            return len(fields)
    raise InputError("no token lines", display_name(path))


def _split_fields(line: str, delimiter: str) -> List[str]:
    """A line's fields with one delimiter (a delimiter at the line end is dropped, as Perl's split does)."""
    line = line.rstrip("\r\n")
    if line.endswith(delimiter):
        line = line[: -len(delimiter)]
    return line.split(delimiter) if line.strip() else []


Stream = Union[io.BufferedIOBase, io.RawIOBase]    # a binary stream read with .read(n)
BLOCK_BYTES = 1 << 22  # blocks of whole sentences of about 4 MiB


class _Limited(io.RawIOBase):
    """The next ``size`` bytes of ``fh``."""

    def __init__(self, fh: Stream, size: int) -> None:
        self.fh, self.left = fh, size

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        view = memoryview(buf).cast("B")
        data = self.fh.read(min(len(view), self.left))
        view[:len(data)] = data
        self.left -= len(data)
        return len(data)

    def close(self) -> None:
        self.fh.close()
        super().close()


def slice_block(cf: ColumnFile, a: int, b: int) -> ColumnFile:
    """Tokens ``a``..``b`` of a block of :func:`ts_eval.io.conll.column_feed` (whole sentences: ``a`` starts one), as a
    block of its own (its bytes shared; the -DOCSTART- and -X- lines counted stay with the whole block; a file
    read without a token column keeps its token offsets too)."""
    start, length = cf.token_start, cf.token_len
    return ColumnFile(
        path=cf.path, data=cf.data, n_columns=cf.n_columns, token_line=cf.token_line[a:b],
        sent_first=cf.sent_first[a:b], doc_first=cf.doc_first[a:b], docstart_lines=0, boundary_lines=0,
        token_column=cf.token_column, token_start=None if start is None else start[a:b],
        token_len=None if length is None else length[a:b],
        columns={c: _used(vocab, ids[a:b]) for c, (vocab, ids) in cf.columns.items()}, bom=cf.bom,
        delimiter=cf.delimiter, trailing_boundary=b < cf.n_tokens or cf.trailing_boundary,
        first_text=cf.first_text, first_token_line=cf.first_token_line, first_field=cf.first_field)


def _offsets(cf: ColumnFile) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the bytes, every token's offset, every token's length) of a block, also of one read without a token
    column (tags only: its offsets are zeros)."""
    data, start, length = cf.data, cf.token_start, cf.token_len
    if data is None or start is None or length is None:
        return cf.loaded()          # (raises: a block without its bytes)
    return data, start, length


def _used(vocab: List[str], ids: np.ndarray) -> Tuple[List[str], np.ndarray]:
    """A column's values ``vocab`` and ids, with only the values the ids use (a slice's vocabulary names only
    its own tags: a bad tag of the rest of the block is no error of the slice)."""
    used = np.unique(ids)
    if len(used) == len(vocab):
        return vocab, ids
    renumber = np.zeros(len(vocab), ids.dtype)
    renumber[used] = np.arange(len(used), dtype=ids.dtype)
    return [vocab[k] for k in used.tolist()], renumber[ids]


def join_blocks(parts: Sequence[ColumnFile]) -> ColumnFile:
    """Consecutive blocks of one file (:func:`ts_eval.io.conll.column_feed`, :func:`slice_block`) as one block."""
    if len(parts) == 1:
        return parts[0]
    loaded = [_offsets(p) for p in parts]
    at = np.cumsum([0] + [len(d) for d, _, _ in loaded[:-1]])
    columns = {}
    for c in parts[0].columns:
        vocab, ids = merge_values([(p.columns[c][0], p.columns[c][1][None, :]) for p in parts],
                                  sum(p.n_tokens for p in parts))
        columns[c] = (vocab, ids[0])
    first, last = parts[0], parts[-1]
    return ColumnFile(
        path=first.path, data=np.concatenate([d for d, _, _ in loaded]), n_columns=first.n_columns,
        token_line=np.concatenate([p.token_line for p in parts]),
        sent_first=np.concatenate([p.sent_first for p in parts]),
        doc_first=np.concatenate([p.doc_first for p in parts]),
        docstart_lines=sum(p.docstart_lines for p in parts), boundary_lines=sum(p.boundary_lines for p in parts),
        token_column=first.token_column,
        token_start=np.concatenate([s.astype(np.int64) + int(k) for (_, s, _), k in zip(loaded, at)]),
        token_len=np.concatenate([n for _, _, n in loaded]), columns=columns, bom=first.bom,
        delimiter=first.delimiter, trailing_boundary=last.trailing_boundary,
        first_text=first.first_text, first_token_line=first.first_token_line, first_field=first.first_field,
        lines=sum(p.lines for p in parts))


def shard_offsets(path: str, n: int, delimiter: Optional[str] = None,
                  cut_after: Optional[Callable[[List[bytes]], bool]] = None) -> Optional[Tuple[List[int], Head]]:
    """Byte offsets that cut a plain (uncompressed) column file into at most ``n`` shards of whole
    sentences of about equal size, where :func:`ts_eval.io.conll.column_feed` would cut a block, and the file's
    :class:`Head`; None for standard input, a compressed file, or a file whose head does not parse.
    Every shard holds a token line: no cut falls after the file's last one (blank or ``-DOCSTART-`` lines
    after it stay with the shard before, which is read as the file's last block would be)."""
    if path == STDIN or n < 2:
        return None
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            first = fh.read(1 << 20)
            if is_compressed(first[:8]):
                return None
            end = first.rfind(b"\n") + 1
            head_cf = split_columns(first[:end], path, (), None, delimiter=delimiter)
            head = Head(head_cf.n_columns, head_cf.first_token_line, head_cf.first_text, head_cf.first_field)
            blank = re.compile(rb"\n\r?\n" if delimiter is not None else rb"\n[ \t\r\x0b\x0c]*\n")
            last = _last_token_line(fh, size, delimiter)
            offsets = [0]
            for k in range(1, n):
                at = max(size * k // n, offsets[-1] + 1)
                base = max(at - (1 << 16), 0)       # the line before a cut must be in the window
                fh.seek(base)
                window = bytearray()
                while True:
                    more = fh.read(1 << 20)
                    window += more
                    cut = _cut(window, at - base, blank, delimiter, cut_after)
                    if cut >= 0 or not more:
                        break
                if cut < 0 or base + cut >= last:
                    break
                offsets.append(base + cut)
            offsets.append(size)
    except (OSError, TsEvalError):
        return None
    return offsets, head


def _last_token_line(fh: Any, size: int, delimiter: Optional[str]) -> int:
    """Where the last token line of the open file ``fh`` of ``size`` bytes starts (-1: it has none), read
    backwards from its end."""
    pos, tail = size, b""
    while pos > 0:
        step = min(pos, 1 << 16)
        pos -= step
        fh.seek(pos)
        data = fh.read(step) + tail
        lines = data.split(b"\n")
        at = len(data)
        for k in range(len(lines) - 1, 0 if pos else -1, -1):    # lines[0] may begin before pos
            at -= len(lines[k])
            if _is_token_line(lines[k], delimiter):
                return pos + at
            at -= 1
        tail = lines[0]
    return -1


@dataclass(frozen=True)
class Head:
    """What the blocks after a column file's first need to know of its first token line."""

    n_columns: int
    line: int
    text: str
    field: bytes


def sentence_cut(delimiter: Optional[str], cut_after: Optional[Callable[[List[bytes]], bool]] = None) -> Cut:
    """Where a block of a column file may end (:data:`~ts_eval.io.source.Cut`): after a token line that a blank
    line follows (so a ``-DOCSTART-`` line stays with the sentence it opens); ``cut_after``, if given, must also
    hold of the fields of that token line."""
    blank = re.compile(rb"\n\r?\n" if delimiter is not None else rb"\n[ \t\r\x0b\x0c]*\n")

    def cut(buf: Any, start: int) -> int:
        return _cut(buf, start, blank, delimiter, cut_after)
    return cut


_NEWLINE = re.compile(rb"\n")
_LINE = re.compile(rb"[^\n]+")


def _cut(buf: Union[bytearray, memoryview], start: int, blank: Any, delimiter: Optional[str],
         cut_after: Optional[Callable[[List[bytes]], bool]] = None) -> int:
    """Where the first block of ``buf`` that reaches ``start`` ends: after a token line that a blank line
    follows (-1: no such place yet)."""
    for m in blank.finditer(buf, max(start, 0)):
        end = m.start()
        line = _line_before(buf, end)
        if _is_token_line(line, delimiter) and (cut_after is None or cut_after(_fields(line, delimiter))):
            return int(end) + 1
    return -1


def _line_before(buf: Union[bytearray, memoryview], end: int) -> bytes:
    """The bytes of the line that ends at ``end`` (a line end, or the end of ``buf``)."""
    lo, step = end, 256
    while lo > 0:
        lo = max(0, lo - step)
        at = bytes(buf[lo:end]).rfind(b"\n")
        if at >= 0:
            return bytes(buf[lo + at + 1:end])
        step *= 2
    return bytes(buf[:end])


def _fields(line: bytes, delimiter: Optional[str]) -> List[bytes]:
    if delimiter is None:
        return line.split()
    line = line.rstrip(b"\r")
    d = delimiter.encode("utf-8")
    return (line[:-1] if line.endswith(d) else line).split(d)


#: a line's fields as the column readers split them (bytes; ``delimiter`` None: any run of ASCII whitespace)
line_fields = _fields


def _is_token_line(line: bytes, delimiter: Optional[str]) -> bool:
    fields = _fields(line, delimiter)
    return bool(fields and fields[0]) and fields[0] not in (b"-DOCSTART-", b"-X-")


def _has_token_line(data: Union[bytes, bytearray, memoryview], delimiter: Optional[str]) -> bool:
    return any(_is_token_line(m.group(), delimiter) for m in _LINE.finditer(data))


class _Acc:
    """What the chunks of one file add up to (scratch of :func:`split_columns`)."""

    __slots__ = ("boundary_lines", "chunk_newlines", "continued", "doc_lines", "first_field", "first_text",
                 "first_token_line", "n", "ncol", "slices", "token_len", "token_line", "token_start", "values")

    def __init__(self, token_line: np.ndarray, token_start: np.ndarray, token_len: np.ndarray) -> None:
        self.token_line = token_line     # preallocated for every line of the file (np.empty: untouched
        self.token_start = token_start   # pages cost no memory); the first ``n`` entries are filled
        self.token_len = token_len
        self.n = 0
        self.ncol = -1
        self.first_token_line = -1
        self.chunk_newlines = 0          # line ends in the chunk _scan saw last
        self.first_field = b""           # the first field of the first token line (for hints in errors)
        self.first_text = ""             # the first token line
        self.doc_lines: List[np.ndarray] = []
        self.boundary_lines = 0
        self.values: List[Tuple[List[str], np.ndarray]] = []   # per chunk: vocab, ids[col]
        self.continued = False           # a block after the file's first (its first token line is not the file's)
        self.slices = SliceCache()       # the chunks' table of tags


def split_columns(raw: Union[bytes, bytearray, np.ndarray], path: str = "<data>", columns: Sequence[int] = (-1,),
                  token_column: Optional[int] = 1, padded: bool = False,
                  delimiter: Optional[str] = None, follows: Optional[Tuple[int, int, Head]] = None,
                  block: bool = False) -> ColumnFile:
    """Split a file's bytes into token lines and decode the requested columns, in chunks.

    ``raw``: bytes, or a numpy array of them (uint8).  ``padded``: ``raw`` ends with 8 bytes of zero padding
    that are not data (saves a copy).
    ``block``: a block of :func:`ts_eval.io.conll.column_feed` (its token offsets are never released).
    ``follows``: ``raw`` is a block of the file after (lines, bytes) and the :class:`Head` of the file
    (:func:`ts_eval.io.conll.column_feed`): line numbers count on, and token lines must have the first one's width.
    """
    if not padded:
        raw = bytes(raw) + bytes(8)
    view = raw.data if isinstance(raw, np.ndarray) else memoryview(raw)
    shift = len(BOM) if bytes(view[:len(BOM)]) == BOM and follows is None else 0
    end = len(raw) - 8                          # the data are raw[shift:end]
    windows = byte_windows(raw, shift)
    data = np.frombuffer(raw, np.uint8, count=end - shift, offset=shift)
    if len(data) == 0:
        raise InputError("empty file, expected token lines", path)
    max_lines = count_newlines(data) + 1
    ascii_only = int(data.max()) < 128         # then nothing to check (one pass, no string made)
    acc = _Acc(*_outputs(max_lines, end >= 2**32, block))
    start, line0, bytes0 = shift, 0, 0
    if follows is not None:
        line0, bytes0, head = follows
        acc.ncol, acc.first_token_line, acc.first_text = head.n_columns, head.line, head.text
        acc.first_field, acc.continued = head.field, True
    lines_before = line0
    cols: Optional[List[int]] = None
    sep = delimiter_mask(delimiter)
    while start < end:
        nl = _NEWLINE.search(view, min(start + CHUNK_BYTES, end) - 1, end)
        stop = end if nl is None else nl.end()
        try:
            if not ascii_only:
                codecs.utf_8_decode(view[start:stop], "strict", True)
        except UnicodeDecodeError as err:
            raise not_utf8(bytes(view[:stop]), start + err.start, err.reason, path, lines_before,
                           bytes0) from None
        cols = _scan(data, windows, start - shift, stop - shift, line0, path, columns, token_column, acc, cols,
                     sep, delimiter)
        line0 += acc.chunk_newlines
        start = stop
    if acc.ncol < 0 or (not acc.n and follows is not None):
        raise InputError("no token lines (the file is blank or holds only -DOCSTART-/-X- lines)", path)
    n = acc.n
    token_line = acc.token_line[:n]
    doc_lines = np.concatenate(acc.doc_lines) if acc.doc_lines else np.zeros(0, np.int64)
    sent_first = np.empty(n, bool)                 # a non-token line lies before it
    sent_first[0] = True
    for k in range(1, n, 1 << 14):                 # in slices: a small temporary, reused (not 4 bytes a token)
        e = min(k + (1 << 14), n)
        np.greater(token_line[k:e] - token_line[k - 1:e - 1], 1, out=sent_first[k:e])
    doc_first = np.zeros(n, bool)                  # the first token after a -DOCSTART- line
    after = np.searchsorted(token_line, doc_lines.astype(token_line.dtype))   # (int64: a cast copy of token_line)
    doc_first[after[after < n]] = True
    vocab, ids = merge_values(acc.values, n)
    note = width_note(acc.ncol, delimiter, acc.first_token_line, acc.first_text)
    resolved = [_column_index(c, acc.ncol, path, note) + 1 for c in columns]
    merged = {c: (vocab, ids[k]) for k, c in enumerate(resolved)}
    return ColumnFile(
        path=path, data=data, n_columns=acc.ncol, token_line=token_line, sent_first=sent_first,
        doc_first=doc_first, docstart_lines=len(doc_lines), boundary_lines=acc.boundary_lines,
        token_column=None if token_column is None else _column_index(token_column, acc.ncol, path, note) + 1,
        token_start=acc.token_start[:n], token_len=acc.token_len[:n], columns=merged, bom=shift,
        delimiter=delimiter, first_text=acc.first_text, first_token_line=acc.first_token_line,
        first_field=acc.first_field, lines=line0 - lines_before,
        trailing_boundary=line0 + 1 - int(raw[end - 1] == 10) > int(token_line[-1]),
    )


def _outputs(n: int, wide: bool, together: bool) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Room for ``n`` token lines: line numbers (int32), token offsets (uint32, or int64 when ``wide``) and
    lengths (int32); pages never written cost no memory.  ``together`` (a block, whose offsets are never
    released): views of one allocation, which for a block of several MB numpy asks the system to back with
    huge pages (a page fault per 2 MB instead of per 4 KB: a fresh process spent about a third of its
    reading time in page faults)."""
    start = np.dtype(np.int64 if wide else np.uint32)
    if not together:
        return np.empty(n, np.int32), np.empty(n, start), np.empty(n, np.int32)
    room = np.empty(n * (start.itemsize + 8), np.uint8)
    a, b = n * start.itemsize, n * (start.itemsize + 4)    # the 8-byte items first: all aligned
    return room[a:b].view(np.int32), room[:a].view(start), room[b:].view(np.int32)


def _scan(data: np.ndarray, windows: np.ndarray, a: int, b: int, line0: int, path: str, columns: Sequence[int],
          token_column: Optional[int], acc: _Acc, cols: Optional[List[int]], sep: np.ndarray = _WS,
          delimiter: Optional[str] = None) -> Optional[List[int]]:
    """Find the token lines and fields of bytes a..b (whole lines) and decode the tag columns."""
    part = data[a:b]
    found = _single_separated(data, a, b, sep, delimiter) if SINGLE_SEPARATOR_PATH else None
    if found is None:
        found = _any_separated(part, sep, delimiter, line0, path)
    fstart, fnext, nfields, line_first_field, skip, dash, acc.chunk_newlines = found
    doc, other = _line_kinds(windows[a:], fstart, fnext, line_first_field, dash, acc)
    skip[other] = True
    tok_lines = np.flatnonzero(~skip)
    if len(tok_lines) and acc.ncol < 0:
        acc.ncol = int(nfields[tok_lines[0]])
        acc.first_token_line = line0 + int(tok_lines[0]) + 1
        f0 = int(line_first_field[tok_lines[0]])
        acc.first_field = part[fstart[f0]:fnext[f0] - 1].tobytes()
        acc.first_text = _line_text(part, int(tok_lines[0]))
    ncol = acc.ncol
    if len(tok_lines):
        counts = nfields[tok_lines]
        if (counts != ncol).any():
            raise _ragged(part, tok_lines, counts, acc, line0, path)
    if len(doc):
        doc_bad = np.flatnonzero((nfields[doc] != 1) & (nfields[doc] != max(ncol, 1)) & (ncol > 0))
        if len(doc_bad):
            ln = int(doc[doc_bad[0]])
            raise InputError(f"-DOCSTART- line with {int(nfields[ln])} columns, expected 1 or {ncol}",
                             path, line0 + ln + 1)
        acc.doc_lines.append(doc + line0 + 1)
    if not len(tok_lines):
        return cols
    note = width_note(ncol, delimiter, acc.first_token_line, acc.first_text)
    if cols is None:
        cols = [_column_index(c, ncol, path, note) for c in columns]
    first = line_first_field[tok_lines]
    lo, hi = acc.n, acc.n + len(tok_lines)
    np.add(tok_lines, line0 + 1, out=acc.token_line[lo:hi], casting="unsafe")
    if token_column is None:
        acc.token_start[lo:hi] = 0
        acc.token_len[lo:hi] = 0
    else:
        sel = first + _column_index(token_column, ncol, path, note)
        start = fstart[sel]
        length = acc.token_len[lo:hi]
        np.subtract(fnext[sel], start, out=length, casting="unsafe")
        length -= 1
        np.add(start, a, out=acc.token_start[lo:hi], casting="unsafe")
    acc.n = hi
    if not cols:
        return cols
    # all tag columns in one pass: they share one vocabulary
    idx = (first[None, :] + np.array(cols)[:, None]).ravel()
    ends = fnext[idx]
    ends -= 1
    vocab, ids = unique_slices(windows[a:], fstart[idx], ends, acc.slices)   # windows from byte a: no offset
    acc.values.append((vocab, ids.reshape(len(cols), -1)))
    return cols


_DOCSTART = (int.from_bytes(b"-DOCSTAR", "little"), int.from_bytes(b"T-", "little"))
_BOUNDARY = int.from_bytes(b"-X-", "little")


def _line_kinds(windows: np.ndarray, fstart: np.ndarray, fnext: np.ndarray, line_first_field: np.ndarray,
                dash: np.ndarray, acc: _Acc) -> Tuple[np.ndarray, np.ndarray]:
    """(the -DOCSTART- lines, the -DOCSTART- and -X- lines) of a chunk (0-based) among its nonblank lines that
    start with "-" (``dash``), counting its -X- lines into ``acc``; ``windows`` from the chunk's first byte."""
    if not len(dash):
        return dash, dash
    ff = line_first_field[dash]
    start = fstart[ff]
    length = fnext[ff] - start - 1
    head = windows[start]                      # the first field's first 8 bytes (and what follows it)
    tail = windows[np.minimum(start + 8, len(windows) - 1)]
    is_doc = (length == 10) & (head == _DOCSTART[0]) & (tail & 0xFFFF == _DOCSTART[1])
    is_bnd = (length == 3) & (head & 0xFFFFFF == _BOUNDARY)
    acc.boundary_lines += int(np.count_nonzero(is_bnd))
    return dash[is_doc], dash[is_doc | is_bnd]


SINGLE_SEPARATOR_PATH = True    # tests compare the reader with and without :func:`_single_separated`


def count_newlines(data: np.ndarray) -> int:
    """Line ends in the bytes ``data`` (numpy: 10x faster than ``bytes.count``; by chunks, no big temporary)."""
    return sum(int(np.count_nonzero(data[k:k + CHUNK_BYTES] == 10)) for k in range(0, len(data), CHUNK_BYTES))


#: (each field's first byte, one past the separator after it -- the field is ``part[start:next - 1]`` --, the
#: fields of each line (a blank line may count one), each line's first field, whether each line is blank (bool,
#: the caller's to change), the nonblank lines that start with "-", the line ends) of a chunk of whole lines
Fields = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]


def _delimiter_or_line_end(part: np.ndarray, delimiter: str, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Where the bytes ``part`` are the one-byte ``delimiter``, LF or CR (compared: numpy looks a table up
    with uint8 indexes several times slower)."""
    out = np.equal(part, ord(delimiter), out=out)
    out |= part == 10
    out |= part == 13
    return out


def _any_separated(part: np.ndarray, sep: np.ndarray, delimiter: Optional[str], line0: int, path: str) -> Fields:
    """The :data:`Fields` of whole lines with any run of separators between fields (the general way)."""
    if delimiter is None:
        wpos = np.flatnonzero(part <= 32)
        wpos = wpos[sep[part[wpos].astype(np.intp)]]
    else:
        wpos = np.flatnonzero(_delimiter_or_line_end(part, delimiter))
        _check_empty_fields(part, wpos, ord(delimiter), line0, path)
    w = np.concatenate(([0], wpos + 1, [len(part) + 1]))    # one past each separator (w[0], w[-1]: the ends)
    newline = np.ones(len(w), bool)            # w[0] stands for a line start, w[-1] for the end
    newline[1:-1] = part[wpos] == 10
    newlines = int(np.count_nonzero(newline[1:-1]))   # every line end is a separator byte
    n_lines = newlines + (0 if part[-1] == 10 else 1)
    gap = np.diff(w) > 1                       # a field lies between w[j] and w[j+1] (masks: faster than indices)
    fstart = w[:-1][gap]
    fnext = w[1:][gap]
    fline = np.cumsum(newline[:-1], dtype=np.int32)[gap]   # chunk line of each field
    fline -= 1
    nfields = np.bincount(fline, minlength=n_lines)
    line_first_field = np.concatenate(([0], np.cumsum(nfields)[:-1]))
    blank = nfields == 0
    nonblank = np.flatnonzero(nfields)
    dash = nonblank[part[fstart[line_first_field[nonblank]]] == 45]   # lines that start with "-"
    return fstart, fnext, nfields, line_first_field, blank, dash, newlines


def _single_separated(data: np.ndarray, a: int, b: int, sep: np.ndarray, delimiter: Optional[str]) -> Optional[Fields]:
    """:func:`_any_separated` for the whole lines ``data[a:b]`` whose fields one separator byte separates (one
    space or tab -- any ASCII whitespace --, or with ``delimiter`` one delimiter), with no separator at a
    line's start or end, no blank line holding one, and line ends that are all LF or all CR LF.  Then every
    separator ends a field, so the fields come from the separators' positions alone (the slot after a
    separator up to the next is a field, or a blank line), with no pass over the fields to drop empty ones
    and no per-field line numbers.  None when the bytes are not so laid out (the caller then takes the
    general way, which also reports the errors)."""
    part = data[a:b]
    if (sep[part[0]] and part[0] != 10) or (sep[part[-1]] and part[-1] != 10):
        return None                            # a separator at the start of the first or the end of the last line
    cand = np.empty(len(part) + 1, bool)       # cand[i + 1]: part[i] may separate fields
    cand[0] = True                             # (a separator before the chunk: its positions are one past each)
    if delimiter is None:
        np.less_equal(part, 32, out=cand[1:])  # every separator byte, maybe control bytes
    else:
        _delimiter_or_line_end(part, delimiter, out=cand[1:])
    w = np.flatnonzero(cand)                   # w[0] = 0; then one past each separator byte
    ahead = data[a - 1:b] if a else np.concatenate((np.zeros(1, np.uint8), part))
    kind = ahead[w[1:]]                        # the separator bytes
    nl_at = np.flatnonzero(kind == 10)
    cr = int(np.count_nonzero(kind == 13))
    if delimiter is None:
        rest = len(kind) - len(nl_at) - cr - int(np.count_nonzero(kind == 32))
        if rest and int(np.count_nonzero(sep[kind.astype(np.intp)])) != len(kind):
            return None                        # a control byte (part of a field): the general way
    eol = 1                                    # bytes of a line end
    if cr:                                     # CR only before LF, before every LF
        if cr != len(nl_at) or not len(nl_at) or nl_at[0] == 0 or (kind[nl_at - 1] != 13).any() \
                or (w[nl_at] != w[nl_at + 1] - 1).any():
            return None
        w = np.delete(w, nl_at)                # (w[nl_at] is one past each CR)
        nl_at -= np.arange(1, len(nl_at) + 1)  # each LF's index without the CRs before it
        eol = 2
    ends = nl_at + 1                           # each line's end in w: one past its LF
    past = w[ends]
    blank = np.empty(len(ends), bool)          # the line that ends at past[i] is empty
    blank[:1] = past[:1] == eol
    np.equal(past[1:] - past[:-1], eol, out=blank[1:])
    pairs = int(np.count_nonzero(cand[2:] & cand[1:-1]))
    if pairs != int(np.count_nonzero(blank[1:])) + cr:
        return None                            # two separator bytes in a row that are not line ends
    n_lines = len(ends)
    if part[-1] != 10:                         # the last line has no line end: it ends where the part does
        w = np.append(w, len(part) + 1)
        ends = np.append(ends, len(w) - 1)
        blank = np.append(blank, False)        # (it is not empty: it ends with a byte of a field)
    first = np.empty_like(ends)                # each line's first slot: the one after the previous line end
    first[0] = 0
    first[1:] = ends[:-1]
    nfields = ends - first                     # (a blank line is one empty slot: one "field")
    lead = np.empty(len(ends), np.uint8)       # each line's first byte: after the previous line's end
    lead[0] = part[0]
    lead[1:] = part[past[:len(ends) - 1]]
    dash = np.flatnonzero(lead == 45)          # lines that start with "-" (a blank line starts with its end)
    fnext = w[1:]
    if cr:
        fnext = fnext.copy()
        fnext[nl_at] -= 1                      # a line's last field ends at its CR
    return w[:-1], fnext, nfields, first, blank, dash, n_lines


def _line_text(part: np.ndarray, line: int) -> str:
    """The text of 0-based ``line`` of ``part`` (error path only)."""
    return part[line_start(part, line):].tobytes().split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")


def _ragged(part: np.ndarray, tok_lines: np.ndarray, counts: np.ndarray, acc: _Acc, line0: int,
            path: str) -> InputError:
    """The error for token lines of different widths: the first line that differs from the first token
    line -- unless the first token line is the odd one out (a ``# comment`` line before a file whose
    lines all agree, say): then that line, with the width the others share."""
    ncol = acc.ncol
    k = int(np.flatnonzero(counts != ncol)[0])
    expected = f"expected {ncol} as on line {acc.first_token_line}"
    other = k       # a line of the width most lines have, for the GermEval hint
    share = np.bincount(counts)
    usual = int(share.argmax())
    if acc.n == 0 and not acc.continued and usual != ncol and share[usual] > 1 and share[ncol] == 1:
        k, other = 0, int(np.flatnonzero(counts == usual)[0])
        expected = (f"expected {usual} as on line {line0 + int(tok_lines[other]) + 1} and the "
                    f"{int(share[usual]) - 1} other token line{'s' if share[usual] > 2 else ''} after it")
    text = _line_text(part, int(tok_lines[k]))
    hint = _layout_hint(acc.first_field, _line_text(part, int(tok_lines[other])))
    if not hint and text.lstrip().startswith("#"):
        hint = "; column files have no comment lines (remove it)"
    return InputError(f"{int(counts[k])} columns, {expected}: {text!r}{hint}", path, line0 + int(tok_lines[k]) + 1)


def _layout_hint(first_field: bytes, bad_line: str) -> str:
    """A likely fix for a column-count error: a GermEval 2014 file (``#`` source lines, then
    ``index token outer inner``) is not a CoNLL file."""
    fields = bad_line.split()
    if first_field.startswith(b"#") and fields and fields[0].isdigit():
        return ("; this looks like a GermEval 2014 file (# comment lines, an index column): "
                "score it with `ts-eval germeval`")
    return ""


def _check_empty_fields(part: np.ndarray, wpos: np.ndarray, delim: int, line0: int, path: str) -> None:
    """With a delimiter, a field may not be empty (two delimiters in a row, or one at the line start):
    fields would be miscounted, and conlleval.pl would read an empty tag."""
    d = wpos[part[wpos] == delim]
    if not len(d):
        return
    prev = np.where(d > 0, part[np.maximum(d - 1, 0)], 10)
    bad = d[(prev == 10) | (prev == delim)]
    if len(bad):
        p = int(bad[0])
        ln = int(np.count_nonzero(part[:p] == 10))
        text = part[line_start(part, ln):].tobytes().split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")
        raise InputError(f"empty field (delimiter {chr(delim)!r} at the line start or twice in a row): "
                         f"{text!r}; expected a value between delimiters", path, line0 + ln + 1)


def line_start(part: np.ndarray, line: int) -> int:
    """Byte offset of a 0-based line (error path only)."""
    if line == 0:
        return 0
    return int(np.flatnonzero(part == 10)[line - 1]) + 1


def merge_values(parts: List[Tuple[List[str], np.ndarray]], n: int) -> Tuple[List[str], np.ndarray]:
    """One vocabulary over the chunks; ids[column, token] into it."""
    if not parts:
        return [], np.zeros((0, n), np.uint16)
    vocab = sorted(set().union(*[set(v) for v, _ in parts]))
    index = {t: k for k, t in enumerate(vocab)}
    dtype = np.uint16 if len(vocab) < 2**16 else np.int32
    out = np.empty((parts[0][1].shape[0], n), dtype)
    at = 0
    for v, local in parts:
        width = local.shape[1]
        out[:, at:at + width] = local if v == vocab else np.array([index[t] for t in v], dtype)[local]
        at += width
    return vocab, out


_MULT = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5],
                 dtype=np.uint64)


def byte_windows(padded: Union[bytes, bytearray, np.ndarray], offset: int = 0) -> np.ndarray:
    """For every byte offset from ``offset``, the 8 bytes from there as one little-endian uint64.

    A view (no copy) of ``padded``, which must end with 8 bytes of zero padding.
    """
    buf = np.frombuffer(padded, np.uint8)[offset:]
    return as_strided(buf, shape=(len(buf) - 7, 8), strides=(1, 1)).view("<u8")[:, 0]


_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_LENGTH_BYTE = np.array([k << 56 for k in range(8)], dtype=np.uint64)   # a short slice's length, in its key's top byte


def unique_slices(windows: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                  cache: Optional[SliceCache] = None) -> Tuple[List[str], np.ndarray]:
    """Distinct byte slices ``[s, e)`` (decoded, sorted) and the per-slice index into them.

    ``cache`` (one per file or block) keeps the table of short values of one call for the next: a call
    whose values the table holds costs no sample, no new table and no decoding, and its vocabulary is
    then the table's, which may also hold values of the earlier calls.

    ``windows`` comes from :func:`byte_windows`: each slice is read as 8-byte
    words with one gather per word (a tag column never becomes a million Python
    strings).  A slice of at most 7 bytes is its own key; longer ones are hashed
    over their words and then checked word by word against their representative,
    so a hash collision cannot merge two values.  The few distinct keys are found
    from a sample plus ``searchsorted``.
    """
    n = len(starts)
    if n == 0:
        return [], np.zeros(0, np.int32)
    lengths = ends - starts
    maxlen = int(lengths.max())
    words = []
    for w0 in range(0, max(maxlen, 1), 8):   # an empty slice is one word of zeros
        if w0 == 0:
            word = windows[starts]
            word &= _LOW_BYTES[np.minimum(lengths, 8) if maxlen > 8 else lengths]
        else:
            word = windows[np.minimum(starts + w0, len(windows) - 1)]
            word &= _LOW_BYTES[np.clip(lengths - w0, 0, 8)]
        words.append(word)
    if maxlen < 8:
        key = words[0]
        key |= _LENGTH_BYTE[lengths]           # (a length of at most 7 leaves the decoded bytes alone)
    else:
        key = words[0].copy()
    if maxlen < 8:
        found = _short_slices(key, cache)
        if found is not None:
            return found
    for j, word in enumerate(words[1:], 1):
        key = (key * _MULT[j % 4]) ^ (key >> np.uint64(29)) ^ word
    sample = unique(key[:: max(1, n // 4096)])
    pos = np.minimum(np.searchsorted(sample, key), len(sample) - 1)
    miss = sample[pos] != key
    if miss.any():
        sample = unique(np.concatenate((sample, key[miss])))
        pos = np.searchsorted(sample, key)
    first = np.full(len(sample), -1, np.int64)
    first[pos[::-1]] = np.arange(n - 1, -1, -1)  # first occurrence of each key
    if maxlen >= 8:
        rep = first[pos]
        if not np.array_equal(lengths, lengths[rep]) or not all(np.array_equal(wd, wd[rep]) for wd in words):
            # a hash collision: group by the words themselves (exact, slower)
            rows = np.stack(words + [lengths.astype(np.uint64)], axis=1)
            _, first, pos = np.unique(rows, axis=0, return_index=True, return_inverse=True)
            pos = pos.ravel()
    values = [b"".join(int(words[j][k]).to_bytes(8, "little") for j in range(len(words)))[: int(lengths[k])]
              .decode("utf-8") for k in first.tolist()]
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = np.empty(len(values), np.int32)
    rank[order] = np.arange(len(values), dtype=np.int32)
    return [values[k] for k in order], rank[pos]


_SENTINEL = np.uint64((1 << 64) - 1)    # no short key: its top byte (the length) is at most 7
_ODD = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5,
                 0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x94D049BB133111EB], dtype=np.uint64)


class _ShortTable:
    """A perfect hash of short keys to their values' ranks (:func:`_short_slices`)."""

    __slots__ = ("keys", "mult", "ranks", "sample", "shift", "values")

    def __init__(self, sample: np.ndarray, mult: np.uint64, shift: np.uint64, ranks: np.ndarray, keys: np.ndarray,
                 values: List[str]) -> None:
        self.sample = sample      # the keys, sorted
        self.mult = mult
        self.shift = shift
        self.ranks = ranks        # slot -> rank of its key's value (-1: an empty slot)
        self.keys = keys          # slot -> its key (an empty slot: a key no slice has)
        self.values = values      # rank -> value


class SliceCache:
    """What :func:`unique_slices` keeps from one call for the next (the table of short values)."""

    __slots__ = ("table",)

    def __init__(self, table: Optional[_ShortTable] = None) -> None:
        self.table = table


def _short_slices(key: np.ndarray, cache: Optional[SliceCache] = None) -> Optional[Tuple[List[str], np.ndarray]]:
    """:func:`unique_slices` for slices of at most 7 bytes, whose ``key`` (the bytes, the length in the top
    byte) is the slice itself: the distinct keys of a sample get a collision-free multiplicative hash into a
    small table of their values' ranks, so each slice costs a multiply, a shift and two lookups, and the
    values are decoded from the keys.  A key the table lacks is added and the table rebuilt; None when no
    hash separates the keys (many distinct values: the caller's general way)."""
    step = max(1, len(key) // 4096)
    table = cache.table if cache is not None else None
    for _ in range(3):
        if table is None:
            table = _short_table(unique(key[::step]))
            if table is None:
                return None
        slot = key * table.mult
        slot >>= table.shift
        at = slot.view(np.int64)                   # signed: numpy indexes with uint64 (or int32) slowly
        miss = table.keys[at] != key
        if not miss.any():
            if cache is not None:
                cache.table = table
            return table.values, table.ranks[at]
        bigger = _short_table(unique(np.concatenate((table.sample, key[miss], key[::step]))))
        if bigger is None:
            return None
        table = bigger
    raise AssertionError("a key missing from its own table")    # pragma: no cover -- a rebuilt table has all


def _short_table(sample: np.ndarray) -> Optional[_ShortTable]:
    """The :class:`_ShortTable` of the distinct short keys ``sample`` (None: no perfect hash found)."""
    hashed = _perfect_hash(sample)
    if hashed is None:
        return None
    mult, shift, table = hashed
    values = [int(k).to_bytes(8, "little")[: int(k) >> 56].decode("utf-8") for k in sample.tolist()]
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = np.empty(len(values) + 1, np.int32)
    rank[order] = np.arange(len(values), dtype=np.int32)
    rank[-1] = -1                                  # index len(sample) in the table: an empty slot
    return _ShortTable(sample, mult, shift, rank[table], np.append(sample, _SENTINEL)[table],
                       [values[k] for k in order])


def _perfect_hash(sample: np.ndarray) -> Optional[Tuple[np.uint64, np.uint64, np.ndarray]]:
    """(multiplier, shift, table): ``table[(k * multiplier) >> shift]`` is k's index in ``sample`` for every
    key k of ``sample`` (``len(sample)`` in empty slots); None when no multiplier tried separates them."""
    m = len(sample)
    if m > 4096:
        return None
    bits = max(4, (4 * m).bit_length())
    for extra in range(3):
        shift = np.uint64(64 - bits - extra)
        for mult in _ODD:
            slot = (sample * mult) >> shift
            if len(unique(slot)) == m:
                table = np.full(1 << (bits + extra), m, np.int32)
                table[slot] = np.arange(m, dtype=np.int32)
                return mult, shift, table
    return None
