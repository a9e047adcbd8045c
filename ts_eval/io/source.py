"""Opening inputs: a path, ``-`` for standard input, and .gz/.bz2/.xz files (standard library).

Compression is recognised by the file's magic bytes (so a compressed file without
its suffix still reads); a truncated or corrupt stream is an :class:`InputError`.
Readers get the whole decompressed content as bytes or as text.
"""
from __future__ import annotations

import bz2
import codecs
import functools
import gc
import gzip
import lzma
import os
import sys
import zlib
from typing import Any, Callable, Dict, Optional, TypeVar, Union

from ..errors import InputError

STDIN = "-"
BOM = b"\xef\xbb\xbf"
COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz")
_MAGIC = ((b"\x1f\x8b", "gzip", gzip.decompress), (b"BZh", "bzip2", bz2.decompress),
          (b"\xfd7zXZ\x00", "xz", lzma.decompress))
_OPEN: Dict[str, Callable[..., Any]] = {"gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open}


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


_stdin: list = [None, b""]   # (the sys.stdin object read, its bytes): standard input can be read only once


def _stdin_bytes() -> bytes:
    """Standard input's bytes, read once per ``sys.stdin`` object and kept, so that choosing a format
    or counting columns and then reading see the same data."""
    if _stdin[0] is not sys.stdin:
        _stdin[1] = sys.stdin.buffer.read()
        _stdin[0] = sys.stdin
    return _stdin[1]


def is_compressed(head: bytes) -> bool:
    """Whether bytes start with the magic of a compression format read here."""
    return any(head.startswith(magic) for magic, _, _ in _MAGIC)


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
    for magic, kind, fn in _MAGIC:
        if raw.startswith(magic):
            try:
                return fn(raw)
            except (EOFError, OSError, ValueError, lzma.LZMAError, zlib.error) as err:
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


def not_utf8(raw: Union[bytes, bytearray], pos: int, reason: str, name: str) -> InputError:
    """The error for a byte at file offset ``pos`` that is not UTF-8 (with its line)."""
    line = raw.count(b"\n", 0, pos) + 1
    return InputError(f"not UTF-8: byte 0x{raw[pos]:02x} at byte offset {pos} ({reason}); expected UTF-8 text",
                      name, line)


def check_utf8(raw: bytes, name: str, block: int = 1 << 20) -> int:
    """Check that ``raw`` is UTF-8 (an :class:`InputError` at the first bad byte) without making one string
    of the whole file (blocks of about ``block`` bytes, cut at line ends); returns the length of a BOM."""
    shift = len(BOM) if raw.startswith(BOM) else 0
    start, end = shift, len(raw)
    while start < end:
        stop = raw.find(b"\n", min(start + block, end) - 1, end)
        stop = end if stop < 0 else stop + 1
        try:
            codecs.utf_8_decode(memoryview(raw)[start:stop], "strict", True)
        except UnicodeDecodeError as err:
            raise not_utf8(raw, start + err.start, err.reason, name) from None
        start = stop
    return shift


def read_head(path: str, size: int = 1 << 16) -> bytes:
    """The first ``size`` (decompressed) bytes of ``path`` (for choosing a format by content)."""
    if path == STDIN:
        return read_bytes(path)[:size]
    try:
        with open(path, "rb") as fh:
            head = fh.read(size)
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path) from None
    for magic, kind, _ in _MAGIC:
        if head.startswith(magic):
            try:
                with _OPEN[kind](path, "rb") as fh:
                    return fh.read(size)
            except (EOFError, OSError, ValueError, lzma.LZMAError, zlib.error):
                return read_bytes(path)[:size]      # reports the truncated or corrupt stream
    return head


def is_dir(path: str) -> bool:
    return path != STDIN and os.path.isdir(path)


F = TypeVar("F", bound=Callable)


def gc_paused(fn: F) -> F:
    """Run ``fn`` with the cyclic garbage collector paused: parsing allocates millions of
    small objects (JSON strings and dicts) and none of them form cycles, so the collector's
    passes only cost time (about half of a JSON Lines read)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()
    return wrapper  # type: ignore[return-value]
