"""The per-sentence statistics' sparse matrix (:func:`ts_eval.agreement.statistics.sentence_stats`) is
built row by row without sorting triplets: it must be in canonical CSR form (indices sorted within a row,
no duplicates) with the values the figures read, and its label-free form (what ``agree`` adds up over
blocks) must be ``coinc`` of every label less ``coinc0``."""
from __future__ import annotations

import numpy as np

from ts_eval.agreement.continuum import Continuum
from ts_eval.agreement.data import from_span_lists
from ts_eval.agreement.figures import figures
from ts_eval.agreement.statistics import sentence_stats

SPANS = {
    "a": [[("PER", 0, 2), ("LOC", 3, 4)], [("ORG", 1, 3)], [], [("PER", 0, 1), ("PER", 2, 3)]],
    "b": [[("PER", 0, 2), ("LOC", 2, 4)], [("ORG", 1, 2), ("ORG", 2, 3)], [("LOC", 0, 1)], [("PER", 0, 1)]],
    "c": [[("PER", 0, 1)], [("ORG", 1, 3)], [], [("PER", 2, 3)]],
}
LENGTHS = [5, 4, 2, 3]


def _stats(label_free: bool):
    ann = from_span_lists(SPANS, LENGTHS)
    return sentence_stats(ann, 0.5, Continuum(ann.corpus, "tokens", 0.5), label_free=label_free)


def test_the_matrix_is_canonical_and_counts_units_and_gaps():
    st = _stats(False)
    m = st.matrix
    for r in range(m.shape[0]):
        row = m.indices[m.indptr[r]:m.indptr[r + 1]]
        assert (np.diff(row) > 0).all(), f"row {r}: {row}"
    dense = m.toarray()
    units = st.columns.index("units")[0]
    assert dense[units].tolist() == [5 + 0.5 * 4, 4 + 0.5 * 3, 2 + 0.5 * 1, 3 + 0.5 * 2]
    # sentence 3: PER spans of one token: a has two, b one, c one -> four units of one token, two atoms
    # of the continuum (a separator of weight 0.5 is one atom); sentence 0: LOC of a (one token), of b (two)
    assert st.category_names == ["O", "LOC", "ORG", "PER"]
    ulen = st.columns.index("ulen")[0]
    assert [x.tolist() for x in st.unit_lengths] == [[2, 5], [2, 5], [2, 5]]
    assert dense[ulen + int(st.unit_columns[2][0])].tolist() == [1, 0, 0, 4]
    assert dense[ulen + int(st.unit_columns[0][0])].tolist() == [1, 0, 1, 0]
    assert dense[ulen + int(st.unit_columns[0][1])].tolist() == [1, 0, 0, 0]


def test_label_free_subtracts_coinc0_from_every_labels_coinc():
    plain, free = _stats(False).matrix.toarray(), _stats(True)
    c = free.columns
    first, shape = c.index("coinc")
    at = c.index("coinc0")[0]
    want = plain.copy()
    want[first:first + shape[0] - 1] -= plain[at]
    assert np.array_equal(free.matrix.toarray(), want)
    assert (plain[first:first + shape[0] - 1] != 0).any() and (plain[at] != 0).all()



def test_label_free_keeps_no_zeros():
    """The blocks' label-free matrix holds no entry that sums to zero (a gap counted and taken back)."""
    assert (_stats(True).matrix.data != 0).all()


def test_groups_sum_the_sentences_columns():
    """``groups``: the matrix's columns are the sums of consecutive sentences (documents in ``agree``'s blocks),
    the same floats as the per-sentence matrix times the grouping, no zero kept."""
    ann = from_span_lists(SPANS, LENGTHS)
    cont = Continuum(ann.corpus, "tokens", 0.5)
    for groups in ([0, 1, 3], [0], [0, 1, 2, 3]):
        per = sentence_stats(ann, 0.5, cont, label_free=True).matrix.toarray()
        got = sentence_stats(ann, 0.5, cont, label_free=True, groups=np.array(groups))
        want = np.add.reduceat(per, groups, axis=1)
        assert got.matrix.shape == want.shape
        assert np.array_equal(got.matrix.toarray(), want)
        assert (got.matrix.data != 0).all()


def test_gaps_per_sentence_and_label_as_counted_by_hand():
    """unit_parts: per annotator, sentence and label the gaps before, between and after its units (lengths on
    the continuum), each sentence's whole gap taken back where the label has a unit; labels interleaved."""
    from collections import Counter

    from ts_eval.agreement.continuum import unit_parts
    from ts_eval.core.units import merge_overlaps

    ann = from_span_lists(SPANS, LENGTHS)
    cont = Continuum(ann.corpus, "tokens", 1.0)          # a token and a separator: one atom each
    merged = [merge_overlaps(s) for s in ann.spans]
    gaps, _, _ = unit_parts(ann.corpus, merged, cont, np.ones(len(LENGTHS), bool))
    got = Counter()
    for s, lab, col, n in zip(gaps.sentence, gaps.label, gaps.column, gaps.count):
        got[int(s), int(lab), int(gaps.values[col])] += n
    want = Counter()
    labels = list(ann.corpus.labels)
    for spans in SPANS.values():
        for s, (sent, n_tok) in enumerate(zip(spans, LENGTHS)):
            length = 2 * n_tok - 1
            for lab in sorted({x[0] for x in sent}):
                at, k = 0, labels.index(lab)
                for _, b, e in sorted(x for x in sent if x[0] == lab):
                    want[s, k, 2 * b - at] += 1 if 2 * b - at else 0
                    at = 2 * e - 1
                want[s, k, length - at] += 1 if length - at else 0
                want[s, k, length] -= 1
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}


def test_exact_and_overlapping_spans_counted_on_the_spans_as_annotated():
    """``exact``, ``hit_a``, ``hit_b`` count the spans as annotated: where no two spans of one label overlap they
    are taken from the merged spans' pairs, otherwise (c's two PER spans overlap) from the spans' own; both as
    the segment counts of the spans' own pairs give them."""
    from itertools import combinations

    from ts_eval.core.matching import match
    from ts_eval.models.segment import hit_counts

    spans = {k: [list(s) for s in v] for k, v in SPANS.items()}
    spans["c"][0] = [("PER", 0, 2), ("PER", 1, 3), ("LOC", 3, 4)]          # overlapping, one label
    for given in (SPANS, spans):
        ann = from_span_lists(given, LENGTHS)
        st = sentence_stats(ann, 0.5, Continuum(ann.corpus, "tokens", 0.5))
        dense = st.matrix.toarray()
        c, S, L = ann.corpus, len(LENGTHS), len(ann.corpus.labels)
        for p, (i, j) in enumerate(combinations(range(3), 2)):
            a, b = ann.spans[i], ann.spans[j]
            ki, kj = (c.sentence_of(x.start) * L + x.label.astype(np.int64) for x in (a, b))
            raw = match(a, b)
            want = {"exact": hit_counts(ki, kj, raw, S * L, 0, 0)[:, 2], "hit_a": hit_counts(ki, kj, raw, S * L)[:, 2],
                    "hit_b": hit_counts(ki, kj, raw, S * L)[:, 3]}
            for name, counts in want.items():
                first = st.columns.index(name)[0] + p * L
                assert dense[first:first + L].T.ravel().tolist() == counts.tolist(), (name, p)
    assert len(ann.spans[2]) == 5 and (want["hit_a"] > 0).any()


def test_groups_are_counted_per_group_not_per_sentence(monkeypatch):
    """With ``groups`` (documents in ``agree``'s blocks) the per-label tables are taken per group: the TS
    units' counts are asked for groups x labels keys, not sentences x labels (a block has ~25 sentences a
    document), and the matrix is the per-sentence one summed."""
    import ts_eval.agreement.statistics as statistics

    sizes = []
    real = statistics.unit_counts

    def counted(*args):
        sizes.append(args[-1])
        return real(*args)

    monkeypatch.setattr(statistics, "unit_counts", counted)
    ann = from_span_lists(SPANS, LENGTHS)
    cont = Continuum(ann.corpus, "tokens", 0.5)
    per = sentence_stats(ann, 0.5, cont, label_free=True).matrix.toarray()
    sizes.clear()
    got = sentence_stats(ann, 0.5, cont, label_free=True, groups=np.array([0, 2]))
    assert sizes == [2 * len(ann.corpus.labels)] * 3
    assert np.array_equal(got.matrix.toarray(), np.add.reduceat(per, [0, 2], axis=1))


def test_groups_need_every_annotator_on_every_sentence():
    """A sentence an annotator left out has its own alpha weights: such sentences are not summed in groups."""
    import pytest

    spans = {k: list(v) for k, v in SPANS.items()}
    spans["c"][1] = None
    ann = from_span_lists(spans, LENGTHS)
    with pytest.raises(ValueError, match="every annotator"):
        sentence_stats(ann, 0.5, Continuum(ann.corpus, "tokens", 0.5), label_free=True, groups=np.array([0, 2]))


def test_categories_of_many_labels_on_one_token():
    """The multi-class categories are the label sets met, by their masks, also when a mask is 64 or more (seven
    labels on one token) and when the labels need two masks (33 labels): per annotator the units of each."""
    for n in (7, 33):
        labels = [f"L{k:02d}" for k in range(n)]
        spans = {"a": [[(lab, 0, 2) for lab in labels]], "b": [[(labels[0], 0, 1)]]}
        ann = from_span_lists(spans, [3])
        st = sentence_stats(ann, 1.0, Continuum(ann.corpus, "tokens", 1.0))
        assert st.category_names == ["O", labels[0], "+".join(labels)]
        cat = st.columns.get(np.asarray(st.matrix.sum(1)).ravel(), "cat")
        # a: tokens 0-1 and the separator between them carry every label; b: token 0 the first label
        assert cat.tolist() == [[2, 0, 3], [4, 1, 0]]


def test_categories_on_the_spans_where_no_unit_has_two_labels(monkeypatch):
    """Where no unit has two labels (no annotator's spans of two labels share a token), the multi-class
    tables are counted on the spans, without painting a label mask per token: a unit's category is its span's
    label, a pair's units that differ are those either labels less those both label alike."""
    import ts_eval.agreement.statistics as statistics

    def painted(*args):
        raise AssertionError("label masks painted per token")

    monkeypatch.setattr(statistics, "categories", painted)
    spans = {"a": [[("PER", 0, 2), ("LOC", 3, 4)]], "b": [[("PER", 0, 1), ("ORG", 1, 3)]]}
    ann = from_span_lists(spans, [5])
    st = sentence_stats(ann, 0.5, Continuum(ann.corpus, "tokens", 0.5))
    sums = np.asarray(st.matrix.sum(1)).ravel()
    assert st.category_names == ["O", "LOC", "ORG", "PER"]
    # tokens a: PER PER O LOC O, b: PER ORG ORG O O; separators a: PER O O O, b: O ORG O O
    assert st.columns.get(sums, "cat").tolist() == [[2 + 0.5 * 3, 1, 0, 2 + 0.5], [2 + 0.5 * 3, 0, 2 + 0.5, 1]]
    assert st.columns.get(sums, "differ").tolist() == [3 + 0.5 * 2]
    monkeypatch.undo()      # the same where a unit has two labels (the masks painted): b's ORG over a PER token
    spans["b"] = [[("PER", 0, 1), ("ORG", 0, 3)]]
    ann = from_span_lists(spans, [5])
    st = sentence_stats(ann, 0.5, Continuum(ann.corpus, "tokens", 0.5))
    sums = np.asarray(st.matrix.sum(1)).ravel()
    assert st.category_names == ["O", "LOC", "ORG", "PER", "ORG+PER"]
    # tokens b: ORG+PER ORG ORG O O; separators b: ORG ORG O O
    assert st.columns.get(sums, "cat").tolist() == [[2 + 0.5 * 3, 1, 0, 2 + 0.5, 0],
                                                    [2 + 0.5 * 2, 0, 2 + 0.5 * 2, 0, 1]]
    assert st.columns.get(sums, "differ").tolist() == [4 + 0.5 * 2]


def test_exact_and_overlapping_hits_of_a_pair():
    # pair (a, b), labels LOC ORG PER: sentence 0 PER exact, LOC overlapping (3-4 and 2-4); sentence 1 a's ORG
    # 1-3 overlaps both of b's ORG 1-2 and 2-3 (b hits twice); sentence 2 b alone; sentence 3 b's PER is a's first
    st = _stats(False)
    dense = st.matrix.toarray()
    L = 3

    def rows(name):
        at = st.columns.index(name)[0]
        return dense[at:at + L].T.tolist()      # pair 0: (sentences, labels)
    assert rows("exact") == [[0, 0, 1], [0, 0, 0], [0, 0, 0], [0, 0, 1]]
    assert rows("hit_a") == [[1, 0, 1], [0, 1, 0], [0, 0, 0], [0, 0, 1]]
    assert rows("hit_b") == [[1, 0, 1], [0, 2, 0], [0, 0, 0], [0, 0, 1]]


def test_a_rows_figures_are_the_full_figures():
    # the documents' rows take only four figures (and the unitizing parts): the same floats as every figure's
    st = _stats(False)
    x = st.matrix.T.toarray()          # one row per sentence
    full, rows = figures(st, x), figures(st, x, rows=True)
    for k in ("mean_f_exact_micro", "mean_kappa_micro", "alpha_micro", "alpha_u_micro", "observed_u", "expected_u",
              "alpha_u_present"):
        np.testing.assert_array_equal(rows[k], full[k])
    assert "kappa_macro" not in rows
    assert full["mean_kappa_micro"][1] == full["kappa_micro"][1].mean()    # sentence 1: every pair has ORG
