"""A JSON Lines file read a number of whole records (lines) at a time: a feed of a lock-step read
(:mod:`ts_eval.io.lockstep`).

A block is a run of whole lines of the file, read by the format's own reader
(:func:`~ts_eval.io.jsonl_tokens.tokens_documents`, :func:`~ts_eval.io.jsonl_text.read_jsonl_text`) on
the block's bytes; the documents it gives get the file's line numbers (and, in what reading found, the
file's record numbers), so a block's Documents are those of the whole read, cut.  A token-list file's
records all have the shape of its first record: later blocks are read in that shape.

What a block cannot read as the whole file reads it raises :class:`~ts_eval.io.lockstep.NotInStep` (read
the file whole): a file without records, and an error whose message numbers records or lines in its text
(``record 7``, ``line 9``: a block numbers its own; the whole read names them).  Other errors are the whole
read's, with the file's line: the bytes are checked for UTF-8 block by block, with the offsets of the file.

A file that is one JSON array of records (a Label Studio export, say) is read as JSON Lines too
(:class:`~ts_eval.io.lockstep.ArrayLines`): each element, parsed on its own, becomes a line of its own, so
the n-th record is on line n, which is how the whole read numbers an array's records.  Any error in such a
file reads it whole (its messages name the line of the file where the JSON breaks).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ..errors import InputError
from .charspans import MisalignedSpanError
from .documents import Documents
from .jsonl_text import read_jsonl_text
from .jsonl_tokens import Shape, load_tag_names, tokens_documents
from .lockstep import ArrayLines, NotInStep, block_error, no_documents
from .source import check_utf8, display_name, gc_paused, open_stream

#: how a block's bytes become Documents (the bytes, the file's name)
Reader = Callable[[bytes, str], Documents]

class JsonlFeed:
    """The records of one JSON Lines file, handed out a number of whole records at a time."""

    def __init__(self, path: str, fmt: str, read: Reader, block_bytes: int, *, system: bool = False) -> None:
        self.path, self.name, self.fmt = path, display_name(path), fmt
        self.read, self.block_bytes, self.system = read, max(block_bytes, 1), system
        self.stream: Any = None
        self.buf = bytearray()         # bytes read and not handed out yet
        self.eof = False
        self.line0 = 0                 # lines of the file before buf
        self.bytes0 = 0                # bytes of the file before buf
        self.docs0 = 0                 # records handed out
        self.array = False             # the file is one JSON array (read as JSON Lines: ArrayLines)

    def _more(self) -> None:
        if self.stream is None:
            self.stream = open_stream(self.path)
            if self.stream.peek(1 << 12).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"["):
                self.stream, self.array = ArrayLines(self.stream, self.name), True
        got = self.stream.read(max(self.block_bytes, 1 << 16))
        if got:
            self.buf += got
        else:
            self.eof = True
            self.stream.close()

    def _lines(self) -> Tuple[np.ndarray, np.ndarray]:
        """(where each whole line of ``buf`` ends, whether it holds a record) -- the last line without its
        line end too at the end of the file.  A line holds a record when it is not blank as ``str.strip``
        says (the readers' rule)."""
        u = np.frombuffer(self.buf, np.uint8)
        ends = np.flatnonzero(u == 10)
        if self.eof and len(u) and (not len(ends) or ends[-1] != len(u) - 1):
            ends = np.append(ends, len(u))
        starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
        filled = ends > starts
        head = np.minimum(starts, max(len(u) - 1, 0))
        record = filled & (u[head] == ord("{")) if len(u) else filled
        for k in np.flatnonzero(filled & ~record).tolist():    # rare: as str.strip() says
            record[k] = bool(bytes(self.buf[starts[k]:ends[k]]).decode("utf-8", "replace").strip())
        return ends, record

    def _cut(self, n: Optional[int]) -> Tuple[int, int]:
        """(bytes, records) of the next block: ``n`` records (None: whole lines of about a block's bytes, at
        least one record); fewer at the end of the file."""
        while True:
            ends, record = self._lines()
            rec = np.flatnonzero(record)
            if n is not None and len(rec) >= n:
                return min(int(ends[rec[n - 1]]) + 1, len(self.buf)), n
            if n is None and len(rec):
                big = np.flatnonzero(ends >= self.block_bytes - 1)
                if len(big):
                    last = max(int(big[0]), int(rec[0]))
                    return min(int(ends[last]) + 1, len(self.buf)), int(np.count_nonzero(rec <= last))
            if self.eof:
                return len(self.buf), len(rec)
            self._more()

    def take(self, n: Optional[int] = None) -> Documents:
        """The Documents of the next ``n`` records (None: of about a block's bytes; fewer at the end)."""
        size, records = self._cut(n)
        if not records:
            return no_documents(self.name, self.fmt)
        block = bytes(self.buf[:size])
        del self.buf[:size]
        docs = self._documents(block, records)
        self.line0 += block.count(b"\n")
        self.bytes0 += size
        self.docs0 += records
        return docs

    @gc_paused
    def _documents(self, block: bytes, records: int) -> Documents:
        if block.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"["):    # a JSON array (or, later, a line that
            raise NotInStep("a JSON array is read whole", self.name)    # is no object, read as one)
        check_utf8(block, self.name, lines_before=self.line0, bytes_before=self.bytes0)
        try:
            docs = self.read(block, self.name)
        except MisalignedSpanError as err:
            if self.system:     # the whole read says whether the text differs from gold's
                raise NotInStep(str(err), self.name) from err
            raise self._shifted(err) from None
        except NotInStep:
            raise
        except InputError as err:
            raise self._shifted(err) from None
        if docs.n_docs != records:
            raise NotInStep(f"{docs.n_docs} records read in a block of {records}", self.name)
        if self.line0 and docs.lines is not None:
            docs.lines = [line + self.line0 for line in docs.lines]
        for item in docs.notes.get("misaligned_spans", ()):
            item["line"] += self.line0
            if not isinstance(item["document"], str):    # no id: the record's number in the file
                item["document"] += self.docs0
        return docs

    def _shifted(self, err: InputError) -> InputError:
        if self.array:          # the whole read names the line of the file
            return NotInStep(str(err), self.name)
        return block_error(err, self.name, self.docs0, self.line0)

    def done(self) -> bool:
        while True:
            if self._lines()[1].any():
                return False
            if self.eof:
                return True
            self._more()

    def check_end(self) -> None:
        if not self.docs0:
            raise NotInStep("no records", self.name)     # the whole read says what the file holds


def tokens_reader(*, scheme: str = "IOB2", policy: str = "conlleval", tag_names: Any = None,
                  id_key: str = "id") -> Reader:
    """How the blocks of a token-list file are read (every block in the shape of the file's first record)."""
    found: List[Shape] = []
    names: Dict[str, Any] = {"tag_names": tag_names}

    def read(block: bytes, name: str) -> Documents:
        docs, shape = tokens_documents(block, name, scheme=scheme, policy=policy, id_key=id_key,
                                       shape_of=found[0] if found else None, **names)
        if not found:
            found.append(shape)
            if shape[0] == "ner_tags" and tag_names is not None:
                names["tag_names"] = load_tag_names(tag_names)    # read once
        return docs
    return read


def text_reader(**options: Any) -> Reader:
    """How the blocks of a text file are read (:func:`~ts_eval.io.jsonl_text.read_jsonl_text`'s options)."""
    def read(block: bytes, name: str) -> Documents:
        return read_jsonl_text(name, raw=block, **options)
    return read
