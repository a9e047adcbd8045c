"""``compare --models``: each system's numbers under score's models, and the pair under nervaluate's
SemEval-2013 schemes span by span (categories under A and B, transitions, spurious spans).

The hand-worked corpus (three sentences; spans ``(label, first, last)``, inclusive):

sentence 1 (10 tokens)  gold  PER 0-1   LOC 3-3   ORG 5-6   MISC 8-8
                        A     PER 0-1   LOC 3-4   PER 5-6             LOC 9-9 (spurious)
                        B     PER 0-0   LOC 3-3   ORG 5-6   MISC 8-8  PER 7-7 (spurious)
sentence 2 (6 tokens)   gold  LOC 0-2   PER 4-5
                        A     LOC 0-0   ORG 4-5
                        B     LOC 1-2   (PER 4-5 missed)
sentence 3 (3 tokens)   gold  -         A and B: X 1-1 (the same spurious span)

nervaluate's categories, worked out span by span (system spans in order, each taking one gold span):

            gold span:  PER0-1  LOC3-3  ORG5-6  MISC8-8  LOC0-2  PER4-5   spurious A / B
strict      A           COR     INC     INC     MIS      INC     INC      2 / 2
            B           INC     COR     COR     COR      INC     MIS
exact       A           COR     INC     COR     MIS      INC     COR
            B           INC     COR     COR     COR      INC     MIS
partial     A           COR     PAR     COR     MIS      PAR     COR
            B           PAR     COR     COR     COR      PAR     MIS
ent_type    A           COR     COR     INC     MIS      COR     INC
            B           COR     COR     COR     COR      COR     MIS

(exact/partial: A's PER 5-6 and B's ORG 5-6 are both correct for ORG 5-6 with different spans; ent_type:
PER 0-1 / 0-0, LOC 3-4 / 3-3 and LOC 0-0 / 1-2 the same.)  So strict A: COR 1, INC 4, MIS 1, SPU 2,
possible 6, actual 7, P = 1/7, R = 1/6.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import run_cli

import ts_eval
from ts_eval.comparison import compare
from ts_eval.core.sequences import from_spans
from ts_eval.errors import OptionError

LENGTHS = [10, 6, 3]
GOLD = [[("PER", 0, 2), ("LOC", 3, 4), ("ORG", 5, 7), ("MISC", 8, 9)], [("LOC", 0, 3), ("PER", 4, 6)], []]
SYS_A = [[("PER", 0, 2), ("LOC", 3, 5), ("PER", 5, 7), ("LOC", 9, 10)], [("LOC", 0, 1), ("ORG", 4, 6)], [("X", 1, 2)]]
SYS_B = [[("PER", 0, 1), ("LOC", 3, 4), ("ORG", 5, 7), ("PER", 7, 8), ("MISC", 8, 9)], [("LOC", 1, 3)],
         [("X", 1, 2)]]
CATS = ("correct", "incorrect", "partial", "missed", "spurious")


def hand():
    return compare(from_spans(LENGTHS, GOLD, {"A": SYS_A, "B": SYS_B}), examples=0, models=["semeval"])


def counts(cor, inc, par, mis, spu):
    return dict(zip(CATS, (cor, inc, par, mis, spu)))


def test_each_systems_categories_by_hand():
    r = hand()
    a, b = (s["semeval"] for s in r.systems)
    want_a = {"strict": counts(1, 4, 0, 1, 2), "exact": counts(3, 2, 0, 1, 2), "partial": counts(3, 0, 2, 1, 2),
              "ent_type": counts(3, 2, 0, 1, 2)}
    want_b = {"strict": counts(3, 2, 0, 1, 2), "exact": counts(3, 2, 0, 1, 2), "partial": counts(3, 0, 2, 1, 2),
              "ent_type": counts(5, 0, 0, 1, 2)}
    for scheme in want_a:
        assert {k: a[scheme]["overall"][k] for k in CATS} == want_a[scheme]
        assert {k: b[scheme]["overall"][k] for k in CATS} == want_b[scheme]
        # the pair's outcome counts are the same overall evaluation
        assert r.pair.semeval.schemes[scheme].outcomes_a == want_a[scheme]
        assert r.pair.semeval.schemes[scheme].outcomes_b == want_b[scheme]
    s = a["strict"]["overall"]
    assert (s["possible"], s["actual"], s["gold"], s["system"]) == (6, 7, 6, 7)
    assert s["precision"] == pytest.approx(1 / 7) and s["recall"] == pytest.approx(1 / 6)
    assert s["f"] == pytest.approx(2 * (1 / 7) * (1 / 6) / (1 / 7 + 1 / 6))
    # partial: (COR + PAR / 2) / actual = 4 / 7 for A
    assert a["partial"]["overall"]["precision"] == pytest.approx(4 / 7)


def tops(d):
    return {k: sorted((t.name, t.count) for t in c.top) for k, c in d.classes.items()}


def test_strict_transitions_by_hand():
    d = hand().pair.semeval.schemes["strict"]
    # 6 gold spans + 3 distinct spurious spans (A's LOC 9-9, B's PER 7-7, the shared X 1-1)
    assert (d.gold, d.spurious, d.differing) == (6, 3, 8) and d.diff == pytest.approx(8 / 9)
    assert tops(d) == {"correction": [("incorrect → correct", 2), ("missed → correct", 1), ("spurious → none", 1)],
                       "new_error": [("correct → incorrect", 1), ("none → spurious", 1)],
                       "changed_error": [("incorrect → incorrect", 1), ("incorrect → missed", 1)]}
    assert d.spurious_moves == {"spurious → none": 1, "none → spurious": 1, "spurious kept": 1}
    assert d.changed_counterpart == {"correct": 0, "incorrect": 1, "partial": 0}   # LOC 0-2: 0-0 then 1-2
    # rows A category, columns B category (correct, incorrect, partial, missed)
    assert d.matrix == [[0, 1, 0, 0], [2, 1, 0, 1], [0, 0, 0, 0], [1, 0, 0, 0]]
    per = {r["label"]: r for r in d.per_label}
    assert per["LOC"] == {"label": "LOC", "gold": 2, "spurious": 1, "correction": 2, "new_error": 0,
                          "changed_error": 1, "net": 2, "diff": 1.0, "correct_a": 0, "correct_b": 1,
                          "transitions": {"incorrect → correct": 1, "incorrect → incorrect": 1,
                                          "spurious → none": 1}}
    assert (per["PER"]["new_error"], per["PER"]["changed_error"], per["PER"]["correct_a"]) == (2, 1, 1)
    assert per["PER"]["transitions"] == {"correct → incorrect": 1, "incorrect → missed": 1, "none → spurious": 1}
    assert per["X"]["spurious"] == 1 and per["X"]["transitions"] == {}


def test_exact_partial_and_ent_type_transitions_by_hand():
    sem = hand().pair.semeval.schemes
    ex, pa, et = sem["exact"], sem["partial"], sem["ent_type"]
    # ORG 5-6 is correct under both (PER 5-6 for A, ORG 5-6 for B): no change of correctness
    assert (ex.differing, ex.changed_counterpart) == (7, {"correct": 1, "incorrect": 1, "partial": 0})
    assert tops(ex) == {"correction": [("incorrect → correct", 1), ("missed → correct", 1), ("spurious → none", 1)],
                        "new_error": [("correct → incorrect", 1), ("correct → missed", 1), ("none → spurious", 1)],
                        "changed_error": [("incorrect → incorrect", 1)]}
    assert tops(pa) == {"correction": [("missed → correct", 1), ("partial → correct", 1), ("spurious → none", 1)],
                        "new_error": [("correct → missed", 1), ("correct → partial", 1), ("none → spurious", 1)],
                        "changed_error": [("partial → partial", 1)]}
    assert pa.changed_counterpart == {"correct": 1, "incorrect": 0, "partial": 1}
    # ent_type: PER 0-1, LOC 3-3, LOC 0-2 correct under both with other spans
    assert (et.differing, et.diff, et.changed_counterpart["correct"]) == (5, pytest.approx(5 / 9), 3)
    assert tops(et) == {"correction": [("incorrect → correct", 1), ("missed → correct", 1), ("spurious → none", 1)],
                        "new_error": [("none → spurious", 1)], "changed_error": [("incorrect → missed", 1)]}
    assert et.matrix == [[3, 0, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0], [1, 0, 0, 0]]


def test_the_json_holds_the_pair_and_the_systems_semeval():
    d = json.loads(json.dumps(hand().to_dict()))
    assert d["settings"]["models"] == ["semeval"]
    sem = d["pair"]["semeval"]
    assert (sem["a"], sem["b"], sem["min_overlap_percentage"]) == ("A", "B", 1.0)
    assert list(sem["schemes"]) == ["strict", "exact", "partial", "ent_type"]
    strict = sem["schemes"]["strict"]
    assert strict["matrix"]["rows_a"] == ["correct", "incorrect", "partial", "missed"]
    assert strict["classes"]["correction"]["count"] == 4 and strict["outcomes_a"]["spurious"] == 2
    assert d["systems"][0]["semeval"]["strict"]["overall"]["correct"] == 1
    assert compare(from_spans(LENGTHS, GOLD, {"A": SYS_A, "B": SYS_B}), examples=0).to_dict()[
        "pair"]["semeval"] is None


def test_compares_per_system_numbers_equal_scores():
    from test_page_builders import DEMO, DEMO_SYSTEMS
    corpus = ts_eval.io.read_conll(str(DEMO), gold_column=2, system_columns=[3, 4, 5, 6], names=DEMO_SYSTEMS)
    models = ("ts", "exact", "overlap", "constrained", "contain", "fair", "semeval")
    c = compare(corpus, DEMO_SYSTEMS[1], DEMO_SYSTEMS[2], examples=0, models=list(reversed(models)))
    rep = ts_eval.score(corpus, models=models)
    assert c.settings["models"] == list(models)     # the registry's order, as score's
    for row, s in zip(c.systems, rep.systems):
        assert row["name"] == s["name"]
        for m in models:
            assert row[m] == s[m], (row["name"], m)
    # the pair's outcome counts are the overall counts of the semeval model
    for scheme, d in c.pair.semeval.schemes.items():
        for side, name in (("outcomes_a", DEMO_SYSTEMS[1]), ("outcomes_b", DEMO_SYSTEMS[2])):
            overall = rep.system(name)["semeval"][scheme]["overall"]
            assert getattr(d, side) == {k: overall[k] for k in CATS}


@pytest.mark.slow
def test_cli_compare_models_semeval_equals_score(capsys):
    from test_page_builders import DEMO
    args = [str(DEMO), "--gold-col", "2", "--system-col", "3", "4", "--models", "semeval", "--format", "json"]
    code, out, err = run_cli(["compare", *args, "--examples", "0"], capsys)
    assert code == 0, err
    cmp = json.loads(out)
    code, out, err = run_cli(["score", *args], capsys)
    assert code == 0, err
    score = json.loads(out)
    assert [s["semeval"] for s in cmp["systems"]] == [s["semeval"] for s in score["systems"]]
    assert cmp["pair"]["semeval"]["schemes"]["strict"]["gold"] == 332
    code, out, err = run_cli(["compare", *args[:6], "--models", "semeval,nope"], capsys)
    assert code == 2 and "unknown model(s) nope" in err
    code, out, err = run_cli(["compare", *args[:8], "--examples", "0"], capsys)   # the terminal table
    assert code == 0 and "SemEval-2013 span level: col3 (A) → col4 (B)" in out
    assert "SemEval-2013 per label" in out and "with --details" in out         # the detail section is named
    code, details, err = run_cli(["compare", *args[:8], "--examples", "0", "--details"], capsys)
    assert code == 0 and "SemEval-2013 span level per label" in details


def test_unknown_models_are_an_option_error():
    with pytest.raises(OptionError, match="unknown model"):
        compare(from_spans(LENGTHS, GOLD, {"A": SYS_A, "B": SYS_B}), models=["semeval", "f1"])


span_lists = st.lists(st.tuples(st.sampled_from(["X", "Y"]), st.integers(0, 7), st.integers(0, 3)), max_size=5)


def _clean(spans):
    return [sorted({(lab, b, min(b + w, 7) + 1) for lab, b, w in spans})]    # end exclusive


@pytest.mark.slow
@given(span_lists, span_lists, span_lists)
@settings(max_examples=100, deadline=None)
def test_semeval_transitions_invariants(g, a, b):
    corpus = from_spans([8], [_clean(g)[0]], {"A": _clean(a), "B": _clean(b)})
    ab = compare(corpus, "A", "B", examples=0, models=["semeval"])
    ba = compare(corpus, "B", "A", examples=0, models=["semeval"]).pair.semeval
    for scheme, d in ab.pair.semeval.schemes.items():
        e = ba.schemes[scheme]
        assert sum(c.count for c in d.classes.values()) == d.differing
        assert d.classes["correction"].count == e.classes["new_error"].count
        assert d.classes["changed_error"].count == e.classes["changed_error"].count
        assert (d.differing, d.spurious, d.changed_counterpart) == (e.differing, e.spurious, e.changed_counterpart)
        assert np.array_equal(np.array(d.matrix), np.array(e.matrix).T) and np.sum(d.matrix) == d.gold
        assert sum(r["correction"] + r["new_error"] + r["changed_error"] for r in d.per_label) == d.differing
        assert d.outcomes_a == {k: ab.systems[0]["semeval"][scheme]["overall"][k] for k in CATS}
