"""The resampling units (documents, or sentences without them) of a corpus read in blocks.

:class:`UnitRows` takes each block's per-sentence statistics (:class:`~ts_eval.agreement.statistics.Stats`
with its key numbers, :mod:`.layout`), adds them up per unit (a unit that goes on into the next
block is carried as sums over key numbers) and turns every finished unit into its row of the
documents list: the four figures of :data:`~ts_eval.agreement.study.DOCUMENT_FIGURES` and the spans
per annotator, computed for up to :data:`PENDING` finished units at a time.  It keeps every row
(``keep=None``: the formats that list every document) or the ``keep`` lowest (alpha, number) rows; with
``sums`` the units' sums too (for the bootstrap).  Which kind of unit the corpus has is known at its end
(documents when it has two or more): while the blocks so far hold fewer than two documents, sentences'
rows are kept as well.

Bytes kept: per unit listed 8 * (6 + annotators) + 17 * labels (its figures, spans and per-label
unitizing disagreements, which its alpha_u is recomputed from when a later block brings new labels);
per document 24 (where it starts); with ``sums`` 16 per nonzero sum of a unit (a few hundred a
document).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from scipy import sparse

from ..core import measures
from .figures import figures
from .layout import Layout, Registry, Stats

CHUNK = 2000        # units per vectorised step
PRUNE = 4096        # kept rows past which the lowest ``keep`` are chosen
PENDING = 1000      # finished units whose rows are made in one step


class Rows:
    """Rows of finished units: number, figures, spans per annotator, per-label unitizing parts."""

    def __init__(self, keep: Optional[int]) -> None:
        self.keep = keep
        self.parts: List[Dict[str, np.ndarray]] = []
        self.labels: List[Tuple[str, ...]] = []       # per part: the labels of its unitizing parts
        self.count = 0
        self.size = 0

    def add(self, part: Dict[str, np.ndarray], labels: Tuple[str, ...]) -> None:
        n = len(part["unit"])
        self.count += n
        if not n:
            return
        self.parts.append(part)
        self.labels.append(labels)
        self.size += n
        if self.keep is not None and self.size > max(PRUNE, 2 * self.keep):
            self._prune()

    def _prune(self) -> None:
        assert self.keep is not None
        if any(np.isnan(p["alpha"]).any() for p in self.parts):
            return        # (an undefined alpha has no place in the order: keep everything)
        order = np.lexsort((np.concatenate([p["unit"] for p in self.parts]),
                            np.concatenate([p["alpha"] for p in self.parts])))[:self.keep]
        owner = np.repeat(np.arange(len(self.parts)), [len(p["unit"]) for p in self.parts])[order]
        kept, labels = [], []
        for k, (p, lab) in enumerate(zip(self.parts, self.labels)):
            rows = order[owner == k] - sum(len(q["unit"]) for q in self.parts[:k])
            if len(rows):
                kept.append({n: v[np.sort(rows)] for n, v in p.items()})
                labels.append(lab)
        self.parts, self.labels = kept, labels
        self.size = sum(len(p["unit"]) for p in kept)

    def final(self, labels: List[str]) -> Dict[str, np.ndarray]:
        """Every kept row, alpha_u over ``labels`` (the corpus's)."""
        if self.keep is not None:
            self._prune()
        out: Dict[str, List[np.ndarray]] = {}
        for p, lab in zip(self.parts, self.labels):
            p = dict(p)
            if list(lab) != labels:       # labels met later: the pooled alpha_u over every label, in order
                where = np.array([labels.index(x) for x in lab], np.int64)
                do, de, used = (np.zeros((len(p["unit"]), len(labels))) for _ in range(3))
                do[:, where], de[:, where], used[:, where] = p["do"], p["de"], p["used"]
                p["alpha_u"] = np.asarray(measures.alpha_from_disagreements((do * used).sum(-1),
                                                                            (de * used).sum(-1)))
            for n, v in p.items():
                if n not in ("do", "de", "used"):
                    out.setdefault(n, []).append(v)
        return {n: np.concatenate(v) for n, v in out.items()}


def unit_figures(layout: Layout, x: np.ndarray, units: np.ndarray) -> Dict[str, np.ndarray]:
    """The rows of units ``units`` with (k, layout.size) sums ``x``."""
    parts: List[Dict[str, np.ndarray]] = []
    for a in range(0, max(len(units), 1), CHUNK):
        xs = x[a:a + CHUNK]
        f = figures(layout.stats, xs, rows=True)
        parts.append({"unit": units[a:a + CHUNK], "f_exact": f["mean_f_exact_micro"], "kappa": f["mean_kappa_micro"],
                      "alpha": f["alpha_micro"], "alpha_u": f["alpha_u_micro"],
                      "spans": layout.stats.columns.get(xs, "spans").sum(-1),
                      "do": f["observed_u"], "de": f["expected_u"], "used": f["alpha_u_present"].astype(float)})
    return {n: np.concatenate([p[n] for p in parts]) for n in parts[0]}


class UnitRows:
    """Per unit (document or sentence) sums, finished into rows (see the module docstring)."""

    def __init__(self, registry: Registry, keep: Optional[int], sums: bool) -> None:
        self.registry = registry
        self.rows = Rows(keep)
        self.carry: Optional[Tuple[int, np.ndarray]] = None      # (unit, sums over key numbers)
        self.done = 0                                             # units finished
        self.sums: Optional[List[Tuple[np.ndarray, np.ndarray, np.ndarray]]] = [] if sums else None
        self.pending: List[Tuple[np.ndarray, np.ndarray]] = []    # finished units whose rows are not made yet
        self.pending_layout: Optional[Layout] = None
        self.pending_units = 0

    def add(self, st: Stats, ids: np.ndarray, unit: np.ndarray) -> None:
        """A block's statistics; ``unit``: per sentence its unit number (non-decreasing)."""
        if not len(unit):
            return
        first = int(unit[0])
        U = int(unit[-1]) - first + 1
        if len(unit) == U:           # a unit per column (a block's documents summed where taken)
            local = st.matrix.toarray()
        else:
            group = sparse.csr_matrix((np.ones(len(unit)), (np.arange(len(unit)), unit - first)),
                                      shape=(len(unit), U))
            local = (st.matrix @ group).toarray()        # (block columns, units)
        if self.carry is not None and self.carry[0] == first:
            c = self.carry[1]
            c = np.concatenate([c, np.zeros(len(self.registry) - len(c))])
            c[ids] += local[:, 0]
            if U == 1:
                self.carry = (first, c)
                return
            self._finish_carried(c, first)
            start = 1
        else:
            if self.carry is not None:
                self._finish_carried(self.carry[1], self.carry[0])
            self._empty_until(first)
            start = 0
        if start < U - 1:
            self._finish(ids, local[:, start:U - 1], first + start)
        last = np.zeros(len(self.registry))
        last[ids] = local[:, U - 1]
        self.carry = (first + U - 1, last)

    def close(self, units: int) -> None:
        """The end of the corpus: ``units`` units in all."""
        if self.carry is not None:
            self._finish_carried(self.carry[1], self.carry[0])
            self.carry = None
        self._empty_until(units)
        self._flush()

    def _empty_until(self, unit: int) -> None:
        """Units without sentences (a document between two -DOCSTART- lines) before ``unit``."""
        if unit > self.done:
            k = unit - self.done
            layout = self.registry.layout()
            self._emit(layout, np.zeros((k, layout.size)), np.arange(self.done, unit), None)

    def _finish_carried(self, c: np.ndarray, unit: int) -> None:
        self._empty_until(unit)
        layout = self.registry.layout()
        c = np.concatenate([c, np.zeros(len(self.registry) - len(c))])
        ids = np.flatnonzero(c)
        self._emit(layout, layout.place(ids, c[ids])[None, :], np.array([unit]), (ids, c[ids]))

    def _finish(self, ids: np.ndarray, local: np.ndarray, first: int) -> None:
        layout = self.registry.layout()
        n = local.shape[1]
        for a in range(0, n, CHUNK):
            part = local[:, a:a + CHUNK].T                # (units, block columns)
            units = np.arange(first + a, first + a + part.shape[0])
            self._emit(layout, layout.place(ids, part), units, None)
            if self.sums is not None:
                u, row = np.nonzero(part)                 # unit by unit, as the columns of a CSC matrix come
                self.sums.append((units[u].astype(np.int32), ids[row].astype(np.int32), part[u, row]))

    def _emit(self, layout: Layout, x: np.ndarray, units: np.ndarray,
              sums: Optional[Tuple[np.ndarray, np.ndarray]]) -> None:
        if self.pending and layout is not self.pending_layout:
            self._flush()
        self.pending.append((x, units))
        self.pending_layout = layout
        self.pending_units += len(units)
        if self.pending_units >= PENDING:
            self._flush()
        self.done = int(units[-1]) + 1
        if self.sums is not None and sums is not None:
            ids, v = sums
            self.sums.append((np.full(len(ids), units[0], np.int32), ids.astype(np.int32), v))

    def _flush(self) -> None:
        """Make the rows of the units finished so far (in one step: a block finishes a few hundred)."""
        if not self.pending:
            return
        layout = self.pending_layout
        assert layout is not None
        x = np.concatenate([p[0] for p in self.pending]) if len(self.pending) > 1 else self.pending[0][0]
        units = np.concatenate([p[1] for p in self.pending])
        self.pending, self.pending_units = [], 0
        self.rows.add(unit_figures(layout, x, units), tuple(layout.labels))

    def matrix(self, layout: Layout, units: int) -> sparse.csr_matrix:
        """The (columns, units) sums of every unit (with ``sums``)."""
        assert self.sums is not None
        u = np.concatenate([s[0] for s in self.sums]) if self.sums else np.zeros(0, np.int32)
        i = np.concatenate([s[1] for s in self.sums]) if self.sums else np.zeros(0, np.int32)
        v = np.concatenate([s[2] for s in self.sums]) if self.sums else np.zeros(0)
        at = layout.index[i]
        has = at >= 0
        return layout.with_labels(sparse.csr_matrix((v[has], (at[has], u[has])), shape=(layout.size, units)))


def corpus_units(corpus: Any, state: Dict[str, int]) -> Tuple[np.ndarray, np.ndarray]:
    """Per sentence of a block its document number (numbered as the corpus read whole numbers them), and
    the token offsets (in the whole) of the documents that open in the block (``corpus``: a block's
    :class:`~ts_eval.core.corpus.Corpus` or its :class:`~ts_eval.agreement.stream.Digest`).  ``state``: ``tokens``,
    ``starts`` (documents opened before the block, after the first token) and ``opens`` (-1 before the
    first block, else whether the corpus's first token opens a document)."""
    t0 = state["tokens"]
    starts = np.zeros(0, np.int64)
    if corpus.doc_offsets is not None:
        starts = np.asarray(corpus.doc_offsets[1:-1], np.int64)
        if corpus.opens_document:
            starts = np.concatenate(([0], starts))
    if state["opens"] < 0 and corpus.n_tokens:
        state["opens"] = int(bool(corpus.opens_document))
    first = corpus.sent_offsets[:-1]
    after_first = starts + t0 > 0        # a start at the first token of the corpus numbers no document
    doc = state["starts"] + np.searchsorted(starts[after_first], first, side="right")
    state["starts"] += int(after_first.sum())
    state["tokens"] = t0 + corpus.n_tokens
    return doc.astype(np.int64), starts + t0
