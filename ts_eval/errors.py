"""Errors a user can act on: where (file, line), what was found, what was expected."""
from __future__ import annotations

from typing import Optional


class TsEvalError(Exception):
    """Base class of every error ts_eval raises on purpose."""


class OptionError(TsEvalError, ValueError):
    """A bad option or argument value given to the library (the CLI exits 2)."""


class InputError(TsEvalError):
    """Bad input data. The message names the file, the line and the offending value.

    ``str(err)`` is the one-line message the command-line tool prints.
    """

    def __init__(self, message: str, path: Optional[str] = None, line: Optional[int] = None):
        self.path = path
        self.line = line
        self.message = message
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + message)


class UsageError(OptionError):
    """Bad options or arguments on the command line (exit code 2)."""
