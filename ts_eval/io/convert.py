"""``ts_eval.convert``: read any supported input and write it in any writable format.

Writable formats: ``columns`` (one IOB column in any named scheme), ``jsonl-tokens``,
``jsonl-text`` and ``brat``, and every format registered from outside the package with a writer
(its record's ``write``, :mod:`ts_eval.io.formats`).  Inputs: every format :func:`ts_eval.read` reads, plus
``germeval`` (one side of a 6-column GermEval 2014 file, both levels).  The report
(:class:`~ts_eval.io.writing.ConversionReport`) says what was read, what was written and
what the target cannot hold; nothing is dropped without the option that asks for it.
"""
from __future__ import annotations

import itertools
import os
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Union

from ..errors import Hint, OptionError
from .documents import Documents
from .feed import concat_parts
from .formats import added
from .germeval import germeval_side_blocks
from .reader import BLOCK_BYTES, read, read_blocks, read_generated_on
from .sink import check_outputs
from .source import STDIN, plain_name
from .write_brat import write_brat
from .write_columns import write_columns
from .write_jsonl import write_jsonl_text, write_jsonl_tokens
from .writing import ConversionReport, outermost, same_spans

#: the package's writers, each writing an input's blocks of documents (in order) as one output
WRITERS: Dict[str, Callable[..., ConversionReport]] = {
    "columns": write_columns, "jsonl-tokens": write_jsonl_tokens, "jsonl-text": write_jsonl_text, "brat": write_brat}
_EXT = {".conll": "columns", ".iob": "columns", ".bio": "columns", ".tsv": "columns", ".txt": "columns",
        ".jsonl": None, ".json": None}


def writers() -> Dict[str, Callable[..., ConversionReport]]:
    """Every writable format's writer: the package's (:data:`WRITERS`), then those of the formats registered
    from outside it that have one."""
    return {**WRITERS, **{f.name: f.write for f in added() if f.write is not None}}


def target_format(dst: str, docs: Documents) -> str:
    """The format ``dst`` asks for by its name: a directory (existing, or a path ending in /) is
    brat; an ending a format registered from outside the package declares, that format (when it
    has a writer); .conll/.iob/.bio/.tsv/.txt columns; .jsonl/.json jsonl-text when the input has
    texts, else jsonl-tokens (compression suffixes ignored)."""
    if dst != STDIN and (os.path.isdir(dst) or str(dst).endswith(("/", os.sep))):
        return "brat"
    name = plain_name(dst).lower()
    for f in added():
        if f.write is not None and any(name.endswith(ext) for ext in f.extensions):
            return f.name
    ext = os.path.splitext(name)[1]
    if ext in _EXT:
        return _EXT[ext] or ("jsonl-text" if docs.texts is not None else "jsonl-tokens")
    raise OptionError([f"cannot tell the output format from {dst!r}; give ", Hint("to_format", *writers())])


def convert(src: Union[str, Documents], dst: str, *, from_format: Optional[str] = None, to_format: Optional[str] = None,
            scheme: str = "IOB2", overlapping: str = "error", tokens: str = "auto", verify: bool = False,
            side: str = "gold", gold: Optional[Union[str, Documents]] = None, in_scheme: Optional[str] = None,
            block_bytes: Optional[int] = BLOCK_BYTES, **reader_options: Any) -> ConversionReport:
    """Read ``src`` (a path, ``-``, or Documents) and write it to ``dst`` (``-``: standard output;
    .gz/.bz2/.xz compress).

    ``scheme`` and ``overlapping`` apply to columns output (``overlapping="outermost"`` keeps the
    outermost of nested or overlapping spans and lists the dropped ones; the default refuses);
    ``tokens`` to jsonl-text.  ``side`` picks gold or system of a ``germeval`` input;
    ``reader_options`` go to the reader (scheme, align, column, ...; ``in_scheme`` is the reader's scheme).
    ``verify`` reads the output back and sets ``report.verified`` to whether it holds the same documents,
    tokens and spans (not for standard output).  With ``gold``, ``src`` is a generated output (entity strings
    with labels, no offsets) and its strings are placed on gold's texts first
    (:func:`ts_eval.io.reader.read_generated_on`; ``reader_options`` are its options): the grounded
    spans are written, and the report says how many strings found no place.

    A path is read and written a block of whole documents (about ``block_bytes`` of the input) at a time, in
    memory that does not grow with the input (the output and the report are those of the whole); ``verify``,
    a generated output and a writer of a format registered from outside the package take the input whole."""
    check_outputs([("dst", dst)], [("src", src)] if isinstance(src, str) else [])
    if side != "gold" and from_format != "germeval":
        raise OptionError(["applies to ", Hint("from_format", "germeval"), " only"], option="side", value=side)
    if in_scheme is not None:
        reader_options["scheme"] = in_scheme
    blocks = _blocks(src, from_format, side, gold, reader_options, None if verify else block_bytes)
    first = next(blocks)            # (reading errors are raised where they are: before anything is written)
    try:
        fmt = to_format or target_format(dst, first)
        each = writers()
        if fmt not in each:
            raise OptionError(f"expected one of {', '.join(each)}", option="to_format", value=fmt)
    except OptionError:
        _drain(blocks)              # a whole read would have met a reading error first
        raise
    rest = itertools.chain([first], blocks)
    if verify or fmt not in WRITERS:
        docs = _whole(rest)
        rep = _write(each, fmt, [docs], dst, scheme, overlapping, tokens)
        if verify and dst != STDIN:
            rep.verified = _verified(docs, dst, fmt, rep, overlapping)
        return rep
    return _write(each, fmt, rest, dst, scheme, overlapping, tokens)


def _blocks(src: Union[str, Documents], from_format: Optional[str], side: str, gold: Optional[Union[str, Documents]],
            reader_options: Dict[str, Any], block_bytes: Optional[int]) -> Iterator[Documents]:
    """The input's documents, a block at a time (one block when it is read whole)."""
    if gold is not None:
        if isinstance(src, Documents):
            raise OptionError("a generated output is a path (strings without offsets), not Documents",
                              option="gold", value=gold)
        if from_format not in (None, "generated"):
            raise OptionError(["with a gold side, the input is a generated output: give ",
                               Hint("from_format", "generated"), " or none"], option="from_format", value=from_format)
        return iter([read_generated_on(gold, src, **reader_options)])
    if from_format == "generated":
        raise OptionError(["a generated output (strings without offsets) is placed on gold's texts: give ",
                           Hint("gold", metavar="GOLD")])
    if from_format == "germeval":
        return germeval_side_blocks(str(src), side, block_bytes=block_bytes, **reader_options)
    if isinstance(src, Documents):
        return iter([src])
    return read_blocks(src, format=from_format, block_bytes=block_bytes, **reader_options)


def _drain(blocks: Iterator[Documents]) -> None:
    """Read the rest of an input (its reading errors are raised)."""
    for _ in blocks:
        pass


def _whole(blocks: Iterable[Documents]) -> Documents:
    docs: Documents = concat_parts(list(blocks))
    return docs


def _write(each: Dict[str, Callable[..., ConversionReport]], fmt: str, blocks: Iterable[Documents], dst: str,
           scheme: str, overlapping: str, tokens: str) -> ConversionReport:
    """Write the blocks in format ``fmt`` (one of ``each``; a format registered from outside the package gets
    one block)."""
    try:
        if fmt == "columns":
            return write_columns(blocks, dst, scheme=scheme, overlapping=overlapping)
        if fmt == "jsonl-text":
            return write_jsonl_text(blocks, dst, tokens=tokens)
        if fmt in WRITERS:
            return WRITERS[fmt](blocks, dst)
    except OptionError:
        _drain(iter(blocks))        # (the options of a writer are checked after the input is read)
        raise
    return each[fmt](_whole(blocks), dst)


def _verified(docs: Documents, dst: str, fmt: str, rep: ConversionReport, overlapping: str) -> bool:
    """Whether ``dst`` reads back to the spans of ``docs`` that were written."""
    back = read(dst, format=fmt, **({"scheme": rep.options["scheme"]} if fmt == "columns" else {}))
    want = docs
    if rep.dropped:
        keep, _, _ = outermost(docs, overlapping)
        want = Documents(docs.path, docs.format, docs.offsets, docs.ids, docs.key_data, docs.start[keep],
                         docs.last[keep], docs.label[keep], docs.labels)
    return same_spans(want, back) is None
