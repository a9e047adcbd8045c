"""``rank`` with one process runs the permutation test in a thread beside the bootstrap (issue 32: the two share
the cores the bootstrap's drawing leaves): the same numbers as one after the other, and an error of the test is
raised in the caller."""
from __future__ import annotations

import threading
from typing import Any, List

import numpy as np
import pytest

import ts_eval.ranking.study as study
from ts_eval import rank

GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"], ["B-LOC", "O", "O", "B-PER"], ["O", "O"],
        ["B-MISC", "I-MISC", "O"], ["B-PER", "O", "B-ORG", "I-ORG"]] * 4
A = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-LOC", "O"], ["B-LOC", "O", "O", "O"], ["O", "O"],
     ["B-MISC", "O", "O"], ["B-PER", "O", "B-ORG", "I-ORG"]] * 4
B = [["B-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "O"], ["O", "O", "O", "B-PER"], ["B-PER", "O"],
     ["B-MISC", "I-MISC", "O"], ["B-PER", "O", "B-ORG", "O"]] * 4
OPTIONS: Any = dict(bootstrap=60, permutations=70, seed=3)


class InTurn:
    """:class:`ts_eval.ranking.study.Beside` done where it is asked for, after the bootstrap (one after the
    other, as before)."""

    def __init__(self, work):
        self.work = work

    def result(self, k=0):
        return self.work()

    def close(self):
        pass


def test_the_permutation_test_runs_in_a_thread_beside_the_bootstrap(monkeypatch):
    threads: List[str] = []
    real = study.run_permutation

    def noted(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(study, "run_permutation", noted)
    beside = rank(GOLD, {"a": A, "b": B}, **OPTIONS)
    assert threads == ["ts_eval-beside"]
    monkeypatch.setattr(study, "Beside", InTurn)
    in_turn = rank(GOLD, {"a": A, "b": B}, **OPTIONS)
    assert threads[1] == threading.main_thread().name
    assert beside.permutation is not None and in_turn.permutation is not None
    assert np.array_equal(beside.permutation.p_next, in_turn.permutation.p_next, equal_nan=True)
    assert np.array_equal(beside.permutation.pair_p, in_turn.permutation.pair_p, equal_nan=True)
    assert beside.bootstrap is not None and in_turn.bootstrap is not None
    assert np.array_equal(beside.bootstrap.resample_scores, in_turn.bootstrap.resample_scores)
    plain = [r.to_dict() for r in (beside, in_turn)]
    for d in plain:
        d.pop("timings", None)
    assert plain[0] == plain[1]


def test_an_error_of_the_test_beside_is_raised_in_the_caller(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("the test broke")

    monkeypatch.setattr(study, "run_permutation", broken)
    with pytest.raises(ValueError, match="the test broke"):
        rank(GOLD, {"a": A, "b": B}, **OPTIONS)
