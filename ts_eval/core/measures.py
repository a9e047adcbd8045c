"""Counts first, scores derived: P, R, F-beta, Cohen's kappa and accuracy from
(possibly weighted) contingency counts, per label and micro/macro averaged.

Zero-division rule (one for all measures): a ratio whose denominator is 0 is 0.0,
except kappa when the expected agreement is exactly 1 (both sides constant and
equal, or no units), which is 1.0.  Micro and macro both run over the labels
*present* for the system: those with gold or system units (segments); a label
absent on both sides is shown with its zero counts but adds nothing to the
micro table (:func:`micro_table`) and is left out of the mean (:func:`macro`).

:func:`prf` is the one place P, R and F are made from a ``tp, fp, fn`` table; its
``percent=True`` variant (with :func:`percent`, :func:`percent_of_ratio`) computes percentages in
the official scorers' order of operations, for the byte-exact legacy layouts (conlleval, nereval).
Models whose precision and recall count different hits (the segment models' gold and system
spans hit) combine :func:`precision`, :func:`recall` and :func:`f_from_pr` themselves.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Literal, Mapping, Optional, Tuple, Union, cast, overload

import numpy as np

from ..errors import OptionError

if TYPE_CHECKING:   # numpy.typing costs an import at start-up that scoring does not need
    from numpy.typing import ArrayLike

#: what a measure gives: a float for numbers, an array (of the broadcast shape) for arrays of counts.
#: The overloads below say so: numbers give a float, an array as the first argument gives an array
#: (a 0-d array, which gives a float, is the one case they do not tell apart), anything else either.
Values = Union[float, np.ndarray]
#: one count: a Python or a numpy number
Number = Union[float, np.number]


def check_separator_weight(weight: float) -> float:
    """The separator weight as a float; an :class:`OptionError` (a ValueError) naming the option and the value
    unless it is a finite number >= 0."""
    w = float(weight)
    if not (np.isfinite(w) and w >= 0):
        raise OptionError("expected a finite number >= 0 (0: tokens only, 1: separators count as tokens)",
                          option="separator_weight", value=weight)
    return w


def check_beta(beta: float) -> float:
    """F-beta's beta as a float; an :class:`OptionError` (a ValueError) naming the option and the value unless
    it is a finite number > 0."""
    b = float(beta)
    if not (np.isfinite(b) and b > 0):
        raise OptionError("expected a finite number > 0 (1: F1)", option="beta", value=beta)
    return b


def _div(num: ArrayLike, den: ArrayLike) -> Values:
    num = np.asarray(num, float)
    den = np.asarray(den, float)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return _unwrap(out)


def _unwrap(x: Union[np.ndarray, np.float64]) -> Values:
    """An array as it is, a 0-d array or a numpy scalar as a float."""
    return x if isinstance(x, np.ndarray) and x.ndim else float(x)


@overload
def precision(tp: Number, fp: Number) -> float: ...
@overload
def precision(tp: np.ndarray, fp: ArrayLike) -> np.ndarray: ...
@overload
def precision(tp: ArrayLike, fp: ArrayLike) -> Values: ...
def precision(tp: ArrayLike, fp: ArrayLike) -> Values:
    return _div(tp, np.add(tp, fp))


@overload
def recall(tp: Number, fn: Number) -> float: ...
@overload
def recall(tp: np.ndarray, fn: ArrayLike) -> np.ndarray: ...
@overload
def recall(tp: ArrayLike, fn: ArrayLike) -> Values: ...
def recall(tp: ArrayLike, fn: ArrayLike) -> Values:
    return _div(tp, np.add(tp, fn))


@overload
def fbeta(tp: Number, fp: Number, fn: Number, beta: float = 1.0) -> float: ...
@overload
def fbeta(tp: np.ndarray, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0) -> np.ndarray: ...
@overload
def fbeta(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0) -> Values: ...
def fbeta(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0) -> Values:
    b2 = beta * beta
    tp = np.asarray(tp, float)
    return _div((1 + b2) * tp, (1 + b2) * tp + b2 * np.asarray(fn, float) + np.asarray(fp, float))


@overload
def f_from_pr(p: Number, r: Number, beta: float = 1.0) -> float: ...
@overload
def f_from_pr(p: np.ndarray, r: ArrayLike, beta: float = 1.0) -> np.ndarray: ...
@overload
def f_from_pr(p: ArrayLike, r: ArrayLike, beta: float = 1.0) -> Values: ...
def f_from_pr(p: ArrayLike, r: ArrayLike, beta: float = 1.0) -> Values:
    """F-beta from precision and recall (for models whose P and R count different hits)."""
    b2 = beta * beta
    p, r = np.asarray(p, float), np.asarray(r, float)
    return _div((1 + b2) * p * r, b2 * p + r)


@overload
def prf(tp: float, fp: float, fn: float, beta: float = 1.0, *,
        percent: Literal[True]) -> Tuple[float, float, float]: ...
@overload
def prf(tp: Number, fp: Number, fn: Number, beta: float = 1.0, *,
        percent: Literal[False] = False) -> Tuple[float, float, float]: ...
@overload
def prf(tp: np.ndarray, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0, *,
        percent: Literal[False] = False) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
@overload
def prf(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0, *,
        percent: Literal[False] = False) -> Tuple[Values, Values, Values]: ...
def prf(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0, *,
        percent: bool = False) -> Tuple[Values, Values, Values]:
    """Precision, recall and F-beta (from P and R: ``(1 + b^2) P R / (b^2 P + R)``) of a ``tp, fp, fn``
    table; arrays give arrays, 0.0 wherever a denominator is 0 (the one zero-division rule).

    ``percent=True``: scalars in percent, in the official scorers' order of operations
    (``100*tp/(tp+fp)``, multiplying first; F from the percentages), which the byte-exact layouts need:
    ``100*k/f`` and ``100*(k/f)`` can differ in the last bit, and that can change a ``%6.2f`` rounding.
    """
    if percent:     # numbers only (the first overload): Python's arithmetic, in the scorers' order
        k, found_wrong, missed = cast(float, tp), cast(float, fp), cast(float, fn)
        p_pct, r_pct = _percent(k, k + found_wrong), _percent(k, k + missed)
        return p_pct, r_pct, float(f_from_pr(p_pct, r_pct, beta))
    p, r = precision(tp, fp), recall(tp, fn)
    return p, r, f_from_pr(p, r, beta)


@overload
def accuracy(tp: Number, fp: Number, fn: Number, tn: Number) -> float: ...
@overload
def accuracy(tp: np.ndarray, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike) -> np.ndarray: ...
@overload
def accuracy(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike) -> Values: ...
def accuracy(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike) -> Values:
    return _div(np.add(tp, tn), np.add(np.add(tp, fp), np.add(fn, tn)))


@overload
def kappa(tp: Number, fp: Number, fn: Number, tn: Number) -> float: ...
@overload
def kappa(tp: np.ndarray, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike) -> np.ndarray: ...
@overload
def kappa(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike) -> Values: ...
def kappa(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike) -> Values:
    """Cohen's kappa of a (weighted) 2x2 table.

    Computed as 2 (TP TN - FN FP) / ((TP+FP)(FP+TN) + (TP+FN)(FN+TN)), which equals
    (po - pe) / (1 - pe) but has a denominator of non-negative products: it is 0 exactly
    when the expected agreement is 1 (both sides constant and equal, or no units), and a
    rare label in a huge corpus keeps its true kappa (no tolerance that turns 1 - pe of
    4e-9 into 0).
    """
    tp, fp, fn, tn = (np.asarray(x, float) for x in (tp, fp, fn, tn))
    den = (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)
    return _unwrap(np.where(den == 0, 1.0, _div(2 * (tp * tn - fn * fp), den)))


def multiclass_kappa(confusion: np.ndarray) -> float:
    """Cohen's kappa of a (weighted) k x k confusion matrix (rows gold, columns system).

    n^2 (po - pe) / n^2 (1 - pe), both sides written without a difference of near-equal
    large sums: the numerator is sum_i (c_ii * rest_i - R_i * C_i) (rest_i: the units in
    neither row i nor column i; R_i, C_i: row i's and column i's off-diagonal mass), which
    is 2 (TP TN - FN FP) for two classes, and the denominator sum over i != j of r_i c_j,
    0 exactly when all units fall in one diagonal cell (or there are none): kappa 1.0
    then, by the zero-division rule.
    """
    c = np.asarray(confusion, float)
    rows, cols, diag = c.sum(1), c.sum(0), np.diag(c)
    off = np.ones(c.shape) - np.eye(*c.shape)
    den = float(rows @ off @ cols)
    if den == 0:
        return 1.0
    rest = c.sum() - rows - cols + diag
    num = float(diag @ rest - (rows - diag) @ (cols - diag))
    return num / den


def kappa_from_margins(agree: ArrayLike, rows: ArrayLike, cols: ArrayLike) -> Values:
    """Cohen's kappa from the (weighted) units two raters put in the same category (``agree``)
    and each rater's units per category (``rows``, ``cols``: (..., k)), vectorised over leading
    axes: what :func:`multiclass_kappa` gives for any confusion matrix with that diagonal sum and
    those margins.

    n^2 (po - pe) = n * agree - sum_k r_k c_k (the sum of :func:`multiclass_kappa`'s numerator
    terms, which is 2 (TP TN - FN FP) for two classes); n^2 (1 - pe) = sum_k r_k (n - c_k), a sum
    of non-negative products, 0 exactly when both raters put every unit in one category: kappa
    1.0 then (the zero-division rule)."""
    rows, cols = np.asarray(rows, float), np.asarray(cols, float)
    n = rows.sum(-1)
    den = (rows * (n[..., None] - cols)).sum(-1)
    num = n * np.asarray(agree, float) - (rows * cols).sum(-1)
    return _one_when_zero(num, den)


def _one_when_zero(num: ArrayLike, den: ArrayLike) -> Values:
    """num / den, 1.0 where den is 0 (a chance-corrected coefficient whose chance agreement is
    total: every rater put everything in one category; the zero-division rule of kappa)."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    out = np.ones(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return _unwrap(out)


def fleiss_kappa(agree_pairs: ArrayLike, totals: ArrayLike, raters: int) -> Values:
    """Fleiss' kappa of ``raters`` raters who each put every one of n (weighted) units in one of
    k categories, from sufficient sums, vectorised over leading axes:

    - ``agree_pairs``: summed over all rater pairs, the units both put in the same category
      (sum over units of the pairs that agree there: sum_k n_uk (n_uk - 1) / 2);
    - ``totals``: (..., k) units per category summed over raters (T_k = sum_u n_uk).

    P-bar = 2 agree_pairs / (n m (m - 1)) is the mean pairwise observed agreement, P_e =
    sum_k (T_k / (n m))^2 the chance agreement of the pooled category shares; kappa =
    (P-bar - P_e) / (1 - P_e), computed as (2 m n agree_pairs - (m - 1) sum_k T_k^2) /
    ((m - 1) sum_k T_k (n m - T_k)), 1.0 when the denominator is 0 (everyone put everything in
    one category)."""
    totals = np.asarray(totals, float)
    m = float(raters)
    nm = totals.sum(-1)                         # n * m
    num = 2 * nm * np.asarray(agree_pairs, float) - (m - 1) * (totals * totals).sum(-1)
    den = (m - 1) * (totals * (nm[..., None] - totals)).sum(-1)
    return _one_when_zero(num, den)


def krippendorff_alpha_nominal(coincident: ArrayLike, totals: ArrayLike) -> Values:
    """Krippendorff's alpha for nominal data from sufficient sums, vectorised over leading axes:

    - ``coincident``: the sum of the coincidence matrix's diagonal, sum_c o_cc, where a unit
      with m_u >= 2 values adds sum_c n_uc (n_uc - 1) / (m_u - 1) (units with fewer values are
      not pairable and add nothing anywhere);
    - ``totals``: (..., k) the pairable values per category, n_c (n = sum_c n_c).

    alpha = 1 - D_o / D_e = 1 - (n - 1) (n - sum_c o_cc) / (n^2 - sum_c n_c^2), computed as
    ((n^2 - sum n_c^2) - (n - 1)(n - sum o_cc)) / sum_c n_c (n - n_c); 1.0 when the denominator
    is 0 (every value the same category: no disagreement is possible)."""
    totals = np.asarray(totals, float)
    n = totals.sum(-1)
    den = (totals * (n[..., None] - totals)).sum(-1)
    num = den - (n - 1) * (n - np.asarray(coincident, float))
    return _one_when_zero(num, den)


def unitizing_disagreements(distance: ArrayLike, units: ArrayLike, cubes: Tuple[ArrayLike, ArrayLike],
                            gap_term: ArrayLike, length: ArrayLike, raters: int) -> Tuple[np.ndarray, np.ndarray]:
    """Krippendorff's (2004) observed and expected disagreement of one category on a continuum,
    vectorised over leading axes (every argument broadcast):

    - ``distance``: sum over rater pairs i < j of the distances of their sections (for two
      overlapping units (b_i - b_j)^2 + (e_i - e_j)^2, for a unit inside the other's gap its
      length squared);
    - ``units``: N_c, the units of the category of all raters; ``cubes``: sum over them of
      (2 l^3 - 3 l^2 + l) / 3 and of l (l - 1) (a pair ``(cubes, squares)``);
    - ``gap_term``: sum over units u of l_u^2 sum over the gaps g with l_g >= l_u of
      (l_g - l_u + 1);
    - ``length``: L, the continuum's length; ``raters``: m.

    D_o = 2 distance / (m (m - 1) L^2) and D_e = (2 / L) ((N_c - 1) cubes + gap_term) /
    (m L (m L - 1) - squares).  Returns (D_o, D_e)."""
    cube, square = cubes
    m = float(raters)
    L = np.asarray(length, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        d_o = np.where(L > 0, 2 * np.asarray(distance, float) / (m * (m - 1) * L * L), 0.0)
        den = m * L * (m * L - 1) - np.asarray(square, float)
        num = (np.asarray(units, float) - 1) * np.asarray(cube, float) + np.asarray(gap_term, float)
        d_e = np.where((L > 0) & (den > 0), 2 / np.where(L > 0, L, 1) * num / np.where(den > 0, den, 1), 0.0)
    return d_o, d_e


def alpha_from_disagreements(observed: ArrayLike, expected: ArrayLike) -> Values:
    """1 - D_o / D_e, vectorised; 1.0 where D_e is 0 and D_o is 0 (nothing to disagree on), and
    0.0 where D_e is 0 but D_o is not (cannot happen with positive lengths; kept defined)."""
    observed, expected = np.asarray(observed, float), np.asarray(expected, float)
    out = np.where(observed == 0, 1.0, 0.0)
    np.divide(expected - observed, expected, out=out, where=expected != 0)
    return _unwrap(out)


@overload
def micro_table(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, units: Number) -> Tuple[float, float, float, float]: ...
@overload
def micro_table(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike,
                units: ArrayLike) -> Tuple[Values, Values, Values, Values]: ...
def micro_table(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike,
                units: ArrayLike) -> Tuple[Values, Values, Values, Values]:
    """The micro-averaged 2x2 table: per-label tables summed over the *present* labels.

    A label is present for a system when gold or that system has units of it (the
    labels the macro average runs over), so labels that only another system uses --
    or nobody -- add no true negatives, and a system's numbers depend only on gold
    and itself.  ``tp, fp, fn`` are (..., labels); ``units`` the (weighted) number of
    units (...): a number for one table (``tp, fp, fn`` of shape (labels,)), which gives
    numbers.  With no present label the table is that of an absent label:
    0, 0, 0, units (kappa 1.0 and accuracy 1.0: both sides are empty and agree).
    Returns the tuple tp, fp, fn, tn of sums.
    """
    tp, fp, fn = (np.asarray(x, float) for x in (tp, fp, fn))
    units = np.asarray(units, float)
    present = (tp + fp + fn) > 0
    k = np.maximum(present.sum(-1), 1)
    TP, FP, FN = tp.sum(-1), fp.sum(-1), fn.sum(-1)
    TN = k * units - (TP + FP + FN)
    return _unwrap(TP), _unwrap(FP), _unwrap(FN), _unwrap(TN)


@overload
def scores(tp: Number, fp: Number, fn: Number, tn: Optional[Number] = None, beta: float = 1.0) -> Dict[str, float]: ...
@overload
def scores(tp: np.ndarray, fp: ArrayLike, fn: ArrayLike, tn: Optional[ArrayLike] = None,
           beta: float = 1.0) -> Dict[str, np.ndarray]: ...
@overload
def scores(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: Optional[ArrayLike] = None,
           beta: float = 1.0) -> Dict[str, Values]: ...
def scores(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: Optional[ArrayLike] = None,
           beta: float = 1.0) -> Union[Dict[str, float], Dict[str, np.ndarray], Dict[str, Values]]:
    """P, R, F-beta (and kappa, accuracy when TN is known) for arrays of counts."""
    out: Dict[str, Values] = {"precision": precision(tp, fp), "recall": recall(tp, fn), "f": fbeta(tp, fp, fn, beta)}
    if tn is not None:
        out["kappa"] = kappa(tp, fp, fn, tn)
        out["accuracy"] = accuracy(tp, fp, fn, tn)
    return out


def masked_mean(values: ArrayLike, present: ArrayLike, *, empty: float = 0.0) -> np.ndarray:
    """Mean over the last axis of the present entries, ``empty`` where none is present (0.0: the rule of
    :func:`macro`; agreement passes NaN: a mean over no label is undefined), vectorised over leading
    axes: the macro average of resampled sums."""
    present = np.asarray(present, bool)
    k = present.sum(-1)
    total = np.where(present, values, 0.0).sum(-1)
    return np.where(k > 0, total / np.maximum(k, 1), empty)


def macro(per_label: Mapping[str, ArrayLike], present: ArrayLike) -> Dict[str, float]:
    """Mean of per-label scores over the present labels (0.0 when none is present)."""
    present = np.asarray(present, bool)
    k = int(present.sum())
    return {name: (float(np.mean(np.asarray(v)[present])) if k else 0.0) for name, v in per_label.items()}


# ---------------------------------------------------------------------------
# percentages in an official scorer's order of operations
#
# ``conlleval.pl`` and ``nereval.perl`` (GermEval 2014's official scorer, version 2014-05-19)
# compute precision as ``100*correct/found`` and recall as ``100*correct/gold`` (0 when the
# denominator is 0), and F1 from those percentages (:func:`prf` with ``percent=True``).


def percent(num: float, den: float) -> float:
    """``100*num/den`` (multiply first, as the scorers do), 0.0 when ``den`` is 0."""
    return 100 * num / den if den > 0 else 0.0


_percent = percent     # prf() takes a keyword named percent


def percent_of_ratio(num: float, den: float) -> float:
    """``100*(num/den)`` (divide first: the scorer's order for one level's token accuracy), 0.0 when ``den`` is 0."""
    return 100 * (num / den) if den > 0 else 0.0
