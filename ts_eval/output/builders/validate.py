"""Validation -> Page: each submission valid or not with its count of problems and its notes, the problems
grouped by kind and counted, and every submission's problems listed (file order, at most ``max_problems``)
with line, gold's line, kind, what was found, what was expected and, for an ill-formed tag sequence, what
each policy makes of it.  The builder selects and labels the result's data; it computes nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List

from ...errors import Hint, Spelling, python_spelling, spell
from ...validation.result import KINDS
from ..page import Block, Cell, Column, Page, Section, Table, Text

if TYPE_CHECKING:
    from ...validation.result import SubmissionCheck, Validation


def _submissions(v: Validation) -> Table:
    cols = [Column("submission", "submission"), Column("valid", "valid"), Column("problems", "problems"),
            Column("kinds", "kinds")]
    rows = [[Cell(s.name), Cell("yes" if s.valid else "no", style=None if s.valid else "worse"),
             Cell(s.total, "count"), Cell(", ".join(f"{k} {n}" for k, n in s.counts.items()) or "-")]
            for s in v.submissions]
    return Table("submissions", "Submissions", cols, rows)


def _kinds(v: Validation) -> Table:
    counts = v.counts
    having = {k: sum(1 for s in v.submissions if k in s.counts) for k in counts}
    cols = [Column("kind", "kind"), Column("problems", "problems"), Column("submissions", "submissions"),
            Column("meaning", "what it is")]
    rows = [[Cell(k), Cell(n, "count"), Cell(having[k], "count"), Cell(KINDS[k])] for k, n in counts.items()]
    return Table("kinds", "Problems by kind", cols, rows, note="Every problem is counted, also those the lists "
                 "leave out.")


def _problems(s: SubmissionCheck, k: int, most: Any, spelling: Spelling) -> List[Block]:
    cols = [Column("problem", "#"), Column("line", "line"), Column("gold_line", "gold line"), Column("kind", "kind"),
            Column("found", "found"), Column("expected", "expected")]
    rows = []
    for n, p in enumerate(s.problems, 1):
        expected = p.expected + "".join(f"; {policy}: {what}" for policy, what in p.repairs.items())
        rows.append([Cell(n, "count"), Cell(p.line or None, "count"), Cell(p.gold_line, "count"), Cell(p.kind),
                     Cell(p.found), Cell(expected)])
    note = (f"The first {len(s.problems)} of {s.total} problems ({spell([Hint('max_problems', most)], spelling)})."
            if len(s.problems) < s.total else "")
    return [Table(f"problems-{k + 1}", f"Problems of {s.name} ({s.file})", cols, rows, note=note)]


def _notes(v: Validation) -> List[Block]:
    out: List[Block] = []
    for s in v.submissions:
        for text in s.notes.values():
            out.append(Text(f"{s.name}: {text} (not a problem).", "note"))
    return out


def build(v: Validation, *, spell: Spelling = python_spelling) -> Page:
    """The page of a validation."""
    n = len(v.submissions)
    bad = sum(1 for s in v.submissions if not s.valid)
    total = sum(v.counts.values())
    head = (f"{n} submission{'s' if n != 1 else ''} checked against {v.gold or 'the gold column'}: "
            + ("every one would score as it is." if not bad else
               f"{bad} with problems ({total} problem{'s' if total != 1 else ''}), {n - bad} valid."))
    st: Dict[str, Any] = v.settings
    about = f"scheme {st.get('scheme')}, policy {st.get('policy')}"
    detected = sorted({s.scheme for s in v.submissions if s.scheme})
    if st.get("scheme") == "auto" and detected:
        about += f" (detected over gold and each submission: {', '.join(detected)})"
    if st.get("labels"):
        about += ", labels " + ", ".join(st["labels"])
    sections = [Section("Summary", [Text(head, "summary"), Text(about, "note"), _submissions(v), *_notes(v)],
                        id="summary")]
    if total:
        sections.append(Section("Problems by kind", [_kinds(v)], id="kinds"))
    for k, s in enumerate(v.submissions):
        if s.problems:
            sections.append(Section(f"Problems of {s.name}", _problems(s, k, st.get("max_problems"), spell),
                                    id=f"problems-{k + 1}"))
    return Page("validate", "Validation of submissions", sections, {"settings": st})
