"""A generated output (entity strings with labels, :mod:`ts_eval.io.generated`) read a number of records at a
time and placed on gold's documents block by block: a feed of a lock-step read (:mod:`ts_eval.io.lockstep`).

A block of gold's documents takes as many records, the next ones of the file, and places their strings on
those documents (:func:`~ts_eval.io.grounding.place`, the code of the whole read).  That is the whole read's
pairing when the records pair with gold's documents in order: records without ids (paired by order), or
with the ids of gold's documents in gold's order.  Records with ids in another order, fewer or more records
than gold has documents: :class:`~ts_eval.io.lockstep.NotInStep` (read whole).  A file that is one JSON
array of records over several lines is read as JSON Lines (:class:`~ts_eval.io.lockstep.ArrayLines`:
the n-th element on line n, which is how the whole read numbers an array's records); one whose first line
opens an array and is longer than the first bytes looked at (64 KiB) is read whole.

What grounding reports is added up block by block (:class:`~ts_eval.io.grounding.GroundingTally`: counts,
the first ungrounded strings, the strings of each label and gold's labels); the notes of the whole -- the
labels outside gold's labels over the whole gold input among them -- are those of the last block, the
blocks before carry only the mode (``{"generated": {"mode": "ground"}}``, the first of the notes' keys:
adding the blocks' reading notes gives the whole's).

A bad record is reported as the whole read reports it (its message numbers records of the file, its line
is the file's), but as soon as its block is read: the whole read first reads every line as JSON, so with a
bad JSON line later in the file it names that one first (``ts-eval score`` reads a file of up to 256 MB
again whole to report what the whole read reports).
"""
from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus
from ..errors import InputError
from .documents import Documents
from .generated import FIELD, ID_KEY, Generated, add_record, line_value, mixed_ids, starts_array
from .grounding import Grounded, GroundingTally, attach, ground_settings, place
from .lockstep import ArrayLines, NotInStep, block_error, in_step
from .source import check_utf8, display_name, open_stream, put_back

READ = 1 << 20       # bytes read at a time
LOOK = 1 << 16       # bytes looked at to tell a JSON array over several lines from a line that is a record


class GeneratedFeed:
    """The records of one generated-output file, placed on gold's documents a block at a time
    (:meth:`place`)."""

    def __init__(self, path: str, block_bytes: int = READ, *, generated: Optional[str] = None,
                 ground: Optional[str] = None, normalize: Any = None, fuzzy_threshold: Optional[float] = None,
                 field: str = FIELD, id_key: str = ID_KEY, label_map: Sequence[Tuple[str, str]] = ()) -> None:
        self.settings = ground_settings(generated, ground, normalize, fuzzy_threshold)
        self.path, self.name = path, display_name(path)
        self.field, self.id_key, self.label_map = field, id_key, tuple(label_map)
        self.read_bytes = max(min(block_bytes, READ), 1 << 12)
        self.tally = GroundingTally(self.settings)
        self.stream: Any = None
        self.rest = b""                 # the bytes of a line not read to its end
        self.eof = False
        self.lines = 0                  # lines of the file read
        self.bytes = 0                  # bytes of the file read (to the end of those lines)
        self.pending: List[Tuple[Any, int]] = []     # records read and not placed: (JSON value, line)
        self.parsed = 0                 # records read
        self.placed = 0                 # records placed
        self.first: Optional[Tuple[bool, int]] = None    # whether record 1 has an id, and its line
        self.array = False              # the file is one JSON array over several lines, read as JSON Lines

    # -- reading records

    def _open(self) -> Any:
        """The file as a stream of lines of records: a JSON array over several lines as JSON Lines."""
        raw = open_stream(self.path)
        read = raw.read(LOOK)
        stream = put_back(read, raw)
        head = read.lstrip(b"\xef\xbb\xbf \t\r\n")
        if not head.startswith(b"["):
            return stream
        end = head.find(b"\n")
        if end < 0 and len(read) == LOOK:
            stream.close()
            raise NotInStep("a JSON array of records whose first line is long is read whole", self.name)
        if not starts_array(head[:end if end >= 0 else len(head)].decode("utf-8", "replace")):
            return stream
        self.array = True
        return ArrayLines(stream, self.name)

    def _read(self) -> None:
        """Read the next lines of the file (their records into ``pending``)."""
        if self.stream is None:
            self.stream = self._open()
        data = self.stream.read(self.read_bytes)
        if not data:
            self.eof = True
            self.stream.close()
            chunk, self.rest = self.rest, b""
        else:
            chunk = self.rest + data
            cut = chunk.rfind(b"\n") + 1
            chunk, self.rest = chunk[:cut], chunk[cut:]
        if not chunk:
            return
        shift = check_utf8(chunk, self.name, lines_before=self.lines, bytes_before=self.bytes)
        text = chunk[0 if self.bytes else shift:].decode("utf-8")     # (a BOM counts only at the start)
        for k, ln in enumerate(text.split("\n")):
            if ln.strip():
                self._record(ln, self.lines + k + 1)
        self.lines += chunk.count(b"\n")
        self.bytes += len(chunk)

    def _record(self, ln: str, line: int) -> None:
        if not self.parsed and not self.array and starts_array(ln):     # (not seen by _open: read whole)
            raise NotInStep("a JSON array of records is read whole", self.name)
        value = line_value(ln, self.name, line)
        self.pending.append((value, line))
        self.parsed += 1

    def _fill(self, n: int) -> None:
        while len(self.pending) < n and not self.eof:
            self._read()

    def done(self) -> bool:
        self._fill(1)
        return not self.pending

    def check_end(self) -> None:
        if not self.placed:
            raise NotInStep("no records", self.name)     # the whole read says what the file holds

    def take(self, n: Optional[int] = None) -> Documents:
        raise NotInStep("a generated output is placed on gold's documents", self.name)

    # -- placing them

    def records(self, n: int) -> Generated:
        """The next ``n`` records (fewer at the end of the file)."""
        self._fill(n)
        out = Generated(self.name)
        for value, line in self.pending[:n]:
            add_record(out, value, line, self.placed + len(out.ids) + 1, field=self.field, id_key=self.id_key)
            has = out.ids[-1] is not None
            if self.first is None:
                self.first = (has, line)
            elif has != self.first[0]:
                number = self.placed + len(out.ids) if self.first[0] else 1
                raise mixed_ids(number, self.id_key, self.name, line if self.first[0] else self.first[1])
        del self.pending[:n]
        return out

    def place(self, gold: Documents, last: bool) -> Grounded:
        """The records of ``gold``'s documents placed on them; ``last``: gold has no more documents (the
        notes of the whole are the Grounded's)."""
        gen = self.records(gold.n_docs)
        if gen.n_docs != gold.n_docs or not in_step(gold.ids, gen.ids):
            raise NotInStep("the records do not pair with gold's documents in order", self.name)
        try:
            grounded = place(gold, gen, np.arange(gold.n_docs), self.tally, self.placed)
        except InputError as err:
            raise block_error(err, self.name, self.placed) from None
        self.placed += gen.n_docs
        notes = self.tally.notes(self.label_map) if last else {"generated": {"mode": self.settings.mode}}
        grounded.notes.update(notes)
        grounded.docs.notes.update(notes)
        return grounded

    def attach(self, corpus: Corpus, gold: Documents, grounded: Mapping[str, Grounded]) -> Corpus:
        """The block's corpus with the strings of its generated systems and gold's
        (:func:`~ts_eval.io.grounding.attach`: one call for all of them, read with the same settings)."""
        return attach(corpus, gold, grounded, self.settings)
