"""ts_eval.core.units: label bitmasks over token and separator units (the one painting road)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval.core.corpus import SpanSet
from ts_eval.core.matching import match
from ts_eval.core.sequences import from_spans
from ts_eval.core.units import BITS, bit_counts, label_mask, label_passes, merge_overlaps, paint
from ts_eval.models.ts import confusion, ts_counts


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
    c = from_spans([3, 2], [[("A", 0, 3), ("B", 1, 2)], [("B", 0, 2)]], {"s": [[], []]})
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
                b = int(rng.integers(a, n))                   # the last token
                sent.add((labels[int(rng.integers(0, 40))], a, b + 1))
            out.append(sorted(sent))
        return out

    c = from_spans(lengths, spans(), {"s": spans()})
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


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 7), min_size=1, max_size=5), st.data())
def test_confusion_from_pairs_equals_painted_classes(lengths, data):
    """models.ts.confusion reads the matcher's pairs; painting each unit's class (1 + label,
    0 outside) and counting (gold class, system class) must give the same matrices, and None
    exactly when a unit carries two labels on one side."""
    def side():
        out = []
        for n in lengths:
            spans = set()
            for _ in range(data.draw(st.integers(0, 3))):
                a = data.draw(st.integers(0, n - 1))
                spans.add((data.draw(st.sampled_from("ABC")), a, data.draw(st.integers(a, n - 1)) + 1))
            out.append(sorted(spans))
        return out

    c = from_spans(lengths, side(), {"s": side()})
    L = len(c.labels)
    g, s = merge_overlaps(c.gold), merge_overlaps(c.systems["s"])
    got = confusion(c, g, s, match(g, s), L)
    want = []
    for unit, n in (("token", c.n_tokens), ("separator", c.n_separators)):
        cls, double = [], False
        for spans in (g, s):
            if unit == "token":
                first, last = spans.start, spans.last
            else:
                sent = c.sentence_of(spans.start)
                first, last = spans.start - sent, spans.last - 1 - sent
            double |= bool((paint(spans, np.ones(len(spans), np.int64), n, first, last) > 1).any())
            cls.append(paint(spans, spans.label.astype(np.int64) + 1, n, first, last))
        if double:           # painted class ids add up where two labels meet: no class per unit
            want.append(None)
            continue
        m = np.zeros((L + 1, L + 1))
        np.add.at(m, (cls[0], cls[1]), 1)
        want.append(m)
    if want[0] is None:      # a unit with two labels: no multi-class confusion
        assert got == (None, None)
    else:
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=12), st.lists(st.integers(-2, 60), max_size=30))
def test_sentence_of_is_the_binary_search_it_replaces(lengths, tokens):
    # the corpus's token -> sentence map gives what searchsorted(offsets, t, 'right') - 1 gives, with
    # empty sentences and tokens outside the corpus (those fall back to the search)
    import dataclasses

    corpus = from_spans([1], [[]], [[]])
    corpus = dataclasses.replace(corpus, sent_offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64))
    t = np.array(tokens, np.int64)
    want = np.searchsorted(corpus.sent_offsets, t, side="right") - 1
    np.testing.assert_array_equal(corpus.sentence_of(t), want)
    inside = t[(t >= 0) & (t < corpus.n_tokens)]
    np.testing.assert_array_equal(corpus.sentence_of(inside), want[(t >= 0) & (t < corpus.n_tokens)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 4), st.integers(0, 40)), max_size=40), st.booleans())
def test_merge_overlaps_is_the_union_of_each_labels_spans(spans, in_order):
    # spans in token order take a radix sort by label, others the lexsort: the same intervals either way
    if in_order:
        spans = sorted(spans)
    start = np.array([b for b, _, _ in spans], np.int64)
    last = start + np.array([n for _, n, _ in spans], np.int64)
    label = np.array([lab for _, _, lab in spans], np.int32)
    got = merge_overlaps(SpanSet(start, last, label))
    want = []
    for lab in sorted(set(label.tolist())):
        cover = sorted({t for b, e, k in zip(start, last, label) if k == lab for t in range(b, e + 1)})
        for t in cover:
            if want and want[-1][0] == lab and want[-1][2] == t - 1 and any(
                    b <= t - 1 and t <= e for b, e, k in zip(start, last, label) if k == lab):
                want[-1][2] = t
            else:
                want.append([lab, t, t])
    assert sorted(zip(got.label.tolist(), got.start.tolist(), got.last.tolist())) == [tuple(w) for w in want]
