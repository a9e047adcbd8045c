"""Token-and-separator units: 2n-1 units per sentence, no separator across sentences,
per-label vectors (several labels per unit), overlapping spans of one label merged."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix
from support import unit_classes

import ts_eval
from ts_eval.core.corpus import SpanSet
from ts_eval.core.sequences import from_spans
from ts_eval.core.units import merge_overlaps
from ts_eval.models.evaluate import evaluate
from ts_eval.models.ts import ts_counts, ts_table


def table(rep, label, system=0):
    row = rep.systems[system]["ts"]["labels"][label]
    return row["tp"], row["fp"], row["fn"], row["tn"]


def test_units_per_sentence_are_2n_minus_1():
    corpus = from_spans([1, 4, 7], [[], [("X", 0, 1)], []], [[], [], []])
    assert corpus.n_tokens == 12
    assert corpus.n_separators == 0 + 3 + 6
    rep = evaluate(corpus)
    assert rep.corpus["separators"] == 9
    assert sum(table(rep, "X")) == 12 + 9
    assert sum(table(evaluate(corpus, separator_weight=0.25), "X")) == pytest.approx(12 + 0.25 * 9)


def test_no_separator_crosses_a_sentence_boundary():
    # gold: X over the last token of sentence 0 and the first of sentence 1
    # system: the same two tokens; had a separator joined them it would be counted
    lengths = [3, 3]
    gold = [[("X", 2, 3)], [("X", 0, 1)]]
    pred = [[("X", 1, 3)], [("X", 0, 2)]]
    rep = evaluate(from_spans(lengths, gold, pred))
    # tp: 2 tokens; fp: token 1 + sep 1-2 in s0, token 1 + sep 0-1 in s1
    assert table(rep, "X") == (2, 4, 0, 10 - 6)
    row = rep.systems[0]["ts"]["labels"]["X"]
    assert row["token"] == {"tp": 2, "fp": 2, "fn": 0}
    assert row["separator"] == {"tp": 0, "fp": 2, "fn": 0}


def test_sentence_boundary_inside_tag_sequences_is_not_a_separator():
    # the same tags in one sentence or split in two give different unit counts
    one = ts_eval.score([["B-X", "I-X", "I-X", "I-X"]], [["B-X", "I-X", "I-X", "I-X"]])
    two = ts_eval.score([["B-X", "I-X"], ["I-X", "I-X"]], [["B-X", "I-X"], ["I-X", "I-X"]])
    assert table(one, "X") == (7, 0, 0, 0)
    assert table(two, "X") == (6, 0, 0, 0)


def test_adjacent_segments_differ_from_one_long_segment():
    # "lazy" + "dog" vs "lazy dog": only the separator between them differs
    rep = evaluate(from_spans([2], [[("X", 0, 2)]], [[("X", 0, 1), ("X", 1, 2)]]))
    assert table(rep, "X") == (2, 0, 1, 0)
    rep = evaluate(from_spans([2], [[("X", 0, 1), ("X", 1, 2)]], [[("X", 0, 2)]]))
    assert table(rep, "X") == (2, 1, 0, 0)


def test_overlapping_spans_of_one_label_count_each_unit_once():
    gold = [[("PER", 0, 3), ("PER", 1, 4)]]   # union 0-3: 7 units
    pred = [[("PER", 0, 4)]]
    rep = evaluate(from_spans([5], gold, pred))
    assert table(rep, "PER") == (7, 0, 0, 2)
    # nested inside: no change
    rep = evaluate(from_spans([5], [[("PER", 0, 4), ("PER", 1, 2)]], pred))
    assert table(rep, "PER") == (7, 0, 0, 2)


def test_a_unit_carries_several_labels():
    # nested NER: ORG "Bank of America" containing LOC "America"
    gold = [[("ORG", 0, 3), ("LOC", 2, 3)]]
    pred = [[("ORG", 0, 3), ("LOC", 1, 3)]]
    rep = evaluate(from_spans([4], gold, pred))
    assert table(rep, "ORG") == (5, 0, 0, 2)
    assert table(rep, "LOC") == (1, 2, 0, 4)
    micro = rep.systems[0]["ts"]["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"], micro["tn"]) == (6, 2, 0, 6)


def test_merge_overlaps_keeps_adjacent_spans_apart():
    ss = SpanSet(np.array([0, 2, 3, 5, 0]), np.array([1, 4, 3, 5, 0]), np.array([0, 0, 0, 0, 1], np.int32))
    m = merge_overlaps(ss)
    got = sorted(zip(m.label.tolist(), m.start.tolist(), m.last.tolist()))
    assert got == [(0, 0, 1), (0, 2, 4), (0, 5, 5), (1, 0, 0)]


def test_counts_table_weights_tokens_and_separators_separately():
    corpus = from_spans([9], [[("C", 1, 3), ("C", 7, 9)]], [[("C", 1, 4), ("C", 7, 8), ("C", 8, 9)]])
    c = ts_counts(corpus, corpus.gold, corpus.systems["system"])
    assert c.tok.tolist() == [[4, 1, 0]]
    assert c.sep.tolist() == [[1, 1, 1]]
    assert (c.n_tokens, c.n_separators) == (9, 8)
    assert [t.tolist() for t in ts_table(c.sums, 0.5)] == [[4.5], [1.5], [0.5], [9 + 0.5 * 8 - 6.5]]
    assert [t.tolist() for t in ts_table(c.sums, 1.0)] == [[5], [2], [1], [9]]


def test_many_labels_beyond_one_bitmask_pass():
    # more labels than fit in one 31-bit pass: every label must still get its own table
    labels = [f"L{k:02d}" for k in range(40)]
    gold = [[(lab, 0, 2)] for lab in labels]
    pred = [[(lab, 1, 2)] if k % 2 else [(lab, 0, 2)] for k, lab in enumerate(labels)]
    rep = evaluate(from_spans([2] * 40, gold, pred))
    for k, lab in enumerate(labels):
        # each label lives in its own sentence of 3 units; other sentences are TN for it
        tn = 3 * 39
        assert table(rep, lab) == ((1, 0, 2, tn) if k % 2 else (3, 0, 0, tn)), lab


def test_multiclass_kappa_with_more_than_31_labels():
    # single-tag data with 40 labels: the multi-class kappa over units is still defined
    labels = [f"L{k:02d}" for k in range(40)]
    gold = [[(lab, 0, 2)] for lab in labels]
    pred = [[(lab, 1, 2)] if k % 2 else [(labels[(k + 1) % 40], 0, 2)] for k, lab in enumerate(labels)]
    rep = evaluate(from_spans([2] * 40, gold, pred))
    names = rep.labels
    yc = unit_classes([2] * 40, gold, names)
    pc = unit_classes([2] * 40, pred, names)
    assert rep.systems[0]["ts"]["multiclass_kappa"] == pytest.approx(cohen_kappa_score(yc, pc))


def test_ts_confusion_matrix_by_hand_and_against_sklearn():
    # B-PER I-PER O B-LOC against B-PER O O B-ORG: tokens PER/PER, PER/O, O/O, LOC/ORG; separators
    # PER/O (inside the gold span, after the system span), O/O, O/O
    rep = ts_eval.score([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-ORG"]])
    cm = rep.systems[0]["ts"]["confusion"]
    assert list(cm) == ["O", "LOC", "ORG", "PER"]
    assert cm["O"] == {"O": 3, "LOC": 0, "ORG": 0, "PER": 0}
    assert cm["PER"] == {"O": 2, "LOC": 0, "ORG": 0, "PER": 1}
    assert cm["LOC"]["ORG"] == 1 and sum(v for row in cm.values() for v in row.values()) == 4 + 3
    # separator weight 0.5: separators count half
    half = ts_eval.score([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-ORG"]], separator_weight=0.5)
    assert half.systems[0]["ts"]["confusion"]["PER"]["O"] == 1.5
    # random single-tag data: the matrix is sklearn's over the unit classes
    rng = np.random.default_rng(5)
    labels = ["A", "B", "C"]
    lengths, gold, pred = [], [], []
    for _ in range(30):
        n = int(rng.integers(1, 12))
        lengths.append(n)
        for side in (gold, pred):
            spans, k = [], 0
            while k < n:
                if rng.random() < 0.4:
                    e = min(n - 1, k + int(rng.integers(0, 3)))       # the last token
                    spans.append((labels[int(rng.integers(3))], k, e + 1))
                    k = e + 1
                k += 1
            side.append(spans)
    rep = evaluate(from_spans(lengths, gold, pred))
    names = rep.labels
    want = confusion_matrix(unit_classes(lengths, gold, names), unit_classes(lengths, pred, names),
                            labels=range(len(names) + 1))
    cm = rep.systems[0]["ts"]["confusion"]
    order = ["O"] + list(names)
    got = np.array([[cm.get(r, {}).get(c, 0) for c in order] for r in order])
    np.testing.assert_array_equal(got, want)


def test_many_overlapping_labels_on_one_unit():
    labels = [f"L{k:02d}" for k in range(35)]
    gold = [[(lab, 0, 1) for lab in labels]]
    pred = [[(lab, 0, 1) for lab in labels[::2]]]
    rep = evaluate(from_spans([1], gold, pred))
    for k, lab in enumerate(labels):
        assert table(rep, lab) == ((1, 0, 0, 0) if k % 2 == 0 else (0, 0, 1, 0)), lab
    assert rep.systems[0]["ts"]["multiclass_kappa"] is None
    assert rep.systems[0]["ts"]["confusion"] is None       # a unit with two labels has no single class
