"""Per-document scores: each system's exact-match and TS counts and scores in every document.

A document is what the input calls one: the sentences between two ``-DOCSTART-`` lines of a
column file; an input without them (or a JSON Lines or span file, whose records are read as
sentences) has one document per sentence.  Documents without a sentence are left out.

The counts are the column sums, over a document's sentences, of the per-sentence statistics the
models themselves use (:func:`ts_eval.models.segment.segment_stats` for exact match,
:func:`ts_eval.models.ts.ts_stats` for TS), and the F scores are the models' own score
functions of those sums, so the documents of a system add up to its overall counts exactly.
They are summed a block of sentences at a time (:class:`ts_eval.analysis.errors_blocks.ErrorCounts`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import numpy as np

from ..core import measures
from ..core.corpus import Corpus


def sentence_documents(corpus: Corpus) -> np.ndarray:
    """Per sentence its document (0-based, documents without a sentence left out of the count)."""
    if corpus.doc_offsets is None or len(corpus.doc_offsets) < 2:
        return np.arange(corpus.n_sentences, dtype=np.int64)
    doc = np.searchsorted(np.asarray(corpus.doc_offsets), corpus.sent_offsets[:-1], side="right") - 1
    return np.unique(doc, return_inverse=True)[1].reshape(-1).astype(np.int64)


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

    def columns(self, k: int) -> Dict[str, Dict[str, List[Any]]]:
        """System ``k``'s counts and scores in every document, as lists (one entry a document): under ``exact``
        tp, fp, fn, gold and system spans (whole numbers), precision, recall and F; under ``ts`` tp, fp, fn,
        precision, recall and F (floats).  Made for all the documents at once with the models' score functions
        on arrays (the same division, a number at a time, as on one document's counts)."""
        gold, system, g_hit, s_hit = (self.exact[k, :, j].astype(float) for j in range(4))
        tp, fp, fn = (self.ts[k, :, j].astype(float) for j in range(3))
        p, r, _ = measures.prf(tp, fp, fn)
        return {"exact": {"tp": g_hit.astype(np.int64).tolist(), "fp": (system - s_hit).astype(np.int64).tolist(),
                          "fn": (gold - g_hit).astype(np.int64).tolist(), "gold": gold.astype(np.int64).tolist(),
                          "system": system.astype(np.int64).tolist(),
                          "precision": _floats(measures.precision(s_hit, system - s_hit)),
                          "recall": _floats(measures.recall(g_hit, gold - g_hit)),
                          "f": self.exact_f[k].astype(float).tolist()},
                "ts": {"tp": tp.tolist(), "fp": fp.tolist(), "fn": fn.tolist(), "precision": _floats(p),
                       "recall": _floats(r), "f": self.ts_f[k].astype(float).tolist()}}

    def to_dict(self) -> List[Dict[str, Any]]:
        per = []                  # per system, per matching: one dict a document
        for k in range(len(self.names)):
            cols = self.columns(k)
            per.append({m: [dict(zip(c, v)) for v in zip(*c.values())] for m, c in cols.items()})
        lines, first = self.lines, self.first_sentence.tolist()
        sentences, tokens, gold = self.sentences.tolist(), self.tokens.tolist(), self.gold.tolist()
        return [{"document": d + 1, "line": lines[d], "sentence": int(first[d]), "sentences": int(sentences[d]),
                 "tokens": int(tokens[d]), "gold": int(gold[d]),
                 "systems": {n: {"exact": per[k]["exact"][d], "ts": per[k]["ts"][d]} for k, n in enumerate(self.names)}}
                for d in range(len(sentences))]


def _floats(x: Any) -> List[float]:
    """Scores of the documents as Python floats (an array of them; a measure gives a float for one document)."""
    out: List[float] = np.atleast_1d(np.asarray(x, float)).tolist()
    return out
