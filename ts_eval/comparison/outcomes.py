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

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import SpanSet
from ..core.matching import match
from .results import ARROW, CLASSES, ChangeClass, SpanDiff
from .transitions import _ratio, _top_transitions


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


def _classes(gold_key: np.ndarray, g_cls: np.ndarray, sp: _Spurious, n_diff: int, top: Optional[int],
             names: OutcomeNames) -> Dict[str, ChangeClass]:
    keys = {0: np.concatenate([gold_key[g_cls == 0], np.full(len(sp.dropped), names.dropped, np.int64)]),
            1: np.concatenate([gold_key[g_cls == 1], np.full(len(sp.added), names.added, np.int64)]),
            2: gold_key[g_cls == 2]}
    classes = {}
    for k, cls in enumerate(CLASSES):
        distinct, tops = _top_transitions(keys[k], names.name, n_diff, top)
        cnt = len(keys[k])
        classes[cls] = ChangeClass(cls, cnt, _ratio(cnt, n_diff), distinct, tops)
    return classes


@dataclass
class SpanSides:
    """Gold and the two systems' spans, with the corpus's label names."""

    gold: SpanSet
    a: SpanSet
    b: SpanSet
    labels: Sequence[str]


def _label_rows(sides: SpanSides, oa: OutcomeCodes, ob: OutcomeCodes, changed: np.ndarray, g_cls: np.ndarray,
                gold_key: np.ndarray, sp: _Spurious, names: OutcomeNames) -> List[Dict[str, Any]]:
    """Per label: gold spans by gold label, spurious spans by their own label."""
    gold, sa, sb = sides.gold, sides.a, sides.b
    per = []
    drop_name, add_name = ARROW.join(names.name(names.dropped)), ARROW.join(names.name(names.added))
    for lab in range(len(sides.labels)):
        gmask = gold.label == lab
        row: Dict[str, Any] = {"label": sides.labels[lab], "gold": int(gmask.sum())}
        drop_l = int(np.count_nonzero(sa.label[sp.dropped] == lab))
        add_l = int(np.count_nonzero(sb.label[sp.added] == lab))
        fp_l = int(np.count_nonzero(sa.label[sp.fp_a] == lab)) + add_l
        row["spurious"] = fp_l
        row["correction"] = int(np.count_nonzero(gmask & (g_cls == 0))) + drop_l
        row["new_error"] = int(np.count_nonzero(gmask & (g_cls == 1))) + add_l
        row["changed_error"] = int(np.count_nonzero(gmask & (g_cls == 2)))
        row["net"] = row["correction"] - row["new_error"]
        units = row["gold"] + fp_l
        row["diff"] = _ratio(row["correction"] + row["new_error"] + row["changed_error"], units)
        row[f"{names.hit}_a"] = int(np.count_nonzero(gmask & (oa.gold_type == names.correct)))
        row[f"{names.hit}_b"] = int(np.count_nonzero(gmask & (ob.gold_type == names.correct)))
        tr: Dict[str, int] = {}
        sel = gmask & changed
        if sel.any():
            u, c = np.unique(gold_key[sel], return_counts=True)
            tr.update({ARROW.join(names.name(int(x))): int(y) for x, y in zip(u, c)})
        if drop_l:
            tr[drop_name] = drop_l
        if add_l:
            tr[add_name] = add_l
        row["transitions"] = dict(sorted(tr.items(), key=lambda kv: (-kv[1], kv[0])))
        per.append(row)
    return per


def _outcome_counts(o: OutcomeCodes, names: OutcomeNames) -> Dict[str, int]:
    """Gold outcome counts, plus the spurious system spans."""
    c = np.bincount(o.gold_type, minlength=len(names.gold))
    d = {names.key(n): int(c[k]) for k, n in enumerate(names.gold)}
    d[names.key(names.spurious)] = int(np.count_nonzero(o.system_type == names.system.index(names.spurious)))
    return d


@dataclass
class ExampleContext:
    """What the example sentences of a span diff need beside it (:func:`outcome_diff`)."""

    gold_key: np.ndarray   # per gold span: A's outcome * OutcomeNames.w + B's outcome
    g_cls: np.ndarray      # per gold span: its change class (an index into CLASSES; -1 unchanged)
    dropped: np.ndarray    # A's spurious spans B does not keep
    added: np.ndarray      # B's spurious spans A does not have


def outcome_diff(sides: SpanSides, a: str, b: str, oa: OutcomeCodes, ob: OutcomeCodes, top: Optional[int],
                 names: OutcomeNames) -> Tuple[SpanDiff, ExampleContext]:
    """Transitions of gold spans (A outcome → B outcome) and of spurious spans under one outcome
    vocabulary; also the per-unit arrays the examples need."""
    ta, tb = oa.gold_type, ob.gold_type
    G = len(names.gold)
    same_ab = _identical(sides.a, sides.b)
    changed, g_cls, other = _gold_changes(oa, ob, same_ab, names.correct)
    spu = names.system.index(names.spurious)
    sp = _spurious(oa.system_type == spu, ob.system_type == spu, same_ab)
    n_gold = len(sides.gold)
    n_spurious = len(sp.fp_a) + len(sp.added)
    n_diff = int(np.count_nonzero(changed)) + len(sp.dropped) + len(sp.added)
    matrix = np.zeros((G, G), np.int64)
    np.add.at(matrix, (ta, tb), 1)
    cc = np.bincount(ta[other & (ta == tb)], minlength=G)
    gold_key = ta * names.w + tb
    sd = SpanDiff(
        a, b, n_gold, n_spurious, n_diff, _ratio(n_diff, n_gold + n_spurious),
        _outcome_counts(oa, names), _outcome_counts(ob, names), matrix.tolist(),
        {names.key(n): int(cc[k]) for k, n in enumerate(names.gold) if n != names.fixed},
        _classes(gold_key, g_cls, sp, n_diff, top, names),
        _label_rows(sides, oa, ob, changed, g_cls, gold_key, sp, names),
        {ARROW.join(names.name(names.dropped)): len(sp.dropped),
         ARROW.join(names.name(names.added)): len(sp.added), f"{names.spurious} kept": int(sp.kept.sum())},
        names.gold)
    return sd, ExampleContext(gold_key, g_cls, sp.dropped, sp.added)
