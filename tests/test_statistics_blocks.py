"""``analyze``'s statistics as an accumulator (issue 32): the blocks the reader gives (each numbered from 0, with its
own sorted labels) added one at a time give the table, row ids, entries, totals, span numbers and span sentences of
the file read whole, and the same analysis."""
from __future__ import annotations

import gc
import random
import weakref
from dataclasses import replace
from typing import Any, List

import numpy as np
import pytest
from support import statistics_entries

from ts_eval.analysis import corpus_blocks, study
from ts_eval.analysis.errors import ErrorOptions
from ts_eval.io.inputs import Inputs
from ts_eval.models.context import Contributions
from ts_eval.ranking.layout import NotInBlocks

MODELS = list(study.ANALYSIS_MODELS) + ["ts-kappa-micro", "constrained-f1-micro", "weighted-f1"]
EARLY, LATE = ["PER", "LOC"], ["DATE", "ORG", "PER", "LOC"]      # DATE, met late, sorts first


def _tags(rng: random.Random, n: int, labels: List[str]) -> List[str]:
    out: List[str] = []
    while len(out) < n:
        if rng.random() < 0.4:
            lab, k = rng.choice(labels), rng.randint(1, min(3, n - len(out)))
            out += [f"B-{lab}"] + [f"I-{lab}"] * (k - 1)
        else:
            out.append("O")
    return out


def _file(tmp_path: Any, systems: int = 3, sentences: int = 24) -> str:
    """A column file (token, gold, ``systems`` systems) with documents; the first sentences have PER and LOC
    only, later ones DATE and ORG too."""
    rng = random.Random(7)
    lines: List[str] = []
    for s in range(sentences):
        if s % 8 == 0:
            lines += ["-DOCSTART- " + " ".join(["O"] * (systems + 1)), ""]
        labels = EARLY if s < sentences // 3 else LATE
        n = rng.randint(1, 7)
        gold = _tags(rng, n, labels)
        sides = [gold] + [[g if rng.random() < 0.6 else t for g, t in zip(gold, _tags(rng, n, labels))]
                          for _ in range(systems)]
        lines += [f"w{rng.randint(0, 20)} " + " ".join(col[t] for col in sides) for t in range(n)] + [""]
    path = tmp_path / "c.conll"
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


def _inputs(path: str, block_bytes: Any, systems: int = 3, **more: Any) -> Inputs:
    return Inputs(file=path, gold_column=2, system_columns=list(range(3, 3 + systems)), block_bytes=block_bytes,
                  **more)


def _fed(blocks: Any, names: List[str], models: List[Any], counter: Any = study.Statistics) -> study.Statistics:
    st = counter(None, names, models)
    for block in blocks:
        st.add(block)
    return st.finish()


def _same(a: study.Statistics, b: study.Statistics) -> None:
    assert a.cols == b.cols and a.whole_cols == b.whole_cols and a.splittable == b.splittable
    assert a.labels == b.labels and a.S == b.S and a.C == b.C and a.whole_weights == b.whole_weights
    assert a.table.dtype == b.table.dtype and a.table.tolist() == b.table.tolist()
    assert (a.ids is None) == (b.ids is None) and (a.ids is None or a.ids.tolist() == b.ids.tolist())
    assert a.totals.tolist() == b.totals.tolist() and a.unplaced.tolist() == b.unplaced.tolist()
    for name in ("span_sentence", "span_offset"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.tolist() == y.tolist(), name
    assert statistics_entries(a) == statistics_entries(b)
    if a.span_pattern is None:      # fractions: the entries kept, in the fewest bytes that hold them
        for x in (a.entry_span, a.entry_col):
            assert study._compact(x.astype(np.int64)).dtype == x.dtype
    else:       # whole numbers: a pattern per span, its number in the fewest bytes
        assert a.span_pattern.dtype == study._fitting(len(a.pattern_start) - 2)
    assert a.undefined_for_spans == b.undefined_for_spans and a.used.tolist() == b.used.tolist()
    assert all(x.tolist() == y.tolist() for x, y in zip(a.groups, b.groups))


@pytest.mark.parametrize("block_bytes", [1, 60, 400, None], ids=["one-sentence", "small", "larger", "whole"])
def test_the_readers_blocks_added_one_at_a_time_are_the_file_read_whole(tmp_path, block_bytes):
    """Down to one sentence a block (documents, three systems), a later block bringing a label that sorts before
    the earlier ones (its columns widen the rows kept so far, the entries' columns are those of the sorted
    labels): every number the file read whole gives, in the same order and types."""
    path = _file(tmp_path)
    whole = _inputs(path, None).corpus("analyze")
    names = list(whole.systems)
    models = study.resolve_models(MODELS, whole)
    blocks = list(_inputs(path, block_bytes).read("analyze"))
    if block_bytes == 1:
        assert len(blocks) == whole.n_sentences
        assert set(blocks[0].labels) <= {"LOC", "PER"} and whole.labels == ["DATE", "LOC", "ORG", "PER"]
    expected = study.Statistics(whole, names, models)
    assert expected.labels == whole.labels and len(statistics_entries(expected)) and expected.whole_cols
    _same(_fed(blocks, names, models), expected)


def test_a_block_cut_further_is_counted_in_parts_with_the_same_numbers(tmp_path, monkeypatch):
    """The reader's blocks larger than BLOCK_TOKENS are counted in parts: the same statistics."""
    path = _file(tmp_path)
    whole = _inputs(path, None).corpus("analyze")
    names = list(whole.systems)
    models = study.resolve_models(MODELS, whole)
    expected = study.Statistics(whole, names, models)
    monkeypatch.setattr(corpus_blocks, "BLOCK_TOKENS", 3)
    _same(_fed(_inputs(path, 300).read("analyze"), names, models), expected)


def test_conllevals_blocks_are_each_counted_whole_and_give_the_file_read_whole(tmp_path):
    """Under the conlleval scheme a block is not cut further (its chunk events), but the reader's blocks (cut
    where every side is outside) give the file's statistics."""
    path = _file(tmp_path)
    whole = _inputs(path, None, scheme="conlleval").corpus("analyze")
    assert whole.gold.conll is not None and not corpus_blocks.can_cut(whole, list(whole.systems), [""])
    names = list(whole.systems)
    models = study.resolve_models(MODELS, whole)
    blocks = list(_inputs(path, 1, scheme="conlleval").read("analyze"))
    assert len(blocks) > 3
    _same(_fed(blocks, names, models), study.Statistics(whole, names, models))


def test_the_analysis_from_the_blocks_statistics_is_the_analysis_of_the_file(tmp_path):
    """One pass over blocks of one sentence (statistics, attribute values, errors) gives the analysis of the
    corpus read whole."""
    path = _file(tmp_path, systems=2)
    whole = _inputs(path, None, systems=2).corpus("analyze")
    options = dict(bootstrap=30, permutations=20, seed=3, pair=("col3", "col4"), flips=[("exact-f1-micro", "fair-f1")],
                   errors=ErrorOptions(top=5, min_agree=2))
    expected = study.analyze_corpus(whole, **options).to_dict()
    got = study.analyze_blocks(_inputs(path, 1, systems=2).read("analyze"), **options).to_dict()
    for d in (got, expected):
        d.pop("timings", None)
    assert got == expected


def test_no_block_is_kept(tmp_path):
    """A block added is not referred to by the statistics (only numbers are kept)."""
    path = _file(tmp_path)
    blocks = _inputs(path, 60).read("analyze")
    first = next(blocks)
    names = list(first.systems)
    st = study.Statistics(None, names, study.resolve_models(MODELS, first))
    st.add(first)
    gone = weakref.ref(first)
    del first
    gc.collect()
    assert gone() is None
    for block in blocks:
        st.add(block)
    assert _inputs(path, None).corpus("analyze").n_sentences == st.finish().S


def _halved(models: List[Any]) -> List[Any]:
    """The models with the exact-match family's span contributions halved (fractions: their sums depend on
    their order)."""
    out = []
    for m in models:
        if m.spec is not None and m.spec.name == "exact" and m.spec.split is not None:
            split = m.spec.split

            def half(sd: Any, split: Any = split) -> Contributions:
                c = split(sd)
                return replace(c, weight=c.weight / 2)
            m = replace(m, spec=replace(m.spec, split=half))
        out.append(m)
    return out


def test_fractions_take_the_one_block_road(tmp_path, monkeypatch):
    """Span contributions that are fractions: a block cut further is counted again whole (the entries in the
    order counted); more than one block raises NotInBlocks (count the corpus as one block)."""
    path = _file(tmp_path)
    whole = _inputs(path, None).corpus("analyze")
    names = list(whole.systems)
    models = _halved(study.resolve_models(["exact-f1-micro", "fair-f1"], whole))
    with monkeypatch.context() as m:
        m.setattr(study, "can_cut", lambda *a: False)
        one = study.Statistics(whole, names, models)
    assert not one.whole_weights and 0.5 in one.entry_weight.tolist()
    with monkeypatch.context() as m:
        m.setattr(corpus_blocks, "BLOCK_TOKENS", 2)
        _same(study.Statistics(whole, names, models), one)
        _same(_fed([whole], names, models), one)
    blocks = _inputs(path, 60).read("analyze")
    st = study.Statistics(None, names, models)
    st.add(next(blocks))
    with pytest.raises(NotInBlocks, match="one block"):
        st.add(next(blocks))


def test_entries_are_kept_per_side_and_numbered_over_all_sides_at_the_end(tmp_path):
    """Each entry's span is a gold span (below span_offset[1]) or one of its system's, in the same sentence as
    counted; the spans' sentences run in order within each side."""
    path = _file(tmp_path)
    blocks = list(_inputs(path, 1).read("analyze"))
    names = list(blocks[0].systems)
    st = _fed(blocks, names, study.resolve_models(MODELS, blocks[0]))
    off = st.span_offset
    assert off[-1] == len(st.span_sentence) and off[1] == sum(len(b.gold) for b in blocks)
    for i in range(len(names) + 1):
        side = st.span_sentence[off[i]:off[i + 1]]
        assert np.all(np.diff(side) >= 0) and (not len(side) or side[-1] < st.S)
    assert st.span_pattern is not None and len(st.span_pattern) == off[-1]       # a pattern per span


def test_the_entries_numbers_take_the_fewest_bytes_that_hold_them():
    assert [study._fitting(t) for t in (0, 2 ** 15 - 1, 2 ** 15, 2 ** 31 - 1, 2 ** 31)] == [
        np.int16, np.int16, np.int32, np.int32, np.int64]


def test_placed_columns_are_where_placed_puts_each_column():
    """A column's number moved among more labels is where the table's relabelling puts its values."""
    from ts_eval.ranking.layout import placed, placed_columns

    fixed, per, labels = 2, 3, 4
    where = np.array([0, 2, 3, 5])
    x = np.arange(1, fixed + per * labels + 1, dtype=np.int64)[None, :]
    out = placed((fixed, per), x, where, fixed + per * 6)
    moved = placed_columns(np.arange(x.shape[1]), fixed, per, where)
    assert out[0, moved].tolist() == x[0].tolist()
    assert np.count_nonzero(out) == x.shape[1]


@pytest.mark.parametrize("collide", [False, True], ids=["hashed", "one-hash"])
@pytest.mark.parametrize("block_bytes", [1, 60, None], ids=["one-sentence", "small", "whole"])
def test_the_spans_patterns_give_the_bucket_sums_of_their_entries(tmp_path, monkeypatch, block_bytes, collide):
    """Every span keeps a pattern number, not its entries (several labels, one met late; blocks down to one
    sentence): a few patterns for many spans, and every bucket's sums from the patterns counted by bucket are the
    sums of the bucket's spans' entries one at a time; all spans in one bucket sum to the totals of the columns
    the spans split (the statistics counted by sentence).  Patterns that meet in one hash (every hash 0) are told
    apart entry for entry."""
    from ts_eval.analysis.bucket_rows import BucketRows

    if collide:
        monkeypatch.setattr(study, "_mix", lambda key: np.zeros(len(key), np.uint64))
    path = _file(tmp_path, sentences=60)
    blocks = list(_inputs(path, block_bytes).read("analyze"))
    names = list(blocks[0].systems)
    st = _fed(blocks, names, study.resolve_models(MODELS, blocks[0]))
    assert st.span_pattern is not None and st.span_pattern.dtype == np.int16
    assert len(st.span_pattern) == st.span_offset[-1] and 1 < len(st.pattern_start) - 1 < st.span_offset[-1] // 2
    entries = np.array(statistics_entries(st), np.int64).reshape(-1, 3)
    rng = np.random.default_rng(5)
    for B in (1, 3):
        bucket_of_span = rng.integers(-1, B, int(st.span_offset[-1]))
        expected = np.zeros((B, st.C))
        for span, col, weight in entries:       # the entries, one at a time
            if bucket_of_span[span] >= 0:
                expected[bucket_of_span[span], col] += weight
        got = BucketRows(st, bucket_of_span, None, B).entry_sums()
        assert got.dtype == np.float64 and got.tolist() == expected.tolist()
        rows = BucketRows(st, bucket_of_span, None, B)
        assert [rows.rows(k)[0].sum(0).tolist() for k in range(B)] == expected.tolist()
    split = np.array([c for fam, (first, k) in st.cols.items() if st.splittable[fam]
                      for c in range(first, first + k * len(names)) if c not in st.whole_cols], np.int64)
    assert len(split)
    every = BucketRows(st, np.zeros(int(st.span_offset[-1]), np.int64), None, 1).entry_sums()[0]
    assert every[split].tolist() == st.totals[split].tolist()
