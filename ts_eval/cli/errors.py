"""Errors -> exit codes and one line on stderr, in one place.

==== =======================================================================================
code meaning
==== =======================================================================================
0    done; also when the reader of standard output went away (``ts-eval score ... | head -1``)
1    bad input (:class:`InputError`): a file that cannot be read or is not what was expected;
     an output that cannot be written (:class:`OSError`: disk full, no such folder, ...); not
     enough memory for the run
2    bad usage (:class:`OptionError`, of which this module's :class:`UsageError` is one, and
     argparse's own errors): an unknown option or a bad option value
130  interrupted (Ctrl-C), as command-line tools do (128 + SIGINT)
==== =======================================================================================

Anything else is a bug and keeps its traceback.

The library raises :class:`OptionError` for a bad option value; where a library function still
raises a plain ``ValueError`` for one, the command wraps the call in :func:`option_errors`.  Library
messages name options as Python keywords, kept as data (:class:`ts_eval.errors.Hint`); here they
are spelled as the running command's flags (``align='expand'`` -> ``--align expand``, :mod:`.spelling`).
"""
from __future__ import annotations

import argparse
import errno
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, NoReturn, Optional

from ..errors import InputError, OptionError, TsEvalError
from .spelling import Flags, spell_hint

if TYPE_CHECKING:
    #: what ``add_subparsers()`` gives, to which each command adds its parser
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]
    #: a parser or one of its argument groups (what options are added to)
    Options = argparse._ActionsContainer

#: exit codes by name (the table above)
DONE, BAD_INPUT, BAD_USAGE, INTERRUPTED = 0, 1, 2, 130

WRITE_FAILED = "cannot write the output: "
_WRITE_ERRNOS = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}   # only writes fail so


def exit_code(err: BaseException) -> Optional[int]:
    """The exit code of an error the CLI reports in one line (None: not one of them, a bug)."""
    if isinstance(err, OptionError):
        return BAD_USAGE
    if isinstance(err, InputError):
        return BAD_INPUT
    if isinstance(err, BrokenPipeError):  # the reader of our output went away: nothing to report
        return DONE
    if isinstance(err, (OSError, MemoryError)):
        return BAD_INPUT
    if isinstance(err, KeyboardInterrupt):
        return INTERRUPTED
    if isinstance(err, SystemExit):      # argparse: usage errors (2), --help and --version (0)
        return err.code if isinstance(err.code, int) else (0 if err.code is None else BAD_USAGE)
    return None


def message(err: BaseException, flags: Optional[Flags] = None) -> Optional[str]:
    """The one line ``err`` is reported as (None: nothing to print)."""
    if isinstance(err, TsEvalError):
        return err.spelled(lambda hint: spell_hint(hint, flags or {}))
    if isinstance(err, (BrokenPipeError, SystemExit)):
        return None
    if isinstance(err, OSError):
        reason = err.strerror or str(err)
        if err.filename is not None:
            return f"{err.filename}: {reason}"
        code = errno.errorcode.get(err.errno or 0)
        return (WRITE_FAILED if err.errno in _WRITE_ERRNOS else "") + reason + (f" ({code})" if code else "")
    if isinstance(err, MemoryError):
        return ("not enough memory" + (f": {err}" if str(err) else "")
                + "; use smaller inputs or fewer resamples, or a machine with more memory")
    if isinstance(err, KeyboardInterrupt):
        return "interrupted"
    return None


def report(err: BaseException, flags: Optional[Flags] = None) -> int:
    """Print ``err`` as ``ts-eval: error: ...`` when it is one the user can act on; its exit code.

    ``flags``: the running command's options (:func:`.spelling.option_flags`), to spell the options a library
    message names."""
    code = exit_code(err)
    if code is None:
        raise err
    text = message(err, flags)
    if text is not None:
        print("ts-eval: interrupted" if code == INTERRUPTED else f"ts-eval: error: {text}", file=sys.stderr)
    return code


class UsageError(OptionError):
    """Bad options or arguments on the command line (exit code 2): the command line's own error; the
    library raises :class:`OptionError`, whose hints this module spells as flags."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a usage error as one line: the error and where to read the usage, not the whole
    usage text (8-14 lines that bury the line that matters)."""

    def error(self, message: str) -> NoReturn:
        self.exit(BAD_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


@contextmanager
def option_errors(prefix: str = "") -> Iterator[None]:
    """Inside: a ``ValueError`` from the library (:class:`OptionError` or a plain one) is a bad option value,
    raised as a :class:`UsageError` whose message starts with ``prefix`` (the option's name, say); bad input
    (:class:`InputError`, also where it is a ``ValueError``) stays bad input."""
    try:
        yield
    except (UsageError, InputError):
        raise
    except OptionError as err:
        if not prefix:
            raise
        raise UsageError([prefix, *err.parts]) from None
    except ValueError as err:
        raise UsageError(f"{prefix}{err}") from None
