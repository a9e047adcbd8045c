"""Segment-level exact match (conlleval.pl's model) from the matcher's pairs.

A system span is correct when a gold span has the same first token, last token
and label.  Per label: gold, found and correct counts; precision, recall, F-beta;
micro (summed counts) and macro averages; plus conlleval's token accuracy, which
counts every ``-DOCSTART-`` line as a correctly tagged O token as conlleval.pl does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .corpus import SpanSet
from .matching import Pairs


@dataclass
class SegmentCounts:
    gold: np.ndarray     # per label
    found: np.ndarray
    correct: np.ndarray


def exact_counts(gold: SpanSet, system: SpanSet, pairs: Pairs, n_labels: int) -> SegmentCounts:
    exact = pairs.take(pairs.exact)
    return SegmentCounts(
        np.bincount(gold.label, minlength=n_labels)[:n_labels],
        np.bincount(system.label, minlength=n_labels)[:n_labels],
        np.bincount(gold.label[exact.gold], minlength=n_labels)[:n_labels],
    )


def token_accuracy(gold_tags: Optional[np.ndarray], system_tags: Optional[np.ndarray],
                   docstart_lines: int = 0):
    """(correct tags, tokens counted) as conlleval.pl counts them, or None without tags."""
    if gold_tags is None or system_tags is None:
        return None
    correct = int(np.count_nonzero(gold_tags == system_tags)) + docstart_lines
    return correct, len(gold_tags) + docstart_lines
