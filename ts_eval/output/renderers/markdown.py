"""Any page -> Markdown (GitHub tables): every section, detail sections included (a file has
no width to fit).  An interval follows its value in brackets, ``87.84 [86.90–88.70]``; a
``total`` row and a ``best`` cell are bold; figures are left out (their numbers are tables)."""
from __future__ import annotations

from .. import values as fmt
from ..page import Figure, Page, Table, Text


def _esc(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def table(t: Table) -> str:
    lines = [f"**{_esc(t.title)}**", ""]
    lines.append("| " + " | ".join(_esc(c.title) or " " for c in t.columns) + " |")
    right = [j >= t.key_columns and any(r[j].kind != "text" for r in t.rows) for j in range(len(t.columns))]
    lines.append("|" + "|".join("---:" if r else "---" for r in right) + "|")
    for k, row in enumerate(t.rows):
        total = k < len(t.row_styles) and t.row_styles[k] == "total"
        cells = []
        for c in row:
            s = _esc(fmt.inline(c))
            cells.append(f"**{s}**" if s and (total or c.style in ("best", "significant")) else s)
        lines.append("| " + " | ".join(cells) + " |")
    if t.note:
        lines += ["", f"_{_esc(t.note)}_"]
    return "\n".join(lines) + "\n"


def render(page: Page, **_: object) -> str:
    parts = [f"# {page.title}", ""]
    for sec in page.sections:
        if all(isinstance(b, Figure) for b in sec.blocks):
            continue             # figures are left out, and so is a section of figures alone
        parts += [f"## {sec.title}", ""]
        for b in sec.blocks:
            if isinstance(b, Table):
                parts.append(table(b))
            elif isinstance(b, Text):
                parts += [f"_{_esc(b.text)}_" if b.style == "note" else _esc(b.text), ""]
    return "\n".join(parts).rstrip("\n") + "\n"
