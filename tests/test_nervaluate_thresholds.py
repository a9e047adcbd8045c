"""nervaluate's tests of ``min_overlap_percentage``, ported to ts_eval's API.

nervaluate 1.1 added a minimum overlap for its categories (``min_overlap_percentage``: shared
tokens / gold span tokens * 100 >= P); ts_eval spells it ``min_overlap="nervaluate:P"``, one of the
matcher's thresholds.  Each test below takes the inputs of one test of nervaluate's suite
(``tests/test_evaluator.py``: 6 tests, ``tests/test_strategies.py``: 9; named alike), runs them
through ``ts_eval.score(..., models=["semeval"])`` (or the matcher, for the two tests of
nervaluate's overlap helpers), and takes the expected values from the installed nervaluate
(1.2.1, the ``test`` extra) on the same inputs -- the assertions nervaluate's own tests make
are kept beside them, as a check that the reference still says what its tests say.

nervaluate's entities have an inclusive ``end``; ts_eval's spans ``(label, start, end)`` an
exclusive one.  A test whose entities start left of token 0 (nervaluate computes an overlap for
them) is shifted right, which changes no overlap.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pytest

import ts_eval
from ts_eval.core.corpus import SpanSet
from ts_eval.core.matching import match, parse_threshold

nervaluate = pytest.importorskip("nervaluate")
from nervaluate import Evaluator  # noqa: E402
from nervaluate.entities import Entity  # noqa: E402
from nervaluate.strategies import EntityTypeEvaluation, ExactEvaluation, PartialEvaluation, StrictEvaluation  # noqa: E402

Ent = Dict[str, Any]
SCHEMES = ("strict", "exact", "partial", "ent_type")
KEYS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual", "precision", "recall")
STRATEGY = {"strict": StrictEvaluation, "exact": ExactEvaluation, "partial": PartialEvaluation,
            "ent_type": EntityTypeEvaluation}


def _spans(docs: Sequence[Sequence[Ent]], shift: int) -> List[List[Tuple[str, int, int]]]:
    return [[(e["label"], e["start"] + shift, e["end"] + 1 + shift) for e in doc] for doc in docs]


def ours(true: Sequence[Sequence[Ent]], pred: Sequence[Sequence[Ent]], pct: Optional[float] = None) -> Dict[str, Any]:
    """ts_eval's SemEval block for nervaluate's dict-loader input (``pct``: its min_overlap_percentage)."""
    every = [e for doc in list(true) + list(pred) for e in doc]
    shift = max(0, -min((e["start"] for e in every), default=0))
    lengths = [max([e["end"] + 1 + shift for e in t] + [e["end"] + 1 + shift for e in p] + [1])
               for t, p in zip(true, pred)]
    options = {} if pct is None else {"min_overlap": f"nervaluate:{pct!r}"}
    rep = ts_eval.score(_spans(true, shift), _spans(pred, shift), lengths=lengths, models=["semeval"], **options)
    return rep.systems[0]["semeval"]


def reference(true: Sequence[Sequence[Ent]], pred: Sequence[Sequence[Ent]], tags: Sequence[str],
              pct: Optional[float] = None) -> Dict[str, Any]:
    kw = {} if pct is None else {"min_overlap_percentage": pct}
    return Evaluator(true=[list(t) for t in true], pred=[list(p) for p in pred], tags=list(tags), loader="dict",
                     **kw).evaluate()


def assert_same(mine: Dict[str, Any], ref: Any, where: str) -> None:
    for k in KEYS:
        assert mine[k] == getattr(ref, k), (where, k, mine[k], getattr(ref, k))
    assert mine["f"] == ref.f1, (where, "f", mine["f"], ref.f1)


def assert_evaluator(true: Sequence[Sequence[Ent]], pred: Sequence[Sequence[Ent]], tags: Sequence[str],
                     pct: Optional[float] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """Every scheme's overall row and every label row nervaluate lists: equal."""
    mine, ref = ours(true, pred, pct), reference(true, pred, tags, pct)
    for s in SCHEMES:
        assert_same(mine[s]["overall"], ref["overall"][s], s)
        for lab, rows in ref["entities"].items():
            assert_same(mine[s]["labels"][lab], rows[s], f"{s}/{lab}")
    return mine, ref


def strategy(name: str, true: Sequence[Entity], pred: Sequence[Entity], tags: Sequence[str],
             pct: float) -> Tuple[Dict[str, Any], Any]:
    """One scheme on one document: ts_eval's overall row and nervaluate's strategy result."""
    ref, _ = STRATEGY[name](min_overlap_percentage=pct).evaluate(list(true), list(pred), list(tags), 0)
    as_dicts = [[{"label": e.label, "start": e.start, "end": e.end} for e in side] for side in (true, pred)]
    mine = ours([as_dicts[0]], [as_dicts[1]], pct)[name]["overall"]
    assert_same(mine, ref, name)
    return mine, ref


PER10 = [[{"label": "PER", "start": 0, "end": 9}]]      # one gold entity of 10 tokens


# ---------------------------------------------------------------------------
# nervaluate tests/test_evaluator.py


def test_evaluator_with_min_overlap_percentage():
    pred = [[{"label": "PER", "start": 0, "end": 2}]]   # 30% of the gold entity
    default, _ = assert_evaluator(PER10, pred, ["PER"])
    assert default["partial"]["overall"]["partial"] == 1 and default["partial"]["overall"]["spurious"] == 0
    fifty, _ = assert_evaluator(PER10, pred, ["PER"], 50.0)
    assert fifty["partial"]["overall"]["partial"] == 0 and fifty["partial"]["overall"]["spurious"] == 1


def test_evaluator_min_overlap_validation():
    same = [[{"label": "PER", "start": 0, "end": 5}]]
    for pct in (1.0, 50.0, 100.0):
        assert_evaluator(same, same, ["PER"], pct)
    for pct in (0.5, 101.0):
        with pytest.raises(ValueError, match=r"min_overlap_percentage must be between 1\.0 and 100\.0"):
            Evaluator(same, same, ["PER"], "dict", min_overlap_percentage=pct)
        with pytest.raises(ValueError, match=r"min_overlap_percentage must be between 1\.0 and 100\.0"):
            ours(same, same, pct)


def test_evaluator_min_overlap_affects_all_strategies():
    pred = [[{"label": "PER", "start": 0, "end": 2}]]
    mine, _ = assert_evaluator(PER10, pred, ["PER"], 50.0)
    for s in SCHEMES:
        o = mine[s]["overall"]
        assert (o["spurious"], o["correct"], o["incorrect"], o["partial"]) == (1, 0, 0, 0), s


def test_evaluator_min_overlap_with_different_thresholds():
    cases = [(4, 50.0, "partial"), (4, 51.0, "spurious"), (6, 75.0, "spurious"), (7, 75.0, "partial"),
             (9, 100.0, "correct")]
    for end, pct, expected in cases:
        mine, _ = assert_evaluator(PER10, [[{"label": "PER", "start": 0, "end": end}]], ["PER"], pct)
        o = mine["partial"]["overall"]
        assert {k: o[k] for k in ("correct", "partial", "spurious")} == {
            k: int(k == expected) for k in ("correct", "partial", "spurious")}, (end, pct)


def test_evaluator_min_overlap_with_multiple_entities():
    true = [[{"label": "PER", "start": 0, "end": 4}, {"label": "ORG", "start": 10, "end": 14},
             {"label": "LOC", "start": 20, "end": 24}]]
    pred = [[{"label": "PER", "start": 0, "end": 1}, {"label": "ORG", "start": 10, "end": 12},
             {"label": "LOC", "start": 20, "end": 24}, {"label": "MISC", "start": 30, "end": 32}]]
    mine, _ = assert_evaluator(true, pred, ["PER", "ORG", "LOC", "MISC"], 50.0)
    o = mine["partial"]["overall"]
    assert (o["correct"], o["partial"], o["spurious"], o["missed"]) == (1, 1, 2, 1)


def test_evaluator_min_overlap_backward_compatibility():
    pred = [[{"label": "PER", "start": 9, "end": 9}]]   # 10% of the gold entity
    default, _ = assert_evaluator(PER10, pred, ["PER"])
    explicit, _ = assert_evaluator(PER10, pred, ["PER"], 1.0)
    for s in SCHEMES:
        for k in ("correct", "partial", "spurious", "missed"):
            assert default[s]["overall"][k] == explicit[s]["overall"][k]
    assert default["min_overlap"] == "nervaluate:1" and explicit["min_overlap"] == "nervaluate:1"


# ---------------------------------------------------------------------------
# nervaluate tests/test_strategies.py


def test_minimum_overlap_percentage_validation():
    for pct in (1.0, 50.0, 100.0):
        PartialEvaluation(min_overlap_percentage=pct)
        assert parse_threshold(f"nervaluate:{pct!r}") is not None
    for pct in (0.5, 101.0, -5.0):
        with pytest.raises(ValueError, match=r"min_overlap_percentage must be between 1\.0 and 100\.0"):
            PartialEvaluation(min_overlap_percentage=pct)
        with pytest.raises(ValueError, match=r"min_overlap_percentage must be between 1\.0 and 100\.0"):
            parse_threshold(f"nervaluate:{pct!r}")


def _one_pair(pred: Entity, true: Entity, shift: int = 5) -> Any:
    """The matcher's pairs of one gold and one system entity (inclusive ends, shifted right)."""
    def side(e: Entity) -> SpanSet:
        return SpanSet(np.array([e.start + shift]), np.array([e.end + shift]), np.array([0], np.int32))
    return match(side(true), side(pred))


def _percentage(pred: Entity, true: Entity) -> float:
    p = _one_pair(pred, true)
    return float(p.overlap[0] / p.gold_length[0] * 100.0) if len(p) else 0.0


def test_overlap_percentage_calculation():
    true = Entity(label="PER", start=0, end=9)
    cases = [(0, 9, 100.0), (0, 4, 50.0), (5, 9, 50.0), (0, 0, 10.0), (9, 9, 10.0), (10, 15, 0.0),
             (-5, 2, 30.0), (7, 12, 30.0), (2, 7, 60.0)]
    for start, end, expected in cases:
        pred = Entity(label="PER", start=start, end=end)
        ref = PartialEvaluation._calculate_overlap_percentage(pred, true)
        assert abs(ref - expected) < 0.1
        assert _percentage(pred, true) == ref, (start, end)


def test_has_sufficient_overlap():
    true = Entity(label="PER", start=0, end=9)
    for pct, ends in ((50.0, {4: True, 6: True, 9: True, 2: False, 0: False}), (75.0, {7: True, 9: True, 6: False,
                                                                                       4: False})):
        ref = PartialEvaluation(min_overlap_percentage=pct)
        threshold = parse_threshold(f"nervaluate:{pct!r}")
        for end, expected in ends.items():
            pred = Entity(label="PER", start=0, end=end)
            assert ref._has_sufficient_overlap(pred, true) is expected
            assert bool(threshold.meets(_one_pair(pred, true))[0]) is expected
        apart = Entity(label="PER", start=10, end=15)      # no shared token: no pair at all
        assert ref._has_sufficient_overlap(apart, true) is False and len(_one_pair(apart, true)) == 0


def test_partial_evaluation_with_min_overlap():
    true = [Entity(label="PER", start=0, end=9)]
    cases = [(4, 50.0, (0, 1, 0)), (2, 50.0, (0, 0, 1)), (9, 50.0, (1, 0, 0)), (6, 75.0, (0, 0, 1)),
             (7, 75.0, (0, 1, 0))]
    for end, pct, expected in cases:
        mine, _ = strategy("partial", true, [Entity(label="PER", start=0, end=end)], ["PER"], pct)
        assert (mine["correct"], mine["partial"], mine["spurious"]) == expected


def test_strict_evaluation_with_min_overlap():
    true = [Entity(label="PER", start=0, end=9)]
    mine, _ = strategy("strict", true, [Entity(label="PER", start=0, end=2)], ["PER"], 50.0)
    assert (mine["correct"], mine["incorrect"], mine["spurious"], mine["missed"]) == (0, 0, 1, 1)
    mine, _ = strategy("strict", true, [Entity(label="ORG", start=0, end=6)], ["PER", "ORG"], 50.0)
    assert (mine["correct"], mine["incorrect"], mine["spurious"], mine["missed"]) == (0, 1, 0, 0)


def test_entity_type_evaluation_with_min_overlap():
    true = [Entity(label="PER", start=0, end=9)]
    for pred, tags, expected in [(Entity("PER", 0, 6), ["PER"], (1, 0, 0, 0)),
                                 (Entity("ORG", 0, 6), ["PER", "ORG"], (0, 1, 0, 0)),
                                 (Entity("PER", 0, 2), ["PER"], (0, 0, 1, 1))]:
        mine, _ = strategy("ent_type", true, [pred], tags, 50.0)
        assert (mine["correct"], mine["incorrect"], mine["spurious"], mine["missed"]) == expected


def test_exact_evaluation_with_min_overlap():
    true = [Entity(label="PER", start=0, end=9)]
    for pred, expected in [(Entity("ORG", 0, 9), (1, 0, 0, 0)), (Entity("ORG", 0, 6), (0, 1, 0, 0)),
                           (Entity("ORG", 0, 2), (0, 0, 1, 1))]:
        mine, _ = strategy("exact", true, [pred], ["PER", "ORG"], 50.0)
        assert (mine["correct"], mine["incorrect"], mine["spurious"], mine["missed"]) == expected


def test_edge_cases_overlap_calculation():
    true = Entity(label="ORG", start=5, end=5)
    for pred, expected in [(Entity("ORG", 5, 5), 100.0), (Entity("ORG", 6, 6), 0.0), (Entity("ORG", 4, 6), 100.0)]:
        assert PartialEvaluation._calculate_overlap_percentage(pred, true) == expected
        assert _percentage(pred, true) == expected
    # and through the API: with 100% the single-token gold span inside 4..6 is still a partial match
    mine, _ = strategy("partial", [true], [Entity("ORG", 4, 6)], ["ORG"], 100.0)
    assert mine["partial"] == 1


def test_multiple_entities_with_min_overlap():
    true = [Entity(label="PER", start=0, end=4), Entity(label="ORG", start=10, end=14)]
    pred = [Entity(label="PER", start=0, end=1), Entity(label="ORG", start=10, end=12),
            Entity(label="LOC", start=20, end=22)]
    mine, _ = strategy("partial", true, pred, ["PER", "ORG", "LOC"], 50.0)
    assert (mine["correct"], mine["partial"], mine["spurious"], mine["missed"]) == (0, 1, 2, 1)
