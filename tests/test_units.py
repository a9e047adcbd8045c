"""ts_eval.units: label bitmasks over token and separator units (the one painting road)."""
import numpy as np

import ts_eval
from ts_eval.models.ts import ts_counts
from ts_eval.units import BITS, bit_counts, label_mask, label_passes, merge_overlaps


def test_label_passes():
    assert BITS == 31
    assert label_passes(0) == [(0, 0)]
    assert label_passes(4) == [(0, 4)]
    assert label_passes(31) == [(0, 31)]
    assert label_passes(32) == [(0, 31), (31, 32)]
    assert label_passes(70) == [(0, 31), (31, 62), (62, 70)]


def test_label_mask_by_hand():
    # sentence 0: tokens 0..2 with separators 0 (t0|t1), 1 (t1|t2); sentence 1: tokens 3..4, separator 2 (t3|t4)
    # A over tokens 0..2, B over token 1 (nested), B over tokens 3..4
    c = ts_eval.from_spans([3, 2], [[("A", 0, 2), ("B", 1, 1)], [("B", 0, 1)]], {"s": [[], []]})
    a, b = c.labels.index("A"), c.labels.index("B")
    g = merge_overlaps(c.gold)
    tok = label_mask(c, g, 0, 2, "token")
    sep = label_mask(c, g, 0, 2, "separator")
    ba, bb = 1 << a, 1 << b
    assert tok.tolist() == [ba, ba | bb, ba, bb, bb]
    assert sep.tolist() == [ba, ba, bb]      # B 1..1 covers no separator; no separator between the sentences
    # only label B painted (lo = b): bit 0 stands for B
    assert label_mask(c, g, b, b + 1).tolist() == [0, 1, 0, 1, 1]
    assert bit_counts(tok, 2).tolist() == [3, 3]     # A on tokens 0, 1, 2; B on tokens 1, 3, 4
    assert bit_counts(np.array([1, 3, 0, 2]), 2).tolist() == [2, 2]
    assert bit_counts(np.zeros(4, np.int64), 3).tolist() == [0, 0, 0]


def test_masks_agree_with_events_counts_over_two_passes():
    # 40 labels: two painting passes; TP/FP/FN per label from the masks equal models.ts.ts_counts (the matcher route)
    rng = np.random.default_rng(3)
    lengths = rng.integers(1, 12, 60).tolist()
    labels = [f"L{k:02d}" for k in range(40)]

    def spans():
        out = []
        for n in lengths:
            sent = set()
            for _ in range(int(rng.integers(0, 4))):
                a = int(rng.integers(0, n))
                b = int(rng.integers(a, n))
                sent.add((labels[int(rng.integers(0, 40))], a, b))
            out.append(sorted(sent))
        return out

    c = ts_eval.from_spans(lengths, spans(), {"s": spans()})
    L = len(c.labels)
    assert L > BITS
    ref = ts_counts(c, c.gold, c.systems["s"])
    g, s = merge_overlaps(c.gold), merge_overlaps(c.systems["s"])
    for unit, table in (("token", ref.tok), ("separator", ref.sep)):
        got = np.zeros((L, 3))
        for lo, hi in label_passes(L):
            gm, sm = label_mask(c, g, lo, hi, unit), label_mask(c, s, lo, hi, unit)
            got[lo:hi, 0] = bit_counts(gm & sm, hi - lo)
            got[lo:hi, 1] = bit_counts(~gm & sm, hi - lo)
            got[lo:hi, 2] = bit_counts(gm & ~sm, hi - lo)
        assert np.array_equal(got, table), unit
