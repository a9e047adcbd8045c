"""Systems given as several runs (training seeds) -> sections: each system's mean, standard deviation, lowest and
highest score over its runs under every model (:func:`runs_table`), and every run's score (:func:`run_details`,
a detail section).  Both read a :class:`~ts_eval.ranking.runs.RunScores` or the dict its JSON is
(``RunScores.to_dict()``, what a score report holds under ``runs``), and hold nothing of a ranking, so any page
that has runs may show them.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..page import Cell, Column, Section, Table, Text

NOTE = ("under each model: the mean of the system's runs' scores in % with the lowest–the highest run's, and beside "
        "it their standard deviation (± sd, n - 1 in the denominator; n/a for one run)")


def _plain(run_scores: Any) -> Dict[str, Any]:
    """The RunScores's dict (its numbers as numpy gives them: a builder only reads them), or the dict given."""
    if isinstance(run_scores, dict):
        return run_scores
    out: Dict[str, Any] = run_scores.to_dict()
    return out


def _title(model: str) -> str:
    """A ranking model's column title (its name when it is not registered)."""
    from ...models.registry import REGISTRY

    found = REGISTRY.get(model)
    return found.title if found is not None else model


def _number(v: Optional[float]) -> float:
    """A number of the dict, nan where it is undefined (None in JSON)."""
    return float("nan") if v is None else float(v)


def _models(d: Dict[str, Any]) -> List[str]:
    return list(d["systems"][0]["models"]) if d["systems"] else []


def runs_table(run_scores: Any, id: str = "runs") -> Section:
    """The section of each system's scores over its runs: columns system, runs, then per model the mean with the
    lowest–highest run's score (its interval) and the sd (a column group per model, kept together)."""
    d = _plain(run_scores)
    models = _models(d)
    columns = [Column("system", "system"), Column("runs", "runs")]
    for m in models:
        title = _title(m)
        columns += [Column(f"{m}/mean", title, group=title), Column(f"{m}/sd", "± sd", group=title)]
    rows: List[List[Cell]] = []
    for s in d["systems"]:
        row = [Cell(s["name"]), Cell(len(s["runs"]), "count")]
        for m in models:
            per = s["models"][m]
            row += [Cell(_number(per["score_mean"]), "score", low=_number(per["score_min"]),
                         high=_number(per["score_max"])),
                    Cell(_number(per["score_sd"]), "score")]
        rows.append(row)
    table = Table(f"{id}-scores", "Scores over runs", columns, rows, note=NOTE, keep_groups=True)
    blocks: List[Any] = [table]
    if d.get("bootstrap"):
        blocks.append(Text(d["bootstrap"], "note"))
    return Section("Systems given as runs: mean ± sd [min–max] over their runs", blocks, id=id)


def run_details(run_scores: Any, id: str = "runs-detail") -> Section:
    """The detail section of every run's score: one row per run (system, run), one column per model; each
    system's runs in the order of their scores."""
    d = _plain(run_scores)
    models = _models(d)
    columns = [Column("system", "system"), Column("run", "run")] + [Column(m, _title(m)) for m in models]
    rows: List[List[Cell]] = []
    keys: List[str] = []
    for s in d["systems"]:
        for k, run in enumerate(s["runs"]):
            cells = [Cell(_number(s["models"][m]["run_scores"][k]), "score") for m in models]
            rows.append([Cell(s["name"]), Cell(_run(run, s["name"])), *cells])
            keys.append(run)
    table = Table(f"{id}-scores", "Every run's score (%)", columns, rows, key_columns=2, row_keys=keys,
                  note="each system's runs in the order of their scores")
    return Section("Systems given as runs: every run's score", [table], id=id, detail=True)


def _run(run: str, system: str) -> str:
    """A run's name without its system's (``crf/seed1`` -> ``seed1``)."""
    return run[len(system) + 1:] if run.startswith(system + "/") else run
