"""The rows of ``analyze``'s buckets: a sentence attribute's buckets from the statistics' distinct rows, one
bucket at a time; a span attribute's from the span contributions (the entries, made from the spans' patterns:
:meth:`ts_eval.analysis.study.Statistics.entries_of`), every bucket's sums from the patterns counted, its pair
differences and resampled columns in one pass over the spans, a window of sentences at a time
(:meth:`BucketRows.span_tables`)."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional, Tuple

import numpy as np

from ..ranking.rows import Distinct

#: entries of a span bucket looked at and held at a time
ENTRY_CHUNK = 1 << 20
#: values of the span buckets' rows counted at a time (8 bytes each) by :meth:`BucketRows.span_tables`
WINDOW = 1 << 20


class BucketRows:
    """The rows of each bucket, one bucket at a time (only one bucket's rows are ever held): for a
    sentence attribute the statistics of the bucket's sentences, for a span attribute the statistics
    of each sentence that holds a span of the bucket, summed over the contributions of the bucket's spans
    in that sentence (in the order of the contributions: the same sums as one count over every bucket);
    rows in sentence order.  A span attribute keeps no array of every entry: a bucket's entries are made from its
    spans' patterns a chunk (or a window of sentences) at a time."""

    def __init__(self, st: Any, bucket_of_span: np.ndarray, sentence_bucket: Optional[np.ndarray], n_buckets: int):
        self.st, self.B = st, n_buckets
        self._has: Optional[np.ndarray] = None
        self._tables: Tuple[Optional[_Part], Optional[_Part]] = (None, None)
        self._sums: Optional[np.ndarray] = None
        self.of_sentences = sentence_bucket is not None
        narrow = np.int16 if n_buckets < 2 ** 15 else np.int64     # a stable sort of int16 is a radix sort
        if sentence_bucket is not None:
            order = np.argsort(sentence_bucket.astype(narrow), kind="stable")
            self.order = order[sentence_bucket[order] >= 0]
            self.bounds = np.searchsorted(sentence_bucket[self.order], np.arange(n_buckets + 1))
            return
        # a bucket's spans and entries are found when it comes, not sorted by bucket beforehand
        self.bucket_of_span = bucket_of_span
        self.where = np.zeros(max(st.S, 1), np.int32 if st.S < 2 ** 31 else np.int64)   # a sentence's row in the bucket

    def rows(self, k: int) -> Tuple[np.ndarray, np.ndarray]:
        """(rows, their sentences) of bucket k."""
        st = self.st
        if self.of_sentences:
            a, b = int(self.bounds[k]), int(self.bounds[k + 1])
            return st.rows_of(self.order[a:b]), self.order[a:b]
        row, col, weight, sentences = self.entry_rows(k)
        C, n = st.C, len(sentences)
        X = np.bincount(row.astype(np.int64) * C + col, weights=weight, minlength=n * C)[:n * C]
        return X.reshape(n, C), sentences

    def entry_rows(self, k: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(the row, column and weight of each entry of span bucket k, the sentences of the rows)."""
        sentences, chunks = self.entry_chunks(k)
        got = list(zip(*chunks()))
        if not got:
            return np.zeros(0, self.where.dtype), np.zeros(0, np.int64), np.zeros(0), sentences
        row, col, weight = (np.concatenate(x) for x in got)
        return row, col, weight, sentences

    def entry_sums(self) -> np.ndarray:
        """(buckets, columns) every span bucket's sums (whole-number weights: from the patterns counted by bucket,
        :meth:`ts_eval.analysis.study.Statistics.pattern_sums`; the sums of the bucket's rows, in any order)."""
        if self._sums is None:
            self._sums = self.st.pattern_sums(self.bucket_of_span, self.B)
        assert self._sums is not None
        return self._sums

    def entry_chunks(self, k: int) -> Tuple[np.ndarray, Callable[[], Iterator[Tuple[np.ndarray, np.ndarray,
                                                                                    np.ndarray]]]]:
        """(the sentences of span bucket k's rows, a function giving its entries (row, column, weight) about
        :data:`ENTRY_CHUNK` entries at a time): the bucket's entries are never all held."""
        st = self.st
        spans = np.flatnonzero(self.bucket_of_span == k)
        sentences = np.unique(st.span_sentence[spans])
        self.where[sentences] = np.arange(len(sentences))

        def chunks() -> Iterator[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
            for span, col, weight in st.entry_chunks(spans, ENTRY_CHUNK):
                yield self.where[st.span_sentence[span]], col, weight
        return sentences, chunks

    def has(self) -> np.ndarray:
        """(sentences, buckets) booleans: some span of the bucket is in the sentence (one byte a sentence and
        bucket: no sort of the spans).  Its true values in order (sentence by sentence) are the pairs, numbered
        from 0, that :meth:`span_tables` counts rows of."""
        if self._has is None:
            st, B = self.st, self.B
            has = np.zeros((max(st.S, 1), B), bool)
            for a in range(0, len(self.bucket_of_span), ENTRY_CHUNK):
                bucket = self.bucket_of_span[a:a + ENTRY_CHUNK]
                keep = np.flatnonzero(bucket >= 0)
                has[st.span_sentence[keep + a], bucket[keep]] = True
            self._has = has
        return self._has

    def sentences_of(self, k: int) -> np.ndarray:
        """The sentences of span bucket k's rows (:meth:`has`), in order."""
        return np.flatnonzero(self.has()[:, k])

    def _pair_buckets(self) -> np.ndarray:
        """The bucket of every pair (:meth:`has`), in the fewest bytes, a slab of sentences at a time."""
        has, B = self.has(), self.B
        out = np.empty(int(np.count_nonzero(has)), np.int16 if B < 2 ** 15 else np.int64)
        at, slab = 0, max(1, ENTRY_CHUNK // max(B, 1))
        for a in range(0, len(has), slab):
            got = np.flatnonzero(has[a:a + slab]) % max(B, 1)
            out[at:at + len(got)] = got
            at += len(got)
        return out

    def span_tables(self, columns: Optional[Tuple[np.ndarray, np.ndarray]], groups: Optional[Tuple[np.ndarray, ...]],
                    rows: int = 1 << 13) -> None:
        """Every span bucket's sums (:meth:`entry_sums`) and rows made in one pass over the spans (whole-number
        weights: their entries from their patterns, a window of sentences at a time), ``rows`` rows of every
        bucket at a time (at most :data:`WINDOW` values): the ``b_cols`` minus the ``a_cols`` of each
        (``columns``) as one table of distinct non-zero rows for every bucket (:meth:`differences_of`), and the
        columns the bootstrap multiplies (:func:`ts_eval.analysis.resampling.grouped`; ``groups``) as another
        (:meth:`grouped_of`)."""
        st, B = self.st, self.B
        parts = []
        if columns is not None:
            a_cols, b_cols = columns
            D = len(a_cols)
            to, sign = np.full(st.C, D, np.int64), np.zeros(st.C)      # a column in neither: column D, left out
            to[b_cols], sign[b_cols] = np.arange(D), 1.0
            to[a_cols], sign[a_cols] = np.arange(D), -1.0
            parts.append(_Part(to, sign, D, self._pair_buckets(), True))
        if groups is not None:
            perm, starts = groups[0], groups[1]
            to = np.full(st.C, len(starts), np.int64)
            to[perm] = np.cumsum(np.isin(np.arange(len(perm)), starts)) - 1
            parts.append(_Part(to, np.ones(st.C), len(starts), self._pair_buckets(), False))
        wide = max([part.width + 1 for part in parts], default=1)
        per = max(1, min(rows, WINDOW // wide) // max(B, 1))       # sentences a window
        self.entry_sums()
        if not parts:
            self._tables = (None, None)
            return
        has = self.has()
        pos = np.zeros(per * B, np.int64)           # a (sentence, bucket) of the window's row
        p0 = 0                                      # the window's first pair
        for s0 in range(0, st.S, per):
            got = self._window(s0, min(s0 + per, st.S))
            local = np.flatnonzero(has[s0:s0 + per])        # the window's pairs: (sentence - s0) * B + bucket
            if got is not None:
                bucket, at, col, weight = got
                pos[local] = np.arange(len(local))
                at += bucket
                row = pos[at]
                for part in parts:
                    part.add(row, col, weight, len(local), p0)
            p0 += len(local)
        for part in parts:
            part.finish()
        self._tables = (parts[0] if columns is not None else None,
                        parts[-1] if groups is not None else None)

    def _window(self, s0: int, s1: int) -> Optional[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """(bucket, the window's row of its sentence and bucket 0, column, weight) of every entry of a span in a
        bucket in sentences ``s0 ... s1 - 1`` (each side's spans of the window, a slice: a side's spans go by
        sentence), or None when none is."""
        st, B = self.st, self.B
        off, bounds = st.span_offset, np.array([s0, s1], st.span_sentence.dtype)     # (of its type: no copy cast)
        spans = np.concatenate([np.arange(*(np.searchsorted(st.span_sentence[off[i]:off[i + 1]], bounds) + off[i]))
                                for i in range(len(off) - 1)])
        spans = spans[self.bucket_of_span[spans] >= 0]
        if not len(spans):
            return None
        span, col, weight = st.entries_of(spans)
        if not len(span):
            return None
        bucket = self.bucket_of_span[span].astype(np.int64)
        at = (st.span_sentence[span].astype(np.int64) - s0) * B
        return bucket, at, col, weight

    def differences_of(self, k: int) -> Tuple[np.ndarray, np.ndarray]:
        """(table, ids) of span bucket k's pair differences (:meth:`span_tables`): row 0 the difference of none,
        ``table[ids]`` the differences of its rows, value for value."""
        part = self._tables[0]
        assert part is not None
        return part.table(), part.ids_of(k)

    def grouped_of(self, k: int) -> Tuple[np.ndarray, np.ndarray]:
        """(table, ids) of span bucket k's grouped columns (:meth:`span_tables`)."""
        part = self._tables[1]
        assert part is not None
        return part.table(), part.ids_of(k)

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


#: the fixed weights of a row's product (:meth:`_Part._found`)
_PROBE = np.random.default_rng(20261129).uniform(1.0, 2.0, 1 << 12)


class _Part:
    """One table of :meth:`BucketRows.span_tables`: entry column c goes to column ``to[c]`` (``width``: left out)
    times ``sign[c]``; ``nonzero``: only rows with a non-zero value are told apart (the others are row 0, zeros)."""

    def __init__(self, to: np.ndarray, sign: np.ndarray, width: int, buckets: np.ndarray, nonzero: bool):
        self.to, self.sign, self.width, self.nonzero, self.buckets = to, sign, width, nonzero, buckets
        pairs = len(buckets)
        self.found = Distinct(width, np.float64, True)
        self.probe = _PROBE[:width] if width <= len(_PROBE) else np.random.default_rng(width).uniform(1.0, 2.0, width)
        self.ids = np.zeros(pairs, np.int32) if nonzero else np.full(pairs, -1, np.int32)

    def add(self, row: np.ndarray, col: np.ndarray, weight: np.ndarray, n: int, p0: int) -> None:
        """The entries of one window (``row``: each entry's row among the window's n rows, the pairs numbered from
        ``p0`` on; ``col``, ``weight``)."""
        w = self.width + 1
        key = row * w
        key += self.to[col]
        X = np.bincount(key, weights=self.sign[col] * weight, minlength=n * w)[:n * w].reshape(n, w)[:, :self.width]
        if not self.nonzero:
            self.ids[p0:p0 + n] = self._found(np.ascontiguousarray(X))
            return
        moving = np.flatnonzero(X.any(1))
        if len(moving):
            self.ids[p0 + moving] = self._found(X[moving]) + 1

    def _found(self, X: np.ndarray) -> np.ndarray:
        """The numbers of the rows ``X`` among the distinct rows, told apart by one product with fixed weights
        (equal rows, equal products; rows that meet by chance are told apart by the check of
        :class:`~ts_eval.ranking.rows.Distinct`)."""
        products = np.einsum("ij,j->i", X, self.probe)     # (numpy's own loop: BLAS's threads cost more here)
        return self.found.add(X, products.view(np.uint64))

    def finish(self) -> None:
        """Rows with no entry (a window without them): zeros, told apart as any other row."""
        empty = np.flatnonzero(self.ids < 0)
        if len(empty):
            self.ids[empty] = self.found.add(np.zeros((len(empty), self.width)))

    def table(self) -> np.ndarray:
        rows = self.found.rows()
        return np.concatenate([np.zeros((1, self.width)), rows]) if self.nonzero else rows

    def ids_of(self, k: int) -> np.ndarray:
        """The ids of bucket k's pairs (its rows, in sentence order)."""
        out: np.ndarray = self.ids[self.buckets == k]
        return out
