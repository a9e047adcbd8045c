"""Span level: every gold span's fair outcome under A and under B (Ortmann's Algorithm 2 on
the shared matcher's pairs, from :mod:`ts_eval.fair`), every spurious span, and their
transitions."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..corpus import Corpus, SpanSet
from ..fair.algorithm import fair_errors
from ..fair.types import OUTCOME_NAMES
from ..matching import Pairs, match
from .results import ARROW, CLASSES, GOLD_OUTCOMES, SYSTEM_OUTCOMES, ChangeClass, SpanDiff
from .tokens import _ratio, _top_transitions


@dataclass
class OutcomeCodes:
    """Per-span fair outcomes of one system as codes into GOLD_OUTCOMES (gold spans) and
    SYSTEM_OUTCOMES (system spans), with the counterpart's index (-1: none)."""

    gold_type: np.ndarray
    gold_partner: np.ndarray
    system_type: np.ndarray
    system_partner: np.ndarray


def fair_outcomes(corpus: Corpus, system: str, pairs: Optional[Pairs] = None, mode: str = "paper") -> OutcomeCodes:
    """Per-span outcomes of one system from :func:`ts_eval.fair.fair_errors` (Ortmann's
    Algorithm 2 on the shared matcher's pairs), recoded into this module's outcome order."""
    ss = corpus.systems[system]
    if pairs is None:
        pairs = match(corpus.gold, ss)
    o = fair_errors(corpus.gold, ss, pairs, corpus.labels, corpus, mode=mode).outcomes
    return OutcomeCodes(_recode(o.gold_type, OUTCOME_NAMES, GOLD_OUTCOMES),
                        np.asarray(o.gold_partner, np.int64),
                        _recode(o.system_type, OUTCOME_NAMES, SYSTEM_OUTCOMES),
                        np.asarray(o.system_partner, np.int64))


def _recode(codes: np.ndarray, source: Sequence[str], target: Sequence[str]) -> np.ndarray:
    """Outcome codes named by ``source`` -> codes into ``target`` (a code with no place there is an error)."""
    table = np.array([target.index(n) if n in target else -1 for n in source], np.int64)
    out = table[np.asarray(codes, np.int64)] if len(codes) else np.zeros(0, np.int64)
    if np.any(out < 0):
        bad = sorted({source[int(c)] for c in np.asarray(codes)[out < 0]})
        raise ValueError(f"unexpected fair outcome(s) {', '.join(bad)}; expected {', '.join(target)}")
    return out


def _identical(x: SpanSet, y: SpanSet) -> np.ndarray:
    """For every span of x, the index of the identical span (start, end, label) in y, or -1.

    Read from the shared matcher's pairs (its ``exact`` flag), x in the gold role."""
    p = match(x, y)
    out = np.full(len(x), -1, np.int64)
    out[p.gold[p.exact]] = p.system[p.exact]
    return out


_G = len(GOLD_OUTCOMES)
_TP = GOLD_OUTCOMES.index("TP")
_FP = SYSTEM_OUTCOMES.index("FP")
#: transition keys: A outcome * _W + B outcome for gold spans; two extra keys for spurious spans
_W = _G + 1
KEY_FP_TN, KEY_TN_FP = _W * _W, _W * _W + 1


def transition_name(k: int) -> Tuple[str, str]:
    """The (A, B) outcome names of a transition key."""
    if k == KEY_FP_TN:
        return ("FP", "TN")
    if k == KEY_TN_FP:
        return ("TN", "FP")
    return (GOLD_OUTCOMES[k // _W], GOLD_OUTCOMES[k % _W])


@dataclass
class _Spurious:
    """Spurious spans: A's FP spans, and B's FP spans that are not identical to one of A's."""

    fp_a: np.ndarray       # A's FP spans
    kept: np.ndarray       # per span of fp_a: B has the identical span, also FP
    added: np.ndarray      # B's FP spans A does not have (TN → FP)
    dropped: np.ndarray    # A's FP spans B does not keep (FP → TN)


def _gold_changes(oa: OutcomeCodes, ob: OutcomeCodes, same_ab: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per gold span: changed (outcome or counterpart) and its class (0 correction, 1 new
    error, 2 changed error, -1 unchanged)."""
    ta, tb = oa.gold_type, ob.gold_type
    pa, pb = oa.gold_partner, ob.gold_partner
    same_partner = pb < 0                       # both without counterpart, or ...
    has = pa >= 0
    same_partner[has] = same_ab[pa[has]] == pb[has]   # ... B's counterpart is A's, span for span
    changed = (ta != tb) | ~same_partner
    g_cls = np.full(len(ta), -1, np.int64)
    g_cls[changed & (tb == _TP)] = 0
    g_cls[changed & (ta == _TP)] = 1
    g_cls[changed & (ta != _TP) & (tb != _TP)] = 2
    return changed, g_cls


def _spurious(oa: OutcomeCodes, ob: OutcomeCodes, same_ab: np.ndarray, n_b: int) -> _Spurious:
    fp_a = np.flatnonzero(oa.system_type == _FP)
    fp_b = np.flatnonzero(ob.system_type == _FP)
    twin = same_ab[fp_a]
    kept = np.zeros(len(fp_a), bool)
    kept[twin >= 0] = ob.system_type[twin[twin >= 0]] == _FP
    b_fp_mask = np.zeros(n_b, bool)
    b_fp_mask[fp_b] = True
    b_twin_of_a_fp = np.zeros(n_b, bool)
    b_twin_of_a_fp[twin[kept]] = True
    return _Spurious(fp_a, kept, np.flatnonzero(b_fp_mask & ~b_twin_of_a_fp), fp_a[~kept])


def _classes(gold_key: np.ndarray, g_cls: np.ndarray, sp: _Spurious, n_diff: int,
             top: Optional[int]) -> Dict[str, ChangeClass]:
    keys = {0: np.concatenate([gold_key[g_cls == 0], np.full(len(sp.dropped), KEY_FP_TN, np.int64)]),
            1: np.concatenate([gold_key[g_cls == 1], np.full(len(sp.added), KEY_TN_FP, np.int64)]),
            2: gold_key[g_cls == 2]}
    classes = {}
    for k, cls in enumerate(CLASSES):
        distinct, tops = _top_transitions(keys[k], transition_name, n_diff, top)
        cnt = len(keys[k])
        classes[cls] = ChangeClass(cls, cnt, _ratio(cnt, n_diff), distinct, tops)
    return classes


def _label_rows(corpus: Corpus, a: str, b: str, oa: OutcomeCodes, ob: OutcomeCodes, changed: np.ndarray,
                g_cls: np.ndarray, gold_key: np.ndarray, sp: _Spurious) -> List[Dict[str, Any]]:
    """Per label: gold spans by gold label, spurious spans by their own label."""
    gold, sa, sb = corpus.gold, corpus.systems[a], corpus.systems[b]
    ta, tb = oa.gold_type, ob.gold_type
    per = []
    for lab in range(len(corpus.labels)):
        gmask = gold.label == lab
        row: Dict[str, Any] = {"label": corpus.labels[lab], "gold_spans": int(gmask.sum())}
        drop_l = int(np.count_nonzero(sa.label[sp.dropped] == lab))
        add_l = int(np.count_nonzero(sb.label[sp.added] == lab))
        fp_l = int(np.count_nonzero(sa.label[sp.fp_a] == lab)) + add_l
        row["spurious"] = fp_l
        row["correction"] = int(np.count_nonzero(gmask & (g_cls == 0))) + drop_l
        row["new_error"] = int(np.count_nonzero(gmask & (g_cls == 1))) + add_l
        row["changed_error"] = int(np.count_nonzero(gmask & (g_cls == 2)))
        row["net"] = row["correction"] - row["new_error"]
        units = row["gold_spans"] + fp_l
        row["diff"] = _ratio(row["correction"] + row["new_error"] + row["changed_error"], units)
        row["tp_a"] = int(np.count_nonzero(gmask & (ta == _TP)))
        row["tp_b"] = int(np.count_nonzero(gmask & (tb == _TP)))
        tr: Dict[str, int] = {}
        sel = gmask & changed
        if sel.any():
            u, c = np.unique(gold_key[sel], return_counts=True)
            tr.update({ARROW.join(transition_name(int(x))): int(y) for x, y in zip(u, c)})
        if drop_l:
            tr["FP → TN"] = drop_l
        if add_l:
            tr["TN → FP"] = add_l
        row["transitions"] = dict(sorted(tr.items(), key=lambda kv: (-kv[1], kv[0])))
        per.append(row)
    return per


def _outcome_counts(o: OutcomeCodes) -> Dict[str, int]:
    """Gold outcome counts, plus FP: the spurious system spans."""
    c = np.bincount(o.gold_type, minlength=_G)
    d = {n: int(c[k]) for k, n in enumerate(GOLD_OUTCOMES)}
    d["FP"] = int(np.count_nonzero(o.system_type == _FP))
    return d


def span_diff(corpus: Corpus, a: str, b: str, oa: OutcomeCodes, ob: OutcomeCodes,
              top: Optional[int]) -> Tuple[SpanDiff, Dict[str, Any]]:
    """Transitions of gold spans (A outcome → B outcome) and of spurious spans; also the
    per-unit arrays the examples need."""
    gold = corpus.gold
    ta, tb = oa.gold_type, ob.gold_type
    same_ab = _identical(corpus.systems[a], corpus.systems[b])
    changed, g_cls = _gold_changes(oa, ob, same_ab)
    sp = _spurious(oa, ob, same_ab, len(corpus.systems[b]))
    n_spurious = len(sp.fp_a) + len(sp.added)
    n_diff = int(np.count_nonzero(changed)) + len(sp.dropped) + len(sp.added)
    matrix = np.zeros((_G, _G), np.int64)
    np.add.at(matrix, (ta, tb), 1)
    cc = np.bincount(ta[changed & (ta == tb)], minlength=_G)
    gold_key = ta * _W + tb
    sd = SpanDiff(
        a, b, len(gold), n_spurious, n_diff, _ratio(n_diff, len(gold) + n_spurious),
        _outcome_counts(oa), _outcome_counts(ob), matrix.tolist(),
        {n: int(cc[k]) for k, n in enumerate(GOLD_OUTCOMES) if n != "TP"},
        _classes(gold_key, g_cls, sp, n_diff, top), _label_rows(corpus, a, b, oa, ob, changed, g_cls, gold_key, sp),
        {"FP → TN": int(len(sp.dropped)), "TN → FP": int(len(sp.added)), "FP kept": int(sp.kept.sum())})
    ctx = {"gold_key": gold_key, "g_cls": g_cls, "name_of": transition_name, "dropped": sp.dropped,
           "added": sp.added}
    return sd, ctx


def systems_instead(corpus: Corpus, names: List[str], idx: np.ndarray, fair_mode: str) -> List[Dict[str, int]]:
    """For each gold span in ``idx``: how the systems' fair outcomes for it are distributed,
    as ``"LE ORG"`` (outcome and the counterpart's label) -> number of systems."""
    counters = [Counter() for _ in range(len(idx))]
    if not len(idx):
        return []
    for name in names:
        o = fair_outcomes(corpus, name, mode=fair_mode)
        ss = corpus.systems[name]
        t, p = o.gold_type[idx], o.gold_partner[idx]
        for k, (tt, pp) in enumerate(zip(t.tolist(), p.tolist())):
            key = GOLD_OUTCOMES[tt] + (f" {corpus.labels[int(ss.label[pp])]}" if pp >= 0 else "")
            counters[k][key] += 1
    return [dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for c in counters]
