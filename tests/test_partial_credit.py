"""Partial credit users can tune (issue 21): minimum-overlap thresholds and one-to-one matching on
the shared matcher, for every span-level model, through ``score``, ``rank``, ``compare`` and the CLI.

The expected numbers are worked out by hand in the comments (token counts of the spans); the
properties (order of the input, maximum matchings) are checked against brute force.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import run_cli

import ts_eval
from ts_eval.core.corpus import SpanSet
from ts_eval.core.matching import MatchSettings, Threshold, match, match_settings, one_to_one, parse_threshold
from ts_eval.core.sequences import from_spans
from ts_eval.errors import OptionError

Span = Tuple[str, int, int]
ALL = ("ts", "exact", "overlap", "constrained", "contain", "fair", "semeval")


def micro(system: Sequence[Span], model: str, gold: Sequence[Span] = (("ORG", 2, 6),), n: int = 10,
          **kw: Any) -> Dict[str, Any]:
    """One sentence of ``n`` tokens; the model's micro row for one system."""
    rep = ts_eval.score([list(gold)], [list(system)], lengths=[n], models=["exact", model], **kw)
    return rep.systems[0][model]["micro"]


def hit(system: Span, model: str = "overlap", **kw: Any) -> Tuple[int, int]:
    m = micro([system], model, **kw)
    return m["gold_hit"], m["system_hit"]


# ---------------------------------------------------------------------------
# thresholds, worked by hand: gold ORG over tokens 2..5 (4 tokens)

def test_parse_thresholds():
    assert parse_threshold("iou:0.5") == Threshold("iou", Fraction(1, 2))
    assert parse_threshold("gold:1/3") == Threshold("gold", Fraction(1, 3))
    assert parse_threshold(" System : 50% ") == Threshold("system", Fraction(1, 2))
    assert parse_threshold("nervaluate:50") == Threshold("nervaluate", Fraction(50))
    assert str(parse_threshold("iou:0.25")) == "iou:0.25" and str(parse_threshold("gold:1/3")) == "gold:1/3"
    assert parse_threshold(None) is None
    for bad, why in [("iou", "KIND:VALUE"), ("dice:0.5", "KIND:VALUE"), ("iou:0", r"\(0, 1\]"),
                     ("gold:1.5", r"\(0, 1\]"), ("iou:half", "not a number"),
                     ("nervaluate:0.5", "min_overlap_percentage must be between 1.0 and 100.0")]:
        with pytest.raises(OptionError, match=why):
            parse_threshold(bad)
    with pytest.raises(OptionError, match="assignment"):
        match_settings(None, "greedy")


def test_a_system_span_sharing_two_of_four_tokens_at_the_end():
    # system 4..7: shares tokens 4, 5 -> 2/4 of gold, 2/4 of system, 2/6 of the union
    s = ("ORG", 4, 8)
    assert hit(s) == (1, 1)                                  # default: any shared token
    assert hit(s, min_overlap="gold:0.5") == (1, 1)          # 2/4 >= 1/2
    assert hit(s, min_overlap="gold:0.51") == (0, 0)
    assert hit(s, min_overlap="system:0.5") == (1, 1)        # 2/4
    assert hit(s, min_overlap="iou:0.5") == (0, 0)           # 2/6 < 1/2
    assert hit(s, min_overlap="iou:1/3") == (1, 1)           # exactly 1/3: met (compared exactly)
    assert hit(s, min_overlap="iou:0.34") == (0, 0)


def test_a_system_span_inside_the_gold_span():
    # system 3..4: shares 2 tokens -> 2/4 of gold, 2/2 of system, 2/4 of the union
    s = ("ORG", 3, 5)
    assert hit(s, min_overlap="gold:0.75") == (0, 0)
    assert hit(s, min_overlap="system:1") == (1, 1)
    assert hit(s, min_overlap="iou:0.5") == (1, 1)
    assert hit(s, "contain") == (0, 0)                       # contain needs the whole gold span


def test_a_system_span_around_the_gold_span():
    # system 0..9: shares all 4 tokens -> 4/4 of gold, 4/10 of system, 4/10 of the union
    s = ("ORG", 0, 10)
    assert hit(s, min_overlap="gold:1") == (1, 1)
    assert hit(s, min_overlap="system:0.4") == (1, 1)
    assert hit(s, min_overlap="system:0.41") == (0, 0)
    assert hit(s, min_overlap="iou:0.5") == (0, 0)
    # contain: a threshold on the system side bounds how much longer than gold it may be
    assert hit(s, "contain") == (1, 1)
    assert hit(s, "contain", min_overlap="system:0.5") == (0, 0)
    assert hit(("ORG", 1, 7), "contain", min_overlap="system:0.5") == (1, 1)   # 4/6
    # constrained (k1 = k2 = 1 by default): 6 spurious tokens fail it whatever the threshold
    assert hit(s, "constrained") == (0, 0)
    assert hit(("ORG", 1, 6), "constrained", min_overlap="iou:0.8") == (1, 1)   # 4/5
    assert hit(("ORG", 1, 6), "constrained", min_overlap="iou:0.81") == (0, 0)


def test_exact_match_is_met_by_every_threshold():
    for t in ("gold:1", "system:1", "iou:1", "nervaluate:100"):
        m = micro([("ORG", 2, 6), ("ORG", 7, 9)], "overlap", min_overlap=t)
        assert (m["gold_hit"], m["system_hit"]) == (1, 1)
        rep = ts_eval.score([[("ORG", 2, 6)]], [[("ORG", 2, 6), ("ORG", 7, 9)]], lengths=[10],
                            models=["exact", "overlap"], min_overlap=t)
        assert rep.systems[0]["exact"]["micro"]["tp"] == 1


def test_nervaluate_threshold_is_its_float_test():
    # 29 of 100 gold tokens: 29/100 * 100 is 28.999999999999996 in floats, below nervaluate's 29;
    # gold:0.29 compares exactly and is met
    sys_ = [("X", 0, 29)]
    gold = [("X", 0, 100)]
    assert micro(sys_, "overlap", gold, 100, min_overlap="nervaluate:29")["gold_hit"] == 0
    assert micro(sys_, "overlap", gold, 100, min_overlap="gold:0.29")["gold_hit"] == 1
    sem = ts_eval.score([gold], [sys_], lengths=[100], models=["semeval"], min_overlap="nervaluate:29")
    assert sem.systems[0]["semeval"]["partial"]["overall"]["spurious"] == 1
    assert sem.systems[0]["semeval"]["min_overlap_percentage"] == 29.0


def test_semeval_thresholds_and_partial_weight():
    # gold 2..5; system 4..7 shares 2 tokens: partial under the default, spurious under iou:0.5
    def partial(**kw: Any) -> Dict[str, Any]:
        rep = ts_eval.score([[("ORG", 2, 6)]], [[("ORG", 4, 8)]], lengths=[10], models=["semeval"], **kw)
        return rep.systems[0]["semeval"]
    d = partial()
    assert d["partial"]["overall"]["partial"] == 1 and d["min_overlap"] == "nervaluate:1"
    assert d["partial"]["overall"]["precision"] == 0.5          # (0 + 0.5 * 1) / 1
    assert partial(partial_weight=0.25)["partial"]["overall"]["precision"] == 0.25
    assert partial(partial_weight=1)["partial"]["overall"]["f"] == 1.0
    low = partial(min_overlap="iou:0.5")
    assert low["partial"]["overall"]["spurious"] == 1 and low["partial"]["overall"]["missed"] == 1
    assert low["ent_type"]["overall"]["spurious"] == 1           # every scheme reads the same candidates
    assert low["min_overlap"] == "iou:0.5" and low["min_overlap_percentage"] is None
    with pytest.raises(OptionError, match="partial_weight"):
        partial(partial_weight=1.5)


def test_a_threshold_no_chosen_model_reads_is_an_error():
    with pytest.raises(OptionError, match=r"min_overlap='iou:0\.5': changes none of the chosen models"):
        ts_eval.score([[("X", 0, 2)]], [[("X", 0, 1)]], lengths=[3], min_overlap="iou:0.5")
    with pytest.raises(OptionError, match="assignment='one-to-one'"):
        ts_eval.score([[("X", 0, 2)]], [[("X", 0, 1)]], lengths=[3], models=["exact"], assignment="one-to-one")


def test_one_to_one_too_large_to_weigh_exactly_names_the_option():
    # 600 long, mutually overlapping spans a side: one contested group whose exact weights would pass 2**52;
    # the refusal is an OptionError naming the assignment (the command line prints it in one line)
    start = np.arange(600, dtype=np.int64)
    label = np.zeros(600, np.int32)
    pairs = match(SpanSet(start, start + 500, label), SpanSet(start, start + 400 + start % 3, label))
    with pytest.raises(OptionError, match=r"assignment='one-to-one': a group of .* too large"):
        one_to_one(pairs, np.ones(len(pairs), bool), pairs.same_label)


# ---------------------------------------------------------------------------
# one span over two gold spans, under both assignments

TWO_GOLD = [("PER", 0, 2), ("PER", 3, 5)]
WIDE = [("PER", 0, 6)]


def test_one_system_span_over_two_gold_spans():
    many = micro(WIDE, "overlap", TWO_GOLD, 6)
    assert (many["gold_hit"], many["system_hit"], many["recall"], many["precision"]) == (2, 1, 1.0, 1.0)
    one = micro(WIDE, "overlap", TWO_GOLD, 6, assignment="one-to-one")
    assert (one["gold_hit"], one["system_hit"], one["recall"], one["precision"]) == (1, 1, 0.5, 1.0)
    # contain: the wide span contains both gold spans; one-to-one lets it count once
    assert micro(WIDE, "contain", TWO_GOLD, 6)["gold_hit"] == 2
    assert micro(WIDE, "contain", TWO_GOLD, 6, assignment="one-to-one")["gold_hit"] == 1
    # SemEval (nervaluate's choice is one-to-one already): one partial, one missed, either way
    for a in ("many-to-many", "one-to-one"):
        rep = ts_eval.score([TWO_GOLD], [WIDE], lengths=[6], models=["semeval"], assignment=a)
        o = rep.systems[0]["semeval"]["partial"]["overall"]
        assert (o["partial"], o["missed"], o["spurious"]) == (1, 1, 0)


# gold A = 0..2, B = 3..4; system X = 0..4 shares 3 tokens with A and 2 with B; Y = 2..2 shares 1 with A
GREEDY_GOLD = [("PER", 0, 3), ("PER", 3, 5)]
GREEDY_SYS = [("PER", 0, 5), ("PER", 2, 3)]


def test_one_to_one_is_a_maximum_matching_not_largest_overlap_first():
    # largest overlap first would pair X with A and leave B and Y alone (1 pair); the maximum
    # matching pairs X with B and Y with A (2 pairs)
    one = micro(GREEDY_SYS, "overlap", GREEDY_GOLD, 5, assignment="one-to-one")
    assert (one["gold_hit"], one["system_hit"]) == (2, 2)
    many = micro(GREEDY_SYS, "overlap", GREEDY_GOLD, 5)
    assert (many["gold_hit"], many["system_hit"]) == (2, 2)
    # SemEval partial: nervaluate's greedy order lets X take A (the first gold span it overlaps),
    # so Y is spurious and B missed; one-to-one finds both partial matches
    def partial(a: str) -> Dict[str, Any]:
        rep = ts_eval.score([GREEDY_GOLD], [GREEDY_SYS], lengths=[5], models=["semeval"], assignment=a)
        return rep.systems[0]["semeval"]["partial"]["overall"]
    assert [partial("many-to-many")[k] for k in ("partial", "spurious", "missed")] == [1, 1, 1]
    assert [partial("one-to-one")[k] for k in ("partial", "spurious", "missed")] == [2, 0, 0]


def test_one_to_one_prefers_more_shared_tokens_then_closer_bounds():
    gold = SpanSet(np.array([0, 4]), np.array([3, 7]), np.array([0, 0], np.int32))
    sys_ = SpanSet(np.array([2]), np.array([6]), np.array([0], np.int32))    # shares 2 with gold 0, 3 with gold 1
    p = match(gold, sys_)
    chosen = one_to_one(p, p.same_label)
    assert p.gold[chosen].tolist() == [1]
    # equal overlap: the pair with the closer bounds (system 2..3 shares 2 tokens with gold 0..5
    # and with gold 2..3; the second has the same bounds)
    gold = SpanSet(np.array([0, 2]), np.array([5, 3]), np.array([0, 0], np.int32))
    sys_ = SpanSet(np.array([2]), np.array([3]), np.array([0], np.int32))
    p = match(gold, sys_)
    assert p.gold[one_to_one(p, p.same_label)].tolist() == [1]


def _spanset(rows: List[Tuple[int, int, int]]) -> SpanSet:
    rows = sorted(set(rows))
    return SpanSet(np.array([r[0] for r in rows], np.int64), np.array([r[1] for r in rows], np.int64),
                   np.array([r[2] for r in rows], np.int32)).sorted()


def _brute(p, ok) -> Tuple[int, int, int]:
    """(pairs, shared tokens, -distance) of the best matching, by trying every subset of ok pairs."""
    idx = np.flatnonzero(ok).tolist()
    best = (0, 0, 0)
    for r in range(len(idx), 0, -1):
        for sub in itertools.combinations(idx, r):
            g = [int(p.gold[k]) for k in sub]
            s = [int(p.system[k]) for k in sub]
            if len(set(g)) == r and len(set(s)) == r:
                best = max(best, (r, int(p.overlap[list(sub)].sum()), -int(p.distance[list(sub)].sum())))
        if best[0]:
            break
    return best


span_rows = st.lists(st.tuples(st.integers(0, 11), st.integers(0, 3), st.integers(0, 1)), max_size=6)


@settings(max_examples=150, deadline=None)
@given(span_rows, span_rows)
def test_one_to_one_is_an_optimal_matching(g, s):
    gs = _spanset([(b, min(b + n, 11), lab) for b, n, lab in g])
    ss = _spanset([(b, min(b + n, 11), lab) for b, n, lab in s])
    p = match(gs, ss)
    ok = p.same_label
    chosen = one_to_one(p, ok)
    assert not (chosen & ~ok).any()
    assert len(set(p.gold[chosen].tolist())) == chosen.sum() == len(set(p.system[chosen].tolist()))
    got = (int(chosen.sum()), int(p.overlap[chosen].sum()), -int(p.distance[chosen].sum()))
    assert got == _brute(p, ok)


# ---------------------------------------------------------------------------
# results never depend on the order of the spans given

sentences = st.lists(st.tuples(
    st.lists(st.tuples(st.sampled_from("AB"), st.integers(0, 7), st.integers(1, 4)), max_size=5),
    st.lists(st.tuples(st.sampled_from("AB"), st.integers(0, 7), st.integers(1, 4)), max_size=5)),
    min_size=1, max_size=3)


def _spans(rows) -> List[Span]:
    return sorted({(lab, b, min(b + n, 8)) for lab, b, n in rows})


@settings(max_examples=60, deadline=None)
@given(sentences, st.sampled_from([None, "gold:0.5", "system:0.5", "iou:0.5", "iou:1/3", "nervaluate:50"]),
       st.sampled_from(["many-to-many", "one-to-one"]), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_the_order_of_spans(sents, threshold, assignment, rnd):
    gold = [_spans(g) for g, _ in sents]
    system = [_spans(s) for _, s in sents]
    shuffled = [rnd.sample(x, len(x)) for x in gold], [rnd.sample(x, len(x)) for x in system]
    kw = dict(lengths=[8] * len(sents), models=list(ALL), min_overlap=threshold, assignment=assignment)
    a = ts_eval.score(gold, {"s": system}, **kw).to_dict()
    b = ts_eval.score(shuffled[0], {"s": shuffled[1]}, **kw).to_dict()
    for d in (a, b):
        d["settings"].pop("versions")
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# ---------------------------------------------------------------------------
# the same settings reach rank, compare and the command line

def _corpus():
    gold = [TWO_GOLD, GREEDY_GOLD]
    return from_spans([6, 5], gold, {"wide": [WIDE, GREEDY_SYS],
                                             "tight": [TWO_GOLD, [("PER", 0, 3)]]})


def test_rank_reads_the_settings():
    c = _corpus()
    kw = dict(models=["overlap-f1-micro", "semeval-partial-f1"], bootstrap=0, permutations=0)
    many = ts_eval.rank(c, **kw)
    one = ts_eval.rank(c, assignment="one-to-one", **kw)
    assert many.score("wide", "overlap-f1-micro") == 1.0          # 4/4 gold hit, 3/3 system hit
    assert one.score("wide", "overlap-f1-micro") == pytest.approx(6 / 7)   # P 3/3, R 3/4
    assert one.settings["assignment"] == "one-to-one" and many.settings["min_overlap"] is None
    heavy = ts_eval.rank(c, partial_weight=1.0, **kw)
    # partial: wide has COR 0, PAR 2 (the first sentence: one partial, one missed; the second: X
    # takes A, Y spurious, B missed): with weight 1 P = 2/3, R = 2/4
    assert heavy.score("wide", "semeval-partial-f1") == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert heavy.settings["partial_weight"] == 1.0
    with pytest.raises(OptionError, match="changes none of the chosen ranking models"):
        ts_eval.rank(c, models=["exact-f1-micro", "ts-f1-micro"], bootstrap=0, permutations=0, min_overlap="iou:0.5")


def test_compare_reads_the_settings():
    c = _corpus()
    cmp = ts_eval.compare(c, "tight", "wide", models=["overlap", "semeval"], assignment="one-to-one",
                          min_overlap="gold:0.5")
    row = {r["name"]: r for r in cmp.systems}
    assert row["wide"]["overlap"]["micro"]["gold_hit"] == 2    # gold:0.5 drops Y (1/3 of A); X-A, and B alone
    assert cmp.settings["assignment"] == "one-to-one" and cmp.pair.semeval.min_overlap == "gold:0.5"


def test_the_command_line_options(tmp_path, capsys):
    path = tmp_path / "f.conll"
    rows = [("a", "B-PER", "B-PER"), ("b", "I-PER", "I-PER"), ("c", "O", "I-PER"), ("d", "B-PER", "I-PER"),
            ("e", "I-PER", "I-PER"), ("f", "O", "I-PER")]
    path.write_text("\n".join(" ".join(r) for r in rows) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["score", str(path), "--models", "overlap", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["systems"][0]["overlap"]["micro"]["gold_hit"] == 2
    code, out, _ = run_cli(["score", str(path), "--models", "overlap", "--assignment", "one-to-one",
                            "--format", "json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["systems"][0]["overlap"]["micro"]["gold_hit"] == 1
    assert d["settings"]["assignment"] == "one-to-one"
    code, out, _ = run_cli(["score", str(path), "--models", "overlap", "--min-overlap", "iou:0.5", "--format", "json"],
                           capsys)
    assert code == 0 and json.loads(out)["systems"][0]["overlap"]["micro"]["gold_hit"] == 0   # 2/6 each
    code, _, err = run_cli(["score", str(path), "--min-overlap", "iou:2"], capsys)
    assert code == 2 and "--min-overlap iou:2: the fraction must be in (0, 1]" in err
    code, _, err = run_cli(["score", str(path), "--min-overlap", "iou:0.5"], capsys)
    assert code == 2 and "--min-overlap iou:0.5: changes none of the chosen models" in err
    code, _, err = run_cli(["score", str(path), "--models", "semeval", "--partial-weight", "2"], capsys)
    assert code == 2 and "--partial-weight 2" in err


def test_default_settings_are_the_defaults():
    assert MatchSettings().is_default
    assert MatchSettings().to_dict() == {"min_overlap": None, "assignment": "many-to-many"}
    rep = ts_eval.score([TWO_GOLD], [WIDE], lengths=[6], models=list(ALL))
    assert (rep.settings["min_overlap"], rep.settings["assignment"], rep.settings["partial_weight"]) == (
        None, "many-to-many", 0.5)


def test_the_error_analysis_reads_the_threshold_too():
    """Gold PER over tokens 0..3, the system's PER over 3..5: one shared token of 4 (gold) and of 6 (union)."""
    from ts_eval.analysis.errors import error_analysis

    c = from_spans([6], [[("PER", 0, 4)]], {"s": [[("PER", 3, 6)]]})
    cells = {t: error_analysis(c, min_overlap=t).systems[0].confusion["overlap"].matrix()
             for t in (None, "gold:0.25", "iou:0.5")}
    assert cells[None]["PER"] == cells["gold:0.25"]["PER"] == {"PER": 1, "missed": 0}   # 1/4 >= 0.25
    assert cells["iou:0.5"]["PER"] == {"PER": 0, "missed": 1}                             # 1/6 < 0.5
    assert cells["iou:0.5"]["spurious"] == {"PER": 1}
    assert error_analysis(c, min_overlap="iou:0.5").settings["min_overlap"] == "iou:0.5"
    # exact matching and the fair error types do not change with it
    a, b = error_analysis(c), error_analysis(c, min_overlap="iou:0.5")
    assert a.systems[0].confusion["exact"].matrix() == b.systems[0].confusion["exact"].matrix()
    assert a.systems[0].types == b.systems[0].types


def test_a_matching_option_without_any_model_says_none_was_chosen(capsys):
    """compare adds no score model unless asked: the error says none was chosen, not an empty '()'."""
    demo = Path(ts_eval.__file__).parent / "demo" / "germeval2014_test_sample.conll"
    code, _, err = run_cli(["compare", str(demo), "--gold-col", "2", "--system-col", "3", "4",
                            "--assignment", "one-to-one"], capsys)
    assert code == 2
    assert "--assignment one-to-one: changes none of the chosen models (none chosen)" in err
