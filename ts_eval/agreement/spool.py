"""Records kept on disk while a study reads, and JSON written around them.

:class:`Spool` holds a list of JSON-able records (the disagreements a JSON or CSV output lists, every
one of them) as one compact JSON line each in an anonymous temporary file of the system's temporary
folder (removed when closed, when the process ends, and on any error: it has no name), so what the
list costs in memory is a file offset, not a Python object per record.  Reading it back gives the
records as they were appended (a JSON round trip: numbers, strings, ``None`` and key order are kept;
a tuple comes back as a list, which JSON writes alike).

:func:`json_chunks` writes a dict that holds spools as ``json.dumps(data, indent=2,
ensure_ascii=False)`` would write it with each spool a list, byte for byte, in pieces: the rest is
dumped whole (a spool replaced by a marker), and each record is dumped alone (or kept as dumped: a spool of
``form="json"``), its lines indented as deep as the list sits.
"""
from __future__ import annotations

import json
import tempfile
import uuid
from itertools import islice
from typing import IO, Any, Dict, Iterator, List, Optional, Union, overload

#: bytes read back at a time
READ_BYTES = 1 << 20
#: the forms a spool keeps its records in, and the byte after each (never a byte of a record's UTF-8 text:
#: a JSON text escapes NUL, and a compact one has no line break)
FORMS = {"records": b"\n", "json": b"\x00"}


class Spool:
    """An append-only list of JSON-able records kept in a temporary file: ``form`` ``"records"`` one
    compact JSON line each, ``"json"`` each as ``json.dumps(rec, indent=2, ensure_ascii=False)`` writes
    it (what :func:`json_chunks` writes, made once while reading)."""

    def __init__(self, form: str = "records") -> None:
        if form not in FORMS:
            raise ValueError(f"a spool's form is one of {', '.join(FORMS)}, not {form!r}")
        self.form, self._end = form, FORMS[form]
        self._file: Optional[IO[bytes]] = None
        self._n = 0

    def append(self, rec: Any) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile()   # noqa: SIM115 (kept open until close: the spool owns it)
        if self.form == "json":
            text = json.dumps(rec, indent=2, ensure_ascii=False)
        else:
            text = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
        self._file.write(text.encode("utf-8") + self._end)
        self._n += 1

    def extend(self, recs: Any) -> None:
        for r in recs:
            self.append(r)

    def __len__(self) -> int:
        return self._n

    def texts(self) -> Iterator[str]:
        """Each record's JSON text as kept, in order."""
        f = self._file
        if f is None:
            return
        f.flush()
        at, rest, seen = 0, b"", 0
        while seen < self._n:
            f.seek(at)
            block = f.read(READ_BYTES)
            at += len(block)
            parts = (rest + block).split(self._end)
            rest = parts.pop()
            for part in parts[:self._n - seen]:
                yield part.decode("utf-8")
            seen += len(parts)
            if not block:
                break
        f.seek(0, 2)

    def __iter__(self) -> Iterator[Any]:
        return (json.loads(t) for t in self.texts())

    def indented(self) -> Iterator[str]:
        """Each record as ``json.dumps(rec, indent=2, ensure_ascii=False)`` writes it."""
        if self.form == "json":
            return self.texts()
        return (json.dumps(r, indent=2, ensure_ascii=False) for r in self)

    @overload
    def __getitem__(self, k: int) -> Any: ...

    @overload
    def __getitem__(self, k: slice) -> List[Any]: ...

    def __getitem__(self, k: Union[int, slice]) -> Any:
        if isinstance(k, slice):
            return list(self)[k] if k.step is not None or (k.start or 0) < 0 or (k.stop or 0) < 0 \
                else list(islice(iter(self), k.start, k.stop))
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError("spool index out of range")
        return next(islice(iter(self), k, None))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._n = 0

    def __del__(self) -> None:
        self.close()


def _marked(data: Any, spools: Dict[str, Spool]) -> Any:
    """``data`` with each non-empty spool replaced by a unique marker string (empty ones by [])."""
    if isinstance(data, Spool):
        if not len(data):
            return []
        key = f"\x00spool:{uuid.uuid4().hex}"
        spools[json.dumps(key, ensure_ascii=False)] = data
        return [key]
    if isinstance(data, dict):
        return {k: _marked(v, spools) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_marked(v, spools) for v in data]
    return data


def json_chunks(data: Any) -> Iterator[str]:
    """``json.dumps(data, indent=2, ensure_ascii=False)`` in pieces, each :class:`Spool` in ``data``
    written as the list of its records."""
    spools: Dict[str, Spool] = {}
    text = json.dumps(_marked(data, spools), indent=2, ensure_ascii=False)
    at = 0
    for mark, spool in sorted(spools.items(), key=lambda kv: text.index(kv[0])):
        i = text.index(mark, at)
        indent = text[text.rfind("\n", 0, i) + 1:i]
        yield text[at:i]
        batch: List[str] = []
        for k, rec_text in enumerate(spool.indented()):
            dumped = rec_text.replace("\n", "\n" + indent)
            batch.append(dumped if k == 0 else ",\n" + indent + dumped)
            if len(batch) >= 4096:
                yield "".join(batch)
                batch = []
        if batch:
            yield "".join(batch)
        at = i + len(mark)
    yield text[at:]
