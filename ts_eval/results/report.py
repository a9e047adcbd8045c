"""The Report: plain data (nested dicts of numbers and strings) that every renderer reads.

Layout of ``Report.to_dict()`` (also the JSON output):

- ``layout``: ``{"kind": "score" (or "germeval"), "version": 4}``, the layout version
  (:data:`ts_eval.results.vocabulary.LAYOUT_VERSIONS`);
- ``settings``: what produced the numbers (files, columns, scheme requested and
  used, policy, separator weight, beta, label map, extra rows, versions);
- ``corpus``: tokens, sentences, separators, documents, -DOCSTART- and -X- lines,
  labels;
- ``gold``: where gold came from, its span count and the repairs made reading it;
- ``systems``: a list, one entry per system, each with ``name``, ``source``
  (path, column, spans, repairs, discarded, unmapped, first_repair_line) and one entry per model:
  ``ts`` (token-and-separator), ``exact`` (segment exact match), ``overlap``,
  ``constrained``, ``contain``, ``fair``.  Every model has ``labels`` (per-label counts and
  scores), ``micro`` and ``macro`` (fair: per method), in one vocabulary: ``tp fp fn tn``,
  ``gold``, ``system``, ``gold_hit``, ``system_hit``, ``le be bes bel beo lbe``,
  ``precision``, ``recall``, ``f``, ``kappa``, ``accuracy``.

In Python (:mod:`ts_eval.results.display`): ``str(report)`` is the summary table, ``repr(report)`` one
line per system with each model's micro F, ``_repr_html_()`` the HTML page for Jupyter,
:meth:`Report.rows` / :meth:`Report.to_frame` the numbers in tidy form.
"""
from __future__ import annotations

import platform
from dataclasses import dataclass, field
from numbers import Number
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from ..version import __version__
from .display import Displayed, listing, number, require_pandas
from .vocabulary import FRAME_COLUMNS, layout


def versions() -> Dict[str, str]:
    """The versions that produced a result (recorded in every JSON: score, germeval, rank)."""
    return {"ts_eval": __version__, "numpy": np.__version__, "python": platform.python_version()}


#: the key columns of :meth:`Report.rows`, then the vocabulary's quantities in this order
ROW_KEYS = ("name", "model", "label")
VOCABULARY = FRAME_COLUMNS


def _is_quantity(value: Any) -> bool:
    return isinstance(value, (Number, np.number, np.bool_)) and not isinstance(value, complex)


def _quantities(d: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in d.items() if _is_quantity(v)}


def _tables(node: Dict[str, Any], path: Tuple[str, ...]) -> Iterator[Tuple[str, str, Dict[str, Any]]]:
    """(model, label, quantities) of every row under ``node``: a table (a dict with ``labels``,
    ``micro`` or ``macro``) gives a row per label and one per average; a dict of scores outside a
    table (GermEval's metrics, a level's totals) one row labelled ``overall`` -- or, under a
    ``per_type`` dict, labelled with its type."""
    model = ".".join(path)
    if isinstance(node.get("labels"), dict) or isinstance(node.get("micro"), dict):
        for label, row in (node.get("labels") or {}).items():
            if isinstance(row, dict):
                yield model, str(label), _quantities(row)
        for avg in ("micro", "macro"):
            if isinstance(node.get(avg), dict):
                yield model, avg, _quantities(node[avg])
        rest = {k: v for k, v in node.items() if k not in ("labels", "micro", "macro")}
    else:
        if "f" in node or "precision" in node:
            yield model, "overall", _quantities(node)
        rest = node
    for key, child in rest.items():
        if not isinstance(child, dict):
            continue
        if key == "per_type":   # GermEval: type -> {level: scores}
            for label, levels in child.items():
                for level, row in (levels.items() if isinstance(levels, dict) else ()):
                    if isinstance(row, dict):
                        yield ".".join(path + (level,)), str(label), _quantities(row)
        else:
            yield from _tables(child, path + (key,))


@dataclass(repr=False)
class Report(Displayed):
    """The scores of one or more systems against gold: plain data (see the module docstring)."""

    settings: Dict[str, Any]
    corpus: Dict[str, Any]
    gold: Dict[str, Any]
    systems: List[Dict[str, Any]] = field(default_factory=list)
    kind: str = "score"
    #: systems given as several runs (training seeds): each one's mean, sd, min and max over its runs and every
    #: run's score under the ranking models, as plain data (``RunScores.to_dict()``); None: no runs given
    runs: Optional[Dict[str, Any]] = None

    def to_dict(self) -> Dict[str, Any]:
        out = {"layout": layout(self.kind), "settings": self.settings,
               "corpus": self.corpus, "gold": self.gold, "systems": self.systems}
        if self.runs is not None:
            out["runs"] = self.runs
        return out

    def to_json(self, indent: int = 2) -> str:
        import json  # (imported where it is used: the command line's tables do without it)

        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def system(self, name: str) -> Dict[str, Any]:
        for s in self.systems:
            if s["name"] == name:
                return s
        raise KeyError(name)

    @property
    def labels(self) -> List[str]:
        return list(self.corpus["labels"])

    @staticmethod
    def main_scores(system: Dict[str, Any]) -> Dict[str, float]:
        """Each model's headline score in one system entry: its micro F (fair: the fair method's;
        GermEval: Metric 1, strict combined)."""
        out = {}
        for model, d in system.items():
            if not isinstance(d, dict):
                continue
            metrics = d["metrics"] if isinstance(d.get("metrics"), dict) else {}
            for table in (d, d.get("fair"), metrics.get("m1_strict_combined")):
                row = table.get("micro", table) if isinstance(table, dict) else None
                if isinstance(row, dict) and _is_quantity(row.get("f")):
                    out[model] = row["f"]
                    break
        return out

    def __repr__(self) -> str:
        c = self.corpus
        n = len(self.systems)
        head = (f"<Report {self.kind}: {n} system{'s' * (n != 1)}, {c.get('tokens')} tokens, "
                f"{c.get('sentences')} sentences, {len(c.get('labels', []))} labels; micro F per model>")
        lines = (f"{s['name']}: " + "  ".join(f"{m} {number(v)}" for m, v in self.main_scores(s).items())
                 for s in self.systems)
        return listing(head, lines)

    def rows(self) -> List[Dict[str, Any]]:
        """The numbers in tidy form, no pandas needed: one dict per system x model x label with
        ``name`` (the system), ``model`` (where the table sits in a system's entry of
        :meth:`to_dict`, dotted: ``ts``, ``exact``, ``fair.fair``, ``fair.traditional``, ...),
        ``label`` (a label, ``micro``, ``macro``; ``overall`` for a row of scores outside a
        per-label table) and that row's numbers under the vocabulary's keys."""
        out = []
        for s in self.systems:
            for key, node in s.items():
                if key in ("name", "source") or not isinstance(node, dict):
                    continue
                for model, label, quantities in _tables(node, (key,)):
                    out.append({"name": s["name"], "model": model, "label": label, **quantities})
        return out

    def to_frame(self) -> Any:   # a pandas DataFrame (pandas is an optional extra)
        """:meth:`rows` as a pandas DataFrame (``pip install pandas``): columns ``name``,
        ``model``, ``label``, then the vocabulary's quantities (``tp fp fn tn gold system ...
        precision recall f kappa accuracy``) and any other number a row has; NaN where a model
        lacks a quantity."""
        pd = require_pandas()
        rows = self.rows()
        seen = dict.fromkeys(k for r in rows for k in r if k not in ROW_KEYS)
        columns = list(ROW_KEYS) + [k for k in VOCABULARY if k in seen] + [k for k in seen if k not in VOCABULARY]
        return pd.DataFrame(rows, columns=columns)
