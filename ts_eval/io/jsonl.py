"""JSON Lines (and JSON arrays of records) -> a list of dict records with their line numbers.

The whole input is parsed in one ``json.loads`` call (fast); only when that fails is
it parsed line by line, to name the bad line and the parser's message.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from ..errors import InputError
from .source import display_name, read_text


def read_records(path: str, raw: Optional[bytes] = None) -> Tuple[List[Dict[str, Any]], List[int]]:
    """Records of a JSON Lines file (one object per line; blank lines are not records) or of a
    JSON array, with the 1-based line of each (for an array: its index + 1, named "record")."""
    name = display_name(path)
    text = read_text(path, raw)
    stripped = text.lstrip()
    if not stripped:
        raise InputError("empty input, expected JSON records", name)
    if stripped.startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"invalid JSON: {err.msg} (column {err.colno})", name, err.lineno) from None
        if not isinstance(records, list):
            raise InputError("expected a JSON array of records", name)
        if not records:
            raise InputError("empty JSON array, expected records", name)
        _check_objects(records, list(range(1, len(records) + 1)), name, "record")
        return records, list(range(1, len(records) + 1))
    lines = text.split("\n")
    numbers = [k + 1 for k, ln in enumerate(lines) if ln.strip()]
    body = [lines[k - 1] for k in numbers]
    records = None
    try:
        records = json.loads("[" + ",".join(body) + "]")
    except json.JSONDecodeError:
        pass
    if records is None or len(records) != len(body):
        records = []
        for k, ln in zip(numbers, body):
            try:
                records.append(json.loads(ln))
            except json.JSONDecodeError as err:
                raise InputError(f"invalid JSON: {err.msg} (column {err.colno}); expected one JSON object "
                                 "per line", name, k) from None
    _check_objects(records, numbers, name, "line")
    return records, numbers


def _check_objects(records: List[Any], numbers: List[int], name: str, unit: str) -> None:
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
