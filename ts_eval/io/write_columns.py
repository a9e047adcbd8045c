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

from typing import Sequence

import numpy as np

from ..core import schemes
from ..errors import InputError, OptionError
from .documents import Documents
from .sink import write_text
from .writing import ConversionReport, check_tokens_plain, outermost, start_report, token_lengths

WRITABLE_SCHEMES = tuple(schemes.SCHEMES)


def write_columns(docs: Documents, path: str, scheme: str = "IOB2", overlapping: str = "error",
                  delimiter: str = " ") -> ConversionReport:
    """Write ``docs`` as a column file at ``path`` (``-``: standard output; .gz/.bz2/.xz compress)."""
    try:
        name = schemes.resolve_scheme_name(scheme)
    except ValueError as err:
        raise OptionError(str(err)) from None
    if name not in WRITABLE_SCHEMES:
        raise OptionError(f"scheme {scheme!r}: expected one of {', '.join(WRITABLE_SCHEMES)} to write")
    if delimiter not in (" ", "\t"):
        raise OptionError(f"delimiter {delimiter!r}: expected ' ' or a TAB")
    rep = start_report(docs, path, "columns", scheme=name, overlapping=overlapping)
    keep, rep.dropped_spans, rep.dropped = outermost(docs, overlapping)
    if any(i is not None for i in docs.ids):
        rep.ids_dropped = sum(i is not None for i in docs.ids)
    sent_first = np.zeros(docs.n_tokens, bool)
    sent_first[docs.offsets[:-1]] = True
    start, last, label = docs.start[keep], docs.last[keep], docs.label[keep]
    prefix, types = schemes.encode(start, last, label, sent_first, name)
    _check_decodes(docs, prefix, types, sent_first, name, start, last, label)
    tags = _tag_strings(prefix, types, docs.labels)
    toks, _ = token_lengths(docs)
    check_tokens_plain(docs, toks, "a column file")
    lines = np.char.add(np.char.add(np.asarray(toks, dtype=object).astype(str), delimiter), tags) \
        if toks else np.zeros(0, str)
    eod = np.zeros(docs.n_tokens, bool)
    eod[docs.offsets[1:] - 1] = True
    text = "".join(f"{line}\n\n" if end_of_doc else f"{line}\n"
                   for line, end_of_doc in zip(lines.tolist(), eod.tolist()))
    write_text(path, text)
    rep.written = int(keep.sum())
    return rep


def _tag_strings(prefix: np.ndarray, types: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Per token its tag string (``O`` or ``P-LABEL``)."""
    code = (types.astype(np.int64) + 1) * len(schemes.PREFIX_NAMES) + prefix
    uniq, inv = np.unique(code, return_inverse=True)
    names = [("O" if t == 0 else f"{schemes.PREFIX_NAMES[p]}-{labels[t - 1]}")
             for t, p in zip((uniq // len(schemes.PREFIX_NAMES)).tolist(), (uniq % len(schemes.PREFIX_NAMES)).tolist())]
    return np.asarray(names, dtype=object)[inv].astype(str) if len(uniq) else np.zeros(0, str)


def _check_decodes(docs: Documents, prefix: np.ndarray, types: np.ndarray, sent_first: np.ndarray, scheme: str,
                   start: np.ndarray, last: np.ndarray, label: np.ndarray) -> None:
    """The tags must decode to exactly the spans written (IO merges adjacent same-label spans)."""
    dec = schemes.decode(prefix, np.where(types < 0, -1, types).astype(np.int32), sent_first, scheme)
    order = np.lexsort((last, start))
    if len(dec.start) == len(start) and np.array_equal(dec.start, start[order]) \
            and np.array_equal(dec.last, last[order]) and np.array_equal(dec.label, label[order]):
        return
    got = set(zip(dec.start.tolist(), dec.last.tolist()))
    k = next(i for i in order.tolist() if (int(start[i]), int(last[i])) not in got)
    d = int(np.searchsorted(docs.offsets, start[k], side="right") - 1)
    b = int(start[k] - docs.offsets[d])
    raise InputError(f"{docs.where(d)}: the span {docs.labels[label[k]]!r} over tokens [{b}, "
                     f"{int(last[k] - docs.offsets[d]) + 1}) cannot be told from its neighbour in scheme {scheme} "
                     "(adjacent spans of one label); expected a scheme that marks span starts, e.g. IOB2", docs.path)
