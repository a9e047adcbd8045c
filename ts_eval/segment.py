"""Segment-level models from the matcher's pairs: exact match (conlleval.pl's model),
overlap, constrained overlap and contain (Esuli & Sebastiani 2010, section 3).

A gold span is *hit* when some system span of the same label is an acceptable
match for it, and a system span is hit when it is an acceptable match for some gold
span.  Acceptable:

``exact``        same first token, last token and label;
``overlap``      shares at least one token;
``constrained``  shares a token, with at most k1 spurious tokens (system span only)
                 and at most k2 missing tokens (gold span only);
``contain``      constrained with k2 = 0: the system span contains the gold span
                 (k1 unbounded unless given).

Precision = hit system spans / system spans, recall = hit gold spans / gold spans
(for exact match both hit counts are conlleval's "correct").  Token accuracy is
conlleval's: every ``-DOCSTART-`` line counts as a correctly tagged O token.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from .corpus import SpanSet
from .matching import Pairs

SEGMENT_MODELS = ("exact", "overlap", "constrained", "contain")


@dataclass
class SegmentCounts:
    gold: np.ndarray       # per label: gold spans
    found: np.ndarray      # per label: system spans
    gold_hit: np.ndarray   # per label: gold spans with an acceptable system span
    found_hit: np.ndarray  # per label: system spans acceptable for some gold span


def acceptable(pairs: Pairs, max_spurious: Optional[int] = None, max_missing: Optional[int] = None) -> np.ndarray:
    """Mask of pairs that match: same label, sharing a token, within the k1/k2 limits.

    With both limits 0 this is the matcher's exact flag (for the conlleval scheme: the
    chunks conlleval.pl counts correct)."""
    if max_spurious == 0 and max_missing == 0:
        return pairs.exact
    ok = pairs.same_label.copy()
    if max_spurious is not None:
        ok &= pairs.system_only <= max_spurious
    if max_missing is not None:
        ok &= pairs.gold_only <= max_missing
    return ok


def segment_counts(gold: SpanSet, system: SpanSet, pairs: Pairs, n_labels: int,
                   max_spurious: Optional[int] = None, max_missing: Optional[int] = None) -> SegmentCounts:
    """Per-label counts of a segment model given by its k1 (spurious) and k2 (missing) limits."""
    ok = acceptable(pairs, max_spurious, max_missing)
    g_hit = np.zeros(len(gold), bool)   # a mask, not np.unique: a span hit by several pairs counts once
    g_hit[pairs.gold[ok]] = True
    s_hit = np.zeros(len(system), bool)
    s_hit[pairs.system[ok]] = True
    return SegmentCounts(
        np.bincount(gold.label, minlength=n_labels)[:n_labels],
        np.bincount(system.label, minlength=n_labels)[:n_labels],
        np.bincount(gold.label[g_hit], minlength=n_labels)[:n_labels],
        np.bincount(system.label[s_hit], minlength=n_labels)[:n_labels],
    )


def model_limits(model: str, k1: Optional[int] = None, k2: Optional[int] = None):
    """(max_spurious, max_missing) of a named segment model."""
    if model == "exact":
        return 0, 0
    if model == "overlap":
        return None, None
    if model == "constrained":
        return (1 if k1 is None else k1), (1 if k2 is None else k2)
    if model == "contain":
        return k1, 0
    raise ValueError(f"unknown segment model {model!r}; expected one of {', '.join(SEGMENT_MODELS)}")


def conlleval_tag_key(tag: str) -> tuple:
    """A tag as conlleval.pl compares it: (prefix, type) split at the first hyphen, type 0 = ''."""
    head, sep, kind = tag.partition("-")
    return (head, "" if kind == "0" else kind) if sep else (tag, "")


def token_accuracy(gold_tags: Optional[np.ndarray], system_tags: Optional[np.ndarray],
                   docstart_lines: int = 0, tag_vocab: Optional[Sequence[str]] = None):
    """(correct tags, tokens counted) as conlleval.pl counts them, or None without tags.

    Tags are compared as conlleval.pl compares them (so ``B-0`` equals ``B-`` and ``B``)."""
    if gold_tags is None or system_tags is None:
        return None
    if tag_vocab:
        keys: dict = {}
        canon = np.array([keys.setdefault(conlleval_tag_key(t), len(keys)) for t in tag_vocab], np.int32)
        if len(keys) < len(tag_vocab):  # some tags compare equal (B-0, B-, B): compare their keys
            gold_tags, system_tags = canon[gold_tags], canon[system_tags]
    correct = int(np.count_nonzero(gold_tags == system_tags)) + docstart_lines
    return correct, len(gold_tags) + docstart_lines
