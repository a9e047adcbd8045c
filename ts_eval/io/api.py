"""``ts_eval.read`` and ``ts_eval.read_pair``: any supported input -> Documents / Corpus.

``read(path, format=None, **options)`` reads one side (gold or a system) into
:class:`~ts_eval.io.documents.Documents`; ``read_pair(gold, systems, ...)`` reads gold
and one or more systems (each in its own format) and pairs them into a Corpus that
:func:`ts_eval.evaluate` scores.  ``format=None`` picks the reader by extension and content.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from ..core.corpus import Corpus, relabel
from ..errors import Hint, InputError, OptionError
from .brat import read_brat
from .charspans import MisalignedSpanError
from .columns import split_columns
from .conll import column_documents
from .conllu import read_conllu
from .detect import FORMATS, detect_format
from .documents import Documents
from .generated import read_generated
from .grounding import Grounded, attach, ground_settings
from .grounding import ground as ground_generated
from .jsonl_text import read_jsonl_text
from .jsonl_tokens import read_jsonl_tokens
from .pairing import check_texts, pair_documents
from .sink import check_stdin_once
from .source import STDIN, display_name, is_dir, read_bytes, side_words, system_name


def read_columns(path: str, *, column: int = -1, token_column: int = 1, scheme: str = "IOB2",
                 policy: str = "conlleval", raw: Optional[bytes] = None) -> Documents:
    """A CoNLL column file (also ``-`` and .gz/.bz2/.xz) as Documents: one per sentence, tags from ``column``."""
    name = display_name(path)
    data = read_bytes(path) if raw is None else raw
    return column_documents(split_columns(data, name, [column], token_column), name, column, scheme, policy)


def _label_studio(path: str, **kw: Any) -> Documents:
    return read_jsonl_text(path, **kw)


#: read_pair's options for systems in the generated format (:mod:`ts_eval.io.grounding`)
GENERATED_OPTIONS = ("generated", "ground", "normalize", "fuzzy_threshold", "field")

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
    path, fmt, raw = _bytes_and_format(path, fmt)
    if fmt == "generated":
        raise OptionError(["generated outputs (strings without offsets) are placed on gold's texts: read them as "
                           "a system beside gold (read_pair), or convert them with ", Hint("gold", metavar="GOLD")],
                          option="format", value="generated")
    return _read_raw(path, fmt, raw, options, strict)


def _bytes_and_format(path: Any, fmt: Optional[str]) -> Tuple[str, str, Optional[bytes]]:
    """(path, format, its bytes or None for a directory): the bytes read once, the format detected from
    them when not given."""
    path = str(path)
    raw = None
    if not is_dir(path) and (fmt is None or fmt != "brat"):
        raw = read_bytes(path)
        if not raw or raw.isspace():     # (stops at the first other byte; strip() would copy the input)
            raise InputError("empty input", display_name(path))
    if fmt is None:
        fmt = detect_format(path, raw)
    return path, fmt, raw


def _read_raw(path: str, fmt: str, raw: Optional[bytes], options: Dict[str, Any], strict: bool) -> Documents:
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
              sides: Optional[Sequence[str]] = None, **options: Any) -> Corpus:
    """Read gold and one or more systems (paths or Documents, possibly in different formats) and pair
    their documents (by id, else by order with tokens and texts compared) into a Corpus.

    ``systems``: one path, a list of paths, or a mapping name -> path.  ``format`` is gold's,
    ``system_format`` the systems' (each None: detected).  ``label_map``: (pattern, replacement) pairs
    rewriting every side's labels as the column readers' ``label_map`` does (:func:`ts_eval.core.corpus.relabel`).
    ``options`` go to every reader that takes them.  A system in the ``generated`` format (entity
    strings with labels, :mod:`ts_eval.io.generated`) is placed on gold's texts (:mod:`ts_eval.io.grounding`)
    with ``generated`` (``"ground"``, default; ``"strings"``; ``"fuzzy"``), ``ground`` (``"first"`` or
    ``"all"``), ``normalize`` (default ``"default"``), ``fuzzy_threshold`` (0-100, default 90) and
    ``field`` (default ``"entities"``).  ``sides``: what the messages call gold and each system (default
    ``gold``, ``system``; ``agree`` names its annotators).
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
    generated = {k: options.pop(k) for k in GENERATED_OPTIONS if k in options}
    settings = ground_settings(generated.get("generated"), generated.get("ground"), generated.get("normalize"),
                               generated.get("fuzzy_threshold"))
    used = set()
    fmts = [format] + [system_format] * len(items)
    docs_read: List[Documents] = []
    grounded: Dict[str, Grounded] = {}
    for k, (src, fmt) in enumerate(zip([gold] + [s for _, s in items], fmts)):
        if isinstance(src, Documents):
            docs_read.append(src)
            continue
        path, fmt, raw = _bytes_and_format(src, fmt)
        if fmt == "generated":
            if not k:
                raise InputError("gold is in the generated format (strings without offsets); gold needs its text "
                                 "or tokens with spans (the generated outputs are systems)", display_name(path))
            name = items[k - 1][0]
            ids = {x: options[x] for x in ("id_key",) if x in options}
            gen = read_generated(path, raw=raw, **({"field": generated["field"]} if "field" in generated else {}),
                                 **ids)
            grounded[name] = ground_generated(docs_read[0], gen, settings, label_map)
            docs_read.append(grounded[name].docs)
            used |= {"id_key"}
            continue
        try:
            docs = _read_raw(path, fmt, raw, options, strict=False)
        except MisalignedSpanError:
            if docs_read and src != STDIN:  # a system whose text differs from gold's: say that, not that its spans
                # are off the tokens (read again without the alignment check; standard input cannot be)
                check_texts(docs_read[0], _read(src, fmt, {**options, "align": "expand"}, strict=False),
                            side_words(sides, k - 1))
            raise
        docs_read.append(docs)
        for fn_name, fn in READERS.items():
            if fn_name == docs.format:
                used |= _accepts(fn)
    unknown = set(options) - used
    if unknown:
        raise OptionError(f"option(s) {', '.join(sorted(unknown))} apply to none of the formats read "
                         f"({', '.join(sorted({d.format for d in docs_read}))})")
    given = [k for k in generated if k != "generated" or generated[k] != "ground"]
    if given and not grounded:
        raise OptionError(f"option(s) {', '.join(sorted(given))} apply to generated outputs only; no system was "
                          "read in the generated format")
    decoded = {"scheme": options.get("scheme", "IOB2"), "policy": options.get("policy", "conlleval")}  # (the
    # defaults of every reader of tags)
    corpus = pair_documents(docs_read[0], {n: d for (n, _), d in zip(items, docs_read[1:])}, sides=sides,
                            **decoded)
    return relabel(attach(corpus, docs_read[0], grounded, settings), label_map)


def read_generated_on(gold: Union[str, Documents], path: str, *, format: Optional[str] = None,
                      generated: Optional[str] = None, ground: Optional[str] = None, normalize: Any = None,
                      fuzzy_threshold: Optional[float] = None, field: Optional[str] = None,
                      **options: Any) -> Documents:
    """The spans of a generated output (entity strings with labels, :mod:`ts_eval.io.generated`) placed on
    ``gold``'s documents (:mod:`ts_eval.io.grounding`; the options as :func:`read_pair` takes them): the
    grounded spans with gold's texts and tokens, ready to write (``convert``).  What grounding found
    (ungrounded strings, duplicates, labels outside gold's) is in ``notes["generated"]``."""
    settings = ground_settings(generated, ground, normalize, fuzzy_threshold)
    ids = {"id_key": options.pop("id_key")} if "id_key" in options else {}
    gold_docs = gold if isinstance(gold, Documents) else _read(gold, format, options, strict=True)
    src, _, raw = _bytes_and_format(path, "generated")
    gen = read_generated(src, raw=raw, **({"field": field} if field is not None else {}), **ids)
    return ground_generated(gold_docs, gen, settings).docs


def _name(src: Any, k: int) -> str:
    """A system's name from its path (:func:`~ts_eval.io.source.system_name`), ``systemK`` when that leaves nothing."""
    return system_name(src.path if isinstance(src, Documents) else str(src)) or f"system{k + 1}"
