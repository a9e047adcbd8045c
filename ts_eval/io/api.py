"""``ts_eval.read`` and ``ts_eval.read_pair``: any supported input -> Documents / Corpus.

``read(path, format=None, **options)`` reads one side (gold or a system) into
:class:`~ts_eval.io.documents.Documents`; ``read_pair(gold, systems, ...)`` reads gold
and one or more systems (each in its own format) and pairs them into a Corpus that
:func:`ts_eval.evaluate` scores.  ``format=None`` picks the reader by extension and content.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

import numpy as np

from ..core.corpus import Corpus, relabel
from ..errors import InputError, OptionError
from .brat import read_brat
from .charspans import MisalignedSpanError
from .columns import ColumnFile, split_columns
from .conllu import read_conllu
from .detect import FORMATS, detect_format
from .documents import Documents, documents_from_tags, token_keys
from .jsonl_text import read_jsonl_text
from .jsonl_tokens import read_jsonl_tokens
from .pairing import check_texts, pair_documents
from .sink import check_stdin_once
from .source import STDIN, display_name, is_dir, read_bytes, system_name


def read_columns(path: str, *, column: int = -1, token_column: int = 1, scheme: str = "IOB2",
                 policy: str = "conlleval", raw: Optional[bytes] = None) -> Documents:
    """A CoNLL column file (also ``-`` and .gz/.bz2/.xz) as Documents: one per sentence, tags from ``column``."""
    name = display_name(path)
    data = read_bytes(path) if raw is None else raw
    cf = split_columns(data, name, [column], token_column)
    vocab, tag_ids = cf.strings(column)
    first = np.flatnonzero(cf.sent_first)
    lengths = np.diff(np.append(first, cf.n_tokens))
    keys = _column_keys(cf, lengths)
    lines = cf.token_line[first].tolist()
    return documents_from_tags(name, "columns", lengths, [None] * len(lengths), keys, vocab, tag_ids, scheme,
                               policy, lines=lines, token_lines=cf.token_line)


def _column_keys(cf: ColumnFile, lengths: np.ndarray) -> Callable[[], List[str]]:
    """Each sentence's tokens joined by TOKEN_SEP, cut from the file's bytes (made only when pairing or
    token texts need them)."""
    data, starts, lens = cf.loaded()
    return token_keys(data, starts, lens, lengths)


def _label_studio(path: str, **kw: Any) -> Documents:
    return read_jsonl_text(path, **kw)


READERS: Dict[str, Callable[..., Documents]] = {
    "columns": read_columns, "jsonl-tokens": read_jsonl_tokens, "jsonl-text": read_jsonl_text,
    "label-studio": _label_studio, "brat": read_brat, "conllu": read_conllu}


def _accepts(fn: Callable[..., Documents]) -> Set[str]:
    if fn is _label_studio:
        fn = read_jsonl_text
    return set(inspect.signature(fn).parameters) - {"path", "raw"}


def read(path: str, *, format: Optional[str] = None, **options: Any) -> Documents:
    """Read one input of any supported format (``format`` None: by extension and content).

    ``options`` are the chosen reader's keyword arguments (scheme, policy, align, tag_names,
    misc_key, column, discontinuous, ...); an option the reader does not take is an error.
    """
    return _read(path, format, options, strict=True)


def _read(path: str, fmt: Optional[str], options: Dict[str, Any], strict: bool) -> Documents:
    if isinstance(path, Documents):
        return path
    path = str(path)
    raw = None
    if not is_dir(path) and (fmt is None or fmt != "brat"):
        raw = read_bytes(path)
        if not raw.strip():
            raise InputError("empty input", display_name(path))
    if fmt is None:
        fmt = detect_format(path, raw)
    if fmt not in READERS:
        raise OptionError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")
    fn = READERS[fmt]
    takes = _accepts(fn)
    unknown = set(options) - takes
    if unknown and strict:
        raise OptionError(f"option(s) {', '.join(sorted(unknown))} do not apply to format {fmt}; it takes "
                         f"{', '.join(sorted(takes))}")
    kw = {k: v for k, v in options.items() if k in takes}
    if raw is not None and "raw" in inspect.signature(fn if fn is not _label_studio else read_jsonl_text).parameters:
        kw["raw"] = raw
    return fn(path, **kw)


def read_pair(gold: Union[str, Documents], systems: Union[str, Documents, Sequence, Mapping[str, Any]], *,
              format: Optional[str] = None, system_format: Optional[str] = None,
              names: Optional[Sequence[str]] = None, label_map: Sequence[Tuple[str, str]] = (),
              **options: Any) -> Corpus:
    """Read gold and one or more systems (paths or Documents, possibly in different formats) and pair
    their documents (by id, else by order with tokens and texts compared) into a Corpus.

    ``systems``: one path, a list of paths, or a mapping name -> path.  ``format`` is gold's,
    ``system_format`` the systems' (each None: detected).  ``label_map``: (pattern, replacement) pairs
    rewriting every side's labels as the column readers' ``label_map`` does (:func:`ts_eval.core.corpus.relabel`).
    ``options`` go to every reader that takes them.
    """
    if isinstance(systems, Mapping):
        items = list(systems.items())
    else:
        seq = [systems] if isinstance(systems, (str, Documents)) else list(systems)
        if names is None:
            names = [_name(s, k) for k, s in enumerate(seq)]
            if len(set(names)) != len(names):
                names = [f"system{k + 1}" for k in range(len(seq))]
        if len(names) != len(seq):
            raise OptionError(f"{len(names)} names for {len(seq)} systems")
        items = list(zip(names, seq))
    check_stdin_once([("gold", gold)] + [(f"system {name!r}", src) for name, src in items])
    used = set()
    fmts = [format] + [system_format] * len(items)
    sides: List[Documents] = []
    for src, fmt in zip([gold] + [s for _, s in items], fmts):
        try:
            docs = _read(src, fmt, options, strict=False)
        except MisalignedSpanError:
            if sides and src != STDIN:  # a system whose text differs from gold's: say that, not that its spans
                # are off the tokens (read again without the alignment check; standard input cannot be)
                check_texts(sides[0], _read(src, fmt, {**options, "align": "expand"}, strict=False))
            raise
        sides.append(docs)
        for fn_name, fn in READERS.items():
            if fn_name == docs.format:
                used |= _accepts(fn)
    unknown = set(options) - used
    if unknown:
        raise OptionError(f"option(s) {', '.join(sorted(unknown))} apply to none of the formats read "
                         f"({', '.join(sorted({d.format for d in sides}))})")
    decoded = {"scheme": options.get("scheme", "IOB2"), "policy": options.get("policy", "conlleval")}  # (the
    # defaults of every reader of tags)
    return relabel(pair_documents(sides[0], {n: d for (n, _), d in zip(items, sides[1:])}, **decoded), label_map)


def _name(src: Any, k: int) -> str:
    """A system's name from its path (:func:`~ts_eval.io.source.system_name`), ``systemK`` when that leaves nothing."""
    return system_name(src.path if isinstance(src, Documents) else str(src)) or f"system{k + 1}"
