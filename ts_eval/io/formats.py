"""The input formats: what each one is (a :class:`Format` record) and where they are found by name or by content.

A format is one module of :mod:`ts_eval.io` that declares its record and registers it
(:func:`register_format`): its name, the file name endings that say it, how its content is recognised,
its options (a frozen dataclass whose fields, with their defaults, are the keywords it takes), how an input
is read (``feed``: handed out a number of whole documents at a time, :class:`ts_eval.io.join.Feed`) and how
documents are written in it, when they can be.  Everything else -- choosing a format, passing options,
reading inputs whole or in blocks, pairing gold with systems, converting -- reads these records, so a new
format (also one registered from outside the package) is one module.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..errors import OptionError


@dataclass(frozen=True)
class NoOptions:
    """The options of a format that takes none."""


@dataclass(frozen=True)
class Format:
    """An input format (see the module docstring).

    ``feed(path, options, decoding, block_bytes)``: the input as a feed (``options``: an instance of
    ``options``; ``decoding``: :class:`~ts_eval.io.join.Decoding`, for formats of tags); ``sniff(head)``:
    whether the first 64 KiB of an input (decoded) are of this format; ``write(docs, path, **kw)``: documents
    written in this format (None: it is read only); ``tags``: inputs are read from tags, which a scheme
    decodes; ``directory``: an input is a directory; ``places``: its records are placed on gold's documents
    (a generated output's strings), so it cannot be gold."""

    name: str
    feed: Callable[..., Any]
    options: type = NoOptions
    extensions: Tuple[str, ...] = ()
    sniff: Optional[Callable[[str], bool]] = None
    write: Optional[Callable[..., Any]] = None
    tags: bool = False
    directory: bool = False
    places: bool = False
    description: str = ""

    def option_names(self) -> Tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self.options))

    def make_options(self, given: Mapping[str, Any]) -> Any:
        """An instance of ``options`` from the keywords of ``given`` it takes (the others are left out)."""
        return self.options(**{k: v for k, v in given.items() if k in self.option_names() and v is not None})


_FORMATS: Dict[str, Format] = {}
#: the modules of this package that declare a format, imported (and so registered) when a format is first asked
#: for; the order is the order content is recognised in (the last, columns, takes whatever no other does)
MODULES = ("brat", "generated", "label_studio", "jsonl_tokens", "jsonl_text", "conllu", "columns")
_loaded = False


def register_format(fmt: Format) -> Format:
    """Add (or replace) an input format; formats registered from outside the package are recognised by
    content before the package's own."""
    _FORMATS[fmt.name] = fmt
    return fmt


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for name in MODULES:
            importlib.import_module(f"{__package__}.{name}")


def formats() -> List[Format]:
    """Every format: those registered from outside the package first, then the package's in :data:`MODULES`
    order."""
    _load()
    own = {f"{__package__}.{m}" for m in MODULES}
    outside = [f for f in _FORMATS.values() if f.feed.__module__ not in own]
    inside = [f for m in MODULES for f in _FORMATS.values() if f.feed.__module__ == f"{__package__}.{m}"]
    return outside + inside


def names() -> Tuple[str, ...]:
    return tuple(f.name for f in formats())


def get_format(name: str) -> Format:
    """The format ``name``; an OptionError naming every format otherwise."""
    _load()
    if name not in _FORMATS:
        raise OptionError(f"format {name!r}: expected one of {', '.join(names())}")
    return _FORMATS[name]


def by_name(path: str) -> Optional[Format]:
    """The format a file name says (its ending, a compression suffix aside), or None."""
    from .source import plain_name

    name = plain_name(path).lower()
    for f in formats():
        if any(name.endswith(ext) for ext in f.extensions):
            return f
    return None


def by_content(head: bytes) -> Format:
    """The format the first bytes of an input say (the last format, columns, when no other recognises them)."""
    text = head[:1 << 16].decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    found = formats()
    for f in found[:-1]:
        if f.sniff is not None and f.sniff(text):
            return f
    return found[-1]
