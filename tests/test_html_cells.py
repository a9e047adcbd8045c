"""A table cell written in Python (issue 32.4: the 28-system analyze page has 55,000) is what the table macro's
Jinja loop wrote, byte for byte: escaping of text, titles, links and intervals, Markup kept as it is; a number's
text, interval and sort key are written without looking for characters to escape."""
from __future__ import annotations

import math
from types import SimpleNamespace

import jinja2
import pytest
from markupsafe import Markup

from ts_eval.output.page import Cell
from ts_eval.output.renderers.html import LONG_TEXT, _cell_html, _counts_text, sort_key
from ts_eval.output.values import interval, value

OLD = ('<{{ c.tag }}{% if c.tag == "th" %} scope="row"{% endif %} class="{{ c.cls }}" data-sort="{{ c.sort }}"'
       '{% if c.title %} title="{{ c.title }}"{% endif %}>{% if c.link %}<a href="{{ c.link }}">{{ c.text }}</a>'
       '{% else %}{{ c.text }}{% endif %}{% if c.interval %}<span class="iv">{{ c.interval }}</span>{% endif %}'
       '</{{ c.tag }}>')


def _as_the_macro_got_it(cell: Cell, header: bool, column_class: str) -> SimpleNamespace:
    """The fields the table macro was given for a cell (what the page builder made of it before)."""
    tip = [t for t in (_counts_text(cell.counts), cell.note or "") if t]
    classes = [f"k-{cell.kind}"] + ([f"s-{cell.style}"] if cell.style else []) + (["noted"] if cell.note else [])
    text = value(cell.value, cell.kind)
    if cell.kind == "text" and len(text) > LONG_TEXT:
        classes.append("long")
    classes.append(column_class)
    return SimpleNamespace(tag="th" if header else "td", text=text,
                           interval=interval(cell.low, cell.high, cell.kind) if cell.has_interval else "",
                           sort=sort_key(cell.value), title="; ".join(tip), cls=" ".join(classes), link=cell.link or "")


CELLS = [
    Cell(0.912, "score", low=0.90, high=0.92, counts={"tp": 12, "fp": 1}, style="best"),
    Cell("A & B <x>", link="#sys-a"),
    Cell("it's \"quoted\" and long enough to wrap in any table at all", note="note: <b> & 'c'"),
    Cell(Markup("<mark>Paris</mark> &amp; Rome")),
    Cell(None, "score", link="page.html?a=1&b=2"),
    Cell(math.nan, "score", low=math.nan, high=0.5, note="n/a because <none>"),
    Cell("<7>", "count"),
    Cell(3, "count", counts={"a&b": 2.5}),
    Cell(True, "text"),
    Cell(-0.0125, "signed", style="down"),
    Cell(2.5, "rank"),
    Cell(0.0004, "p", style="significant"),
]


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("header,column_class", [(False, "num"), (True, "txt")])
def test_a_cell_is_written_as_the_template_wrote_it(cell, header, column_class):
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    expected = env.from_string(OLD).render(c=_as_the_macro_got_it(cell, header, column_class))
    assert _cell_html(cell, header, column_class) == expected
