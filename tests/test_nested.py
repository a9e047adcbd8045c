"""Nested and overlapping spans through every model (#12.6), on hand-worked examples.

Semantics (README "Nested and overlapping spans"): TS gives every label its own unit vector
(spans of one label are merged); exact judges every span alone; overlap, constrained and
contain are many-to-many (one system span may hit several gold spans and the other way
round); fair errors are one-to-one (each span in one outcome, exact matches first); compare's
token view labels a token with all its labels joined by '+', its span view uses the fair
outcomes; rank_corpus gives the numbers evaluate gives.  Spans below are ``(label, start, end)`` token
offsets with ``end`` exclusive (from_spans); comments write ranges first..last.
"""
from __future__ import annotations

import pytest

import ts_eval
from ts_eval.core.sequences import from_spans

MODELS = ("ts", "exact", "overlap", "constrained", "contain", "fair")
# GENIA-like: "the IL-2 receptor alpha chain binds": protein IL-2 inside the complex
PROTEIN_IN_COMPLEX = [("complex", 1, 5), ("protein", 1, 2)]


def run(lengths, gold, system):
    c = from_spans(lengths, gold, {"s": system})
    return c, ts_eval.score(c, models=MODELS).systems[0]


def seg(s, model):
    """(gold, found, gold hit, found hit) per model, summed over labels."""
    m = s[model]["micro"]
    if model == "exact":
        return m["gold"], m["system"], m["tp"], m["tp"]
    return m["gold"], m["system"], m["gold_hit"], m["system_hit"]


def fair_counts(s, label):
    row = s["fair"]["fair"]["labels"][label]
    return {k: row[k.lower()] for k in ("TP", "FP", "FN", "LE", "BES", "BEL", "BEO", "LBE") if row[k.lower()]}


def test_protein_inside_complex_with_a_boundary_error_on_the_protein():
    c, s = run([6], [PROTEIN_IN_COMPLEX], [[("complex", 1, 5), ("protein", 1, 3)]])
    assert seg(s, "exact") == (2, 2, 1, 1)            # complex right, protein [1,2] != [1,1]
    assert seg(s, "overlap") == (2, 2, 2, 2)
    assert seg(s, "constrained") == (2, 2, 2, 2)      # one spurious token <= k1 = 1
    assert seg(s, "contain") == (2, 2, 2, 2)          # [1,2] contains [1,1]
    ts = s["ts"]["labels"]                            # 6 tokens = 11 units per label
    assert (ts["complex"]["tp"], ts["complex"]["fp"], ts["complex"]["fn"]) == (7, 0, 0)
    assert (ts["protein"]["tp"], ts["protein"]["fp"], ts["protein"]["fn"]) == (1, 2, 0)
    assert s["ts"]["micro"]["f"] == pytest.approx(16 / 18)        # TP 8, FP 2, FN 0
    assert s["ts"]["macro"]["f"] == pytest.approx((1 + 0.5) / 2)  # protein P 1/3, R 1
    assert fair_counts(s, "complex") == {"TP": 1}
    assert fair_counts(s, "protein") == {"BEL": 1}    # no LBE with the complex: it is matched exactly
    assert s["source"]["nested"] == 1 and c.gold_info.summary()["nested"] == 1


def test_same_label_nesting():
    # gold X over 0..3 and X over 2..3; the system finds the outer one only
    c, s = run([4], [[("X", 0, 4), ("X", 2, 4)]], [[("X", 0, 4)]])
    assert seg(s, "exact") == (2, 1, 1, 1)
    assert seg(s, "overlap") == (2, 1, 2, 1)          # one system span hits both gold spans
    assert seg(s, "contain") == (2, 1, 2, 1)
    assert seg(s, "constrained") == (2, 1, 1, 1)      # the inner one: 2 spurious tokens > k1 = 1
    assert (s["ts"]["micro"]["tp"], s["ts"]["micro"]["fp"], s["ts"]["micro"]["fn"]) == (7, 0, 0)  # union: TS F 1
    assert fair_counts(s, "X") == {"TP": 1, "FN": 1}  # the system span is used once
    assert c.gold_info.summary()["nested"] == 1 and s["source"]["nested"] == 0


def test_crossing_spans_of_different_labels():
    c, s = run([4], [[("A", 0, 3), ("B", 1, 4)]], [[("A", 0, 3), ("B", 2, 4)]])
    assert seg(s, "exact") == (2, 2, 1, 1)
    assert seg(s, "overlap") == (2, 2, 2, 2)
    assert seg(s, "constrained") == (2, 2, 2, 2)      # B misses 1 token <= k2 = 1
    assert seg(s, "contain") == (2, 2, 1, 1)          # B [2,3] does not contain [1,3]
    ts = s["ts"]["labels"]
    assert (ts["B"]["tp"], ts["B"]["fp"], ts["B"]["fn"]) == (3, 0, 2)
    assert fair_counts(s, "A") == {"TP": 1} and fair_counts(s, "B") == {"BES": 1}
    assert c.gold_info.summary()["crossing"] == 1 and s["source"]["crossing"] == 1


def test_label_error_on_the_outer_span_and_nested_system_spans():
    gold = [PROTEIN_IN_COMPLEX, [("protein", 1, 2)]]
    system = [[("protein", 1, 5)],                         # the complex labelled protein
              [("protein", 1, 2), ("protein", 1, 5)]]      # the system nests two proteins
    _c, s = run([6, 6], gold, system)
    assert seg(s, "exact") == (3, 3, 1, 1)
    assert seg(s, "overlap") == (3, 3, 2, 3)          # every system protein overlaps a gold protein
    assert seg(s, "contain") == (3, 3, 2, 3)
    assert seg(s, "constrained") == (3, 3, 1, 1)
    ts = s["ts"]["labels"]
    assert (ts["complex"]["tp"], ts["complex"]["fn"]) == (0, 7)
    assert (ts["protein"]["tp"], ts["protein"]["fp"], ts["protein"]["fn"]) == (2, 12, 0)
    assert fair_counts(s, "complex") == {"LE": 1}                     # same range, other label
    assert fair_counts(s, "protein") == {"TP": 1, "FP": 1, "FN": 1}   # used spans are not reused
    assert s["source"]["nested"] == 1


CORPUS_GOLD = [PROTEIN_IN_COMPLEX, [("X", 0, 4), ("X", 2, 4)], [("A", 0, 3), ("B", 1, 4)],
               PROTEIN_IN_COMPLEX, [("protein", 1, 2)]]
CORPUS_A = [[("complex", 1, 5), ("protein", 1, 3)], [("X", 0, 4)], [("A", 0, 3), ("B", 2, 4)],
            [("protein", 1, 5)], [("protein", 1, 2), ("protein", 1, 5)]]
CORPUS_B = [PROTEIN_IN_COMPLEX, [("X", 0, 4), ("X", 2, 4)], [("A", 0, 3)], [("complex", 1, 5)],
            [("protein", 1, 5)]]


def test_rank_corpus_gives_evaluates_numbers_on_nested_spans():
    c = from_spans([6, 4, 4, 6, 6], CORPUS_GOLD, {"A": CORPUS_A, "B": CORPUS_B})
    ev = {s["name"]: s for s in ts_eval.score(c, models=MODELS).systems}
    assert ev["A"]["exact"]["micro"]["f"] == pytest.approx(8 / 17)   # 4 correct of 9 gold, 8 found
    assert ev["B"]["exact"]["micro"]["f"] == pytest.approx(12 / 16)  # 6 correct of 9 gold, 7 found
    models = ["exact-f1-micro", "exact-f1-macro", "ts-f1-micro", "ts-f1-macro", "ts-kappa-micro",
              "overlap-f1-micro", "overlap-f1-macro", "constrained-f1-micro", "contain-f1-micro", "fair-f1"]
    r = ts_eval.rank(c, models=models, bootstrap=0, permutations=0)
    for name in ("A", "B"):
        s = ev[name]
        want = [s["exact"]["micro"]["f"], s["exact"]["macro"]["f"], s["ts"]["micro"]["f"], s["ts"]["macro"]["f"],
                s["ts"]["micro"]["kappa"], s["overlap"]["micro"]["f"], s["overlap"]["macro"]["f"],
                s["constrained"]["micro"]["f"], s["contain"]["micro"]["f"], s["fair"]["fair"]["micro"]["f"]]
        assert [r.score(name, m) for m in models] == pytest.approx(want)
    assert r.rank("B", "exact-f1-micro") == 1 and r.rank("A", "overlap-f1-micro") == 1  # nesting flips the order


def test_compare_on_nested_spans():
    gold = [PROTEIN_IN_COMPLEX, [("X", 0, 4), ("X", 2, 4)]]
    a = [[("complex", 1, 5), ("protein", 1, 3)], [("X", 0, 4)]]
    b = [PROTEIN_IN_COMPLEX, [("X", 0, 4), ("X", 2, 4)]]
    from ts_eval.comparison import compare
    cmp = compare(from_spans([6, 4], gold, {"A": a, "B": b}), "A", "B", examples=0)
    assert cmp.settings["view"] == "label"
    assert cmp.corpus["token_labels"] == ["O", "X", "complex", "complex+protein"]
    tok = cmp.pair.to_dict()["token"]
    # token 2 of the first sentence: A says complex+protein, B and gold complex; same-label nesting is invisible
    assert (tok["tokens"], tok["differing"]) == (10, 1)
    assert tok["classes"]["correction"]["top"][0]["labels"] == ["complex+protein", "complex"]
    span = cmp.pair.to_dict()["span"]
    assert span["outcomes_a"] == {"tp": 2, "le": 0, "bes": 0, "bel": 1, "beo": 0, "lbe": 0, "fn": 1, "fp": 0}
    assert span["outcomes_b"]["tp"] == 4
    rows = {r["label"]: r["transitions"] for r in span["per_label"]}
    assert rows["X"] == {"FN → TP": 1} and rows["protein"] == {"BEL → TP": 1}


def test_column_reader_reports_nested_counts_too(tmp_path):
    g = tmp_path / "g.conll"
    g.write_text("a B-X\nb I-X\n\nc O\n")
    rep = ts_eval.score(ts_eval.read(str(g), str(g)))
    assert (rep.gold["nested"], rep.gold["crossing"]) == (0, 0)
    assert (rep.systems[0]["source"]["nested"], rep.systems[0]["source"]["crossing"]) == (0, 0)
    # column files take one road whichever function reads them: read_pair's sides are read_conll_pair's
    assert rep.systems[0]["source"] == ts_eval.score(ts_eval.io.read_conll_pair(str(g), [str(g)])).systems[0]["source"]
    two = tmp_path / "two.conll"
    two.write_text("a B-X B-X\nb I-X B-X\n\nc O O\n")
    corpus = ts_eval.io.read_conll(str(two))     # the column reader's corpus, not a document reader's
    assert corpus.gold_info.summary()["nested"] == 0 and corpus.system_info["two"].summary()["spans"] == 2
