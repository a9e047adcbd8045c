"""The parts of an :class:`~ts_eval.agreement.results.Agreement` made from figures of sums (:mod:`.figures`):
the figures of the corpus, per pair and per label with their bootstrap intervals; shared by the corpus read
whole (:mod:`.study`) and read in blocks (:mod:`.stream`)."""
from __future__ import annotations

import warnings
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
from scipy import sparse

from .figures import INTERVALS, LABEL, OVERALL, PAIR, PAIR_LABEL, Figures, figures
from .layout import Stats

CHUNK = 50          # resamples per vectorised step; results do not depend on it
DOCUMENT_FIGURES = ("f_exact", "kappa", "alpha", "alpha_u")
Intervals = Dict[str, Tuple[np.ndarray, np.ndarray]]      # figure -> (low, high)


def _bootstrap(st: Stats, by_group: sparse.csr_matrix, resamples: int, seed: int,
               confidence: float, draw: Callable[[np.random.Generator, int, int], np.ndarray]) -> Intervals:
    """Percentile intervals of :data:`INTERVALS` over ``resamples`` resamples of the units (``draw(rng, n,
    units)``: n resamples' weights of the units, :func:`ts_eval.ranking.study.bootstrap_weights`)."""
    rng = np.random.default_rng(seed)
    D = by_group.shape[1]
    kept: Dict[str, List[np.ndarray]] = {k: [] for k in INTERVALS}
    mat = by_group.tocsr()
    for a in range(0, resamples, CHUNK):
        b = min(a + CHUNK, resamples)
        wts = draw(rng, b - a, D)
        sums = np.asarray(mat @ np.ascontiguousarray(wts.T)).T
        f = figures(st, sums)
        for k in INTERVALS:
            kept[k].append(f[k])
    alpha = 1.0 - confidence
    out = {}
    for k, parts in kept.items():
        v = np.concatenate(parts)
        with warnings.catch_warnings():     # a macro figure undefined in every resample: NaN bounds, written null
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = np.nanquantile(v, [alpha / 2, 1 - alpha / 2], axis=0)     # over the resamples it is defined in
        out[k] = (lo, hi)
    return out


#: why a macro figure is undefined (null): of all annotators, of a pair
NO_LABEL = "no annotator uses a label: an average over no labels is undefined"
NO_PAIR_LABEL = "neither annotator of the pair uses a label: an average over no labels is undefined"


def _fig(f: Figures, iv: Intervals, key: str, *index: int, undefined: str = "") -> Dict[str, Any]:
    """``{"value": v}`` of figure ``key`` at ``index``, with its interval when there is one (+ 0.0: a
    coefficient of exactly 0 computed as -0.0 is written 0).  An undefined figure (NaN: a macro average
    over no labels) is ``{"value": None, "undefined": why}``."""
    value = float(np.asarray(f[key])[index]) + 0.0
    if np.isnan(value):
        return {"value": None, "undefined": undefined}
    out: Dict[str, Any] = {"value": value}
    if key in iv:
        low, high = float(iv[key][0][index]) + 0.0, float(iv[key][1][index]) + 0.0
        if not (np.isnan(low) or np.isnan(high)):
            out["low"], out["high"] = low, high
    return out


def _figures(f: Figures, iv: Intervals) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k in ("fleiss", "alpha"):
        out[k] = {a: _fig(f, iv, f"{k}_{a}", undefined=NO_LABEL) for a in ("micro", "macro", "multiclass")}
    out["alpha_u"] = {a: _fig(f, iv, f"alpha_u_{a}", undefined=NO_LABEL) for a in ("micro", "macro")}
    for k in PAIR_LABEL:
        out[k] = {a: _fig(f, iv, f"mean_{k}_{a}", undefined=NO_LABEL) for a in ("micro", "macro")}
        if f"mean_{k}_multiclass" in OVERALL:
            out[k]["multiclass"] = _fig(f, iv, f"mean_{k}_multiclass")
    out["labels_averaged"] = int(np.count_nonzero(f["label_present"]))
    return out


def _pairs(labels: List[str], names: List[str], st: Stats, f: Figures, iv: Intervals) -> List[Dict[str, Any]]:
    rows = []
    for p, (i, j) in enumerate(st.pairs):
        row: Dict[str, Any] = {"a": names[i], "b": names[j]}
        for k in PAIR_LABEL:
            row[k] = {a: _fig(f, iv, f"{k}_{a}", p, undefined=NO_PAIR_LABEL) for a in ("micro", "macro")}
        for k in ("kappa", "agreement"):
            row[k]["multiclass"] = _fig(f, iv, f"{k}_multiclass", p)
        counts = {n: float(f[n][p].sum()) for n in ("tp", "fp", "fn")}
        counts["tn"] = float(f["tn_micro"][p])      # the micro table's: labels neither of the two uses add none
        counts.update({n: int(f[n][p].sum()) for n in ("spans_a", "spans_b", "exact", "hit_a", "hit_b")})
        row["counts"] = counts
        row["labels"] = {lab: {**{k: _fig(f, iv, k, p, c) for k in PAIR_LABEL},
                               **{n: float(f[n][p, c]) for n in ("tp", "fp", "fn", "tn")},
                               **{n: int(f[n][p, c]) for n in ("spans_a", "spans_b", "exact", "hit_a", "hit_b")},
                               "present": bool(f["pair_present"][p, c] or f["span_present"][p, c])}
                         for c, lab in enumerate(labels)}
        rows.append(row)
    rows.sort(key=lambda r: (r["kappa"]["micro"]["value"], r["a"], r["b"]))
    assert PAIR  # the per-pair figures above are PAIR's
    return rows


def _labels(labels: List[str], names: List[str], spans: np.ndarray, f: Figures, iv: Intervals
            ) -> List[Dict[str, Any]]:
    rows = []
    for c, lab in enumerate(labels):
        row: Dict[str, Any] = {"label": lab, **{k: _fig(f, iv, k, c) for k in LABEL}}
        row["spans"] = {n: int(spans[i, c]) for i, n in enumerate(names)}
        row["units"] = float(f["positive"][c])
        row["observed_u"] = float(f["observed_u"][c])
        row["expected_u"] = float(f["expected_u"][c])
        row["units_u"] = int(f["units_u"][c])
        row["present"] = bool(f["label_present"][c])
        rows.append(row)
    rows.sort(key=lambda r: (r["alpha"]["value"], r["label"]))
    return rows
