"""Corpus -> Report: every requested model family of the registry (:mod:`ts_eval.models`) per system."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union, cast

from ..core import measures
from ..core.corpus import Corpus
from ..core.sequences import TagSeqs, from_sequences, spans_corpus
from ..errors import OptionError
from ..fair.weights import resolve_weights
from ..results.report import Report
from .counts import count_corpus
from .registry import FAMILIES, ScoreSettings

SpanTuple = Tuple[str, int, int]     # (label, start, end), end exclusive


MODELS = ("ts", "exact", "overlap", "constrained", "contain", "fair", "semeval")
DEFAULT_MODELS = ("ts", "exact", "fair")


def _check(models: Sequence[str], k1: Optional[int], k2: Optional[int]) -> None:
    unknown = [m for m in models if m not in FAMILIES]
    if unknown:
        raise OptionError(f"unknown model(s) {', '.join(unknown)}; expected some of {', '.join(FAMILIES)}")
    for k in (k1, k2):
        if k is not None and k < 0:
            raise OptionError(f"k1 and k2 must be >= 0, got {k}")


def evaluate(
    corpus: Corpus,
    *,
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
    fair scores), ``fair_mode`` paper or faireval-skip).  Every model's result is
    built from the column sums of the per-sentence statistics its registered family
    (:mod:`ts_eval.models`) gives, the same statistics ``rank`` resamples; ``semeval``:
    nervaluate's SemEval-2013 schemes strict, exact, partial, ent_type (:mod:`ts_eval.models.semeval`).
    """
    return count_corpus(corpus, models, score_settings(
        separator_weight=separator_weight, beta=beta, all_labels_row=all_labels_row, models=models, k1=k1, k2=k2,
        focus=focus, weights=weights, fair_mode=fair_mode)).report()


def score_settings(*, separator_weight: float = 1.0, beta: float = 1.0, all_labels_row: bool = False,
                   models: Sequence[str] = DEFAULT_MODELS, k1: Optional[int] = None, k2: Optional[int] = None,
                   focus: str = "target", weights: Optional[str] = "eq7", fair_mode: str = "paper") -> ScoreSettings:
    """:func:`evaluate`'s options checked (an :class:`~ts_eval.errors.OptionError` names a bad one), as the
    :class:`~ts_eval.models.registry.ScoreSettings` the model families read."""
    measures.check_separator_weight(separator_weight)
    measures.check_beta(beta)
    _check(models, k1, k2)
    if "fair" in models:
        resolve_weights(weights)
    return ScoreSettings(separator_weight, beta, k1, k2, focus, weights, fair_mode, all_labels_row)


def score(
    y_true: Union[TagSeqs, Sequence[Sequence[SpanTuple]]],
    y_pred: Union[TagSeqs, Mapping[str, TagSeqs], Sequence[Sequence[SpanTuple]], Mapping[str, Any]],
    *,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    lengths: Optional[Sequence[int]] = None,
    **options: Any,
) -> Report:
    """seqeval-style entry point: lists of tag sequences in, Report out (``options`` go to :func:`evaluate`).

    ``y_true``: one list of tag strings per sentence; ``y_pred`` the same for one system, or a
    mapping system name -> such lists.  Bad input (``None``, mismatched lengths, non-string tags,
    wrong nesting, empty input) raises a ``TypeError``/``ValueError`` naming the argument, the
    sentence and token index and the value (:mod:`ts_eval.core.validation`).

    With ``lengths`` (tokens per sentence), ``y_true`` and ``y_pred`` are span lists instead: per
    sentence a list of ``(label, start, end)`` token offsets, ``end`` exclusive (nested and
    overlapping spans allowed); ``y_pred`` may be a mapping name -> span lists.
    """
    if lengths is not None:
        systems: Dict[str, Any] = ({f"{k}": (f"y_pred[{k!r}]", v) for k, v in y_pred.items()}
                                   if isinstance(y_pred, Mapping) else {"system": ("y_pred", y_pred)})
        # (span lists: the reader checks each one and names what is wrong)
        return evaluate(spans_corpus(lengths, "y_true", cast(Any, y_true), systems), **options)
    return evaluate(from_sequences(cast(Any, y_true), cast(Any, y_pred), scheme=scheme, policy=policy), **options)
