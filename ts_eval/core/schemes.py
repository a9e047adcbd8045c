"""Tagging schemes as data: tag sequences -> spans, with validation and repair counts.

Every named scheme decodes with one rule (vectorised over the whole corpus): a non-O
token opens a span when its prefix always opens one (B, S, U), when the previous
token is O, of another label, in another sentence, or closed its span (E, S, L,
U); otherwise it continues the open span.  Schemes differ only in which prefixes
they allow and which spans are *well formed*, so a scheme is a small table
(:class:`Scheme`): the prefixes allowed on a one-token span, on the first and on
the last token of a longer span.  Middle tokens are always ``I``.

An ill-formed span (``I-X`` after ``O`` in IOB2, ``B-X`` without ``E-X`` in IOBES,
...) is handled by a named policy:

``conlleval``  keep the span as decoded (for IOB2 this is exactly conlleval.pl:
               an ``I-`` that cannot continue the open chunk opens a new one) and
               count one repair;
``strict``     the span is an error;
``discard``    drop the span and count it.

The extra scheme ``conlleval`` reproduces conlleval.pl for *any* tag, as that
script never rejects one: a tag is split at its first hyphen into prefix and type,
a tag without a hyphen is a prefix with the empty type, the type ``0`` is the empty
type (Perl truthiness), and chunks start and end by conlleval.pl's own
``startOfChunk``/``endOfChunk`` rules.  A span runs from a chunk start to the next
start, end or sentence boundary.  Which chunks count as *correct* is not a property of
one side: conlleval.pl runs a state machine over both columns at once, so the decoder
also keeps each side's per-token chunk events (:class:`ConllEvents`) and
:func:`conlleval_correct` replays that state machine (vectorised) for a gold and a
system side; the matcher marks exactly those chunks as exact matches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple, Union

import numpy as np

# prefix codes shared by all schemes
O, B, I, E, S, L, U = 0, 1, 2, 3, 4, 5, 6  # noqa: E741  (the tag prefix letters themselves)
PREFIX_CODES: Dict[str, int] = {"B": B, "I": I, "E": E, "S": S, "L": L, "U": U}
PREFIX_NAMES = ["O", "B", "I", "E", "S", "L", "U"]
_N_PREFIX = len(PREFIX_NAMES)
OPENS = np.zeros(_N_PREFIX, bool)
OPENS[[B, S, U]] = True          # always open a new span
CLOSES = np.zeros(_N_PREFIX, bool)
CLOSES[[E, S, L, U]] = True      # always close the span they are in

POLICIES = ("conlleval", "strict", "discard")


def _mask(letters: str) -> np.ndarray:
    out = np.zeros(_N_PREFIX, bool)
    for ch in letters:
        out[PREFIX_CODES[ch]] = True
    return out


@dataclass(frozen=True)
class Scheme:
    """One tagging scheme as a table of prefixes."""

    name: str
    prefixes: str            # the prefixes the scheme allows besides O
    single: str              # allowed prefix of a one-token span
    first: str               # allowed first prefix of a longer span
    last: str                # allowed last prefix of a longer span
    b_after_same: bool = False   # IOB1: B- only right after a span of the same label
    e_before_same: bool = False  # IOE1: E- only right before a span of the same label
    aliases: Tuple[str, ...] = ()

    def tables(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return _mask(self.prefixes), _mask(self.single), _mask(self.first), _mask(self.last)


SCHEMES: Dict[str, Scheme] = {
    s.name: s
    for s in (
        Scheme("IOB2", "BI", single="B", first="B", last="I", aliases=("BIO",)),
        Scheme("IOB1", "BI", single="IB", first="IB", last="I", b_after_same=True),
        Scheme("IOE1", "IE", single="IE", first="I", last="IE", e_before_same=True),
        Scheme("IOE2", "IE", single="E", first="I", last="E"),
        Scheme("IOBES", "BIES", single="S", first="B", last="E", aliases=("BIOES",)),
        Scheme("BILOU", "BILU", single="U", first="B", last="L"),
        Scheme("IO", "I", single="I", first="I", last="I"),
    )
}
SCHEME_NAMES = tuple(SCHEMES) + ("conlleval", "auto")


def resolve_scheme_name(name: str) -> str:
    """Canonical scheme name for a user-given one (case-insensitive, aliases allowed)."""
    up = name.upper()
    for s in SCHEMES.values():
        if up == s.name or up in s.aliases:
            return s.name
    if name.lower() in ("conlleval", "auto"):
        return name.lower()
    raise ValueError(f"unknown scheme {name!r}; expected one of {', '.join(SCHEME_NAMES)} (or BIO, BIOES)")


# ---------------------------------------------------------------------------
# tag vocabulary -> (prefix code, label)

@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class TagTable:
    """The distinct tags of some data, parsed: prefix code and label per tag.

    ``prefix`` holds codes O..U for named schemes; for the ``conlleval`` scheme it
    holds conlleval classes (see :data:`CONLL_CLASSES`).
    """

    tags: List[str]
    prefix: np.ndarray
    labels: List[str]  # "" for O


class TagError(ValueError):
    """A tag that no scheme can read; the caller adds file and line (:func:`ts_eval.core.corpus`).

    ``parts``: the message, strings and options as ``(keyword, value, ...)`` tuples, which the
    caller makes into :class:`ts_eval.errors.Hint` s (this module imports nothing of ts_eval, so that
    every layer can read tags); ``str()`` writes the options as Python keywords."""

    def __init__(self, tag: str, *parts: Union[str, Tuple[str, ...]]):
        self.tag = tag
        self.parts: Tuple[Union[str, Tuple[str, ...]], ...] = (f"bad tag {tag!r}: ", *parts)
        super().__init__("".join(p if isinstance(p, str) else _keyword(*p) for p in self.parts))


def _keyword(option: str, *values: str) -> str:
    return f"{option}=" + " or ".join(repr(v) for v in values) if values else option


def parse_tags(tags: Sequence[str], scheme: Optional[str]) -> TagTable:
    """Parse distinct tag strings. ``scheme=None`` accepts every known prefix (for auto)."""
    if scheme == "conlleval":
        return _parse_conlleval(tags)
    allowed = set(SCHEMES[scheme].prefixes) if scheme else set(PREFIX_CODES)
    prefix = np.zeros(len(tags), np.int8)
    labels: List[str] = []
    for k, tag in enumerate(tags):
        if tag == "O":
            labels.append("")
            continue
        head, sep, label = tag.partition("-")
        if not sep or len(head) != 1 or head not in PREFIX_CODES:
            raise TagError(tag, "expected O or PREFIX-LABEL with PREFIX one of " + ", ".join(sorted(allowed))
                           + " (e.g. B-PER)")
        if not label:
            raise TagError(tag, "the label after the prefix is empty (use ", ("scheme", "conlleval"),
                           " to accept it as conlleval.pl does)")
        if scheme and head not in allowed:      # (without a scheme every known prefix is allowed)
            raise TagError(tag, f"prefix {head}- is not part of scheme {scheme} "
                           f"(prefixes {', '.join(SCHEMES[scheme].prefixes)}); choose another ",
                           ("scheme",), " or ", ("scheme", "auto"))
        prefix[k] = PREFIX_CODES[head]
        labels.append(label)
    return TagTable(list(tags), prefix, labels)


# conlleval.pl tag classes
C_O, C_B, C_I, C_E, C_LBR, C_RBR, C_DOT, C_OTHER = range(8)
_CONLL_CLASS = {"O": C_O, "B": C_B, "I": C_I, "E": C_E, "[": C_LBR, "]": C_RBR, ".": C_DOT}


def _parse_conlleval(tags: Sequence[str]) -> TagTable:
    prefix = np.zeros(len(tags), np.int8)
    labels = []
    for k, tag in enumerate(tags):
        head, sep, label = tag.partition("-")
        if not sep:
            head, label = tag, ""
        if label == "0":  # Perl: $type ? $type : ""
            label = ""
        prefix[k] = _CONLL_CLASS.get(head, C_OTHER)
        labels.append(label)
    return TagTable(list(tags), prefix, labels)


# ---------------------------------------------------------------------------
# decoding

@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class Decoded:
    """Spans decoded from one tag sequence (global token indices; ``last`` is each span's last token)."""

    start: np.ndarray
    last: np.ndarray
    label: np.ndarray          # label ids as given in ``type_ids``
    ill_formed: np.ndarray     # bool per span
    bad_token: np.ndarray      # per span: the token that makes it ill formed (or -1)
    reason: List[str] = field(default_factory=list)  # why the first ill-formed span is ill formed
    conll: Optional[ConllEvents] = None  # conlleval scheme: per-token chunk events of this side


def _shift_prev(a: np.ndarray, first: np.ndarray, fill: int) -> np.ndarray:
    out = np.empty_like(a)
    out[1:] = a[:-1]
    if len(a):
        out[0] = fill
    out[first] = fill
    return out


def decode(prefix: np.ndarray, types: np.ndarray, sent_first: np.ndarray, scheme: str,
           outside_type: int = -1) -> Decoded:
    """Decode per-token prefix codes and label ids into spans.

    ``sent_first`` is a bool array, True on the first token of every sentence.
    ``types`` holds label ids; ``outside_type`` is the id O tokens carry (the id of
    the empty label), which the ``conlleval`` scheme compares like conlleval.pl does.
    """
    n = len(prefix)
    sent_first = sent_first.astype(bool, copy=False)
    sent_last = np.empty(n, bool)
    if n:
        sent_last[:-1] = sent_first[1:]
        sent_last[-1] = True
    if scheme == "conlleval":
        return _decode_conlleval(prefix, types, sent_first, outside_type)
    sch = SCHEMES[scheme]
    p = prefix  # small ints index the prefix tables directly (no int64 copy of the corpus)
    inside = p != O
    prev_p = _shift_prev(p, sent_first, O)
    prev_t = _shift_prev(types, sent_first, -1)
    opens = inside & (OPENS[p] | (prev_p == O) | (prev_t != types) | CLOSES[prev_p])
    cont = inside & ~opens                   # continues the span of the previous token
    next_cont = np.zeros(n, bool)
    if n:
        next_cont[:-1] = cont[1:]
    next_cont &= ~sent_last
    closes = inside & ~next_cont
    starts = np.flatnonzero(opens)
    lasts = np.flatnonzero(closes)

    def after() -> Tuple[np.ndarray, np.ndarray]:
        nxt = np.minimum(lasts + 1, max(n - 1, 0))
        return np.where(sent_last[lasts], O, p[nxt]), np.where(sent_last[lasts], -1, types[nxt])

    return _checked(sch, starts, lasts, types[starts], p[starts], p[lasts],
                    lambda: (prev_p[starts], prev_t[starts]), after)


def decode_tags(tags: np.ndarray, tag_prefix: np.ndarray, tag_type: np.ndarray, sent_first: np.ndarray,
                scheme: str, outside_type: int = -1, firsts: Optional[np.ndarray] = None) -> Decoded:
    """:func:`decode` of ``tag_prefix[tags]`` and ``tag_type[tags]`` (``tags``: per-token ids into a vocabulary
    of tags; ``tag_prefix``, ``tag_type``: each tag's prefix code and label id), with the same result.

    Whether a token opens or continues a span depends only on its tag and the tag before it in its sentence:
    a vocabulary of up to 256 tags has a table of what each pair of tags does, and each token takes one
    lookup in it instead of a dozen passes over the corpus.  ``firsts``: ``np.flatnonzero(sent_first)``, if
    the caller has it."""
    v = len(tag_prefix)
    if scheme == "conlleval" or v > 256:
        t = tags.astype(np.intp)    # (numpy gathers with an intp index several times faster than with int16)
        return decode(tag_prefix[t], tag_type[t], sent_first, scheme, outside_type)
    sch = SCHEMES[scheme]
    n = len(tags)
    sent_first = sent_first.astype(bool, copy=False)
    pair = np.empty(n, np.intp)     # (the tag before each token in its sentence, v: none) * v + the token's tag
    np.multiply(tags[:-1], v, out=pair[1:], dtype=np.intp, casting="unsafe")
    pair[np.flatnonzero(sent_first) if firsts is None else firsts] = v * v
    pair[:1] = v * v
    pair += tags
    code = _pair_codes(tag_prefix, tag_type)[pair]
    cont = code == 2                # continues the span of the previous token (1: opens one)
    closes = code != 0              # inside a span ...
    closes[:-1] &= ~cont[1:]        # ... and the next token does not continue it (never across sentences)
    starts = np.flatnonzero(code == 1)
    lasts = np.flatnonzero(closes)
    ts, tl = tags[starts].astype(np.intp), tags[lasts].astype(np.intp)

    def near(at: np.ndarray, edge: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """(prefix, label) of the tokens ``at`` (O, -1 where ``edge``: none in the sentence)."""
        k = tags[np.clip(at, 0, max(n - 1, 0))].astype(np.intp)
        return np.where(edge, O, tag_prefix[k]), np.where(edge, -1, tag_type[k])

    sent_last = np.append(sent_first[1:], True)
    return _checked(sch, starts, lasts, tag_type[ts], tag_prefix[ts], tag_prefix[tl],
                    lambda: near(starts - 1, sent_first[starts]), lambda: near(lasts + 1, sent_last[lasts]))


def _pair_codes(tag_prefix: np.ndarray, tag_type: np.ndarray) -> np.ndarray:
    """For every (tag before, tag) of a vocabulary of v tags, flat (tag before * v + tag; tag before v: none,
    a sentence start): 1 where the tag opens a span, 2 where it continues the span of the tag before, 0 (O)."""
    p, ty = tag_prefix.astype(np.intp), tag_type.astype(np.int64)
    pp = np.append(p, O)[:, None]                 # the tag before; the row v: none
    pt = np.append(ty, -1)[:, None]
    inside = p != O
    opens = inside & (OPENS[p] | (pp == O) | (pt != ty) | CLOSES[pp])
    codes: np.ndarray = (opens + 2 * (inside & ~opens)).astype(np.uint8).ravel()
    return codes


def _checked(sch: Scheme, starts: np.ndarray, lasts: np.ndarray, labels: np.ndarray, ps: np.ndarray,
             pe: np.ndarray, before: Callable[[], Tuple[np.ndarray, np.ndarray]],
             after: Callable[[], Tuple[np.ndarray, np.ndarray]]) -> Decoded:
    """The spans ``starts``..``lasts`` (their labels, first and last prefix codes) checked against ``sch``;
    ``before()`` / ``after()``: (prefix code, label) of the token before each start / after each last token
    (O and -1 where the sentence has none), asked only by IOB1 and IOE1."""
    _, single_ok, first_ok, last_ok = sch.tables()
    one = starts == lasts
    psi, pei = ps.astype(np.intp), pe.astype(np.intp)
    first = first_ok[psi]
    ok = np.where(one, single_ok[psi], first & last_ok[pei])
    bad_token = np.where(one | ~first, starts, lasts)
    if sch.b_after_same:  # IOB1: B- must separate two spans of the same label
        prev_p, prev_t = before()
        ok &= (ps != B) | ((prev_p != O) & (prev_t == labels))
    if sch.e_before_same:  # IOE1: E- must separate two spans of the same label
        next_p, next_t = after()
        ok &= (pe != E) | ((next_p != O) & (next_t == labels))
    bad = ~ok
    first_bad = np.flatnonzero(bad)[:1].tolist()  # the reason is needed for the first only (strict)
    reasons = [_reason(sch, int(ps[k]), int(pe[k]), bool(one[k])) for k in first_bad]
    return Decoded(starts, lasts, labels, bad, np.where(bad, bad_token, -1), reasons)


def encode(start: np.ndarray, last: np.ndarray, label: np.ndarray, sent_first: np.ndarray,
           scheme: str) -> Tuple[np.ndarray, np.ndarray]:
    """Spans -> per-token prefix codes and label ids (-1 outside) in a named scheme: the inverse
    of :func:`decode`.  Spans must not overlap and must lie inside a sentence.

    Each position takes the first prefix the scheme's table allows there (IOB2: B then I;
    IOBES: S, B, I, E; BILOU: U, B, I, L; IOB1 and IOE1: I), and IOB1's B- (IOE1's E-) goes
    where a span starts right after (ends right before) a span of the same label.  IO cannot
    separate two adjacent spans of the same label: callers check with :func:`decode`.
    """
    sch = SCHEMES[resolve_scheme_name(scheme)]
    n = len(sent_first)
    start, last = np.asarray(start, np.int64), np.asarray(last, np.int64)
    prefix = np.zeros(n, np.int8)
    types = np.full(n, -1, np.int32)
    length = last - start + 1
    before = np.repeat(np.cumsum(length) - length, length)
    idx = np.repeat(start, length) + (np.arange(int(length.sum())) - before)
    prefix[idx] = I
    types[idx] = np.repeat(np.asarray(label, np.int32), length)
    one = start == last
    prefix[start[~one]] = PREFIX_CODES[sch.first[0]]
    prefix[last[~one]] = PREFIX_CODES[sch.last[0]]
    prefix[start[one]] = PREFIX_CODES[sch.single[0]]
    if sch.b_after_same:
        has_prev = (start > 0) & ~sent_first[start]
        prev = np.maximum(start - 1, 0)
        prefix[start[has_prev & (types[prev] == types[start])]] = B
    if sch.e_before_same:
        has_next = (last + 1 < n) & ~sent_first[np.minimum(last + 1, max(n - 1, 0))]
        nxt = np.minimum(last + 1, max(n - 1, 0))
        prefix[last[has_next & (types[nxt] == types[last])]] = E
    return prefix, types


def ill_formed_reasons(scheme: str, prefix: np.ndarray, decoded: Decoded) -> List[str]:
    """Why each ill-formed span of ``decoded`` (decoded from the prefix codes ``prefix`` in ``scheme``) is ill
    formed, in the order of the spans (:attr:`Decoded.reason` says it of the first only)."""
    sch = SCHEMES[scheme]
    return [_reason(sch, int(prefix[a]), int(prefix[b]), a == b)
            for a, b in zip(decoded.start[decoded.ill_formed].tolist(), decoded.last[decoded.ill_formed].tolist())]


def _reason(sch: Scheme, pf: int, pl: int, one: bool) -> str:
    f, la = PREFIX_NAMES[pf], PREFIX_NAMES[pl]
    if one:
        if f not in sch.single:
            return f"a one-token span tagged {f}- (scheme {sch.name} expects {'/'.join(sch.single)}-)"
    elif f not in sch.first:
        return f"a span that starts with {f}- (scheme {sch.name} expects {'/'.join(sch.first)}-)"
    elif la not in sch.last:
        return f"a span that ends with {la}- (scheme {sch.name} expects {'/'.join(sch.last)}-)"
    if f == "B":
        return f"B- that does not follow a span of the same label (scheme {sch.name})"
    return f"E- that is not followed by a span of the same label (scheme {sch.name})"


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class ConllEvents:
    """One side's chunk events as conlleval.pl sees them, per token.

    A boundary (blank or ``-X-`` line) is an ``O`` token with the empty type for
    conlleval.pl; ts_eval has none, so ``end_after`` holds the end event of the
    boundary after a sentence's last token.  ``trailing_boundary``: the data end with
    such a line (conlleval.pl's final state depends on it)."""

    start: np.ndarray       # bool: startOfChunk(previous tag, this tag)
    end: np.ndarray         # bool: endOfChunk(previous tag, this tag)
    end_after: np.ndarray   # bool: endOfChunk(this tag, boundary "O"), meaningful on sentence-last tokens
    types: np.ndarray       # type id per token (compared across sides: one id space)
    sent_first: np.ndarray
    trailing_boundary: bool = True


def _decode_conlleval(prefix: np.ndarray, types: np.ndarray, sent_first: np.ndarray, outside_type: int) -> Decoded:
    n = len(prefix)
    c = prefix
    pc = _shift_prev(c, sent_first, C_O)
    pt = _shift_prev(types, sent_first, outside_type)
    differ = pt != types
    start = (
        ((c == C_B) & np.isin(pc, (C_B, C_I, C_O)))
        | ((c == C_I) & np.isin(pc, (C_O, C_E)))
        | ((c == C_E) & np.isin(pc, (C_E, C_O)))
        | ((c != C_O) & (c != C_DOT) & differ)
        | (c == C_LBR) | (c == C_RBR)
    )
    endev = (
        (np.isin(pc, (C_B, C_I)) & np.isin(c, (C_B, C_O)))
        | ((pc == C_E) & np.isin(c, (C_E, C_I, C_O)))
        | ((pc != C_O) & (pc != C_DOT) & differ)
        | (pc == C_LBR) | (pc == C_RBR)
    )
    # the boundary after a token: endOfChunk(tag, "O") with the empty type
    end_after = (np.isin(c, (C_B, C_I, C_E, C_LBR, C_RBR))
                 | ((c != C_O) & (c != C_DOT) & (types != outside_type)))
    starts = np.flatnonzero(start)
    breaks = np.flatnonzero(start | endev | sent_first)
    nxt = np.searchsorted(breaks, starts, side="right")
    bounded = np.append(breaks, n)  # a chunk open at the end of the data ends there
    lasts = bounded[nxt] - 1          # sent_first is among the breaks: never crosses a sentence
    nb = np.zeros(len(starts), bool)
    ev = ConllEvents(start, endev, end_after, types, sent_first)
    return Decoded(starts, lasts, types[starts], nb, np.full(len(starts), -1), [], conll=ev)


def conlleval_correct(gold: ConllEvents, system: ConllEvents) -> np.ndarray:
    """Tokens where a chunk starts that conlleval.pl counts as correct (sorted indices).

    conlleval.pl (``$inCorrect``) sets its "correct" state where both sides start a
    chunk of the same type; the first later position where either side ends a chunk
    or the types differ decides: a chunk end on both sides counts one correct chunk,
    anything else loses it.  The end of the data counts an open state.  Boundaries
    are positions of their own (``O``, empty type), so the state may run on across
    a sentence break after tags that do not end there (bare or ``.`` tags).  A
    one-sided start does not end the state (``B-X I-X`` against ``B-X [-X`` is
    one correct chunk); the count belongs to the latest joint start.  The matcher files
    it under that start's label; conlleval.pl files it under the type just before the
    deciding position, which differs only when typed ``O-X`` / ``.-X`` tags change the
    type inside a chunk without ending it (not reproduced).
    """
    sf = gold.sent_first
    n = len(sf)
    if n == 0:
        return np.zeros(0, np.int64)
    same = gold.types == system.types
    js = np.flatnonzero(gold.start & system.start & same)
    # deciding positions: tokens (kill at token t) and boundaries (after token t, before t + 1)
    kt = np.flatnonzero(gold.end | system.end | ~same)
    after = np.empty(n, bool)  # a boundary follows token t
    after[:-1] = sf[1:]
    after[-1] = gold.trailing_boundary
    kb = np.flatnonzero(after & (gold.end_after | system.end_after))
    kt = np.append(kt, n)      # the end of the data decides whatever is still open
    kb = np.append(kb, n)
    tok_next = kt[np.searchsorted(kt, js, side="right")]   # first kill at a later token
    bnd_next = kb[np.searchsorted(kb, js, side="left")]    # first kill at a boundary after js
    at_bnd = bnd_next < tok_next
    both_tok = np.append(gold.end & system.end, True)
    both_bnd = np.append(gold.end_after & system.end_after, True)
    ok = np.where(at_bnd, both_bnd[bnd_next], both_tok[tok_next])
    # the count goes to the latest joint start before the deciding position
    next_js = np.append(js[1:], n + 1)
    ok &= np.where(at_bnd, next_js > bnd_next, next_js >= tok_next)
    return js[ok]


# ---------------------------------------------------------------------------
# scheme detection

@dataclass(frozen=True)
class SchemeEvidence:
    """What :func:`detect_scheme` decides from, side by side, for any run of whole sentences; the evidence
    of two runs ``|`` together is the evidence of both (so a file can be looked at in blocks)."""

    present: Tuple[FrozenSet[str], ...]     # per side: the prefixes it uses (not O)
    i_last: Tuple[bool, ...]                # per side: an I- that is the last token of its span
    b_opens_fresh: bool = False             # a B- not directly after a token of the same label

    def __or__(self, other: SchemeEvidence) -> SchemeEvidence:
        return SchemeEvidence(tuple(a | b for a, b in zip(self.present, other.present)),
                              tuple(a or b for a, b in zip(self.i_last, other.i_last)),
                              self.b_opens_fresh or other.b_opens_fresh)


def detect_scheme(sides: Sequence[Tuple[np.ndarray, np.ndarray]], sent_first: np.ndarray) -> str:
    """Guess the scheme from (prefix codes, label ids) of every side (named prefixes only)."""
    return scheme_of(scheme_evidence(sides, sent_first))


def scheme_evidence(sides: Sequence[Tuple[np.ndarray, np.ndarray]], sent_first: np.ndarray,
                    every: bool = False) -> SchemeEvidence:
    """The :class:`SchemeEvidence` of (prefix codes, label ids) of every side.  An I- that ends its span
    counts only on a side at or after the first that uses E- (looked for only there, unless ``every``: a
    part of a file, where another part may hold the E-)."""
    present: List[FrozenSet[str]] = []
    i_last: List[bool] = []
    b_opens_fresh = False
    for prefix, types in sides:
        p = prefix.astype(np.intp, copy=False)
        used = np.flatnonzero(np.bincount(p.astype(np.intp), minlength=1)).tolist()
        present.append(frozenset(PREFIX_NAMES[k] for k in used if k != O))
        prev_p = _shift_prev(p, sent_first, O)
        prev_t = _shift_prev(types, sent_first, -1)
        bmask = p == B
        if bmask.any():
            fresh = bmask & ((prev_p == O) | (prev_t != types))
            b_opens_fresh |= bool(fresh.any())
        found = False
        if every or any("E" in x for x in present):
            nxt_p = np.append(p[1:], O)
            nxt_t = np.append(types[1:], -1)
            sent_last = np.append(sent_first[1:], True)
            found = bool(((p == I) & (sent_last | (nxt_p == O) | (nxt_t != types))).any())
        i_last.append(found)
    return SchemeEvidence(tuple(present), tuple(i_last), b_opens_fresh)


def scheme_of(evidence: SchemeEvidence) -> str:
    """The scheme :func:`detect_scheme` names for this evidence (of the whole data)."""
    present: Set[str] = set().union(*evidence.present)
    b_opens_fresh = evidence.b_opens_fresh
    seen: Set[str] = set()
    i_last = False
    for side_present, side_i_last in zip(evidence.present, evidence.i_last):
        seen |= side_present
        i_last |= side_i_last and "E" in seen
    if present & {"L", "U"}:
        return "BILOU"
    if "S" in present or {"B", "E"} <= present:
        return "IOBES"
    if "E" in present:
        return "IOE1" if i_last else "IOE2"
    if "B" in present:
        return "IOB2" if b_opens_fresh else "IOB1"
    if "I" in present:
        return "IO"
    return "IOB2"
