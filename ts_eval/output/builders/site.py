"""A results site (:class:`ts_eval.analysis.site.ResultsSite`) -> its pages: ``index.html``, the ranking's
page (:mod:`.rank`: the leaderboard under every model, intervals, significance groups, flips) with every
system's name linked to its page, and one page per system: its validation report (where there is one), its
scores under every model, its errors (:mod:`.analysis_errors`) and its comparison with the best system (the
paired test under every model, then :mod:`.compare`'s pair sections), linked back to the index and to the systems
ranked next to it.

Links are relative file names in one folder (:func:`page_file`), so the site opens from disk and from any
static host.  A builder only selects, orders and labels the results' numbers.  The other builders are reached
through :func:`ts_eval.output.builders.build` (by kind), and the models are shown in the order of the ranking's
page (its table of every model's scores).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence

from ...errors import Spelling, python_spelling
from ..page import Block, Cell, Column, Page, Section, Table, Text
from . import build
from .score import ReportLike, label_f_section

INDEX = "index.html"
#: the error analysis's sections a system's page shows (gold suspects and inconsistent gold are about gold; the
#: scores per document, a table of every document, would be 60% of a page: ``analyze`` has them)
ERROR_SECTIONS = ("errors-confusion", "errors-types", "errors-top")


def page_file(name: str, taken: Sequence[str] = ()) -> str:
    """The file name of a system's page: ``system-<name>.html``, every character other than a letter, a digit,
    ``.``, ``_`` or ``-`` as ``_`` (a file name on any host, no folder, no query), and ``-2``, ... where two
    names would share one."""
    stem = "system-" + re.sub(r"[^A-Za-z0-9._-]", "_", name)
    out, k = f"{stem}.html", 1
    while out in taken:
        k += 1
        out = f"{stem}-{k}.html"
    return out


def page_files(names: Sequence[str]) -> Dict[str, str]:
    """Every system's page file (:func:`page_file`), each once."""
    out: Dict[str, str] = {}
    for n in names:
        out[n] = page_file(n, list(out.values()))
    return out


def _link_systems(page: Page, files: Dict[str, str]) -> None:
    """Every text cell of ``page`` that is a system's name links to that system's page."""
    for t in page.tables():
        for row in t.rows:
            for c in row:
                if c.kind == "text" and isinstance(c.value, str) and c.value in files:
                    c.link = files[c.value]


def index_page(site: Any, report: Optional[ReportLike] = None, files: Optional[Dict[str, str]] = None, *,
               spell: Spelling = python_spelling) -> Page:
    """The leaderboard page: the ranking's page, every system's name a link to its page."""
    r = site.ranking
    files = files or page_files(r.systems)
    page = build(r, "rank", details=True, report=report, spell=spell)
    _link_systems(page, files)
    about = Text(f"{len(r.systems)} systems. Each system's name links to its own page: "
                 + ("its validation report, " if any(s.validation is not None for s in site.systems) else "")
                 + "its scores under every model, its errors and its comparison with the best system.", "note")
    page.sections[0].blocks.insert(0, about)
    page.title = "Results"
    return page


def shown_models(index: Page, r: Any) -> List[int]:
    """The models' indices in the order the ranking's page shows them (the columns of its scores table)."""
    table = index.table(f"scores-{r.task}")
    return [list(r.models).index(c.key) for c in table.columns[table.key_columns:]]


def scores_table(r: Any, name: str, shown: Sequence[int]) -> Table:
    """One system under every model of the ranking: score [interval], rank [interval] of how many, group, and
    the probability of keeping the rank."""
    i = list(r.systems).index(name)
    b, u = r.bootstrap, r.uncertainty
    groups = u.groups if u is not None else None
    cols = [Column("model", "model"), Column("score", "score"), Column("rank", "rank"),
            Column("systems", "of systems")]
    cols += [Column("keep_rank", "keeps rank %")] if b is not None else []
    cols += [Column("group", "group")] if groups is not None else []
    rows, keys = [], []
    for k in shown:
        score = Cell(float(r.scores[i, k]), "score", style="best" if r.order[k][0] == i else None)
        place = Cell(float(r.ranks[i, k]), "rank")
        if b is not None:
            score.low, score.high = float(b.score_low[i, k]), float(b.score_high[i, k])
            place.low, place.high = float(b.rank_low[i, k]), float(b.rank_high[i, k])
        row = [Cell(r.titles[k]), score, place, Cell(len(r.systems), "count")]
        row += [Cell(float(b.keep[i, k]), "score")] if b is not None else []
        row += [Cell(int(groups[i, k]), "count")] if groups is not None else []
        rows.append(row)
        keys.append(r.models[k])
    note = (f"{100 * b.confidence:g}% paired bootstrap intervals ({b.resamples} resamples), as on the leaderboard"
            if b is not None else "")
    return Table(f"scores-{name}", f"{name} under every model", cols, rows, note=note, row_keys=keys)


def against_table(site: Any, s: Any, shown: Sequence[int]) -> Table:
    """The system against the one it is compared with, under every model: both scores, the difference and the
    paired test's p-value (marked below the ranking's alpha)."""
    r = site.ranking
    i, j = list(r.systems).index(s.name), list(r.systems).index(s.against)
    alpha = r.settings.get("alpha", 0.05)
    cols = [Column("model", "model"), Column("system", s.name), Column("against", s.against),
            Column("difference", "difference"), Column("p", "p-value")]
    rows, keys = [], []
    for k in shown:
        p = float(s.p_values[k])
        rows.append([Cell(r.titles[k]), Cell(float(r.scores[i, k]), "score"), Cell(float(r.scores[j, k]), "score"),
                     Cell(float(r.scores[i, k] - r.scores[j, k]), "signed"),
                     Cell(p, "p", style="significant" if p < alpha else None)])
        keys.append(r.models[k])
    return Table(f"test-{s.name}", f"{s.name} against {s.against}", cols, rows, row_keys=keys,
                 note=f"paired approximate randomisation over {r.settings.get('unit', 'sentence')}s, "
                      f"{site.settings['permutations']} permutations, the difference of the two systems' scores; in "
                      f"bold: p < {alpha:g}")


def _one_system(report: Optional[ReportLike], name: str) -> Optional[Section]:
    """The per-label scores of one system of a score report."""
    if report is None:
        return None
    rep = dict(report if isinstance(report, dict) else report.to_dict())
    rep["systems"] = [x for x in rep["systems"] if x["name"] == name]
    return label_f_section(rep) if rep["systems"] else None


def validation_sections(s: Any, *, spell: Spelling = python_spelling) -> List[Section]:
    """The system's validation report (:mod:`.validate`'s sections, headed as the site's), where it has one."""
    if s.validation is None:
        return []
    out = build(s.validation, "validate", spell=spell).sections
    for sec in out:
        sec.title = f"Validation: {sec.title[:1].lower()}{sec.title[1:]}"
        sec.id = f"validation-{sec.id}"
    return out


def system_page(site: Any, s: Any, files: Dict[str, str], shown: Sequence[int], report: Optional[ReportLike] = None,
                *, spell: Spelling = python_spelling) -> Page:
    """One system's page (``shown``: the models' order, :func:`shown_models`)."""
    r = site.ranking
    order = [r.systems[i] for i in r.order[r.reference_index]]
    k = order.index(s.name)
    nav: List[Block] = [Text("← the leaderboard", "note", link=INDEX)]
    if k > 0:
        nav.append(Text(f"↑ {order[k - 1]}, ranked above", "note", link=files[order[k - 1]]))
    if k + 1 < len(order):
        nav.append(Text(f"↓ {order[k + 1]}, ranked below", "note", link=files[order[k + 1]]))
    sections = validation_sections(s, spell=spell) + [Section("Scores", [scores_table(r, s.name, shown)], id="scores")]
    sections[0].blocks[:0] = nav
    labels = _one_system(report, s.name)
    if labels is not None:
        sections.append(labels)
    for sec in build(s.errors, "analysis_errors", spell=spell).sections:
        if sec.id in ERROR_SECTIONS:
            sec.title = f"Errors: {sec.title[:1].lower()}{sec.title[1:]}"
            sections.append(sec)
    why = ("the best system, compared with the second" if s.name == site.best else "compared with the best system")
    head = Text(f"{s.name}, {why} ({s.against}, first under {r.titles[r.reference_index]}); A is {s.against}, "
                f"B is {s.name}.", "note", link=files[s.against])
    sections.append(Section(f"Against {s.against}", [head, against_table(site, s, shown)], id="against"))
    for sec in build(s.comparison, "compare", spell=spell).sections:
        if sec.id in ("systems", "legend"):
            continue
        sec.title = f"Against {s.against}: {sec.title[:1].lower()}{sec.title[1:]}"
        sec.detail = sec.id not in ("token", "span")
        sections.append(sec)
    page = Page("results site", f"{s.name}: rank {r.ranks[list(r.systems).index(s.name), r.reference_index]:g} of "
                f"{len(r.systems)}", sections, {"settings": dict(site.settings)})
    _link_systems(page, {n: f for n, f in files.items() if n != s.name})
    return page


def pages(site: Any, report: Optional[ReportLike] = None, *, spell: Spelling = python_spelling) -> Dict[str, Page]:
    """Every page of the site by its file name: ``index.html`` first, then the systems' pages in the order of
    the leaderboard."""
    files = page_files(site.ranking.systems)
    out = {INDEX: index_page(site, report, files, spell=spell)}
    shown = shown_models(out[INDEX], site.ranking)
    for s in site.systems:
        out[files[s.name]] = system_page(site, s, files, shown, report, spell=spell)
    return out
