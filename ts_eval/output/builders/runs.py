"""Systems given as several runs (training seeds) -> the two tables of their scores, what ``score`` and ``rank``
both show: each system's mean, standard deviation, lowest and highest score over its runs and their number, one
row per model and system (:func:`runs_table`), and every run's score, one row per run and one column per model
(:func:`run_scores_table`).  Both read a :class:`~ts_eval.ranking.runs.RunScores` or the dict its JSON is
(``RunScores.to_dict()``, what a score report holds under ``runs``) and hold nothing of a ranking: a page that
ranks passes the order of its systems (its leading model's), the models it shows and its task's name (the
tables' ids and titles); the sections around them are the page's.

One row per model and system (not a column group per model) keeps the table seven columns wide whatever the
number of models, so it reads in 80 columns without being transposed.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

from ..page import Cell, Column, Table

RUNS_NOTE = ("mean (what the systems are ranked by), standard deviation (ddof 1; n/a for one run), lowest and "
             "highest score of the system's runs, in points")


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


def _systems(d: Dict[str, Any], order: Optional[Sequence[str]]) -> List[Dict[str, Any]]:
    """The dict's systems in ``order`` (their names; default: as the dict lists them)."""
    if order is None:
        return list(d["systems"])
    by_name = {s["name"]: s for s in d["systems"]}
    return [by_name[name] for name in order]


def _models(d: Dict[str, Any], models: Optional[Mapping[str, str]]) -> Dict[str, str]:
    """The models shown, name -> column title, in order (default: the dict's, titled as registered)."""
    if models is not None:
        return dict(models)
    return {m: _title(m) for m in (d["systems"][0]["models"] if d["systems"] else [])}


def _named(what: str, task: Optional[str]) -> str:
    return f"{task}: {what}" if task else what


def runs_table(run_scores: Any, order: Optional[Sequence[str]] = None, models: Optional[Mapping[str, str]] = None,
               task: Optional[str] = None) -> Table:
    """Per model and system (``order``: the systems' names in the order wanted, default as given; ``models``:
    name -> title of the models shown, default all, titled as registered): mean, sd, min, max, runs.  Its id
    is ``runs-TASK`` (``runs`` without a task), a row's key ``MODEL/SYSTEM``."""
    d = _plain(run_scores)
    shown = _models(d, models)
    cols = [Column("model", "model"), Column("system", "system"), Column("mean", "mean"), Column("sd", "sd"),
            Column("min", "min"), Column("max", "max"), Column("runs", "runs")]
    rows: List[List[Cell]] = []
    keys: List[str] = []
    systems = _systems(d, order)
    for m, title in shown.items():
        for s in systems:
            per = s["models"][m]
            rows.append([Cell(title), Cell(s["name"])]
                        + [Cell(_number(per[f"score_{v}"]), "score") for v in ("mean", "sd", "min", "max")]
                        + [Cell(len(s["runs"]), "count")])
            keys.append(f"{m}/{s['name']}")
    return Table(f"runs-{task}" if task else "runs", _named("each system's runs under every model", task), cols,
                 rows, key_columns=2, note=RUNS_NOTE, row_keys=keys)


def run_scores_table(run_scores: Any, order: Optional[Sequence[str]] = None,
                     models: Optional[Mapping[str, str]] = None, task: Optional[str] = None) -> Table:
    """One row per run (systems in ``order``, each system's runs in the order of their scores), one column per
    model (``models`` as for :func:`runs_table`); a run named ``SYSTEM/...`` is shown without ``SYSTEM/``.
    Its id is ``run-scores-TASK`` (``run-scores`` without a task), a row's key ``SYSTEM/RUN`` (RUN as the run
    column shows it: ``a/seed1``, the run's own name when it is named ``SYSTEM/...``)."""
    d = _plain(run_scores)
    shown = _models(d, models)
    cols = [Column("system", "system"), Column("run", "run")] + [Column(m, t) for m, t in shown.items()]
    rows: List[List[Cell]] = []
    keys: List[str] = []
    for s in _systems(d, order):
        name = s["name"]
        for k, run in enumerate(s["runs"]):
            short = run[len(name) + 1:] if run.startswith(f"{name}/") else run
            rows.append([Cell(name), Cell(short)]
                        + [Cell(_number(s["models"][m]["run_scores"][k]), "score") for m in shown])
            keys.append(f"{name}/{short}")
    return Table(f"run-scores-{task}" if task else "run-scores", _named("every run's score", task), cols, rows,
                 key_columns=2, row_keys=keys, note="each system's runs in the order of their scores, in points")
