"""Any page -> LaTeX: one ``table`` float per page table (``tabular``, booktabs-free so
that it compiles with a bare ``article``), every section included.  Intervals follow their
value in brackets; total rows and best cells bold; a note becomes part of the caption."""
from __future__ import annotations

from .. import values as fmt
from ..page import Page, Table, Text

ESCAPES = (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"), ("_", r"\_"),
           ("{", r"\{"), ("}", r"\}"), ("^", r"\^{}"), ("~", r"\~{}"), ("µ", r"$\mu$"), ("κ", r"$\kappa$"),
           ("–", "--"), ("→", r"$\rightarrow$"), ("Δ", r"$\Delta$"), ("ε", r"$\varepsilon$"), ("✓", "+"), ("✗", "-"),
           ("\n", " "))


def tex(s: str) -> str:
    for a, b in ESCAPES:
        s = s.replace(a, b)
    return s


def table(t: Table) -> str:
    align = "".join("l" if j < t.key_columns or all(r[j].kind == "text" for r in t.rows) else "r"
                    for j in range(len(t.columns)))
    out = [r"\begin{table}[ht]\centering\small", r"\begin{tabular}{" + align + "}", r"\hline",
           " & ".join(tex(c.title) for c in t.columns) + r" \\", r"\hline"]
    for k, row in enumerate(t.rows):
        total = k < len(t.row_styles) and t.row_styles[k] == "total"
        cells = []
        for c in row:
            s = tex(fmt.inline(c))
            cells.append(r"\textbf{" + s + "}" if s and (total or c.style in ("best", "significant")) else s)
        out.append(" & ".join(cells) + r" \\")
    caption = t.title + (". " + t.note if t.note else "")
    out += [r"\hline", r"\end{tabular}", r"\caption{" + tex(caption) + "}", r"\end{table}"]
    return "\n".join(out)


def render(page: Page, **_: object) -> str:
    parts = [f"% ts_eval: {tex(page.title)}"]
    for sec in page.sections:
        parts.append(f"% {tex(sec.title)}")
        for b in sec.blocks:
            if isinstance(b, Table):
                parts.append(table(b))
            elif isinstance(b, Text):
                parts.append("% " + tex(b.text))
    return "\n".join(parts) + "\n"
