"""The input formats: what each one is (a :class:`Format` record) and where they are found by name or by content.

A format is one module of :mod:`ts_eval.io` that declares its record and registers it
(:func:`register_format`): its name, the file name endings that say it, how its content is recognised,
its options (a frozen dataclass whose fields, with their defaults, are the keywords it takes), how an input
is read (``feed``: handed out a number of whole documents at a time, :class:`ts_eval.io.feed.Feed`) and how
documents are written in it, when they can be.  Everything else -- choosing a format, passing options,
reading inputs whole or in blocks, pairing gold with systems, converting -- reads these records, so a new
format (also one registered from outside the package) is one module.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

from ..core.options import Options
from ..errors import OptionError


@dataclass(frozen=True)
class NoOptions(Options):
    """The options of a format that takes none."""


@dataclass(frozen=True)
class Format:
    """An input format (see the module docstring).

    ``feed(path, options, decoding, block_bytes)``: the input as a feed (``options``: an instance of
    ``options``; ``decoding``: :class:`~ts_eval.io.feed.Decoding`, for formats of tags); ``sniff(head)``:
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

    def takes(self) -> Set[str]:
        """The keywords a read in this format takes: its options, and ``scheme`` and ``policy`` when it reads tags."""
        return set(self.option_names()) | ({"scheme", "policy"} if self.tags else set())

    def make_options(self, given: Mapping[str, Any]) -> Any:
        """An instance of ``options`` from the keywords of ``given`` it takes (the others are left out)."""
        return self.options(**{k: v for k, v in given.items() if k in self.option_names() and v is not None})


_FORMATS: Dict[str, Format] = {}
#: the package's formats, in the order content is recognised in (the last, columns, takes whatever no other
#: does): name -> (the module that declares it, the file name endings that say it).  A module is imported when
#: its format is first asked for, so that listing the formats or reading a column file loads no other reader.
BUILT_IN: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    "brat": ("brat", (".ann",)),
    "generated": ("generated", ()),
    "label-studio": ("jsonl_text", ()),
    "jsonl-tokens": ("jsonl_tokens", ()),
    "jsonl-text": ("jsonl_text", ()),
    "conllu": ("conllu", (".conllu",)),
    "columns": ("conll", (".conll", ".iob", ".bio", ".tsv")),
}
#: the package's formats in the order they are listed to a user (help texts, errors): the commonest first
LISTED = ("columns", "jsonl-tokens", "jsonl-text", "label-studio", "brat", "conllu", "generated")
#: the option values some readers take, listed without importing them
ALIGN_MODES = ("strict", "expand", "contract")   # character spans off token boundaries (io.tokenizer)
DISCONTINUOUS = ("error", "first", "hull")      # discontinuous brat spans (io.brat)


def register_format(fmt: Format) -> Format:
    """Add (or replace) an input format.  A format registered from outside the package is recognised (by its
    file name endings, or its ``sniff``) before the package's own."""
    _FORMATS[fmt.name] = fmt
    return fmt


def added() -> List[Format]:
    """The formats registered from outside the package, in the order they were registered (no module of the
    package is imported)."""
    return [f for name, f in _FORMATS.items() if name not in BUILT_IN]


def names() -> Tuple[str, ...]:
    """Every format's name: those registered from outside the package first, then the package's (:data:`LISTED`)."""
    return tuple(f.name for f in added()) + LISTED


def get_format(name: str) -> Format:
    """The format ``name`` (its module imported); an OptionError naming every format otherwise."""
    if name in BUILT_IN and name not in _FORMATS:
        importlib.import_module(f"{__package__}.{BUILT_IN[name][0]}")
    if name not in _FORMATS:
        raise OptionError(f"format {name!r}: expected one of {', '.join(names())}")
    return _FORMATS[name]


def detect(path: str, head: Optional[bytes]) -> str:
    """The format of ``path``: a directory is brat; else the ending of its name (a compression suffix aside),
    else its content (``head``: its first bytes; None: not looked at, columns)."""
    from .source import STDIN, is_dir, plain_name

    if is_dir(path):
        return "brat"
    name = plain_name(path).lower() if path != STDIN else ""
    for f in added():
        if any(name.endswith(ext) for ext in f.extensions):
            return f.name
    for fmt, (_, endings) in BUILT_IN.items():
        if any(name.endswith(ext) for ext in endings):
            return fmt
    if head is None:
        return "columns"
    text = head[:1 << 16].decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    for f in added() + [get_format(n) for n in BUILT_IN]:
        if f.sniff is not None and f.sniff(text):
            return f.name
    return "columns"
