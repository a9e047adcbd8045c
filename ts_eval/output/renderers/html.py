"""Any :class:`~ts_eval.output.page.Page` as one self-contained HTML page.

The page carries its CSS, its SVG figures and a few lines of script inline: it opens from a
file with no network (no CDN, no web font), prints on paper (print CSS: no scroll boxes,
collapsed boxes opened) and reads on a phone (a wide table or figure scrolls sideways inside
its own box; no number is ever cut).  Tables are sortable by clicking a column header (each
cell has its raw value in ``data-sort``); without script the page is complete, only unsorted.
A table wider than the text column first wraps its column titles at their spaces (and, in a row
named by two or more names, the names at - and spaces; a name longer than :data:`LONG_TEXT` wraps
in any table), then grows into the window's margins, and when it still scrolls its name columns
stay in view.  A table of example sentences is shown as records, as in the
terminal: a line of its short cells, then its sentences side by side (stacked on a phone).
Every element id is used once (:class:`Ids`); a block's heading leaves out what repeats its
section's heading (:func:`heading`).

Jinja2 templates in ``ts_eval/templates/`` lay the page out with autoescaping on, so a system
named ``<b>&"`` is shown as written; the figures are SVG drawn in :mod:`.svg`.
"""
from __future__ import annotations

import math
import re
import shlex
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from markupsafe import Markup, escape

from ...version import __version__
from ..page import Block, Cell, Figure, Page, Section, Table, Text
from ..values import interval as format_interval
from ..values import value as format_value
from .svg import figure_svg

if TYPE_CHECKING:   # jinja2 is imported when a page is rendered
    import jinja2

COMMAND_KEYS = ("command", "command_line", "argv")
FRAGMENT_SCOPE = ".ts-eval"   # the class of the fragment's outer div, which its CSS is scoped to
LONG_TEXT = 40      # characters: a longer text cell (not a name) wraps instead of widening its table


@lru_cache(maxsize=1)
def _loader() -> jinja2.PackageLoader:
    import jinja2

    return jinja2.PackageLoader("ts_eval", "templates")


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(loader=_loader(),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True,
                              undefined=jinja2.StrictUndefined)


def sort_key(value: Any) -> str:
    """The raw value as the page's script sorts it: a number as its repr, text as is, '' when
    missing or undefined (sorted last)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    return "" if math.isnan(v) else repr(v)


def _counts_text(counts: Optional[Dict[str, float]]) -> str:
    if not counts:
        return ""
    return " · ".join(f"{k} {format_value(v, 'count')}" for k, v in counts.items())


def sentence(data: Dict[str, Any]) -> Markup:
    """An example sentence with one side's spans highlighted: each span a ``<mark>`` with its
    label after its tokens, the tokens that changed in bold; nested spans nest (a span crossing
    its parent's end is cut there); '…' where the sentence goes on."""
    tokens = [str(t) for t in data.get("tokens", [])]
    # (start, last token, label): the spans' ends are exclusive
    spans = sorted(((int(b), int(e) - 1, str(lab)) for lab, b, e in data.get("spans", [])), key=lambda s: (s[0], -s[1]))
    focus = set(data.get("focus") or [])
    out = ['<span class="clip">…</span> '] if data.get("clipped_left") else []
    stack: List[Tuple[int, str]] = []          # (last token, label) of the open spans
    k = 0
    for i, tok in enumerate(tokens):
        while k < len(spans) and spans[k][0] <= i:
            _, e, lab = spans[k]
            k += 1
            if e >= i:
                stack.append((min([e] + [x for x, _ in stack[-1:]]), lab))
                out.append(f'<mark class="span" data-label="{escape(lab)}">')
        word = escape(tok)
        out.append(f'<b class="focus">{word}</b>' if i in focus else str(word))
        while stack and stack[-1][0] == i:
            out.append(f'<sub class="label">{escape(stack.pop()[1])}</sub></mark>')
        out.append(" ")
    while stack:
        out.append(f'<sub class="label">{escape(stack.pop()[1])}</sub></mark>')
    if data.get("clipped_right"):
        out.append('<span class="clip">…</span>')
    return Markup("".join(out).rstrip())


_SPECIAL = re.compile(r"[&<>'\"]")


def _esc(x: Any) -> str:
    """``x`` as the template's ``{{ x }}`` writes it (markupsafe's escape), without a Markup made for the
    plain strings most cells are."""
    if hasattr(x, "__html__"):
        return str(x.__html__())
    s = x if type(x) is str else str(x)
    return str(escape(s)) if _SPECIAL.search(s) else s


def _cell_html(cell: Cell, header: bool, column_class: str) -> str:
    """One cell as the table macro wrote it (``<td class=... data-sort=...>text</td>``), written in Python (a
    page may have tens of thousands): a number's text, interval and sort key need no escaping."""
    value, kind = cell.value, cell.kind
    text = format_value(value, kind)
    plain = isinstance(value, (int, float)) or value is None       # its text and sort key: digits and signs
    counts, note = _counts_text(cell.counts), cell.note or ""
    title = counts + "; " + note if counts and note else counts or note
    cls = "k-" + kind + (" s-" + cell.style if cell.style else "") + (" noted" if note else "") + \
        (" long" if kind == "text" and len(text) > LONG_TEXT else "") + " " + column_class
    tag = "th" if header else "td"
    sort = sort_key(value)
    return ("<" + tag + (' scope="row"' if header else "") + ' class="' + cls + '" data-sort="'
            + (sort if plain else _esc(sort)) + '"' + (' title="' + _esc(title) + '"' if title else "") + ">"
            + ('<a href="' + _esc(cell.link) + '">' + _esc(text) + "</a>" if cell.link else
               text if plain else _esc(text))
            + ('<span class="iv">' + format_interval(cell.low, cell.high, kind) + "</span>" if cell.has_interval
               else "")
            + "</" + tag + ">")


class Ids:
    """The element ids of one page, each once: a wanted id already taken gets ``-2``, ``-3``, ...
    (a section and its first table, or two tables of one page, may share an id)."""

    def __init__(self) -> None:
        self.taken: Set[str] = set()

    def __call__(self, wanted: str) -> str:
        out, k = wanted, 1
        while out in self.taken:
            k += 1
            out = f"{wanted}-{k}"
        self.taken.add(out)
        return out


def heading(title: str, section: str) -> str:
    """A block's title as its heading under the section heading ``section``: what repeats the
    section's title is left out (``Systems (token accuracy ...)`` under *Systems* is headed
    ``token accuracy ...``; a title equal to the section's gets no heading of its own)."""
    if not section or not title.startswith(section) or title[len(section):][:1].isalnum():
        return title
    rest = title[len(section):].strip()
    rest = rest[1:].strip() if rest.startswith(":") else rest
    if rest.startswith("(") and rest.endswith(")") and rest.count("(") == 1:
        rest = rest[1:-1]
    return rest


def column_title(title: str) -> Markup:
    """A column's title, which may wrap at its spaces only: a word with a hyphen (``Seg-F1µ``,
    ``multi-class``) is kept whole."""
    return Markup(" ").join(Markup('<span class="word">{}</span>').format(w) if "-" in w else escape(w)
                            for w in title.split(" "))


def _table(t: Table, ids: Optional[Ids] = None, section: str = "") -> Dict[str, Any]:
    numeric = [any(row[j].kind != "text" for row in t.rows) for j in range(len(t.columns))]
    col_class = ["num" if n else "txt" for n in numeric]
    groups: Optional[List[Dict[str, Any]]] = None
    if any(c.group for c in t.columns):
        groups = []
        for c in t.columns:
            if groups and groups[-1]["title"] == (c.group or ""):
                groups[-1]["span"] += 1
            else:
                groups.append({"title": c.group or "", "span": 1})
    rows = []
    for k, row in enumerate(t.rows):
        style = t.row_styles[k] if k < len(t.row_styles) else None
        rows.append({"class": f"r-{style}" if style else "",
                     "html": Markup("".join(_cell_html(c, j < t.key_columns, col_class[j])
                                            for j, c in enumerate(row)))})
    names = sum(col_class[j] == "txt" for j in range(min(t.key_columns, len(t.columns)))) > 1
    return {
        "type": "table", "id": t.id, "anchor": (ids or Ids())(f"table-{t.id}"), "title": t.title,
        "heading": heading(t.title, section), "note": t.note, "sortable": t.sortable and len(t.rows) > 1,
        "names": names,
        "groups": groups, "rows": rows,
        "columns": [{"key": c.key, "title": column_title(c.title), "class": col_class[j]}
                    for j, c in enumerate(t.columns)],
    }


def _is_sentence(c: Cell) -> bool:
    return c.data is not None and "tokens" in c.data and "spans" in c.data


def _sentence_or_text(c: Cell) -> str:
    return sentence(c.data) if c.data is not None and _is_sentence(c) else format_value(c.value, c.kind)


#: how the page draws example sentences (the table's note says how their text reads elsewhere), each
#: part only where the table's sentences have it: sides with roles, tokens in focus, cut windows
RECORDS_LEGEND = (
    'Spans are <mark class="span">shaded<sub class="label">LABEL</sub></mark> with their label after them',
    ' (gold and each system in their own shade)',
    '; the tokens the example is about are <b class="focus">bold and underlined</b>',
    '; <span class="clip">…</span> where the window cuts the sentence')


def records_legend(data: List[Dict[str, Any]]) -> Markup:
    """The legend of sentences drawn from ``data`` (their cells' data): what the page marks in them."""
    base, roles, focus, clip = RECORDS_LEGEND
    has = (any(d.get("role") for d in data), any(d.get("focus") for d in data),
           any(d.get("clipped_left") or d.get("clipped_right") for d in data))
    return Markup(base + "".join(part for part, here in zip((roles, focus, clip), has) if here) + ".")


def _records(t: Table, ids: Ids, section: str) -> Dict[str, Any]:
    """A table of example sentences as records, as the terminal shows it: per row a line of its
    short cells (``example 1 · token · Corrections · O → B-PER · sentence 3 · line 43``), its long
    texts under their column's title, and its sentences side by side (stacked on a phone)."""
    sides = [j for j in range(len(t.columns)) if any(_is_sentence(r[j]) for r in t.rows)]
    long = [j for j in range(len(t.columns)) if j not in sides and
            any(c.kind == "text" and len(format_value(c.value, c.kind)) > LONG_TEXT for c in (r[j] for r in t.rows))]
    rows = []
    for r in t.rows:
        head = [format_value(c.value, c.kind) if c.kind == "text"
                else f"{t.columns[j].title} {format_value(c.value, c.kind)}"
                for j, c in enumerate(r) if j not in sides and j not in long and format_value(c.value, c.kind)]
        rows.append({"head": " · ".join(head),
                     "texts": [(t.columns[j].title, format_value(r[j].value, "text")) for j in long if r[j].value],
                     "sides": [{"title": t.columns[j].title, "role": (r[j].data or {}).get("role", ""),
                                "text": _sentence_or_text(r[j])}
                               for j in sides]})
    drawn = [d for r in t.rows for j in sides for d in [r[j].data] if d is not None and _is_sentence(r[j])]
    return {"type": "records", "id": t.id, "anchor": ids(f"table-{t.id}"), "title": t.title,
            "heading": heading(t.title, section), "legend": records_legend(drawn), "sides": len(sides),
            "rows": rows}


def _block(b: Block, ids: Ids, section: str) -> Dict[str, Any]:
    if isinstance(b, Table) and any(_is_sentence(c) for r in b.rows for c in r):
        return _records(b, ids, section)
    if isinstance(b, Table):
        return _table(b, ids, section)
    if isinstance(b, Figure):
        ids(f"fig-{b.id}")                      # the id of the <svg> itself
        return {"type": "figure", "id": b.id, "anchor": ids(f"figure-{b.id}"), "title": b.title,
                "heading": heading(b.title, section), "note": b.note, "kind": b.kind,
                "svg": figure_svg(b)}
    if isinstance(b, Text):
        return {"type": "text", "text": b.text, "style": b.style or "", "link": b.link or ""}
    raise TypeError(f"cannot render a block of type {type(b).__name__} as HTML")


def _blocks(blocks: List[Block], ids: Ids, section: str = "") -> List[Dict[str, Any]]:
    """The section's blocks in order, except that a table followed by a heatmap of the same title
    (a matrix drawn as a figure) comes after the figure, folded: the figure is what one reads, the
    table has the same numbers for copying (and opens when printed)."""
    out: List[Dict[str, Any]] = []
    k = 0
    while k < len(blocks):
        b, nxt = blocks[k], blocks[k + 1] if k + 1 < len(blocks) else None
        if isinstance(b, Table) and isinstance(nxt, Figure) and nxt.kind == "heatmap" and nxt.title == b.title:
            out += [_block(nxt, ids, section), {"type": "folded", "table": _table(b, ids)}]
            k += 2
        else:
            out.append(_block(b, ids, section))
            k += 1
    return out


def _section(s: Section, k: int, ids: Ids) -> Dict[str, Any]:
    return {"title": s.title, "id": ids(s.id or f"section-{k + 1}"), "detail": s.detail,
            "blocks": _blocks(s.blocks, ids, s.title)}


def _command(meta: Dict[str, Any]) -> str:
    for key in COMMAND_KEYS:
        value = meta.get(key)
        if value:
            return value if isinstance(value, str) else shlex.join(str(a) for a in value)
    return ""


def _scope_rules(css: str, scope: str) -> str:
    """Every selector of ``css`` (rules and @media blocks) limited to ``scope``; ``:root``, ``html``
    and ``body`` become the scope itself; rules for the sorting script (``html.js``) are left out."""
    out: List[str] = []
    k = 0
    while True:
        brace = css.find("{", k)
        if brace < 0:
            return "".join(out)
        prelude = css[k:brace].strip()
        depth, end = 1, brace + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        body = css[brace + 1:end - 1]
        if prelude.startswith("@media"):
            out.append(f"{prelude} {{\n{_scope_rules(body, scope)}}}\n")
        elif prelude.startswith("@"):
            out.append(f"{prelude} {{{body}}}\n")
        else:
            selectors = []
            for sel in (s.strip() for s in prelude.split(",")):
                if sel.startswith("html.js"):
                    continue
                head = re.match(r"(:root|html|body)(?![\w-])", sel)
                selectors.append(scope + sel[head.end():] if head else f"{scope} {sel}")
            if selectors:
                out.append(f"{', '.join(selectors)} {{{body}}}\n")
        k = end


@lru_cache(maxsize=4)
def scoped_css(scope: str = FRAGMENT_SCOPE) -> str:
    """The page's stylesheet with every rule limited to elements inside ``scope`` (a notebook's
    own styles stay untouched)."""
    css = _loader().get_source(_environment(), "style.css")[0]
    return _scope_rules(re.sub(r"/\*.*?\*/", "", css, flags=re.S), scope)


def render(page: Page, *, open_details: bool = False, fragment: bool = False) -> str:
    """The whole HTML page of ``page``; ``open_details``: show the sections marked as detail
    (per-model intervals, p-values, ...) expanded rather than folded.

    ``fragment``: not a page but one ``<div class="ts-eval">`` with the same content and its CSS
    inline, every rule scoped to that div, and no script (tables unsorted) -- what a Jupyter
    notebook shows for a result (``_repr_html_``) or what one pastes into another page."""
    ids = Ids()
    ids("meta")                                 # the settings at the foot of the page
    sections = [_section(s, k, ids) for k, s in enumerate(page.sections)]
    meta = {k: v for k, v in page.meta.items() if k not in COMMAND_KEYS}
    extra = {"base": "fragment.html", "scoped_css": Markup(scoped_css())} if fragment else {}
    return _environment().get_template("page.html").render(
        page=page, sections=sections, meta=meta, command=_command(page.meta), open_details=open_details,
        version=__version__, **extra)
