"""A gold CoNLL-U file and one CoNLL-U file per system, read in lock-step blocks of whole sentences.

Each of the gold file's blocks (whole sentences of about ``block_bytes``, cut after a line that a blank
line follows, as :func:`ts_eval.io.columns.read_column_blocks` cuts) is read
(:mod:`ts_eval.io.conllu_lines`, with the file's line numbers) together with the same number of
sentences of every system file, and the sides are paired as :func:`ts_eval.io.api.read_pair` pairs the
whole files (:func:`ts_eval.io.lockstep.lock_step`, which says when the files must be read whole
instead: it raises :class:`~ts_eval.io.lockstep.NotInStep`).  A CoNLL-U file is one such feed of any
lock-step read (:func:`ts_eval.streaming.files.read_pair_blocks`: gold and systems may differ in format).
"""
from __future__ import annotations

from typing import Iterator, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.corpus import Corpus
from ..errors import InputError
from . import columns
from .columns import Stream, _sentence_blocks
from .conllu import TagSource, documents, misc_error, scan_lines, tag_source
from .conllu_lines import Lines
from .documents import Documents
from .lockstep import NotInStep, lock_step, no_documents
from .source import STDIN, check_utf8, display_name, open_stream, replayable_stdin


class _Feed:
    """The sentences of one CoNLL-U file, handed out a number of whole sentences at a time."""

    def __init__(self, path: str, block_bytes: int, column: Union[str, int, None], misc_key: Optional[str],
                 scheme: str, policy: str) -> None:
        self.path, self.name = path, display_name(path)
        self.column, self.misc_key, self.scheme, self.policy = column, misc_key, scheme, policy
        self.blocks: Iterator[Tuple[bytearray, bool]] = _sentence_blocks(self._stream(), block_bytes, None)
        self.buf = bytearray()         # bytes read and not handed out yet (whole lines)
        self.lines = _NO_LINES         # what buf holds (byte offsets from buf[shift:])
        self.n_lines = 0               # newlines in buf
        self.line0 = 0                 # lines of the file before buf
        self.bytes0 = 0                # bytes of the file before buf
        self.shift = 0                 # BOM at the start of buf
        self.eof = False
        self.source: Optional[TagSource] = None
        self.words = 0                 # words handed out
        self.text = False              # the file holds something other than white space

    def _stream(self) -> Stream:
        return open_stream(self.path)

    def _read(self) -> bool:
        """Add the next block of the file to ``buf`` and what it holds to ``lines`` (False at the end of the
        file)."""
        if self.eof:
            return False
        block, self.eof = next(self.blocks, (bytearray(), True))
        at, lines = self.bytes0 + len(self.buf), self.line0 + self.n_lines
        shift = check_utf8(block, self.name, lines_before=lines, bytes_before=at)
        if not at:
            self.shift = shift
            self.source = tag_source(block, shift, self.column, self.misc_key, self.name)
        assert self.source is not None
        self.text = self.text or bool(block.strip())
        found = scan_lines(block, shift if not at else 0, self.source, self._missing, lines)
        if self.buf:
            found.form_start += len(self.buf) - self.shift
            self.lines += found
        else:
            self.lines = found
        self.buf += block
        self.n_lines += block.count(b"\n")
        return bool(block)

    def _missing(self, at: int) -> InputError:
        """The error for a word without the MISC key on line ``at``: the file's first lines, read again."""
        assert self.source is not None

        def lines() -> Iterator[bytes]:
            with self._stream() as fh:
                for k, line in enumerate(fh):
                    if k >= at:
                        return
                    yield line[3:] if k == 0 and line.startswith(b"\xef\xbb\xbf") else line

        return misc_error(lines(), self.source, at)

    def _sentences(self) -> int:
        lines = self.lines
        if not len(lines.word_line):
            return 0
        return int(np.count_nonzero(np.diff(np.searchsorted(lines.blank_line, lines.word_line)))) + 1

    def take(self, n: Optional[int] = None) -> Documents:
        """The Documents of the next ``n`` sentences (None: of the next block of the file; fewer at its
        end), and of the lines after them up to the blank line before the next sentence."""
        while True:
            have = self._sentences() if self.buf else 0
            if self.eof or (have and n is None) or (n is not None and (have > n or (have == n and self.buf))):
                break
            self._read()
        if n is None or have <= n:
            return self._cut(None)
        lines = self.lines
        ends = np.flatnonzero(np.diff(np.searchsorted(lines.blank_line, lines.word_line)))
        last_word = int(lines.word_line[ends[n - 1]])
        return self._cut(int(lines.blank_line[np.searchsorted(lines.blank_line, last_word)]))

    def _cut(self, line: Optional[int]) -> Documents:
        """The Documents of the lines of ``buf`` before the file's line ``line`` (None: all of them); the rest
        stays in ``buf``."""
        if not self.buf:
            return no_documents(self.name, "conllu")
        lines = self.lines
        if line is None:
            part, rest, rest_at, rest_lines = lines, _NO_LINES, len(self.buf), self.line0 + self.n_lines
        else:
            nl = np.flatnonzero(np.frombuffer(self.buf, np.uint8) == 10)
            rest_at, rest_lines = int(nl[line - self.line0 - 2]) + 1, line - 1
            part, rest = lines.before(line), lines.after(line, rest_at - self.shift)
        if not len(part.word_line) and (part.multiword or part.empty):
            raise NotInStep("multi-word tokens or empty nodes outside the sentences of a block", self.name)
        data = np.frombuffer(self.buf, np.uint8, count=rest_at - self.shift, offset=self.shift).copy()
        docs = documents(self.name, part, data, self.scheme, self.policy) if len(part.word_line) else None
        self.words += len(part.word_line)
        self.bytes0 += rest_at
        self.n_lines -= rest_lines - self.line0
        self.line0 = rest_lines
        del self.buf[:rest_at]
        self.shift = 0
        self.lines = rest
        return docs if docs is not None else no_documents(self.name, "conllu")

    def done(self) -> bool:
        """Whether the file has no sentence left (its rest is read: an error in it is raised)."""
        while not (self.buf and self._sentences()):
            if not self._read():
                self._cut(None)     # lines after the last sentence
                return True
        return False

    def check_end(self) -> None:
        """The file read whole raises this when it holds no word line."""
        if not self.words:
            raise InputError("no word lines; expected CoNLL-U sentences" if self.text else "empty input", self.name)


_NO_LINES = Lines(np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, np.int64), [], np.zeros(0, np.int64),
                  np.zeros(0, np.int64), [], np.zeros(0, np.uint16))


def conllu_feed(path: str, block_bytes: int, *, column: Union[str, int, None] = None, misc_key: Optional[str] = "NER",
                scheme: str = "IOB2", policy: str = "conlleval") -> _Feed:
    """A CoNLL-U file as a feed of a lock-step read (:func:`~ts_eval.io.conllu.read_conllu`'s options)."""
    return _Feed(path, block_bytes, column, misc_key, scheme, policy)


def read_conllu_pair_blocks(gold_path: str, system_paths: Union[Sequence[str], Mapping[str, str]], *,
                            names: Optional[Sequence[str]] = None, misc_key: Optional[str] = "NER",
                            column: Union[str, int, None] = None, scheme: str = "IOB2", policy: str = "conlleval",
                            label_map: Sequence[Tuple[str, str]] = (),
                            block_bytes: Optional[int] = None) -> Iterator[Corpus]:
    """The Corpus of each block of whole sentences of a gold CoNLL-U file and the system files (``names``:
    the systems' names, in order), read in lock-step; the options are :func:`~ts_eval.io.conllu.read_conllu`'s
    and :func:`~ts_eval.io.api.read_pair`'s.  Raises :class:`NotInStep` when the files do not pair sentence
    by sentence in order (read them whole: standard input, ``-``, can be read again, see
    :func:`~ts_eval.io.source.replayable_stdin`); the scheme ``auto``, detected over a whole file, is not read
    in blocks."""
    if scheme == "auto":
        raise NotInStep("the scheme is detected over the whole file", display_name(gold_path))
    paths = list(system_paths.values()) if isinstance(system_paths, Mapping) else list(system_paths)
    if names is None:
        names = list(system_paths) if isinstance(system_paths, Mapping) else [display_name(p) for p in paths]
    if STDIN in [gold_path, *paths]:
        replayable_stdin()      # read whole again (NotInStep) from a temporary file that keeps what was read
    size = block_bytes or columns.BLOCK_BYTES
    gold = _Feed(gold_path, size, column, misc_key, scheme, policy)
    feeds = [_Feed(p, size, column, misc_key, scheme, policy) for p in paths]
    yield from lock_step(gold, feeds, names, scheme=scheme, policy=policy, label_map=label_map)
