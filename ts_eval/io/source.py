"""Opening inputs: a path, ``-`` for standard input, and .gz/.bz2/.xz files (standard library).

Compression is recognised by the file's magic bytes (so a compressed file without
its suffix still reads); a truncated or corrupt stream is an :class:`InputError`.
Readers get the whole decompressed content as bytes or as text.
"""
from __future__ import annotations

import codecs
import functools
import gc
import importlib
import io
import os
import sys
from typing import Any, BinaryIO, Callable, Iterator, Optional, Sequence, Tuple, Type, TypeVar, Union

import numpy as np

from ..errors import InputError

STDIN = "-"
BOM = b"\xef\xbb\xbf"
COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz")
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"))
_MODULE = {"gzip": "gzip", "bzip2": "bz2", "xz": "lzma"}     # imported when a compressed input is met


def _codec(kind: str) -> Any:
    """The module that reads compression ``kind`` (its ``decompress`` and ``open``)."""
    return importlib.import_module(_MODULE[kind])


def _stream_errors() -> Tuple[Type[BaseException], ...]:
    """What a truncated or corrupt compressed stream raises (evaluated only once an error is raised)."""
    import lzma
    import zlib

    return (EOFError, OSError, ValueError, lzma.LZMAError, zlib.error)


Words = Tuple[str, str]     # what messages call gold and the system (agree: two annotators)
GOLD_SYSTEM: Words = ("gold", "system")


def side_words(sides: Optional[Sequence[str]], k: int) -> Tuple[str, str]:
    """What a pair reader's messages call gold and system ``k``: ``sides`` (gold's word, then each
    system's: ``agree`` names its annotators), else ``gold`` and ``system``."""
    return GOLD_SYSTEM if sides is None else (sides[0], sides[k + 1])


def display_name(path: str) -> str:
    """The name used in messages (``<stdin>`` for ``-``)."""
    return "<stdin>" if path == STDIN else str(path)


def plain_name(path: str) -> str:
    """``path`` without a compression suffix (for choosing a format by extension)."""
    p = str(path)
    for suf in COMPRESSION_SUFFIXES:
        if p.lower().endswith(suf):
            return p[: -len(suf)]
    return p


def system_name(path: str) -> str:
    """The name of the system a file holds, the same for every reader and command: the file's name
    without its directory, its compression suffix (.gz, .bz2, .xz) and its format suffix (the last
    extension): ``runs/sysA.conll.gz`` is ``sysA``; ``-`` (standard input) is ``stdin``.  Empty when
    nothing is left (the caller picks a name then)."""
    if path == STDIN:
        return "stdin"
    base = os.path.basename(str(path).rstrip("/"))
    for suffix in COMPRESSION_SUFFIXES:
        if base.lower().endswith(suffix) and len(base) > len(suffix):
            base = base[: -len(suffix)]
            break
    return base.rsplit(".", 1)[0] if "." in base[1:] else base


class _Stdin:
    """Standard input, which can be read only once: the bytes read so far are kept (``head``), so that
    choosing a format or counting columns and then reading see the same data.  ``read_all`` keeps the
    whole input (readers that need it whole); :func:`open_stream` hands the kept bytes and then the rest
    to one reader without keeping them in memory (the blocks of a streamed file).  When it may have to
    be read again (``replayable``: files read in lock-step, which are read whole when their records do not
    pair in order; a file whose scheme is detected in a first pass), what the stream reads is also written
    to a temporary file (``spool``, on disk, never in memory), and reading standard input afterwards starts
    again from there (``pending``), then goes on with what the pipe still holds."""

    def __init__(self) -> None:
        self.source: object = None
        self.head = bytearray()
        self.complete = False
        self.replayable = False
        self.spool: Optional[BinaryIO] = None
        self.pending: Optional[BinaryIO] = None

    def _current(self) -> None:
        if self.source is not sys.stdin:     # a new sys.stdin (tests replace it): start again
            self.source, self.head, self.complete = sys.stdin, bytearray(), False
            self.replayable, self.spool, self.pending = False, None, None
        if self.spool is not None:           # read again: what the stream read, then the rest
            self.pending, self.spool = self.spool, None
            self.pending.seek(0)
            self.head, self.complete, self.replayable = bytearray(), False, False

    def read(self, size: int = -1) -> bytes:
        """The next bytes not read yet (``size`` < 0: all of them): what was kept on disk first."""
        if self.pending is not None:
            got = self.pending.read(size)
            if size < 0:
                got += sys.stdin.buffer.read()
            if got:
                return got
            self.pending.close()
            self.pending = None
        return sys.stdin.buffer.read(size)

    def peek(self, size: int) -> bytes:
        """The first ``size`` raw bytes (fewer at the end), read once and kept."""
        self._current()
        while len(self.head) < size and not self.complete:
            more = self.read(max(size - len(self.head), 1 << 16))
            if not more:
                self.complete = True
            self.head += more
        return bytes(self.head[:size])

    def read_all(self) -> bytes:
        self._current()
        if not self.complete:
            self.head += self.read()
            self.complete = True
        return bytes(self.head)

    def drain(self) -> io.BufferedReader:
        """The whole input as a stream, the kept bytes first; nothing is kept afterwards (in memory)."""
        self._current()
        head, self.head = bytes(self.head), bytearray()
        rest = None if self.complete else self
        self.complete = True      # what is read from here on is the caller's alone
        if self.replayable:
            import tempfile

            self.spool = tempfile.TemporaryFile(prefix="ts_eval_stdin_")   # noqa: SIM115 - closed when read again
            self.spool.write(head)
        return io.BufferedReader(_Chain(head, rest, self.spool), 1 << 16)


class _Chain(io.RawIOBase):
    """``head`` then what ``rest`` still holds, as one raw stream (what it reads of ``rest`` also written to
    ``spool``)."""

    def __init__(self, head: bytes, rest: Optional[Any], spool: Optional[BinaryIO] = None) -> None:
        self.head, self.at, self.rest, self.spool = head, 0, rest, spool

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        view = memoryview(buf).cast("B")
        if self.at < len(self.head):
            n = min(len(view), len(self.head) - self.at)
            view[:n] = self.head[self.at:self.at + n]
            self.at += n
            return n
        if self.rest is None:
            return 0
        data = self.rest.read(len(view))
        view[:len(data)] = data
        if self.spool is not None:
            self.spool.write(data)
        return len(data)


_STDIN = _Stdin()


def replayable_stdin() -> None:
    """Standard input, when it is streamed from here on (:func:`open_stream`), can be read again from its
    start (:func:`read_bytes`) after that: what the stream reads is kept in a temporary file."""
    _STDIN._current()
    _STDIN.replayable = True


def _stdin_bytes() -> bytes:
    """Standard input's bytes, read once per ``sys.stdin`` object and kept."""
    return _STDIN.read_all()


def is_compressed(head: bytes) -> bool:
    """Whether bytes start with the magic of a compression format read here."""
    return any(head.startswith(magic) for magic, _ in _MAGIC)


def read_bytes(path: str) -> bytes:
    """The (decompressed) bytes of ``path``; ``-`` reads standard input."""
    name = display_name(path)
    try:
        if path == STDIN:
            raw = _stdin_bytes()
        else:
            with open(path, "rb") as fh:
                raw = fh.read()
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", name) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", name) from None
    return decompress(raw, name)


def decompress(raw: bytes, name: str) -> bytes:
    """Decompress gzip/bzip2/xz content recognised by its magic bytes; other bytes pass through."""
    for magic, kind in _MAGIC:
        if raw.startswith(magic):
            try:
                return bytes(_codec(kind).decompress(raw))
            except _stream_errors() as err:
                raise InputError(f"truncated or corrupt {kind} data ({err}); expected a complete "
                                 f"{kind} file", name) from None
    return raw


def read_text(path: str, raw: Optional[bytes] = None) -> str:
    """The (decompressed) content of ``path`` decoded as UTF-8 (a BOM is dropped)."""
    name = display_name(path)
    if raw is None:
        raw = read_bytes(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:   # utf-8-sig counts offsets after a BOM
        raise not_utf8(raw, err.start + (len(BOM) if raw.startswith(BOM) else 0), err.reason, name) from None


def not_utf8(raw: Union[bytes, bytearray], pos: int, reason: str, name: str, lines_before: int = 0,
             bytes_before: int = 0) -> InputError:
    """The error for a byte at offset ``pos`` of ``raw`` that is not UTF-8 (with its line); ``raw`` is a
    block of the file after ``lines_before`` lines and ``bytes_before`` bytes."""
    line = lines_before + raw.count(b"\n", 0, pos) + 1
    return InputError(f"not UTF-8: byte 0x{raw[pos]:02x} at byte offset {bytes_before + pos} ({reason}); "
                      "expected UTF-8 text", name, line)


def check_utf8(raw: Union[bytes, bytearray], name: str, block: int = 1 << 20, *, lines_before: int = 0,
               bytes_before: int = 0) -> int:
    """Check that ``raw`` is UTF-8 (an :class:`InputError` at the first bad byte) without making one string
    of the whole file (blocks of about ``block`` bytes, cut at line ends); returns the length of a BOM.
    ``raw`` may be a block of the file after ``lines_before`` lines and ``bytes_before`` bytes."""
    shift = len(BOM) if raw.startswith(BOM) else 0
    start, end = shift, len(raw)
    while start < end:
        stop = raw.find(b"\n", min(start + block, end) - 1, end)
        stop = end if stop < 0 else stop + 1
        try:
            codecs.utf_8_decode(memoryview(raw)[start:stop], "strict", True)
        except UnicodeDecodeError as err:
            raise not_utf8(raw, start + err.start, err.reason, name, lines_before, bytes_before) from None
        start = stop
    return shift


def read_head(path: str, size: int = 1 << 16) -> bytes:
    """The first ``size`` (decompressed) bytes of ``path`` (for choosing a format by content)."""
    if path == STDIN:
        return _stdin_head(size)
    try:
        with open(path, "rb") as fh:
            head = fh.read(size)
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path) from None
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            try:
                with _codec(kind).open(path, "rb") as fh:
                    return bytes(fh.read(size))
            except _stream_errors():
                return read_bytes(path)[:size]      # reports the truncated or corrupt stream
    return head


class _Replay(io.RawIOBase):
    """Standard input from its start, every byte read kept (for looking at its head more than once)."""

    def __init__(self) -> None:
        self.at = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        view = memoryview(buf).cast("B")
        data = _STDIN.peek(self.at + len(view))[self.at:]
        view[:len(data)] = data
        self.at += len(data)
        return len(data)


def _stdin_head(size: int) -> bytes:
    """The first ``size`` (decompressed) bytes of standard input, reading no more of it than that takes."""
    head = _STDIN.peek(max(size, 8))
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            try:
                with _codec(kind).open(io.BufferedReader(_Replay()), "rb") as fh:
                    return bytes(fh.read(size))
            except _stream_errors():
                return read_bytes(STDIN)[:size]      # reports the truncated or corrupt stream
    return head[:size]


def open_stream(path: str) -> io.BufferedReader:
    """``path`` (``-``: standard input) as a stream of its decompressed bytes, for reading it in blocks
    without holding it whole; :func:`read_block` reads from it."""
    name = display_name(path)
    try:
        raw = _STDIN.drain() if path == STDIN else open(path, "rb")  # noqa: SIM115 - the caller closes it
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", name) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", name) from None
    head = raw.peek(8)[:8]
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return io.BufferedReader(_Decompressing(_codec(kind).open(raw, "rb"), kind, name, raw), 1 << 16)
    return raw


class _Decompressing(io.RawIOBase):
    """A decompressing stream whose truncated or corrupt data are an :class:`InputError` (as :func:`decompress`
    says it); closing it closes the compressed file too (``raw``: a codec leaves a file it was given open)."""

    def __init__(self, inner: Any, kind: str, name: str, raw: Any) -> None:
        self.inner, self.kind, self.name, self.raw = inner, kind, name, raw

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        try:
            return int(self.inner.readinto(buf))
        except _stream_errors() as err:
            raise InputError(f"truncated or corrupt {self.kind} data ({err}); expected a complete "
                             f"{self.kind} file", self.name) from None

    def close(self) -> None:
        self.inner.close()
        self.raw.close()
        super().close()


class RawBlock:
    """Bytes of whole documents of an input (``array``, a view of a buffer in which 8 zero bytes follow it;
    ``data``, the same as bytes), after ``lines`` lines and ``bytes`` bytes of the input; ``last``: no block
    follows."""

    __slots__ = ("_data", "array", "bytes", "last", "lines")

    def __init__(self, array: Any, lines: int, done: int, last: bool) -> None:
        self.array, self.lines, self.bytes, self.last = array, lines, done, last
        self._data: Optional[bytes] = None

    @property
    def data(self) -> bytes:
        if self._data is None:
            self._data = self.array.tobytes()
        return self._data

    def padded(self, stop: Optional[int] = None) -> Any:
        """The bytes up to ``stop`` (None: all) and 8 zero bytes after them, as one array (a view where the
        buffer has them, else a copy)."""
        n = len(self.array) if stop is None else stop
        base = self.array.base
        if stop is None and base is not None and len(base) >= n + 8:
            return base[:n + 8]
        out = np.zeros(n + 8, np.uint8)
        out[:n] = self.array[:n]
        return out


#: where the first document end of a buffer at or after a byte offset is (the offset after it; -1: none yet)
Cut = Callable[[Any, int], int]


def line_end(buf: Any, start: int) -> int:
    """:data:`Cut` of inputs with a document per line: after the first line end at or after ``start``."""
    at = bytes(buf[start:]).find(b"\n") if start < len(buf) else -1
    return -1 if at < 0 else start + at + 1


def line_blocks(opener: Callable[[], Any], cut: Cut, block_bytes: Optional[int],
                holds: Optional[Callable[[Any], bool]] = None) -> Iterator[RawBlock]:
    """The bytes of the stream ``opener()`` opens (when the first block is asked for; closed at the end, or when
    the blocks are left unread) in blocks of whole documents of about ``block_bytes`` each (at least one
    document; ``cut`` says where documents end; None: one block, the whole input), with the lines and bytes
    before each: the one way inputs of lines are read.  ``holds(bytes)``: whether the bytes after the last cut
    hold a document (when not -- blank lines, a ``-DOCSTART-`` line -- they end the block before).  Each block
    is a buffer of its own that the input is read into (only the bytes after a cut are copied, into the next
    one): numpy asks the system to back one of several MB with huge pages (a page fault per 2 MB, not 4 KB)."""
    block_bytes = block_bytes or sys.maxsize
    read_size = max(1 << 16, min(block_bytes, 1 << 20))
    room = min(block_bytes, 1 << 26) + read_size + 8        # (a block of any size: the buffer grows)
    buf = np.empty(room, np.uint8)
    size = scanned = lines = done = 0
    pending: Optional[Tuple[np.ndarray, int]] = None
    eof = False
    with opener() as stream:
        while True:
            at = cut(buf.data[:size], max(block_bytes - 1, scanned)) if size >= block_bytes else -1
            if at < 0:
                if eof:
                    break
                scanned = max(scanned, size - 4096) if size >= block_bytes else 0
                if size + read_size + 8 > len(buf):         # no cut yet: a longer block
                    bigger = np.empty(2 * len(buf), np.uint8)
                    bigger[:size] = buf[:size]
                    buf = bigger
                got = stream.readinto(buf.data[size:size + read_size]) or 0
                size += got
                eof = not got
                continue
            rest = np.empty(max(room, size - at + read_size + 8), np.uint8)
            rest[:size - at] = buf[at:size]
            buf[at:at + 8] = 0
            if pending is not None:
                yield (block := RawBlock(pending[0][:pending[1]], lines, done, False))
                lines += int(np.count_nonzero(block.array == 10))
                done += pending[1]
            pending = (buf, at)
            buf, size, scanned = rest, size - at, 0
    buf[size:size + 8] = 0
    if pending is not None and holds is not None and not holds(buf.data[:size]):
        last, at = pending          # lines after the last cut that hold no document: they end the block before
        if len(last) < at + size + 8:
            last = np.concatenate((last[:at], np.empty(size + 8, np.uint8)))
        last[at:at + size + 8] = buf[:size + 8]
        yield RawBlock(last[:at + size], lines, done, True)
        return
    if pending is not None:
        yield (block := RawBlock(pending[0][:pending[1]], lines, done, False))
        lines += int(np.count_nonzero(block.array == 10))
        done += pending[1]
    yield RawBlock(buf[:size], lines, done, True)


def is_dir(path: str) -> bool:
    return path != STDIN and os.path.isdir(path)


F = TypeVar("F", bound=Callable[..., Any])


def gc_paused(fn: F) -> F:
    """Run ``fn`` with the cyclic garbage collector paused: parsing allocates millions of
    small objects (JSON strings and dicts) and none of them form cycles, so the collector's
    passes only cost time (about half of a JSON Lines read)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()
    return wrapper  # type: ignore[return-value]
