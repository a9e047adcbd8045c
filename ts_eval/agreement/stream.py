"""``agree`` over blocks: :func:`agreement_of_blocks` reads annotations one block of whole sentences at
a time (the blocks :meth:`ts_eval.io.inputs.Inputs.read` gives) and gives the
:class:`~ts_eval.agreement.results.Agreement` that :func:`~ts_eval.agreement.study.agreement` gives for
them read whole, value for value.

Every figure is a function of sums of per-sentence statistics (:mod:`.statistics`): a block's are
added to running totals under names that do not depend on the block (:mod:`.layout`), the documents'
rows are made as documents end, a thousand at a time (:mod:`.units`), the disagreements are counted per label and
surface string as they come.  The sums are the whole's exactly when every statistic is a multiple of
a power of two (:func:`exact_in_blocks`: the separator weight is, and 1 / (annotators - 1) is, as with
two, three or five annotators), so adding them in any order gives the same floats; otherwise the
annotations are read whole.

Kept: the totals (a few thousand floats), the rows listed (``keep``: the ``keep`` lowest documents and
first disagreements; None: every one, as JSON and CSV list them, in memory or with ``spool`` in
temporary files, :mod:`.spool`), one count per disagreement group
(label(s) and surface string), 24 bytes per document (where it starts), and with a bootstrap the
documents' sums (:mod:`.units`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo
from ..core.measures import check_separator_weight
from ..errors import OptionError
from ..io.columns import count_columns
from ..io.inputs import Inputs
from ..io.source import STDIN
from ..models.tally import CorpusTally
from ..ranking.study import bootstrap_weights, check_options
from .assemble import DOCUMENT_FIGURES, _bootstrap, _figures, _labels, _pairs
from .continuum import Continuum
from .data import from_corpus
from .disagreements import Counted, Tally, clusters, counted_of
from .figures import figures
from .layout import Registry, Stats
from .results import Agreement
from .spool import Spool
from .statistics import sentence_stats
from .units import UnitRows, corpus_units


def exact_in_blocks(annotators: int, separator_weight: float) -> bool:
    """Whether every per-sentence statistic is a multiple of a power of two (sums exact in any order)."""
    w = float(separator_weight) * 1024
    return annotators >= 2 and (annotators - 1) & (annotators - 2) == 0 and w == int(w)


#: what gives the blocks of inputs with the annotators' names (:func:`ts_eval.agreement.inputs.annotation_blocks`)
Blocks = Callable[[Inputs, Optional[Sequence[str]]], Iterable[Tuple[List[str], Corpus]]]

#: agree reads blocks of about this many bytes of the first input: a block's per-sentence statistics
#: (tables of sentences x annotators or pairs x labels, while they are taken) are many times its bytes
BLOCK_BYTES = 1 << 20


def annotator_columns(read: Inputs) -> Optional[int]:
    """How many annotators ``read`` holds, when that is known before reading (None: a column file on standard
    input without its columns named, or one whose columns cannot be counted)."""
    if read.file is None:
        return 1 + len(read.systems)
    if read.system_columns is not None:
        return 1 + len(read.system_columns)
    if read.file == STDIN:
        return None
    try:
        return count_columns(read.file, read.delimiter) - 1
    except Exception:           # (the whole read reports it)
        return None


def reads_in_blocks(read: Inputs, separator_weight: float) -> bool:
    """Whether the agreement of ``read`` read in blocks is the whole's (:func:`exact_in_blocks`); a
    column file on standard input without its columns named, or one whose columns cannot be counted
    (the whole read reports why), is read whole."""
    annotators = annotator_columns(read)
    return annotators is not None and exact_in_blocks(annotators, separator_weight)


def block_sized(read: Inputs) -> Inputs:
    """``read`` in blocks of at most :data:`BLOCK_BYTES`."""
    return read if read.block_bytes is None else replace(read, block_bytes=min(read.block_bytes, BLOCK_BYTES))


@dataclass
class Digest:
    """One block of annotations, reduced (see the module docstring)."""

    names: List[str]
    labels: List[str]
    infos: List[SideInfo]                # the annotators' sides, without per-token arrays
    stats: Stats                         # label-free (:func:`~ts_eval.agreement.statistics.sentence_stats`)
    sent_offsets: np.ndarray
    doc_offsets: Optional[np.ndarray]
    opens_document: bool
    n_tokens: int
    n_sentences: int
    sent_lines: Optional[np.ndarray]     # per sentence the line of its first token
    tally: CorpusTally
    atoms: Tuple[int, int]
    length: int                          # the continuum's length
    spans: np.ndarray                    # per annotator its spans
    shape: np.ndarray                    # per annotator its nested and crossing spans
    kinds: Dict[str, int]
    total: int                           # disagreements
    items: List[Dict[str, Any]]          # the first ``keep`` disagreements (sentences counted in the block)
    counted: Counted                     # every disagreement as :class:`~.disagreements.Tally` counts it
    groups: Optional[np.ndarray] = None  # the stats' columns are these sums of sentences (:func:`document_groups`)

    @property
    def n_separators(self) -> int:
        return self.n_tokens - self.n_sentences if self.n_tokens else 0


def _light(info: SideInfo) -> SideInfo:
    """A side without its per-token arrays."""
    return replace(info, tags=None, token_lines=None, strings=None, unplaced=None)


def digest(names: Sequence[str], corpus: Corpus, separator_weight: float, continuum: str,
           keep: Optional[int]) -> Digest:
    """The digest of one block (``keep``: records of its first ``keep`` disagreements; None: of every one)."""
    ann = from_corpus(corpus, list(names))
    cont = Continuum(corpus, continuum, separator_weight)
    tally = CorpusTally.of(corpus)
    groups = document_groups(corpus) if tally.doc_starts >= 2 and ann.complete().all() else None
    st = sentence_stats(ann, separator_weight, cont, label_free=True, groups=groups)
    lines = corpus.gold_info.token_lines
    sent_lines = lines[corpus.sent_offsets[:-1]] if lines is not None else None
    dis = clusters(ann, keep)
    counted = dis["keys"] if "keys" in dis else counted_of(dis["items"])
    shape = np.array([[int((info.shape or {}).get("nested", 0)), int((info.shape or {}).get("crossing", 0))]
                      for info in ann.infos], np.int64).reshape(len(ann.infos), 2)
    return Digest(list(names), list(corpus.labels), [_light(i) for i in ann.infos], st, corpus.sent_offsets,
                  corpus.doc_offsets, bool(corpus.opens_document), corpus.n_tokens, corpus.n_sentences, sent_lines,
                  tally, (cont.token_atoms, cont.separator_atoms), int(cont.sentence_length.sum()),
                  np.array([len(s) for s in ann.spans], np.int64), shape, dict(dis["kinds"]), int(dis["total"]),
                  dis["items"], counted, groups)


def document_groups(corpus: Corpus) -> np.ndarray:
    """The first sentence of each document (or part of one) in a block, the first 0: the block's statistics
    are summed per document where they are taken once the corpus is known to have documents (two starts in one
    block) and every annotator annotated every sentence of the block, since only the documents' sums are used
    then."""
    starts = np.asarray(corpus.doc_offsets[:-1] if corpus.doc_offsets is not None else [], np.int64)
    doc = np.searchsorted(starts, corpus.sent_offsets[:-1], side="right")
    return np.flatnonzero(np.concatenate(([True], doc[1:] != doc[:-1]))) if len(doc) else np.zeros(0, np.int64)


class _Stream:
    """The running state of :func:`agreement_of_blocks`."""

    def __init__(self, names: List[str], w: float, continuum: str, keep: Optional[int], bootstrap: bool,
                 spool: Optional[str] = None) -> None:
        self.names, self.w, self.continuum, self.keep = names, w, continuum, keep
        self.registry = Registry(len(names))
        self.total = np.zeros(0)
        self.docs = UnitRows(self.registry, keep, bootstrap)
        self.sents: Optional[UnitRows] = UnitRows(self.registry, keep, bootstrap)
        self.state = {"tokens": 0, "starts": 0, "opens": -1}
        self.tally = CorpusTally()
        self.entries: List[np.ndarray] = []          # per document start: token, first sentence, its line
        self.sentences = 0
        self.length = 0
        self.spans = np.zeros(len(names), np.int64)
        self.shape = np.zeros((len(names), 2), np.int64)
        self.infos: List[Any] = []
        self.dis = Tally()
        self.kinds: Dict[str, int] = {}
        self.spool = spool if keep is None else None
        self.items: Any = Spool(self.spool) if self.spool else []    # (a list, or a Spool of the same records)
        self.n_items = 0
        self.line_of_next: List[int] = []            # entries whose line is the next block's first token's
        self.sent_meta: List[np.ndarray] = []        # while the corpus may have no documents: tokens, line
        self.last_unit = -1
        self.first_line: List[int] = []
        self.atoms = (1, 1)
        self.separators = 0

    def fold(self, d: Digest) -> None:
        """Add a block's digest (blocks in the order of the corpus)."""
        if not self.infos:
            self.infos = d.infos
        st = d.stats
        ids = self.registry.block(st, d.labels)
        self.total = np.concatenate([self.total, np.zeros(len(self.registry) - len(self.total))])
        self.total[ids] += st.sums()
        lines = d.sent_lines
        self._fill_lines(lines)
        S0, T0 = self.sentences, self.state["tokens"]
        doc, starts = corpus_units(d, self.state)
        self._entries(d, starts, S0, T0, lines)
        self.docs.add(st, ids, doc if d.groups is None else doc[d.groups])
        if len(doc):
            self.last_unit = int(doc[-1])
        self.tally = self.tally + d.tally
        if self.sents is not None:
            if (self.tally.documents or 0) >= 2 or d.groups is not None:     # documents: no sentences' rows
                self.sents, self.sent_meta = None, []
            else:
                self.sents.add(st, ids, np.arange(S0, S0 + d.n_sentences))
                self.sent_meta.append(np.stack([np.diff(d.sent_offsets), lines if lines is not None
                                                else np.full(d.n_sentences, -1)], 1))
        if not self.first_line and lines is not None and len(lines):
            self.first_line = [int(lines[0])]
        self.atoms = d.atoms
        self.separators += d.n_separators
        self.sentences += d.n_sentences
        self.length += d.length
        self.spans += d.spans
        self.shape += d.shape
        self._disagreements(d, S0)

    def _entries(self, d: Digest, starts: np.ndarray, S0: int, T0: int, lines: Optional[np.ndarray]) -> None:
        """Where the documents that open in the block start: token, first sentence, line."""
        if not len(starts):
            return
        first = d.sent_offsets[:-1]
        idx = np.searchsorted(first, starts - T0, side="left")
        inside = idx < d.n_sentences
        tok = np.where(inside, T0 + first[np.minimum(idx, max(d.n_sentences - 1, 0))] if len(first) else T0,
                       T0 + d.n_tokens)
        line = np.full(len(starts), -1, np.int64)
        if lines is not None:
            line[inside] = lines[idx[inside]]
        at = sum(len(e) for e in self.entries)
        self.line_of_next += [at + k for k in np.flatnonzero(~inside).tolist()]
        self.entries.append(np.stack([tok, S0 + idx, line], 1))

    def _fill_lines(self, lines: Optional[np.ndarray]) -> None:
        """The line of documents that start at this block's first token (``lines``: of its sentences)."""
        if self.line_of_next and lines is not None and len(lines):
            flat = np.concatenate(self.entries)
            flat[self.line_of_next, 2] = lines[0]
            self.entries = [flat]
        self.line_of_next = []

    def _disagreements(self, d: Digest, S0: int) -> None:
        room = None if self.keep is None else max(self.keep - len(self.items), 0)
        for k, v in d.kinds.items():
            self.kinds[k] = self.kinds.get(k, 0) + v
        items = d.items if room is None else d.items[:room]
        for rec in items:
            rec["sentence"] += S0
        self.dis.add_counted(d.counted)
        self.n_items += d.total
        self.items.extend(items)

    def result(self, bootstrap: int, confidence: float, seed: int) -> Agreement:
        """The Agreement of every block taken."""
        layout = self.registry.layout()
        st = layout.stats
        x = layout.place(np.arange(len(self.total)), self.total)
        f = figures(st, x)
        by_docs = (self.tally.documents or 0) >= 2
        units = self.last_unit + 1 if by_docs else self.sentences
        rows = self.docs if by_docs else self.sents
        assert rows is not None
        rows.close(units)
        iv = _bootstrap(st, rows.matrix(layout, units), int(bootstrap), seed, float(confidence),
                                       bootstrap_weights) if bootstrap else {}
        unit = "documents" if by_docs else "sentences"
        settings = {"separator_weight": self.w, "continuum": self.continuum, "token_atoms": self.atoms[0],
                    "separator_atoms": self.atoms[1], "bootstrap": int(bootstrap), "confidence": float(confidence),
                    "seed": seed, "resampling": unit, "units": units, "majority": None, "missing": None}
        labels = layout.labels
        corpus = {"tokens": self.tally.tokens, "sentences": self.sentences, "separators": self.separators,
                  "documents": self.tally.documents if self.tally.documents is not None else self.sentences,
                  "complete_sentences": self.sentences, "labels": list(labels),
                  "categories": list(st.category_names), "continuum_length": self.length}
        annotators = [{"name": n, "path": info.path, "column": info.column, "spans": int(self.spans[i]),
                       "nested": int(self.shape[i, 0]), "crossing": int(self.shape[i, 1]), "sentences": self.sentences}
                      for i, (n, info) in enumerate(zip(self.names, self.infos))]
        docs: Any = self._rows(rows.rows.final(labels), by_docs)
        groups: Any = self.dis.by_group(self.keep) if not self.spool else Spool(self.spool)
        if self.spool:         # (spooled as the disagreements are: every one is listed)
            groups.extend(self.dis.each_group())
            docs, spooled = Spool(self.spool), docs
            docs.extend(spooled)
            del spooled
        listed = {"documents": units, "groups": len(self.dis.groups), "items": self.n_items}
        dis = {"total": self.n_items, "kinds": dict(self.kinds), "by_label": self.dis.by_label(),
               "groups": groups, "items": self.items}
        return Agreement(settings, corpus, annotators, _figures(f, iv), _pairs(labels, self.names, st, f, iv),
                         _labels(labels, self.names, st.columns.get(x, "spans"), f, iv), docs, dis, listed=listed)

    def _rows(self, arr: Dict[str, np.ndarray], by_docs: bool) -> List[Dict[str, Any]]:
        """The documents' (sentences') rows, lowest alpha first."""
        S, N = self.sentences, self.tally.tokens
        if by_docs:
            ent = np.concatenate(self.entries) if self.entries else np.zeros((0, 3), np.int64)
            if self.state["opens"] == 0:
                ent = np.concatenate([[[0, 0, self.first_line[0] if self.first_line else -1]], ent])
            tok, first, line = ent[:, 0], ent[:, 1], ent[:, 2]
            end_tok = np.append(tok[1:], N)
            ends = np.append(first[1:], S)
        else:
            meta = np.concatenate(self.sent_meta) if self.sent_meta else np.zeros((0, 2), np.int64)
            first = np.arange(S)
            ends = first + 1
            line = meta[:, 1]
            tok = np.zeros(S, np.int64)
            end_tok = meta[:, 0]
        out = []
        for k, d in enumerate(arr["unit"].tolist() if len(arr) else []):
            s0 = int(first[d])
            ln = int(line[d])
            row: Dict[str, Any] = {"document": d + 1, "first_sentence": s0, "sentences": int(ends[d] - s0),
                                   "tokens": int(end_tok[d] - tok[d]),
                                   "line": ln if ln >= 0 and tok[d] < N else None,
                                   "spans": {n: int(arr["spans"][k, i]) for i, n in enumerate(self.names)}}
            row.update({n: float(arr[n][k]) + 0.0 for n in DOCUMENT_FIGURES})
            out.append(row)
        out.sort(key=lambda r: (r["alpha"], r["document"]))
        return out if self.keep is None else out[:self.keep]


def agreement_of_blocks(blocks: Iterable[Tuple[List[str], Corpus]], *, separator_weight: float = 1.0,
                        continuum: str = "tokens", bootstrap: int = 0, confidence: float = 0.95, seed: int = 0,
                        keep: Optional[int] = None) -> Agreement:
    """The agreement of annotations read in blocks (each with the annotators' names), as
    :func:`~ts_eval.agreement.study.agreement` gives it for them read whole; ``keep``: list only the
    ``keep`` lowest documents, most frequent disagreement groups and first disagreements (the lists'
    lengths are in ``Agreement.listed``)."""
    w = check_separator_weight(separator_weight)
    return agreement_of_digests(digests_of(blocks, w, continuum, keep), separator_weight=w, continuum=continuum,
                                bootstrap=bootstrap, confidence=confidence, seed=seed, keep=keep)


def digests_of(blocks: Iterable[Tuple[List[str], Corpus]], w: float, continuum: str,
             keep: Optional[int]) -> Iterator[Digest]:
    """The digests of blocks read in this process."""
    for names, corpus in blocks:
        if len(names) < 2:
            raise OptionError(f"agreement needs at least two annotators, got {len(names)}")
        yield digest(names, corpus, w, continuum, keep)


def agreement_of_inputs(read: Inputs, blocks: Blocks, names: Optional[Sequence[str]] = None, *, jobs: int = 1,
                        separator_weight: float = 1.0, continuum: str = "tokens", bootstrap: int = 0,
                        confidence: float = 0.95, seed: int = 0, keep: Optional[int] = None,
                        spool: Optional[str] = None) -> Agreement:
    """The agreement of the annotations ``read`` describes, read in blocks of :data:`BLOCK_BYTES`
    (:func:`agreement_of_blocks`; :func:`reads_in_blocks` says when that is the whole's; ``blocks``:
    :func:`ts_eval.agreement.inputs.annotation_blocks`, which gives them with the annotators' names); one plain
    column file in ``jobs`` processes, a shard of whole sentences each, when it can be cut (:mod:`.shards`), with
    the report of one process; ``spool`` (with ``keep`` None): the documents, disagreement groups and
    disagreements listed are each a :class:`~ts_eval.agreement.spool.Spool` of that form (``"records"`` or
    ``"json"``), kept in a temporary file."""
    from functools import partial

    from .shards import in_shards

    if not isinstance(jobs, int) or jobs < 1:
        raise OptionError("expected a whole number of processes >= 1", option="jobs", value=jobs)
    w = check_separator_weight(separator_weight)
    read = block_sized(read)
    digests: Optional[Iterable[Digest]] = None
    if jobs > 1:
        digests = in_shards(read, names, annotator_columns(read) or 0, jobs,
                            partial(shard_digests, blocks=blocks, w=w, continuum=continuum, keep=keep))
    if digests is None:
        digests = digests_of(blocks(read, names), w, continuum, keep)
    return agreement_of_digests(digests, separator_weight=w, continuum=continuum, bootstrap=bootstrap,
                                confidence=confidence, seed=seed, keep=keep, spool=spool)


def shard_digests(read: Inputs, names: Optional[Sequence[str]], *, blocks: Blocks, w: float, continuum: str,
                  keep: Optional[int]) -> List[Digest]:
    """The digests of every block of a shard (in another process: :mod:`.shards`)."""
    return list(digests_of(blocks(read, names), w, continuum, keep))


def agreement_of_digests(digests: Iterable[Digest], *, separator_weight: float = 1.0, continuum: str = "tokens",
                         bootstrap: int = 0, confidence: float = 0.95, seed: int = 0,
                         keep: Optional[int] = None, spool: Optional[str] = None) -> Agreement:
    """The agreement of blocks' digests (:mod:`.digest`), folded in order (``spool``: as in
    :func:`agreement_of_inputs`)."""
    run: Optional[_Stream] = None
    for d in digests:
        if run is None:
            if len(d.names) < 2:
                raise OptionError(f"agreement needs at least two annotators, got {len(d.names)}")
            run = _Stream(list(d.names), separator_weight, continuum, keep, bool(bootstrap), spool)
        run.fold(d)
    assert run is not None          # (the road reads a block at least)
    check_options(bootstrap=bootstrap, seed=seed, confidence=confidence)
    return run.result(bootstrap, confidence, seed)
