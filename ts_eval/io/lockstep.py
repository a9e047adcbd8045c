"""A gold input and one input per system, read in lock-step blocks of whole documents (or sentences).

Each input is a *feed* (:class:`Feed`): it hands out its documents a block at a time, with the file's line
numbers, as :class:`~ts_eval.io.documents.Documents`.  :func:`lock_step` takes a block of gold (about a
block's worth of bytes), the same number of documents of every system, and pairs them as
:func:`ts_eval.io.api.read_pair` pairs the whole inputs (:func:`~ts_eval.io.pairing.pair_documents`, then
the label map): one Corpus per block, whatever the feeds' formats.

Reading the whole inputs pairs a system's documents with gold's by id when every document of both has
one, else by order.  In blocks, the n-th document of gold is paired with the n-th of every system: that
is what the whole read does when, wherever both sides give an id, the ids are the same (in the same
order), no id occurs twice where every document has one, and the inputs hold as many documents with the
same tokens (and texts).  When any of this does not hold (documents in another order, an input that does
not line up: an error whose message names the whole inputs), :class:`NotInStep` is raised: the inputs
must be read whole.

A generated output (entity strings without offsets) is no feed of documents but :class:`Placing`: each
block of gold's documents takes that many of its records, placed on them
(:mod:`ts_eval.io.generated_blocks`), and the block's Corpus gets their strings as the whole read's does.

A file that is one JSON array of records is read by both kinds of feed as JSON Lines (:class:`ArrayLines`:
the n-th element on line n, as the whole read numbers an array's records).
"""
from __future__ import annotations

import re
from typing import Any, Dict, Iterator, List, Optional, Protocol, Sequence, Set, Tuple, Union, runtime_checkable

import msgspec
import numpy as np

from ..core.corpus import Corpus, relabel
from ..errors import InputError
from .documents import Documents
from .pairing import pair_documents

#: the formats a feed reads (:mod:`ts_eval.io.conllu_blocks`, :mod:`ts_eval.io.jsonl_blocks`), each with the
#: options it is read with
TAKES: Dict[str, Set[str]] = {
    "columns": {"column", "token_column", "scheme", "policy"},
    "conllu": {"misc_key", "column", "scheme", "policy"},
    "jsonl-tokens": {"scheme", "policy", "tag_names", "id_key"},
    "jsonl-text": {"align", "id_key", "text_key", "source", "tokenizer"},
    "label-studio": {"align", "id_key", "text_key", "source", "tokenizer"},
    "brat": {"discontinuous", "align", "tokenizer"},
    "generated": {"generated", "ground", "normalize", "fuzzy_threshold", "field", "id_key"},
}


class NotInStep(InputError):
    """The inputs do not pair document by document in order, or a block cannot be read as the whole input
    reads it: read them whole (that pairs them by id, or names what is wrong)."""


#: an array element not complete in this many bytes read ahead is taken for broken JSON (read whole)
ELEMENT_CHARS = 64 << 20
_ELEMENTS = msgspec.json.Decoder(List[msgspec.Raw])
_SPACE = b" \t\r\n"


def _top_level(buf: bytes) -> Tuple[np.ndarray, int]:
    """Where the elements of a JSON array end in ``buf`` (its bytes after the ``[``, or after a comma between
    elements): the offsets of the commas between elements, and of the ``]`` that closes the array (-1: not in
    ``buf``).  A quote after an odd run of backslashes is inside a string; brackets in strings do not count."""
    u = np.frombuffer(buf, np.uint8)
    quote = u == 34
    if b"\\" in buf:
        at = np.flatnonzero(quote)
        not_bs = np.maximum.accumulate(np.where(u == 92, -1, np.arange(len(u))))
        run = at - 1 - np.where(at > 0, not_bs[np.maximum(at - 1, 0)], -1)
        quote[at[run % 2 == 1]] = False
    outside = (np.cumsum(quote, dtype=np.uint8) & 1) == 0
    step = (outside & ((u == 91) | (u == 123))).astype(np.int64) - (outside & ((u == 93) | (u == 125)))
    depth = np.cumsum(step)
    closed = np.flatnonzero(depth < 0)
    end = int(closed[0]) if len(closed) else -1
    commas = np.flatnonzero(outside & (u == 44) & (depth == 0))
    return (commas if end < 0 else commas[commas < end]), end


class ArrayLines:
    """A stream of a file that is one JSON array, as JSON Lines: each element on a line of its own, its line
    breaks -- JSON whitespace -- made spaces.  The bytes read are cut at the commas between elements and each
    run of whole elements is validated (and split) by msgspec.  What is not a JSON array of values (broken JSON,
    text after the array, an empty array, not UTF-8) raises :class:`~ts_eval.io.lockstep.NotInStep`: the whole
    read names it."""

    fill = 1 << 20      # bytes read at a time

    def __init__(self, stream: Any, name: str) -> None:
        self.stream, self.name = stream, name
        self.buf = b""                   # bytes read and not handed out
        self.eof = False                 # the stream is read to its end
        self.state = "start"             # start, elements, end
        self.elements = 0

    def _fill(self) -> None:
        if self.eof:
            raise NotInStep("the JSON array does not end", self.name)
        data = self.stream.read(self.fill)
        self.eof = not data
        self.buf += data

    def read(self, size: int = -1) -> bytes:
        out: List[bytes] = []
        got = 0
        while (size < 0 or got < size) and self.state != "end":
            if self.state == "start":
                head = self.buf.lstrip(_SPACE)
                head = head[3:].lstrip(_SPACE) if head.startswith(b"\xef\xbb\xbf") else head
                if not head:
                    self._fill()
                    continue
                if not head.startswith(b"["):
                    raise NotInStep("not a JSON array", self.name)
                self.buf, self.state = head[1:], "elements"
                continue
            commas, end = _top_level(self.buf)
            cut = end if end >= 0 else int(commas[-1]) if len(commas) else -1
            if cut < 0:
                if len(self.buf) > ELEMENT_CHARS:
                    raise NotInStep("broken JSON", self.name)
                self._fill()             # the element goes on in the next bytes
                continue
            if end >= 0 and self.buf[end] != 93:
                raise NotInStep("broken JSON", self.name)
            piece, self.buf = self.buf[:cut], self.buf[cut + 1:]
            lines = self._elements(piece, last=end >= 0)
            out.append(lines)
            got += len(lines)
            if end >= 0:
                self.state = "end"
                self._check_end()
        return b"".join(out)

    def _elements(self, piece: bytes, last: bool) -> bytes:
        """The elements of ``piece`` (whole elements and the commas between them), one a line."""
        try:
            elements = _ELEMENTS.decode(b"[" + piece + b"]")
        except msgspec.DecodeError:
            raise NotInStep("broken JSON", self.name) from None
        except UnicodeDecodeError:
            raise NotInStep("not UTF-8", self.name) from None
        if not elements:
            raise NotInStep("an empty JSON array" if last and not self.elements else "broken JSON", self.name)
        self.elements += len(elements)
        return b"".join(bytes(e).replace(b"\n", b" ").replace(b"\r", b" ") + b"\n" for e in elements)

    def _check_end(self) -> None:
        """Only JSON whitespace may follow the array."""
        while True:
            if self.buf.strip(_SPACE):
                raise NotInStep("text after the JSON array", self.name)
            self.buf = b""
            if self.eof:
                return
            self._fill()

    def close(self) -> None:
        self.stream.close()


class Feed(Protocol):
    """One input, handed out a number of whole documents at a time."""

    name: str

    def take(self, n: Optional[int] = None) -> Documents:
        """The next ``n`` documents (None: the next block's worth; fewer at the end of the input)."""

    def done(self) -> bool:
        """Whether no document is left (what is left is read: an error in it is raised)."""

    def check_end(self) -> None:
        """Raise what the whole read raises for an input without documents."""


@runtime_checkable
class Placing(Protocol):
    """A system input whose entries are placed on gold's documents (a generated output:
    :class:`~ts_eval.io.generated_blocks.GeneratedFeed`), as many as each block of gold has."""

    name: str

    def place(self, gold: Documents, last: bool) -> Any:
        """The next entries placed on ``gold``'s documents (``last``: gold has no more), a
        :class:`~ts_eval.io.grounding.Grounded`."""

    def attach(self, corpus: Corpus, gold: Documents, grounded: Dict[str, Any]) -> Corpus:
        """The block's ``corpus`` with what it needs of every placed input (``grounded``: each one's
        :meth:`place`, by system name)."""

    def done(self) -> bool:
        """Whether no entry is left."""

    def check_end(self) -> None:
        """Raise what the whole read raises for an input without entries."""


_NUMBERED = re.compile(r"\b(?:document|record|sentence|line) \d")   # a message that numbers records or lines


def block_error(err: InputError, name: str, docs_before: int, lines_before: int = 0) -> InputError:
    """The error a feed's block raised, as reading the whole file raises it: with the file's line (the
    block's plus ``lines_before``).  A block after the first numbers its documents (and lines, in a message's
    text) its own way: an error whose message numbers any is :class:`NotInStep` (the whole read names it)."""
    if not docs_before or err.path != name:
        return err
    if _NUMBERED.search(str(err)):
        return NotInStep(str(err), name)
    if not lines_before:
        return err
    return type(err)(list(err.parts), err.path, None if err.line is None else err.line + lines_before)


def in_step(gold: List[Optional[str]], system: List[Optional[str]]) -> bool:
    """Whether the documents pair in order: where both sides give an id, it is the same."""
    return gold == system or all(g is None or s is None or g == s for g, s in zip(gold, system))


def lock_step(gold: Feed, feeds: Sequence[Union[Feed, Placing]], names: Sequence[str], *, scheme: Optional[str] = None,
              policy: Optional[str] = None, label_map: Sequence[Tuple[str, str]] = ()) -> Iterator[Corpus]:
    """The Corpus of each block of gold's documents and the same documents of every system (``names``: the
    systems' names, in the order of ``feeds``), paired as :func:`~ts_eval.io.api.read_pair` pairs the whole
    inputs (``scheme`` and ``policy``: what the sides read from tags were decoded with).  Raises
    :class:`NotInStep` when the inputs do not pair document by document in order."""
    ids: List[np.ndarray] = []          # gold's ids, hashed (a repeated id pairs otherwise: checked at the end)
    gold_ids = True                     # every gold document has an id
    system_ids = [True] * len(feeds)    # every document of that system has one
    placing = [f for f in feeds if isinstance(f, Placing)]     # generated outputs: placed on gold's documents
    while not gold.done():
        g = gold.take()
        last = bool(placing) and gold.done()
        grounded: Dict[str, Any] = {}
        systems: List[Documents] = []
        for name, f in zip(names, feeds):
            if isinstance(f, Placing):
                grounded[name] = f.place(g, last)
                systems.append(grounded[name].docs)
            else:
                systems.append(f.take(g.n_docs))
        for k, s in enumerate(systems):
            if s.n_docs != g.n_docs or not in_step(g.ids, s.ids):
                raise NotInStep("the inputs do not pair document by document in order", s.path)
            system_ids[k] = system_ids[k] and None not in s.ids
        gold_ids = gold_ids and None not in g.ids
        if gold_ids:
            ids.append(np.array([hash(i) for i in g.ids], np.int64))
        try:
            corpus = pair_documents(g, dict(zip(names, systems)), scheme=scheme, policy=policy)
        except InputError as err:
            raise NotInStep(str(err), g.path) from err
        if grounded:
            corpus = placing[0].attach(corpus, g, grounded)
        yield relabel(corpus, label_map)
    gold.check_end()
    for f in feeds:
        f.check_end()
        if not f.done():
            raise NotInStep("the system input has more documents than gold", f.name)
    if gold_ids and any(system_ids) and ids:        # some system pairs with gold by id: each id once
        seen = np.sort(np.concatenate(ids))
        if np.any(seen[1:] == seen[:-1]):
            raise NotInStep("a document id occurs twice", gold.name)
