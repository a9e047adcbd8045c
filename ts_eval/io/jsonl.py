"""JSON Lines (and JSON arrays of records) -> records with their line numbers, parsed by msgspec.

The non-blank lines of a file are taken a chunk at a time and each chunk is decoded in one msgspec call
(fast, and the readers keep no per-token Python objects beyond one chunk's records), as a reader's own
record type (a :class:`msgspec.Struct` of the types the reader takes) where every record fits it, else as
dicts.  Only when a chunk is not JSON objects is it decoded line by line, to name the bad line and msgspec's
reason.  A file that is one JSON array is decoded as a list of its elements (each validated,
none decoded yet), which then go the same way, element k as line k.
"""
from __future__ import annotations

import io
import json
import re
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import msgspec
import numpy as np

from ..errors import InputError
from .source import BOM, check_utf8, display_name, open_stream, read_bytes

#: lines decoded per msgspec call: the records of one chunk are all the per-token Python objects alive at a
#: time (a reader turns them into arrays and per-document strings before the next chunk)
CHUNK_LINES = 512

#: one line of a file, or one element of a JSON array
Buffer = Union[bytes, msgspec.Raw]
Chunk = Tuple[List[Any], List[int]]


class Span(msgspec.Struct):
    """A span object as the readers take it: ``{"start": int, "end": int, "label": str}`` (other keys ignored)."""

    start: int
    end: int
    label: str


_VALUE = msgspec.json.Decoder()
_ELEMENTS = msgspec.json.Decoder(List[msgspec.Raw])
_OBJECTS = msgspec.json.Decoder(List[Dict[str, Any]])
_MALFORMED = re.compile(r"JSON is malformed: (.*) \(byte (\d+)\)")


def json_reason(err: msgspec.DecodeError, data: Union[bytes, str]) -> Tuple[str, int]:
    """msgspec's reason why ``data`` is not JSON, with the column (in characters) of the byte it names (where it
    names none, as for input that ends too soon: of the end of ``data``), and the line of ``data`` it is on."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    found = _MALFORMED.fullmatch(str(err))
    reason, at = (found.group(1), min(int(found.group(2)), len(raw))) if found else (str(err), len(raw.rstrip()))
    start = raw.rfind(b"\n", 0, at) + 1
    column = len(raw[start:at].decode("utf-8", "replace")) + 1
    return f"{reason} (column {column})", raw.count(b"\n", 0, start) + 1


def _malformed(err: msgspec.DecodeError, data: bytes, at_end: int, name: str, lines: int, tail: bytes,
               what: str = "invalid JSON: ") -> InputError:
    """The error for ``data`` (a part of a file after ``lines`` lines, ``tail`` the bytes of its line before
    ``data``) that is not JSON: msgspec's reason at the file's line and column (``at_end``: where the input
    ends, for a reason that names no byte)."""
    found = _MALFORMED.fullmatch(str(err))
    reason, at = (found.group(1), min(int(found.group(2)), len(data))) if found else (str(err), at_end)
    head = tail + data[:at]
    start = head.rfind(b"\n") + 1
    column = len(head[start:].decode("utf-8", "replace")) + 1
    return InputError(f"{what}{reason} (column {column})", name, lines + head.count(b"\n") + 1)


#: an array element not complete in this many bytes read ahead is taken for broken JSON
ELEMENT_BYTES = 64 << 20
_SPACE = b" \t\r\n"


def _top_level(buf: bytes) -> Tuple[np.ndarray, int]:
    """Where the elements of a JSON array end in ``buf`` (its bytes after the ``[``, or after a comma between
    elements): the offsets of the commas between elements, and of the ``]`` that closes the array (-1: not in
    ``buf``).  A quote after an odd run of backslashes is inside a string; brackets in strings do not count
    (msgspec then checks that each run of elements is JSON)."""
    u = np.frombuffer(buf, np.uint8)
    quote = u == 34
    if b"\\" in buf:
        at = np.flatnonzero(quote)
        not_bs = np.maximum.accumulate(np.where(u == 92, -1, np.arange(len(u))))
        run = at - 1 - np.where(at > 0, not_bs[np.maximum(at - 1, 0)], -1)
        quote[at[run % 2 == 1]] = False
    outside = (np.cumsum(quote, dtype=np.uint8) & 1) == 0
    step = (outside & ((u == 91) | (u == 123))).astype(np.int64) - (outside & ((u == 93) | (u == 125)))
    depth = np.cumsum(step)
    closed = np.flatnonzero(depth < 0)
    end = int(closed[0]) if len(closed) else -1
    commas = np.flatnonzero(outside & (u == 44) & (depth == 0))
    return (commas if end < 0 else commas[commas < end]), end


class ArrayLines(io.RawIOBase):
    """A file that is one JSON array, read as JSON Lines: each element on a line of its own (element k is line
    k), its line breaks -- JSON whitespace -- made spaces.  The bytes are checked to be UTF-8 as they are read
    and cut at the commas between elements, and each run of whole elements is checked by msgspec; what is not a
    JSON array of values is an error at the file's line and column, as reading the file whole says it."""

    fill = 1 << 20      # bytes read at a time

    def __init__(self, stream: Any, name: str) -> None:
        self.stream, self.name = stream, name
        self.buf = b""                   # bytes read, checked and not handed out
        self.unchecked = b""             # bytes read, not checked to be UTF-8 yet (a line not ended)
        self.lines = 0                   # line ends of the file before ``buf``
        self.tail = b""                  # the bytes of the line before ``buf``
        self.done_bytes = 0              # bytes of the file before ``unchecked``
        self.eof = False
        self.state = "start"             # start, elements, end
        self.elements = 0
        self.out = b""                   # lines made and not read yet

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while not self.out and self.state != "end":
            self.out = self._more()
        n = min(len(b), len(self.out))
        b[:n] = self.out[:n]
        self.out = self.out[n:]
        return n

    def _fill(self) -> bool:
        data = self.stream.read(self.fill)
        if not data:
            self.eof = True
        data = self.unchecked + data
        cut = len(data) if self.eof else data.rfind(b"\n") + 1
        checked, self.unchecked = data[:cut], data[cut:]
        check_utf8(checked, self.name, lines_before=self.lines + self.buf.count(b"\n"),
                   bytes_before=self.done_bytes)
        self.done_bytes += len(checked)
        self.buf += checked
        return bool(checked) or not self.eof

    def _take(self, n: int) -> None:
        """Hand on the first ``n`` bytes of ``buf`` (their lines counted)."""
        gone = self.buf[:n]
        nl = gone.rfind(b"\n")
        self.tail = gone[nl + 1:] if nl >= 0 else self.tail + gone
        self.lines += gone.count(b"\n")
        self.buf = self.buf[n:]

    def _more(self) -> bytes:
        if self.state == "start":
            head = self.buf.lstrip(_SPACE)
            if self.buf.startswith(BOM) and not self.lines and not self.tail:     # (the file's first bytes)
                head = self.buf[len(BOM):].lstrip(_SPACE)
            if not head:
                if self.eof:
                    raise InputError("empty input, expected JSON records", self.name)
                self._fill()
                return b""
            self._take(len(self.buf) - len(head) + 1)        # up to and with the "["
            self.state = "elements"
            return b""
        commas, end = _top_level(self.buf)
        cut = end if end >= 0 else int(commas[-1]) if len(commas) else -1
        if cut < 0:
            if self.eof or len(self.buf) > ELEMENT_BYTES:
                self._broken(self.buf)
            self._fill()
            return b""
        piece = self.buf[:cut]
        try:
            elements = _ELEMENTS.decode(b"[" + piece + b"]")
        except msgspec.DecodeError as err:
            raise _malformed(_shift(err, -1), self.buf, len(piece), self.name, self.lines, self.tail) from None
        if end >= 0 and not elements and not self.elements:
            raise InputError("empty JSON array, expected records", self.name)
        self.elements += len(elements)
        self._take(cut + 1)
        if end >= 0:
            self.state = "end"
            self._check_end()
        return b"".join(bytes(e).replace(b"\n", b" ").replace(b"\r", b" ") + b"\n" for e in elements)

    def _broken(self, data: bytes) -> None:
        """The array does not end (the input ends first, or an element is too long): msgspec's reason."""
        try:
            _ELEMENTS.decode(b"[" + data)
        except msgspec.DecodeError as err:
            raise _malformed(_shift(err, -1), data, len(data.rstrip()), self.name, self.lines, self.tail) from None
        raise InputError("a JSON array element longer than the bytes looked at", self.name, self.lines + 1)

    def _check_end(self) -> None:
        """Only JSON whitespace may follow the array."""
        while True:
            rest = self.buf.lstrip(_SPACE)
            if rest:
                try:
                    msgspec.json.decode(b"0" + self.buf)
                except msgspec.DecodeError as err:
                    raise _malformed(_shift(err, -1), self.buf, len(self.buf), self.name, self.lines,
                                     self.tail) from None
            self._take(len(self.buf))
            if self.eof and not self.unchecked:
                return
            self._fill()

    def close(self) -> None:
        self.stream.close()
        super().close()


def _shift(err: msgspec.DecodeError, by: int) -> msgspec.DecodeError:
    """``err`` with the byte it names moved by ``by`` (a part decoded with a byte put before it)."""
    found = _MALFORMED.fullmatch(str(err))
    if not found:
        return err
    return msgspec.DecodeError(f"JSON is malformed: {found.group(1)} (byte {max(int(found.group(2)) + by, 0)})")


def json_stream(path: str, arrays: Optional[Callable[[str], bool]] = None) -> Any:
    """``path`` as a stream of JSON Lines: a file that is one JSON array read as :class:`ArrayLines`
    (``arrays``: whether an input whose first line, or first 64 KiB, starts with ``[`` is such a file rather
    than JSON Lines whose lines are arrays; None: it is)."""
    stream = open_stream(path)
    head = stream.peek(1 << 16)[:1 << 16].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"["):
        return stream
    if arrays is not None and not arrays(head.split(b"\n", 1)[0].decode("utf-8", "replace")):
        return stream
    return io.BufferedReader(ArrayLines(stream, display_name(path)), 1 << 16)


def decode(data: Union[Buffer, str], name: str, line: Optional[int], expected: str) -> Any:
    """The JSON value of ``data`` (a line, or a whole file when ``line`` is None: an error then names the line
    where the JSON breaks); what is not JSON is an error ending in ``expected``."""
    try:
        return _VALUE.decode(data)
    except msgspec.DecodeError as err:
        reason, at = json_reason(err, bytes(data) if isinstance(data, msgspec.Raw) else data)
        raise InputError(f"invalid JSON: {reason}{expected}", name, line if line is not None else at) from None


def line_chunks(data: bytes, name: str, chunk_lines: Optional[int] = None, *, lines_before: int = 0,
                bytes_before: int = 0) -> Iterator[Tuple[List[Buffer], List[int]]]:
    """The non-blank lines (as ``str.strip`` says) of JSON Lines ``data`` (checked to be UTF-8; a BOM is
    dropped), ``chunk_lines`` at a time, with their 1-based numbers; of a JSON array, its elements (validated
    JSON, each checked to be an object), numbered from 1.  ``data`` may be a block of an input after
    ``lines_before`` lines and ``bytes_before`` bytes (numbers are the input's; a block without records gives
    none)."""
    check_utf8(data, name, lines_before=lines_before, bytes_before=bytes_before)
    if data.startswith(BOM) and not bytes_before:
        data = data[len(BOM):]
    first = data.lstrip()[:1]
    if first not in (b"{", b"["):       # (rare: whitespace str.strip knows and bytes.strip does not)
        first = data.decode("utf-8").lstrip()[:1].encode("utf-8")
    if not first:
        if lines_before or bytes_before:
            return
        raise InputError("empty input, expected JSON records", name)
    if first == b"[" and not (lines_before or bytes_before):
        body: List[Buffer] = list(_array_elements(data, name))
        numbers = list(range(1, len(body) + 1))
    else:
        lines = data.split(b"\n")
        numbers = [k + 1 + lines_before for k, ln in enumerate(lines)
                   if ln.startswith(b"{") or ln.decode("utf-8").strip()]
        body = [lines[k - 1 - lines_before] for k in numbers]
        del lines
    size = chunk_lines or CHUNK_LINES
    for c in range(0, len(numbers), size):
        yield body[c:c + size], numbers[c:c + size]


def _array_elements(data: bytes, name: str) -> List[msgspec.Raw]:
    try:
        elements = _ELEMENTS.decode(data)
    except msgspec.DecodeError as err:
        reason, line = json_reason(err, data)
        raise InputError(f"invalid JSON: {reason}", name, line) from None
    if not elements:
        raise InputError("empty JSON array, expected records", name)
    for k, element in enumerate(elements):
        if bytes(memoryview(element)[:1]) != b"{":
            _not_an_object(decode(element, name, k + 1, ""), name, k + 1, "record")
    return elements


def records(body: Sequence[Buffer], numbers: List[int], name: str, typed: Optional[msgspec.json.Decoder[Any]] = None,
            unit: str = "line") -> List[Any]:
    """The records of a chunk (the lines ``body``, at 1-based ``numbers``) in one msgspec call: as ``typed``
    decodes a list of them when it can, else as dicts; when that fails too, line by line, to report the first
    line that is not JSON or not an object."""
    joined = b"[" + b",".join(body) + b"]"
    for decoder in (typed, _OBJECTS):
        if decoder is not None:
            try:
                recs = decoder.decode(joined)
            except msgspec.DecodeError:
                continue
            if len(recs) == len(body):
                return list(recs)
    for ln, k in zip(body, numbers):
        value = decode(ln, name, k, "; expected one JSON object per line")
        if not isinstance(value, dict):
            _not_an_object(value, name, k, unit)
    raise AssertionError("a chunk of JSON objects that msgspec did not decode")   # pragma: no cover


def _not_an_object(value: Any, name: str, k: int, unit: str) -> None:
    what = f"found {type(value).__name__} {short(value)}, expected a JSON object"
    if unit == "line":
        raise InputError(what, name, k)
    raise InputError(f"record {k}: {what}", name)


def record_chunks(path: str, raw: Optional[bytes] = None, chunk_lines: Optional[int] = None,
                  typed: Optional[msgspec.json.Decoder[Any]] = None, *, lines_before: int = 0,
                  bytes_before: int = 0) -> Iterator[Chunk]:
    """(records, their 1-based lines) of a JSON Lines file, ``chunk_lines`` lines per msgspec call (records
    as ``typed`` decodes a chunk of them where it can, else dicts), or of a JSON array ("record" k is line k);
    ``raw`` may be a block of it (:func:`line_chunks`)."""
    name = display_name(path)
    data = read_bytes(path) if raw is None else raw
    for body, numbers in line_chunks(data, name, chunk_lines, lines_before=lines_before, bytes_before=bytes_before):
        yield records(body, numbers, name, typed), numbers


def _short(value: Any, n: int = 40) -> str:
    s = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return s if len(s) <= n else s[: n - 3] + "..."


def short(value: Any) -> str:
    """A value as a message shows it (JSON, cut to 40 characters)."""
    return _short(value)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
