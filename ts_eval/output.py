"""Where a command's output goes: one behaviour for every command.

``-o FILE`` writes FILE; a folder on the way that does not exist is not created: the
command fails with exit 1 and one line naming the path and the reason (as a bad input
file does), never a traceback and never a silent ``mkdir -p``.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator, Optional, TextIO

from .errors import InputError


@contextmanager
def open_output(path: str) -> Iterator[TextIO]:
    """``open(path, "w")`` whose failure is an :class:`InputError` naming ``path``."""
    try:
        fh = open(path, "w", encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write the output: {err.strerror or err}", path) from None
    with fh:
        yield fh


def write_output(text: str, path: Optional[str]) -> None:
    """``text`` to ``path`` (see :func:`open_output`), or to stdout when ``path`` is empty."""
    if path:
        with open_output(path) as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
