"""Invariants over random tag sequences and span lists (hypothesis)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support import unit_matrix, unit_weights

import ts_eval
from ts_eval.core import measures
from ts_eval.core.sequences import from_spans
from ts_eval.models.evaluate import evaluate

LABELS = ["PER", "LOC", "ARGM-TMP"]
TAGS = ["O", "O", "O"] + [f"{p}-{lab}" for lab in LABELS for p in "BI"]
WEIGHTS = st.sampled_from([1.0, 0.5, 0.0, 0.25, 2.0])
FAST = settings(max_examples=40, deadline=None)


@st.composite
def tag_corpus(draw, n_systems=1):
    """Gold and system tag sequences (IOB2 tags, ill-formed ones included)."""
    lengths = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6))
    sides = [[draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)) for n in lengths]
             for _ in range(1 + n_systems)]
    return sides


@st.composite
def span_corpus(draw):
    """Sentence lengths and span lists (overlapping and nested spans allowed)."""
    lengths = draw(st.lists(st.integers(1, 8), min_size=1, max_size=5))
    sides = []
    for _ in range(2):
        side = []
        for n in lengths:
            spans = draw(st.lists(st.tuples(st.sampled_from(LABELS), st.integers(0, n - 1), st.integers(0, 3)),
                                  max_size=4))
            side.append(sorted({(lab, b, min(n, b + d + 1)) for lab, b, d in spans}))   # end exclusive
        sides.append(side)
    return lengths, sides[0], sides[1]


def has_spans(seqs):
    return any(t != "O" for s in seqs for t in s)


def counts(model_rows):
    """Flat {(label, count name): value} of a model's per-label rows."""
    return {(k, c): v[c] for k, v in model_rows.items()
            for c in ("tp", "fp", "fn", "tn", "gold", "system") if c in v}


# ---------------------------------------------------------------------------

@pytest.mark.slow
@FAST
@given(tag_corpus(), WEIGHTS)
def test_identical_input_scores_one(sides, w):
    gold = sides[0]
    assume(has_spans(gold))
    rep = ts_eval.score(gold, gold, separator_weight=w)
    s = rep.systems[0]
    for scope in (s["ts"]["micro"], s["ts"]["macro"], *s["ts"]["labels"].values()):
        for m in ("precision", "recall", "f", "kappa", "accuracy"):
            assert scope[m] == pytest.approx(1.0), (m, scope)
    for scope in (s["exact"]["micro"], s["exact"]["macro"], *s["exact"]["labels"].values()):
        for m in ("precision", "recall", "f"):
            assert scope[m] == 1.0
    assert s["ts"]["multiclass_kappa"] == pytest.approx(1.0)
    assert s["exact"]["token_accuracy"] == 1.0


@pytest.mark.slow
@FAST
@given(span_corpus())
def test_identical_spans_score_one(data):
    lengths, gold, _ = data
    assume(any(gold))
    s = evaluate(from_spans(lengths, gold, gold)).systems[0]
    for m in ("precision", "recall", "f", "kappa"):
        assert s["ts"]["micro"][m] == pytest.approx(1.0)
        assert s["ts"]["macro"][m] == pytest.approx(1.0)
    assert s["exact"]["micro"]["f"] == 1.0


@pytest.mark.slow
@FAST
@given(tag_corpus(), WEIGHTS)
def test_swapping_gold_and_system_swaps_precision_and_recall(sides, w):
    gold, pred = sides
    assume(has_spans(gold) or has_spans(pred))
    ab = ts_eval.score(gold, pred, separator_weight=w).systems[0]
    ba = ts_eval.score(pred, gold, separator_weight=w).systems[0]
    for model in ("ts", "exact"):
        rows = [(ab[model]["micro"], ba[model]["micro"]), (ab[model]["macro"], ba[model]["macro"])]
        rows += [(ab[model]["labels"][k], ba[model]["labels"][k]) for k in ab[model]["labels"]]
        for x, y in rows:
            assert x["precision"] == pytest.approx(y["recall"])
            assert x["recall"] == pytest.approx(y["precision"])
            assert x["f"] == pytest.approx(y["f"])
            if "kappa" in x:
                assert x["kappa"] == pytest.approx(y["kappa"])
                assert x["accuracy"] == pytest.approx(y["accuracy"])
    for k, x in ab["ts"]["labels"].items():
        y = ba["ts"]["labels"][k]
        assert (x["tp"], x["fp"], x["fn"], x["tn"]) == pytest.approx((y["tp"], y["fn"], y["fp"], y["tn"]))
    for k, x in ab["exact"]["labels"].items():
        y = ba["exact"]["labels"][k]
        assert (x["gold"], x["system"], x["tp"]) == (y["system"], y["gold"], y["tp"])
    if ab["ts"]["multiclass_kappa"] is not None:
        assert ab["ts"]["multiclass_kappa"] == pytest.approx(ba["ts"]["multiclass_kappa"])


@pytest.mark.slow
@FAST
@given(span_corpus())
def test_swapping_spans_swaps_precision_and_recall(data):
    lengths, gold, pred = data
    ab = evaluate(from_spans(lengths, gold, pred)).systems[0]
    ba = evaluate(from_spans(lengths, pred, gold)).systems[0]
    for model in ("ts", "exact"):
        assert ab[model]["micro"]["precision"] == pytest.approx(ba[model]["micro"]["recall"])
        assert ab[model]["micro"]["recall"] == pytest.approx(ba[model]["micro"]["precision"])
        for k in ab[model]["labels"]:
            assert ab[model]["labels"][k]["precision"] == pytest.approx(ba[model]["labels"][k]["recall"])


@pytest.mark.slow
@FAST
@given(span_corpus(), WEIGHTS)
def test_table_total_is_the_weighted_number_of_units(data, w):
    lengths, gold, pred = data
    assume(any(gold) or any(pred))
    rep = evaluate(from_spans(lengths, gold, pred), separator_weight=w)
    total = sum(lengths) + w * sum(n - 1 for n in lengths)
    ts = rep.systems[0]["ts"]
    for row in ts["labels"].values():
        assert row["tp"] + row["fp"] + row["fn"] + row["tn"] == pytest.approx(total)
        assert min(row["tp"], row["fp"], row["fn"], row["tn"]) >= 0
    m = ts["micro"]
    assert m["tp"] + m["fp"] + m["fn"] + m["tn"] == pytest.approx(total * len(rep.labels))


@pytest.mark.slow
@FAST
@given(span_corpus(), WEIGHTS)
def test_counts_equal_the_unit_vectors(data, w):
    lengths, gold, pred = data
    assume(any(gold) or any(pred))
    rep = evaluate(from_spans(lengths, gold, pred), separator_weight=w)
    Y, P = unit_matrix(lengths, gold, rep.labels), unit_matrix(lengths, pred, rep.labels)
    wt = unit_weights(lengths, w)
    for k, lab in enumerate(rep.labels):
        row = rep.systems[0]["ts"]["labels"][lab]
        assert row["tp"] == pytest.approx(wt @ (Y[:, k] & P[:, k]))
        assert row["fp"] == pytest.approx(wt @ ((1 - Y[:, k]) & P[:, k]))
        assert row["fn"] == pytest.approx(wt @ (Y[:, k] & (1 - P[:, k])))


@pytest.mark.slow
@FAST
@given(tag_corpus(n_systems=2), WEIGHTS, st.sampled_from([0.5, 1.0, 2.0]))
def test_micro_is_computed_from_the_summed_table(sides, w, beta):
    gold, a, b = sides
    assume(has_spans(gold) or has_spans(a) or has_spans(b))
    rep = ts_eval.score(gold, {"a": a, "b": b}, separator_weight=w, beta=beta)
    for s in rep.systems:
        rows = list(s["ts"]["labels"].values())
        # micro sums the tables of the labels present for this system (gold or system units);
        # with none present, the table of an absent label: 0, 0, 0, all units
        summed = [r for r in rows if r["present"]] or [dict(tp=0, fp=0, fn=0, tn=rows[0]["tn"])]
        tp, fp, fn, tn = (sum(r[c] for r in summed) for c in ("tp", "fp", "fn", "tn"))
        m = s["ts"]["micro"]
        assert (m["tp"], m["fp"], m["fn"], m["tn"]) == pytest.approx((tp, fp, fn, tn))
        assert m["f"] == pytest.approx(measures.fbeta(tp, fp, fn, beta))
        assert m["precision"] == pytest.approx(measures.precision(tp, fp))
        assert m["kappa"] == pytest.approx(measures.kappa(tp, fp, fn, tn))
        ex = s["exact"]
        g, f, c = (sum(r[k] for r in ex["labels"].values()) for k in ("gold", "system", "tp"))
        assert (ex["micro"]["gold"], ex["micro"]["system"], ex["micro"]["tp"]) == (g, f, c)
        assert ex["micro"]["f"] == pytest.approx(measures.fbeta(c, f - c, g - c, beta))
        # macro: the mean over the present labels
        present = [r for r in rows if r["present"]]
        assert s["ts"]["macro"]["labels_averaged"] == len(present)
        assert s["ts"]["macro"]["f"] == pytest.approx(np.mean([r["f"] for r in present]) if present else 0.0)


@FAST
@given(tag_corpus(), st.randoms(use_true_random=False), WEIGHTS)
def test_sentence_order_does_not_matter(sides, rnd, w):
    gold, pred = sides
    order = list(range(len(gold)))
    rnd.shuffle(order)
    a = ts_eval.score(gold, pred, separator_weight=w).systems[0]
    b = ts_eval.score([gold[k] for k in order], [pred[k] for k in order], separator_weight=w).systems[0]
    for model in ("ts", "exact"):
        assert counts(a[model]["labels"]) == pytest.approx(counts(b[model]["labels"]))
        assert a[model]["micro"] == pytest.approx(b[model]["micro"])
        assert a[model]["macro"] == pytest.approx(b[model]["macro"])
    assert a["exact"]["token_accuracy"] == b["exact"]["token_accuracy"]
    if a["ts"]["multiclass_kappa"] is not None:
        assert a["ts"]["multiclass_kappa"] == pytest.approx(b["ts"]["multiclass_kappa"])


@pytest.mark.slow
@FAST
@given(span_corpus(), st.randoms(use_true_random=False))
def test_span_sentence_order_does_not_matter(data, rnd):
    lengths, gold, pred = data
    order = list(range(len(lengths)))
    rnd.shuffle(order)
    a = evaluate(from_spans(lengths, gold, pred)).systems[0]
    b = evaluate(from_spans([lengths[k] for k in order], [gold[k] for k in order],
                                    [pred[k] for k in order])).systems[0]
    for model in ("ts", "exact"):
        assert counts(a[model]["labels"]) == pytest.approx(counts(b[model]["labels"]))


@pytest.mark.slow
@FAST
@given(tag_corpus())
def test_separator_weight_is_linear(sides):
    # TP(w) = TP_tok + w * TP_sep for every label
    gold, pred = sides
    assume(has_spans(gold) or has_spans(pred))
    r0, r1, r3 = (ts_eval.score(gold, pred, separator_weight=w).systems[0]["ts"]["labels"] for w in (0, 1, 3))
    for k in r0:
        for c in ("tp", "fp", "fn"):
            assert r3[k][c] == pytest.approx(r0[k][c] + 3 * (r1[k][c] - r0[k][c]))
            assert r1[k][c] == r1[k]["token"][c] + r1[k]["separator"][c]


@FAST
@given(tag_corpus())
def test_all_labels_row_covers_at_least_the_union_of_matches(sides):
    gold, pred = sides
    assume(has_spans(gold) and has_spans(pred))
    ts = ts_eval.score(gold, pred, all_labels_row=True).systems[0]["ts"]
    row = ts["all_labels"]
    # a unit is a TP of the supertag whenever it is a TP of some label
    assert row["tp"] >= max(r["tp"] for r in ts["labels"].values())
    assert row["tp"] + row["fn"] >= max(r["tp"] + r["fn"] for r in ts["labels"].values())
