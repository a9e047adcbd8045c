"""Per-document scores: each system's exact-match and TS counts and scores in every document.

A document is what the input calls one: the sentences between two ``-DOCSTART-`` lines of a
column file; an input without them (or a JSON Lines or span file, whose records are read as
sentences) has one document per sentence.  Documents without a sentence are left out.

The counts are the column sums, over a document's sentences, of the per-sentence statistics the
models themselves use (:func:`ts_eval.models.segment.segment_stats` for exact match,
:func:`ts_eval.models.ts.ts_stats` for TS), and the F scores are the models' own score
functions of those sums, so the documents of a system add up to its overall counts exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core import measures
from ..core.corpus import Corpus
from ..models.context import CorpusData
from ..models.segment import EXACT_STATS, segment_f1
from ..models.ts import TS_STATS, ts_f1, ts_table


def sentence_documents(corpus: Corpus) -> np.ndarray:
    """Per sentence its document (0-based, documents without a sentence left out of the count)."""
    if corpus.doc_offsets is None or len(corpus.doc_offsets) < 2:
        return np.arange(corpus.n_sentences, dtype=np.int64)
    doc = np.searchsorted(np.asarray(corpus.doc_offsets), corpus.sent_offsets[:-1], side="right") - 1
    return np.unique(doc, return_inverse=True)[1].reshape(-1).astype(np.int64)


def by_document(per_sentence: np.ndarray, first: np.ndarray) -> np.ndarray:
    """(documents, k) sums of (sentences, k) statistics; a document's sentences are contiguous and
    ``first`` holds each document's first sentence."""
    if not len(first):
        return np.zeros((0, per_sentence.shape[1]))
    return np.add.reduceat(per_sentence, first, axis=0)


@dataclass
class DocumentScores:
    """Exact-match and TS counts of every system in every document.

    ``exact``: (systems, documents, 4) gold spans, system spans, gold spans hit, system spans hit;
    ``exact_f``: (systems, documents); ``ts``: (systems, documents, 3) TS units tp, fp, fn (separator
    weight 1, summed over the labels); ``ts_f``: (systems, documents)."""

    names: List[str]
    unit: str                    # "document" (-DOCSTART-) or "sentence"
    first_sentence: np.ndarray   # per document its first sentence (0-based)
    sentences: np.ndarray
    tokens: np.ndarray
    lines: List[Optional[int]]   # per document the gold file's line of its first token (None: no lines)
    gold: np.ndarray             # gold spans per document
    exact: np.ndarray
    exact_f: np.ndarray
    ts: np.ndarray
    ts_f: np.ndarray

    def exact_scores(self, k: int, d: int) -> Dict[str, Any]:
        gold, system, g_hit, s_hit = (float(x) for x in self.exact[k, d])
        return {"tp": int(g_hit), "fp": int(system - s_hit), "fn": int(gold - g_hit), "gold": int(gold),
                "system": int(system), "precision": float(measures.precision(s_hit, system - s_hit)),
                "recall": float(measures.recall(g_hit, gold - g_hit)), "f": float(self.exact_f[k, d])}

    def ts_scores(self, k: int, d: int) -> Dict[str, Any]:
        tp, fp, fn = (float(x) for x in self.ts[k, d])
        p, r, _ = measures.prf(tp, fp, fn)
        return {"tp": tp, "fp": fp, "fn": fn, "precision": float(p), "recall": float(r), "f": float(self.ts_f[k, d])}

    def to_dict(self) -> List[Dict[str, Any]]:
        out = []
        for d in range(len(self.sentences)):
            out.append({"document": d + 1, "line": self.lines[d], "sentence": int(self.first_sentence[d]),
                        "sentences": int(self.sentences[d]), "tokens": int(self.tokens[d]),
                        "gold": int(self.gold[d]),
                        "systems": {n: {"exact": self.exact_scores(k, d), "ts": self.ts_scores(k, d)}
                                    for k, n in enumerate(self.names)}})
        return out


def document_scores(corpus: Corpus, cd: CorpusData, names: Sequence[str]) -> DocumentScores:
    """Every system's exact-match and TS counts and F per document of ``corpus``."""
    doc = sentence_documents(corpus)
    D = int(doc.max()) + 1 if len(doc) else 0
    first = np.flatnonzero(np.diff(np.concatenate(([-1], doc))) != 0)    # documents are contiguous
    lengths = np.diff(corpus.sent_offsets).astype(float)
    sent = np.bincount(doc, minlength=D)
    tokens = np.bincount(doc, weights=lengths, minlength=D).astype(np.int64)
    gold_sent = np.bincount(corpus.sentence_of(corpus.gold.start), minlength=corpus.n_sentences)
    gold = np.bincount(doc, weights=gold_sent, minlength=D).astype(np.int64)
    info = corpus.gold_info
    first_tok = corpus.sent_offsets[first] if D else np.zeros(0, np.int64)
    lines: List[Optional[int]] = (
        [int(info.token_lines[t]) if t < len(info.token_lines) else None for t in first_tok.tolist()]
        if info.token_lines is not None else [None] * D)
    L = len(corpus.labels)
    exact, exact_f, ts, ts_f = [], [], [], []
    for name in names:
        sd = cd.system(name)
        e = by_document(sd.stats(EXACT_STATS), first)
        t = by_document(sd.stats(TS_STATS), first)
        exact.append(e.reshape(D, L, 4).sum(axis=1))
        exact_f.append(segment_f1(e, average="micro"))
        tp, fp, fn, _ = ts_table(t, 1.0)
        ts.append(np.stack([tp.sum(-1), fp.sum(-1), fn.sum(-1)], axis=1))
        ts_f.append(ts_f1(t, 1.0, average="micro"))
    unit = "document" if corpus.doc_offsets is not None and len(corpus.doc_offsets) >= 2 else "sentence"

    def stack(parts: List[np.ndarray], shape: Tuple[int, ...]) -> np.ndarray:
        return np.stack(parts) if parts else np.zeros(shape)

    return DocumentScores(list(names), unit, first, sent, tokens, lines, gold,
                          stack(exact, (0, D, 4)), stack(exact_f, (0, D)), stack(ts, (0, D, 3)), stack(ts_f, (0, D)))
