"""Small numpy helpers shared by several modules."""
from __future__ import annotations

import numpy as np


def unique(x: np.ndarray) -> np.ndarray:
    """Sorted distinct values of a 1-D array.

    Sort and compare neighbours: numpy 2.x's plain ``np.unique`` uses a hash path
    that took 0.68 s on 1M integers here, against 0.013 s for the sort.
    """
    x = np.sort(np.asarray(x).ravel())
    if len(x) < 2:
        return x
    keep = np.empty(len(x), bool)
    keep[0] = True
    np.not_equal(x[1:], x[:-1], out=keep[1:])
    return x[keep]


def overlap_clusters(start: np.ndarray, last: np.ndarray) -> np.ndarray:
    """For spans ordered by ``start`` (``last`` inclusive), the cluster of each, numbered 0, 1, ... in
    order: a span starting after every earlier span has ended opens a new cluster, so a cluster holds
    spans chained by overlap (one sweep of the running maximum of ``last``)."""
    if not len(start):
        return np.zeros(0, np.int64)
    reach = np.maximum.accumulate(last)
    new = np.ones(len(start), bool)
    new[1:] = start[1:] > reach[:-1]
    return np.cumsum(new) - 1
