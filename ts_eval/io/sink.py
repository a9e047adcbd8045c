"""Where every output goes: a path, ``-`` for standard output, .gz/.bz2/.xz by extension; written so
that no failure destroys what was there.

The mirror of :mod:`ts_eval.io.source`.  A file is written whole to a temporary file in its own
folder (``.NAME.XXXXXXXX.tmp``) and renamed over the target only when complete, so a full disk, a
permission error or Ctrl-C leaves the old file as it was and no temporary file behind.  Several
files that belong together (a brat folder) are renamed only when all of them are written
(:func:`replacing`).  A symbolic link keeps pointing where it did (the file it points to is
replaced).  A target that is not a regular file (``/dev/null``, ``/dev/full``, a named pipe) cannot
be replaced by a rename: it is written directly, as the user asked.  Every failure is one
:class:`~ts_eval.errors.InputError` naming the path and the reason.

:func:`check_outputs` refuses an output that is one of the inputs (the same file by device and
inode, whatever path names it) before anything is read.
"""
from __future__ import annotations

import errno
import os
import stat
import sys
from contextlib import contextmanager, suppress
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..errors import InputError, OptionError
from .source import STDIN


def _gzip(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, mtime=0)       # mtime 0: the same text gives the same bytes


def _bzip2(data: bytes) -> bytes:
    import bz2

    return bz2.compress(data)


def _xz(data: bytes) -> bytes:
    import lzma

    return lzma.compress(data)


#: compressors by suffix (their modules are imported when an output asks for one)
_COMPRESS: Dict[str, Callable[[bytes], bytes]] = {".gz": _gzip, ".bz2": _bzip2, ".xz": _xz}
#: files a brat folder is made of: an input among them is part of that folder
BRAT_FILES = (".txt", ".ann", ".conf")
CANNOT = "cannot write the output"
KEPT = "nothing was written; an existing file is left as it was"


def encoded(path: str, text: str) -> bytes:
    """``text`` as the bytes of ``path``: UTF-8 with ``\\n`` line ends, compressed by a .gz/.bz2/.xz suffix."""
    data = text.encode("utf-8")
    compress = _COMPRESS.get(os.path.splitext(str(path))[1].lower())
    return compress(data) if compress is not None else data


def write_stdout(text: str) -> None:
    """``text`` to standard output; a failure (a full disk behind a redirection) is one line."""
    _to_stdout(lambda: sys.stdout.write(text))


def write_stdout_bytes(data: bytes) -> None:
    """``data`` to standard output as they are (see :func:`write_stdout`); a standard output that is a
    text stream only (a caller's ``io.StringIO``, a notebook, doctest) gets them as UTF-8 text."""
    raw = getattr(sys.stdout, "buffer", None)
    if raw is None:
        _to_stdout(lambda: sys.stdout.write(data.decode("utf-8")))
    else:
        _to_stdout(lambda: raw.write(data))


def _to_stdout(write: Callable[[], object]) -> None:
    try:
        write()
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        _silence_stdout()
        raise InputError(f"{CANNOT}: {err.strerror or err}", "<stdout>") from None


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that Python's flush at exit does not fail a second time
    with a traceback."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (see :func:`encoded`); ``-`` is standard output."""
    if path == STDIN:
        write_stdout(text)
        return
    with replacing() as batch:
        batch.add(path, encoded(path, text))


def write_bytes(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` as it is (a picture, say), replacing the file only once complete; ``-`` is
    standard output."""
    if path == STDIN:
        sys.stdout.flush()
        write_stdout_bytes(data)
        return
    with replacing() as batch:
        batch.add(path, data)


class Batch:
    """Files written to temporary files now and renamed over their targets together by :meth:`commit`."""

    def __init__(self) -> None:
        self.pending: List[Tuple[str, str, str]] = []   # (temporary file, target, path as given)
        self.direct: List[Tuple[str, bytes]] = []       # targets that are not regular files
        self.modes: List[Optional[int]] = []            # the permissions of each pending target (None: new)

    def target(self, path: str) -> Tuple[str, Optional[os.stat_result]]:
        """The file ``path`` names (a symbolic link: the file it points to) and its status (None: none yet);
        a directory is an error."""
        target = os.path.realpath(path)    # a symbolic link: replace the file it points to, keep the link
        try:
            st: Optional[os.stat_result] = os.stat(target)
        except FileNotFoundError:
            st = None
        except OSError as err:
            raise _cannot(err, path) from None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise InputError("is a directory; expected a file path to write", str(path))
        return target, st

    def temporary(self, target: str, path: str, st: Optional[os.stat_result]) -> str:
        """A new temporary file for the regular file ``target`` (status ``st``), renamed over it by
        :meth:`commit`; a read-only file is not replaced behind its back."""
        if st is not None and not os.access(target, os.W_OK):
            raise _cannot(PermissionError(errno.EACCES, os.strerror(errno.EACCES)), path)
        tmp = self._temporary(target, path)
        self.pending.append((tmp, target, path))
        self.modes.append(None if st is None else stat.S_IMODE(st.st_mode))
        return tmp

    def keep_mode(self) -> None:
        """The last temporary file gets its target's permissions (the file keeps them)."""
        mode = self.modes[-1]
        if mode is not None:
            os.chmod(self.pending[-1][0], mode)

    def add(self, path: str, data: bytes) -> None:
        target, st = self.target(path)
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.direct.append((path, data))
            return
        tmp = self.temporary(target, path, st)
        try:
            fd = os.open(tmp, os.O_WRONLY | getattr(os, "O_BINARY", 0))
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)    # a full disk may show only here (delayed allocation, network file systems)
            finally:
                os.close(fd)
            self.keep_mode()
        except BaseException as err:
            _remove(tmp)
            self.pending.pop()
            self.modes.pop()
            if isinstance(err, OSError):
                raise _cannot(err, path) from None
            raise

    @staticmethod
    def _temporary(target: str, path: str) -> str:
        """A new empty file next to ``target`` (the folder's umask applies, as to any new file)."""
        folder, base = os.path.split(target)
        for _ in range(100):       # (os.urandom: the secrets module would import hashlib and OpenSSL)
            tmp = os.path.join(folder, f".{base}.{os.urandom(4).hex()}.tmp")
            try:
                os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
                return tmp
            except FileExistsError:
                continue
            except OSError as err:
                if err.errno == errno.ENOENT:
                    raise InputError(f"{CANNOT}: the folder {folder} does not exist (it is not created); expected a "
                                     "path in an existing folder", str(path)) from None
                raise InputError(f"{CANNOT}: cannot create a file in {folder}: {err.strerror or err}; {KEPT}",
                                 str(path)) from None
        raise InputError(f"{CANNOT}: no free temporary file name in {folder}", str(path))

    def retarget(self, paths: Sequence[str]) -> None:
        """The first ``len(paths)`` pending files replace these paths instead (checked as :meth:`add` checks
        a target; an existing file's permissions are kept)."""
        for k, path in enumerate(paths):
            tmp = self.pending[k][0]
            target, st = self.target(path)
            if st is not None:
                if not os.access(target, os.W_OK):
                    raise _cannot(PermissionError(errno.EACCES, os.strerror(errno.EACCES)), path)
                try:
                    os.chmod(tmp, stat.S_IMODE(st.st_mode))
                except OSError as err:
                    raise _cannot(err, path) from None
            self.pending[k] = (tmp, target, path)

    def commit(self) -> None:
        """Rename every temporary file over its target, then write the targets that are not files."""
        for k, (tmp, target, path) in enumerate(self.pending):
            try:
                os.replace(tmp, target)
            except OSError as err:
                del self.pending[:k]        # (renamed already)
                self.abort()
                raise _cannot(err, path) from None
        self.pending, self.modes = [], []
        for path, data in self.direct:
            _write_device(path, data)
        self.direct = []

    def abort(self) -> None:
        """Remove the temporary files not renamed yet (their targets are untouched)."""
        for tmp, _, _ in self.pending:
            _remove(tmp)
        self.pending, self.modes = [], []
        self.direct = []


@contextmanager
def replacing() -> Iterator[Batch]:
    """A :class:`Batch` whose files replace their targets when the block ends without an error; on any
    error (or Ctrl-C) the temporary files are removed and every target is as it was."""
    batch = Batch()
    try:
        yield batch
    except BaseException:
        batch.abort()
        raise
    batch.commit()


#: incremental compressors by suffix, each giving the bytes of the one-shot one above at any cut of the text
_STREAM: Dict[str, Callable[[], Any]] = {
    ".gz": lambda: __import__("zlib").compressobj(9, 8, 31),     # zlib.DEFLATED, a gzip header with mtime 0
    ".bz2": lambda: __import__("bz2").BZ2Compressor(),
    ".xz": lambda: __import__("lzma").LZMACompressor()}
#: what a streamed output to standard output or a device holds back before it writes (an error before then
#: leaves it unwritten, as an output written whole)
HOLD_BYTES = 1 << 23


class Streamed:
    """One output written as it comes, in pieces of text (:meth:`write`), and completed by :meth:`close`:
    a file is written to a temporary file beside it and renamed over it only then, as :class:`Batch` does
    (:meth:`abort`, or an error, leaves the old file as it was and no temporary file); standard output and
    targets that are not regular files get the bytes directly, the first :data:`HOLD_BYTES` held back.
    The bytes are those :func:`write_text` writes for the whole text (.gz/.bz2/.xz compress as they come)."""

    def __init__(self, path: str) -> None:
        self.path = path
        make = _STREAM.get(os.path.splitext(str(path))[1].lower()) if path != STDIN else None
        self.packer = make() if make is not None else None
        self.batch = Batch()
        self.fd: Optional[int] = None       # the temporary file (a regular file's target)
        self.held: Optional[List[bytes]] = None   # standard output or a device: bytes not written yet
        self.held_bytes = 0
        self.device: Optional[int] = None   # a device or pipe, opened once HOLD_BYTES are held

    def _open(self) -> None:
        if self.path == STDIN:
            self.held = []
            return
        target, st = self.batch.target(self.path)
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.held = []
            return
        tmp = self.batch.temporary(target, self.path, st)
        self.fd = os.open(tmp, os.O_WRONLY | getattr(os, "O_BINARY", 0))

    def write(self, text: str) -> None:
        """Add ``text`` to the output."""
        if self.fd is None and self.held is None:
            self._open()
        data = text.encode("utf-8")
        if self.packer is not None:
            data = self.packer.compress(data)
        self._put(data)

    def _put(self, data: bytes) -> None:
        if self.held is not None:
            self.held.append(data)
            self.held_bytes += len(data)
            if self.held_bytes > HOLD_BYTES:
                self._release()
            return
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]   # type: ignore[arg-type]
        except OSError as err:
            self.abort()
            raise _cannot(err, self.path) from None

    def _release(self) -> None:
        """Write what is held to standard output or the device."""
        data, self.held, self.held_bytes = b"".join(self.held or []), [], 0
        if self.path == STDIN:
            _to_stdout(sys.stdout.flush)     # (what was written as text comes first)
            write_stdout_bytes(data)
            return
        try:
            if self.device is None:
                self.device = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0))
            view = memoryview(data)
            while view:
                view = view[os.write(self.device, view):]
        except OSError as err:
            raise InputError(f"{CANNOT}: {err.strerror or err}", str(self.path)) from None

    def close(self) -> None:
        """Complete the output: the file replaces its target (an empty text is still a file)."""
        if self.fd is None and self.held is None:
            self._open()
        if self.packer is not None:
            self._put(self.packer.flush())
        if self.held is not None:
            self._release()
            if self.device is not None:
                os.close(self.device)
            return
        fd, self.fd = self.fd, None
        try:
            try:
                os.fsync(fd)     # type: ignore[arg-type]
            finally:
                os.close(fd)     # type: ignore[arg-type]
            self.batch.keep_mode()
        except OSError as err:
            self.batch.abort()
            raise _cannot(err, self.path) from None
        self.batch.commit()

    def abort(self) -> None:
        """Leave the target as it was: the temporary file is removed (what a device got stays)."""
        if self.fd is not None:
            with suppress(OSError):
                os.close(self.fd)
            self.fd = None
        self.batch.abort()
        if self.device is not None:
            with suppress(OSError):
                os.close(self.device)


def _write_device(path: str, data: bytes) -> None:
    """Write to a target that is not a regular file (a device or a pipe), as ``>`` would."""
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as err:
        raise InputError(f"{CANNOT}: {err.strerror or err}", str(path)) from None


def _cannot(err: OSError, path: str) -> InputError:
    return InputError(f"{CANNOT}: {err.strerror or err}; {KEPT}", str(path))


def _remove(path: str) -> None:
    with suppress(OSError):
        os.unlink(path)


@contextmanager
def output_dir(path: str) -> Iterator[Batch]:
    """A folder output (brat): the folder is created if missing, and its files replace the old ones
    together when the block ends (:func:`replacing`); on an error a folder made here is removed again
    when it is still empty."""
    made = not os.path.isdir(path)
    make_dir(path)
    try:
        with replacing() as batch:
            yield batch
    except BaseException:
        if made:
            with suppress(OSError):
                os.rmdir(path)
        raise


def make_dir(path: str) -> None:
    """Create the output directory ``path`` (brat); an error names it when that is impossible."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot create the directory: {err.strerror or err}; expected a writable "
                         "directory path", str(path)) from None
    if not os.path.isdir(path):
        raise InputError("is not a directory; expected a directory for brat output", str(path))


# ---------------------------------------------------------------------------
# outputs that are inputs, standard input twice


def _identity(path: str) -> Optional[Tuple[int, int]]:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _members(path: str) -> List[str]:
    """An input folder's files (a brat folder, a folder of system files); a file is itself."""
    if not os.path.isdir(path):
        return [path]
    try:
        return [os.path.join(path, f) for f in sorted(os.listdir(path))]
    except OSError:
        return []


def check_outputs(outputs: Sequence[Tuple[str, str]], inputs: Sequence[Tuple[str, str]]) -> None:
    """Refuse, before anything is read, an output that is one of the inputs: the same file by device and
    inode (a hard link, a symbolic link or another spelling of the path is the same file), a file of
    an input folder, or -- for a folder output (brat) -- an input folder or a brat file in it.

    ``outputs`` and ``inputs`` are (what, path) pairs, ``what`` as the message should name it
    (``--output``, ``gold``, ...); ``-`` (standard input or output) is never a file here.
    """
    files: Dict[Tuple[int, int], Tuple[str, str]] = {}
    for what, path in inputs:
        if not path or path == STDIN:
            continue
        for member in _members(path):
            key = _identity(member)
            if key is not None:
                files.setdefault(key, (what, member if member == path else f"{member} (in {path})"))
        key = _identity(path)
        if key is not None:
            files.setdefault(key, (what, path))
    seen: Dict[str, str] = {}
    for what, path in outputs:
        if not path or path == STDIN:
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise OptionError(f"{seen[real]} and {what} are the same file ({path}): the second would replace the "
                             "first; give two paths")
        seen[real] = what
        written = [path] + ([m for m in _members(path) if m.endswith(BRAT_FILES)] if os.path.isdir(path) else [])
        for candidate in written:
            hit = files.get(_identity(candidate))   # type: ignore[arg-type]
            if hit is not None:
                role, name = hit
                raise OptionError(f"{what} {path} is the input {name} ({role}; the same file): writing it would "
                                 "destroy the input; give another output path")


def check_stdin_once(inputs: Sequence[Tuple[str, object]]) -> None:
    """Standard input (``-``) can be read only once: naming it for two inputs is an error naming both."""
    roles = [what for what, path in inputs if path == STDIN]
    if len(roles) > 1:
        times = "twice" if len(roles) == 2 else f"{len(roles)} times"
        raise OptionError(f"standard input ('-') is given {times} ({', '.join(roles[:-1])} and {roles[-1]}); it can "
                         "be read only once: save all but one of these inputs to files")
