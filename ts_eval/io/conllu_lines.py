"""The lines of a CoNLL-U file, split with numpy: which are blank, comments, words, multi-word tokens
and empty nodes, and each word's FORM and tag, without a Python object per line.

The bytes are scanned in blocks of whole lines (about 1 MiB, which bounds the temporaries).  Per
line, as the format (:mod:`ts_eval.io.conllu`) defines it: a trailing CR is dropped;
a line that is empty or all whitespace (``str.strip``) is blank and ends a sentence; a line
starting with ``#`` is a comment (``# sent_id = X`` names the sentence); any other line must have
one tab-separated field per column; its ID holds ``-`` (a multi-word token), else ``.`` (an empty
node), else it must be an integer (a word).  A word's tag is a column, or the value of the last
``KEY=`` item of its MISC field (items separated by ``|``).  The first bad line in the file is
the error, with the same message the line-by-line reading gave.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Tuple, Union

import numpy as np

from ..errors import InputError
from .columns import byte_windows, merge_values, unique_slices

BLOCK_BYTES = 1 << 20
ID_BYTES = 12   # IDs up to this long are read with numpy, longer ones as strings
# bytes that may start a blank line: ASCII whitespace as str.strip() sees it, and any non-ASCII byte
# (a line of Unicode spaces); such lines are decided by str.strip() itself
_MAYBE_BLANK = np.zeros(256, bool)
_MAYBE_BLANK[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True
_MAYBE_BLANK[128:] = True
_NOT_DIGIT = np.ones(256, bool)
_NOT_DIGIT[48:58] = False
SENT_ID = np.frombuffer(b"# sent_id", np.uint8)


@dataclass
class Lines:
    """What the lines of a file hold (line numbers are 1-based; offsets count from the data's start)."""

    word_line: np.ndarray          # int32, the line of every word (token)
    blank_line: np.ndarray         # int64, every blank line
    id_line: np.ndarray            # int64, every ``# sent_id = X`` line
    id_value: List[str]            # its X
    form_start: np.ndarray         # int64, byte offset of every word's FORM
    form_len: np.ndarray           # int64
    vocab: List[str]               # the distinct tags
    tag_ids: np.ndarray            # every word's tag, an index into vocab
    multiword_line: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))   # multi-word tokens (1-2)
    empty_line: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))       # empty nodes (1.1)

    @property
    def multiword(self) -> int:
        return len(self.multiword_line)

    @property
    def empty(self) -> int:
        return len(self.empty_line)

    def before(self, line: int) -> Lines:
        """What the lines before ``line`` hold (the tag vocabulary: the tags they use)."""
        return self._part(line, True, 0)

    def after(self, line: int, at: int) -> Lines:
        """What the lines from ``line`` on hold, with byte offsets counted from ``at``."""
        return self._part(line, False, at)

    def _part(self, line: int, before: bool, at: int) -> Lines:
        def keep(lines: np.ndarray) -> np.ndarray:
            return np.asarray((lines < line) == before, bool)

        w = keep(self.word_line)
        n_ids = int(np.searchsorted(self.id_line, line))
        ids = slice(0, n_ids) if before else slice(n_ids, None)
        used, tag_ids = np.unique(self.tag_ids[w], return_inverse=True)
        return Lines(self.word_line[w], self.blank_line[keep(self.blank_line)], self.id_line[ids],
                     self.id_value[ids], self.form_start[w] - at, self.form_len[w],
                     [self.vocab[k] for k in used.tolist()], tag_ids.reshape(-1).astype(self.tag_ids.dtype),
                     self.multiword_line[keep(self.multiword_line)], self.empty_line[keep(self.empty_line)])

    def __add__(self, other: Lines) -> Lines:
        """These lines followed by ``other``'s (whose byte offsets count from the same start)."""
        n = len(self.word_line) + len(other.word_line)
        vocab, ids = merge_values([(self.vocab, self.tag_ids[None, :]), (other.vocab, other.tag_ids[None, :])], n)

        def cat(name: str) -> np.ndarray:
            return np.concatenate((getattr(self, name), getattr(other, name)))

        return Lines(cat("word_line"), cat("blank_line"), cat("id_line"), self.id_value + other.id_value,
                     cat("form_start"), cat("form_len"), vocab, ids[0], cat("multiword_line"), cat("empty_line"))


@dataclass
class _Acc:
    word_line: List[np.ndarray] = field(default_factory=list)
    blank_line: List[np.ndarray] = field(default_factory=list)
    id_line: List[int] = field(default_factory=list)
    id_value: List[str] = field(default_factory=list)
    form_start: List[np.ndarray] = field(default_factory=list)
    form_len: List[np.ndarray] = field(default_factory=list)
    values: List[Tuple[List[str], np.ndarray]] = field(default_factory=list)
    multiword_line: List[np.ndarray] = field(default_factory=list)
    empty_line: List[np.ndarray] = field(default_factory=list)


@dataclass
class _Block:
    """One block of whole lines: its bytes, line bounds (end without the CR), tabs and first line."""

    part: np.ndarray
    base: int                      # offset of the block in the data
    line0: int                     # lines before the block
    starts: np.ndarray
    ends: np.ndarray
    tabs: np.ndarray
    first_tab: np.ndarray          # per line: index in tabs of its first tab
    n_fields: np.ndarray           # per line: tab-separated fields

    def text(self, k: int) -> str:
        return self.part[self.starts[k]:self.ends[k]].tobytes().decode("utf-8")

    def bounds(self, lines: np.ndarray, j: int, ncols: int) -> Tuple[np.ndarray, np.ndarray]:
        """Start and end of field ``j`` on ``lines`` (which have ``ncols`` fields)."""
        ft = self.first_tab[lines]
        s = self.starts[lines] if j == 0 else self.tabs[ft + j - 1] + 1
        e = self.ends[lines] if j == ncols - 1 else self.tabs[ft + j]
        return s, e


def scan(raw: Union[bytes, bytearray], shift: int, name: str, names: List[str], tag_field: int,
         misc_key: Optional[str], misc_error: Callable[[int], InputError], line0: int = 0) -> Lines:
    """Scan ``raw[shift:]`` (UTF-8, checked) block by block.  Tags come from field ``tag_field``, or, when
    ``misc_key`` is given, from that key in it; ``misc_error(line)`` is the error for a word without it.
    ``line0``: the lines of the file before ``raw`` (a block of it; line numbers are the file's)."""
    acc = _Acc()
    start, end = shift, len(raw)
    while start < end:
        stop = raw.find(b"\n", min(start + BLOCK_BYTES, end) - 1, end)
        stop = end if stop < 0 else stop + 1
        block = _block(np.frombuffer(raw, np.uint8, count=stop - start, offset=start), start - shift, line0)
        _read_block(block, acc, name, names, tag_field, misc_key, misc_error)
        line0 += len(block.starts)
        start = stop
    n = sum(len(w) for w in acc.word_line)
    vocab, ids = merge_values([(v, i[None, :]) for v, i in acc.values], n) if acc.values else ([], np.zeros((1, 0)))

    def cat(parts: List[np.ndarray], dtype: Any) -> np.ndarray:
        return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)

    return Lines(cat(acc.word_line, np.int32), cat(acc.blank_line, np.int64), np.array(acc.id_line, np.int64),
                 acc.id_value, cat(acc.form_start, np.int64), cat(acc.form_len, np.int64), vocab, ids[0],
                 cat(acc.multiword_line, np.int64), cat(acc.empty_line, np.int64))


def _block(part: np.ndarray, base: int, line0: int) -> _Block:
    nl = np.flatnonzero(part == 10)
    starts = np.concatenate(([0], nl + 1))
    ends = np.concatenate((nl, [len(part)]))
    if len(part) and part[-1] == 10:       # the block ends with its last line's newline
        starts, ends = starts[:-1], ends[:-1]
    while True:                           # drop trailing CRs (str.rstrip("\r"))
        cr = (ends > starts) & (part[np.maximum(ends - 1, 0)] == 13)
        if not cr.any():
            break
        ends = ends - cr
    tabs = np.flatnonzero(part == 9)
    first_tab = np.searchsorted(tabs, starts)
    return _Block(part, base, line0, starts, ends, tabs, first_tab, np.searchsorted(tabs, ends) - first_tab + 1)


def _read_block(b: _Block, acc: _Acc, name: str, names: List[str], tag_field: int, misc_key: Optional[str],
                misc_error: Callable[[int], InputError]) -> None:
    """Add one block's blank lines, sentence ids and words (FORM and tag) to ``acc``; the block's first
    bad line (wrong number of fields, an ID that is no integer, a word without the MISC key) raises."""
    ncols = len(names)
    blank, comment = _classify(b)
    rows = np.flatnonzero(~blank & ~comment)
    fits = b.n_fields[rows] == ncols
    good = rows[fits]
    word, multiword, empty, bad_id = _ids(b, good, ncols)
    words = good[word]
    if misc_key is None:
        ts, te = b.bounds(words, tag_field, ncols)
        missing = words[:0]
    else:
        ts, te, missing = _misc_values(b, words, tag_field, ncols, misc_key)
    errors = [(int(lines[0]), kind) for lines, kind in ((rows[~fits], 0), (bad_id, 1), (missing, 2)) if len(lines)]
    if errors:
        k, kind = min(errors)
        if kind == 0:
            raise InputError(f"{int(b.n_fields[k])} tab-separated fields; expected {ncols} ({' '.join(names)})",
                             name, b.line0 + k + 1)
        if kind == 1:
            s, e = b.bounds(np.array([k]), 0, ncols)
            tid = b.part[int(s[0]):int(e[0])].tobytes().decode("utf-8")
            raise InputError(f"ID {tid!r}; expected an integer, a range (1-2) or a decimal (1.1)", name,
                             b.line0 + k + 1)
        raise misc_error(b.line0 + k + 1)
    acc.blank_line.append(np.flatnonzero(blank) + (b.line0 + 1))
    _sentence_ids(b, comment, acc)
    acc.multiword_line.append(good[multiword] + (b.line0 + 1))
    acc.empty_line.append(good[empty] + (b.line0 + 1))
    acc.word_line.append(words + (b.line0 + 1))
    fs, fe = b.bounds(words, 1, ncols)
    acc.form_start.append(fs + b.base)
    acc.form_len.append(fe - fs)
    acc.values.append(unique_slices(byte_windows(b.part.tobytes() + bytes(8)), ts, te))


def _classify(b: _Block) -> Tuple[np.ndarray, np.ndarray]:
    """Per line: blank (nothing but whitespace), comment (starts with #)."""
    length = b.ends - b.starts
    head = b.part[np.minimum(b.starts, len(b.part) - 1)] if len(b.part) else np.zeros(len(b.starts), np.uint8)
    blank = length == 0
    for k in np.flatnonzero(~blank & _MAYBE_BLANK[head]).tolist():
        blank[k] = not b.text(k).strip()
    return blank, ~blank & (head == 35)


def _sentence_ids(b: _Block, comment: np.ndarray, acc: _Acc) -> None:
    """``# sent_id = X`` lines (``# sent_id`` at the start and a ``=``): X, stripped."""
    cand = np.flatnonzero(comment & (b.ends - b.starts >= len(SENT_ID)))
    if len(cand):
        at = b.starts[cand][:, None] + np.arange(len(SENT_ID))
        cand = cand[(b.part[at] == SENT_ID).all(axis=1)]
    eq = np.flatnonzero(b.part == 61)
    first_eq = np.searchsorted(eq, b.starts[cand])
    has = first_eq < len(eq)
    has[has] = eq[first_eq[has]] < b.ends[cand[has]]
    cand, after = cand[has], eq[first_eq[has]] + 1
    acc.id_line.extend((cand + (b.line0 + 1)).tolist())
    acc.id_value.extend(v.strip() for v in _strings(b.part, after, b.ends[cand] - after))


def _strings(part: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> List[str]:
    """The slices ``part[starts[k]:starts[k] + lens[k]]`` (without newlines) decoded, in one decode."""
    ends = np.cumsum(lens)
    at = np.repeat(starts - ends + lens, lens) + np.arange(int(ends[-1]) if len(ends) else 0)
    return np.insert(part[at], ends, 10).tobytes().decode("utf-8").split("\n")[:-1]


def _ids(b: _Block, lines: np.ndarray, ncols: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The IDs of ``lines``: which are words (an integer), multi-word tokens (``-``) and empty nodes
    (``.``), and the lines whose ID is none of these."""
    s, e = b.bounds(lines, 0, ncols)
    length = e - s
    width = int(min(length.max(initial=0), ID_BYTES))
    at = np.arange(width)
    inside = at < length[:, None]
    byte = b.part[np.minimum(s[:, None] + at, len(b.part) - 1)] if len(b.part) else np.zeros((len(s), 0), np.uint8)
    dash = ((byte == 45) & inside).any(axis=1)
    dot = ~dash & ((byte == 46) & inside).any(axis=1)
    word = ~dash & ~dot & (length > 0) & ~(_NOT_DIGIT[byte] & inside).any(axis=1)
    bad = np.zeros(len(lines), bool)
    # IDs longer than ID_BYTES and those that are not ASCII digits: decided on the string (str.isdigit
    # accepts other digits too)
    for k in np.flatnonzero((~dash & ~dot & ~word) | (length > ID_BYTES)).tolist():
        tid = b.part[s[k]:e[k]].tobytes().decode("utf-8")
        dash[k], dot[k] = "-" in tid, "-" not in tid and "." in tid
        word[k] = not (dash[k] or dot[k]) and tid.isdigit()
        bad[k] = not (dash[k] or dot[k] or word[k])
    return word, dash, dot, lines[bad]


def _misc_values(b: _Block, words: np.ndarray, misc: int, ncols: int,
                 key: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per word, where the value of the last ``key=`` item of its MISC field starts and ends, and the
    words that have no such item."""
    sm, em = b.bounds(words, misc, ncols)
    prefix = (key + "=").encode("utf-8")
    pipes = np.flatnonzero(b.part == 124)
    owner = np.searchsorted(sm, pipes, side="right") - 1          # the word whose MISC field may hold it
    inside = (owner >= 0) & (pipes < em[np.maximum(owner, 0)]) if len(sm) else np.zeros(len(pipes), bool)
    item = np.concatenate((sm, pipes[inside] + 1))                  # where each item starts
    who = np.concatenate((np.arange(len(words)), owner[inside]))
    fits = item + len(prefix) <= em[who]
    item, who = item[fits], who[fits]
    hit = np.full(len(item), b"|" not in prefix)                   # items hold no "|"
    for j, byte in enumerate(prefix):
        hit &= b.part[item + j] == byte
    best = np.full(len(words), -1, np.int64)
    np.maximum.at(best, who[hit], item[hit])
    vs = best + len(prefix)
    nxt = np.searchsorted(pipes, vs)
    after = pipes[np.minimum(nxt, len(pipes) - 1)] if len(pipes) else em
    ve = np.where((nxt < len(pipes)) & (after < em), after, em)
    return vs, ve, words[best < 0]
