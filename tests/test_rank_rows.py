"""What ``rank`` keeps of a corpus: each distinct row of per-sentence statistics once and every sentence as
its row's number (:mod:`ts_eval.ranking.rows`, :class:`ts_eval.ranking.blocks.StatsBuilder`).  The rows a
sentence repeats are not kept again, so the statistics of a corpus repeated ten times are the distinct rows
of one copy and 4 bytes a sentence; the resampling sums of the distinct rows are those of the matrix of every
sentence, draw for draw (the same random numbers); rows whose hashes collide are kept apart; the ranking is
the same bits with the rows kept once or every sentence's row kept, for sentences and documents."""
from __future__ import annotations

import json
import random
from typing import ClassVar, List

import numpy as np
import pytest
from streamed import QUICK, run, without_timings

import ts_eval.ranking.rows as rows_module
from ts_eval.io.inputs import Inputs
from ts_eval.models.registry import REGISTRY
from ts_eval.ranking.blocks import StatsBuilder
from ts_eval.ranking.rows import DenseSums, RowSums, RowTable, distinct, integral, row_hashes
from ts_eval.ranking.sufficient import StatsMatrix

TAGS = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]


def copies(n: int, times: int, seed: int = 1, docs: bool = True) -> str:
    """A column file (gold and two systems) of ``n`` sentences repeated ``times`` times."""
    rng = random.Random(seed)
    sents: List[List[str]] = []
    for s in range(n):
        sent = []
        for t in range(rng.randint(1, 7)):
            g = rng.choice(TAGS)
            sys_ = [g if rng.random() < 0.7 else rng.choice(TAGS) for _ in range(2)]
            sent.append(f"t{s}.{t} {g} {' '.join(sys_)}")
        sents.append(sent)
    lines: List[str] = []
    for _ in range(times):
        for s, sent in enumerate(sents):
            if docs and s % 6 == 0:
                lines += ["-DOCSTART- O O O", ""]
            lines += sent + [""]
    return "\n".join(lines) + "\n"


def builder_of(path: str, block_bytes: int = 1) -> StatsBuilder:
    models = [REGISTRY[m] for m in ("exact-f1-micro", "ts-f1-macro", "fair-f1", "overlap-f1-micro")]
    builder = StatsBuilder(models, ["col3", "col4"])
    for block in Inputs(file=path, gold_column=2, block_bytes=block_bytes).read():
        builder.add(block)
    return builder


def test_a_repeated_corpus_keeps_the_distinct_rows_of_one_copy(tmp_path):
    once, ten = tmp_path / "once.conll", tmp_path / "ten.conll"
    once.write_text(copies(40, 1), encoding="utf-8")
    ten.write_text(copies(40, 10), encoding="utf-8")
    one, many = builder_of(str(once)), builder_of(str(ten))
    assert many.rows == one.rows <= 40                  # the distinct rows: those of one copy
    sm = many.matrix()
    assert sm.ids is not None and len(sm.ids) == 400 and sm.ids.dtype == np.int32 and sm.n_units == 400
    assert sm.data.shape[0] == one.rows
    assert np.array_equal(sm.dense(), np.tile(one.matrix().dense(), (10, 1)))
    assert np.array_equal(sm.totals, sm.dense().sum(0, dtype=np.float64))


@pytest.mark.parametrize("unit", ["sentence", "document"])
def test_ranks_with_rows_kept_once_are_those_of_every_row(tmp_path, monkeypatch, unit):
    """The same report, bit for bit, when every sentence's (document's) row is kept and resampled."""
    path = tmp_path / "c.conll"
    path.write_text(copies(30, 4, seed=3), encoding="utf-8")
    argv = ["rank", str(path), "--gold-col", "2", *QUICK, "--format", "json", "--unit", unit]
    kept_once = without_timings(run(argv))
    assert kept_once[0] == 0
    monkeypatch.setattr(StatsMatrix, "sums", lambda sm: DenseSums(sm.dense(), sm.n_units))
    assert without_timings(run(argv)) == kept_once
    assert json.loads(kept_once[1])["settings"]["units"] == (120 if unit == "sentence" else 20)


def test_rows_whose_hashes_collide_are_kept_apart(tmp_path, monkeypatch):
    path = tmp_path / "c.conll"
    path.write_text(copies(25, 2, seed=8), encoding="utf-8")
    argv = ["rank", str(path), "--gold-col", "2", *QUICK, "--format", "json"]
    right = without_timings(run(argv))
    monkeypatch.setattr(rows_module, "row_hashes", lambda r, whole=None: np.zeros(len(r), np.uint64))
    assert without_timings(run(argv)) == right
    data = np.random.default_rng(0).integers(0, 3, size=(500, 4)).astype(np.float32)
    table, ids = distinct(data, chunk=64)
    assert np.array_equal(table[ids], data)


class _Counted(np.ndarray):
    """A table that notes how many rows each read at random takes."""

    taken: ClassVar[List[int]] = []

    def __getitem__(self, index):
        if isinstance(index, np.ndarray) and index.dtype.kind in "iu":
            _Counted.taken.append(len(index))
        return np.asarray(super().__getitem__(index))


def test_a_block_reads_the_table_once_per_distinct_row_and_finds_collisions_still():
    """A block's rows are checked against the rows their hashes found in the table once per distinct hash (at
    10M tokens the table is 97 MB, read at random), the block's other rows against the first of their hash; a
    hash that two different rows share still keeps them apart, in the block and against the table."""
    rng = np.random.default_rng(3)
    old = rng.integers(0, 5, size=(40, 6)).astype(np.float32)
    found = RowTable()
    table = np.zeros((200, 6), np.float32)
    _, new = found.ids(old, table, 0, True)
    table[:len(new)] = new
    known = len(new)
    block = old[rng.integers(0, 40, size=300)]                 # 300 rows, at most 40 distinct, all in the table
    _Counted.taken = []
    ids, fresh = found.ids(block, table.view(_Counted), known, True)
    assert len(fresh) == 0 and np.array_equal(table[ids], block)
    assert sum(_Counted.taken) == len(np.unique(block, axis=0)) < len(block)
    for h in (lambda r, whole=None: np.zeros(len(r), np.uint64),                      # every row collides
              lambda r, whole=None: (np.arange(len(r)) % 2).astype(np.uint64)):      # rows paired at random
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(rows_module, "row_hashes", h)
            data = rng.integers(0, 3, size=(500, 4)).astype(np.float32)
            table2, ids2 = distinct(data, chunk=64)
            assert np.array_equal(table2[ids2], data)


def test_distinct_rows_and_their_numbers():
    rng = np.random.default_rng(4)
    data = rng.integers(0, 3, size=(3000, 5)).astype(np.float32)
    table, ids = distinct(data, chunk=100)
    assert np.array_equal(table[ids], data)
    assert len(table) == len(np.unique(data, axis=0))                   # each row once
    assert list(np.unique(ids, return_index=True)[1]) == sorted(np.unique(ids, return_index=True)[1])  # first use
    halves = data + 0.5                                                 # not whole numbers: the bits hashed
    t2, i2 = distinct(halves, chunk=100)
    assert np.array_equal(t2[i2], halves) and len(t2) == len(table)
    assert len(np.unique(row_hashes(table))) == len(table)
    found = RowTable()
    got, new = found.ids(data[:10], np.zeros((0, 5), np.float32), 0)
    assert np.array_equal(new[got], data[:10])


@pytest.mark.parametrize("units", [1, 7, 1001])
def test_row_sums_are_the_sums_of_every_unit_draw_for_draw(units):
    rng = np.random.default_rng(units)
    data = rng.integers(0, 4, size=(units, 6)).astype(np.float32)
    data[units // 2:] = data[:units - units // 2]                        # repeated rows
    table, ids = distinct(data)
    dense, kept = DenseSums(data, units), RowSums(table, ids)
    for draw in ("bootstrap", "swapped"):
        a = getattr(dense, draw)(np.random.default_rng(3), 9)
        b = getattr(kept, draw)(np.random.default_rng(3), 9)
        assert a.dtype == b.dtype == np.float64 and np.array_equal(a, b), draw


@pytest.mark.parametrize("distinct_rows", [300, (1 << 16) + 5])
def test_row_sums_keep_their_counts_and_looked_up_rows_from_call_to_call_draw_for_draw(distinct_rows):
    """Past 2**16 rows the rows are looked up as uint32 (widened to intp in a kept buffer for counting), below as
    uint16; the counts' room is kept from one call to the next (a smaller call after a larger one): every call's
    sums are those of every unit's row."""
    units = distinct_rows + 700
    rng = np.random.default_rng(distinct_rows)
    data = np.zeros((units, 3), np.float32)
    data[:distinct_rows, 0] = np.arange(distinct_rows)                   # every row distinct ...
    data[:, 1:] = rng.integers(0, 3, size=(units, 2))
    data[distinct_rows:, 0] = rng.integers(0, distinct_rows, size=units - distinct_rows)   # ... and some again
    table, ids = distinct(data)
    dense, kept = DenseSums(data, units), RowSums(table, ids)
    assert len(table) > distinct_rows - 1
    assert kept.lookup.dtype == (np.uint32 if len(table) > 1 << 16 else np.uint16)
    a_rng, b_rng = np.random.default_rng(4), np.random.default_rng(4)
    for draw, count in (("bootstrap", 3), ("swapped", 2), ("bootstrap", 1), ("bootstrap", 2), ("swapped", 3)):
        a, b = getattr(dense, draw)(a_rng, count), getattr(kept, draw)(b_rng, count)
        assert b.shape == (count, 3) and np.array_equal(a, b), (draw, count)


def test_totals_of_distinct_rows_are_added_a_slab_at_a_time_without_a_float64_copy(monkeypatch):
    """The totals of a table of distinct rows are every unit's row added up, a few rows at a time: never a
    float64 copy of the whole table (at 10M tokens that copy was twice the table, the peak of ``rank``)."""
    import ts_eval.ranking.sufficient as sufficient_module

    monkeypatch.setattr(sufficient_module, "TOTAL_ROWS", 7)
    rng = np.random.default_rng(8)
    table = rng.integers(0, 9, size=(50, 4)).astype(np.float32)
    ids = rng.integers(0, 50, size=400).astype(np.int32)
    sm = StatsMatrix([], [], table, {}, "sentence", np.ones(400), ids)
    copies: List[int] = []
    real = np.ndarray.astype

    class Spy(np.ndarray):
        def astype(self, dtype, *args, **kwargs):  # type: ignore[override]
            copies.append(len(self))
            return real(np.asarray(self), dtype, *args, **kwargs)

    sm.data = table.view(Spy)
    assert np.array_equal(sm.totals, table[ids].sum(0, dtype=np.float64))
    assert copies and max(copies) <= 7


def test_ahead_has_one_draw_under_way_while_the_caller_holds_the_one_before() -> None:
    """RowSums.bootstrap draws into two buffers in turn: draw r + 2 may start only once the caller is done
    with draw r (it asks for r + 2 when it takes r + 1), and the draws come in order."""
    import threading
    import time

    events: List[str] = []
    lock = threading.Lock()
    made = iter(range(10))

    def draw() -> np.ndarray:
        k = next(made)
        with lock:
            events.append(f"start {k}")
        time.sleep(0.002)
        return np.array([k])

    got = []
    for r, x in enumerate(rows_module.ahead(draw, 10)):
        got.append(int(x[0]))
        time.sleep(0.004)                    # the caller counts longer than a draw takes
        with lock:
            events.append(f"done {r}")
    assert got == list(range(10))
    for k in range(2, 10):
        assert events.index(f"done {k - 2}") < events.index(f"start {k}"), events


def test_ahead_hands_a_draws_error_to_the_caller() -> None:
    calls = iter(range(5))

    def draw() -> np.ndarray:
        if next(calls) == 2:
            raise ValueError("bad draw")
        return np.zeros(1)

    with pytest.raises(ValueError, match="bad draw"):
        list(rows_module.ahead(draw, 5))


def test_integral_looks_at_a_table_a_slab_at_a_time():
    """Whether a table holds whole numbers is told without a copy of the table (the peak of ``rank``'s
    statistics at 10M tokens was a rounded copy of its 97 MB table)."""
    import tracemalloc

    table = np.ones((100_000, 50), np.float32)          # 20 MB
    tracemalloc.start()
    try:
        assert integral(table)
        table[-1, -1] = 0.5
        assert not integral(table)
        table[-1, -1] = np.inf
        assert not integral(table)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20
    assert integral(np.zeros((0, 3))) and integral(np.array([[1.0, -2.0]])) and not integral(np.array([[np.nan]]))
