"""The rows of ``analyze``'s buckets, one bucket at a time: a sentence attribute's buckets from the
statistics' distinct rows, a span attribute's from the span contributions (the entries), a chunk of
entries at a time."""
from __future__ import annotations

from typing import Any, Callable, Iterator, List, Optional, Tuple

import numpy as np

from ..ranking.rows import distinct_of, hash_multipliers
from .corpus_blocks import concatenated

#: entries of a span bucket looked at and held at a time
ENTRY_CHUNK = 1 << 20
#: values of a span bucket's rows counted at a time (8 bytes each) by :meth:`BucketRows.grouped_rows`
WINDOW = 1 << 20


def _cut(row: np.ndarray, rows: int) -> Iterator[Tuple[int, int]]:
    """(lo, hi): the runs of ``row`` (ascending) in one window of ``rows`` rows."""
    win = row // rows
    cuts = np.flatnonzero(np.r_[True, win[1:] != win[:-1], True]) if len(row) else np.zeros(1, np.intp)
    return zip(cuts[:-1].tolist(), cuts[1:].tolist())


class BucketRows:
    """The rows of each bucket, one bucket at a time (only one bucket's rows are ever held): for a
    sentence attribute the statistics of the bucket's sentences, for a span attribute the statistics
    of each sentence that holds a span of the bucket, summed over the contributions of the bucket's spans
    in that sentence (in the order of the contributions: the same sums as one count over every bucket);
    rows in sentence order."""

    def __init__(self, st: Any, bucket_of_span: np.ndarray, sentence_bucket: Optional[np.ndarray],
                 n_buckets: int):
        self.st, self.B = st, n_buckets
        self.of_sentences = sentence_bucket is not None
        narrow = np.int16 if n_buckets < 2 ** 15 else np.int64     # a stable sort of int16 is a radix sort
        if sentence_bucket is not None:
            order = np.argsort(sentence_bucket.astype(narrow), kind="stable")
            self.order = order[sentence_bucket[order] >= 0]
            self.bounds = np.searchsorted(sentence_bucket[self.order], np.arange(n_buckets + 1))
            return
        # a bucket's spans and entries are found when it comes (in their order: the entries go by sentence), not
        # sorted by bucket beforehand: no whole-corpus order of the entries is made
        self.bucket_of_span = bucket_of_span
        self.entry_bucket = np.empty(len(st.entry_span), narrow)
        for a in range(0, len(st.entry_span), ENTRY_CHUNK):
            self.entry_bucket[a:a + ENTRY_CHUNK] = bucket_of_span[st.entry_span[a:a + ENTRY_CHUNK]]
        self.where = np.zeros(max(st.S, 1), np.int32 if st.S < 2 ** 31 else np.int64)   # a sentence's row in the bucket

    def rows(self, k: int) -> Tuple[np.ndarray, np.ndarray]:
        """(rows, their sentences) of bucket k."""
        st = self.st
        if self.of_sentences:
            a, b = int(self.bounds[k]), int(self.bounds[k + 1])
            return st.rows_of(self.order[a:b]), self.order[a:b]
        e, row, sentences = self.entry_rows(k)
        C, n = st.C, len(sentences)
        X = np.bincount(row.astype(np.int64) * C + st.entry_col[e], weights=st.entry_weight[e], minlength=n * C)[:n * C]
        return X.reshape(n, C), sentences

    def entry_rows(self, k: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(the entries of span bucket k, the row of each, the sentences of the rows)."""
        sentences, chunks = self.entry_chunks(k)
        narrow = np.int32 if len(self.entry_bucket) < 2 ** 31 else np.int64
        es, rows = [], []
        for e, row in chunks():
            es.append(e)
            rows.append(row)
        e = concatenated(es, np.zeros(0, narrow))
        del es
        return e, concatenated(rows, np.zeros(0, self.where.dtype)), sentences

    def entry_sums(self) -> np.ndarray:
        """(buckets, columns) every span bucket's sums, in one pass over the entries (whole-number weights: the
        sums of the bucket's rows, in any order)."""
        st, B = self.st, self.B
        sums = np.zeros(B * st.C)
        for a in range(0, len(self.entry_bucket), ENTRY_CHUNK):
            bucket = self.entry_bucket[a:a + ENTRY_CHUNK]
            e = np.flatnonzero(bucket >= 0) + a
            sums += np.bincount(self.entry_bucket[e].astype(np.int64) * st.C + st.entry_col[e],
                                weights=st.entry_weight[e], minlength=B * st.C)[:B * st.C]
        return sums.reshape(B, st.C)

    def entry_chunks(self, k: int) -> Tuple[np.ndarray, Callable[[], Iterator[Tuple[np.ndarray, np.ndarray]]]]:
        """(the sentences of span bucket k's rows, a function giving its entries and the row of each a chunk of
        :data:`ENTRY_CHUNK` entries at a time, in their order): the bucket's entries are never all held."""
        st = self.st
        spans = np.flatnonzero(self.bucket_of_span == k)
        sentences = np.unique(st.span_sentence[spans])
        del spans
        self.where[sentences] = np.arange(len(sentences))
        narrow = np.int32 if len(self.entry_bucket) < 2 ** 31 else np.int64

        def chunks() -> Iterator[Tuple[np.ndarray, np.ndarray]]:
            for a in range(0, len(self.entry_bucket), ENTRY_CHUNK):    # no temporary of every entry
                e = np.flatnonzero(self.entry_bucket[a:a + ENTRY_CHUNK] == k).astype(narrow) + a
                if len(e):
                    yield e, self.where[st.span_sentence[st.entry_span[e]]]
        return sentences, chunks

    def differences(self, e: np.ndarray, row: np.ndarray, n: int, a_cols: np.ndarray, b_cols: np.ndarray,
                    rows: int = 1 << 13,
                    chunks: Optional[Callable[[], Iterator[Tuple[np.ndarray, np.ndarray]]]] = None
                    ) -> Tuple[np.ndarray, np.ndarray]:
        """(table, ids): the ``b_cols`` minus the ``a_cols`` of the n rows that the entries ``e`` (rows ``row``,
        in row order: whole-number weights, entries by sentence) make, as their distinct rows and every row's
        number in them (``table[ids]``: the differences of :meth:`rows`, value for value), counted ``rows``
        rows at a time from the entries of those columns alone (given as ``chunks()``, :meth:`entry_chunks`, when
        not as ``e`` and ``row``).  Row 0 of the table is the difference of none (the two systems' counts
        equal: most rows), and only the other rows are told apart."""
        to = np.full(self.st.C, -1, np.int64)
        sign = np.zeros(self.st.C)
        to[b_cols], sign[b_cols] = np.arange(len(a_cols)), 1.0
        to[a_cols], sign[a_cols] = np.arange(len(a_cols)), -1.0
        D = len(a_cols)
        where: List[np.ndarray] = []        # the rows of each part that differ

        def differing() -> Iterator[np.ndarray]:
            for a, part in enumerate(self._parts(chunks or (lambda: iter([(e, row)])), n, to, sign, D, rows)):
                some = np.flatnonzero(part.any(1))
                where.append(some + a * rows)
                yield part[some]
        table, got = distinct_of(differing(), D, np.float64, whole=True)
        ids = np.zeros(n, np.int32)
        ids[concatenated(where, np.zeros(0, np.intp))] = got + 1
        return np.concatenate([np.zeros((1, D)), table]), ids

    def grouped_rows(self, chunks: Callable[[], Iterator[Tuple[np.ndarray, np.ndarray]]], n: int,
                     groups: Tuple[np.ndarray, ...], rows: int = 0) -> Tuple[np.ndarray, np.ndarray]:
        """(table, ids): the columns the bootstrap multiplies (:func:`ts_eval.analysis.resampling.grouped`) of the
        n rows the entries of ``chunks()`` make (:meth:`entry_chunks`; whole-number weights, in row order), as their
        distinct rows (in order of first use) and every row's number; ``rows`` rows at a time (0: as many as
        :data:`WINDOW` values hold).  A row's hash is summed from its entries (a sum of the values times fixed
        numbers, :func:`~ts_eval.ranking.rows.hash_multipliers`: no dense rows are hashed), and only a row
        whose hash an earlier row has is compared with that row, value for value (a row whose hash is another
        row's is kept again)."""
        st = self.st
        perm, starts = groups[0], groups[1]
        D = len(starts)
        to = np.full(st.C, D, np.int32)         # a column no model reads goes to column D, left out
        to[perm] = np.cumsum(np.isin(np.arange(len(perm)), starts)) - 1
        mult = np.zeros(D + 1, np.uint64)
        mult[:D] = hash_multipliers(D)
        rows = rows or max(1, WINDOW // (D + 1))

        def window(c: int, pieces: List[Tuple[np.ndarray, np.ndarray]]) -> Tuple[np.ndarray, np.ndarray]:
            m = max(0, min(rows, n - c * rows))
            e = pieces[0][0] if len(pieces) == 1 else concatenated([p[0] for p in pieces], np.zeros(0, np.int64))
            row = (pieces[0][1] if len(pieces) == 1 else
                   concatenated([p[1] for p in pieces], np.zeros(0, np.int64))).astype(np.intp)
            if c:
                row -= c * rows
            col, w = to[st.entry_col[e]], st.entry_weight[e]
            h = np.zeros(m, np.uint64)
            if len(row):
                cuts = np.flatnonzero(np.r_[True, row[1:] != row[:-1]])
                with np.errstate(over="ignore"):        # sums modulo 2**64
                    h[row[cuts]] = np.add.reduceat(np.multiply(mult[col], w, dtype=np.uint64, casting="unsafe"), cuts)
            row *= D + 1
            row += col
            X = np.bincount(row, weights=w.astype(np.float64), minlength=m * (D + 1))[:m * (D + 1)].reshape(m, D + 1)
            X[:, D] = 0.0       # the columns no model reads: the last column kept (contiguous rows), 0
            return X, h

        def windows() -> Iterator[Tuple[np.ndarray, np.ndarray]]:
            c = 0
            pieces: List[Tuple[np.ndarray, np.ndarray]] = []
            for e, row in chunks():
                for lo, hi in _cut(row, rows):
                    while c < row[lo] // rows:
                        yield window(c, pieces)
                        c, pieces = c + 1, []
                    pieces.append((e[lo:hi], row[lo:hi]))
            while c * rows < n or pieces:
                yield window(c, pieces)
                c, pieces = c + 1, []

        table, ids = distinct_of(windows(), D + 1, np.float64, hashed=True)
        return table[:, :D], ids

    def _mapped(self, chunks: Callable[[], Iterator[Tuple[np.ndarray, np.ndarray]]], n: int, to: np.ndarray,
                sign: np.ndarray, D: int, rows: int) -> Tuple[np.ndarray, np.ndarray]:
        """(table, ids): the distinct rows of the n rows of :meth:`_parts`."""
        return distinct_of(self._parts(chunks, n, to, sign, D, rows), D, np.float64)

    def _parts(self, chunks: Callable[[], Iterator[Tuple[np.ndarray, np.ndarray]]], n: int, to: np.ndarray,
               sign: np.ndarray, D: int, rows: int) -> Iterator[np.ndarray]:
        """The n rows that the entries ``chunks()`` gives (with the row of each, in row order; whole-number
        weights: the sums are the same in any order) make in D columns, entry column c added to column ``to[c]``
        (none: -1) times ``sign[c]``; ``rows`` rows at a time."""
        st = self.st
        c = 0           # the window of rows c * rows ... being filled
        buf: np.ndarray = np.zeros(min(rows, n) * D)
        fresh = True    # fresh: nothing added yet (the counts replace it)
        every = bool((to >= 0).all())       # every column taken (two systems: no entry to leave out)
        for e, row in chunks():
            ec = st.entry_col[e]
            col = to[ec]
            w = sign[ec]
            w *= st.entry_weight[e]
            if not every:
                keep = col >= 0
                row, col, w = row[keep], col[keep], w[keep]
            if not len(row):
                continue
            key = row.astype(np.int64)
            key *= D
            key += col
            first, last = int(row[0]) // rows, int(row[-1]) // rows    # the windows the chunk's rows are in
            cuts = np.r_[0, np.searchsorted(row, np.arange(first + 1, last + 1) * rows), len(row)]
            for win, lo, hi in zip(range(first, last + 1), cuts[:-1], cuts[1:]):
                if lo == hi:
                    continue
                while c < win:
                    yield buf.reshape(-1, D)
                    c += 1
                    buf, fresh = np.zeros(max(0, min(rows, n - c * rows)) * D), True
                counts = np.bincount(key[lo:hi] - c * rows * D, weights=w[lo:hi], minlength=len(buf))[:len(buf)]
                if fresh:
                    buf, fresh = counts, False
                else:
                    buf += counts
        while c * rows < n:
            yield buf.reshape(-1, D)
            c += 1
            buf = np.zeros(max(0, min(rows, n - c * rows)) * D)

    def compact(self, k: int) -> Tuple[np.ndarray, Optional[np.ndarray], np.ndarray]:
        """(table, ids, sentences): the rows of bucket k as :meth:`rows` gives them (ids None), or for a
        sentence attribute over whole-number statistics as the distinct rows and every row's number in
        them (the rows are ``table[ids]``; nothing is copied)."""
        st = self.st
        if self.of_sentences and st.ids is not None:
            a, b = int(self.bounds[k]), int(self.bounds[k + 1])
            return st.table, st.ids[self.order[a:b]], self.order[a:b]
        X, sentences = self.rows(k)
        return X, None, sentences
