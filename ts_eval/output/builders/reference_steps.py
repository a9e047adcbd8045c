"""What changes from one reference to the next (:class:`ts_eval.analysis.reference_steps.ReferenceSteps`) ->
page sections of ``analyze`` with several references: per step the changes (per kind and label, the
relabellings, the changed spans with their sentences, the changed sentences), every system's errors that
change sides and its scores on the changed and unchanged sentences, and the gold suspects checked.  It selects
and labels the result's numbers; it computes none."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ..page import Block, Cell, Column, Section, Table, Text

if TYPE_CHECKING:
    from ...analysis.reference_steps import ReferenceStep, ReferenceSteps

KINDS = ("added", "removed", "relabelled", "rebounded")
PARTS = ("whole", "changed", "unchanged")


def _span(side: Optional[Tuple[str, int, int]], tokens: Tuple[str, ...]) -> str:
    if side is None:
        return "-"
    return f"[{' '.join(tokens[side[1]:side[2] + 1])}]{side[0]}"


def _changes(step: ReferenceStep, tid: str) -> List[Block]:
    ch = step.comparison.changes
    a, b = ch.reference_a, ch.reference_b
    total = sum(ch.counts.values())
    blocks: List[Block] = [Text(f"{total} changes from {a} to {b} in {len(ch.changed_sentences)} of {ch.sentences} "
                                "sentences: " + ", ".join(f"{ch.counts[k]} {k}" for k in KINDS) + ".", "summary")]
    cols = [Column("label", "label")] + [Column(k, k) for k in KINDS]
    rows = [[Cell(label)] + [Cell(n[k], "count") for k in KINDS] for label, n in ch.labels.items()]
    rows.append([Cell("all")] + [Cell(ch.counts[k], "count") for k in KINDS])
    blocks.append(Table(f"{tid}-labels", f"Changes per label ({a}'s label; {b}'s for an added span)", cols, rows,
                        row_styles=[None] * (len(rows) - 1) + ["total"]))
    if ch.transitions:
        blocks.append(Table(f"{tid}-transitions", "Relabelled spans", [Column("transition", "label"),
                                                                        Column("count", "spans")],
                            [[Cell(t), Cell(n, "count")] for t, n in ch.transitions.items()]))
    rows = [[Cell(c.sentence + 1, "count"), Cell(c.kind), Cell(_span(c.before, c.tokens)),
             Cell(_span(c.after, c.tokens)), Cell(" ".join(c.tokens))] for c in ch.changes]
    blocks.append(Table(f"{tid}-changes", f"The changed spans ({a} -> {b}), in text order",
                        [Column("sentence", "sentence"), Column("kind", "kind"), Column("before", a),
                         Column("after", b), Column("text", "sentence text")], rows, key_columns=2,
                        note="Sentences are counted from 1."))
    text: Dict[int, str] = {c.sentence: " ".join(c.tokens) for c in ch.changes}
    blocks.append(Table(f"{tid}-sentences", "The sentences that differ", [Column("sentence", "sentence"),
                                                                         Column("text", "text")],
                        [[Cell(s + 1, "count"), Cell(text.get(s, ""))] for s in ch.changed_sentences]))
    return blocks


def _systems(step: ReferenceStep, tid: str, model: str) -> List[Block]:
    cmp = step.comparison
    a, b = cmp.changes.reference_a, cmp.changes.reference_b
    cols = [Column("system", "system"), Column("errors_a", f"errors {a}", "exact-match errors"),
            Column("errors_b", f"errors {b}", "exact-match errors"),
            Column("wrong_a_right_b", "gold's errors it got right", "exact-match errors"),
            Column("right_a_wrong_b", "corrections it gets wrong", "exact-match errors")]
    for part in PARTS:
        group, short = (f"{part} sentences", part) if part != "whole" else ("all sentences", "all")
        cols += [Column(f"{part}-score_a", f"{short}: {a}", group), Column(f"{part}-score_b", f"{short}: {b}", group),
                 Column(f"{part}-difference", f"{short}: {b} - {a}", group)]
    rows = []
    for s in cmp.systems:
        row = [Cell(s.name), Cell(s.errors_a, "count"), Cell(s.errors_b, "count"), Cell(s.wrong_a_right_b, "count"),
               Cell(s.right_a_wrong_b, "count")]
        for part in PARTS:
            n = s.scores[model][part]
            row += [Cell(n["score_a"], "score"), Cell(n["score_b"], "score"), Cell(n["difference"], "signed")]
        rows.append(row)
    note = (f"errors: false positives + false negatives of exact match; errors under {b} = errors under {a} - gold's "
            f"errors it got right + corrections it gets wrong. Scores: {model}. The unchanged sentences hold the "
            f"same spans under both references, so their difference is 0 for every system: the whole difference "
            "comes from the changed sentences.")
    blocks: List[Block] = [Table(f"{tid}-systems", f"Each system under {a} and {b} ({model})", cols, rows,
                                 note=note, keep_groups=True)]
    return blocks


def _suspects(step: ReferenceStep, tid: str) -> List[Block]:
    ck = step.suspects
    if ck is None:
        return []
    at = ", ".join(f"{row['checked']} of the first {row['top']}: {row['touched']} touched, {row['agreed']} agreed"
                   for row in ck.at)
    recall = "n/a" if ck.recall is None else f"{100 * ck.recall:.2f}%"
    head = Text(f"{ck.reference_a}'s gold suspects checked against {ck.reference_b}: {at}; of all "
                f"{len(ck.suspects)}, {ck.touched} touched and {ck.agreed} agreed. {ck.pointed} of the "
                f"{ck.corrections} changes touch a suspect (recall {recall}).", "summary")
    precision = Table(f"{tid}-suspects-at", "Precision of the first k suspects",
                      [Column("top", "k"), Column("checked", "checked"), Column("touched", "touched"),
                       Column("agreed", "agreed"), Column("precision", "precision"),
                       Column("precision_agreed", "agreed share")],
                      [[Cell(r["top"], "count"), Cell(r["checked"], "count"), Cell(r["touched"], "count"),
                        Cell(r["agreed"], "count"), Cell(r["precision"], "score"), Cell(r["precision_agreed"], "score")]
                       for r in ck.at]
                      + [[Cell("all"), Cell(len(ck.suspects), "count"), Cell(ck.touched, "count"),
                          Cell(ck.agreed, "count"), Cell(ck.touched / len(ck.suspects) if ck.suspects else None,
                                                         "score"),
                          Cell(ck.agreed / len(ck.suspects) if ck.suspects else None, "score")]],
                      sortable=False)
    kinds = Table(f"{tid}-suspects-recall", "Changes a suspect points at, per kind",
                  [Column("kind", "kind"), Column("corrections", "changes"), Column("pointed", "pointed at")],
                  [[Cell(k), Cell(v["corrections"], "count"), Cell(v["pointed"], "count")] for k, v in ck.kinds.items()]
                  + [[Cell("all"), Cell(ck.corrections, "count"), Cell(ck.pointed, "count")]], sortable=False)
    rows = [[Cell(c.rank, "count"), Cell(c.suspect.type), Cell(c.suspect.sentence + 1, "count"),
             Cell(f"[{c.suspect.gold_text}]{c.suspect.gold_label}" if c.suspect.gold_label else "-"),
             Cell(f"[{c.suspect.text}]{c.suspect.label}" if c.suspect.label else "-"),
             Cell(c.suspect.agreeing, "count"), Cell(c.verdict)] for c in ck.suspects]
    listed = Table(f"{tid}-suspects", f"{ck.reference_a}'s gold suspects, ranked, with their verdicts",
                   [Column("rank", "#"), Column("type", "type"), Column("sentence", "sentence"),
                    Column("gold", ck.reference_a), Column("systems", "systems say"), Column("agreeing", "agreeing"),
                    Column("verdict", "verdict")], rows,
                   note=(f"agreed: {ck.reference_b} made gold what the systems say; touched: a change is there, "
                         "into something else; untouched: no change."), sortable=False)
    return [head, precision, kinds, listed]


def sections(steps: ReferenceSteps, model: str, details: bool = False) -> List[Section]:
    """The sections of every step (``model``: the ranking model of the systems' table)."""
    out = []
    for k, step in enumerate(steps.steps):
        ch = step.comparison.changes
        tid = f"step{k + 1}"
        name = f"{ch.reference_a} -> {ch.reference_b}"
        use = model if model in step.comparison.models else step.comparison.models[0]
        out.append(Section(f"What changed: {name}", _changes(step, tid), id=f"{tid}-changes"))
        out.append(Section(f"The systems: {name}", _systems(step, tid, use), id=f"{tid}-systems"))
        blocks = _suspects(step, tid)
        if blocks:
            out.append(Section(f"Gold suspects checked: {name}", blocks, id=f"{tid}-suspects"))
    return out


def about(steps: ReferenceSteps) -> Any:
    """The line that says what the page holds."""
    return Text(f"Analysis under {steps.references[0]}, the first of {len(steps.references)} references "
                f"({', '.join(steps.references)}); what changes from each to the next follows it.", "note")
