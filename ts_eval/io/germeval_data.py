"""GermEval 2014 data: the label set, one system's tags, and their chunks.

- the official label set (:data:`LABELS`, :data:`TAGS` and their id tables);
- :class:`GermEvalData`: gold's and one system's tags on both levels, token by token
  (what :mod:`.reader` reads from files);
- :func:`decode_level`: one level's tags -> chunks, one rule per policy (the default,
  ``nereval``, is the official scorer's own rule), :func:`level_chunks` for all four rows,
  and :func:`sentence_bounded` (chunks cut at sentence ends) for the models that need it.

The :class:`ts_eval.core.corpus.Corpus` views of the chunks are :mod:`.corpus`'s.  Nothing
here reads files or computes a score.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core import schemes
from ..core.corpus import SpanSet
from ..errors import OptionError

# ---------------------------------------------------------------------------
# the official label set

BASES: Tuple[str, ...] = ("LOC", "ORG", "OTH", "PER")
#: the twelve labels, in the official scorer's (ASCII) sort order; label k has base k // 3
LABELS: Tuple[str, ...] = tuple(b + s for b in BASES for s in ("", "deriv", "part"))
#: tag vocabulary: id 0 is O, id 1 + 2k is B-LABELS[k], id 2 + 2k is I-LABELS[k]
TAGS: Tuple[str, ...] = ("O",) + tuple(f"{p}-{lab}" for lab in LABELS for p in "BI")
TAG_ID: Dict[str, int] = {t: k for k, t in enumerate(TAGS)}
TAG_PREFIX = np.array([schemes.O] + [schemes.B, schemes.I] * len(LABELS), np.int8)
TAG_LABEL = np.array([-1] + [k for k in range(len(LABELS)) for _ in "BI"], np.int16)   # -1 for O
TAG_BASE = np.where(TAG_LABEL >= 0, TAG_LABEL // 3, -1).astype(np.int16)
LEVELS: Tuple[str, ...] = ("outer", "inner")
#: rows of :attr:`GermEvalData.tags`
ROW_NAMES: Tuple[str, ...] = ("gold outer", "gold inner", "system outer", "system inner")
POLICIES: Tuple[str, ...] = ("nereval", "conlleval", "strict", "discard")


@dataclass
class GermEvalData:
    """One system's tags and gold's, both levels, aligned token by token.

    ``tags`` has four rows (see :data:`ROW_NAMES`) of ids into :data:`TAGS`.
    ``sent_first`` marks the first token of every sentence.  Line numbers point
    into the file each row came from (the same file in the 6-column layout).
    """

    name: str
    gold_path: str
    system_path: str
    layout: str                          # "6col" or "pair"
    tags: np.ndarray                     # (4, n) uint8
    sent_first: np.ndarray               # (n,) bool
    gold_lines: np.ndarray               # (n,) 1-based line numbers in gold_path
    system_lines: np.ndarray             # (n,) 1-based line numbers in system_path
    texts: Callable[[int, int], List[str]]
    comment_lines: int = 0               # '#' lines in the gold file
    blank_lines: int = 0                 # blank lines in the gold file

    @property
    def n_tokens(self) -> int:
        return int(self.tags.shape[1])

    @property
    def sent_offsets(self) -> np.ndarray:
        return np.append(np.flatnonzero(self.sent_first), self.n_tokens).astype(np.int64)

    @property
    def n_sentences(self) -> int:
        return int(np.count_nonzero(self.sent_first))

    def row(self, side: str, level: str) -> np.ndarray:
        row: np.ndarray = self.tags[ROW_NAMES.index(f"{side} {level}")]
        return row

    def where(self, row: int, token: int) -> Tuple[str, int]:
        """(path, line) of a token on one row (gold rows: the gold file, system rows: the system file)."""
        if row < 2:
            return self.gold_path, int(self.gold_lines[token])
        return self.system_path, int(self.system_lines[token])


class TokenTexts:
    """``texts(a, b)`` of a piece of a file: the token texts a..b-1, looked up in the blocks the piece
    spans (segments: first token in the piece, tokens, the block's ``texts``, first token in the block),
    so that a piece of a piece keeps only the blocks it needs."""

    def __init__(self, segments: Sequence[Tuple[int, int, Callable[[int, int], List[str]], int]]) -> None:
        self.segments = list(segments)

    @classmethod
    def of(cls, texts: Callable[[int, int], List[str]], n: int) -> TokenTexts:
        return texts if isinstance(texts, TokenTexts) else cls([(0, n, texts, 0)])

    def __call__(self, a: int, b: int) -> List[str]:
        out: List[str] = []
        for at, n, texts, skip in self.segments:
            lo, hi = max(a, at), min(b, at + n)
            if lo < hi:
                out += texts(lo - at + skip, hi - at + skip)
        return out

    def part(self, a: int, b: int) -> TokenTexts:
        """The texts of tokens a..b-1, renumbered from 0."""
        out = []
        for at, n, texts, skip in self.segments:
            lo, hi = max(a, at), min(b, at + n)
            if lo < hi:
                out.append((lo - a, hi - lo, texts, skip + lo - at))
        return TokenTexts(out)

    def then(self, other: TokenTexts, n: int) -> TokenTexts:
        """These texts (``n`` tokens), then ``other``'s."""
        return TokenTexts(self.segments + [(at + n, k, texts, skip) for at, k, texts, skip in other.segments])


def piece_of(data: GermEvalData, a: int, b: int) -> GermEvalData:
    """Tokens a..b-1 of ``data`` (whole sentences) as a :class:`GermEvalData` of their own; the '#' and
    blank lines go with the first piece."""
    return dataclasses.replace(
        data, tags=data.tags[:, a:b].copy(), sent_first=data.sent_first[a:b].copy(),
        gold_lines=data.gold_lines[a:b].copy(), system_lines=data.system_lines[a:b].copy(),
        texts=TokenTexts.of(data.texts, data.n_tokens).part(a, b),
        comment_lines=data.comment_lines if a == 0 else 0, blank_lines=data.blank_lines if a == 0 else 0)


def joined(first: GermEvalData, then: GermEvalData) -> GermEvalData:
    """Two pieces of a file one after the other (``then`` starts a sentence)."""
    return dataclasses.replace(
        first, tags=np.hstack([first.tags, then.tags]), sent_first=np.concatenate([first.sent_first, then.sent_first]),
        gold_lines=np.concatenate([first.gold_lines, then.gold_lines]),
        system_lines=np.concatenate([first.system_lines, then.system_lines]),
        texts=TokenTexts.of(first.texts, first.n_tokens).then(TokenTexts.of(then.texts, then.n_tokens),
                                                              first.n_tokens),
        comment_lines=first.comment_lines + then.comment_lines, blank_lines=first.blank_lines + then.blank_lines)


def last_cut(data: GermEvalData, policy: str) -> int:
    """The last sentence start (after the first token) where ``data`` can be cut without cutting a chunk
    under ``policy`` (0: none).  Only ``nereval`` chunks run on over a sentence start: where a row's tag
    there is ``I-`` and the tag before it is not ``O``."""
    starts = np.flatnonzero(data.sent_first[1:]) + 1
    if policy == "nereval" and len(starts):
        p = TAG_PREFIX[data.tags]
        runs_on = ((p[:, starts] == schemes.I) & (p[:, starts - 1] != schemes.O)).any(axis=0)
        starts = starts[~runs_on]
    return int(starts[-1]) if len(starts) else 0


def check_policy_name(policy: str) -> None:
    """Reject a policy name that is not one of :data:`POLICIES`."""
    if policy not in POLICIES:
        raise OptionError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")


# ---------------------------------------------------------------------------
# chunks

@dataclass
class LevelChunks:
    """Chunks of one row (gold or system, outer or inner): global token indices, first and
    last token (``start``, ``last``).

    ``label`` is the label id (into :data:`LABELS`) of the chunk's first token, which is
    the type the official scorer files it under.  A chunk is *ill formed* when it is not
    a well-formed IOB2 span: it starts with ``I-``, its ``I-`` tags change label
    (``nereval`` policy only), or it runs over a sentence boundary (``nereval`` only).
    """

    start: np.ndarray
    last: np.ndarray
    label: np.ndarray
    ill_formed: np.ndarray
    crosses: np.ndarray            # runs over a sentence boundary
    mixed: np.ndarray              # its tags change label inside it
    dropped: int = 0               # ill-formed chunks dropped (policy discard)

    def __len__(self) -> int:
        return len(self.start)


def sentence_counts(sent_first: np.ndarray) -> np.ndarray:
    """``out[k]``: the sentence starts among the first ``k`` tokens (what :func:`decode_level` reads to tell
    whether a chunk runs over a sentence start)."""
    return np.concatenate(([0], np.cumsum(sent_first, dtype=np.int64)))


def decode_level(tags: np.ndarray, sent_first: np.ndarray, policy: str = "nereval",
                 sf_cum: Optional[np.ndarray] = None) -> LevelChunks:
    """Decode one row of tag ids into chunks under a policy.

    ``nereval``   the official scorer's rule: a chunk starts at ``B-`` or at an ``I-``
                  after ``O``, and runs until the next ``B-`` or ``O``: an ``I-`` of another
                  label continues it, and so does an ``I-`` at the start of a sentence
                  (the scorer skips blank lines, so chunks run on over them);
    ``conlleval`` conlleval.pl's rule: an ``I-`` after ``O``, after another label or at a
                  sentence start opens a new chunk; chunks end at sentence ends;
    ``strict``    as conlleval (the reader has rejected ill-formed input);
    ``discard``   as conlleval, then the chunks that start with ``I-`` are dropped.

    ``sf_cum``: :func:`sentence_counts` of ``sent_first``, when made already (it is the same for every row).
    """
    check_policy_name(policy)
    n = len(tags)
    p = TAG_PREFIX[tags]
    lab = TAG_LABEL[tags]
    sent_first = np.asarray(sent_first, bool)
    if policy == "nereval":
        prev = np.empty(n, np.int8)
        prev[:1] = schemes.O
        prev[1:] = p[:-1]
        opens = (p == schemes.B) | ((p == schemes.I) & (prev == schemes.O))
        breaks = np.flatnonzero(opens | (p == schemes.O))
        at = np.flatnonzero(opens[breaks])          # the breaks that open a chunk; it runs to the next break
        starts = breaks[at]
        lasts = np.append(breaks, n)[at + 1] - 1
        if sf_cum is None:
            sf_cum = sentence_counts(sent_first)
        crosses = (sf_cum[lasts + 1] - sf_cum[starts + 1]) > 0
        change = np.zeros(n, bool)
        change[1:] = lab[1:] != lab[:-1]
        ch_cum = np.concatenate(([0], np.cumsum(change, dtype=np.int64)))
        mixed = (ch_cum[lasts + 1] - ch_cum[starts + 1]) > 0
        bad = (p[starts] == schemes.I) | crosses | mixed
        return LevelChunks(starts.astype(np.int64), lasts.astype(np.int64), lab[starts].astype(np.int16),
                           bad, crosses, mixed)
    dec = schemes.decode(p, lab.astype(np.int32), sent_first, "IOB2")
    keep = ~dec.ill_formed if policy == "discard" else np.ones(len(dec.start), bool)
    z = np.zeros(int(keep.sum()), bool)
    return LevelChunks(dec.start[keep].astype(np.int64), dec.last[keep].astype(np.int64),
                       dec.label[keep].astype(np.int16), dec.ill_formed[keep], z, z.copy(),
                       dropped=int((~keep).sum()))


def level_chunks(data: GermEvalData, policy: str = "nereval") -> Dict[Tuple[str, str], LevelChunks]:
    """Chunks of the four rows (gold/system x outer/inner) under ``policy``."""
    sf_cum = sentence_counts(np.asarray(data.sent_first, bool)) if policy == "nereval" else None
    return {(side, level): decode_level(data.row(side, level), data.sent_first, policy, sf_cum)
            for side in ("gold", "system") for level in LEVELS}


def spanset(ch: LevelChunks) -> SpanSet:
    """The chunks as a span set (label ids into :data:`LABELS`)."""
    return SpanSet(ch.start, ch.last, ch.label.astype(np.int32))


# ---------------------------------------------------------------------------
# corpora: both levels' chunks as span sets


def sentence_bounded(ch: LevelChunks, sent_offsets: np.ndarray) -> SpanSet:
    """The chunks as a span set, with chunks that run over a sentence boundary cut at it."""
    ss = spanset(ch)
    if not ch.crosses.any():
        return ss
    keep = ~ch.crosses
    starts, lasts, labels = [ss.start[keep]], [ss.last[keep]], [ss.label[keep]]
    for b, e, lab in zip(ss.start[ch.crosses].tolist(), ss.last[ch.crosses].tolist(), ss.label[ch.crosses].tolist()):
        cuts = sent_offsets[(sent_offsets > b) & (sent_offsets <= e)].tolist()
        bounds = [b] + cuts
        for lo, hi in zip(bounds, cuts + [e + 1]):
            starts.append(np.array([lo]))
            lasts.append(np.array([hi - 1]))
            labels.append(np.array([lab], np.int32))
    return SpanSet(np.concatenate(starts).astype(np.int64), np.concatenate(lasts).astype(np.int64),
                   np.concatenate(labels).astype(np.int32)).sorted()


def union(sets: Sequence[SpanSet]) -> SpanSet:
    """The spans of several sets in one, sorted (one set: itself)."""
    ss = sets[0]
    for b in sets[1:]:
        ss = SpanSet(np.concatenate([ss.start, b.start]), np.concatenate([ss.last, b.last]),
                     np.concatenate([ss.label, b.label])).sorted()
    return ss
