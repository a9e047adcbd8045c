"""Errors a user can act on: where (file, line), what was found, what was expected.

A message may name an option and the value to give it (a :class:`Hint`): the option is kept
as data, so that a Python caller reads ``align='expand' or 'contract'`` and the command line
(:mod:`ts_eval.cli.errors`, the only place that knows flags) reads ``--align expand or
contract``.  A message is then a sequence of parts, strings and hints::

    raise InputError(["span [3, 5) does not fall on token boundaries (or give ",
                      Hint("align", "expand", "contract"), ")"], path, line)

``str(err)`` spells every hint for Python; :meth:`TsEvalError.spelled` spells them for
another audience.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple, Union


class Hint:
    """An option named in a message: its Python keyword and the value(s) to give it.

    ``values``: the value to suggest (several: alternatives); ``metavar``: a placeholder
    instead of a value (``column=NAME``); neither: the option alone (``leave out delimiter``).
    """

    __slots__ = ("metavar", "option", "values")

    def __init__(self, option: str, *values: Any, metavar: Optional[str] = None):
        self.option = option
        self.values = values
        self.metavar = metavar

    def python(self) -> str:
        """The keyword argument as a Python caller writes it."""
        if self.metavar is not None:
            return f"{self.option}={self.metavar}"
        if not self.values:
            return self.option
        return f"{self.option}=" + " or ".join(repr(v) for v in self.values)

    def __repr__(self) -> str:
        return f"Hint({self.python()})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Hint) and (self.option, self.values, self.metavar)
                == (other.option, other.values, other.metavar))

    def __hash__(self) -> int:
        return hash((self.option, self.metavar))


class AnyOf:
    """Alternative hints (``column=NAME or misc_key=KEY``); an audience that lacks one of the
    options (its spelling returns None) sees the others."""

    __slots__ = ("hints",)

    def __init__(self, *hints: Hint):
        self.hints = hints


Part = Union[str, Hint, AnyOf]
Message = Union[str, Sequence[Part]]
Spelling = Callable[[Hint], Optional[str]]   # a hint as one audience writes it (None: it has no such option)


def python_spelling(hint: Hint) -> Optional[str]:
    """A hint as a Python caller writes it (``scheme='auto'``): the library's default audience."""
    return hint.python()


_python = python_spelling


def spell_part(part: Part, spell: Spelling) -> str:
    """One part of a message for the audience of ``spell`` (a hint it lacks: its Python spelling)."""
    if isinstance(part, str):
        return part
    if isinstance(part, Hint):
        return spell(part) or part.python()
    known = [s for s in (spell(h) for h in part.hints) if s]
    return " or ".join(known or [h.python() for h in part.hints])


def spell(message: Message, spelling: Spelling = python_spelling) -> str:
    """A message (a string, or parts with hints) written for the audience of ``spelling`` (default:
    Python keywords; the command line passes its flags).  Outputs use it for the notes that name an
    option (``ts_eval.output.builders``, the terminal renderer)."""
    parts = (message,) if isinstance(message, str) else message
    return "".join(spell_part(p, spelling) for p in parts)


class TsEvalError(Exception):
    """Base class of every error ts_eval raises on purpose.

    ``parts``: the message (strings and :class:`Hint` s); ``hints``: the options it names;
    ``option``: the first of them (the option the error is about), or None.
    """

    prefix = ""    # set by InputError: "path:line: "

    def __init__(self, message: Message = "", *args: Any):
        self.parts: Tuple[Part, ...] = (message,) if isinstance(message, str) else tuple(message)
        super().__init__(self.spelled(), *args)

    @property
    def hints(self) -> Tuple[Hint, ...]:
        out: List[Hint] = []
        for p in self.parts:
            out.extend([p] if isinstance(p, Hint) else (p.hints if isinstance(p, AnyOf) else ()))
        return tuple(out)

    @property
    def option(self) -> Optional[str]:
        hints = self.hints
        return hints[0].option if hints else None

    def spelled(self, spell: Spelling = _python) -> str:
        """The one-line message with every hint written by ``spell`` (default: as Python keywords)."""
        return self.prefix + "".join(spell_part(p, spell) for p in self.parts)

    def __str__(self) -> str:
        return self.spelled()


class OptionError(TsEvalError, ValueError):
    """A bad option or argument value given to the library (the CLI exits 2).

    ``OptionError(message, option="seed", value=-1)`` says which option and value are bad:
    the message then starts with them (``seed=-1: ...``; the command line: ``--seed -1: ...``)."""

    _NO_VALUE = object()

    def __init__(self, message: Message = "", *, option: Optional[str] = None, value: Any = _NO_VALUE):
        if option is not None:
            head = Hint(option) if value is self._NO_VALUE else Hint(option, value)
            message = [head, ": ", *((message,) if isinstance(message, str) else message)]
        self.value = None if value is self._NO_VALUE else value
        super().__init__(message)


class InputError(TsEvalError):
    """Bad input data. The message names the file, the line and the offending value.

    ``str(err)`` is the one-line message the command-line tool prints.
    """

    def __init__(self, message: Message, path: Optional[str] = None, line: Optional[int] = None):
        self.path = path
        self.line = line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        elif line is not None:
            where = f"line {line}: "
        self.prefix = where
        super().__init__(message)
        self.message = "".join(spell_part(p, _python) for p in self.parts)
