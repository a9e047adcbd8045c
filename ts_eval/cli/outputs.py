"""The output options every command shares (``--format``, ``--output``) and the one way a result is
written.

Every command offers the same formats, on one road each:

- the page formats (:data:`PAGE_FORMATS` = :data:`ts_eval.output.renderers.FORMATS`: ``table``,
  ``markdown``, ``latex``, ``csv``, ``html``): the result's page is built once
  (:func:`ts_eval.output.builders.build`) and rendered by that format's renderer;
- ``json``: the result's own data (``to_dict()``);
- the command's own byte-exact legacy layouts (``conlleval``, ``faireval``, ``nereval``), which
  the command hands to :func:`emit`.

A new output format is one renderer in :mod:`ts_eval.output.renderers` (and its name in
``renderers.FORMATS``): every command then offers it.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from ..errors import Spelling, python_spelling
from ..output.renderers import FORMATS as RENDERERS
from .spelling import option_flags, spell_hint

PAGE_FORMATS = tuple(RENDERERS)

#: width of terminal tables written to a pipe or file without COLUMNS (wide: notes keep their lines)
PIPE_WIDTH = 200

Texts = Dict[str, Callable[[Any], str]]


def write_output(text: str, path: Optional[str]) -> None:
    """``text`` to ``path`` (.gz/.bz2/.xz compress), or to standard output when ``path`` is empty or ``-``.

    ``-o FILE`` writes FILE whole or not at all (:mod:`ts_eval.io.sink`: a temporary file in FILE's
    folder, renamed over FILE once complete; a full disk or a permission error leaves an existing FILE
    as it was, with one line naming the path and the reason, exit 1); ``-o -`` is standard output.  A
    folder on the way that does not exist is not created: the command fails with exit 1 and one line
    naming the path and the reason (as a bad input file does), never a traceback and never a silent
    ``mkdir -p``."""
    from ..io.sink import write_stdout, write_text

    if path:
        write_text(path, text)
    else:
        write_stdout(text)


def format_choices(own: Sequence[str] = ()) -> Tuple[str, ...]:
    """``--format`` choices: ``table``, ``json``, the other page formats, then the command's own."""
    return tuple(dict.fromkeys(["table", "json", *PAGE_FORMATS, *own]))


def add_output_options(group: Any, own: Sequence[str] = (), default: str = "table") -> None:
    """``--format`` (:func:`format_choices` with the command's ``own`` layouts) and ``--output``/``-o``."""
    choices = format_choices(own)
    group.add_argument("--format", default=default, choices=choices, help=f"output format (default {default})")
    group.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")


def spelling(args: argparse.Namespace) -> Spelling:
    """How the running command writes an option a page names: as its flag (``--scheme IOB1``)."""
    parser = getattr(args, "command_parser", None)
    flags = option_flags(parser) if parser is not None else {}
    return lambda hint: spell_hint(hint, flags)


def build_page(result: Any, argv: Optional[Sequence[str]] = None, spell: Spelling = python_spelling,
               **options: Any) -> Any:
    """The neutral page of any command's result; ``argv`` (the command's arguments) goes into its
    meta as the command line that reproduces it; ``spell`` writes the options its notes name."""
    from ..output.builders import build

    page = build(result, spell=spell, **options)
    if argv is not None:
        page.meta["command"] = ["ts-eval", *argv]
    return page


def json_text(result: Any) -> str:
    """The result's own data as JSON (every result has ``to_dict()``; a plain dict is its own data)."""
    import json  # (only for --format json: a table does without the module)

    data = result.to_dict() if hasattr(result, "to_dict") else result
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def rendered(page: Any, fmt: str, details: bool = False, width: Optional[int] = None, to_file: bool = False,
             spell: Spelling = python_spelling) -> str:
    """``page`` in page format ``fmt``.  The terminal table (``table``) is ``width`` columns wide in a
    file; on standard output it fits the terminal (its width, or ``COLUMNS``), in colour only on a
    terminal, and a pipe without ``COLUMNS`` gets :data:`PIPE_WIDTH` columns."""
    from ..output.renderers import render

    if fmt != "table":
        return render(page, fmt, details=details)
    if to_file:
        return render(page, "table", width=width, details=details, spell=spell)
    tty = sys.stdout.isatty()
    width = None if tty or "COLUMNS" in os.environ else PIPE_WIDTH
    return render(page, "table", width=width, details=details, color=tty, spell=spell)


def emit(result: Any, args: argparse.Namespace, own: Optional[Callable[[], Texts]] = None,
         page_options: Optional[Dict[str, Any]] = None, details: bool = False, width: int = 200) -> None:
    """Write ``result`` as ``args.format`` to ``args.output`` (or standard output).

    ``own()`` returns the command's own layouts (legacy byte-exact layouts; imported only when one is
    asked for); ``page_options``: options of the page builder; ``details``: the terminal shows the
    detail sections too (HTML opens them); ``width``: of a terminal table written to a file.
    """
    fmt, dest = args.format, getattr(args, "output", None)
    texts = own() if own is not None and fmt not in PAGE_FORMATS else {}
    if fmt in texts:
        text = texts[fmt](result)
    elif fmt == "json":
        text = json_text(result)
    else:
        spell = spelling(args)
        page = build_page(result, getattr(args, "argv", None), spell, **(page_options or {}))
        text = rendered(page, fmt, details, width, to_file=bool(dest), spell=spell)
    write_output(text, dest)
