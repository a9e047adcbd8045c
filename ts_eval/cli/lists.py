"""Comma-separated option values, read one way by every command: a list of names (``--models``,
``--attributes``) and a pair of model names (``--flips A,B``)."""
from __future__ import annotations

from typing import List, Optional, Tuple

from .errors import UsageError


def names(text: Optional[str]) -> Optional[List[str]]:
    """The names in ``text`` (blank items dropped); None for None."""
    return None if text is None else [x.strip() for x in text.split(",") if x.strip()]


def model_pair(text: str) -> Tuple[str, str]:
    """``--flips A,B``: two model names, else a usage error."""
    pair = [n.strip() for n in text.split(",")]
    if len(pair) != 2 or not all(pair):
        raise UsageError(f"--flips {text}: expected two model names separated by a comma (e.g. "
                         "exact-f1-micro,ts-f1-macro)")
    return pair[0], pair[1]
