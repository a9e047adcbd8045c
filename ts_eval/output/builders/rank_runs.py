"""The parts of a ranking's page about systems given as several runs (training seeds).

With runs (``RankingResult.runs``, :class:`~ts_eval.ranking.runs.RunScores`) a system's score is the mean of
its runs' scores and its intervals come from the two-level bootstrap.  The leaderboard (:mod:`.rank`) asks
here for its note, its columns beside the interval (± sd, runs) and its groups; the sections here show

- **runs** (detail; the leaderboard shows the mean, sd and number of runs under its model): the two tables
  of :mod:`.runs` (what ``score`` shows too), the systems in the leading model's order;
- **Almost Stochastic Order** (when the ranking compared the runs: ``eps_min`` and ``beat`` set): per model,
  ε_min of row over column and the probability that a random run of the row beats a random run of the column,
  cells marked where ε_min is below the threshold, and the pairs so marked in words (a mark is a style, which
  plain text and Markdown do not show); the reference model's in the summary, the others' in the details;
  the groups of every model (detail) when the ranking set them.

Numbers are the result's arrays, never recomputed.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

from ...ranking.runs import RunScores
from ...ranking.study import RankingResult
from ..page import Block, Cell, Column, Figure, Section, Table, Text
from .runs import run_scores_table, runs_table


def _f(x: Any) -> Optional[float]:
    return None if x is None else float(x)


def _runs(r: RankingResult) -> RunScores:
    assert r.runs is not None
    return r.runs


def note(r: RankingResult) -> str:
    """The leaderboard's note with runs: what the score, ± sd and runs columns are and how the intervals were
    drawn (the result's own description of the two-level bootstrap)."""
    rs, b = _runs(r), r.bootstrap
    text = ("score: the mean of the system's runs' scores; ± sd: their standard deviation (ddof 1; n/a for one "
            "run); runs: how many.")
    if b is not None:
        how = rs.bootstrap or "two-level"
        text += (f" {100 * b.confidence:g}% intervals, percentile over {b.resamples} resamples of the {b.units} "
                 f"{b.unit}s and the runs, {how}.")
    if rs.groups is not None:
        text += f" Groups (Almost Stochastic Order): {aso_rule(rs)}."
    return text


def aso_rule(rs: RunScores) -> str:
    aso = rs.aso or {}
    rule = aso.get("rule")
    if rule:
        return str(rule)
    return f"from ε_min below {aso.get('threshold')}" if aso.get("threshold") is not None else "from ε_min"


def groups(r: RankingResult) -> Optional[np.ndarray]:
    """The significance groups the leaderboard shows with runs: Almost Stochastic Order's, None without them (a
    ranking of runs has no permutation test)."""
    return _runs(r).groups


def columns() -> List[Column]:
    """The leaderboard's columns beside the score with runs."""
    return [Column("score_sd", "± sd"), Column("runs", "runs")]


def cells(r: RankingResult, i: int, k: int) -> List[Cell]:
    rs = _runs(r)
    return [Cell(_f(rs.sd[i, k]), "score"), Cell(len(rs.runs.runs[i]), "count")]


def figure_data(r: RankingResult, k: int, order: List[int]) -> Dict[str, Any]:
    """What the interval chart draws beside each system's interval: its runs' scores under model ``k`` (a strip
    of dots, the mean marked) and their names, in the systems' ``order``."""
    rs = _runs(r)
    return {"runs": [[_f(v) for v in rs.scores_of(i, k)] for i in order],
            "run_names": [list(rs.runs.runs[i]) for i in order]}


def figure_note(r: RankingResult) -> str:
    """How to read the interval chart with runs."""
    b = r.bootstrap
    bar = f"; bar: its {100 * b.confidence:g}% two-level interval" if b is not None else ""
    return f"per system: dot: one run's score; tick and point: the mean of its runs (what is ranked){bar}"


def summary_line(r: RankingResult) -> str:
    rs = _runs(r)
    sizes = rs.runs.sizes
    each = f"{sizes[0]} each" if (sizes == sizes[0]).all() else f"{sizes.min()} to {sizes.max()} each"
    return f"{len(rs.runs.systems)} systems of {int(sizes.sum())} runs ({each})"


# ---------------------------------------------------------------------------
# sections


def _aso_about(rs: RunScores) -> str:
    aso = rs.aso or {}
    parts = [f"{name} {aso[key]}" for key, name in (("confidence", "confidence"), ("resamples", "resamples"),
                                                   ("seed", "seed"), ("correction", "correction"))
             if aso.get(key) is not None]
    return "; ".join(parts)


def aso_blocks(r: RankingResult, k: int) -> List[Block]:
    """Model ``k``'s ε_min and P(beats) matrices (systems in that model's order), the cells where ε_min is below
    the threshold marked, and those pairs in words."""
    rs = _runs(r)
    eps, beat = rs.eps_min, rs.beat
    assert eps is not None and beat is not None
    order = [int(i) for i in r.order[k]]
    names = [r.systems[i] for i in order]
    threshold = (rs.aso or {}).get("threshold")
    title, model = r.titles[k], r.models[k]

    def below(i: int, j: int) -> bool:
        return i != j and threshold is not None and bool(eps[i, j, k] < threshold)

    def square(tid: str, what: str, a: np.ndarray, kind: str, note: str) -> Table:
        cols = [Column("system", "row over column")] + [Column(n, n) for n in names]
        rows = [[Cell(r.systems[i])] + [Cell(None if i == j else _f(a[i, j, k]), kind,
                                             style="significant" if below(i, j) else None) for j in order]
                for i in order]
        return Table(tid, what, cols, rows, note=note, sortable=False, row_keys=list(names))

    about = _aso_about(rs)
    mark = f"; marked: ε_min < {threshold:g}" if threshold is not None else ""
    blocks: List[Block] = []
    if threshold is not None:
        pairs = [f"{r.systems[i]} over {r.systems[j]}" for i in order for j in order if below(i, j)]
        blocks.append(Text(f"{title}: almost stochastically dominant (ε_min < {threshold:g}): "
                           + ("; ".join(pairs) if pairs else "no pair"), "summary"))
    blocks += [
        square(f"eps-min-{r.task}-{model}", f"{r.task}: Almost Stochastic Order under {title}: ε_min of row over "
               "column", eps, "corr",
               "ε_min: how far the row's runs' scores are from being stochastically larger than the column's (0: "
               "they are; 1: the column's are)" + (f" ({about})" if about else "") + mark),
        square(f"beat-{r.task}-{model}", f"{r.task}: P(a random run of row beats a random run of column) under "
               f"{title} (%)", beat, "score",
               "over every pair of a run of the row and a run of the column; a tie counts 1/2" + mark),
    ]
    blocks.append(Figure(f"eps-min-fig-{r.task}-{model}", f"{r.task}: ε_min under {title}, row over column",
                         "heatmap", {"rows": names, "columns": names, "kind": "corr", "range": [0.0, 1.0],
                                     "values": [[None if i == j else _f(eps[i, j, k]) for j in order]
                                                for i in order], "low": None, "high": None}))
    return blocks


def groups_table(r: RankingResult, shown: List[int], lead: int) -> Table:
    rs = _runs(r)
    assert rs.groups is not None
    grp = rs.groups
    cols = [Column("system", "system")] + [Column(r.models[k], r.titles[k]) for k in shown]
    rows = [[Cell(r.systems[i])] + [Cell(int(grp[i, k]), "count") for k in shown] for i in r.order[lead]]
    return Table(f"aso-groups-{r.task}", f"{r.task}: significance groups from Almost Stochastic Order", cols, rows,
                 note=aso_rule(rs))


def summary_sections(r: RankingResult, lead: int) -> List[Section]:
    """The runs' sections of one task's summary: ASO under the leading model ``lead`` when the ranking compared
    the runs (the leaderboard has the mean, sd and number of runs)."""
    rs = _runs(r)
    if rs.eps_min is None or rs.beat is None:
        return []
    return [Section(f"{r.task}: Almost Stochastic Order under {r.titles[lead]}", aso_blocks(r, lead),
                    id=f"aso-{r.task}")]


def detail_sections(r: RankingResult, shown: List[int], lead: int) -> List[Section]:
    """The runs' detail sections of one task (``shown``: the models in the page's order): the runs under every
    model, every run's score, and ASO's groups and matrices under the other models."""
    rs = _runs(r)
    order = [r.systems[i] for i in r.order[lead]]
    models = {r.models[k]: r.titles[k] for k in shown}
    tables: List[Block] = [runs_table(rs, order, models, r.task), run_scores_table(rs, order, models, r.task)]
    out = [Section(f"{r.task}: runs", tables, id=f"runs-{r.task}", detail=True)]
    if rs.eps_min is not None and rs.beat is not None:
        blocks: List[Block] = []
        if rs.groups is not None:
            blocks.append(groups_table(r, shown, lead))
        for k in shown:
            if k != lead:
                blocks += aso_blocks(r, k)
        out.append(Section(f"{r.task}: Almost Stochastic Order under every model", blocks,
                           id=f"aso-models-{r.task}", detail=True))
    return out
