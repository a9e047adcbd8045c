"""The parts of the comparison page that ``compare --models`` adds: each system's scores under
the chosen models (the summary table of ``score``'s page, over the same result dicts), and with
``semeval`` the SemEval-2013 categories of every system and the pair's transitions per scheme.

Builders only select and label numbers the comparison holds (``systems[i][model]`` and
``pair.semeval``, :mod:`ts_eval.comparison.semeval_spans`); nothing is computed here.
"""
from __future__ import annotations

from typing import Any, List, Optional

from ...comparison.results import ARROW, CLASS_TITLES, CLASSES
from ..page import Cell, Column, Section, Table, Text
from .score import SEMEVAL_COUNTS, SEMEVAL_SCHEMES, score_cell, summary

#: the gold spans' categories, in the order of ``pair.semeval``'s matrices
GOLD_CATEGORIES = ("correct", "incorrect", "partial", "missed")
SEMEVAL_NOTE = ("SemEval-2013 (nervaluate, overall evaluation): a gold span is correct, incorrect, partial or "
                "missed, a system span matched to no gold span spurious; corrections: B correct, A not; new errors: "
                "A correct, B not; changed errors: both not correct, differently (another category or another "
                "system span); spurious → none: a spurious span of A that B drops, none → spurious: one B adds. "
                "A gold span correct under both with different system spans counts as 'correct, other span' only.")


def models_table(c: Any) -> Optional[Table]:
    """Per system, the chosen models' scores as ``score``'s summary shows them (None: no models)."""
    models = c.settings.get("models") or []
    if not models:
        return None
    t = summary({"settings": {"models": models, "beta": 1.0}, "systems": c.systems})
    t.id = "models"
    t.title = f"Scores in % under the chosen models ({', '.join(models)}), as ts-eval score reports them"
    return t


def semeval_systems(c: Any) -> Table:
    """Per scheme and system: the overall counts and P/R/F (the semeval model's numbers)."""
    cols = [Column("scheme", "scheme"), Column("system", "system")] + \
        [Column(k, k, "counts") for k in SEMEVAL_COUNTS] + \
        [Column(k, t) for k, t in (("precision", "P"), ("recall", "R"), ("f", "F"))]
    rows = []
    for k in SEMEVAL_SCHEMES:
        for s in c.systems:
            r = s["semeval"][k]["overall"]
            rows.append([Cell(k), Cell(s["name"])] + [Cell(r[n], "count") for n in SEMEVAL_COUNTS]
                        + [score_cell(r, m, SEMEVAL_COUNTS) for m in ("precision", "recall", "f")])
    return Table("semeval-systems", "SemEval-2013 schemes per system, overall (nervaluate; scores in %)", cols, rows,
                 key_columns=2)


def _summary(sem: Any) -> Table:
    """Per scheme: how many gold and spurious spans differ between A and B, by class."""
    heads = [("gold", "gold spans"), ("spurious", "spurious (A or B)"), ("differing", "differing"),
             ("diff", "diff %")] + [(k, CLASS_TITLES[k].lower()) for k in CLASSES] + \
        [("dropped", "spurious → none"), ("added", "none → spurious"), ("kept", "spurious kept"),
         ("counterpart", "correct, other span")]
    rows = []
    for k, d in sem.schemes.items():
        moves = [d.spurious_moves[m] for m in ("spurious → none", "none → spurious", "spurious kept")]
        rows.append([Cell(k), Cell(d.gold, "count"), Cell(d.spurious, "count"), Cell(d.differing, "count"),
                     Cell(d.diff, "score")] + [Cell(d.classes[x].count, "count") for x in CLASSES]
                    + [Cell(v, "count") for v in moves] + [Cell(d.changed_counterpart.get("correct", 0), "count")])
    return Table("semeval-summary", f"SemEval-2013 span level: {sem.a} (A) → {sem.b} (B), per scheme",
                 [Column("scheme", "scheme")] + [Column(k, t) for k, t in heads], rows)


def _transitions(sem: Any) -> Table:
    cols = [Column("scheme", "scheme"), Column("class", "class"), Column("transition", "transition"),
            Column("count", "count"), Column("of_class", "of class %"), Column("of_diff", "of diff %")]
    rows = [[Cell(k), Cell(CLASS_TITLES[x]), Cell(t.name), Cell(t.count, "count"), Cell(t.share_of_class, "score"),
             Cell(t.share_of_diff, "score")]
            for k, d in sem.schemes.items() for x in CLASSES for t in d.classes[x].top]
    return Table("semeval-transitions", f"SemEval-2013 transitions: A category{ARROW}B category, most frequent "
                 "per class and scheme", cols, rows, key_columns=3)


#: the gold-span category a scheme never gives (strict, exact, ent_type: no partial; partial: no incorrect)
NEVER = {"strict": "partial", "exact": "partial", "ent_type": "partial", "partial": "incorrect"}


def _matrix(sem: Any) -> Table:
    """Gold spans by category under A (rows) and under B (columns), per scheme; the row of the category
    a scheme never gives is left out (its column stays: the columns are shared by the schemes)."""
    cols = [Column("scheme", "scheme"), Column("a", "A \\ B")] + [Column(x, x) for x in GOLD_CATEGORIES] + \
        [Column("total", "total")]
    rows: List[List[Cell]] = []
    styles: List[Optional[str]] = []
    for k, d in sem.schemes.items():
        for x, row in zip(GOLD_CATEGORIES, d.matrix):
            if NEVER.get(k) == x and not any(row):
                continue
            rows.append([Cell(k), Cell(x)] + [Cell(v, "count") for v in row] + [Cell(sum(row), "count")])
            styles.append(None)
        rows.append([Cell(k), Cell("total")] + [Cell(sum(col), "count") for col in zip(*d.matrix)]
                    + [Cell(d.gold, "count")])
        styles.append("total")
    return Table("semeval-matrix", "SemEval-2013: gold spans by category under A (rows) and B (columns)", cols, rows,
                 key_columns=2, row_styles=styles)


def _labels(sem: Any) -> Table:
    heads = [("gold", "gold"), ("spurious", "spurious"), ("correct_a", "correct A"), ("correct_b", "correct B"),
             ("correction", "corrections"), ("new_error", "new errors"), ("changed_error", "changed"), ("net", "net")]
    cols = [Column("scheme", "scheme"), Column("label", "label")] + [Column(k, t) for k, t in heads] + \
        [Column("diff", "diff %"), Column("top", "top transition")]
    rows = []
    for k, d in sem.schemes.items():
        for r in d.per_label:
            top = next(iter(r["transitions"].items()), None)
            rows.append([Cell(k), Cell(r["label"])] + [Cell(r[h], "count") for h, _ in heads]
                        + [Cell(r["diff"], "score"), Cell(f"{top[0]} ({top[1]})" if top else "")])
    return Table("semeval-labels", "SemEval-2013 span level per label (gold spans by gold label, spurious spans by "
                 "their label)", cols, rows, key_columns=2)


def semeval_sections(c: Any) -> List[Section]:
    """The SemEval-2013 section (systems, and the pair's transitions) and its per-label detail."""
    if not c.systems or "semeval" not in c.systems[0]:
        return []
    blocks: List[Any] = [semeval_systems(c)]
    sem = c.pair.semeval if c.pair is not None else None
    if sem is None:
        return [Section("SemEval-2013 categories", blocks, id="semeval")]
    blocks += [_summary(sem), _transitions(sem), _matrix(sem), Text(SEMEVAL_NOTE, "note")]
    return [Section("SemEval-2013 categories", blocks, id="semeval"),
            Section("SemEval-2013 per label", [_labels(sem)], id="semeval-labels", detail=True)]

