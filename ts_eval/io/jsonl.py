"""JSON Lines (and JSON arrays of records) -> records with their line numbers, parsed by msgspec.

The non-blank lines of a file are taken a chunk at a time and each chunk is decoded in one msgspec call
(fast, and the readers keep no per-token Python objects beyond one chunk's records), as a reader's own
record type (a :class:`msgspec.Struct` of the types the reader takes) where every record fits it, else as
dicts.  Only when a chunk is not JSON objects is it decoded line by line, to name the bad line and msgspec's
reason.  A file that is one JSON array is decoded as a list of its elements (each validated,
none decoded yet), which then go the same way, element k as line k.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import msgspec

from ..errors import InputError
from .source import BOM, check_utf8, display_name, read_bytes

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


def decode(data: Union[Buffer, str], name: str, line: Optional[int], expected: str) -> Any:
    """The JSON value of ``data`` (a line, or a whole file when ``line`` is None: an error then names the line
    where the JSON breaks); what is not JSON is an error ending in ``expected``."""
    try:
        return _VALUE.decode(data)
    except msgspec.DecodeError as err:
        reason, at = json_reason(err, bytes(data) if isinstance(data, msgspec.Raw) else data)
        raise InputError(f"invalid JSON: {reason}{expected}", name, line if line is not None else at) from None


def line_chunks(data: bytes, name: str, chunk_lines: Optional[int] = None) -> Iterator[Tuple[List[Buffer], List[int]]]:
    """The non-blank lines (as ``str.strip`` says) of JSON Lines ``data`` (checked to be UTF-8; a BOM is
    dropped), ``chunk_lines`` at a time, with their 1-based numbers; of a JSON array, its elements (validated
    JSON, each checked to be an object), numbered from 1."""
    check_utf8(data, name)
    if data.startswith(BOM):
        data = data[len(BOM):]
    first = data.lstrip()[:1]
    if first not in (b"{", b"["):       # (rare: whitespace str.strip knows and bytes.strip does not)
        first = data.decode("utf-8").lstrip()[:1].encode("utf-8")
    if not first:
        raise InputError("empty input, expected JSON records", name)
    if first == b"[":
        body: List[Buffer] = list(_array_elements(data, name))
        numbers = list(range(1, len(body) + 1))
    else:
        lines = data.split(b"\n")
        numbers = [k + 1 for k, ln in enumerate(lines) if ln.startswith(b"{") or ln.decode("utf-8").strip()]
        body = [lines[k - 1] for k in numbers]
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


def records(body: Sequence[Buffer], numbers: List[int], name: str, typed: Optional[msgspec.json.Decoder] = None,
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
                  typed: Optional[msgspec.json.Decoder] = None) -> Iterator[Chunk]:
    """(records, their 1-based lines) of a JSON Lines file, ``chunk_lines`` lines per msgspec call (records
    as ``typed`` decodes a chunk of them where it can, else dicts), or of a JSON array ("record" k is line k)."""
    name = display_name(path)
    data = read_bytes(path) if raw is None else raw
    for body, numbers in line_chunks(data, name, chunk_lines):
        yield records(body, numbers, name, typed), numbers


def load_array(text: str, name: str) -> List[Any]:
    """The records of a file that is one JSON array (an error names the line where the JSON breaks)."""
    records = decode(text, name, None, "")
    if not isinstance(records, list):
        raise InputError("expected a JSON array of records", name)
    return records


def _short(value: Any, n: int = 40) -> str:
    s = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return s if len(s) <= n else s[: n - 3] + "..."


def short(value: Any) -> str:
    """A value as a message shows it (JSON, cut to 40 characters)."""
    return _short(value)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
