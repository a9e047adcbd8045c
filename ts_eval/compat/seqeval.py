"""seqeval 1.2.2's metric API, computed with ts_eval's span matcher and measures.

Same functions, arguments and numbers as ``seqeval.metrics``: ``classification_report``
(text or ``output_dict=True``), ``precision_score``, ``recall_score``, ``f1_score``,
``precision_recall_fscore_support``, ``accuracy_score`` and ``performance_measure``.

Two decoders, as in seqeval:

default mode (``mode=None``)
    seqeval's ``get_entities``: the sentences are joined with an ``O`` after each one,
    a tag is split into its *first character* (the chunk tag) and the text after the
    first hyphen of the rest (the type; ``_`` when empty), and chunks open and close
    by seqeval's ``start_of_chunk``/``end_of_chunk`` rules, vectorised here.  Where
    this differs from conlleval.pl this module follows seqeval (see the README section
    "seqeval compatibility").
strict mode (``mode='strict'`` with a ``scheme``)
    seqeval's ``Entities`` for IOB2, IOE2, IOBES or BILOU: the tags are rewritten to
    ``P-TYPE`` (seqeval strips hyphens around the type) and decoded by
    :func:`ts_eval.core.corpus.corpus_from_tag_ids` with the scheme and policy ``discard``:
    ill-formed spans are dropped, which is what seqeval's strict mode does.

Both decoders give span sets that :func:`ts_eval.core.matching.match` pairs and
:func:`ts_eval.models.segment.segment_counts` counts (exact match); P, R and F come from
:mod:`ts_eval.core.measures`, then seqeval's ``zero_division`` rule and averages.

Bad input raises ``TypeError``/``ValueError`` naming the argument, the sentence and
the value (seqeval would fail deep inside or silently truncate); empty input warns
(:class:`EmptyInputWarning`).
"""
from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, Sequence, Tuple, Type, Union, overload

import numpy as np

from ..core import measures
from ..core.corpus import Corpus, SideInfo, SpanSet, corpus_from_tag_ids
from ..core.matching import match
from ..core.schemes import resolve_scheme_name
from ..core.validation import EmptyInputWarning, describe, encode
from ..models.segment import segment_counts

if TYPE_CHECKING:   # types only (numpy.typing is not needed at run time)
    from numpy.typing import ArrayLike

AVERAGES = (None, "micro", "macro", "weighted")
MODES = (None, "default", "strict")
STRICT_SCHEMES = ("IOB2", "IOE2", "IOBES", "BILOU")
ALL_WARN_FOR = ("precision", "recall", "f-score")
#: y_true / y_pred: one list of tag strings per sentence, as seqeval takes them (numpy arrays too)
Tags = Sequence[Any]
#: seqeval's ``zero_division``: "warn", 0 or 1
ZeroDivision = Union[str, float]
#: a strict-mode scheme: a name or a seqeval.scheme class (None: detected, or seqeval's default mode)
SchemeArg = Union[str, type, None]
#: a score: one number for an average, an array per type for ``average=None``
Score = Union[float, np.ndarray]
#: (precision, recall, F-beta, support): numbers for an average, arrays per type for ``average=None``
Scores = Tuple[Score, Score, Score, Union[int, np.ndarray]]

# seqeval's scheme prefixes (scheme.Prefix) and the prefixes each strict scheme allows
_PREFIXES = "IOBESUL"
_ALLOWED = {"IOB2": "IOB", "IOE2": "IOE", "IOBES": "IOBES", "BILOU": "BILOU"}

# default mode: chunk tag classes (seqeval compares the first character of a tag)
C_O, C_B, C_I, C_E, C_S, C_DOT, C_OTHER = range(7)
_CLASS = {"O": C_O, "B": C_B, "I": C_I, "E": C_E, "S": C_S, ".": C_DOT}


def _undefined_metric_warning() -> Type[Warning]:
    # scikit-learn's class, so that filters written for seqeval keep working;
    # imported only when a warning is due (importing scikit-learn takes a while)
    from sklearn.exceptions import UndefinedMetricWarning

    category: Type[Warning] = UndefinedMetricWarning    # (scikit-learn ships no types)
    return category


@functools.cache
def _undefined_average_warning() -> Type[Warning]:
    """The class of the warning for a macro average over no entity types: seqeval warns there through numpy
    (``RuntimeWarning``: mean of an empty slice), so a filter or ``pytest.warns`` written for seqeval expects
    that class; this one is also scikit-learn's ``UndefinedMetricWarning``, as this module's other warnings
    about undefined scores are."""
    return type("UndefinedAverageWarning", (_undefined_metric_warning(), RuntimeWarning),
                {"__module__": __name__, "__doc__": "A macro average over no entity types (nan)."})


def __getattr__(name: str) -> type:
    """``UndefinedAverageWarning`` is made on first use (it derives from scikit-learn's class, slow to import),
    and is this module's attribute, so that a filter or a process that receives the warning (pytest-xdist
    pickles a warning by its module and class name) can name it."""
    if name == "UndefinedAverageWarning":
        return _undefined_average_warning()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class UnknownPrefixError(ValueError, KeyError):
    """A tag whose prefix letter seqeval's strict mode does not know (not one of I O B E S U L): seqeval raises
    ``KeyError`` there (its ``Prefixes[letter]`` lookup); this is that and the ``ValueError`` this module raises
    for every other bad tag, so that ``except KeyError`` written for seqeval still catches it."""

    __str__ = BaseException.__str__     # the message, not KeyError's quoted repr


# ---------------------------------------------------------------------------
# input

@dataclass
class TagData:
    """Both sides as ids into one tag vocabulary, with the sentence lengths."""

    true: np.ndarray       # int32 tag id per token, all sentences joined
    pred: np.ndarray
    lengths: np.ndarray    # tokens per sentence (empty sentences allowed, as in seqeval)
    vocab: List[str]

    @property
    def n_tokens(self) -> int:
        return len(self.true)


def read_tags(y_true: Any, y_pred: Any, flat_ok: bool = False) -> TagData:
    """Check and encode two seqeval inputs (lists of sentences of tag strings).

    ``flat_ok``: a flat list of tags is one sentence (``accuracy_score`` and
    ``performance_measure`` accept it, as in seqeval).
    """
    sides = []
    for y, name in ((y_true, "y_true"), (y_pred, "y_pred")):
        if flat_ok and ((isinstance(y, (list, tuple)) and len(y) and all(isinstance(t, str) for t in y))
                        or (isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind == "U")):
            y = [y]
        sides.append((name, y))
    lengths, (true, pred), vocab = encode(sides)
    if len(true) == 0:
        warnings.warn(f"y_true and y_pred are empty ({len(lengths)} sentences, 0 tokens): there is nothing to score; "
                      "the scores below are not measurements", EmptyInputWarning, stacklevel=3)
    return TagData(true, pred, lengths, vocab)


# ---------------------------------------------------------------------------
# arguments

def _check_average(average: Optional[str]) -> None:
    if average not in AVERAGES:
        raise ValueError(f"average={average!r}: expected one of None, 'micro', 'macro', 'weighted'")


def _check_zero_division(zero_division: Any) -> None:
    if isinstance(zero_division, str):
        ok = zero_division == "warn"
    else:
        ok = isinstance(zero_division, (int, float, np.integer, np.floating)) and zero_division in (0, 1)
    if not ok:
        raise ValueError(f"zero_division={zero_division!r}: expected 'warn', 0 or 1")


def _check_mode(mode: Optional[str]) -> None:
    if mode not in MODES:
        raise ValueError(f"mode={mode!r}: expected None (seqeval's default, conlleval-like) or 'strict'")


def scheme_name(scheme: Any) -> Optional[str]:
    """A strict-mode scheme given as seqeval class (``seqeval.scheme.IOB2``) or name -> name."""
    if scheme is None:
        return None
    if isinstance(scheme, type):
        given = scheme.__name__
    elif isinstance(scheme, str):
        given = scheme
    else:
        raise TypeError(f"scheme={describe(scheme)}: expected a scheme name ({', '.join(STRICT_SCHEMES)}) "
                        "or a seqeval.scheme class")
    try:
        name = resolve_scheme_name(given)
    except ValueError:
        name = None
    if name not in STRICT_SCHEMES:
        raise ValueError(f"scheme={given!r}: expected one of {', '.join(STRICT_SCHEMES)} (seqeval's IOB1 and IOE1 "
                         "decoders have their own quirks and are not reproduced)")
    return name


def check_sample_weight(sample_weight: Any, n_sentences: int) -> None:
    if sample_weight is None:
        return
    try:
        n = len(sample_weight)
    except TypeError:
        raise TypeError(f"sample_weight={describe(sample_weight)}: expected one number per sentence") from None
    if n != n_sentences:
        raise ValueError(f"sample_weight has {n} values, y_true has {n_sentences} sentences")
    warnings.warn("sample_weight has no effect: seqeval 1.2.2 accepts it but reads it only for average='samples', "
                  "which it rejects, so its scores are unweighted; these are too", UserWarning, stacklevel=3)


def check_options(average: Optional[str] = None, mode: Optional[str] = None, zero_division: ZeroDivision = "warn",
                  scheme: SchemeArg = None) -> Optional[str]:
    _check_average(average)
    _check_mode(mode)
    _check_zero_division(zero_division)
    return scheme_name(scheme)


# ---------------------------------------------------------------------------
# decoding

def _default_tag(tag: str, suffix: bool) -> Tuple[int, str]:
    """seqeval's get_entities split of one tag: (chunk tag class, type)."""
    if suffix:
        head, kind = tag[-1], tag[:-1].rsplit("-", maxsplit=1)[0] or "_"
    else:
        head, kind = tag[0], tag[1:].split("-", maxsplit=1)[-1] or "_"
    return _CLASS.get(head, C_OTHER), kind


def _warn_not_ne(vocab: Sequence[str], used: np.ndarray, suffix: bool) -> None:
    """seqeval's '<tag> seems not to be NE tag.' warning, once per such tag."""
    for k in np.flatnonzero(used).tolist():
        tag = vocab[k]
        if tag in ("O", "B", "I", "E", "S"):
            continue
        ok = tag.endswith(("-B", "-I", "-E", "-S")) if suffix else tag.startswith(("B-", "I-", "E-", "S-"))
        if not ok:
            warnings.warn(f"{tag} seems not to be NE tag.", UserWarning, stacklevel=4)


def _shift(a: np.ndarray, fill: int) -> np.ndarray:
    out = np.empty_like(a)
    out[0] = fill
    out[1:] = a[:-1]
    return out


def _default_spans(ids: np.ndarray, lengths: np.ndarray, cls: np.ndarray, kind: np.ndarray,
                   outside_kind: int) -> SpanSet:
    """seqeval's get_entities over all sentences at once.

    Positions count the ``O`` seqeval puts after every sentence (and the one after
    all), so sentence s's token j is at (offset of s) + s + j.  A chunk ends at every
    end event, with the type of the token before it and the latest start before it
    as its first token (0 if none, seqeval's initial ``begin_offset``).
    """
    n, s = len(ids), len(lengths)
    m = n + s + 1
    c = np.full(m, C_O, np.int8)
    t = np.full(m, outside_kind, np.int32)
    pos = np.arange(n, dtype=np.int64) + np.repeat(np.arange(s, dtype=np.int64), lengths)
    c[pos] = cls[ids]
    t[pos] = kind[ids]
    pc = _shift(c, C_O)
    pt = _shift(t, -1)  # seqeval starts with prev_type '' which no tag has
    pe_s = (pc == C_E) | (pc == C_S)
    pb_i = (pc == C_B) | (pc == C_I)
    real_type = (pc != C_O) & (pc != C_DOT) & (pt != t)
    end = pe_s | (pb_i & ((c == C_B) | (c == C_S) | (c == C_O))) | real_type
    e_i = (c == C_E) | (c == C_I)
    start = ((c == C_B) | (c == C_S) | ((pe_s | (pc == C_O)) & e_i)
             | ((c != C_O) & (c != C_DOT) & (pt != t)))
    ends = np.flatnonzero(end)
    starts = np.flatnonzero(start)
    k = np.searchsorted(starts, ends, side="left") - 1
    begin = np.where(k >= 0, starts[np.maximum(k, 0)] if len(starts) else 0, 0)
    return SpanSet(begin.astype(np.int64), (ends - 1).astype(np.int64), pt[ends].astype(np.int32))


@dataclass
class Decoded:
    """Both sides' entities and the types they use (``labels``, sorted as seqeval sorts)."""

    labels: List[str]
    gold: SpanSet
    pred: SpanSet
    corpus: Optional[Corpus] = None       # strict mode: the ts_eval corpus (token positions); default
                                          # mode has none: its positions count one O after each sentence


def _decode_default(data: TagData, suffix: bool) -> Decoded:
    used = np.zeros(len(data.vocab), bool)
    used[data.true] = True
    used[data.pred] = True
    _warn_not_ne(data.vocab, used, suffix)
    parsed = [_default_tag(t, suffix) for t in data.vocab]
    kinds = sorted({k for _, k in parsed} | {"_"})
    kind_id = {k: i for i, k in enumerate(kinds)}
    cls = np.array([p[0] for p in parsed] or [0], np.int8)
    kind = np.array([kind_id[p[1]] for p in parsed] or [0], np.int32)
    gold = _default_spans(data.true, data.lengths, cls, kind, kind_id["_"])
    pred = _default_spans(data.pred, data.lengths, cls, kind, kind_id["_"])
    return _compact(Decoded(kinds, gold, pred))


def _compact(d: Decoded) -> Decoded:
    """Keep only the types some entity has (seqeval's target names), renumbered."""
    n = len(d.labels)
    present = (np.bincount(d.gold.label, minlength=n) + np.bincount(d.pred.label, minlength=n)) > 0
    new = np.cumsum(present) - 1

    def relabel(ss: SpanSet) -> SpanSet:
        return SpanSet(ss.start, ss.last, new[ss.label].astype(np.int32))
    return Decoded([lab for lab, p in zip(d.labels, present) if p], relabel(d.gold), relabel(d.pred),
                   d.corpus)


def _strict_prefix(tag: str, suffix: bool) -> Tuple[str, str]:
    """seqeval's Token split: (prefix letter, type with hyphens stripped, '_' when empty)."""
    if suffix:
        return tag[-1], tag[:-1].strip("-") or "_"
    return tag[0], tag[1:].strip("-") or "_"


def _locate_ids(data: TagData, tag_ids: Sequence[int]) -> Tuple[str, int, int, str]:
    """(side, sentence, position, tag) of the first token carrying one of ``tag_ids``."""
    offsets = np.concatenate([[0], np.cumsum(data.lengths)])
    for name, ids in (("y_true", data.true), ("y_pred", data.pred)):
        hit = np.flatnonzero(np.isin(ids, list(tag_ids)))
        if len(hit):
            tok = int(hit[0])
            k = int(np.searchsorted(offsets, tok, side="right") - 1)
            return name, k, tok - int(offsets[k]), data.vocab[ids[tok]]
    raise AssertionError("tag not found")  # pragma: no cover


def auto_detect(data: TagData, suffix: bool) -> str:
    """seqeval's auto_detect: the scheme from the set of prefixes in ``y_true``."""
    used = np.zeros(len(data.vocab), bool)
    used[data.true] = True
    prefixes = set()
    for k in np.flatnonzero(used).tolist():
        p = _strict_prefix(data.vocab[k], suffix)[0]
        if p not in _PREFIXES:
            name, s, j, tag = _locate_ids(data, [k])
            raise ValueError(f"{name}: sentence {s}, token {j}: tag {tag!r} has no scheme prefix "
                             f"({', '.join(_PREFIXES)}); seqeval cannot detect a scheme for it")
        prefixes.add(p)
    if "B" in prefixes and prefixes <= set("IOB"):
        return "IOB2"
    if "E" in prefixes and prefixes <= set("IOE"):
        return "IOE2"
    if prefixes <= set("IOBES") and ({"B", "E"} <= prefixes or prefixes == {"S"}):
        return "IOBES"
    if prefixes <= set("IOBLU") and ({"B", "L"} <= prefixes or prefixes == {"U"}):
        return "BILOU"
    raise ValueError(f"y_true uses the prefixes {', '.join(sorted(prefixes)) or '(none)'}, which match none of "
                     "IOB2, IOE2, IOBES, BILOU (seqeval's auto_detect); pass scheme=")


def _decode_strict(data: TagData, suffix: bool, scheme: str) -> Decoded:
    parsed = [_strict_prefix(t, suffix) for t in data.vocab]
    allowed = _ALLOWED[scheme]
    bad = [k for k, (p, _) in enumerate(parsed) if p not in allowed]
    if bad:
        used = np.zeros(len(data.vocab), bool)
        used[data.true] = True
        used[data.pred] = True
        bad = [k for k in bad if used[k]]
    if bad:
        name, s, j, tag = _locate_ids(data, bad)
        unknown = any(parsed[k][0] not in _PREFIXES for k in bad)   # seqeval: KeyError before its ValueError
        raise (UnknownPrefixError if unknown else ValueError)(
            f"{name}: sentence {s}, token {j}: tag {tag!r} is not allowed in scheme {scheme} "
            f"(prefixes {', '.join(allowed)}; mode='strict')")
    canon = ["O" if p == "O" else f"{p}-{k}" for p, k in parsed]
    canon_vocab = list(dict.fromkeys(canon)) or ["O"]
    remap = np.array([canon_vocab.index(c) for c in canon] or [0], np.int32)
    sides = [SideInfo("gold", tags=remap[data.true]), SideInfo("system", tags=remap[data.pred])]
    sent_first = np.zeros(data.n_tokens, bool)
    offsets = np.concatenate([[0], np.cumsum(data.lengths)[:-1]]).astype(np.int64)
    sent_first[offsets[data.lengths > 0]] = True
    corpus = corpus_from_tag_ids(canon_vocab, sides, sent_first, scheme, "discard")
    return Decoded(list(corpus.labels), corpus.gold, corpus.systems["system"], corpus=corpus)


def decode(data: TagData, suffix: bool = False, mode: Optional[str] = None, scheme: Optional[str] = None,
           detect: bool = False) -> Decoded:
    """Entities of both sides as seqeval finds them.

    Strict mode needs a scheme: without one, seqeval's score functions fall back to
    the default mode and its ``classification_report`` detects one (``detect``).
    """
    if mode == "strict" and scheme is None and detect:
        scheme = auto_detect(data, suffix)
    if mode == "strict" and scheme is not None:
        return _decode_strict(data, suffix, scheme)
    return _decode_default(data, suffix)


# ---------------------------------------------------------------------------
# counts and scores

@dataclass
class Counts:
    """Per type: entities found (pred), correct (tp) and in the truth (true)."""

    labels: List[str]
    tp: np.ndarray
    pred: np.ndarray
    true: np.ndarray


def overlapping(spans: SpanSet) -> bool:
    """Whether two spans of one side share a token (only seqeval's stale chunk starts make that)."""
    if len(spans) < 2:
        return False
    order = np.argsort(spans.start, kind="stable")
    reach = np.maximum.accumulate(spans.last[order])
    return bool((spans.start[order][1:] <= reach[:-1]).any())


def _exact_hits(gold: SpanSet, pred: SpanSet, n_labels: int) -> np.ndarray:
    """Per label, the gold spans that some predicted span equals (start, end and label).

    For sides with nested spans, where the matcher's overlap pairs grow quadratically
    (k chunks reusing one stale start overlap each other: k x k pairs)."""
    width = int(max(gold.last.max(initial=0), pred.last.max(initial=0))) + 1

    def keys(ss: SpanSet) -> np.ndarray:
        key: np.ndarray = (ss.start.astype(np.int64) * width + ss.last) * max(n_labels, 1) + ss.label
        return key

    hit = np.isin(keys(gold), keys(pred))
    return np.bincount(gold.label[hit], minlength=n_labels)[:n_labels]


def count(decoded: Decoded) -> Counts:
    """Exact-match counts per type from the shared matcher."""
    n = len(decoded.labels)
    gold, pred = decoded.gold, decoded.pred
    if overlapping(gold) or overlapping(pred):
        tp = _exact_hits(gold, pred, n)
        return Counts(decoded.labels, tp.astype(np.int64), np.bincount(pred.label, minlength=n)[:n].astype(np.int64),
                      np.bincount(gold.label, minlength=n)[:n].astype(np.int64))
    c = segment_counts(gold, pred, match(gold, pred), n, 0, 0)
    return Counts(decoded.labels, c.gold_hit.astype(np.int64), c.found.astype(np.int64), c.gold.astype(np.int64))


def _warn_prf(average: Optional[str], modifier: str, msg_start: str, size: int) -> None:
    msg = (f"{msg_start} ill-defined and being set to 0.0 {{0}} no {modifier} samples. "
           "Use `zero_division` parameter to control this behavior.")
    msg = msg.format("due to" if size == 1 else "in labels with")
    warnings.warn(msg, _undefined_metric_warning(), stacklevel=4)


def _fill(result: np.ndarray, den: np.ndarray, metric: str, modifier: str, average: Optional[str],
          warn_for: Sequence[str], zero_division: ZeroDivision) -> np.ndarray:
    """seqeval's _prf_divide on a ratio computed by measures: 0/0 -> zero_division (and a warning)."""
    mask = den == 0
    if not mask.any():
        return result
    result[mask] = 0.0 if zero_division in ("warn", 0) else 1.0
    if zero_division != "warn" or metric not in warn_for:
        return result
    start = f"{metric.title()} and F-score are" if "f-score" in warn_for else f"{metric.title()} is"
    _warn_prf(average, modifier, start, len(result))
    return result


@overload
def scores(counts: Counts, average: Literal[None] = None, warn_for: Sequence[str] = ALL_WARN_FOR,
           beta: float = 1.0, zero_division: ZeroDivision = "warn") -> Tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                              np.ndarray]: ...
@overload
def scores(counts: Counts, average: str, warn_for: Sequence[str] = ALL_WARN_FOR,
           beta: float = 1.0, zero_division: ZeroDivision = "warn") -> Tuple[float, float, float, int]: ...
@overload
def scores(counts: Counts, average: Optional[str] = None, warn_for: Sequence[str] = ALL_WARN_FOR,
           beta: float = 1.0, zero_division: ZeroDivision = "warn") -> Scores: ...
def scores(counts: Counts, average: Optional[str] = None, warn_for: Sequence[str] = ALL_WARN_FOR,
           beta: float = 1.0, zero_division: ZeroDivision = "warn") -> Scores:
    """(precision, recall, F-beta, support) with seqeval's averages and zero-division rule."""
    if beta < 0:
        raise ValueError(f"beta={beta!r}: expected a number >= 0")
    tp, pred, true = counts.tp, counts.pred, counts.true
    if average == "micro":
        tp, pred, true = (np.array([int(x.sum())], np.int64) for x in (tp, pred, true))
    p = _fill(np.atleast_1d(measures.precision(tp, pred - tp)), pred, "precision", "predicted", average,
              warn_for, zero_division)
    r = _fill(np.atleast_1d(measures.recall(tp, true - tp)), true, "recall", "true", average,
              warn_for, zero_division)
    if zero_division == "warn" and tuple(warn_for) == ("f-score",) and (pred[true == 0] == 0).any():
        _warn_prf(average, "true nor predicted", "F-score is", len(true))
    f = r.copy() if np.isposinf(beta) else np.atleast_1d(measures.f_from_pr(p, r, beta))
    if average is None:
        return p, r, f, true
    if average == "weighted":
        if true.sum() == 0:
            z = 0.0 if zero_division in ("warn", 0) else 1.0
            nothing_found = pred.sum() == 0
            return (z if nothing_found else 0.0), z, (z if nothing_found else 0.0), int(true.sum())
        return (np.average(p, weights=true), np.average(r, weights=true), np.average(f, weights=true),
                int(true.sum()))
    if len(p) == 0:  # macro over no types
        warnings.warn("no entity in y_true or y_pred: the macro average over no types is undefined (nan, "
                      "as in seqeval)", _undefined_average_warning(), stacklevel=3)
        return np.nan, np.nan, np.nan, 0
    return np.mean(p), np.mean(r), np.mean(f), int(true.sum())


def _counts_for(y_true: Tags, y_pred: Tags, suffix: bool, mode: Optional[str], scheme: Optional[str],
                sample_weight: Optional[ArrayLike], detect: bool = False) -> Counts:
    data = read_tags(y_true, y_pred)
    check_sample_weight(sample_weight, len(data.lengths))
    return count(decode(data, suffix, mode, scheme, detect))


def precision_recall_fscore_support(y_true: Tags, y_pred: Tags, *, average: Optional[str] = None,
                                    warn_for: Sequence[str] = ALL_WARN_FOR, beta: float = 1.0,
                                    sample_weight: Optional[ArrayLike] = None, zero_division: ZeroDivision = "warn",
                                    suffix: bool = False, mode: Optional[str] = None,
                                    scheme: SchemeArg = None) -> Scores:
    """seqeval's precision_recall_fscore_support (``mode``/``scheme`` select its v1 variant)."""
    sch = check_options(average, mode, zero_division, scheme)
    c = _counts_for(y_true, y_pred, suffix, mode, sch, sample_weight)
    return scores(c, average, warn_for, beta, zero_division)


def _score(k: int, metric: str, y_true: Tags, y_pred: Tags, average: Optional[str], suffix: bool, mode: Optional[str],
           sample_weight: Optional[ArrayLike], zero_division: ZeroDivision, scheme: SchemeArg) -> Score:
    sch = check_options(average, mode, zero_division, scheme)
    c = _counts_for(y_true, y_pred, suffix, mode, sch, sample_weight)
    p, r, f, _ = scores(c, average, (metric,), 1.0, zero_division)
    return (p, r, f)[k]


def precision_score(y_true: Tags, y_pred: Tags, *, average: Optional[str] = "micro", suffix: bool = False,
                    mode: Optional[str] = None, sample_weight: Optional[ArrayLike] = None,
                    zero_division: ZeroDivision = "warn", scheme: SchemeArg = None) -> Score:
    """Entity precision, as seqeval.metrics.precision_score."""
    return _score(0, "precision", y_true, y_pred, average, suffix, mode, sample_weight, zero_division, scheme)


def recall_score(y_true: Tags, y_pred: Tags, *, average: Optional[str] = "micro", suffix: bool = False,
                 mode: Optional[str] = None, sample_weight: Optional[ArrayLike] = None,
                 zero_division: ZeroDivision = "warn", scheme: SchemeArg = None) -> Score:
    """Entity recall, as seqeval.metrics.recall_score."""
    return _score(1, "recall", y_true, y_pred, average, suffix, mode, sample_weight, zero_division, scheme)


def f1_score(y_true: Tags, y_pred: Tags, *, average: Optional[str] = "micro", suffix: bool = False,
             mode: Optional[str] = None, sample_weight: Optional[ArrayLike] = None,
             zero_division: ZeroDivision = "warn", scheme: SchemeArg = None) -> Score:
    """Entity F1, as seqeval.metrics.f1_score."""
    return _score(2, "f-score", y_true, y_pred, average, suffix, mode, sample_weight, zero_division, scheme)


# ---------------------------------------------------------------------------
# token level

def accuracy_score(y_true: Tags, y_pred: Tags) -> float:
    """Share of tokens whose tags are equal (seqeval: flat lists are accepted too)."""
    data = read_tags(y_true, y_pred, flat_ok=True)
    return accuracy(data)


def accuracy(data: TagData) -> float:
    if data.n_tokens == 0:
        return 0.0  # read_tags has warned
    return int(np.count_nonzero(data.true == data.pred)) / data.n_tokens


def performance_measure(y_true: Tags, y_pred: Tags) -> Dict[str, int]:
    """Token-level TP, FP, FN, TN as seqeval counts them (``O`` is the negative tag)."""
    data = read_tags(y_true, y_pred, flat_ok=True)
    o = data.vocab.index("O") if "O" in data.vocab else -1
    t, p = data.true, data.pred
    t_o, p_o, eq = t == o, p == o, t == p
    return {"TP": int(np.count_nonzero(eq & ~t_o)), "FP": int(np.count_nonzero(~eq & ~p_o)),
            "FN": int(np.count_nonzero(~t_o & p_o)), "TN": int(np.count_nonzero(t_o & p_o))}


# ---------------------------------------------------------------------------
# report

def report_rows(counts: Counts, zero_division: ZeroDivision = "warn") -> List[Tuple[str, float, float, float, int]]:
    """The rows of seqeval's classification report: one per type, then micro, macro, weighted avg."""
    p, r, f, s = scores(counts, None, ALL_WARN_FOR, 1.0, zero_division)
    rows = [(lab, float(p[k]), float(r[k]), float(f[k]), int(s[k])) for k, lab in enumerate(counts.labels)]
    for average in ("micro", "macro", "weighted"):
        ap, ar, af, sup = scores(counts, average, ALL_WARN_FOR, 1.0, zero_division)
        rows.append((f"{average} avg", float(ap), float(ar), float(af), int(sup)))
    return rows


def format_report(rows: Sequence[Tuple[str, float, float, float, int]], n_types: int, digits: int = 2) -> str:
    """seqeval's StringReporter layout."""
    names = [r[0] for r in rows[:n_types]]
    width = max(max(map(len, names), default=0), len("weighted avg"), digits)
    head = "{:>{width}s} " + " {:>9}" * 4
    row = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}"
    lines = [row.format(*r, width=width, digits=digits) for r in rows[:n_types]]
    lines.append("")
    lines += [row.format(*r, width=width, digits=digits) for r in rows[n_types:]]
    lines.append("")
    return head.format("", "precision", "recall", "f1-score", "support", width=width) + "\n\n" + "\n".join(lines)


def report_dict(rows: Sequence[Tuple[str, float, float, float, int]]) -> Dict[str, Dict[str, Union[float, int]]]:
    return {name: {"precision": p, "recall": r, "f1-score": f, "support": s} for name, p, r, f, s in rows}


def classification_report(y_true: Tags, y_pred: Tags, digits: int = 2, suffix: bool = False, output_dict: bool = False,
                          mode: Optional[str] = None, sample_weight: Optional[ArrayLike] = None,
                          zero_division: ZeroDivision = "warn", scheme: SchemeArg = None
                          ) -> Union[str, Dict[str, Dict[str, Union[float, int]]]]:
    """seqeval's classification_report: per type and averaged P, R, F1 and support.

    ``mode='strict'`` without ``scheme`` detects the scheme from ``y_true`` (as
    seqeval does); a ``scheme`` without ``mode='strict'`` is ignored (as in seqeval).
    """
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or digits < 0:
        raise ValueError(f"digits={digits!r}: expected an integer >= 0")
    sch = check_options(None, mode, zero_division, scheme)
    counts = _counts_for(y_true, y_pred, suffix, mode, sch, sample_weight, detect=True)
    rows = report_rows(counts, zero_division)
    if output_dict:
        return report_dict(rows)
    return format_report(rows, len(counts.labels), int(digits))
