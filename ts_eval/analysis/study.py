"""``ts_eval.analyze``: every attribute's buckets scored under every model, for one system, two or many.

The statistics are the registered models' own (:mod:`ts_eval.models`), per sentence.  A bucket of a
*sentence* attribute is a set of sentences: its statistics are the sum of its sentences', for every
model.  A bucket of a *span* attribute is a set of spans: each model's statistics are split into
the contributions of spans (the ``split`` its declaration gives, :class:`~ts_eval.models.registry.ModelSpec`)
and a bucket's statistics are its spans' contributions, in the model's layout, scored by the model's own
score functions; a model that does not split has values for sentence attributes only.  So a bucket's
counts are counted exactly as the overall counts are, and the buckets' counts add up to them.

Uncertainty: one paired bootstrap over sentences for every attribute, bucket, system and model (the
same resamples everywhere; a bucket's resampled statistics are the resample weights of its
sentences times their statistics, one matrix product per bucket); with two systems (or a chosen
pair) the difference per bucket with its bootstrap interval and a paired approximate-randomisation
test (swapping the two systems' outputs sentence by sentence), as ``rank`` tests neighbours.
"""
from __future__ import annotations

import time
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Hashable,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

import numpy as np

from ..core.arrays import ranges_tokens
from ..core.corpus import Corpus
from ..core.matching import DEFAULT_MATCHING
from ..core.sequences import from_sequences
from ..errors import InputError, OptionError
from ..models.context import Contributions, CorpusData, SystemData
from ..models.registry import Model, ModelSpec, get_model, resolve_models
from ..models.tally import CorpusTally
from ..ranking.layout import NotInBlocks, label_width, placed, placed_columns, relabelled
from ..ranking.rows import RowTable, integral
from ..ranking.statistics import TIE_DECIMALS, average_ranks, correlation_matrices
from ..ranking.study import check_options
from ..ranking.sufficient import StatsMatrix, sentence_statistics
from ..results.report import versions
from . import attributes as at
from .attribute_values import AttributeValues
from .bucket_rows import BucketRows
from .buckets import Buckets, parse_bucket_spec
from .corpus_blocks import Block, blocks_of, can_cut, concatenated, sentence_blocks
from .pairtest import PairTests, difference_columns
from .resampling import Job, Resampling, grouped
from .result import Analysis, AttributeResult, FlipAttribution, PairDifference, PairFlip
from .study_inputs import chosen_attributes, flip_arg, pair_arg, system_names

if TYPE_CHECKING:
    from .errors import ErrorOptions

#: the sentences' rows of every system side by side are found at most this many at a time (a block of sentences is
#: fewer; a corpus counted whole, many more), and at most :data:`SIDE_VALUES` values at a time (many systems' rows
#: are wide: 28 systems, 3,080 columns)
SIDE_ROWS = 1 << 14
SIDE_VALUES = 1 << 22
#: the models ``analyze`` scores by default: exact match (micro and macro), overlap, TS (micro and
#: macro), Ortmann's fair F1 and SemEval's partial scheme (whose statistics carry every scheme's counts)
ANALYSIS_MODELS: Tuple[str, ...] = ("exact-f1-micro", "exact-f1-macro", "overlap-f1-micro", "ts-f1-micro",
                                    "ts-f1-macro", "fair-f1", "semeval-partial-f1")


# ---------------------------------------------------------------------------
# the statistics of every model, by sentence and by span


class Statistics:
    """Every system's per-sentence statistics of the models (columns as in
    :class:`ts_eval.ranking.sufficient.StatsMatrix`) and, for the models whose statistics split by
    span, every span's contributions as one list of entries over all systems.

    Counted as an accumulator: :meth:`add` each block of whole sentences in order (the blocks
    :meth:`ts_eval.io.inputs.Inputs.read` gives: sentences, tokens and spans numbered from 0 in the block, its
    own sorted labels), then :meth:`finish`; ``Statistics(corpus, names, models)`` counts a corpus given whole
    (``corpus`` None: an empty accumulator).  What is kept between blocks: each distinct row of every system's
    statistics side by side once (:class:`_DistinctRows`: int16 while every count's magnitude is below 2^14, else
    int32, float64 for fractions) and 4 bytes a sentence (its row's number); per span its sentence (int32); per
    entry its span's number within its side (int16/int32), its side and column as one number (int16/int32: the
    labels as met) and its weight (int8 while a small whole number).  A label met in a later block widens the
    rows kept so far (once, a copy: :func:`~ts_eval.ranking.layout.relabelled`); the entries' columns and the
    spans' numbers over all sides (gold's first, then each system's) are made once, in :meth:`finish`, and with
    whole-number weights the entries are kept as every span's pattern (:attr:`span_pattern`, int16 while there
    are fewer than 2^15 patterns: the distinct sorted (column, weight) lists of a span, a few hundred in a corpus)
    and one table of the patterns, not an entry at a time (:meth:`entries_of`, :meth:`entry_chunks`,
    :meth:`pattern_sums` read them).

    A block is cut further into blocks of :data:`~ts_eval.analysis.corpus_blocks.BLOCK_TOKENS` tokens when
    :func:`~ts_eval.analysis.corpus_blocks.can_cut` allows (the default models on IOB2 column files), else
    counted as it is: its statistics are its sentences' whatever the cut, as ``rank`` counts them (the reader
    cuts a conlleval corpus where every side is outside).  The one road that needs the corpus as one block:
    span contributions that are fractions (a model's split giving weights that are not whole numbers), whose
    float sums depend on their order: a block with such weights cut further is counted again whole, and such
    weights in a corpus given as more than one block raise :class:`~ts_eval.ranking.layout.NotInBlocks` (the
    caller reads the corpus whole, one block, and counts that)."""

    def __init__(self, corpus: Optional[Corpus], names: List[str], models: List[Model]):
        self.corpus: Any = corpus       # (given whole, else None: the attributes read the corpus they are given)
        self.names, self.models = names, models
        self.specs: Dict[Hashable, Optional[ModelSpec]] = {m.stats: m.spec for m in models}
        self._per_label: Dict[Hashable, Optional[Tuple[int, int]]] = {}
        for m in models:
            self._per_label.setdefault(m.stats, m.columns)
        self._start()
        if corpus is not None:
            self.add(corpus)
            self.finish()

    def _start(self) -> None:
        """No block counted yet."""
        sides = len(self.names) + 1
        self.labels: List[str] = []         # the sorted labels of the blocks so far
        self._seen: List[str] = []          # the same in the order met (the entries' columns number them so)
        self.cols: Dict[Hashable, Tuple[int, int]] = {}     # family -> (first column, columns per system)
        self.splittable: Dict[Hashable, bool] = {}     # per statistics family (cols' keys)
        self._found = _DistinctRows()
        self._span_sentences: List[List[np.ndarray]] = [[] for _ in range(sides)]     # per side, per part
        self._sides = np.zeros(sides, np.int64)            # per side: spans so far
        self._entries: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []      # per part: span, code, weight
        self._whole: List[Tuple[int, Hashable, np.ndarray]] = []    # (system, family, columns no span adds to)
        self._unplaced = np.zeros(len(self.names), np.int64)
        self.whole_weights = True
        self.S = 0
        self._blocks = 0

    def add(self, block: Corpus) -> None:
        """Count the next block of whole sentences (numbered from 0 in the block, with its own labels)."""
        names = self.names
        cut = can_cut(block, names, [m.needs for m in self.models])
        parts = self._add(block, cut)
        if not self.whole_weights:      # fractions: their sums depend on the order, the whole corpus's
            if self._blocks:
                raise NotInBlocks("span contributions that are fractions are summed in the order of the corpus "
                                  "counted whole: count the corpus as one block")
            if parts > 1:
                self._start()
                self._add(block, False)
        self._blocks += 1
        self.S += block.n_sentences
        self._sides += [len(block.gold)] + [len(block.systems[n]) for n in names]
        self._unplaced += [len(u) if (u := block.system_info[n].unplaced) is not None else 0 for n in names]

    def _add(self, block: Corpus, cut: bool) -> int:
        """Count ``block`` (cut further when ``cut``); how many parts it was counted in."""
        labels = sorted(set(self.labels) | set(block.labels))
        self._seen.extend(lab for lab in block.labels if lab not in self._seen)
        seen = np.array([self._seen.index(lab) for lab in block.labels], np.int64)
        where = np.array([labels.index(lab) for lab in block.labels], np.int64)
        parts = 0
        for part in sentence_blocks(block, self.names, cut):
            self._count(part, cut, labels, where, seen)
            parts += 1
        return parts

    def _count(self, part: Block, cut: bool, labels: List[str], where: np.ndarray, seen: np.ndarray) -> None:
        """Every system's statistics and span contributions in ``part`` (a part of the next block: ``where``, its
        labels among ``labels``; ``seen``, among the labels in the order met): the rows found among the distinct
        rows so far; the entries of every system (in the order counted: the spans' patterns are made of them in
        :meth:`finish`; fractions are summed in this order)."""
        names, corpus = self.names, part.corpus
        cd = CorpusData(corpus)
        entries: Tuple[List[np.ndarray], List[np.ndarray], List[np.ndarray]] = ([], [], [])
        rows: List[np.ndarray] = []
        widths: Dict[Hashable, int] = {}
        for i, name in enumerate(names):        # one system at a time: its matches and statistics go with it
            if cut:
                self._from_splits(cd, name)
            mine, mine_cols = sentence_statistics(corpus, self.models, [name], cd)
            if i == 0:
                widths = {fam: k for fam, (_, k) in mine_cols.items()}
                self._layout(labels, widths, len(corpus.labels))
            for fam, k in widths.items():
                if mine_cols[fam][1] != k:
                    raise ValueError(f"statistics family {fam!r} gives different widths for different systems")
            for fam in widths:       # the statistics are in mine (each family's columns, in this order)
                cd.system(name).cache.pop(fam, None)
            rows.append(_small(mine))
            del mine
            self._contributions(cd, i, part, widths, seen, entries)
        step = max(1, min(SIDE_ROWS, SIDE_VALUES // max(1, sum(r.shape[1] for r in rows))))
        kind = np.result_type(*rows) if rows else np.dtype(np.float64)     # (int16 or int32: the same numbers in
        for a in range(0, max(corpus.n_sentences, 1), step):     # a quarter or half the bytes) # (a block counted
            self._found.add(self._side_by_side([r[a:a + step] for r in rows], widths, where, kind))  # whole: slabs)
        del rows
        cd.release()        # a system's data and its corpus data refer to each other: freed now, no collection
        del cd
        first = self.S + part.first_sentence
        for side, spans in enumerate([corpus.gold] + [corpus.systems[name] for name in names]):
            self._span_sentences[side].append((corpus.sentence_of(spans.start) + first).astype(np.int32))
        if entries[0]:
            self._keep(*(np.concatenate(x) for x in entries))

    def _keep(self, sp: np.ndarray, code: np.ndarray, we: np.ndarray) -> None:
        """Keep a part's entries (whole-number weights: made each span's pattern in :meth:`finish`, in any order)."""
        self.whole_weights = self.whole_weights and integral(we)
        self._entries.append((sp, code, we))

    def _layout(self, labels: List[str], widths: Dict[Hashable, int], had: int) -> None:
        """The columns of ``labels`` (the labels so far, with the next block's), a family's columns per system
        ``widths`` in a block of ``had`` labels: the rows so far widened when there are more columns."""
        n = len(self.names)
        new, first = {}, 0
        for fam, k in widths.items():
            w = label_width(fam, self._per_label[fam], len(labels), k, had)
            new[fam] = (first, w)
            first += w * n
        if new == self.cols and labels == self.labels:
            return
        found = self._found
        if self.cols and found.table is not None:
            old = np.array([labels.index(lab) for lab in self.labels], np.int64)
            found.table = relabelled(found.table, found.known, [self._per_label[f] for f in new],
                                     list(self.cols.values()), list(new.values()), n, old)
            found.found.rehash(found.table[:found.known])
        self.cols, self.labels = new, labels

    def _relabel(self, fam: Hashable, col: np.ndarray, where: np.ndarray) -> np.ndarray:
        """A family's columns (of one system) with its labels put at ``where`` among other labels (a block's among
        the labels in the order met; those among the sorted labels)."""
        cols = self._per_label[fam]
        col = np.asarray(col, np.int64)
        if cols is None or cols[1] == 0 or np.array_equal(where, np.arange(len(where))):
            return col
        return placed_columns(col, cols[0], cols[1], where)

    def _contributions(self, cd: CorpusData, i: int, part: Block, widths: Dict[Hashable, int], seen: np.ndarray,
                       entries: Tuple[List[np.ndarray], List[np.ndarray], List[np.ndarray]]
                       ) -> None:
        """Add system i's span contributions in ``part`` under every family that splits by span to ``entries``
        (span within its side; code: column under the labels as met, family, system and side as one number,
        ``(column * families * systems + family * systems + system) * 2 + side``; weight)."""
        name, n = self.names[i], len(self.names)
        firsts = np.array([self._sides[0] + part.first_span[None], self._sides[i + 1] + part.first_span[name]])
        first = self.S == 0 and part.first_sentence == 0
        for f, (fam, k) in enumerate(widths.items()):
            spec = self.specs[fam]
            self.splittable[fam] = spec is not None and spec.split is not None
            if spec is None or spec.split is None:
                continue
            c = _split(cd.system(name), fam, spec)
            if c.k != k:
                raise ValueError(f"the span split of {fam!r} has {c.k} columns, its statistics {k}")
            if first:
                self._whole.append((i, fam, self._relabel(fam, np.array(c.whole, np.int64), seen)))
            entries[0].append(_small_numbers(c.span + firsts[c.side]))
            entries[1].append(_small_numbers(self._relabel(fam, c.col, seen) * (2 * len(widths) * n)
                                             + (2 * (f * n + i)) + c.side))
            entries[2].append(_compact(c.weight))

    def finish(self) -> Statistics:
        """The statistics of every block added: :attr:`table`, :attr:`ids`, the entries, the spans' sentences and
        numbers over all sides, the totals and what the scores read."""
        self.table, self.ids = self._rows(self._found)
        self._found = _DistinctRows()
        self.span_offset = np.concatenate(([0], np.cumsum(self._sides)))
        self.span_sentence = np.concatenate([x for side in self._span_sentences for x in side]) \
            if self.span_offset[-1] else np.zeros(0, np.int32)      # (int32, as kept: no int64 copy)
        self._span_sentences = []
        self._final_entries()
        self.whole_cols: List[int] = []
        for i, fam, cols in self._whole:
            first, k = self.cols[fam]
            self.whole_cols.extend(int(first + i * k + c) for c in self._relabel(fam, cols, self._sorted()))
        self.C = self.table.shape[1]
        # whole numbers: the same sums in any order, a slab of rows at a time (no float64 copy of the table)
        self.totals = self.table.sum(0) if self.ids is None else \
            StatsMatrix([], [], self.table, {}, ids=self.ids).totals
        # generated strings found on no token (unplaced): in the statistics of their sentence, but no
        # span attribute has a value for them; they are counted among the spans in no bucket
        self.unplaced = self._unplaced
        self.undefined_for_spans = self._undefined_for_spans()
        self.used = self._used_columns()
        self.groups = self._groups()
        return self

    def _sorted(self) -> np.ndarray:
        """Each label in the order met: its place among the sorted labels."""
        return np.array([self.labels.index(lab) for lab in self._seen], np.int64)

    def _final_entries(self) -> None:
        """From the entries kept, a part at a time: with whole-number weights every span's pattern
        (:attr:`span_pattern`, a span's number over all sides: gold's spans first, then each system's) and the table
        of the distinct patterns (:attr:`pattern_start`, :attr:`pattern_col` (the columns of the sorted labels),
        :attr:`pattern_weight`); else (fractions, summed in the order counted) :attr:`entry_span`,
        :attr:`entry_col` and :attr:`entry_weight` (in the fewest bytes that hold every value, as
        :func:`_compact` would give them)."""
        n, fams = len(self.names), list(self.cols)
        codes = 2 * len(fams) * n       # code % codes: family, system and side; code // codes: the column
        rank = self._sorted()
        same = np.array_equal(rank, np.arange(len(rank)))     # (the labels met in sorted order)
        base = np.zeros(codes, np.int64)        # per code % codes: its system's first column, its side's first span
        first_span = np.zeros(codes, np.int64)
        fixed, per = np.full(codes, 1 << 62, np.int64), np.ones(codes, np.int64)
        for f, fam in enumerate(fams):
            for i in range(n):
                at = 2 * (f * n + i)
                base[at:at + 2] = self.cols[fam][0] + i * self.cols[fam][1]
                first_span[at + 1] = self.span_offset[i + 1]
                cols = self._per_label[fam]
                if cols is not None and cols[1] and len(rank):
                    fixed[at:at + 2], per[at:at + 2] = cols
        parts, self._entries = self._entries, []

        def columns(code: np.ndarray) -> np.ndarray:
            key, c = code % codes, code // codes
            if not same:
                c = placed_columns(c, fixed[key], per[key], rank)
            out: np.ndarray = base[key] + c
            return out

        self.span_pattern: Optional[np.ndarray] = None
        if self.whole_weights:      # whole numbers: each span's pattern, the same sums in any order
            patterns = _Patterns(int(self.span_offset[-1]))
            parts.reverse()
            while parts:
                sp, code, we = parts.pop()
                patterns.add(sp + first_span[code % codes], columns(code), we)
                del sp, code, we
            self.span_pattern, self.pattern_start, self.pattern_col, self.pattern_weight = patterns.result()
            return
        span_top = 0        # (looked for until a number does not fit 2 bytes: the first system's entries do)
        for sp, code, _ in parts if self.span_offset[-1] > 2 ** 15 else []:
            span_top = max(span_top, int((sp + first_span[code % codes]).max(initial=0)))
            if span_top >= 2 ** 15:
                break
        col_top = max((int(columns(code).max()) for _, code, _ in parts if len(code)), default=0) \
            if self.table.shape[1] > 2 ** 15 else 0       # (else every column fits 2 bytes)
        total = sum(len(sp) for sp, _, _ in parts)
        self.entry_span, self.entry_col = np.empty(total, _fitting(span_top)), np.empty(total, _fitting(col_top))
        weights: List[np.ndarray] = []
        at = 0
        parts.reverse()
        while parts:
            sp, code, we = parts.pop()
            self.entry_span[at:at + len(sp)] = sp + first_span[code % codes]
            self.entry_col[at:at + len(sp)] = columns(code)
            at += len(sp)
            weights.append(we)
            del sp, code, we
        self.entry_weight = _compact(concatenated(weights, np.zeros(0)))

    def entries_of(self, spans: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(span, column, weight) of the entries of ``spans`` (span numbers over all sides), from their patterns
        (whole-number weights: span by span, a span's entries in its pattern's order)."""
        assert self.span_pattern is not None
        pattern = self.span_pattern[spans]
        start = self.pattern_start[pattern]
        length = self.pattern_start[pattern + 1] - start
        if not int(length.sum()):
            return np.zeros(0, np.int64), self.pattern_col[:0], self.pattern_weight[:0]
        at = ranges_tokens(start, start + length)       # the patterns' entries, one pattern after the other
        return np.repeat(spans, length), self.pattern_col[at], self.pattern_weight[at]

    def entry_chunks(self, spans: np.ndarray, chunk: int) -> Iterator[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(span, column, weight) of the entries of ``spans`` (sorted), about ``chunk`` entries at a time: from the
        patterns (whole-number weights), else from the entries kept, in their order (fractions: the order of
        their sums)."""
        if self.span_pattern is not None:
            pattern = self.span_pattern[spans]
            ends = np.cumsum(self.pattern_start[pattern + 1] - self.pattern_start[pattern])
            cuts = np.searchsorted(ends, np.arange(chunk, int(ends[-1]) if len(ends) else 0, chunk), "right")
            for a, b in zip(np.concatenate(([0], cuts)), np.concatenate((cuts, [len(spans)]))):
                if b > a:
                    yield self.entries_of(spans[a:b])
            return
        mine = np.zeros(int(self.span_offset[-1]), bool)
        mine[spans] = True
        for a in range(0, len(self.entry_span), chunk):    # no temporary of every entry
            e = np.flatnonzero(mine[self.entry_span[a:a + chunk]]) + a
            if len(e):
                yield self.entry_span[e], self.entry_col[e], self.entry_weight[e]

    def pattern_sums(self, bucket_of_span: np.ndarray, n_buckets: int) -> np.ndarray:
        """(buckets, columns) the sums of every bucket's spans' entries (whole-number weights): how many spans of
        each pattern a bucket has, times the pattern's entries (whole numbers: exact, the same in any order)."""
        assert self.span_pattern is not None
        P, C = len(self.pattern_start) - 1, self.C
        keep = np.flatnonzero(bucket_of_span >= 0)
        key = np.bincount(bucket_of_span[keep].astype(np.int64) * P + self.span_pattern[keep], minlength=n_buckets * P)
        pairs = np.flatnonzero(key)
        bucket, pattern = pairs // P, pairs % P
        start = self.pattern_start[pattern]
        length = self.pattern_start[pattern + 1] - start
        at = ranges_tokens(start, start + length)
        weight = np.repeat(key[pairs], length) * self.pattern_weight[at].astype(np.float64)
        sums = np.bincount(np.repeat(bucket, length) * C + self.pattern_col[at], weights=weight,
                           minlength=n_buckets * C)[:n_buckets * C]
        out: np.ndarray = sums.reshape(n_buckets, C)
        return out

    def _from_splits(self, cd: CorpusData, name: str) -> None:
        """The statistics of the families that are their span contributions summed by sentence (a split as wide as
        the statistics, with no column of the sentence as a whole, in whole numbers: the same integers in any
        order) taken from the split, which the entries need anyway, into the system's data, instead of counting
        them a second time.  Only in blocks (:func:`~ts_eval.analysis.corpus_blocks.can_cut`: every span within
        one sentence, so a matched pair's contribution falls in the sentence of both spans, and no span on no
        token, which a split does not give) and under the default matching (which the splits read)."""
        if cd.matching != DEFAULT_MATCHING:
            return
        sd = cd.system(name)
        S = cd.n_sentences
        for m in self.models:
            spec = m.spec
            if spec is None or spec.split is None or m.columns is None or m.stats in sd.cache:
                continue
            c = _split(sd, m.stats, spec)
            k = m.columns[0] + m.columns[1] * cd.n_labels
            if c.whole or c.k != k or not integral(c.weight):
                continue
            of = _entry_sentences(sd, m.stats, c)
            sd.cache[m.stats] = np.bincount(of * k + c.col, weights=c.weight, minlength=S * k)[:S * k].reshape(S, k)

    def _rows(self, found: _DistinctRows) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """(table, ids): the distinct rows of every system's statistics side by side (columns as in
        :class:`~ts_eval.ranking.sufficient.StatsMatrix`) and every sentence's row (int32), from the distinct rows
        of the sentences' rows side by side (``found``), in the order of their systems' rows: by the first system's
        row (numbered in order of first use), then the next system's, ...; with a statistic not a whole number,
        every sentence's row (ids None)."""
        table, ids = found.result()
        if ids is None:     # fractions: every sentence's row, as computed
            return table, None
        key = np.zeros(len(table), np.int64)
        for i in range(len(self.names)):       # a system's rows numbered in order of first use, as a sentence's
            mine = table[:, np.concatenate([np.arange(first + i * k, first + (i + 1) * k)     # first row is the
                                            for first, k in self.cols.values()] or [np.zeros(0, np.intp)])]
            number, _ = RowTable().ids(mine, mine[:0], 0, True)      # first that has it (the rows are in that order)
            key = np.unique(key * (int(number.max(initial=-1)) + 1) + number, return_inverse=True)[1].reshape(-1)
        rank = np.empty(len(key), np.int64)
        rank[key] = np.arange(len(key))         # the distinct combinations of the systems' rows, in key order
        return table[rank], key[ids].astype(np.int32)

    def _side_by_side(self, per_system: Iterable[np.ndarray], widths: Dict[Hashable, int], where: np.ndarray,
                      dtype: Any = np.float64) -> np.ndarray:
        """The systems' columns (each family-major, one system's, a family ``widths`` columns, the labels at
        ``where`` among the labels so far) in the layout of every system's side by side (:attr:`cols`)."""
        n = len(self.names)
        out: Optional[np.ndarray] = None
        for i, mine in enumerate(per_system):
            if out is None:
                out = np.zeros((len(mine), sum(k for _, k in self.cols.values()) * n), dtype)
            at = 0
            for fam, (first, w) in self.cols.items():
                k = widths[fam]
                out[:, first + i * w:first + (i + 1) * w] = placed(self._per_label[fam], mine[:, at:at + k], where, w)
                at += k
        assert out is not None
        return out

    @property
    def data(self) -> np.ndarray:
        """Every sentence's statistics (sentences x columns): made on each call."""
        out: np.ndarray = self.table if self.ids is None else self.table[self.ids].astype(np.float64)
        return out

    def rows_of(self, sentences: np.ndarray) -> np.ndarray:
        """The statistics of ``sentences`` (rows in their order)."""
        out: np.ndarray = self.table[sentences] if self.ids is None else \
            self.table[self.ids[sentences]].astype(np.float64)
        return out

    def matrix(self, data: np.ndarray) -> StatsMatrix:
        return StatsMatrix(self.names, self.models, data, self.cols)

    def _used_columns(self) -> np.ndarray:
        """Which columns some model's score reads (the bootstrap resamples only these): each column of a
        family is moved, in every system at once, from a point where every count is positive and no two
        are equal; a column whose move changes no model's score of its system is read by none."""
        n, sm = len(self.names), self.matrix(self.table[:0])
        base = np.asarray(np.random.default_rng(7).uniform(1.0, 2.0, self.C), float)
        used = np.zeros(self.C, bool)
        base_scores = np.asarray(sm.scores(base))
        for first, k in self.cols.values():
            moved = np.tile(base, (k, 1))
            for j in range(k):
                moved[j, first + j:first + n * k:k] += 0.5
            changed = ~np.isclose(np.asarray(sm.scores(moved)), base_scores[None], rtol=1e-12, atol=0,
                                  equal_nan=True)          # (k, systems, models)
            used[first:first + n * k] = changed.any(-1).T.reshape(-1)
        return used

    def _summed_width(self, first: int, k: int) -> int:
        """The smallest w such that every model of the family at ``first`` reads its k columns only as
        sums over groups of w (after k mod w columns read as they are: the per-label layout of a model
        read only micro-averaged), found by moving mass from the first group to each other one at a
        random point; 0 when there is none."""
        n, sm = len(self.names), self.matrix(self.table[:0])
        base = np.asarray(np.random.default_rng(11).uniform(1.0, 2.0, self.C), float)
        base_scores = np.asarray(sm.scores(base))
        for w in range(1, k // 2 + 1):
            o = k % w
            groups = (k - o) // w
            if groups < 2:
                continue
            moved = np.tile(base, ((groups - 1) * w, 1))
            row = 0
            for g in range(1, groups):
                for j in range(w):
                    moved[row, first + o + j:first + n * k:k] += 0.25
                    moved[row, first + o + g * w + j:first + n * k:k] -= 0.25
                    row += 1
            if np.allclose(np.asarray(sm.scores(moved)), base_scores[None], rtol=1e-12, atol=0, equal_nan=True):
                return w
        return 0

    def _groups(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """How the bootstrap multiplies fewer columns: (perm: the used columns in group order, starts: the
        first of each group in perm, rep: the column a group's resampled sum is written to, rest: the used
        columns that get 0 because their group's sum went to its rep).  A group is one column, or the
        columns of one system and one offset of a family read only as sums over labels."""
        n = len(self.names)
        group = np.full(self.C, -1, np.int64)
        group[self.used] = np.flatnonzero(self.used)      # each used column its own group by default
        for first, k in self.cols.values():
            w = self._summed_width(first, k)
            if not w:
                continue
            o = k % w
            for i in range(n):
                base = first + i * k + o
                for j in range(w):
                    members = base + j + w * np.arange((k - o) // w)
                    members = members[self.used[members]]
                    if len(members):
                        group[members] = members[0]
        used = np.flatnonzero(group >= 0)
        perm = used[np.argsort(group[used], kind="stable")]
        g = group[perm]
        starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
        rep = perm[starts]
        rest = np.setdiff1d(perm, rep)
        return perm, starts, rep, rest

    def _undefined_for_spans(self) -> List[str]:
        """Models a bucket of spans has no value for: their family cannot be split by span, or their
        score reads the columns no span contributes to (TS kappa reads the number of units)."""
        out = []
        sm = self.matrix(self.table[:0])
        tot = self.totals
        moved = tot.copy()
        if self.whole_cols:
            moved[np.asarray(self.whole_cols)] += 1e6
        for m in self.models:
            if not self.splittable.get(m.stats, False):
                out.append(m.name)
                continue
            a = np.asarray(m.score(sm.block(tot, m)), float)
            b = np.asarray(m.score(sm.block(moved, m)), float)
            if not np.allclose(a, b, equal_nan=True):
                out.append(m.name)
        return out


#: spans whose patterns are found at a time (a row of their entries each)
PATTERN_SPANS = 1 << 15


class _Patterns:
    """The distinct patterns of the spans' entries (a pattern: a span's (column, weight) entries, sorted), counted a
    part at a time: every span's pattern number (0: no entry) and the table of patterns (``start``: where each
    pattern's entries begin in ``col`` and ``weight``)."""

    def __init__(self, spans: int):
        self.span_pattern = np.zeros(spans, np.int32)
        self.known: Dict[bytes, int] = {b"": 0}        # a pattern's (column, weight) pairs -> its number
        self.hashes: Dict[int, int] = {}                # the hash of a pattern's entries -> its number
        self.cols: List[np.ndarray] = [np.zeros(0, np.int64)]
        self.weights: List[np.ndarray] = [np.zeros(0, np.int64)]

    def add(self, span: np.ndarray, col: np.ndarray, weight: np.ndarray) -> None:
        """A part's entries (whole-number weights): its spans' patterns, the new ones numbered; found by a hash of
        each span's entries (:meth:`_hashed`, checked entry for entry), else (numbers too wide for one int64 key,
        or two patterns of one hash) as distinct rows, :data:`PATTERN_SPANS` spans at a time."""
        if not len(span):
            return
        col, weight = col.astype(np.int64), weight.astype(np.int64)
        if int(col.max()) < 2 ** 16 and -2 ** 15 <= int(weight.min()) <= int(weight.max()) < 2 ** 15 \
                and int(span.max()) < 2 ** 31:
            key = np.sort((span.astype(np.int64) << 32) | (col << 16) | (weight + 2 ** 15))   # by span, then entry
            span, key = key >> 32, key & 0xFFFFFFFF
            first = np.flatnonzero(np.concatenate(([True], span[1:] != span[:-1])))
            if self._hashed(span[first], first, key):
                return
            col, weight = key >> 16, (key & 0xFFFF) - 2 ** 15
        else:
            order = np.lexsort((weight, col, span))
            span, col, weight = span[order], col[order], weight[order]
            first = np.flatnonzero(np.concatenate(([True], span[1:] != span[:-1])))
        spans, counts = span[first], np.diff(np.concatenate((first, [len(span)])))
        for a in range(0, len(spans), PATTERN_SPANS):
            b = min(a + PATTERN_SPANS, len(spans))
            lo, hi = int(first[a]), int(first[b - 1] + counts[b - 1])
            self._rows(spans[a:b], first[a:b] - lo, counts[a:b], col[lo:hi], weight[lo:hi])

    def _hashed(self, spans: np.ndarray, first: np.ndarray, key: np.ndarray) -> bool:
        """The patterns of ``spans`` (their entries ``key``, column * 2^16 + weight + 2^15, from ``first``, sorted)
        by a hash of each span's entries (a sum of their mixed keys), each new hash's first span a new pattern;
        False (nothing changed) when a span's entries are not its pattern's, entry for entry."""
        hashes = np.add.reduceat(_mix(key), first)
        distinct, where, inverse = np.unique(hashes, return_index=True, return_inverse=True)
        ends = np.concatenate((first[1:], [len(key)]))
        ids = np.empty(len(distinct), np.int64)
        added = []
        for j, (h, one) in enumerate(zip(distinct.tolist(), where.tolist())):
            got = self.hashes.get(h)
            if got is None:
                mine = key[first[one]:ends[one]]
                pairs = np.stack([mine >> 16, (mine & 0xFFFF) - 2 ** 15], 1).reshape(-1)
                got = self.known.get(pairs.tobytes())
                if got is None:
                    got = len(self.cols)
                    self.cols.append(pairs[0::2].copy())
                    self.weights.append(pairs[1::2].copy())
                    added.append(pairs.tobytes())
                self.hashes[h] = got
            ids[j] = got
        span_ids = ids[inverse.reshape(-1)]
        table = np.concatenate(self.cols) * 2 ** 16 + np.concatenate(self.weights) + 2 ** 15
        start = np.concatenate(([0], np.cumsum([len(c) for c in self.cols])))
        length = start[span_ids + 1] - start[span_ids]
        if np.array_equal(length, ends - first) and \
                np.array_equal(table[np.arange(len(key)) + np.repeat(start[span_ids] - first, length)], key):
            self.known.update((k, len(self.cols) - len(added) + i) for i, k in enumerate(added))
            self.span_pattern[spans] = span_ids
            return True
        del self.cols[len(self.cols) - len(added):], self.weights[len(self.weights) - len(added):]
        self.hashes = {h: i for h, i in self.hashes.items() if i < len(self.cols)}
        return False

    def _rows(self, spans: np.ndarray, first: np.ndarray, counts: np.ndarray, col: np.ndarray,
              weight: np.ndarray) -> None:
        """The patterns of ``spans`` (their entries from ``first``, ``counts`` each, sorted)."""
        width = int(counts.max())
        rows = np.full((len(spans), 2 * width), -1, np.int64)     # (column, weight) pairs; -1: no column
        row = np.repeat(np.arange(len(spans)), counts)
        pos = 2 * (np.arange(len(col)) - np.repeat(first, counts))
        rows[row, pos], rows[row, pos + 1] = col, weight
        distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
        ids = np.empty(len(distinct), np.int64)
        for j, r in enumerate(distinct):
            n = 2 * int(np.count_nonzero(r[0::2] >= 0))
            key = r[:n].tobytes()
            got = self.known.get(key)
            if got is None:
                got = self.known[key] = len(self.cols)
                self.cols.append(r[:n:2].copy())
                self.weights.append(r[1:n:2].copy())
            ids[j] = got
        self.span_pattern[spans] = ids[inverse.reshape(-1)]

    def result(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(every span's pattern, where each pattern's entries begin, their columns, their weights)."""
        start = np.concatenate(([0], np.cumsum([len(c) for c in self.cols]))).astype(np.int64)
        col = np.concatenate(self.cols)
        pattern = self.span_pattern.astype(_fitting(len(self.cols) - 1))
        return pattern, start, col.astype(_fitting(int(col.max(initial=0)))), _compact(np.concatenate(self.weights))


def _mix(key: np.ndarray) -> np.ndarray:
    """Each key mixed into 64 bits (splitmix64's finalizer, modulo 2^64): a span's hash is the sum of its
    entries' (:meth:`_Patterns._hashed`)."""
    x = key.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    out: np.ndarray = x
    return out


class _DistinctRows:
    """Per-sentence statistics (every system's side by side) given a block of sentences at a time, kept as their
    distinct rows and every sentence's row (:func:`~ts_eval.ranking.rows.distinct`: the same rows in the same
    order; int16 while every value is a whole number of magnitude below 2^14, int32 below 2^31, the rows so far
    widened once when a block needs more: :func:`_small`), or as every sentence's row (float64) when some
    statistic is not a whole number."""

    def __init__(self) -> None:
        self.found = RowTable()
        self.table: Optional[np.ndarray] = None
        self.known = 0
        self.ids: List[np.ndarray] = []
        self.whole = True

    def add(self, rows: np.ndarray) -> None:
        """The rows of the next block of sentences, found among the distinct rows so far (the block at once: the
        same numbers in the same order as any cut of it)."""
        block: np.ndarray = _small(rows, 2 ** 31)      # counts: whole numbers, in 2 or 4 bytes a value
        exact = block.dtype.kind == "i"
        whole, hashed = True, True          # the hash of whole numbers (the same numbers from int16, int32 or float64)
        if not exact:
            whole = integral(rows)
            hashed = whole and float(np.abs(rows).max(initial=0.0)) < 2.0 ** 62      # a fraction: every sentence's
        kind = block.dtype if self.table is None else np.promote_types(self.table.dtype, block.dtype)  # (its row is
        if self.table is None:                                                                  # kept in the end)
            self.table = np.zeros((0, rows.shape[1]), kind)
        elif kind != self.table.dtype:      # (a wider number: the rows so far widened, once)
            self.table = self.table.astype(kind)
        block = block.astype(kind, copy=False)      # (compared with the table's rows in its own type)
        self.whole = self.whole and whole
        got, new = self.found.ids(block, self.table, self.known, hashed)
        if self.known + len(new) > len(self.table):     # grown in place (the pages moved, not copied)
            self.table.resize((self.known + max(len(new), self.known // 4, 64), self.table.shape[1]), refcheck=False)
        self.table[self.known:self.known + len(new)] = new
        self.known += len(new)
        self.ids.append(got)

    def result(self) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """(distinct rows, every sentence's row), or (every sentence's row, None) when not whole numbers."""
        assert self.table is not None
        table = self.table[:self.known]
        ids = np.concatenate(self.ids) if self.ids else np.zeros(0, np.int32)
        return (table, ids) if self.whole else (table[ids], None)


def _split(sd: SystemData, fam: Hashable, spec: ModelSpec) -> Contributions:
    """The span contributions of one system under one family (made once: its statistics may be taken from them)."""
    assert spec.split is not None
    split = spec.split
    made: Contributions = sd.cached(("split", fam), lambda: split(sd))
    return made


def _entry_sentences(sd: SystemData, fam: Hashable, c: Contributions) -> np.ndarray:
    """The sentence of each of a split's entries (its gold or system span's; made once: the statistics taken from
    the split and the entries both read it)."""
    def make() -> np.ndarray:
        corpus = sd.cd.corpus
        sentence = np.concatenate([corpus.sentence_of(corpus.gold.start), corpus.sentence_of(sd.spans.start)])
        out: np.ndarray = sentence[c.span + np.array([0, len(corpus.gold)])[c.side]]
        return out
    made: np.ndarray = sd.cached(("sentences", fam), make)
    return made


def _small(rows: np.ndarray, top: int = 2 ** 24) -> np.ndarray:
    """Statistics as int16 when they are whole numbers of magnitude below 2^14 (so that a difference of two fits
    too), else int32 when below ``top`` (a quarter or half the bytes while the other systems' are counted: the
    same numbers), else as they are."""
    low, high = (float(rows.min()), float(rows.max())) if rows.size else (0.0, 0.0)     # (NaN: neither holds)
    if not -top < low <= high < top:
        return rows
    kind = np.int16 if -2 ** 14 < low <= high < 2 ** 14 else np.int32
    if rows.dtype == kind:
        return rows         # (already so: no copy)
    small = rows.astype(kind)
    if rows.dtype.kind == "i":
        return small
    return small if np.array_equal(small, rows) else rows


def _fitting(top: int) -> Any:
    """The smallest of int16, int32 and int64 that holds the numbers 0 to ``top``."""
    return np.int16 if top < 2 ** 15 else np.int32 if top < 2 ** 31 else np.int64


def _small_numbers(values: np.ndarray) -> np.ndarray:
    """Numbers from 0 (span numbers, codes, sentences) in the fewest bytes of int16, int32 and int64 that hold them
    (numpy sorts 16-bit integers stably by their digits (radix), in one pass, not by comparisons; a stable order
    is the same order either way)."""
    return values.astype(_fitting(int(values.max(initial=0))))


def _compact(values: np.ndarray) -> np.ndarray:
    """``values`` in the fewest bytes that hold them exactly (span ids as int32, columns as int16 while they fit,
    weights as int8 while they are small whole numbers, else float32: 1, 1/2, ...), else as given: every use
    reads them back as the same numbers."""
    kinds = (np.int16, np.int32) if values.dtype.kind in "iu" else (np.int8, np.float32)
    for narrow in kinds:
        if np.dtype(narrow) == values.dtype:
            return values
        if np.dtype(narrow).itemsize > values.dtype.itemsize:
            continue
        small = values.astype(narrow)
        if np.array_equal(small, values):
            return small
    return values


# ---------------------------------------------------------------------------
# one attribute


def _counts(st: Statistics, sums: np.ndarray
            ) -> Tuple[Dict[str, np.ndarray], Dict[str, List[str]], Dict[str, List[str]]]:
    """Per model the counts a reader checks a score with, summed over labels: (buckets, systems, k), with
    their names (and the rows they come in: SemEval's schemes)."""
    out: Dict[str, np.ndarray] = {}
    names: Dict[str, List[str]] = {}
    groups: Dict[str, List[str]] = {}
    n = len(st.names)
    for fam, (first, k) in st.cols.items():
        spec = st.specs[fam]
        if spec is None or spec.counts is None or spec.name in out:
            continue
        out[spec.name] = spec.counts(sums[..., first:first + n * k].reshape(sums.shape[:-1] + (n, k)))
        names[spec.name] = list(spec.count_names)
        if spec.count_groups:
            groups[spec.name] = list(spec.count_groups)
    return out, names, groups


def _ranks_and_correlations(scores: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ranks (systems, models), Spearman, Kendall (models, models)) of one bucket's scores; a model
    with a missing score (an empty bucket) has no ranks and no correlations."""
    n, m = scores.shape
    ranks = np.full((n, m), np.nan)
    ok = ~np.isnan(scores).any(0)
    if ok.any():
        ranks[:, ok] = average_ranks(scores[:, ok].T).T
    rho, tau = np.full((m, m), np.nan), np.full((m, m), np.nan)
    if n >= 2 and ok.sum() >= 1:
        idx = np.flatnonzero(ok)
        r, _, t = correlation_matrices(scores[:, idx])
        rho[np.ix_(idx, idx)], tau[np.ix_(idx, idx)] = r, t
    return ranks, rho, tau


def _flip_pairs(overall: np.ndarray, ka: int, kb: int) -> List[Tuple[int, int]]:
    """System pairs (hi, lo) that models ka and kb order in opposite strict ways; hi is ka's better."""
    s = np.round(overall, TIE_DECIMALS)
    out = []
    n = s.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            da, db = s[i, ka] - s[j, ka], s[i, kb] - s[j, kb]
            if da * db < 0:
                out.append((i, j) if da > 0 else (j, i))
    return out


def _attribution(st: Statistics, overall: np.ndarray, totals: np.ndarray, sums: np.ndarray, buckets: List[str],
                 undefined: Sequence[str], pairs: Sequence[Tuple[int, int]]) -> List[FlipAttribution]:
    """Which bucket accounts for each pair that two models order differently (see FLIP_RULE)."""
    if not pairs:
        return []
    sm = st.matrix(st.table[:0])
    without = sm.scores(totals[None, :] - sums)               # (buckets, systems, models)
    names = [m.name for m in st.models]
    out = []
    for ka, kb in pairs:
        defined = names[ka] not in undefined and names[kb] not in undefined
        flipped = _flip_pairs(overall, ka, kb) if defined else []
        items = []
        for hi, lo in flipped:
            da, db = overall[hi, ka] - overall[lo, ka], overall[hi, kb] - overall[lo, kb]
            wa = without[:, hi, ka] - without[:, lo, ka]
            wb = without[:, hi, kb] - without[:, lo, kb]
            gap = da - db
            shrink = gap - (wa - wb)
            resolved = ~((np.round(wa, TIE_DECIMALS) > 0) & (np.round(wb, TIE_DECIMALS) < 0))
            items.append(PairFlip(st.names[hi], st.names[lo], float(gap), shrink, resolved))
        n = len(st.names)
        out.append(FlipAttribution(names[ka], names[kb], n * (n - 1) // 2, items, list(buckets), defined))
    return out


def _attribute(st: Statistics, attr: at.Attribute, bk: Buckets, bucket_of_span: np.ndarray,
               sentence_bucket: Optional[np.ndarray], rs: Resampling, options: Dict[str, Any]) -> AttributeResult:
    """Every measurement of one attribute, given each span's bucket (and each sentence's, for a sentence
    attribute)."""
    names, models = st.names, st.models
    n, m, B = len(names), len(models), len(bk)
    off = st.span_offset
    if sentence_bucket is not None:
        undefined: List[str] = []
        sentences = np.bincount(sentence_bucket[sentence_bucket >= 0], minlength=B)[:B]
    else:
        undefined = list(st.undefined_for_spans)
        sentences = None
    rows = BucketRows(st, bucket_of_span, sentence_bucket, B)
    sums, low, high, diffs, p = _bucket_pass(st, rows, rs, options)
    del rows
    gold = np.bincount(bucket_of_span[:off[1]][bucket_of_span[:off[1]] >= 0], minlength=B)[:B]
    system = np.stack([np.bincount(bucket_of_span[off[i + 1]:off[i + 2]][bucket_of_span[off[i + 1]:off[i + 2]] >= 0],
                                   minlength=B)[:B] for i in range(n)], axis=1) if n else np.zeros((B, 0), np.int64)
    outside = np.array([int(np.count_nonzero(bucket_of_span[off[i]:off[i + 1]] < 0)) for i in range(n + 1)])
    if sentence_bucket is None:
        outside[1:] += st.unplaced
    sm = st.matrix(st.table[:0])
    scores = sm.scores(sums) if B else np.zeros((0, n, m))
    undef = [models.index(get_model(u)) for u in undefined if u in [mo.name for mo in models]]
    empty = (gold[:, None] == 0) & (system == 0)
    scores[empty] = np.nan
    scores[:, :, undef] = np.nan
    if low is not None and high is not None:
        intervals: Tuple[np.ndarray, np.ndarray] = (low, high)

        def mask(lo_hi: Tuple[np.ndarray, np.ndarray] = intervals) -> None:
            for x in lo_hi:
                x[empty] = np.nan
                x[:, :, undef] = np.nan
        if rs.blockwise:        # the intervals come when every bucket's resamples are in
            rs.after(mask)
        else:
            mask()
    ranks = np.full((B, n, m), np.nan)
    rho, tau = np.full((B, m, m), np.nan), np.full((B, m, m), np.nan)
    for k in range(B):
        ranks[k], rho[k], tau[k] = _ranks_and_correlations(scores[k])
    counts, count_names, count_groups = _counts(st, sums)
    result = AttributeResult(attr.name, attr.level, attr.kind, attr.description, attr.source, bk.rule,
                             list(bk.names), list(bk.ranges), gold, system, sentences, outside, scores, low, high,
                             ranks, rho, tau, counts, count_names, undefined, count_groups=count_groups)
    if n >= 2:
        result.flips = _attribution(st, options["overall"], options["totals"], sums, list(bk.names), undefined,
                                    options["flip_pairs"])
    pair = options.get("pair")
    if pair is not None:
        ia, ib = pair
        if p is not None:       # the p-values come when every bucket's test has run

            def undefined_p(p: np.ndarray = p) -> None:
                p[:, undef] = np.nan
            options["tests"].after(undefined_p)
        result.pair = PairDifference(names[ia], names[ib], scores[:, ib, :] - scores[:, ia, :],
                                     diffs[0] if diffs else None, diffs[1] if diffs else None, p)
    return result


_Pass = Tuple[np.ndarray, Optional[np.ndarray], Optional[np.ndarray], Optional[Tuple[np.ndarray, np.ndarray]],
              Optional[np.ndarray]]


def _bucket_pass(st: Statistics, rows: BucketRows, rs: Resampling, options: Dict[str, Any]) -> _Pass:
    """(sums, low, high, the pair's difference interval, the pair's p-values) of every bucket, its rows
    made, resampled and tested one bucket at a time (resampled blockwise: registered, the intervals filled
    when :meth:`Resampling.run` runs; tested: added to ``options["tests"]``, the p-values filled when its
    :meth:`~ts_eval.analysis.pairtest.PairTests.run` runs)."""
    n, m, B = len(st.names), len(st.models), rows.B
    sums = np.zeros((B, st.C))
    pair = options.get("pair")
    boot = rs.boot and B > 0
    low, high = (np.full((B, n, m), np.nan), np.full((B, n, m), np.nan)) if boot else (None, None)
    diffs = (np.full((B, m), np.nan), np.full((B, m), np.nan)) if boot and pair is not None else None
    p = np.full((B, m), np.nan) if pair is not None and options["permutations"] else None
    fill = _Intervals(st, low, high, diffs, pair, 1.0 - options["confidence"])
    from_entries = not rows.of_sentences and st.whole_weights and (low is None or rs.blockwise)
    if from_entries and p is not None and pair is not None:
        a_cols, b_cols, _ = difference_columns(st.cols, n, pair[0], pair[1])
    if from_entries:            # buckets of spans: every bucket's sums, differences and resampled rows in one pass
        rows.span_tables((a_cols, b_cols) if p is not None and pair is not None else None,
                         st.groups if low is not None else None)
        sums = rows.entry_sums()
    for k in range(B):
        if from_entries:        # a bucket of spans: the pair's differences, its resampled rows
            row_sentence = rows.sentences_of(k)
            if len(row_sentence) and p is not None and pair is not None:
                options["tests"].add(st.matrix(sums[k][None, :]), pair[0], pair[1], p[k], rows.differences_of(k))
            if low is not None and len(row_sentence):
                gtable, gids = rows.grouped_of(k)
                rs.register(Job(row_sentence, gids, gtable.__getitem__, sums[k].copy(), st.groups, rs.resamples,
                                fill.at(k)))
            continue
        table, ids, row_sentence = rows.compact(k)
        bucket = StatsMatrix(st.names, st.models, table, st.cols, ids=ids)
        if ids is None:
            sums[k] = table.sum(0)
        else:           # whole numbers: the same sums in any order, a slab of the table at a time (no float64 copy)
            sums[k] = bucket.totals
        if not len(row_sentence):
            continue
        if low is not None and rs.blockwise and ids is not None:
            rs.register(Job(row_sentence, ids, lambda u: grouped(st.table[u].astype(np.float64), st.groups),
                            sums[k].copy(), st.groups, rs.resamples, fill.at(k)))
        elif low is not None:
            X = table if ids is None else table[ids].astype(np.float64)
            fill.at(k)(rs.dense(X, row_sentence, st.groups))
            del X
        if p is not None and pair is not None:
            options["tests"].add(bucket, pair[0], pair[1], p[k])
    return sums, low, high, diffs, p


#: resampled sums scored at a time by :class:`_Intervals` (8 bytes each)
SCORED_VALUES = 1 << 18


class _Intervals:
    """Writes a bucket's bootstrap intervals (and the pair's difference interval) from its resampled sums."""

    def __init__(self, st: Statistics, low: Optional[np.ndarray], high: Optional[np.ndarray],
                 diffs: Optional[Tuple[np.ndarray, np.ndarray]], pair: Optional[Tuple[int, int]], alpha: float):
        self.sm, self.low, self.high, self.diffs, self.pair, self.alpha = \
            st.matrix(st.table[:0]), low, high, diffs, pair, alpha

    def at(self, k: int) -> Callable[[np.ndarray], None]:
        def done(resampled: np.ndarray) -> None:
            assert self.low is not None and self.high is not None
            q = [self.alpha / 2, 1 - self.alpha / 2]
            # (resamples, systems, models), a slab of resamples at a time (each resample's scores its own: the same
            # numbers; the slab's columns stay in the cache while every model reads them)
            step = max(1, SCORED_VALUES // max(resampled.shape[1], 1))
            rsc = np.concatenate([self.sm.scores(resampled[a:a + step]) for a in range(0, len(resampled), step)]) \
                if len(resampled) > step else self.sm.scores(resampled)
            self.low[k], self.high[k] = np.quantile(rsc, q, axis=0)
            if self.diffs is not None and self.pair is not None:
                d = rsc[:, self.pair[1], :] - rsc[:, self.pair[0], :]
                self.diffs[0][k], self.diffs[1][k] = np.quantile(d, q, axis=0)
        return done



def _overall_flips(overall: np.ndarray, names: List[str], models: List[str]) -> List[Dict[str, Any]]:
    out = []
    n = len(names)
    for a in range(len(models)):
        for b in range(a + 1, len(models)):
            pairs = _flip_pairs(overall, a, b)
            out.append({"model_a": models[a], "model_b": models[b], "pairs_compared": n * (n - 1) // 2,
                        "changed": len(pairs),
                        "pairs": [{"better_under_a": names[i], "better_under_b": names[j]} for i, j in pairs]})
    return out


# ---------------------------------------------------------------------------
# entry points


def _training(train: Any, scheme: str, policy: str) -> Optional[at.Training]:
    """Training data from a path (any input format), a Corpus (its gold side), Documents or a Training."""
    if train is None or isinstance(train, at.Training):
        return train
    from ..io.documents import Documents

    if isinstance(train, Corpus):
        if train.tokens is None:
            raise OptionError("the training corpus has no token texts", option="train", value="Corpus")
        toks = list(train.tokens(0, train.n_tokens))
        g = train.gold
        return at.training_from(toks, g.start, g.last, g.label, train.labels, source=train.gold_info.path,
                                sentences=train.n_sentences)
    if not isinstance(train, Documents):
        from ..io.reader import read

        train = read(str(train), scheme=scheme, policy=policy) if _columns(str(train)) else read(str(train))
    toks = [t for key in train.keys for t in (key.split("\x1f") if key else [])]
    return at.training_from(toks, train.start, train.last, train.label, train.labels, source=train.path,
                            sentences=train.n_docs)


def _columns(path: str) -> bool:
    from ..io.formats import detect as detect_format
    from ..io.source import is_dir, read_head

    return not is_dir(path) and detect_format(path, read_head(path)) == "columns"


def analyze_corpus(corpus: Corpus, *, errors: Optional[ErrorOptions] = None, **options: Any) -> Analysis:
    """Analyse the systems of ``corpus`` (see :func:`analyze`): :func:`analyze_blocks` fed the corpus's blocks of
    sentences (:func:`~ts_eval.analysis.corpus_blocks.blocks_of`), or the corpus as one block when span
    contributions that are fractions need its order (:class:`~ts_eval.ranking.layout.NotInBlocks`)."""
    names = system_names(corpus, options.get("systems"))
    model_list = resolve_models(list(ANALYSIS_MODELS) if options.get("models") is None else
                                list(options["models"]), corpus)
    try:
        return analyze_blocks(blocks_of(corpus, names, [m.needs for m in model_list]), whole=corpus, errors=errors,
                              **options)
    except NotInBlocks:
        return analyze_blocks([corpus], whole=corpus, errors=errors, **options)


def analyze_blocks(
    blocks: Iterable[Corpus],
    *,
    whole: Optional[Corpus] = None,
    errors: Optional[ErrorOptions] = None,
    models: Optional[Sequence[str]] = None,
    reference: Optional[str] = None,
    train: Any = None,
    vocab: Any = None,
    by: Union[str, Sequence[str]] = (),
    records: Optional[Sequence[Mapping[str, Any]]] = None,
    buckets: Union[str, Sequence[str], None] = None,
    bootstrap: int = 1000,
    permutations: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    systems: Optional[Sequence[str]] = None,
    flips: Optional[Sequence[Tuple[str, str]]] = None,
    pair: Optional[Tuple[str, str]] = None,
    attributes: Union[str, Sequence[str], None] = None,
) -> Analysis:
    """Analyse the systems of a corpus given as its blocks of whole sentences in order (each a corpus of its own,
    numbered from 0, with its own sorted labels: what :meth:`ts_eval.io.inputs.Inputs.read` gives), in one pass:
    every block's statistics, attribute values and (``errors``: the error analysis asked for) errors are taken
    while it is there, and only they are kept.  ``whole``: the corpus itself, when it is in memory (InterpretEval's
    attributes and record fields read it, so they need it).  The options are :func:`ts_eval.analyze`'s."""
    timings: Dict[str, float] = {}
    t0 = time.perf_counter()
    it = iter(blocks)
    first = next(it)
    names = system_names(first, systems)
    by = [by] if isinstance(by, str) else list(by)                  # one name alone
    attributes = [attributes] if isinstance(attributes, str) else attributes
    check_options(bootstrap=bootstrap, permutations=permutations, seed=seed, confidence=confidence)
    spec = parse_bucket_spec([buckets] if isinstance(buckets, str) else list(buckets or []))
    model_list = resolve_models(list(ANALYSIS_MODELS) if models is None else list(models), first)
    model_names = [mo.name for mo in model_list]
    reference = reference or model_names[0]
    if reference not in model_names:
        raise OptionError(f"the reference model is not among the models ({', '.join(model_names)})",
                          option="reference", value=reference)
    flip_pairs = flip_arg(flips, model_names)
    pair_idx = pair_arg(pair, names)
    vocabulary = vocab if (vocab is None or isinstance(vocab, frozenset)) else (
        at.read_vocabulary(str(vocab)) if isinstance(vocab, str) or hasattr(vocab, "__fspath__") else frozenset(vocab))
    training = _training(train, first.scheme or "IOB2", first.policy or "conlleval")
    attrs, left_out = chosen_attributes(first if whole is None else whole, names, training, vocabulary,
                                        first.tokens is not None, spec, by, records, attributes)
    timings["training"] = time.perf_counter() - t0
    passed = _BlockPass(names, model_list, attrs, spec, errors, first)
    passed.read(first, it, timings)
    st = passed.st
    if not st.labels:
        raise InputError("no labelled span in gold or in any system: nothing to analyse", passed.gold_path)
    totals = st.totals
    overall = st.matrix(st.table[:0]).scores(totals)
    rs = Resampling(st.S, bootstrap, seed, blockwise=st.ids is not None and st.whole_weights)
    options = {"confidence": confidence, "overall": overall, "totals": totals, "flip_pairs": flip_pairs,
               "pair": pair_idx, "permutations": permutations, "tests": (tests := PairTests(permutations, rs.perm_seq))}
    results = _results(st, passed.values, rs, options, timings)
    t0 = time.perf_counter()
    tests.run()     # every bucket's pair test, from one stream of draws
    rs.run()        # blockwise: every bucket's resamples, a block of resamples at a time
    timings["scores"] += time.perf_counter() - t0
    settings = {"models": model_names, "reference": reference, "bootstrap": bootstrap,
                "permutations": permutations if pair_idx is not None else 0, "seed": seed, "confidence": confidence,
                "unit": "sentence", "buckets": spec["k"],
                "bucket_mode": "interpreteval" if spec["interpreteval"] else "default", "edges": spec["edges"],
                "flips": [[model_names[a], model_names[b]] for a, b in flip_pairs],
                "pair": [names[pair_idx[0]], names[pair_idx[1]]] if pair_idx is not None else None,
                "by": list(by), "vocabulary": len(vocabulary) if vocabulary is not None else None,
                "versions": versions()}
    out = _analysis(passed, model_list, overall, results, settings, timings,
                    training.summary() if training is not None else None, left_out)
    if errors is not None and passed.errors is not None:
        t0 = time.perf_counter()
        out.errors = errors.result(passed.errors)
        timings["errors"] = passed.errors_time + time.perf_counter() - t0
    return out


def _analysis(passed: _BlockPass, models: List[Model], overall: np.ndarray, results: List[AttributeResult],
              settings: Dict[str, Any], timings: Dict[str, float], training: Optional[Dict[str, Any]],
              left_out: List[str]) -> Analysis:
    """The analysis of the corpus ``passed`` read: its systems' ``overall`` scores under ``models``, the attributes'
    ``results`` (and those ``left_out``), the ``settings`` that made them, the ``training`` data's summary."""
    st, tally, names = passed.st, passed.tally, passed.st.names
    model_names = [mo.name for mo in models]
    return Analysis(
        systems=names, models=model_names, titles=[mo.title for mo in models],
        descriptions=[mo.description for mo in models], reference=settings["reference"], overall=overall,
        attributes=results,
        corpus={"tokens": tally.tokens, "sentences": tally.sentences, "documents": tally.documents,
                "gold_spans": passed.gold_spans, "labels": list(st.labels), "gold_path": passed.gold_path},
        training=training, left_out=left_out, settings=settings, timings=timings,
        flips=_overall_flips(overall, names, model_names))


class _BlockPass:
    """The one pass over the blocks: each block's statistics, attribute values and errors taken while it is
    there, and what the result says of the corpus (its sizes, gold's path)."""

    def __init__(self, names: List[str], models: List[Model], attrs: List[at.Attribute], spec: Dict[str, Any],
                 errors: Optional[ErrorOptions], first: Corpus):
        self.st = Statistics(None, names, models)
        self.values = AttributeValues(attrs, names, spec)
        self.errors = None if errors is None else errors.counts(first, names)
        self.tally = CorpusTally()
        self.gold_spans = 0
        self.gold_path = first.gold_info.path
        self.errors_time = 0.0

    def read(self, first: Corpus, rest: Iterator[Corpus], timings: Dict[str, float]) -> None:
        """Take every block (``first``, then ``rest``), one at a time (``timings``: the seconds of each part)."""
        spent = dict.fromkeys(("statistics", "attributes"), 0.0)
        block: Optional[Corpus] = first
        while block is not None:
            t0 = time.perf_counter()
            self.st.add(block)
            t1 = time.perf_counter()
            self.values.add(block)
            t2 = time.perf_counter()
            if self.errors is not None:
                self.errors.add(block)
            spent["statistics"] += t1 - t0
            spent["attributes"] += t2 - t1
            self.errors_time += time.perf_counter() - t2
            self.tally = self.tally + CorpusTally.of(block)
            self.gold_spans += len(block.gold)
            block = next(rest, None)
        t0 = time.perf_counter()
        self.st.finish()
        spent["statistics"] += time.perf_counter() - t0
        timings.update(spent)


def _results(st: Statistics, values: AttributeValues, rs: Resampling, options: Dict[str, Any],
             timings: Dict[str, float]) -> List[AttributeResult]:
    """Every attribute's buckets (``values``: read from every block) and their scores (``timings``: the seconds
    each took, added up)."""
    results: List[AttributeResult] = []
    t_buckets = t_scores = 0.0
    for k, attr in enumerate(values.attrs):
        t0 = time.perf_counter()
        bk, bucket_of_span, sentence_bucket = values.assigned(k, st.span_sentence)
        t1 = time.perf_counter()
        results.append(_attribute(st, attr, bk, bucket_of_span, sentence_bucket, rs, options))
        t_buckets += t1 - t0
        t_scores += time.perf_counter() - t1
    timings["buckets"], timings["scores"] = t_buckets, t_scores
    return results


def corpus_of(gold: Union[Corpus, Sequence[Sequence[str]]],
              systems: Optional[Union[Mapping[str, Any], Sequence[Any]]], *, scheme: str, policy: str,
              options: Dict[str, Any]) -> Corpus:
    """The corpus :func:`ts_eval.analyze` analyses: ``gold`` itself when it is a Corpus (``systems`` then
    names some of its systems, put into ``options``), else built from tag sequences."""
    if isinstance(gold, Corpus):
        if systems is not None and not isinstance(systems, Mapping):
            options["systems"] = list(systems)
        return gold
    if systems is None:
        raise OptionError("give the systems: a mapping of system name -> tag sequences")
    pairs = list(systems.items()) if isinstance(systems, Mapping) else [tuple(p) for p in systems]
    return from_sequences(gold, {str(n): seqs for n, seqs in pairs}, scheme=scheme, policy=policy)
