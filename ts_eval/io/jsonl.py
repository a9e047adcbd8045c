"""JSON Lines (and JSON arrays of records) -> dict records with their line numbers.

Lines are parsed in chunks, one ``json.loads`` call per chunk (fast, and the readers keep no
per-token Python objects beyond one chunk's records); only when a chunk fails is it parsed line
by line, to name the bad line and the parser's message.
"""
from __future__ import annotations

import json
from contextlib import suppress
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..errors import InputError
from .source import display_name, read_text

#: lines parsed per ``json.loads`` call: the records of one chunk are all the per-token Python objects
#: alive at a time (a reader turns them into arrays and per-document strings before the next chunk)
CHUNK_LINES = 512


Chunk = Tuple[List[Dict[str, Any]], List[int]]


def record_chunks(path: str, raw: Optional[bytes] = None, chunk_lines: Optional[int] = None) -> Iterator[Chunk]:
    """(records, their 1-based lines) of a JSON Lines file, ``chunk_lines`` lines per ``json.loads`` call
    (fast, and only one chunk's records alive at a time; a chunk that fails is parsed line by line to name
    the bad line and the parser's message), or of a JSON array (one chunk; "record" k is line k)."""
    name = display_name(path)
    text = read_text(path, raw)
    stripped = text.lstrip()
    if not stripped:
        raise InputError("empty input, expected JSON records", name)
    if stripped.startswith("["):
        yield _array_records(text, name)
        return
    lines = text.split("\n")
    del text, stripped
    numbers = [k + 1 for k, ln in enumerate(lines) if ln.strip()]
    chunk_lines = chunk_lines or CHUNK_LINES
    for c in range(0, len(numbers), chunk_lines):
        chunk = numbers[c:c + chunk_lines]
        body = [lines[k - 1] for k in chunk]
        lines[chunk[0] - 1:chunk[-1]] = [""] * (chunk[-1] - chunk[0] + 1)   # each line's text lives one chunk
        records = parse_chunk(body, chunk, name)
        yield records, chunk


def parse_chunk(body: List[str], numbers: List[int], name: str) -> List[Dict[str, Any]]:
    """The records of the non-blank lines ``body`` (at 1-based ``numbers``): one ``json.loads`` call, and
    only when that fails line by line, to name the bad line and the parser's message."""
    records = None
    with suppress(json.JSONDecodeError):
        records = json.loads("[" + ",".join(body) + "]")
    if records is None or len(records) != len(body):
        records = []
        for k, ln in zip(numbers, body):
            try:
                records.append(json.loads(ln))
            except json.JSONDecodeError as err:
                raise InputError(f"invalid JSON: {err.msg} (column {err.colno}); expected one JSON object "
                                 "per line", name, k) from None
    _check_objects(records, numbers, name, "line")
    return records


def load_array(text: str, name: str) -> List[Any]:
    """The records of a file that is one JSON array (an error names the line where the JSON breaks)."""
    try:
        records = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg} (column {err.colno})", name, err.lineno) from None
    if not isinstance(records, list):
        raise InputError("expected a JSON array of records", name)
    return records


def _array_records(text: str, name: str) -> Chunk:
    records = load_array(text, name)
    if not records:
        raise InputError("empty JSON array, expected records", name)
    numbers = list(range(1, len(records) + 1))
    _check_objects(records, numbers, name, "record")
    return records, numbers


def _check_objects(records: List[Any], numbers: List[int], name: str, unit: str) -> None:
    if set(map(type, records)) <= {dict}:   # the common case, without a Python step per record
        return
    for rec, k in zip(records, numbers):
        if not isinstance(rec, dict):
            what = f"found {type(rec).__name__} {_short(rec)}, expected a JSON object"
            if unit == "line":
                raise InputError(what, name, k)
            raise InputError(f"record {k}: {what}", name)


def _short(value: Any, n: int = 40) -> str:
    s = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return s if len(s) <= n else s[: n - 3] + "..."


def short(value: Any) -> str:
    """A value as a message shows it (JSON, cut to 40 characters)."""
    return _short(value)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
