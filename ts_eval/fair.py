"""Ortmann's (2022) fair error types for labelled spans: TP, FP, FN, LE, BE (BES, BEL, BEO), LBE.

Traditional span scoring counts a span with the right label but wrong boundaries
twice (one FP and one FN).  Algorithm 2 of the paper counts every gold ("target")
and every system span exactly once, as one of

* TP  - same label, same span;             LE  - same span, other label;
* BE  - same label, overlapping span, split into BES (system span smaller),
  BEL (larger) and BEO (overlapping, no boundary shared);
* LBE - other label, overlapping span;     FN / FP - no counterpart at all.

The decisions follow the reference implementation (rubcompling/FairEval) step by
step: 1:1 mappings first (TP, then LE), then boundary errors, then labelling-
boundary errors, then FN/FP.  Within a sentence the spans are sorted by length
(stable, so ties keep the input order); each BE/LBE stage makes three passes
(unmatched target x unmatched system, unmatched target x matched system,
unmatched system x matched target); the most similar counterpart wins (most
shared tokens, fewest target-only tokens, fewest system-only tokens, shortest,
first in the list), and the token sets of matched spans shrink so a span can
absorb several counterparts without being counted twice.

Candidate pairs come from :func:`ts_eval.matching.match`; only the shrinking
token sets are the algorithm's own state.  1:1 exact matches, spans without any
overlapping counterpart and isolated 1:1 overlaps are resolved with numpy; only
clusters of several mutually overlapping spans run the sequential algorithm.

Two modes:

``paper`` (default)
    every span is visited in every pass.  Reproduces the paper's Tables 1 and 2
    and Figure 2, and the result files published with it.
``faireval-skip``
    the current public FairEval.py iterates over Python lists while removing the
    matched span, which skips the span after every match in each pass; this mode
    reproduces that behaviour (and so that tool's current output) exactly.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .arrays import unique

from .corpus import Corpus, SpanSet
from .matching import Pairs, match

# ---------------------------------------------------------------------------
# error types and outcome codes

#: columns of :attr:`FairResult.fair` (BE = BES + BEL + BEO)
ERROR_TYPES: Tuple[str, ...] = ("TP", "FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE")
#: columns of :attr:`FairResult.traditional`
TRADITIONAL_TYPES: Tuple[str, ...] = ("TP", "FP", "FN")

# per-span outcome codes (BE itself is never an outcome, only its three subtypes)
TP, FP, FN, LE, BES, BEL, BEO, LBE = range(8)
OUTCOME_NAMES: Tuple[str, ...] = ("TP", "FP", "FN", "LE", "BES", "BEL", "BEO", "LBE")
# an outcome event consumes both spans, only the gold span, or only the system span
BOTH, GOLD_ONLY, SYSTEM_ONLY = 0, 1, 2

MODES: Tuple[str, ...] = ("paper", "faireval-skip")
FOCUS: Tuple[str, ...] = ("target", "system")
MISSING = "_"   # the confusion-matrix label for "no counterpart"


# ---------------------------------------------------------------------------
# token sets that are not the whole start..end range

@dataclass
class TokenSets:
    """Explicit token sets (global token indices) for the spans of one side whose set
    is not their whole ``start..end`` range (e.g. punctuation removed, or a span file
    listing fewer tokens).  Spans not listed own every token of their range."""

    span: np.ndarray     # sorted span indices (into the SpanSet)
    ptr: np.ndarray      # len(span) + 1 offsets into ``tokens``
    tokens: np.ndarray   # global token indices, sorted within each span

    @staticmethod
    def empty() -> "TokenSets":
        z = np.zeros(0, np.int64)
        return TokenSets(z, np.zeros(1, np.int64), z.copy())

    def __len__(self) -> int:
        return len(self.span)

    def irregular(self, n_spans: int) -> np.ndarray:
        """Boolean mask over the side's spans: True where the token set is explicit."""
        mask = np.zeros(n_spans, bool)
        mask[self.span] = True
        return mask

    def get(self, k: int) -> Optional[np.ndarray]:
        """The token set of span ``k``, or None when it is the whole range."""
        i = int(np.searchsorted(self.span, k))
        if i < len(self.span) and self.span[i] == k:
            return self.tokens[self.ptr[i]:self.ptr[i + 1]]
        return None

    @staticmethod
    def from_mask(spans: SpanSet, excluded: np.ndarray) -> "TokenSets":
        """Token sets = each span's range minus the tokens where ``excluded`` is True."""
        excluded = np.asarray(excluded, bool)
        cum = np.concatenate(([0], np.cumsum(excluded, dtype=np.int64)))
        holes = cum[spans.end + 1] - cum[spans.start]
        idx = np.flatnonzero(holes > 0)
        if not len(idx):
            return TokenSets.empty()
        st, en = spans.start[idx], spans.end[idx]
        lens = en - st + 1
        first = np.repeat(st - np.concatenate(([0], np.cumsum(lens)[:-1])), lens)
        toks = first + np.arange(int(lens.sum()))
        keep = ~excluded[toks]
        kept_per = np.add.reduceat(keep.astype(np.int64), np.concatenate(([0], np.cumsum(lens)[:-1])))
        return TokenSets(idx.astype(np.int64), np.concatenate(([0], np.cumsum(kept_per))).astype(np.int64),
                         toks[keep].astype(np.int64))

    @staticmethod
    def from_dict(sets: Mapping[int, Iterable[int]]) -> "TokenSets":
        """From ``{span index: token indices}`` (global token indices)."""
        if not sets:
            return TokenSets.empty()
        keys = sorted(sets)
        arrays = [np.unique(np.asarray(list(sets[k]), np.int64)) for k in keys]
        ptr = np.concatenate(([0], np.cumsum([len(a) for a in arrays]))).astype(np.int64)
        return TokenSets(np.asarray(keys, np.int64), ptr,
                         np.concatenate(arrays) if arrays else np.zeros(0, np.int64))


# ---------------------------------------------------------------------------
# results

@dataclass
class SpanOutcomes:
    """What every span was counted as, and its counterpart.

    ``gold_type[i]`` is an outcome code (see ``OUTCOME_NAMES``) and
    ``gold_partner[i]`` the system span it was matched with (-1 for FN); the same
    for system spans (-1 for FP).  ``gold_shared[i]`` is False when the gold span
    was matched to a system span that had already been counted with another gold
    span (the second and third passes of Algorithm 2): such an error is counted
    once, for the span that joined later.
    """

    gold_type: np.ndarray
    gold_partner: np.ndarray
    gold_shared: np.ndarray
    system_type: np.ndarray
    system_partner: np.ndarray
    system_shared: np.ndarray

    def rows(self, gold: SpanSet, system: SpanSet, labels: Sequence[str],
             sent_offsets: Optional[np.ndarray] = None) -> List[dict]:
        """One plain dict per span (gold first): side, index, label, start, end, type, partner."""
        out = []
        for side, ss, typ, partner, shared in (
                ("gold", gold, self.gold_type, self.gold_partner, self.gold_shared),
                ("system", system, self.system_type, self.system_partner, self.system_shared)):
            sent = (np.searchsorted(sent_offsets, ss.start, side="right") - 1
                    if sent_offsets is not None else None)
            for i in range(len(ss)):
                row = {"side": side, "index": i, "label": labels[int(ss.label[i])],
                       "start": int(ss.start[i]), "end": int(ss.end[i]),
                       "type": OUTCOME_NAMES[int(typ[i])], "partner": int(partner[i]),
                       "shared": bool(shared[i])}
                if sent is not None:
                    row["sentence"] = int(sent[i])
                out.append(row)
        return out


@dataclass
class FairResult:
    """Counts of one system against gold: fair error types, traditional TP/FP/FN,
    confusion matrix, target label statistics and per-span outcomes."""

    labels: List[str]
    focus: str
    mode: str
    fair: np.ndarray          # (L, 9) int64, columns ERROR_TYPES
    traditional: np.ndarray   # (L, 3) int64, columns TRADITIONAL_TYPES
    confusion: np.ndarray     # (L+1, L+1) int64, rows gold, columns system; index L is "_"
    gold_count: np.ndarray    # (L,) gold spans per label
    system_count: np.ndarray  # (L,) system spans per label
    label_first: np.ndarray   # (L,) first appearance of the label in the gold input (for the stats order)
    outcomes: SpanOutcomes

    @property
    def present(self) -> np.ndarray:
        """Labels with at least one gold or system span (the reference lists only these)."""
        return (self.gold_count + self.system_count) > 0

    def counts(self, label: Optional[str] = None) -> Dict[str, int]:
        """Fair counts of one label, or overall (label None)."""
        row = self.fair.sum(axis=0) if label is None else self.fair[self.labels.index(label)]
        return dict(zip(ERROR_TYPES, (int(v) for v in row)))

    def traditional_counts(self, label: Optional[str] = None) -> Dict[str, int]:
        row = self.traditional.sum(axis=0) if label is None else self.traditional[self.labels.index(label)]
        return dict(zip(TRADITIONAL_TYPES, (int(v) for v in row)))

    def target_stats(self) -> List[Tuple[str, int, float]]:
        """(label, gold spans, percent of all gold spans) in order of first appearance in the gold input."""
        total = int(self.gold_count.sum())
        keep = np.flatnonzero(self.gold_count > 0)
        keep = keep[np.argsort(self.label_first[keep], kind="stable")]
        return [(self.labels[k], int(self.gold_count[k]), 100.0 * int(self.gold_count[k]) / total if total else 0.0)
                for k in keep.tolist()]

    def confusion_dict(self) -> Dict[str, Dict[str, int]]:
        """``{target label: {system label: count}}`` over the present labels and ``_``."""
        idx = np.flatnonzero(self.present).tolist() + [len(self.labels)]
        names = [self.labels[k] for k in idx[:-1]] + [MISSING]
        return {names[a]: {names[b]: int(self.confusion[i, j]) for b, j in enumerate(idx)}
                for a, i in enumerate(idx)}


# ---------------------------------------------------------------------------
# the algorithm

def _be_type(tb: int, te: int, sb: int, se: int) -> int:
    """BES / BEL / BEO of system span sb..se relative to target span tb..te (overlapping, not identical)."""
    if sb == tb:
        return BES if se < te else BEL
    if sb < tb:
        return BEO if se < te else BEL
    return BES if se <= te else BEO


def _be_type_vec(tb, te, sb, se) -> np.ndarray:
    """:func:`_be_type` over arrays (the isolated 1:1 overlaps resolved without the loop)."""
    return np.where(sb == tb, np.where(se < te, BES, BEL),
                    np.where(sb < tb, np.where(se < te, BEO, BEL),
                             np.where(se <= te, BES, BEO))).astype(np.int8)


def _best(x: list, cands: list) -> list:
    """The most similar candidate for span x (first of the equally similar ones).

    Similarity: most shared tokens, fewest tokens only in x, fewest only in the
    candidate, shortest candidate (by its begin/end), earliest in the list.
    """
    if len(cands) == 1:
        return cands[0]
    xb = x[3]
    nx = xb.bit_count()
    best, bkey = None, None
    for c in cands:
        inter = (xb & c[3]).bit_count()
        key = (-inter, nx - inter, c[3].bit_count() - inter, c[2] - c[1])
        if bkey is None or key < bkey:
            best, bkey = c, key
    return best


def _resolve(T: list, S: list, do_tp: bool, skip: bool, ev: list) -> None:
    """Algorithm 2 on one independent group of spans (lists in input order).

    A span is ``[label, begin, end, token_bits, index]``.  Appends events
    ``(gold index, system index, outcome code, BOTH|GOLD_ONLY|SYSTEM_ONLY)`` to ``ev``.
    """
    # step 1: identical spans (TP), then identical ranges with other labels (LE)
    if do_tp:
        tps = [t for t in T if any(t[0] == s[0] and t[1] == s[1] and t[2] == s[2] and t[3] == s[3] for s in S)]
        for t in tps:
            for s in S:
                if t[0] == s[0] and t[1] == s[1] and t[2] == s[2] and t[3] == s[3]:
                    ev.append((t[4], s[4], TP, BOTH))
                    S.remove(s)
                    T.remove(t)
                    break
    les = [t for t in T if any(t[0] != s[0] and t[1] == s[1] and t[2] == s[2] for s in S)]
    for t in les:
        for s in S:
            if t[0] != s[0] and t[1] == s[1] and t[2] == s[2]:
                ev.append((t[4], s[4], LE, BOTH))
                S.remove(s)
                T.remove(t)
                break
    if not T or not S:
        for t in T:
            ev.append((t[4], -1, FN, GOLD_ONLY))
        for s in S:
            ev.append((-1, s[4], FP, SYSTEM_ONLY))
        return

    # shortest spans first; stable, so equally long spans keep the input order
    T.sort(key=lambda x: x[2] - x[1])
    S.sort(key=lambda x: x[2] - x[1])
    MT: list = []
    MS: list = []
    for same in (True, False):          # step 2: boundary errors; step 3: labelling-boundary errors
        # pass 1: unmatched target x unmatched system
        i = 0
        while i < len(T):
            t = T[i]
            tl, tb, te = t[0], t[1], t[2]
            cands = [s for s in S if (s[0] == tl) == same and (s[1] != tb or s[2] != te)
                     and s[1] <= te and s[2] >= tb]
            if not cands:
                i += 1
                continue
            s = _best(t, cands)
            ev.append((t[4], s[4], _be_type(tb, te, s[1], s[2]) if same else LBE, BOTH))
            S.remove(s)
            del T[i]
            inter = t[3] & s[3]
            t[3] &= ~inter
            s[3] &= ~inter
            MS.append(s)
            MT.append(t)
            if skip:
                i += 1
        # pass 2: unmatched target x matched system spans that still share tokens with it
        i = 0
        while i < len(T):
            t = T[i]
            tl, tb, te, tbits = t[0], t[1], t[2], t[3]
            cands = [s for s in MS if (s[0] == tl) == same and (s[1] != tb or s[2] != te)
                     and s[1] <= te and s[2] >= tb and (tbits & s[3])]
            if not cands:
                i += 1
                continue
            s = _best(t, cands)
            ev.append((t[4], s[4], _be_type(tb, te, s[1], s[2]) if same else LBE, GOLD_ONLY))
            del T[i]
            inter = tbits & s[3]
            s[3] &= ~inter
            t[3] &= ~inter
            MT.append(t)
            if skip:
                i += 1
        # pass 3: unmatched system x matched target spans that still share tokens with it
        i = 0
        while i < len(S):
            s = S[i]
            sl, sb, se, sbits = s[0], s[1], s[2], s[3]
            cands = [t for t in MT if (t[0] == sl) == same and (t[1] != sb or t[2] != se)
                     and sb <= t[2] and se >= t[1] and (sbits & t[3])]
            if not cands:
                i += 1
                continue
            t = _best(s, cands)
            ev.append((t[4], s[4], _be_type(t[1], t[2], sb, se) if same else LBE, SYSTEM_ONLY))
            del S[i]
            inter = t[3] & sbits
            t[3] &= ~inter
            s[3] &= ~inter
            MS.append(s)
            if skip:
                i += 1
    # step 4: what is left has no counterpart
    for t in T:
        ev.append((t[4], -1, FN, GOLD_ONLY))
    for s in S:
        ev.append((-1, s[4], FP, SYSTEM_ONLY))


def _sent_offsets(sentences: Union[Corpus, np.ndarray, Sequence[int]]) -> np.ndarray:
    """Sentence token offsets from a Corpus or the offsets themselves."""
    if isinstance(sentences, Corpus):
        return np.asarray(sentences.sent_offsets, np.int64)
    return np.asarray(sentences, np.int64)


def _bits(ss: SpanSet, idx: np.ndarray, base: np.ndarray, tokens: Optional[TokenSets]) -> List[int]:
    """Token sets of spans ``idx`` as Python-int bit sets relative to ``base`` (their sentence start)."""
    st = (ss.start[idx] - base).tolist()
    ln = (ss.end[idx] - ss.start[idx] + 1).tolist()
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
            a = np.arange(gold.start[g], gold.end[g] + 1)
        if b is None:
            b = np.arange(system.start[s], system.end[s] + 1)
        out[k] = len(a) == len(b) and bool(np.all(a == b))
    return out


def fair_errors(
    gold: SpanSet,
    system: SpanSet,
    pairs: Optional[Pairs],
    labels: Sequence[str],
    sentences: Union[Corpus, np.ndarray, Sequence[int]],
    focus: str = "target",
    *,
    gold_tokens: Optional[TokenSets] = None,
    system_tokens: Optional[TokenSets] = None,
    gold_order: Optional[np.ndarray] = None,
    system_order: Optional[np.ndarray] = None,
    mode: str = "paper",
    _units: str = "cluster",
) -> FairResult:
    """Count Ortmann's error types of ``system`` against ``gold``.

    ``pairs`` is ``matching.match(gold, system)`` (computed when None);
    ``sentences`` a Corpus or its ``sent_offsets``.  ``focus`` decides whether LE
    and LBE count for the target (gold) label or the system label.  The optional
    token sets give spans whose tokens are not their whole range (ignore_punct);
    the optional orders give each span's position in the input (the reference
    breaks ties by it; default: the SpanSet order, i.e. left to right).
    """
    if focus not in FOCUS:
        raise ValueError(f"focus {focus!r}: expected one of {', '.join(FOCUS)}")
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    if _units not in ("cluster", "sentence"):
        raise ValueError(f"_units {_units!r}: expected 'cluster' or 'sentence'")
    if pairs is None:
        pairs = match(gold, system)
    offsets = _sent_offsets(sentences)
    skip = mode == "faireval-skip"
    ng, ns = len(gold), len(system)
    g_order = np.arange(ng, dtype=np.int64) if gold_order is None else np.asarray(gold_order, np.int64)
    s_order = np.arange(ns, dtype=np.int64) if system_order is None else np.asarray(system_order, np.int64)
    if len(g_order) != ng or len(s_order) != ns:
        raise ValueError("gold_order / system_order must give one position per span")
    g_sent = np.searchsorted(offsets, gold.start, side="right") - 1
    s_sent = np.searchsorted(offsets, system.start, side="right") - 1
    n_sent = max(len(offsets) - 1, 1)

    pg, ps = pairs.gold, pairs.system
    # same label and the same tokens (not pairs.exact: under the conlleval scheme that is
    # conlleval.pl's correct-chunk verdict, which may pair spans whose ends differ)
    exact = pairs.same_label & (pairs.gold_only == 0) & (pairs.system_only == 0)
    if (gold_tokens is not None and len(gold_tokens)) or (system_tokens is not None and len(system_tokens)):
        g_irr = gold_tokens.irregular(ng) if gold_tokens is not None else np.zeros(ng, bool)
        s_irr = system_tokens.irregular(ns) if system_tokens is not None else np.zeros(ns, bool)
        chk = np.flatnonzero(exact & (g_irr[pg] | s_irr[ps]))
        if len(chk):
            exact[chk] = _same_tokens(pg[chk], ps[chk], gold, system, gold_tokens, system_tokens)

    # traditional: a span is correct when an identical span exists on the other side
    trad_g = np.zeros(ng, bool)
    trad_g[pg[exact]] = True
    trad_s = np.zeros(ns, bool)
    trad_s[ps[exact]] = True

    # sentences the sequential algorithm must run on as a whole: identical spans
    # repeated on one side (multiset TP matching), and in skip mode every sentence
    # with an unresolved overlap (the skipped span depends on list neighbours)
    n_ex_g = np.bincount(pg[exact], minlength=ng)
    n_ex_s = np.bincount(ps[exact], minlength=ns)
    whole = np.zeros(n_sent, bool)
    whole[g_sent[n_ex_g > 1]] = True
    whole[s_sent[n_ex_s > 1]] = True

    dup = whole.copy()
    ex_ok = exact & ~dup[g_sent[pg]]
    tp_g = np.zeros(ng, bool)
    tp_g[pg[ex_ok]] = True
    tp_s = np.zeros(ns, bool)
    tp_s[ps[ex_ok]] = True
    ev_parts: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def add(g, s, code, kind) -> None:
        g = np.asarray(g, np.int64)
        n = len(g)
        ev_parts.append((g, np.asarray(s, np.int64), np.broadcast_to(np.asarray(code, np.int8), (n,)),
                         np.broadcast_to(np.asarray(kind, np.int8), (n,))))

    add(pg[ex_ok], ps[ex_ok], TP, BOTH)

    rem = ~tp_g[pg] & ~tp_s[ps] & ~dup[g_sent[pg]]
    if skip or _units == "sentence":
        whole[g_sent[pg[rem]]] = True
        rem[:] = False
    done_g = tp_g.copy()
    done_s = tp_s.copy()
    units: List[Tuple[np.ndarray, np.ndarray, bool]] = []

    # whole sentences: every span not yet counted as TP (in sentences with repeated
    # identical spans none is, and the TP step runs inside the sequential part)
    sents = np.flatnonzero(whole)
    if len(sents):
        gsel = np.flatnonzero(whole[g_sent] & ~tp_g)
        ssel = np.flatnonzero(whole[s_sent] & ~tp_s)
        done_g[gsel] = True
        done_s[ssel] = True
        g_lo, g_hi = np.searchsorted(g_sent[gsel], sents), np.searchsorted(g_sent[gsel], sents, side="right")
        s_lo, s_hi = np.searchsorted(s_sent[ssel], sents), np.searchsorted(s_sent[ssel], sents, side="right")
        for k, sent in enumerate(sents.tolist()):
            units.append((gsel[g_lo[k]:g_hi[k]], ssel[s_lo[k]:s_hi[k]], bool(dup[sent])))

    # clusters of mutually overlapping spans (paper mode): independent of each other
    if rem.any():
        rg, rs = pg[rem], ps[rem]
        mg = unique(rg)
        ms = unique(rs)
        st = np.concatenate((gold.start[mg], system.start[ms]))
        en = np.concatenate((gold.end[mg], system.end[ms]))
        side = np.concatenate((np.zeros(len(mg), np.int8), np.ones(len(ms), np.int8)))
        idx = np.concatenate((mg, ms))
        o = np.lexsort((en, st))
        st, en, side, idx = st[o], en[o], side[o], idx[o]
        reach = np.maximum.accumulate(en)
        new = np.ones(len(st), bool)
        new[1:] = st[1:] > reach[:-1]
        cid = np.cumsum(new) - 1
        ncl = int(cid[-1]) + 1
        n_g = np.bincount(cid, weights=(side == 0), minlength=ncl).astype(np.int64)
        n_s = np.bincount(cid, weights=(side == 1), minlength=ncl).astype(np.int64)
        simple = (n_g == 1) & (n_s == 1)
        # 1:1 clusters: LE, BE or LBE straight from the pair
        one = simple[cid]
        g1 = idx[one & (side == 0)]
        s1 = idx[one & (side == 1)]
        if len(g1):
            # both lists are in cluster order, so g1[k] and s1[k] belong together
            gb, ge, sb, se = gold.start[g1], gold.end[g1], system.start[s1], system.end[s1]
            same_lab = gold.label[g1] == system.label[s1]
            same_rng = (gb == sb) & (ge == se)
            code = np.where(same_rng, LE, np.where(same_lab, _be_type_vec(gb, ge, sb, se), LBE)).astype(np.int8)
            ok = ~(same_rng & same_lab)     # same range and label but other tokens: FN + FP
            add(g1[ok], s1[ok], code[ok], BOTH)
            done_g[g1[ok]] = True
            done_s[s1[ok]] = True
        multi = ~one
        if multi.any():
            mc, mside, midx = cid[multi], side[multi], idx[multi]
            order_key = np.where(mside == 0, g_order[np.where(mside == 0, midx, 0)],
                                 s_order[np.where(mside == 1, midx, 0)])
            o = np.lexsort((order_key, mside, mc))
            mc, mside, midx = mc[o], mside[o], midx[o]
            cuts = np.flatnonzero(np.diff(mc)) + 1
            starts = np.concatenate(([0], cuts))
            stops = np.concatenate((cuts, [len(mc)]))
            for a, b in zip(starts.tolist(), stops.tolist()):
                sd = mside[a:b]
                ix = midx[a:b]
                units.append((ix[sd == 0], ix[sd == 1], False))
            done_g[midx[mside == 0]] = True
            done_s[midx[mside == 1]] = True

    # the sequential part
    ev: List[Tuple[int, int, int, int]] = []
    if units:
        all_g = np.concatenate([u[0] for u in units])
        all_s = np.concatenate([u[1] for u in units])
        gpos = 0
        spos = 0
        gl = gold.label[all_g].tolist()
        gb_ = gold.start[all_g].tolist()
        ge_ = gold.end[all_g].tolist()
        gbits = _bits(gold, all_g, offsets[g_sent[all_g]], gold_tokens)
        sl = system.label[all_s].tolist()
        sb_ = system.start[all_s].tolist()
        se_ = system.end[all_s].tolist()
        sbits = _bits(system, all_s, offsets[s_sent[all_s]], system_tokens)
        gix = all_g.tolist()
        six = all_s.tolist()
        gord = g_order[all_g].tolist()
        sord = s_order[all_s].tolist()
        for ug, us, do_tp in units:
            a, b = gpos, gpos + len(ug)
            c, d = spos, spos + len(us)
            gpos, spos = b, d
            # each side in input order (the reference's list order)
            T = [[gl[k], gb_[k], ge_[k], gbits[k], gix[k]] for k in sorted(range(a, b), key=gord.__getitem__)]
            S = [[sl[k], sb_[k], se_[k], sbits[k], six[k]] for k in sorted(range(c, d), key=sord.__getitem__)]
            _resolve(T, S, do_tp, skip, ev)
    if ev:
        arr = np.array(ev, np.int64)
        add(arr[:, 0], arr[:, 1], arr[:, 2].astype(np.int8), arr[:, 3].astype(np.int8))

    # no counterpart at all
    fn = np.flatnonzero(~done_g)
    fp = np.flatnonzero(~done_s)
    add(fn, np.full(len(fn), -1), FN, GOLD_ONLY)
    add(np.full(len(fp), -1), fp, FP, SYSTEM_ONLY)

    eg = np.concatenate([p[0] for p in ev_parts])
    es = np.concatenate([p[1] for p in ev_parts])
    ec = np.concatenate([p[2] for p in ev_parts]).astype(np.int64)
    ek = np.concatenate([p[3] for p in ev_parts])
    return _tally(gold, system, labels, focus, mode, eg, es, ec, ek, trad_g, trad_s, g_order)


def _tally(gold: SpanSet, system: SpanSet, labels: Sequence[str], focus: str, mode: str,
           eg: np.ndarray, es: np.ndarray, ec: np.ndarray, ek: np.ndarray,
           trad_g: np.ndarray, trad_s: np.ndarray, g_order: np.ndarray) -> FairResult:
    """Events -> per-label counts, confusion matrix and per-span outcomes."""
    L = len(labels)
    ng, ns = len(gold), len(system)
    glab = np.where(eg >= 0, gold.label[np.maximum(eg, 0)] if ng else 0, L).astype(np.int64)
    slab = np.where(es >= 0, system.label[np.maximum(es, 0)] if ns else 0, L).astype(np.int64)
    use_sys = (ec == FP) | (((ec == LE) | (ec == LBE)) & (focus == "system"))
    lab = np.where(use_sys, slab, glab)
    c8 = np.bincount(lab * 8 + ec, minlength=(L + 1) * 8).reshape(L + 1, 8)[:L]
    fair = np.zeros((L, len(ERROR_TYPES)), np.int64)
    fair[:, 0], fair[:, 1], fair[:, 2], fair[:, 3] = c8[:, TP], c8[:, FP], c8[:, FN], c8[:, LE]
    fair[:, 5], fair[:, 6], fair[:, 7], fair[:, 8] = c8[:, BES], c8[:, BEL], c8[:, BEO], c8[:, LBE]
    fair[:, 4] = fair[:, 5] + fair[:, 6] + fair[:, 7]
    errs = ec != TP
    conf = np.bincount(glab[errs] * (L + 1) + slab[errs], minlength=(L + 1) ** 2).reshape(L + 1, L + 1)

    trad = np.zeros((L, 3), np.int64)
    trad[:, 0] = np.bincount(gold.label[trad_g], minlength=L)[:L]
    trad[:, 1] = np.bincount(system.label[~trad_s], minlength=L)[:L]
    trad[:, 2] = np.bincount(gold.label[~trad_g], minlength=L)[:L]

    gt = np.full(ng, -1, np.int8)
    gp = np.full(ng, -1, np.int64)
    gsh = np.zeros(ng, bool)
    st = np.full(ns, -1, np.int8)
    sp = np.full(ns, -1, np.int64)
    ssh = np.zeros(ns, bool)
    gm = (ek == BOTH) | (ek == GOLD_ONLY)
    gt[eg[gm]] = ec[gm]
    gp[eg[gm]] = es[gm]
    gsh[eg[gm]] = ek[gm] == BOTH
    sm = (ek == BOTH) | (ek == SYSTEM_ONLY)
    st[es[sm]] = ec[sm]
    sp[es[sm]] = eg[sm]
    ssh[es[sm]] = ek[sm] == BOTH
    if (gt < 0).any() or (st < 0).any() or int(gm.sum()) != ng or int(sm.sum()) != ns:
        raise AssertionError("fair_errors: a span was not counted exactly once (internal error)")

    gold_count = np.bincount(gold.label, minlength=L)[:L].astype(np.int64)
    system_count = np.bincount(system.label, minlength=L)[:L].astype(np.int64)
    first = np.full(L, np.iinfo(np.int64).max, np.int64)
    if ng:
        np.minimum.at(first, gold.label.astype(np.int64), g_order)
    return FairResult(list(labels), focus, mode, fair, trad, conf, gold_count, system_count, first,
                      SpanOutcomes(gt, gp, gsh, st, sp, ssh))


def fair_corpus(corpus: Corpus, system: Optional[str] = None, focus: str = "target", *,
                gold_tokens: Optional[TokenSets] = None, system_tokens: Optional[TokenSets] = None,
                gold_order: Optional[np.ndarray] = None, system_order: Optional[np.ndarray] = None,
                mode: str = "paper", pairs: Optional[Pairs] = None) -> FairResult:
    """:func:`fair_errors` for one system of a Corpus (the only one when ``system`` is None)."""
    if system is None:
        if len(corpus.systems) != 1:
            raise ValueError(f"the corpus has {len(corpus.systems)} systems; name one of "
                             f"{', '.join(corpus.systems)}")
        system = next(iter(corpus.systems))
    ss = corpus.systems[system]
    return fair_errors(corpus.gold, ss, pairs if pairs is not None else match(corpus.gold, ss), corpus.labels,
                       corpus, focus, gold_tokens=gold_tokens, system_tokens=system_tokens,
                       gold_order=gold_order, system_order=system_order, mode=mode)


# ---------------------------------------------------------------------------
# weights

Weights = Dict[str, Dict[str, float]]
WEIGHT_TARGETS = ("TP", "FP", "FN")
_BASE: Weights = {"TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1}}
_HALF = {"TP": 0, "FP": 0.5, "FN": 0.5}

#: the paper's weightings.  eq5 is the reference's default (fair evaluation, and
#: ``weights = default`` in its config files); eq7 is the formula of its example configs.
PRESETS: Dict[str, Weights] = {
    "eq5": {**_BASE, "LE": dict(_HALF), "BE": dict(_HALF), "LBE": dict(_HALF)},
    "eq6": {**_BASE, "LE": dict(_HALF), "BE": {"TP": 0.5, "FP": 0.25, "FN": 0.25}, "LBE": dict(_HALF)},
}
EQ7_FORMULA = ("LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, "
               "BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN")
PRESET_ALIASES = {"default": "eq5", "fair": "eq5", "eq5": "eq5", "eq6": "eq6", "eq7": "eq7"}
DEFAULT_WEIGHTS = "eq5"

_NUM = r"(?:\d+(?:\.\d*)?|\.\d+)"
_TERM = re.compile(rf"^\s*({_NUM})\s*\*?\s*([A-Za-z]+)\s*$")
_LHS = re.compile(r"^\s*([A-Za-z]+)\s*=(.*)$", re.S)


def parse_weights(spec: str) -> Weights:
    """Weights in the reference syntax, e.g. ``LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN``,
    or a preset name (``eq5`` = ``default``, ``eq6``, ``eq7``).

    Each comma-separated formula gives one error type as a weighted sum of TP, FP
    and FN (asterisks optional, zero terms may be left out).  As in the reference,
    TP, FP and FN count as themselves unless given, and the result keeps the
    formula order followed by those three.  Raises ValueError on an unknown error
    type, a malformed or repeated term, a repeated error type, or BE together with
    one of its subtypes (the same errors would count twice).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("weights: empty; expected formulas like 'LE = 0.5 FP + 0.5 FN' or a preset "
                         f"({', '.join(sorted(PRESET_ALIASES))})")
    key = spec.strip().lower()
    if key in PRESET_ALIASES:
        name = PRESET_ALIASES[key]
        return parse_weights(EQ7_FORMULA) if name == "eq7" else {k: dict(v) for k, v in PRESETS[name].items()}
    out: Weights = {}
    for n, formula in enumerate(spec.split(","), 1):
        where = f"weights formula {n} {formula.strip()!r}"
        m = _LHS.match(formula)
        if not m:
            raise ValueError(f"{where}: expected ERROR_TYPE = w1 TP + w2 FP + w3 FN"
                             " (formulas separated by commas)")
        etype, rhs = m.group(1), m.group(2)
        if etype not in ERROR_TYPES:
            raise ValueError(f"{where}: unknown error type {etype!r}; expected one of {', '.join(ERROR_TYPES)}")
        if etype in out:
            raise ValueError(f"{where}: error type {etype} is given twice")
        if "=" in rhs:
            raise ValueError(f"{where}: more than one '='; separate formulas with commas")
        terms: Dict[str, float] = {}
        if rhs.strip() != "0":
            for part in rhs.split("+"):
                t = _TERM.match(part)
                if not t:
                    raise ValueError(f"{where}: term {part.strip()!r} is not 'NUMBER [*] TP|FP|FN'")
                w, target = float(t.group(1)), t.group(2)
                if target not in WEIGHT_TARGETS:
                    raise ValueError(f"{where}: term {part.strip()!r}: {target!r} is not TP, FP or FN")
                if target in terms:
                    raise ValueError(f"{where}: {target} appears twice")
                terms[target] = w
        out[etype] = {k: terms.get(k, 0) for k in WEIGHT_TARGETS}
    sub = [k for k in ("BES", "BEL", "BEO") if k in out]
    if "BE" in out and sub:
        raise ValueError(f"weights: BE and its subtype(s) {', '.join(sub)} both given; BE = BES + BEL + BEO, "
                         "so those errors would count twice")
    for k in WEIGHT_TARGETS:
        if k not in out:
            out[k] = {k: 1}
    return out


def resolve_weights(weights: Union[None, str, Mapping[str, Mapping[str, float]]]) -> Weights:
    """None -> the default (eq5); a string -> :func:`parse_weights`; a mapping is checked and copied."""
    if weights is None:
        return parse_weights(DEFAULT_WEIGHTS)
    if isinstance(weights, str):
        return parse_weights(weights)
    out: Weights = {}
    for etype, terms in weights.items():
        if etype not in ERROR_TYPES:
            raise ValueError(f"weights: unknown error type {etype!r}; expected one of {', '.join(ERROR_TYPES)}")
        bad = [t for t in terms if t not in WEIGHT_TARGETS]
        if bad:
            raise ValueError(f"weights[{etype!r}]: {bad[0]!r} is not TP, FP or FN")
        out[etype] = dict(terms)
    return out


# ---------------------------------------------------------------------------
# scores

def prf(tp: float, fp: float, fn: float) -> Tuple[float, float, float]:
    """Precision, recall and F1 (= 2PR / (P + R)); 0.0 wherever a denominator is 0 (the reference's rule)."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def weighted_totals(counts: Mapping[str, float], weights: Mapping[str, Mapping[str, float]]
                    ) -> Tuple[float, float, float]:
    """(TP, FP, FN) as weighted sums over the error types listed in ``weights``."""
    tp = sum(w.get("TP", 0) * counts.get(e, 0) for e, w in weights.items())
    fp = sum(w.get("FP", 0) * counts.get(e, 0) for e, w in weights.items())
    fn = sum(w.get("FN", 0) * counts.get(e, 0) for e, w in weights.items())
    return tp, fp, fn


METHODS = ("traditional", "fair", "weighted")


def method_scores(counts: Mapping[str, float], method: str, weights: Optional[Weights] = None
                  ) -> Tuple[float, float, float]:
    """P, R, F1 of one count row: traditional (TP/FP/FN), fair (eq5) or weighted (``weights``)."""
    if method == "traditional":
        return prf(counts.get("TP", 0), counts.get("FP", 0), counts.get("FN", 0))
    if method == "fair":
        return prf(*weighted_totals(counts, PRESETS["eq5"]))
    if method == "weighted":
        return prf(*weighted_totals(counts, weights if weights is not None else PRESETS["eq5"]))
    raise ValueError(f"method {method!r}: expected one of {', '.join(METHODS)}")


def fair_report(result: FairResult, weights: Union[None, str, Weights] = None,
                methods: Sequence[str] = METHODS) -> dict:
    """Plain-data report: per label and overall counts and P/R/F1 for each method,
    the confusion matrix and the target label statistics.

    Only labels with gold or system spans are listed (as in the reference output).
    """
    w = resolve_weights(weights)
    bad = [m for m in methods if m not in METHODS]
    if bad:
        raise ValueError(f"method {bad[0]!r}: expected one of {', '.join(METHODS)}")
    present = [k for k in np.flatnonzero(result.present).tolist()]
    out: dict = {"focus": result.focus, "mode": result.mode, "labels": [result.labels[k] for k in present],
                 "weights": w}

    def row(counts: Dict[str, int], method: str) -> dict:
        p, r, f = method_scores(counts, method, w)
        return {**counts, "precision": p, "recall": r, "f1": f}

    for m in methods:
        if m == "traditional":
            per = {result.labels[k]: row(dict(zip(TRADITIONAL_TYPES, map(int, result.traditional[k]))), m)
                   for k in present}
            tot = row(result.traditional_counts(), m)
        else:
            per = {result.labels[k]: row(dict(zip(ERROR_TYPES, map(int, result.fair[k]))), m) for k in present}
            tot = row(result.counts(), m)
        out[m] = {"labels": per, "overall": tot}
    cm = result.confusion_dict()
    out["confusion"] = cm
    out["target_stats"] = [{"label": lab, "count": n, "percent": pct} for lab, n, pct in result.target_stats()]
    return out
