"""Counts add up: the counts of consecutive runs of sentences are the counts of the whole, for every model
family, so the report of the parts added is the report of the corpus (hypothesis), and counts pickle."""
from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_score_properties import span_corpus, tag_corpus

from ts_eval.core.sequences import from_sequences, spans_corpus
from ts_eval.models.counts import Counts, add_up, count_corpus
from ts_eval.models.evaluate import evaluate, score_settings
from ts_eval.models.registry import score_names

FAST = settings(max_examples=60, deadline=None)
MODELS = score_names("")      # every model score counts from spans
OPTIONS = [dict(), dict(separator_weight=0.0, beta=2.0, k1=2, k2=0, all_labels_row=True),
           dict(focus="system", fair_mode="faireval-skip", weights="eq6")]


def counted(corpus, options):
    return count_corpus(corpus, MODELS, score_settings(models=MODELS, **options))


def cuts(draw, n):
    """Sorted cut points 0 < c1 < ... < n (each part at least one sentence)."""
    inner = draw(st.sets(st.integers(1, n - 1), max_size=3)) if n > 1 else set()
    return [0, *sorted(inner), n]


@pytest.mark.slow
@FAST
@given(tag_corpus(n_systems=2), st.data(), st.sampled_from(OPTIONS), st.sampled_from(["IOB2", "conlleval", "IOB1"]))
def test_parts_of_tag_sequences_add_up(sides, data, options, scheme):
    gold, *systems = sides
    whole = from_sequences(gold, {f"s{k}": s for k, s in enumerate(systems)}, scheme=scheme)
    bounds = cuts(data.draw, len(gold))
    parts = [from_sequences(gold[a:b], {f"s{k}": s[a:b] for k, s in enumerate(systems)}, scheme=scheme)
             for a, b in zip(bounds[:-1], bounds[1:])]
    expected = evaluate(whole, models=MODELS, **options).to_dict()
    assert add_up(counted(p, options) for p in parts).report().to_dict() == expected
    assert sum(counted(p, options) for p in parts).report().to_dict() == expected


@pytest.mark.slow
@FAST
@given(span_corpus(), st.data(), st.sampled_from(OPTIONS))
def test_parts_of_span_lists_add_up(corpus, data, options):
    """Nested and crossing spans too (token accuracy then undefined, from the totals of every part)."""
    lengths, gold, system = corpus
    bounds = cuts(data.draw, len(lengths))

    def make(a, b):
        return spans_corpus(lengths[a:b], "y_true", gold[a:b], {"system": ("y_pred", system[a:b])})

    expected = evaluate(make(0, len(lengths)), models=MODELS, **options).to_dict()
    parts = [counted(make(a, b), options) for a, b in zip(bounds[:-1], bounds[1:])]
    assert add_up(parts).report().to_dict() == expected


def test_labels_seen_by_one_part_only_are_aligned_by_name():
    a = from_sequences([["B-PER", "O"]], [["B-PER", "B-LOC"]])
    b = from_sequences([["B-ORG", "I-ORG"]], [["B-ART", "I-ART"]])
    both = from_sequences([["B-PER", "O"], ["B-ORG", "I-ORG"]], [["B-PER", "B-LOC"], ["B-ART", "I-ART"]])
    total = counted(a, {}) + counted(b, {})
    assert total.labels == ("ART", "LOC", "ORG", "PER")
    assert total.report().to_dict() == evaluate(both, models=MODELS).to_dict()
    # the fair model's target statistics list labels in the order of their first gold span
    fair = total.report().systems[0]["fair"]["target_stats"]
    assert [row["label"] for row in fair] == ["PER", "ORG"]


def test_counts_pickle_and_add_after_a_round_trip():
    a = from_sequences([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]])
    b = from_sequences([["O", "B-LOC"]], [["B-LOC", "B-LOC"]])
    ca, cb = (pickle.loads(pickle.dumps(counted(x, {}))) for x in (a, b))
    assert isinstance(ca, Counts)
    both = from_sequences([["B-PER", "I-PER", "O"], ["O", "B-LOC"]], [["B-PER", "O", "O"], ["B-LOC", "B-LOC"]])
    assert (ca + cb).report().to_dict() == evaluate(both, models=MODELS).to_dict()


def test_counts_of_different_evaluations_do_not_add():
    a = from_sequences([["B-PER"]], {"x": [["B-PER"]]})
    b = from_sequences([["B-PER"]], {"y": [["B-PER"]]})
    with pytest.raises(ValueError, match="systems"):
        counted(a, {}) + counted(b, {})
    with pytest.raises(ValueError, match="settings"):
        counted(a, {}) + counted(a, {"beta": 2.0})
    with pytest.raises(ValueError, match="no counts"):
        add_up([])
