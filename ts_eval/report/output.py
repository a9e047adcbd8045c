"""Where a command's output goes: one behaviour for every command.

``-o FILE`` writes FILE whole or not at all (:mod:`ts_eval.io.sink`: a temporary file in FILE's
folder, renamed over FILE once complete; a full disk or a permission error leaves an existing FILE
as it was, with one line naming the path and the reason, exit 1); ``-o -`` is standard output.  A
folder on the way that does not exist is not created: the command fails with exit 1 and one line
naming the path and the reason (as a bad input file does), never a traceback and never a silent
``mkdir -p``.
"""
from __future__ import annotations

from typing import Optional

from ..io.sink import write_stdout, write_text


def write_output(text: str, path: Optional[str]) -> None:
    """``text`` to ``path`` (.gz/.bz2/.xz compress), or to standard output when ``path`` is empty or ``-``."""
    if path:
        write_text(path, text)
    else:
        write_stdout(text)
