"""Small numpy helpers shared by several modules."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

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


def search(sorted_values: np.ndarray, needles: Any, side: str = "left") -> np.ndarray:
    """``np.searchsorted(sorted_values, needles, side)`` without a copy of ``sorted_values``: a Python int needle
    makes numpy cast the whole array to int64 first (33 ms a search in 10M int32 values, against 5 us with needles
    of the array's own dtype). The needles take that dtype when it holds them, else the smallest that does."""
    n = np.asarray(needles)
    top = int(np.abs(n).max()) if n.size and n.dtype.kind in "iu" else 0
    kind = np.result_type(sorted_values.dtype, np.min_scalar_type(top)) if n.dtype.kind in "iu" else n.dtype
    return np.searchsorted(sorted_values, n.astype(kind, copy=False), side=side)  # type: ignore[call-overload,no-any-return]


def sort_order(columns: Sequence[np.ndarray]) -> np.ndarray:
    """The stable order of rows by whole-number ``columns`` (the first the most significant): what
    ``np.lexsort(columns[::-1])`` gives, with neighbouring columns packed into one int64 key while their ranges fit
    in 63 bits (most often all of them: one sort, not one a column)."""
    n = len(columns[0]) if len(columns) else 0
    keys: List[np.ndarray] = []
    key, bits = np.zeros(n, np.int64), 0
    for c in columns:
        c = np.asarray(c).astype(np.int64)
        low = int(c.min()) if n else 0
        width = (int(c.max()) - low).bit_length() if n else 0
        if width > 63:
            return np.lexsort([np.asarray(x) for x in columns[::-1]])
        if bits + width > 63:
            keys.append(key)
            key, bits = np.zeros(n, np.int64), 0
        key = (key << width) | (c - low)
        bits += width
    keys.append(key)
    order: np.ndarray = np.argsort(keys[0], kind="stable") if len(keys) == 1 else np.lexsort(keys[::-1])
    return order


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


def ranges_tokens(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The tokens a[0]..b[0]-1, then a[1]..b[1]-1, ... one after the other (int64)."""
    n = b - a
    ends = np.cumsum(n)
    return np.repeat(a - ends + n, n) + np.arange(int(ends[-1]) if len(ends) else 0)


#: the slices :func:`join_slices` gathers at a time (its temporaries stay a few MB)
JOIN_SLICES = 1 << 16


def join_slices(raw: np.ndarray, start: np.ndarray, length: np.ndarray, counts: np.ndarray) -> List[str]:
    """Per group of ``counts[i]`` consecutive slices ``raw[start:start + length]`` (every group holds one at
    least, no slice holds a line end) the slices joined by one space: gathered into one buffer (about
    :data:`JOIN_SLICES` slices at a time), decoded once and cut at the line ends between the groups."""
    counts = np.asarray(counts, np.int64)
    if not len(counts):
        return []
    ends = np.cumsum(counts)
    out: List[str] = []
    g0 = 0
    while g0 < len(counts):
        base = int(ends[g0 - 1]) if g0 else 0
        g1 = max(int(np.searchsorted(ends, base + JOIN_SLICES, side="right")), g0 + 1)
        t1 = int(ends[g1 - 1])
        ln = length[base:t1].astype(np.int64)
        end = np.cumsum(ln + 1)               # each slice then one byte: a space, a line end after a group
        buf = np.full(int(end[-1]), ord(" "), np.uint8)
        buf[end[ends[g0:g1] - base - 1] - 1] = ord("\n")
        within = np.arange(int(end[-1]) - (t1 - base)) - np.repeat(np.cumsum(ln) - ln, ln)
        buf[np.repeat(end - ln - 1, ln) + within] = raw[np.repeat(start[base:t1].astype(np.int64), ln) + within]
        out += buf.tobytes().decode("utf-8", "surrogatepass").split("\n")[:-1]
        g0 = g1
    return out


# a polynomial hash of byte slices (uint64 arithmetic wraps around: hashing mod 2**64), checked byte by byte
_SLICE_BASE = 0x9E3779B97F4A7C15


def _slice_bytes(raw: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The bytes of the slices ``raw[start:start + length]`` one after the other."""
    ln = length.astype(np.int64)
    ends = np.cumsum(ln)
    return raw[np.repeat(start.astype(np.int64) - ends + ln, ln) + np.arange(int(ends[-1]) if len(ends) else 0)]


def _powers(n: int) -> Tuple[np.ndarray, np.ndarray]:
    """The first ``n`` powers of the hash's base and of its inverse (mod 2**64)."""
    with np.errstate(over="ignore"):
        up, down = np.full(max(n, 1), _SLICE_BASE, np.uint64), np.full(max(n, 1), pow(_SLICE_BASE, -1, 2 ** 64),
                                                                      np.uint64)
        up[0] = down[0] = 1
        return np.cumprod(up, dtype=np.uint64), np.cumprod(down, dtype=np.uint64)


_LOW = np.array([(1 << (8 * k)) - 1 for k in range(8)], np.uint64)
_LONG = np.uint64(1 << 63)


def _slice_keys(raw: np.ndarray, start: np.ndarray, length: np.ndarray, short: np.ndarray,
                up: np.ndarray, down: np.ndarray) -> np.ndarray:
    """Per slice a key: a ``short`` slice (at most 7 bytes) its bytes and its length in the top byte (equal keys,
    equal slices); another a polynomial hash of its bytes with the top bit set (equal slices, equal keys)."""
    key = np.empty(len(start), np.uint64)
    st, ln = start[short], length[short]
    inside = st + 8 <= len(raw)                 # 8 bytes from the slice's start are in the bytes: one read
    words = np.zeros(len(st), np.uint64)
    if inside.any():
        windows = np.lib.stride_tricks.as_strided(raw, shape=(len(raw) - 7, 8), strides=(1, 1)).view("<u8")[:, 0]
        words[inside] = windows[st[inside]]
    for k in np.flatnonzero(~inside).tolist():
        words[k] = int.from_bytes(raw[st[k]:st[k] + ln[k]].tobytes(), "little")
    key[short] = (words & _LOW[ln]) | (ln.astype(np.uint64) << np.uint64(56))
    st, ln = start[~short], length[~short]
    data = _slice_bytes(raw, st, ln)
    ends = np.cumsum(ln)
    with np.errstate(over="ignore"):
        cum = np.zeros(len(data) + 1, np.uint64)
        np.cumsum((data.astype(np.uint64) + np.uint64(1)) * up[:len(data)], out=cum[1:])
        h = (cum[ends] - cum[ends - ln]) * down[ends - ln] * np.uint64(_SLICE_BASE) + ln.astype(np.uint64)
    key[~short] = h | _LONG
    return key


def distinct_slices(raw: np.ndarray, start: np.ndarray, length: np.ndarray,
                    chunk: int = 1 << 16) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """(per slice ``raw[start:start + length]`` the number of its distinct bytes, in order of first occurrence
    (int32 below 2**31 slices); per number its first slice), ``chunk`` slices at a time: each slice of a chunk
    made a key (a slice of at most 7 bytes its bytes, a longer one a polynomial hash of its bytes), the keys
    looked up among the distinct ones so far, and every longer slice checked byte by byte against the first
    slice of its number.  None on a hash collision (two distinct slices alike: the caller's exact way)."""
    n = len(start)
    ids = np.zeros(n, np.int32 if n < 2 ** 31 else np.int64)     # (numbers below n)
    first = np.zeros(1024, np.int64)                 # per number its first slice (grown as needed)
    known, known_id = np.zeros(0, np.uint64), np.zeros(0, np.int64)     # the keys so far (sorted), their numbers
    distinct = 0
    words = raw.dtype == np.uint8 and raw.ndim == 1 and raw.strides == (1,)    # 8 bytes read at once
    up, down = _powers(0)
    for a in range(0, n, chunk):
        b = min(n, a + chunk)
        st, ln = start[a:b].astype(np.int64), length[a:b].astype(np.int64)
        short = ln <= 7 if words else np.zeros(len(ln), bool)
        total = int(ln[~short].sum())
        if len(up) < total + 1:
            up, down = _powers(2 * total + 1)
        h = _slice_keys(raw, st, ln, short, up, down)
        order = np.argsort(h)
        hs = h[order]
        new = np.ones(len(hs), bool)
        np.not_equal(hs[1:], hs[:-1], out=new[1:])
        uh = hs[new]
        group = np.empty(len(h), np.int64)
        group[order] = np.cumsum(new) - 1
        ufirst = np.empty(len(uh), np.int64)
        ufirst[group[::-1]] = np.arange(len(h) - 1, -1, -1)          # the first slice of each key
        where = np.searchsorted(known, uh)
        at = np.minimum(where, max(len(known) - 1, 0))
        seen = known[at] == uh if len(known) else np.zeros(len(uh), bool)
        uid = np.empty(len(uh), np.int64)
        uid[seen] = known_id[at[seen]]
        fresh = np.flatnonzero(~seen)                  # in the order of their keys
        by_first = fresh[np.argsort(ufirst[fresh])]
        uid[by_first] = np.arange(distinct, distinct + len(fresh))
        if distinct + len(fresh) > len(first):
            first = np.concatenate((first, np.zeros(max(len(first), len(fresh)), np.int64)))
        first[distinct:distinct + len(fresh)] = ufirst[by_first] + a
        distinct += len(fresh)
        known = np.insert(known, where[fresh], uh[fresh])
        known_id = np.insert(known_id, where[fresh], uid[fresh])
        ids[a:b] = uid[group]
        long = ~short                                  # every longer slice as its number's first slice, byte for byte
        rep = first[ids[a:b][long]]
        if not np.array_equal(ln[long], length[rep]) or not np.array_equal(
                _slice_bytes(raw, st[long], ln[long]), _slice_bytes(raw, start[rep], ln[long])):
            return None
    return ids, first[:distinct]
