"""``ts-eval rank`` takes each system's per-sentence statistics block by block from the blocks its inputs are
read in (:meth:`ts_eval.io.inputs.Inputs.read`, :class:`ts_eval.ranking.blocks.StatsBuilder`), never holding
the corpus: every report (JSON, table, the
detailed table, HTML, CSV; the bootstrap and the permutation test with a seed; sentences and documents as
the resampling unit) is what reading the corpus whole gives, for blocks down to one sentence, one column
file, one file per system (column, CoNLL-U and JSON Lines files, formats mixed), labels first met late,
compressed files and standard input."""
from __future__ import annotations

import gzip
import json
import random
from typing import Iterator, List, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamed import QUICK, Run, run, without_timings
from test_score_properties import tag_corpus
from test_streaming import corpus_text, count_blocks
from test_streaming_conllu import conllu_text, write

import ts_eval.ranking.blocks as in_blocks
import ts_eval.ranking.tasks as rank_tasks
from ts_eval.core.corpus import Corpus
from ts_eval.io.api import read_conll
from ts_eval.io.inputs import Inputs
from ts_eval.models.registry import REGISTRY
from ts_eval.ranking.blocks import StatsBuilder, rank_blocks
from ts_eval.ranking.statistics import Products
from ts_eval.ranking.study import rank_corpus
from ts_eval.ranking.sufficient import statistics

SPAN_MODELS = [m for m in REGISTRY if not REGISTRY[m].needs]     # every model that reads spans


def whole_and_blocks(monkeypatch, argv: List[str], block_bytes: int = 1, stdin: bytes = b"") -> Tuple[Run, Run]:
    """The run of ``argv`` with every task read whole and ranked from its corpus
    (:func:`~ts_eval.ranking.study.rank_corpus`), and ranked from the statistics of its blocks of about
    ``block_bytes`` (:func:`~ts_eval.ranking.blocks.rank_blocks`)."""
    ranked: List[int] = []
    real = in_blocks.rank_blocks

    def counted(*args, **kw):
        ranked.append(1)
        return real(*args, **kw)

    with monkeypatch.context() as m:
        m.setattr(rank_tasks, "reads_in_blocks", lambda *a, **k: False)
        m.setattr(in_blocks, "rank_blocks", counted)
        whole = run(argv, stdin)
        assert not ranked, "the task was not read whole"
    with monkeypatch.context() as m:
        m.setattr(in_blocks, "BLOCK_BYTES", block_bytes)
        m.setattr(in_blocks, "rank_blocks", counted)
        m.setattr(Inputs, "corpus", lambda *a, **k: pytest.fail("read whole"))
        streamed = run(argv, stdin)
        assert ranked, "the blocks were not read"
    return without_timings(whole), without_timings(streamed)


def blocks_of(path: str, systems: Sequence[int], block_bytes: int) -> Iterator[Corpus]:
    """The blocks of a column file with gold in column 2 and ``systems``, as ``rank`` reads them."""
    return Inputs(file=path, gold_column=2, system_columns=tuple(systems), block_bytes=block_bytes).read()


def text(n: int, seed: int = 3, docs: bool = False, systems: int = 3, late: str = "MISC") -> str:
    """A column file of gold and ``systems`` system columns; the label ``late`` only in the second half."""
    rng = random.Random(seed)
    lines: List[str] = []
    for s in range(n):
        if docs and s % 4 == 1:
            lines += ["-DOCSTART- O" + " O" * systems, ""]
        for t in range(rng.randint(1, 9)):
            tags = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"] + ([f"B-{late}"] if s > n // 2 else [])
            g = rng.choice(tags)
            ps = [g if rng.random() < 0.7 else rng.choice(tags[:5]) for _ in range(systems)]
            lines.append(f"t{s}.{t} {g} " + " ".join(ps))
        lines.append("")
    return "\n".join(lines) + "\n"


@pytest.fixture
def corpus_file(tmp_path):
    path = tmp_path / "c.conll"
    path.write_text(text(40, docs=True), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("block_bytes", [1, 60, 1 << 20])
@pytest.mark.parametrize("options", [["--format", "json"], ["--format", "json", "--unit", "document"],
                                     ["--format", "table"], ["--format", "table", "--details"],
                                     ["--format", "html"], ["--format", "csv"],
                                     ["--format", "json", "--models", "all", "--min-overlap", "iou:0.5"]],
                         ids=lambda o: "-".join(x.strip("-") for x in o[1:]))
def test_one_file_in_blocks_gives_the_ranking_of_the_whole_file(monkeypatch, corpus_file, options, block_bytes):
    argv = ["rank", corpus_file, "--gold-col", "2", *QUICK, *options]
    whole, streamed = whole_and_blocks(monkeypatch, argv, block_bytes)
    assert whole[0] == 0 and streamed == whole


def test_the_default_bootstrap_with_a_seed_is_the_same(monkeypatch, corpus_file):
    argv = ["rank", corpus_file, "--gold-col", "2", "--seed", "11", "--no-progress", "--format", "json"]
    whole, streamed = whole_and_blocks(monkeypatch, argv, 1)
    assert whole[0] == 0 and streamed == whole
    assert json.loads(whole[1])["bootstrap"]["resamples"] == 1000


def split(tmp, body: str, names: List[str]) -> List[str]:
    """One column file per side of a column file ``body`` (token and tag; a name ending .gz: compressed)."""
    rows = [line.split() for line in body.splitlines()]
    paths = []
    for k, name in enumerate(names):
        side = "\n".join(" ".join([r[0], r[1 + k]]) if r else "" for r in rows) + "\n"
        path = tmp / name
        path.write_bytes(gzip.compress(side.encode()) if name.endswith(".gz") else side.encode())
        paths.append(str(path))
    return paths


def test_one_file_per_system_and_compressed_and_standard_input(monkeypatch, tmp_path):
    paths = split(tmp_path, text(30, seed=5, docs=True), ["gold.conll", "a.conll", "b.conll.gz", "c.conll"])
    for unit in ("sentence", "document"):
        argv = ["rank", "--gold", *paths, *QUICK, "--format", "json", "--unit", unit]
        whole, streamed = whole_and_blocks(monkeypatch, argv, 1)
        assert whole[0] == 0 and streamed == whole, unit
    single = text(25, seed=9).encode()
    argv = ["rank", "-", "--gold-col", "2", *QUICK, "--format", "json"]
    whole, streamed = whole_and_blocks(monkeypatch, argv, 1, stdin=single)
    assert whole[0] == 0 and streamed == whole


def test_conllu_files_in_lock_step(monkeypatch, tmp_path):
    rng = random.Random(2)
    tags = ["O", "B-PER", "I-PER", "B-LOC", "O"]
    gold = [[rng.choice(tags) for _ in range(rng.randint(1, 6))] for _ in range(20)]
    sides = [gold] + [[[t if rng.random() < 0.7 else rng.choice(tags) for t in s] for s in gold] for _ in range(3)]
    paths = [write(tmp_path, f"{n}.conllu", conllu_text(side, comments=True, seed=k))
             for k, (n, side) in enumerate(zip(["gold", "a", "b", "c"], sides))]
    argv = ["rank", "--gold", *paths, *QUICK, "--format", "json"]
    with monkeypatch.context() as m:
        seen = count_blocks(m)
        whole, streamed = whole_and_blocks(m, argv, 1)
        assert seen == [1, 20]      # read whole (one block), then in blocks of a sentence
    assert whole[0] == 0 and streamed == whole


def jsonl_tokens(sentences: List[List[str]], tokens: List[List[str]]) -> str:
    """A ``jsonl-tokens`` file: one record a sentence, with its tokens and tags."""
    return "".join(json.dumps({"id": f"s{k}", "tokens": t, "tags": s}) + "\n"
                   for k, (t, s) in enumerate(zip(tokens, sentences)))


def test_json_lines_files_and_mixed_formats_in_lock_step(monkeypatch, tmp_path):
    rng = random.Random(6)
    tags = ["O", "B-PER", "I-PER", "B-LOC", "O", "B-ORG"]
    gold = [[rng.choice(tags) for _ in range(rng.randint(1, 6))] for _ in range(24)]
    tokens = [[f"w{k}_{j}" for j in range(len(s))] for k, s in enumerate(gold)]
    sides = [gold] + [[[t if rng.random() < 0.7 else rng.choice(tags) for t in s] for s in gold] for _ in range(3)]
    paths = [write(tmp_path, f"{n}.jsonl", jsonl_tokens(side, tokens)) for n, side in zip("gabc", sides)]
    column = write(tmp_path, "c.conll", "".join("".join(f"{w} {t}\n" for w, t in zip(ws, s)) + "\n"
                                                 for ws, s in zip(tokens, sides[3])))
    for files in (paths, paths[:3] + [column]):
        argv = ["rank", "--gold", *files, *QUICK, "--format", "json"]
        with monkeypatch.context() as m:
            seen = count_blocks(m)
            whole, streamed = whole_and_blocks(m, argv, 1)
            assert seen == [1, 24], "the JSON Lines files were not read in blocks of a sentence"
        assert whole[0] == 0 and streamed == whole, whole[2]


@pytest.mark.parametrize("swap", [False, True], ids=["in-order", "two-records-swapped"])
def test_json_lines_on_standard_input(monkeypatch, tmp_path, swap):
    """A system on standard input is ranked in blocks; records that pair in another order (by id) are held
    until their pair comes, in the same blocks: standard input is read once."""
    rng = random.Random(8)
    tags = ["O", "B-PER", "I-PER", "B-LOC", "O"]
    gold = [[rng.choice(tags) for _ in range(rng.randint(1, 5))] for _ in range(30)]
    tokens = [[f"w{k}_{j}" for j in range(len(s))] for k, s in enumerate(gold)]
    sides = [[[t if rng.random() < 0.7 else rng.choice(tags) for t in s] for s in gold] for _ in range(2)]
    paths = [write(tmp_path, "g.jsonl", jsonl_tokens(gold, tokens)), write(tmp_path, "a.jsonl",
                                                                         jsonl_tokens(sides[0], tokens))]
    lines = jsonl_tokens(sides[1], tokens).splitlines(keepends=True)
    if swap:
        lines[-2:] = lines[-2:][::-1]
    argv = ["rank", "--gold", *paths, "-", *QUICK, "--format", "json"]
    with monkeypatch.context() as m:
        seen = count_blocks(m)
        whole, streamed = whole_and_blocks(m, argv, 1, stdin="".join(lines).encode())
        assert seen == [1, 30]      # read whole (one block), then in blocks of a record
    assert whole[0] == 0 and streamed == whole, whole[2]


def test_conllu_sentences_in_another_order_rank_as_the_whole_read(monkeypatch, tmp_path):
    rng = random.Random(4)
    tags = ["O", "B-PER", "I-PER", "B-LOC", "O"]
    gold = [[rng.choice(tags) for _ in range(rng.randint(1, 5))] for _ in range(12)]
    ids = [f"x{k}" for k in range(len(gold))]
    paths = [write(tmp_path, "gold.conllu", conllu_text(gold, ids=ids))]
    for name in ("a", "b"):
        system = [[t if rng.random() < 0.7 else rng.choice(tags) for t in s] for s in gold]
        paths.append(write(tmp_path, f"{name}.conllu", "".join(
            conllu_text([system[k]], ids=[ids[k]]).replace("w0_", f"w{k}_") for k in reversed(range(len(gold))))))
    argv = ["rank", "--gold", *paths, *QUICK, "--format", "json"]
    whole, streamed = whole_and_blocks(monkeypatch, argv, 1)
    assert whole[0] == 0 and streamed == whole


def test_bad_input_is_reported_as_the_whole_read_reports_it(monkeypatch, tmp_path):
    path = tmp_path / "bad.conll"
    path.write_text(text(10) + "w B-PER\n", encoding="utf-8")
    argv = ["rank", str(path), "--gold-col", "2", *QUICK]
    whole, streamed = whole_and_blocks(monkeypatch, argv, 1)
    assert whole[0] == 1 and streamed == whole


def test_several_tasks(monkeypatch, tmp_path):
    argv = ["rank"]
    for k in range(2):
        (tmp_path / str(k)).mkdir()
        argv += ["--task", f"t{k}", *split(tmp_path / str(k), text(15, seed=k, docs=True), ["g.conll", "a.conll",
                                                                                          "b.conll", "c.conll"])]
    whole, streamed = whole_and_blocks(monkeypatch, argv + [*QUICK, "--format", "json"], 1)
    assert whole[0] == 0 and streamed == whole


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(tag_corpus(n_systems=3), st.booleans(), st.sampled_from(["IOB2", "conlleval", "IOB1"]),
       st.sampled_from([1, 7, 60]), st.sampled_from(["sentence", "document"]))
def test_blocks_of_any_size_rank_as_the_whole_file(tmp_path_factory, sides, docstart, scheme, block_bytes, unit):
    path = tmp_path_factory.mktemp("r") / "c.conll"
    path.write_text(corpus_text(sides, docstart), encoding="utf-8")
    argv = ["rank", str(path), "--gold-col", "2", *QUICK, "--scheme", scheme, "--format", "json", "--unit", unit,
            "--models", ",".join(SPAN_MODELS)]
    with pytest.MonkeyPatch.context() as mp:
        whole, streamed = whole_and_blocks(mp, argv, block_bytes)
    assert streamed == whole


# ---------------------------------------------------------------------------
# the library


def test_the_builders_matrix_is_the_whole_corpus_statistics(tmp_path):
    path = tmp_path / "c.conll"
    path.write_text(text(50, docs=True, late="EVENT"), encoding="utf-8")
    corpus = read_conll(str(path), gold_column=2, system_columns=[3, 4, 5])
    models = [REGISTRY[m] for m in SPAN_MODELS]
    for unit in ("sentence", "document"):
        whole = statistics(corpus, models, unit)
        builder = StatsBuilder(models, list(corpus.systems))
        blocks = list(blocks_of(str(path), [3, 4, 5], 1))
        assert len(blocks) == corpus.n_sentences and blocks[0].labels != corpus.labels   # a label first met late
        for block in blocks:
            builder.add(block)
        got = builder.matrix(unit)
        assert got.data.dtype == (np.float32 if unit == "sentence" else np.float64)   # small counts: float32
        assert np.array_equal(got.dense(), whole.data) and got.family_cols == whole.family_cols
        assert got.ids is not None and len(got.ids) == whole.n_units      # every unit's row kept once
        assert np.array_equal(got.unit_sizes, whole.unit_sizes)
        assert builder.info()["labels"] == list(corpus.labels)


@pytest.mark.parametrize("name", sorted(m for m in SPAN_MODELS if REGISTRY[m].columns is not None))
def test_every_model_says_how_its_columns_depend_on_the_labels(tmp_path, name):
    path = tmp_path / "c.conll"
    path.write_text(text(20), encoding="utf-8")
    corpus = read_conll(str(path), gold_column=2, system_columns=[3])
    model = REGISTRY[name]
    fixed, per = model.columns
    sm = statistics(corpus, [model])
    assert sm.data.shape[1] == fixed + per * len(corpus.labels)


def test_rank_blocks_in_python(tmp_path):
    path = tmp_path / "c.conll"
    path.write_text(text(30), encoding="utf-8")
    corpus = read_conll(str(path), gold_column=2, system_columns=[3, 4, 5])
    options = dict(bootstrap=50, permutations=30, seed=3, models=["exact-f1-micro", "ts-f1-macro", "fair-f1"])
    whole = rank_corpus(corpus, **options).to_dict()
    blocks = blocks_of(str(path), [3, 4, 5], 100)
    streamed = rank_blocks(blocks, **options).to_dict()
    whole.pop("timings"), streamed.pop("timings")
    assert streamed == whole


def test_products_are_exact_when_some_columns_need_float64():
    rng = np.random.default_rng(0)
    data = rng.integers(0, 5, size=(300, 6)).astype(np.float32)
    data[:, 2] = 2 ** 23 - 1 - rng.integers(0, 3, size=300)        # x 300 units: past 2**24
    w = rng.integers(0, 3, size=(8, 300)).astype(float)
    product = Products(data, 300)
    assert product.dtype is np.float32 and list(product.big) == [2]
    assert np.array_equal(product(w), w @ data.astype(np.float64))
    assert np.array_equal(Products(data.astype(np.float64), 300)(w), w @ data.astype(np.float64))
    halves = data.astype(np.float64) + 0.5                            # not integers: float64 as given
    assert Products(halves, 300).dtype is np.float64


def test_products_recompute_in_float64_only_the_resamples_whose_float32_sums_reach_2_24():
    """A big column (largest value x units past 2**24) is multiplied again in float64 only for the rows of
    the weights whose float32 sum reached 2**24; the others were exact in float32: every sum is float64's."""
    rng = np.random.default_rng(1)
    data = rng.integers(0, 5, size=(300, 5)).astype(np.float32)
    data[0, 3] = 2 ** 23 + 1                   # one unit's value: its big sums are odd integers past 2**24
    w = rng.integers(0, 3, size=(12, 300)).astype(float)
    w[:6, 0] = 0                               # half the resamples leave it out: small sums, exact in float32
    w[6:, 0] = 2                               # the other half: 2 * (2**23 + 1) + ..., which float32 rounds
    product = Products(data, 300)
    assert product.checked and list(product.big) == [3]
    exact = w @ data.astype(np.float64)
    assert (exact[6:, 3] >= 2 ** 24).all() and (exact[:6, 3] < 2 ** 24).all()
    assert not np.array_equal((w.astype(np.float32) @ data)[6:, 3], exact[6:, 3])   # float32 alone is wrong
    assert np.array_equal(product(w), exact)
    negative = data.copy()
    negative[1, 1] = -1                        # a negative value: partial sums may exceed the whole
    product = Products(negative, 300)
    assert not product.checked
    assert np.array_equal(product(w), w @ negative.astype(np.float64))


def test_products_multiply_again_only_the_flagged_rows(monkeypatch):
    rng = np.random.default_rng(2)
    data = rng.integers(0, 5, size=(200, 4)).astype(np.float32)
    data[:, 1] = 2 ** 22                        # x 200 units: a big column, but these sums stay below 2**24
    w = np.zeros((20, 200))
    w[:, :3] = 1                                # 3 x 2**22 < 2**24 in every resample
    w[7, :5] = 1                                # 5 x 2**22 >= 2**24: only this resample is multiplied again
    product = Products(data, 200)
    seen = []
    big_data = product.big_data

    class Spy(np.ndarray):
        def __rmatmul__(self, other):
            seen.append(len(other))
            return np.asarray(other) @ np.asarray(self)

    product.big_data = big_data.view(Spy)
    assert np.array_equal(product(w), w @ data.astype(np.float64))
    assert seen == [1]


def test_files_count_the_blocks(monkeypatch, tmp_path):
    """The streamed path reads every block once (and the corpus is never read whole)."""
    path = tmp_path / "c.conll"
    path.write_text(text(12), encoding="utf-8")
    monkeypatch.setattr(in_blocks, "BLOCK_BYTES", 1)
    seen = count_blocks(monkeypatch)
    monkeypatch.setattr(Inputs, "corpus", lambda *a, **k: pytest.fail("read whole"))
    rc, _, _ = run(["rank", str(path), "--gold-col", "2", *QUICK, "--format", "json"])
    assert rc == 0 and seen == [12]


def test_bootstrap_weights_and_swaps_draw_what_one_64_bit_draw_gives():
    """The resampling's temporaries are small (32-bit draws counted a resample at a time, swap patterns
    drawn a few rows at a time) and the numbers are those of the draws as they were made before."""
    from ts_eval.ranking.study import bootstrap_weights
    from ts_eval.ranking.uncertainty import swaps

    for resamples, units in ((50, 1001), (3, 7), (1, 1)):
        idx = np.random.default_rng(5).integers(0, units, size=(resamples, units))
        idx += (np.arange(resamples) * units)[:, None]
        before = np.bincount(idx.ravel(), minlength=resamples * units).reshape(resamples, units).astype(float)
        assert np.array_equal(bootstrap_weights(np.random.default_rng(5), resamples, units), before)
        got = bootstrap_weights(np.random.default_rng(5), resamples, units, np.float32)
        assert got.dtype == np.float32 and np.array_equal(got, before)
        assert np.array_equal(swaps(np.random.default_rng(9), resamples, units),
                              np.random.default_rng(9).random((resamples, units)) < 0.5)


def test_statistics_that_are_not_small_integers_are_kept_in_float64(tmp_path):
    """A model whose statistics are not integers (or not below 2**24) is kept in float64, the same values;
    a model that does not say how its columns depend on the labels cannot meet blocks with other labels."""
    from ts_eval.models.registry import Model
    from ts_eval.ranking.blocks import NotInBlocks

    path = tmp_path / "c.conll"
    path.write_text(text(30, late="EVENT"), encoding="utf-8")
    corpus = read_conll(str(path), gold_column=2, system_columns=[3, 4])
    halves = Model("halves", "H", lambda sd: np.diff(sd.cd.corpus.sent_offsets)[:, None] / 2.0 + 2.0 ** 25,
                   lambda x: x[..., 0], columns=(1, 0))
    builder = StatsBuilder([halves, REGISTRY["exact-f1-micro"]], list(corpus.systems))
    for block in blocks_of(str(path), [3, 4], 1):
        builder.add(block)
    got, whole = builder.matrix(), statistics(corpus, [halves, REGISTRY["exact-f1-micro"]])
    assert got.data.dtype == np.float64 and np.array_equal(got.data, whole.data)
    unknown = Model("unknown", "U", REGISTRY["exact-f1-micro"].stats, REGISTRY["exact-f1-micro"].score)
    builder = StatsBuilder([unknown], list(corpus.systems))
    with pytest.raises(NotInBlocks):
        for block in blocks_of(str(path), [3, 4], 1):
            builder.add(block)


@pytest.mark.parametrize("systems", [2, 3, 8])
def test_blocks_hold_about_the_same_tables_whatever_the_systems(monkeypatch, tmp_path, systems):
    """A block's per-sentence tables grow with its sentences times the systems: two systems read blocks of
    four times :data:`~ts_eval.ranking.blocks.BLOCK_BYTES` (fewer numpy calls a sentence), eight or more
    (CoNLL-2003's 28) blocks of BLOCK_BYTES, whose tables of every system were the peak with larger blocks."""
    path = tmp_path / "c.conll"
    path.write_text(text(30, systems=systems), encoding="utf-8")
    asked: List[int] = []
    real = rank_tasks.Task.blocks

    def blocks(self, block_bytes, *args, **kw):
        asked.append(block_bytes)
        return real(self, block_bytes, *args, **kw)

    monkeypatch.setattr(rank_tasks.Task, "blocks", blocks)
    columns = [str(c) for c in range(3, 3 + systems)]
    rc, _out, err = run(["rank", str(path), "--gold-col", "2", "--system-col", *columns, *QUICK, "--format", "json"])
    assert rc == 0, err
    b = in_blocks.BLOCK_BYTES
    assert asked == [{2: 4 * b, 3: 8 * b // 3, 8: b}[systems]] and b == 256 * 1024
    asked.clear()          # the systems known only once read (every column after gold's): the smallest blocks
    assert run(["rank", str(path), "--gold-col", "2", *QUICK, "--format", "json"])[0] == 0 and asked == [b]


def test_fits32_is_every_value_a_whole_number_below_2_24():
    fits = in_blocks._fits32
    assert fits(np.zeros((0, 3))) and fits(np.array([[0.0, 3.0], [-(2.0 ** 24) + 1, 2.0 ** 24 - 1]]))
    for bad in (2.0 ** 24, -(2.0 ** 24), 0.5, -1.5, 1e30, -1e30, np.inf, -np.inf, np.nan, 2.0 ** 31 + 0.5):
        assert not fits(np.array([[1.0, bad]])), bad


def test_a_float32_matrix_is_not_looked_at_again_for_whole_numbers(monkeypatch, tmp_path):
    """Rows are kept in float32 only while every block's values were whole numbers below 2**24: the matrix does
    not go over the table again to find out (at 10M tokens 40 ms)."""
    path = tmp_path / "c.conll"
    path.write_text(text(20), encoding="utf-8")
    blocks = list(blocks_of(str(path), [3, 4], 1))
    builder = StatsBuilder([REGISTRY["exact-f1-micro"]], list(blocks[0].systems))
    for block in blocks:
        builder.add(block)

    def looked(rows, chunk=0):
        raise AssertionError("integral() called on a float32 table")

    monkeypatch.setattr(in_blocks, "integral", looked)
    got = builder.matrix()
    assert got.data.dtype == np.float32 and got.ids is not None
