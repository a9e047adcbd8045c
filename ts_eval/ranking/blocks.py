"""The statistics matrix of a corpus read in blocks of sentences: what ``rank`` keeps of a corpus.

:class:`StatsBuilder` takes the corpus one block of whole sentences at a time (the blocks
:meth:`ts_eval.io.inputs.Inputs.read` gives) and keeps only the
per-sentence statistics of every system and model family (:mod:`ts_eval.ranking.sufficient`), the
sentences that open a document, and what the result says about the corpus; a block's tokens and
spans are dropped as soon as its statistics are taken.  :meth:`StatsBuilder.matrix` is the
:class:`~ts_eval.ranking.sufficient.StatsMatrix` that :func:`~ts_eval.ranking.sufficient.statistics`
gives for the corpus read whole, value for value (as its distinct rows and every unit's row number:
:meth:`~ts_eval.ranking.sufficient.StatsMatrix.dense` is every unit's row).

Memory: each distinct row of all systems' statistics is kept once (:class:`~ts_eval.ranking.rows.RowTable`)
and every sentence as the number of its row (``int32``): 4 bytes a sentence plus the distinct rows, which
grow far slower than the sentences (a row counts a handful of spans and tokens) and at worst as them.  A
row holds systems x statistics (a model family's statistics are a few columns for the sentence and a few
per label: TS 2 + 6 per label, the segment models 4 per label, fair 8 per label, SemEval 20), as float32
while every value is an integer below 2**24 (exact, and what the resampling products use), float64
otherwise; the rows grow in steps of an eighth (``ndarray.resize``: the system moves the pages, they are
not copied).  A label first met in a later block widens the rows once (a copy).  Plus one block of the
corpus at a time.

Systems given as several runs (training seeds) are scored without ranking them by :func:`score_runs` (and
:class:`RunsCounter`, which takes the blocks one at a time, so that a caller that reads them for something else,
``score``'s counts, reads the inputs once): their statistics are taken as ``rank`` takes them and summed, and
:class:`~ts_eval.ranking.runs.RunScores` holds each system's mean, sd, min and max over its runs and every run's
score under every model -- the numbers ``rank`` reports for the same runs, value for value.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Hashable, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import DEFAULT_MATCHING, MatchSettings, ThresholdLike, match_settings
from ..errors import OptionError
from ..models.context import CorpusData, SystemData
from ..models.registry import StatsFn, check_matching, check_partial_weight, configure
from ..models.tally import CorpusTally
from .layout import NotInBlocks as NotInBlocks  # (raised here too)
from .layout import label_width, placed, relabelled
from .rows import RowTable, distinct_of, integral
from .runs import Runs, RunScores
from .study import RankingResult, _Plan, _ranked, check_options
from .sufficient import REFERENCE_MODEL, Model, StatsMatrix, resolve_models

EXACT32 = 2 ** 24     # float32 holds every integer below this exactly
#: ``rank`` reads blocks of at least this many bytes of the gold file (and the same sentences of every system
#: file), more with few systems (:func:`block_bytes`): a block's per-sentence tables (sentences x labels x
#: statistics, per family and system, while its statistics are taken) are several times its bytes times the
#: systems; smaller blocks cost more in numpy calls
BLOCK_BYTES = 1 << 18
#: :meth:`StatsBuilder.merge` finds a later builder's rows this many at a time
MERGED_ROWS = 1 << 13


def block_bytes(systems: int) -> int:
    """The bytes of gold in a block of ``rank`` with ``systems`` systems: :data:`BLOCK_BYTES` times 8 shared by
    the systems, at least :data:`BLOCK_BYTES` (two systems: 1 MiB, 8 or more: 256 KiB), so that the block's
    tables of every system stay about the same size; 0 systems (not known before reading): BLOCK_BYTES."""
    return max(BLOCK_BYTES, BLOCK_BYTES * 8 // systems) if systems > 0 else BLOCK_BYTES


class StatsBuilder:
    """Per-sentence statistics of ``systems`` under the families of ``models``, block by block."""

    def __init__(self, models: Sequence[Model], systems: Sequence[str],
                 matching: MatchSettings = DEFAULT_MATCHING) -> None:
        self.models = list(models)
        self.systems = list(systems)
        self.matching = matching
        self.families: List[StatsFn] = []
        self.columns: Dict[StatsFn, Optional[Tuple[int, int]]] = {}
        for m in self.models:
            if m.stats not in self.families:
                self.families.append(m.stats)
                self.columns[m.stats] = m.columns
        self.labels: Optional[List[str]] = None
        self.widths: Dict[StatsFn, int] = {}
        self.data = np.zeros((0, 0), np.float32)   # the distinct rows (the first ``rows``)
        self.rows = 0
        self.found = RowTable()
        self.ids: List[np.ndarray] = []          # per block: every sentence's row of ``data``
        self.units = 0
        self.opens: List[np.ndarray] = []       # per block: which sentences open a resampling document
        self.pending = False                     # a document opens after the last sentence's first token
        self.tally = CorpusTally()
        self.gold_path: Optional[str] = None

    # -- the columns

    def _layout(self, widths: Dict[StatsFn, int]) -> Dict[StatsFn, Tuple[int, int]]:
        """family -> (first column, columns per system) for ``widths``."""
        out, first = {}, 0
        for fam in self.families:
            out[fam] = (first, widths[fam])
            first += widths[fam] * len(self.systems)
        return out

    def _width(self, fam: StatsFn, labels: int, found: int, had: Optional[int]) -> int:
        return label_width(fam, self.columns[fam], labels, found, had)

    def _placed(self, fam: StatsFn, x: np.ndarray, where: np.ndarray, width: int) -> np.ndarray:
        return placed(self.columns[fam], x, where, width)

    def _widen(self, labels: List[str], widths: Dict[StatsFn, int]) -> None:
        """Put the rows so far under ``labels`` (which hold the labels so far) and the new widths."""
        if self.labels is None:       # the first block
            self.data = np.zeros((0, sum(w * len(self.systems) for w in widths.values())), np.float32)
            self.labels, self.widths = labels, widths
            return
        where = np.array([labels.index(lab) for lab in self.labels], np.int64)
        self.data = relabelled(self.data, self.rows, [self.columns[fam] for fam in self.families],
                               list(self._layout(self.widths).values()), list(self._layout(widths).values()),
                               len(self.systems), where)
        self.labels, self.widths = labels, widths
        self.found.rehash(self.data[:self.rows])

    # -- the rows

    def _room(self, rows: int, dtype: type) -> None:
        """Room for ``rows`` more rows of ``dtype`` (float64 once a value does not fit float32)."""
        if self.data.dtype != dtype:
            self.data = self.data.astype(dtype)
        need = self.rows + rows
        if need > self.data.shape[0]:
            grown = max(need, self.data.shape[0] + self.data.shape[0] // 8, 1024)
            if self.data.shape[1] == 0 or self.data.size == 0:
                self.data = np.zeros((grown, self.data.shape[1]), self.data.dtype)
            else:
                self.data.resize((grown, self.data.shape[1]), refcheck=False)

    def add(self, corpus: Corpus) -> None:
        """Take the statistics of one block of whole sentences (the next in the corpus)."""
        cd = CorpusData(corpus, self.matching)
        per: Dict[StatsFn, List[np.ndarray]] = {fam: [] for fam in self.families}
        for name in self.systems:
            sd = SystemData(cd, name)        # one system's intermediate results at a time
            for fam in self.families:
                per[fam].append(sd.stats(fam))
            del sd
        labels = sorted(set(self.labels or []) | set(corpus.labels))
        widths = {fam: self._width(fam, len(labels), xs[0].shape[1], len(corpus.labels))
                  for fam, xs in per.items()}
        if labels != self.labels or widths != self.widths:
            self._widen(labels, widths)
        where = np.array([labels.index(lab) for lab in corpus.labels], np.int64)
        fits = all(_fits32(x) for xs in per.values() for x in xs)
        dtype = np.float32 if fits and self.data.dtype == np.float32 else np.float64
        block = np.zeros((corpus.n_sentences, self.data.shape[1]), dtype)
        for fam, (first, w) in self._layout(self.widths).items():
            for i, x in enumerate(per[fam]):
                block[:, first + i * w:first + (i + 1) * w] = self._placed(fam, x, where, w)
        del per
        self._room(0, dtype)
        ids, new = self.found.ids(block, self.data, self.rows, True if fits else None)
        self._room(len(new), dtype)
        self.data[self.rows:self.rows + len(new)] = new
        self.rows += len(new)
        self.ids.append(ids)
        self.units += corpus.n_sentences
        self._documents(corpus)
        self.tally = self.tally + CorpusTally.of(corpus)
        if self.gold_path is None:
            self.gold_path = corpus.gold_info.path

    def merge(self, later: StatsBuilder) -> None:
        """Take the statistics of ``later``, a builder of the sentences that follow this one's (the next shard of
        the file, :mod:`ts_eval.ranking.shards`): its rows found among these or added in its order of first use,
        its labels and documents continued -- the builder of both read in one."""
        if later.labels is None:
            return
        if self.labels is None:
            self.__dict__.update(later.__dict__)
            self.found.rehash(self.data[:self.rows])
            return
        same = dict(zip(later.families, self.families))   # (a builder handed back by a process has copies of them)
        later.families, later.columns = self.families, self.columns
        later.widths = {same[fam]: w for fam, w in later.widths.items()}
        labels = sorted(set(self.labels) | set(later.labels))
        widths = {fam: self._width(fam, len(labels), later.widths[fam], len(later.labels)) for fam in self.families}
        for one in (self, later):
            if labels != one.labels or widths != one.widths:
                one._widen(labels, widths)
        rows = later.data[:later.rows]
        dtype = np.float64 if np.float64 in (self.data.dtype, rows.dtype) else np.float32
        self._room(0, dtype)
        number = np.empty(len(rows), np.int32)
        for a in range(0, len(rows), MERGED_ROWS):       # as blocks of rows (the temporaries stay small)
            got, new = self.found.ids(rows[a:a + MERGED_ROWS].astype(dtype, copy=False), self.data, self.rows,
                                      True if rows.dtype == np.float32 else None)
            self._room(len(new), dtype)
            self.data[self.rows:self.rows + len(new)] = new
            self.rows += len(new)
            number[a:a + MERGED_ROWS] = got
        del later.data
        self.ids.extend(number[ids] for ids in later.ids)
        self.units += later.units
        opens = [o for o in later.opens if len(o)]
        if opens:
            opens[0][0] |= self.pending
            self.pending = later.pending
        self.opens.extend(opens)
        self.tally = self.tally + later.tally
        if self.gold_path is None:
            self.gold_path = later.gold_path

    def part(self) -> StatsBuilder:
        """This builder with only what :meth:`merge` takes (its rows trimmed, no hashes): what a shard's process
        hands back."""
        self.data = self.data[:self.rows]
        self.found = RowTable()
        keys: List[Any] = list(range(len(self.families)))      # (the families by number: a model may be a lambda)
        self.widths = dict(zip(keys, self.widths.values()))
        self.columns = dict(zip(keys, self.columns.values()))
        self.families, self.models, self.matching = keys, [], DEFAULT_MATCHING
        return self

    def _documents(self, corpus: Corpus) -> None:
        """Which of the block's sentences open a document (a -DOCSTART- line before their first token,
        after the previous sentence's)."""
        first = corpus.sent_offsets[:-1]
        starts = np.zeros(0, np.int64)
        if corpus.doc_offsets is not None:
            starts = np.asarray(corpus.doc_offsets[1:-1], np.int64)
            if corpus.opens_document:
                starts = np.concatenate(([0], starts))
        before = np.searchsorted(starts, first, side="right")
        opens = np.diff(before, prepend=0) > 0
        if len(opens):
            opens[0] |= self.pending
            self.pending = bool(len(starts) > before[-1])
        self.opens.append(opens)

    # -- the result

    def info(self) -> Dict[str, Any]:
        """What a ranking says about the corpus (as :func:`ts_eval.ranking.study.rank_corpus` gives it)."""
        t = self.tally
        return {"tokens": t.tokens, "sentences": t.sentences, "documents": t.documents,
                "labels": list(self.labels or []), "gold_path": self.gold_path}

    def matrix(self, unit: str = "sentence") -> StatsMatrix:
        """The :class:`StatsMatrix` of every block so far, per sentence or per document: the distinct rows and
        every unit's row when every statistic is a whole number, else every unit's row itself."""
        if self.data.shape[0] != self.rows:
            if self.data.size:
                self.data.resize((self.rows, self.data.shape[1]), refcheck=False)
            else:
                self.data = np.zeros((self.rows, self.data.shape[1]), self.data.dtype)
        table, ids = self.data, np.concatenate(self.ids) if self.ids else np.zeros(0, np.int32)
        self.ids = [ids]
        cols: Dict[Hashable, Tuple[int, int]] = {fam: at for fam, at in self._layout(self.widths).items()}
        whole = table.dtype == np.float32 or integral(table)    # (float32: every block's values were whole)
        if unit == "sentence":
            if whole:
                return StatsMatrix(self.systems, self.models, table, cols, unit, np.ones(self.units), ids)
            return StatsMatrix(self.systems, self.models, table[ids], cols, unit, np.ones(self.units))
        if unit != "document":
            raise OptionError("expected sentence or document", option="unit", value=unit)
        if not self.tally.doc_starts:
            raise OptionError("needs documents, but the gold file has no -DOCSTART- lines", option="unit",
                              value="document")
        opens = np.concatenate(self.opens) if self.opens else np.zeros(0, bool)
        if len(opens):
            opens[0] = True
        starts = np.flatnonzero(opens)
        sizes = np.diff(np.append(starts, self.units)).astype(float)
        if whole:       # each distinct document row once, a part of the documents at a time
            distinct_docs, doc_ids = distinct_of(document_sums(table, ids, starts), table.shape[1], np.float64)
            return StatsMatrix(self.systems, self.models, distinct_docs, cols, unit, sizes, doc_ids)
        summed = np.concatenate(list(document_sums(table, ids, starts))) if len(starts) else np.zeros(
            (0, table.shape[1]))
        return StatsMatrix(self.systems, self.models, summed, cols, unit, sizes)


#: what begins the statistics of the sentences after the blocks (the later shards of a file): given a function that
#: makes an empty builder, the builders of those sentences, in order (:func:`ts_eval.ranking.shards.task_blocks`)
Later = Callable[[Callable[[], StatsBuilder]], Iterator[StatsBuilder]]


def document_sums(table: np.ndarray, ids: np.ndarray, starts: np.ndarray, chunk: int = 1 << 14
                  ) -> Iterator[np.ndarray]:
    """(documents, K) float64, in parts of about ``chunk`` sentences: the sums of the rows of the sentences
    from each of ``starts`` to the next (each document's sum as one sum over all its rows gives it)."""
    d = 0
    while d < len(starts):
        first = int(starts[d])
        e = max(int(np.searchsorted(starts, first + chunk, side="right")), d + 1)
        stop = int(starts[e]) if e < len(starts) else len(ids)
        yield np.add.reduceat(table[ids[first:stop]], starts[d:e] - first, axis=0, dtype=np.float64)
        d = e


def rank_blocks(blocks: Iterable[Corpus], later: Optional[Later] = None, *, unit: str = "sentence",
                **options: Any) -> RankingResult:
    """:func:`~ts_eval.ranking.study.rank_corpus` of a corpus given as consecutive blocks of whole sentences
    (the blocks of :meth:`ts_eval.io.inputs.Inputs.read`): each block's
    per-sentence statistics are kept (:class:`StatsBuilder`) and the block dropped, so memory holds the
    statistics matrix and one block, never the corpus; the result is the one of the corpus read whole.
    The models and systems are those of the first block (``options``: ``rank_corpus``'s).  A
    :class:`NotInBlocks` error: a model whose statistics do not say how they depend on the labels met
    blocks with other labels (rank the corpus read whole).  ``later``: begins the statistics of the sentences
    that follow ``blocks`` (the file's later shards, in other processes: :func:`ts_eval.ranking.shards.task_blocks`)
    and gives their builders in order, merged after the blocks' (:meth:`StatsBuilder.merge`); ``jobs`` > 1: the
    permutation test in another process beside the bootstrap."""
    if unit not in ("sentence", "document"):
        raise OptionError("expected sentence or document", option="unit", value=unit)
    task, progress, jobs = options.pop("task", "task"), options.pop("progress", None), options.pop("jobs", 1)
    keys = ("bootstrap", "permutations", "seed", "confidence", "alpha", "aso_resamples", "aso_threshold")
    defaults = dict(bootstrap=1000, permutations=1000, seed=0, confidence=0.95, alpha=0.05, aso_resamples=1000,
                    aso_threshold=0.2)
    numbers = {k: options.pop(k, defaults[k]) for k in keys}
    check_options(aso_resamples=numbers["aso_resamples"], aso_threshold=numbers["aso_threshold"], jobs=jobs)
    it = iter(blocks)
    first = next(it, None)
    if first is None:
        raise OptionError("no sentences to rank")
    plan = _Plan.of(first, options.pop("systems", None), options.pop("models", None),
                    options.pop("reference", REFERENCE_MODEL), numbers["bootstrap"], numbers["permutations"],
                    numbers["seed"], numbers["confidence"], numbers["alpha"], options.pop("flips", None),
                    options.pop("min_overlap", None), options.pop("assignment", "many-to-many"),
                    options.pop("partial_weight", 0.5), options.pop("runs", None))
    if options:
        raise OptionError(f"unknown option(s) {', '.join(sorted(options))}")
    t0 = time.perf_counter()
    builder = StatsBuilder(plan.models, plan.names, plan.matching)
    parts = later(lambda: StatsBuilder(plan.models, plan.names, plan.matching)) if later is not None else iter(())
    builder.add(first)
    del first
    for block in it:
        builder.add(block)
        del block
    for part in parts:          # the builders of the sentences that follow, in order
        builder.merge(part)
        del part
    sm = builder.matrix(unit)
    elapsed = time.perf_counter() - t0
    return _ranked(sm, builder.info(), plan, elapsed, task=task, unit=unit, progress=progress, jobs=jobs, **numbers)


class RunsCounter:
    """The statistics of every run, block by block (:meth:`add`), and their scores (:meth:`result`).

    ``runs``: system name -> the names of its runs among the corpus's systems (the corpus's other systems are
    systems of one run); ``models``: ranking model names (None: the default set for the first block's corpus);
    the matcher's settings as :func:`ts_eval.rank` takes them."""

    def __init__(self, runs: Mapping[str, Sequence[str]], *, models: Optional[Sequence[str]] = None,
                 min_overlap: ThresholdLike = None, assignment: str = "many-to-many",
                 partial_weight: float = 0.5) -> None:
        if not runs:
            raise OptionError("no system given as runs", option="runs")
        self.runs = {name: list(members) for name, members in runs.items()}
        self.names = list(models) if models is not None else None
        self.matching = match_settings(min_overlap, assignment)
        self.weight = check_partial_weight(partial_weight)
        if self.names is not None:          # (unknown names fail before anything is read)
            self._models(None)
        self.builder: Optional[StatsBuilder] = None
        self.grouping: Optional[Runs] = None

    def _models(self, corpus: Optional[Corpus]) -> List[Model]:
        chosen = resolve_models(self.names, corpus)
        check_matching(self.matching, [m.name for m in chosen], "ranking model")
        return [configure(m, partial_weight=self.weight) for m in chosen]

    def add(self, block: Corpus) -> None:
        """Take one block of whole sentences (the next of the corpus)."""
        if self.builder is None:
            systems = list(block.systems)
            grouping = Runs.of(systems, self.runs, least=1)
            assert grouping is not None
            self.grouping = grouping
            self.builder = StatsBuilder(self._models(block), systems, self.matching)
        self.builder.add(block)

    def result(self) -> RunScores:
        """Every system's scores over its runs, from the blocks taken."""
        if self.builder is None or self.grouping is None:
            raise OptionError("no sentences to score")
        sm = self.builder.matrix()
        return RunScores.of(self.grouping, [m.name for m in self.builder.models], sm.scores(sm.totals))

    def plain(self) -> Dict[str, Any]:
        """:meth:`result` as plain JSON-able data (:func:`plain_runs`)."""
        return plain_runs(self.result())


def score_runs(blocks: Iterable[Corpus], runs: Mapping[str, Sequence[str]], **options: Any) -> RunScores:
    """The scores of the systems of ``blocks`` (a corpus, or its consecutive blocks of whole sentences: the blocks
    of :meth:`ts_eval.io.inputs.Inputs.read`) given as runs, without ranking them (``options``: those of
    :class:`RunsCounter`)::

        inputs, runs = with_runs(Inputs(gold="gold.conll"), {"crf": "runs/crf/*.conll", "hmm": "runs/hmm"})
        scores = score_runs(inputs.read(), runs)        # scores.mean, scores.sd, scores.to_dict(), ...
    """
    counter = RunsCounter(runs, **options)
    for block in [blocks] if isinstance(blocks, Corpus) else blocks:
        counter.add(block)
    return counter.result()


def plain_runs(scores: RunScores) -> Dict[str, Any]:
    """:meth:`RunScores.to_dict` as plain JSON-able data (numbers as floats, nan as None)."""
    from .statistics import _clean

    out: Dict[str, Any] = _clean(scores.to_dict())
    return out


def _fits32(x: np.ndarray) -> bool:
    """Every value of ``x`` an integer that float32 holds exactly (below 2**24 either way: the range by its
    largest and smallest values, no copy; then the values against their int32 casts)."""
    if not x.size:
        return True
    return bool(x.max() < EXACT32 and x.min() > -EXACT32 and (x.astype(np.int32) == x).all())
