"""The output options every command shares (``--format``, ``--output``) and the one way a result is
written: a rich table to the terminal or to a file, or a text format through :mod:`ts_eval.output`.

A format every command should offer (an HTML page, say) is one entry in :data:`EVERY_COMMAND`:
its name and the ``module:function`` that turns any command's result into text.  It is then a
``--format`` choice of every command and :func:`emit` writes it; nothing else changes.
"""
from __future__ import annotations

import argparse
import importlib
from typing import Any, Callable, Dict, Optional, Sequence

from ..output import open_output, write_output

# format name -> "module:function" taking any command's result and returning the text to write
EVERY_COMMAND: Dict[str, str] = {}

TablePrinter = Callable[[Any, Optional[Any]], None]  # (result, rich Console or None = the terminal)


def add_output_options(group: Any, formats: Sequence[str], default: str = "table") -> None:
    """``--format`` (this command's ``formats`` plus :data:`EVERY_COMMAND`) and ``--output``/``-o``."""
    choices = tuple(dict.fromkeys([*formats, *EVERY_COMMAND]))
    group.add_argument("--format", default=default, choices=choices, help=f"output format (default {default})")
    group.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")


def _function(spec: str) -> Callable[[Any], str]:
    module, name = spec.split(":")
    return getattr(importlib.import_module(module), name)


def emit(result: Any, args: argparse.Namespace, texts: Callable[[], Dict[str, Callable[[Any], str]]],
         table: Optional[TablePrinter] = None, width: int = 200) -> None:
    """Write ``result`` as ``args.format`` to ``args.output`` (or standard output).

    ``texts()`` returns the command's text formats (imported only when one is asked for);
    ``table(result, console)`` prints the rich tables (console None: the terminal).
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
    render = _function(EVERY_COMMAND[fmt]) if fmt in EVERY_COMMAND else texts()[fmt]
    write_output(render(result), dest)
