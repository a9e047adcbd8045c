"""TS level: per label, the token and separator units B gets right and A wrong, and vice versa.

A corpus read in blocks is counted block by block (:func:`ts_counts`, summed per label name) and shown from
the sums (:func:`ts_result`)."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence

import numpy as np

from ..core.corpus import Corpus
from ..core.units import bit_counts, label_mask, label_passes, merge_overlaps
from .results import TSDiff

#: the columns of :func:`ts_counts`: per side, the units it fixes and those among them gold has, tokens and
#: separators
TS_KEYS = tuple((k, u) for k in ("b_fixes", "b_fixes_positive", "a_fixes", "a_fixes_positive") for u in ("tok", "sep"))


def ts_counts(corpus: Corpus, a: str, b: str) -> Dict[str, np.ndarray]:
    """Per label (by name), the TS units B gets right and A wrong and vice versa, as the columns of
    :data:`TS_KEYS`."""
    L = len(corpus.labels)
    g, sa, sb = (merge_overlaps(s) for s in (corpus.gold, corpus.systems[a], corpus.systems[b]))
    counts = np.zeros((L, len(TS_KEYS)), np.int64)
    col = {key: k for k, key in enumerate(TS_KEYS)}
    for lo, hi in label_passes(L):
        if hi <= lo:
            break
        for u, unit in (("tok", "token"), ("sep", "separator")):
            gm, am, bm = (label_mask(corpus, s, lo, hi, unit) for s in (g, sa, sb))
            wa, wb = gm ^ am, gm ^ bm
            bf, af = wa & ~wb, wb & ~wa
            width = hi - lo
            counts[lo:hi, col[("b_fixes", u)]] = bit_counts(bf, width)
            counts[lo:hi, col[("b_fixes_positive", u)]] = bit_counts(bf & gm, width)
            counts[lo:hi, col[("a_fixes", u)]] = bit_counts(af, width)
            counts[lo:hi, col[("a_fixes_positive", u)]] = bit_counts(af & gm, width)
    return {lab: counts[k] for k, lab in enumerate(corpus.labels)}


def ts_result(a: str, b: str, separator_weight: float, labels: Sequence[str],
              sums: Mapping[str, np.ndarray]) -> TSDiff:
    """The :class:`TSDiff` of the per-label counts ``sums`` (:func:`ts_counts`, added up over blocks)."""
    w = float(separator_weight)
    zero = np.zeros(len(TS_KEYS), np.int64)
    counts = np.stack([sums.get(lab, zero) for lab in labels]) if labels else np.zeros((0, len(TS_KEYS)), np.int64)
    col = {key: k for k, key in enumerate(TS_KEYS)}

    def row(name: str, k: Optional[int]) -> Dict[str, Any]:
        """The row of label ``k`` (None: the total over the labels)."""
        def pick(key: str, u: str) -> int:
            arr = counts[:, col[(key, u)]]
            return int(arr.sum()) if k is None else int(arr[k])

        r: Dict[str, Any] = {"label": name}
        for side in ("b", "a"):
            tok, sep = pick(f"{side}_fixes", "tok"), pick(f"{side}_fixes", "sep")
            ptok, psep = pick(f"{side}_fixes_positive", "tok"), pick(f"{side}_fixes_positive", "sep")
            r[f"{side}_right_{'a' if side == 'b' else 'b'}_wrong"] = {
                "tokens": tok, "separators": sep, "units": tok + w * sep,
                "gold_positive": ptok + w * psep, "gold_negative": (tok - ptok) + w * (sep - psep)}
        r["net_units"] = r["b_right_a_wrong"]["units"] - r["a_right_b_wrong"]["units"]
        return r

    per = [row(lab, k) for k, lab in enumerate(labels)]
    return TSDiff(a, b, w, per, row("total", None))


def ts_diff(corpus: Corpus, a: str, b: str, separator_weight: float = 1.0) -> TSDiff:
    """Per label, the TS units B gets right and A wrong (split into units gold has, i.e. a
    missed unit found, and units gold lacks, i.e. a spurious unit removed), and vice versa."""
    return ts_result(a, b, separator_weight, corpus.labels, ts_counts(corpus, a, b))
