"""What a tag, a label or a token may hold: printable text.

A control character (Unicode category Cc: C0, DEL and C1) would make a value print like another
(``B-LOC\x00`` and ``B-LOC`` would be two labels, both shown as ``LOC``), so every reader and the
corpus builders reject such values with :func:`control_message`, at the first line they are on.
Nothing here imports anything of ts_eval: the corpus and every reader use it.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Optional

#: control characters (Unicode category Cc: C0, DEL and C1): a tag or label holding one prints like another
#: (``B-LOC\x00`` and ``B-LOC`` would be two labels, both shown as ``LOC``), so every reader rejects them
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def has_control(value: Any) -> bool:
    """Whether ``value`` is a string holding a control character."""
    return isinstance(value, str) and CONTROL.search(value) is not None


def first_control(values: Iterable[Any]) -> Optional[int]:
    """The index of the first string in ``values`` that holds a control character (None: there is none)."""
    values = list(values)
    if not any(map(has_control, set(v for v in values if isinstance(v, str)))):
        return None
    return next(k for k, v in enumerate(values) if has_control(v))


def control_message(value: str, what: str = "tag") -> str:
    """The error message for a ``what`` (tag, label, ...) that holds control characters: the value escaped."""
    return f"{what} {value!r} {control_reason(value, what)}"


def control_reason(value: str, what: str = "tag") -> str:
    codes = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(CONTROL.findall(value)))
    return f"holds a control character ({codes}) and would print like another {what}; expected printable text"
