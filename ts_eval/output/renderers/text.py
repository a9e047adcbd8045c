"""Any page -> terminal tables that never cut a number or a name.

Rich's own answer to a table wider than the console is to squeeze columns and end cells with
an ellipsis; here every table is laid out to fit before rich sees it, in this order:

1. as it is, each interval on the line of its value (``87.84 [86.90–88.70]``);
2. each interval stacked under its value (a cell of two lines);
3. the same, with the prefix common to all row names dropped (:func:`ts_eval.output.page.common_prefix`;
   a line under the title says which prefix);
4. a table of at most :data:`TRANSPOSE_ROWS` rows is transposed (rows become columns) when that fits;
5. the columns are split into blocks that fit, each repeating the table's key columns.

Number columns never wrap; long texts (sentences, notes) wrap at spaces only, headers too.  A
line of prose (titles, notes, messages) is wrapped at spaces by :func:`print_prose` and never
inside a word: a path or a ``file:line`` longer than the width keeps its line whole (the terminal
may fold it on screen; a pipe or a file keeps it whole for ``grep``).
Figures are not drawn: every figure's numbers stand in a table.

Text in colour (a terminal) is drawn by rich.  Without colours (a pipe, a file, ``COLUMNS`` given)
a page whose characters are all one cell wide and whose tables keep their natural width is written
by :class:`_PlainLines`, line for line what rich writes (``tests/test_renderers_plain.py`` holds
the two together), without importing rich; any other page (example sentences, a column rich would
squeeze, wide or control characters) goes through rich.  Sections marked ``detail``
are shown only with ``details=True``.

A table of example sentences (cells whose ``data`` holds ``tokens`` and ``spans``) is shown
as records instead: one line with the short cells (``example 1 · token · Corrections ·
B-ORG → B-LOC · sentence 1``), then each long text and each sentence on its own line under
its column's title.  With colours each side's spans are coloured by label (the same colour
for a label everywhere) and the tokens the example is about are in reverse video; without,
the sentence is the cell's text (spans as ``[tokens]LABEL``, those tokens in ``*stars*``).  A
legend under the title says which (without colours: the table's note, which tells how the text reads).
"""
from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from ...errors import Hint, Spelling, python_spelling, spell
from .. import values as fmt
from ..page import Cell, Column, Figure, Page, Section, Table, Text, common_prefix

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table as RichTable
    from rich.text import Text as RichText

GAP = 3                 # between two columns: padding, the (blank) rule, padding
TRANSPOSE_ROWS = 3
LONG_TEXT = 30          # a record's text cell longer than this gets a line of its own
PALETTE = ("cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan", "bright_magenta")
CLIP = "..."            # a sentence window that does not start or end with the sentence
STYLES = {"best": "bold", "worse": "red", "better": "green", "up": "green", "down": "red", "significant": "bold",
          "muted": "dim", "total": "bold"}
TEXT_STYLES = {"note": "dim", "warning": "yellow", "summary": "bold"}


@dataclass
class Layout:
    """How one table is shown: its (possibly transposed) columns and rows, the column blocks,
    whether intervals are stacked and which prefix was dropped from the row names."""

    table: Table
    stacked: bool
    prefix: str
    blocks: List[List[int]]      # column indices per block (key columns included)


#: code points rich draws one cell wide (checked against rich for every one of them in the tests): the
#: characters of numbers, names and this package's notes (Latin, Greek, Cyrillic, punctuation, arrows,
#: mathematical operators, box drawing)
NARROW = ((0x20, 0x7F), (0xA0, 0x300), (0x370, 0x483), (0x2010, 0x2028), (0x2030, 0x205F), (0x2190, 0x2300),
          (0x2500, 0x2580))


def narrow(s: str) -> bool:
    """Every character of ``s`` is printable and one cell wide (:data:`NARROW`)."""
    if s.isascii():
        return s.isprintable()
    return all(any(a <= ord(c) < b for a, b in NARROW) for c in s)


def cell_len(s: str) -> int:
    """Terminal cells ``s`` takes (rich's measure; without loading rich for narrow text)."""
    if narrow(s):
        return len(s)
    from rich.cells import cell_len as rich_cell_len

    return rich_cell_len(s)


def _words(s: str) -> int:
    return max((cell_len(w) for w in s.split()), default=0)


def _lines(s: str) -> int:
    return max((cell_len(line) for line in s.split("\n")), default=0)


def cell_text(c: Cell, stacked: bool, prefix: str = "") -> str:
    if c.kind == "text" and prefix and isinstance(c.value, str) and c.value.startswith(prefix):
        return c.value[len(prefix):]
    if not c.has_interval:
        return fmt.text(c)
    if stacked:
        return f"{fmt.text(c)}\n{fmt.interval(c.low, c.high, c.kind)}"
    return fmt.inline(c)


def _wraps(t: Table, j: int) -> bool:
    """Text columns outside the key columns may wrap at spaces (names in key columns do not)."""
    return j >= t.key_columns and all(r[j].kind == "text" for r in t.rows)


def column_widths(t: Table, stacked: bool, prefix: str) -> List[int]:
    """The narrowest each column can be without cutting a number or a word."""
    out = []
    for j, col in enumerate(t.columns):
        texts = [cell_text(r[j], stacked, prefix if j < t.key_columns else "") for r in t.rows]
        data = max((_words(s) if _wraps(t, j) else _lines(s) for s in texts), default=0)
        out.append(max(data, _words(col.title), 1))
    return out


def _fits(widths: Sequence[int], width: int) -> bool:
    return sum(widths) + GAP * (len(widths) - 1) <= width


def row_prefix(t: Table) -> str:
    """The prefix common to the names in the first key column (text cells only)."""
    if t.key_columns < 1:
        return ""
    names = [r[0].value for r in t.rows if r[0].kind == "text" and isinstance(r[0].value, str)]
    if len(names) < 2 or len(names) != len(t.rows):
        return ""
    return common_prefix(names)


def transpose(t: Table) -> Table:
    """Rows become columns: one row per non-key column, one column per row (named by its key cells)."""
    names = [" ".join(fmt.text(c) for c in r[:t.key_columns]) for r in t.rows]
    cols = [Column("column", t.columns[0].title if t.key_columns else "")] + \
        [Column(f"r{k}", n) for k, n in enumerate(names)]
    rows = []
    for j, col in enumerate(t.columns[t.key_columns:], t.key_columns):
        title = f"{col.group}: {col.title}" if col.group and col.group not in col.title else col.title
        rows.append([Cell(title)] + [r[j] for r in t.rows])
    return Table(t.id, t.title, cols, rows, key_columns=1, note=t.note, sortable=t.sortable)


def blocks_of(widths: Sequence[int], keys: int, width: int, groups: Optional[Sequence[Optional[str]]] = None
              ) -> List[List[int]]:
    """Greedy column blocks: the key columns, then as many further columns as fit (at least one).
    ``groups`` (a group per column): neighbouring columns of one group stay in one block where the
    group fits a block of its own (a score and its rank)."""
    key_w = sum(widths[:keys]) + GAP * max(keys - 1, 0)
    units: List[List[int]] = []
    for j in range(keys, len(widths)):
        if groups is not None and units and groups[j] is not None and groups[j] == groups[units[-1][-1]]:
            units[-1].append(j)
        else:
            units.append([j])
    fitting: List[List[int]] = []
    for unit in units:
        alone = key_w + sum(widths[j] + (GAP if (keys or k) else 0) for k, j in enumerate(unit))
        fitting += [unit] if alone <= width else [[j] for j in unit]
    out: List[List[int]] = []
    cur: List[int] = []
    used = key_w
    for unit in fitting:
        need = sum(widths[j] for j in unit) + GAP * (len(unit) - 1) + (GAP if (keys or cur) else 0)
        if cur and used + need > width:
            out.append(list(range(keys)) + cur)
            cur, used = [], key_w
            need -= 0 if keys else GAP
        cur += unit
        used += need
    if cur or not out:
        out.append(list(range(keys)) + cur)
    return out


def layout(t: Table, width: int) -> Layout:
    """The first of the steps in the module docstring that fits ``width``."""
    every = [list(range(len(t.columns)))]
    for stacked in (False, True):
        if _fits(column_widths(t, stacked, ""), width):
            return Layout(t, stacked, "", every)
    prefix = row_prefix(t)
    widths = column_widths(t, True, prefix)
    if prefix and _fits(widths, width):
        return Layout(t, True, prefix, every)
    if 0 < len(t.rows) <= TRANSPOSE_ROWS and len(t.columns) - t.key_columns > len(t.rows):
        tt = transpose(t)
        for stacked in (False, True):
            if _fits(column_widths(tt, stacked, ""), width):
                return Layout(tt, stacked, "", [list(range(len(tt.columns)))])
    groups = [c.group for c in t.columns] if t.keep_groups else None
    return Layout(t, True, prefix, blocks_of(widths, t.key_columns, width, groups))


def _header(title: str, w: int) -> str:
    return "\n".join(textwrap.wrap(title, width=max(w, 1), break_long_words=False, break_on_hyphens=False)) or title


class _BlockColumn:
    """How one column of a block is drawn."""

    __slots__ = ("header", "min_width", "numeric", "wraps")

    def __init__(self, header: str, numeric: bool, wraps: bool, min_width: Optional[int]) -> None:
        self.header = header          # the title wrapped to the column's width
        self.numeric = numeric        # right-aligned
        self.wraps = wraps            # long texts wrap at spaces
        self.min_width = min_width    # None: as wide as the texts (a wrapping column)


class _Block:
    """One block of columns of a laid-out table: its columns and, per row, the cell texts, the cell
    styles and the row's style."""

    __slots__ = ("columns", "rows")

    def __init__(self, columns: List[_BlockColumn], rows: List[Tuple[List[str], List[Optional[str]], Optional[str]]]
                 ) -> None:
        self.columns = columns
        self.rows = rows


def _blocks(lay: Layout) -> List[_Block]:
    """What each column block of ``lay`` shows: the one description both writers draw."""
    tt = lay.table
    widths = column_widths(tt, lay.stacked, lay.prefix)
    out = []
    for cols in lay.blocks:
        columns = []
        for j in cols:
            wraps = _wraps(tt, j)
            numeric = not wraps and j >= tt.key_columns and any(r[j].kind != "text" for r in tt.rows)
            columns.append(_BlockColumn(_header(tt.columns[j].title, widths[j]), numeric, wraps,
                                        None if wraps else widths[j]))
        rows = []
        for k, r in enumerate(tt.rows):
            texts = [cell_text(r[j], lay.stacked, lay.prefix if j < tt.key_columns else "") for j in cols]
            rows.append((texts, [r[j].style for j in cols], tt.row_styles[k] if k < len(tt.row_styles) else None))
        out.append(_Block(columns, rows))
    return out


class _NotPlain(Exception):
    """The page needs rich to be drawn as rich draws it (see :class:`_PlainLines`)."""


class _Writer:
    """Where a page is drawn: rich's console (:class:`_RichConsole`) or plain lines (:class:`_PlainLines`)."""

    width: int
    color: bool = False

    def prose(self, text: str, style: str = "") -> None:
        raise NotImplementedError

    def table(self, lay: Layout) -> None:
        raise NotImplementedError

    def records(self, t: Table, title: bool) -> None:
        raise NotImplementedError

    def blank(self) -> None:
        raise NotImplementedError


def wrapped(text: str, width: int) -> List[str]:
    """``text``'s lines wrapped at spaces to ``width``, never inside a word."""
    return [w for line in text.split("\n") for w in
            (textwrap.wrap(line, width=max(width, 1), break_long_words=False, break_on_hyphens=False) or [""])]


class _RichConsole(_Writer):
    def __init__(self, console: Console) -> None:
        self.console = console
        self.width = console.width
        self.color = console.color_system is not None and not console.no_color

    def prose(self, text: str, style: str = "") -> None:
        # rich's own wrapping folds a word longer than the width, which would split a path mid-value
        from rich.text import Text as RichText

        self.console.print(RichText("\n".join(wrapped(text, self.width)), style=style), no_wrap=True,
                           overflow="ignore", crop=False)

    def table(self, lay: Layout) -> None:
        for rt in _rich(lay):
            self.console.print(rt)

    def records(self, t: Table, title: bool) -> None:
        print_records(self.console, t, self.color, title)

    def blank(self) -> None:
        self.console.print()


def _rich(lay: Layout) -> List[RichTable]:
    """One rich table per column block of ``lay``."""
    from rich import box
    from rich.table import Table as RichTable
    from rich.text import Text as RichText

    out = []
    for block in _blocks(lay):
        rt = RichTable(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
        for col in block.columns:
            rt.add_column(col.header, justify="right" if col.numeric else "left", no_wrap=not col.wraps,
                          overflow="fold", min_width=col.min_width)
        for texts, styles, style in block.rows:
            rt.add_row(*[RichText(s, style=STYLES.get(c or "", "")) for s, c in zip(texts, styles)],
                       style=STYLES.get(style or ""))
        out.append(rt)
    return out


class _PlainLines(_Writer):
    """The lines rich writes without colours, for pages it draws without choices of its own: every
    character one cell wide (:func:`narrow`), no cell text with spaces at its ends, and every table
    at its natural width (each column as wide as its widest line, at least its minimum) within the
    width, so that rich would neither squeeze nor wrap a column.  Anything else raises
    :class:`_NotPlain`.  A table is rich's ``SIMPLE_HEAD`` box without edges: the header row
    bottom-aligned, a rule of ``─``, the rows top-aligned, every cell padded to its column's width
    (numbers on the right), the columns :data:`GAP` apart."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: List[str] = []

    def prose(self, text: str, style: str = "") -> None:
        lines = wrapped(text, self.width)
        if not all(narrow(line) for line in lines):
            raise _NotPlain
        self.lines.extend(lines)

    def table(self, lay: Layout) -> None:
        for block in _blocks(lay):
            self._block(block)

    def _block(self, block: _Block) -> None:
        heads = [col.header.split("\n") for col in block.columns]
        rows = [[s.split("\n") for s in texts] for texts, _, _ in block.rows]
        widths = []
        for j, col in enumerate(block.columns):
            lines = heads[j] + [line for r in rows for line in r[j]]
            if not all(narrow(line) and line == line.strip() for line in lines):
                raise _NotPlain
            widths.append(max(max(len(line) for line in lines), col.min_width or 0))
        if not block.columns or min(widths) < 1 or sum(widths) + GAP * (len(widths) - 1) > self.width:
            raise _NotPlain
        sep = " " * GAP

        def put(cells: List[List[str]], bottom: bool) -> None:
            height = max(len(c) for c in cells)
            shaped = [([""] * (height - len(c)) + c) if bottom else (c + [""] * (height - len(c))) for c in cells]
            for k in range(height):
                self.lines.append(sep.join(
                    cell[k].rjust(w) if col.numeric else cell[k].ljust(w)
                    for cell, w, col in zip(shaped, widths, block.columns)))

        put(heads, bottom=True)
        self.lines.append("─" * (sum(widths) + GAP * (len(widths) - 1)))
        for r in rows:
            put(r, bottom=False)

    def records(self, t: Table, title: bool) -> None:
        raise _NotPlain

    def blank(self) -> None:
        self.lines.append("")

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


def print_prose(console: Console, text: str, style: str = "") -> None:
    """``text`` wrapped at spaces to the console's width, each of its own lines apart, never inside a
    word (rich's wrapping folds a word longer than the width, which would split a path mid-value)."""
    _RichConsole(console).prose(text, style)


def print_table(out: _Writer, t: Table, title: bool = True) -> None:
    lay = layout(t, out.width)
    if title:
        out.prose(t.title, "bold")
    notes = []
    if lay.prefix:
        notes.append(f"names without their common prefix {lay.prefix!r}")
    if lay.table is not t:
        notes.append("transposed to fit the width")
    if len(lay.blocks) > 1:
        notes.append(f"in {len(lay.blocks)} blocks of columns, each repeating the first "
                     f"{'column' if t.key_columns == 1 else f'{t.key_columns} columns'}")
    if notes:
        out.prose("(" + "; ".join(notes) + ")", "dim")
    out.table(lay)
    if t.note:
        out.prose(t.note, "dim")
    out.blank()


def is_sentence(c: Cell) -> bool:
    return c.data is not None and "tokens" in c.data and "spans" in c.data


def styled_sentence(data: Dict[str, Any], colours: Dict[str, str]) -> RichText:
    """One side's sentence: each span's brackets and tokens in its label's colour, the label after
    the closing bracket, the example's own tokens in reverse video."""
    opens: Dict[int, List[str]] = {}
    closes: Dict[int, List[str]] = {}
    inside: List[List[str]] = [[] for _ in data["tokens"]]
    for lab, start, end in data["spans"]:          # end exclusive
        opens.setdefault(start, []).append(lab)
        closes.setdefault(end - 1, []).append(lab)
        for i in range(start, end):
            inside[i].append(lab)
    from rich.text import Text as RichText

    focus = set(data.get("focus") or [])
    out = RichText()
    if data.get("clipped_left"):
        out.append(CLIP + " ", style="dim")
    for i, tok in enumerate(data["tokens"]):
        if i:
            out.append(" ")
        for lab in opens.get(i, []):
            out.append("[", style=f"bold {colours[lab]}")
        style = colours[inside[i][-1]] if inside[i] else ""
        out.append(str(tok), style=(style + " reverse bold").strip() if i in focus else style or None)
        for lab in closes.get(i, []):
            out.append("]", style=f"bold {colours[lab]}")
            out.append(lab, style=f"dim {colours[lab]}")
    if data.get("clipped_right"):
        out.append(" " + CLIP, style="dim")
    return out


#: the legend of example sentences drawn in colour (without colours the table's note, which says
#: how their text reads, stands in its place)
COLOUR_LEGEND = ("each side's spans in their label's colour, [bracketed] with the label after them; the tokens "
                 f"the example is about in reverse video; {CLIP} where the window cuts the sentence")


def print_records(console: Console, t: Table, color: bool, title: bool = True) -> None:
    """A table of example sentences, one record per row (see the module docstring), under a legend
    of how the sentences are drawn."""
    from rich.table import Table as RichTable
    from rich.text import Text as RichText

    if title:
        print_prose(console, t.title, "bold")
    legend = COLOUR_LEGEND if color else t.note
    if legend:
        print_prose(console, legend, "dim")
    labels = sorted({span[0] for r in t.rows for c in r if c.data is not None and is_sentence(c)
                     for span in c.data["spans"]})
    colours = {lab: PALETTE[k % len(PALETTE)] for k, lab in enumerate(labels)}
    own_line = [any(is_sentence(r[j]) or (r[j].kind == "text" and len(fmt.text(r[j])) > LONG_TEXT) for r in t.rows)
                for j in range(len(t.columns))]
    for r in t.rows:
        head = [fmt.text(c) if c.kind == "text" else f"{col.title} {fmt.text(c)}"
                for col, c, own in zip(t.columns, r, own_line) if not own and fmt.text(c)]
        print_prose(console, " · ".join(head), "bold")
        grid = RichTable.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True, style="bold")
        grid.add_column(overflow="fold")
        for col, c, own in zip(t.columns, r, own_line):
            if own:
                text = (styled_sentence(c.data, colours) if color and c.data is not None and is_sentence(c)
                        else RichText(fmt.text(c)))
                grid.add_row(col.title, text)
        console.print(grid)
    console.print()


def print_page(page: Page, out: _Writer, details: bool = False, spelling: Spelling = python_spelling) -> None:
    """The page on ``out``, detail sections only with ``details`` (the line that says how to show them
    names the option as ``spelling`` writes it)."""
    hidden = [s.title for s in page.sections if s.detail and not details]
    for sec in page.sections:
        if (sec.detail and not details) or all(isinstance(b, Figure) for b in sec.blocks):
            continue             # a section of figures alone: their numbers stand in tables elsewhere
        print_section(out, sec)
    if hidden:
        out.prose(spell([f"{len(hidden)} more section(s) with ", Hint("details", True),
                         " (every machine format has them): " + "; ".join(hidden)], spelling), "dim")


def print_section(out: _Writer, sec: Section) -> None:
    first = sec.blocks[0] if sec.blocks else None
    headed = not (isinstance(first, Table) and first.title.startswith(sec.title))
    if headed:
        out.prose(sec.title, "bold underline")
    for b in sec.blocks:
        title = not (headed and isinstance(b, Table) and b.title == sec.title)   # said once
        if isinstance(b, Table) and any(is_sentence(c) for r in b.rows for c in r):
            out.records(b, title)
        elif isinstance(b, Table):
            print_table(out, b, title)
        elif isinstance(b, Text):
            out.prose(b.text, TEXT_STYLES.get(b.style or "", ""))
        elif isinstance(b, Figure):
            continue


def render(page: Page, *, width: Optional[int] = None, details: bool = False, color: bool = False,
           spell: Spelling = python_spelling, plain: bool = True) -> str:
    """The page as terminal text ``width`` columns wide (default: the terminal's width);
    ``color``: keep ANSI colours and bold (for a terminal); ``spell``: how the line about the detail
    sections names the option that shows them (``details=True``; the command line: ``--details``).
    ``plain`` False: always through rich (the tests compare the two ways)."""
    if plain and width and not color:
        lines = _PlainLines(width)
        try:
            print_page(page, lines, details, spell)
            return lines.text()
        except _NotPlain:
            pass
    from rich.console import Console

    buf = io.StringIO()
    width = width or Console().width
    console = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                      color_system="standard" if color else None, highlight=False, emoji=False)
    print_page(page, _RichConsole(console), details, spell)
    return buf.getvalue()
