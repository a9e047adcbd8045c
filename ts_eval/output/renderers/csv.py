"""Any page -> CSV, in long form: one line per cell,

    table,row,column,value,low,high,kind

``table`` is the table's id, ``row`` the row's name (the table's row key where it has one, e.g. a
model's name where the table shows its title; else its key cells as the tables show them, joined
by ``/``), ``column`` the column's key; ``value``, ``low`` and ``high`` are the raw numbers (scores as
fractions, not percentages; full precision), ``kind`` says how they are meant (score, count,
rank, corr, p, percent, text ...).  Long form fits every table of a page in one file
and loses nothing; a spreadsheet pivots it back to wide.  Every section is written, detail
sections included; figures are not (their numbers are in the tables).  A page in parts (a
ranking of several tasks) has a first column more, named by ``meta["group_by"]`` (``task``): the
part each line belongs to, empty for what belongs to none (the mean over the tasks).
"""
from __future__ import annotations

import csv
import io
import math
from typing import Any, Iterator

from .. import values as fmt
from ..page import Page, Table

HEADER = ("table", "row", "column", "value", "low", "high", "kind")


def raw(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):        # (numpy's float64 too: its repr is np.float64(...) since numpy 2)
        return "" if math.isnan(v) else repr(float(v))
    if type(v).__module__ == "numpy" and hasattr(v, "item"):     # a numpy integer or bool
        return raw(v.item())
    return str(v)


def render(page: Page, **_: object) -> str:
    return "".join(chunks(page))


def chunks(page: Page, lines: int = 4096) -> Iterator[str]:
    """:func:`render`'s text in pieces of about ``lines`` lines (a table whose rows are made as they
    are read is never held whole)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    parts = any(s.group for s in page.sections)
    w.writerow(((page.meta.get("group_by", "group"),) if parts else ()) + HEADER)
    n = 0
    for s in page.sections:
        lead = [s.group] if parts else []
        for t in (b for b in s.blocks if isinstance(b, Table)):
            for k, r in enumerate(t.rows):
                name = t.row_keys[k] if t.row_keys else "/".join(fmt.text(c) for c in r[:t.key_columns])
                for col, c in zip(t.columns[t.key_columns:], r[t.key_columns:]):
                    w.writerow(lead + [t.id, name, col.key, raw(c.value), raw(c.low), raw(c.high), c.kind])
                    n += 1
                if n >= lines:
                    yield out.getvalue()
                    out.seek(0)
                    out.truncate()
                    n = 0
    yield out.getvalue()
