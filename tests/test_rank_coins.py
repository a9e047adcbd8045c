"""The permutation test's swaps of some units made from PCG64's state (:mod:`ts_eval.ranking.coins`): the same
booleans as numpy's ``random(units) < 0.5`` at those units, permutation after permutation, and the generator
left where drawing every number leaves it."""
from __future__ import annotations

import numpy as np
import pytest

from ts_eval.ranking.coins import Coins, coins, jump, taken
from ts_eval.ranking.rows import MovingSums


def test_the_jump_is_numpy_s_advance():
    for steps in (0, 1, 2, 7, 1000, 664505, 2 ** 40 + 3):
        gen = np.random.PCG64(11)
        state, inc = gen.state["state"]["state"], gen.state["state"]["inc"]
        a, c = jump(steps, inc)
        gen.advance(steps)
        assert gen.state["state"]["state"] == (a * state + c) % 2 ** 128


@pytest.mark.parametrize("units,picked", [
    (1, [0]), (5, []), (10, [0, 9]), (1000, "every"), (1000, "some"), (70001, "some")])
def test_the_swaps_of_the_picked_units_are_numpy_s(units, picked):
    if picked == "every":
        picked = np.arange(units)
    elif picked == "some":
        picked = np.flatnonzero(np.random.default_rng(units).random(units) < 0.1)
    picked = np.asarray(picked, np.intp)
    seq = np.random.SeedSequence(7).spawn(3)[1]
    numpy_rng, rng = np.random.default_rng(seq), np.random.default_rng(seq)
    made = None
    for count in (3, 1, 4):        # kept from call to call, as the test's chunks of permutations
        made = coins(rng, picked, units, made)
        assert made is not None
        for _ in range(count):
            assert np.array_equal(made.draw(), (numpy_rng.random(units) < 0.5)[picked])
        taken(rng, made, count)
        assert rng.bit_generator.state == numpy_rng.bit_generator.state
    assert np.array_equal(rng.random(20), numpy_rng.random(20))


def test_kept_coins_are_made_again_for_another_state():
    picked, rng = np.array([1, 4]), np.random.default_rng(3)
    made = coins(rng, picked, 6)
    assert isinstance(made, Coins)
    made.draw()                     # cut short: not taken
    again = coins(rng, picked, 6, made)
    assert again is not made and np.array_equal(again.draw(), (np.random.default_rng(3).random(6) < 0.5)[picked])


def test_other_generators_draw_every_number():
    assert coins(np.random.Generator(np.random.MT19937(1)), np.arange(3), 5) is None
    half = np.random.default_rng(1)
    half.integers(0, 2 ** 31, dtype=np.uint32)      # half of a 64-bit output kept for the next 32-bit draw
    assert coins(half, np.arange(3), 5) is None


def test_moving_sums_with_another_generator_are_those_of_pcg64_s_numbers():
    table = np.array([[1, 1, 2, 2], [0, 3, 1, 1], [2, 0, 0, 4]], np.float32)
    ids = np.array([0, 1, 2, 1, 0, 2, 2])
    later, base = np.array([2, 3]), np.array([0, 1])
    pcg = MovingSums(table, ids, later, base).swapped(np.random.Generator(np.random.PCG64(4)), 5)
    mt = MovingSums(table, ids, later, base).swapped(np.random.Generator(np.random.MT19937(4)), 5)
    swaps = np.random.Generator(np.random.MT19937(4)).random((5, 7)) < 0.5
    every = swaps.astype(np.float64) @ table[ids][:, later] - swaps.astype(np.float64) @ table[ids][:, base]
    assert np.array_equal(mt[:, later], every)
    pcg_swaps = np.random.Generator(np.random.PCG64(4)).random((5, 7)) < 0.5
    assert np.array_equal(pcg[:, later], pcg_swaps @ table[ids][:, later] - pcg_swaps @ table[ids][:, base])
