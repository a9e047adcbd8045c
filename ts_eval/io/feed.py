"""An input handed out a number of whole documents at a time, its errors where they are: the feed of the joiner.

A format reads its input in blocks of whole documents (:func:`~ts_eval.io.source.line_blocks` cuts the
bytes where the format's documents end) and parses each block (``parse``: the block's bytes, with the lines
and the documents of the input before it, to the input's numbers in messages).  :class:`DocumentFeed` hands
the parsed documents out ``n`` at a time, whatever the blocks are.

A block that holds an error is parsed up to the document the error is in (its line), and the error is raised
only when that document is the next to hand out: the documents before it are handed out first, so the first
error the joiner meets is the same whatever the size of the blocks (a parser that checks one kind of error
over a whole block before another may find a later line first: parsing the part before it again finds the
first).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Protocol, Sequence, Tuple

import numpy as np

from ..errors import InputError
from .source import RawBlock

if TYPE_CHECKING:
    from ..core.corpus import Corpus
    from .grounding import Grounded

#: a format's parser: a block (or its first ``stop`` bytes, None: all), the documents before it -> documents
Parse = Callable[[Any, Optional[int], int], Any]


def before_line(name: str, blank: bool) -> Callable[[RawBlock, InputError], int]:
    """The ``cut_before`` of an input of lines: where the documents before the line of an error end (the start
    of its line for a document per line, the last blank line before it for documents that end at blank
    lines); 0 when that is not in the block or the error names no line of this input."""
    def cut(raw: RawBlock, err: InputError) -> int:
        if err.path != name or err.line is None or err.line <= raw.lines:
            return 0
        line = err.line - raw.lines
        return blank_before(raw.data, line) if blank else line_start(raw.data, line)
    return cut


def line_start(data: Any, line: int) -> int:
    """The byte offset in ``data`` where its ``line`` (1-based, counted from the block's start) starts."""
    if line <= 1:
        return 0
    ends = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    return int(ends[line - 2]) + 1 if line - 2 < len(ends) else len(data)


def blank_before(data: Any, line: int) -> int:
    """Where the documents before ``line`` end in blocks whose documents end at blank lines: the start of the
    last line before ``line`` that is blank (0: none)."""
    stop = line_start(data, line)
    u = np.frombuffer(data, np.uint8, count=stop)
    ends = np.flatnonzero(u == 10)
    for a, b in zip(ends[:-1][::-1].tolist(), ends[1:][::-1].tolist()):
        if not bytes(u[a + 1:b]).strip():
            return int(a) + 1
    return 0


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

    def place(self, gold: Any, part: Any, order: np.ndarray, last: bool) -> Grounded:
        """``part``'s records placed on ``gold``'s documents (gold's document g takes record ``order[g]``;
        ``last``: gold has no more)."""

    def attach(self, corpus: Corpus, gold: Any, grounded: Dict[str, Grounded]) -> Corpus:
        """The block's ``corpus`` with what it needs of every placed input (``grounded``: by system name)."""


@dataclass(frozen=True)
class Decoding:
    """How the sides read from tags are decoded (``scheme``, ``policy``) and how every side's labels are
    rewritten (``label_map``: (pattern, replacement) pairs)."""

    scheme: str = "IOB2"
    policy: str = "conlleval"
    label_map: Tuple[Tuple[str, str], ...] = ()


def raising(err: InputError) -> Callable[[], InputError]:
    """An error found already, as the errors whose message is made only when it is raised."""
    return lambda: err


class DocumentFeed:
    """The documents of one input, handed out ``n`` at a time (:class:`ts_eval.io.feed.Feed`)."""

    def __init__(self, name: str, blocks: Iterator[Any], parse: Parse, cut_before: Callable[[Any, InputError], int],
                 empty: Callable[[Any], Any], none: Callable[[], InputError], blank: Optional[str] = "empty input",
                 earliest: bool = False) -> None:
        self.name = name
        #: of a block's errors, the one on its earliest line is raised (a format whose whole read reports the first
        #: line with an error: FairEval's files); False: the one its parse meets first (JSON Lines check every
        #: record before their tags and spans, so a record's error comes before a tag's on an earlier line)
        self.earliest = earliest
        self.blank = blank                 # the error for an input of white space only (None: ``none()``)
        self.text = False                  # a block held more than white space
        self.blocks, self.parse, self.cut_before = blocks, parse, cut_before
        self.empty, self.none = empty, none
        self.parts: List[Any] = []         # parsed documents not handed out yet
        self.buffered = 0
        self.error: Optional[InputError] = None     # raised when the next document is handed out
        self.handed = 0                    # documents handed out
        self.eof = False
        self.last: Any = None              # the last part handed out (an empty part is cut from it)

    def _read(self) -> bool:
        """Parse the next block (False: nothing more)."""
        if self.eof or self.error is not None:
            return False
        raw = next(self.blocks, None)
        if raw is None:
            self.eof = True
            return False
        if not self.text and isinstance(raw, RawBlock):
            self.text = bool(raw.data.strip())
        try:
            part = self.parse(raw, None, self.handed + self.buffered)
        except InputError as err:
            self.error = err            # (or, ``earliest``, an earlier one that the documents before it hold)
            part = self._before(raw, err)
            if not self.earliest:
                self.error = err
            self.eof = True
        if part is not None and part.n_docs:
            self.parts.append(part)
            self.buffered += part.n_docs
        return True

    def _before(self, raw: Any, err: InputError) -> Any:
        """The documents of ``raw`` before the one ``err`` is in (None: none), ``err`` the first error among
        them (parsed again until they hold none)."""
        while True:
            stop = self.cut_before(raw, err)
            if stop <= 0:
                return None
            try:
                return self.parse(raw, stop, self.handed + self.buffered)
            except InputError as earlier:
                if self.cut_before(raw, earlier) >= stop:
                    return None
                err = self.error = earlier

    def take(self, n: Optional[int] = None) -> Any:
        """The next ``n`` documents (None: at least one block's worth); fewer at the end of the input or
        before an error (raised by the next :meth:`take`)."""
        want = 1 if n is None else n
        while self.buffered < want and self._read():
            pass
        if not self.buffered:
            if self.error is not None:
                raise self.error
            return self.empty(self.last)
        if n is None or n >= self.buffered:
            out = self._join(self.parts)
            self.parts, self.buffered = [], 0
        else:
            out = self._split(n)
        self.handed += out.n_docs
        self.last = out
        return out

    def _split(self, n: int) -> Any:
        taken: List[Any] = []
        while n:
            p = self.parts[0]
            if p.n_docs <= n:
                taken.append(self.parts.pop(0))
                n -= p.n_docs
            else:
                taken.append(p.take(np.arange(n), notes=True))
                self.parts[0] = p.take(np.arange(n, p.n_docs))
                n = 0
        out = self._join(taken)
        self.buffered -= out.n_docs
        return out

    def _join(self, parts: Sequence[Any]) -> Any:
        if len(parts) == 1:
            return parts[0]
        return concat_parts(parts)

    def pending(self) -> Optional[InputError]:
        """The error the next document is (None: there is none, or the input is not read that far)."""
        if not self.buffered:
            while not self.buffered and self._read():
                pass
        return self.error if not self.buffered else None

    def done(self) -> bool:
        while not self.buffered and self._read():
            pass
        return not self.buffered and self.error is None

    def end(self) -> None:
        if self.blank is not None and not self.text:
            raise InputError(self.blank, self.name)
        raise self.none()

    def size(self, part: Any) -> int:
        return int(part.n_docs)


def detected_scheme(path: str, blocks: Callable[[], Iterator[RawBlock]], parse: Callable[..., Any]) -> Optional[str]:
    """The scheme ``auto`` stands for in an input of tags: detected over every block in a first pass
    (``parse(raw, None, first, evidence=True)`` gives a block's evidence, up to the first error, which the
    second pass reports where it is; standard input is kept in a temporary file to be read again)."""
    from ..core.schemes import scheme_of
    from .source import STDIN, replayable_stdin

    if path == STDIN:
        replayable_stdin()
    evidence = None
    try:
        for raw in blocks():
            found = parse(raw, None, 0, evidence=True)
            if found is not None:
                evidence = found if evidence is None else evidence | found
    except InputError:      # the second pass reports it where it is (the blocks before it decide the scheme)
        pass
    return scheme_of(evidence) if evidence is not None else None


def concat_parts(parts: Sequence[Any]) -> Any:
    """Consecutive parts of one input (documents, a generated output's records, a column file's sentences) as
    one: each kind of part knows how (its ``concat``)."""
    return parts[0] if len(parts) == 1 else parts[0].concat(parts)


def whole(feed: Feed) -> Any:
    """Every document of ``feed`` as one part; an error in the input is raised (one that pairing would report
    only where no other comes first, too)."""
    return concat_parts(list(each_part(feed)))


def each_part(feed: Feed) -> Iterator[Any]:
    """The documents of ``feed`` a block's worth at a time, as :func:`whole` reads them (the same errors, each
    raised when the part it is in is the next)."""
    handed = False
    while not feed.done():
        part = feed.take(None)
        if getattr(part, "deferred", None) is not None:
            raise part.deferred[1]
        handed = True
        yield part
    if not handed:
        feed.end()
