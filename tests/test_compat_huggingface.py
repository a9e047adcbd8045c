"""ts_eval.compat.huggingface against the Hugging Face seqeval metric, rebuilt here from
seqeval's own output exactly as the metric's ``_compute`` builds it (evaluate and
transformers are not needed), on the metric's docstring example and random corpora.
"""
from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")

from support import expect_warnings  # noqa: E402

import ts_eval  # noqa: E402
from ts_eval.compat import huggingface as H  # noqa: E402
from ts_eval.compat import seqeval as C  # noqa: E402

#: the warnings of scores that are undefined (scikit-learn's class, as seqeval's)
NO_PREDICTED = (C._undefined_metric_warning(), "ill-defined .* no predicted samples")
NO_TRUE = (C._undefined_metric_warning(), "ill-defined .* no true samples")

PREDICTIONS = [['O', 'O', 'B-MISC', 'I-MISC', 'I-MISC', 'I-MISC', 'O'], ['B-PER', 'I-PER', 'O']]
REFERENCES = [['O', 'O', 'O', 'B-MISC', 'I-MISC', 'I-MISC', 'O'], ['B-PER', 'I-PER', 'O']]


def hf_reference(predictions, references, suffix=False, scheme=None, mode=None, sample_weight=None,
                 zero_division="warn"):
    """What huggingface/evaluate metrics/seqeval/seqeval.py's _compute returns."""
    if scheme is not None:
        scheme = getattr(seqeval_scheme, scheme)
    report = seqeval_metrics.classification_report(y_true=references, y_pred=predictions, suffix=suffix,
                                                   output_dict=True, scheme=scheme, mode=mode,
                                                   sample_weight=sample_weight, zero_division=zero_division)
    report.pop("macro avg")
    report.pop("weighted avg")
    overall = report.pop("micro avg")
    scores = {name: {"precision": s["precision"], "recall": s["recall"], "f1": s["f1-score"], "number": s["support"]}
              for name, s in report.items()}
    scores["overall_precision"] = overall["precision"]
    scores["overall_recall"] = overall["recall"]
    scores["overall_f1"] = overall["f1-score"]
    scores["overall_accuracy"] = seqeval_metrics.accuracy_score(y_true=references, y_pred=predictions)
    return scores


def _equal(ref: dict, ours: dict) -> bool:
    if list(ref) != list(ours):
        return False
    for k, v in ref.items():
        if isinstance(v, dict):
            if not _equal(v, ours[k]):
                return False
        elif not (v == ours[k] or (math.isnan(v) and math.isnan(ours[k]))):
            return False
    return True


def test_metric_docstring_example():
    ours = H.compute(predictions=PREDICTIONS, references=REFERENCES, ts_eval_scores=False)
    assert list(ours) == ['MISC', 'PER', 'overall_precision', 'overall_recall', 'overall_f1', 'overall_accuracy']
    assert ours["overall_f1"] == 0.5 and ours["PER"]["f1"] == 1.0
    assert type(ours["PER"]["number"]) is int
    assert _equal(hf_reference(PREDICTIONS, REFERENCES), ours)


def test_ts_and_fair_keys_are_added_and_match_the_core():
    ours = H.compute(PREDICTIONS, REFERENCES)
    assert set(ours) - set(hf_reference(PREDICTIONS, REFERENCES)) == set(H.EXTRA_KEYS)
    system = ts_eval.score(REFERENCES, PREDICTIONS, models=("ts", "fair")).systems[0]
    assert ours["overall_ts_precision"] == system["ts"]["micro"]["precision"] == 0.8   # 8 of 10 units
    assert ours["overall_ts_recall"] == system["ts"]["micro"]["recall"] == 1.0
    assert ours["overall_ts_f1"] == pytest.approx(16 / 18)
    assert ours["overall_fair_f1"] == system["fair"]["fair"]["micro"]["f"]


def test_random_corpora_match_the_metric():
    rng = random.Random(5)
    pool = ["O"] * 6 + ["B-A", "I-A", "B-B", "I-B", "E-A", "S-B", "I-A"]
    agreed = 0
    for case in range(120):
        refs, preds = [], []
        for _ in range(rng.randint(1, 6)):
            n = rng.randint(1, 9)
            t = [rng.choice(pool) for _ in range(n)]
            refs.append(t)
            preds.append([rng.choice(pool) if rng.random() < 0.4 else x for x in t])
        kw = [{}, {"zero_division": 1}, {"mode": "strict", "scheme": "IOBES"}][case % 3]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = hf_reference(preds, refs, **kw)
            ours = H.compute(preds, refs, **kw)
        extra = {k: ours.pop(k) for k in H.EXTRA_KEYS}
        assert _equal(ref, ours), (refs, preds, kw)
        assert all(0.0 <= v <= 1.0 for v in extra.values())
        agreed += 1
    assert agreed == 120


def test_compute_metrics_with_label_ids_and_padding():
    id2label = ['O', 'B-PER', 'I-PER', 'B-MISC', 'I-MISC']
    label_ids = np.array([[-100, 1, 2, 0, -100, 3, -100],
                          [-100, 3, 4, 0, -100, -100, -100]])
    pred_ids = np.array([[4, 1, 2, 0, 0, 3, 0],
                         [0, 3, 0, 0, 1, 1, 1]])
    refs = [['B-PER', 'I-PER', 'O', 'B-MISC'], ['B-MISC', 'I-MISC', 'O']]
    preds = [['B-PER', 'I-PER', 'O', 'B-MISC'], ['B-MISC', 'O', 'O']]
    expected = hf_reference(preds, refs)
    out = H.compute_metrics((pred_ids, label_ids), id2label)
    assert out["overall_f1"] == expected["overall_f1"] == pytest.approx(2 * 2 / 3 * 2 / 3 / (4 / 3))
    assert out["overall_accuracy"] == expected["overall_accuracy"] == 6 / 7
    assert all(isinstance(v, float) for v in out.values())
    # logits (argmax), a dict id2label (model.config.id2label) and entity-level keys
    logits = np.eye(5)[pred_ids] + 0.01
    dict_labels = {k: v for k, v in enumerate(id2label)}
    full = H.compute_metrics((logits, label_ids), dict_labels, entity_level=True)
    assert full["MISC_f1"] == expected["MISC"]["f1"] and full["MISC_number"] == 2.0
    assert full["overall_f1"] == out["overall_f1"]

    class EvalPrediction:  # the Trainer's container, duck-typed; a model with extra outputs gives a tuple
        def __init__(self, predictions, label_ids):
            self.predictions, self.label_ids = predictions, label_ids
    trainer_input = EvalPrediction((logits, np.zeros((2, 7, 3))), label_ids)
    assert H.metrics_for(id2label)(trainer_input)["overall_f1"] == out["overall_f1"]


@pytest.mark.parametrize("preds, labels, id2label, exc, pattern", [
    (np.zeros((2, 3), int), np.zeros((3, 3), int), ["O"], ValueError, r"predictions has 2 sequences, label_ids has 3"),
    (np.zeros((1, 3), int), np.array([[0, 7, -100]]), ["O", "B-X"], ValueError,
     r"sequence 0: label_ids has id 7, outside 0..1"),
    (np.array([[0, 9, 0]]), np.array([[0, 1, -100]]), ["O", "B-X"], ValueError,
     r"sequence 0: predictions has id 9"),
    (np.zeros((1, 2), int), np.zeros((1, 3), int), ["O"], ValueError, r"sequence 0: 2 predictions for 3 labels"),
    (np.zeros((1, 3), int), np.zeros((1, 3), int), "O", TypeError, r"id2label='O'"),
    (np.zeros((1, 3), int), np.zeros((1, 3), int), ["O", None], TypeError, r"id2label: id 1 has the name None"),
    (np.zeros((1, 3), float), np.zeros((1, 3), int), ["O"], TypeError, r"label ids must be integers"),
    ("x", np.zeros((1, 3), int), ["O"], TypeError, r"predictions: expected a 2-D array"),
])
def test_compute_metrics_bad_input(preds, labels, id2label, exc, pattern):
    with pytest.raises(exc, match=pattern):
        H.compute_metrics((preds, labels), id2label)


def test_compute_bad_options_and_empty():
    with pytest.raises(ValueError, match=r"scheme='IOB9'"):
        H.compute(PREDICTIONS, REFERENCES, mode="strict", scheme="IOB9")
    with pytest.raises(ValueError, match=r"y_true has 2 sentences, y_pred has 1"):
        H.compute(PREDICTIONS[:1], REFERENCES)
    with expect_warnings((C.EmptyInputWarning, "nothing to score"), NO_PREDICTED, NO_TRUE,
                         (C.UndefinedAverageWarning, "macro average over no types")):
        out = H.compute([], [])
    assert out["overall_accuracy"] == 0.0


def test_cross_sentence_chunk_gives_nan_extras_with_a_warning():
    # seqeval's default decoding: after '.-A' the I-A opens no chunk, so the chunk ending
    # there starts where the last one started, in the sentence before (seqeval: ('A', 0, 3))
    refs = [['B-A'], ['.-A', 'I-A']]
    with expect_warnings((UserWarning, "crosses a sentence boundary"), (UserWarning, "seems not to be NE tag")):
        out = H.compute(refs, refs)
    assert math.isnan(out["overall_ts_f1"])
    with expect_warnings((UserWarning, "seems not to be NE tag")):    # seqeval's own
        ref = hf_reference(refs, refs)
    assert _equal(ref, {k: v for k, v in out.items() if k not in H.EXTRA_KEYS})


@pytest.mark.slow
def test_nested_chunks_give_ts_but_nan_fair_scores_with_a_warning():
    k = 2000  # chunks that all reuse start 0: the fair matcher would pair k x k of them
    refs = [['.-A', 'I-A', 'O'] * k]
    preds = [['.-A', 'I-A', 'O'] * (k - 1) + ['O', 'I-A', 'O']]
    with expect_warnings((UserWarning, "overall_fair_\\* are nan"), (UserWarning, "seems not to be NE tag")):
        out = H.compute(preds, refs)
    assert math.isnan(out["overall_fair_f1"]) and 0.99 < out["overall_ts_f1"] <= 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _equal(hf_reference(preds, refs), {k: v for k, v in out.items() if k not in H.EXTRA_KEYS})


# one label, and a tag that is refused: the scores left undefined warn in seqeval and here alike; the test is
# about the exception's class
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("predictions,references", [
    ([["B-PER", "X-PER"]], [["B-PER", "O"]]), ([["B-PER", "O"]], [["B-PER", "X-PER"]]),
    ([["B-PER", "PER"]], [["B-PER", "O"]]), ([["B-PER", "S-PER"]], [["B-PER", "O"]]),
])
@pytest.mark.parametrize("scheme", ["IOB2", "IOBES", None])
def test_an_unknown_tag_in_strict_mode_raises_the_metrics_exception_class(predictions, references, scheme):
    """The metric (seqeval with mode='strict') raises KeyError for an unknown prefix letter: ``compute`` raises
    an exception ``except KeyError`` catches too (issue 17, point 11)."""
    try:
        ref = hf_reference(predictions, references, mode="strict", scheme=scheme)
    except Exception as err:  # the class is what is compared
        ref = err
    try:
        ours = H.compute(predictions, references, mode="strict", scheme=scheme, ts_eval_scores=False)
    except Exception as err:
        ours = err
    if isinstance(ref, Exception):
        assert isinstance(ours, type(ref)), (scheme, ref, ours)
        assert str(ours).startswith(("y_true", "y_pred")), str(ours)     # a message, not KeyError's quoted repr
    else:
        assert _equal(ref, ours)
