"""Counting Ortmann's error types of one system against gold (:func:`fair_errors`).

Candidate pairs come from :func:`ts_eval.core.matching.match`; only the shrinking token
sets are the algorithm's own state.  1:1 exact matches, spans without any
overlapping counterpart and isolated 1:1 overlaps are resolved with numpy; only
clusters of several mutually overlapping spans (and, where the result depends on
list neighbours, whole sentences) run the sequential Algorithm 2 of
:mod:`ts_eval.fair.sequential`.  The events are then tallied by :mod:`ts_eval.fair.tally`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.arrays import overlap_clusters, unique
from ..core.corpus import Corpus, SpanSet
from ..core.matching import Pairs, match
from ..errors import OptionError
from .sequential import _resolve
from .tally import _sent_offsets, _sentence_of, _tally, outcomes_of_events
from .types import BEL, BEO, BES, BOTH, FN, FOCUS, FP, GOLD_ONLY, LBE, LE, MODES, SYSTEM_ONLY, TP, FairResult

if TYPE_CHECKING:   # types only: token sets come from the FairEval reader, never made here
    from numpy.typing import ArrayLike

    from ..core.tokensets import TokenSets
    from .types import SpanOutcomes

#: a group the sequential algorithm resolves: gold span indices, system span indices,
#: and whether its TP step must run there (sentences with repeated identical spans)
Unit = Tuple[np.ndarray, np.ndarray, bool]


class _Side:
    """One side's spans with what the algorithm keeps beside them."""

    __slots__ = ("done", "order", "sent", "spans", "tokens")

    def __init__(self, spans: SpanSet, sent: np.ndarray, order: np.ndarray, tokens: Optional[TokenSets],
                 done: np.ndarray) -> None:
        self.spans = spans
        self.sent = sent            # sentence of every span
        self.order = order          # input position of every span (the reference breaks ties by it)
        self.tokens = tokens        # token sets that are not the whole range
        self.done = done            # span already counted (updated as events are added)


def _side(spans: SpanSet, sentences: Union[Corpus, np.ndarray, Sequence[int]], order: Optional[np.ndarray],
          tokens: Optional[TokenSets]) -> _Side:
    n = len(spans)
    pos = np.arange(n, dtype=np.int64) if order is None else np.asarray(order, np.int64)
    return _Side(spans, _sentence_of(sentences, spans.start), pos, tokens, np.zeros(n, bool))


class _Events:
    """Outcome events in parts: (gold index, system index, outcome code, BOTH|GOLD_ONLY|SYSTEM_ONLY)."""

    def __init__(self) -> None:
        self.parts: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, g: ArrayLike, s: ArrayLike, code: ArrayLike, kind: ArrayLike) -> None:
        g = np.asarray(g, np.int64)
        n = len(g)
        self.parts.append((g, np.asarray(s, np.int64), np.broadcast_to(np.asarray(code, np.int8), (n,)),
                           np.broadcast_to(np.asarray(kind, np.int8), (n,))))

    def arrays(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(gold index, system index, code as int64, kind) over all events."""
        eg = np.concatenate([p[0] for p in self.parts])
        es = np.concatenate([p[1] for p in self.parts])
        ec = np.concatenate([p[2] for p in self.parts]).astype(np.int64)
        ek = np.concatenate([p[3] for p in self.parts])
        return eg, es, ec, ek


def _flags(idx: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n, bool)
    out[idx] = True
    return out


def _be_type_vec(tb: np.ndarray, te: np.ndarray, sb: np.ndarray, se: np.ndarray) -> np.ndarray:
    """The sequential ``_be_type`` over arrays (the isolated 1:1 overlaps resolved without the loop)."""
    return np.where(sb == tb, np.where(se < te, BES, BEL),
                    np.where(sb < tb, np.where(se < te, BEO, BEL),
                             np.where(se <= te, BES, BEO))).astype(np.int8)


def _bits(ss: SpanSet, idx: np.ndarray, base: np.ndarray, tokens: Optional[TokenSets]) -> List[int]:
    """Token sets of spans ``idx`` as Python-int bit sets relative to ``base`` (their sentence start)."""
    st = (ss.start[idx] - base).tolist()
    ln = (ss.last[idx] - ss.start[idx] + 1).tolist()
    out = [((1 << n) - 1) << a for a, n in zip(st, ln)]
    if tokens is not None and len(tokens):
        pos = np.searchsorted(tokens.span, idx)
        pos = np.minimum(pos, len(tokens.span) - 1)
        hit = np.flatnonzero(tokens.span[pos] == idx)
        for k in hit.tolist():
            j = int(pos[k])
            b = int(base[k])
            v = 0
            for tok in tokens.tokens[tokens.ptr[j]:tokens.ptr[j + 1]].tolist():
                v |= 1 << (tok - b)
            out[k] = v
    return out


def _same_tokens(pairs_g: np.ndarray, pairs_s: np.ndarray, gold: SpanSet, system: SpanSet,
                 gt: Optional[TokenSets], st: Optional[TokenSets]) -> np.ndarray:
    """For (gold, system) pairs with the same range: do their token sets agree?"""
    out = np.ones(len(pairs_g), bool)
    for k, (g, s) in enumerate(zip(pairs_g.tolist(), pairs_s.tolist())):
        a = gt.get(g) if gt is not None else None
        b = st.get(s) if st is not None else None
        if a is None:
            a = np.arange(gold.start[g], gold.last[g] + 1)
        if b is None:
            b = np.arange(system.start[s], system.last[s] + 1)
        out[k] = len(a) == len(b) and bool(np.all(a == b))
    return out


def _check_options(focus: str, mode: str, units: str) -> None:
    if focus not in FOCUS:
        raise OptionError(f"focus {focus!r}: expected one of {', '.join(FOCUS)}")
    if mode not in MODES:
        raise OptionError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    if units not in ("cluster", "sentence"):
        raise OptionError(f"_units {units!r}: expected 'cluster' or 'sentence'")


def fair_errors(
    gold: SpanSet,
    system: SpanSet,
    pairs: Optional[Pairs],
    labels: Sequence[str],
    sentences: Union[Corpus, np.ndarray, Sequence[int]],
    *,
    focus: str = "target",
    gold_tokens: Optional[TokenSets] = None,
    system_tokens: Optional[TokenSets] = None,
    gold_order: Optional[np.ndarray] = None,
    system_order: Optional[np.ndarray] = None,
    mode: str = "paper",
    per_sentence: bool = True,
    _units: str = "cluster",
) -> FairResult:
    """Count Ortmann's error types of ``system`` against ``gold``.

    ``pairs`` is ``matching.match(gold, system)`` (computed when None);
    ``sentences`` a Corpus or its ``sent_offsets``.  ``focus`` decides whether LE
    and LBE count for the target (gold) label or the system label.  The optional
    token sets give spans whose tokens are not their whole range (ignore_punct);
    the optional orders give each span's position in the input (the reference
    breaks ties by it; default: the SpanSet order, i.e. left to right).  ``per_sentence`` False:
    the result's ``sentence_counts`` are not made (the totals are counted without them).
    """
    _check_options(focus, mode, _units)
    g = _side(gold, sentences, gold_order, gold_tokens)
    s = _side(system, sentences, system_order, system_tokens)
    if len(g.order) != len(gold) or len(s.order) != len(system):
        raise OptionError("gold_order / system_order must give one position per span")
    ev, trad_g, trad_s = _events(g, s, match(gold, system) if pairs is None else pairs, sentences, mode, _units)
    return _tally(gold, system, labels, focus, mode, sentences, *ev.arrays(), trad_g, trad_s, g.order, per_sentence)


def fair_outcomes(gold: SpanSet, system: SpanSet, pairs: Pairs, sentences: Union[Corpus, np.ndarray, Sequence[int]],
                  mode: str = "paper") -> SpanOutcomes:
    """What :func:`fair_errors` counts every span as (its ``span_outcomes``: spans in the SpanSet order, no token
    sets), without the counts made of them."""
    _check_options("target", mode, "cluster")
    g, s = _side(gold, sentences, None, None), _side(system, sentences, None, None)
    ev = _events(g, s, pairs, sentences, mode, "cluster")[0]
    return outcomes_of_events(len(gold), len(system), *ev.arrays())


def _events(g: _Side, s: _Side, pairs: Pairs, sentences: Union[Corpus, np.ndarray, Sequence[int]], mode: str,
            _units: str) -> Tuple[_Events, np.ndarray, np.ndarray]:
    """Every outcome event of Algorithm 2 over the sides ``g`` and ``s`` (marked done as they are counted), and
    which gold and which system spans are correct the traditional way."""
    gold, system = g.spans, s.spans
    offsets = _sent_offsets(sentences)
    skip = mode == "faireval-skip"
    pg, ps = pairs.gold, pairs.system
    exact = _exact_pairs(pairs, g, s)
    # traditional: a span is correct when an identical span exists on the other side
    trad_g, trad_s = _flags(pg[exact], len(gold)), _flags(ps[exact], len(system))

    ev = _Events()
    dup = _take_tps(pairs, exact, g, s, max(len(offsets) - 1, 1), ev)
    rem = ~g.done[pg] & ~s.done[ps] & ~dup[g.sent[pg]]
    # sentences the sequential algorithm runs on as a whole: those with repeated identical
    # spans, and in skip mode every sentence with an unresolved overlap (the skipped span
    # depends on list neighbours)
    whole = dup.copy()
    if skip or _units == "sentence":
        whole[g.sent[pg[rem]]] = True
        rem[:] = False
    units = _sentence_units(whole, dup, g, s)
    if rem.any():
        units += _cluster_units(pg[rem], ps[rem], g, s, ev)
    _run_sequential(units, g, s, offsets, skip, ev)
    # no counterpart at all
    fn = np.flatnonzero(~g.done)
    fp = np.flatnonzero(~s.done)
    ev.add(fn, np.full(len(fn), -1), FN, GOLD_ONLY)
    ev.add(np.full(len(fp), -1), fp, FP, SYSTEM_ONLY)
    return ev, trad_g, trad_s


def _exact_pairs(pairs: Pairs, g: _Side, s: _Side) -> np.ndarray:
    """The matcher's exact flags, withdrawn where the two token sets differ (same range, other tokens)."""
    pg, ps = pairs.gold, pairs.system
    # same label and the same tokens (not pairs.exact: under the conlleval scheme that is
    # conlleval.pl's correct-chunk verdict, which may pair spans whose ends differ)
    exact: np.ndarray = pairs.same_label & (pairs.gold_only == 0) & (pairs.system_only == 0)
    gt, st = g.tokens, s.tokens
    ng, ns = len(g.spans), len(s.spans)
    if (gt is not None and len(gt)) or (st is not None and len(st)):
        g_irr = gt.irregular(ng) if gt is not None else np.zeros(ng, bool)
        s_irr = st.irregular(ns) if st is not None else np.zeros(ns, bool)
        chk = np.flatnonzero(exact & (g_irr[pg] | s_irr[ps]))
        if len(chk):
            exact[chk] = _same_tokens(pg[chk], ps[chk], g.spans, s.spans, gt, st)
    return exact


def _take_tps(pairs: Pairs, exact: np.ndarray, g: _Side, s: _Side, n_sent: int, ev: _Events) -> np.ndarray:
    """Count the exact pairs as TP (marking both spans done), except in sentences where an
    identical span is repeated on one side: there the sequential TP step matches them as
    a multiset.  Returns those sentences as a mask."""
    pg, ps = pairs.gold, pairs.system
    n_ex_g = np.bincount(pg[exact], minlength=len(g.spans))
    n_ex_s = np.bincount(ps[exact], minlength=len(s.spans))
    dup = np.zeros(n_sent, bool)
    dup[g.sent[n_ex_g > 1]] = True
    dup[s.sent[n_ex_s > 1]] = True
    ex_ok = exact & ~dup[g.sent[pg]]
    g.done[pg[ex_ok]] = True
    s.done[ps[ex_ok]] = True
    ev.add(pg[ex_ok], ps[ex_ok], TP, BOTH)
    return dup


def _sentence_units(whole: np.ndarray, dup: np.ndarray, g: _Side, s: _Side) -> List[Unit]:
    """Whole sentences as units: every span there not yet counted as TP (in sentences with
    repeated identical spans none is, and the TP step runs inside the sequential part)."""
    units: List[Unit] = []
    sents = np.flatnonzero(whole)
    if not len(sents):
        return units
    gsel = np.flatnonzero(whole[g.sent] & ~g.done)
    ssel = np.flatnonzero(whole[s.sent] & ~s.done)
    g.done[gsel] = True
    s.done[ssel] = True
    g_lo, g_hi = np.searchsorted(g.sent[gsel], sents), np.searchsorted(g.sent[gsel], sents, side="right")
    s_lo, s_hi = np.searchsorted(s.sent[ssel], sents), np.searchsorted(s.sent[ssel], sents, side="right")
    for k, sent in enumerate(sents.tolist()):
        units.append((gsel[g_lo[k]:g_hi[k]], ssel[s_lo[k]:s_hi[k]], bool(dup[sent])))
    return units


def _cluster_units(rg: np.ndarray, rs: np.ndarray, g: _Side, s: _Side, ev: _Events) -> List[Unit]:
    """Clusters of mutually overlapping spans (paper mode), independent of each other:
    1:1 clusters are counted here (LE, BE or LBE straight from the pair); the others are
    returned as units for the sequential algorithm."""
    gold, system = g.spans, s.spans
    mg = unique(rg)
    ms = unique(rs)
    st = np.concatenate((gold.start[mg], system.start[ms]))
    en = np.concatenate((gold.last[mg], system.last[ms]))
    side = np.concatenate((np.zeros(len(mg), np.int8), np.ones(len(ms), np.int8)))
    idx = np.concatenate((mg, ms))
    o = np.lexsort((en, st))
    st, en, side, idx = st[o], en[o], side[o], idx[o]
    cid = overlap_clusters(st, en)
    ncl = int(cid[-1]) + 1
    n_g = np.bincount(cid, weights=(side == 0), minlength=ncl).astype(np.int64)
    n_s = np.bincount(cid, weights=(side == 1), minlength=ncl).astype(np.int64)
    one = ((n_g == 1) & (n_s == 1))[cid]
    _one_to_one_clusters(idx[one & (side == 0)], idx[one & (side == 1)], g, s, ev)
    multi = ~one
    if _regular(g) and _regular(s):
        two = ((n_g == 1) & (n_s == 2))[cid]
        _one_to_two_clusters(idx[two & (side == 0)], idx[two & (side == 1)].reshape(-1, 2), g, s, ev)
        multi &= ~two
    if not multi.any():
        return []
    mc, mside, midx = cid[multi], side[multi], idx[multi]
    order_key = np.where(mside == 0, g.order[np.where(mside == 0, midx, 0)],
                         s.order[np.where(mside == 1, midx, 0)])
    o = np.lexsort((order_key, mside, mc))
    mc, mside, midx = mc[o], mside[o], midx[o]
    cuts = np.flatnonzero(np.diff(mc)) + 1
    starts = np.concatenate(([0], cuts))
    stops = np.concatenate((cuts, [len(mc)]))
    units: List[Unit] = []
    for a, b in zip(starts.tolist(), stops.tolist()):
        sd = mside[a:b]
        ix = midx[a:b]
        units.append((ix[sd == 0], ix[sd == 1], False))
    g.done[midx[mside == 0]] = True
    s.done[midx[mside == 1]] = True
    return units


def _one_to_one_clusters(g1: np.ndarray, s1: np.ndarray, g: _Side, s: _Side, ev: _Events) -> None:
    """Clusters of one gold and one system span (both lists in cluster order, so g1[k] and
    s1[k] belong together): LE, BE or LBE straight from the pair."""
    if not len(g1):
        return
    gold, system = g.spans, s.spans
    gb, ge, sb, se = gold.start[g1], gold.last[g1], system.start[s1], system.last[s1]
    same_lab = gold.label[g1] == system.label[s1]
    same_rng = (gb == sb) & (ge == se)
    code = np.where(same_rng, LE, np.where(same_lab, _be_type_vec(gb, ge, sb, se), LBE)).astype(np.int8)
    ok = ~(same_rng & same_lab)     # same range and label but other tokens: FN + FP
    ev.add(g1[ok], s1[ok], code[ok], BOTH)
    g.done[g1[ok]] = True
    s.done[s1[ok]] = True


def _regular(side: _Side) -> bool:
    """Every span of the side holds all the tokens of its range (bit sets are ranges)."""
    return side.tokens is None or not len(side.tokens.span)


def _overlap(b1: np.ndarray, e1: np.ndarray, b2: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """Tokens two inclusive ranges share."""
    shared: np.ndarray = np.maximum(np.minimum(e1, e2) - np.maximum(b1, b2) + 1, 0)
    return shared


def _candidate(tb: np.ndarray, te: np.ndarray, xb: np.ndarray, xe: np.ndarray) -> np.ndarray:
    """System spans (first token ``xb``, last ``xe``) that overlap the gold span with another range."""
    ok: np.ndarray = ~((xb == tb) & (xe == te)) & (xb <= te) & (xe >= tb)
    return ok


def _similarity(tb: np.ndarray, te: np.ndarray, nt: np.ndarray, xb: np.ndarray, xe: np.ndarray
                ) -> Tuple[np.ndarray, ...]:
    """How similar system spans are to the gold span (of ``nt`` tokens), most similar the smallest key."""
    inter = _overlap(tb, te, xb, xe)
    return (-inter, nt - inter, (xe - xb + 1) - inter, xe - xb)


def _smaller(a: Tuple[np.ndarray, ...], b: Tuple[np.ndarray, ...]) -> np.ndarray:
    """Where key ``a`` is smaller than key ``b`` (min keeps b among equal keys)."""
    less = np.zeros(len(a[0]), bool)
    same = np.ones(len(a[0]), bool)
    for x, y in zip(a, b):
        less |= same & (x < y)
        same &= x == y
    return less


def _one_to_two_clusters(t: np.ndarray, pairs: np.ndarray, g: _Side, s: _Side, ev: _Events) -> None:
    """Clusters of one gold span ``t[k]`` and two system spans ``pairs[k]`` (nine in ten of the clusters
    Algorithm 2 runs on), every span holding the whole of its range: :func:`ts_eval.fair.sequential._resolve`
    step by step, over all of them at once.

    Step 1: a system span with the gold range and another label (the first in input order) is its LE, the
    other system span an FP.  Otherwise the system spans are taken shortest first (input order among equal
    lengths): the most similar same-label one that overlaps the gold span with another range is its
    boundary error (BOTH); failing that, the most similar other-label one its LBE (BOTH).  The remaining
    system span is then counted against the gold span (SYSTEM_ONLY) when it shares tokens the first match
    left: a boundary error with the same label (only after a same-label match), an LBE with another;
    else it is an FP.  Nothing matched: FN and two FPs.  ``tests/test_fair.py`` holds this to the
    sequential algorithm on random clusters."""
    if not len(t):
        return
    gold, system = g.spans, s.spans
    swap = s.order[pairs[:, 0]] > s.order[pairs[:, 1]]
    a = np.where(swap, pairs[:, 1], pairs[:, 0])            # input order
    b = np.where(swap, pairs[:, 0], pairs[:, 1])
    tb, te, tl = gold.start[t], gold.last[t], gold.label[t]
    ab, ae, al = system.start[a], system.last[a], system.label[a]
    bb, be, bl = system.start[b], system.last[b], system.label[b]
    gi, si, codes, kinds = [], [], [], []

    def add(mask: np.ndarray, gx: Optional[np.ndarray], sx: Optional[np.ndarray], code: Union[int, np.ndarray],
            kind: int) -> None:
        """Events of the clusters in ``mask``; None: no span on that side."""
        gi.append(gx[mask] if gx is not None else np.full(int(mask.sum()), -1))
        si.append(sx[mask] if sx is not None else np.full(int(mask.sum()), -1))
        codes.append(np.broadcast_to(code, mask.shape)[mask])
        kinds.append(np.full(int(mask.sum()), kind, np.int8))

    # step 1: LE (the first system span in input order with the gold range and another label)
    le_a = (al != tl) & (ab == tb) & (ae == te)
    le_b = ~le_a & (bl != tl) & (bb == tb) & (be == te)
    le = le_a | le_b
    add(le, t, np.where(le_a, a, b), LE, BOTH)
    add(le, None, np.where(le_a, b, a), FP, SYSTEM_ONLY)
    # shortest first, input order among equal lengths
    first_b = (be - bb) < (ae - ab)
    p, q = np.where(first_b, b, a), np.where(first_b, a, b)
    pb, pe, pl = system.start[p], system.last[p], system.label[p]
    qb, qe, ql = system.start[q], system.last[q], system.label[q]
    nt = te - tb + 1

    cp, cq = _candidate(tb, te, pb, pe), _candidate(tb, te, qb, qe)
    kp, kq = _similarity(tb, te, nt, pb, pe), _similarity(tb, te, nt, qb, qe)
    rest = ~le
    matched = np.zeros(len(t), bool)
    for same_label in (True, False):
        okp = rest & ~matched & cp & ((pl == tl) == same_label)
        okq = rest & ~matched & cq & ((ql == tl) == same_label)
        take_q = okq & (~okp | _smaller(kq, kp))
        hit = okp | okq
        mb, me = np.where(take_q, qb, pb), np.where(take_q, qe, pe)
        m, o = np.where(take_q, q, p), np.where(take_q, p, q)
        ob, oe, ol = np.where(take_q, pb, qb), np.where(take_q, pe, qe), np.where(take_q, pl, ql)
        add(hit, t, m, _be_type_vec(tb, te, mb, me) if same_label else LBE, BOTH)
        # the other system span against the matched gold span: tokens of it the match left
        left = (_overlap(tb, te, ob, oe) - np.maximum(np.minimum(np.minimum(oe, te), me)
                                                     - np.maximum(np.maximum(ob, tb), mb) + 1, 0)) > 0
        second = hit & _candidate(tb, te, ob, oe) & left
        be_o = second & (ol == tl) & same_label            # a same-label pass comes only after a same-label match
        lbe_o = second & (ol != tl)
        add(be_o, t, o, _be_type_vec(tb, te, ob, oe), SYSTEM_ONLY)
        add(lbe_o, t, o, LBE, SYSTEM_ONLY)
        add(hit & ~(be_o | lbe_o), None, o, FP, SYSTEM_ONLY)
        matched |= hit
    none = rest & ~matched
    add(none, t, None, FN, GOLD_ONLY)
    add(none, None, p, FP, SYSTEM_ONLY)
    add(none, None, q, FP, SYSTEM_ONLY)
    ev.add(np.concatenate(gi), np.concatenate(si), np.concatenate(codes), np.concatenate(kinds))
    g.done[t] = True
    s.done[pairs.ravel()] = True


def _run_sequential(units: List[Unit], g: _Side, s: _Side, offsets: np.ndarray, skip: bool,
                    ev: _Events) -> None:
    """Algorithm 2 on every unit, each side in input order (the reference's list order)."""
    if not units:
        return
    gold, system = g.spans, s.spans
    all_g = np.concatenate([u[0] for u in units])
    all_s = np.concatenate([u[1] for u in units])
    gl, gb_, ge_ = gold.label[all_g].tolist(), gold.start[all_g].tolist(), gold.last[all_g].tolist()
    gbits = _bits(gold, all_g, offsets[g.sent[all_g]], g.tokens)
    sl, sb_, se_ = system.label[all_s].tolist(), system.start[all_s].tolist(), system.last[all_s].tolist()
    sbits = _bits(system, all_s, offsets[s.sent[all_s]], s.tokens)
    gix, six = all_g.tolist(), all_s.tolist()
    gord, sord = g.order[all_g].tolist(), s.order[all_s].tolist()
    out: List[Tuple[int, int, int, int]] = []
    gpos = spos = 0
    for ug, us, do_tp in units:
        a, b = gpos, gpos + len(ug)
        c, d = spos, spos + len(us)
        gpos, spos = b, d
        T = [[gl[k], gb_[k], ge_[k], gbits[k], gix[k]] for k in sorted(range(a, b), key=gord.__getitem__)]
        S = [[sl[k], sb_[k], se_[k], sbits[k], six[k]] for k in sorted(range(c, d), key=sord.__getitem__)]
        _resolve(T, S, do_tp, skip, out)
    if out:
        arr = np.array(out, np.int64)
        ev.add(arr[:, 0], arr[:, 1], arr[:, 2].astype(np.int8), arr[:, 3].astype(np.int8))


def fair_corpus(corpus: Corpus, system: Optional[str] = None, *, focus: str = "target",
                gold_tokens: Optional[TokenSets] = None, system_tokens: Optional[TokenSets] = None,
                gold_order: Optional[np.ndarray] = None, system_order: Optional[np.ndarray] = None,
                mode: str = "paper", pairs: Optional[Pairs] = None) -> FairResult:
    """:func:`fair_errors` for one system of a Corpus (the only one when ``system`` is None)."""
    if system is None:
        if len(corpus.systems) != 1:
            raise OptionError(f"the corpus has {len(corpus.systems)} systems; name one of "
                              f"{', '.join(corpus.systems)}")
        system = next(iter(corpus.systems))
    ss = corpus.systems[system]
    return fair_errors(corpus.gold, ss, pairs if pairs is not None else match(corpus.gold, ss), corpus.labels,
                       corpus, focus=focus, gold_tokens=gold_tokens, system_tokens=system_tokens,
                       gold_order=gold_order, system_order=system_order, mode=mode)
