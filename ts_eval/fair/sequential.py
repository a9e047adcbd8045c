"""Ortmann's Algorithm 2 on one group of mutually dependent spans, step by step as the
reference implementation (rubcompling/FairEval) does it.

A span is a list ``[label, begin, last, token_bits, index]`` (token bits relative to its
sentence start; they shrink as matched tokens are used up).  Every function appends
events ``(gold index, system index, outcome code, BOTH|GOLD_ONLY|SYSTEM_ONLY)`` to ``ev``
and removes the spans it resolves from the working lists.  This part is inherently
sequential (each match changes what the next span may match), so it stays a Python loop.
"""
from __future__ import annotations

from typing import List, Tuple

from .types import BEL, BEO, BES, BOTH, FN, FP, GOLD_ONLY, LBE, LE, SYSTEM_ONLY, TP

#: a span: ``[label, begin, last, token_bits, index]``, all ints (the bits shrink as tokens are used up)
Span = List[int]
#: an event: (gold index, system index, outcome code, BOTH|GOLD_ONLY|SYSTEM_ONLY); -1 for no span
Event = Tuple[int, int, int, int]


def _be_type(tb: int, te: int, sb: int, se: int) -> int:
    """BES / BEL / BEO of system span sb..se relative to target span tb..te (overlapping, not identical)."""
    if sb == tb:
        return BES if se < te else BEL
    if sb < tb:
        return BEO if se < te else BEL
    return BES if se <= te else BEO


def _best(x: Span, cands: List[Span]) -> Span:
    """The most similar candidate for span x (first of the equally similar ones).

    Similarity: most shared tokens, fewest tokens only in x, fewest only in the
    candidate, shortest candidate (by its begin/last), earliest in the list.
    """
    if len(cands) == 1:
        return cands[0]
    xb = x[3]
    nx = xb.bit_count()

    def key(c: Span) -> Tuple[int, int, int, int]:
        inter = (xb & c[3]).bit_count()
        return (-inter, nx - inter, c[3].bit_count() - inter, c[2] - c[1])
    return min(cands, key=key)      # (min keeps the first of equal keys)


def _length(x: Span) -> int:
    return x[2] - x[1]


def _resolve(T: List[Span], S: List[Span], do_tp: bool, skip: bool, ev: List[Event]) -> None:
    """Algorithm 2 on one independent group of spans (lists in input order).

    ``do_tp``: run the TP step here (groups whose TPs were not taken out beforehand);
    ``skip``: the faireval-skip mode (the span after every match is skipped in a pass).
    """
    _one_to_one(T, S, do_tp, ev)
    if T and S:
        # shortest spans first; stable, so equally long spans keep the input order
        T.sort(key=_length)
        S.sort(key=_length)
        MT: List[Span] = []
        MS: List[Span] = []
        for same in (True, False):      # step 2: boundary errors; step 3: labelling-boundary errors
            # (a pass with an empty list to draw from changes nothing and is not called)
            if T and S:
                _pass_unmatched(T, S, MT, MS, same, skip, ev)
            if T and MS:
                _pass_against_matched(T, MS, MT, same, skip, ev, x_gold=True)
            if S and MT:
                _pass_against_matched(S, MT, MS, same, skip, ev, x_gold=False)
    # step 4: what is left has no counterpart
    for t in T:
        ev.append((t[4], -1, FN, GOLD_ONLY))
    for s in S:
        ev.append((-1, s[4], FP, SYSTEM_ONLY))


def _one_to_one(T: List[Span], S: List[Span], do_tp: bool, ev: List[Event]) -> None:
    """Step 1: identical spans (TP), then identical ranges with other labels (LE)."""
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


def _pass_unmatched(T: List[Span], S: List[Span], MT: List[Span], MS: List[Span], same: bool, skip: bool,
                    ev: List[Event]) -> None:
    """Pass 1: unmatched target x unmatched system spans (both are counted by the event)."""
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


def _pass_against_matched(X: List[Span], MY: List[Span], MX: List[Span], same: bool, skip: bool, ev: List[Event],
                          x_gold: bool) -> None:
    """Pass 2 (``X`` the unmatched target spans, ``MY`` the matched system spans) or pass 3 (unmatched
    system x matched target spans): each span of ``X`` that still shares tokens with a matched span of
    the other side takes the most similar one; it moves to ``MX``, the shared tokens are used up."""
    i = 0
    while i < len(X):
        x = X[i]
        xl, xb, xe, xbits = x[0], x[1], x[2], x[3]
        cands = [y for y in MY if (y[0] == xl) == same and (y[1] != xb or y[2] != xe)
                 and y[1] <= xe and y[2] >= xb and (xbits & y[3])]
        if not cands:
            i += 1
            continue
        y = _best(x, cands)
        t, s = (x, y) if x_gold else (y, x)
        ev.append((t[4], s[4], _be_type(t[1], t[2], s[1], s[2]) if same else LBE,
                   GOLD_ONLY if x_gold else SYSTEM_ONLY))
        del X[i]
        inter = xbits & y[3]
        x[3] &= ~inter
        y[3] &= ~inter
        MX.append(x)
        if skip:
            i += 1
