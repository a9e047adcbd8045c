"""Reading a result's keys while they are renamed to the vocabulary (VOCAB.md, issue #10.4).

Each builder module makes its accessor with :func:`getter` from a table "vocabulary name ->
today's name"; it reads the vocabulary's name first, then today's, then the upper-case name
(the fair counts ``TP``, ``LE`` ...).  Once the results carry the vocabulary's names, the
tables go and nothing else changes.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Mapping


def getter(legacy: Mapping[str, str]) -> Callable[..., Any]:
    def get(d: Mapping[str, Any], key: str, default: Any = None) -> Any:
        for k in (key, legacy.get(key), key.upper()):
            if k is not None and k in d:
                return d[k]
        return default
    get.__doc__ = "``d[key]`` under the vocabulary's name, else under today's name, else ``default``."
    return get


def as_dict(report: Any) -> Dict[str, Any]:
    """A Report (or its dict) as the dict its JSON is."""
    return report if isinstance(report, dict) else report.to_dict()
