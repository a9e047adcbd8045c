"""Distinct error groups kept as arrays while the blocks of a corpus are counted (issue 32): :class:`GroupTable`.

A group's key is five small whole numbers (its fair outcome code, gold label, gold string, system label, system
string: labels numbered as they came, strings numbered in one table of distinct strings, -1 for no span), kept as
a row of int32; its values (its count, then its first occurrence: the token and the spans, and for the groups
pooled over the systems the system) a row of int32 while every value fits (else int64).  No Python object a
group: 20 bytes of key and 4 a value (16 a system's group, 24 a pooled one).

A block's groups are put after the table (:meth:`GroupTable.add`) and merged with it when they are as many as the
table's rows (so each row is merged a few times, not once a block): the rows sorted by key, then by the columns
that tell which occurrence is first (``ties``: the first token, then the system's rank), and the rows of a key
made one: the counts summed, the rest the first occurrence's (the earliest row where the ties tie).  The blocks
come in order, and a block's rows (its error events themselves, one row each, a count of 1) in their order, so this
is what a dict of keys updated event after event gives.
"""
from __future__ import annotations

from typing import List, Tuple

import numpy as np

from ..core.arrays import sort_order

#: the key's columns: outcome code, gold label, gold string, system label, system string
KEY_COLUMNS = 5


class GroupTable:
    """Distinct groups (key rows of int32, value rows of ``width`` whole numbers: the count first, then the ``ties``
    columns that order the occurrences, earliest first, then the rest of the first occurrence)."""

    def __init__(self, width: int, ties: int = 1, merge_at: int = 1 << 16):
        self.width, self.ties, self.merge_at = width, ties, merge_at
        self._keys = np.zeros((0, KEY_COLUMNS), np.int32)
        self._values = np.zeros((0, width), np.int64)
        self._pending: List[Tuple[np.ndarray, np.ndarray]] = []
        self._waiting = 0

    def add(self, keys: np.ndarray, values: np.ndarray) -> None:
        """A block's rows (several may have one key): ``keys`` (n x 5 whole numbers), ``values`` (n x ``width``)."""
        if not len(keys):
            return
        self._pending.append((np.asarray(keys, np.int32), np.asarray(values)))
        self._waiting += len(keys)
        if self._waiting >= max(len(self._keys), self.merge_at):
            self._merge()

    def _merge(self) -> None:
        if not self._pending:
            return
        keys = np.concatenate([self._keys] + [k for k, _ in self._pending])
        values = np.concatenate([self._values] + [v for _, v in self._pending], dtype=np.int64)
        self._pending, self._waiting = [], 0
        order = sort_order([keys[:, c] for c in range(KEY_COLUMNS)] + [values[:, j] for j in range(1, self.ties + 1)])
        ks = keys[order]
        starts = np.flatnonzero(np.concatenate(([True], np.any(ks[1:] != ks[:-1], axis=1))))
        del ks
        count = np.add.reduceat(values[order, 0], starts) if len(order) else np.zeros(0, np.int64)
        first = order[starts]
        self._keys, self._values = keys[first], values[first]
        self._values[:, 0] = count
        if len(count) and int(self._values.min()) >= -2 ** 31 and int(self._values.max()) < 2 ** 31:
            self._values = self._values.astype(np.int32)        # (4 bytes a number while they fit)

    def __len__(self) -> int:
        self._merge()
        return len(self._keys)

    def rows(self) -> Tuple[np.ndarray, np.ndarray]:
        """(keys, values) of every group, sorted by key."""
        self._merge()
        return self._keys, self._values

    def contains(self, keys: np.ndarray) -> np.ndarray:
        """Whether each of ``keys`` (distinct rows) is a group's key."""
        mine = self.rows()[0]
        n = len(mine)
        both = np.concatenate([mine, np.asarray(keys, np.int32)])
        order = np.lexsort([np.arange(len(both))] + [both[:, c] for c in range(KEY_COLUMNS - 1, -1, -1)])
        s = both[order]
        same = np.zeros(len(both), bool)
        same[1:] = np.all(s[1:] == s[:-1], axis=1)
        same[1:] &= order[:-1] < n          # the row before is one of the table's (it sorts first: lower number)
        hit = np.zeros(len(keys), bool)
        at = order >= n
        hit[order[at] - n] = same[at]
        return hit
