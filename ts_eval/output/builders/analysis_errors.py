"""Error analysis (:class:`ts_eval.analysis.errors.ErrorAnalysis`) -> page sections: the span
confusion matrices (tables and heatmaps, the diagonal kept out of the colour scale so that the
errors keep their shades), the errors by type per system, the most frequent errors with an
example each, the gold suspects, the strings gold labels inconsistently, and the per-document
scores (a detail section).  With several systems the matrices are summed and the errors pooled
over them; each system's own matrices and lists are detail sections.

:func:`sections` gives the sections (for the fine-grained analysis's page); :func:`build`
makes a page of them alone.  A builder only selects, orders and labels the result's numbers.
"""
from __future__ import annotations

from typing import Any, List, Optional

from ...comparison.results import Example
from ...errors import Hint, Spelling, python_spelling
from ...errors import spell as spelled
from ..page import Cell, Column, Page, Section, Table, Text
from . import compare_tables as ct
from .compare import EXAMPLES_NOTE, sentence_cell
from .fair import confusion_blocks

MATCHING_TITLES = {"exact": "exact matching (same first and last token)",
                   "overlap": "overlap matching (a shared token)"}
TYPE_COLUMNS = ("fn", "fp", "le", "bes", "bel", "beo", "lbe")

CONFUSION_NOTE = ("Rows: gold labels, and system spans that are no gold span's candidate (spurious); columns: "
                  "system labels, and gold spans without a counterpart (missed). Each gold span is counted once, "
                  "at its best counterpart: the same label first, then most shared tokens, then fewest tokens "
                  "outside the other span, then the first to start.")


def _span(label: Optional[str], text: Optional[str]) -> str:
    return f"[{text}]{label}" if label is not None else "none"


def _line_cell(e: Example, role: Optional[str] = None) -> Cell:
    """The example's line: of every role (one number when they agree), or of ``role`` alone."""
    line = ct.example_line(e.where if role is None else {role: e.where[role]})
    return Cell(line, "count") if isinstance(line, int) else Cell(line or "")


def _confusion_section(ea: Any, x: Any, who: str, tid: str, heatmaps: bool) -> List[Any]:
    blocks: List[Any] = []
    for m, c in x.confusion.items():
        rows, cols = c.names()
        counts = (f"{c.gold} gold spans, {c.system} system spans: {c.spurious} spurious, {c.unpaired} unpaired "
                  f"(a candidate of a gold span but no gold span's best counterpart)")
        made = confusion_blocks(who, c.matrix(), f"{tid}-{m}", f"{who}: span confusion, {MATCHING_TITLES[m]}",
                                "gold \\ system", order=rows, columns=cols, scale_diagonal=False, note=counts)
        blocks += made if heatmaps else made[:1]
    return blocks


def types_table(ea: Any) -> Table:
    """Errors per fair type, one row per system (and all of them together)."""
    cols = ([Column("system", "system")] + [Column(t, t.upper(), "errors (fair types)") for t in TYPE_COLUMNS]
            + [Column("distinct", "distinct")]
            + [Column(f"{m}_tp", f"{m} hits", "diagonal") for m in ("exact", "overlap")])

    def row(name: str, x: Any) -> List[Cell]:
        return ([Cell(name)] + [Cell(x.types[t], "count") for t in TYPE_COLUMNS] + [Cell(x.distinct, "count")]
                + [Cell(x.confusion[m].diagonal, "count") for m in ("exact", "overlap")])

    rows = [row(x.name, x) for x in ea.systems]
    styles: List[Optional[str]] = [None] * len(rows)
    if ea.pooled is not None:
        rows.append(row("all systems", ea.pooled))
        styles.append("total")
    return Table("errors-types", "Errors by type (Ortmann's fair error types; hits on the confusion diagonal)",
                 cols, rows, row_styles=styles,
                 note="FN missed, FP spurious, LE wrong label, BES / BEL / BEO wrong boundary (system span shorter "
                      "/ longer / overlapping), LBE wrong label and boundary; distinct: distinct errors (type, "
                      "gold string and label, system string and label)")


def errors_table(ea: Any, x: Any, tid: str, title: str) -> Table:
    pooled = x.name is None
    cols = [Column("n", "#"), Column("type", "type"), Column("gold", "gold"), Column("system", "system"),
            Column("count", "count")]
    cols += [Column("by_systems", "systems"), Column("example_system", "example from")] if pooled else []
    cols += [Column("line", "line"), Column("gold_sentence", "gold"), Column("system_sentence", "system")]
    rows = []
    for n, e in enumerate(x.errors, 1):
        ex = e.example
        row = [Cell(n, "count"), Cell(e.type), Cell("gold " + _span(e.gold_label, e.gold_text)),
               Cell("system " + _span(e.system_label, e.system_text)), Cell(e.count, "count")]
        if pooled:
            row += [Cell(e.by_systems, "count"), Cell("example: " + ex.transition.split(" → ", 1)[-1])]
        row += [_line_cell(ex), sentence_cell(ex, "gold"), sentence_cell(ex, "system")]
        rows.append(row)
    return Table(tid, title, cols, rows, note=EXAMPLES_NOTE.replace("gold, A, B", "gold, system"))


def suspects_table(ea: Any) -> Table:
    s = ea.suspects
    cols = [Column("n", "#"), Column("type", "type"), Column("gold", "gold"), Column("systems", "systems say"),
            Column("agreeing", "agreeing"), Column("confirming", "confirming"), Column("line", "line"),
            Column("gold_sentence", "gold"), Column("systems_sentence", "systems")]
    rows = []
    for n, x in enumerate(s.suspects, 1):
        ex = x.example
        rows.append([Cell(n, "count"), Cell(x.type), Cell("gold " + _span(x.gold_label, x.gold_text)),
                     Cell("systems " + _span(x.label, x.text)), Cell(x.agreeing, "count"),
                     Cell(x.confirming, "count"), _line_cell(ex, "gold"), sentence_cell(ex, "gold"),
                     sentence_cell(ex, "systems")])
    return Table("errors-suspects", "Gold suspects", cols, rows,
                 note=EXAMPLES_NOTE.replace("gold, A, B", "gold, systems"))


def inconsistent_table(ea: Any, kind: str) -> Table:
    s = ea.suspects
    items = s.labels if kind == "label" else s.unannotated
    dev = "deviating" if kind == "label" else "unannotated"
    cols = [Column("n", "#"), Column("text", "string"), Column("labels", "gold labels"),
            Column("annotated", "gold spans"), Column("deviating", dev), Column("line", "line"),
            Column("example", dev),
            Column("reference", "gold span" if kind == "unannotated" else "most frequent label")]
    rows = []
    for n, x in enumerate(items, 1):
        labels = ", ".join(f"{k} {v}" for k, v in sorted(x.labels.items(), key=lambda kv: (-kv[1], kv[0])))
        rows.append([Cell(n, "count"), Cell(x.text), Cell(labels), Cell(x.annotated, "count"),
                     Cell(x.deviating, "count"), _line_cell(x.example, "gold"), sentence_cell(x.example, "gold"),
                     sentence_cell(x.reference, "gold")])
    title = ("Strings gold labels differently" if kind == "label" else
             "Strings gold annotates in one place and not in another, in the same context")
    return Table(f"errors-inconsistent-{kind}", title, cols, rows, note=EXAMPLES_NOTE.replace("gold, A, B", "gold"))


def documents_table(ea: Any) -> Table:
    d = ea.documents
    one = len(d.names) == 1
    unit = d.unit
    cols = [Column(unit, unit), Column("line", "line"), Column("sentences", "sentences"), Column("tokens", "tokens"),
            Column("gold", "gold spans")]
    for k, name in enumerate(d.names):
        g = None if one else name
        if one:
            cols += [Column("exact_system", "system spans", "exact"), Column("exact_tp", "tp", "exact"),
                     Column("exact_precision", "P", "exact"), Column("exact_recall", "R", "exact")]
        cols += [Column(f"exact_f-{k}" if not one else "exact_f", f"{g}: exact F1" if g else "F1", g or "exact")]
        if one:
            cols += [Column("ts_tp", "tp", "TS"), Column("ts_fp", "fp", "TS"), Column("ts_fn", "fn", "TS"),
                     Column("ts_precision", "P", "TS"), Column("ts_recall", "R", "TS")]
        cols += [Column(f"ts_f-{k}" if not one else "ts_f", f"{g}: TS F1" if g else "F1", g or "TS")]
    cols_k = [d.columns(k) for k in range(len(d.names))]
    sentences, tokens, gold = d.sentences.tolist(), d.tokens.tolist(), d.gold.tolist()
    rows = []
    for j in range(len(sentences)):
        row = [Cell(j + 1, "count"), Cell(d.lines[j], "count") if d.lines[j] is not None else Cell(""),
               Cell(int(sentences[j]), "count"), Cell(int(tokens[j]), "count"), Cell(int(gold[j]), "count")]
        for c in cols_k:
            e, t = c["exact"], c["ts"]
            ec = {n: e[n][j] for n in ("tp", "fp", "fn")}
            tc = {n: t[n][j] for n in ("tp", "fp", "fn")}
            if one:
                row += [Cell(e["system"][j], "count"), Cell(e["tp"][j], "count"),
                        Cell(e["precision"][j], "score", counts=ec), Cell(e["recall"][j], "score", counts=ec)]
            row.append(Cell(e["f"][j], "score", counts=ec))
            if one:
                row += [Cell(t["tp"][j], "count"), Cell(t["fp"][j], "count"), Cell(t["fn"][j], "count"),
                        Cell(t["precision"][j], "score", counts=tc), Cell(t["recall"][j], "score", counts=tc)]
            row.append(Cell(t["f"][j], "score", counts=tc))
        rows.append(row)
    what = "documents (-DOCSTART-)" if unit == "document" else "sentences (the input marks no documents)"
    return Table("errors-documents", f"Scores per {unit} (exact match and TS, micro, scores in %)", cols, rows,
                 note=f"{len(rows)} {what}; line: the gold file's line of its first token; the counts behind each "
                      "F1 are in the JSON (and in the HTML page's tooltips)")


def sections(ea: Any, *, spell: Spelling = python_spelling) -> List[Section]:
    """The error analysis's sections, for any page (``spell``: how a note names an option)."""
    out: List[Section] = []
    several = ea.pooled is not None
    who = "all systems (summed)" if several else ea.systems[0].name
    main = ea.pooled if several else ea.systems[0]
    top = ea.settings.get("top")
    notes = [Text(n, "note") for n in ea.notes]
    out.append(Section("Span confusion", notes + [Text(CONFUSION_NOTE, "note")]
                       + _confusion_section(ea, main, who, "errors-confusion", True), id="errors-confusion"))
    out.append(Section("Errors by type", [types_table(ea)], id="errors-types"))
    cut = spelled(["the first ", str(top), " (", Hint("top"), " sets how many)"], spell) if top else "all"
    title = "Most frequent errors" + (" of all systems together" if several else "")
    table = errors_table(ea, main, "errors-top", title)
    top_blocks: List[Any] = [Text(f"{main.distinct} distinct errors; {cut}", "note")]
    out.append(Section(title, top_blocks + ([table] if table.rows else []), id="errors-top"))
    s = ea.suspects
    n = len(ea.systems)
    what = (f"Gold spans that at least {s.min_agree} of the {n} systems reject in the same way (the same other span, "
            "or no span: FN), and spans at least as many systems mark identically where gold has none (FP); ")
    sus: List[Any] = [Text(spelled([what, Hint("min_agree"), f" sets how many. {s.total} suspects; {cut}."], spell),
                           "note")]
    table = suspects_table(ea)
    out.append(Section("Gold suspects", sus + ([table] if table.rows else []), id="errors-suspects"))
    inc: List[Any] = [Text(f"{s.label_total} lower-cased strings carry more than one gold label; "
                           f"{s.unannotated_total} are a gold span in one place and touch no gold span in another, "
                           "with the same token before and after", "note")]
    inc += [t for t in (inconsistent_table(ea, "label"), inconsistent_table(ea, "unannotated")) if t.rows]
    out.append(Section("Inconsistent gold", inc, id="errors-inconsistent"))
    out.append(Section("Scores per document", [documents_table(ea)], id="errors-documents", detail=True))
    if several:
        for k, x in enumerate(ea.systems):
            out.append(Section(f"{x.name}: span confusion and errors",
                               _confusion_section(ea, x, x.name, f"errors-confusion-{k}", False)
                               + [errors_table(ea, x, f"errors-top-{k}", f"{x.name}: most frequent errors")],
                               id=f"errors-system-{k}", detail=True))
    return out


def build(ea: Any, *, spell: Spelling = python_spelling) -> Page:
    """A page of the error analysis alone."""
    return Page("errors", "Error analysis", sections(ea, spell=spell), {"settings": dict(ea.settings)})
