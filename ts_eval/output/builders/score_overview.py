"""The first screen of a score report with several systems: what each model makes of each system.

Two small tables instead of every score: each model's headline F (micro averages; the fair F1) and
its other average (macro averages; the fair model's weighted F1), every score beside the system's
rank under it, the rows in the order of the first column.  A rank that differs from the system's
rank under the first column is marked, the system pairs that the columns order differently are
named in a sentence, and one line says how to read it all.  Headers name the model and the average
in words (no legend).  The terminal shows this page for several systems (``build(...,
overview=True)``); every score, the per-label tables and the details are on the full page.
"""
from __future__ import annotations

import math
import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ...models.registry import ModelSpec, ResultColumn, known_specs
from ..page import Block, Cell, Column, Section, Table, Text
from ..values import value

Getter = Callable[[Dict[str, Any]], Any]
MARK = "*"          # beside a rank that differs from the rank under the first column
PAIRS_NAMED = 3     # system pairs the sentence on disagreements names (then: "and N more")


def _defined(v: Any) -> bool:
    return isinstance(v, (int, float)) and not math.isnan(v)


def ranks(scores: Sequence[Any]) -> List[Optional[float]]:
    """1 = the highest score, tied scores share the mean of their places (as ``rank`` ranks); an
    undefined score has no rank and takes no place."""
    import numpy as np

    from ...ranking.statistics import average_ranks

    defined = [k for k, v in enumerate(scores) if _defined(v)]
    out: List[Optional[float]] = [None] * len(scores)
    if defined:
        for k, r in zip(defined, average_ranks(np.array([float(scores[k]) for k in defined])).tolist()):
            out[k] = r
    return out


def _title(title: str, beta: float) -> str:
    return title + "1" if title.endswith(" F") and beta == 1 else title


def _getter(name: str, col: ResultColumn) -> Getter:
    return lambda s: col.holder(s[name])[col.path[-1]]


def _specs(rep: Dict[str, Any], default: Sequence[str] = ("ts", "exact")) -> List[ModelSpec]:
    return known_specs(list(rep["settings"].get("models", default)))


def measures(rep: Dict[str, Any]) -> Tuple[List[Tuple[str, Getter]], List[Tuple[str, Getter]]]:
    """The columns of the two tables, (title, getter) each: the headline and the other average each model
    of the report declares (its ``display``; ``F`` in a title is the F-beta, ``F1`` always beta = 1)."""
    specs = [spec for spec in _specs(rep) if all(spec.name in s for s in rep["systems"])]
    beta = rep["settings"].get("beta", 1.0)
    return ([(_title(c.header, beta), _getter(spec.name, c)) for spec in specs if (c := spec.display.headline)],
            [(_title(c.header, beta), _getter(spec.name, c)) for spec in specs if (c := spec.display.other)])


def _order(reference: List[Optional[float]]) -> List[int]:
    """Row order: by rank under the first column (stable; systems without one last)."""
    return sorted(range(len(reference)), key=lambda k: (reference[k] is None, reference[k] or 0.0))


def _table(tid: str, title: str, names: List[str], order: List[int], columns: List[Tuple[str, List[Any]]],
           reference: List[Optional[float]]) -> Table:
    cols = [Column("system", "system")]
    for j, (head, _) in enumerate(columns):
        cols += [Column(f"f{j}", head, head), Column(f"rank{j}", "#", head)]
    rows = []
    for k in order:
        row = [Cell(names[k])]
        for _, scores in columns:
            r = ranks(scores)[k]
            ref = reference[k]
            moved = r is not None and ref is not None and r != ref
            style = None if not moved else ("up" if r < ref else "down")     # type: ignore[operator]
            row += [Cell(scores[k], "score", style=style),
                    Cell("" if r is None else value(r, "rank") + (MARK if moved else ""), style=style)]
        rows.append(row)
    return Table(tid, title, cols, rows, sortable=False, keep_groups=True)


def _listed(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def disagreements(names: List[str], columns: List[Tuple[str, List[Any]]], order: Sequence[int]) -> str:
    """The sentence that names the system pairs two columns order differently, the first of them by
    ``order`` (the rows' order), or says that no two columns do."""
    if len(columns) < 2:
        return ""
    pairs = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            above = [h for h, v in columns if _defined(v[a]) and _defined(v[b]) and v[a] > v[b]]
            below = [h for h, v in columns if _defined(v[a]) and _defined(v[b]) and v[a] < v[b]]
            if above and below:
                first = next(h for h, v in columns if h in above or h in below)
                x, y, up, down = (a, b, above, below) if first in above else (b, a, below, above)
                pairs.append(f"{names[x]} is above {names[y]} under {_listed(up)}, below it under {_listed(down)}")
    if not pairs:
        return f"The {len(columns)} columns rank the {len(names)} systems alike."
    total = len(names) * (len(names) - 1) // 2
    head = f"The columns order {len(pairs)} of the {total} pairs of systems differently"
    if len(pairs) > PAIRS_NAMED:
        head += f"; the first {PAIRS_NAMED} in the rows' order"
    return f"{head}: " + "; ".join(pairs[:PAIRS_NAMED]) + "."


def how_to_read(rep: Dict[str, Any], first: str) -> str:
    gloss = "; ".join(spec.display.gloss for spec in _specs(rep, ()) if spec.display.headline and spec.display.gloss)
    return (f"How to read: higher is better; {gloss}; macro averages are the mean over labels. # is the rank "
            f"(1 = best), {MARK} where it differs from the rank under {first}.")


def short_paths(rep: Dict[str, Any]) -> Dict[str, str]:
    """Each input path as written below the folder all of them share (one file: its name)."""
    paths = [side.get("path") for side in [rep["gold"]] + [s["source"] for s in rep["systems"]]]
    files = sorted({p for p in paths if p and p != "-"})
    if not files:
        return {}
    try:
        shared = os.path.dirname(files[0]) if len(files) == 1 else os.path.commonpath(files)
    except ValueError:      # absolute and relative paths, or paths on two drives: as they are
        return {}
    return {p: os.path.relpath(p, shared) if shared else p for p in files}


def sections(rep: Dict[str, Any], head: List[Block], more: Sequence[Tuple[str, Sequence[str]]] = ()) -> List[Section]:
    """The overview's sections: the summary (``head``: the lines above the tables) and what shows more
    (``more``: what each shows, the commands that show it)."""
    names = [s["name"] for s in rep["systems"]]
    headline, other = measures(rep)
    blocks: List[Block] = [*head, Text("")]
    if headline:
        first = [(h, [g(s) for s in rep["systems"]]) for h, g in headline]
        second = [(h, [g(s) for s in rep["systems"]]) for h, g in other]
        reference = ranks(first[0][1])
        order = _order(reference)
        beta = rep["settings"].get("beta", 1.0)
        unit = "F1" if beta == 1 else f"F (F-beta, beta = {beta:g}; F1: beta = 1)"
        blocks.append(_table("overview-micro", f"{unit} in % and rank (#) of each system under each model: micro "
                             "averages", names, order, first, reference))
        if second:
            blocks.append(_table("overview-other", f"{unit} in % and rank (#): macro averages"
                                 + "".join(spec.display.other_title for spec in _specs(rep)
                                           if spec.name in rep["systems"][0]), names, order, second, reference))
        blocks += [Text(how_to_read(rep, first[0][0]), "note"),
                   Text(disagreements(names, first + second, order) + "\n", "note")]
    out = [Section("Summary", blocks, id="summary")]
    if more:
        lines = [line for what, commands in more for line in [f"{what}:", *(f"  {c}" for c in commands)]]
        out.append(Section("More", [Text("\n".join(lines), "note")], id="more"))
    return out
