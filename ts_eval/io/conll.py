"""CoNLL column files -> Corpus: one file with gold and system columns, or a gold
file plus one file per system whose tokens must line up with it.

conlleval.pl's input options have equivalents here: ``delimiter`` (``-d``),
``raw`` (``-r``: tags without prefixes, each token its own chunk of that type)
and ``outside_tag`` (``-o``).  A file of exactly two columns is ``GOLD SYSTEM``
without tokens, as conlleval.pl reads it; ``tags_only`` reads no token column at
all, and two files are then checked for equal sentence and token counts only.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, corpus_from_tag_ids
from ..errors import Hint, InputError, OptionError, Part, TsEvalError
from .columns import ColumnFile, Head, read_column_blocks, read_column_file, shard_offsets
from .sink import check_stdin_once
from .source import system_name


def read_conll(
    path: str,
    *,
    gold_column: int = -2,
    system_columns: Sequence[int] = (-1,),
    names: Optional[Sequence[str]] = None,
    token_column: int = 1,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    label_map: Sequence[Tuple[str, str]] = (),
    delimiter: Optional[str] = None,
    raw: bool = False,
    outside_tag: str = "O",
    tags_only: bool = False,
) -> Corpus:
    """One file: gold in ``gold_column``, one system per entry of ``system_columns``.

    Columns are 1-based; negative numbers count from the end (conlleval's layout,
    ``TOKEN ... GOLD SYSTEM``, is the default).  A file of exactly two columns has
    no token column (``GOLD SYSTEM``, as conlleval.pl reads it).
    """
    cf = read_column_file(path, [gold_column, *system_columns], None if tags_only else token_column, delimiter)
    return _one_file(cf, path, gold_column, system_columns, names, scheme, policy, label_map, raw, outside_tag)


def read_conll_blocks(path: str, *, block_bytes: Optional[int] = None,
                      shard: Optional[Tuple[int, int, int, Head]] = None, **options: Any) -> Iterator[Corpus]:
    """:func:`read_conll` (``options`` are its keyword arguments) in blocks of whole sentences
    (:func:`~ts_eval.io.columns.read_column_blocks`): one Corpus per block, holding what the file's Corpus
    holds of those sentences (line numbers are the file's; ``shard``: (start, stop, lines before start,
    head) of :func:`conll_shards`).  The scheme ``auto`` is detected over the whole file, so it cannot be
    read in blocks."""
    o = _conll_options(path, options)
    if o["scheme"] == "auto":
        raise OptionError(["the scheme is detected over the whole file: give one (", Hint("scheme"),
                           ") to read it in blocks"])
    tag_columns = [o["gold_column"], *o["system_columns"]]
    for cf in read_column_blocks(path, tag_columns, None if o["tags_only"] else o["token_column"], o["delimiter"],
                                 block_bytes, _cut_after(o), shard):
        yield _one_file(cf, path, o["gold_column"], o["system_columns"], o["names"], o["scheme"], o["policy"],
                        o["label_map"], o["raw"], o["outside_tag"])


def conll_shards(path: str, n: int, **options: Any) -> Optional[List[Tuple[int, int, Head]]]:
    """(start, stop, head) of at most ``n`` shards of whole sentences of a plain column file, for
    :func:`read_conll_blocks` with the same ``options`` (None when the file cannot be cut: standard input,
    compressed, ...)."""
    o = _conll_options(path, options)
    found = shard_offsets(path, n, o["delimiter"], _cut_after(o))
    if found is None or len(found[0]) < 3:
        return None
    offsets, head = found
    return [(a, b, head) for a, b in zip(offsets[:-1], offsets[1:])]


def _conll_options(path: str, options: Dict[str, Any]) -> Dict[str, Any]:
    bound = inspect.signature(read_conll).bind(path, **options)
    bound.apply_defaults()
    return dict(bound.arguments)


def _cut_after(o: Dict[str, Any]) -> Optional[Callable[[List[bytes]], bool]]:
    return _outside([o["gold_column"], *o["system_columns"]], o["outside_tag"]) if o["scheme"] == "conlleval" else None


def _outside(columns: Sequence[int], outside_tag: str) -> Callable[[List[bytes]], bool]:
    """Whether every tag column of a token line holds the outside tag.  conlleval.pl's state may run on
    across a sentence boundary after other tags (bare or ``.`` tags), so the conlleval scheme cuts blocks
    only after a line that is outside on every side."""
    outside = outside_tag.encode("utf-8")

    def every(fields: List[bytes]) -> bool:
        try:
            return all(fields[c - 1 if c > 0 else c] == outside for c in columns)
        except IndexError:
            return False

    return every


def _one_file(cf: ColumnFile, path: str, gold_column: int, system_columns: Sequence[int],
              names: Optional[Sequence[str]], scheme: str, policy: str, label_map: Sequence[Tuple[str, str]],
              raw: bool, outside_tag: str) -> Corpus:
    """The Corpus of a column file read with gold and system columns."""
    gcol = cf.column_index(gold_column) + 1
    scols = [cf.column_index(c) + 1 for c in system_columns]
    if cf.token_column in [gcol] + scols:
        if cf.n_columns > 2:
            raise OptionError([f"{path}: the token column {cf.token_column} is also given as a tag column "
                              "(choose another ", Hint("token_column"), ", or ", Hint("tags_only", True),
                              " for a file without tokens)"])
        cf.token_column = None  # GOLD SYSTEM: no tokens
    if names is not None and len(names) != len(scols):
        raise OptionError(f"{len(names)} names for {len(scols)} system columns")
    if gcol in scols:
        raise OptionError(f"the gold column {gcol} is also given as a system column")
    if names is None:
        names = [system_name(path)] if len(scols) == 1 else [f"col{c}" for c in scols]
    _check_names(names, [f"{path} column {c}" for c in scols])
    columns = [gcol] + scols
    vocab, ids = _tag_ids([(cf, c) for c in columns], raw, outside_tag)
    sides = [SideInfo("gold", path, gcol, tags=ids[0], token_lines=cf.token_line)]
    sides += [SideInfo(n, path, c, tags=t, token_lines=cf.token_line) for n, c, t in zip(names, scols, ids[1:])]
    return _finish(cf, vocab, sides, scheme, policy, label_map)


def read_conll_pair(
    gold_path: str,
    system_paths: Sequence[str],
    *,
    gold_column: int = -1,
    system_column: int = -1,
    names: Optional[Sequence[str]] = None,
    token_column: int = 1,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    label_map: Sequence[Tuple[str, str]] = (),
    delimiter: Optional[str] = None,
    raw: bool = False,
    outside_tag: str = "O",
    tags_only: bool = False,
) -> Corpus:
    """Gold file plus one file per system; sentences and tokens must match the gold file's.

    ``tags_only``: no token column is read; the files must agree in sentences and
    tokens per sentence (a system file may then hold the tags alone).
    """
    if not system_paths:
        raise OptionError("no system file given")
    check_stdin_once([("gold", gold_path)] + [(f"system {k + 1}", p) for k, p in enumerate(system_paths)])
    tc = None if tags_only else token_column
    gold = read_column_file(gold_path, [gold_column], tc, delimiter)
    systems = [read_column_file(p, [system_column], tc, delimiter) for p in system_paths]
    for cf, col in [(gold, gold_column)] + [(sf, system_column) for sf in systems]:
        if cf.token_column is not None and cf.token_column == cf.column_index(col) + 1:
            raise _token_is_tag(cf)
    if names is None:
        names = [system_name(p) for p in system_paths]
        if len(set(names)) != len(names):
            names = list(system_paths)
    if len(names) != len(systems):
        raise OptionError(f"{len(names)} names for {len(systems)} system files")
    _check_names(names, system_paths)
    for sf in systems:
        check_aligned(gold, sf)
        sf.release()
    gcol = gold.column_index(gold_column) + 1
    scols = [sf.column_index(system_column) + 1 for sf in systems]
    vocab, ids = _tag_ids([(gold, gcol)] + list(zip(systems, scols)), raw, outside_tag)
    sides = [SideInfo("gold", gold_path, gcol, tags=ids[0], token_lines=gold.token_line)]
    sides += [SideInfo(n, sf.path, c, tags=t, token_lines=sf.token_line)
              for n, sf, c, t in zip(names, systems, scols, ids[1:])]
    return _finish(gold, vocab, sides, scheme, policy, label_map)


def _token_is_tag(cf: ColumnFile) -> TsEvalError:
    """The token column is also the tag column: a file of one column is bad input (or read with the wrong
    delimiter, :meth:`ColumnFile.width_note`); in a wider file, the columns asked for are bad usage."""
    note = cf.width_note()      # the delimiter is the likely cause: say so instead of suggesting tags_only
    parts: List[Part] = [f"the token column {cf.token_column} is also the tag column (the file has "
                         f"{cf.n_columns} column{'s' if cf.n_columns > 1 else ''})",
                         *(note or [": give ", Hint("tags_only", True),
                                    " to compare sentence and token counts instead of tokens"])]
    if cf.n_columns == 1:
        return InputError(parts, cf.path)
    return OptionError([f"{cf.path}: ", *parts])


def _finish(cf: ColumnFile, vocab: List[str], sides: Sequence[SideInfo], scheme: str, policy: str,
            label_map: Sequence[Tuple[str, str]]) -> Corpus:
    cf.release()  # the tags are decoded: the file's bytes are only needed again for token texts
    doc = np.flatnonzero(cf.doc_first)
    doc_offsets = np.append(doc, cf.n_tokens) if len(doc) else None
    if doc_offsets is not None and doc_offsets[0] != 0:
        doc_offsets = np.concatenate(([0], doc_offsets))
    return corpus_from_tag_ids(
        vocab, sides, cf.sent_first, scheme, policy, label_map,
        doc_offsets=doc_offsets, opens_document=bool(cf.n_tokens and cf.doc_first[0]),
        docstart_lines=cf.docstart_lines, boundary_lines=cf.boundary_lines,
        tokens=cf.texts if cf.has_tokens else None, trailing_boundary=cf.trailing_boundary,
    )


def _check_names(names: Sequence[str], sources: Sequence[str]) -> None:
    """System names are unique and none is ``gold``; an error names the file (or column) of the name."""
    seen: Dict[str, str] = {}
    for n, src in zip(names, sources):
        if n in seen:
            raise OptionError(f"system name {n!r} is given twice ({seen[n]} and {src}); system names must be unique")
        if n == "gold":
            raise OptionError([f"{src}: its system name is 'gold', which names the gold side; give other ",
                              Hint("names"), " (or rename the file)"])
        seen[n] = src


def raw_tag(tag: str, outside_tag: str = "O", raw: bool = False) -> str:
    """conlleval.pl's ``-o``/``-r``: the outside tag becomes ``O``; with ``raw`` every other tag
    ``T`` becomes ``B-T`` (one chunk per token; the tag is the chunk type)."""
    if tag == outside_tag:
        return "O"
    return f"B-{tag}" if raw and tag != "O" else tag


def _tag_ids(columns: List[Tuple[ColumnFile, int]], raw: bool = False,
             outside_tag: str = "O") -> Tuple[List[str], List[np.ndarray]]:
    """One shared tag vocabulary over several columns (of one or more files), so ids compare."""
    per = [cf.strings(c) for cf, c in columns]
    if raw or outside_tag != "O":
        per = [([raw_tag(t, outside_tag, raw) for t in v], ids) for v, ids in per]
    vocab = sorted(set().union(*[set(v) for v, _ in per]))
    if all(v == vocab for v, _ in per):
        return vocab, [ids for _, ids in per]
    index = {t: k for k, t in enumerate(vocab)}
    dtype = np.uint16 if len(vocab) < 2**16 else np.int32
    return vocab, [np.array([index[t] for t in v], dtype)[ids] if len(v) else ids.astype(dtype) for v, ids in per]


def check_aligned(gold: ColumnFile, system: ColumnFile, block: int = 1 << 18) -> None:
    """Same sentences, same tokens (compared as text); else an error at the first line where the
    files diverge.  Without token texts (tags only) only the sentences and their lengths are compared.

    The sentences before the first one whose length differs line up token for token, so their
    texts are compared first (block by block, vectorised): a deleted or changed token line is
    reported where it is, not at the sentence boundary the shift shows up at.
    """
    gs, ss = np.flatnonzero(gold.sent_first), np.flatnonzero(system.sent_first)
    where = f"gold {gold.path} vs system {system.path}"
    glen = np.diff(np.append(gs, gold.n_tokens))   # tokens per sentence
    slen = np.diff(np.append(ss, system.n_tokens))
    n = min(len(glen), len(slen))
    diff = np.flatnonzero(glen[:n] != slen[:n])
    k = int(diff[0]) if len(diff) else (n if len(glen) != len(slen) else -1)  # first sentence that differs
    # tokens [0, limit) are at the same positions in both files
    if k < 0:
        limit = gold.n_tokens
    elif k < n:
        limit = int(gs[k]) + int(min(glen[k], slen[k]))
    else:
        limit = int(gs[n - 1] + glen[n - 1]) if n else 0
    if gold.has_tokens and system.has_tokens:
        first = _first_text_difference(gold, system, limit, block)
        if first >= 0:
            sent = int(np.searchsorted(gs, first, side="right"))
            gtok, stok = gold.texts(first, first + 1)[0], system.texts(first, first + 1)[0]
            raise InputError(f"{where}: token {gtok!r} (gold line {_line(gold, first)}) differs from {stok!r} "
                             f"in sentence {sent}", system.path, _line(system, first))
    if k < 0:
        return
    counts = (f"gold has {len(gs)} sentences / {gold.n_tokens} tokens, "
              f"system has {len(ss)} / {system.n_tokens}")
    if k < n:
        g_at, s_at = _divergence_line(gold, int(gs[k]), int(glen[k]), limit, "gold"), \
            _divergence_line(system, int(ss[k]), int(slen[k]), limit, "system")
        detail = (f"sentence {k + 1} (gold line {_line(gold, int(gs[k]))}, system line "
                  f"{_line(system, int(ss[k]))}) has {int(glen[k])} tokens in gold, {int(slen[k])} in the system; "
                  f"first difference: gold line {g_at[0]} ({g_at[1]}), system line {s_at[0]} ({s_at[1]})")
        line = s_at[0]
    else:
        longer, short = (gold, system) if len(glen) > len(slen) else (system, gold)
        extra = int((gs if longer is gold else ss)[k])
        line = _line(longer, extra)
        lname, sname = ("gold", "system") if longer is gold else ("system", "gold")
        detail = (f"sentence {k + 1} ({lname} line {line}) is not in the {sname} file, which ends after "
                  f"{sname} line {_line(short, short.n_tokens - 1)}")
        if longer is gold:
            line = None
    raise InputError(f"{where}: files do not line up ({counts}): {detail}", system.path, line)


def _first_text_difference(gold: ColumnFile, system: ColumnFile, limit: int, block: int) -> int:
    """Index of the first token below ``limit`` whose text differs, or -1."""
    gold_len, system_len = gold.loaded()[2], system.loaded()[2]
    bad_len = np.flatnonzero(gold_len[:limit] != system_len[:limit])
    stop = int(bad_len[0]) if len(bad_len) else limit
    for a in range(0, stop, block):  # compare texts block by block, up to the first length difference
        b = min(a + block, stop)
        gb, sb = gold.token_bytes(a, b), system.token_bytes(a, b)
        bad = np.flatnonzero(gb != sb)
        if len(bad):
            return a + int(np.searchsorted(np.cumsum(gold_len[a:b]), bad[0], side="right"))
    return stop if len(bad_len) else -1


def _divergence_line(cf: ColumnFile, start: int, length: int, limit: int, side: str) -> Tuple[int, str]:
    """Line in ``cf`` where the first differing sentence stops matching, and what is there: the
    token at ``limit`` if the sentence has one, else the line after its last token (the sentence end)."""
    if limit < start + length:
        return int(cf.token_line[limit]), "a token"
    what = "the sentence ends"
    if limit < cf.n_tokens:
        sent = int(np.count_nonzero(cf.sent_first[:limit + 1]))
        what += f"; its next token, {side} line {int(cf.token_line[limit])}, is in sentence {sent}"
    return int(cf.token_line[start + length - 1]) + 1, what


def _line(cf: ColumnFile, tok: int) -> int:
    return int(cf.token_line[min(tok, cf.n_tokens - 1)])
