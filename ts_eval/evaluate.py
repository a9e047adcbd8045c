"""Corpus -> Report: runs the event model (TS) and the matcher-based models per system."""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

import numpy as np

from . import measures
from .corpus import Corpus, SpanSet, from_sequences, from_spans
from .errors import InputError
from .events import TSCounts, ts_counts
from .fair import fair_errors, fair_report, resolve_weights
from .matching import match
from .report import Report, versions
from .segment import SEGMENT_MODELS, model_limits, segment_counts, token_accuracy

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
    tot = counts.micro(separator_weight)
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


def segment_model(gold: SpanSet, system: SpanSet, labels: Sequence[str], beta: float, pairs,
                  model: str = "exact", k1: Optional[int] = None, k2: Optional[int] = None) -> Dict[str, Any]:
    """Per-label and averaged scores of a segment model (exact, overlap, constrained, contain)."""
    lim = model_limits(model, k1, k2)
    c = segment_counts(gold, system, pairs, len(labels), *lim)
    p = measures.precision(c.found_hit, c.found - c.found_hit)
    r = measures.recall(c.gold_hit, c.gold - c.gold_hit)
    f = measures.f_from_pr(p, r, beta)
    present = (c.gold + c.found) > 0
    exact = model == "exact"

    def counts(k=None):
        pick = (lambda a: int(a.sum())) if k is None else (lambda a: int(a[k]))
        out = {"gold": pick(c.gold), "found": pick(c.found)}
        if exact:
            out["correct"] = pick(c.gold_hit)
        else:
            out["gold_hit"], out["found_hit"] = pick(c.gold_hit), pick(c.found_hit)
        return out

    rows = {lab: {**counts(k), "precision": float(p[k]), "recall": float(r[k]), "f": float(f[k]),
                  "present": bool(present[k])} for k, lab in enumerate(labels)}
    G, F, GH, FH = (int(a.sum()) for a in (c.gold, c.found, c.gold_hit, c.found_hit))
    P, R = measures.precision(FH, F - FH), measures.recall(GH, G - GH)
    micro = {**counts(), "precision": float(P), "recall": float(R), "f": float(measures.f_from_pr(P, R, beta))}
    macro = {**measures.macro({"precision": p, "recall": r, "f": f}, present), "labels_averaged": int(present.sum())}
    out = {"labels": rows, "micro": micro, "macro": macro}
    if not exact:
        out["limits"] = {"max_spurious": lim[0], "max_missing": lim[1]}
    return out


MODELS = ("ts",) + SEGMENT_MODELS + ("fair",)
DEFAULT_MODELS = ("ts", "exact", "fair")


def evaluate(
    corpus: Corpus,
    separator_weight: float = 1.0,
    beta: float = 1.0,
    all_labels_row: bool = False,
    models: Sequence[str] = DEFAULT_MODELS,
    k1: Optional[int] = None,
    k2: Optional[int] = None,
    focus: str = "target",
    weights: Optional[str] = "eq7",
    fair_mode: str = "paper",
) -> Report:
    """Score every system of ``corpus`` against its gold with the chosen models.

    ``models``: ``ts`` (token & separator) and the segment models ``exact``,
    ``overlap``, ``constrained`` (k1 spurious, k2 missing tokens at most; default 1
    and 1) and ``contain`` (k2 = 0; k1 unbounded unless given).  The matcher runs
    once per system and every segment model reads its pairs, as do Ortmann's fair
    error types (``fair``: traditional, fair and weighted P/R/F1, the confusion
    matrix; ``focus`` target or system, ``weights`` in the reference syntax or a
    preset eq5/eq6/eq7 (default eq7, the paper's equation 7: eq5 would repeat the
    fair scores), ``fair_mode`` paper or faireval-skip).
    """
    measures.check_separator_weight(separator_weight)
    measures.check_beta(beta)
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        raise ValueError(f"unknown model(s) {', '.join(unknown)}; expected some of {', '.join(MODELS)}")
    for k in (k1, k2):
        if k is not None and k < 0:
            raise ValueError(f"k1 and k2 must be >= 0, got {k}")
    labels = corpus.labels
    systems = []
    gold_all = SpanSet(corpus.gold.start, corpus.gold.end, np.zeros(len(corpus.gold), np.int32))
    for name, spans in corpus.systems.items():
        info = corpus.system_info[name]
        result: Dict[str, Any] = {"name": name, "source": info.summary()}
        if "ts" in models:
            counts = ts_counts(corpus, corpus.gold, spans)
            extra = None
            if all_labels_row:
                extra = ts_counts(corpus, gold_all, SpanSet(spans.start, spans.end, np.zeros(len(spans), np.int32)),
                                  n_labels=1)
            result["ts"] = ts_model(counts, labels, separator_weight, beta, extra)
        seg = [m for m in models if m in SEGMENT_MODELS]
        if seg or "fair" in models:
            pairs = match(corpus.gold, spans)
            for m in seg:
                result[m] = segment_model(corpus.gold, spans, labels, beta, pairs, m, k1, k2)
            if "fair" in models:
                fr = fair_errors(corpus.gold, spans, pairs, labels, corpus, focus, mode=fair_mode)
                result["fair"] = fair_report(fr, weights)
        if "exact" in result:
            acc = token_accuracy(corpus.gold_info.tags, info.tags, corpus.docstart_lines, corpus.tag_vocab)
            if acc is not None:
                result["exact"]["token_accuracy"] = acc[0] / acc[1] if acc[1] else 0.0
                result["exact"]["tags_correct"], result["exact"]["tags_counted"] = acc
        systems.append(result)
    settings = {
        "models": list(models),
        "scheme": corpus.scheme,
        "scheme_requested": corpus.scheme_requested,
        "policy": corpus.policy,
        "separator_weight": separator_weight,
        "beta": beta,
        "k1": k1,
        "k2": k2,
        "fair": {"focus": focus, "weights": resolve_weights(weights), "mode": fair_mode} if "fair" in models else None,
        "label_map": [f"{p}={r}" for p, r in corpus.label_map],
        "all_labels_row": all_labels_row,
        "macro_average": "mean over labels with gold or system units (segments); others are left out",
        "micro_average": "tables summed over labels with gold or system units; others add nothing "
                         "(none present: 0 TP/FP/FN, every unit TN)",
        "zero_division": 0.0,
        "versions": versions(),
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
    lengths=None,
    **kwargs,
) -> Report:
    """seqeval-style entry point: lists of tag sequences in, Report out (``kwargs`` go to evaluate).

    With ``lengths`` (tokens per sentence), ``y_true`` and ``y_pred`` are span lists instead: per
    sentence a list of ``(label, start, end)`` token offsets, ``end`` exclusive (nested and
    overlapping spans allowed); ``y_pred`` may be a mapping name -> span lists.
    """
    if lengths is not None:
        return evaluate(from_spans(lengths, _exclusive(y_true), _exclusive(y_pred)), separator_weight, beta,
                        all_labels_row, **kwargs)
    return evaluate(from_sequences(y_true, y_pred, scheme, policy), separator_weight, beta, all_labels_row, **kwargs)


def _exclusive(spans):
    """Span lists with exclusive ends -> from_spans' inclusive ``(label, first, last)``."""
    if isinstance(spans, dict):
        return {name: _exclusive(v) for name, v in spans.items()}
    out = []
    for k, sent in enumerate(spans):
        row = []
        for item in sent:
            if not isinstance(item, (tuple, list)) or len(item) != 3:
                raise InputError(f"sentence {k}: span {item!r}; expected (label, start, end) token offsets")
            label, b, e = item
            row.append((label, b, e - 1))
        out.append(row)
    return out
