"""GermEval 2014 NER files: the 6-column evaluation layout and the 4-column data layout.

Layouts (fields separated by TABs, one token per line):

``6col``  index, token, gold outer, gold inner, system outer, system inner
          (the file the official scorer ``nereval.perl`` reads);
``4col``  index, token, outer, inner (the data release; two-file mode reads a gold
          and a system file in this layout; a 6-column file is accepted on either
          side: the gold side uses its columns 3-4, the system side 5-6).

``#`` lines (source URL and date) and blank lines are not tokens; every such line
ends a sentence.  A CR before the line end is dropped, and so are empty fields at
the end of a line (as Perl's ``split`` does: one line of the original test file ends
with a TAB).  Tokens are kept as bytes and decoded only on demand, so soft hyphens
and C1 control characters in tokens pass unchanged.

Validation, before anything is scored: every tag is ``O`` or ``B-``/``I-`` plus one of
the twelve official labels (else an error with file, line and column); two-file mode
checks line by line that the system's index and token fields equal the gold file's
(the check the evaluation plan asks participants to make with ``cmp``); under the
``strict`` policy every level must be well-formed IOB2.

A file (a path, ``-`` or a compressed file, opened by :mod:`.source`) is read in blocks of whole
sentences (:func:`~.source.line_blocks`), each split by :func:`_split_block` with the file's line numbers
and first token line, and the blocks are added up; the first error is the whole file's at any block size.

The label set, :class:`GermEvalData` and chunk decoding live in :mod:`.data`; several system
files against one gold become a corpus for ranking in :mod:`.corpus` (:func:`~.corpus.germeval_corpus`).
"""
from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ..core import schemes
from ..errors import Hint, InputError, OptionError
from .columns import ColumnFile, _Limited, byte_windows, unique_slices
from .conll import check_aligned
from .documents import TOKEN_SEP, Documents
from .feed import concat_parts
from .germeval_data import (
    LABELS,
    LEVELS,
    ROW_NAMES,
    TAG_ID,
    TAG_LABEL,
    TAG_PREFIX,
    TAGS,
    GermEvalData,
    TokenTexts,
    check_policy_name,
    joined,
    last_cut,
    level_chunks,
    piece_of,
    sentence_bounded,
)
from .source import BOM, STDIN, RawBlock, is_compressed, is_dir, line_blocks, open_stream, system_name

SIX_COLUMNS = "index, token, gold outer, gold inner, system outer, system inner"
FOUR_COLUMNS = "index, token, outer, inner"

# ---------------------------------------------------------------------------
# reading

@dataclass
class _TabFile:
    """Token lines of a TAB-separated file: field byte ranges, lines, sentence starts."""

    path: str
    raw: np.ndarray                    # the bytes (uint8) plus 8 zero bytes (for byte_windows)
    shift: int                         # BOM length
    n_fields: int
    token_line: np.ndarray             # int32
    sent_first: np.ndarray
    fstart: np.ndarray                 # (n_fields, n) byte offsets into raw[shift:]
    fend: np.ndarray
    comment_lines: int
    blank_lines: int
    _windows: Optional[np.ndarray] = field(default=None, repr=False)

    @property
    def n_tokens(self) -> int:
        return len(self.token_line)

    @property
    def data(self) -> np.ndarray:
        return np.frombuffer(self.raw, np.uint8, count=len(self.raw) - 8 - self.shift, offset=self.shift)

    @property
    def windows(self) -> np.ndarray:
        if self._windows is None:
            self._windows = byte_windows(self.raw, self.shift)
        return self._windows

    def field_file(self, column: int) -> ColumnFile:
        """A :class:`ColumnFile` view whose 'token' is field ``column`` (0-based), for check_aligned."""
        n = self.n_tokens
        return ColumnFile(
            path=self.path, data=self.data, n_columns=self.n_fields, token_line=self.token_line,
            sent_first=self.sent_first, doc_first=np.zeros(n, bool), docstart_lines=0, boundary_lines=0,
            token_column=column + 1, token_start=self.fstart[column],
            token_len=(self.fend[column] - self.fstart[column]).astype(np.int32), columns={})

    def text(self, column: int, token: int) -> str:
        a, b = int(self.fstart[column, token]), int(self.fend[column, token])
        return self.data[a:b].tobytes().decode("utf-8")


#: blocks of whole sentences of about this many bytes (the ``block_bytes`` of the readers; tests give tiny ones)
BLOCK_BYTES = 1 << 22

# a block ends after a line end that a blank or a '#' line follows: the next block starts a sentence
_SENTENCE_END = re.compile(rb"\n(?=[ \t\r\x0b\x0c]*\n|#)")


def _sentence_end(buf: Any, start: int) -> int:
    """:data:`~.source.Cut` of GermEval files: after the first line end at or after ``start`` that a blank
    or a '#' line follows (-1: none yet)."""
    m = _SENTENCE_END.search(buf, max(start, 0))
    return -1 if m is None else m.start() + 1


def _opened(path: str) -> Any:
    if is_dir(path):
        raise InputError("is a directory, expected a GermEval file", path)
    return open_stream(path)


#: the order in which the whole file's checks come (the first error of the earliest check is the one raised)
_LEAD_TAB, _FIELD_COUNT, _FIELDS_DIFFER, _EMPTY_FIELD = range(4)


class _Failed(NamedTuple):
    """The first check a block fails (one of :data:`_LEAD_TAB` ...) and its error."""

    check: int
    error: InputError


def _read_tab_file(path: str, allowed_fields: Sequence[int], layout_help: str,
                   block_bytes: Optional[int] = BLOCK_BYTES) -> _TabFile:
    """The file's token lines: its blocks of whole sentences (about ``block_bytes`` each; None: one block)
    (:class:`_Blocks`) added up (:func:`_added_up`), or the error the whole file gives first."""
    blocks = _Blocks(lambda: _opened(path), path, allowed_fields, layout_help, block_bytes)
    parts = list(blocks)
    blocks.raise_first()
    return _added_up(parts, blocks.head[0][0])


def _added_up(parts: Sequence[_TabFile], n_fields: int) -> _TabFile:
    """One :class:`_TabFile` of the blocks' in file order (their bytes one after the other, offsets moved)."""
    if len(parts) == 1:
        return parts[0]
    sizes = [len(p.data) for p in parts]
    at = np.concatenate(([0], np.cumsum(sizes, dtype=np.int64)))
    raw = np.zeros(int(at[-1]) + 8, np.uint8)
    for p, a, n in zip(parts, at.tolist(), sizes):
        raw[a:a + n] = p.data
    full = [(p, a) for p, a in zip(parts, at.tolist()) if p.n_tokens]
    return _TabFile(parts[0].path, raw, 0, n_fields,
                    np.concatenate([p.token_line for p, _ in full]), np.concatenate([p.sent_first for p, _ in full]),
                    np.concatenate([p.fstart + a for p, a in full], axis=1),
                    np.concatenate([p.fend + a for p, a in full], axis=1),
                    sum(p.comment_lines for p in parts), sum(p.blank_lines for p in parts))


def _split_block(block: RawBlock, path: str, allowed_fields: Sequence[int], layout_help: str,
                 head: List[Tuple[int, int]]) -> Union[_TabFile, _Failed]:
    """Find a block's token lines and their TAB-separated fields (vectorised over the block), or the first
    failed check of the block; ``head``: the file's first token line, set by the first block that has one."""
    raw = block.padded()
    shift = len(BOM) if block.bytes == 0 and bytes(block.array[:len(BOM)]) == BOM else 0
    size = len(block.array) - shift
    data = raw[shift:shift + size]
    try:
        codecs.utf_8_decode(memoryview(data), "strict", True)
    except UnicodeDecodeError as err:
        line = block.lines + int(np.count_nonzero(data[:err.start] == 10)) + 1
        raise InputError(f"not UTF-8: byte 0x{int(data[err.start]):02x} ({err.reason}); expected UTF-8 text",
                         path, line) from None
    lines = _block_lines(data)
    if isinstance(lines, int):
        return _Failed(_LEAD_TAB, InputError(
            "the line starts with a TAB (empty index field); the official scorer skips such lines silently, "
            "so their tags would not be scored; expected " + layout_help, path, block.lines + lines + 1))
    tok, ts, te, comment_lines, blank_lines = lines
    if not len(tok):
        none = np.zeros((0, 0), np.int64)
        return _TabFile(path, raw, shift, 0, np.zeros(0, np.int32), np.zeros(0, bool), none, none,
                        comment_lines, blank_lines)
    local, tok = tok, tok + block.lines
    fields = _block_fields(data, tok, local, ts, te, path, allowed_fields, layout_help, head)
    if isinstance(fields, _Failed):
        return fields
    token_line = (tok + 1).astype(np.int32)
    sent_first = np.diff(token_line, prepend=-1) > 1
    return _TabFile(path, raw, shift, head[0][0], token_line, sent_first, fields[0], fields[1],
                    comment_lines, blank_lines)


def _block_lines(data: np.ndarray) -> Union[int, Tuple[np.ndarray, np.ndarray, np.ndarray, int, int]]:
    """A block's token lines (their indices in the block), where each starts and ends (a CR before the line
    end and empty fields at the end dropped), and its '#' and blank lines; or the first line (index) that
    starts with a TAB."""
    size = len(data)
    if size == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, 0, 0
    nl = np.flatnonzero(data == 10)
    lstart = np.concatenate(([0], nl + 1))
    lend = np.concatenate((nl, [size]))
    if lstart[-1] == size:             # the block ends with a newline: no last partial line
        lstart, lend = lstart[:-1], lend[:-1]
    nonempty = lend > lstart
    cr = nonempty & (data[np.maximum(lend - 1, 0)] == 13)
    lend = lend - cr
    first = data[np.minimum(lstart, size - 1)]
    blank = _blank_lines(data, lstart, lend, first)
    comment = ~blank & (first == ord("#"))
    lead_tab = ~blank & ~comment & (first == 9)
    if lead_tab.any():
        return int(np.flatnonzero(lead_tab)[0])
    tok = np.flatnonzero(~blank & ~comment)
    ts, te = lstart[tok], lend[tok].copy()
    # drop empty fields at the line end (Perl's split does): strip trailing TABs
    trailing = np.flatnonzero(data[te - 1] == 9)
    for k in trailing.tolist():
        e = int(te[k])
        while e > ts[k] and data[e - 1] == 9:
            e -= 1
        te[k] = e
    return tok, ts, te, int(comment.sum()), int(blank.sum())


_WHITE = np.zeros(256, bool)
_WHITE[[32, 9, 13, 11, 12]] = True


def _blank_lines(data: np.ndarray, lstart: np.ndarray, lend: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Which lines are blank: empty, or white space only (only a line that starts with white space can be)."""
    blank: np.ndarray = lend == lstart
    maybe = np.flatnonzero(~blank & _WHITE[first])
    if len(maybe) > 64:                 # many: over the bytes of the lines that start with white space
        ws = _WHITE[data]
        nonws = np.concatenate(([0], np.cumsum(~ws, dtype=np.int64)))
        blank[maybe] = (nonws[lend[maybe]] - nonws[lstart[maybe]]) == 0
    else:
        for k in maybe.tolist():
            blank[k] = bool(_WHITE[data[lstart[k]:lend[k]]].all())
    return blank


def _line_tabs(data: np.ndarray, local: np.ndarray, te: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The TABs and line ends of a block in order (offsets), and for each of the token lines ``local`` (their
    indices in the block, ending at ``te``) the index of its first TAB among them and its number of TABs
    before ``te``: one pass over the bytes and a few over the separators (no search per line)."""
    sep = np.flatnonzero((data == 9) | (data == 10))
    line_end = np.flatnonzero(data[sep] == 10)              # the index in sep of each line's end, line by line
    line_end = np.append(line_end, len(sep))                # (the last line may have no line end)
    t0 = np.zeros(len(line_end), np.int64)
    t0[1:] = line_end[:-1] + 1
    t0 = t0[local]
    ntab = line_end[local] - t0
    last = sep[np.maximum(t0 + ntab - 1, 0)]
    for k in np.flatnonzero((ntab > 0) & (last >= te)).tolist():      # TABs at the end of the line, dropped
        ntab[k] = int(np.searchsorted(sep[t0[k]:t0[k] + ntab[k]], te[k]))
    return sep, t0, ntab


def _block_fields(data: np.ndarray, tok: np.ndarray, local: np.ndarray, ts: np.ndarray, te: np.ndarray, path: str,
                  allowed_fields: Sequence[int], layout_help: str,
                  head: List[Tuple[int, int]]) -> Union[Tuple[np.ndarray, np.ndarray], _Failed]:
    """Where the fields of a block's token lines (``tok``: their indices in the file, ``local`` in the block)
    start and end, as (fields, lines) arrays; or the first check they fail (a line's number of fields is not
    allowed, differs from the file's first token line's (``head``, set here by the first block with token
    lines), or a field is empty)."""
    tabs, t0, ntab = _line_tabs(data, local, te)
    nf = ntab + 1
    if not head:
        head.append((int(nf[0]), int(tok[0]) + 1))
    ok = np.zeros(len(nf), bool)
    for allowed in allowed_fields:
        ok |= nf == allowed
    if not ok.all():
        k = int(np.flatnonzero(~ok)[0])
        text = data[ts[k]:te[k]].tobytes().decode("utf-8")
        hint = ""
        if nf[k] == 1 and " " in text:
            hint = " (fields must be separated by TABs, not spaces)"
        return _Failed(_FIELD_COUNT, InputError(
            f"{int(nf[k])} TAB-separated fields, expected {' or '.join(map(str, allowed_fields))} "
            f"({layout_help}){hint}: {text!r}", path, int(tok[k]) + 1))
    n_fields, first_line = head[0]
    if (nf != n_fields).any():
        k = int(np.flatnonzero(nf != n_fields)[0])
        return _Failed(_FIELDS_DIFFER, InputError(
            f"{int(nf[k])} fields, but the first token line (line {first_line}) has {n_fields}",
            path, int(tok[k]) + 1))
    fstart = np.empty((n_fields, len(tok)), np.int64)
    fend = np.empty((n_fields, len(tok)), np.int64)
    fstart[0], fend[-1] = ts, te
    for j in range(n_fields - 1):      # field j ends at the line's TAB j, field j + 1 starts after it
        np.take(tabs, t0, out=fend[j])
        np.add(fend[j], 1, out=fstart[j + 1])
        t0 += 1
    empty = fend == fstart
    if empty.any():
        k = int(np.flatnonzero(empty.any(axis=0))[0])     # first line, then first field on it
        j = int(np.flatnonzero(empty[:, k])[0])
        what = ("index", "token")[j] if j < 2 else f"tag (field {j + 1})"
        return _Failed(_EMPTY_FIELD, InputError(f"empty {what} field; expected {layout_help}", path,
                                                int(tok[k]) + 1))
    return fstart, fend


def _tag_table() -> Tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The official tags by their first 8 bytes (a word, as :func:`~.columns.byte_windows` reads it; no two
    tags share it), hashed into 4096 slots (``(word * multiplier) >> 52``, a multiplier that puts no two tags
    in one slot): the multiplier, and per slot the tag's word, length, bytes 9.. (a word) and id into TAGS
    (slot 0's word 0 matches no tag: a tag is not empty)."""
    words = [int.from_bytes(t.encode()[:8], "little") for t in TAGS]
    mult = next(m for m in range(0x9E3779B97F4A7C15, 1 << 64, 2)
                if len({((w * m) & ((1 << 64) - 1)) >> 52 for w in words}) == len(words))
    word, length, rest = np.zeros(4096, np.uint64), np.zeros(4096, np.int64), np.zeros(4096, np.uint64)
    ids = np.zeros(4096, np.uint8)
    for k, (t, w) in enumerate(zip(TAGS, words)):
        slot = ((w * mult) & ((1 << 64) - 1)) >> 52
        word[slot], length[slot], ids[slot] = w, len(t.encode()), k
        rest[slot] = int.from_bytes(t.encode()[8:16], "little")
    return mult, word, length, rest, ids


_TAG_MULT, _TAG_WORD, _TAG_LEN, _TAG_REST, _TAG_IDS = _tag_table()
_LOW = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _official_tag_ids(data: np.ndarray, windows: np.ndarray, starts: np.ndarray,
                      ends: np.ndarray) -> Optional[np.ndarray]:
    """The ids into TAGS of byte slices that are all official tags (None if one is not): looked up by their
    first 8 bytes (:func:`_tag_table`), then their length and their bytes after the 8th checked."""
    lengths = ends - starts
    ids = np.zeros(len(starts), np.uint8)               # O (most tags): one byte, 'O'
    other = np.flatnonzero((lengths != 1) | (data[starts] != ord("O")))
    if not len(other):
        return ids
    starts, lengths = starts[other], lengths[other]
    word = windows[starts] & _LOW[np.minimum(lengths, 8)]
    slot = ((word * np.uint64(_TAG_MULT)) >> np.uint64(52)).astype(np.intp)
    ok = (_TAG_WORD[slot] == word) & (_TAG_LEN[slot] == lengths)
    long = np.flatnonzero(lengths > 8)
    if len(long):
        rest = windows[np.minimum(starts[long] + 8, len(windows) - 1)] & _LOW[np.minimum(lengths[long] - 8, 8)]
        ok[long] &= _TAG_REST[slot[long]] == rest
    if not ok.all():
        return None
    ids[other] = _TAG_IDS[slot]
    return ids


def _tag_ids(tf: _TabFile, columns: Sequence[int], names: Sequence[str]) -> np.ndarray:
    """Tag columns (0-based) -> ids into TAGS, rejecting anything outside the official set."""
    starts = np.concatenate([tf.fstart[c] for c in columns])
    ends = np.concatenate([tf.fend[c] for c in columns])
    fast = _official_tag_ids(tf.data, tf.windows, starts, ends)
    if fast is not None:
        return fast.reshape(len(columns), -1)
    vocab, ids = unique_slices(tf.windows, starts, ends)
    mapping = np.array([TAG_ID.get(v, -1) for v in vocab], np.int16)
    out = mapping[ids].reshape(len(columns), -1)
    if (out < 0).any():
        bad_rows, bad_tok = np.nonzero(out < 0)
        k = int(np.argmin(bad_tok * len(columns) + bad_rows))   # first by line, then by column
        r, t = int(bad_rows[k]), int(bad_tok[k])
        tag = tf.text(columns[r], t)
        raise InputError(f"{names[r]} tag {tag!r} (field {columns[r] + 1}) is not a GermEval 2014 tag: "
                         f"{_tag_hint(tag)}", tf.path, int(tf.token_line[t]))
    tag_ids: np.ndarray = out.astype(np.uint8)
    return tag_ids


def _tag_hint(tag: str) -> str:
    expected = ("expected O, or B- or I- followed by LOC, ORG, OTH or PER, optionally with the suffix "
                "deriv or part (e.g. B-PER, I-LOCderiv, B-ORGpart)")
    head, sep, label = tag.partition("-")
    if tag.lower() == "o":
        return "tags are case sensitive; " + expected
    if tag != tag.strip():
        return "it has white space around it; " + expected
    if sep and head.upper() in ("B", "I") and label.upper().startswith("MISC"):
        return "GermEval has no MISC, its class for other names is OTH; " + expected
    if sep and head in ("E", "S", "L", "U"):
        return f"the prefix {head}- is not IOB2; " + expected
    if sep and head.upper() in ("B", "I") and label.lower() in {lab.lower() for lab in LABELS}:
        return "labels are case sensitive; " + expected
    return expected


def _block_data(tf: _TabFile, name: str, path: str) -> GermEvalData:
    """One block's :class:`GermEvalData` (its tags checked: :func:`_tag_ids`)."""
    tags = _tag_ids(tf, (2, 3, 4, 5), ROW_NAMES)
    return GermEvalData(
        name=name, gold_path=path, system_path=path, layout="6col", tags=tags,
        sent_first=tf.sent_first, gold_lines=tf.token_line, system_lines=tf.token_line,
        texts=TokenTexts.of(_token_texts(tf), tf.n_tokens), comment_lines=tf.comment_lines,
        blank_lines=tf.blank_lines)


class _Blocks:
    """The blocks of whole sentences of a TAB-separated file (:func:`~.source.line_blocks`), each split
    (:func:`_split_block`) with the file's line numbers and first token line (``head``) and handed out when
    it passes the layout checks; the first error of each kind is kept (the readers add the tags' and the
    policy's), and :meth:`raise_first` raises them in the order the whole file's read does, whatever the
    block size: the layout checks (:data:`_LEAD_TAB` ..., earliest check, then earliest block), an empty
    file, no token lines, a tag outside the set, then ill-formed IOB2 (policy strict)."""

    def __init__(self, opened: Callable[[], Any], path: str, allowed_fields: Sequence[int], layout_help: str,
                 block_bytes: Optional[int]) -> None:
        self.opened, self.path, self.allowed, self.help = opened, path, allowed_fields, layout_help
        self.block_bytes, self.size = block_bytes, 0
        self.head: List[Tuple[int, int]] = []       # the file's first token line: (fields, line)
        self.layout: List[Tuple[int, int, InputError]] = []
        self.tag: Optional[InputError] = None
        self.policy: Optional[InputError] = None

    def __iter__(self) -> Iterator[_TabFile]:
        for k, block in enumerate(line_blocks(self.opened, _sentence_end, self.block_bytes)):
            part = _split_block(block, self.path, self.allowed, self.help, self.head)
            if isinstance(part, _Failed):
                self.layout.append((part.check, k, part.error))
                continue
            self.size += len(part.data)
            yield part

    @property
    def failed(self) -> bool:
        return bool(self.layout) or self.tag is not None or self.policy is not None

    def raise_first(self) -> None:
        if self.layout:
            raise min(self.layout, key=lambda f: f[:2])[2]
        if not self.size:
            raise InputError("empty file, expected token lines (" + self.help + ")", self.path)
        if not self.head:
            raise InputError("no token lines (only blank and '#' lines); expected " + self.help, self.path)
        for err in (self.tag, self.policy):
            if err is not None:
                raise err


def germeval_blocks(path: str, *, name: Optional[str] = None, policy: str = "nereval",
                    block_bytes: Optional[int] = BLOCK_BYTES,
                    shard: Optional[Tuple[int, int]] = None) -> Iterator[Tuple[GermEvalData, bool]]:
    """A 6-column file as pieces of whole sentences, one block after the other: each a
    :class:`GermEvalData` with its own token indices (and the file's line numbers), and whether it is
    the file's last.  A piece never
    ends where a chunk runs on into the next sentence (policy ``nereval``: a sentence that starts with
    an ``I-`` after a tag that is not ``O``, on any row), so the pieces' chunks are the file's.  Nothing
    is yielded after the first error, the whole file's first whatever the block size (:class:`_Blocks`).
    ``shard``: only bytes start..stop of the file (:func:`germeval_shards`), read as a file of their own (its
    line numbers count from the shard's start, its last piece is marked last)."""
    check_policy_name(policy)
    label = name or system_name(path)
    lines = (0, 0)     # '#' and blank lines not yet given
    pending: Optional[GermEvalData] = None

    def opened() -> Any:
        fh = _opened(path)
        if shard is None:
            return fh
        fh.seek(shard[0])
        return _Limited(fh, shard[1] - shard[0])

    blocks = _Blocks(opened, path, (6,), "6 fields: " + SIX_COLUMNS, block_bytes)
    for part in blocks:
        if blocks.layout or blocks.tag is not None:
            continue
        if not part.n_tokens:           # only '#' and blank lines: they go with the piece read so far
            lines = (lines[0] + part.comment_lines, lines[1] + part.blank_lines)
            continue
        try:
            piece = _block_data(part, label, path)
        except InputError as err:
            blocks.tag = err
            continue
        piece.comment_lines, piece.blank_lines = piece.comment_lines + lines[0], piece.blank_lines + lines[1]
        lines = (0, 0)
        if blocks.policy is None:
            try:
                check_policy(piece, policy)
            except InputError as err:
                blocks.policy = err
        if blocks.failed:
            continue
        pending = piece if pending is None else joined(pending, piece)
        cut = last_cut(pending, policy)
        if cut:
            yield piece_of(pending, 0, cut), False
            pending = piece_of(pending, cut, pending.n_tokens)
    blocks.raise_first()
    if pending is not None:
        pending.comment_lines, pending.blank_lines = pending.comment_lines + lines[0], pending.blank_lines + lines[1]
        yield pending, True


def germeval_shards(path: str, n: int, policy: str = "nereval") -> Optional[List[Tuple[int, int]]]:
    """Byte ranges that cut a plain (uncompressed) 6-column file into at most ``n`` shards of whole sentences
    of about equal size, each read on its own by :func:`germeval_blocks` (``shard``): a shard ends where a
    block may (before a blank or '#' line) and, under the policy ``nereval``, never where a chunk runs on into
    the next sentence (the next token line has an ``I-`` tag where the token line before it is not ``O``), so
    the shards' chunks are the file's.  Every shard holds a token line.  None for standard input, a compressed
    file, or a file that cannot be cut (fewer than two shards)."""
    if path == STDIN or n < 2 or is_dir(path):
        return None
    offsets = [0]
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            if is_compressed(fh.read(8)):
                return None
            for k in range(1, n):
                cut = _shard_cut(fh, max(size * k // n, offsets[-1] + 1), policy, offsets[-1])
                if cut is None:
                    break
                offsets.append(cut)
    except OSError:
        return None
    if len(offsets) < 2:
        return None
    offsets.append(size)
    return list(zip(offsets[:-1], offsets[1:]))


_WINDOW = 1 << 20       # bytes read around a wanted cut: the token lines on either side must lie in them


def _shard_cut(fh: Any, at: int, policy: str, after: int) -> Optional[int]:
    """The first offset at or after ``at`` where a shard may end (:func:`germeval_shards`), with a token line
    between ``after`` (the cut before) and it, within a window of the file; None: none there."""
    base = max(at - _WINDOW, 0)
    fh.seek(base)
    window = fh.read(3 * _WINDOW)
    start = at - base
    while True:
        m = _SENTENCE_END.search(window, start)
        if m is None:
            return None
        cut = m.start() + 1
        (first, before), (_, then) = _token_line(window, cut, -1, base == 0), _token_line(window, cut, 1, True)
        if then is None:
            return None
        if before is not None and base + first >= after and (policy != "nereval" or not _runs_on(before, then)):
            return base + cut
        start = cut


def _token_line(window: bytes, cut: int, step: int, whole: bool) -> Tuple[int, Optional[List[bytes]]]:
    """Where the nearest token line before (``step`` -1) or after (1) offset ``cut`` (a line start) of
    ``window`` starts, skipping blank and '#' lines, and its fields; None: none in the window (``whole``: the
    window starts where the file does, else its first line may be a part of one)."""
    at = cut
    while True:
        if step < 0:
            if at <= 0:
                return -1, None
            a = window.rfind(b"\n", 0, at - 1) + 1
            if a == 0 and not whole:
                return -1, None
            line, at = window[a:at - 1], a
        else:
            b = window.find(b"\n", at)
            if b < 0:
                return -1, None
            line, at = window[at:b], b + 1
        text = line.rstrip(b"\r")
        if text.strip(b" \t\r\x0b\x0c") and not text.startswith(b"#"):
            return (at if step < 0 else at - len(line) - 1), text.rstrip(b"\t").split(b"\t")


def _runs_on(before: List[bytes], after: List[bytes]) -> bool:
    """Whether a nereval chunk runs on from a token line to the next (on any row), or the lines are not
    6-column token lines (no cut there)."""
    if len(before) != 6 or len(after) != 6:
        return True
    return any(t.startswith(b"I-") and p != b"O" for p, t in zip(before[2:], after[2:]))


def read_germeval(path: str, *, name: Optional[str] = None, policy: str = "nereval",
                  block_bytes: Optional[int] = BLOCK_BYTES) -> GermEvalData:
    """Read a file in the 6-column evaluation layout (gold and system in one file): its pieces
    (:func:`germeval_blocks`, blocks of whole sentences of about ``block_bytes``) added up."""
    whole: Optional[GermEvalData] = None
    for piece, _ in germeval_blocks(path, name=name, policy=policy, block_bytes=block_bytes):
        whole = piece if whole is None else joined(whole, piece)
    assert whole is not None        # (a file without token lines is an error)
    return whole


def read_germeval_pair(gold_path: str, system_path: str, *, name: Optional[str] = None,
                       policy: str = "nereval", block_bytes: Optional[int] = BLOCK_BYTES) -> GermEvalData:
    """Read a gold and a system file in the 4-column data layout (index, token, outer, inner).

    Either file may also be in the 6-column layout: gold then uses its columns 3-4,
    the system its columns 5-6 (and its columns 3-4 must equal the gold file's tags).
    The system's index and token fields must equal the gold file's, line by line.  Both are read in
    blocks of whole sentences of about ``block_bytes`` (as :func:`read_germeval`).
    """
    check_policy_name(policy)
    help4 = "4 fields: " + FOUR_COLUMNS + " (or the 6-field evaluation layout)"
    gf = _read_tab_file(gold_path, (4, 6), help4, block_bytes)
    sf = _read_tab_file(system_path, (4, 6), help4, block_bytes)
    _check_lines_up(gf, sf)
    gold = _tag_ids(gf, (2, 3), ("gold outer", "gold inner"))
    scols = (2, 3) if sf.n_fields == 4 else (4, 5)
    system = _tag_ids(sf, scols, ("system outer", "system inner"))
    if sf.n_fields == 6:
        own_gold = _tag_ids(sf, (2, 3), ("gold outer (in the system file)", "gold inner (in the system file)"))
        diff = np.nonzero(own_gold != gold)
        if len(diff[0]):
            k = int(np.argmin(diff[1] * 2 + diff[0]))
            r, t = int(diff[0][k]), int(diff[1][k])
            raise InputError(f"the system file is in the 6-column layout and its gold {LEVELS[r]} tag "
                             f"{TAGS[own_gold[r, t]]!r} differs from the gold file's {TAGS[gold[r, t]]!r} "
                             f"(gold line {int(gf.token_line[t])}); the two were made from different gold data",
                             system_path, int(sf.token_line[t]))
    data = GermEvalData(
        name=name or system_name(system_path), gold_path=gold_path, system_path=system_path, layout="pair",
        tags=np.vstack([gold, system]), sent_first=gf.sent_first, gold_lines=gf.token_line,
        system_lines=sf.token_line, texts=_token_texts(gf),
        comment_lines=gf.comment_lines, blank_lines=gf.blank_lines)
    check_policy(data, policy)
    return data


def read_germeval_any(gold_or_file: str, system_path: Optional[str] = None, *, name: Optional[str] = None,
                      policy: str = "nereval", block_bytes: Optional[int] = BLOCK_BYTES) -> GermEvalData:
    """6-column FILE alone, or a gold and a system file (see :func:`read_germeval_pair`)."""
    if system_path is None:
        return read_germeval(gold_or_file, name=name, policy=policy, block_bytes=block_bytes)
    return read_germeval_pair(gold_or_file, system_path, name=name, policy=policy, block_bytes=block_bytes)


def _token_texts(tf: _TabFile) -> Callable[[int, int], List[str]]:
    """``texts(a, b)``: the token texts a..b-1 of the file (column 1)."""
    def texts(a: int, b: int) -> List[str]:
        return [tf.text(1, k) for k in range(a, b)]
    return texts


def _check_lines_up(gf: _TabFile, sf: _TabFile) -> None:
    """Same sentences, same tokens, same index fields (the plan's ``cut -f1,2 | cmp`` check)."""
    check_aligned(gf.field_file(1), sf.field_file(1))
    gi, si = gf.field_file(0), sf.field_file(0)
    n = gf.n_tokens
    gi_len, si_len = gi.loaded()[2], si.loaded()[2]
    bad = np.flatnonzero(gi_len != si_len)
    limit = int(bad[0]) if len(bad) else n
    same_len_bytes_differ = np.flatnonzero(gi.token_bytes(0, limit) != si.token_bytes(0, limit))
    if len(same_len_bytes_differ):
        first = int(np.searchsorted(np.cumsum(gi_len[:limit]), same_len_bytes_differ[0], side="right"))
    elif len(bad):
        first = limit
    else:
        return
    raise InputError(f"index field {sf.text(0, first)!r} differs from the gold file's {gf.text(0, first)!r} "
                     f"(gold {gf.path} line {int(gf.token_line[first])}, token {gf.text(1, first)!r}); the files "
                     "must match line by line", sf.path, int(sf.token_line[first]))


# ---------------------------------------------------------------------------
# validation (policy strict)

def first_ill_formed(tags: np.ndarray, sent_first: np.ndarray) -> Optional[Tuple[int, str]]:
    """The first token whose tag breaks IOB2 (an ``I-X`` not after ``B-X``/``I-X`` in its sentence)."""
    p = TAG_PREFIX[tags]
    lab = TAG_LABEL[tags]
    n = len(tags)
    prev_p = np.full(n, schemes.O, np.int8)
    prev_p[1:] = p[:-1]
    prev_l = np.full(n, -1, np.int16)
    prev_l[1:] = lab[:-1]
    sf = np.asarray(sent_first, bool)
    bad = (p == schemes.I) & (sf | (prev_p == schemes.O) | (prev_l != lab))
    if not bad.any():
        return None
    k = int(np.flatnonzero(bad)[0])
    if sf[k]:
        why = "it starts a sentence"
    elif prev_p[k] == schemes.O:
        why = "it follows O"
    else:
        why = f"it follows {TAGS[int(tags[k - 1])]}"
    return k, why


def check_policy(data: GermEvalData, policy: str) -> None:
    """Under ``strict``, reject the first ill-formed IOB2 chunk on any row (file, line, column)."""
    if policy != "strict":
        return
    found = []
    for r in range(4):
        hit = first_ill_formed(data.tags[r], data.sent_first)
        if hit is not None:
            found.append((hit[0], r, hit[1]))
    if not found:
        return
    k, r, why = min(found)
    path, line = data.where(r, k)
    raise InputError([f"ill-formed IOB2 on the {ROW_NAMES[r]} level: {TAGS[int(data.tags[r, k])]!r} cannot "
                      f"start a chunk ({why}); policy strict rejects it (use ", Hint("policy", "nereval"),
                      " to read it as the official scorer does, conlleval to open a new chunk, or discard to drop "
                      "the chunk)"], path, line)


SIDES = ("gold", "system")


def read_germeval_side(path: str, side: str = "gold", *, policy: str = "nereval",
                       levels: Sequence[str] = LEVELS, block_bytes: Optional[int] = BLOCK_BYTES) -> Documents:
    """The ``side`` spans of a 6-column GermEval file (every sentence a document): its blocks
    (:func:`germeval_side_blocks`) added up."""
    docs: Documents = concat_parts(list(germeval_side_blocks(path, side, policy=policy, levels=levels,
                                                             block_bytes=block_bytes)))
    docs.notes["levels"] = list(levels)       # (the same in every block: not added up)
    return docs


def germeval_side_blocks(path: str, side: str = "gold", *, policy: str = "nereval", levels: Sequence[str] = LEVELS,
                         block_bytes: Optional[int] = BLOCK_BYTES) -> Iterator[Documents]:
    """The ``side`` spans of a 6-column GermEval file (every sentence a document) as Documents, a piece of
    :func:`germeval_blocks` at a time (a piece cuts no chunk: its spans are the whole file's); the spans of
    both ``levels`` in one set, a span on both counted once (``merged_levels``)."""
    if side not in SIDES:
        raise OptionError(f"side {side!r}: expected gold or system")
    first = 0
    for data, _ in germeval_blocks(path, policy=policy, block_bytes=block_bytes):
        docs = _side_documents(data, str(path), side, policy, levels)
        docs.first, first = first, first + docs.n_docs
        yield docs


def _side_documents(data: GermEvalData, path: str, side: str, policy: str, levels: Sequence[str]) -> Documents:
    """The ``side`` spans of a piece of a file, both ``levels`` in one set (:func:`germeval_side_blocks`)."""
    chunks = level_chunks(data, policy)
    offsets = data.sent_offsets
    sets = [sentence_bounded(chunks[(side, lv)], offsets) for lv in levels]
    start = np.concatenate([s.start for s in sets]).astype(np.int64)
    last = np.concatenate([s.last for s in sets]).astype(np.int64)
    label = np.concatenate([s.label for s in sets]).astype(np.int64)
    key = (start * (offsets[-1] + 1) + last) * len(LABELS) + label
    _, first = np.unique(key, return_index=True)
    merged = len(key) - len(first)
    first.sort()
    used = sorted(set(label[first].tolist()))
    remap = np.zeros(len(LABELS), np.int32)
    remap[used] = np.arange(len(used), dtype=np.int32)

    def keys() -> List[str]:
        return [TOKEN_SEP.join(data.texts(int(a), int(b))) for a, b in zip(offsets[:-1], offsets[1:])]
    lines = data.gold_lines[offsets[:-1]].tolist() if len(offsets) > 1 else []
    return Documents(path, "germeval", offsets.copy(), [None] * (len(offsets) - 1), keys,
                     start[first], last[first], remap[label[first]], [LABELS[k] for k in used], lines,
                     notes={"side": side, "levels": list(levels), "merged_levels": merged})
