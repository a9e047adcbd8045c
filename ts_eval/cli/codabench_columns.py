"""The leaderboard columns of a scoring program made by ``ts-eval codabench``: each is a number of ``ts-eval
score``'s JSON result for the submission, named either as a ranking score (``exact-f1-micro``: where score's
result holds it is the score's own declaration, :attr:`ts_eval.models.registry.Score.reported`) or as a path into
a system's result (``exact.micro.precision``, ``exact.labels.PER.f``); and the lines of ``competition.yaml``
that declare them, with the keys the program writes to ``scores.json``."""
from __future__ import annotations

import argparse
import json
import re
from typing import Any, Dict, List, Optional, Tuple

from .errors import UsageError


def ranking_scores() -> Dict[str, Tuple[Any, Any]]:
    """Ranking score name -> (its model's declaration, its :class:`~ts_eval.models.registry.Score`)."""
    from ..models import registry

    registry.load_all()
    return {m.name: (spec, s) for spec in registry.SPECS.values() if spec.result is not None
            for m, s in zip(spec.models, spec.scores)}


def column(spec: str, args: argparse.Namespace, chosen: List[str], known: Dict[str, Tuple[Any, Any]]
           ) -> Dict[str, Any]:
    """The column ``spec`` names, as ``settings.json`` keeps it: key, title, the path of its number in a
    system's result; a usage error when ``score`` with ``args`` (its models: ``chosen``) does not report it."""
    if "." in spec:
        path = spec.split(".")
        title = spec
    elif spec in known:
        decl, score = known[spec]
        if not score.reported:
            raise UsageError(f"--columns: {spec} is not in ts-eval score's result (ts-eval rank computes it)")
        for key, value in score.settings:
            if getattr(args, key, value) != value:
                raise UsageError(f"--columns: {spec} is reported with --{key.replace('_', '-')} {value} only")
        path, title = [decl.name, *score.reported], score.title
    else:
        raise UsageError(f"--columns: unknown column {spec!r}; expected a ranking score ({', '.join(known)}) or a "
                         "path into a system of ts-eval score's JSON result, such as exact.micro.precision")
    if path[0] not in chosen:
        raise UsageError(f"--columns: {spec} needs the model {path[0]}: add it to score's --models "
                         f"(now {','.join(chosen)})")
    return {"key": re.sub(r"[^A-Za-z0-9]+", "_", spec).strip("_"), "title": title, "spec": spec, "path": path}


def leaderboard(specs: str, primary: Optional[str], args: argparse.Namespace, chosen: List[str]
                ) -> List[Dict[str, Any]]:
    """The columns of ``--columns`` for ``score`` with ``args`` and the models ``chosen`` (``primary`` first:
    Codabench ranks by the column at index 0)."""
    names = [s.strip() for s in specs.split(",") if s.strip()]
    if primary is not None:
        if primary not in names:
            names.insert(0, primary)
        names = [primary] + [n for n in names if n != primary]
    if not names:
        raise UsageError("--columns: no column given")
    known = ranking_scores()
    out = [column(n, args, chosen, known) for n in names]
    keys = [c["key"] for c in out]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise UsageError(f"--columns: two columns have the key {twice[0]}")
    return out


def competition_yaml(columns: List[Dict[str, Any]], program_zip: str, gold_name: str, version: str) -> str:
    """The lines of ``competition.yaml`` that go with the program: its image, its task and its leaderboard."""
    lines = ["# competition.yaml (Codabench): the lines that go with this scoring program",
             f"docker_image: YOUR/IMAGE             # an image with python3 and ts-eval=={version} installed",
             "enable_detailed_results: True        # shows each submission's detailed_results.html",
             "tasks:", "  - index: 0", "    name: Scoring", f"    scoring_program: {program_zip}",
             f"    reference_data: reference_data.zip   # a zip holding {gold_name}",
             "leaderboards:", "  - title: Results", "    key: main", "    columns:"]
    for index, c in enumerate(columns):
        lines += [f"      - title: {json.dumps(c['title'], ensure_ascii=False)}", f"        key: {c['key']}",
                  f"        index: {index}", "        sorting: desc", "        precision: 4"]
    return "\n".join(lines) + "\n"
