"""The output options every command shares (``--format``, ``--output``) and the one way a result is
written: a rich table to the terminal or to a file, or a text format through :mod:`ts_eval.output`.

A format every command should offer (an HTML page, say) is one entry in :data:`EVERY_COMMAND`:
its name and the ``module:function`` that turns any command's result into text.  It is then a
``--format`` choice of every command and :func:`emit` writes it; nothing else changes.
"""
from __future__ import annotations

import argparse
import os
import importlib
import sys
from typing import Any, Callable, Dict, Optional, Sequence

from ..output import open_output, write_output

# format name -> "module:function" taking any command's result (and the document options) and returning
# the text to write
EVERY_COMMAND: Dict[str, str] = {"html": f"{__name__}:html_page"}

#: width of terminal tables written to a pipe or file without COLUMNS (wide: notes keep their lines)
PIPE_WIDTH = 200

TablePrinter = Callable[[Any, Optional[Any]], None]  # (result, rich Console or None = the terminal)


def add_output_options(group: Any, formats: Sequence[str], default: str = "table") -> None:
    """``--format`` (this command's ``formats`` plus :data:`EVERY_COMMAND`) and ``--output``/``-o``."""
    choices = tuple(dict.fromkeys([*formats, *EVERY_COMMAND]))
    group.add_argument("--format", default=default, choices=choices, help=f"output format (default {default})")
    group.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")


def document(result: Any, argv: Optional[Sequence[str]] = None, **options: Any) -> Any:
    """The neutral document of any command's result; ``argv`` (the command's arguments) goes into its
    meta as the command line that reproduces it."""
    from ..documents import build

    doc = build(result, **options)
    if argv is not None:
        doc.meta["command"] = ["ts-eval", *argv]
    return doc


def html_page(result: Any, argv: Optional[Sequence[str]] = None, **options: Any) -> str:
    """One self-contained HTML page of any command's result."""
    from ..renderers import render

    return render(document(result, argv, **options), "html")


def document_table(details: bool = False, **options: Any) -> TablePrinter:
    """A table printer through the document renderer: tables that fit the console width without cutting
    a number (``details``: also the detail sections)."""
    def table(result: Any, console: Optional[Any]) -> None:
        from ..renderers import render

        doc = document(result, **options)
        if console is None:   # the terminal: its width (COLUMNS), colours only on a terminal
            tty = sys.stdout.isatty()
            width = None if tty or "COLUMNS" in os.environ else PIPE_WIDTH
            text = render(doc, "table", width=width, details=details, color=tty)
            sys.stdout.write(text)
        else:
            console.file.write(render(doc, "table", width=console.width, details=details))
    return table


def document_texts(formats: Sequence[str], **options: Any) -> Dict[str, Callable[[Any], str]]:
    """Text formats (csv, markdown, latex) through the document renderers, for :func:`emit`'s ``texts``."""
    from ..renderers import render

    return {fmt: (lambda result, fmt=fmt: render(document(result, **options), fmt)) for fmt in formats}


def _function(spec: str) -> Callable[..., str]:
    module, name = spec.split(":")
    return getattr(importlib.import_module(module), name)


def emit(result: Any, args: argparse.Namespace, texts: Callable[[], Dict[str, Callable[[Any], str]]],
         table: Optional[TablePrinter] = None, width: int = 200,
         doc_options: Optional[Dict[str, Any]] = None) -> None:
    """Write ``result`` as ``args.format`` to ``args.output`` (or standard output).

    ``texts()`` returns the command's text formats (imported only when one is asked for);
    ``table(result, console)`` prints the rich tables (console None: the terminal);
    ``doc_options``: options of the document builder for the formats of :data:`EVERY_COMMAND`.
    """
    fmt, dest = args.format, getattr(args, "output", None)
    if fmt == "table" and table is not None:
        if dest:
            from rich.console import Console

            with open_output(dest) as fh:
                table(result, Console(file=fh, width=width, no_color=True))
        else:
            table(result, None)
        return
    if fmt in EVERY_COMMAND:
        text = _function(EVERY_COMMAND[fmt])(result, getattr(args, "argv", None), **(doc_options or {}))
    else:
        text = texts()[fmt](result)
    write_output(text, dest)
