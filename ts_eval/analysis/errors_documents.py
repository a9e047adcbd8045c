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
