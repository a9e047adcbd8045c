"""ts_eval.compat.seqeval against seqeval 1.2.2 itself (the reference, in the test extra).

Worked examples from seqeval's README and docstrings, then a few hundred seeded random
corpora (well-formed and ill-formed tags, odd tags such as ``.-X``, ``PER``, ``B``,
suffix tags) for every average, mode, scheme and zero_division, comparing numbers,
report text and the warnings seqeval raises.  Then bad input.
"""
from __future__ import annotations

import math
import random
import time
import warnings

import numpy as np
import pytest

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")
from seqeval.metrics import sequence_labeling as seqeval_sl  # noqa: E402
from support import expect_warnings  # noqa: E402

from ts_eval.compat import seqeval as C  # noqa: E402
from ts_eval.core.matching import match  # noqa: E402
from ts_eval.models.segment import segment_counts  # noqa: E402

AVERAGES = (None, "micro", "macro", "weighted")
SCHEMES = ("IOB2", "IOE2", "IOBES", "BILOU")

Y_TRUE = [['O', 'O', 'O', 'B-MISC', 'I-MISC', 'I-MISC', 'O'], ['B-PER', 'I-PER', 'O']]
Y_PRED = [['O', 'O', 'B-MISC', 'I-MISC', 'I-MISC', 'I-MISC', 'O'], ['B-PER', 'I-PER', 'O']]


# ---------------------------------------------------------------------------
# helpers

def _run(fn, *args, **kwargs):
    """(result or exception type, the warnings seqeval's users see: ill-defined and not-NE messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args, **kwargs)
        except (ValueError, TypeError, KeyError, IndexError) as err:
            out = ("error", type(err).__name__)
    msgs = {str(w.message) for w in caught
            if "ill-defined" in str(w.message) or "seems not to be NE tag" in str(w.message)}
    return out, msgs


def _is_error(x, name=None) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and x[0] == "error" and (name is None or x[1] == name)


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if _is_error(a) or _is_error(b):
        return _is_error(a) and _is_error(b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a, float), np.asarray(b, float)
        return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))
    if isinstance(a, (float, np.floating)) and isinstance(b, (float, int, np.floating, np.integer)):
        return (math.isnan(a) and math.isnan(b)) or a == b
    return a == b


def _compare(y_true, y_pred, check_warnings=True, **kw):
    """Every seqeval function on one corpus; returns the number of agreeing calls."""
    mode, scheme = kw.get("mode"), kw.get("scheme")
    ref_scheme = getattr(seqeval_scheme, scheme) if isinstance(scheme, str) else scheme
    ref_kw = {**kw, "scheme": ref_scheme}
    agreed = 0
    calls = [("classification_report", {}), ("classification_report", {"output_dict": True}),
             ("classification_report", {"digits": 4})]
    calls += [(f, {"average": a}) for f in ("precision_score", "recall_score", "f1_score") for a in AVERAGES]
    for name, extra in calls:
        ours, our_w = _run(getattr(C, name), y_true, y_pred, **kw, **extra)
        ref, ref_w = _run(getattr(seqeval_metrics, name), y_true, y_pred, **ref_kw, **extra)
        if _is_error(ref, "ValueError") and name == "classification_report" and not extra.get("output_dict"):
            # seqeval's text report fails on data without any entity (max() of no names); ours reports
            assert isinstance(ours, str), (name, extra, ours)
            agreed += 1
            continue
        assert _same(ref, ours), (name, extra, kw, y_true, y_pred, ref, ours)
        if check_warnings:
            assert ref_w == our_w, (name, extra, kw, ref_w, our_w)
        agreed += 1
    if mode is None:
        ours, _ = _run(C.precision_recall_fscore_support, y_true, y_pred, beta=2.0, average="macro",
                       zero_division=kw.get("zero_division", "warn"), suffix=kw.get("suffix", False))
        ref, _ = _run(seqeval_sl.precision_recall_fscore_support, y_true, y_pred, beta=2.0, average="macro",
                      zero_division=kw.get("zero_division", "warn"), suffix=kw.get("suffix", False))
        assert _same(ref, ours)
        agreed += 1
    for name in ("accuracy_score", "performance_measure"):
        if all(len(s) == 0 for s in y_true):
            continue
        assert getattr(C, name)(y_true, y_pred) == getattr(seqeval_metrics, name)(y_true, y_pred)
        agreed += 1
    return agreed


# ---------------------------------------------------------------------------
# seqeval's own examples

def test_readme_report_text_equal():
    expected = ("              precision    recall  f1-score   support\n\n"
                "        MISC       0.00      0.00      0.00         1\n"
                "         PER       1.00      1.00      1.00         1\n\n"
                "   micro avg       0.50      0.50      0.50         2\n"
                "   macro avg       0.50      0.50      0.50         2\n"
                "weighted avg       0.50      0.50      0.50         2\n")
    assert C.classification_report(Y_TRUE, Y_PRED) == expected
    assert seqeval_metrics.classification_report(Y_TRUE, Y_PRED) == expected


def test_docstring_examples():
    yt = [['O', 'O', 'B-MISC', 'I-MISC', 'B-MISC', 'O', 'O'], ['B-PER', 'I-PER', 'O']]
    yp = [['O', 'O', 'B-MISC', 'I-MISC', 'B-MISC', 'I-MISC', 'O'], ['B-PER', 'I-PER', 'O']]
    for fn in (C.precision_score, C.recall_score, C.f1_score):
        assert fn(yt, yp, average="micro") == pytest.approx(2 / 3)
        assert fn(yt, yp, average="macro") == 0.75
        assert fn(yt, yp, average="weighted") == pytest.approx(2 / 3)
        assert fn(yt, yp, average=None).tolist() == [0.5, 1.0]
    assert C.accuracy_score(Y_TRUE, Y_PRED) == 0.8
    yt = [['O', 'O', 'O', 'B-MISC', 'I-MISC', 'O', 'B-ORG'], ['B-PER', 'I-PER', 'O', 'B-PER']]
    yp = [['O', 'O', 'B-MISC', 'I-MISC', 'I-MISC', 'O', 'O'], ['B-PER', 'I-PER', 'O', 'B-MISC']]
    assert C.performance_measure(yt, yp) == {'TP': 3, 'FP': 3, 'FN': 1, 'TN': 4}
    p, _r, _f, s = C.precision_recall_fscore_support(Y_TRUE, Y_PRED, average=None)
    assert p.tolist() == [0.0, 1.0] and s.tolist() == [1, 1]
    assert C.precision_recall_fscore_support(Y_TRUE, Y_PRED, average="macro") == (0.5, 0.5, 0.5, 2)


def test_strict_mode_readme_example():
    # seqeval README: strict mode does not count the I-only chunk of the truth
    yt = [['B-PER', 'I-PER', 'O']]
    yp = [['I-PER', 'I-PER', 'O']]
    assert C.f1_score(yt, yp) == seqeval_metrics.f1_score(yt, yp) == 1.0
    assert C.f1_score(yt, yp, mode="strict", scheme=seqeval_scheme.IOB2) == 0.0
    assert C.f1_score(yt, yp, mode="strict", scheme="IOB2") == 0.0
    # strict mode finds no chunk in yp: the report's precision is undefined (0.0) and warns, ours as seqeval's
    with expect_warnings((C._undefined_metric_warning(), "ill-defined .* no predicted samples")):
        assert C.classification_report(yt, yp, mode="strict", scheme="BIO") == \
            seqeval_metrics.classification_report(yt, yp, mode="strict", scheme=seqeval_scheme.IOB2)


def test_all_examples_agree():
    assert _compare(Y_TRUE, Y_PRED) == 18
    for sch in SCHEMES[:1]:
        assert _compare(Y_TRUE, Y_PRED, mode="strict", scheme=sch) == 17


# ---------------------------------------------------------------------------
# random corpora

DEFAULT_POOL = ["O"] * 8 + ["B-A", "I-A", "B-B", "I-B", "E-A", "S-B", "I-A", "B-A", "I-B",
                            "B", "I", "E", "S", ".-A", ".", "X-A", "PER", "OTHER", "O-A", "B-_", "B--A",
                            "I-A-x", "B-A-x", "E-B", "S-A", "[-A", "B-0"]
SUFFIX_POOL = ["O"] * 8 + ["A-B", "A-I", "B-B", "B-I", "A-E", "B-S", "A", "-B", ".", "A-X", "B-A"]


def _corpus(rng: random.Random, pool, n_sent=6, max_len=8, noise=0.4):
    yt, yp = [], []
    for _ in range(rng.randint(1, n_sent)):
        n = rng.randint(0, max_len)
        t = [rng.choice(pool) for _ in range(n)]
        p = [rng.choice(pool) if rng.random() < noise else x for x in t]
        yt.append(t)
        yp.append(p)
    return yt, yp


def _scheme_pool(scheme: str):
    letters = {"IOB2": "BI", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}[scheme]
    pool = ["O"] * 6 + [f"{p}-{t}" for p in letters for t in ("A", "B")]
    return pool + [f"{letters[0]}A", f"{letters[-1]}--B-", f"{letters[0]}-", "OTHER"]


@pytest.mark.slow
def test_random_default_mode_agrees():
    rng = random.Random(13)
    agreed = 0
    for case in range(150):
        yt, yp = _corpus(rng, DEFAULT_POOL)
        zd = ("warn", 0, 1)[case % 3]
        agreed += _compare(yt, yp, zero_division=zd)
    assert agreed >= 150 * 17


@pytest.mark.slow
def test_random_suffix_mode_agrees():
    rng = random.Random(14)
    for case in range(60):
        yt, yp = _corpus(rng, SUFFIX_POOL)
        _compare(yt, yp, suffix=True, zero_division=("warn", 1)[case % 2])


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
def test_random_strict_mode_agrees(scheme):
    rng = random.Random(100 + SCHEMES.index(scheme))  # str hashes vary between runs
    pool = _scheme_pool(scheme)
    for case in range(60):
        yt, yp = _corpus(rng, pool, noise=0.5)
        _compare(yt, yp, mode="strict", scheme=scheme, zero_division=("warn", 0, 1)[case % 3])


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
def test_random_strict_suffix_and_autodetect(scheme):
    rng = random.Random(7)
    letters = {"IOB2": "BI", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}[scheme]
    pool = ["O"] * 4 + [f"{t}-{p}" for p in letters for t in ("A", "B")]
    for _ in range(30):
        yt, yp = _corpus(rng, pool, noise=0.5)
        _compare(yt, yp, mode="strict", scheme=scheme, suffix=True)
        # auto detection (classification_report only), well-formed or not
        for out in ({}, {"output_dict": True}):
            ours, _ = _run(C.classification_report, yt, yp, mode="strict", **out)
            ref, _ = _run(seqeval_metrics.classification_report, yt, yp, mode="strict", **out)
            assert _same(ref, ours), (yt, yp, ref, ours)


def test_strict_without_scheme_is_default_mode_in_score_functions():
    # seqeval: precision_score(mode='strict') without a scheme silently uses the default mode
    yt, yp = [['B-PER', 'I-PER', 'O']], [['I-PER', 'I-PER', 'O']]
    assert C.f1_score(yt, yp, mode="strict") == seqeval_metrics.f1_score(yt, yp, mode="strict") == 1.0
    # and a scheme without mode='strict' is ignored
    assert C.f1_score(yt, yp, scheme="IOB2") == seqeval_metrics.f1_score(yt, yp, scheme=seqeval_scheme.IOB2) == 1.0


def test_ill_formed_in_strict_mode_errors_like_seqeval():
    yt, yp = [['B-PER', 'S-PER']], [['B-PER', 'O']]
    with pytest.raises(ValueError, match=r"y_true: sentence 0, token 1: tag 'S-PER' is not allowed in scheme IOB2"):
        C.f1_score(yt, yp, mode="strict", scheme="IOB2")
    with pytest.raises(ValueError):
        seqeval_metrics.f1_score(yt, yp, mode="strict", scheme=seqeval_scheme.IOB2)


# ---------------------------------------------------------------------------
# documented differences from conlleval.pl (default mode follows seqeval)

def test_default_mode_quirks_follow_seqeval():
    cases = [
        ([["PER", "PER"]], "PER"),                  # no hyphen: chunk tag P, type ER (conlleval: type '')
        ([["B-PER", "S-PER"]], "S-"),               # S- starts and ends a chunk (conlleval: unknown tag)
        ([["B-X", ".-X", "I-X", "O"]], "dot"),      # '.' neither starts nor ends a chunk
        ([["E-A", "X-A", "O"]], "stale begin"),     # a chunk that never started reuses the last start
    ]
    for yt, _why in cases:
        yp = [["O"] * len(yt[0])]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = C.classification_report(yt, yt, output_dict=True)
            ref = seqeval_metrics.classification_report(yt, yt, output_dict=True)
            assert _same(ref, ours)
            assert _same(seqeval_metrics.f1_score(yt, yp, average=None), C.f1_score(yt, yp, average=None))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert next(iter(C.classification_report([["PER", "PER"]], [["PER", "PER"]], output_dict=True))) == "ER"


# ---------------------------------------------------------------------------
# warnings and zero division

def test_zero_division_warns_with_seqevals_message():
    from sklearn.exceptions import UndefinedMetricWarning

    yt, yp = [['B-PER', 'O']], [['O', 'O']]
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined and being set to 0.0 due to no "
                                                    "predicted samples"):
        assert C.precision_score(yt, yp) == 0.0
    assert C.precision_score(yt, yp, zero_division=1) == 1.0
    assert C.f1_score(yt, yp, zero_division=1) == 0.0


def test_sample_weight_is_checked_and_has_no_effect_as_in_seqeval():
    with pytest.warns(UserWarning, match="sample_weight has no effect"):
        assert C.f1_score(Y_TRUE, Y_PRED, sample_weight=[1, 0]) == seqeval_metrics.f1_score(
            Y_TRUE, Y_PRED, sample_weight=[1, 0]) == 0.5
    with pytest.raises(ValueError, match="sample_weight has 3 values, y_true has 2 sentences"):
        C.f1_score(Y_TRUE, Y_PRED, sample_weight=[1, 1, 1])


# ---------------------------------------------------------------------------
# bad input

@pytest.mark.parametrize("y_true, y_pred, exc, pattern", [
    (None, Y_PRED, TypeError, r"y_true is None"),
    (Y_TRUE, None, TypeError, r"y_pred is None"),
    (Y_TRUE, Y_PRED[:1], ValueError, r"y_true has 2 sentences, y_pred has 1"),
    (Y_TRUE, [Y_PRED[0], ['B-PER', 'O']], ValueError, r"sentence 1: y_true has 3 tags, y_pred has 2"),
    (Y_TRUE, [Y_PRED[0], ['B-PER', 5, 'O']], TypeError, r"y_pred: sentence 1, token 1: tag int 5 is not a string"),
    (Y_TRUE, [Y_PRED[0], ['B-PER', None, 'O']], TypeError, r"y_pred: sentence 1, token 1: tag NoneType None"),
    ([Y_TRUE], [Y_PRED], TypeError, r"y_true: sentence 0, token 0: tag list .* not a string \(a sentence nested"),
    (Y_TRUE[0], Y_PRED[0], TypeError, r"y_true: sentence 0 is str 'O'; expected a list of tag strings \(a flat"),
    ([['B-PER', '']], [['B-PER', 'O']], ValueError, r"y_true: sentence 0, token 1: the tag is an empty string"),
    (np.array(['O', 'B-PER']), np.array(['O', 'B-PER']), TypeError, r"y_true: sentence 0 is str_"),
    (np.zeros((1, 2, 2)), np.zeros((1, 2, 2)), TypeError, r"y_true is a 3-D numpy array"),
    (5, 5, TypeError, r"y_true is int 5"),
])
def test_bad_input_names_argument_sentence_and_value(y_true, y_pred, exc, pattern):
    for fn in (C.f1_score, C.classification_report):
        with pytest.raises(exc, match=pattern):
            fn(y_true, y_pred)


@pytest.mark.parametrize("kwargs, pattern", [
    ({"average": "samples"}, r"average='samples': expected one of None, 'micro', 'macro', 'weighted'"),
    ({"mode": "lenient"}, r"mode='lenient': expected None"),
    ({"mode": "strict", "scheme": "IOB3"}, r"scheme='IOB3': expected one of IOB2, IOE2, IOBES, BILOU"),
    ({"mode": "strict", "scheme": seqeval_scheme.IOB1}, r"scheme='IOB1'"),
    ({"zero_division": 0.5}, r"zero_division=0.5: expected 'warn', 0 or 1"),
])
def test_bad_options_name_the_argument(kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        C.f1_score(Y_TRUE, Y_PRED, **kwargs)


def test_bad_scheme_type_and_digits():
    with pytest.raises(TypeError, match=r"scheme=int 3"):
        C.f1_score(Y_TRUE, Y_PRED, mode="strict", scheme=3)
    with pytest.raises(ValueError, match=r"digits=-1"):
        C.classification_report(Y_TRUE, Y_PRED, digits=-1)


def test_numpy_inputs_are_read_like_lists():
    ref = C.classification_report(Y_TRUE, Y_PRED, output_dict=True)
    as_objects = np.empty(2, object)
    as_objects[0], as_objects[1] = Y_TRUE
    pred_objects = np.empty(2, object)
    pred_objects[0], pred_objects[1] = [np.array(s) for s in Y_PRED]
    assert C.classification_report(as_objects, pred_objects, output_dict=True) == ref
    square_t = np.array([s[:3] for s in Y_TRUE])   # a 2-D array of strings: rows are sentences
    square_p = np.array([s[:3] for s in Y_PRED])
    assert C.f1_score(square_t, square_p) == seqeval_metrics.f1_score(
        [list(s[:3]) for s in Y_TRUE], [list(s[:3]) for s in Y_PRED])
    bad = np.empty(2, object)
    bad[0], bad[1] = Y_TRUE[0], [1, 2, 3]
    with pytest.raises(TypeError, match=r"y_true: sentence 1, token 0: tag int 1 is not a string"):
        C.f1_score(bad, Y_PRED)
    too_deep = [[np.array(['O', 'O'])] * 7, [np.array(['O'])] * 3]  # sentences of arrays, not of tags
    with pytest.raises(TypeError, match=r"y_true: sentence 0, token 0: tag ndarray .* \(a sentence nested"):
        C.f1_score(too_deep, Y_PRED)


@pytest.mark.parametrize("y", [[], [[]], [[], []]])
def test_empty_input_warns_instead_of_a_silent_zero(y):
    empty = (C.EmptyInputWarning, "empty .* nothing to score")
    undefined = C._undefined_metric_warning()
    with expect_warnings(empty, (undefined, "F-score is ill-defined .* no true nor predicted samples")):
        assert C.f1_score(y, y) == 0.0
    with expect_warnings(empty, (undefined, "Precision and F-score are ill-defined .* no predicted samples"),
                         (undefined, "Recall and F-score are ill-defined .* no true samples"),
                         (C.UndefinedAverageWarning, "macro average over no types")):
        report = C.classification_report(y, y)
    assert "micro avg" in report
    with expect_warnings(empty):
        assert C.accuracy_score(y, y) == 0.0


def test_flat_lists_for_token_level_functions_as_in_seqeval():
    flat_t, flat_p = Y_TRUE[0], Y_PRED[0]
    assert C.accuracy_score(flat_t, flat_p) == seqeval_metrics.accuracy_score(flat_t, flat_p)
    assert C.performance_measure(flat_t, flat_p) == seqeval_metrics.performance_measure(flat_t, flat_p)
    with pytest.raises(ValueError, match="sentence 0: y_true has 7 tags, y_pred has 6"):
        C.accuracy_score(flat_t, flat_p[:-1])


# ---------------------------------------------------------------------------
# property: any tags made of a few telling characters decode as seqeval decodes them

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TAG = st.text(alphabet="OBIES.-AX_0[", min_size=1, max_size=4)
_SENT = st.lists(st.tuples(_TAG, _TAG), max_size=7)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_SENT, min_size=1, max_size=5), st.booleans())
def test_property_default_mode_equals_seqeval_on_arbitrary_tags(sentences, suffix):
    y_true = [[a for a, _ in s] for s in sentences]
    y_pred = [[b for _, b in s] for s in sentences]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in AVERAGES:
            ref = seqeval_sl.precision_recall_fscore_support(y_true, y_pred, average=average, suffix=suffix)
            ours = C.precision_recall_fscore_support(y_true, y_pred, average=average, suffix=suffix)
            assert _same(ref, ours), (y_true, y_pred, average, ref, ours)
        ref = seqeval_metrics.classification_report(y_true, y_pred, suffix=suffix, output_dict=True)
        assert _same(ref, C.classification_report(y_true, y_pred, suffix=suffix, output_dict=True))


def test_nested_stale_chunks_are_counted_in_linear_time():
    # '.-A I-A O' repeated: no chunk ever starts, so every chunk reuses begin 0 and they all
    # nest; the overlap matcher would pair k x k of them, the exact-key count stays linear
    k = 3000
    y_true = [['.-A', 'I-A', 'O'] * k]
    y_pred = [['.-A', 'I-A', 'O'] * (k - 1) + ['O', 'I-A', 'O']]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        ours = C.classification_report(y_true, y_pred, output_dict=True)
        elapsed = time.perf_counter() - t0
        assert _same(seqeval_metrics.classification_report(y_true, y_pred, output_dict=True), ours)
    assert ours["A"]["support"] == k and ours["A"]["precision"] == (k - 1) / k
    assert elapsed < 2.0


def test_both_counting_paths_agree_on_random_corpora():
    # the matcher path and the exact-key path (used when a side has nested spans) give the same counts
    rng = random.Random(21)
    compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(200):
            yt, yp = _corpus(rng, DEFAULT_POOL)
            d = C.decode(C.read_tags(yt, yp))
            via_matcher = segment_counts(d.gold, d.pred, match(d.gold, d.pred), len(d.labels), 0, 0).gold_hit
            assert via_matcher.tolist() == C._exact_hits(d.gold, d.pred, len(d.labels)).tolist()
            compared += C.overlapping(d.gold) or C.overlapping(d.pred)
    assert compared > 5  # some corpora do have nested chunks


# ---------------------------------------------------------------------------
# the warning and exception classes a caller of seqeval filters or catches (issue 17, point 11)

def _warning_classes(fn, *args, **kwargs):
    """(result or the exception's class, the classes of the warnings ``fn`` emits)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args, **kwargs)
        except Exception as err:  # the class is what is compared
            out = type(err)
    return out, {w.category for w in caught}


EDGE_CORPORA = [([[]], [[]]), ([["O"]], [["O"]]), ([["B-PER"]], [["O"]]), ([["O"]], [["B-PER"]]),
                ([["B-PER"]], [["B-PER"]]), ([["B-PER", "I-PER"]], [["B-LOC", "O"]])]


@pytest.mark.parametrize("y_true,y_pred", EDGE_CORPORA)
@pytest.mark.parametrize("mode,scheme", [(None, None), ("strict", "IOB2")])
def test_every_warning_class_seqeval_emits_is_one_a_filter_for_it_catches(y_true, y_pred, mode, scheme):
    """seqeval's own test suite does ``pytest.warns(RuntimeWarning)`` around
    ``f1_score([[]], [[]], average='macro')`` (numpy's mean of an empty slice): every class of warning
    seqeval emits must be the class (or a base class) of a warning ours emits, same value."""
    for name in ("precision_score", "recall_score", "f1_score"):
        for average in AVERAGES:
            ref_scheme = getattr(seqeval_scheme, scheme) if scheme else None
            ref, ref_classes = _warning_classes(getattr(seqeval_metrics, name), y_true, y_pred, average=average,
                                                mode=mode, scheme=ref_scheme)
            ours, our_classes = _warning_classes(getattr(C, name), y_true, y_pred, average=average, mode=mode,
                                                 scheme=scheme)
            assert _same(ref, ours), (name, average, ref, ours)
            for cls in ref_classes - {UserWarning}:    # seqeval's "seems not to be NE tag" is a UserWarning
                assert any(issubclass(c, cls) for c in our_classes), (name, average, cls, our_classes)


def test_seqevals_runtime_warning_test_passes_here():
    for mode, scheme in [(None, None), ("strict", "IOB2")]:
        with expect_warnings((RuntimeWarning, "macro average over no types"),
                             (C.EmptyInputWarning, "nothing to score")):
            assert math.isnan(C.f1_score([[]], [[]], average="macro", mode=mode, scheme=scheme))


@pytest.mark.parametrize("y_true,y_pred", [
    ([["B-PER", "X-PER"]], [["B-PER", "O"]]), ([["B-PER", "O"]], [["B-PER", "X-PER"]]),
    ([["B-PER", "PER"]], [["B-PER", "O"]]), ([["B-PER", "S-PER"]], [["B-PER", "O"]]),
    ([["B-PER", "O"]], [["ANY-PER", "O"]]), ([["PER-B", "PER-Q"]], [["PER-B", "O"]]),
])
@pytest.mark.parametrize("scheme", ["IOB2", "IOBES", None])
def test_a_bad_tag_in_strict_mode_raises_what_seqeval_raises(y_true, y_pred, scheme):
    """seqeval raises KeyError for a prefix letter it does not know and ValueError for a known one the
    scheme lacks: ours is an instance of the same class (it may be both)."""
    suffix = y_true[0][0].endswith("-B")
    for name, extra in [("classification_report", {"output_dict": True}), ("f1_score", {})]:
        ref, _ = _warning_classes(getattr(seqeval_metrics, name), y_true, y_pred, mode="strict", suffix=suffix,
                                  scheme=getattr(seqeval_scheme, scheme) if scheme else None, **extra)
        ours, _ = _warning_classes(getattr(C, name), y_true, y_pred, mode="strict", scheme=scheme, suffix=suffix,
                                   **extra)
        if isinstance(ref, type):
            assert isinstance(ours, type) and issubclass(ours, ref), (name, scheme, ref, ours)
        else:
            assert _same(ref, ours), (name, scheme, ref, ours)
