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
from ..core.arrays import unique
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
    sid, _ = texts.strings(gold.start, gold.last, lower=True)
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
    bad = bad[np.lexsort((pos[bad], -total[bad], -deviating[bad]))]
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


def _gold_example(corpus: Corpus, kind: str, first: int, last: int, window: int) -> Example:
    return example(corpus, {"gold": corpus.gold}, {"gold": gold_where(corpus, first)}, kind, "gold", first, last,
                   window)


# polynomial hashing of token windows (uint64 arithmetic wraps around: hashing mod 2**64)
_BASE = 0x9E3779B97F4A7C15 | 1
_MIX = (0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 0xD6E8FEB86659FD93)


def _window_hashes(codes: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Prefix sums and inverse powers such that the hash of tokens [a, b) is
    ``(pre[b] - pre[a]) * inv[a]`` (mod 2**64)."""
    n = len(codes)
    with np.errstate(over="ignore"):
        powers = np.ones(n, np.uint64)
        inverse = np.ones(n, np.uint64)
        if n > 1:
            powers[1:] = np.uint64(_BASE)
            inverse[1:] = np.uint64(pow(_BASE, -1, 2 ** 64))
            powers = np.cumprod(powers, dtype=np.uint64)
            inverse = np.cumprod(inverse, dtype=np.uint64)
        pre = np.zeros(n + 1, np.uint64)
        pre[1:] = np.cumsum((codes.astype(np.uint64) + np.uint64(1)) * powers, dtype=np.uint64)
    return pre, inverse


def _context_keys(h: np.ndarray, before: np.ndarray, after: np.ndarray, length: int) -> np.ndarray:
    with np.errstate(over="ignore"):
        k = h * np.uint64(_MIX[0]) + (before + 3).astype(np.uint64)
        k = k * np.uint64(_MIX[1]) + (after + 3).astype(np.uint64)
        key: np.ndarray = k * np.uint64(_MIX[2]) + np.uint64(length)
        return key


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
    """The token windows of one range of whole sentences: hashes, contexts and gold coverage, numbered from
    its first token ``t0``."""

    def __init__(self, corpus: Corpus, codes: np.ndarray, t0: int, t1: int):
        gold = corpus.gold
        self.t0, n = t0, t1 - t0
        self.codes = codes = np.asarray(codes[t0:t1])
        offsets = corpus.sent_offsets
        s0, s1 = np.searchsorted(offsets, [t0, t1])
        lengths = np.diff(offsets[s0:s1 + 1])
        self.first_tok = np.repeat(offsets[s0:s1] - t0, lengths)
        self.end_tok = np.repeat(offsets[s0 + 1:s1 + 1] - t0, lengths)
        self.n = n
        at = np.arange(n)
        self.before = np.where(at > self.first_tok, np.concatenate(([-1], codes[:-1])), -1)   # -1: sentence start
        self.pre, self.inv = _window_hashes(codes)
        lo, hi = np.searchsorted(gold.start, [t0, t1]) if len(gold) and (t0, t1) != (0, corpus.n_tokens) \
            else (0, len(gold))
        self.g = np.arange(lo, hi)
        self.gstart, self.glast = gold.start[lo:hi] - t0, gold.last[lo:hi] - t0
        covered = np.zeros(n + 1, np.int64)
        np.add.at(covered, self.gstart, 1)
        np.add.at(covered, self.glast + 1, -1)
        self.cum = np.concatenate(([0], np.cumsum(np.cumsum(covered[:-1]) > 0)))

    def after(self, last: np.ndarray) -> np.ndarray:
        nxt = np.minimum(last + 1, self.n - 1)
        return np.where(last + 1 < self.end_tok[last], self.codes[nxt], -2)                 # -2: sentence end

    def keys(self, a: np.ndarray, m: int) -> np.ndarray:
        """The context keys of the windows of ``m`` tokens starting at ``a``."""
        with np.errstate(over="ignore"):
            h = (self.pre[a + m] - self.pre[a]) * self.inv[a]
        return _context_keys(h, self.before[a], self.after(a + m - 1), m)

    def gold_keys(self) -> Tuple[np.ndarray, np.ndarray]:
        """Per gold span of the piece its length and its context key."""
        glen = self.glast - self.gstart + 1
        gkey = np.zeros(len(glen), np.uint64)
        for m in np.unique(glen).tolist():
            sel = glen == m
            gkey[sel] = self.keys(self.gstart[sel], m)
        return glen, gkey

    def unannotated(self, m: int, keys: np.ndarray, ends: Tuple[np.ndarray, np.ndarray],
                    sieve: _Sieve) -> Tuple[np.ndarray, np.ndarray]:
        """The windows of ``m`` tokens within a sentence, touching no gold span, whose key is among ``keys``
        (sorted): their first tokens (in the whole corpus) and keys.  Only windows whose first and last token
        (lower-cased) are among ``ends`` (per lower-cased token whether it is the first, the last token of a
        gold span of ``m`` tokens) are hashed, and only those of their keys that pass ``sieve`` (made of
        ``keys``) are looked up."""
        first, last = ends
        a = np.flatnonzero(first[self.codes[:max(0, self.n - m + 1)]])
        a = a[last[self.codes[a + m - 1]]]
        a = a[(a + m) <= self.end_tok[a]]                                       # within one sentence
        a = a[self.cum[a + m] == self.cum[a]]                                   # no gold token inside
        k = self.keys(a, m)
        a, k = sieve.through(a, k)
        at = np.minimum(np.searchsorted(keys, k), max(len(keys) - 1, 0))
        hit = keys[at] == k if len(keys) else np.zeros(len(k), bool)
        return a[hit] + self.t0, k[hit]


class _Sieve:
    """A table of the top bits of some keys (8 slots a key at least): a key whose slot is empty is none of
    them, so only the few others need a binary search among the keys."""

    def __init__(self, keys: np.ndarray):
        self.shift = np.uint64(64 - min(24, max(12, (8 * len(keys)).bit_length())))
        self.table = np.zeros(1 << (64 - int(self.shift)), bool)
        self.table[(keys >> self.shift).astype(np.intp)] = True

    def through(self, a: np.ndarray, k: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """The windows ``a`` and their keys ``k`` that may be among the keys."""
        keep = self.table[(k >> self.shift).astype(np.intp)]
        return a[keep], k[keep]


def _ends(codes: np.ndarray, first: np.ndarray, last: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per lower-cased token (its id in ``codes``) whether it is the ``first`` token of a gold span, the ``last``."""
    size = int(codes.max()) + 1 if len(codes) else 1
    starts, ends = np.zeros(size, bool), np.zeros(size, bool)
    starts[codes[first]] = True
    ends[codes[last]] = True
    return starts, ends


def unannotated_inconsistencies(corpus: Corpus, texts: Texts, top: Optional[int],
                                window: int) -> Tuple[int, List[Inconsistency]]:
    """Gold strings in a context where they are a gold span in one place and touch no gold span in
    another (see the module docstring); how many such strings in contexts in all, the first ``top``.
    Read a range of whole sentences at a time, twice: the gold spans' context keys, then the windows."""
    gold = corpus.gold
    if not texts.available or not len(gold):
        return 0, []
    codes = texts.lower_ids()
    pieces = _pieces(corpus)
    lens, keys = [], []
    for t0, t1 in pieces:
        glen_p, gkey_p = _Piece(corpus, codes, t0, t1).gold_keys()
        lens.append(glen_p)
        keys.append(gkey_p)
    glen, gkey = np.concatenate(lens), np.concatenate(keys)
    lengths = np.unique(glen).tolist()
    wanted = {m: unique(gkey[glen == m]) for m in lengths}         # sorted, for a binary search per window
    ends = {m: _ends(codes, gold.start[glen == m], gold.last[glen == m]) for m in lengths}
    sieves = {m: _Sieve(wanted[m]) for m in lengths}
    hits: Dict[int, List[Tuple[np.ndarray, np.ndarray]]] = {m: [] for m in lengths}
    for t0, t1 in pieces:
        piece = _Piece(corpus, codes, t0, t1)
        for m in lengths:
            hits[m].append(piece.unannotated(m, wanted[m], ends[m], sieves[m]))
    hs = np.concatenate([h[0] for m in lengths for h in hits[m]])
    hk = np.concatenate([h[1] for m in lengths for h in hits[m]])
    # group by context key (arrays, not a list a hit); verify tokens exactly (hash collisions would only add
    # candidates); the keys in the order they are first hit, each key's hits and gold spans in their order
    order = np.argsort(hk, kind="stable")
    hit, first, count = np.unique(hk[order], return_index=True, return_counts=True)
    shared = np.isin(hit, gkey)
    hit, first, count = hit[shared], first[shared], count[shared]
    along = np.argsort(order[first], kind="stable")
    mine = np.flatnonzero(np.isin(gkey, hit))
    mine = mine[np.argsort(gkey[mine], kind="stable")]
    cut = np.searchsorted(gkey[mine], hit)
    cut_end = np.searchsorted(gkey[mine], hit, side="right")
    offsets = corpus.sent_offsets

    def context(a: int, b: int) -> Tuple[int, ...]:
        s = int(np.searchsorted(offsets, a, side="right")) - 1
        e = int(np.searchsorted(offsets, b, side="right"))
        before = int(codes[a - 1]) if a > int(offsets[s]) else -1
        nxt = int(codes[b + 1]) if b + 1 < int(offsets[e]) else -2
        return (before, *codes[a:b + 1].tolist(), nxt)

    found = []
    for j in along.tolist():
        spans = mine[cut[j]:cut_end[j]].tolist()
        starts = hs[order[first[j]:first[j] + count[j]]].tolist()
        ref = context(int(gold.start[spans[0]]), int(gold.last[spans[0]]))
        m = int(glen[spans[0]])
        spans = [i for i in spans if context(int(gold.start[i]), int(gold.last[i])) == ref]
        starts = [s for s in starts if context(s, s + m - 1) == ref]
        if spans and starts:
            found.append((spans, starts, m))
    found.sort(key=lambda f: (-len(f[1]), -len(f[0]), min(f[1])))
    return len(found), [_unannotated(corpus, texts, spans, starts, m, window)
                        for spans, starts, m in (found if top is None else found[:top])]


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
