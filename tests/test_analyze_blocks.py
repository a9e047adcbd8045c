"""``analyze`` counts its statistics a block of sentences at a time (issue 32): blocks down to one sentence
give the statistics, the span contributions and every report of the corpus counted whole."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, List, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamed import run, same_at, same_error, without_timings
from support import statistics_entries
from test_analyze import SPLIT_MODELS, corpora

from ts_eval.analysis import corpus_blocks, study
from ts_eval.core.sequences import from_sequences
from ts_eval.io.inputs import Inputs

MODELS = SPLIT_MODELS + ["exact-f1-macro", "ts-f1-macro", "ts-kappa-micro", "t-f1-micro", "constrained-f1-micro",
                         "contain-f1-micro", "weighted-f1", "semeval-strict-f1", "semeval-ent-type-f1"]


def _statistics(corpus, monkeypatch, block_tokens: int, cut: bool = True) -> study.Statistics:
    with monkeypatch.context() as m:
        m.setattr(corpus_blocks, "BLOCK_TOKENS", block_tokens)
        if not cut:
            m.setattr(study, "can_cut", lambda *a: False)
        return study.Statistics(corpus, list(corpus.systems), study.resolve_models(MODELS, corpus))


def _same(a: study.Statistics, b: study.Statistics) -> None:
    assert a.cols == b.cols and a.whole_cols == b.whole_cols and a.splittable == b.splittable
    assert a.table.dtype == b.table.dtype and a.table.tolist() == b.table.tolist()
    assert (a.ids is None) == (b.ids is None) and (a.ids is None or a.ids.tolist() == b.ids.tolist())
    assert a.totals.tolist() == b.totals.tolist()
    x, y = a.span_sentence, b.span_sentence
    assert x.dtype == y.dtype and x.tolist() == y.tolist()
    assert statistics_entries(a) == statistics_entries(b)
    assert a.undefined_for_spans == b.undefined_for_spans and a.used.tolist() == b.used.tolist()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(corpora(), st.integers(1, 12))
def test_the_statistics_of_blocks_are_those_of_the_whole_corpus(monkeypatch, corpus, block_tokens):
    """Every sentence's statistics, every span's contributions (their ids in the whole corpus) and the
    totals, counted in blocks of at least ``block_tokens`` tokens (1: every sentence a block), are those
    of the corpus counted at once, entry for entry and in the same order."""
    assert corpus_blocks.can_cut(corpus, list(corpus.systems), [""])
    _same(_statistics(corpus, monkeypatch, block_tokens), _statistics(corpus, monkeypatch, 1, cut=False))


def _tags(rng: random.Random, n: int) -> List[str]:
    out, t = [], 0
    while t < n:
        if rng.random() < 0.4:
            e, lab = min(n, t + rng.randint(1, 3)), rng.choice(["PER", "LOC", "ORG"])
            out += [f"B-{lab}"] + [f"I-{lab}"] * (e - t - 1)
            t = e
        else:
            out.append("O")
            t += 1
    return out


def _two_systems(seed: int, sentences: int) -> Any:
    """A corpus of random IOB2 sentences (1 to 9 tokens) with systems a and b."""
    rng = random.Random(seed)
    gold = [_tags(rng, rng.randint(1, 9)) for _ in range(sentences)]
    return from_sequences(gold, {"a": [_tags(rng, len(g)) for g in gold], "b": [_tags(rng, len(g)) for g in gold]},
                          scheme="IOB2", policy="conlleval")


def test_the_statistics_are_counted_a_block_at_a_time(monkeypatch):
    """No model's tables are made for the whole corpus: every statistics call sees one block, of at least
    BLOCK_TOKENS tokens and whole sentences."""
    corpus = _two_systems(5, 300)
    seen: List[int] = []
    real = study.sentence_statistics

    def counted(block: Any, *a: Any, **k: Any) -> Any:
        seen.append(block.n_tokens)
        return real(block, *a, **k)

    monkeypatch.setattr(study, "sentence_statistics", counted)
    monkeypatch.setattr(corpus_blocks, "BLOCK_TOKENS", 100)
    st_blocks = study.Statistics(corpus, ["a", "b"], study.resolve_models(MODELS, corpus))
    assert len(seen) > 2 * 10 and max(seen) < 100 + 9 and sum(seen) == 2 * corpus.n_tokens
    monkeypatch.setattr(study, "can_cut", lambda *a: False)
    _same(st_blocks, study.Statistics(corpus, ["a", "b"], study.resolve_models(MODELS, corpus)))


def test_a_corpus_under_conllevals_scheme_is_counted_whole():
    """conlleval.pl's chunk state may run on across a sentence break: such a corpus is one block."""
    gold = [["B-PER", "I-PER"], ["I-PER", "O"]]
    corpus = from_sequences(gold, {"a": [["B-PER", "I-PER"], ["I-PER", "O"]]}, scheme="conlleval", policy="conlleval")
    assert corpus.gold.conll is not None
    assert not corpus_blocks.can_cut(corpus, ["a"], [""])
    assert len(list(corpus_blocks.sentence_blocks(corpus, ["a"], False, 1))) == 1


def _file(tmp_path) -> str:
    rng = random.Random(11)
    lines: List[str] = []
    for s in range(30):
        if s % 10 == 0:
            lines += ["-DOCSTART- O O O", ""]
        n = rng.randint(1, 8)
        g, a, b = _tags(rng, n), _tags(rng, n), _tags(rng, n)
        a = [x if rng.random() < 0.3 else y for x, y in zip(a, g)]
        lines += [f"w{rng.randint(0, 30)} {x} {y} {z}" for x, y, z in zip(g, a, b)] + [""]
    path = tmp_path / "c.conll"
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("options", [["--format", "json"], ["--format", "table"], ["--format", "csv"],
                                     ["--format", "html"], ["--format", "json", "--bootstrap", "30"]],
                         ids=lambda o: "-".join(x.strip("-") for x in o[1:]))
def test_the_report_of_blocks_of_one_sentence_is_the_report_of_the_whole(monkeypatch, tmp_path, options):
    path = _file(tmp_path)
    argv = ["analyze", path, "--gold-col", "2", "--system-col", "3", "4", "--bootstrap", "0", "--permutations",
            "50", *options]
    with monkeypatch.context() as m:
        m.setattr(study, "can_cut", lambda *a: False)
        whole = without_timings(run(argv))
    with monkeypatch.context() as m:
        m.setattr(corpus_blocks, "BLOCK_TOKENS", 1)
        blocks = without_timings(run(argv))
    assert whole[0] == 0 and whole[1] and blocks == whole


def test_blocks_of_a_corpus_number_their_spans_and_sentences_from_the_blocks_first():
    gold = [["B-PER", "O"], ["O"], ["B-LOC", "I-LOC", "B-ORG"]]
    corpus = from_sequences(gold, {"a": [["O", "B-PER"], ["B-ORG"], ["O", "O", "O"]]}, scheme="IOB2",
                            policy="conlleval")
    blocks = list(corpus_blocks.sentence_blocks(corpus, ["a"], True, 2))
    assert [b.first_sentence for b in blocks] == [0, 1]      # 2 tokens, then 1 + 3
    assert [b.first_span for b in blocks] == [{None: 0, "a": 0}, {None: 1, "a": 1}]
    last = blocks[1].corpus
    assert last.sent_offsets.tolist() == [0, 1, 4]
    assert np.c_[last.gold.start, last.gold.last].tolist() == [[1, 2], [3, 3]]
    assert np.c_[last.systems["a"].start, last.systems["a"].last].tolist() == [[0, 0]]


@pytest.mark.parametrize("later", [[[3.0, 2.0 ** 25]], [[0.5, 1.0]], [[1.0, 2.0]], [[-3.0, 2.0 ** 14]],
                                   [[3.0, 2.0 ** 31]]])
def test_a_systems_distinct_rows_given_in_blocks_are_every_rows_values(later):
    """Kept as int16 while every value's magnitude is below 2^14 (a difference of two fits too): a later block
    with a larger whole number widens the table to int32 (below 2^31) or float64, a fraction to float64 (every
    sentence's row), with every earlier row's value."""
    from ts_eval.ranking.rows import distinct

    blocks = [np.array([[1.0, 2.0], [0.0, 7.0], [1.0, 2.0]]), np.array([[0.0, 7.0]]), np.array(later)]
    rows = study._DistinctRows()
    for b in blocks:
        rows.add(b)
    table, ids = rows.result()
    every = np.concatenate(blocks)
    if ids is None:
        assert table.dtype == np.float64 and table.tolist() == every.tolist()
    else:
        assert table[ids].tolist() == every.tolist()
        assert (table.tolist(), ids.tolist()) == tuple(x.tolist() for x in distinct(every))
        top = np.abs(every).max()
        assert table.dtype == (np.float64 if top >= 2 ** 31 else np.int32 if top >= 2 ** 14 else np.int16)


@pytest.mark.parametrize("weights", [1, 7, 1 << 23], ids=["one-resample", "a-few", "default"])
@pytest.mark.parametrize("options", [["--format", "json"], ["--format", "table", "--details"], ["--format", "csv"],
                                     ["--format", "html"]], ids=lambda o: o[1])
def test_resamples_drawn_a_block_at_a_time_give_the_report_of_every_weight_at_once(monkeypatch, tmp_path, weights,
                                                                                  options):
    """The bootstrap weights drawn a block of resamples at a time (down to one resample, 7 weights: fewer
    than the sentences), each bucket's sums per distinct row, are the numbers of the matrix of every
    resample's weight of every sentence: the same intervals in every format."""
    from ts_eval.analysis import resampling

    path = _file(tmp_path)
    argv = ["analyze", path, "--gold-col", "2", "--system-col", "3", "4", "--bootstrap", "40", "--permutations",
            "20", *options]
    real = resampling.Resampling.__init__

    def whole_matrix(self: Any, *a: Any, blockwise: bool = False, **k: Any) -> None:
        real(self, *a, blockwise=False, **k)

    with monkeypatch.context() as m:
        m.setattr(resampling.Resampling, "__init__", whole_matrix)
        whole = without_timings(run(argv))
    with monkeypatch.context() as m:
        m.setattr(resampling, "BLOCK_WEIGHTS", weights)
        m.setattr(corpus_blocks, "BLOCK_TOKENS", 5)
        blocks = without_timings(run(argv))
    assert whole[0] == 0 and whole[1] and blocks == whole


def test_no_matrix_of_every_resamples_weight_of_every_sentence_is_kept(monkeypatch):
    """With whole-number statistics the weights are drawn BLOCK_WEIGHTS at a time, never resamples x
    sentences at once, and the same numbers as drawn at once (the same stream)."""
    from ts_eval.analysis import resampling
    from ts_eval.ranking.rows import bootstrap_weights

    rng = random.Random(3)
    gold = [_tags(rng, rng.randint(1, 6)) for _ in range(60)]
    corpus = from_sequences(gold, {"a": [_tags(rng, len(g)) for g in gold], "b": [_tags(rng, len(g)) for g in gold]},
                            scheme="IOB2", policy="conlleval")
    shapes: List[Any] = []
    drawn: List[np.ndarray] = []
    real = resampling.bootstrap_weights

    def seen(rng: Any, resamples: int, units: int, *a: Any) -> np.ndarray:
        out = real(rng, resamples, units, *a)
        shapes.append((resamples, units))
        drawn.append(out)
        return out

    monkeypatch.setattr(resampling, "bootstrap_weights", seen)
    monkeypatch.setattr(resampling, "BLOCK_WEIGHTS", 200)
    study.analyze_corpus(corpus, bootstrap=25, permutations=0, seed=4, models=["exact-f1-micro"])
    S = corpus.n_sentences
    assert shapes and all(r * u <= 200 and u == S for r, u in shapes) and sum(r for r, _ in shapes) == 25
    boot_seq, _ = np.random.SeedSequence(4).spawn(2)
    assert np.concatenate(drawn).tolist() == bootstrap_weights(np.random.default_rng(boot_seq), 25, S).tolist()


def test_a_block_whose_float32_sums_round_is_multiplied_as_the_matrix_was():
    """Where the matrix of every weight was multiplied in float32 (every value times the rows below 2^24) but
    a resample's sum reaches 2^24, float32 rounded it: the blockwise products round it the same way."""
    from ts_eval.analysis import resampling

    X = np.array([[2.0 ** 22 + 1, 3, 1], [2.0 ** 22 - 1, 0, 1], [5, 7, 1]])
    sentences = np.array([2, 5, 7])
    groups = (np.arange(3), np.arange(3), np.arange(3), np.zeros(0, np.int64))
    W = np.zeros((3, 12), np.float32)
    W[0, 2], W[1, 5], W[2, [2, 5, 7]] = 5, 1, 1
    probes = np.random.default_rng(12345).random((2, 3)) + 1.0
    expected = resampling.resampled(W, (probes[0], probes[1]), X, sentences, groups)
    assert expected[0, 0] != 5 * X[0, 0]        # float32 rounded it
    got: List[np.ndarray] = []
    table = resampling.grouped(X, groups)
    job = resampling.Job(sentences, np.arange(3), table.__getitem__, X.sum(0), groups, 3, got.append)
    job.add(W.T.copy(), 0)
    job.finish()
    assert got.pop().tolist() == expected.tolist()


def test_a_blocks_corpus_data_lets_go_of_its_systems_without_the_cycle_collector():
    """A system's data refers to its corpus data and back: released, both are freed by their counts alone (the
    statistics no longer run a full collection after every block)."""
    import gc
    import weakref

    from ts_eval.models.context import CorpusData

    corpus = from_sequences([["B-PER", "O"]], {"a": [["B-PER", "O"]]}, scheme="IOB2", policy="conlleval")
    was = gc.isenabled()
    gc.disable()
    try:
        cd = CorpusData(corpus)
        sd = weakref.ref(cd.system("a"))
        assert sd() is not None
        cd.release()
        del cd
        assert sd() is None
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("values", [3, 40], ids=["few", "many"])
def test_a_categorical_value_finds_its_bucket_by_comparison_or_look_up(values):
    """Few values compared with each bucket's value, many looked up: each value's bucket, -1 for a value of no
    bucket."""
    from ts_eval.analysis.attributes import CATEGORICAL
    from ts_eval.analysis.buckets import FEW_VALUES, Buckets

    names = [f"v{k}" for k in range(values)]
    assert (values > FEW_VALUES) == (values == 40)
    bk = Buckets(names, "rule", CATEGORICAL, values=names)
    given = np.array(["v2", "other", "v0", "v2", "v1"] + [names[-1]], dtype=object)
    assert bk.assign(given).tolist() == [2, -1, 0, 2, 1, values - 1]
    assert bk.assign(np.zeros(0, object)).tolist() == []


def test_a_blocks_rows_are_found_in_one_pass_with_the_numbers_of_any_cut(monkeypatch):
    """A block of 10,000 sentences is looked up at once (not 4,096 rows at a time), and its rows get the numbers
    that cutting it gives."""
    from ts_eval.ranking.rows import RowTable, distinct

    rng = np.random.default_rng(3)
    rows = rng.integers(0, 3, size=(10_000, 3)).astype(float)
    calls: List[int] = []
    real = RowTable.ids

    def counted(self: Any, block: np.ndarray, *a: Any) -> Any:
        calls.append(len(block))
        return real(self, block, *a)

    monkeypatch.setattr(RowTable, "ids", counted)
    kept = study._DistinctRows()
    kept.add(rows)
    assert calls == [10_000]
    table, ids = kept.result()
    monkeypatch.undo()
    assert (table.tolist(), ids.tolist()) == tuple(x.tolist() for x in distinct(rows, 7))


def test_the_entries_stable_order_by_sentence_is_that_of_a_wide_key():
    key = np.random.default_rng(1).integers(0, 9000, size=50_000)
    narrow = study._small_numbers(key)
    assert narrow.dtype == np.int16 and study._small_numbers(key + 2 ** 15).dtype == np.int32
    assert np.argsort(narrow, kind="stable").tolist() == np.argsort(key, kind="stable").tolist()


def test_the_families_that_are_their_span_contributions_are_counted_once(monkeypatch):
    """Exact match, overlap, fair and SemEval statistics are their spans' contributions summed by sentence: in
    blocks they are taken from the split (the models' own statistics functions are not run), and they are the
    statistics those functions count (the corpus counted whole runs them)."""
    from ts_eval.models.context import SystemData

    corpus = _two_systems(8, 120)
    ran: List[str] = []
    real = SystemData.stats

    def counted(self: Any, fn: Any) -> Any:
        if fn not in self.cache:        # a model's statistics function runs
            ran.append(fn.args[0].name)
        return real(self, fn)

    monkeypatch.setattr(SystemData, "stats", counted)
    blocks = _statistics(corpus, monkeypatch, 30)
    assert set(ran) == {"ts"}
    ran.clear()
    _same(blocks, _statistics(corpus, monkeypatch, 30, cut=False))
    assert {"exact", "overlap", "fair", "semeval", "ts"} <= set(ran)


def test_the_systems_rows_side_by_side_are_ordered_by_each_systems_first_use():
    """The sentences' rows of every system side by side are found at once; the table is in the order of the
    systems' own rows (each numbered in order of first use): by the first system's number, then the second's,
    then the third's, each combination once."""
    from ts_eval.ranking.rows import distinct

    rng = np.random.default_rng(4)
    n, S = 3, 2000
    st_ = study.Statistics.__new__(study.Statistics)
    st_.names = ["a", "b", "c"]
    st_.cols = {"f": (0, 2), "g": (2 * n, 1)}          # family f: 2 columns a system, g: 1
    rows = rng.integers(0, 3, size=(S, 3 * n)).astype(float)
    found = study._DistinctRows()
    found.add(rows[:700])
    found.add(rows[700:])
    table, ids = st_._rows(found)
    assert table[ids].tolist() == rows.tolist()
    own = [distinct(rows[:, [2 * i, 2 * i + 1, 2 * n + i]])[1] for i in range(n)]
    combos = sorted(set(zip(*(x.tolist() for x in own))))
    assert len(table) == len(combos)
    where = {c: r for r, c in enumerate(combos)}
    assert ids.tolist() == [where[c] for c in zip(*(x.tolist() for x in own))]


def test_a_block_of_small_counts_is_looked_up_as_two_or_four_byte_integers(monkeypatch):
    """Whole numbers below 2^14 are found as int16, below 2^31 as int32 (the rows so far widened; a fraction or a
    larger number as given), with the numbers and rows the float64 values give."""
    from ts_eval.ranking.rows import RowTable, distinct

    seen: List[Any] = []
    real = RowTable.ids

    def looked(self: Any, block: np.ndarray, *a: Any) -> Any:
        seen.append(block.dtype)
        return real(self, block, *a)

    monkeypatch.setattr(RowTable, "ids", looked)
    blocks = [np.array([[1.0, 2.0], [0.0, 7.0], [1.0, 2.0]]), np.array([[0.0, 7.0], [2.0 ** 24, 1.0]]),
              np.array([[2.0 ** 31, 1.0], [1.0, 2.0]])]
    kept = study._DistinctRows()
    for b in blocks:
        kept.add(b)
    assert seen == [np.int16, np.int32, np.float64]
    table, ids = kept.result()
    monkeypatch.undo()
    every = np.concatenate(blocks)
    assert table.dtype == np.float64 and (table.tolist(), ids.tolist()) == tuple(x.tolist() for x in distinct(every))


def test_a_corpus_counted_whole_is_found_in_slabs_of_rows_from_two_byte_counts(monkeypatch):
    """Counted whole (one block), the systems' rows side by side are found SIDE_ROWS sentences at a time, each
    system's kept as int16 meanwhile (small counts): the statistics of the corpus counted in blocks."""
    corpus = _two_systems(9, 200)
    sizes: List[int] = []
    real = study._DistinctRows.add

    def add(self: Any, rows: np.ndarray) -> None:
        sizes.append(len(rows))
        real(self, rows)

    monkeypatch.setattr(study, "SIDE_ROWS", 64)
    monkeypatch.setattr(study._DistinctRows, "add", add)
    whole = _statistics(corpus, monkeypatch, 1, cut=False)
    assert sizes == [64, 64, 64, 8]
    assert study._small(np.array([[1.0, 2.0]])).dtype == np.int16 and study._small(np.array([[0.5]])).dtype == float
    assert study._small(np.array([[1.0, 2.0 ** 14]])).dtype == np.int32
    _same(whole, _statistics(corpus, monkeypatch, 1))


def test_wide_rows_counted_whole_are_found_a_bounded_number_of_values_at_a_time_in_two_bytes(monkeypatch):
    """Counted whole, many systems' rows side by side are wide: they are found at most SIDE_VALUES values at a time
    (fewer sentences than SIDE_ROWS), as int16 when every system's are: the statistics of the corpus in blocks."""
    corpus = _two_systems(9, 200)
    seen: List[Tuple[int, int, Any]] = []
    real = study._DistinctRows.add

    def add(self: Any, rows: np.ndarray) -> None:
        seen.append((rows.shape[0], rows.shape[1], rows.dtype))
        real(self, rows)

    monkeypatch.setattr(study._DistinctRows, "add", add)
    monkeypatch.setattr(study, "SIDE_VALUES", 64 * 10)
    whole = _statistics(corpus, monkeypatch, 1, cut=False)
    width = seen[0][1]
    step = max(1, 640 // width)
    assert step < 64 and [n for n, _, _ in seen] == [step] * (200 // step) + ([200 % step] if 200 % step else [])
    assert {d for _, _, d in seen} == {np.dtype(np.int16)}
    _same(whole, _statistics(corpus, monkeypatch, 1))


@pytest.mark.parametrize("options", [["--format", "json"], ["--format", "table", "--by", "document"],
                                     ["--format", "csv", "--no-errors"], ["--format", "json", "--bootstrap", "30"]],
                         ids=lambda o: "-".join(x.strip("-") for x in o[1:]))
def test_analyze_reads_the_readers_blocks_and_reports_the_same_at_every_block_size(tmp_path, options):
    """The command reads blocks down to one sentence (one pass: statistics, attribute values, errors) and gives
    the report of its inputs read whole."""
    path = _file(tmp_path)
    argv = ["analyze", path, "--gold-col", "2", "--system-col", "3", "4", "--bootstrap", "0", "--permutations",
            "50", *options]
    (rc, out, _), seen = same_at(argv, sizes=(700, 60, 1))
    assert rc == 0 and out
    assert len(seen) == 1 and seen[0] >= 30      # one read, a block a sentence at least


def test_analyze_never_reads_the_corpus_whole(tmp_path, monkeypatch):
    path = _file(tmp_path)

    def whole(*args: Any, **kw: Any) -> Any:
        raise AssertionError("the corpus was read whole")

    monkeypatch.setattr(Inputs, "corpus", whole)
    rc, out, err = run(["analyze", path, "--gold-col", "2", "--system-col", "3", "4", "--bootstrap", "20",
                        "--by", "document", "--format", "json"])
    assert rc == 0, err
    assert json.loads(out)["corpus"]["sentences"] == 30


def test_a_bad_tag_is_the_same_error_at_every_block_size(tmp_path):
    path = _file(tmp_path)
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    at = next(i for i, x in enumerate(lines) if i > 60 and x.startswith("w"))
    fields = lines[at].split(" ")
    lines[at] = " ".join(fields[:2] + ["Q-PER"] + fields[3:])
    Path(path).write_text("\n".join(lines), encoding="utf-8")
    err = same_error(["analyze", path, "--gold-col", "2", "--system-col", "3", "4", "--bootstrap", "0"],
                     line=at + 1)
    assert "Q-PER" in err
