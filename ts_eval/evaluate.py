"""Corpus -> Report: runs the event model (TS) and the matcher-based models per system."""
from __future__ import annotations

import platform
from typing import Any, Dict, Optional, Sequence

import numpy as np

from . import __version__, measures
from .corpus import Corpus, SpanSet, from_sequences
from .events import TSCounts, ts_counts
from .matching import match
from .report import Report
from .segment import exact_counts, token_accuracy

ALL_LABELS = "<all labels>"


def ts_model(counts: TSCounts, labels: Sequence[str], separator_weight: float, beta: float,
             extra_row: Optional[TSCounts] = None) -> Dict[str, Any]:
    table = counts.table(separator_weight)
    tp, fp, fn, tn = table.T
    sc = measures.scores(tp, fp, fn, tn, beta)
    present = (tp + fp + fn) > 0
    rows = {}
    for k, lab in enumerate(labels):
        rows[lab] = {
            "tp": float(tp[k]), "fp": float(fp[k]), "fn": float(fn[k]), "tn": float(tn[k]),
            "token": dict(zip(("tp", "fp", "fn"), counts.tok[k].astype(int).tolist())),
            "separator": dict(zip(("tp", "fp", "fn"), counts.sep[k].astype(int).tolist())),
            **{name: float(v[k]) for name, v in sc.items()},
            "present": bool(present[k]),
        }
    tot = table.sum(axis=0)
    micro = {"tp": float(tot[0]), "fp": float(tot[1]), "fn": float(tot[2]), "tn": float(tot[3])}
    micro.update({k: float(v) for k, v in measures.scores(*tot, beta=beta).items()})
    out: Dict[str, Any] = {
        "labels": rows,
        "micro": micro,
        "macro": {**measures.macro(sc, present), "labels_averaged": int(present.sum())},
    }
    conf = counts.weighted_confusion(separator_weight)
    out["multiclass_kappa"] = measures.multiclass_kappa(conf) if conf is not None else None
    if extra_row is not None:
        et = extra_row.table(separator_weight)[0]
        out["all_labels"] = {"tp": float(et[0]), "fp": float(et[1]), "fn": float(et[2]), "tn": float(et[3]),
                             **{k: float(v) for k, v in measures.scores(*et, beta=beta).items()}}
    return out


def exact_model(gold: SpanSet, system: SpanSet, labels: Sequence[str], beta: float, pairs) -> Dict[str, Any]:
    c = exact_counts(gold, system, pairs, len(labels))
    tp, fp, fn = c.correct, c.found - c.correct, c.gold - c.correct
    sc = measures.scores(tp, fp, fn, beta=beta)
    present = (c.gold + c.found) > 0
    rows = {lab: {"gold": int(c.gold[k]), "found": int(c.found[k]), "correct": int(c.correct[k]),
                  **{name: float(v[k]) for name, v in sc.items()}, "present": bool(present[k])}
            for k, lab in enumerate(labels)}
    G, F, C = int(c.gold.sum()), int(c.found.sum()), int(c.correct.sum())
    micro = {"gold": G, "found": F, "correct": C,
             **{k: float(v) for k, v in measures.scores(C, F - C, G - C, beta=beta).items()}}
    return {"labels": rows, "micro": micro,
            "macro": {**measures.macro(sc, present), "labels_averaged": int(present.sum())}}


def evaluate(
    corpus: Corpus,
    separator_weight: float = 1.0,
    beta: float = 1.0,
    all_labels_row: bool = False,
) -> Report:
    """Score every system of ``corpus`` against its gold with the TS and exact-match models."""
    if separator_weight < 0:
        raise ValueError(f"separator weight must be >= 0, got {separator_weight}")
    if beta <= 0:
        raise ValueError(f"beta must be > 0, got {beta}")
    labels = corpus.labels
    systems = []
    gold_all = SpanSet(corpus.gold.start, corpus.gold.end, np.zeros(len(corpus.gold), np.int32))
    for name, spans in corpus.systems.items():
        info = corpus.system_info[name]
        counts = ts_counts(corpus, corpus.gold, spans)
        extra = None
        if all_labels_row:
            extra = ts_counts(corpus, gold_all, SpanSet(spans.start, spans.end, np.zeros(len(spans), np.int32)),
                              n_labels=1)
        pairs = match(corpus.gold, spans)
        exact = exact_model(corpus.gold, spans, labels, beta, pairs)
        acc = token_accuracy(corpus.gold_info.tags, info.tags, corpus.docstart_lines)
        if acc is not None:
            exact["token_accuracy"] = acc[0] / acc[1] if acc[1] else 0.0
            exact["tags_correct"], exact["tags_counted"] = acc
        systems.append({
            "name": name,
            "source": info.summary(),
            "ts": ts_model(counts, labels, separator_weight, beta, extra),
            "exact": exact,
        })
    settings = {
        "scheme": corpus.scheme,
        "scheme_requested": corpus.scheme_requested,
        "policy": corpus.policy,
        "separator_weight": separator_weight,
        "beta": beta,
        "label_map": [f"{p}={r}" for p, r in corpus.label_map],
        "all_labels_row": all_labels_row,
        "macro_average": "mean over labels with gold or system units (segments); others are left out",
        "zero_division": 0.0,
        "versions": {"ts_eval": __version__, "numpy": np.__version__, "python": platform.python_version()},
    }
    corpus_info = {
        "tokens": corpus.n_tokens,
        "sentences": corpus.n_sentences,
        "separators": corpus.n_separators,
        "documents": (len(corpus.doc_offsets) - 1) if corpus.doc_offsets is not None else None,
        "docstart_lines": corpus.docstart_lines,
        "boundary_lines": corpus.boundary_lines,
        "labels": list(labels),
    }
    return Report(settings, corpus_info, corpus.gold_info.summary(), systems)


def score(
    y_true,
    y_pred,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    separator_weight: float = 1.0,
    beta: float = 1.0,
    all_labels_row: bool = False,
) -> Report:
    """seqeval-style entry point: lists of tag sequences in, Report out."""
    return evaluate(from_sequences(y_true, y_pred, scheme, policy), separator_weight, beta, all_labels_row)
