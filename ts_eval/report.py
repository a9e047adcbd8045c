"""The Report: plain data (nested dicts of numbers and strings) that every renderer reads.

Layout of ``Report.to_dict()`` (also the JSON output):

- ``layout``: ``{"kind": "score" (or "germeval"), "version": 2}``, the vocabulary version;
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
"""
from __future__ import annotations

import json
import platform
from dataclasses import dataclass, field
from typing import Any, Dict, List

import numpy as np

from .version import __version__


def versions() -> Dict[str, str]:
    """The versions that produced a result (recorded in every JSON: score, germeval, rank)."""
    return {"ts_eval": __version__, "numpy": np.__version__, "python": platform.python_version()}


#: version of the result layout (the key vocabulary of the README's "Result vocabulary" table)
LAYOUT_VERSION = 2


@dataclass
class Report:
    settings: Dict[str, Any]
    corpus: Dict[str, Any]
    gold: Dict[str, Any]
    systems: List[Dict[str, Any]] = field(default_factory=list)
    kind: str = "score"

    def to_dict(self) -> Dict[str, Any]:
        return {"layout": {"kind": self.kind, "version": LAYOUT_VERSION}, "settings": self.settings,
                "corpus": self.corpus, "gold": self.gold, "systems": self.systems}

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def system(self, name: str) -> Dict[str, Any]:
        for s in self.systems:
            if s["name"] == name:
                return s
        raise KeyError(name)

    @property
    def labels(self) -> List[str]:
        return list(self.corpus["labels"])
