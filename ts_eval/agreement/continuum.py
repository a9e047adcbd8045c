"""The continuum of Krippendorff's unitizing alpha: sentences laid end to end, measured in atoms.

``continuum="tokens"``: the token-and-separator units, a token ``q`` atoms long and a separator ``p``
atoms, where ``p / q`` is the separator weight in lowest terms (weight 1: one atom each; 0: tokens
only; 0.5: a token is two atoms and a separator one).  Krippendorff's alpha_u counts positions in
whole atoms (its expected disagreement counts the places a unit fits into a gap), so the weight must
be a ratio of small integers.  ``continuum="characters"``: a token is as many atoms as it has
characters and a separator one (the tokens joined by one space).

A unit is a span of one annotator after that annotator's overlapping spans of the label are merged
(Krippendorff's units of one category never overlap); a gap is a stretch of a sentence that holds no
unit of the label (gaps end at sentence boundaries: a unit cannot be placed across them).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import List, Optional, Tuple

import numpy as np

from ..core.corpus import Corpus, SpanSet
from ..core.matching import Pairs, match
from ..errors import OptionError

CONTINUA = ("tokens", "characters")
Bounds = Tuple[np.ndarray, np.ndarray]      # spans' begins and ends (exclusive) on the continuum
MAX_DENOMINATOR = 1000


def atoms(separator_weight: float) -> Tuple[int, int]:
    """(token atoms, separator atoms) of a separator weight: q and p with p / q = the weight."""
    f = Fraction(float(separator_weight)).limit_denominator(MAX_DENOMINATOR)
    if abs(float(f) - float(separator_weight)) > 1e-9:
        raise OptionError(f"separator weight {separator_weight} is not a ratio p / q of integers with q <= "
                          f"{MAX_DENOMINATOR}; unitizing alpha measures the continuum in whole atoms")
    return f.denominator, f.numerator


class Continuum:
    """Every token's begin and length on the continuum, and every sentence's begin and length."""

    def __init__(self, corpus: Corpus, kind: str = "tokens", separator_weight: float = 1.0):
        if kind not in CONTINUA:
            raise OptionError(f"continuum {kind!r}: expected one of {', '.join(CONTINUA)}")
        self.kind = kind
        n = corpus.n_tokens
        off = corpus.sent_offsets
        last_of_sentence = np.zeros(n, bool)
        last_of_sentence[off[1:] - 1] = True
        if kind == "tokens":
            q, p = atoms(separator_weight)
            self.token_atoms, self.separator_atoms = q, p
            tl = np.full(n, q, np.int64)
            sl = np.where(last_of_sentence, 0, p).astype(np.int64)
        else:
            if corpus.tokens is None:
                raise OptionError("continuum 'characters' needs the tokens' texts; these annotations have none")
            toks = corpus.tokens(0, n)
            tl = np.fromiter((max(len(t), 1) for t in toks), np.int64, n)
            sl = np.where(last_of_sentence, 0, 1).astype(np.int64)
            self.token_atoms, self.separator_atoms = 0, 1
        self.token_length = tl
        self.begin = np.concatenate(([0], np.cumsum(tl + sl)[:-1])) if n else np.zeros(0, np.int64)
        self.sentence_begin = self.begin[off[:-1]]
        end = self.begin[off[1:] - 1] + tl[off[1:] - 1]
        self.sentence_length = end - self.sentence_begin

    def bounds(self, spans: SpanSet) -> Bounds:
        """Begin and end (exclusive) of spans on the continuum."""
        return self.begin[spans.start], self.begin[spans.last] + self.token_length[spans.last]

    def distance(self, a: SpanSet, b: SpanSet, corpus: Corpus, n_labels: int, matched: Optional[Pairs] = None,
                 keys: Optional[Tuple[np.ndarray, np.ndarray]] = None, rows: Optional[int] = None,
                 bounds: Optional[Tuple[Bounds, Bounds]] = None) -> np.ndarray:
        """(sentences, labels): the sum of Krippendorff's distances between the sections of two
        annotators (``a`` and ``b``: merged spans; ``matched``: ``match(a, b)`` when it is known): two
        overlapping units of the label add (b_a - b_b)^2 + (e_a - e_b)^2, a unit inside the other's gap its
        length squared; ``keys``: per span of ``a`` and of ``b`` its row times ``n_labels`` plus its label, of
        ``rows`` rows (default: its sentence's); ``bounds``: theirs, when known."""
        S = corpus.n_sentences if rows is None else rows
        p = match(a, b) if matched is None else matched
        p = p.take(p.same_label)
        (ba, ea), (bb, eb) = bounds if bounds is not None else (self.bounds(a), self.bounds(b))
        ka, kb = keys if keys is not None else (corpus.sentence_of(x.start) * n_labels + x.label for x in (a, b))
        d = (ba[p.gold] - bb[p.system]).astype(float) ** 2 + (ea[p.gold] - eb[p.system]).astype(float) ** 2
        out = np.bincount(ka[p.gold], weights=d, minlength=S * n_labels)[:S * n_labels].astype(float)
        for side, k, (bs, es), hit in ((a, ka, (ba, ea), p.gold), (b, kb, (bb, eb), p.system)):
            alone = np.ones(len(side), bool)
            alone[hit] = False
            sq = (es[alone] - bs[alone]).astype(float) ** 2
            out += np.bincount(k[alone], weights=sq, minlength=S * n_labels)[:S * n_labels]
        return out.reshape(S, n_labels)


@dataclass
class Keyed:
    """Entries of a sparse block: sentence, column (and label), count."""

    sentence: np.ndarray
    column: np.ndarray
    label: np.ndarray
    count: np.ndarray
    values: np.ndarray              # what the columns stand for (lengths)


@dataclass
class UnitKeys:
    sentence: np.ndarray
    column: np.ndarray              # index into ``flat``
    flat: List[Tuple[int, int]]     # (label, length) of every column
    lengths: List[np.ndarray]       # per label its distinct lengths (sorted)
    columns: List[np.ndarray]       # per label the columns of those lengths


def _met(x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``x`` (small non-negative integers), sorted, and per value below the largest its
    place among them."""
    seen = np.zeros(int(x.max(initial=0)) + 1, bool)
    seen[x] = True
    return np.flatnonzero(seen), np.cumsum(seen) - 1


def unit_parts(corpus: Corpus, merged: List[SpanSet], cont: Continuum, complete: np.ndarray,
               known: Optional[Tuple[List[np.ndarray], List[Bounds]]] = None) -> Tuple[Keyed, Keyed, UnitKeys]:
    """The units' lengths, the gaps and the sentence lengths of every complete sentence (``merged``: each
    annotator's spans as :func:`~ts_eval.core.units.merge_overlaps` gives them, by label, then start;
    ``known``: their sentences and bounds, when known)."""
    L = len(corpus.labels)
    lab_all, len_all, sent_all = [], [], []
    gap_sent, gap_len, gap_lab, gap_cnt = [], [], [], []
    every = bool(complete.all())
    for k, ms in enumerate(merged):
        sent = corpus.sentence_of(ms.start) if known is None else known[0][k]
        if every:
            ss = ms
            b, e = cont.bounds(ss) if known is None else known[1][k]
        else:
            keep = complete[sent]
            ss = ms.take(keep)
            sent = sent[keep]
            b, e = cont.bounds(ss)
        label = ss.label.astype(np.int64)
        lab_all.append(label)
        len_all.append(e - b)
        sent_all.append(sent)
        # the spans are by label, then start: a sentence's units of a label are a run of them, in order
        s, lab = sent, label
        first = np.ones(len(s), bool)
        first[1:] = (s[1:] != s[:-1]) | (lab[1:] != lab[:-1])
        lastg = np.ones(len(s), bool)
        lastg[:-1] = first[1:]
        before = np.where(first, b - cont.sentence_begin[s], b - np.concatenate(([0], e[:-1])))
        after = (cont.sentence_begin[s] + cont.sentence_length[s] - e)[lastg]
        gap_sent += [s, s[lastg], s[first]]
        gap_lab += [lab, lab[lastg], lab[first]]
        gap_len += [before, after, cont.sentence_length[s[first]]]
        gap_cnt += [np.ones(len(s)), np.ones(int(lastg.sum())), -np.ones(int(first.sum()))]
    lab_all_a, len_all_a, sent_all_a = (np.concatenate(x) if x else np.zeros(0, np.int64)
                                        for x in (lab_all, len_all, sent_all))
    g_sent, g_lab, g_len, g_cnt = (np.concatenate(x) for x in (gap_sent, gap_lab, gap_len, gap_cnt))
    pos = g_len > 0
    g_sent, g_lab, g_len, g_cnt = g_sent[pos], g_lab[pos], g_len[pos], g_cnt[pos]
    done = np.flatnonzero(complete)
    s_len = cont.sentence_length[done]
    g_len = g_len.astype(np.int64)
    nz = s_len > 0
    # the lengths met, and a lookup of their columns (lengths are at most a sentence's: no search needed)
    values, at = _met(np.concatenate([g_len, s_len[nz]]))
    gaps = Keyed(g_sent, at[g_len], g_lab, g_cnt, values)
    slen = Keyed(done[nz], at[s_len[nz]], np.zeros(int(nz.sum()), np.int64), np.ones(int(nz.sum())), values)
    # units: one column per (label, length)
    big = int(len_all_a.max(initial=0)) + 1
    key = lab_all_a * big + len_all_a
    flat_keys, column = _met(key)
    flat = [(int(k // big), int(k % big)) for k in flat_keys.tolist()]
    lengths = [np.array([ln for lab, ln in flat if lab == c], np.int64) for c in range(L)]
    columns = [np.array([k for k, (lab, _) in enumerate(flat) if lab == c], np.int64) for c in range(L)]
    units = UnitKeys(sent_all_a, column[key], flat, lengths, columns)
    return gaps, slen, units


