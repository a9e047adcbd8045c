"""Gold and every system, read in blocks and paired document by document: the one joiner of all formats.

Each input is a *feed* (:class:`Feed`): it hands out its documents (sentences, records) a number at a time,
numbered and with line numbers as the input numbers them.  :func:`join` takes a block of gold's documents,
the documents of every system that pair with them, checks them and yields one
:class:`~ts_eval.core.corpus.Corpus` per block.  Reading inputs whole is the same road with one block.

**Pairing.**  A system's documents pair with gold's by id when the documents of both inputs have ids, else by
order (then both hold as many documents).  Every document of an input has an id or none has: the first that
breaks this is an error.  By id, documents that come in gold's order are paired as they come; from the first
that does not, the rest of that system is *held* (at most ``hold_bytes`` of it, :data:`HOLD_BYTES` by default,
about its size in the file: beyond that an error asks for the inputs in the same order) and each of gold's
documents takes its partner from there.  Paired documents hold the same tokens (and texts, where both have
them): :func:`first_difference`.

**Errors.**  What is wrong is reported at the first of gold's documents where it shows: a document that cannot
be read, a system's document missing or extra, an id given twice or missing, tokens or texts that differ.  At
the same document, gold's own errors come first, then each system's, in order.  A feed reports an error in its
input only when the document it is in is the next to hand out, so the first error is the same whatever the
size of the blocks: one block (the whole input) or one sentence at a time.  A message that counts something
over a whole input (the documents of both, the ids missing) reads the rest of the inputs to count it.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, cast

import numpy as np

from ..core.corpus import Corpus, SideInfo, SpanSet, relabel
from ..errors import InputError
from .documents import TOKEN_SEP, Documents, lasting, no_documents
from .feed import Decoding, Feed, Placing, concat_parts, raising
from .source import GOLD_SYSTEM, Words

if TYPE_CHECKING:
    from .grounding import Grounded

#: what may be held of one system whose documents pair with gold's by id in another order (bytes, about their
#: size in the file); more is an error that asks for the inputs in the same order
HOLD_BYTES = 1 << 30


Part = Any                              # what a feed hands out: Documents, or Generated records
Found = Tuple[int, Callable[[], InputError]]    # an error, at the gold document (of the block) where it shows


def _line(part: Part, d: int) -> Optional[int]:
    return part.lines[d] if part.lines is not None else None


class Ids:
    """Whether an input's documents have ids (decided by its first), and the ids seen (for ids given twice)."""

    def __init__(self) -> None:
        self.has: Optional[bool] = None
        self.first = ""
        self.first_line = 0
        self.seen: Dict[str, str] = {}

    def check(self, part: Part, track: bool, upto: Optional[int] = None) -> Optional[Found]:
        """The first document of ``part`` (before ``upto``) that breaks the input's rule on ids, or gives an id
        given before (``track``: ids are remembered)."""
        stop = part.n_docs if upto is None else upto
        if stop:
            self.decide(part)
        for d in range(stop):
            i = part.ids[d]
            if (i is not None) != self.has:
                return d, lambda d=d: self._mixed(part, d)
            if track:
                if i in self.seen:
                    first = self.seen[i]
                    return d, lambda d=d, i=i, first=first: InputError(
                        f"document id {i!r} occurs twice ({first} and {part.where(d)}); expected each id once",
                        part.path)
                self.seen[i] = part.where(d)
        return None


    def decide(self, part: Part) -> None:
        """Whether the input's documents have ids, from the first of ``part`` (its first part)."""
        if self.has is None and part.n_docs:
            self.has, self.first, self.first_line = part.ids[0] is not None, part.where(0), _line(part, 0) or 0

    def _mixed(self, part: Part, d: int) -> InputError:
        """The error for document ``d``, the first whose id is there or not unlike the input's first's."""
        if hasattr(part, "id_error"):        # (a format's own words)
            err: InputError = part.id_error(d, bool(self.has), self.first_line)
            return err
        return InputError(f"{part.where(d)} has {'no id' if self.has else 'an id'} and {self.first} has "
                          f"{'one' if self.has else 'none'}; expected an id on every document (they pair by id) or "
                          "on none (paired by order)", part.path, _line(part, d))


class _Side:
    """One system being paired with gold: by order, or by id (documents in gold's order as they come, then held)."""

    def __init__(self, feed: Feed, words: Words, hold_bytes: int) -> None:
        self.feed, self.words, self.hold_bytes = feed, words, hold_bytes
        self.ids = Ids()
        self.handed = 0                       # documents handed out in gold's order
        self.held: Optional[Part] = None      # the rest of the input, from the first document out of gold's order
        self.where: Dict[Optional[str], int] = {}       # held: id -> its document
        self.taken = np.zeros(0, bool)        # held: the documents paired so far
        self.fresh = False                    # held: its reading notes are not reported yet

    def by_id(self, gold_ids: Optional[bool]) -> bool:
        return bool(gold_ids) and bool(self.ids.has)

    def take(self, gold: Part, gold_ids: Optional[bool], found: List[Found]) -> Tuple[Part, np.ndarray]:
        """The system's documents that pair with ``gold``'s: a part and, for each of gold's documents, its
        partner there (fewer where an error stops the pairing); errors go to ``found``."""
        if self.held is not None:
            return self._from_held(gold, found)
        try:
            part = self.feed.take(gold.n_docs)
        except InputError as err:      # the next document is an error: ranked with the others of the block
            found.append((0, raising(err)))
            return None, np.zeros(0, np.int64)
        n = min(part.n_docs, gold.n_docs)
        bad = self.ids.check(part, False) if part.n_docs else None
        if bad is not None:
            found.append(bad)
            n = min(n, bad[0])
        if self.by_id(gold_ids):
            out = next((d for d in range(n) if part.ids[d] != gold.ids[d]), None)
            twice = self.ids.check(part, True, n if out is None else out)
            if twice is not None:
                found.append(twice)
            if out is not None and (twice is None or twice[0] >= out):
                return self._hold(gold, part, out, found)
        self.handed += part.n_docs
        if part.n_docs < gold.n_docs and bad is None:
            pending = self.feed.pending()
            if pending is not None:         # the next document holds an error
                found.append((part.n_docs, lambda: pending))
            elif self.by_id(gold_ids):
                found.append((part.n_docs, partial(self._missing, gold, part.n_docs, self.ids.seen)))
            else:
                found.append((part.n_docs, lambda: self._count_error(gold)))
        return part, np.arange(n, dtype=np.int64)

    def _count_error(self, gold: Part) -> InputError:
        """The system ended before gold: both counted (gold read to its end)."""
        return InputError(f"{self.handed} documents, the {self.words[0]} file {gold.path} has "
                          f"{self.gold_total(gold.n_docs)}; without ids on every document they are paired by "
                          "order and must be as many", self.feed.name)

    gold_total: Callable[[int], int]      # set by join(): gold's documents, counted to its end

    # -- held: by id, in another order

    def _hold(self, gold: Part, part: Part, out: int, found: List[Found]) -> Tuple[Part, np.ndarray]:
        """Hold the rest of the input from ``part``'s document ``out`` (its documents before came in gold's
        order and pair as they came)."""
        parts, size = [part], self.feed.size(part)
        while not self.feed.done():
            try:
                more = self.feed.take(None)
            except InputError as err:  # an error in the rest: where the rest is needed, at ``out``
                found.append((out, raising(err)))
                return part, np.arange(out, dtype=np.int64)
            size += self.feed.size(more)
            if size > self.hold_bytes:
                raise InputError(f"{part.where(out)} is not in {self.words[0]}'s order, and the rest of the input is "
                                 f"more than {self.hold_bytes >> 20} MiB to hold while it pairs by id; expected the "
                                 f"{self.words[0]} file and this one with their documents in the same order",
                                 part.path, _line(part, out))
            parts.append(more)
        held = concat_parts(parts)
        self.handed += out
        for d in range(out, held.n_docs):
            i = held.ids[d]
            if i is None:        # (an id missing: the rule on ids is checked below)
                continue
            if i in self.where or i in self.ids.seen:
                first = held.where(self.where[i]) if i in self.where else self.ids.seen[i]
                found.append((out, raising(InputError(
                    f"document id {i!r} occurs twice ({first} and {held.where(d)}); expected each id once",
                    held.path))))
                break
            self.where[i] = d
        bad = self.ids.check(held, False)
        if bad is not None:
            found.append((out, bad[1]))
        self.held, self.taken, self.fresh = held, np.zeros(held.n_docs, bool), True
        self.taken[:out] = True
        order = np.arange(gold.n_docs, dtype=np.int64)
        return self._placed(gold, order, out, found)

    def _from_held(self, gold: Part, found: List[Found]) -> Tuple[Part, np.ndarray]:
        return self._placed(gold, np.empty(gold.n_docs, np.int64), 0, found)

    def _placed(self, gold: Part, order: np.ndarray, start: int, found: List[Found]) -> Tuple[Part, np.ndarray]:
        """``order`` with the partners of gold's documents from ``start`` on taken from what is held."""
        for g in range(start, gold.n_docs):
            k = self.where.get(gold.ids[g])
            if k is None:
                found.append((g, partial(self._missing, gold, g, self.where)))
                order = order[:g]
                break
            order[g] = k
        self.taken[order] = True
        return self.held, order

    def _missing(self, gold: Part, g: int, known: Mapping[Any, Any]) -> InputError:
        """Gold's document ``g`` has no partner (``known``: the system's ids)."""
        missing = sum(1 for i in gold.ids[g:] if i not in known) + self.gold_missing(known)
        return InputError(f"document id {gold.ids[g]!r} of the {self.words[0]} file {gold.path} is missing "
                          f"({missing} {self.words[0]} ids missing); expected the same ids on both sides",
                          self.feed.name)

    gold_missing: Callable[[Mapping[Any, Any]], int]   # set by join(): ids of gold's rest not in a map

    def extra(self, gold_path: str, gold_count: int) -> Optional[InputError]:
        """At the end of gold: the error for documents of the system that no gold document took."""
        if self.held is not None:
            rest = [self.held.ids[d] for d in np.flatnonzero(~self.taken).tolist()]
            if not rest:
                return None
            return InputError(f"document id {rest[0]!r} is not in the {self.words[0]} file {gold_path} ({len(rest)} "
                              "such ids); expected the same ids on both sides", self.feed.name)
        if self.feed.done():
            return None
        more, first = 0, None
        while not self.feed.done():
            part = self.feed.take(None)
            if self.ids.has and self.ids.seen:         # paired by id: the rule on ids first, then the id
                bad = self.ids.check(part, True)
                if bad is not None:
                    return bad[1]()
                first = part.ids[0] if first is None else first
            more += part.n_docs
        if first is not None:
            return InputError(f"document id {first!r} is not in the {self.words[0]} file {gold_path} ({more} such "
                              "ids); expected the same ids on both sides", self.feed.name)
        return InputError(f"{self.handed + more} documents, the {self.words[0]} file {gold_path} has {gold_count}; "
                          "without ids on every document they are paired by order and must be as many",
                          self.feed.name)

    def notes(self) -> Optional[Dict[str, Any]]:
        """What reading found, to report with the documents handed out now (held: what it counted once, with
        the first; what holds of every part, such as the scheme, each time)."""
        if self.held is None:
            return None
        fresh, self.fresh = self.fresh, False
        notes = dict(getattr(self.held, "notes", {}))
        return notes if fresh else lasting(notes)


class Held:
    """Documents read already, handed out as a feed of the joiner (one block)."""

    def __init__(self, docs: Documents) -> None:
        self.docs, self.name, self.given = docs, docs.path, False

    def take(self, n: Optional[int] = None) -> Documents:
        if self.given:
            return no_documents(self.name, self.docs.format)
        self.given = True
        return self.docs

    def done(self) -> bool:
        return self.given

    def end(self) -> None:
        raise InputError("no documents", self.name)

    def size(self, part: Any) -> int:
        return int(part.n_docs)

    def pending(self) -> Optional[InputError]:
        return None


Partner = Tuple[Part, np.ndarray, Optional[Dict[str, Any]], Feed]


def pairs(gold: Feed, systems: Sequence[Feed], *, words: Optional[Sequence[str]] = None,
          hold_bytes: int = HOLD_BYTES) -> Iterator[Tuple[Part, List[Partner], bool]]:
    """Per block of gold's documents: the block, every system's partners (a part, the index of each gold
    document's partner in it, the reading notes to report with them or None for the part's own, the feed), and
    whether gold has no more; ``words``: what messages call gold and each system, default ``gold`` and
    ``system``.  The errors of the module docstring are raised where they show."""
    sides = [_Side(f, GOLD_SYSTEM if words is None else (words[0], words[k + 1]), hold_bytes)
             for k, f in enumerate(systems)]
    gold_ids = Ids()
    read = 0
    pending: List[Part] = []      # gold's documents read past the block (to count the rest for a message)

    def rest_of_gold() -> List[Part]:
        while not gold.done():
            pending.append(gold.take(None))
        return pending

    for side in sides:
        side.gold_total = lambda block: read + block + sum(p.n_docs for p in rest_of_gold())
        side.gold_missing = lambda where: sum(1 for p in rest_of_gold() for i in p.ids if i not in where)
    while not gold.done():
        g = gold.take(None)
        # (document of gold's block, input: 0 gold, k system k, kind: 0 reading, 1 a difference, 2 deferred)
        found: List[Tuple[int, int, int, Callable[[], InputError]]] = []
        gold_ids.decide(g)
        if getattr(g, "deferred", None) is not None:
            found.append((g.deferred[0], 0, 2, raising(g.deferred[1])))
        parts: List[Partner] = []
        for k, side in enumerate(sides):
            errs: List[Found] = []
            part, order = side.take(g, gold_ids.has, errs)
            found += [(d, k + 1, 0, e) for d, e in errs]
            diff = first_difference(g, part, order, side.words)
            if diff is not None:
                found.append((diff[0], k + 1, 1, raising(diff[1])))
            late = getattr(part, "deferred", None)
            if late is not None:
                at = np.flatnonzero(order == late[0])
                if len(at):
                    found.append((int(at[0]), k + 1, 2, raising(late[1])))
            parts.append((part, order, side.notes(), side.feed))
        # gold's ids are remembered (an id given twice is an error) when the sides pair by id, which each
        # system's first document tells: known once every side took its first block
        bad = gold_ids.check(g, bool(gold_ids.has) and any(s.ids.has for s in sides)) if g.n_docs else None
        if bad is not None:
            found.append((bad[0], 0, 0, bad[1]))
        if found:
            raise min(found, key=lambda e: e[:3])[3]()
        read += g.n_docs
        yield g, parts, gold.done()
    if not read:
        gold.end()
    for side in sides:
        err = side.extra(gold.name, read)
        if err is not None:
            raise err
        if not side.handed and side.held is None:
            side.feed.end()


def join(gold: Feed, systems: Sequence[Feed], names: Sequence[str], *, decoding: Decoding = Decoding(),
         words: Optional[Sequence[str]] = None, hold_bytes: int = HOLD_BYTES) -> Iterator[Corpus]:
    """One :class:`~ts_eval.core.corpus.Corpus` per block of gold's documents and the documents of every system
    that pair with them (:func:`pairs`; ``names``: the systems', in the order of ``systems``)."""
    for g, partners, last in pairs(gold, systems, words=words, hold_bytes=hold_bytes):
        yield relabel(paired(g, dict(zip(names, partners)), last, decoding), decoding.label_map)


def paired(gold: Documents, systems: Dict[str, Partner], last: bool, decoding: Decoding) -> Corpus:
    """The Corpus of a block of gold's documents and every system's partners (a part, the index of each gold
    document's partner in it, the reading notes to report with them or None for the part's own, the feed);
    a generated output's records are placed on gold's documents by their feed (``last``: gold has no more)."""
    aligned: Dict[str, Documents] = {}
    grounded: Dict[str, Grounded] = {}
    placing: Optional[Placing] = None
    for name, (part, order, notes, feed) in systems.items():
        if not isinstance(part, Documents):          # records of strings, placed on gold's documents
            feed = cast(Placing, feed)
            grounded[name] = feed.place(gold, part, order, last)
            placing = feed
            aligned[name] = grounded[name].docs
            continue
        same = len(order) == part.n_docs and np.array_equal(order, np.arange(part.n_docs))
        docs = part if same else part.take(order)
        if notes is not None:
            docs.notes = notes
        aligned[name] = docs
    corpus = pair_aligned(gold, aligned, scheme=decoding.scheme, policy=decoding.policy)
    return placing.attach(corpus, gold, grounded) if placing is not None else corpus


def first_difference(gold: Documents, sys: Any, order: np.ndarray,
                     sides: Words = GOLD_SYSTEM) -> Optional[Tuple[int, InputError]]:
    """(gold document, error) of the first of gold's documents ``g`` (those ``order`` pairs: system document
    ``order[g]``) whose tokens, or text where both sides have one, differ from its partner's; None when none
    does (records without tokens, a generated output's, have nothing to compare)."""
    if not isinstance(sys, Documents) or _same_text_tokens(gold, sys, order):
        return None
    who = "" if sides[1] == "system" else f"{sides[1]}, "
    gold_keys, sys_keys = gold.keys, sys.keys
    in_order = sys_keys if np.array_equal(order, np.arange(len(order))) else [sys_keys[s] for s in order.tolist()]
    if (gold.texts is None or sys.texts is None) and gold_keys == in_order:    # all at once, before one by one
        return None
    for g, s in enumerate(order.tolist()):     # (where both have texts, the tokens come from them: texts first)
        if gold.texts is not None and sys.texts is not None and gold.texts[g] != sys.texts[s]:
            return g, _text_differs(gold, g, sys, s, sides)
        if gold_keys[g] != sys_keys[s]:
            gt, st = gold.tokens(g), sys.tokens(s)
            k = next((j for j, (a, b) in enumerate(zip(gt, st)) if a != b), min(len(gt), len(st)))
            found = repr(st[k]) if k < len(st) else "the end"
            want = repr(gt[k]) if k < len(gt) else "the end"
            return g, InputError(f"{who}{sys.where(s)}: token {k} is {found}, the {sides[0]} {gold.where(g)} has "
                                 f"{want} ({len(st)} vs {len(gt)} tokens); expected the same tokens", sys.path)
    return None


def _text_differs(gold: Documents, g: int, sys: Documents, s: int, sides: Words = GOLD_SYSTEM) -> InputError:
    """The error for system document ``s`` whose text is not gold document ``g``'s: where they first differ."""
    assert sys.texts is not None and gold.texts is not None     # (check_texts asks only then)
    a, b = sys.texts[s], gold.texts[g]
    k = next((j for j, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(k - 10, 0)
    who = "" if sides[1] == "system" else f"{sides[1]}, "
    return InputError(f"{who}{sys.where(s)}: the text differs from the {sides[0]} {gold.where(g)} at character {k}: "
                      f"{a[lo:k + 10]!r} vs {sides[0]} {b[lo:k + 10]!r} (lengths {len(a)} and {len(b)}); expected "
                      "the same text for the same document", sys.path)


def _same_text_tokens(gold: Documents, sys: Documents, order: np.ndarray) -> bool:
    """Fast check for two text sides: equal texts and equal token offsets (no token strings built)."""
    if gold.texts is None or sys.texts is None or gold.char_tokens is None or sys.char_tokens is None:
        return False
    if any(gold.texts[g] != sys.texts[s] for g, s in enumerate(order.tolist())):
        return False
    n = len(order)      # (gold's first n documents are paired)
    if not np.array_equal(np.diff(gold.offsets)[:n], np.diff(sys.offsets)[order]):
        return False
    shift = sys.offsets[:-1][order] - gold.offsets[:n]
    idx = np.arange(int(gold.offsets[n])) + np.repeat(shift, np.diff(gold.offsets)[:n])
    m = len(idx)
    return bool(np.array_equal(gold.char_tokens[0][:m], sys.char_tokens[0][idx])
                and np.array_equal(gold.char_tokens[1][:m], sys.char_tokens[1][idx]))


def pair_aligned(gold: Documents, systems: Mapping[str, Documents], *, scheme: Optional[str] = None,
                 policy: Optional[str] = None) -> Corpus:
    """The Corpus of ``gold``'s documents and every system's documents that pair with them, in gold's order
    (document d of each system is gold's document d, checked: :func:`first_difference`)."""
    labels = sorted(set(gold.labels).union(*(s.labels for s in systems.values())))
    index = {lab: k for k, lab in enumerate(labels)}

    def spanset(docs: Documents) -> SpanSet:
        # document d of the system lands on gold's document d: shift each span by the offsets' difference
        shift = gold.offsets[:-1] - docs.offsets[:-1]
        doc = np.searchsorted(docs.offsets, docs.start, side="right") - 1
        remap = np.array([index[lab] for lab in docs.labels] or [0], np.int32)
        return SpanSet((docs.start + shift[doc]).astype(np.int64), (docs.last + shift[doc]).astype(np.int64),
                       remap[docs.label]).sorted()

    def info(name: str, docs: Documents) -> SideInfo:
        rep = docs.summary()
        return SideInfo(name, docs.path, spans=len(docs.start), repairs=int(docs.notes.get("repairs", 0)),
                        discarded=int(docs.notes.get("discarded", 0)), reading=rep)

    # the scheme of the sides decoded from tags (each detected alone when it was auto: can differ)
    schemes = list(dict.fromkeys(d.notes["scheme"] for d in [gold, *systems.values()]
                                 if d.notes.get("scheme") is not None))
    used = ", ".join(schemes) if schemes else None
    return Corpus(
        sent_offsets=gold.offsets.copy(), labels=labels,
        gold=spanset(gold),
        systems={n: spanset(d) for n, d in systems.items()},
        gold_info=info("gold", gold), system_info={n: info(n, d) for n, d in systems.items()},
        scheme=used, scheme_requested=scheme if schemes else None, policy=policy if schemes else None,
        tokens=_token_texts(gold),
    )


def _token_texts(docs: Documents) -> Callable[[int, int], List[str]]:
    """``tokens(a, b)`` -> token texts a..b-1 (global indices), cut from the documents' keys."""
    def tokens(a: int, b: int) -> List[str]:
        d0 = int(np.searchsorted(docs.offsets, a, side="right") - 1)
        d1 = int(np.searchsorted(docs.offsets, b, side="left"))
        out: List[str] = []
        for d in range(d0, max(d1, d0 + 1)):
            out.extend(docs.keys[d].split(TOKEN_SEP))
        base = int(docs.offsets[d0])
        return out[a - base:b - base]
    return tokens
