"""TS level: per label, the token and separator units B gets right and A wrong, and vice versa."""
from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from ..core.corpus import Corpus
from ..core.units import bit_counts, label_mask, label_passes, merge_overlaps
from .results import TSDiff


def ts_diff(corpus: Corpus, a: str, b: str, separator_weight: float = 1.0) -> TSDiff:
    """Per label, the TS units B gets right and A wrong (split into units gold has, i.e. a
    missed unit found, and units gold lacks, i.e. a spurious unit removed), and vice versa."""
    L = len(corpus.labels)
    g, sa, sb = (merge_overlaps(s) for s in (corpus.gold, corpus.systems[a], corpus.systems[b]))
    keys = ("b_fixes", "b_fixes_positive", "a_fixes", "a_fixes_positive")
    counts = {(k, u): np.zeros(L, np.int64) for k in keys for u in ("tok", "sep")}
    for lo, hi in label_passes(L):
        if hi <= lo:
            break
        for u, unit in (("tok", "token"), ("sep", "separator")):
            gm, am, bm = (label_mask(corpus, s, lo, hi, unit) for s in (g, sa, sb))
            wa, wb = gm ^ am, gm ^ bm
            bf, af = wa & ~wb, wb & ~wa
            width = hi - lo
            counts[("b_fixes", u)][lo:hi] = bit_counts(bf, width)
            counts[("b_fixes_positive", u)][lo:hi] = bit_counts(bf & gm, width)
            counts[("a_fixes", u)][lo:hi] = bit_counts(af, width)
            counts[("a_fixes_positive", u)][lo:hi] = bit_counts(af & gm, width)
    w = float(separator_weight)

    def row(name: str, k: Optional[int]) -> Dict[str, Any]:
        """The row of label ``k`` (None: the total over the labels)."""
        def pick(arr: np.ndarray) -> int:
            return int(arr.sum()) if k is None else int(arr[k])

        r: Dict[str, Any] = {"label": name}
        for side in ("b", "a"):
            tok, sep = pick(counts[(f"{side}_fixes", "tok")]), pick(counts[(f"{side}_fixes", "sep")])
            ptok = pick(counts[(f"{side}_fixes_positive", "tok")])
            psep = pick(counts[(f"{side}_fixes_positive", "sep")])
            r[f"{side}_right_{'a' if side == 'b' else 'b'}_wrong"] = {
                "tokens": tok, "separators": sep, "units": tok + w * sep,
                "gold_positive": ptok + w * psep, "gold_negative": (tok - ptok) + w * (sep - psep)}
        r["net_units"] = r["b_right_a_wrong"]["units"] - r["a_right_b_wrong"]["units"]
        return r

    per = [row(lab, k) for k, lab in enumerate(corpus.labels)]
    total = row("total", None)
    return TSDiff(a, b, w, per, total)
