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
them): :func:`~ts_eval.io.pairing.first_difference`.

**Errors.**  What is wrong is reported at the first of gold's documents where it shows: a document that cannot
be read, a system's document missing or extra, an id given twice or missing, tokens or texts that differ.  At
the same document, gold's own errors come first, then each system's, in order.  A feed reports an error in its
input only when the document it is in is the next to hand out, so the first error is the same whatever the
size of the blocks: one block (the whole input) or one sentence at a time.  A message that counts something
over a whole input (the documents of both, the ids missing) reads the rest of the inputs to count it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Protocol, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, relabel
from ..errors import InputError
from .documents import Documents
from .pairing import GOLD_SYSTEM, Words, first_difference, pair_aligned

#: what may be held of one system whose documents pair with gold's by id in another order (bytes, about their
#: size in the file); more is an error that asks for the inputs in the same order
HOLD_BYTES = 1 << 30


class Feed(Protocol):
    """One input, handed out a number of whole documents at a time."""

    name: str

    def take(self, n: Optional[int] = None) -> Any:
        """The next ``n`` documents (None: the next block's worth; fewer only at the end of the input):
        :class:`~ts_eval.io.documents.Documents`, or a generated output's records
        (:class:`~ts_eval.io.generated.Generated`).  An error in the input is raised when the document it is in
        is the next to hand out."""

    def done(self) -> bool:
        """Whether no document is left."""

    def end(self) -> None:
        """At the end of an input that held no document: raise what reading such an input says."""

    def size(self, part: Any) -> int:
        """About how many bytes of the input ``part`` (a return of :meth:`take`) came from."""

    def pending(self) -> Optional[InputError]:
        """The error the next document is (None: none, or the input is not read that far)."""


class Placing(Feed, Protocol):
    """An input whose records are placed on gold's documents (a generated output's strings)."""

    def place(self, gold: Any, part: Any, order: np.ndarray, last: bool) -> Any:
        """``part``'s records placed on ``gold``'s documents (gold's document g takes record ``order[g]``;
        ``last``: gold has no more): a :class:`~ts_eval.io.grounding.Grounded`."""

    def attach(self, corpus: Corpus, gold: Any, grounded: Dict[str, Any]) -> Corpus:
        """The block's ``corpus`` with what it needs of every placed input (``grounded``: by system name)."""


@dataclass(frozen=True)
class Decoding:
    """How the sides read from tags are decoded (``scheme``, ``policy``) and how every side's labels are
    rewritten (``label_map``: (pattern, replacement) pairs)."""

    scheme: str = "IOB2"
    policy: str = "conlleval"
    label_map: Tuple[Tuple[str, str], ...] = ()


Part = Any                              # what a feed hands out: Documents, or Generated records
Found = Tuple[int, Callable[[], InputError]]    # an error, at the gold document (of the block) where it shows


def _raise(err: InputError) -> Callable[[], InputError]:
    """An error found already, as the errors whose message is made only when it is raised."""
    return lambda: err


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
        if self.has is None and stop:
            self.has, self.first, self.first_line = part.ids[0] is not None, part.where(0), _line(part, 0) or 0
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


    def _mixed(self, part: Part, d: int) -> InputError:
        """The error for document ``d``, the first whose id is there or not unlike the input's first's."""
        if hasattr(part, "id_error"):        # (a format's own words)
            return part.id_error(d, bool(self.has), self.first_line)
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
        part = self.feed.take(gold.n_docs)
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
            more = self.feed.take(None)
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
                found.append((out, lambda i=i, first=first, d=d: InputError(
                    f"document id {i!r} occurs twice ({first} and {held.where(d)}); expected each id once",
                    held.path)))
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
                found.append((g, lambda g=g: self._missing(gold, g)))
                order = order[:g]
                break
            order[g] = k
        self.taken[order] = True
        return self.held, order

    def _missing(self, gold: Part, g: int) -> InputError:
        missing = sum(1 for i in gold.ids[g:] if i not in self.where) + self.gold_missing(self.where)
        return InputError(f"document id {gold.ids[g]!r} of the {self.words[0]} file {gold.path} is missing "
                          f"({missing} {self.words[0]} ids missing); expected the same ids on both sides",
                          self.feed.name)

    gold_missing: Callable[[Dict[Optional[str], int]], int]   # set by join(): ids of gold's rest not in a map

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
        more = 0
        while not self.feed.done():
            more += self.feed.take(None).n_docs
        return InputError(f"{self.handed + more} documents, the {self.words[0]} file {gold_path} has {gold_count}; "
                          "without ids on every document they are paired by order and must be as many",
                          self.feed.name)

    def notes(self) -> Optional[Dict[str, Any]]:
        """What reading found, to report with the documents handed out now (held: once, with the first)."""
        if self.held is None:
            return None
        fresh, self.fresh = self.fresh, False
        return dict(self.held.notes) if fresh else {}


def join(gold: Feed, systems: Sequence[Feed], names: Sequence[str], *, decoding: Decoding = Decoding(),
         words: Optional[Sequence[str]] = None, hold_bytes: int = HOLD_BYTES,
         build: Optional[Callable[..., Corpus]] = None) -> Iterator[Corpus]:
    """One :class:`~ts_eval.core.corpus.Corpus` per block of gold's documents and the documents of every system
    that pair with them (``names``: the systems', in the order of ``systems``; ``words``: what messages call
    gold and each system, default ``gold`` and ``system``; ``build``: how a block's documents become a
    Corpus, default :func:`~ts_eval.io.pairing.pair_documents`)."""
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
        bad = gold_ids.check(g, bool(gold_ids.has) and any(s.ids.has for s in sides)) if g.n_docs else None
        if bad is not None:
            found.append((bad[0], 0, 0, bad[1]))
        if getattr(g, "deferred", None) is not None:
            found.append((g.deferred[0], 0, 2, _raise(g.deferred[1])))
        parts = []
        for k, side in enumerate(sides):
            errs: List[Found] = []
            part, order = side.take(g, gold_ids.has, errs)
            found += [(d, k + 1, 0, e) for d, e in errs]
            diff = first_difference(g, part, order, side.words)
            if diff is not None:
                found.append((diff[0], k + 1, 1, _raise(diff[1])))
            late = getattr(part, "deferred", None)
            if late is not None:
                at = np.flatnonzero(order == late[0])
                if len(at):
                    found.append((int(at[0]), k + 1, 2, _raise(late[1])))
            parts.append((part, order, side.notes(), side.feed))
        if found:
            raise min(found, key=lambda e: e[:3])[3]()
        read += g.n_docs
        last = gold.done()
        corpus = (build or paired)(g, dict(zip(names, parts)), last, decoding)
        yield relabel(corpus, decoding.label_map)
    if not read:
        gold.end()
    for side in sides:
        err = side.extra(gold.name, read)
        if err is not None:
            raise err
        if not side.handed and side.held is None:
            side.feed.end()


def paired(gold: Documents, systems: Dict[str, Tuple[Part, np.ndarray, Optional[Dict[str, Any]], Feed]], last: bool,
           decoding: Decoding) -> Corpus:
    """The Corpus of a block of gold's documents and every system's partners (a part, the index of each gold
    document's partner in it, the reading notes to report with them or None for the part's own, the feed);
    a generated output's records are placed on gold's documents by their feed (``last``: gold has no more)."""
    aligned: Dict[str, Documents] = {}
    grounded: Dict[str, Any] = {}
    placing = None
    for name, (part, order, notes, feed) in systems.items():
        if not isinstance(part, Documents):          # records of strings, placed on gold's documents
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


def concat_parts(parts: List[Part]) -> Part:
    """Consecutive parts of one input (Documents, or a generated output's records) as one."""
    from .documents import concat_documents

    if isinstance(parts[0], Documents):
        return concat_documents(parts)
    from .generated import Generated, concat_generated

    if isinstance(parts[0], Generated):
        return concat_generated(parts)
    from .conll import concat_columns

    return concat_columns(parts)


# ---------------------------------------------------------------------------
# column files: their tags decoded together, as one file's columns are


@dataclass(frozen=True)
class Columns:
    """How column files are read side by side: gold's column and the systems' (one file: the system columns
    of gold's file; a file per system: the one column of every system file), the systems' names, and the tag
    options every side is read with (conlleval.pl's ``-r`` and ``-o``)."""

    gold_column: int
    system_columns: Tuple[int, ...]
    names: Optional[Tuple[str, ...]] = None
    one_file: bool = True
    raw: bool = False
    outside_tag: str = "O"


def join_columns(gold: Feed, systems: Sequence[Feed], layout: Columns, *, decoding: Decoding = Decoding(),
                 words: Optional[Sequence[str]] = None, detected: Optional[str] = None,
                 evidence: bool = False) -> Iterator[Any]:
    """The Corpus of each block of gold's sentences, with the same sentences of every system file (none: one
    file's columns), the tags of every side decoded together (:func:`~ts_eval.core.corpus.corpus_from_tag_ids`:
    one vocabulary, the scheme detected over all of them); the files must hold the same sentences and tokens
    (:func:`~ts_eval.io.conll.aligned_difference`; its first error by gold's sentence, as :func:`join`'s).
    Under the conlleval scheme a block grows until every side is outside at its end (conlleval.pl's state
    runs on across sentences otherwise).  ``detected``: the scheme ``auto`` stands for (found in a first pass
    with ``evidence``, which yields each block's :class:`~ts_eval.core.schemes.SchemeEvidence` instead)."""
    from .conll import Before, _check_token_columns, _finish, _one_file_sides, _pair_sides, aligned_difference

    conlleval = decoding.scheme == "conlleval"
    sentences = tokens = gold_line = 0
    system_lines = [0] * len(systems)
    checked = False
    rest = _Rest(gold, systems)
    while not gold.done():
        g = gold.take(None)
        parts = [s.take(g.n_docs) for s in systems]
        while (conlleval and systems and not gold.done() and all(p.n_docs == g.n_docs for p in parts)
               and not all(p.ends_outside(layout.outside_tag) for p in parts)):
            more = gold.take(None)
            g = concat_parts([g, more])
            parts = [concat_parts([p, s.take(more.n_docs)]) for p, s in zip(parts, systems)]
        if gold.done():          # one sentence past gold's end shows that a system goes on
            parts = [concat_parts([p, s.take(1)]) if not s.done() else p for p, s in zip(parts, systems)]
        if systems and not checked:
            _check_token_columns(g.cf, layout.gold_column, [p.cf for p in parts], layout.system_columns[0])
            checked = True
        found: List[Tuple[int, int, Callable[[], InputError]]] = []
        for k, (p, s) in enumerate(zip(parts, systems)):
            before = Before(sentences, tokens, gold_line, system_lines[k], rest.of(k))
            pair = GOLD_SYSTEM if words is None else (words[0], words[k + 1])
            pending = s.pending() if p.n_docs < g.n_docs else None
            n = p.n_docs if pending is not None else g.n_docs
            diff = aligned_difference(g.take(np.arange(n)).cf if n < g.n_docs else g.cf, p.cf, before=before,
                                      sides=pair)
            if diff is not None:
                found.append((diff[0], k + 1, _raise(diff[1])))
            elif pending is not None:
                found.append((n, k + 1, _raise(pending)))
        if found:
            raise min(found, key=lambda e: e[:2])[2]()
        if layout.one_file:
            vocab, sides = _one_file_sides(g.cf, g.path, layout.gold_column, layout.system_columns,
                                           layout.names, layout.raw, layout.outside_tag)
        else:
            names = layout.names or tuple(f"system{k + 1}" for k in range(len(parts)))
            vocab, sides = _pair_sides(g.cf, [p.cf for p in parts], names, layout.gold_column,
                                       layout.system_columns[0], layout.raw, layout.outside_tag)
        if evidence:
            from ..core.corpus import scheme_evidence

            yield scheme_evidence(vocab, sides, g.cf.sent_first)
        else:
            yield _finish(g.cf, vocab, sides, decoding.scheme, decoding.policy, decoding.label_map, detected)
        sentences += g.n_docs
        tokens += g.cf.n_tokens
        gold_line = int(g.cf.token_line[-1]) if g.cf.n_tokens else gold_line
        system_lines = [int(p.cf.token_line[-1]) if p.cf.n_tokens else line for p, line in zip(parts, system_lines)]
    if not sentences:
        gold.end()


class _Rest:
    """The sentences and tokens of gold and of each system after the blocks handed out (the counts of the whole
    files a message gives), counted once: the files are read to their ends."""

    def __init__(self, gold: Feed, systems: Sequence[Feed]) -> None:
        self.gold, self.systems = gold, systems
        self.counted: Dict[int, Tuple[int, int]] = {}

    def _count(self, k: int) -> Tuple[int, int]:
        if k not in self.counted:
            feed = self.gold if k < 0 else self.systems[k]
            sentences = tokens = 0
            while not feed.done():
                part = feed.take(None)
                sentences += part.n_docs
                tokens += part.cf.n_tokens
            self.counted[k] = (sentences, tokens)
        return self.counted[k]

    def of(self, k: int) -> Callable[[], Tuple[int, int, int, int]]:
        return lambda: (*self._count(-1), *self._count(k))
