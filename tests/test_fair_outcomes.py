"""``fair_outcomes``: what every span is counted as by Ortmann's Algorithm 2, without the counts made of it (the
error analysis reads only that): the very outcomes :func:`ts_eval.fair.fair_errors` gives, in both modes."""
from __future__ import annotations

import numpy as np
import pytest
from support import random_spans

from ts_eval.core.matching import match
from ts_eval.core.sequences import from_spans
from ts_eval.fair import OUTCOME_NAMES, fair_errors
from ts_eval.fair.algorithm import fair_outcomes


@pytest.mark.parametrize("mode", ["paper", "faireval-skip"])
@pytest.mark.parametrize("seed", range(12))
def test_the_outcomes_are_those_of_fair_errors(seed, mode):
    rng = np.random.default_rng(seed)
    lengths = [int(rng.integers(1, 12)) for _ in range(40)]
    labels = ["LOC", "ORG", "PER"]
    overlapping = seed % 2 == 1          # nested and crossing spans, repeated identical ones across the sides
    gold = [random_spans(rng, n, labels, overlapping) for n in lengths]
    system = [random_spans(rng, n, labels, overlapping) for n in lengths]
    corpus = from_spans(lengths, gold, system)
    g, s = corpus.gold, corpus.systems["system"]
    pairs = match(g, s)
    want = fair_errors(g, s, pairs, corpus.labels, corpus, mode=mode).span_outcomes
    got = fair_outcomes(g, s, pairs, corpus, mode=mode)
    for field in ("gold_type", "gold_partner", "gold_shared", "system_type", "system_partner", "system_shared"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
    assert len(got.gold_type) == len(g) and len(got.system_type) == len(s)


def test_a_hand_counted_sentence():
    """Gold PER 0-1 and LOC 3; the system PER 0 (shorter: BES), LOC 3 (TP) and ORG 5 (FP)."""
    corpus = from_spans([6], [[("PER", 0, 2), ("LOC", 3, 4)]], [[("PER", 0, 1), ("LOC", 3, 4), ("ORG", 5, 6)]])
    g, s = corpus.gold, corpus.systems["system"]
    got = fair_outcomes(g, s, match(g, s), corpus)
    assert [OUTCOME_NAMES[c] for c in got.gold_type] == ["BES", "TP"]
    assert [OUTCOME_NAMES[c] for c in got.system_type] == ["BES", "TP", "FP"]
    assert got.gold_partner.tolist() == [0, 1] and got.system_partner.tolist() == [0, 1, -1]
