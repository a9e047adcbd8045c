"""The error groups kept as arrays (:class:`ts_eval.analysis.errors_groups.GroupTable`) against the dict of keys
updated block after block that they replace, on random keys with many repeats and ties of first occurrence."""
from __future__ import annotations

import random
from typing import Dict, List, Tuple

import numpy as np
import pytest

from ts_eval.analysis.errors_groups import GroupTable


def _blocks(rng: random.Random, n_blocks: int, pooled: bool, events: bool = False
            ) -> List[Tuple[np.ndarray, np.ndarray]]:
    """Blocks of groups, one row a key within a system's part of a block (``events``: a row an error event, as
    :class:`~ts_eval.analysis.errors_blocks.ErrorCounts` gives them: a key on several rows, in no order); the first
    token grows block after block; pooled: the systems of a block share first tokens (ties, told apart by rank)."""
    out = []
    token = 0
    for _ in range(n_blocks):
        for system in range(2 if pooled else 1):
            keys = [(rng.randrange(3), rng.randrange(-1, 2), rng.randrange(-1, 4), rng.randrange(-1, 2),
                     rng.randrange(-1, 4)) for _ in range(rng.randrange(0, 12))]
            rows = []
            for key in (keys if events else sorted(set(keys))):
                pos = token + rng.randrange(5)
                head = [rng.randrange(1, 4), pos] + ([1 - system, system] if pooled else [])
                rows.append((key, head + [rng.randrange(100), rng.randrange(100)]))
            width = 6 if pooled else 4
            out.append((np.array([k for k, _ in rows], np.int64).reshape(-1, 5),
                        np.array([v for _, v in rows], np.int64).reshape(-1, width)))
        token += 5
    return out


def _with_dict(blocks: List[Tuple[np.ndarray, np.ndarray]], ties: int) -> Dict[tuple, List[int]]:
    """What a dict of keys updated block after block keeps: counts summed, the earliest occurrence's values."""
    d: Dict[tuple, List[int]] = {}
    for keys, values in blocks:
        for key, v in zip(map(tuple, keys.tolist()), values.tolist()):
            if key not in d:
                d[key] = v
                continue
            have = d[key]
            count = have[0] + v[0]
            if v[1:1 + ties] < have[1:1 + ties]:
                have[:] = v
            have[0] = count
    return d


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("pooled", [False, True])
@pytest.mark.parametrize("merge_at", [1, 7, 1 << 16])
@pytest.mark.parametrize("events", [False, True])
def test_group_table_is_the_dict_it_replaces(seed: int, pooled: bool, merge_at: int, events: bool) -> None:
    rng = random.Random(seed)
    blocks = _blocks(rng, 40, pooled, events)
    ties = 2 if pooled else 1
    table = GroupTable(6 if pooled else 4, ties=ties, merge_at=merge_at)
    for keys, values in blocks:
        table.add(keys, values)
    want = _with_dict(blocks, ties)
    keys, values = table.rows()
    assert keys.dtype == np.int32 and values.dtype == np.int32          # (4 bytes a number while they fit)
    got = {tuple(k): v for k, v in zip(keys.tolist(), values.tolist())}
    assert len(got) == len(keys) == len(table) == len(want)
    assert got == want
    assert keys.tolist() == sorted(keys.tolist())          # sorted by key
    assert table.contains(keys).all()
    absent = np.array([[9, 0, 0, 0, 0], [0, 5, 0, 0, 0]], np.int64)
    assert not table.contains(absent).any()
    assert table.contains(np.zeros((0, 5), np.int64)).shape == (0,)


def test_group_table_empty() -> None:
    table = GroupTable(4)
    table.add(np.zeros((0, 5), np.int64), np.zeros((0, 4), np.int64))
    assert len(table) == 0 and table.rows()[0].shape == (0, 5)
    assert not table.contains(np.array([[0, 0, 0, 0, 0]])).any()


def test_group_table_values_beyond_int32_stay_int64() -> None:
    """A first token past 2**31 (a corpus of billions of tokens) keeps the values in 8 bytes each, exactly."""
    table = GroupTable(4)
    table.add(np.array([[1, 0, 0, 0, 0]]), np.array([[1, 2 ** 31 + 5, 0, -1]]))
    table.add(np.array([[1, 0, 0, 0, 0], [2, 0, 0, 0, 0]]), np.array([[1, 2 ** 31 + 9, 1, 0], [1, 3, 4, 5]]))
    values = table.rows()[1]
    assert values.dtype == np.int64
    assert values.tolist() == [[2, 2 ** 31 + 5, 0, -1], [1, 3, 4, 5]]
