"""SpanSet and Documents columns (issue 18.3): ``last`` is the inclusive last token the internals
compute with; ``end`` is the public end, exclusive (``last + 1``), like ``(label, start, end)``
everywhere else in the public API."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ts_eval
from ts_eval.core.corpus import SpanSet, span_shape
from ts_eval.core.sequences import from_spans
from ts_eval.fair import fair_corpus


def test_a_one_token_span_ends_one_after_its_start():
    corpus = from_spans([3], gold=[[("X", 1, 2)]], systems={"a": [[("X", 0, 3)]]})
    g, s = corpus.gold, corpus.systems["a"]
    assert (g.start.tolist(), g.last.tolist(), g.end.tolist()) == ([1], [1], [2])
    assert (s.start.tolist(), s.last.tolist(), s.end.tolist()) == ([0], [2], [3])


def test_end_is_derived_from_last_and_read_only():
    ss = SpanSet(np.array([0, 2]), np.array([0, 4]), np.array([0, 0], np.int32))
    assert [f.name for f in dataclasses.fields(SpanSet)][:3] == ["start", "last", "label"]
    assert ss.end.tolist() == [1, 5]
    ss.end[0] = 7                                     # a new array: the span set is unchanged
    assert ss.last.tolist() == [0, 4]
    with pytest.raises(AttributeError):
        ss.end = np.array([9, 9])


def test_the_internals_read_last():
    # sorted() orders by (start, last, label); take() keeps last; span_shape reads last
    ss = SpanSet(np.array([0, 0, 1]), np.array([3, 1, 2]), np.array([0, 0, 0], np.int32)).sorted()
    assert list(zip(ss.start.tolist(), ss.last.tolist())) == [(0, 1), (0, 3), (1, 2)]
    assert ss.take(np.array([1])).last.tolist() == [3]
    # 0..3 holds 0..1 and 1..2; 0..1 and 1..2 cross
    assert span_shape(ss.start, ss.last) == {"nested": 2, "crossing": 0}
    assert span_shape(np.array([0, 1]), np.array([1, 2])) == {"nested": 0, "crossing": 1}
    # the models compare last tokens: a system span one token longer than gold is not exact
    corpus = from_spans([4], gold=[[("X", 0, 2)]], systems={"a": [[("X", 0, 2)]], "b": [[("X", 0, 3)]]})
    exact = {r["name"]: r["tp"] for r in ts_eval.score(corpus, models=("exact",)).rows()
             if r["model"] == "exact" and r["label"] == "micro"}
    assert exact == {"a": 1, "b": 0}


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["X", "Y"]), st.integers(0, 7), st.integers(1, 4)), max_size=6))
def test_end_gives_back_the_spans_given(raw):
    spans = sorted({(lab, b, min(b + ln, 8)) for lab, b, ln in raw})
    corpus = from_spans([8], gold=[spans], systems={"a": [spans]})
    g = corpus.gold
    got = sorted(zip([corpus.labels[k] for k in g.label.tolist()], g.start.tolist(), g.end.tolist()))
    assert got == spans
    assert (g.end - g.last).tolist() == [1] * len(spans)


def test_documents_have_last_and_an_exclusive_end(tmp_path):
    path = tmp_path / "d.jsonl"
    rec = {"id": "d1", "tokens": ["a", "b", "c"], "spans": [{"start": 1, "end": 2, "label": "X"}]}
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    docs = ts_eval.read(str(path))
    assert (docs.start.tolist(), docs.last.tolist(), docs.end.tolist()) == ([1], [1], [2])


def test_fair_rows_give_end_exclusive():
    corpus = from_spans([3], gold=[[("X", 1, 2)]], systems={"a": [[("X", 1, 3)]]})
    res = fair_corpus(corpus, "a")
    rows = res.outcomes.rows(corpus.gold, corpus.systems["a"], corpus.labels)
    assert [(r["side"], r["start"], r["end"], r["type"]) for r in rows] == [("gold", 1, 2, "BEL"),
                                                                             ("system", 1, 3, "BEL")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 4)), max_size=25), st.booleans())
def test_span_shape_counts_nested_and_crossing_spans(spans, distinct_starts):
    # spans with strictly increasing starts (decoded tags) skip the sort: the same counts either way
    if distinct_starts:
        spans = sorted({b: (b, n) for b, n in spans}.values())
    start = np.array([b for b, _ in spans], np.int64)
    last = start + np.array([n for _, n in spans], np.int64)
    order = sorted(range(len(spans)), key=lambda k: (start[k], -last[k]))
    nested = crossing = 0
    for i, k in enumerate(order):
        before = order[:i]
        if any(last[j] >= last[k] for j in before):
            nested += 1
        elif any(last[j] >= start[k] for j in before):
            crossing += 1
    assert span_shape(start, last) == {"nested": nested, "crossing": crossing}
