"""Annotators as references (#34.5): ``ts_eval.comparison.ceiling.human_ceiling`` scores every system against
every annotator and every annotator against the others, so "as good as an annotator" is a number."""
from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from test_vocabulary import offenders

from ts_eval.comparison.annotators import read_annotators
from ts_eval.comparison.ceiling import human_ceiling
from ts_eval.errors import InputError, OptionError

EXACT = "exact-f1-micro"
TOKENS = [["John", "Smith", "visited", "Paris"], ["Apple", "bought", "Beats"]]

# tags per sentence; three annotators differing in a span or two, two systems
SIDES = {
    "A": [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "B-ORG"]],    # 4 spans
    "B": [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "O"]],        # misses Beats: 3 spans
    "C": [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "O", "B-ORG"]],        # [John] for [John Smith]: 4 spans
    "S1": [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O", "B-ORG"]],   # Paris as ORG: 4 spans
    "S2": [["B-PER", "I-PER", "O", "B-LOC"], ["O", "O", "O"]],           # 2 spans
}


def write(path: Path, tags) -> str:
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts)) for ws, ts in zip(TOKENS, tags))
                    + "\n", encoding="utf-8")
    return str(path)


def corpus_of(tmp_path, annotators=("A", "B", "C"), systems=("S1", "S2"), sides=SIDES):
    return read_annotators({n: write(tmp_path / f"{n}.conll", sides[n]) for n in annotators},
                           {n: write(tmp_path / f"{n}.conll", sides[n]) for n in systems})


# exact-match F1 = 2 TP / (spans of one + spans of the other), symmetric:
# A-B: TP 3 (John Smith, Paris, Apple) 6/7; A-C: TP 3 (Paris, Apple, Beats) 6/8; B-C: TP 2 (Paris, Apple) 4/7
# S1-A: TP 3 (John Smith, Apple, Beats) 6/8; S1-B: TP 2 4/7; S1-C: TP 2 (Apple, Beats) 4/8
# S2-A: TP 2 4/6; S2-B: TP 2 4/5; S2-C: TP 1 (Paris) 2/6
VERSUS = {"A": {"B": F(6, 7), "C": F(3, 4)}, "B": {"A": F(6, 7), "C": F(4, 7)}, "C": {"A": F(3, 4), "B": F(4, 7)},
          "S1": {"A": F(3, 4), "B": F(4, 7), "C": F(1, 2)}, "S2": {"A": F(2, 3), "B": F(4, 5), "C": F(1, 3)}}
MEANS = {"A": F(45, 56), "B": F(5, 7), "C": F(37, 56), "S1": F(17, 28), "S2": F(3, 5)}
# per annotator a, each system's mean over the annotators other than a
LIKE = {"A": {"S1": F(15, 28), "S2": F(17, 30)}, "B": {"S1": F(5, 8), "S2": F(1, 2)},
        "C": {"S1": F(37, 56), "S2": F(11, 15)}}


def test_hand_worked_example(tmp_path):
    result = human_ceiling(corpus_of(tmp_path), ["A", "B", "C"], models=[EXACT])
    m = result.models[EXACT]
    assert result.systems == ["S1", "S2"]
    for name, versus in VERSUS.items():
        row = m.row(name)
        assert row.role == ("system" if name.startswith("S") else "annotator")
        assert set(row.versus) == set(versus)                 # an annotator is never scored against itself
        for ref, f in versus.items():
            assert row.versus[ref] == pytest.approx(float(f), abs=1e-12), (name, ref)
        assert row.mean == pytest.approx(float(MEANS[name]), abs=1e-12), name
    # ranked together by their means: A .804, B .714, C .661, S1 .607, S2 .600
    assert [r.name for r in m.rows] == ["A", "B", "C", "S1", "S2"]
    assert [r.rank for r in m.rows] == [1, 2, 3, 4, 5]
    assert m.ceiling == pytest.approx(float(F(61, 84)), abs=1e-12)          # (45/56 + 40/56 + 37/56) / 3
    for a, per in LIKE.items():
        for s, f in per.items():
            assert m.like_for_like[a][s] == pytest.approx(float(f), abs=1e-12), (a, s)
    # S1 reaches C exactly (37/56, over A and B), S2 passes C (11/15); neither reaches A or B
    assert m.reached == {"S1": 1, "S2": 1}


def test_like_for_like_means_average_to_the_mean_over_all_annotators(tmp_path):
    result = human_ceiling(corpus_of(tmp_path), ["A", "B", "C"])
    for m in result.models.values():
        for s in result.systems:
            loo = [m.like_for_like[a][s] for a in result.annotators]
            assert sum(loo) / len(loo) == pytest.approx(m.row(s).mean, abs=1e-12)
        assert m.ceiling == pytest.approx(sum(m.row(a).mean for a in result.annotators) / 3, abs=1e-12)


def test_identical_annotators_give_a_ceiling_of_one(tmp_path):
    sides = {**SIDES, "B": SIDES["A"], "C": SIDES["A"]}
    result = human_ceiling(corpus_of(tmp_path, sides=sides), ["A", "B", "C"])
    assert len(result.models) >= 5
    for name, m in result.models.items():
        assert m.ceiling == pytest.approx(1.0, abs=1e-12), name
        assert [r.role for r in m.rows[:3]] == ["annotator"] * 3, name
        # a system against identical annotators: the same score against each, and that is its mean
        for s in result.systems:
            row = m.row(s)
            assert len(set(round(v, 12) for v in row.versus.values())) == 1
            assert all(m.like_for_like[a][s] == pytest.approx(row.mean, abs=1e-12) for a in result.annotators)


def _numbers(result):
    out = {}
    for name, m in result.models.items():
        for r in m.rows:
            out[(name, r.name, "mean")] = r.mean
            out[(name, r.name, "rank")] = r.rank
            out.update({(name, r.name, ref): v for ref, v in r.versus.items()})
        out[(name, "ceiling")] = m.ceiling
        out.update({(name, a, s, "like"): v for a, per in m.like_for_like.items() for s, v in per.items()})
        out.update({(name, s, "reached"): n for s, n in m.reached.items()})
    return out


def test_the_order_of_annotators_never_matters(tmp_path):
    corpus = corpus_of(tmp_path)
    first = _numbers(human_ceiling(corpus, ["A", "B", "C"]))
    for order in (["C", "A", "B"], ["B", "C", "A"]):
        again = _numbers(human_ceiling(corpus, order))
        assert again.keys() == first.keys()
        for k, v in first.items():
            assert again[k] == pytest.approx(v, abs=1e-12, nan_ok=True), k
    # nor which annotator's file is read first (the corpus's gold)
    other = corpus_of(tmp_path / "..", annotators=("C", "B", "A"))
    again = _numbers(human_ceiling(other, ["A", "B", "C"]))
    for k, v in first.items():
        assert again[k] == pytest.approx(v, abs=1e-12, nan_ok=True), k


def test_swapping_system_and_annotator_roles_is_consistent(tmp_path):
    """A side's score against an annotator does not depend on the roles of the others: with S1 made an
    annotator (and A made a system), every score against a reference both runs have is the same, and S1 is
    now scored against the three others and they against it."""
    corpus = corpus_of(tmp_path)
    before = human_ceiling(corpus, ["A", "B", "C"])
    after = human_ceiling(corpus, ["S1", "B", "C"], ["A", "S2"])
    for name, m in before.models.items():
        n = after.models[name]
        for side in ("A", "B", "C", "S1", "S2"):
            for ref in ("B", "C"):
                if ref != side:
                    assert n.row(side).versus[ref] == pytest.approx(m.row(side).versus[ref], abs=1e-12,
                                                                    nan_ok=True), (name, side, ref)
        assert n.row("S1").role == "annotator" and n.row("A").role == "system"
        assert set(n.row("S1").versus) == {"B", "C"}
    exact = after.models[EXACT]
    assert exact.row("A").versus["S1"] == pytest.approx(float(VERSUS["S1"]["A"]), abs=1e-12)   # F1 is symmetric
    assert exact.row("S1").mean == pytest.approx(float((F(4, 7) + F(1, 2)) / 2), abs=1e-12)


def test_the_gold_can_be_an_annotator_or_left_out(tmp_path):
    corpus = corpus_of(tmp_path)                # gold is A (the first annotator read)
    assert corpus.gold_info.name == "A"
    only_two = human_ceiling(corpus, ["B", "C"], models=[EXACT]).models[EXACT]
    assert only_two.row("B").versus == {"C": pytest.approx(4 / 7)}
    assert {r.name for r in only_two.rows} == {"B", "C", "S1", "S2"}      # A is neither: not named


def test_errors_name_the_option(tmp_path):
    corpus = corpus_of(tmp_path)
    with pytest.raises(OptionError, match="two annotators or more"):
        human_ceiling(corpus, ["A"])
    with pytest.raises(OptionError, match="no side called 'D'"):
        human_ceiling(corpus, ["A", "D"])
    with pytest.raises(OptionError, match="'B' is an annotator"):
        human_ceiling(corpus, ["A", "B"], ["B", "S1"])
    with pytest.raises(OptionError, match="names an annotator and a system"):
        read_annotators({"A": write(tmp_path / "a.conll", SIDES["A"]), "B": write(tmp_path / "b.conll", SIDES["B"])},
                        {"A": write(tmp_path / "s.conll", SIDES["S1"])})


def test_the_result_speaks_the_vocabulary(tmp_path):
    d = json.loads(json.dumps(human_ceiling(corpus_of(tmp_path), ["A", "B", "C"]).to_dict()))
    assert not sorted(set(offenders(d)))
    exact = d["models"][EXACT]
    assert exact["ranking"][0] == {"name": "A", "role": "annotator", "rank": 1, "mean": pytest.approx(45 / 56),
                                   "versus": {"B": pytest.approx(6 / 7), "C": pytest.approx(3 / 4)}}
    assert exact["like_for_like"]["C"]["systems"]["S2"]["difference"] == pytest.approx(11 / 15 - 37 / 56)
    assert exact["systems"]["S1"] == {"reached": 1}


def test_an_annotator_of_other_tokens_is_refused_with_the_first_difference(tmp_path):
    text = Path(write(tmp_path / "x.conll", SIDES["B"])).read_text(encoding="utf-8")
    (tmp_path / "B.conll").write_text(text.replace("Beats", "Pixar"), encoding="utf-8")
    # lines 1-4 the first sentence, 5 blank, 6-8 the second: Beats is on line 8
    with pytest.raises(InputError, match=r"B\.conll:8: annotator A .* annotator B .*'Beats' \(annotator A line 8\) "
                                         r"differs from 'Pixar'"):
        read_annotators({"A": write(tmp_path / "A.conll", SIDES["A"]), "B": str(tmp_path / "B.conll")})
