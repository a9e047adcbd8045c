"""Python API: seqeval-style ts_eval.score, from_sequences with several systems, from_spans,
input errors, and agreement of exact match with seqeval's default (conlleval-like) mode."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics import classification_report, f1_score, precision_score, recall_score

import ts_eval
from ts_eval import InputError, Report
from ts_eval.core.sequences import from_sequences, from_spans
from ts_eval.models.evaluate import evaluate


def test_score_seqeval_style():
    y_true = [["B-MISC", "I-MISC", "O", "O"], ["B-PER", "I-PER", "O"]]
    y_pred = [["B-MISC", "I-MISC", "O", "O"], ["B-PER", "O", "O"]]
    rep = ts_eval.score(y_true, y_pred)
    assert isinstance(rep, Report)
    assert rep.labels == ["MISC", "PER"]
    s = rep.system("system")
    assert (s["exact"]["micro"]["gold"], s["exact"]["micro"]["system"], s["exact"]["micro"]["tp"]) == (2, 2, 1)
    assert s["exact"]["micro"]["f"] == pytest.approx(0.5)
    # TS: MISC 3/3 units, PER 1 of 3 units (B-PER only)
    assert s["ts"]["labels"]["PER"]["tp"] == 1 and s["ts"]["labels"]["PER"]["fn"] == 2
    assert s["ts"]["micro"]["recall"] == pytest.approx(4 / 6)
    assert s["ts"]["micro"]["precision"] == 1.0
    assert s["exact"]["token_accuracy"] == pytest.approx(6 / 7)
    assert rep.corpus["tokens"] == 7 and rep.corpus["sentences"] == 2
    assert rep.to_dict()["systems"][0]["name"] == "system"


def test_several_systems_as_a_mapping():
    y_true = [["B-X", "I-X", "O"]]
    corpus = from_sequences(y_true, {"good": [["B-X", "I-X", "O"]], "bad": [["O", "O", "B-X"]]})
    rep = evaluate(corpus)
    assert [s["name"] for s in rep.systems] == ["good", "bad"]
    assert rep.system("good")["ts"]["micro"]["f"] == 1.0
    assert rep.system("bad")["ts"]["micro"]["f"] == 0.0
    with pytest.raises(KeyError):
        rep.system("nope")


def test_tuples_and_other_sequences_are_accepted():
    rep = ts_eval.score((("B-X", "I-X"),), (("B-X", "I-X"),))
    assert rep.systems[0]["exact"]["micro"]["f"] == 1.0


@pytest.mark.parametrize("y_true,y_pred,needle", [
    ([["B-X", "O"]], [["B-X"]], "sentence 0: y_true has 2 tags, y_pred has 1"),
    ([["B-X"], ["O"]], [["B-X"]], "1 sentences"),
    ([[]], [[]], "empty"),
    ([["B-X", None]], [["B-X", "O"]], "not a string"),
    ([["B-X", "Q-X"]], [["B-X", "O"]], "bad tag"),
])
def test_sequence_input_errors(y_true, y_pred, needle):
    with pytest.raises(InputError, match=needle):
        ts_eval.score(y_true, y_pred)


def test_from_spans_api():
    corpus = from_spans([3, 2], [[("PER", 0, 2)], [("LOC", 1, 2)]],
                                {"a": [[("PER", 0, 2)], []], "b": [[("PER", 0, 1), ("ORG", 0, 3)], [("LOC", 1, 2)]]})
    assert corpus.labels == ["LOC", "ORG", "PER"]
    assert corpus.gold.start.tolist() == [0, 4] and corpus.gold.last.tolist() == [1, 4]
    rep = evaluate(corpus)
    a, b = rep.system("a"), rep.system("b")
    assert (a["exact"]["micro"]["tp"], a["exact"]["micro"]["system"]) == (1, 1)
    assert (b["exact"]["micro"]["tp"], b["exact"]["micro"]["system"]) == (1, 3)
    assert b["ts"]["labels"]["ORG"]["fp"] == 5
    assert b["ts"]["labels"]["PER"]["tp"] == 1 and b["ts"]["labels"]["PER"]["fn"] == 2
    # conlleval's token accuracy over the spans' IOB2 tags: gold B-PER I-PER O | O B-LOC, a: B-PER I-PER O | O O;
    # b's PER (0, 0) lies inside its ORG (0, 2): one tag per token cannot hold both (#17.1)
    assert (a["exact"]["tags_correct"], a["exact"]["tags_counted"], a["exact"]["token_accuracy"]) == (4, 5, 0.8)
    assert b["exact"]["token_accuracy"] is None and "1 nested" in b["exact"]["token_accuracy_undefined"]


@pytest.mark.parametrize("gold,needle", [
    ([[("X", 0, 4)]], "outside"),
    ([[("X", 2, 1)]], "outside"),
    ([[("X", 1, 1)]], r"is empty: end is exclusive, so a one-token span at 1 ends at 2"),   # an inclusive end?
    ([[("", 0, 1)]], "empty label"),
    ([[("X", 0, 1), ("X", 0, 1)]], "twice"),
    ([[], []], "sentences"),
    ([[("X", 0)]], r"expected \(label, start, end\)"),
])
def test_from_spans_errors(gold, needle):
    with pytest.raises(InputError, match=needle):
        from_spans([3], gold, [[]])


def test_from_spans_rejects_empty_sentences():
    with pytest.raises(InputError):
        from_spans([0], [[]], [[]])


# ---------------------------------------------------------------------------
# seqeval agreement: its default mode decodes IOB2 like conlleval (I- after O opens a chunk)

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ARGM-TMP", "I-ARGM-TMP"]


@st.composite
def tag_pairs(draw):
    lengths = draw(st.lists(st.integers(1, 9), min_size=1, max_size=6))
    return [[draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)) for n in lengths] for _ in range(2)]


def check_against_seqeval(y_true, y_pred):
    rep = ts_eval.score(y_true, y_pred)
    ex = rep.systems[0]["exact"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ex["micro"]["precision"] == pytest.approx(precision_score(y_true, y_pred, zero_division=0))
        assert ex["micro"]["recall"] == pytest.approx(recall_score(y_true, y_pred, zero_division=0))
        assert ex["micro"]["f"] == pytest.approx(f1_score(y_true, y_pred, zero_division=0))
        if not rep.labels:
            return
        sq = classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    for lab in rep.labels:
        row = ex["labels"][lab]
        if lab in sq:
            assert row["precision"] == pytest.approx(sq[lab]["precision"])
            assert row["recall"] == pytest.approx(sq[lab]["recall"])
            assert row["f"] == pytest.approx(sq[lab]["f1-score"])
            assert row["gold"] == sq[lab]["support"]
        else:  # seqeval lists only labels with gold or predicted entities
            assert row["gold"] == row["system"] == 0


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(tag_pairs())
def test_exact_match_agrees_with_seqeval_default_mode(pair):
    check_against_seqeval(*pair)


def test_exact_match_agrees_with_seqeval_on_ill_formed_cases():
    y_true = [["O", "I-PER", "I-PER", "B-LOC", "I-LOC"], ["B-PER", "I-LOC", "I-LOC"]]
    y_pred = [["B-PER", "I-PER", "I-PER", "I-LOC", "I-LOC"], ["I-PER", "I-LOC", "B-LOC"]]
    check_against_seqeval(y_true, y_pred)
    rep = ts_eval.score(y_true, y_pred).systems[0]["exact"]["micro"]
    # gold: PER 1-2, LOC 3-4, PER 0, LOC 1-2 (4); pred: PER 0-2, LOC 3-4, PER 0, LOC 1, LOC 2 (5)
    assert (rep["gold"], rep["system"], rep["tp"]) == (4, 5, 2)


def test_random_corpus_against_seqeval():
    rng = np.random.default_rng(7)
    y_true = [[str(t) for t in rng.choice(TAGS, size=int(rng.integers(1, 30)))] for _ in range(300)]
    y_pred = [[t if rng.random() < 0.7 else str(rng.choice(TAGS)) for t in s] for s in y_true]
    check_against_seqeval(y_true, y_pred)


@pytest.mark.parametrize("build", ["spans", "sequences"])
def test_a_system_named_gold_does_not_replace_the_gold_side(build):
    # the CLI rejects the name 'gold'; the Python builders must not let it overwrite the gold spans
    try:
        if build == "spans":
            corpus = from_spans([2], [[("X", 0, 1)]], {"gold": [[("X", 1, 2)]]})
        else:
            corpus = from_sequences([["B-X", "O"]], {"gold": [["O", "B-X"]]})
    except (InputError, ValueError):
        return
    assert corpus.gold.start.tolist() == [0]
    rep = evaluate(corpus)
    assert rep.systems[0]["exact"]["micro"]["tp"] == 0


def test_from_sequences_names_the_bad_tag_and_the_sentence():
    from ts_eval.core.sequences import from_sequences

    with pytest.raises(InputError, match=r"^y_pred: sentence 1, token 1: tag int 5 is not a string$"):
        from_sequences([["O"], ["O", "B-X"]], [["O"], ["O", 5]])
    with pytest.raises(InputError, match=r"^y_true: sentence 0, token 1: tag list \['B-X'\] is not a string"):
        from_sequences([["O", ["B-X"]]], [["O", "O"]])
    with pytest.raises(InputError, match=r"^sentence 1: y_true has 2 tags, y_pred has 1$"):
        from_sequences([["O"], ["O", "B-X"]], [["O"], ["O"]])
    c = from_sequences([["O", "B-X", "I-X"], ["B-Y"]], {"a": [["B-X", "I-X", "O"], ["B-Y"]],
                                                       "b": [["O", "O", "O"], ["I-Z"]]})
    assert c.tag_vocab == ["O", "B-X", "I-X", "B-Y", "I-Z"] and c.labels == ["X", "Y", "Z"]
