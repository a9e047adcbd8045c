"""Library options as the running command's flags: a message's :class:`~ts_eval.errors.Hint` (``align='expand'``)
is spelled ``--align expand``, by the command's parser (:func:`option_flags`)."""
from __future__ import annotations

import argparse
from typing import Any, Dict, Optional, Tuple

from ..errors import Hint

#: library keyword -> the command line's ``dest`` where the two names differ
KEYWORD_DEST = {"token_column": "token_col", "gold_column": "gold_col", "system_column": "system_col",
                "system_columns": "system_col",
                "details": "confusion",            # score's --details (also --confusion)
                # the flag turns the quirk off: only Hint("eof_quirk", False) names it
                "eof_quirk": "count_last_chunk"}

Flags = Dict[str, Tuple[str, bool]]   # option keyword -> (long flag, takes a value)


def option_flags(parser: argparse.ArgumentParser) -> Flags:
    """A command's options: ``dest`` (and the library keyword of :data:`KEYWORD_DEST`) -> its long flag and
    whether it takes a value (``--tags-only`` does not)."""
    flags: Flags = {}
    for action in parser._actions:   # argparse has no public list of a parser's options
        long = [s for s in action.option_strings if s.startswith("--")]
        if long and action.dest not in flags:
            flags[action.dest] = (long[0], action.nargs != 0)
    for keyword, dest in KEYWORD_DEST.items():
        if dest in flags:
            flags.setdefault(keyword, flags[dest])
    return flags


def spell_hint(hint: Hint, flags: Flags) -> Optional[str]:
    """``hint`` as the command line writes it (``--align expand``), None when the command has no such option."""
    if hint.option not in flags:
        return None
    flag, takes_value = flags[hint.option]
    if hint.metavar is not None and takes_value:
        return f"{flag} {hint.metavar}"
    if not hint.values or not takes_value:
        return flag
    return f"{flag} " + " or ".join(_shell_word(v) for v in hint.values)


def _shell_word(value: Any) -> str:
    import shlex  # (only an error message spells a value)

    text = {"\t": "'\\t'"}.get(value) if isinstance(value, str) else None
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        text = str(int(value))          # as typed: argparse made --beta 0 the float 0.0
    return text or shlex.quote(str(value))
