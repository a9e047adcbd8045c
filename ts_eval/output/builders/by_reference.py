"""The pages of several references of the same tokens (:mod:`ts_eval.comparison.by_reference`):

- a :class:`~ts_eval.comparison.by_reference.ScoresByReference` (``score`` with several ``--gold``): each
  system's headline score under each reference with the difference to the first reference, then each
  reference's score page (:mod:`.score`, its sections named after the reference);
- a :class:`~ts_eval.comparison.by_reference.PairByReference` (``compare`` with several ``--gold``): the
  pair's difference and paired test under each reference, where the verdict changes, then each reference's
  comparison page (:mod:`.compare`).

It selects and labels the results' numbers; it computes none."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, List

from ...errors import Spelling, python_spelling
from ..page import Cell, Column, Figure, Page, Section, Table, Text

if TYPE_CHECKING:
    from ...comparison.by_reference import PairByReference, ScoresByReference


def prefixed(page: Page, name: str) -> List[Section]:
    """``page``'s sections, each title led by ``name`` and every id by ``name-`` (ids stay unique on a page
    that holds one such page per reference)."""
    out = []
    for s in page.sections:
        blocks = [dataclasses.replace(b, id=f"{name}-{b.id}") if isinstance(b, (Table, Figure)) else b
                  for b in s.blocks]
        out.append(dataclasses.replace(s, title=f"{name}: {s.title}", id=f"{name}-{s.id or 'section'}",
                                       blocks=blocks))
    return out


def _scores_table(r: ScoresByReference) -> Table:
    first = r.references[0]
    models = list(next(iter(r.scores.values())))
    cols = [Column("system", "system")]
    for m in models:
        cols += [Column(f"{m}-{ref}", f"{m}: {ref}", m) for ref in r.references]
        cols += [Column(f"{m}-{ref}-difference", f"{m}: {ref} - {first}", m) for ref in r.references[1:]]
    rows = []
    for s in r.systems:
        row = [Cell(s)]
        for m in models:
            row += [Cell(r.scores[s][m][ref], "score") for ref in r.references]
            row += [Cell(r.difference(s, m, ref), "signed") for ref in r.references[1:]]
        rows.append(row)
    return Table("by-reference", "Headline F1 in % of each system under each reference (micro F; fair: its F1)",
                 cols, rows, keep_groups=True)


def build_scores(r: ScoresByReference, *, spell: Spelling = python_spelling, **options: Any) -> Page:
    """The page of the scores under several references (``options``: the score page's, for every reference)."""
    from .score import build as score_page

    first = r.references[0]
    about = (f"{len(r.systems)} systems scored against {len(r.references)} references of the same tokens: "
             f"{', '.join(r.references)}; the differences are to {first}.")
    sections = [Section("Under each reference", [Text(about, "note"), _scores_table(r)], id="by-reference")]
    for ref in r.references:
        sections += prefixed(score_page(r.reports[ref], spell=spell, **options), ref)
    return Page("score", f"Scores under {len(r.references)} references", sections,
                {"settings": r.settings, "references": list(r.references)})


def _tests_table(r: PairByReference) -> Table:
    cols = [Column("model", "model")]
    for ref in r.references:
        cols += [Column(f"{ref}-difference", f"{ref}: B - A", ref), Column(f"{ref}-p", f"{ref}: p", ref),
                 Column(f"{ref}-verdict", f"{ref}: better", ref)]
    rows = []
    for m in r.models:
        row = [Cell(m)]
        for ref in r.references:
            t = r.tests[ref][m]
            row += [Cell(t["difference"], "signed"), Cell(t["p_value"], "p"),
                    Cell({"B": r.b, "A": r.a}.get(t["verdict"], "neither"),
                         style="significant" if t["verdict"] != "tie" else None)]
        rows.append(row)
    alpha = r.settings.get("alpha", 0.05)
    return Table("pair-by-reference", f"{r.b} - {r.a} under each reference, with the paired test", cols, rows,
                 note=(f"p: paired approximate-randomisation test over sentences ({r.settings.get('permutations')} "
                       f"permutations, seed {r.settings.get('seed')}); better: the system ahead when p < {alpha:g}, "
                       "else neither."), keep_groups=True)


def _verdicts(r: PairByReference) -> Text:
    changed = r.changes
    if not changed:
        return Text(f"The verdict is the same under every reference for all {len(r.models)} models.", "summary")
    parts = []
    for m in changed:
        said = ", ".join(f"{ref}: {({'B': r.b, 'A': r.a}.get(r.tests[ref][m]['verdict'], 'neither'))}"
                         for ref in r.references)
        parts.append(f"{m} ({said})")
    return Text(f"The verdict changes between references under {len(changed)} of {len(r.models)} models: "
                + "; ".join(parts) + ".", "summary")


def build_pair(r: PairByReference, *, spell: Spelling = python_spelling, **options: Any) -> Page:
    """The page of two systems compared under several references (``options``: the comparison page's)."""
    from .compare import build as compare_page

    about = f"A = {r.a} (baseline), B = {r.b}, under {len(r.references)} references: {', '.join(r.references)}."
    sections = [Section("Under each reference", [Text(about, "note"), _tests_table(r), _verdicts(r)],
                        id="by-reference")]
    for ref in r.references:
        sections += prefixed(compare_page(r.comparisons[ref], spell=spell, **options), ref)
    return Page("compare", f"{r.b} against {r.a} under {len(r.references)} references", sections,
                {"settings": r.settings, "references": list(r.references)})


def build(r: Any, *, spell: Spelling = python_spelling, **options: Any) -> Page:
    if type(r).__name__ == "PairByReference":
        return build_pair(r, spell=spell, **options)
    return build_scores(r, spell=spell, **options)
