"""Checking Python tag-sequence input (lists of sentences of tag strings) before anything is scored.

One validation for every seqeval-style entry point -- :func:`ts_eval.score`,
:func:`ts_eval.core.sequences.from_sequences`, :mod:`ts_eval.compat.seqeval` and
:mod:`ts_eval.compat.huggingface` -- so that bad input (``None``, a string, mismatched lengths,
non-string tags, nesting of the wrong depth, numpy arrays) fails with one ``TypeError`` or
``ValueError`` naming the argument, the sentence (and token) index and the value, never with a
traceback from deep inside.  Empty input warns (:class:`EmptyInputWarning`).

The errors are plain ``TypeError``/``ValueError`` subclasses that are also
:class:`~ts_eval.errors.InputError` (:class:`TagTypeError`, :class:`TagValueError`), so the
command line and code catching ``InputError`` treat them as bad data.
"""
from __future__ import annotations

import collections
import itertools
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

from ..errors import InputError
from .printable import control_message, first_control, has_control


class TagTypeError(InputError, TypeError):
    """Tag-sequence input of the wrong type (``None``, a string, a non-string tag, wrong depth)."""


class TagValueError(InputError, ValueError):
    """Tag-sequence input of the wrong shape (mismatched lengths, empty tags)."""


class EmptyInputWarning(UserWarning):
    """The input has no sentences or no tokens: there is nothing to score."""


def describe(value: Any) -> str:
    """``value`` for an error message: its type and a repr cut at 60 characters."""
    text = repr(value)
    return f"{type(value).__name__} {text[:60] + '...' if len(text) > 60 else text}"


def sentences(y: Any, name: str) -> List[Sequence[Any]]:
    """``y`` as a list of sentences, each a list, tuple or 1-D array (checked, not copied)."""
    if y is None:
        raise TagTypeError(f"{name} is None; expected a list of sentences, each a list of tag strings")
    if isinstance(y, (str, bytes)):
        raise TagTypeError(f"{name} is a string ({describe(y)}); expected a list of sentences, "
                           "each a list of tag strings")
    if isinstance(y, np.ndarray):
        if y.ndim not in (1, 2):
            raise TagTypeError(f"{name} is a {y.ndim}-D numpy array; expected a list of sentences "
                               "(a 1-D array of sentences or a 2-D array of tags)")
        y = list(y)
    try:
        out = list(y)
    except TypeError:
        raise TagTypeError(f"{name} is {describe(y)}; expected a list of sentences, "
                           "each a list of tag strings") from None
    if set(map(type, out)) <= {list, tuple}:  # the usual case, checked at C speed
        return out
    for k, sent in enumerate(out):
        if isinstance(sent, np.ndarray) and sent.ndim == 1:
            continue
        if isinstance(sent, (str, bytes)) or not isinstance(sent, (list, tuple)):
            hint = (" (a flat list of tags? put it in a list: [tags])" if isinstance(sent, str) else "")
            raise TagTypeError(f"{name}: sentence {k} is {describe(sent)}; expected a list of tag strings{hint}")
    return out


def _locate(sents: Sequence[Sequence[Any]], bad: Callable[[Any], bool]) -> Tuple[int, int, Any]:
    """(sentence, position, tag) of the first tag for which ``bad(tag)`` holds."""
    for k, sent in enumerate(sents):
        for j, tag in enumerate(sent):
            if bad(tag):
                return k, j, tag
    raise AssertionError("no such tag")  # pragma: no cover


def is_bad_tag(tag: Any) -> bool:
    return not isinstance(tag, str) or tag == ""


def tag_error(sents: Sequence[Sequence[Any]], name: str) -> Exception:
    """The error for the first bad tag of ``sents`` (there must be one)."""
    k, j, tag = _locate(sents, is_bad_tag)
    if isinstance(tag, str):
        return TagValueError(f"{name}: sentence {k}, token {j}: the tag is an empty string; expected a tag such as "
                             "'O' or 'B-PER'")
    depth = " (a sentence nested one level too deep?)" if isinstance(tag, (list, tuple, np.ndarray)) else ""
    return TagTypeError(f"{name}: sentence {k}, token {j}: tag {describe(tag)} is not a string{depth}")


def encode(sides: Sequence[Tuple[str, Any]]) -> Tuple[np.ndarray, List[np.ndarray], List[str]]:
    """Check and encode several tag-sequence inputs, ``(argument name, sentences)``, the first the reference.

    Returns the tokens per sentence, one int32 array of tag ids per side (all sentences joined)
    and the tag vocabulary the ids index.  Every side must have the first side's sentence count
    and sentence lengths, and only non-empty string tags.
    """
    checked = [(name, sentences(y, name)) for name, y in sides]
    first, ref = checked[0]
    lengths = np.fromiter(map(len, ref), np.int64, count=len(ref))
    for name, sents in checked[1:]:
        if len(sents) != len(ref):
            raise TagValueError(f"{first} has {len(ref)} sentences, {name} has {len(sents)} sentences")
        n = np.fromiter(map(len, sents), np.int64, count=len(sents))
        if (lengths != n).any():
            k = int(np.flatnonzero(lengths != n)[0])
            raise TagValueError(f"sentence {k}: {first} has {lengths[k]} tags, {name} has {n[k]}")
    # one pass per side: a defaultdict numbers the distinct tags as it meets them
    ids: Dict[Any, int] = collections.defaultdict(itertools.count().__next__)
    total = int(lengths.sum())
    try:
        arrays = [np.fromiter(map(ids.__getitem__, itertools.chain.from_iterable(sents)), np.int32, count=total)
                  for _, sents in checked]
    except TypeError:  # an unhashable tag (a list: one level too deep)
        arrays = []
    if not arrays or any(is_bad_tag(t) for t in ids):
        for name, sents in checked:
            if any(is_bad_tag(t) for s in sents for t in s):
                raise tag_error(sents, name)
        raise AssertionError("bad tag not found")  # pragma: no cover
    if first_control(ids) is not None:
        for name, sents in checked:
            if any(has_control(t) for s in sents for t in s):
                k, j, tag = _locate(sents, has_control)
                raise TagValueError(f"{name}: sentence {k}, token {j}: {control_message(str(tag))}")
    return lengths, arrays, [str(t) for t in ids]  # numpy str_ -> str
