"""Per-unit statistics kept once per distinct row, and the resampling sums they give.

A corpus's sentences have few distinct rows of statistics (counts of a handful of spans and tokens per
label): :class:`RowTable` keeps each distinct row once and every unit (sentence or document) as the
number of its row (``int32``), so what ``rank`` keeps grows with 4 bytes per unit and the distinct rows,
not with units x statistics.  Rows are told apart by a 64-bit hash of their values and checked value for
value; a row whose hash is taken by another row is kept again (a table may hold a row twice; every unit
still reads its own values).

The resampling sums of such a table (:class:`RowSums`) are those of the units' rows, drawn from the same
random numbers as the matrix of every unit (:class:`DenseSums`, :func:`bootstrap_weights`, :func:`swaps`):
a bootstrap resample draws ``units`` unit numbers, a permutation one uniform number per unit; the draws
are counted per distinct row and the counts multiplied by the table.  The statistics are integers, so the
sums are the same integers in any order of addition: the scores are the same numbers to the last bit.
"""
from __future__ import annotations

import queue
import threading
from typing import Any, Callable, Iterable, Iterator, List, Optional, Protocol, Tuple, TypeVar

import numpy as np

from .coins import Coins, coins, taken
from .statistics import Products

T = TypeVar("T")

#: odd 64-bit multipliers of the row hash (a fixed seed: the same rows get the same numbers in every run)
_MULTIPLIERS = np.random.default_rng(20260101).integers(1, 2 ** 63, size=4096, dtype=np.int64).view(np.uint64) | 1


def hash_multipliers(k: int) -> np.ndarray:
    """The k fixed odd 64-bit numbers of the row hash: a hash of k whole numbers is their sum times these, modulo
    2**64 (equal values, equal hashes, in whatever order the values are added up)."""
    return _MULTIPLIERS[:k] if k <= len(_MULTIPLIERS) else np.resize(_MULTIPLIERS, k)


def row_hashes(rows: np.ndarray, whole: Optional[bool] = None) -> np.ndarray:
    """A 64-bit hash of every row's values (equal values, equal hashes): of whole numbers (``whole``; None:
    look) a sum of the values times odd 64-bit numbers, else of the values' float64 bits."""
    k = rows.shape[1]
    mult = hash_multipliers(k)
    if not k:
        return np.zeros(len(rows), np.uint64)
    if whole is None:
        whole = integral(rows) and bool(np.abs(rows).max(initial=0) < 2.0 ** 62)
    with np.errstate(over="ignore"):
        if whole:
            out: np.ndarray = np.einsum("ij,j->i", rows, mult.view(np.int64), dtype=np.int64,     # (no int64 copy
                                        casting="unsafe").view(np.uint64)                       # of the rows)
        else:   # a small whole number's bits are all in the top 12: folded down before the multiplication
            bits = np.ascontiguousarray(rows, np.float64).view(np.uint64)
            out = ((bits ^ (bits >> np.uint64(32)) ^ (bits >> np.uint64(48))) * mult).sum(1, dtype=np.uint64)
        out = out ^ (out >> np.uint64(29))
    return out


class RowTable:
    """Distinct rows in order of first use (``rows(n)``: the first ``n`` rows of ``data``, a matrix the caller
    grows) and the hashes that find them."""

    def __init__(self) -> None:
        self.hashes = np.zeros(0, np.uint64)     # sorted
        self.where = np.zeros(0, np.int64)       # the row of each hash

    def rehash(self, rows: np.ndarray) -> None:
        """Forget the hashes and take those of ``rows`` (after the columns changed)."""
        h = row_hashes(rows, None)
        self.hashes, first = np.unique(h, return_index=True)
        self.where = first.astype(np.int64)

    def ids(self, block: np.ndarray, table: np.ndarray, known: int, whole: Optional[bool] = None,
            hashes: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
        """(each row of ``block``'s number, the rows of ``block`` that are new, in the order they are numbered
        from ``known`` on); ``table``: the ``known`` rows so far; ``whole``: every value of ``block`` a whole
        number below 2**62 (None: look); ``hashes``: the rows' hashes when the caller has them (equal rows, equal
        hashes)."""
        h = row_hashes(block, whole) if hashes is None else hashes
        uh, first, inverse = np.unique(h, return_index=True, return_inverse=True)
        pos = np.searchsorted(self.hashes, uh)
        found = pos < len(self.hashes)
        found[found] = self.hashes[pos[found]] == uh[found]
        number = np.empty(len(uh), np.int64)
        number[found] = self.where[pos[found]]
        fresh = np.flatnonzero(~found)
        fresh = fresh[np.argsort(first[fresh], kind="stable")]      # numbered in order of first use
        number[fresh] = known + np.arange(len(fresh))
        inverse = inverse.reshape(-1)
        ids = number[inverse]
        new_rows = block[first[fresh]]
        wrong = self._wrong(block, first, inverse, number, table, known)
        if len(wrong):                          # a hash of another row: these rows are kept again
            ids[wrong] = known + len(fresh) + np.arange(len(wrong))
            new_rows = np.concatenate([new_rows, block[wrong]])
        # the new hashes put in their places (a block's few among the sorted many: no sort of them all)
        added = np.sort(uh[fresh])
        at = np.searchsorted(self.hashes, added)
        self.where = np.insert(self.where, at, number[fresh][np.argsort(uh[fresh])])
        self.hashes = np.insert(self.hashes, at, added)
        return ids.astype(np.int32), new_rows

    @staticmethod
    def _wrong(block: np.ndarray, first: np.ndarray, inverse: np.ndarray, number: np.ndarray, table: np.ndarray,
               known: int) -> np.ndarray:
        """The rows of ``block`` whose number may point at other values: each row is compared with the first row
        of its hash in the block (near at hand), and each hash's first row whose number is an older row with that
        row of ``table`` (once per distinct hash, not once per row: the table is large and read at random)."""
        again = np.flatnonzero(first[inverse] != np.arange(len(block)))     # a row not the first of its hash
        same = np.ones(len(block), bool)
        same[again] = (block[again] == block[first[inverse[again]]]).all(1)
        older = np.flatnonzero(number < known)
        agrees = np.ones(len(number), bool)
        agrees[older] = (table[number[older]] == block[first[older]]).all(1)
        same &= agrees[inverse]
        return np.flatnonzero(~same)


def integral(rows: np.ndarray, chunk: int = 1 << 13) -> bool:
    """Every value of ``rows`` a whole number (the sums of a :class:`RowSums` are then exact in any order); looked
    at ``chunk`` rows at a time (no copy of a whole table)."""
    for a in range(0, max(len(rows), 1), chunk):
        part = rows[a:a + chunk]
        if not (np.isfinite(part).all() and np.array_equal(part, np.round(part))):
            return False
    return True


def distinct(rows: np.ndarray, chunk: int = 1 << 12, order: str = "use", whole: Optional[bool] = None,
             hashes: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """(table, ids): the distinct rows of ``rows`` and every row's number among them (``table[ids]`` is ``rows``),
    told apart by a 64-bit hash of each row (:func:`row_hashes`, or ``hashes``) and checked value for value.
    ``order`` "use": in order of first use, ``chunk`` rows at a time (a row whose hash another row has is kept
    again); "hash": the rows at once, in the order of their hashes, each checked against the first row of its hash
    (a hash that meets another row's, or fractions: as ``np.unique(rows, axis=0)`` orders them).  ``whole``: every
    value a whole number (None: look)."""
    if order == "use":
        return distinct_of((rows[a:a + chunk] for a in range(0, len(rows), chunk)), rows.shape[1], rows.dtype,
                           whole=whole)
    if hashes is not None or (rows.shape[0] and rows.shape[1] and float(max(rows.max(), -rows.min())) < 2.0 ** 62 and
                              (whole or (whole is None and np.array_equal(rows, np.round(rows))))):
        h = row_hashes(rows, True) if hashes is None else hashes
        _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        again = np.flatnonzero(first[inverse] != np.arange(len(rows)))
        if np.array_equal(rows[again], rows[first[inverse[again]]]):
            return rows[first], inverse
    _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    return rows[first], inverse.reshape(-1)


def distinct_of(parts: Iterable[Any], width: int, dtype: Any, whole: Optional[bool] = None
                ) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`distinct` of the rows of consecutive ``parts`` (``width`` columns of ``dtype``), which are not kept:
    only the distinct rows are (``whole``: every value a whole number below 2**62; None: look)."""
    found = Distinct(width, dtype, whole)
    for part in parts:
        found.add(part)
    return found.result()


class Distinct:
    """The distinct rows of the parts given one after the other (:meth:`add`), in order of first use, and every
    row's number among them; only the distinct rows are kept (``whole``: every value a whole number below 2**62;
    None: look)."""

    def __init__(self, width: int, dtype: Any, whole: Optional[bool] = None) -> None:
        self.found, self.whole = RowTable(), whole
        self.table = np.zeros((0, width), dtype)
        self.known = 0
        self.ids: List[np.ndarray] = []

    def add(self, part: np.ndarray, hashes: Optional[np.ndarray] = None) -> np.ndarray:
        """The numbers of the rows of ``part`` (``hashes``: theirs, when the caller has them)."""
        got, new = self.found.ids(part, self.table, self.known, self.whole, hashes)
        known = self.known
        if known + len(new) > len(self.table):      # grown in place (the pages moved, not copied): no view of the
            self.table.resize((known + max(len(new), known // 4, 64), self.table.shape[1]),    # table is handed out
                              refcheck=False)                                               # before the last add
        self.table[known:known + len(new)] = new
        self.known += len(new)
        self.ids.append(got)
        return got

    def rows(self) -> np.ndarray:
        """The distinct rows so far (a view: valid until the next :meth:`add`)."""
        return self.table[:self.known]

    def result(self) -> Tuple[np.ndarray, np.ndarray]:
        """(the distinct rows, every row's number among them)."""
        return self.table[:self.known].copy(), np.concatenate(self.ids) if self.ids else np.zeros(0, np.int32)


# ---------------------------------------------------------------------------
# resampling sums


class SwapSums(Protocol):
    """Sums of a statistics matrix's units over ``count`` permutations drawn from ``rng``."""

    dtype: Any

    def swapped(self, rng: np.random.Generator, count: int) -> np.ndarray: ...


class Sums(SwapSums, Protocol):
    """Sums of a statistics matrix's units over resamples (``count`` of them drawn from ``rng``)."""

    def bootstrap(self, rng: np.random.Generator, count: int) -> np.ndarray: ...


def bootstrap_weights(rng: np.random.Generator, resamples: int, units: int, dtype: Any = float) -> np.ndarray:
    """(resamples, units) counts, as ``dtype``: how often each unit is drawn in each resample of ``units``
    draws.  The draws are 32-bit integers when ``units`` fits (numpy draws the same numbers as 64-bit
    ones below 2**32) and are counted a resample at a time, so the temporaries are a few bytes per draw."""
    out = np.empty((resamples, units), dtype)
    for r in range(resamples):
        out[r] = np.bincount(_draws(rng, units), minlength=units)
    return out


def _draws(rng: np.random.Generator, units: int) -> np.ndarray:
    """One bootstrap resample's ``units`` unit numbers, as 64-bit integers: below 2**32 numpy draws the same
    numbers for 32-bit and 64-bit integers, and a resample at a time the numbers of one draw of all resamples."""
    drawn: np.ndarray = rng.integers(0, units, size=units, dtype=np.int64)
    return drawn


def swaps(rng: np.random.Generator, permutations: int, units: int) -> np.ndarray:
    """(permutations, units) 0/1 swap patterns: a unit is swapped when its uniform draw is below 1/2;
    drawn a permutation at a time (the same numbers as one draw: each is one 64-bit value), so only
    the booleans are kept."""
    out = np.empty((permutations, units), bool)
    for a in range(permutations):
        out[a] = rng.random(units) < 0.5
    return out


class DenseSums:
    """The sums of a matrix of every unit: the weights of every unit times the matrix."""

    def __init__(self, data: np.ndarray, units: int) -> None:
        self.product = Products(data, units)
        self.dtype = self.product.dtype
        self.units = units

    def bootstrap(self, rng: np.random.Generator, count: int) -> np.ndarray:
        return self.product(bootstrap_weights(rng, count, self.units, self.dtype))

    def swapped(self, rng: np.random.Generator, count: int) -> np.ndarray:
        return self.product(swaps(rng, count, self.units))


class RowSums:
    """The sums of a table of distinct integer rows and the row of every unit (``ids``): the draws counted
    per row (a bootstrap's unit numbers looked up, a permutation's swapped units added up per row), times
    the table."""

    def __init__(self, table: np.ndarray, ids: np.ndarray) -> None:
        self.units, self.n_rows = len(ids), table.shape[0]
        self.product = Products(table, self.units)
        self.dtype = self.product.dtype
        self.ids = ids.astype(np.intp)
        # the rows looked up at random: the smallest integers that hold them (fewer bytes in the caches: past
        # 2**16 rows 32-bit numbers, widened to intp into a kept buffer, which ``bincount`` takes without a copy
        # of its own; at 10M tokens 1.5 + 0.3 ms a resample instead of 2.1 ms looking up intp)
        small = self.n_rows <= 1 << 16
        self.lookup = ids.astype(np.uint16 if small else np.uint32)
        self._looked = np.empty((2, self.units), self.lookup.dtype)   # two resamples' rows, every time
        self._wide = None if small else np.empty(self.units, np.intp)
        self._counts = np.empty((0, self.n_rows), self.dtype)       # the counts, kept from call to call

    def _rows(self, count: int) -> np.ndarray:
        """Room for ``count`` resamples' counts (the same pages every call: no fresh pages to fault in)."""
        if len(self._counts) < count:
            self._counts = np.empty((count, self.n_rows), self.dtype)
        return self._counts[:count]

    def bootstrap(self, rng: np.random.Generator, count: int) -> np.ndarray:
        counts = self._rows(count)
        turn, cut = iter(range(count)), self.units * 3 // 4

        def draw() -> Tuple[np.ndarray, np.ndarray]:    # in the drawing thread: the draws and the rows of the
            looked = self._looked[next(turn) % 2]       # first 3/4 of them (take lets go of the interpreter's
            drawn = _draws(rng, self.units)             # lock); two buffers: one counted, one drawn
            # (``clip`` never clips a unit number; unlike ``raise`` it writes into ``out`` without a buffer)
            np.take(self.lookup, drawn[:cut], out=looked[:cut], mode="clip")
            return drawn, looked

        # the rest here, with the counting and the products: at 10M tokens about 4.3 ms a resample each (the
        # drawing thread had 5.0 ms, the caller 3.6 ms, on the loaded machine)
        for r, (drawn, looked) in enumerate(ahead(draw, count)):
            np.take(self.lookup, drawn[cut:], out=looked[cut:], mode="clip")
            if self._wide is not None:
                np.copyto(self._wide, looked, casting="unsafe")
            counts[r] = np.bincount(looked if self._wide is None else self._wide, minlength=self.n_rows)
        return self.product(counts)

    def swapped(self, rng: np.random.Generator, count: int) -> np.ndarray:
        counts = self._rows(count)
        for r, swapped in enumerate(ahead(lambda: rng.random(self.units) < 0.5, count)):
            counts[r] = np.bincount(self.ids, weights=swapped, minlength=self.n_rows)
        return self.product(counts)


class MovingSums:
    """The permutation sums of whole-number statistics as the test reads them: what every system has more than
    the first (``table``'s columns ``later`` minus ``base``, system 0 itself 0).  Units whose rows are the same for
    every system move nothing: only the other units' swaps are made (the numbers :class:`RowSums` draws for them,
    from a PCG64 generator's state, :mod:`ts_eval.ranking.coins`, which moves the generator on as every unit's
    draw would; any other generator draws every unit's number) and counted, and only their rows' differences kept
    (a slab of rows at a time, no copy of the table) and multiplied.  Every sum is an exact integer, so every
    difference between two systems is the number the sums of every unit give
    (:meth:`~ts_eval.ranking.sufficient.StatsMatrix.swap_sums`)."""

    def __init__(self, table: np.ndarray, ids: np.ndarray, later: np.ndarray, base: np.ndarray,
                 slab: int = 1 << 13) -> None:
        self.units, self.width, self.later = len(ids), table.shape[1], later
        moving = np.zeros(len(table), bool)
        for a in range(0, len(table), slab):
            part = table[a:a + slab]
            moving[a:a + len(part)] = (part[:, later] != part[:, base]).any(1)
        rows = np.flatnonzero(moving)
        diff = np.empty((len(rows), len(later)), table.dtype)
        for a in range(0, len(rows), slab):
            part = table[rows[a:a + slab]]
            diff[a:a + len(part)] = part[:, later] - part[:, base]
        ids = ids.astype(np.intp)
        self.picked = np.flatnonzero(moving[ids])                      # the units counted
        number = np.cumsum(moving, dtype=np.intp) - 1                   # a moving row's number among them
        self.sums = RowSums(diff, number[ids[self.picked]])
        self.dtype = self.sums.dtype
        self._coins: Optional[Coins] = None      # the picked units' draws (PCG64), kept from call to call

    def swapped(self, rng: np.random.Generator, count: int) -> np.ndarray:
        sums = self.sums
        counts = sums._rows(count)
        self._coins = coins(rng, self.picked, self.units, self._coins)
        draw = self._coins.draw if self._coins is not None else lambda: (rng.random(self.units) < 0.5)[self.picked]
        for r, swapped in enumerate(ahead(draw, count)):
            counts[r] = np.bincount(sums.ids, weights=swapped, minlength=sums.n_rows)
        if self._coins is not None:
            taken(rng, self._coins, count)
        out = np.zeros((count, self.width))
        out[:, self.later] = sums.product(counts)
        return out


def ahead(draw: Callable[[], T], count: int) -> Iterator[T]:
    """``count`` results of ``draw()`` in order, each drawn in one other thread while the caller counts the one
    before (numpy draws without the interpreter's lock, so the drawing and the counting share two cores; one
    thread draws them all, in order: the same numbers).  Exactly one draw is under way while the caller holds
    the one before, so a ``draw`` may write into two buffers in turn.

    The thread is a daemon, asked for each draw through a queue: when the caller stops (an error, Ctrl-C) it
    is told to end and never keeps the interpreter from exiting (a thread pool's worker is joined at exit, and
    a KeyboardInterrupt that lands while the pool's locks are held can leave the exit waiting on them)."""
    if count < 2:
        for _ in range(count):
            yield draw()
        return
    asked: queue.SimpleQueue[bool] = queue.SimpleQueue()
    handed: queue.SimpleQueue[Tuple[bool, Any]] = queue.SimpleQueue()

    def work() -> None:
        try:
            while asked.get():
                handed.put((True, draw()))
        except BaseException as err:     # handed to the caller, who raises it
            handed.put((False, err))

    threading.Thread(target=work, name="ts_eval-draws", daemon=True).start()
    asked.put(True)
    try:
        for r in range(count):
            ok, got = handed.get()
            if not ok:
                raise got
            if r + 1 < count:
                asked.put(True)              # the next draw, while the caller counts this one
            yield got
    finally:
        asked.put(False)
