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
    """Cohen's kappa of a (weighted) 2x2 table."""
    tp, fp, fn, tn = (np.asarray(x, float) for x in (tp, fp, fn, tn))
    n = tp + fp + fn + tn
    po = _div(tp + tn, n)
    pe = _div((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn), n * n)
    num = np.asarray(po - pe, float)
    den = np.asarray(1 - pe, float)
    out = np.where(np.isclose(den, 0.0), 1.0, _div(num, np.where(np.isclose(den, 0.0), 1.0, den)))
    return out if out.ndim else float(out)


def multiclass_kappa(confusion: np.ndarray) -> float:
    """Cohen's kappa of a (weighted) k x k confusion matrix (rows gold, columns system)."""
    c = np.asarray(confusion, float)
    n = c.sum()
    if n == 0:
        return 1.0
    po = np.trace(c) / n
    pe = float(c.sum(0) @ c.sum(1)) / (n * n)
    return 1.0 if np.isclose(pe, 1.0) else float((po - pe) / (1 - pe))


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
