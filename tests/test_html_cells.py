"""A table cell written in Python (issue 32.4: the 28-system analyze page has 55,000) is what the table macro's
Jinja loop wrote, byte for byte: escaping of text, titles, links and intervals, Markup kept as it is."""
from __future__ import annotations

import jinja2
import pytest
from markupsafe import Markup

from ts_eval.output.renderers.html import HtmlCell, _cell_html

OLD = ('<{{ c.tag }}{% if c.tag == "th" %} scope="row"{% endif %} class="{{ c.cls }}" data-sort="{{ c.sort }}"'
       '{% if c.title %} title="{{ c.title }}"{% endif %}>{% if c.link %}<a href="{{ c.link }}">{{ c.text }}</a>'
       '{% else %}{{ c.text }}{% endif %}{% if c.interval %}<span class="iv">{{ c.interval }}</span>{% endif %}'
       '</{{ c.tag }}>')

CELLS = [
    HtmlCell("td", "0.912", "[0.90, 0.92]", "0.912", "12 of 13", "k-f s-best num", ""),
    HtmlCell("th", "A & B <x>", "", "a & b", "", "k-text txt", "#sys-a"),
    HtmlCell("td", "it's \"quoted\"", "", "'q'", "note: <b> & 'c'", "k-text long txt", ""),
    HtmlCell("td", Markup("<mark>Paris</mark> &amp; Rome"), "", "", "", "k-text txt", ""),
    HtmlCell("td", "–", "", "", "", "k-f num", "page.html?a=1&b=2"),
]


@pytest.mark.parametrize("cell", CELLS)
def test_a_cell_is_written_as_the_template_wrote_it(cell):
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    assert _cell_html(cell) == env.from_string(OLD).render(c=cell)
