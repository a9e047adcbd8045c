"""Every agreement figure from summed statistics (:mod:`.statistics`), vectorised over leading axes.

:func:`figures` takes sums of shape (..., columns): one row for the corpus, one per document, one
per bootstrap resample, and returns arrays with the same leading axes.  Nothing here counts: the
formulas are :mod:`ts_eval.core.measures`' (kappa, F, Fleiss, Krippendorff), applied to the sums.

Averages over labels follow the project's rule (:mod:`ts_eval.core.measures`): micro pools the
tables of the labels *present* (a pair: labels either of the two uses; all annotators: labels
anyone uses), macro is the mean over the same labels: NaN (undefined) when no label is present, where
micro pools nothing and finds complete agreement.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Tuple

import numpy as np

from ..core import measures

if TYPE_CHECKING:
    from .layout import Stats

Figures = Dict[str, np.ndarray]


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num, den = np.asarray(num, float), np.asarray(den, float)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _macro(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The mean over the labels present (last axis); NaN where none is: an average over no label."""
    return measures.masked_mean(values, present, empty=np.nan)


def figures(st: Stats, x: np.ndarray, rows: bool = False) -> Figures:
    """The figures of sums ``x`` (..., columns); see the module docstring.  ``rows``: only those of a document's
    (sentence's) row -- the means over the pairs of the micro kappa and exact F, micro alpha, unitizing alpha --
    each computed as it is for every figure."""
    c = st.columns
    ia = [i for i, _ in st.pairs]
    ja = [j for _, j in st.pairs]
    out: Figures = {}
    units = c.get(x, "units")
    pos = c.get(x, "pos")
    tp = c.get(x, "tp")
    pa, pb = pos[..., ia, :], pos[..., ja, :]
    fp, fn = pb - tp, pa - tp
    tn = units[..., None, None] - tp - fp - fn
    present = (tp + fp + fn) > 0
    out.update(tp=tp, fp=fp, fn=fn, tn=tn, pair_present=present)
    TP, FP, FN, TN = measures.micro_table(tp, fp, fn, units[..., None])
    out["kappa_micro"] = np.asarray(measures.kappa(TP, FP, FN, TN))
    if not rows:
        out["kappa"] = np.asarray(measures.kappa(tp, fp, fn, tn))
        out["agreement"] = _ratio(tp + tn, units[..., None, None])
        out["tn_micro"] = np.asarray(TN)      # the pair's true negatives in the pooled table (its labels present)
        out["agreement_micro"] = _ratio(np.add(TP, TN), np.add(np.add(TP, FP), np.add(FN, TN)))
        out["kappa_macro"] = _macro(out["kappa"], present)
        out["agreement_macro"] = _macro(out["agreement"], present)

    spans = c.get(x, "spans")
    sa, sb = spans[..., ia, :], spans[..., ja, :]
    exact, hit_a, hit_b = c.get(x, "exact"), c.get(x, "hit_a"), c.get(x, "hit_b")
    span_present = (sa + sb) > 0
    out.update(spans_a=sa, spans_b=sb, exact=exact, hit_a=hit_a, hit_b=hit_b, span_present=span_present)
    Sa, Sb = sa.sum(-1), sb.sum(-1)
    EX = exact.sum(-1)
    out["f_exact_micro"] = np.asarray(measures.fbeta(EX, Sb - EX, Sa - EX))
    if rows:
        return _rows(st, x, out)
    out["f_exact"] = np.asarray(measures.fbeta(exact, sb - exact, sa - exact))
    out["f_overlap"] = np.asarray(measures.f_from_pr(_ratio(hit_b, sb), _ratio(hit_a, sa)))
    out["f_overlap_micro"] = np.asarray(measures.f_from_pr(_ratio(hit_b.sum(-1), Sb), _ratio(hit_a.sum(-1), Sa)))
    out["f_exact_macro"] = _macro(out["f_exact"], span_present)
    out["f_overlap_macro"] = _macro(out["f_overlap"], span_present)

    differ, cat = c.get(x, "differ"), c.get(x, "cat")
    same = units[..., None] - differ
    out["kappa_multiclass"] = np.asarray(measures.kappa_from_margins(same, cat[..., ia, :], cat[..., ja, :]))
    out["agreement_multiclass"] = _ratio(same, units[..., None])

    # all annotators together: Fleiss' kappa (pairwise agreement sums and pooled shares)
    m = st.raters
    agree = (units[..., None, None] - fp - fn).sum(-2)           # (..., labels): sum over pairs
    ones = pos.sum(-2)
    totals = np.stack([ones, m * units[..., None] - ones], -1)
    used = ones > 0
    out.update(positive=ones, label_present=used)
    out["fleiss"] = np.asarray(measures.fleiss_kappa(agree, totals, m))
    pooled = (totals * used[..., None]).sum(-2)
    out["fleiss_micro"] = np.asarray(measures.fleiss_kappa((agree * used).sum(-1), pooled, m))
    out["fleiss_macro"] = _macro(out["fleiss"], used)
    out["fleiss_multiclass"] = np.asarray(measures.fleiss_kappa(same.sum(-1), cat.sum(-2), m))

    # Krippendorff's alpha (nominal), missing annotators allowed
    lab, atot, aused = _alpha_micro(st, x, out)
    coinc, acat = c.get(x, "coinc"), c.get(x, "alpha_cat")
    out["alpha"] = np.asarray(measures.krippendorff_alpha_nominal(lab, atot))
    out["alpha_macro"] = _macro(out["alpha"], aused)
    out["alpha_multiclass"] = np.asarray(measures.krippendorff_alpha_nominal(coinc[..., -1], acat))
    out["alpha_present"] = aused

    out.update(unitizing(st, x))
    # the mean over the pairs: per label over the pairs where either annotator uses the label, overall
    # over the pairs where either uses any (a pair with nothing agrees by the zero-division rule and
    # says nothing: a document one annotator marks alone is no 60 % kappa among five); over every pair
    # when no pair has anything (a macro figure: then NaN, as each pair's)
    for k in ("kappa", "agreement", "f_exact", "f_overlap"):
        where = out["span_present" if k.startswith("f_") else "pair_present"]
        out[f"mean_{k}"] = measures.masked_mean(np.moveaxis(out[k], -2, -1), np.moveaxis(where, -2, -1))
        for avg in ("micro", "macro") + (("multiclass",) if not k.startswith("f_") else ()):
            out[f"mean_{k}_{avg}"] = _mean_of_pairs(out[f"{k}_{avg}"], np.asarray(where.any(-1)))
    return out


def _alpha_micro(st: Stats, x: np.ndarray, out: Figures) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Krippendorff's micro alpha into ``out`` (and ``values``); returns the labels' coincidences, totals, use."""
    c = st.columns
    coinc, values = c.get(x, "coinc"), c.get(x, "values")
    apos = c.get(x, "alpha_pos")
    atot = np.stack([apos, values[..., None] - apos], -1)
    aused = apos > 0
    lab = coinc[..., :-1]
    out["alpha_micro"] = np.asarray(measures.krippendorff_alpha_nominal((lab * aused).sum(-1),
                                                                        (atot * aused[..., None]).sum(-2)))
    out["values"] = values
    return lab, atot, aused


def _rows(st: Stats, x: np.ndarray, out: Figures) -> Figures:
    """:func:`figures` with ``rows``: the rest of a row's figures (``out``: the pairs' micro kappa and exact F)."""
    _alpha_micro(st, x, out)
    out.update(unitizing(st, x))
    for k in ("kappa", "f_exact"):
        where = out["span_present" if k.startswith("f_") else "pair_present"]
        out[f"mean_{k}_micro"] = _mean_of_pairs(out[f"{k}_micro"], np.asarray(where.any(-1)))
    return out


def _mean_of_pairs(values: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Mean over the last axis (pairs) of the active pairs; of all pairs where none is active."""
    some = active.any(-1)
    return np.where(some, measures.masked_mean(values, active), values.mean(-1))


#: the figures a bootstrap gives intervals for: per pair and label, per pair, per label, overall
PAIR_LABEL = ("kappa", "agreement", "f_exact", "f_overlap")
PAIR = tuple(f"{k}_{a}" for k in PAIR_LABEL for a in ("micro", "macro")) + ("kappa_multiclass", "agreement_multiclass")
LABEL = ("fleiss", "alpha", "alpha_u") + tuple(f"mean_{k}" for k in PAIR_LABEL)
OVERALL = tuple(f"{k}_{a}" for k in ("fleiss", "alpha") for a in ("micro", "macro", "multiclass")) + \
    ("alpha_u_micro", "alpha_u_macro") + tuple(f"mean_{k}" for k in PAIR)
INTERVALS = PAIR_LABEL + PAIR + LABEL + OVERALL


def gap_sums(gaps: np.ndarray, lengths: np.ndarray, at: np.ndarray) -> np.ndarray:
    """For every unit length ``at[a]``: sum over gaps g with l_g >= l of (l_g - l + 1), from gap counts
    ``gaps`` (..., G) per gap length ``lengths`` (sorted); vectorised over leading axes."""
    s0 = np.cumsum(gaps[..., ::-1], -1)[..., ::-1]
    s1 = np.cumsum((gaps * lengths)[..., ::-1], -1)[..., ::-1]
    s0 = np.concatenate([s0, np.zeros(s0.shape[:-1] + (1,))], -1)
    s1 = np.concatenate([s1, np.zeros(s1.shape[:-1] + (1,))], -1)
    idx = np.searchsorted(lengths, at, side="left")
    sums: np.ndarray = s1[..., idx] - (at - 1) * s0[..., idx]
    return sums


def unitizing(st: Stats, x: np.ndarray) -> Figures:
    """Krippendorff's unitizing alpha per label (Krippendorff 2004's D_o and D_e), pooled (micro:
    1 - sum D_o / sum D_e over the labels present) and averaged (macro)."""
    c = st.columns
    m = st.raters
    dist = c.get(x, "distance")
    ulen = c.get(x, "ulen")
    gap = c.get(x, "gap")
    slen = c.get(x, "slen")
    gl = st.gap_lengths.astype(float)
    n_lengths = max(len(gl), 1)
    gl_full = np.zeros(n_lengths)
    gl_full[:len(gl)] = gl
    total = (slen * gl_full).sum(-1)
    d_o: List[np.ndarray] = []
    d_e: List[np.ndarray] = []
    n_units: List[np.ndarray] = []
    for k, (lengths, cols) in enumerate(zip(st.unit_lengths, st.unit_columns)):
        lam = lengths.astype(float)
        X = ulen[..., cols]
        N = X.sum(-1)
        cubes = (X * ((2 * lam ** 3 - 3 * lam ** 2 + lam) / 3)).sum(-1)
        squares = (X * (lam * (lam - 1))).sum(-1)
        G = m * slen + gap[..., k, :]
        g = gap_sums(G[..., :len(gl)], gl, lam) if len(gl) else np.zeros(X.shape)
        term = (X * lam ** 2 * g).sum(-1)
        o, e = measures.unitizing_disagreements(dist[..., k], N, (cubes, squares), term, total, m)
        d_o.append(np.asarray(o))
        d_e.append(np.asarray(e))
        n_units.append(N)
    shape = x.shape[:-1] + (0,)
    Do = np.stack(d_o, -1) if d_o else np.zeros(shape)
    De = np.stack(d_e, -1) if d_e else np.zeros(shape)
    N = np.stack(n_units, -1) if n_units else np.zeros(shape)
    used = N > 0
    alpha = np.asarray(measures.alpha_from_disagreements(Do, De))
    return {"alpha_u": alpha, "observed_u": Do, "expected_u": De, "units_u": N, "length_u": total,
            "alpha_u_micro": np.asarray(measures.alpha_from_disagreements((Do * used).sum(-1), (De * used).sum(-1))),
            "alpha_u_macro": _macro(alpha, used), "alpha_u_present": used}
