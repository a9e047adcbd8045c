"""TS scores: the paper's worked examples, hand-computed tables, and agreement with scikit-learn.

Esuli & Sebastiani (2010), section 4, Table 1: "The quick brown fox jumps over the lazy dog",
true segments "quick brown" and "lazy dog", predicted "quick brown fox", "lazy", "dog".
Units (1-based in the paper, 17 of them): TP = quick, sep, brown, lazy, dog (5);
FP = sep, fox (2); FN = the separator between lazy and dog (1); TN = 17 - 8 = 9.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, cohen_kappa_score, precision_recall_fscore_support
from support import iob2, random_spans, unit_classes, unit_matrix, unit_weights

import ts_eval
from ts_eval.core import measures
from ts_eval.core.sequences import from_sequences, from_spans
from ts_eval.models.evaluate import evaluate

TABLE1_TOKENS = "The quick brown fox jumps over the lazy dog".split()
TABLE1_GOLD = ["O", "B-C", "I-C", "O", "O", "O", "O", "B-C", "I-C"]
TABLE1_PRED = ["O", "B-C", "I-C", "I-C", "O", "O", "O", "B-C", "B-C"]


def ts_row(report, label=None, system=0):
    ts = report.systems[system]["ts"]
    return ts["micro"] if label is None else ts["labels"][label]


# ---------------------------------------------------------------------------
# Table 1

def test_table1_ts_f1_is_0769():
    rep = ts_eval.score([TABLE1_GOLD], [TABLE1_PRED])
    row = ts_row(rep, "C")
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (5, 2, 1, 9)
    assert row["token"] == {"tp": 4, "fp": 1, "fn": 0}
    assert row["separator"] == {"tp": 1, "fp": 1, "fn": 1}
    assert row["f"] == pytest.approx(10 / 13)
    assert round(row["f"], 3) == 0.769
    assert row["precision"] == pytest.approx(5 / 7)
    assert row["recall"] == pytest.approx(5 / 6)
    assert row["accuracy"] == pytest.approx(14 / 17)
    # kappa: po = 14/17, pe = (7*6 + 10*11) / 17^2 = 152/289 -> (238-152)/(289-152)
    assert row["kappa"] == pytest.approx(86 / 137)
    # the exact-match model gives F1 = 0: no segment is perfectly recognised
    ex = rep.systems[0]["exact"]["micro"]
    assert (ex["gold"], ex["system"], ex["tp"], ex["f"]) == (2, 3, 0, 0.0)


def test_table1_separator_weight_half_gives_0818():
    rep = ts_eval.score([TABLE1_GOLD], [TABLE1_PRED], separator_weight=0.5)
    row = ts_row(rep, "C")
    assert (row["tp"], row["fp"], row["fn"]) == (4.5, 1.5, 0.5)
    assert row["tn"] == pytest.approx(9 + 0.5 * 8 - 6.5)  # 9 tokens + 8 half separators - positives
    assert row["f"] == pytest.approx(9 / 11)
    assert round(row["f"], 3) == 0.818


def test_table1_separator_weight_zero_is_token_only_model():
    rep = ts_eval.score([TABLE1_GOLD], [TABLE1_PRED], separator_weight=0.0)
    row = ts_row(rep, "C")
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (4, 1, 0, 4)
    assert row["precision"] == pytest.approx(0.8)
    assert row["recall"] == 1.0
    assert row["f"] == pytest.approx(8 / 9)


def test_table1_from_spans_gives_the_same_table():
    corpus = from_spans([9], [[("C", 1, 3), ("C", 7, 9)]], [[("C", 1, 4), ("C", 7, 8), ("C", 8, 9)]])
    row = ts_row(evaluate(corpus), "C")
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (5, 2, 1, 9)


def test_table1_beta_two():
    rep = ts_eval.score([TABLE1_GOLD], [TABLE1_PRED], beta=2.0)
    # F2 = 5 TP / (5 TP + 4 FN + FP) = 25 / 31
    assert ts_row(rep, "C")["f"] == pytest.approx(25 / 31)
    assert ts_row(rep)["f"] == pytest.approx(25 / 31)
    assert rep.settings["beta"] == 2.0


# ---------------------------------------------------------------------------
# other examples of the paper

def test_barack_obama_vs_obama_one_tp_two_fn():
    tokens = "Barack Obama , Hillary Clinton and Joe Biden".split()
    gold = [["B-PER", "I-PER", "O", "O", "O", "O", "O", "O"]]
    pred = [["O", "B-PER", "O", "O", "O", "O", "O", "O"]]
    assert len(tokens) == 8
    row = ts_row(ts_eval.score(gold, pred), "PER")
    assert (row["tp"], row["fp"], row["fn"]) == (1, 0, 2)
    assert row["tn"] == 15 - 3


def test_perfect_tagger_does_not_tag_the_comma_separator():
    # Barack Obama, Hillary Clinton and Joe Biden: three PER segments
    gold = [[("PER", 0, 2), ("PER", 3, 5), ("PER", 6, 8)]]
    joined = [[("PER", 0, 5), ("PER", 6, 8)]]  # "Barack Obama , Hillary Clinton" as one segment
    rep = evaluate(from_spans([8], gold, joined))
    row = ts_row(rep, "PER")
    # the joined segment adds the comma token and the separators on both sides of it
    assert (row["tp"], row["fp"], row["fn"]) == (9, 3, 0)


def san_diego(all_labels_row: bool):
    # I live in San Diego . / and Bob too : PER exists in gold elsewhere
    gold = [["O", "O", "O", "B-LOC", "I-LOC", "O"], ["O", "B-PER", "O"]]
    pred = [["O", "O", "O", "B-PER", "I-PER", "O"], ["O", "B-PER", "O"]]
    return ts_eval.score(gold, pred, all_labels_row=all_labels_row)


def test_san_diego_tag_switch_three_fn_and_three_fp():
    rep = san_diego(False)
    loc, per = ts_row(rep, "LOC"), ts_row(rep, "PER")
    units = 11 + 5
    assert (loc["tp"], loc["fp"], loc["fn"], loc["tn"]) == (0, 0, 3, units - 3)
    assert (per["tp"], per["fp"], per["fn"], per["tn"]) == (1, 3, 0, units - 4)
    micro = ts_row(rep)
    assert (micro["tp"], micro["fp"], micro["fn"], micro["tn"]) == (1, 3, 3, 2 * units - 7)
    assert "all_labels" not in rep.systems[0]["ts"]
    ex = rep.systems[0]["exact"]["labels"]
    assert (ex["LOC"]["gold"], ex["LOC"]["system"], ex["LOC"]["tp"]) == (1, 0, 0)
    assert (ex["PER"]["gold"], ex["PER"]["system"], ex["PER"]["tp"]) == (1, 2, 1)


def test_entity_supertag_row_makes_the_tag_switch_all_true_positives():
    rep = san_diego(True)
    row = rep.systems[0]["ts"]["all_labels"]
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (4, 0, 0, 12)
    assert row["f"] == row["precision"] == row["recall"] == row["kappa"] == 1.0
    assert rep.settings["all_labels_row"] is True


def test_entity_row_keeps_adjacent_segments_of_different_labels_apart():
    # PER 0-1 directly followed by LOC 2-2: as ENTITY the separator between them is outside
    gold = [[("PER", 0, 2), ("LOC", 2, 3)]]
    pred = [[("PER", 0, 3)]]
    rep = evaluate(from_spans([3], gold, pred), all_labels_row=True)
    row = rep.systems[0]["ts"]["all_labels"]
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (4, 1, 0, 0)


def test_multiclass_kappa_san_diego_by_hand():
    gold = [["O", "O", "O", "B-LOC", "I-LOC", "O"]]
    pred = [["O", "O", "O", "B-PER", "I-PER", "O"]]
    rep = ts_eval.score(gold, pred)
    # 11 units: 8 outside/outside, 3 LOC/PER. po = 8/11, pe = 8*8/121 -> 24/57
    assert rep.systems[0]["ts"]["multiclass_kappa"] == pytest.approx(24 / 57)


# ---------------------------------------------------------------------------
# micro, macro and the zero-division rule

def test_micro_sums_tables_and_macro_averages_present_labels():
    gold = {"a": [[("PER", 0, 2), ("LOC", 3, 4)]], "b": [[("PER", 0, 2), ("LOC", 3, 4)]]}
    systems = {"a": [[("PER", 0, 2)]], "b": [[("PER", 0, 2), ("MISC", 4, 5)]]}
    corpus = from_spans([5], gold["a"], systems)
    rep = evaluate(corpus)
    assert rep.labels == ["LOC", "MISC", "PER"]
    a, b = rep.system("a")["ts"], rep.system("b")["ts"]
    # system a: PER perfect (3 TP), LOC missed (1 FN), MISC absent on both sides
    assert a["labels"]["MISC"]["present"] is False
    assert (a["labels"]["MISC"]["tp"], a["labels"]["MISC"]["fp"], a["labels"]["MISC"]["fn"]) == (0, 0, 0)
    assert a["macro"]["labels_averaged"] == 2
    assert a["macro"]["f"] == pytest.approx((1.0 + 0.0) / 2)
    assert a["macro"]["precision"] == pytest.approx((1.0 + 0.0) / 2)  # LOC: 0/0 -> 0.0
    assert a["micro"]["tp"] == 3 and a["micro"]["fn"] == 1 and a["micro"]["fp"] == 0
    # micro sums the tables of a's present labels (PER, LOC): MISC, which only b uses,
    # adds no true negatives to a's table (issue #9.1)
    assert a["micro"]["tn"] == 2 * 9 - 4
    assert a["micro"]["kappa"] == pytest.approx(measures.kappa(3, 0, 1, 2 * 9 - 4))
    assert a["micro"]["f"] == pytest.approx(2 * 3 / (2 * 3 + 1))
    # system b: MISC is a false positive, so it is present and averaged with scores 0
    assert b["labels"]["MISC"]["present"] is True
    assert b["macro"]["labels_averaged"] == 3
    assert b["macro"]["f"] == pytest.approx(1 / 3)
    assert b["micro"]["f"] == pytest.approx(6 / (6 + 1 + 1))
    # the exact model follows the same rule
    assert rep.system("a")["exact"]["macro"]["labels_averaged"] == 2
    assert rep.system("b")["exact"]["macro"]["f"] == pytest.approx(1 / 3)


def test_macro_rule_is_stated_in_the_settings():
    rep = ts_eval.score([TABLE1_GOLD], [TABLE1_PRED])
    assert "left out" in rep.settings["macro_average"]
    assert "add nothing" in rep.settings["micro_average"]
    assert rep.settings["zero_division"] == 0.0


def test_zero_division_and_degenerate_kappa():
    assert measures.precision(0, 0) == 0.0
    assert measures.recall(0, 0) == 0.0
    assert measures.fbeta(0, 0, 0) == 0.0
    assert measures.accuracy(0, 0, 0, 0) == 0.0
    assert measures.kappa(0, 0, 0, 10) == 1.0   # both sides constant and equal
    assert measures.kappa(10, 0, 0, 0) == 1.0
    assert measures.kappa(0, 0, 5, 5) == 0.0    # system constant, gold not
    assert measures.multiclass_kappa(np.zeros((3, 3))) == 1.0
    assert measures.multiclass_kappa(np.diag([3.0, 4.0, 5.0])) == 1.0


def test_kappa_of_a_rare_label_in_a_huge_corpus_is_not_one():
    """1 - pe = 4e-9 here: no absolute tolerance may take it for 0 (issue #9.3)."""
    # po = 1 - 2e-9, pe = (4 + (1e9 - 2)^2) / 1e18: kappa = 2 (tp tn - fn fp) / (...) = 0.5 - 1e-9
    assert measures.kappa(1, 1, 1, 1e9 - 3) == pytest.approx(0.499999999, rel=1e-9)
    assert measures.kappa(1, 0, 0, 1e12) == 1.0           # a perfect rare label
    assert measures.kappa(0, 1, 0, 1e12) == 0.0           # gold constant, system not
    assert measures.kappa(1e-6, 0, 1e-6, 0) == 0.0        # tiny weighted counts are not "no units"
    # the boundary: expected agreement exactly 1 <=> both sides constant and equal (or no units)
    assert measures.kappa(0, 0, 0, 0) == 1.0
    assert measures.kappa(np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([0.0, 1.0]),
                          np.array([7.0, 1e9 - 3])).tolist() == pytest.approx([1.0, 0.499999999], rel=1e-9)
    # multi-class: a rare class in a huge corpus, against sklearn's formula
    c = np.array([[1e9 - 3, 1.0], [1.0, 1.0]])
    assert measures.multiclass_kappa(c) == pytest.approx(0.499999999, rel=1e-9)
    assert measures.multiclass_kappa([[0.0, 5.0], [0.0, 0.0]]) == 0.0   # constant, unequal sides
    assert measures.multiclass_kappa([[0.0, 0.0], [0.0, 5.0]]) == 1.0   # one diagonal cell


def test_measures_by_hand_vectorised():
    tp, fp, fn, tn = np.array([5.0, 0.0]), np.array([2.0, 3.0]), np.array([1.0, 0.0]), np.array([9.0, 8.0])
    sc = measures.scores(tp, fp, fn, tn, beta=0.5)
    assert sc["precision"].tolist() == pytest.approx([5 / 7, 0.0])
    assert sc["recall"].tolist() == pytest.approx([5 / 6, 0.0])
    # F0.5 = 1.25 TP / (1.25 TP + 0.25 FN + FP)
    assert sc["f"].tolist() == pytest.approx([6.25 / (6.25 + 0.25 + 2), 0.0])
    assert sc["accuracy"].tolist() == pytest.approx([14 / 17, 8 / 11])
    # second row: gold all negative, system 3 positives: po = 8/11, pe = (3*0 + 11*8)/121
    assert sc["kappa"][1] == pytest.approx(0.0)
    mac = measures.macro({"f": np.array([0.5, 1.0, 0.2])}, np.array([True, True, False]))
    assert mac["f"] == pytest.approx(0.75)
    assert measures.macro({"f": np.array([0.5])}, np.array([False]))["f"] == 0.0


# ---------------------------------------------------------------------------
# agreement with scikit-learn on the same unit vectors

LABELS = ["LOC", "ORG", "PER", "ARGM-TMP"]


def random_corpus(seed: int, overlapping: bool, n_sent: int = 30):
    rng = np.random.default_rng(seed)
    lengths = [int(rng.integers(1, 12)) for _ in range(n_sent)]
    gold = [random_spans(rng, n, LABELS, overlapping) for n in lengths]
    pred = [random_spans(rng, n, LABELS, overlapping) for n in lengths]
    return lengths, gold, pred


def sk_binary(y_true, y_pred, w):
    p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average="binary", sample_weight=w,
                                                 zero_division=0)
    return p, r, f


@pytest.mark.parametrize("weight", [1.0, 0.5, 0.0, 2.0])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("overlapping", [False, True])
def test_per_label_and_micro_scores_equal_sklearn(seed, weight, overlapping):
    lengths, gold, pred = random_corpus(seed, overlapping)
    rep = evaluate(from_spans(lengths, gold, pred), separator_weight=weight)
    labels = rep.labels
    Y = unit_matrix(lengths, gold, labels)
    P = unit_matrix(lengths, pred, labels)
    w = unit_weights(lengths, weight)
    ts = rep.systems[0]["ts"]
    for k, lab in enumerate(labels):
        row = ts["labels"][lab]
        y, p = Y[:, k], P[:, k]
        assert row["tp"] == pytest.approx(w[(y == 1) & (p == 1)].sum())
        assert row["fp"] == pytest.approx(w[(y == 0) & (p == 1)].sum())
        assert row["fn"] == pytest.approx(w[(y == 1) & (p == 0)].sum())
        assert row["tn"] == pytest.approx(w[(y == 0) & (p == 0)].sum())
        sp, sr, sf = sk_binary(y, p, w)
        assert row["precision"] == pytest.approx(sp)
        assert row["recall"] == pytest.approx(sr)
        assert row["f"] == pytest.approx(sf)
        assert row["accuracy"] == pytest.approx(accuracy_score(y, p, sample_weight=w))
        sk_kappa = cohen_kappa_score(y, p, sample_weight=w)
        assert row["kappa"] == pytest.approx(1.0 if math.isnan(sk_kappa) else sk_kappa)
    # micro = scores of the summed tables = sklearn's multilabel micro average
    mp, mr, mf, _ = precision_recall_fscore_support(Y, P, average="micro", sample_weight=w, zero_division=0)
    assert ts["micro"]["precision"] == pytest.approx(mp)
    assert ts["micro"]["recall"] == pytest.approx(mr)
    assert ts["micro"]["f"] == pytest.approx(mf)
    flat_w = np.tile(w[:, None], (1, len(labels))).ravel()
    assert ts["micro"]["kappa"] == pytest.approx(cohen_kappa_score(Y.ravel(), P.ravel(), sample_weight=flat_w))
    assert ts["micro"]["accuracy"] == pytest.approx(accuracy_score(Y.ravel(), P.ravel(), sample_weight=flat_w))
    # macro over the labels present (here every label of the report has units somewhere)
    present = [k for k, lab in enumerate(labels) if (Y[:, k] | P[:, k]).any()]
    Mp, Mr, Mf, _ = precision_recall_fscore_support(Y, P, average="macro", labels=present, sample_weight=w,
                                                    zero_division=0)
    assert ts["macro"]["precision"] == pytest.approx(Mp)
    assert ts["macro"]["recall"] == pytest.approx(Mr)
    assert ts["macro"]["f"] == pytest.approx(Mf)
    assert ts["macro"]["labels_averaged"] == len(present)


@pytest.mark.parametrize("weight", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("seed", range(6))
def test_multiclass_kappa_equals_sklearn_on_single_tag_data(seed, weight):
    lengths, gold, pred = random_corpus(100 + seed, overlapping=False)
    # through tag sequences, the way users give single-tag data
    rep = ts_eval.score([iob2(n, s) for n, s in zip(lengths, gold)],
                        [iob2(n, s) for n, s in zip(lengths, pred)], separator_weight=weight)
    labels = rep.labels
    yc, pc = unit_classes(lengths, gold, labels), unit_classes(lengths, pred, labels)
    w = unit_weights(lengths, weight)
    expected = cohen_kappa_score(yc, pc, sample_weight=w)
    assert rep.systems[0]["ts"]["multiclass_kappa"] == pytest.approx(expected)


def test_multiclass_kappa_is_none_when_a_unit_has_two_labels():
    corpus = from_spans([4], [[("ORG", 0, 4), ("LOC", 2, 4)]], [[("ORG", 0, 4)]])
    ts = evaluate(corpus).systems[0]["ts"]
    assert ts["multiclass_kappa"] is None
    assert (ts["labels"]["ORG"]["tp"], ts["labels"]["ORG"]["fp"], ts["labels"]["ORG"]["fn"]) == (7, 0, 0)
    assert (ts["labels"]["LOC"]["tp"], ts["labels"]["LOC"]["fp"], ts["labels"]["LOC"]["fn"]) == (0, 0, 3)


def test_evaluate_rejects_bad_weights():
    corpus = from_sequences([TABLE1_GOLD], [TABLE1_PRED])
    with pytest.raises(ValueError):
        evaluate(corpus, separator_weight=-0.5)
    with pytest.raises(ValueError):
        evaluate(corpus, beta=0)
