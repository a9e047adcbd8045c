"""The Hugging Face ``seqeval`` metric without ``evaluate``, ``datasets`` or ``transformers``.

:func:`compute` returns the dict of ``evaluate.load("seqeval").compute(...)``: one
entry per entity type (``precision``, ``recall``, ``f1``, ``number``) and
``overall_precision``, ``overall_recall``, ``overall_f1`` (seqeval's micro average)
and ``overall_accuracy`` (token accuracy).  With ``ts_eval_scores=True`` (the
default) it adds, under keys of their own, the token-and-separator scores
(``overall_ts_precision``, ``overall_ts_recall``, ``overall_ts_f1``) and Ortmann's
fair scores (``overall_fair_precision``, ``overall_fair_recall``,
``overall_fair_f1``), computed on the same entities.

:func:`compute_metrics` is a ``Trainer(compute_metrics=...)`` function: label ids in,
``-100`` positions (padding, special tokens, continuation sub-words) left out, a flat
dict of floats out.
"""
from __future__ import annotations

import functools
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.corpus import Corpus, SideInfo, SpanSet
from ..core.validation import describe
from ..models.evaluate import evaluate
from . import seqeval as sq

if TYPE_CHECKING:   # types only (numpy.typing is not needed at run time)
    from numpy.typing import ArrayLike

IGNORE_INDEX = -100
EXTRA_KEYS = ("overall_ts_precision", "overall_ts_recall", "overall_ts_f1",
              "overall_fair_precision", "overall_fair_recall", "overall_fair_f1")


def compute(predictions: Sequence[Any], references: Sequence[Any], *, suffix: bool = False,
            scheme: Optional[str] = None, mode: Optional[str] = None,
            sample_weight: Optional[ArrayLike] = None, zero_division: sq.ZeroDivision = "warn",
            ts_eval_scores: bool = True) -> Dict[str, Any]:
    """The Hugging Face seqeval metric's result for ``predictions`` against ``references``.

    Arguments as the metric's: ``scheme`` a name (IOB2, IOE2, IOBES, BILOU), used
    only with ``mode='strict'``, as in seqeval.  ``ts_eval_scores=False`` gives the
    metric's dict exactly, without the TS and fair keys.
    """
    sch = sq.check_options(None, mode, zero_division, scheme)
    data = sq.read_tags(references, predictions)
    sq.check_sample_weight(sample_weight, len(data.lengths))
    decoded = sq.decode(data, suffix, mode, sch, detect=True)
    counts = sq.count(decoded)
    rows = sq.report_rows(counts, zero_division)
    out: Dict[str, Any] = {name: {"precision": p, "recall": r, "f1": f, "number": s}
                           for name, p, r, f, s in rows[:len(counts.labels)]}
    _, p, r, f, _ = rows[len(counts.labels)]  # micro avg
    out.update(overall_precision=p, overall_recall=r, overall_f1=f, overall_accuracy=sq.accuracy(data))
    if ts_eval_scores:
        out.update(_ts_and_fair(decoded, data))
    return out


def _token_corpus(decoded: sq.Decoded, data: sq.TagData) -> Optional[Corpus]:
    """The decoded entities as a ts_eval Corpus over the tokens (None if one crosses a sentence)."""
    if decoded.corpus is not None:
        return decoded.corpus
    lengths = data.lengths
    # default mode counts one O after every sentence: sentence s starts at offset[s] + s
    starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
    sides = []
    for ss in (decoded.gold, decoded.pred):
        sb = np.searchsorted(starts, ss.start, side="right") - 1
        se = np.searchsorted(starts, ss.last, side="right") - 1
        if (sb != se).any():
            return None
        sides.append(SpanSet(ss.start - sb, ss.last - se, ss.label).sorted())
    offsets = np.unique(np.concatenate([[0], np.cumsum(lengths)])).astype(np.int64)
    return Corpus(offsets, list(decoded.labels), sides[0], {"system": sides[1]},
                  SideInfo("gold", spans=len(sides[0])), {"system": SideInfo("system", spans=len(sides[1]))})


def _ts_and_fair(decoded: sq.Decoded, data: sq.TagData) -> Dict[str, float]:
    corpus = _token_corpus(decoded, data)
    if corpus is None:
        warnings.warn("seqeval's default decoding made an entity that crosses a sentence boundary (a tag starting "
                      "with '.' keeps a chunk open); TS and fair scores are undefined there: they are nan",
                      UserWarning, stacklevel=3)
        return dict.fromkeys(EXTRA_KEYS, float("nan"))
    if data.n_tokens == 0:
        return dict.fromkeys(EXTRA_KEYS, 0.0)
    nested = sq.overlapping(corpus.gold) or sq.overlapping(corpus.systems["system"])
    if nested:
        warnings.warn("seqeval's default decoding made entities that share tokens on one side (chunks that reuse an "
                      "earlier start); fair error types need one span per entity: overall_fair_* are nan",
                      UserWarning, stacklevel=3)
    system = evaluate(corpus, models=("ts",) if nested else ("ts", "fair")).systems[0]
    ts = system["ts"]["micro"]
    out = {"overall_ts_precision": ts["precision"], "overall_ts_recall": ts["recall"], "overall_ts_f1": ts["f"]}
    fair = {"precision": float("nan"), "recall": float("nan"), "f": float("nan")} if nested else \
        system["fair"]["fair"]["micro"]
    out.update(overall_fair_precision=fair["precision"], overall_fair_recall=fair["recall"],
               overall_fair_f1=fair["f"])
    return out


# ---------------------------------------------------------------------------
# Trainer

def _labels_of(id2label: Union[Sequence[str], Mapping[Any, str]]) -> np.ndarray:
    if isinstance(id2label, Mapping):
        keys = sorted(int(k) for k in id2label)
        if keys != list(range(len(keys))):
            raise ValueError(f"id2label: the ids are {keys[:10]}...; expected 0..{len(keys) - 1}")
        names = [id2label[k] if k in id2label else id2label[str(k)] for k in keys]
    elif isinstance(id2label, (str, bytes)) or id2label is None:
        raise TypeError(f"id2label={id2label!r}: expected a list of label names or a dict id -> name")
    else:
        names = list(id2label)
    for k, name in enumerate(names):
        if not isinstance(name, str) or not name:
            raise TypeError(f"id2label: id {k} has the name {name!r}; expected a non-empty string")
    out = np.empty(len(names), object)
    out[:] = names
    return out


def _ragged(x: Any, name: str) -> List[np.ndarray]:
    """Rows of a 2-D (or 3-D logits) array or of a list of per-sentence arrays."""
    if isinstance(x, tuple) and len(x) and not np.isscalar(x[0]) and np.ndim(x[0]) >= 2:
        x = x[0]  # a model returning (logits, ...): the Trainer passes the tuple
    if isinstance(x, np.ndarray) and x.ndim in (2, 3):
        return list(x)
    if isinstance(x, (list, tuple)):
        return [np.asarray(row) for row in x]
    raise TypeError(f"{name}: expected a 2-D array of label ids (or 3-D logits), got {describe(x)}")


def tags_from_ids(predictions: Any, label_ids: Any, id2label: Union[Sequence[str], Mapping[Any, str]],
                  ignore_index: int = IGNORE_INDEX) -> Tuple[List[List[str]], List[List[str]]]:
    """(references, predictions) as tag lists, leaving out the positions labelled ``ignore_index``.

    ``predictions``: label ids (batch x length) or logits (batch x length x labels,
    reduced with argmax).
    """
    names = _labels_of(id2label)
    pred_rows, gold_rows = _ragged(predictions, "predictions"), _ragged(label_ids, "label_ids")
    if len(pred_rows) != len(gold_rows):
        raise ValueError(f"predictions has {len(pred_rows)} sequences, label_ids has {len(gold_rows)}")
    refs, preds = [], []
    for k, (p, g) in enumerate(zip(pred_rows, gold_rows)):
        p, g = np.asarray(p), np.asarray(g)
        if p.ndim == 2:
            p = p.argmax(axis=-1)
        if p.ndim != 1 or g.ndim != 1:
            raise ValueError(f"sequence {k}: predictions has shape {p.shape}, label_ids {g.shape}; expected one "
                             "id (or one row of logits) per position")
        if p.shape[0] < g.shape[0]:
            raise ValueError(f"sequence {k}: {p.shape[0]} predictions for {g.shape[0]} labels")
        p = p[:g.shape[0]]
        if g.dtype.kind not in "iu" or p.dtype.kind not in "iu":
            raise TypeError(f"sequence {k}: label ids must be integers (got {g.dtype} labels, {p.dtype} predictions)")
        keep = g != ignore_index
        for arr, what in ((g[keep], "label_ids"), (p[keep], "predictions")):
            bad = (arr < 0) | (arr >= len(names))
            if bad.any():
                raise ValueError(f"sequence {k}: {what} has id {int(arr[bad][0])}, outside 0..{len(names) - 1} "
                                 f"(id2label has {len(names)} labels; {ignore_index} marks ignored positions)")
        refs.append(names[g[keep]].tolist())
        preds.append(names[p[keep]].tolist())
    return refs, preds


def compute_metrics(eval_pred: Any, id2label: Union[Sequence[str], Mapping[Any, str]], *,
                    ignore_index: int = IGNORE_INDEX, entity_level: bool = False, **kwargs: Any) -> Dict[str, float]:
    """A Trainer's ``compute_metrics``: ``eval_pred`` is an ``EvalPrediction`` or a
    ``(predictions, label_ids)`` pair.  Returns a flat dict of floats: the ``overall_*``
    keys of :func:`compute` and, with ``entity_level``, ``<TYPE>_<score>`` per type
    (as the ``run_ner`` example flattens them).  Other keyword arguments go to
    :func:`compute`.  Use ``functools.partial`` or :func:`metrics_for` to bind ``id2label``.
    """
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        predictions, label_ids = eval_pred.predictions, eval_pred.label_ids
    else:
        try:
            predictions, label_ids = eval_pred
        except (TypeError, ValueError):
            raise TypeError(f"eval_pred: expected an EvalPrediction or a (predictions, label_ids) pair, "
                            f"got {describe(eval_pred)}") from None
    refs, preds = tags_from_ids(predictions, label_ids, id2label, ignore_index)
    result = compute(preds, refs, **kwargs)
    flat: Dict[str, float] = {}
    for key, value in result.items():
        if isinstance(value, dict):
            if entity_level:
                flat.update({f"{key}_{name}": float(v) for name, v in value.items()})
        else:
            flat[key] = float(value)
    return flat


def metrics_for(id2label: Union[Sequence[str], Mapping[Any, str]], **kwargs: Any) -> Callable[[Any], Dict[str, float]]:
    """``compute_metrics`` with ``id2label`` (and options) bound, for ``Trainer(compute_metrics=...)``."""
    _labels_of(id2label)  # fail now, not after the first evaluation epoch
    return functools.partial(compute_metrics, id2label=id2label, **kwargs)
