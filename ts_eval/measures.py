"""Counts first, scores derived: P, R, F-beta, Cohen's kappa and accuracy from
(possibly weighted) contingency counts, per label and micro/macro averaged.

Zero-division rule (one for all measures): a ratio whose denominator is 0 is 0.0,
except kappa when the expected agreement is 1 (both sides constant and equal),
which is 1.0.  The macro average runs over the labels *present* for the system:
those with gold or system units (segments); a label absent on both sides is
shown with its zero counts but left out of the mean.
"""
from __future__ import annotations

from typing import Dict

import numpy as np


def _div(num, den):
    num = np.asarray(num, float)
    den = np.asarray(den, float)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out if out.ndim else float(out)


def precision(tp, fp):
    return _div(tp, np.add(tp, fp))


def recall(tp, fn):
    return _div(tp, np.add(tp, fn))


def fbeta(tp, fp, fn, beta: float = 1.0):
    b2 = beta * beta
    tp = np.asarray(tp, float)
    return _div((1 + b2) * tp, (1 + b2) * tp + b2 * np.asarray(fn, float) + np.asarray(fp, float))


def f_from_pr(p, r, beta: float = 1.0):
    """F-beta from precision and recall (for models whose P and R count different hits)."""
    b2 = beta * beta
    p, r = np.asarray(p, float), np.asarray(r, float)
    return _div((1 + b2) * p * r, b2 * p + r)


def accuracy(tp, fp, fn, tn):
    return _div(np.add(tp, tn), np.add(np.add(tp, fp), np.add(fn, tn)))


def kappa(tp, fp, fn, tn):
    """Cohen's kappa of a (weighted) 2x2 table.

    Computed as 2 (TP TN - FN FP) / ((TP+FP)(FP+TN) + (TP+FN)(FN+TN)), which equals
    (po - pe) / (1 - pe) but has a denominator of non-negative products: it is 0 exactly
    when the expected agreement is 1 (both sides constant and equal, or no units), and a
    rare label in a huge corpus keeps its true kappa (no tolerance that turns 1 - pe of
    4e-9 into 0).
    """
    tp, fp, fn, tn = (np.asarray(x, float) for x in (tp, fp, fn, tn))
    den = (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)
    out = np.where(den == 0, 1.0, _div(2 * (tp * tn - fn * fp), den))
    return out if out.ndim else float(out)


def multiclass_kappa(confusion: np.ndarray) -> float:
    """Cohen's kappa of a (weighted) k x k confusion matrix (rows gold, columns system).

    (n trace - sum r_i c_i) / (sum over i != j of r_i c_j): the denominator is n^2 (1 - pe)
    as a sum of non-negative products, 0 exactly when all units fall in one diagonal cell
    (or there are none), where kappa is 1.0 by the zero-division rule.
    """
    c = np.asarray(confusion, float)
    rows, cols = c.sum(1), c.sum(0)
    off = np.ones((len(rows), len(cols))) - np.eye(len(rows), len(cols))
    den = float(rows @ off @ cols)
    if den == 0:
        return 1.0
    return float((c.sum() * np.trace(c) - float(rows @ cols)) / den)


def micro_table(tp, fp, fn, units):
    """The micro-averaged 2x2 table: per-label tables summed over the *present* labels.

    A label is present for a system when gold or that system has units of it (the
    labels the macro average runs over), so labels that only another system uses --
    or nobody -- add no true negatives, and a system's numbers depend only on gold
    and itself.  ``tp, fp, fn`` are (..., labels); ``units`` the (weighted) number of
    units (...).  With no present label the table is that of an absent label:
    0, 0, 0, units (kappa 1.0 and accuracy 1.0: both sides are empty and agree).
    Returns the tuple tp, fp, fn, tn of sums.
    """
    tp, fp, fn = (np.asarray(x, float) for x in (tp, fp, fn))
    units = np.asarray(units, float)
    present = (tp + fp + fn) > 0
    k = np.maximum(present.sum(-1), 1)
    TP, FP, FN = tp.sum(-1), fp.sum(-1), fn.sum(-1)
    TN = k * units - (TP + FP + FN)
    return tuple(x if np.ndim(x) else float(x) for x in (TP, FP, FN, TN))


def scores(tp, fp, fn, tn=None, beta: float = 1.0) -> Dict[str, np.ndarray]:
    """P, R, F-beta (and kappa, accuracy when TN is known) for arrays of counts."""
    out = {"precision": precision(tp, fp), "recall": recall(tp, fn), "f": fbeta(tp, fp, fn, beta)}
    if tn is not None:
        out["kappa"] = kappa(tp, fp, fn, tn)
        out["accuracy"] = accuracy(tp, fp, fn, tn)
    return out


def macro(per_label: Dict[str, np.ndarray], present: np.ndarray) -> Dict[str, float]:
    """Mean of per-label scores over the present labels (0.0 when none is present)."""
    present = np.asarray(present, bool)
    k = int(present.sum())
    return {name: (float(np.mean(np.asarray(v)[present])) if k else 0.0) for name, v in per_label.items()}
