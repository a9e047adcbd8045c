"""The Corpus: sentence structure plus one gold and k system span sets, as numpy columns.

Everything downstream (events, matcher, measures) reads only this.  Builders turn
per-token tag ids (from the file readers or from Python lists) into spans through
:mod:`ts_eval.core.schemes`, and span lists into the same columns.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import Hint, InputError, OptionError
from . import schemes
from .arrays import unique
from .printable import control_message, control_reason, first_control


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class SpanSet:
    """Spans over global token indices as columns, sorted by (start, last, label).

    ``start`` is a span's first token and ``last`` its last token (inclusive), which is what
    the vectorised models read.  :attr:`end` is ``last + 1``: the span's end, exclusive, as
    at every public entry of ts_eval (``(label, start, end)``, like Python slices), so a
    one-token span at token ``i`` has ``start == last == i`` and ``end == i + 1``.
    """

    start: np.ndarray
    last: np.ndarray           # last token of each span (inclusive)
    label: np.ndarray
    # conlleval scheme: the side's per-token chunk events, from which the matcher replays
    # conlleval.pl's "correct chunk" state machine (exact match = what conlleval.pl counts)
    conll: Optional[schemes.ConllEvents] = None

    def __len__(self) -> int:
        return len(self.start)

    @property
    def end(self) -> np.ndarray:
        """Each span's end, exclusive: ``last + 1`` (a new array; read-only)."""
        return self.last + 1

    @staticmethod
    def empty() -> SpanSet:
        z = np.zeros(0, np.int64)
        return SpanSet(z, z.copy(), np.zeros(0, np.int32))

    def sorted(self) -> SpanSet:
        return self.take(np.lexsort((self.label, self.last, self.start)))

    def take(self, mask_or_index: np.ndarray) -> SpanSet:
        return SpanSet(self.start[mask_or_index], self.last[mask_or_index], self.label[mask_or_index], self.conll)


def span_shape(start: np.ndarray, last: np.ndarray) -> Dict[str, int]:
    """How many spans lie inside another span (``nested``; the same range with another label
    counts, the first of them in (start, -last) order being the outer one) and how many cross
    one (``crossing``: overlap without containment).  Spans of one side, global token indices."""
    if len(start) < 2:
        return {"nested": 0, "crossing": 0}
    if bool((start[1:] > start[:-1]).all()):
        s, e = start, last              # already in (start, -last) order (decoded tags): no sort
    else:
        order = np.lexsort((-last, start))
        s, e = start[order], last[order]
    prior = np.maximum.accumulate(e)
    prev = np.concatenate(([-1], prior[:-1]))
    nested = prev >= e
    crossing = (prev >= s) & ~nested
    return {"nested": int(nested.sum()), "crossing": int(crossing.sum())}


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class Unplaced:
    """Spans a side claims that sit on no token of the corpus (generated strings found nowhere in
    their text): every span-level model counts each as a false positive of its label in its
    sentence, spanning ``tokens`` tokens of its own (the TS model's units), gold having nothing there."""

    sentence: np.ndarray    # int64
    label: np.ndarray       # int32, index into Corpus.labels
    tokens: np.ndarray      # int64, >= 1

    def __len__(self) -> int:
        return len(self.sentence)

    def take(self, keep: np.ndarray, label: Optional[np.ndarray] = None) -> Unplaced:
        lab = self.label if label is None else label
        return Unplaced(self.sentence[keep], lab[keep].astype(np.int32), self.tokens[keep])


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class SideStrings:
    """The (normalised) strings a side names, per sentence and label: the ``strings`` model's input.
    ``key`` indexes one vocabulary shared by gold and every system of the corpus."""

    sentence: np.ndarray    # int64
    label: np.ndarray       # int32, index into Corpus.labels
    key: np.ndarray         # int64

    def __len__(self) -> int:
        return len(self.sentence)

    def take(self, keep: np.ndarray, label: Optional[np.ndarray] = None) -> SideStrings:
        lab = self.label if label is None else label
        return SideStrings(self.sentence[keep], lab[keep].astype(np.int32), self.key[keep])


def merge_reading(a: Optional[Dict[str, Any]], b: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """What a document reader found in two runs of one input (:meth:`ts_eval.io.documents.Documents.summary`):
    counts add, lists join, texts (path, format, scheme, ...) are the same in both."""
    if a is None or b is None:
        return a if b is None else b
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            if out[key] != value:
                raise ValueError(f"the parts were read differently: {key} {out[key]!r} and {value!r}")
        elif isinstance(value, (int, float)):
            out[key] = out[key] + value
        elif isinstance(value, list):
            out[key] = list(out[key]) + list(value)
        elif isinstance(value, dict):
            out[key] = merge_reading(out[key], value)
    return out


@dataclass
class SideInfo:
    """Where one side (gold or a system) came from and what reading it found."""

    name: str
    path: Optional[str] = None
    column: Optional[int] = None
    spans: int = 0
    repairs: int = 0         # ill-formed spans kept as decoded (policy conlleval)
    discarded: int = 0       # ill-formed spans dropped (policy discard)
    unmapped: int = 0        # spans dropped because --map-label mapped their label to ""
    merged: int = 0          # spans that the label map made equal to another span of the side (kept once)
    first_repair_line: Optional[int] = None  # line of the first ill-formed span's bad tag
    tags: Optional[np.ndarray] = None   # per-token tag ids into Corpus.tag_vocab
    token_lines: Optional[np.ndarray] = None  # per-token 1-based line numbers in ``path``
    reading: Optional[Dict[str, Any]] = None  # what a document reader found (io.documents.Documents.summary)
    shape: Optional[Dict[str, int]] = None  # nested / crossing spans of this side (span_shape), set by Corpus
    unplaced: Optional[Unplaced] = None     # spans on no token (generated strings not in the text)
    strings: Optional[SideStrings] = None   # the side's strings (generated outputs and their gold)

    def where(self, token: int) -> Tuple[Optional[str], Optional[int]]:
        line = int(self.token_lines[token]) if self.token_lines is not None else None
        return self.path, line

    def tag_ids(self) -> np.ndarray:
        """``tags``, for the code that decodes them (a side read from tags has them)."""
        if self.tags is None:
            raise ValueError(f"side {self.name!r} has no per-token tags")
        return self.tags

    def summary(self) -> Dict[str, Any]:
        return {"name": self.name, "path": self.path, "column": self.column, "spans": self.spans,
                "repairs": self.repairs, "discarded": self.discarded, "unmapped": self.unmapped,
                "merged": self.merged, "first_repair_line": self.first_repair_line, **(self.shape or {}),
                **({"reading": self.reading} if self.reading is not None else {})}


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class Corpus:
    """Sentences (as token offsets) and the span sets of gold and every system."""

    sent_offsets: np.ndarray            # S+1 token offsets; sentence s = tokens [o[s], o[s+1])
    labels: List[str]
    gold: SpanSet
    systems: Dict[str, SpanSet]
    gold_info: SideInfo
    system_info: Dict[str, SideInfo]
    scheme: Optional[str] = None        # the scheme used (after auto detection)
    scheme_requested: Optional[str] = None
    policy: Optional[str] = None
    tag_vocab: List[str] = field(default_factory=list)
    doc_offsets: Optional[np.ndarray] = None  # token offsets of documents (-DOCSTART-)
    opens_document: bool = True         # the first token opens a document (else doc_offsets[0] = 0 was added)
    docstart_lines: int = 0             # -DOCSTART- lines (conlleval counts them as O tokens)
    boundary_lines: int = 0             # lines with first field -X- (conlleval sentence boundary)
    tokens: Optional[Callable[[int, int], List[str]]] = None  # tokens(a, b) -> token texts a..b-1
    label_map: List[Tuple[str, str]] = field(default_factory=list)
    _token_sentence: Optional[np.ndarray] = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # every side's summary says how many of its spans nest or cross, whatever reader built it
        for info, ss in [(self.gold_info, self.gold)] + [(self.system_info[n], s) for n, s in self.systems.items()
                                                          if n in self.system_info]:
            info.shape = span_shape(ss.start, ss.last)

    @property
    def n_tokens(self) -> int:
        return int(self.sent_offsets[-1])

    @property
    def n_sentences(self) -> int:
        return len(self.sent_offsets) - 1

    @property
    def n_separators(self) -> int:
        return self.n_tokens - self.n_sentences if self.n_tokens else 0

    def sentence_of(self, token: np.ndarray) -> np.ndarray:
        """The sentence of each token index: a gather from a token -> sentence map made once per corpus
        (every model asks this of every span set; a binary search each time cost ~2 ms per 100k spans)."""
        token = np.asarray(token)
        if not len(token) or int(token.max()) >= self.n_tokens or int(token.min()) < 0:
            return np.searchsorted(self.sent_offsets, token, side="right") - 1
        if self._token_sentence is None:
            self._token_sentence = np.repeat(np.arange(self.n_sentences, dtype=np.int32), np.diff(self.sent_offsets))
        # int64 like the search: callers build keys
        sentence: np.ndarray = self._token_sentence[token].astype(np.int64)
        return sentence

    def sent_first(self) -> np.ndarray:
        first = np.zeros(self.n_tokens, bool)
        first[self.sent_offsets[:-1][self.sent_offsets[:-1] < self.n_tokens]] = True
        return first


# ---------------------------------------------------------------------------
# builders

def _label_remap(label_map: Sequence[Tuple[str, str]], labels: Sequence[str]) -> Tuple[List[str], np.ndarray]:
    """The label names after ``label_map`` (sorted, distinct; may include "") and each old label's new id."""
    mapped = _apply_label_map(label_map, list(labels)) if label_map else list(labels)
    bad = first_control(mapped) if label_map else None
    if bad is not None:
        maps = ", ".join(repr(f"{p}={r}") for p, r in label_map)
        raise OptionError(f"the label map ({maps}) makes label {labels[bad]!r} into {mapped[bad]!r}, which "
                          f"{control_reason(mapped[bad], 'label')}")
    names = sorted(set(mapped))
    return names, np.array([names.index(m) for m in mapped] or [0], np.int32)


def map_labels(label_map: Sequence[Tuple[str, str]], labels: Sequence[str]) -> List[str]:
    """``labels`` rewritten by ``label_map`` (each pattern in order; "" means the label is dropped)."""
    return _apply_label_map(label_map, list(labels)) if label_map else list(labels)


def _apply_label_map(label_map: Sequence[Tuple[str, str]], labels: List[str]) -> List[str]:
    out = []
    for lab in labels:
        for pattern, repl in label_map:
            lab = re.sub(pattern, repl, lab)
        out.append(lab)
    return out


def parse_label_map(specs: Sequence[str]) -> List[Tuple[str, str]]:
    """``PATTERN=REPLACEMENT`` strings -> (pattern, replacement), checking the regexes."""
    out = []
    for spec in specs:
        if "=" not in spec:
            raise ValueError(f"label map {spec!r}: expected PATTERN=REPLACEMENT, e.g. 'deriv$=' or '^(.*)part$=\\1'")
        pattern, repl = spec.split("=", 1)
        try:
            re.compile(pattern)
        except re.error as err:
            raise ValueError(f"label map {spec!r}: bad regular expression: {err}") from None
        out.append((pattern, repl))
    return out


def corpus_from_tag_ids(
    tag_vocab: List[str],
    sides: Sequence[SideInfo],
    sent_first: np.ndarray,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    label_map: Sequence[Tuple[str, str]] = (),
    trailing_boundary: bool = True,
    detected: Optional[str] = None,
    *,
    doc_offsets: Optional[np.ndarray] = None,
    opens_document: bool = True,
    docstart_lines: int = 0,
    boundary_lines: int = 0,
    tokens: Optional[Callable[[int, int], List[str]]] = None,
) -> Corpus:
    """Decode every side's per-token tag ids (``SideInfo.tags``) into spans.

    ``trailing_boundary``: the data end with a blank or ``-X-`` line (only the
    conlleval scheme needs it: conlleval.pl's last chunk may depend on it).

    ``detected``: the scheme that ``auto`` stands for, detected beforehand over the whole of which these
    data are a part (:func:`scheme_evidence`).

    The keywords after it are the :class:`Corpus` fields of the same names (a column reader's documents,
    ``-DOCSTART-`` and ``-X-`` lines, token texts).

    ``sides[0]`` is gold, the rest are systems.  Tag errors and (with policy
    ``strict``) ill-formed spans raise :class:`InputError` at the first offending
    token of the first side that has one.
    """
    if policy not in schemes.POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(schemes.POLICIES)}")
    _check_printable(tag_vocab, sides)
    requested = scheme
    scheme = schemes.resolve_scheme_name(scheme)
    n = len(sent_first)
    if scheme == "auto" and detected is not None:
        scheme = detected
    elif scheme == "auto":
        table = _parse_or_locate(tag_vocab, None, sides)
        scheme = schemes.detect_scheme(
            [(table.prefix[s.tags], _label_ids(table.labels)[0][s.tags]) for s in sides], sent_first)
    table = _parse_or_locate(tag_vocab, scheme, sides)

    # label ids: one id per distinct label string (the empty label gets an id too,
    # used only by the conlleval scheme, where bare tags have the empty type)
    tag_label_id, raw_labels = _label_ids(table.labels)
    outside_type = raw_labels.index("") if "" in raw_labels else -1

    mapped_names, remap = _label_remap(label_map, raw_labels)
    # the empty label drops a span, except in the conlleval scheme where it is a type
    dropped_id = mapped_names.index("") if ("" in mapped_names and scheme != "conlleval") else -1

    firsts = np.flatnonzero(sent_first)     # (one search for every side)
    spansets = [_decode_side(side, table, tag_label_id, outside_type, remap, dropped_id, sent_first, scheme,
                             policy, trailing_boundary, tag_vocab, firsts) for side in sides]
    spansets, final_labels = _used_labels(spansets, mapped_names)
    offsets = np.append(firsts, n).astype(np.int64)
    gold_info, sys_infos = sides[0], list(sides[1:])
    return Corpus(
        sent_offsets=offsets,
        labels=final_labels,
        gold=spansets[0],
        systems={s.name: ss for s, ss in zip(sys_infos, spansets[1:])},
        gold_info=gold_info,
        system_info={s.name: s for s in sys_infos},
        scheme=scheme,
        scheme_requested=requested,
        policy=policy,
        tag_vocab=list(tag_vocab),
        label_map=list(label_map),
        doc_offsets=doc_offsets,
        opens_document=opens_document,
        docstart_lines=docstart_lines,
        boundary_lines=boundary_lines,
        tokens=tokens,
    )


def scheme_evidence(tag_vocab: List[str], sides: Sequence[SideInfo],
                    sent_first: np.ndarray) -> schemes.SchemeEvidence:
    """What the scheme ``auto`` is detected from in these sentences (a part of the data: the evidence of
    every part, ``|`` together, names the scheme of the whole, :func:`~ts_eval.core.schemes.scheme_of`),
    with the errors :func:`corpus_from_tag_ids` reports while detecting it."""
    _check_printable(tag_vocab, sides)
    table = _parse_or_locate(tag_vocab, None, sides)
    label_id = _label_ids(table.labels)[0]
    return schemes.scheme_evidence([(table.prefix[s.tag_ids()], label_id[s.tag_ids()]) for s in sides],
                                   sent_first, every=True)


def relabel(corpus: Corpus, label_map: Sequence[Tuple[str, str]]) -> Corpus:
    """``corpus`` with every side's labels rewritten by ``label_map`` (see :func:`parse_label_map`), the
    map the column readers apply while decoding tags, for corpora built from spans (any other reader).

    A label rewritten to the empty string drops its spans (counted in each side's ``unmapped``);
    labels rewritten to one name become one label, and a span that then equals another span of its
    side (same tokens, same label) is kept once (counted in ``merged``).  The labels are those some
    span still carries, sorted, as the column readers give them.
    """
    if not label_map:
        return corpus
    sides = [corpus.gold] + list(corpus.systems.values())
    if any(ss.conll is not None for ss in sides):
        raise ValueError("this corpus was decoded with the conlleval scheme: give the label map to its reader")
    names, remap = _label_remap(label_map, corpus.labels)
    dropped = names.index("") if "" in names else -1

    def one(ss: SpanSet, info: SideInfo) -> Tuple[SpanSet, SideInfo]:
        lab = remap[ss.label]
        keep = lab != dropped
        out = SpanSet(ss.start[keep], ss.last[keep], lab[keep]).sorted()
        same = np.zeros(len(out), bool)
        same[1:] = (np.diff(out.start) == 0) & (np.diff(out.last) == 0) & (np.diff(out.label) == 0)
        out = out.take(~same)
        info, lost = _relabel_extras(info, lambda lab: (remap[lab], remap[lab] != dropped))
        return out, dataclasses.replace(info, unmapped=info.unmapped + int(np.count_nonzero(~keep)) + lost,
                                        merged=info.merged + int(np.count_nonzero(same)), spans=len(out))

    done = [one(ss, info) for ss, info in zip(sides, [corpus.gold_info] + [corpus.system_info[n]
                                                                            for n in corpus.systems])]
    spansets, labels, infos = _used_labels_with_extras([ss for ss, _ in done], [info for _, info in done], names)
    names_ = list(corpus.systems)
    return dataclasses.replace(corpus, labels=labels, gold=spansets[0], gold_info=infos[0],
                               systems=dict(zip(names_, spansets[1:])),
                               system_info=dict(zip(names_, infos[1:])),
                               label_map=list(label_map))


def _relabel_extras(info: SideInfo, remap: Callable[[np.ndarray], Tuple[np.ndarray, np.ndarray]]
                    ) -> Tuple[SideInfo, int]:
    """``info`` with its unplaced spans and strings relabelled: ``remap(labels)`` gives (new labels, kept);
    also how many unplaced spans were dropped."""
    if info.unplaced is None and info.strings is None:
        return info, 0
    lost = 0
    unplaced, strings = info.unplaced, info.strings
    if unplaced is not None:
        lab, keep = remap(unplaced.label)
        lost = int(np.count_nonzero(~keep))
        unplaced = unplaced.take(keep, lab)
    if strings is not None:
        lab, keep = remap(strings.label)
        strings = strings.take(keep, lab)
    return dataclasses.replace(info, unplaced=unplaced, strings=strings), lost


def _used_labels_with_extras(spansets: List[SpanSet], infos: List[SideInfo], names: List[str]
                             ) -> Tuple[List[SpanSet], List[str], List[SideInfo]]:
    """:func:`_used_labels`, where the unplaced spans and strings of the sides also keep their labels."""
    extra = [x.label for info in infos for x in (info.unplaced, info.strings) if x is not None and len(x)]
    if not extra:
        out, labels = _used_labels(spansets, names)
        return out, labels, infos
    marker = SpanSet(np.zeros(0, np.int64), np.zeros(0, np.int64), np.concatenate(extra).astype(np.int32))
    out, labels = _used_labels(spansets + [marker], names)
    compact = {old: new for new, old in enumerate(k for k, n in enumerate(names) if n in labels)}
    table = np.array([compact.get(k, -1) for k in range(len(names))] or [0], np.int32)
    fixed = [_relabel_extras(info, lambda lab: (table[lab], np.ones(len(lab), bool)))[0] for info in infos]
    return out[:-1], labels, fixed


def _decode_side(side: SideInfo, table: schemes.TagTable, tag_label_id: np.ndarray, outside_type: int,
                 remap: np.ndarray, dropped_id: int, sent_first: np.ndarray, scheme: str, policy: str,
                 trailing_boundary: bool, tag_vocab: List[str], firsts: Optional[np.ndarray] = None) -> SpanSet:
    """One side's spans (mapped label ids); records repairs, discards and unmapped spans on ``side``."""
    tags = side.tag_ids()
    dec = schemes.decode_tags(tags, table.prefix, tag_label_id, sent_first, scheme, outside_type, firsts)
    if dec.conll is not None:
        dec.conll.trailing_boundary = trailing_boundary
    bad = np.flatnonzero(dec.ill_formed)
    if len(bad) and policy == "strict":
        k = int(bad[0])
        tok = int(dec.bad_token[k])
        path, line = side.where(tok)
        raise InputError([f"ill-formed span ({dec.reason[0]}) at tag {tag_vocab[tags[tok]]!r}"
                          f"{_on_side(side, ' on the {} side')}; policy strict rejects it (give ",
                          Hint("policy", "conlleval"), " to repair it or ", Hint("policy", "discard"),
                          " to drop it)"],
                         path, line)
    if len(bad):
        side.first_repair_line = side.where(int(dec.bad_token[int(bad[0])]))[1]
    keep = np.ones(len(dec.start), bool)
    if policy == "discard":
        keep &= ~dec.ill_formed
        side.discarded = len(bad)
    else:
        side.repairs = len(bad)
    lab = remap[dec.label]
    side.unmapped = int(np.count_nonzero(keep & (lab == dropped_id)))
    keep &= lab != dropped_id
    ss = SpanSet(dec.start[keep].astype(np.int64), dec.last[keep].astype(np.int64), lab[keep], dec.conll)
    side.spans = len(ss)
    return ss


def _used_labels(spansets: List[SpanSet], names: List[str]) -> Tuple[List[SpanSet], List[str]]:
    """Keep only the labels some span carries, in sorted order, and renumber the spans' labels."""
    used = unique(np.concatenate([ss.label for ss in spansets])) if spansets else np.zeros(0, np.int32)
    final_labels = [names[k] for k in used.tolist()]
    compact = np.full(len(names), -1, np.int32)
    compact[used] = np.arange(len(used), dtype=np.int32)
    return [SpanSet(ss.start, ss.last, compact[ss.label], ss.conll) for ss in spansets], final_labels


def _label_ids(labels: List[str]) -> Tuple[np.ndarray, List[str]]:
    uniq = sorted(set(labels))
    index = {lab: k for k, lab in enumerate(uniq)}
    dtype = np.int16 if len(uniq) < 2**15 else np.int32  # per-token label arrays stay small
    return np.array([index[lab] for lab in labels] or [0], dtype), uniq


def _first_use(bad_ids: Sequence[int], sides: Sequence[SideInfo]) -> Optional[Tuple[int, SideInfo]]:
    """(token, side) where a tag of ``bad_ids`` is first used: the first line any of them is on (not the
    first in sorted order); on the same token, gold before systems.  None when no side uses one."""
    bad = np.array(sorted(bad_ids), np.int64)
    found = []  # (first token with a bad tag, side order, side)
    for k, side in enumerate(sides):
        hits = np.flatnonzero(np.isin(side.tag_ids(), bad))
        if len(hits):
            found.append((int(hits[0]), k, side))
    if not found:
        return None
    tok, _, side = min(found, key=lambda f: f[:2])
    return tok, side


def _check_printable(tag_vocab: List[str], sides: Sequence[SideInfo]) -> None:
    """A tag holding a control character is an error at the first line it is on (it would print like
    another tag and split its label in two)."""
    if first_control(tag_vocab) is None:
        return
    bad = [k for k, tag in enumerate(tag_vocab) if first_control([tag]) is not None]
    use = _first_use(bad, sides)
    if use is None:
        return       # in the vocabulary but on no token: nothing is decoded from it
    tok, side = use
    path, line = side.where(tok)
    bad_tag = tag_vocab[int(side.tag_ids()[tok])]
    raise InputError(f"{control_message(bad_tag)}{_on_side(side, ' ({} side)')}", path, line)


def _parse_or_locate(tag_vocab: List[str], scheme: Optional[str], sides: Sequence[SideInfo]) -> schemes.TagTable:
    """Parse the tag vocabulary; a bad tag is reported at the first line any bad tag is on
    (not at the first bad tag in sorted order: IOBES read as IOB2 must name the S- line
    before the E- line); on the same token, gold before systems."""
    try:
        return schemes.parse_tags(tag_vocab, scheme)
    except schemes.TagError as first_err:
        errors = {}
        for k, tag in enumerate(tag_vocab):
            try:
                schemes.parse_tags([tag], scheme)
            except schemes.TagError as err:
                errors[k] = err
        use = _first_use(list(errors), sides)
        if use is None:
            raise _tag_error(first_err, None, None) from None
        tok, side = use
        path, line = side.where(tok)
        raise _tag_error(errors[int(side.tag_ids()[tok])], path, line, _on_side(side, ' ({} side)')) from None


def _tag_error(err: schemes.TagError, path: Optional[str], line: Optional[int], suffix: str = "") -> InputError:
    """A :class:`~ts_eval.core.schemes.TagError` as an :class:`InputError` at ``path``, ``line``: the options
    its message names become hints (spelled as flags on the command line)."""
    return InputError([p if isinstance(p, str) else Hint(*p) for p in err.parts] + [suffix], path, line)


def _on_side(side: SideInfo, template: str) -> str:
    """Which side a message is about, when the file holds several (a file read alone has no side name)."""
    return template.format(side.name) if side.name else ""


def check_selection(present: Sequence[str], labels: Optional[Sequence[str]] = None,
                    exclude: Sequence[str] = ()) -> None:
    """Naming a label that no span carries (none of ``present``) is a ValueError listing them."""
    unknown = [lab for lab in list(labels or []) + list(exclude) if lab not in present]
    if unknown:
        raise ValueError(f"label(s) {', '.join(map(repr, unknown))} not in the data; labels are "
                         f"{', '.join(present) or '(none)'}")


def select_labels(corpus: Corpus, labels: Optional[Sequence[str]] = None,
                  exclude: Sequence[str] = (), *, check: bool = True) -> Corpus:
    """The corpus restricted to some labels (``labels``; all when None) minus ``exclude``.

    Spans of other labels are removed from gold and every system (and counted in
    each side's ``unmapped``); naming a label that no span carries is an error (``check``; a
    part of a corpus read in blocks may lack a label the whole has: :func:`check_selection` then
    checks the labels of the whole).
    """
    if check:
        check_selection(corpus.labels, labels, exclude)
    keep_names = [lab for lab in corpus.labels if (labels is None or lab in labels) and lab not in exclude]
    remap = np.full(len(corpus.labels), -1, np.int32)
    for k, lab in enumerate(corpus.labels):
        if lab in keep_names:
            remap[k] = keep_names.index(lab)

    def cut(ss: SpanSet, info: SideInfo) -> Tuple[SpanSet, SideInfo]:
        lab = remap[ss.label]
        keep = lab >= 0
        out = ss.take(keep)
        out.label = lab[keep]
        info, lost = _relabel_extras(info, lambda lab: (remap[lab], remap[lab] >= 0))
        return out, dataclasses.replace(info, unmapped=info.unmapped + int(np.count_nonzero(~keep)) + lost,
                                        spans=int(np.count_nonzero(keep)))

    gold, gold_info = cut(corpus.gold, corpus.gold_info)
    cuts = {n: cut(ss, corpus.system_info[n]) for n, ss in corpus.systems.items()}
    return dataclasses.replace(corpus, labels=keep_names, gold=gold, gold_info=gold_info,
                               systems={n: c[0] for n, c in cuts.items()},
                               system_info={n: c[1] for n, c in cuts.items()})
