"""Buckets: how the values of one attribute are grouped.

**Default rule (equal frequency, never splitting a value).**  The gold values (one per gold span;
a sentence attribute gives each gold span its sentence's value) are walked upwards, each distinct
value's spans added to the current bucket.  A bucket's target is the number of gold spans not yet
in a bucket divided by the number of buckets still to fill (``k`` in all); it closes after the
value that brings it to the target or beyond, or before that value when closing there leaves it
nearer the target (never empty); the last bucket takes the rest.  So every bucket holds whole
values, a value with more spans than the target gets a bucket of its own and the buckets after it
share what is left evenly (span lengths of CoNLL-2003: 1, 2, 3, 4+), and there are at most ``k``.
Without any gold value (no gold span) the rule runs on the systems' values (a sentence attribute:
on the sentences' values).  A bucket covers the range from just above the previous bucket's highest gold value to
its own highest gold value; the first reaches down and the last up without end, so every system
value has a bucket.

**Fixed edges** (``ATTR=E1,E2,...``): the edges are the buckets' lower ends, each bucket
``[E_i, E_{i+1})``, the last open upwards; a value below ``E1`` falls into one more bucket
``< E1`` (shown only when some value falls there).

**Categorical attributes**: one bucket per value, in the attribute's order (then the others,
sorted); a value only some system gives gets its bucket too (no gold spans there).

**Missing values** (a label consistency of a string never seen in training) form one more bucket.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..errors import OptionError
from .attributes import CATEGORICAL, Attribute

DEFAULT_BUCKETS = 4
#: a categorical attribute with at most this many values finds each value's bucket by comparing it with each
#: bucket's value (numpy's loop), one with more by a look-up (a Python loop)
FEW_VALUES = 32

EQUAL_FREQUENCY_RULE = (
    "equal frequency over the gold values, never splitting a value: walking the distinct gold values upwards, "
    "a bucket closes once it holds its target (the gold spans not yet in a bucket / the buckets still to fill), "
    "after the value that reaches the target or before it when that is nearer; a bucket runs from just above "
    "the previous bucket's highest gold value to its own highest, the first and the last open-ended")
EDGES_RULE = "fixed edges: each edge is a bucket's lower end, [E_i, E_i+1), the last open upwards"
CATEGORICAL_RULE = "one bucket per value"


@dataclass
class Buckets:
    """The buckets of one attribute: their names and how a value finds its bucket."""

    names: List[str]
    rule: str
    kind: str                                   # numeric or categorical
    cuts: Optional[np.ndarray] = None           # numeric: thresholds (see ``closed``)
    closed: str = "right"                       # right: (c_{k-1}, c_k]; left: [c_k, c_{k+1})
    underflow: bool = False                     # left-closed edges: the first bucket holds values < c_0
    values: Optional[List[str]] = None          # categorical: the value of each bucket
    missing: Optional[int] = None               # the bucket of missing values (nan)
    ranges: List[Optional[List[float]]] = field(default_factory=list)   # numeric: [low, high] per bucket

    def __len__(self) -> int:
        return len(self.names)

    def assign(self, values: np.ndarray) -> np.ndarray:
        """The bucket of each value (int64; -1 for none)."""
        if self.kind == CATEGORICAL:
            index = {v: k for k, v in enumerate(self.values or [])}
            every = np.asarray(values, dtype=object).reshape(-1)
            if len(index) > FEW_VALUES:         # one look-up a value (no sort of Python objects)
                return np.fromiter((index.get(v, -1) for v in every.tolist()), np.int64, len(every))
            out = np.full(len(every), -1, np.int64)
            one = np.empty((), object)
            for value, k in index.items():      # a comparison a value and bucket, in numpy's loop
                one[()] = value
                out[every == one] = k
            return out
        v = np.asarray(values, float)
        out = np.full(len(v), -1, np.int64)
        ok = ~np.isnan(v)
        assert self.cuts is not None
        if self.closed == "right":
            out[ok] = np.searchsorted(self.cuts, v[ok], side="left")
        else:
            k = np.searchsorted(self.cuts, v[ok], side="right") - 1
            out[ok] = k + 1 if self.underflow else k
        if self.missing is not None:
            out[~ok] = self.missing
        return out

    def to_dict(self) -> Dict[str, Any]:
        return {"names": list(self.names), "rule": self.rule, "kind": self.kind,
                "ranges": [list(r) if r is not None else None for r in self.ranges] if self.ranges else None}


def _fmt(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.3g}"


def equal_frequency(gold: np.ndarray, k: int, counts: Optional[np.ndarray] = None) -> np.ndarray:
    """The highest gold value of each bucket under the default rule (ascending); ``counts``: how many gold
    spans have each of ``gold``'s values (then distinct and ascending), else one each.

    Walk the distinct gold values upwards, adding each value's spans to the current bucket.  A
    bucket's target is the number of gold spans not yet in a bucket divided by the number of buckets
    still to fill; it closes after the value that brings it to its target or beyond, or before that
    value when closing there leaves it nearer its target (and not empty).  The last bucket takes the
    rest."""
    u, c = np.unique(gold, return_counts=True) if counts is None else (gold, counts)
    if not len(u):
        return np.zeros(0)
    highs: List[float] = []
    remaining, left, current = int(c.sum()), k, 0
    for i, (v, cnt) in enumerate(zip(u.tolist(), c.tolist())):
        if left > 1:
            target = remaining / left
            if current > 0 and current + cnt > target and abs(current - target) < abs(current + cnt - target):
                highs.append(u[i - 1])
                remaining, left, current = remaining - current, left - 1, 0
        current += cnt
        if left > 1 and current >= remaining / left and i < len(u) - 1:
            highs.append(v)
            remaining, left, current = remaining - current, left - 1, 0
    highs.append(u[-1])
    return np.asarray(highs, float)


def numeric_buckets(attr: Attribute, values: np.ndarray, gold: np.ndarray, others: np.ndarray, k: int,
                    edges: Optional[Sequence[float]] = None) -> Buckets:
    """The buckets of a numeric attribute from its distinct ``values`` (nan: missing) and how many gold
    values (``gold``) and others (``others``: every system's values, or every sentence's) each has: the
    rule runs on the gold counts (without a gold value, on the others'); the others tell whether a
    missing-value or underflow bucket is needed."""
    values = np.asarray(values, float)
    number = ~np.isnan(values)
    seen = (gold + others) > 0
    use = gold if bool(np.any(gold[number] > 0)) else others  # no gold value: the systems' (or the sentences')
    pick = number & (use > 0)
    finite, inverse = np.unique(values[pick], return_inverse=True)
    counts = np.bincount(inverse.reshape(-1), weights=use[pick], minlength=len(finite)).astype(np.int64)
    if edges is not None:
        e = np.asarray(sorted(set(float(x) for x in edges)), float)
        under = bool(np.any(values[number & seen] < e[0]))
        names: List[str] = []
        ranges: List[Optional[List[float]]] = []
        if under:
            names.append(f"<{_fmt(e[0])}")
            ranges.append([-math.inf, e[0]])
        for i, lo in enumerate(e):
            hi = e[i + 1] if i + 1 < len(e) else math.inf
            if math.isinf(hi):
                names.append(f"{_fmt(lo)}+" if attr.integer else f">={_fmt(lo)}")
            elif attr.integer and hi - lo == 1:
                names.append(_fmt(lo))
            elif attr.integer and float(lo).is_integer() and float(hi).is_integer():
                names.append(f"{_fmt(lo)}-{_fmt(hi - 1)}")
            else:
                names.append(f"[{_fmt(lo)}, {_fmt(hi)})")
            ranges.append([float(lo), float(hi)])
        b = Buckets(names, EDGES_RULE + f" ({', '.join(_fmt(x) for x in e)})", "numeric", e, "left", under,
                    ranges=ranges)
    else:
        highs = equal_frequency(finite, k, counts)
        cuts = highs[:-1]
        names, ranges = [], []
        for i, hi in enumerate(highs):
            inside = finite[(finite <= hi) & ((finite > highs[i - 1]) if i else True)]
            lo_val = float(inside[0]) if len(inside) else float(hi)
            last = i == len(highs) - 1
            if attr.integer:
                lo = float(highs[i - 1]) + 1 if i else lo_val
                name = f"{_fmt(lo)}+" if last else (_fmt(hi) if lo == hi else f"{_fmt(lo)}-{_fmt(hi)}")
            elif len(highs) == 1:
                name = "all"
            elif i == 0:
                name = f"<={_fmt(hi)}"
            elif last:
                name = f">{_fmt(highs[i - 1])}"
            else:
                name = f"({_fmt(highs[i - 1])}, {_fmt(hi)}]"
            names.append(name)
            ranges.append([float(highs[i - 1]) if i else -math.inf, math.inf if last else float(hi)])
        b = Buckets(names, EQUAL_FREQUENCY_RULE + f" (k = {k})", "numeric", cuts, "right", ranges=ranges)
    if attr.missing is not None and bool(np.any(~number & seen)):
        b.missing = len(b.names)
        b.names.append(attr.missing)
        b.ranges.append(None)
    return b


def categorical_buckets(attr: Attribute, present: Sequence[Any]) -> Buckets:
    """One bucket per value ``present`` (distinct): the attribute's order first, then the other values sorted."""
    given = set(present)
    order = [v for v in (attr.order or []) if v in given]
    order += sorted(given - set(order))
    return Buckets([str(v) for v in order], CATEGORICAL_RULE, CATEGORICAL, values=order)


def parse_bucket_spec(specs: Sequence[str]) -> Dict[str, Any]:
    """``buckets`` as given: a number (buckets per numeric attribute), ``interpreteval`` (InterpretEval's
    attributes and buckets), or ``ATTR=E1,E2,...`` fixed edges (several allowed).  Returns
    {"k": int, "interpreteval": bool, "edges": {attr: [edges]}}."""
    out: Dict[str, Any] = {"k": DEFAULT_BUCKETS, "interpreteval": False, "edges": {}}
    for spec in specs:
        spec = str(spec).strip()
        if spec == "interpreteval":
            out["interpreteval"] = True
        elif "=" in spec:
            name, _, text = spec.partition("=")
            try:
                edges = [float(x) for x in text.split(",") if x.strip()]
            except ValueError:
                raise OptionError("expected ATTRIBUTE=E1,E2,... with numbers as edges", option="buckets",
                                  value=spec) from None
            if not edges or any(math.isnan(x) for x in edges):
                raise OptionError("expected ATTRIBUTE=E1,E2,... with at least one edge", option="buckets",
                                  value=spec)
            out["edges"][name.strip()] = edges
        else:
            try:
                k = int(spec)
            except ValueError:
                raise OptionError("expected a number of buckets, 'interpreteval' or ATTRIBUTE=E1,E2,...",
                                  option="buckets", value=spec) from None
            if k < 1:
                raise OptionError("expected at least 1 bucket", option="buckets", value=spec)
            out["k"] = k
    return out
