"""Two references of the same tokens (an original test set and its correction, two annotators): what
changed from reference A to reference B, and what it does to every system's scores.

The references and the systems sit in one :class:`~ts_eval.core.corpus.Corpus`: reference A is its gold
(or one of its sides) and reference B one of its systems, read as if it were a system
(:func:`read_references`, or ``ts_eval.read(a_path, {"B": b_path, "sys1": ...})``), so the readers check
that the references and every system share tokens and name the first difference otherwise.

**What changed** (:func:`reference_changes`): the shared matcher's pairs of A's and B's spans
(:func:`ts_eval.core.matching.match`) are taken in this order, each span in at most one pair
(:func:`~ts_eval.core.matching.one_to_one` among the candidates of a step): spans in both (same
boundaries, same label: unchanged); *relabelled* (same boundaries, another label); *re-bounded*
(same label, overlapping, other boundaries); what is left of A is *removed*, what is left of B *added*.
A span whose label and boundaries both change is one removed and one added span (neither its label
nor its boundaries tie it to the other).  A sentence *differs* when it holds a changed span.

**What it does to a system** (:func:`compare_references`): a span (first token, last token, label) is an
error of a system under a reference when exactly one of them has it (a false positive or a false
negative of exact match).  A span that differs between A and B (a change's before or after) is an error
under exactly one of them, whatever the system does: ``wrong_a_right_b`` counts the spans whose error
under A is no error under B (gold's errors the system got right), ``right_a_wrong_b`` the reverse (the
corrections it gets wrong); every other span is an error under both or under neither, so the system's
errors under B are its errors under A - ``wrong_a_right_b`` + ``right_a_wrong_b``.  Its scores (every
ranking model's, from the per-sentence statistics of :mod:`ts_eval.ranking.sufficient`) are given under
A and B on the whole corpus, on the changed sentences and on the unchanged ones: the unchanged sentences
hold the same spans in A and B, so they score the same under both, and the whole difference is the
changed sentences'.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, Tuple

from ..core.corpus import Corpus
from ..errors import OptionError
from .changes import (  # (re-exported: the changes are this module's first part)
    CHANGE_KINDS as CHANGE_KINDS,
)
from .changes import ReferenceChanges as ReferenceChanges
from .changes import SpanChange as SpanChange
from .changes import pair_references as pair_references
from .changes import reference_changes as reference_changes
from .reference_scores import ReferenceComparison as ReferenceComparison  # (re-exported: the systems' part)
from .reference_scores import SystemUnderReferences as SystemUnderReferences
from .reference_scores import compare_references as compare_references


def read_references(reference_a: str, reference_b: str, systems: Mapping[str, str] | Sequence[str] = (), *,
                    names: Tuple[str, str] = ("A", "B"), **options: Any) -> Corpus:
    """Reference A (gold, named ``names[0]``) and reference B and the systems as one Corpus: B is the system
    ``names[1]`` (``systems``: paths, or a mapping name -> path; ``options`` as :func:`ts_eval.read` takes them).  The
    readers check that B and every system hold A's tokens, naming the first difference otherwise
    (:func:`ts_eval.io.api.read_with_references` with the two)."""
    from ..io.api import read_with_references

    if names[0] == names[1]:
        raise OptionError("the two references need two names", option="names", value=names)
    return read_with_references({names[0]: reference_a, names[1]: reference_b}, systems, option="names", **options)
