"""A column file's lines, every problem collected instead of raised at the first (what ``validate`` reads).

The column readers (:mod:`.columns`) stop at the first bad line: that is right for scoring, where one bad
line means the file cannot be scored, but a participant who fixes one line at a time learns of the next
problem only on the next try.  :func:`column_lines` reads the same lines with the same rules -- the
fields of a line as :mod:`.columns` splits them (:func:`~ts_eval.io.columns.line_fields`), ``-DOCSTART-``
starts a document, a blank line or ``-X-`` ends a sentence, a BOM is skipped, a CR before the line end
is dropped, every token line has the first one's width -- and keeps going after a bad line: each problem
is a :class:`LineProblem` (line, kind, what was found, what was expected), and the lines are kept for
the checks that compare a file with gold (:mod:`ts_eval.validation`).

Kinds found here: ``empty_file``, ``encoding`` (a byte that is not UTF-8: its offset and line; the line is
read with the byte replaced), ``column_count`` (a token line of another width than the first, or an empty
field between two delimiters).  A BOM and CR line ends are read as the readers read them (they score the
same) and are counted as notes (:attr:`ColumnLines.bom`, :attr:`ColumnLines.crlf_lines`).
"""
from __future__ import annotations

import codecs
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Tuple

from ..errors import InputError
from .columns import line_fields
from .source import BOM, RawBlock, display_name, read_bytes


@dataclass
class LineProblem:
    """One problem of one line (``line`` 1-based; 0: the file as a whole)."""

    kind: str
    line: int
    found: str
    expected: str
    byte: Optional[int] = None        # encoding: the byte offset in the file


@dataclass
class Sentence:
    """One sentence of a column file: its token lines, each line's fields, its document (0-based)."""

    lines: List[int] = field(default_factory=list)
    fields: List[List[str]] = field(default_factory=list)
    document: int = 0


@dataclass
class ColumnLines:
    """What :func:`column_lines` read of one file."""

    path: str
    sentences: List[Sentence]
    problems: List[LineProblem]
    width: int = 0                    # fields of the first token line (0: no token line)
    width_line: int = 0               # its line
    documents: int = 0                # -DOCSTART- lines
    document_lines: List[int] = field(default_factory=list)
    bom: bool = False
    crlf_lines: int = 0               # lines that end with CR LF
    lines: int = 0

    def column(self, column: int) -> int:
        """The 0-based index of a 1-based column (negative: from the end) of the file's width."""
        return column - 1 if column > 0 else self.width + column



def _columns(n: int) -> str:
    """``n`` columns, in words (1 column, 2 columns)."""
    return f"{n} column" if n == 1 else f"{n} columns"

#: the byte order marks of UTF-16 (little and big endian; UTF-32's starts as UTF-16 LE's)
UTF16 = (b"\xff\xfe", b"\xfe\xff")


def _decoded(raw: bytes, name: str, problems: List[LineProblem]) -> str:
    """``raw`` as text, every byte that is not UTF-8 a problem (and read as U+FFFD)."""
    out: List[str] = []
    start = 0
    while True:
        try:
            out.append(codecs.utf_8_decode(raw[start:], "strict", True)[0])
            return "".join(out)
        except UnicodeDecodeError as err:
            pos = start + err.start
            out.append(raw[start:pos].decode("utf-8") + "\ufffd")
            line = raw.count(b"\n", 0, pos) + 1
            problems.append(LineProblem("encoding", line, f"byte 0x{raw[pos]:02x} at byte offset {pos} ({err.reason})",
                                        "UTF-8 text", byte=pos))
            start = start + err.end


def column_lines(path: str, delimiter: Optional[str] = None, raw_bytes: Optional[bytes] = None) -> ColumnLines:
    """Every line of the column file ``path`` (``-``: standard input; compressed files are decompressed),
    every problem collected (see the module docstring).  ``delimiter``: as the column readers take it."""
    name = display_name(path)
    raw = read_bytes(path) if raw_bytes is None else raw_bytes
    problems: List[LineProblem] = []
    if raw[:2] in UTF16:        # every other byte a NUL: one problem, not one for each of its lines
        problems.append(LineProblem("encoding", 1, f"UTF-16 text (the byte order mark {raw[:2].hex(' ')})",
                                    "UTF-8 text (save the file as UTF-8)", byte=0))
        return ColumnLines(name, [], problems)
    bom = raw.startswith(BOM)
    text = _decoded(raw[len(BOM):] if bom else raw, name, problems)
    out = ColumnLines(name, [], problems, bom=bom)
    if not text.strip():
        problems.append(LineProblem("empty_file", 0, "an empty file" if not text else "only blank lines",
                                    "token lines"))
        return out
    current = Sentence()
    docstarts: List[Tuple[int, int, str]] = []
    rows: List[Tuple[int, str, List[str]]] = []      # the token lines, their widths checked after reading
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out.lines = len(lines)
    for k, line in enumerate(lines, 1):
        if line.endswith("\r"):
            out.crlf_lines += 1
        fields = [f.decode("utf-8") for f in line_fields(line.encode("utf-8"), delimiter)]
        if not fields or (len(fields) == 1 and not fields[0]) or fields[0] == "-X-":
            current = _close(out, current)
            continue
        if fields[0] == "-DOCSTART-":
            _close(out, current)
            out.documents += 1
            out.document_lines.append(k)
            docstarts.append((k, len(fields), line.rstrip("\r")))
            current = Sentence(document=out.documents)
            continue
        rows.append((k, line, fields))
        current.lines.append(k)
        current.fields.append(fields)
    _close(out, current)
    _usual_width(out, rows)
    for k, line, fields in rows:
        _check_width(out, k, line, fields, delimiter)
    for k, n, shown in docstarts:     # (1 field, or as many as the token lines: the readers' rule)
        if out.width and n not in (1, out.width):
            problems.append(LineProblem("column_count", k, f"-DOCSTART- line with {_columns(n)}: {shown!r}",
                                        f"1 or {_columns(out.width)} as on line {out.width_line}"))
    if not out.sentences and not problems:
        problems.append(LineProblem("empty_file", 0, "no token lines", "token lines"))
    return out


def _close(out: ColumnLines, current: Sentence) -> Sentence:
    """End the sentence ``current`` (kept when it has tokens); the next one, in the same document."""
    if current.lines:
        out.sentences.append(current)
    return Sentence(document=out.documents)


def _usual_width(out: ColumnLines, rows: List[Tuple[int, str, List[str]]]) -> None:
    """The width token lines should have: the first's, unless the first is the odd one out (its width on no other
    line, another shared by several: a line that lost its tag at the top), as ``score``'s reader judges it."""
    if not rows:
        return
    counts = Counter(len(fields) for _, _, fields in rows)
    first = len(rows[0][2])
    usual, shared = counts.most_common(1)[0]
    if usual != first and shared > 1 and counts[first] == 1:
        out.width, out.width_line = usual, next(k for k, _, fields in rows if len(fields) == usual)


def _check_width(out: ColumnLines, k: int, line: str, fields: List[str], delimiter: Optional[str]) -> None:
    """A token line of another width than the first (or, with a delimiter, an empty field) is a problem."""
    if not out.width:
        out.width, out.width_line = len(fields), k
    shown = line.rstrip("\r")
    if delimiter is not None and any(not f for f in fields):
        out.problems.append(LineProblem("column_count", k, f"an empty field: {shown!r}",
                                        f"a value between delimiters {delimiter!r}"))
    elif len(fields) != out.width:
        out.problems.append(LineProblem("column_count", k, f"{_columns(len(fields))}: {shown!r}",
                                        f"{_columns(out.width)} as on line {out.width_line}"))


@dataclass
class Record:
    """One record (document, or sentence) of an input read on its own: its first line, its Documents (None: the
    reader refused it) and the reader's error."""

    line: int
    docs: Any = None
    error: Optional[InputError] = None
    raw: Any = None                   # the bytes it was read from (a RawBlock)


def record_parts(path: str, fmt: str, options: Mapping[str, Any], decoding: Any) -> Optional[List[Record]]:
    """Every record of ``path`` read on its own by the reader of format ``fmt`` (its feed, in blocks of one
    record), so that a bad record is one problem and the records after it are still read; None when the
    format's reader does not read records one by one (a brat folder, generated outputs)."""
    from .feed import DocumentFeed
    from .formats import get_format

    record = get_format(fmt)
    if record.places:
        return None
    try:
        feed = record.feed(path, record.make_options(options), decoding, 1)
    except InputError as err:
        return [Record(err.line or 0, None, err)]
    if not isinstance(feed, DocumentFeed):
        return None
    out: List[Record] = []
    for raw in feed.blocks:
        if isinstance(raw, RawBlock) and not raw.data.strip():
            continue
        line = raw.lines + 1 + _blank_lines(raw.data) if isinstance(raw, RawBlock) else len(out) + 1
        try:
            docs = feed.parse(raw, None, len(out))
        except InputError as err:
            out.append(Record(err.line or line, None, err, raw))
            continue
        if docs is not None and docs.n_docs:
            out.append(Record(line, docs, None, raw))
    return out


def _blank_lines(data: bytes) -> int:
    """Blank lines at the start of ``data``."""
    return data[:len(data) - len(data.lstrip(b"\r\n"))].count(b"\n")
