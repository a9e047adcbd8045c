"""Invariants every registered model must keep (like scikit-learn's metrics/tests/test_common.py).

Every model ``score`` offers (:func:`ts_eval.models.registry.score_names`) and every ranking model
(:data:`ts_eval.models.registry.REGISTRY`) runs through the same checks on random corpora
(nested and overlapping spans included):

- identical input scores 1.0 (precision, recall, F, kappa) wherever gold has a span;
- swapping gold and system swaps precision and recall (and keeps F and kappa), except for
  the models listed in :data:`ASYMMETRIC` with the reason;
- the order of the sentences does not change any total;
- the per-sentence statistics a model declares sum to the totals ``score`` reports (each ranking
  score says which number of the report it is: :attr:`ts_eval.models.registry.Score.reported`);
- adding another system never changes a system's numbers or statistics.

A new model is covered by declaring it: the first test fails for a ranking score of a model ``score``
reports that does not say where the report holds it.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ts_eval.core.sequences import from_spans
from ts_eval.models.evaluate import evaluate
from ts_eval.models.registry import REGISTRY, SPECS, score_names
from ts_eval.ranking import sufficient

FAST = settings(max_examples=30, deadline=None)

#: the models ``score`` reports that read spans alone (the others need another input: GermEval-layout files,
#: generated outputs; test_germeval and test_generated test them)
MODELS = score_names("")
#: ranking score -> its model's declaration and the score's own, for the models ``score`` reports from spans
SCORE_OF = {m.name: (spec, s) for spec in SPECS.values() if spec.name in MODELS
            for m, s in zip(spec.models, spec.scores)}
SEMEVAL_SCHEMES = ("strict", "exact", "partial", "ent_type")

#: models for which swapping gold and system does not swap precision and recall
ASYMMETRIC = {
    "contain": "the system span must contain the gold span: swapped, gold must contain the system span",
    "contain-f1-micro": "the contain model (see above)",
    "fair": "Ortmann's Algorithm 2 resolves the target (gold) spans first and files LE/LBE errors under the "
            "target's label; only its traditional part (exact match) is symmetric and checked",
    "fair-f1": "fair errors (see above)",
    "weighted-f1": "fair errors (see above)",
    "semeval": "nervaluate walks the system spans in order and each takes at most one gold span, so with "
               "nested or overlapping spans the two roles are not exchangeable",
    "semeval-strict-f1": "SemEval-2013 (see above)",
    "semeval-exact-f1": "SemEval-2013 (see above)",
    "semeval-partial-f1": "SemEval-2013 (see above)",
    "semeval-ent-type-f1": "SemEval-2013 (see above)",
}

RANKABLE = list(SCORE_OF)
LABELS = "ABC"


@st.composite
def corpora(draw, n_systems: int = 1):
    """(lengths, gold spans, [system spans...]) per sentence: (label, start, end), end exclusive, nesting allowed."""
    lengths = draw(st.lists(st.integers(1, 7), min_size=1, max_size=5))

    def side():
        out = []
        for n in lengths:
            k = draw(st.integers(0, 3))
            spans = []
            for _ in range(k):
                a = draw(st.integers(0, n - 1))
                b = draw(st.integers(a, n - 1))                 # the last token
                spans.append((draw(st.sampled_from(LABELS)), a, b + 1))
            out.append(sorted(set(spans)))            # a span is given once
        return out

    return lengths, side(), [side() for _ in range(n_systems)]


def has_spans(side) -> bool:
    return any(side)


def micro_prf(family: str, result: dict, method: str = "fair") -> Dict[str, float]:
    """Micro (fair: overall) precision, recall and F of a family's result."""
    if family == "fair":
        row = result[method]["micro"]
        return {"precision": row["precision"], "recall": row["recall"], "f": row["f"]}
    if family == "semeval":     # nervaluate's overall row: all spans at once, not a sum of label rows
        row = result[method or "strict"]["overall"]
        return {"precision": row["precision"], "recall": row["recall"], "f": row["f"]}
    return {k: result["micro"][k] for k in ("precision", "recall", "f")}


def report_number(model: str, corpus, system: str) -> float:
    """The number of score's report that ranking model ``model`` is (where its declaration says)."""
    spec, score = SCORE_OF[model]
    out = evaluate(corpus, models=[spec.name], **dict(score.settings)).system(system)[spec.name]
    for key in score.reported:
        out = out[key]
    return out


def without_names(system: dict) -> str:
    return json.dumps({k: v for k, v in system.items() if k not in ("name", "source")}, sort_keys=True)


def present_rows(block: Any, like: Any = None) -> Any:
    """``block`` with its ``labels`` rows (at any depth) cut to the labels present in ``like``'s
    (default: its own): rows of labels absent for a system are shown with zero counts."""
    like = block if like is None else like
    if not isinstance(block, dict):
        return block
    out = {}
    for k, v in block.items():
        if k == "labels" and isinstance(v, dict) and all(isinstance(r, dict) for r in v.values()):
            keep = [lab for lab, r in like["labels"].items() if r.get("present", True)]
            out[k] = {lab: v[lab] for lab in keep}
        else:
            out[k] = present_rows(v, like.get(k) if isinstance(like, dict) else None)
    return out


def test_every_model_is_covered_here():
    assert MODELS == ["ts", "exact", "overlap", "constrained", "contain", "fair", "semeval"]
    assert set(REGISTRY) - set(SCORE_OF) == {"germeval-m1", "strings-f1-micro", "strings-f1-macro"}
    assert all(score.reported for _, score in SCORE_OF.values())     # every ranking score is a number of the report


# ---------------------------------------------------------------------------
# identical input


@pytest.mark.slow
@FAST
@given(corpora())
def test_identical_input_scores_one(c):
    lengths, gold, _ = c
    assume(has_spans(gold))
    corpus = from_spans(lengths, gold, {"s": gold})
    report = evaluate(corpus, models=MODELS).system("s")
    for family in MODELS:
        methods = {"fair": ("traditional", "fair", "weighted"), "semeval": SEMEVAL_SCHEMES}.get(family, ("",))
        for method in methods:
            assert micro_prf(family, report[family], method) == {"precision": 1.0, "recall": 1.0, "f": 1.0}, \
                (family, method)
    assert report["ts"]["micro"]["kappa"] == 1.0 and report["ts"]["macro"]["kappa"] == 1.0
    sm = sufficient.statistics(corpus, sufficient.resolve_models(RANKABLE))
    np.testing.assert_array_equal(sm.scores(sm.totals), 1.0)


# ---------------------------------------------------------------------------
# swapping gold and system


@FAST
@given(corpora())
def test_swapping_gold_and_system_swaps_precision_and_recall(c):
    lengths, gold, (system,) = c
    one = evaluate(from_spans(lengths, gold, {"s": system}), models=MODELS).system("s")
    two = evaluate(from_spans(lengths, system, {"s": gold}), models=MODELS).system("s")
    for family in MODELS:
        if family in ASYMMETRIC:
            continue
        a, b = micro_prf(family, one[family]), micro_prf(family, two[family])
        assert (a["precision"], a["recall"]) == pytest.approx((b["recall"], b["precision"]), abs=1e-12), family
        assert a["f"] == pytest.approx(b["f"], abs=1e-12), family
        for label, row in one[family]["labels"].items():
            other = two[family]["labels"][label]
            assert (row["precision"], row["recall"]) == pytest.approx((other["recall"], other["precision"]))
    a, b = micro_prf("fair", one["fair"], "traditional"), micro_prf("fair", two["fair"], "traditional")
    assert (a["precision"], a["recall"]) == pytest.approx((b["recall"], b["precision"]), abs=1e-12)
    assert one["ts"]["micro"]["kappa"] == pytest.approx(two["ts"]["micro"]["kappa"], abs=1e-12)


@FAST
@given(corpora())
def test_swapping_gold_and_system_keeps_symmetric_rank_scores(c):
    lengths, gold, (system,) = c
    models = sufficient.resolve_models([m for m in RANKABLE if m not in ASYMMETRIC])
    one = sufficient.statistics(from_spans(lengths, gold, {"s": system}), models)
    two = sufficient.statistics(from_spans(lengths, system, {"s": gold}), models)
    np.testing.assert_allclose(one.scores(one.totals), two.scores(two.totals), rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------
# sentence order


@pytest.mark.slow
@FAST
@given(corpora(), st.randoms(use_true_random=False))
def test_sentence_order_does_not_change_totals(c, rnd):
    lengths, gold, (system,) = c
    order = list(range(len(lengths)))
    rnd.shuffle(order)

    def pick(side: List) -> List:
        return [side[i] for i in order]

    a = from_spans(lengths, gold, {"s": system})
    b = from_spans(pick(lengths), pick(gold), {"s": pick(system)})
    one, two = evaluate(a, models=MODELS).system("s"), evaluate(b, models=MODELS).system("s")
    for r in (one, two):     # the reference lists the target labels in order of first appearance
        r["fair"]["target_stats"].sort(key=lambda t: t["label"])
    assert without_names(one) == without_names(two)
    models = sufficient.resolve_models(RANKABLE)
    sa, sb = sufficient.statistics(a, models), sufficient.statistics(b, models)
    np.testing.assert_array_equal(sa.totals, sb.totals)
    np.testing.assert_array_equal(sa.data[order], sb.data)     # each sentence keeps its statistics


# ---------------------------------------------------------------------------
# per-sentence statistics sum to score's totals


@pytest.mark.slow
@FAST
@given(corpora())
def test_sentence_statistics_sum_to_the_reported_totals(c):
    lengths, gold, (system,) = c
    corpus = from_spans(lengths, gold, {"s": system})
    models = sufficient.resolve_models(RANKABLE)
    sm = sufficient.statistics(corpus, models)
    got = sm.scores(sm.totals)[0]
    for j, m in enumerate(models):
        assert got[j] == pytest.approx(report_number(m.name, corpus, "s"), abs=1e-12), m.name
    # and the counts themselves
    report = evaluate(corpus, models=MODELS).system("s")
    labels = corpus.labels
    ts = sm.block(sm.totals, sufficient.get_model("ts-f1-micro"))[0][2:].reshape(len(labels), 6)
    for k, lab in enumerate(labels):
        row = report["ts"]["labels"][lab]
        assert [row["token"][x] for x in ("tp", "fp", "fn")] == ts[k, :3].tolist()
        assert [row["separator"][x] for x in ("tp", "fp", "fn")] == ts[k, 3:].tolist()
    ex = sm.block(sm.totals, sufficient.get_model("exact-f1-micro"))[0].reshape(len(labels), 4)
    for k, lab in enumerate(labels):
        row = report["exact"]["labels"][lab]
        assert [row["gold"], row["system"], row["tp"]] == ex[k, :3].tolist()
    fair = sm.block(sm.totals, sufficient.get_model("fair-f1"))[0].reshape(len(labels), 8).sum(0)
    micro = report["fair"]["fair"]["micro"]
    assert [micro[x] for x in ("tp", "fp", "fn", "le", "bes", "bel", "beo", "lbe")] == fair.tolist()


# ---------------------------------------------------------------------------
# another system


@pytest.mark.slow
@FAST
@given(corpora(n_systems=2))
def test_another_system_never_changes_a_systems_numbers(c):
    lengths, gold, (a, other) = c
    alone = from_spans(lengths, gold, {"a": a})
    beside = from_spans(lengths, gold, {"a": a, "other": other})
    one = evaluate(alone, models=MODELS).system("a")
    two = evaluate(beside, models=MODELS).system("a")
    for family in MODELS:
        mine, there = present_rows(one[family]), present_rows(two[family], one[family])
        assert json.dumps(mine, sort_keys=True) == json.dumps(there, sort_keys=True), family
    models = sufficient.resolve_models(RANKABLE)
    s1 = sufficient.statistics(alone, models)
    s2 = sufficient.statistics(beside, models, systems=["a"])
    np.testing.assert_array_equal(s1.scores(s1.totals), s2.scores(s2.totals))
