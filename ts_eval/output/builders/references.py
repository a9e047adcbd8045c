"""The page of the systems ranked under two references (:class:`~ts_eval.ranking.references.ReferenceRanking`):
each reference's leaderboard, the differences B - A with their paired intervals, the correlations and
flips per model, and the sensitivity table.  It selects and labels the result's numbers; it computes none."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Sequence, Tuple

from ...errors import Spelling, python_spelling
from ..page import Cell, Column, Page, Section, Table, Text

if TYPE_CHECKING:
    from ...ranking.references import ReferenceRanking
    from ...ranking.study import RankingResult


def _leaderboard(r: ReferenceRanking, k: int) -> Table:
    """Systems in reference A's order under model ``k``: score and rank under both, with intervals."""
    return leaderboard([(r.reference_a, r.a), (r.reference_b, r.b)], k)


def leaderboard(rankings: Sequence[Tuple[str, RankingResult]], k: int) -> Table:
    """Systems in the first reference's order under model ``k``: score and rank under each reference (two: the
    columns ``score_a``, ``rank_a``, ``score_b``, ``rank_b``; more: ``score_NAME`` and ``rank_NAME``), with
    intervals."""
    first = rankings[0][1]
    model, two = first.models[k], len(rankings) == 2
    cols = [Column("system", "system")]
    for j, (name, _) in enumerate(rankings):
        key = "ab"[j] if two else name
        cols += [Column(f"score_{key}", f"{name} %"), Column(f"rank_{key}", "rank")]
    rows = []
    for i in first.order[k]:
        cells = [Cell(first.systems[i])]
        for _, res in rankings:
            bo = res.bootstrap
            cells += [Cell(res.scores[i, k], "score", low=None if bo is None else bo.score_low[i, k],
                           high=None if bo is None else bo.score_high[i, k]),
                      Cell(res.ranks[i, k], "rank", low=None if bo is None else bo.rank_low[i, k],
                           high=None if bo is None else bo.rank_high[i, k])]
        rows.append(cells)
    names = [n for n, _ in rankings]
    return Table(f"leaderboard-{model}", f"Leaderboards under {and_list(names)} ({model})", cols,
                 rows, note="Scores and ranks with their bootstrap intervals under each reference.")


def and_list(names: Sequence[str]) -> str:
    """``A and B``, ``A, B and C``."""
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + f" and {names[-1]}"


def _differences(r: ReferenceRanking, suffix: str = "") -> Table:
    """Every system's B - A under every model, with the paired interval."""
    cols = [Column("system", "system")] + [Column(m, m) for m in r.models]
    low, high = r.difference_low, r.difference_high
    ref = r.models.index(r.a.reference)
    rows = [[Cell(r.systems[i])] + [Cell(r.difference[i, k], "signed", low=None if low is None else low[i, k],
                                         high=None if high is None else high[i, k]) for k in range(len(r.models))]
            for i in r.a.order[ref]]
    conf = r.settings.get("confidence", 0.95)
    title = f"Difference {r.reference_b} - {r.reference_a} per system and model, in {r.reference_a}'s order"
    return Table(f"differences{suffix}", title, cols, rows,
                 note=f"{100 * conf:g}% paired bootstrap intervals: the same resamples under both references.")


def _sensitivity(r: ReferenceRanking, suffix: str = "") -> Table:
    kinds = list(r.by_kind)
    cols = [Column("model", "model"), Column("mean_abs_difference", "mean |d|"), Column("max_abs_difference",
                                                                                          "max |d|"),
            Column("rank_moves", "moved"), Column("spearman", "rho"), Column("kendall_tau_b", "tau"),
            Column("changed", "flips"), Column("interval_excludes_zero", "excl. 0")] + [
        Column(g, f"{g} |d|", group="one kind of change only") for g in kinds]
    rows: List[List[Cell]] = []
    for row in r.sensitivity():
        rows.append([Cell(row["model"]), Cell(row["mean_abs_difference"], "score"),
                     Cell(row["max_abs_difference"], "score"), Cell(row["rank_moves"], "count"),
                     Cell(row["spearman"], "corr"), Cell(row["kendall_tau_b"], "corr"), Cell(row["changed"], "count"),
                     Cell(row["interval_excludes_zero"], "count")]
                    + [Cell(row["by_kind"][g], "score") for g in kinds])
    units = ", ".join(f"{g} {n}" for g, n in r.kind_units.items())
    step = f" ({r.reference_a} to {r.reference_b})" if suffix else ""
    return Table(f"sensitivity{suffix}", f"Sensitivity to the change of reference{step}, most sensitive model first",
                 cols, rows,
                 note=("|d|: |B - A| over the systems; moved: systems whose rank changes; one kind of change only: "
                       f"B's annotation on the units whose changes are all of that kind ({units})."),
                 sortable=False)


def _flips(r: ReferenceRanking) -> List[Any]:
    lines: List[Any] = [Text(f"Each pair: the system {r.reference_a} puts higher > the one {r.reference_b} puts "
                             "higher.", "note")]
    for m, f in r.flips.items():
        pairs = ", ".join(f"{p.better_under_a} > {p.better_under_b}" for p in f.pairs) or "none"
        lines.append(Text(f"{m}: {f.changed} of {f.pairs_compared} pairs flip ({pairs})"))
    return lines


def build(r: ReferenceRanking, *, spell: Spelling = python_spelling) -> Page:
    """The page of a ranking under two references."""
    k = r.models.index(r.a.reference)
    about = (f"{len(r.systems)} systems under {r.reference_a} and {r.reference_b}, {len(r.models)} models; "
             f"{r.settings.get('bootstrap', 0)} bootstrap resamples, seed {r.settings.get('seed')}")
    sections = [Section("Leaderboards", [Text(about, "note"), _leaderboard(r, k)], id="leaderboards"),
                Section("Differences", [_differences(r)], id="differences"),
                Section("Sensitivity", [_sensitivity(r)], id="sensitivity"),
                Section("Flips", _flips(r), id="flips")]
    sections += [Section(f"Leaderboards ({m})", [_leaderboard(r, j)], id=f"leaderboards-{m}", detail=True)
                 for j, m in enumerate(r.models) if j != k]
    return Page("references", f"Ranked under {r.reference_a} and {r.reference_b}", sections,
                {"settings": r.settings})
