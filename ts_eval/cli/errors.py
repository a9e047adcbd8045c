"""Errors -> exit codes, in one place: 0 done, 1 bad input (:class:`InputError`), 2 bad usage
(:class:`OptionError`, of which the CLI's :class:`UsageError` is one, and argparse's own errors).

The library raises :class:`OptionError` for a bad option value; where a library function still
raises a plain ``ValueError`` for one, the command wraps the call in :func:`option_errors`.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator, Optional

from ..errors import InputError, OptionError, UsageError


def exit_code(err: BaseException) -> Optional[int]:
    """The exit code of an error the CLI reports in one line (None: not one of them, a bug)."""
    if isinstance(err, OptionError):
        return 2
    if isinstance(err, InputError):
        return 1
    if isinstance(err, BrokenPipeError):  # the reader of our output went away: nothing to report
        return 0
    if isinstance(err, SystemExit):      # argparse: usage errors (2), --help and --version (0)
        return err.code if isinstance(err.code, int) else (0 if err.code is None else 2)
    return None


def report(err: BaseException) -> int:
    """Print ``err`` as ``ts-eval: error: ...`` when it is one the user can act on; its exit code."""
    code = exit_code(err)
    if code is None:
        raise err
    if isinstance(err, (OptionError, InputError)):
        print(f"ts-eval: error: {err}", file=sys.stderr)
    return code


@contextmanager
def option_errors(prefix: str = "") -> Iterator[None]:
    """Inside: a ``ValueError`` from the library (:class:`OptionError` or a plain one) is a bad option value,
    raised as a :class:`UsageError` whose message starts with ``prefix`` (the option's name, say)."""
    try:
        yield
    except UsageError:
        raise
    except ValueError as err:
        raise UsageError(f"{prefix}{err}") from None
