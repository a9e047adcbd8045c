"""What changes from one reference to the next, when several references of the same tokens are given (an
original test set and its corrections): ``analyze`` with several references shows it beside its analysis
under the first reference.

For every two consecutive references A and B (in the order given):

- **what changed** and **what it does to every system**:
  :func:`ts_eval.comparison.references.compare_references` (the spans added, removed, relabelled and
  re-bounded, per label, the transitions, the changed sentences; per system the errors that change sides
  and its scores on the changed and the unchanged sentences, whose difference is 0 by construction);
- **the gold suspects checked**: A's gold suspects (:func:`ts_eval.analysis.errors.gold_suspects` under A,
  every suspect) against what B changed (:func:`ts_eval.analysis.suspects_checked.check_suspects`: precision
  of the first 20 and 50, recall, the list).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..comparison.changes import reference_sides, side_of, under
from ..comparison.reference_scores import ReferenceComparison, compare_references
from ..core.corpus import Corpus
from .suspects_checked import SuspectCheck, check_suspects

#: what finds the gold suspects of a corpus (under a reference) from the systems named
Finder = Callable[[Corpus, List[str]], Any]


@dataclass
class ReferenceStep:
    """From one reference to the next: the comparison of the two and A's suspects checked (None: not asked)."""

    comparison: ReferenceComparison
    suspects: Optional[SuspectCheck] = None

    def to_dict(self) -> Dict[str, Any]:
        return {"reference_a": self.comparison.changes.reference_a, "reference_b": self.comparison.changes.reference_b,
                **self.comparison.to_dict(), "suspects": None if self.suspects is None else self.suspects.to_dict()}


@dataclass
class ReferenceSteps:
    """:func:`reference_steps`'s result: the references in order and every step from one to the next."""

    references: List[str]
    systems: List[str]
    steps: List[ReferenceStep] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        return {"references": list(self.references), "systems": list(self.systems),
                "steps": [s.to_dict() for s in self.steps]}


def reference_steps(corpus: Corpus, references: Sequence[str], systems: Optional[Sequence[str]] = None, *,
                    models: Optional[Sequence[str]] = None, suspects: Optional[Finder] = None,
                    ks: Sequence[int] = (20, 50)) -> ReferenceSteps:
    """Every step from one reference to the next (``references``: two or more, the gold's name or sides of
    ``corpus``), for ``systems`` (default: every side that is no reference) under ``models`` (ranking models;
    default ``rank``'s defaults).  ``suspects``: what finds the gold suspects of a corpus from its systems (given
    the corpus under a step's first reference and the systems' names; e.g. ``lambda c, names:
    gold_suspects(c, systems=names)``, :func:`ts_eval.analysis.errors.gold_suspects`, handed in so that this
    module stays below the error analysis's floor); each step's first reference's suspects are then checked
    against the next at ``ks``."""
    refs, names = reference_sides(corpus, references, systems)
    steps = []
    for a, b in zip(refs, refs[1:]):
        comparison = compare_references(corpus, b, side_of(corpus, a), systems=names, models=models)
        check = None
        if suspects is not None:
            check = check_suspects(suspects(under(corpus, a, names), names), comparison.changes, ks=ks)
        steps.append(ReferenceStep(comparison, check))
    return ReferenceSteps(refs, names, steps)
