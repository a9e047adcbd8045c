"""Renderers: one module per output format, each ``render(page, **options) -> str`` for ANY page.

- ``table`` (:mod:`.text`): terminal tables through rich that never cut a number or a name;
- ``markdown`` (:mod:`.markdown`), ``latex`` (:mod:`.latex`): the same tables for publishing;
- ``csv`` (:mod:`.csv`): long form, one line per cell, raw numbers;
- ``html`` (:mod:`.html`): one self-contained page (inline CSS, SVG figures, sortable tables).

JSON is not a renderer: it is the result's own ``to_dict()``.  The byte-exact legacy layouts
(conlleval, nereval, faireval) are :mod:`ts_eval.output.legacy`.  How a value is written is
:mod:`ts_eval.output.values` (shared, so every format shows the same digits).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Optional

from ...errors import Spelling, python_spelling

if TYPE_CHECKING:   # the CLI lists FORMATS at start-up without loading the page model
    from ..page import Page

FORMATS = {"table": "text", "markdown": "markdown", "latex": "latex", "csv": "csv", "html": "html"}


def render(page: Page, fmt: str = "table", *, width: Optional[int] = None, details: bool = False,
           color: bool = False, spell: Spelling = python_spelling) -> str:
    """``page`` in format ``fmt``.  ``width`` and ``details`` concern the terminal (``table``: the
    console width, default the terminal's; detail sections only on request) -- the other formats
    write every section (``html`` folds the detail sections unless ``details``); ``color``: ANSI
    colours in ``table`` (for a terminal); ``spell``: how ``table`` names the option that shows the
    detail sections (default: the Python keyword ``details=True``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    module = importlib.import_module(f".{FORMATS[fmt]}", __name__)
    out: str
    if fmt == "table":
        out = module.render(page, width=width, details=details, color=color, spell=spell)
    elif fmt == "html":
        out = module.render(page, open_details=details)
    else:
        out = module.render(page)
    return out
