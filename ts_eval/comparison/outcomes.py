"""A pair's span-level diff under one outcome vocabulary: every gold span's outcome under A
and under B, with the system span it was matched to, every spurious system span, and their
transitions (corrections, new errors, changed errors), overall and per label.

The outcomes come from elsewhere -- Ortmann's fair outcomes (:mod:`.spans`) or the SemEval-2013
categories of one scheme (:mod:`.semeval_spans`) -- as :class:`OutcomeCodes` with the
:class:`OutcomeNames` saying what the codes mean; the diff is the same for both.  Two system
spans are "the same" when they are identical (start, end, label), read from the shared matcher's
pairs.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import SpanSet
from ..core.matching import match
from .results import ARROW, CLASSES, ChangeClass, SpanDiff
from .transitions import _ratio, _top_counts


@dataclass
class OutcomeCodes:
    """Per-span fair outcomes of one system as codes into GOLD_OUTCOMES (gold spans) and
    SYSTEM_OUTCOMES (system spans), with the counterpart's index (-1: none)."""

    gold_type: np.ndarray
    gold_partner: np.ndarray
    system_type: np.ndarray
    system_partner: np.ndarray


@dataclass(frozen=True)
class OutcomeNames:
    """The outcome vocabulary of one span-level reading (Ortmann's fair outcomes, or the
    SemEval-2013 categories of one scheme): what the codes of :class:`OutcomeCodes` mean.

    Transition keys: a gold span's is ``A outcome * w + B outcome`` (``w`` = gold outcomes + 1);
    a spurious span that B drops is ``dropped``, one B adds ``added``."""

    gold: Tuple[str, ...]       # gold spans' outcome codes (the right one first)
    system: Tuple[str, ...]     # system spans' outcome codes
    spurious: str               # the system outcome of a span matched to no gold span
    none: str                   # "no span" in a spurious span's transition
    fixed: str                  # the gold outcome whose counterpart cannot change (no changed_counterpart)
    hit: str                    # the per-label key of the right outcome's count (``tp``, ``correct``)

    @property
    def correct(self) -> int:
        return 0

    @property
    def w(self) -> int:
        return len(self.gold) + 1

    @property
    def dropped(self) -> int:
        return self.w * self.w

    @property
    def added(self) -> int:
        return self.w * self.w + 1

    def name(self, k: int) -> Tuple[str, str]:
        """The (A, B) outcome names of a transition key."""
        if k == self.dropped:
            return (self.spurious, self.none)
        if k == self.added:
            return (self.none, self.spurious)
        return (self.gold[k // self.w], self.gold[k % self.w])

    def key(self, name: str) -> str:
        """An outcome's key in the counts dicts (the result vocabulary's lower-case words)."""
        return name.lower()


def _identical(x: SpanSet, y: SpanSet) -> np.ndarray:
    """For every span of x, the index of the identical span (start, end, label) in y, or -1.

    Read from the shared matcher's pairs (its ``exact`` flag), x in the gold role."""
    p = match(x, y)
    out = np.full(len(x), -1, np.int64)
    out[p.gold[p.exact]] = p.system[p.exact]
    return out


@dataclass
class _Spurious:
    """Spurious spans: A's spurious spans, and B's spurious spans that are not identical to one of A's."""

    fp_a: np.ndarray       # A's spurious spans
    kept: np.ndarray       # per span of fp_a: B has the identical span, also spurious
    added: np.ndarray      # B's spurious spans A does not have (none → spurious)
    dropped: np.ndarray    # A's spurious spans B does not keep (spurious → none)


def _gold_changes(oa: OutcomeCodes, ob: OutcomeCodes, same_ab: np.ndarray,
                  correct: int = 0) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per gold span: changed, its class (0 correction, 1 new error, 2 changed error, -1 unchanged),
    and whether its counterpart changed.  A gold span changes when its outcome or its counterpart
    changes, except that a span right under both (with different system spans: SemEval's
    ``partial`` and ``ent_type``, never a fair TP) is no change of correctness."""
    ta, tb = oa.gold_type, ob.gold_type
    pa, pb = oa.gold_partner, ob.gold_partner
    same_partner = pb < 0                       # both without counterpart, or ...
    has = pa >= 0
    same_partner[has] = same_ab[pa[has]] == pb[has]   # ... B's counterpart is A's, span for span
    other = ~same_partner
    changed = (ta != tb) | (other & ~((ta == correct) & (tb == correct)))
    g_cls = np.full(len(ta), -1, np.int64)
    g_cls[changed & (tb == correct)] = 0
    g_cls[changed & (ta == correct)] = 1
    g_cls[changed & (ta != correct) & (tb != correct)] = 2
    return changed, g_cls, other


def _spurious(spurious_a: np.ndarray, spurious_b: np.ndarray, same_ab: np.ndarray) -> _Spurious:
    """From masks over A's and B's system spans (spurious or not) and A's identical spans in B."""
    fp_a = np.flatnonzero(spurious_a)
    twin = same_ab[fp_a]
    kept = np.zeros(len(fp_a), bool)
    kept[twin >= 0] = spurious_b[twin[twin >= 0]]
    b_twin_of_a_fp = np.zeros(len(spurious_b), bool)
    b_twin_of_a_fp[twin[kept]] = True
    return _Spurious(fp_a, kept, np.flatnonzero(spurious_b & ~b_twin_of_a_fp), fp_a[~kept])


@dataclass
class SpanSides:
    """Gold and the two systems' spans, with the corpus's label names."""

    gold: SpanSet
    a: SpanSet
    b: SpanSet
    labels: Sequence[str]


#: a label's counts in :attr:`OutcomeSums.per_label`: its gold spans, spurious spans, changes per class, gold
#: spans right under A and under B, A's spurious spans B drops, B's spurious spans A lacks
LABEL_COUNTS = ("gold", "spurious", *CLASSES, "hit_a", "hit_b", "dropped", "added")


@dataclass
class ExampleContext:
    """What the example sentences of a span diff need beside it (:func:`outcome_diff`)."""

    gold_key: np.ndarray   # per gold span: A's outcome * OutcomeNames.w + B's outcome
    g_cls: np.ndarray      # per gold span: its change class (an index into CLASSES; -1 unchanged)
    dropped: np.ndarray    # A's spurious spans B does not keep
    added: np.ndarray      # B's spurious spans A does not have


class OutcomeSums:
    """A pair's span-level diff under one outcome vocabulary, summed over the blocks of a corpus: the
    outcome matrix and counts, the transitions of each class and per label (by name).  Grows with the
    labels, not with the spans."""

    def __init__(self, names: OutcomeNames) -> None:
        G = len(names.gold)
        self.names = names
        self.matrix = np.zeros((G, G), np.int64)
        self.outcomes = np.zeros((2, G + 1), np.int64)      # A's and B's gold outcomes, then their spurious spans
        self.changed_counterpart = np.zeros(G, np.int64)
        self.classes: List[Counter[int]] = [Counter() for _ in CLASSES]
        self.per_label: Dict[str, np.ndarray] = {}
        self.label_moves: Dict[str, Counter[int]] = {}
        self.moves = np.zeros(3, np.int64)                  # dropped, added, kept
        self.gold = self.spurious = self.differing = 0

    def add(self, sides: SpanSides, oa: OutcomeCodes, ob: OutcomeCodes) -> ExampleContext:
        """Count one block's spans (``oa``, ``ob``: A's and B's outcomes); the per-unit arrays the examples
        need."""
        names = self.names
        ta, tb = oa.gold_type, ob.gold_type
        G = len(names.gold)
        same_ab = _identical(sides.a, sides.b)
        changed, g_cls, other = _gold_changes(oa, ob, same_ab, names.correct)
        spu = names.system.index(names.spurious)
        sp = _spurious(oa.system_type == spu, ob.system_type == spu, same_ab)
        self.gold += len(sides.gold)
        self.spurious += len(sp.fp_a) + len(sp.added)
        self.differing += int(np.count_nonzero(changed)) + len(sp.dropped) + len(sp.added)
        np.add.at(self.matrix, (ta, tb), 1)
        self.changed_counterpart += np.bincount(ta[other & (ta == tb)], minlength=G)
        for side, o in enumerate((oa, ob)):
            self.outcomes[side, :G] += np.bincount(o.gold_type, minlength=G)
            self.outcomes[side, G] += int(np.count_nonzero(o.system_type == spu))
        self.moves += (len(sp.dropped), len(sp.added), int(sp.kept.sum()))
        gold_key = ta * names.w + tb
        for k in range(len(CLASSES)):
            self.classes[k].update(_counted(gold_key[g_cls == k]))
        self.classes[0][names.dropped] += len(sp.dropped)
        self.classes[1][names.added] += len(sp.added)
        self._labels(sides, oa, ob, changed, g_cls, gold_key, sp)
        return ExampleContext(gold_key, g_cls, sp.dropped, sp.added)

    def _labels(self, sides: SpanSides, oa: OutcomeCodes, ob: OutcomeCodes, changed: np.ndarray,
                g_cls: np.ndarray, gold_key: np.ndarray, sp: _Spurious) -> None:
        """Per label: gold spans by gold label, spurious spans by their own label."""
        names = self.names
        L = len(sides.labels)
        gl = sides.gold.label.astype(np.int64)
        drop = np.bincount(sides.a.label[sp.dropped], minlength=L)
        add = np.bincount(sides.b.label[sp.added], minlength=L)
        table = np.stack([np.bincount(gl, minlength=L),
                          np.bincount(sides.a.label[sp.fp_a], minlength=L) + add,
                          *(np.bincount(gl[g_cls == k], minlength=L) for k in range(len(CLASSES))),
                          np.bincount(gl[oa.gold_type == names.correct], minlength=L),
                          np.bincount(gl[ob.gold_type == names.correct], minlength=L), drop, add], axis=1)
        for lab, name in enumerate(sides.labels):
            row = self.per_label.get(name)
            self.per_label[name] = table[lab] if row is None else row + table[lab]
            moves = self.label_moves.setdefault(name, Counter())
            moves.update(_counted(gold_key[changed & (gl == lab)]))
            moves[names.dropped] += int(drop[lab])
            moves[names.added] += int(add[lab])

    def result(self, a: str, b: str, labels: Sequence[str], top: Optional[int]) -> SpanDiff:
        """The :class:`SpanDiff` of every block so far (``labels``: every label of the corpus, sorted)."""
        names = self.names
        n_diff = self.differing
        classes = {}
        for k, cls in enumerate(CLASSES):
            distinct, tops = _top_counts(self.classes[k], names.name, n_diff, top)
            cnt = sum(self.classes[k].values())
            classes[cls] = ChangeClass(cls, cnt, _ratio(cnt, n_diff), distinct, tops)
        return SpanDiff(
            a, b, self.gold, self.spurious, n_diff, _ratio(n_diff, self.gold + self.spurious),
            self._outcome_counts(0), self._outcome_counts(1), self.matrix.tolist(),
            {names.key(n): int(self.changed_counterpart[k]) for k, n in enumerate(names.gold) if n != names.fixed},
            classes, [self._label_row(lab) for lab in labels],
            {ARROW.join(names.name(names.dropped)): int(self.moves[0]),
             ARROW.join(names.name(names.added)): int(self.moves[1]), f"{names.spurious} kept": int(self.moves[2])},
            names.gold)

    def _outcome_counts(self, side: int) -> Dict[str, int]:
        """Gold outcome counts, plus the spurious system spans."""
        names, c = self.names, self.outcomes[side].tolist()
        d = {names.key(n): c[k] for k, n in enumerate(names.gold)}
        d[names.key(names.spurious)] = c[-1]
        return d

    def _label_row(self, label: str) -> Dict[str, Any]:
        names = self.names
        counts = self.per_label.get(label, np.zeros(len(LABEL_COUNTS), np.int64)).tolist()
        c = dict(zip(LABEL_COUNTS, counts))
        row: Dict[str, Any] = {"label": label, "gold": c["gold"], "spurious": c["spurious"],
                               "correction": c["correction"] + c["dropped"],
                               "new_error": c["new_error"] + c["added"], "changed_error": c["changed_error"]}
        row["net"] = row["correction"] - row["new_error"]
        row["diff"] = _ratio(row["correction"] + row["new_error"] + row["changed_error"], c["gold"] + c["spurious"])
        row[f"{names.hit}_a"] = c["hit_a"]
        row[f"{names.hit}_b"] = c["hit_b"]
        tr = {ARROW.join(names.name(k)): n for k, n in self.label_moves.get(label, Counter()).items() if n}
        row["transitions"] = dict(sorted(tr.items(), key=lambda kv: (-kv[1], kv[0])))
        return row


def _counted(keys: np.ndarray) -> Dict[int, int]:
    u, c = np.unique(keys, return_counts=True)
    return dict(zip(u.tolist(), c.tolist()))


def outcome_diff(sides: SpanSides, a: str, b: str, oa: OutcomeCodes, ob: OutcomeCodes, top: Optional[int],
                 names: OutcomeNames) -> Tuple[SpanDiff, ExampleContext]:
    """Transitions of gold spans (A outcome → B outcome) and of spurious spans under one outcome
    vocabulary (the corpus read whole); also the per-unit arrays the examples need."""
    sums = OutcomeSums(names)
    ctx = sums.add(sides, oa, ob)
    return sums.result(a, b, sides.labels, top), ctx
