"""The neutral page every output format renders (DESIGN: results -> page -> renderers).

A result (score report, fair report, ranking, comparison, GermEval report) is turned into a
:class:`Page` once, by its builder; each output format (terminal table, CSV, Markdown,
LaTeX, HTML) is one renderer that renders *any* page.  A page holds no numbers that
the result does not hold: a builder only selects, orders and labels them; renderers only
format them (a renderer never computes a score).

- :class:`Cell`: one value with how to show it (``kind``), its interval, the counts behind
  it and a style hint.  Renderers format the value by its kind (a ``score`` is a fraction
  shown as a percentage with two decimals in text formats, a ``count`` an integer, ...).
- :class:`Table`: a titled grid; the first ``key_columns`` columns name the row (system,
  label) and are repeated when a renderer splits a wide table into column blocks.
- :class:`Figure`: a chart specification (bump chart, heatmap, bars, stacked bars, interval
  bars) that graphical renderers draw and text renderers may skip, because every figure's
  numbers also stand in a table.
- :class:`Text`: a paragraph or a note.
- :class:`Section` groups blocks under a heading; :class:`Page` is the whole page with
  ``meta`` (settings, versions, seed, the command line that reproduces it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

# how a renderer shows Cell.value
KINDS = (
    "text",    # a string, shown as is (names, labels)
    "score",   # a fraction in [0, 1] (P, R, F, accuracy), shown as a percentage
    "percent", # a number already in percent (a reference scorer's own figures), shown with 2 decimals
    "signed",  # a difference of scores (fraction), shown as a signed percentage
    "count",   # an integer or a weighted count
    "rank",    # a rank (1 = best; .5 for ties)
    "corr",    # a correlation coefficient in [-1, 1] (Spearman, Kendall, kappa shown as is)
    "p",       # a p-value
    "number",  # any other real number
)

# style hints (renderers map them to colours or marks; a renderer may ignore any)
STYLES = ("best", "worse", "better", "up", "down", "significant", "muted", "total")

FIGURE_KINDS = ("bump", "heatmap", "bars", "stacked_bars", "intervals", "grouped_bars", "slope")


@dataclass
class Cell:
    """One value of a table, with everything a renderer may show beside it."""

    value: Any
    kind: str = "text"
    low: Optional[float] = None           # interval (same unit as value)
    high: Optional[float] = None
    counts: Optional[Dict[str, float]] = None   # the counts behind a score (tp, fp, fn, gold, system, ...)
    style: Optional[str] = None           # one of STYLES
    note: Optional[str] = None            # a short remark (e.g. "tied", "n/a because ...")
    data: Optional[Dict[str, Any]] = None  # structured payload for graphical renderers (an example
    #                                        sentence: tokens, spans per side, focus); text shows ``value``
    link: Optional[str] = None            # a relative address the HTML page links the value to (a page of a site)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"cell kind {self.kind!r}: expected one of {', '.join(KINDS)}")
        if self.style is not None and self.style not in STYLES:
            raise ValueError(f"cell style {self.style!r}: expected one of {', '.join(STYLES)}")

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None


@dataclass
class Column:
    """A column: a stable key (CSV header, HTML sort key), a title, and an optional group
    (a spanning header such as "token & separator")."""

    key: str
    title: str
    group: Optional[str] = None


@dataclass
class Table:
    """A titled grid of cells; the first ``key_columns`` columns name the row."""

    id: str                                # stable, unique within the page (CSV, HTML anchors)
    title: str
    columns: List[Column]
    rows: List[List[Cell]]
    key_columns: int = 1                   # leading columns that name the row (repeated in column blocks)
    note: str = ""
    sortable: bool = True
    row_styles: List[Optional[str]] = field(default_factory=list)   # per row (e.g. "total")
    # per row, a stable name for machine formats (CSV's ``row``; e.g. a model's name where the key cell
    # shows its title); empty: the key cells as shown
    row_keys: List[str] = field(default_factory=list)
    # a text renderer that splits the columns into blocks keeps neighbouring columns of one group in one
    # block (where the group fits one): a score beside its rank
    keep_groups: bool = False

    def __post_init__(self) -> None:
        for k, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.id!r} row {k} has {len(row)} cells for {len(self.columns)} columns")
        if self.row_keys and len(self.row_keys) != len(self.rows):
            raise ValueError(f"table {self.id!r} has {len(self.row_keys)} row keys for {len(self.rows)} rows")


@dataclass
class Figure:
    """A chart specification; ``data`` depends on ``kind``:

    - ``bump``: {"models": [titles], "systems": [names], "ranks": [[rank per model] per system]}
    - ``heatmap``: {"rows": [names], "columns": [names], "values": [[v]], "low": [[v]] | None,
      "high": [[v]] | None, "kind": a cell kind, "range": [min, max]}
    - ``bars``: {"labels": [names], "values": [v], "kind": a cell kind}
    - ``stacked_bars``: {"labels": [names], "parts": [part names], "values": [[v per part] per label]}
    - ``intervals``: {"labels": [names], "values": [v], "low": [v], "high": [v], "kind": a cell
      kind, "groups": [group per label] | None}, and optionally "runs": [[v per run] per label] with
      "run_names": [[name per run] per label]: a strip of one dot per run under each interval
    - ``grouped_bars``: {"groups": [names], "series": [names], "values": [[v per series] per group],
      "low": [[v]] | None, "high": [[v]] | None, "kind": a cell kind}: one bar per series in each
      group, one colour per series, the interval as a whisker
    - ``slope``: {"references": [names], "systems": [names], "values": [[v per reference] per system],
      "ranks": [[rank per reference] per system], "kind": a cell kind}: one line per system through its
      value under each reference, left to right
    """

    id: str
    title: str
    kind: str
    data: Dict[str, Any]
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FIGURE_KINDS:
            raise ValueError(f"figure kind {self.kind!r}: expected one of {', '.join(FIGURE_KINDS)}")


@dataclass
class Text:
    """A paragraph or a note."""

    text: str
    style: Optional[str] = None            # "note", "warning", "summary"
    link: Optional[str] = None             # a relative address the HTML page links the text to


Block = Union[Table, Figure, Text]


@dataclass
class Section:
    """Blocks under a heading."""

    title: str
    blocks: List[Block] = field(default_factory=list)
    id: str = ""
    detail: bool = False                   # True: shown by text renderers only on request (--details)
    group: str = ""                        # the part of the page it belongs to (a task of several);
    #                                        machine formats write it in a column named by meta["group_by"]


@dataclass
class Page:
    """The whole page: its sections and ``meta``."""

    kind: str                              # score, fair, rank, compare, germeval
    title: str
    sections: List[Section] = field(default_factory=list)
    meta: Dict[str, Any] = field(default_factory=dict)   # settings, versions, seed, command line

    def tables(self) -> List[Table]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Table)]

    def figures(self) -> List[Figure]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Figure)]

    def table(self, id: str) -> Table:
        for t in self.tables():
            if t.id == id:
                return t
        raise KeyError(id)


def common_prefix(names: Sequence[str]) -> str:
    """The prefix all ``names`` share, cut back to a separator (-, _, ., /, space) so that no
    name loses part of a word; '' when fewer than two names or when a name would become empty."""
    names = list(names)
    if len(names) < 2:
        return ""
    first, last = min(names), max(names)
    k = 0
    while k < min(len(first), len(last)) and first[k] == last[k]:
        k += 1
    prefix = first[:k]
    cut = max(prefix.rfind(c) for c in "-_./ ") + 1
    prefix = prefix[:cut]
    if any(len(n) <= len(prefix) for n in names):
        return ""
    return prefix
