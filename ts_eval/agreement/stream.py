"""``agree`` over blocks: :func:`agreement_of_blocks` reads annotations one block of whole sentences at
a time (the blocks :meth:`ts_eval.io.inputs.Inputs.read` gives) and gives the
:class:`~ts_eval.agreement.results.Agreement` that :func:`~ts_eval.agreement.study.agreement` gives for
them read whole, value for value.

Every figure is a function of sums of per-sentence statistics (:mod:`.statistics`): a block's are
added to running totals under names that do not depend on the block (:mod:`.layout`), the documents'
rows are made as each document ends (:mod:`.units`), the disagreements are counted per label and
surface string as they come.  The sums are the whole's exactly when every statistic is a multiple of
a power of two (:func:`exact_in_blocks`: the separator weight is, and 1 / (annotators - 1) is, as with
two, three or five annotators), so adding them in any order gives the same floats; otherwise the
annotations are read whole.

Kept: the totals (a few thousand floats), the rows listed (``keep``: the ``keep`` lowest documents and
first disagreements; None: every one, as JSON and CSV list them), one count per disagreement group
(label(s) and surface string), 24 bytes per document (where it starts), and with a bootstrap the
documents' sums (:mod:`.units`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np

from ..core.corpus import Corpus
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
from .disagreements import Tally, clusters
from .figures import figures
from .layout import Registry, label_free
from .results import Agreement
from .statistics import sentence_stats
from .units import UnitRows, corpus_units


def exact_in_blocks(annotators: int, separator_weight: float) -> bool:
    """Whether every per-sentence statistic is a multiple of a power of two (sums exact in any order)."""
    w = float(separator_weight) * 1024
    return annotators >= 2 and (annotators - 1) & (annotators - 2) == 0 and w == int(w)


#: agree reads blocks of about this many bytes of the first input: a block's per-sentence statistics
#: (tables of sentences x annotators or pairs x labels, while they are taken) are many times its bytes
BLOCK_BYTES = 1 << 20


def reads_in_blocks(read: Inputs, separator_weight: float) -> bool:
    """Whether the agreement of ``read`` read in blocks is the whole's (:func:`exact_in_blocks`); a
    column file on standard input without its columns named, or one whose columns cannot be counted
    (the whole read reports why), is read whole."""
    if read.file is None:
        annotators = 1 + len(read.systems)
    elif read.system_columns is not None:
        annotators = 1 + len(read.system_columns)
    elif read.file == STDIN:
        return False
    else:
        try:
            annotators = count_columns(read.file, read.delimiter) - 1
        except Exception:           # (the whole read reports it)
            return False
    return exact_in_blocks(annotators, separator_weight)


def block_sized(read: Inputs) -> Inputs:
    """``read`` in blocks of at most :data:`BLOCK_BYTES`."""
    return read if read.block_bytes is None else replace(read, block_bytes=min(read.block_bytes, BLOCK_BYTES))


class _Stream:
    """The running state of :func:`agreement_of_blocks`."""

    def __init__(self, names: List[str], w: float, continuum: str, keep: Optional[int], bootstrap: bool) -> None:
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
        self.items: List[Dict[str, Any]] = []
        self.n_items = 0
        self.line_of_next: List[int] = []            # entries whose line is the next block's first token's
        self.sent_meta: List[np.ndarray] = []        # while the corpus may have no documents: tokens, line
        self.last_unit = -1
        self.first_line: List[int] = []
        self.atoms = (1, 1)
        self.separators = 0

    def add(self, corpus: Corpus) -> None:
        ann = from_corpus(corpus, self.names)
        if not self.infos:
            self.infos = ann.infos
        cont = Continuum(corpus, self.continuum, self.w)
        st = sentence_stats(ann, self.w, cont)
        st.matrix = label_free(st)
        ids = self.registry.block(st, corpus.labels)
        self.total = np.concatenate([self.total, np.zeros(len(self.registry) - len(self.total))])
        self.total[ids] += st.sums()
        lines = corpus.gold_info.token_lines
        self._fill_lines(lines)
        S0, T0 = self.sentences, self.state["tokens"]
        doc, starts = corpus_units(corpus, self.state)
        self._entries(corpus, starts, S0, T0, lines)
        self.docs.add(st, ids, doc)
        if len(doc):
            self.last_unit = int(doc[-1])
        self.tally = self.tally + CorpusTally.of(corpus)
        if self.sents is not None:
            if (self.tally.documents or 0) >= 2:         # documents: the sentences' rows are not needed
                self.sents, self.sent_meta = None, []
            else:
                self.sents.add(st, ids, np.arange(S0, S0 + corpus.n_sentences))
                first = corpus.sent_offsets[:-1]
                self.sent_meta.append(np.stack([np.diff(corpus.sent_offsets), lines[first] if lines is not None
                                                else np.full(len(first), -1)], 1))
        if not self.first_line and lines is not None and len(lines):
            self.first_line = [int(lines[0])]
        self.atoms = (cont.token_atoms, cont.separator_atoms)
        self.separators += corpus.n_separators
        self.sentences += corpus.n_sentences
        self.length += int(cont.sentence_length.sum())
        for i, s in enumerate(ann.spans):
            self.spans[i] += len(s)
        for i, info in enumerate(ann.infos):
            self.shape[i] += [int((info.shape or {}).get("nested", 0)), int((info.shape or {}).get("crossing", 0))]
        self._disagreements(ann, S0)

    def _entries(self, corpus: Corpus, starts: np.ndarray, S0: int, T0: int, lines: Optional[np.ndarray]) -> None:
        """Where the documents that open in the block start: token, first sentence, line."""
        if not len(starts):
            return
        first = corpus.sent_offsets[:-1]
        idx = np.searchsorted(first, starts - T0, side="left")
        inside = idx < corpus.n_sentences
        tok = np.where(inside, T0 + first[np.minimum(idx, max(corpus.n_sentences - 1, 0))] if len(first) else T0,
                       T0 + corpus.n_tokens)
        line = np.full(len(starts), -1, np.int64)
        if lines is not None:
            line[inside] = lines[tok[inside] - T0]
        at = sum(len(e) for e in self.entries)
        self.line_of_next += [at + k for k in np.flatnonzero(~inside).tolist()]
        self.entries.append(np.stack([tok, S0 + idx, line], 1))

    def _fill_lines(self, lines: Optional[np.ndarray]) -> None:
        """The line of documents that start at this block's first token."""
        if self.line_of_next and lines is not None and len(lines):
            flat = np.concatenate(self.entries)
            flat[self.line_of_next, 2] = lines[0]
            self.entries = [flat]
        self.line_of_next = []

    def _disagreements(self, ann: Any, S0: int) -> None:
        room = None if self.keep is None else max(self.keep - len(self.items), 0)
        dis = clusters(ann, room)
        for k, v in dis["kinds"].items():
            self.kinds[k] = self.kinds.get(k, 0) + v
        items = dis["items"]
        for rec in items:
            rec["sentence"] += S0
        if "keys" in dis:
            self.dis.add_keys(dis["keys"])
        else:
            self.dis.add(items)
        self.n_items += dis["total"]
        self.items += items

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
        docs = self._rows(rows.rows.final(labels), by_docs)
        groups = self.dis.by_group()
        listed = {"documents": units, "groups": len(groups), "items": self.n_items}
        dis = {"total": self.n_items, "kinds": dict(self.kinds), "by_label": self.dis.by_label(),
               "groups": groups if self.keep is None else groups[:self.keep], "items": self.items}
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
    run: Optional[_Stream] = None
    for names, corpus in blocks:
        if run is None:
            if len(names) < 2:
                raise OptionError(f"agreement needs at least two annotators, got {len(names)}")
            run = _Stream(list(names), w, continuum, keep, bool(bootstrap))
        run.add(corpus)
    assert run is not None          # (the road reads a block at least)
    check_options(bootstrap=bootstrap, seed=seed, confidence=confidence)
    return run.result(bootstrap, confidence, seed)
