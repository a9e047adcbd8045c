"""The Python views of every result (``str`` and Jupyter's ``_repr_html_``), registered in
:mod:`ts_eval.results.display` when the package is imported.

They sit at the top of the pipeline (result -> page -> renderer), so the result classes
below need not import pages or renderers; the modules are imported on first use.
"""
from __future__ import annotations

from ..results.display import STR_WIDTH, Displayed, register_view


def text_view(result: Displayed) -> str:
    """The summary sections of the result's page, as the terminal renderer writes them."""
    from dataclasses import replace

    from .builders import build
    from .renderers import render

    page = build(result)
    return render(replace(page, sections=result.summary(page.sections)), "table", width=STR_WIDTH).rstrip("\n")


def html_view(result: Displayed) -> str:
    """The whole page as an HTML fragment (one ``<div>``, CSS scoped to it, no script)."""
    from .builders import build
    from .renderers.html import render

    return render(build(result), fragment=True)


register_view("text", text_view)
register_view("html", html_view)
