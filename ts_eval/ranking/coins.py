"""The permutation test's swaps of some units only, without drawing the others' numbers.

A permutation swaps unit ``i`` when the ``i``-th of ``units`` uniform numbers of numpy's ``Generator.random``
is below 1/2 (:func:`ts_eval.ranking.rows.swaps`).  The test reads only the units whose systems differ
(:class:`ts_eval.ranking.rows.MovingSums`: a tenth of them on the synthetic corpora), but drawing every unit's
number cost 1.5-1.8 ms a permutation at 10M tokens.  numpy's default generator is PCG64: a 128-bit linear
congruential state ``s -> a s + c`` (mod 2**128), one step per 64-bit output, the output ``x`` the state's
two halves xor-ed and rotated right by its top 6 bits (XSL-RR); ``random()`` is ``(x >> 11) / 2**53``, below
1/2 exactly when the top bit of ``x`` is 0 (:func:`below_half`, which the analyze pair tests' stream of raw
outputs uses too).  :class:`Coins` keeps the state of every wanted unit's output,
reads those top bits, moves every state on by one permutation's ``units`` steps (the same affine map for all:
a few whole-array operations on 64-bit halves) and moves the generator on as the draws of every unit would
(``advance``): the same booleans and the same generator afterwards (``tests/test_rank_coins.py`` checks both
against numpy), in 0.6-0.7 ms a permutation at 10M tokens.  Any other generator: :func:`coins` gives None and
the caller draws every number.
"""
from __future__ import annotations

from typing import List, Optional

import numpy as np

MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645    # PCG64's (numpy's PCG_DEFAULT_MULTIPLIER_128)
MASK128, MASK64 = (1 << 128) - 1, (1 << 64) - 1
LOW32, HALF = np.uint64(0xFFFFFFFF), np.uint64(32)
#: a generator's raw 64-bit output below this is a ``Generator.random()`` below 1/2 (``random()`` is the output's
#: top 53 bits times 2**-53: below 1/2 exactly when the top bit is 0)
TOP_BIT = np.uint64(1 << 63)


def below_half(raw: np.ndarray, out: Optional[np.ndarray] = None) -> np.ndarray:
    """``random() < 0.5`` of the numbers whose raw 64-bit outputs are ``raw`` (into ``out``, booleans, when given):
    the swaps of a permutation test from the outputs themselves (:data:`TOP_BIT`)."""
    got: np.ndarray = np.less(raw, TOP_BIT, out=out)
    return got


def jump(steps: int, inc: int) -> tuple[int, int]:
    """(A, C): ``steps`` steps of the state ``s -> MULTIPLIER s + inc`` are ``s -> A s + C`` (mod 2**128)."""
    a, c, big_a, big_c = MULTIPLIER, inc, 1, 0
    while steps:
        if steps & 1:
            big_a, big_c = (a * big_a) & MASK128, (a * big_c + c) & MASK128
        a, c = (a * a) & MASK128, (a * c + c) & MASK128
        steps >>= 1
    return big_a, big_c


class Affine:
    """``s -> A s + C`` (mod 2**128) of a vector of 128-bit states held as their 64-bit halves, in place
    (numpy's uint64 products wrap: the low half of a product; the high half of ``lo * A``'s low half from
    32-bit pieces)."""

    def __init__(self, big_a: int, big_c: int) -> None:
        self.low, self.high = np.uint64(big_a & MASK64), np.uint64(big_a >> 64)
        self.low0, self.low1 = np.uint64(big_a & 0xFFFFFFFF), np.uint64((big_a >> 32) & 0xFFFFFFFF)
        self.c_low, self.c_high = np.uint64(big_c & MASK64), np.uint64(big_c >> 64)

    def __call__(self, hi: np.ndarray, lo: np.ndarray, tmp: List[np.ndarray]) -> None:
        x0, x1, p, q = (t[:len(hi)] for t in tmp)
        hi *= self.low
        np.multiply(lo, self.high, out=p)
        hi += p
        np.bitwise_and(lo, LOW32, out=x0)
        np.right_shift(lo, HALF, out=x1)
        np.multiply(x1, self.low1, out=p)           # the four 32 x 32-bit products of lo x low
        hi += p
        np.multiply(x0, self.low1, out=p)
        np.multiply(x1, self.low0, out=q)
        np.multiply(x0, self.low0, out=x0)
        np.right_shift(x0, HALF, out=x1)            # the middle 32 bits' sum, and what carries out of it
        for part in (p, q):
            np.right_shift(part, HALF, out=x0)
            hi += x0
            part &= LOW32
            x1 += part
        x1 >>= HALF
        hi += x1
        lo *= self.low
        lo += self.c_low
        hi += self.c_high
        hi += lo < self.c_low


class Coins:
    """The ``random() < 0.5`` of the units ``picked`` (sorted) among ``units`` draws, a permutation at a time,
    from a PCG64 generator's state ``state`` with increment ``inc``."""

    def __init__(self, state: int, inc: int, picked: np.ndarray, units: int) -> None:
        n = len(picked)
        self.units, self.state, self.inc = units, state, inc
        self.tmp = [np.empty(n, np.uint64) for _ in range(4)]
        self.hi = np.full(n, np.uint64(state >> 64))
        self.lo = np.full(n, np.uint64(state & MASK64))
        steps = np.asarray(picked, np.int64) + 1       # output i: the state after i + 1 steps
        bit = 0
        while n and steps.max() >> bit:                # the steps' binary digits: jumps of 2**bit
            on = np.flatnonzero((steps >> bit) & 1)
            hi, lo = self.hi[on], self.lo[on]
            Affine(*jump(1 << bit, inc))(hi, lo, self.tmp)
            self.hi[on], self.lo[on] = hi, lo
            bit += 1
        self.next = Affine(*jump(units, inc))

    def draw(self) -> np.ndarray:
        """The next permutation's swaps of the picked units (and every state moved on by ``units`` steps)."""
        x, shift = self.tmp[0], self.tmp[1]
        np.bitwise_xor(self.hi, self.lo, out=x)
        np.right_shift(self.hi, np.uint64(58), out=shift)     # the rotation; the output's top bit is x's
        shift += np.uint64(63)                                # bit (rotation - 1) mod 64
        shift &= np.uint64(63)
        x >>= shift
        x <<= np.uint64(63)                                   # the output's top bit, the rest 0s
        swapped = below_half(x)
        self.next(self.hi, self.lo, self.tmp)
        return swapped


def coins(rng: np.random.Generator, picked: np.ndarray, units: int, kept: Optional[Coins] = None
          ) -> Optional[Coins]:
    """:class:`Coins` of ``rng``'s next draws (``kept``, when it was made for them, else new; None: ``rng`` is
    not a PCG64 generator in a plain state, draw every number)."""
    gen = rng.bit_generator
    if type(gen) is not np.random.PCG64:
        return None
    st = gen.state
    if st["has_uint32"]:
        return None
    state, inc = st["state"]["state"], st["state"]["inc"]
    made = kept if kept is not None and (kept.state, kept.inc, kept.units) == (state, inc, units) else Coins(
        state, inc, picked, units)
    made.state = -1           # (until :func:`taken`: draws cut short leave it for no generator)
    return made


def taken(rng: np.random.Generator, made: Coins, permutations: int) -> None:
    """``rng`` moved on as ``permutations`` permutations of every unit's draw would, ``made`` told where it is."""
    gen = rng.bit_generator
    assert isinstance(gen, np.random.PCG64)
    gen.advance(permutations * made.units)
    made.state = gen.state["state"]["state"]
