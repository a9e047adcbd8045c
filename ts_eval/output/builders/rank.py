"""RankingResult / MultiTaskResult -> Page.

Summary (always): the leaderboard under the reference model (score with its interval, rank
interval, significance group), the rank-shift table (the paper's Table 2, one column per
model), the agreement of every model with the reference (Spearman and Kendall with their
intervals, pairs changing order) and the Spearman and Kendall matrices with intervals.
Details (sections marked ``detail``; ``details=False`` leaves them out): every model's
scores with intervals, ranks with intervals, probability of keeping the rank, each model's
ranking (the system at each position), neighbour p-values (raw and Holm), groups under every
model, the resamples that left a correlation undefined, the flip summary of every model pair
and the flips between the reference and every model (and the pairs asked for; every model
pair's with ``every_flip``, for the machine formats), and with a score ``report`` (optional)
per-label F and fair error types per system.  Tables about models name their rows and columns
by the models' names for the machine formats (``row_keys``, column keys) and show their titles.

Numbers are read from the result's arrays (the same arrays ``to_dict()`` writes), never
recomputed; flips come from :meth:`RankingResult.flips`.
"""
from __future__ import annotations

from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from ...errors import Spelling, python_spelling
from ...ranking import uncertainty as rank_uncertainty
from ...ranking.study import MultiTaskResult, RankingResult
from ..page import Block, Cell, Column, Figure, Page, Section, Table, Text
from . import rank_runs
from .score import ReportLike


def _f(x: Any) -> Optional[float]:
    """A numpy number as a float (nan stays nan; renderers write n/a)."""
    return None if x is None else float(x)


class _Intervals(NamedTuple):
    """The bootstrap intervals of a ranking's correlations (models x models each)."""

    confidence: float
    resamples: int
    spearman_low: np.ndarray
    spearman_high: np.ndarray
    kendall_low: np.ndarray
    kendall_high: np.ndarray
    undefined: np.ndarray     # resamples on which a coefficient is undefined


def _intervals(r: RankingResult) -> Optional[_Intervals]:
    """The correlation intervals of ``r`` (None without bootstrap resamples; the uncertainty sets them
    together)."""
    u = r.uncertainty
    if (u is None or u.confidence is None or u.spearman_low is None or u.spearman_high is None
            or u.kendall_low is None or u.kendall_high is None or u.undefined is None):
        return None
    return _Intervals(u.confidence, u.resamples, u.spearman_low, u.spearman_high, u.kendall_low, u.kendall_high,
                      u.undefined)


def _names(r: RankingResult) -> List[str]:
    return list(r.systems)


def shown_models(r: RankingResult) -> List[int]:
    """The models' indices in the order the page shows them: as asked for; a reference the study added
    (``reference_added``: the ranking puts it first) comes after the models asked for."""
    ref = r.reference_index
    if not r.settings.get("reference_added") or len(r.models) < 2:
        return list(range(len(r.models)))
    return [k for k in range(len(r.models)) if k != ref] + [ref]


def lead(r: RankingResult) -> int:
    """The model whose leaderboard leads the page: the reference, unless the study added it to models
    asked for without it; then the first model asked for."""
    return shown_models(r)[0] if r.settings.get("reference_added") else r.reference_index


# ---------------------------------------------------------------------------
# summary


def leaderboard(r: RankingResult, k: Optional[int] = None) -> Section:
    """Systems in model ``k``'s order (default the model that leads, :func:`lead`): score [interval], rank
    [interval], group; with runs (:mod:`.rank_runs`) the score is their mean, with their sd and number beside it,
    and the chart shows each run's score."""
    k = lead(r) if k is None else k
    title, b, u = r.titles[k], r.bootstrap, r.uncertainty
    if r.runs is not None:
        groups = rank_runs.groups(r)
    else:
        groups = u.groups if u is not None and u.groups is not None else None
    cols = [Column("rank", "#"), Column("system", "system"), Column("score", title)]
    if r.runs is not None:
        cols += rank_runs.columns()
    if b is not None:
        cols.append(Column("rank_interval", f"rank {100 * b.confidence:g}%"))
        cols.append(Column("keep_rank", "keeps rank %"))
    if groups is not None:
        cols.append(Column("group", "group"))
    rows, labels, vals, lows, highs, grp = [], [], [], [], [], []
    top = r.order[k][0]
    for i in r.order[k]:
        sc = _f(r.scores[i, k])
        cell = Cell(sc, "score", style="best" if i == top else None)
        row = [Cell(_f(r.ranks[i, k]), "rank"), Cell(r.systems[i]), cell]
        if r.runs is not None:
            row += rank_runs.cells(r, i, k)
        if b is not None:
            cell.low, cell.high = _f(b.score_low[i, k]), _f(b.score_high[i, k])
            row.append(Cell(_f(r.ranks[i, k]), "rank", low=_f(b.rank_low[i, k]), high=_f(b.rank_high[i, k])))
            row.append(Cell(_f(b.keep[i, k]), "score"))
        if groups is not None:
            row.append(Cell(int(groups[i, k]), "count"))
        rows.append(row)
        labels.append(r.systems[i])
        vals.append(sc)
        lows.append(cell.low if b is not None else sc)
        highs.append(cell.high if b is not None else sc)
        grp.append(int(groups[i, k]) if groups is not None else None)
    note = ""
    if r.runs is not None:
        note = rank_runs.note(r)
    elif b is not None:
        note = (f"{100 * b.confidence:g}% paired bootstrap intervals ({b.resamples} resamples of {b.units} "
                f"{b.unit}s, percentile).")
    if r.runs is None and u is not None and groups is not None:
        note += f" Groups (alpha {u.alpha:g}, Holm): {rank_uncertainty.GROUP_RULE}."
    t = Table(f"lb-{r.task}-{r.models[k]}", f"{r.task}: leaderboard under {title}", cols, rows, key_columns=2,
              note=note.strip())
    data = {"labels": labels, "values": vals, "low": lows, "high": highs, "kind": "score",
            "groups": grp if groups is not None else None}
    if r.runs is not None:
        data.update(rank_runs.figure_data(r, k, [int(i) for i in r.order[k]]))
    fig = Figure(f"lb-fig-{r.task}-{r.models[k]}", f"{r.task}: {title} with intervals"
                 + (" and each run's score" if r.runs is not None else ""), "intervals", data,
                 note=rank_runs.figure_note(r) if r.runs is not None else "")
    return Section(f"{r.task}: leaderboard under {title}", [t, fig], id=f"leaderboard-{r.task}-{r.models[k]}")


def rank_shifts(r: RankingResult) -> Section:
    """The paper's Table 2: at each position of each model's ranking, that system's reference rank."""
    ref = r.reference_index
    ref_ranks = r.ranks[:, ref]
    shown = shown_models(r)
    cols = [Column("position", "position")] + [Column(r.models[k], r.titles[k]) for k in shown]
    rows = []
    for p in range(len(r.systems)):
        row = [Cell(p + 1, "rank")]
        for k in shown:
            x = float(ref_ranks[r.order[k][p]])
            jump = x - (p + 1)
            row.append(Cell(x, "rank", style=None if jump == 0 else ("up" if jump > 0 else "down"),
                            note=r.systems[r.order[k][p]]))
        rows.append(row)
    t = Table(f"shifts-{r.task}", f"{r.task}: rank shifts: each cell is the rank under {r.titles[ref]} of the "
              "system at that position of the models' rankings", cols, rows,
              note="green (up): this model ranks the system higher than the reference does (the cell, its "
                   "reference rank, is larger than the position); red (down): lower; each cell's note names "
                   "the system")
    bump = Figure(f"bump-{r.task}", f"{r.task}: ranks across models", "bump",
                  {"models": [r.titles[k] for k in shown], "systems": _names(r),
                   "ranks": [[_f(r.ranks[i, k]) for k in shown] for i in range(len(r.systems))]})
    return Section(f"{r.task}: rank shifts", [t, bump], id=f"shifts-{r.task}")


def _settled(r: RankingResult) -> bool:
    """Whether the flips of ``r`` are judged by its runs (ASO) instead of the permutation test."""
    return r.runs is not None and r.runs.aso is not None


def _flip_rule(r: RankingResult) -> str:
    return (rank_uncertainty.FLIP_RULE_RUNS if _settled(r) else rank_uncertainty.FLIP_RULE).capitalize() + "."


def _judged(r: RankingResult) -> Column:
    """The column that counts the flips that hold: significant under both, or (runs) settled by the runs."""
    return Column("settled", "settled by the runs") if _settled(r) else Column("significant", "significant under both")


def agreement(r: RankingResult) -> Section:
    """Every model against the reference: Spearman and Kendall with intervals, pairs changing order."""
    ref, ci = r.reference_index, _intervals(r)
    cols = [Column("model", "model"), Column("spearman", "Spearman"), Column("kendall", "Kendall tau-b"),
            Column("changed", "pairs changing order"), Column("compared", "of pairs"), _judged(r)]
    rows, keys = [], []
    for k in shown_models(r):
        if k == ref:
            continue
        title = r.titles[k]
        keys.append(r.models[k])
        f = r.flips(r.reference, r.models[k])
        rows.append([Cell(title),
                     Cell(_f(r.spearman[ref, k]), "corr", *((_f(ci.spearman_low[ref, k]), _f(ci.spearman_high[ref, k]))
                                                            if ci else (None, None))),
                     Cell(_f(r.kendall[ref, k]), "corr", *((_f(ci.kendall_low[ref, k]), _f(ci.kendall_high[ref, k]))
                                                           if ci else (None, None))),
                     Cell(f.changed, "count"), Cell(f.pairs_compared, "count"),
                     Cell(f.settled_by_runs if _settled(r) else f.significant_under_both, "count")])
    note = _flip_rule(r)
    if ci:
        note += (f" Intervals ({100 * ci.confidence:g}%, {ci.resamples} resamples): "
                 f"{rank_uncertainty.CORRELATION_METHOD}.")
    t = Table(f"agreement-{r.task}", f"{r.task}: agreement of each model with {r.titles[ref]}", cols, rows, note=note,
              row_keys=keys)
    return Section(f"{r.task}: agreement with the reference", [t], id=f"agreement-{r.task}")


def matrix(tid: str, title: str, models: Sequence[str], titles: Sequence[str], m: np.ndarray,
           low: Optional[np.ndarray] = None, high: Optional[np.ndarray] = None, note: str = "") -> List[Block]:
    """A models x models correlation matrix (with intervals) as a table and a heatmap (rows and
    columns keyed by the models' names, shown by their titles)."""
    cols = [Column("model", "")] + [Column(name, t) for name, t in zip(models, titles)]
    rows = []
    for i, t in enumerate(titles):
        rows.append([Cell(t)] + [Cell(_f(m[i, j]), "corr", _f(low[i, j]) if low is not None else None,
                                      _f(high[i, j]) if high is not None else None) for j in range(len(titles))])

    def grid(a: Optional[np.ndarray]) -> Optional[List[List[Optional[float]]]]:
        return None if a is None else [[_f(v) for v in row] for row in a]

    fig = Figure(f"{tid}-heatmap", title, "heatmap",
                 {"rows": list(titles), "columns": list(titles), "values": grid(m), "low": grid(low),
                  "high": grid(high), "kind": "corr", "range": [-1.0, 1.0]}, note=note)
    return [Table(tid, title, cols, rows, note=note, sortable=False, row_keys=list(models)), fig]


def _square(order: Sequence[int], a: ArrayLike) -> np.ndarray:
    """A models x models array with its rows and columns in ``order``."""
    square: np.ndarray = np.asarray(a)[np.ix_(order, order)]
    return square


def count_matrix(tid: str, title: str, models: Sequence[str], titles: Sequence[str], m: np.ndarray,
                 note: str = "") -> Table:
    """A models x models matrix of counts (the resamples that left a coefficient undefined)."""
    cols = [Column("model", "")] + [Column(name, t) for name, t in zip(models, titles)]
    rows = [[Cell(t)] + [Cell(int(v), "count") for v in row] for t, row in zip(titles, m)]
    return Table(tid, title, cols, rows, note=note, sortable=False, row_keys=list(models))


def correlations(r: RankingResult) -> Section:
    ci = _intervals(r)
    what = f" with {100 * ci.confidence:g}%{_two_level(r)} bootstrap intervals" if ci else ""
    o = shown_models(r)
    models, titles = [r.models[k] for k in o], [r.titles[k] for k in o]
    blocks = matrix(f"spearman-{r.task}", f"{r.task}: Spearman's rank correlation{what}", models, titles,
                    _square(o, r.spearman), _square(o, ci.spearman_low) if ci else None,
                    _square(o, ci.spearman_high) if ci else None, r.spearman_note)
    blocks += matrix(f"kendall-{r.task}", f"{r.task}: Kendall's tau-b{what}", models, titles, _square(o, r.kendall),
                     _square(o, ci.kendall_low) if ci else None, _square(o, ci.kendall_high) if ci else None)
    return Section(f"{r.task}: rank correlations", blocks, id=f"correlations-{r.task}")


# ---------------------------------------------------------------------------
# details


def _per_model(r: RankingResult, tid: str, title: str, cell: Callable[[int, int], Cell], note: str = "") -> Table:
    """Systems (in the order of the model that leads) x models, one cell per (system, model)."""
    shown = shown_models(r)
    cols = [Column("system", "system")] + [Column(r.models[k], r.titles[k]) for k in shown]
    rows = [[Cell(r.systems[i])] + [cell(i, k) for k in shown] for i in r.order[lead(r)]]
    return Table(tid, title, cols, rows, note=note)


def _two_level(r: RankingResult) -> str:
    """' two-level' where the intervals come from the two-level bootstrap of runs (:mod:`.rank_runs`)."""
    return " two-level" if r.runs is not None else ""


def model_tables(r: RankingResult) -> Section:
    b, p, u = r.bootstrap, r.permutation, r.uncertainty
    blocks: List[Any] = []
    scores = "mean scores of the runs" if r.runs is not None else "scores"
    if b is not None:
        blocks.append(_per_model(r, f"scores-{r.task}", f"{r.task}: {scores} with {100 * b.confidence:g}%"
                                 f"{_two_level(r)} intervals",
                                 lambda i, k: Cell(_f(r.scores[i, k]), "score", _f(b.score_low[i, k]),
                                                   _f(b.score_high[i, k]))))
        blocks.append(_per_model(r, f"se-{r.task}", f"{r.task}:{_two_level(r)} bootstrap standard error of the "
                                 f"{scores}",
                                 lambda i, k: Cell(_f(b.score_se[i, k]), "score")))
        blocks.append(_per_model(r, f"ranks-{r.task}", f"{r.task}: ranks with {100 * b.confidence:g}% intervals",
                                 lambda i, k: Cell(_f(r.ranks[i, k]), "rank", _f(b.rank_low[i, k]),
                                                   _f(b.rank_high[i, k]))))
        blocks.append(_per_model(r, f"keep-{r.task}", f"{r.task}: probability of keeping the observed rank (%)",
                                 lambda i, k: Cell(_f(b.keep[i, k]), "score")))
    else:
        blocks.append(_per_model(r, f"scores-{r.task}", f"{r.task}: {scores}",
                                 lambda i, k: Cell(_f(r.scores[i, k]), "score")))
        blocks.append(_per_model(r, f"ranks-{r.task}", f"{r.task}: ranks",
                                 lambda i, k: Cell(_f(r.ranks[i, k]), "rank")))
    blocks.append(rankings(r))
    if p is not None:
        alpha = u.alpha if u is not None else r.settings.get("alpha", 0.05)
        blocks.append(_per_model(r, f"p-next-{r.task}", f"{r.task}: p-value against the next system in each model's "
                                 "ranking (uncorrected)",
                                 lambda i, k: _p_cell(p.p_next[i, k], alpha),
                                 note=f"paired approximate randomisation, {p.permutations} permutations over "
                                      f"{p.unit}s; the last system of a ranking has no next one (n/a); in bold: "
                                      f"p < {alpha:g}, uncorrected (the groups use Holm)"))
    if u is not None and u.groups is not None and u.p_next_holm is not None:    # (set together)
        groups, holm, group_alpha = u.groups, u.p_next_holm, u.alpha
        blocks.append(_per_model(r, f"p-holm-{r.task}", f"{r.task}: Holm-adjusted p-value against the next system",
                                 lambda i, k: _p_cell(holm[i, k], group_alpha)))
        blocks.append(_per_model(r, f"groups-{r.task}", f"{r.task}: significance groups (Holm-corrected neighbour "
                                 f"tests, alpha {group_alpha:g})",
                                 lambda i, k: Cell(int(groups[i, k]), "count"), note=rank_uncertainty.GROUP_RULE))
    ci = _intervals(r)
    if ci is not None:
        o = shown_models(r)
        blocks.append(count_matrix(f"undefined-{r.task}", f"{r.task}: resamples on which a correlation is undefined",
                                   [r.models[k] for k in o], [r.titles[k] for k in o], _square(o, ci.undefined),
                                   note="a model gave every system the same score there; left out of that "
                                        "pair's interval"))
    return Section(f"{r.task}: every model", blocks, id=f"models-{r.task}", detail=True)


def _p_cell(p: float, alpha: float) -> Cell:
    """A p-value, marked significant when it is below ``alpha``."""
    return Cell(_f(p), "p", style="significant" if p < alpha else None)


def rankings(r: RankingResult) -> Table:
    """Each model's ranking: the system at each position (ties broken as the result orders them)."""
    shown = shown_models(r)
    cols = [Column("position", "position")] + [Column(r.models[k], r.titles[k]) for k in shown]
    rows = [[Cell(pos + 1, "rank")] + [Cell(r.systems[r.order[k][pos]]) for k in shown]
            for pos in range(len(r.systems))]
    return Table(f"rankings-{r.task}", f"{r.task}: rankings (the system at each position of each model's ranking)",
                 cols, rows, sortable=False)


def flip_table(r: RankingResult, a: str, b: str) -> List[Any]:
    f = r.flips(a, b)
    ta, tb = r.titles[r.models.index(a)], r.titles[r.models.index(b)]
    if f.threshold is not None:
        return _runs_flip_table(r, f, a, b, ta, tb)
    cols = [Column("better_a", f"better under {ta}"), Column("better_b", f"better under {tb}"),
            Column("p_a", f"p under {ta}"), Column("p_b", f"p under {tb}"), Column("both", "significant under both")]
    rows = [[Cell(x.better_under_a), Cell(x.better_under_b), Cell(x.p_a, "p"), Cell(x.p_b, "p"),
             Cell(None if not f.tested else ("yes" if x.significant_under_both(f.alpha) else "no"),
                  style="significant" if f.tested and x.significant_under_both(f.alpha) else None)]
            for x in f.pairs]
    return [Text(f"{r.task}, {ta} vs {tb}: {f.summary}", "summary"),
            Table(f"flips-{r.task}-{a}-{b}", f"{r.task}: flips between {ta} and {tb}", cols, rows, key_columns=2,
                  note=rank_uncertainty.FLIP_RULE.capitalize() + ".")]


def _runs_flip_table(r: RankingResult, f: rank_uncertainty.Flips, a: str, b: str, ta: str, tb: str) -> List[Any]:
    """A flip table of systems of several runs: each model's epsilon_min of the system it puts higher over the
    other, and whether the runs settle the flip (below the threshold under both)."""
    assert f.threshold is not None
    cols = [Column("better_a", f"better under {ta}"), Column("better_b", f"better under {tb}"),
            Column("eps_a", f"ε_min under {ta}"), Column("eps_b", f"ε_min under {tb}"),
            Column("settled", "settled by the runs")]
    rows = []
    for x in f.pairs:
        settled = x.settled_by_runs(f.threshold)
        rows.append([Cell(x.better_under_a), Cell(x.better_under_b), Cell(x.eps_a, "corr"), Cell(x.eps_b, "corr"),
                     Cell(None if settled is None else ("yes" if settled else "no"),
                          style="significant" if settled else None)])
    return [Text(f"{r.task}, {ta} vs {tb}: {f.summary}", "summary"),
            Table(f"flips-{r.task}-{a}-{b}", f"{r.task}: flips between {ta} and {tb}", cols, rows, key_columns=2,
                  note=_flip_rule(r))]


def flips(r: RankingResult, asked: Sequence[Sequence[str]], every: bool = False) -> Section:
    """The flip summary of every model pair, and the flipped pairs of the reference against every
    model and of the pairs ``asked`` (``every``: of every model pair)."""
    cols = [Column("a", "model A"), Column("b", "model B"), Column("changed", "pairs changing order"),
            Column("compared", "of pairs"), _judged(r), Column("tied", "tied under one only")]
    rows, keys = [], []
    every_pair = rank_uncertainty.all_flips(r)
    for f in every_pair:
        ta, tb = r.titles[r.models.index(f.model_a)], r.titles[r.models.index(f.model_b)]
        rows.append([Cell(ta), Cell(tb), Cell(f.changed, "count"), Cell(f.pairs_compared, "count"),
                     Cell(f.settled_by_runs if _settled(r) else f.significant_under_both, "count"),
                     Cell(f.tied_under_one, "count")])
        keys.append(f"{f.model_a}/{f.model_b}")
    blocks: List[Any] = [Table(f"flip-summary-{r.task}", f"{r.task}: system pairs that two models order differently",
                               cols, rows, key_columns=2, note=_flip_rule(r), row_keys=keys)]
    pairs = [(r.reference, m) for m in r.models if m != r.reference]
    if every:
        pairs += [(f.model_a, f.model_b) for f in every_pair if (f.model_a, f.model_b) not in pairs]
    pairs += [(a, b) for a, b in asked if (a, b) not in pairs]
    for a, b in pairs:
        blocks += flip_table(r, a, b)
    return Section(f"{r.task}: flips", blocks, id=f"flips-{r.task}", detail=True)


def report_sections(report: ReportLike) -> List[Section]:
    """Per-label F and fair error types per system, from a score Report of the same corpus."""
    from . import score

    return [s for s in (score.label_f_section(report), score.error_types_section(report)) if s is not None]


# ---------------------------------------------------------------------------
# the page


def task_sections(r: RankingResult, details: bool = True, every_flip: bool = False) -> List[Section]:
    first = lead(r)
    out = [leaderboard(r, first)]
    if r.runs is not None:
        out += rank_runs.summary_sections(r, first)
    out += [rank_shifts(r), agreement(r), correlations(r)]
    asked = r.settings.get("flips", [])
    if asked:   # asked for on the command line: part of the summary
        blocks = []
        for a, b in asked:
            blocks += flip_table(r, a, b)
        out.append(Section(f"{r.task}: flips asked for", blocks, id=f"flips-asked-{r.task}"))
    if details:
        if r.runs is not None:
            out += rank_runs.detail_sections(r, shown_models(r), first)
        out.append(model_tables(r))
        for k in shown_models(r):
            if k != first:
                out.append(leaderboard(r, k))
                out[-1].detail = True
        out.append(flips(r, [], every_flip))
    return out


def mean_sections(res: MultiTaskResult) -> List[Section]:
    k = len(res.tasks)
    ci = rank_uncertainty.mean_intervals(res.tasks)
    what = (f" with {100 * ci['confidence']:g}% bootstrap intervals ({ci['resamples']} resamples per task)"
            if ci is not None else "")
    o = shown_models(next(iter(res.tasks.values())))       # every task has the same models in the same order
    models, titles = [res.models[j] for j in o], [res.titles[j] for j in o]
    blocks = matrix("mean-spearman", f"Spearman's rank correlation, mean over {k} tasks{what}", models, titles,
                    _square(o, res.spearman), _square(o, ci["spearman_low"]) if ci else None,
                    _square(o, ci["spearman_high"]) if ci else None, res.spearman_note)
    blocks += matrix("mean-kendall", f"Kendall's tau-b, mean over {k} tasks{what}", models, titles,
                     _square(o, res.kendall), _square(o, ci["kendall_tau_b_low"]) if ci else None,
                     _square(o, ci["kendall_tau_b_high"]) if ci else None)
    out = [Section(f"Mean over {k} tasks", blocks, id="mean")]
    if ci is not None:
        out.append(Section(f"Mean over {k} tasks: undefined resamples", [count_matrix(
            "mean-undefined", f"Resamples on which the mean over {k} tasks of a correlation is undefined",
            models, titles, _square(o, ci["undefined_resamples"]), note="left out of that pair's interval")],
            id="mean-undefined", detail=True))
    return out


def summary_line(r: RankingResult) -> str:
    """One line on the data and the resampling of a task."""
    c = r.corpus
    parts = [f"{r.task}: {len(r.systems)} systems, {c.get('tokens')} tokens, {c.get('sentences')} sentences"]
    if c.get("documents"):
        parts.append(f"{c['documents']} documents")
    parts.append(f"labels {', '.join(c.get('labels', [])) or '-'}")
    if r.runs is not None:
        parts[0] = f"{r.task}: {rank_runs.summary_line(r)}, {c.get('tokens')} tokens, {c.get('sentences')} sentences"
    if r.bootstrap is not None:
        units = f"{r.bootstrap.units} {r.bootstrap.unit}s"
        parts.append(f"bootstrap {r.bootstrap.resamples} x {units}" if r.runs is None
                     else f"two-level bootstrap {r.bootstrap.resamples} x ({units}, each system's runs)")
    if r.permutation is not None:
        parts.append(f"permutation test {r.permutation.permutations}")
    parts.append(f"seed {r.settings.get('seed')}")
    if r.settings.get("reference_added"):
        parts.append(f"{r.reference} added as the reference that rank shifts and agreement are measured against")
    return "; ".join(parts)


def _drop_task_prefix(sections: List[Section], task: str) -> None:
    """One task: titles and notes without the task's name in front (``task: leaderboard ...`` reads as
    noise when there is nothing to tell apart); ids keep it."""
    pre = f"{task}: "

    def strip(text: str) -> str:
        return text[len(pre):] if text.startswith(pre) else text

    for sec in sections:
        sec.title = strip(sec.title)
        if sec.title == "data":
            sec.title = "Data"
        for block in sec.blocks:
            for attr in ("title", "text"):
                if isinstance(getattr(block, attr, None), str):
                    setattr(block, attr, strip(getattr(block, attr)))


def build(result: Union[RankingResult, MultiTaskResult], details: bool = True, report: Optional[ReportLike] = None,
          every_flip: bool = False, *, spell: Spelling = python_spelling) -> Page:
    """The page of a ranking (one task or several).  ``details``: include the detail sections
    (marked, so the terminal shows them only on request); ``report``: a score Report of the same
    corpus for per-label scores and fair error types per system; ``every_flip``: the flipped pairs
    of every model pair, not only of the reference against each model (what the machine formats
    hold; a page of all models would grow large)."""
    several = isinstance(result, MultiTaskResult)
    tasks = list(result.tasks.values()) if isinstance(result, MultiTaskResult) else [result]
    sections: List[Section] = []
    for r in tasks:
        part = [Section(f"{r.task}: data", [Text(summary_line(r), "note")], id=f"about-{r.task}")]
        part += task_sections(r, details, every_flip)
        for sec in part:
            sec.group = r.task if several else ""
        sections.extend(part)
    if not several:
        _drop_task_prefix(sections, tasks[0].task)
    if isinstance(result, MultiTaskResult):
        sections.extend(s for s in mean_sections(result) if details or not s.detail)
    if report is not None:
        extra = report_sections(report)
        for s in extra:
            s.detail = True
        sections.extend(extra if details else [])
    first = tasks[0]
    descr = first.settings.get("model_descriptions", {})
    about = "; ".join(f"{first.titles[k]}: {descr.get(first.models[k], first.models[k])}" for k in shown_models(first))
    sections.append(Section("Models", [Text(about, "note")], id="models"))
    meta = {"settings": first.settings, "versions": first.settings.get("versions", {}),
            "seed": first.settings.get("seed"), "group_by": "task"}
    title = "Ranking" if len(tasks) == 1 else f"Ranking of {len(tasks)} tasks"
    return Page("rank", title, sections, meta)
