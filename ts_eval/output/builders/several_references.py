"""The page of the systems ranked under two or more references
(:class:`~ts_eval.ranking.references.SeveralReferences`): the leaderboards under every reference, a slope chart of
each system's score from one reference to the next, per compared pair (step) the differences with their paired
intervals, the sensitivity per model and the flips (as :mod:`.references` draws two references: with two, those
sections are its own), what changed (counts per label, the relabellings, the changed spans in their sentences),
the gold suspects checked against the change and, with annotators, the human ceiling beside the systems.  It
selects and labels the result's numbers; it computes none."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ...comparison.changes import CHANGE_KINDS
from ...errors import Spelling, python_spelling
from ..page import Cell, Column, Figure, Page, Section, Table, Text
from .references import _differences, _flips, _sensitivity, and_list, leaderboard

if TYPE_CHECKING:
    from ...analysis.suspects_checked import SuspectCheck
    from ...comparison.ceiling import ModelCeiling
    from ...comparison.changes import ReferenceChanges, SpanChange
    from ...ranking.references import SeveralReferences


def slope(r: SeveralReferences, k: int) -> Figure:
    """Each system's score under model ``k`` from one reference to the next, in the first reference's order."""
    first, model = r.first, r.models[k]
    order = [int(i) for i in first.order[k]]
    data = {"references": list(r.references), "systems": [r.systems[i] for i in order], "kind": "score",
            "values": [[float(r.rankings[n].scores[i, k]) for n in r.references] for i in order],
            "ranks": [[float(r.rankings[n].ranks[i, k]) for n in r.references] for i in order]}
    return Figure(f"slope-{model}", f"Each system's score from one reference to the next ({model})", "slope", data,
                  note="One line per system: its score under each reference (the leaderboard's numbers); "
                       "the names at the right end with the last reference's rank; each dot's tooltip gives its score.")


def _label_counts(ch: ReferenceChanges, suffix: str) -> Table:
    cols = [Column("label", "label")] + [Column(k, k) for k in CHANGE_KINDS] + [Column("changes", "all")]
    rows = [[Cell(label)] + [Cell(per[k], "count") for k in CHANGE_KINDS] + [Cell(sum(per.values()), "count")]
            for label, per in ch.labels.items()]
    rows.append([Cell("all")] + [Cell(ch.counts[k], "count") for k in CHANGE_KINDS]
                + [Cell(sum(ch.counts.values()), "count")])
    return Table(f"change-labels{suffix}", f"Changes from {ch.reference_a} to {ch.reference_b} per label", cols, rows,
                 note=(f"{len(ch.changed_sentences)} of {ch.sentences} sentences differ; a span's label is "
                       f"{ch.reference_a}'s ({ch.reference_b}'s for an added span)."),
                 row_styles=[None] * (len(rows) - 1) + ["total"])


def _side(c: SpanChange, span: Optional[Tuple[str, int, int]], name: str) -> Cell:
    """A sentence with one reference's side of the change marked (its text: ``LABEL [tokens]`` or ``-``)."""
    text = "-" if span is None else f"{span[0]} [{' '.join(c.tokens[span[1]:span[2] + 1])}]"
    data: Dict[str, Any] = {"tokens": list(c.tokens), "spans": [] if span is None else [[span[0], span[1],
                                                                                          span[2] + 1]],
                            "role": name}
    data["focus"] = sorted({t for s in (c.before, c.after) if s is not None for t in range(s[1], s[2] + 1)})
    return Cell(text, data=data)


def _change_list(ch: ReferenceChanges, suffix: str) -> Table:
    cols = [Column("sentence", "sentence"), Column("kind", "kind"), Column("before", ch.reference_a),
            Column("after", ch.reference_b), Column("text", "sentence text")]
    rows = [[Cell(c.sentence, "count"), Cell(c.kind), _side(c, c.before, ch.reference_a),
             _side(c, c.after, ch.reference_b), Cell(" ".join(c.tokens))] for c in ch.changes]
    return Table(f"changes{suffix}", f"The changed spans from {ch.reference_a} to {ch.reference_b}", cols, rows,
                 note="Sentences counted from 0; each side: the span's label and tokens (- where it is not there).",
                 sortable=False)


def _changes(ch: ReferenceChanges, suffix: str, head: str) -> List[Section]:
    moves = ", ".join(f"{t} {n}" for t, n in ch.transitions.items()) or "none"
    return [Section(f"What changed{head}", [_label_counts(ch, suffix), Text(f"Relabelled: {moves}.")],
                    id=f"what-changed{suffix}"),
            Section(f"Changed spans{head}", [_change_list(ch, suffix)], id=f"changed-spans{suffix}", detail=True)]


def _suspects(s: SuspectCheck, suffix: str, head: str) -> List[Section]:
    cols = [Column("top", "first k"), Column("checked", "checked"), Column("touched", "touched"),
            Column("agreed", "agreed"), Column("precision", "precision %"),
            Column("precision_agreed", "precision agreed %")]
    rows = [[Cell(row["top"], "count"), Cell(row["checked"], "count"), Cell(row["touched"], "count"),
             Cell(row["agreed"], "count"), Cell(row["precision"], "score"), Cell(row["precision_agreed"], "score")]
            for row in s.at]
    at = Table(f"suspects-at{suffix}", f"{s.reference_a}'s gold suspects checked against {s.reference_b}", cols, rows,
               note="touched: a change is where the suspect points; agreed: the change made the reference what the "
                    "systems say; precision: touched / checked.", sortable=False)
    recall = "undefined (nothing changed)" if s.recall is None else f"{100 * s.recall:.2f}%"
    kinds = ", ".join(f"{k} {v['pointed']} of {v['corrections']}" for k, v in s.kinds.items())
    summary = Text(f"All {len(s.suspects)} suspects: {s.touched} touched, {s.agreed} agreed. Recall {recall}: "
                   f"{s.pointed} of the {s.corrections} changes touch a suspect ({kinds}).")
    lcols = [Column("rank", "rank"), Column("type", "type"), Column("sentence", "sentence"),
             Column("gold", f"{s.reference_a}"), Column("systems", "systems"), Column("agreeing", "agreeing"),
             Column("verdict", "verdict")]
    lrows = [[Cell(c.rank, "count"), Cell(c.suspect.type), Cell(c.suspect.sentence, "count"),
              Cell(_span_text(c.suspect.gold_label, c.suspect.gold_text)),
              Cell(_span_text(c.suspect.label, c.suspect.text)), Cell(c.suspect.agreeing, "count"), Cell(c.verdict)]
             for c in s.suspects]
    listed = Table(f"suspects{suffix}", f"Every suspect of {s.reference_a} and its verdict", lcols, lrows,
                   sortable=False)
    return [Section(f"Gold suspects checked{head}", [at, summary], id=f"suspects-checked{suffix}"),
            Section(f"Suspects and verdicts{head}", [listed], id=f"suspects-list{suffix}", detail=True)]


def _span_text(label: Optional[str], text: Optional[str]) -> str:
    return "-" if not label else f"{label} [{text}]"


def _ceiling(c: ModelCeiling, annotators: List[str]) -> Table:
    cols = [Column("rank", "rank"), Column("name", "name"), Column("role", "role"), Column("mean", "mean")] + [
        Column(f"versus_{a}", a, group="against") for a in annotators] + [Column("reached", "reached")]
    rows = [[Cell(row.rank, "rank"), Cell(row.name), Cell(row.role), Cell(row.mean, "score")]
            + [Cell(row.versus.get(a), "score") for a in annotators]
            + [Cell(c.reached.get(row.name), "count")] for row in c.rows]
    rows.append([Cell(None, "rank"), Cell("ceiling"), Cell("annotators' mean"), Cell(c.ceiling, "score")]
                + [Cell(None, "score") for _ in annotators] + [Cell(None, "count")])
    return Table(f"ceiling-{c.model}", f"Annotators and systems ({c.model}): the ceiling is {100 * c.ceiling:.2f}%",
                 cols, rows, key_columns=2, row_styles=["best" if row.role == "annotator" else None for row in c.rows]
                 + ["total"],
                 note="An annotator is scored against the others, a system against every annotator; mean: over them; "
                      "the ceiling: the annotators' mean; reached: annotators whose mean a system reaches over the "
                      "same references.")


def build(r: SeveralReferences, *, spell: Spelling = python_spelling) -> Page:
    """The page of a ranking under several references."""
    refs, two = r.references, len(r.references) == 2
    k = r.models.index(r.first.reference)
    ranked = [(n, r.rankings[n]) for n in refs]
    fs = r.first.settings
    about = (f"{len(r.systems)} systems under {and_list(refs)}, {len(r.models)} models; "
             f"{fs.get('bootstrap', 0)} bootstrap resamples, seed {fs.get('seed')}")
    sections = [Section("Leaderboards", [Text(about, "note"), leaderboard(ranked, k)], id="leaderboards"),
                Section("From one reference to the next", [slope(r, k)], id="slope")]
    for i, step in enumerate(r.steps):
        suffix, head = ("", "") if two else (f"-{i + 1}", f" ({step.reference_a} to {step.reference_b})")
        sections += [Section(f"Differences{head}", [_differences(step, suffix)], id=f"differences{suffix}"),
                     Section(f"Sensitivity{head}", [_sensitivity(step, suffix)], id=f"sensitivity{suffix}"),
                     Section(f"Flips{head}", _flips(step), id=f"flips{suffix}")]
    if r.ceiling is not None:
        c = r.ceiling
        sections.append(Section("Annotators beside the systems", [_ceiling(c.models[r.models[k]], c.annotators)],
                                id="ceiling"))
    for i, (ch, sus) in enumerate(zip(r.changes, r.suspects)):
        suffix, head = ("", "") if two else (f"-{i + 1}", f" ({ch.reference_a} to {ch.reference_b})")
        sections += _changes(ch, suffix, head)
        if sus is not None:
            sections += _suspects(sus, suffix, head)
    for j, m in enumerate(r.models):
        if j != k:
            blocks: List[Any] = [leaderboard(ranked, j), slope(r, j)]
            if r.ceiling is not None:
                blocks.append(_ceiling(r.ceiling.models[m], r.ceiling.annotators))
            sections.append(Section(f"Leaderboards ({m})", blocks, id=f"leaderboards-{m}", detail=True))
    return Page("references", f"Ranked under {and_list(refs)}", sections,
                {"settings": {**r.steps[0].settings, **r.settings}})
