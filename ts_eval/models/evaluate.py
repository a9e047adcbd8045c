"""Corpus -> Report: every requested model of the registry (:mod:`ts_eval.models`) per system."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Sequence, Tuple, Union, cast

from ..core import measures
from ..core.corpus import Corpus
from ..core.matching import ThresholdLike, match_settings
from ..errors import OptionError
from ..fair.weights import resolve_weights
from ..results.report import Report
from .context import ScoreSettings
from .counts import count_corpus
from .registry import check_matching, check_partial_weight, generated_modes, score_names, score_specs

if TYPE_CHECKING:   # (Python's tag lists are read by score() alone: the command line reads files)
    from ..core.sequences import TagSeqs

SpanTuple = Tuple[str, int, int]     # (label, start, end), end exclusive


DEFAULT_MODELS = ("ts", "exact", "fair")


def default_score_models(corpus: Corpus) -> Tuple[str, ...]:
    """``evaluate``'s models when none are given: :data:`DEFAULT_MODELS`, or only the models made for
    generated outputs when every system is one read in the ``strings`` mode (:mod:`ts_eval.io.grounding`)."""
    modes = generated_modes(corpus)
    return tuple(score_names("generated")) if modes and all(m == "strings" for m in modes) else DEFAULT_MODELS


def _check(models: Sequence[str], k1: Optional[int], k2: Optional[int]) -> None:
    score_specs(models)      # (OptionError naming every model for an unknown one)
    for name, k in (("k1", k1), ("k2", k2)):
        if k is not None and k < 0:
            raise OptionError("expected a whole number >= 0", option=name, value=k)


def evaluate(
    corpus: Corpus,
    *,
    separator_weight: float = 1.0,
    beta: float = 1.0,
    all_labels_row: bool = False,
    models: Optional[Sequence[str]] = None,
    k1: Optional[int] = None,
    k2: Optional[int] = None,
    focus: str = "target",
    weights: Optional[str] = "eq7",
    fair_mode: str = "paper",
    min_overlap: ThresholdLike = None,
    assignment: str = "many-to-many",
    partial_weight: float = 0.5,
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
    built from the column sums of the per-sentence statistics its registered declaration
    (:mod:`ts_eval.models`) gives, the same statistics ``rank`` resamples; ``semeval``:
    nervaluate's SemEval-2013 schemes strict, exact, partial, ent_type (:mod:`ts_eval.models.semeval`).

    The span-level models (``overlap``, ``constrained``, ``contain``, ``semeval``) read the
    matcher's pairs with the same settings (:mod:`ts_eval.core.matching`): ``min_overlap``, a
    threshold such as ``"iou:0.5"``, ``"gold:0.5"``, ``"system:0.5"`` or nervaluate's
    ``"nervaluate:50"`` (default None: any shared token; SemEval's default is nervaluate's 1
    percent), and ``assignment`` ``"many-to-many"`` (default: a system span may hit several gold
    spans) or ``"one-to-one"`` (a maximum matching).  ``models`` None: :data:`DEFAULT_MODELS`, or
    ``strings`` alone when every system is a generated output read in the ``strings`` mode.
    ``partial_weight``: SemEval's credit of a partial match (default 0.5, nervaluate's).  A
    threshold or assignment that none of the chosen models reads is an error.
    """
    if models is None:
        models = default_score_models(corpus)
    return count_corpus(corpus, models, score_settings(
        separator_weight=separator_weight, beta=beta, all_labels_row=all_labels_row, models=models, k1=k1, k2=k2,
        focus=focus, weights=weights, fair_mode=fair_mode, min_overlap=min_overlap, assignment=assignment,
        partial_weight=partial_weight)).report()


def score_settings(*, separator_weight: float = 1.0, beta: float = 1.0, all_labels_row: bool = False,
                   models: Optional[Sequence[str]] = None, k1: Optional[int] = None, k2: Optional[int] = None,
                   focus: str = "target", weights: Optional[str] = "eq7", fair_mode: str = "paper",
                   min_overlap: ThresholdLike = None, assignment: str = "many-to-many",
                   partial_weight: float = 0.5) -> ScoreSettings:
    """:func:`evaluate`'s options checked (an :class:`~ts_eval.errors.OptionError` names a bad one), as the
    :class:`~ts_eval.models.registry.ScoreSettings` the models read (``models`` None:
    :data:`DEFAULT_MODELS`)."""
    measures.check_separator_weight(separator_weight)
    measures.check_beta(beta)
    if models is None:
        models = DEFAULT_MODELS
    _check(models, k1, k2)
    if "fair" in models:
        resolve_weights(weights)
    matching = match_settings(min_overlap, assignment)
    check_matching(matching, models)
    return ScoreSettings(separator_weight, beta, k1, k2, focus, weights, fair_mode, all_labels_row, matching,
                         check_partial_weight(partial_weight))


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
    from ..core.sequences import from_sequences, spans_corpus

    if lengths is not None:
        systems: Dict[str, Any] = ({f"{k}": (f"y_pred[{k!r}]", v) for k, v in y_pred.items()}
                                   if isinstance(y_pred, Mapping) else {"system": ("y_pred", y_pred)})
        # (span lists: the reader checks each one and names what is wrong)
        return evaluate(spans_corpus(lengths, "y_true", cast(Any, y_true), systems), **options)
    return evaluate(from_sequences(cast(Any, y_true), cast(Any, y_pred), scheme=scheme, policy=policy), **options)
