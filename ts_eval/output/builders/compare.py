"""Comparison -> Page: the comparison's tables (:mod:`.compare_tables`) as page tables,
the span outcome and diff matrices as heatmaps, the share of gold spans found by j systems as
bars, and the examples with each side's tokens and spans as cell data (for highlighting); with
``models`` the systems' scores under them and the SemEval-2013 sections (:mod:`.compare_models`).

Column kinds: a column whose header holds ``%`` (or a table marked ``percent``) holds
fractions (``score``; ``signed`` where the header or the row says Δ), other numbers are
counts, everything else text.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ...comparison.results import CLASS_TITLES, Comparison, Example
from ...errors import Spelling, python_spelling
from ..page import Block, Cell, Column, Figure, Page, Section, Table, Text
from . import compare_tables as ct
from .compare_models import models_table, semeval_sections
from .score import decoding

CLIP = "..."   # a sentence window cut from a longer sentence (the ellipsis character is kept for cut numbers: never)


def _kind(t: ct.Table, k: int, header: str, first: Any) -> str:
    vals = [r[k] for r in t.rows if r[k] is not None]
    if not vals or not all(ct._num(v) for v in vals):
        return "text"
    if k > 0 and ct._is_pct(t, header):
        return "signed" if ("Δ" in header or (isinstance(first, str) and first.startswith("Δ"))) else "score"
    return "count"


def convert(t: ct.Table, tid: str, key_columns: int = 1) -> Table:
    """A comparison table (header + plain rows) as a page table with typed cells."""
    cols = [Column(h or f"c{k}", h) for k, h in enumerate(t.header)]
    rows, styles = [], []
    for r in t.rows:
        rows.append([Cell(v, _kind(t, k, h, r[0]) if ct._num(v) else "text")
                     for k, (h, v) in enumerate(zip(t.header, r))])
        styles.append("total" if r and r[0] in ("overall", "difference", "total") else None)
    return Table(tid, t.title, cols, rows, key_columns=key_columns, row_styles=styles)


#: how the examples' sentences read as text (their cells' text: Markdown, LaTeX, CSV, a terminal
#: without colours); renderers that draw the sentences from the cells' data write their own legend
EXAMPLES_NOTE = ("gold, A, B: spans as [tokens]LABEL, the tokens the example is about in *stars*, "
                 f"{CLIP} where the window cuts the sentence")


def sentence_cell(e: Example, role: str) -> Cell:
    """An example's sentence with one role's spans: its text writes the spans inline (as
    :data:`EXAMPLES_NOTE` says), its data carries the tokens and spans for the renderers that draw
    them."""
    return Cell(ct.inline_text(e, role, ("*", "*"), clip=CLIP), data={
        "role": role, "tokens": list(e.tokens), "spans": [list(s) for s in e.spans[role]],
        "focus": list(e.focus), "clipped_left": e.clipped_left, "clipped_right": e.clipped_right})


def examples_blocks(c: Comparison) -> List[Any]:
    """The files the examples come from (named once), then one row per example: its level, class,
    transition, sentence and line; the gold, A and B cells carry the sentence window and that
    side's spans (their text writes the spans inline, as :data:`EXAMPLES_NOTE` says)."""
    examples = ct._pair(c).examples
    lines = [ct.example_line(e.where) for e in examples]
    cols = [Column("n", "example"), Column("level", "level"), Column("class", "class"),
            Column("transition", "transition"), Column("sentence", "sentence")]
    has_lines = any(x is not None for x in lines)
    cols += [Column("line", "line")] if has_lines else []
    cols += [Column("gold", "gold"), Column("A", "A"), Column("B", "B")]
    rows = []
    for n, (e, line) in enumerate(zip(examples, lines), 1):
        row = [Cell(n, "count"), Cell(e.level), Cell(CLASS_TITLES[e.change_class]), Cell(e.transition),
               Cell(e.sentence + 1, "count")]
        if has_lines:
            row.append(Cell(line, "count") if isinstance(line, int) else Cell(line or ""))
        row += [sentence_cell(e, role) for role in ct.ROLE_NAMES]
        rows.append(row)
    files = ct.example_files(examples)
    return ([Text(files, "note")] if files else []) + [Table("examples", "Examples", cols, rows, note=EXAMPLES_NOTE)]


def _heatmap(tid: str, title: str, rows: List[str], columns: List[str], values: Sequence[Sequence[float]],
             kind: str) -> Figure:
    flat = [v for r in values for v in r]
    return Figure(tid, title, "heatmap", {"rows": rows, "columns": columns, "values": values, "low": None,
                                          "high": None, "kind": kind, "range": [min(flat + [0]), max(flat + [0])]})


def build(c: Comparison, cases: Optional[int] = None, *, spell: Spelling = python_spelling) -> Page:
    """The page of a comparison; ``cases``: list at most this many hard and easy gold spans."""
    st, co = c.settings, c.corpus
    about = (f"{co['tokens']} tokens, {co['sentences']} sentences, {co['gold_spans']} gold spans, labels "
             f"{', '.join(co['labels']) or '-'}; " + f"{decoding(st)}token view {st['view']}")
    chosen = models_table(c)
    first: List[Block] = [Text(about, "note"), convert(ct.systems_table(c), "systems")]
    if chosen is not None:
        first.append(chosen)
    sections = [Section("Systems", first, id="systems")]
    pair = c.pair
    if pair is not None:
        blocks: List[Any] = [convert(ct.token_summary(c), "token-summary"),
                             convert(ct.token_transitions(c), "token-transitions", 2),
                             convert(ct.token_labels(c), "token-labels")]
        sections.append(Section("Token level", blocks, id="token"))
        span = pair.span
        if span is not None:
            from ...comparison.results import GOLD_OUTCOMES
            blocks = [convert(ct.span_summary(c), "span-summary"), convert(ct.span_outcomes(c), "span-outcomes"),
                      convert(ct.span_matrix(c), "span-matrix"),
                      _heatmap("span-matrix-heatmap", "Gold spans: outcome under A (rows) → under B (columns)",
                               list(GOLD_OUTCOMES), list(GOLD_OUTCOMES), span.matrix, "count"),
                      convert(ct.span_transitions(c), "span-transitions", 2), convert(ct.span_labels(c), "span-labels")]
            sections.append(Section("Span level", blocks, id="span"))
        sections.append(Section("TS units", [convert(ct.ts_labels(c), "ts-labels")], id="ts"))
        sections += semeval_sections(c)
        if pair.examples:
            sections.append(Section("Examples", examples_blocks(c), id="examples"))
        sections.append(Section("Legend", [Text(
            "corrections: A wrong, B right; new errors: A right, B wrong; changed errors: both wrong, differently. "
            "Span outcomes: Ortmann's fair error types.", "note")], id="legend"))
    else:
        sections += semeval_sections(c)
    multi = c.multi
    if multi is not None:
        names = multi.names
        found = multi.found_by
        sections.append(Section("Several systems", [
            convert(ct.diff_matrix(c), "diff-matrix"),
            _heatmap("diff-heatmap", "Pairwise diff (%)", names, names, multi.diff_matrix, "score"),
            convert(ct.neighbours(c), "neighbours"), convert(ct.token_oracle(c), "token-oracle"),
            convert(ct.span_oracle(c), "span-oracle"), convert(ct.found_by(c), "found-by"),
            Figure("found-by-bars", "Gold spans found exactly by j of the systems", "bars",
                   {"labels": [str(j) for j in range(len(found))], "values": list(found), "kind": "count"}),
            convert(ct.hard_cases(c, cases), "hard-cases"), convert(ct.easy_cases(c, cases), "easy-cases")],
            id="several"))
        sections.append(Section("All pairs", [convert(ct.pair_list(c), "pairs", 2)], id="pairs", detail=True))
    return Page("compare", "Comparison", sections, {"settings": st})
