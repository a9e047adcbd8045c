"""Where writers put their output: a path, ``-`` for standard output, .gz/.bz2/.xz by extension.

The mirror of :mod:`ts_eval.io.source`.  A path that cannot be written is an
:class:`~ts_eval.errors.InputError` with one line naming it and the reason.
"""
from __future__ import annotations

import bz2
import gzip
import lzma
import os
import sys
from typing import Callable, Dict

from ..errors import InputError
from .source import STDIN

_OPENERS: Dict[str, Callable] = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}


def write_text(path: str, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path``; ``-`` is standard output and a
    .gz/.bz2/.xz suffix compresses."""
    if path == STDIN:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    opener = _OPENERS.get(os.path.splitext(str(path))[1].lower())
    try:
        if opener is None:
            with open(path, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        else:
            with opener(path, "wt", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
    except OSError as err:
        raise InputError(f"cannot write: {err.strerror or err}; expected a writable file path", str(path)) from None


def make_dir(path: str) -> None:
    """Create the output directory ``path`` (brat); an error names it when that is impossible."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot create the directory: {err.strerror or err}; expected a writable "
                         "directory path", str(path)) from None
    if not os.path.isdir(path):
        raise InputError("is not a directory; expected a directory for brat output", str(path))
