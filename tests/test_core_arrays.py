"""core/arrays helpers against brute force."""
from __future__ import annotations

from typing import List, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval.core.arrays import overlap_clusters, sort_order

spans = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 6)), max_size=25).map(
    lambda xs: sorted((s, s + n) for s, n in xs))


def components(pairs: List[Tuple[int, int]]) -> List[int]:
    """Connected components of 'shares a token' (last inclusive), numbered in order of first span."""
    parent = list(range(len(pairs)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, (a, b) in enumerate(pairs):
        for j, (c, d) in enumerate(pairs[:i]):
            if a <= d and c <= b:
                parent[root(i)] = root(j)
    ids: dict = {}
    return [ids.setdefault(root(i), len(ids)) for i in range(len(pairs))]


@settings(max_examples=200, deadline=None)
@given(spans)
def test_overlap_clusters_are_the_components_of_overlap(pairs):
    start = np.array([a for a, _ in pairs], np.int64)
    last = np.array([b for _, b in pairs], np.int64)
    assert overlap_clusters(start, last).tolist() == components(pairs)


def test_overlap_clusters_by_hand():
    # [0,2] [1,1] chain; [3,3] alone; [5,6] [6,9] [8,8] chain (adjacent spans stay apart)
    got = overlap_clusters(np.array([0, 1, 3, 5, 6, 8]), np.array([2, 1, 3, 6, 9, 8]))
    assert got.tolist() == [0, 0, 1, 2, 2, 2]
    assert overlap_clusters(np.zeros(0, np.int64), np.zeros(0, np.int64)).tolist() == []


@pytest.mark.parametrize("seed", range(40))
def test_sort_order_is_lexsort(seed):
    """Columns packed into one int64 key while they fit (bools, negatives, wide ranges that need a second key or
    none at all) sort the rows as np.lexsort does, ties in their order."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 300))
    big = np.iinfo(np.int64)
    cols = [rng.integers(-int(10 ** rng.integers(0, 12)), int(10 ** rng.integers(0, 12)) + 1, n)
            for _ in range(int(rng.integers(1, 7)))] + [rng.integers(0, 2, n).astype(bool)]
    if seed % 5 == 0:
        cols.append(rng.choice(np.array([big.min, 0, big.max]), n))
    assert sort_order(cols).tolist() == np.lexsort(cols[::-1]).tolist()


def test_search_is_searchsorted_for_any_needle():
    from ts_eval.core.arrays import search
    a = np.array([0, 3, 3, 7, 40_000], np.int32)
    for side in ("left", "right"):
        for needles in (3, [0, 7], np.array([5, 40_000]), 2**40, [-(2**40), 1]):
            assert np.array_equal(search(a, needles, side), np.searchsorted(a, needles, side=side))
    assert np.array_equal(search(a, np.array([2.5, 7.0])), np.searchsorted(a, [2.5, 7.0]))
