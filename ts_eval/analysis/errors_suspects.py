"""Gold suspects: gold spans that many systems reject in the same way, spans that many systems
agree gold lacks, and strings that gold itself labels inconsistently.

**Systems against gold.**  Each system's verdict on a gold span is *confirm* when its exact model
counts the span a hit, else the span's best counterpart under overlap matching (the rule of
:mod:`ts_eval.analysis.errors_match`), or *no span* when no system span shares a token with it.
Systems *agree* when their counterparts are the same span (same first token, last token and
label) or both are no span; a gold span is a suspect when at least ``min_agree`` systems agree
(default: a clear majority, more than half of the systems and at least 3).  Its type says how the
agreed alternative differs from gold, in Ortmann's words: LE (same tokens, other label), BE (same
label, other tokens), LBE (both), FN (no span).  A span that no gold span overlaps and that at
least ``min_agree`` systems mark identically is a suspect of type FP (gold may lack it); its
confirming systems are those with no span sharing a token with it.  Suspects are ranked by the
number of agreeing systems (most first), then agreement on a span before agreement on no span
(FN), then by the number of confirming systems (fewest first), then by position.

**Inconsistent gold.**  *Label*: the same lower-cased string is a gold span with different labels
in different places (each occurrence that does not carry the string's most frequent label
deviates; ties go to the label that sorts first).  *Unannotated*: the same lower-cased tokens in
the same context -- one token before and one after, lower-cased, the start and the end of a
sentence counting as tokens -- are a gold span in one place and in another place touch no gold
span at all.  Both lists are ranked by their deviating (unannotated) occurrences, then by all
occurrences, then by position.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..comparison.results import Example
from ..core.arrays import search, unique
from ..core.corpus import Corpus, SpanSet
from ..core.matching import Pairs, match
from ..errors import OptionError
from .errors_text import Texts, example, gold_where, one_span

CONFIRM, NO_SPAN = -2, -1
#: the types of a suspect (Ortmann's words for how the systems' span differs from gold's)
SUSPECT_TYPES = ("LE", "BE", "LBE", "FN", "FP")


def default_min_agree(n_systems: int) -> int:
    """A clear majority: more than half of the systems, and at least 3."""
    return max(3, n_systems // 2 + 1)


def check_min_agree(min_agree: Optional[int], n_systems: int) -> int:
    if min_agree is None:
        return default_min_agree(n_systems)
    if isinstance(min_agree, bool) or not isinstance(min_agree, (int, np.integer)) or min_agree < 1:
        raise OptionError("expected a whole number of systems, at least 1", option="min_agree", value=min_agree)
    if min_agree > n_systems:      # no span could ever be a suspect: a silent empty list
        raise OptionError(f"expected at most the number of systems given ({n_systems})", option="min_agree",
                          value=min_agree)
    return int(min_agree)


@dataclass
class Suspect:
    """A gold span the systems reject alike (or a span they agree gold lacks: ``gold_label`` None)."""

    type: str
    index: Optional[int]            # the gold span's index (None for FP)
    gold_label: Optional[str]
    gold_text: Optional[str]
    label: Optional[str]            # the systems' span (None for FN)
    text: Optional[str]
    agreeing: int
    confirming: int
    systems: List[str]              # the agreeing systems, sorted
    example: Example
    # where it is (for checking it against a corrected reference): the sentence (0-based), and the gold span's
    # and the systems' span's first and last token counted in the sentence (None where there is none)
    sentence: int = -1
    gold_span: Optional[Tuple[int, int]] = None
    span: Optional[Tuple[int, int]] = None

    def to_dict(self) -> Dict[str, Any]:
        return {"type": self.type, "index": self.index, "gold_label": self.gold_label, "gold_text": self.gold_text,
                "label": self.label, "text": self.text, "agreeing": self.agreeing, "confirming": self.confirming,
                "systems": list(self.systems), "example": self.example.to_dict()}


@dataclass
class Inconsistency:
    """A lower-cased string that gold labels differently (``type`` label) or leaves unannotated in the
    same context (``type`` unannotated)."""

    type: str
    text: str                        # the string as at its example
    label: str                       # its most frequent gold label
    labels: Dict[str, int]           # its gold spans per label
    annotated: int                   # its gold spans (in this context, for unannotated)
    deviating: int                   # occurrences without the most frequent label, or unannotated
    example: Example                 # the first deviating occurrence
    reference: Example               # the first occurrence with the most frequent label (a gold span)

    def to_dict(self) -> Dict[str, Any]:
        return {"type": self.type, "text": self.text, "label": self.label, "labels": dict(self.labels),
                "annotated": self.annotated, "deviating": self.deviating, "example": self.example.to_dict(),
                "reference": self.reference.to_dict()}


@dataclass
class Suspects:
    min_agree: int
    total: int                                   # suspects in all (the list may be cut)
    suspects: List[Suspect]
    label_total: int = 0
    labels: List[Inconsistency] = field(default_factory=list)
    unannotated_total: int = 0
    unannotated: List[Inconsistency] = field(default_factory=list)


# ---------------------------------------------------------------------------
# systems against gold


def _range_key(start: np.ndarray, last: np.ndarray, label: np.ndarray, n_tokens: int, n_labels: int) -> np.ndarray:
    key: np.ndarray = (start.astype(np.int64) * (n_tokens + 1) + last) * (n_labels + 1) + label
    return key


def verdicts(corpus: Corpus, names: Sequence[str], pairs: Dict[str, Pairs],
             best: Dict[str, np.ndarray]) -> np.ndarray:
    """(systems, gold spans): CONFIRM, NO_SPAN, or the key of the system's best counterpart."""
    gold = corpus.gold
    n, L = corpus.n_tokens, len(corpus.labels)
    out = np.full((len(names), len(gold)), NO_SPAN, np.int64)
    for k, name in enumerate(names):
        ss = corpus.systems[name]
        b = best[name]
        has = b >= 0
        out[k, has] = _range_key(ss.start[b[has]], ss.last[b[has]], ss.label[b[has]], n, L)
        p = pairs[name]
        out[k, p.gold[p.exact]] = CONFIRM
    return out


def _agreement(v: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per gold span: the verdict most systems share among those that reject it (ties: the smaller
    key), how many share it, and how many confirm gold."""
    S, G = v.shape
    confirming = np.count_nonzero(v == CONFIRM, axis=0)
    g = np.broadcast_to(np.arange(G), (S, G)).ravel()
    flat = v.ravel()
    rej = flat != CONFIRM
    g, flat = g[rej], flat[rej]
    agreed = np.full(G, CONFIRM, np.int64)
    agreeing = np.zeros(G, np.int64)
    if not len(g):
        return agreed, agreeing, confirming
    o = np.lexsort((flat, g))
    g, flat = g[o], flat[o]
    new = np.ones(len(g), bool)
    new[1:] = (g[1:] != g[:-1]) | (flat[1:] != flat[:-1])
    starts = np.flatnonzero(new)
    cnt = np.diff(np.append(starts, len(g)))
    rg, rk = g[starts], flat[starts]
    o = np.lexsort((rk, -cnt, rg))                 # per gold span: largest count first, then smaller key
    rg, rk, cnt = rg[o], rk[o], cnt[o]
    first = np.ones(len(rg), bool)
    first[1:] = rg[1:] != rg[:-1]
    agreed[rg[first]] = rk[first]
    agreeing[rg[first]] = cnt[first]
    return agreed, agreeing, confirming


def _suspect_type(gold: SpanSet, i: int, start: int, last: int, label: int) -> str:
    if start < 0:
        return "FN"
    same_range = gold.start[i] == start and gold.last[i] == last
    same_label = gold.label[i] == label
    return "LE" if same_range else ("BE" if same_label else "LBE")


@dataclass
class _Found:
    """Candidate suspects as columns, before ranking."""

    kind: List[str]
    index: List[Optional[int]]
    span: List[Tuple[int, int, int]]          # the systems' span (label, start, last), or (-1, -1, -1)
    agreeing: List[int]
    confirming: List[int]
    systems: List[List[str]]
    position: List[int]


def system_suspects(corpus: Corpus, names: Sequence[str], pairs: Dict[str, Pairs], best: Dict[str, np.ndarray],
                    min_agree: int) -> _Found:
    """Gold spans that at least ``min_agree`` systems reject alike, and spans at least ``min_agree``
    systems mark identically where gold has nothing."""
    gold = corpus.gold
    n, L = corpus.n_tokens, len(corpus.labels)
    v = verdicts(corpus, names, pairs, best)
    agreed, agreeing, confirming = _agreement(v)
    found = _Found([], [], [], [], [], [], [])
    for i in np.flatnonzero(agreeing >= min_agree).tolist():
        key = int(agreed[i])
        if key == NO_SPAN:
            span = (-1, -1, -1)
        else:
            label, rest = key % (L + 1), key // (L + 1)
            span = (label, rest // (n + 1), rest % (n + 1))
        found.kind.append(_suspect_type(gold, i, span[1], span[2], span[0]))
        found.index.append(i)
        found.span.append(span)
        found.agreeing.append(int(agreeing[i]))
        found.confirming.append(int(confirming[i]))
        found.systems.append(sorted(nm for k, nm in enumerate(names) if v[k, i] == key))
        found.position.append(int(gold.start[i]))
    # spans where gold has none: a system span with no pair touches no gold span
    keys, owners = [], []
    for k, name in enumerate(names):
        ss = corpus.systems[name]
        alone = np.ones(len(ss), bool)
        alone[pairs[name].system] = False
        keys.append(_range_key(ss.start[alone], ss.last[alone], ss.label[alone], n, L))
        owners.append(np.full(int(alone.sum()), k, np.int64))
    if keys:
        allk = np.concatenate(keys)
        own = np.concatenate(owners)
        uk, inv, cnt = np.unique(allk, return_inverse=True, return_counts=True)
        inv = inv.reshape(-1)
        agreed_j = np.flatnonzero(cnt >= min_agree)
        p_label, p_rest = uk[agreed_j] % (L + 1), uk[agreed_j] // (L + 1)
        probes = SpanSet(p_rest // (n + 1), p_rest % (n + 1), p_label.astype(np.int32))
        touching = np.zeros(len(probes), np.int64)
        for name in names:                       # systems with a span that shares a token with the probe
            hit = np.zeros(len(probes), bool)
            hit[match(probes, corpus.systems[name]).gold] = True
            touching += hit
        for q, j in enumerate(agreed_j.tolist()):
            found.kind.append("FP")
            found.index.append(None)
            found.span.append((int(probes.label[q]), int(probes.start[q]), int(probes.last[q])))
            found.agreeing.append(int(cnt[j]))
            found.confirming.append(len(names) - int(touching[q]))
            found.systems.append(sorted(names[k] for k in own[inv == j].tolist()))
            found.position.append(int(probes.start[q]))
    return found


def rank_suspects(corpus: Corpus, texts: Texts, found: _Found, top: Optional[int], window: int) -> List[Suspect]:
    """The suspects ranked: most agreeing systems first; among equals, systems agreeing on a span
    before systems agreeing on no span (FN: systems miss rare names together more often than they
    invent the same span), then fewest confirming systems, then position (an FP after a gold span
    at the same token)."""
    order = sorted(range(len(found.kind)), key=lambda j: (-found.agreeing[j], found.kind[j] == "FN",
                                                          found.confirming[j], found.position[j],
                                                          found.kind[j] == "FP"))
    if top is not None:
        order = order[:top]
    gold, labels = corpus.gold, corpus.labels
    out = []
    for j in order:
        i = found.index[j]
        label, start, last = found.span[j]
        alt = one_span(label, start, last) if start >= 0 else SpanSet.empty()
        g = (int(gold.start[i]), int(gold.last[i])) if i is not None else (start, last)
        first, end = (min(g[0], start), max(g[1], last)) if start >= 0 else g
        ex = example(corpus, {"gold": gold, "systems": alt}, {"gold": gold_where(corpus, first),
                                                             "systems": {"path": None, "line": None}},
                     found.kind[j], "gold → systems", first, end, window)
        sentence = int(corpus.sentence_of(np.array([g[0]]))[0])
        offset = int(corpus.sent_offsets[sentence])
        out.append(Suspect(found.kind[j], i, labels[int(gold.label[i])] if i is not None else None,
                           texts.text(*g) if i is not None else None,
                           labels[label] if start >= 0 else None, texts.text(start, last) if start >= 0 else None,
                           found.agreeing[j], found.confirming[j], found.systems[j], ex, sentence,
                           (g[0] - offset, g[1] - offset) if i is not None else None,
                           (start - offset, last - offset) if start >= 0 else None))
    return out


# ---------------------------------------------------------------------------
# inconsistent gold


def label_inconsistencies(corpus: Corpus, texts: Texts, top: Optional[int],
                          window: int) -> Tuple[int, List[Inconsistency]]:
    """Lower-cased gold strings that carry more than one label (how many in all, the first ``top``)."""
    gold, L = corpus.gold, len(corpus.labels)
    if not texts.available or not len(gold):
        return 0, []
    sid, rank = _string_groups(texts, np.asarray(gold.start, np.int64), np.asarray(gold.last, np.int64))
    n_str = int(sid.max()) + 1
    per = np.bincount(sid * L + gold.label, minlength=n_str * L).reshape(n_str, L)
    kinds = np.count_nonzero(per, axis=1)
    major = np.argmax(per, axis=1)                       # ties: the smaller label id
    total = per.sum(axis=1)
    deviating = total - per[np.arange(n_str), major]
    pos = np.full(n_str, corpus.n_tokens, np.int64)
    dev_span = gold.label != major[sid]
    np.minimum.at(pos, sid[dev_span], gold.start[dev_span])
    bad = np.flatnonzero(kinds > 1)
    bad = bad[np.lexsort((rank(bad, sid), pos[bad], -total[bad], -deviating[bad]))]
    n_bad = len(bad)
    if top is not None:
        bad = bad[:top]
    out = []
    for s in bad.tolist():
        i = int(np.flatnonzero((sid == s) & dev_span)[0])
        j = int(np.flatnonzero((sid == s) & ~dev_span)[0])
        a, b = int(gold.start[i]), int(gold.last[i])
        out.append(Inconsistency("label", texts.text(a, b), corpus.labels[int(major[s])],
                                 {corpus.labels[k]: int(per[s, k]) for k in np.flatnonzero(per[s]).tolist()},
                                 int(total[s]), int(deviating[s]), _gold_example(corpus, "label", a, b, window),
                                 _gold_example(corpus, "label", int(gold.start[j]), int(gold.last[j]), window)))
    return n_bad, out


def _string_groups(texts: Texts, start: np.ndarray, last: np.ndarray) -> Tuple[np.ndarray, Any]:
    """(per span the number of its lower-cased string, spans of the same string the same number; a function of
    some of those numbers and ``sid`` giving their strings' ranks in sorted order).  The strings are told apart
    by their tokens' lower-cased ids (a hash of them, every span checked against its group's first), not made:
    when a lower-cased token holds a space or is empty, tokens and strings could group differently, and the
    strings are made (:meth:`Texts.strings`)."""
    codes = texts.lower_ids()
    m = last - start + 1
    lowered = texts.tokens.lower()[1] if texts.tokens is not None else None
    if lowered is not None and not ((lowered.length == 0).any() or (lowered.raw == ord(" ")).any()):
        with np.errstate(over="ignore"):
            key = _hashes(codes, start, m) * np.uint64(_MIX[0]) + m.astype(np.uint64)
        _, head, sid = np.unique(key, return_index=True, return_inverse=True)
        sid = sid.reshape(-1)
        ref = head[sid]
        if np.array_equal(m, m[ref]) and _same(codes, start, start[ref], m).all():
            def rank(which: np.ndarray, sid: np.ndarray) -> np.ndarray:
                order: np.ndarray = texts.strings(start[head[which]], last[head[which]], lower=True)[0]
                return order
            return sid, rank
    sid = texts.strings(start, last, lower=True)[0]
    return sid, lambda which, sid: which


def _gold_example(corpus: Corpus, kind: str, first: int, last: int, window: int) -> Example:
    return example(corpus, {"gold": corpus.gold}, {"gold": gold_where(corpus, first)}, kind, "gold", first, last,
                   window)


# polynomial hashing of token windows (uint64 arithmetic wraps around: hashing mod 2**64): the hash of tokens
# a..a+m-1 is the sum of (code + 1) * _BASE**k over the window's k-th token, made one token longer at a time
_BASE = 0x9E3779B97F4A7C15 | 1
_MIX = (0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 0xD6E8FEB86659FD93)


def _context_keys(h: np.ndarray, before: np.ndarray, after: np.ndarray, length: int) -> np.ndarray:
    with np.errstate(over="ignore"):
        k = h * np.uint64(_MIX[0]) + (before + 3).astype(np.uint64)
        k = k * np.uint64(_MIX[1]) + (after + 3).astype(np.uint64)
        key: np.ndarray = k * np.uint64(_MIX[2]) + np.uint64(length)
        return key


def _is_start(offsets: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Whether a sentence starts at each token ``t`` (the end of the corpus counting as one)."""
    at = np.searchsorted(offsets, t)
    return np.asarray(offsets[np.minimum(at, len(offsets) - 1)] == t)


def _contexts(corpus: Corpus, codes: np.ndarray, start: np.ndarray, m: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per window of ``m`` tokens from ``start`` the (lower-cased) token before it and after it: -1 at the start
    of a sentence, -2 at its end."""
    n, offsets = len(codes), corpus.sent_offsets
    before = np.where(_is_start(offsets, start), -1, codes[np.maximum(start - 1, 0)])
    after = np.where(_is_start(offsets, start + m), -2, codes[np.minimum(start + m, max(n - 1, 0))])
    return before, after


def _hashes(codes: np.ndarray, start: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The hash of each window of ``m`` tokens from ``start`` (a token at a time, over the windows still that long)."""
    h = np.zeros(len(start), np.uint64)
    power, alive = 1, np.arange(len(start))
    with np.errstate(over="ignore"):
        for k in range(int(m.max()) if len(m) else 0):
            alive = alive[m[alive] > k]
            h[alive] += (codes[start[alive] + k].astype(np.uint64) + np.uint64(1)) * np.uint64(power)
            power = power * _BASE % 2 ** 64
    return h


#: tokens of whole sentences the unannotated strings are looked for in at a time (at least; the last sentence whole)
UNANNOTATED_TOKENS = 1 << 17


def _pieces(corpus: Corpus) -> List[Tuple[int, int]]:
    """Token ranges of whole sentences, of at least :data:`UNANNOTATED_TOKENS` tokens but the last, that hold
    every gold span whole (the whole corpus when gold is not sorted or a gold span crosses a sentence break)."""
    gold, offsets, S = corpus.gold, corpus.sent_offsets, corpus.n_sentences
    if (len(gold) and (np.any(gold.start[1:] < gold.start[:-1])
                       or not np.array_equal(corpus.sentence_of(gold.start), corpus.sentence_of(gold.last)))):
        return [(0, corpus.n_tokens)]
    out, a = [], 0
    while a < S:
        b = min(max(int(np.searchsorted(offsets, offsets[a] + UNANNOTATED_TOKENS, side="left")), a + 1), S)
        out.append((int(offsets[a]), int(offsets[b])))
        a = b
    return out


class _Piece:
    """One range of whole sentences (numbered from its first token ``t0``): its codes, where its sentences start
    and which of its tokens gold spans cover."""

    def __init__(self, corpus: Corpus, codes: np.ndarray, t0: int, t1: int):
        gold, offsets = corpus.gold, corpus.sent_offsets
        self.t0, self.n = t0, t1 - t0
        self.codes = np.asarray(codes[t0:t1])
        s0, s1 = np.searchsorted(offsets, [t0, t1])
        self.start = np.zeros(self.n + 1, bool)                 # a sentence starts here (the piece's end: True)
        self.start[offsets[s0:s1 + 1] - t0] = True
        whole = not len(gold) or (t0, t1) == (0, corpus.n_tokens)
        lo, hi = (0, len(gold)) if whole else search(gold.start, [t0, t1])
        covered = (np.bincount(gold.start[lo:hi] - t0, minlength=self.n + 1)
                   - np.bincount(gold.last[lo:hi] - t0 + 1, minlength=self.n + 1))
        self.covered = np.cumsum(covered[:-1]) > 0
        self.blocked = self.start.copy()                        # a window cannot take this token as its next
        self.blocked[:-1] |= self.covered                       # (a sentence starts, or gold covers it)

    def unannotated(self, wanted: Dict[int, np.ndarray], ends: Dict[int, Tuple[np.ndarray, np.ndarray]],
                    sieves: Dict[int, _Sieve]) -> Dict[int, Tuple[np.ndarray, np.ndarray]]:
        """Per length ``m`` of ``wanted`` the windows of ``m`` tokens within a sentence, touching no gold span,
        whose key is among ``wanted[m]`` (sorted): their first tokens (in the whole corpus) and keys.  The windows
        free of gold are made one token longer at a time with their hashes; only those whose first and last token
        (lower-cased) are among ``ends[m]`` (per lower-cased token whether it is the first, the last token of a
        gold span of ``m`` tokens) get a key, and only the keys that pass ``sieves[m]`` are looked up."""
        n, start = self.n, self.start
        c = np.concatenate((self.codes, [0]))
        before = np.where(start[:n], -1, np.concatenate(([-1], c[:n - 1])))
        a = np.flatnonzero(~self.covered)                        # windows of one token free of gold
        ca = c[a]
        h = ca.astype(np.uint64) + np.uint64(1)
        ct, power, out = ca, 1, {}
        with np.errstate(over="ignore"):
            for m in range(1, max(wanted) + 1):
                if m > 1:
                    ok = ~self.blocked[a + m - 1]
                    a, h, ca = a[ok], h[ok], ca[ok]
                    ct = c[a + m - 1]
                    power = power * _BASE % 2 ** 64
                    h += (ct.astype(np.uint64) + np.uint64(1)) * np.uint64(power)
                if m not in wanted:
                    continue
                first, last = ends[m]
                sel = first[ca] & last[ct]
                w, hw = a[sel], h[sel]
                after = np.where(start[w + m], -2, c[w + m])
                w, k = sieves[m].through(w, _context_keys(hw, before[w], after, m))
                keys = wanted[m]
                at = np.minimum(np.searchsorted(keys, k), max(len(keys) - 1, 0))
                hit = keys[at] == k if len(keys) else np.zeros(len(k), bool)
                out[m] = (w[hit] + self.t0, k[hit])
        return out


class _Sieve:
    """A table of bits, one for each value of the top bits of some keys (64 bits a key at least, 2**27 at most): a
    key whose bit is not set is none of them, so only the few others need a binary search among the keys."""

    def __init__(self, keys: np.ndarray):
        bits = min(27, max(15, (64 * len(keys)).bit_length()))
        self.shift = np.uint64(64 - bits)
        top = keys >> self.shift
        self.table = np.zeros(1 << (bits - 3), np.uint8)
        np.bitwise_or.at(self.table, (top >> np.uint64(3)).astype(np.intp),
                         np.left_shift(1, (top & np.uint64(7)).astype(np.uint8)).astype(np.uint8))

    def through(self, a: np.ndarray, k: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """The windows ``a`` and their keys ``k`` that may be among the keys."""
        top = k >> self.shift
        keep = (self.table[(top >> np.uint64(3)).astype(np.intp)] >> (top & np.uint64(7)).astype(np.uint8)) & 1
        return a[keep.view(bool)], k[keep.view(bool)]


def _ends(codes: np.ndarray, first: np.ndarray, last: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per lower-cased token (its id in ``codes``) whether it is the ``first`` token of a gold span, the ``last``."""
    size = int(codes.max()) + 1 if len(codes) else 1
    starts, ends = np.zeros(size, bool), np.zeros(size, bool)
    starts[codes[first]] = True
    ends[codes[last]] = True
    return starts, ends


def _runs(first: np.ndarray, count: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The positions ``first[j]`` .. ``first[j] + count[j] - 1`` of every run ``j``, one after another, and the run
    of each."""
    run = np.repeat(np.arange(len(first)), count)
    return (np.asarray(first)[run] + np.arange(len(run)) - np.repeat(np.cumsum(count) - count, count)), run


def _same(codes: np.ndarray, a: np.ndarray, b: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Whether the ``m`` tokens from ``a`` are those from ``b`` (lower-cased), window by window."""
    same = np.ones(len(a), bool)
    for k in range(int(m.max()) if len(m) else 0):
        at = np.flatnonzero(same & (m > k))
        same[at] = codes[a[at] + k] == codes[b[at] + k]
    return same


def unannotated_inconsistencies(corpus: Corpus, texts: Texts, top: Optional[int],
                                window: int) -> Tuple[int, List[Inconsistency]]:
    """Gold strings in a context where they are a gold span in one place and touch no gold span in
    another (see the module docstring); how many such strings in contexts in all, the first ``top``.
    The gold spans' context keys first, then the windows of a range of whole sentences at a time."""
    gold = corpus.gold
    if not texts.available or not len(gold):
        return 0, []
    codes = texts.lower_ids()
    gstart = np.asarray(gold.start)                               # (as kept: int32 while the tokens fit)
    glen = np.asarray(gold.last) - gstart + 1
    gbefore, gafter = _contexts(corpus, codes, gstart, glen)
    gkey = np.zeros(len(gold), np.uint64)
    lengths = np.unique(glen).tolist()
    h = _hashes(codes, gstart, glen)
    for m in lengths:
        sel = glen == m
        gkey[sel] = _context_keys(h[sel], gbefore[sel], gafter[sel], m)
    wanted = {m: unique(gkey[glen == m]) for m in lengths}         # sorted, for a binary search per window
    ends = {m: _ends(codes, gold.start[glen == m], gold.last[glen == m]) for m in lengths}
    sieves = {m: _Sieve(wanted[m]) for m in lengths}
    hits: Dict[int, List[Tuple[np.ndarray, np.ndarray]]] = {m: [] for m in lengths}
    for t0, t1 in _pieces(corpus):
        for m, found_m in _Piece(corpus, codes, t0, t1).unannotated(wanted, ends, sieves).items():
            hits[m].append(found_m)
    parts = [h for m in lengths for h in hits[m]]
    hs = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    hk = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.uint64)
    # group by context key (the keys in the order they are first hit, each key's hits and gold spans in their
    # order); verify tokens and contexts exactly against the key's first gold span (hash collisions would only
    # add candidates)
    order = np.argsort(hk, kind="stable")
    hit, first, count = np.unique(hk[order], return_index=True, return_counts=True)
    gorder = np.argsort(gkey, kind="stable")
    lo, hi = np.searchsorted(gkey[gorder], hit), np.searchsorted(gkey[gorder], hit, side="right")
    shared = hi > lo
    hit, first, count, lo, hi = hit[shared], first[shared], count[shared], lo[shared], hi[shared]
    along = np.empty(len(hit), np.int64)
    along[np.argsort(order[first], kind="stable")] = np.arange(len(hit))
    ref = gorder[lo]
    m_ref = glen[ref]
    at, run = _runs(lo, hi - lo)
    spans = gorder[at]
    ok_span = ((glen[spans] == m_ref[run]) & (gbefore[spans] == gbefore[ref][run])
               & (gafter[spans] == gafter[ref][run]))
    ok_span &= _same(codes, gstart[spans], gstart[ref][run], np.where(ok_span, m_ref[run], 0))
    at, wrun = _runs(first, count)
    starts = hs[order[at]]
    before, after = _contexts(corpus, codes, starts, m_ref[wrun])
    ok_start = (before == gbefore[ref][wrun]) & (after == gafter[ref][wrun])
    ok_start &= _same(codes, starts, gstart[ref][wrun], np.where(ok_start, m_ref[wrun], 0))
    spans, run, starts, wrun = spans[ok_span], run[ok_span], starts[ok_start], wrun[ok_start]
    n_spans = np.bincount(run, minlength=len(hit))
    n_starts = np.bincount(wrun, minlength=len(hit))
    min_start = np.full(len(hit), corpus.n_tokens, np.int64)
    np.minimum.at(min_start, wrun, starts)
    found = np.flatnonzero((n_spans > 0) & (n_starts > 0))
    found = found[np.lexsort((along[found], min_start[found], -n_spans[found], -n_starts[found]))]
    span_cut, start_cut = np.searchsorted(run, found), np.searchsorted(wrun, found)
    return len(found), [_unannotated(corpus, texts, spans[a:a + n_spans[j]].tolist(),
                                     starts[b:b + n_starts[j]].tolist(), int(m_ref[j]), window)
                        for j, a, b in zip(*(x[:top].tolist() for x in (found, span_cut, start_cut)))]


def _unannotated(corpus: Corpus, texts: Texts, spans: List[int], starts: List[int], m: int,
                 window: int) -> Inconsistency:
    """The row of a string of ``m`` tokens that is the gold ``spans`` and unannotated at ``starts``."""
    gold = corpus.gold
    labs = np.bincount(gold.label[spans], minlength=len(corpus.labels))
    s, g = min(starts), int(gold.start[min(spans, key=lambda i: int(gold.start[i]))])
    return Inconsistency("unannotated", texts.text(s, s + m - 1), corpus.labels[int(np.argmax(labs))],
                         {corpus.labels[k]: int(labs[k]) for k in np.flatnonzero(labs).tolist()},
                         len(spans), len(starts), _gold_example(corpus, "unannotated", s, s + m - 1, window),
                         _gold_example(corpus, "unannotated", g, g + m - 1, window))
