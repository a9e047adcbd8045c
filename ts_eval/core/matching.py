"""The shared span matcher: gold x system span pairs that share at least one token, and the
settings every span-level model reads them with (a minimum overlap, an assignment).

Every span-level model reads these pairs (exact match, overlap models, fair error
types, SemEval's categories, system comparisons); none of them computes overlaps on its
own.  Pairs come from one sorted interval sweep over the whole corpus: system spans
sorted by start, with the running maximum of their ends, bound the candidates of every
gold span by two ``searchsorted`` calls; no span is compared with every other.

**Settings** (:class:`MatchSettings`, one object that ``score``, ``rank``, ``compare`` and the
models share):

- ``min_overlap``: a :class:`Threshold` a pair must meet to count as overlapping enough, in
  tokens (character-offset inputs are aligned to tokens first): ``gold:R`` shared tokens /
  gold span tokens >= R, ``system:R`` / system span tokens, ``iou:R`` / tokens of their union
  (R a fraction in (0, 1], compared exactly: ``0.5`` is one half); ``nervaluate:P``
  nervaluate's ``min_overlap_percentage`` (shared / gold tokens * 100 >= P, 1 <= P <= 100,
  its float test as it writes it).  None (the default): any shared token.
- ``assignment``: ``many-to-many`` (the default: every acceptable pair counts, so one system
  span may hit several gold spans and one gold span be hit by several system spans) or
  ``one-to-one`` (:func:`one_to_one`: a maximum matching, so no span counts twice).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

import numpy as np

from ..errors import OptionError
from .corpus import SpanSet
from .schemes import conlleval_correct

if TYPE_CHECKING:   # (fractions, and decimal that it imports, load where a threshold is read or written)
    from fractions import Fraction

THRESHOLD_KINDS = ("gold", "system", "iou", "nervaluate")
ASSIGNMENTS = ("many-to-many", "one-to-one")


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class Pairs:
    """Overlapping (gold, system) span pairs, sorted by gold index then system index."""

    gold: np.ndarray      # index into the gold SpanSet
    system: np.ndarray    # index into the system SpanSet
    overlap: np.ndarray   # shared tokens
    gold_only: np.ndarray  # tokens of the gold span not in the system span
    system_only: np.ndarray
    same_label: np.ndarray
    exact: np.ndarray     # same start, end and label (conlleval scheme: what conlleval.pl counts correct)

    def __len__(self) -> int:
        return len(self.gold)

    def take(self, mask: np.ndarray) -> Pairs:
        """The pairs a boolean mask (or an index array) selects."""
        return Pairs(*(getattr(self, f)[mask] for f in
                       ("gold", "system", "overlap", "gold_only", "system_only", "same_label", "exact")))

    @property
    def gold_length(self) -> np.ndarray:
        """Tokens of each pair's gold span."""
        length: np.ndarray = self.overlap + self.gold_only
        return length

    @property
    def system_length(self) -> np.ndarray:
        """Tokens of each pair's system span."""
        length: np.ndarray = self.overlap + self.system_only
        return length

    @property
    def distance(self) -> np.ndarray:
        """|start difference| + |end difference| of each pair (the spans overlap, so this is the
        tokens in one span only)."""
        distance: np.ndarray = self.gold_only + self.system_only
        return distance


def match(gold: SpanSet, system: SpanSet) -> Pairs:
    """All pairs of a gold and a system span that share a token (spans never cross sentences)."""
    if len(gold) == 0 or len(system) == 0:
        z = np.zeros(0, np.int64)
        b = np.zeros(0, bool)
        return Pairs(z, z, z, z, z, b, b)
    order = np.argsort(system.start, kind="stable")
    s_start, s_last = system.start[order], system.last[order]
    reach = np.maximum.accumulate(s_last)
    lo = np.searchsorted(reach, gold.start, side="left")        # first that may reach the gold span
    hi = np.searchsorted(s_start, gold.last, side="right")       # last that starts inside it
    count = np.maximum(hi - lo, 0)
    gi = np.repeat(np.arange(len(gold)), count)
    first = np.repeat(lo - np.concatenate(([0], np.cumsum(count)[:-1])), count)
    si_sorted = first + np.arange(len(gi))
    keep = s_last[si_sorted] >= gold.start[gi]
    gi, si_sorted = gi[keep], si_sorted[keep]
    si = order[si_sorted]
    gs, ge, ss, se = gold.start[gi], gold.last[gi], system.start[si], system.last[si]
    overlap = np.minimum(ge, se) - np.maximum(gs, ss) + 1
    same = gold.label[gi] == system.label[si]
    if gold.conll is not None and system.conll is not None:
        # conlleval scheme: exact = the chunks conlleval.pl counts correct (a joint state
        # machine over both sides; the two spans start together, their ends may differ)
        counted = np.zeros(len(gold.conll.start), bool)
        counted[conlleval_correct(gold.conll, system.conll)] = True
        exact = same & (gs == ss) & counted[gs]
    else:
        exact = same & (gs == ss) & (ge == se)
    o = np.lexsort((si, gi))
    return Pairs(gi[o], si[o], overlap[o], (ge - gs + 1 - overlap)[o], (se - ss + 1 - overlap)[o], same[o], exact[o])


# ---------------------------------------------------------------------------
# settings: minimum overlap and assignment


@dataclass(frozen=True)
class Threshold:
    """A minimum overlap: ``kind`` gold, system or iou with ``value`` a fraction in (0, 1]
    (compared exactly), or nervaluate with ``value`` its percentage (1..100, its float test)."""

    kind: str
    value: Fraction

    def __str__(self) -> str:
        return f"{self.kind}:{_number(self.value)}"

    def meets(self, pairs: Pairs) -> np.ndarray:
        """Mask of the pairs that overlap enough."""
        o = pairs.overlap.astype(np.int64)
        meets: np.ndarray
        if self.kind == "nervaluate":    # nervaluate's test, as it computes it (floats)
            meets = (o / pairs.gold_length.astype(float)) * 100.0 >= float(self.value)
            return meets
        whole = {"gold": pairs.gold_length, "system": pairs.system_length,
                 "iou": pairs.gold_length + pairs.system_only}[self.kind].astype(np.int64)
        # shared / whole >= num / den, in integers: no rounding
        meets = o * self.value.denominator >= whole * self.value.numerator
        return meets


def _number(v: Fraction) -> str:
    """A fraction as the shortest decimal that reads back as it (else p/q)."""
    from fractions import Fraction

    if v.denominator == 1:
        return str(v.numerator)
    f = float(v)
    return repr(f) if Fraction(repr(f)) == v else f"{v.numerator}/{v.denominator}"


ThresholdLike = Union[None, str, Threshold]


def parse_threshold(spec: ThresholdLike) -> Optional[Threshold]:
    """``None``, a :class:`Threshold`, or text ``KIND:VALUE``: ``gold:0.5``, ``system:1/3``,
    ``iou:50%`` (a fraction in (0, 1], as a decimal, a ratio or a percentage), or
    ``nervaluate:50`` (nervaluate's percentage, 1..100).  OptionError otherwise."""
    if spec is None or isinstance(spec, Threshold):
        return spec
    if not isinstance(spec, str):
        raise OptionError(f"expected text KIND:VALUE with KIND one of {', '.join(THRESHOLD_KINDS)}, got "
                          f"{type(spec).__name__}", option="min_overlap", value=spec)
    kind, sep, text = spec.strip().partition(":")
    kind = kind.strip().lower()
    if not sep or kind not in THRESHOLD_KINDS:
        raise OptionError(f"expected KIND:VALUE with KIND one of {', '.join(THRESHOLD_KINDS)} "
                          "(e.g. iou:0.5, gold:0.5, system:0.5, nervaluate:50)", option="min_overlap", value=spec)
    text = text.strip()
    from fractions import Fraction

    try:
        value = Fraction(text[:-1]) / 100 if text.endswith("%") else Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise OptionError(f"{text!r} is not a number", option="min_overlap", value=spec) from None
    if kind == "nervaluate":
        if not 1 <= value <= 100:
            raise OptionError("nervaluate's min_overlap_percentage must be between 1.0 and 100.0",
                              option="min_overlap", value=spec)
    elif not 0 < value <= 1:
        raise OptionError("the fraction must be in (0, 1] (e.g. 0.5, 1/2 or 50%)", option="min_overlap", value=spec)
    return Threshold(kind, value)


@dataclass(frozen=True)
class MatchSettings:
    """How span-level models read the matcher's pairs (see the module docstring)."""

    min_overlap: Optional[Threshold] = None
    assignment: str = "many-to-many"

    def to_dict(self) -> Dict[str, Any]:
        return {"min_overlap": None if self.min_overlap is None else str(self.min_overlap),
                "assignment": self.assignment}

    @property
    def is_default(self) -> bool:
        return self.min_overlap is None and self.assignment == "many-to-many"


#: the default: any shared token, many-to-many (what every model did before the settings existed)
DEFAULT_MATCHING = MatchSettings()


def match_settings(min_overlap: Union[ThresholdLike, MatchSettings] = None,
                   assignment: Optional[str] = None) -> MatchSettings:
    """Checked :class:`MatchSettings` from the public options (``min_overlap`` may already be one)."""
    if isinstance(min_overlap, MatchSettings):
        base = min_overlap
        return base if assignment is None else match_settings(base.min_overlap, assignment)
    a = "many-to-many" if assignment is None else assignment
    if a not in ASSIGNMENTS:
        raise OptionError(f"expected one of {', '.join(ASSIGNMENTS)}", option="assignment", value=assignment)
    return MatchSettings(parse_threshold(min_overlap), a)


def meets(pairs: Pairs, threshold: Optional[Threshold]) -> np.ndarray:
    """Mask of the pairs that overlap enough (``None``: every pair)."""
    if threshold is None:
        return np.ones(len(pairs), bool)
    return threshold.meets(pairs)


def accept(pairs: Pairs, ok: np.ndarray, settings: MatchSettings) -> np.ndarray:
    """The pairs a span-level model counts: ``ok`` (what the model accepts), overlapping enough,
    and with ``one-to-one`` only those of the maximum matching (:func:`one_to_one`)."""
    ok = ok & meets(pairs, settings.min_overlap) if settings.min_overlap is not None else ok
    if settings.assignment == "one-to-one":
        ok = one_to_one(pairs, ok)
    return ok


def one_to_one(pairs: Pairs, ok: np.ndarray, first: Optional[np.ndarray] = None) -> np.ndarray:
    """Mask of the ``ok`` pairs in a maximum one-to-one matching of gold and system spans.

    Among all matchings (each span in at most one pair) it takes, in this order of importance:
    the most pairs of ``first`` (SemEval: the preferred class), the most pairs, the most shared
    tokens, the closest boundaries (least |start difference| + |end difference|); what is still
    tied is decided by position (spans in text order), which changes no count.  Solved exactly,
    per connected group of contested pairs, as an assignment problem (scipy's
    ``linear_sum_assignment``, the Hungarian method's modern form) on integer weights that
    encode that order; uncontested pairs (their gold and system span in no other ok pair) are
    taken at once, without scipy.
    """
    idx = np.flatnonzero(ok)
    chosen = np.zeros(len(pairs), bool)
    if not len(idx):
        return chosen
    g, s = pairs.gold[idx], pairs.system[idx]
    g_deg = np.bincount(g)[g]
    s_deg = np.bincount(s)[s]
    alone = (g_deg == 1) & (s_deg == 1)
    chosen[idx[alone]] = True
    rest = idx[~alone]
    if not len(rest):
        return chosen
    from scipy.optimize import linear_sum_assignment
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    g, s = pairs.gold[rest], pairs.system[rest]
    gu, gi = np.unique(g, return_inverse=True)
    su, si = np.unique(s, return_inverse=True)
    n = len(gu) + len(su)
    graph = coo_matrix((np.ones(len(rest)), (gi, len(gu) + si)), shape=(n, n))
    _, comp = connected_components(graph, directed=False)
    pc = comp[gi]
    tiers = [np.ones(len(rest), np.int64), pairs.overlap[rest].astype(np.int64),
             (pairs.distance[rest].max() - pairs.distance[rest]).astype(np.int64)]
    if first is not None:
        tiers.insert(0, first[rest].astype(np.int64))
    order = np.argsort(pc, kind="stable")
    bounds = np.flatnonzero(np.r_[True, pc[order][1:] != pc[order][:-1], True])
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        k = order[a:b]
        rows, r_of = np.unique(gi[k], return_inverse=True)
        cols, c_of = np.unique(si[k], return_inverse=True)
        weight = _lexicographic([t[k] for t in tiers], min(len(rows), len(cols)))
        m = np.zeros((len(rows), len(cols)))
        m[r_of, c_of] = weight
        r, c = linear_sum_assignment(m, maximize=True)
        pos = {(int(x), int(y)): j for j, (x, y) in enumerate(zip(r_of.tolist(), c_of.tolist()))}
        for x, y in zip(r.tolist(), c.tolist()):
            j = pos.get((x, y))
            if j is not None:              # a cell without a pair (weight 0) is no pair
                chosen[rest[k[j]]] = True
    return chosen


def _lexicographic(tiers: List[np.ndarray], most: int) -> np.ndarray:
    """One positive integer weight per pair such that a matching of at most ``most`` pairs with a
    larger total is better in the first tier, then the second, ... (each tier >= 0)."""
    weight = np.zeros(len(tiers[0]), np.int64)
    scale = 1
    for t in reversed(tiers):
        weight += t * scale
        scale *= int(t.max()) * most + 1
    if scale >= 2 ** 52:
        raise OptionError(f"a group of {len(tiers[0])} pairs of contested, overlapping spans is too large to match "
                          "one-to-one exactly (many-to-many has no such limit)", option="assignment",
                          value="one-to-one")
    return weight     # positive: the count tier (all ones) is one of the tiers
