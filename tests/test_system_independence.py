"""A system's numbers depend only on gold and that system (issue #9.1).

Labels that only another system uses (or nobody) must add nothing to a system's
micro tables -- no true negatives to TS kappa and accuracy -- in score, rank and
every model.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from test_score_properties import FAST, TAGS, WEIGHTS, has_spans

import ts_eval
from ts_eval.core import measures
from ts_eval.core.sequences import from_sequences
from ts_eval.models.evaluate import evaluate
from ts_eval.models.registry import score_names
from ts_eval.ranking import sufficient

MODELS = score_names("")      # every model score counts from spans
OTHER_TAGS = TAGS + ["B-FOO", "I-FOO"]      # a label only the other system uses


@st.composite
def two_systems(draw):
    lengths = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6))
    def side(tags):
        return [draw(st.lists(st.sampled_from(tags), min_size=n, max_size=n)) for n in lengths]
    return side(TAGS), side(TAGS), side(OTHER_TAGS)


def numbers(system: dict) -> str:
    """A system's report without its name and the rows of labels absent for it (as JSON)."""
    out = {k: v for k, v in system.items() if k not in ("name", "source")}
    # a model's blocks (semeval: one per scheme) carry per-label rows
    blocks = [m for model in out.values() if isinstance(model, dict)
              for m in [model, *(b for b in model.values() if isinstance(b, dict))]]
    for model in blocks:
        if isinstance(model.get("labels"), dict):
            model["labels"] = {k: r for k, r in model["labels"].items() if r.get("present", True)}
    return json.dumps(out, sort_keys=True, default=str)


@pytest.mark.slow
@FAST
@given(two_systems(), WEIGHTS)
def test_another_system_never_changes_a_systems_scores(sides, w):
    gold, a, other = sides
    assume(has_spans(other))
    alone = evaluate(from_sequences(gold, {"a": a}), separator_weight=w, models=MODELS)
    beside = evaluate(from_sequences(gold, {"a": a, "other": other}), separator_weight=w, models=MODELS)
    assert numbers(alone.system("a")) == numbers(beside.system("a"))


@pytest.mark.slow
@FAST
@given(two_systems())
def test_another_system_never_changes_a_systems_rank_statistics(sides):
    gold, a, other = sides
    assume(has_spans(other))
    # every model that reads a span corpus (not those that need GermEval files or generated outputs)
    models = sufficient.resolve_models([m for m, model in sufficient.REGISTRY.items() if not model.needs])
    one = sufficient.statistics(from_sequences(gold, {"a": a}), models)
    two = sufficient.statistics(from_sequences(gold, {"a": a, "other": other}), models)
    np.testing.assert_array_equal(one.scores(one.totals)[0], two.scores(two.totals)[0])
    # and rank's TS scores are score's numbers
    rep = evaluate(from_sequences(gold, {"a": a, "other": other}))
    ts = rep.system("a")["ts"]
    got = dict(zip([m.name for m in models], two.scores(two.totals)[0]))
    assert got["ts-kappa-micro"] == pytest.approx(ts["micro"]["kappa"], abs=1e-12)
    assert got["ts-f1-micro"] == pytest.approx(ts["micro"]["f"], abs=1e-12)
    assert got["ts-kappa-macro"] == pytest.approx(ts["macro"]["kappa"], abs=1e-12)


def test_the_issue_example_a_label_only_the_other_system_predicts():
    """florian + a column with one B-FOO, in small: the first system's micro table is its own."""
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O", "O"]]
    a = [["B-PER", "I-PER", "O", "O", "O", "B-LOC"]]
    other = [["B-FOO", "O", "O", "O", "O", "O"]]
    alone = evaluate(from_sequences(gold, {"a": a})).system("a")["ts"]["micro"]
    beside = evaluate(from_sequences(gold, {"a": a, "other": other})).system("a")["ts"]["micro"]
    # PER: 3 TP units, 8 TN; LOC: 1 FN, 1 FP, 9 TN  (11 units)
    assert (alone["tp"], alone["fp"], alone["fn"], alone["tn"]) == (3, 1, 1, 17)
    assert beside == alone
    assert alone["kappa"] == pytest.approx(measures.kappa(3, 1, 1, 17))
    assert alone["accuracy"] == pytest.approx(20 / 22)


def test_no_span_on_either_side_micro_is_the_empty_label_table():
    """Convention: with no present label the micro table is 0, 0, 0, units: kappa and
    accuracy 1.0 (the sides agree everywhere), as the multi-class kappa; P, R, F 0.0."""
    gold = [["O", "O", "O"]]
    rep = evaluate(from_sequences(gold, {"a": [["O", "O", "O"]], "other": [["B-FOO", "O", "O"]]}))
    ts = rep.system("a")["ts"]
    m = ts["micro"]
    assert (m["tp"], m["fp"], m["fn"], m["tn"]) == (0, 0, 0, 5)
    assert m["kappa"] == 1.0 and m["accuracy"] == 1.0
    assert ts["multiclass_kappa"] == 1.0
    assert m["precision"] == m["recall"] == m["f"] == 0.0
    assert ts["macro"]["labels_averaged"] == 0 and ts["macro"]["kappa"] == 0.0
    only = ts_eval.score([["O", "O"]], [["O", "O"]]).systems[0]["ts"]   # no label in the corpus at all
    assert (only["micro"]["kappa"], only["micro"]["accuracy"], only["multiclass_kappa"]) == (1.0, 1.0, 1.0)


def test_labels_of_another_system_do_not_switch_the_multiclass_confusion():
    """31 labels fit one bitmask pass, 32 do not (events._class_confusions): another system's
    32nd label must leave this system's multi-class kappa and micro table as they were."""
    labels = [f"L{k:02d}" for k in range(31)]
    gold = [[f"B-{lab}", "O"] for lab in labels]
    a = [[f"B-{lab}", "O"] if k % 3 else ["O", f"B-{lab}"] for k, lab in enumerate(labels)]
    other = [["B-EXTRA", "O"]] + [["O", "O"]] * (len(labels) - 1)
    alone = evaluate(from_sequences(gold, {"a": a})).system("a")["ts"]
    beside = evaluate(from_sequences(gold, {"a": a, "other": other})).system("a")["ts"]
    assert alone["multiclass_kappa"] == pytest.approx(beside["multiclass_kappa"], abs=1e-15)
    assert alone["micro"] == beside["micro"]
    # units per sentence: token 0, separator, token 1 (class 0 = outside, k + 1 = label k)
    from sklearn.metrics import cohen_kappa_score
    g = [c for k in range(31) for c in (k + 1, 0, 0)]
    s = [c for k in range(31) for c in ((k + 1, 0, 0) if k % 3 else (0, 0, k + 1))]
    assert alone["multiclass_kappa"] == pytest.approx(cohen_kappa_score(g, s))
