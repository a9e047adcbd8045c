"""What ``analyze``'s :class:`~ts_eval.analysis.study.Statistics` keeps is kept in the fewest bytes that hold it
exactly (issue 32): the distinct rows of small counts as int16, the spans' sentences as int32; the numbers read
back are those of the wider types."""
from __future__ import annotations

import numpy as np
from test_analyze_blocks import _statistics, _two_systems

from ts_eval.analysis import study
from ts_eval.models.context import Contributions
from ts_eval.ranking.rows import hash_multipliers, row_hashes
from ts_eval.ranking.sufficient import sentence_statistics


def test_the_distinct_rows_and_the_spans_sentences_are_kept_narrow(monkeypatch):
    """Counts of a few spans a sentence: the table is int16 (not float32) and the spans' sentences int32 (not int64),
    with the values of the models' own statistics, whether the corpus is counted in blocks or whole."""
    corpus = _two_systems(3, 150)
    for cut in (True, False):
        st_ = _statistics(corpus, monkeypatch, 40, cut=cut)
        assert st_.table.dtype == np.int16 and st_.ids is not None and st_.span_sentence.dtype == np.int32
        expected, _ = sentence_statistics(corpus, st_.models, st_.names)
        assert st_.data.dtype == np.float64 and st_.data.tolist() == expected.tolist()
        every = np.concatenate([corpus.sentence_of(corpus.gold.start)] +
                               [corpus.sentence_of(corpus.systems[n].start) for n in st_.names])
        assert st_.span_sentence.tolist() == every.tolist()


def test_small_keeps_whole_numbers_in_two_bytes_while_a_difference_of_two_fits():
    """int16 while every magnitude is below 2^14 (a difference of two rows fits int16), int32 below ``top``, else
    the values as given (a fraction, NaN, a large number); an int16 input is not copied."""
    assert study._small(np.array([[-16383.0, 16383.0]])).dtype == np.int16
    assert study._small(np.array([[0.0, 16384.0]])).dtype == np.int32
    assert study._small(np.array([[0.0, 2.0 ** 24]])).dtype == np.float64
    assert study._small(np.array([[0.0, 2.0 ** 24]]), 2 ** 31).dtype == np.int32
    assert study._small(np.array([[0.5, 1.0]])).dtype == np.float64
    assert study._small(np.array([[np.nan, 1.0]])).dtype == np.float64
    small = np.array([[1, 2]], np.int16)
    assert study._small(small) is small
    assert study._small(np.array([[1, 2 ** 14]], np.int16)).dtype == np.int32


def test_the_row_hash_of_whole_numbers_is_the_same_from_every_type():
    """The hash of whole numbers (their sum times odd 64-bit numbers, modulo 2^64) is the same from int16, int32,
    int64, float32 and float64 rows, and is that sum (worked out in Python integers)."""
    rows = np.array([[0, 3, 1, 7], [16000, 0, 2, 1], [5, 5, 5, 5]])
    mult = [int(m) for m in hash_multipliers(4)]
    expected = []
    for r in rows.tolist():
        h = sum(v * m for v, m in zip(r, mult)) % 2 ** 64
        expected.append(h ^ (h >> 29))
    for dtype in (np.int16, np.int32, np.int64, np.float32, np.float64):
        assert row_hashes(rows.astype(dtype), True).tolist() == expected, dtype
        assert row_hashes(rows.astype(dtype)[:, ::2], True).tolist() == \
            row_hashes(np.ascontiguousarray(rows[:, ::2]), True).tolist()


def test_contributions_drop_zero_weights_part_by_part():
    """Each part's zero weights are dropped (a part without any as it is): the entries of every part in order."""
    c = Contributions.of([(0, np.array([0, 1, 2]), np.array([4, 5, 6]), np.array([1.0, 0.0, 2.0])),
                          (1, np.array([7, 8]), np.array([1, 2]), np.array([1.0, 1.0])),
                          (0, np.array([3]), np.array([0]), np.array([0.0]))], 7)
    assert c.side.tolist() == [0, 0, 1, 1] and c.span.tolist() == [0, 2, 7, 8]
    assert c.col.tolist() == [4, 6, 1, 2] and c.weight.tolist() == [1.0, 2.0, 1.0, 1.0] and c.k == 7
    assert (c.side.dtype, c.span.dtype, c.col.dtype, c.weight.dtype) == (np.int8, np.int64, np.int64, np.float64)
    empty = Contributions.of([], 3)
    assert len(empty.span) == 0 and empty.span.dtype == np.int64 and empty.weight.dtype == np.float64


def test_rows_that_share_a_hash_are_told_apart_value_for_value():
    """Rows (int16 as kept, or wider) are checked value for value against the first row of their hash, in the block
    and in the table so far: two different rows given one hash are two rows (the second kept again); 0.0 and -0.0
    (the same value) are one."""
    from ts_eval.ranking.rows import RowTable

    for dtype in (np.int16, np.int32, np.int64):
        block = np.array([[1, 2, 3], [1, 2, 4], [1, 2, 3], [0, 0, 0]], dtype)
        ids, new = RowTable().ids(block, block[:0], 0, True, np.array([5, 5, 5, 6], np.uint64))
        assert ids.tolist() == [0, 2, 0, 1] and new.tolist() == [[1, 2, 3], [0, 0, 0], [1, 2, 4]]
        table = RowTable()      # a later block: its rows against the table's rows of the same hash
        table.ids(block[:1], block[:0], 0, True, np.array([5], np.uint64))
        ids, new = table.ids(block[1:], block[:1], 1, True, np.array([5, 5, 6], np.uint64))
        assert ids.tolist() == [2, 3, 1] and new.tolist() == [[0, 0, 0], [1, 2, 4], [1, 2, 3]]
    signed = np.array([[0.0, 1.0], [-0.0, 1.0]])
    ids, new = RowTable().ids(signed, signed[:0], 0, True, np.array([7, 7], np.uint64))
    assert ids.tolist() == [0, 0] and len(new) == 1
