"""The bootstrap's distinct columns (issue 32.4): found by a hash of each column, the same grouping as a sort
of the columns."""
from __future__ import annotations

import numpy as np
import pytest

from ts_eval.analysis import resampling
from ts_eval.ranking.rows import distinct


def _groups(inverse: np.ndarray, n: int) -> list:
    return sorted(tuple(np.flatnonzero(inverse == g)) for g in range(n))


def _columns(table: np.ndarray):
    """(distinct columns, every column's number): the job's distinct columns, the distinct rows of the columns."""
    return distinct(np.ascontiguousarray(table.T), order="hash")


@pytest.mark.parametrize("seed", range(5))
def test_the_distinct_columns_are_those_of_a_sort_of_the_columns(seed):
    rng = np.random.default_rng(seed)
    base = rng.integers(-3, 4, size=(40, 9)).astype(np.float64)
    table = base[:, rng.integers(0, 9, size=30)]          # equal columns, in any order
    table[:, 3] = 0.0
    found, inverse = _columns(table)
    np.testing.assert_array_equal(found[inverse].T, table)
    _, ufirst, uinverse = np.unique(table.T, axis=0, return_index=True, return_inverse=True)
    assert len(found) == len(ufirst)
    assert _groups(inverse, len(found)) == _groups(uinverse.reshape(-1), len(ufirst))


def test_fractions_and_a_hash_that_meets_are_sorted_as_before(monkeypatch):
    from ts_eval.ranking import rows

    table = np.array([[0.5, 0.5, 1.0], [2.0, 2.0, 1.0]])
    _, inverse = _columns(table)
    assert inverse[0] == inverse[1] != inverse[2]
    monkeypatch.setattr(rows, "row_hashes", lambda rows, whole=None: np.zeros(len(rows), np.uint64))
    table = np.array([[1.0, 1.0, 2.0], [3.0, 3.0, 1.0]])
    found, inverse = _columns(table)       # every hash the same: the columns are told apart
    np.testing.assert_array_equal(found[inverse].T, table)
    assert inverse[0] == inverse[1] != inverse[2]


def test_a_table_without_rows_has_one_distinct_column():
    _, inverse = _columns(np.zeros((0, 4)))
    np.testing.assert_array_equal(inverse, [0, 0, 0, 0])


@pytest.mark.parametrize("order", ["use", "hash"])
def test_distinct_rows_give_back_every_row_in_either_order(order):
    x = np.array([[1, 0, 2], [0, 0, 1], [1, 0, 2], [3, 1, 0], [0, 0, 1]], float)
    table, ids = distinct(x, order=order)
    assert table[ids].tolist() == x.tolist()
    assert len(table) == 3 == len({tuple(r) for r in table.tolist()})
    if order == "use":
        assert table.tolist() == [[1, 0, 2], [0, 0, 1], [3, 1, 0]]


def test_micro_segment_f1_of_the_sums_alone_is_that_of_every_labels_scores():
    from ts_eval.models.segment import segment_f1, segment_prf
    rng = np.random.default_rng(3)
    x = rng.integers(0, 9, size=(50, 7, 4 * 5)).astype(np.float64)
    x[0, 0] = 0.0
    np.testing.assert_array_equal(segment_f1(x, "micro"), np.asarray(segment_prf(x)[1][2]))
    assert segment_f1(x[0, 1], "micro").shape == ()


@pytest.mark.parametrize("low", [0, -2])
def test_a_block_multiplied_in_float32_gives_the_float64_products(low):
    rng = np.random.default_rng(7)
    S, R = 300, 40
    table = rng.integers(low, 6, size=(25, 12)).astype(np.float64)
    ids = rng.integers(0, 25, size=200)
    sentences = np.sort(rng.choice(S, size=200, replace=False))
    got: list = []
    groups = (np.arange(12), np.arange(12), np.arange(12), np.zeros(0, np.intp))
    job = resampling.Job(sentences, ids, table.__getitem__, table[ids].sum(0), groups, R, got.append)
    WT = rng.integers(0, 4, size=(S, R)).astype(np.float32)
    job.add(WT, 0)
    job.finish()
    expected = WT[sentences].T.astype(np.float64) @ table[ids]
    np.testing.assert_array_equal(got[0], expected)


@pytest.mark.parametrize("average", ["micro", "macro"])
def test_ts_f1_without_the_true_negatives_is_the_f1_of_the_whole_table(average):
    from ts_eval.core import measures
    from ts_eval.models.ts import ts_f1, ts_table
    rng = np.random.default_rng(5)
    x = rng.integers(0, 9, size=(30, 3, 2 + 6 * 4)).astype(np.float64)
    tp, fp, fn, _ = ts_table(x, 0.5)
    expected = measures.fbeta(tp.sum(-1), fp.sum(-1), fn.sum(-1), 1.0) if average == "micro" else \
        measures.masked_mean(measures.fbeta(tp, fp, fn, 1.0), (tp + fp + fn) > 0)
    np.testing.assert_array_equal(ts_f1(x, 0.5, average), np.asarray(expected))


def test_a_job_that_holds_its_columns_lets_its_rows_go_and_is_done_after_the_last_block(monkeypatch):
    import gc
    import weakref
    rng = np.random.default_rng(11)
    table = rng.integers(0, 5, size=(20, 6)).astype(np.float64)
    ids = rng.integers(0, 20, size=60)
    gone = weakref.ref(table)
    got: list = []
    groups = (np.arange(6), np.arange(6), np.arange(6), np.zeros(0, np.intp))
    rs = resampling.Resampling(80, 10, seed=4, blockwise=True)
    rs.register(resampling.Job(np.arange(60), ids, table.__getitem__, table[ids].sum(0), groups, 10, got.append))
    expected_rows = table[ids]
    del table
    gc.collect()
    assert gone() is None
    monkeypatch.setattr(resampling, "BLOCK_WEIGHTS", 80 * 3)      # 4 blocks of resamples
    rs.run()
    W = resampling.bootstrap_weights(np.random.default_rng(np.random.SeedSequence(4).spawn(2)[0]), 10, 80)
    np.testing.assert_array_equal(got[0], W[:, :60] @ expected_rows)


def _bucket_rows():
    """A bucket of spans of a small corpus (every span in bucket 0) and its rows counted densely."""
    from test_analyze_fast import _statistics

    from ts_eval.analysis import bucket_rows
    from ts_eval.core.sequences import from_spans

    gold = [[("PER", 0, 2), ("LOC", 3, 4)], [("ORG", 1, 3)], [("PER", 0, 1)], [("PER", 0, 2), ("LOC", 3, 4)], []]
    a = [[("PER", 0, 2)], [("ORG", 1, 3)], [("LOC", 0, 1)], [("PER", 0, 2)], [("MISC", 2, 3)]]
    b = [[("PER", 0, 2), ("LOC", 3, 4)], [("ORG", 1, 2)], [("PER", 0, 1)], [("PER", 0, 2), ("LOC", 3, 4)], []]
    corpus = from_spans([5, 4, 2, 5, 3], gold, {"a": a, "b": b})
    s = _statistics(corpus)
    rows = bucket_rows.BucketRows(s, np.zeros(int(s.span_offset[-1]), np.int64), None, 1)
    X, _ = rows.rows(0)
    return s, rows, X


@pytest.mark.parametrize("window", [1, 2, 1 << 13])
def test_a_span_buckets_distinct_rows_are_told_apart_when_every_hash_meets(monkeypatch, window):
    """span_tables tells a bucket's rows apart by one product each and compares a row with the first row of its
    hash only: with every product the same, every row is still its own values, and equal rows are one row."""
    from ts_eval.analysis import bucket_rows

    s, rows, X = _bucket_rows()
    expected = resampling.grouped(X, s.groups)
    rows.span_tables(None, s.groups, rows=window)
    table, ids = rows.grouped_of(0)
    assert table[ids].tolist() == expected.tolist()
    assert len(table) == len(np.unique(expected, axis=0))
    monkeypatch.setattr(bucket_rows, "_PROBE", np.zeros(8))
    rows.span_tables(None, s.groups, rows=window)
    table, ids = rows.grouped_of(0)
    assert table[ids].tolist() == expected.tolist()
    assert len(table) >= len(np.unique(expected, axis=0)) and ids.tolist()[0] == 0


@pytest.mark.parametrize("probe", [None, 0.0])
def test_a_jobs_distinct_columns_when_every_columns_hash_meets(monkeypatch, probe):
    """A job groups its equal columns by an exact product with whole numbers (every column's sum below 2**24);
    columns whose products meet are compared value for value: the sums are those of every sentence."""
    rng = np.random.default_rng(2)
    base = rng.integers(0, 4, size=(12, 5)).astype(np.float64)
    table = base[:, [0, 1, 1, 2, 3, 0, 4, 4]]
    if probe is not None:
        monkeypatch.setattr(resampling, "_PROBES", np.full(10, probe))
    ids = rng.integers(0, 12, size=30)
    groups = (np.arange(8), np.arange(8), np.arange(8), np.zeros(0, np.intp))
    got: list = []
    job = resampling.Job(np.arange(30), ids, table.__getitem__, table[ids].sum(0), groups, 4, got.append)
    assert len(job.data) == len(np.unique(table[np.unique(ids)].T, axis=0))
    WT = rng.integers(0, 3, size=(30, 4)).astype(np.float32)
    job.add(WT, 0)
    job.finish()
    np.testing.assert_array_equal(got[0], WT.T.astype(np.float64) @ table[ids])
