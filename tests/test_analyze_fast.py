"""``analyze`` computed with less (issue 32): each shortcut gives the numbers of the general computation.

- the paired permutation test of a bucket on the difference of the two systems' statistics, over the
  sentences where they differ, counted per distinct difference, gives the p-values of
  :func:`ts_eval.ranking.uncertainty.pair_pvalues`;
- a bucket's rows made one bucket at a time are the rows of the whole attribute, bucket by bucket;
- the token columns of :class:`ts_eval.analysis.attributes.Text` read once per distinct token string are
  those read token by token.
"""
from __future__ import annotations

from typing import List

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import statistics_entries, write
from test_analyze import SPLIT_MODELS, corpora

import ts_eval
from ts_eval.analysis import attributes as at
from ts_eval.analysis import bucket_rows, study, study_inputs
from ts_eval.analysis.pairtest import PairTests, bucket_pair_pvalues, difference_columns
from ts_eval.core.sequences import from_spans
from ts_eval.errors import InputError
from ts_eval.ranking.uncertainty import pair_pvalues


def _statistics(corpus, models=SPLIT_MODELS) -> study.Statistics:
    return study.Statistics(corpus, list(corpus.systems), study.resolve_models(models, corpus))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(0, 2), st.integers(1, 130), st.integers(0, 3))
def test_the_pair_test_on_differences_gives_the_general_tests_pvalues(corpus, second, permutations, seed):
    s = _statistics(corpus, SPLIT_MODELS + ["exact-f1-macro", "ts-f1-macro"])
    ia, ib = (0, 1) if second == 0 else (second, 0)
    seq = np.random.SeedSequence(seed)
    general = np.concatenate(pair_pvalues(s.matrix(s.data), [(np.array([ia]), np.array([ib]))] * len(s.models),
                                          permutations, seq))
    assert bucket_pair_pvalues(s.matrix(s.data), ia, ib, permutations, seq).tolist() == general.tolist()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(2, 40), st.integers(1, 120))
def test_the_pair_test_over_repeated_sentences_gives_the_general_tests_pvalues(corpus, times, permutations):
    """Sentences that differ in the same way are counted per distinct difference: the same p-values."""
    s = _statistics(corpus, SPLIT_MODELS + ["exact-f1-macro"])
    data = np.tile(s.data, (times, 1))[np.random.default_rng(times).permutation(s.S * times)]
    sm = s.matrix(data)
    seq = np.random.SeedSequence(times)
    general = np.concatenate(pair_pvalues(sm, [(np.array([0]), np.array([2]))] * len(s.models), permutations, seq))
    assert bucket_pair_pvalues(sm, 0, 2, permutations, seq).tolist() == general.tolist()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(1, 4), st.integers(1, 130), st.integers(1, 40), st.integers(0, 99))
def test_the_tests_of_many_buckets_read_one_stream_and_give_each_tests_pvalues(corpus, times, permutations, window,
                                                                                seed):
    """Every bucket's test reads the first permutations x units numbers of one stream, drawn once for all of
    them a window at a time (here a few numbers: windows cut permutations and chunks of them anywhere): the
    p-values of each bucket's test alone."""
    s = _statistics(corpus, SPLIT_MODELS + ["exact-f1-macro"])
    data = np.tile(s.data, (times, 1))
    pick = np.random.default_rng(seed)
    buckets = [np.flatnonzero(pick.random(len(data)) < q) for q in (0.3, 0.7, 1.0, 0.0)]
    seq = np.random.SeedSequence(seed)
    tests = PairTests(permutations, seq, window=window)
    got = [np.full(len(s.models), np.nan) for _ in buckets]
    for rows, out in zip(buckets, got):
        tests.add(s.matrix(data[rows]), 0, 2, out)
    tests.run()
    for rows, out in zip(buckets, got):
        alone = pair_pvalues(s.matrix(data[rows]), [(np.array([0]), np.array([2]))] * len(s.models), permutations, seq)
        assert out.tolist() == np.concatenate(alone).tolist()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(1, 4), st.integers(1, 5))
def test_a_tables_differences_are_its_moving_rows_told_apart_a_few_rows_at_a_time(corpus, times, rows):
    """The pair's differences of a table of rows, made a few rows at a time (down to one): row 0 zeros, the
    others each a distinct non-zero difference, every row of the table its own difference; the checks of the
    table's values are made once for every bucket's test over it."""
    s = _statistics(corpus, SPLIT_MODELS + ["exact-f1-macro"])
    data = np.tile(s.data, (times, 1))
    a_cols, b_cols, _ = difference_columns(s.cols, len(s.names), 0, 2)
    tests = PairTests(10, np.random.SeedSequence(0))
    table, ids = tests._distinct_differences(data, a_cols, b_cols, rows=rows)
    expected = data[:, b_cols] - data[:, a_cols]
    assert table[ids].tolist() == expected.tolist()
    assert not table[0].any() and table[1:].any(1).all()
    assert len(table) == 1 + len(np.unique(expected[expected.any(1)], axis=0))
    assert tests._whole(data) and tests._wholes[id(data)][0] is data


def test_a_uniform_below_one_half_is_a_raw_draw_below_2_to_the_63():
    """``Generator.random`` in calls of any shape reads the stream of 64-bit draws in order, one a number."""
    seq = np.random.SeedSequence(7)
    rng = np.random.default_rng(seq)
    calls = np.concatenate([rng.random((5, 11)).ravel(), rng.random((3, 11)).ravel(), rng.random(7)])
    raw = np.random.default_rng(seq).bit_generator.random_raw(len(calls))
    assert ((calls < 0.5) == (raw < np.uint64(1 << 63))).all()
    from ts_eval.ranking.coins import below_half  # the one place the pair tests and rank's coins read it

    assert (below_half(raw) == (calls < 0.5)).all()
    out = np.ones(len(raw), np.uint8)
    below_half(raw, out=out.view(bool))
    assert out.tolist() == (calls < 0.5).astype(np.uint8).tolist()


def test_the_pair_test_of_fractional_statistics_takes_the_general_test():
    corpus = from_spans([3, 2], [[("PER", 0, 2)], [("LOC", 0, 1)]],
                        {"a": [[("PER", 0, 1)], [("LOC", 0, 1)]], "b": [[("PER", 0, 2)], []]})
    s = _statistics(corpus)
    data = s.data + 0.25                                  # no longer integers: no shortcut is exact
    seq = np.random.SeedSequence(3)
    sm = s.matrix(data)
    general = np.concatenate(pair_pvalues(sm, [(np.array([0]), np.array([1]))] * len(s.models), 200, seq))
    assert bucket_pair_pvalues(sm, 0, 1, 200, seq).tolist() == general.tolist()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(1, 3))
def test_the_statistics_kept_as_distinct_rows_are_every_systems_statistics_side_by_side(corpus, times):
    """Each sentence is kept as the number of its row of statistics (int32); the rows (int16: small counts) are the
    matrix of :func:`ts_eval.ranking.sufficient.sentence_statistics`, value for value, and so are the totals."""
    from ts_eval.ranking.sufficient import sentence_statistics

    lengths = np.diff(corpus.sent_offsets).tolist() * times
    def spans(ss):
        out = [[] for _ in lengths]
        sent = corpus.sentence_of(ss.start)
        for t in range(times):
            for lab, a, b, j in zip(ss.label, ss.start, ss.last, sent):
                first = int(corpus.sent_offsets[j])
                out[t * corpus.n_sentences + j].append((corpus.labels[lab], int(a) - first, int(b) - first + 1))
        return out
    big = from_spans(lengths, spans(corpus.gold), {n: spans(ss) for n, ss in corpus.systems.items()})
    models = study.resolve_models(SPLIT_MODELS + ["exact-f1-macro", "ts-f1-macro"], big)
    s = study.Statistics(big, list(big.systems), models)
    expected, cols = sentence_statistics(big, models, list(big.systems))
    assert s.cols == cols and s.ids is not None and s.ids.dtype == np.int32 and s.table.dtype == np.int16
    assert s.data.tolist() == expected.tolist()
    assert s.totals.tolist() == expected.sum(0).tolist()
    assert len(s.table) <= big.n_sentences // times


def _rows_of_the_whole(s: study.Statistics, bucket_of_span: np.ndarray, n_buckets: int) -> List[np.ndarray]:
    """Every (bucket, sentence) row counted at once (as analyze did before issue 32), cut by bucket."""
    S, C = s.S, s.C
    keep = bucket_of_span >= 0
    keys = np.unique(bucket_of_span[keep] * S + s.span_sentence[keep])
    row_map = np.full(n_buckets * S, -1, np.int64)
    row_map[keys] = np.arange(len(keys))
    span, col, weight = np.array(statistics_entries(s), np.int64).reshape(-1, 3).T
    eb = bucket_of_span[span]
    ok = eb >= 0
    rows = row_map[eb[ok] * S + s.span_sentence[span[ok]]]
    X = np.bincount(rows * C + col[ok], weights=weight[ok],
                    minlength=len(keys) * C)[:len(keys) * C].reshape(len(keys), C)
    return [X[keys // S == k] for k in range(n_buckets)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(1, 4), st.randoms(use_true_random=False))
def test_a_buckets_rows_are_its_rows_of_the_whole(corpus, n_buckets, rnd):
    s = _statistics(corpus)
    total = int(s.span_offset[-1])
    bucket_of_span = np.array([rnd.randrange(-1, n_buckets) for _ in range(total)], np.int64)
    rows = bucket_rows.BucketRows(s, bucket_of_span, None, n_buckets)
    assert not hasattr(rows, "entry_bucket")      # nothing kept per entry: an entry's bucket is its span's, looked up
    assert all(rows.entry_rows(k)[0].dtype == np.int32 for k in range(n_buckets))
    for k, expected in enumerate(_rows_of_the_whole(s, bucket_of_span, n_buckets)):
        X, sentences = rows.rows(k)
        assert X.tolist() == expected.tolist()
        assert sorted(set(s.span_sentence[bucket_of_span == k].tolist())) == sentences.tolist()
    sentence_bucket = np.array([rnd.randrange(-1, n_buckets) for _ in range(s.S)], np.int64)
    rows = bucket_rows.BucketRows(s, bucket_of_span, sentence_bucket, n_buckets)
    for k in range(n_buckets):
        X, sentences = rows.rows(k)
        assert sentences.tolist() == np.flatnonzero(sentence_bucket == k).tolist()
        assert X.tolist() == s.data[sentence_bucket == k].tolist()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(1, 4), st.integers(1, 2), st.randoms(use_true_random=False))
def test_a_span_buckets_differences_from_its_entries_are_those_of_its_rows(corpus, n_buckets, second, rnd):
    """Without resamples a bucket of spans is summed and differenced from its entries alone."""

    s = _statistics(corpus)
    assert s.whole_weights
    bucket_of_span = np.array([rnd.randrange(-1, n_buckets) for _ in range(int(s.span_offset[-1]))], np.int64)
    rows = bucket_rows.BucketRows(s, bucket_of_span, None, n_buckets)
    a_cols, b_cols, _ = difference_columns(s.cols, len(s.names), second, 0)
    for k in range(n_buckets):
        X, sentences = rows.rows(k)
        _, col, weight, got = rows.entry_rows(k)
        assert got.tolist() == sentences.tolist()
        sums = np.bincount(col, weights=weight, minlength=s.C)[:s.C]
        assert sums.tolist() == X.sum(0).tolist() == rows.entry_sums()[k].tolist()   # (every bucket's in one pass)
    for window in (1, 2, 1 << 13):      # every bucket's differences in one pass, a window of rows at a time
        rows.span_tables((a_cols, b_cols), None, rows=window)
        for k in range(n_buckets):
            X, sentences = rows.rows(k)
            assert rows.sentences_of(k).tolist() == sentences.tolist()
            table, ids = rows.differences_of(k)
            assert table[ids].tolist() == (X[:, b_cols] - X[:, a_cols]).tolist()
            assert not table[0].any() and table[1:].any(1).all()     # the rows that differ told apart, not the others


TOKENS = ["Paris", "paris", "PARIS", "1999", "de", "McDonald", "ÉCOLE", "é", "-", "Xx1", "aB", "Ab"]


@pytest.mark.parametrize("seed", range(5))
def test_text_reads_each_distinct_token_once_and_gives_every_tokens_columns(tmp_path, seed):
    rnd = np.random.default_rng(seed)
    toks = [TOKENS[i] or "x" for i in rnd.integers(0, len(TOKENS), 40)]
    lines = [f"{t} {'B-PER' if k == 0 else 'O'} O" for k, t in enumerate(toks)]
    corpus = ts_eval.io.read_conll(write(tmp_path / "t.txt", "\n".join(lines) + "\n"), gold_column=2,
                                   system_columns=[3], names=["a"])
    text = at.Text(corpus)
    assert np.diff(text.char_cum).tolist() == [len(t) for t in toks]
    cls = np.array([at._letter_class(t) for t in toks])
    start, last = np.triu_indices(len(toks))       # every range of tokens
    counts = text.class_counts(start, last)
    for k in range(4):
        assert counts[k].tolist() == [int(np.sum(cls[a:b + 1] == k)) for a, b in zip(start, last)]
    vocab = frozenset(["Paris", "de", "-"])
    assert at.oov_density(vocab, text).tolist() == [sum(t not in vocab for t in toks) / len(toks)]


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b"]),
                    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["m", "g", "y"]),
                                                                                 inner, max_size=3), max_leaves=6)
PATHS = st.lists(st.sampled_from(["m", "g", "m.g", "m.y", "m.g.y", "y.m"]), min_size=1, max_size=3)


def _field(records, path):
    try:
        values, numeric = at.record_field(records, path, "gold.jsonl")
        return values.tolist(), numeric
    except InputError as err:
        return str(err)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["m", "g", "y", "tokens"]), JSON, max_size=4), min_size=1,
                max_size=4), PATHS)
def test_a_record_kept_along_the_fields_gives_their_values_and_errors(records, paths):
    """``--by FIELD`` keeps of gold's JSON Lines records only what the fields reach."""
    slim = [study_inputs.slim(r, paths) for r in records]
    for path in paths:
        assert _field(slim, path) == _field(records, path)


@pytest.mark.parametrize("seed", range(5))
def test_lower_ids_number_the_lower_cased_texts_in_the_order_they_first_occur(tmp_path, seed):
    from ts_eval.analysis.errors_text import Texts

    rnd = np.random.default_rng(seed)
    toks = [TOKENS[i] for i in rnd.integers(0, len(TOKENS), 60)]
    lines = [f"{t} {'B-PER' if k == 0 else 'O'} O" for k, t in enumerate(toks)]
    corpus = ts_eval.io.read_conll(write(tmp_path / "t.txt", "\n".join(lines) + "\n"), gold_column=2,
                                   system_columns=[3], names=["a"])
    index: dict = {}
    assert Texts(corpus).lower_ids().tolist() == [index.setdefault(t.lower(), len(index)) for t in toks]


def _counted(tmp_path, seed: int, n: int):
    """(n random tokens, a corpus of them whose token texts record every read, the reads (a, b))."""
    toks = [TOKENS[i] for i in np.random.default_rng(seed).integers(0, len(TOKENS), n)]
    lines = [f"{t} {'B-PER' if k == 0 else 'O'} O" for k, t in enumerate(toks)]
    corpus = ts_eval.io.read_conll(write(tmp_path / "t.txt", "\n".join(lines) + "\n"), gold_column=2,
                                   system_columns=[3], names=["a"])
    calls: list = []
    read = corpus.tokens
    corpus.tokens = lambda a, b: calls.append((a, b)) or read(a, b)
    return toks, corpus, calls


def test_the_attributes_and_the_error_analysis_decode_the_token_texts_once(tmp_path):
    from ts_eval.analysis.errors_text import Texts

    toks, corpus, calls = _counted(tmp_path, 1, 30)
    text, texts = at.Text(corpus), Texts(corpus)
    assert calls == [(0, len(toks))]
    assert text.tokens is texts.tokens and list(text.tokens) == toks
    index: dict = {}
    assert texts.lower_ids().tolist() == [index.setdefault(t.lower(), len(index)) for t in toks]


def test_the_token_texts_are_decoded_a_chunk_at_a_time_and_kept_once_per_distinct_text(tmp_path, monkeypatch):
    """No list of every token's text is made: the texts are read TEXT_CHUNK tokens at a time, and every
    token's text, one or a range of them, is the distinct text of its number."""
    toks, corpus, calls = _counted(tmp_path, 2, 23)
    monkeypatch.setattr(at, "TEXT_CHUNK", 5)
    tokens, ids, distinct = at.token_texts(corpus)
    assert calls == [(0, 5), (5, 10), (10, 15), (15, 20), (20, 23)]
    assert distinct == list(dict.fromkeys(toks)) and [distinct[i] for i in ids] == toks
    assert len(tokens) == len(toks) and list(tokens) == toks
    assert [tokens[i] for i in range(len(toks))] == toks and tokens[-1] == toks[-1]
    for a in range(len(toks) + 1):
        for b in range(a, len(toks) + 2):
            assert tokens[a:b] == toks[a:b]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(corpora(), st.integers(1, 3), st.integers(1, 5), st.integers(1, 3), st.randoms(use_true_random=False))
def test_a_span_buckets_rows_from_chunks_of_entries_are_its_rows(monkeypatch, corpus, n_buckets, chunk, window, rnd):
    """A bucket of spans's entries given a chunk at a time (down to one span's entries; a row's entries cut between
    chunks, rows counted ``window`` at a time) make its rows: the pair's differences and the bootstrap's
    grouped columns of every row, value for value; the sums from the chunks are the rows' sums."""
    from ts_eval.analysis.resampling import grouped

    s = _statistics(corpus)
    bucket_of_span = np.array([rnd.randrange(-1, n_buckets) for _ in range(int(s.span_offset[-1]))], np.int64)
    monkeypatch.setattr(bucket_rows, "ENTRY_CHUNK", chunk)
    rows = bucket_rows.BucketRows(s, bucket_of_span, None, n_buckets)
    a_cols, b_cols, _ = difference_columns(s.cols, len(s.names), 1 if len(s.names) > 1 else 0, 0)
    rows.span_tables((a_cols, b_cols), s.groups, rows=window)
    for k in range(n_buckets):
        X, sentences = rows.rows(k)
        got, chunks = rows.entry_chunks(k)
        assert got.tolist() == sentences.tolist() == rows.sentences_of(k).tolist()
        table, ids = rows.differences_of(k)
        assert table[ids].tolist() == (X[:, b_cols] - X[:, a_cols]).tolist()
        table, ids = rows.grouped_of(k)
        assert table[ids].tolist() == grouped(X, s.groups).tolist()
        sums = sum((np.bincount(col, weights=weight, minlength=s.C)[:s.C] for _, col, weight in chunks()),
                   np.zeros(s.C))
        assert sums.tolist() == X.sum(0).tolist()


@pytest.mark.parametrize("units", [[0], [3, 3, 7], list(range(10)) * 2, [9, 0, 5, 5, 1, 2]])
def test_a_buckets_totals_read_only_the_rows_its_units_have(units):
    """A bucket's sums from a table of distinct rows (whole numbers): its units' rows summed, when they are a few
    of the table's (gathered) or most of it (the table a slab at a time), to the last bit."""
    from ts_eval.ranking.sufficient import StatsMatrix

    table = np.random.default_rng(len(units)).integers(0, 2 ** 20, (10, 6)).astype(np.float32)
    ids = np.array(units, np.int32)
    got = StatsMatrix([], [], table, {}, ids=ids).totals
    assert got.tolist() == table[ids].astype(np.float64).sum(0).tolist()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(corpora())
def test_the_intervals_scored_a_slab_of_resamples_at_a_time_are_those_of_all_at_once(monkeypatch, corpus):
    """Each resample's scores are its own: scored a resample at a time, every bucket's interval (and the pair's) is
    the same number as scored all at once."""
    options = dict(bootstrap=30, permutations=0, seed=3, models=SPLIT_MODELS + ["exact-f1-macro"])
    whole = study.analyze_corpus(corpus, **options).to_dict()
    monkeypatch.setattr(study, "SCORED_VALUES", 1)
    got = study.analyze_corpus(corpus, **options).to_dict()
    assert [d.pop("timings") for d in (got, whole)] and got == whole
