"""Documents -> a CoNLL column file: ``TOKEN TAG`` per line, a blank line after every document
(sentence), tags in any named scheme (IOB1, IOB2, IOE1, IOE2, IOBES, BILOU, IO).

One tag column holds one flat layer of spans: nested or overlapping spans are refused,
naming the document and two of the spans, unless ``overlapping="outermost"`` keeps the
outermost ones (the dropped ones are counted and listed in the report).  Every column is
decoded again with the same scheme before it is written, so a written file always reads
back to the spans it was given (IO cannot tell two adjacent spans of one label apart:
that is an error).  Document ids have no place in columns: they are counted as dropped.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..core import schemes
from ..errors import InputError, OptionError
from .documents import Documents
from .feed import raising
from .sink import Streamed
from .writing import (
    LISTED,
    ConversionReport,
    Failed,
    check_overlapping,
    check_tokens_plain,
    kept_outermost,
    overlap_error,
    overlaps,
    token_list,
    written,
)

WRITABLE_SCHEMES = tuple(schemes.SCHEMES)
#: the order of the checks of a whole write (the earliest that fails anywhere is the error)
_OVERLAP, _DECODES, _PLAIN = range(1, 4)


def write_columns(blocks: Any, path: str, scheme: str = "IOB2", overlapping: str = "error",
                  delimiter: str = " ") -> ConversionReport:
    """Write an input's blocks of documents (in order) as one column file at ``path`` (``-``: standard output;
    .gz/.bz2/.xz compress), block by block: the file and the report are those of the whole."""
    writer = ColumnsWriter(path, scheme, overlapping, delimiter)
    return written(writer, blocks, path, "columns", scheme=writer.scheme, overlapping=overlapping)


class ColumnsWriter:
    """:class:`~ts_eval.io.writing.BlockWriter` of column files."""

    def __init__(self, path: str, scheme: str, overlapping: str, delimiter: str) -> None:
        try:
            name = schemes.resolve_scheme_name(scheme)
        except ValueError as err:
            raise OptionError(str(err)) from None
        if name not in WRITABLE_SCHEMES:
            raise OptionError(f"scheme {scheme!r}: expected one of {', '.join(WRITABLE_SCHEMES)} to write")
        if delimiter not in (" ", "\t"):
            raise OptionError(f"delimiter {delimiter!r}: expected ' ' or a TAB")
        check_overlapping(overlapping)
        self.scheme, self.overlapping, self.delimiter = name, overlapping, delimiter
        self.out = Streamed(path)
        self.clashes = 0          # spans that overlap an earlier one, in every block
        self.dropped = 0
        self.dropped_spans: List[Dict[str, Any]] = []
        self.ids_dropped = 0
        self.written = 0
        self.block: Any = None    # what the checks of the last block made, for its text

    def check(self, docs: Documents) -> Optional[Failed]:
        self.block = None
        found = overlaps(docs)
        if found is not None and self.overlapping == "error":
            first = self.clashes == 0
            self.clashes += len(found[3])
            if first:
                return _OVERLAP, lambda: overlap_error(docs, found, self.clashes)
            return _OVERLAP, lambda: InputError("overlap")      # (later than the first: never raised)
        keep, listed, dropped = kept_outermost(docs, found, LISTED - len(self.dropped_spans))
        sent_first = np.zeros(docs.n_tokens, bool)
        sent_first[docs.offsets[:-1]] = True
        start, last, label = docs.start[keep], docs.last[keep], docs.label[keep]
        prefix, types = schemes.encode(start, last, label, sent_first, self.scheme)
        bad = _not_decoded(docs, prefix, types, sent_first, self.scheme, start, last, label)
        if bad is not None:
            return bad
        toks = token_list(docs)
        try:
            check_tokens_plain(docs, toks, "a column file")
        except InputError as err:
            return _PLAIN, raising(err)
        self.dropped += dropped
        self.dropped_spans += listed
        self.ids_dropped += sum(i is not None for i in docs.ids)
        self.written += int(keep.sum())
        self.block = (toks, prefix, types)
        return None

    def write(self, docs: Documents) -> None:
        toks, prefix, types = self.block
        self.block = None
        if not toks:
            return
        eod = np.zeros(docs.n_tokens, bool)
        eod[docs.offsets[1:] - 1] = True
        pieces: List[str] = [""] * (2 * len(toks))
        pieces[0::2] = toks
        pieces[1::2] = _tag_lines(prefix, types, docs.labels, self.delimiter, eod)
        self.out.write("".join(pieces))

    def verdict(self) -> Optional[Failed]:
        return None

    def finish(self, rep: ConversionReport) -> None:
        self.out.close()
        rep.dropped, rep.dropped_spans, rep.ids_dropped, rep.written = \
            self.dropped, self.dropped_spans, self.ids_dropped, self.written

    def abort(self) -> None:
        self.out.abort()


def _tag_lines(prefix: np.ndarray, types: np.ndarray, labels: Sequence[str], delimiter: str,
               eod: np.ndarray) -> List[str]:
    """Per token what follows it on its line: the delimiter, its tag (``O`` or ``P-LABEL``) and the line end
    (two after a document's last token)."""
    width = len(schemes.PREFIX_NAMES)
    code = (types.astype(np.int64) + 1) * width + prefix
    seen = np.zeros(int(code.max()) + 1, bool)
    seen[code] = True
    uniq = np.flatnonzero(seen)
    index = np.cumsum(seen) - 1
    names = [("O" if t == 0 else f"{schemes.PREFIX_NAMES[p]}-{labels[t - 1]}")
             for t, p in zip((uniq // width).tolist(), (uniq % width).tolist())]
    table = np.asarray([f"{delimiter}{name}{end}" for name in names for end in ("\n", "\n\n")], dtype=object)
    out: List[str] = table[index[code] * 2 + eod].tolist()
    return out


def _not_decoded(docs: Documents, prefix: np.ndarray, types: np.ndarray, sent_first: np.ndarray, scheme: str,
                 start: np.ndarray, last: np.ndarray, label: np.ndarray) -> Optional[Failed]:
    """The tags must decode to exactly the spans written (IO merges adjacent same-label spans)."""
    dec = schemes.decode(prefix, np.where(types < 0, -1, types).astype(np.int32), sent_first, scheme)
    order = np.lexsort((last, start))
    if len(dec.start) == len(start) and np.array_equal(dec.start, start[order]) \
            and np.array_equal(dec.last, last[order]) and np.array_equal(dec.label, label[order]):
        return None
    got = set(zip(dec.start.tolist(), dec.last.tolist()))
    k = next(i for i in order.tolist() if (int(start[i]), int(last[i])) not in got)
    d = int(np.searchsorted(docs.offsets, start[k], side="right") - 1)
    b = int(start[k] - docs.offsets[d])
    return _DECODES, lambda: InputError(
        f"{docs.where(d)}: the span {docs.labels[label[k]]!r} over tokens [{b}, "
        f"{int(last[k] - docs.offsets[d]) + 1}) cannot be told from its neighbour in scheme {scheme} "
        "(adjacent spans of one label); expected a scheme that marks span starts, e.g. IOB2", docs.path)
