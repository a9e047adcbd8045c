"""Gold suspects checked against a corrected reference: of the spans the systems reject alike in reference A
(:mod:`ts_eval.analysis.errors_suspects`), how many did the correction B actually change, and how many of
the correction's changes (:func:`ts_eval.comparison.references.reference_changes`) did a suspect point at.

**Where a suspect points.**  Its sentence and its tokens there: the gold span's and, unless the systems
agree on no span (FN), the systems' span (for FP, where gold has none, the systems' span alone).

**Touched.**  A change *touches* a suspect when it is in the suspect's sentence and its span in A (before)
or in B (after) shares a token with the suspect's gold span or its systems' span.  So a suspect of a
missing span (FP) counts when the correction added a span there (or re-bounded or relabelled one that now
reaches it), a suspect of a spurious gold span (FN) when the correction removed, relabelled or re-bounded
it.  A suspect's *verdict*: ``agreed`` when the correction made gold what the systems say -- the systems'
span is the after of a touching change (B has it, A had not) and, unless the suspect is FP, the gold span
is the before of one (B dropped it; for FN: the gold span is removed and B has no span there); ``touched``
when a change touches it otherwise (the correction changed something there, not into what the systems say);
``untouched``.

**The numbers.**  Precision of the top k: the share of the first k suspects (of the ranked list; all of
them when there are fewer than k) that a change touches (``precision``), and that the correction agrees
with (``precision_agreed``); undefined (None) when there is no suspect.  Recall: the share of the changes
that touch at least one suspect, among all suspects; undefined (None) when the correction changed nothing.
A reference checked against itself changes nothing: every suspect is untouched, precision 0, recall None.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from ..errors import OptionError
from .errors_suspects import Suspect, Suspects

if TYPE_CHECKING:        # types only: importing either would put this module a floor above the layer rule's limit
    from ..comparison.references import ReferenceChanges, SpanChange
    from .errors import ErrorAnalysis

#: a suspect's verdicts, strongest first
VERDICTS = ("agreed", "touched", "untouched")


@dataclass
class CheckedSuspect:
    """One suspect (in the ranked list's order) with its verdict and the changes that touch it."""

    rank: int                       # 1-based place in the ranked list
    suspect: Suspect
    verdict: str
    changes: List[SpanChange]

    def to_dict(self) -> Dict[str, Any]:
        s = self.suspect
        return {"rank": self.rank, "type": s.type, "sentence": s.sentence, "gold_label": s.gold_label,
                "gold_text": s.gold_text, "label": s.label, "text": s.text, "agreeing": s.agreeing,
                "confirming": s.confirming, "verdict": self.verdict, "changes": [c.to_dict() for c in self.changes]}


@dataclass
class SuspectCheck:
    """:func:`check_suspects`'s result (see the module docstring)."""

    reference_a: str
    reference_b: str
    at: List[Dict[str, Any]]        # per k: top, checked, touched, agreed, precision, precision_agreed
    touched: int                    # suspects a change touches (all of them)
    agreed: int                     # suspects the correction agrees with
    corrections: int                # the changes from A to B
    pointed: int                    # changes that touch at least one suspect
    recall: Optional[float]         # pointed / corrections; None when nothing changed
    kinds: Dict[str, Dict[str, int]]    # kind of change -> corrections, pointed
    suspects: List[CheckedSuspect] = field(default_factory=list)

    def precision(self, k: int) -> Optional[float]:
        for row in self.at:
            if row["top"] == k:
                value: Optional[float] = row["precision"]
                return value
        raise KeyError(k)

    def to_dict(self) -> Dict[str, Any]:
        return {"reference_a": self.reference_a, "reference_b": self.reference_b, "at": [dict(r) for r in self.at],
                "checked": len(self.suspects), "touched": self.touched, "agreed": self.agreed,
                "corrections": self.corrections, "pointed": self.pointed, "recall": self.recall,
                "kinds": {k: dict(v) for k, v in self.kinds.items()},
                "suspects": [s.to_dict() for s in self.suspects]}


def _suspect_list(found: Union[ErrorAnalysis, Suspects, Sequence[Suspect]]) -> List[Suspect]:
    found_: Any = getattr(found, "suspects", found)      # an ErrorAnalysis: its suspects
    if isinstance(found_, Suspects):
        if len(found_.suspects) < found_.total:
            raise OptionError(f"the suspects are cut at {len(found_.suspects)} of {found_.total}; the recall needs "
                              "all of them: run the error analysis with top None", option="top",
                              value=len(found_.suspects))
        return list(found_.suspects)
    return list(found_)


def _overlap(a: Tuple[int, int], b: Optional[Tuple[str, int, int]]) -> bool:
    return b is not None and a[0] <= b[2] and b[1] <= a[1]


def _touches(s: Suspect, c: SpanChange) -> bool:
    if c.sentence != s.sentence:
        return False
    return any(_overlap(mine, side) for mine in (s.gold_span, s.span) if mine is not None
               for side in (c.before, c.after))


def _verdict(s: Suspect, touching: List[SpanChange]) -> str:
    if not touching:
        return "untouched"
    gold = (s.gold_label, *s.gold_span) if s.gold_span is not None else None
    alt = (s.label, *s.span) if s.span is not None else None
    dropped = gold is None or any(c.before == gold for c in touching)
    if s.type == "FN":
        dropped = (any(c.before == gold and c.kind == "removed" for c in touching)
                   and all(c.after is None for c in touching))       # B has no span there either
    gained = alt is None or any(c.after == alt for c in touching)
    return "agreed" if dropped and gained else "touched"


def check_suspects(found: Union[ErrorAnalysis, Suspects, Sequence[Suspect]], changes: ReferenceChanges,
                   ks: Sequence[int] = (20, 50)) -> SuspectCheck:
    """The gold suspects of reference A (``found``: an :class:`~ts_eval.analysis.errors.ErrorAnalysis`, its
    ``suspects``, or the ranked list; every suspect, not a cut list: ``error_analysis(..., top=None)``) checked
    against what reference B changed (``changes``: :func:`~ts_eval.comparison.references.reference_changes` of
    the same corpus): precision of the first ``k`` suspects for each ``k`` of ``ks``, recall of the changes,
    and every suspect's verdict (see the module docstring).  The systems the suspects come from must not
    include reference B."""
    suspects = _suspect_list(found)
    bad = [k for k in ks if isinstance(k, bool) or not isinstance(k, int) or k < 1]
    if bad:
        raise OptionError("expected whole numbers of suspects, at least 1", option="ks", value=bad[0])
    for s in suspects:
        if s.sentence < 0 or (s.gold_span is None and s.span is None):
            raise OptionError("a suspect without its place (sentence, tokens): give the suspects error_analysis "
                              "found", option="suspects", value=s.type)
        if s.sentence >= changes.sentences:
            raise OptionError(f"a suspect in sentence {s.sentence + 1}, the references have {changes.sentences}: "
                              "the suspects and the changes come from different corpora", option="suspects",
                              value=s.sentence)
        if changes.reference_b in s.systems:
            raise OptionError(f"reference {changes.reference_b!r} is among the systems the suspects come from; "
                              "leave it out of the error analysis's systems", option="systems",
                              value=changes.reference_b)
    by_sentence: Dict[int, List[int]] = {}
    for j, c in enumerate(changes.changes):
        by_sentence.setdefault(c.sentence, []).append(j)
    pointed = [False] * len(changes.changes)
    checked = []
    for rank, s in enumerate(suspects, 1):
        touching = [j for j in by_sentence.get(s.sentence, []) if _touches(s, changes.changes[j])]
        for j in touching:
            pointed[j] = True
        mine = [changes.changes[j] for j in touching]
        checked.append(CheckedSuspect(rank, s, _verdict(s, mine), mine))
    at = []
    for k in ks:
        first = checked[:k]
        touched = sum(c.verdict != "untouched" for c in first)
        agreed = sum(c.verdict == "agreed" for c in first)
        at.append({"top": k, "checked": len(first), "touched": touched, "agreed": agreed,
                   "precision": touched / len(first) if first else None,
                   "precision_agreed": agreed / len(first) if first else None})
    kinds = {k: {"corrections": 0, "pointed": 0} for k in changes.counts}     # the kinds of change, in order
    for c, p in zip(changes.changes, pointed):
        kinds[c.kind]["corrections"] += 1
        kinds[c.kind]["pointed"] += int(p)
    n = len(changes.changes)
    return SuspectCheck(changes.reference_a, changes.reference_b, at,
                        sum(c.verdict != "untouched" for c in checked), sum(c.verdict == "agreed" for c in checked),
                        n, sum(pointed), sum(pointed) / n if n else None, kinds, checked)
