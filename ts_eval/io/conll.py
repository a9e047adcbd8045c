"""CoNLL column files -> Corpus: one file with gold and system columns, or a gold
file plus one file per system whose tokens must line up with it.

conlleval.pl's input options have equivalents here: ``delimiter`` (``-d``),
``raw`` (``-r``: tags without prefixes, each token its own chunk of that type)
and ``outside_tag`` (``-o``).  A file of exactly two columns is ``GOLD SYSTEM``
without tokens, as conlleval.pl reads it; ``tags_only`` reads no token column at
all, and two files are then checked for equal sentence and token counts only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, corpus_from_tag_ids
from ..core.options import Options
from ..errors import Hint, InputError, OptionError, Part, TsEvalError
from .columns import ColumnFile, Head, join_blocks, shard_offsets, slice_block
from .feed import Decoding, Feed, concat_parts, raising
from .formats import Format, register_format
from .sink import check_stdin_once
from .source import side_words, system_name


def conll_shards(path: str, n: int, *, delimiter: Optional[str] = None, scheme: Optional[str] = None,
                 gold_column: int = -2, system_columns: Sequence[int] = (-1,), outside_tag: str = "O",
                 **reading: Any) -> Optional[List[Tuple[int, int, Head]]]:
    """(start, stop, head) of at most ``n`` shards of whole sentences of a plain column file, for a column feed
    with the same options (None when the file cannot be cut: standard input, compressed, ...); under the
    conlleval scheme a shard ends only where every tag column is outside."""
    cut = _outside([gold_column, *system_columns], outside_tag) if scheme == "conlleval" else None
    found = shard_offsets(path, n, delimiter, cut)
    if found is None or len(found[0]) < 3:
        return None
    offsets, head = found
    return [(a, b, head) for a, b in zip(offsets[:-1], offsets[1:])]


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


def _one_file_sides(cf: ColumnFile, path: str, gold_column: int, system_columns: Sequence[int],
                    names: Optional[Sequence[str]], raw: bool, outside_tag: str) -> Tuple[List[str], List[SideInfo]]:
    """The tag vocabulary and the sides (gold first) of a column file read with gold and system columns."""
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
    return vocab, sides


def _check_pair(gold_path: str, system_paths: Sequence[str]) -> None:
    if not system_paths:
        raise OptionError("no system file given")
    check_stdin_once([("gold", gold_path)] + [(f"system {k + 1}", p) for k, p in enumerate(system_paths)])


def _check_token_columns(gold: ColumnFile, gold_column: int, systems: Sequence[ColumnFile],
                         system_column: int) -> None:
    for cf, col in [(gold, gold_column)] + [(sf, system_column) for sf in systems]:
        if cf.token_column is not None and cf.token_column == cf.column_index(col) + 1:
            raise _token_is_tag(cf)


def _pair_names(system_paths: Sequence[str], names: Optional[Sequence[str]]) -> List[str]:
    """The systems' names (checked): ``names``, else the files' names (their paths when two are equal)."""
    if names is None:
        names = [system_name(p) for p in system_paths]
        if len(set(names)) != len(names):
            names = list(system_paths)
    if len(names) != len(system_paths):
        raise OptionError(f"{len(names)} names for {len(system_paths)} system files")
    _check_names(names, system_paths)
    return list(names)


def _pair_sides(gold: ColumnFile, systems: Sequence[ColumnFile], names: Sequence[str], gold_column: int,
                system_column: int, raw: bool, outside_tag: str,
                paths: Optional[Sequence[str]] = None) -> Tuple[List[str], List[SideInfo]]:
    """The tag vocabulary and the sides (gold first) of a gold file and the system files lined up with it;
    ``paths``: the paths they were given as (default: the names their messages use)."""
    gcol = gold.column_index(gold_column) + 1
    scols = [sf.column_index(system_column) + 1 for sf in systems]
    vocab, ids = _tag_ids([(gold, gcol)] + list(zip(systems, scols)), raw, outside_tag)
    given = list(paths) if paths is not None else [cf.path for cf in [gold, *systems]]
    sides = [SideInfo("gold", given[0], gcol, tags=ids[0], token_lines=gold.token_line)]
    sides += [SideInfo(n, path, c, tags=t, token_lines=sf.token_line)
              for n, sf, path, c, t in zip(names, systems, given[1:], scols, ids[1:])]
    return vocab, sides


def _ends_outside(cf: ColumnFile, outside_tag: str) -> bool:
    """Whether the last token of a block holds the outside tag in its (one) tag column."""
    if not cf.n_tokens:
        return False
    vocab, ids = next(iter(cf.columns.values()))
    return vocab[int(ids[-1])] == outside_tag


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
            label_map: Sequence[Tuple[str, str]], detected: Optional[str] = None) -> Corpus:
    doc = np.flatnonzero(cf.doc_first)
    doc_offsets = np.append(doc, cf.n_tokens) if len(doc) else None
    if doc_offsets is not None and doc_offsets[0] != 0:
        doc_offsets = np.concatenate(([0], doc_offsets))
    return corpus_from_tag_ids(
        vocab, sides, cf.sent_first, scheme, policy, label_map,
        doc_offsets=doc_offsets, opens_document=bool(cf.n_tokens and cf.doc_first[0]),
        docstart_lines=cf.docstart_lines, boundary_lines=cf.boundary_lines,
        tokens=cf.texts if cf.has_tokens else None, trailing_boundary=cf.trailing_boundary, detected=detected,
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


@dataclass(frozen=True)
class Before:
    """What lies before two blocks that :func:`check_aligned` compares: the sentences and tokens before them
    (the same in both files: they lined up), the line of the last token before them in each file, and
    ``rest()``, the (sentences, tokens) of gold and of the system after them (for the counts of the whole
    files that an error gives)."""

    sentences: int = 0
    tokens: int = 0
    gold_line: int = 0
    system_line: int = 0
    rest: Optional[Callable[[], Tuple[int, int, int, int]]] = None


def check_aligned(gold: ColumnFile, system: ColumnFile, block: int = 1 << 18, *, before: Before = Before(),
                  sides: Tuple[str, str] = ("gold", "system")) -> None:
    """Same sentences, same tokens (compared as text); else the error of :func:`aligned_difference`."""
    found = aligned_difference(gold, system, block, before=before, sides=sides)
    if found is not None:
        raise found[1]


def aligned_difference(gold: ColumnFile, system: ColumnFile, block: int = 1 << 18, *, before: Before = Before(),
                       sides: Tuple[str, str] = ("gold", "system")) -> Optional[Tuple[int, InputError]]:
    """None when the files hold the same sentences and tokens (compared as text), else (the first of gold's
    sentences where they diverge, the error at the first line where they do).  Without token texts (tags
    only) only the sentences and their lengths are compared.  ``before``: the files are blocks of two longer
    files; ``sides``: what the message calls the two files.

    The sentences before the first one whose length differs line up token for token, so their
    texts are compared first (block by block, vectorised): a deleted or changed token line is
    reported where it is, not at the sentence boundary the shift shows up at.
    """
    gs, ss = np.flatnonzero(gold.sent_first), np.flatnonzero(system.sent_first)
    g, s = sides
    where = f"{g} {gold.path} vs {s} {system.path}"
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
            return sent - 1, InputError(f"{where}: token {gtok!r} ({g} line {_line(gold, first)}) differs from "
                                        f"{stok!r} in sentence {sent + before.sentences}", system.path,
                                        _line(system, first))
    if k < 0:
        return None
    after = before.rest() if before.rest is not None else (0, 0, 0, 0)
    counts = (f"{g} has {before.sentences + len(gs) + after[0]} sentences / "
              f"{before.tokens + gold.n_tokens + after[1]} tokens, {s} has "
              f"{before.sentences + len(ss) + after[2]} / {before.tokens + system.n_tokens + after[3]}")
    if k < n:
        g_at, s_at = _divergence_line(gold, int(gs[k]), int(glen[k]), limit, g, before.sentences), \
            _divergence_line(system, int(ss[k]), int(slen[k]), limit, s, before.sentences)
        detail = (f"sentence {before.sentences + k + 1} ({g} line {_line(gold, int(gs[k]))}, {s} line "
                  f"{_line(system, int(ss[k]))}) has {int(glen[k])} tokens in {g}, {int(slen[k])} in "
                  f"{'the system' if s == 'system' else s}; "
                  f"first difference: {g} line {g_at[0]} ({g_at[1]}), {s} line {s_at[0]} ({s_at[1]})")
        line = s_at[0]
    else:
        longer, short = (gold, system) if len(glen) > len(slen) else (system, gold)
        extra = int((gs if longer is gold else ss)[k])
        line = _line(longer, extra)
        lname, sname = (g, s) if longer is gold else (s, g)
        ended = _line(short, short.n_tokens - 1) if short.n_tokens else \
            (before.gold_line if short is gold else before.system_line)
        detail = (f"sentence {before.sentences + k + 1} ({lname} line {line}) is not in the {sname} file, which "
                  f"ends after {sname} line {ended}")
        if longer is gold:
            line = None
    return k, InputError(f"{where}: files do not line up ({counts}): {detail}", system.path, line)


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


def _divergence_line(cf: ColumnFile, start: int, length: int, limit: int, side: str,
                     sentences_before: int = 0) -> Tuple[int, str]:
    """Line in ``cf`` where the first differing sentence stops matching, and what is there: the
    token at ``limit`` if the sentence has one, else the line after its last token (the sentence end)."""
    if limit < start + length:
        return int(cf.token_line[limit]), "a token"
    what = "the sentence ends"
    if limit < cf.n_tokens:
        sent = int(np.count_nonzero(cf.sent_first[:limit + 1])) + sentences_before
        what += f"; its next token, {side} line {int(cf.token_line[limit])}, is in sentence {sent}"
    return int(cf.token_line[start + length - 1]) + 1, what


def _line(cf: ColumnFile, tok: int) -> int:
    return int(cf.token_line[min(tok, cf.n_tokens - 1)])


def column_documents(cf: ColumnFile, name: str, column: int = -1, scheme: str = "IOB2",
                     policy: str = "conlleval", first: int = 0, detected: Optional[str] = None,
                     evidence: bool = False) -> Any:
    """The sentences of a column file (or of a block of its sentences, after ``first`` others) as Documents,
    the tags of ``column`` decoded (a column file read beside inputs of other formats); ``detected``: the
    scheme ``auto`` stands for; ``evidence``: what the scheme ``auto`` is detected from instead."""
    from .documents import documents_from_tags, tags_evidence, token_keys

    vocab, tag_ids = cf.strings(column)
    starts = np.flatnonzero(cf.sent_first)
    lengths = np.diff(np.append(starts, cf.n_tokens))
    lines = cf.token_line[starts].tolist()
    if evidence:
        return tags_evidence(name, lengths, vocab, tag_ids, lines, cf.token_line, first)
    data, begin, lens = cf.loaded()    # each sentence's tokens joined, cut from the bytes when asked for
    return documents_from_tags(name, "columns", lengths, [None] * len(lengths), token_keys(data, begin, lens, lengths),
                               vocab, tag_ids, scheme, policy, lines=lines, token_lines=cf.token_line, first=first,
                               detected=detected)


# ---------------------------------------------------------------------------
# the format


@dataclass(frozen=True)
class ColumnOptions(Options):
    """How a column file is read: its token column (None: it has none, ``tags_only``), the field
    ``delimiter`` (None: runs of spaces and tabs), and conlleval.pl's ``-r`` (``raw``: tags without
    prefixes, each token a span of its tag) and ``-o`` (``outside_tag``); ``column``: the column of tags a file
    read as one side holds (beside inputs of other formats, or converted; 1-based, negative from the end)."""

    token_column: int = 1
    delimiter: Optional[str] = None
    raw: bool = False
    outside_tag: str = "O"
    tags_only: bool = False
    column: int = -1


class ColumnPart:
    """Whole sentences of a column file, their tags not decoded yet (a block of its feed)."""

    __slots__ = ("cf", "first", "ids", "lines", "source", "starts")
    deferred = None

    def __init__(self, cf: ColumnFile, first: int, source: Optional[str] = None) -> None:
        #: the path the file was given as (``-`` for standard input; ``cf.path`` is the name messages use)
        self.cf, self.first, self.source = cf, first, cf.path if source is None else source
        self.starts = np.flatnonzero(cf.sent_first)
        self.lines: List[int] = cf.token_line[self.starts].tolist()
        self.ids: List[Optional[str]] = [None] * len(self.starts)

    @property
    def path(self) -> str:
        return self.cf.path

    @property
    def n_docs(self) -> int:
        return len(self.starts)

    def where(self, d: int) -> str:
        return f"sentence {self.first + d + 1}"

    def take(self, order: Any, notes: bool = False) -> ColumnPart:
        """Sentences ``order`` (consecutive ones), as a part of their own."""
        pick = np.asarray(order, np.int64)
        if not len(pick):
            return ColumnPart(slice_block(self.cf, self.cf.n_tokens, self.cf.n_tokens), self.first + self.n_docs,
                              self.source)
        a, b = int(pick[0]), int(pick[-1]) + 1
        stop = int(self.starts[b]) if b < len(self.starts) else self.cf.n_tokens
        return ColumnPart(slice_block(self.cf, int(self.starts[a]), stop), self.first + a, self.source)

    @staticmethod
    def concat(parts: Sequence[ColumnPart]) -> ColumnPart:
        return concat_columns(parts)

    def ends_outside(self, outside_tag: str) -> bool:
        return _ends_outside(self.cf, outside_tag)


def concat_columns(parts: Sequence[ColumnPart]) -> ColumnPart:
    """Consecutive parts of one column file as one."""
    return ColumnPart(join_blocks([p.cf for p in parts]), parts[0].first, parts[0].source)


def column_feed(path: str, columns: Sequence[int], options: ColumnOptions, block_bytes: Optional[int],
                cut_after: Optional[Callable[[List[bytes]], bool]] = None,
                shard: Optional[Tuple[int, int, int, Head]] = None) -> Any:
    """A column file handed out a number of whole sentences at a time (:class:`~ts_eval.io.feed.DocumentFeed`
    of :class:`ColumnPart`), the tag ``columns`` read; ``cut_after``: a block ends only after a token line it
    holds of (the conlleval scheme: outside on every side); ``shard``: only bytes start..stop of a plain file,
    after ``lines`` lines, with its first block's :class:`Head`."""
    from .columns import Stream, _has_token_line, _Limited, sentence_cut, split_columns
    from .feed import DocumentFeed, before_line
    from .source import display_name, line_blocks, open_stream

    name = display_name(path)
    tc = None if options.tags_only else options.token_column
    state: Dict[str, Any] = {"head": None if shard is None else shard[3]}
    lines0 = 0 if shard is None else shard[2]
    bytes0 = 0 if shard is None else shard[0]

    def opened() -> Stream:
        fh: Stream = open_stream(path)
        if shard is not None:
            fh.seek(shard[0])
            fh = _Limited(fh, shard[1] - shard[0])
        return fh

    def blocks() -> Any:
        return line_blocks(opened, sentence_cut(options.delimiter, cut_after), block_bytes,
                           lambda data: _has_token_line(data, options.delimiter))

    def parse(raw: Any, stop: Optional[int], first: int) -> ColumnPart:
        head = state["head"]
        lines, done = lines0 + raw.lines, bytes0 + raw.bytes
        cf = split_columns(raw.padded(stop), name, columns, tc, padded=True, delimiter=options.delimiter,
                           follows=None if head is None and not done else (lines, done, head), block=True)
        if not raw.last or stop is not None:
            cf.trailing_boundary = True    # a blank line follows it
        if head is None:
            state["head"] = Head(cf.n_columns, cf.first_token_line, cf.first_text, cf.first_field)
        return ColumnPart(cf, first, path)

    def empty(last: Optional[ColumnPart]) -> ColumnPart:
        if last is None:
            raise InputError("empty file, expected token lines", name)
        return last.take([])

    return DocumentFeed(name, blocks(), parse, before_line(name, True), empty,
                        lambda: InputError("empty file, expected token lines", name), blank=None)


def documents_feed(path: str, options: ColumnOptions, decoding: Any, block_bytes: Optional[int]) -> Any:
    """A column file beside inputs of other formats: its sentences as Documents, the tags of its last column
    decoded alone (:func:`column_documents`; ``options.column``, the last by default), handed out a number at
    a time."""
    from .documents import no_documents
    from .feed import DocumentFeed, detected_scheme

    parts = column_feed(path, [options.column], options, block_bytes)
    detected: List[Optional[str]] = [None]

    def parse(raw: Any, stop: Optional[int], first: int, evidence: bool = False) -> Any:
        part = parts.parse(raw, stop, first)
        return column_documents(part.cf, parts.name, options.column, decoding.scheme, decoding.policy, first,
                                detected[0], evidence)

    if decoding.scheme == "auto":
        detected[0] = detected_scheme(path, lambda: column_feed(path, [options.column], options, block_bytes).blocks,
                                      parse)
        parts = column_feed(path, [options.column], options, block_bytes)
    return DocumentFeed(parts.name, parts.blocks, parse, parts.cut_before,
                        lambda last: no_documents(parts.name, "columns"), parts.none)


def _sniff(head: str) -> bool:
    return True          # (the last format: whatever no other recognises)


FORMAT = register_format(Format("columns", documents_feed, ColumnOptions, sniff=_sniff, tags=True,
                                extensions=(".conll", ".iob", ".bio", ".tsv"),
                                description="column files: a token and its tags per line (CoNLL, IOB)"))


# ---------------------------------------------------------------------------
# column files: their tags decoded together, as one file's columns are


@dataclass(frozen=True)
class Columns:
    """How column files are read side by side: gold's column and the systems' (one file: the system columns
    of gold's file; a file per system: the one column of every system file), the systems' names, and the tag
    options every side is read with (conlleval.pl's ``-r`` and ``-o``)."""

    gold_column: int
    system_columns: Tuple[int, ...]
    names: Optional[Tuple[str, ...]] = None
    one_file: bool = True
    raw: bool = False
    outside_tag: str = "O"


def join_columns(gold: Feed, systems: Sequence[Feed], layout: Columns, *, decoding: Decoding = Decoding(),
                 words: Optional[Sequence[str]] = None, detected: Optional[str] = None,
                 evidence: bool = False) -> Iterator[Any]:
    """The Corpus of each block of gold's sentences, with the same sentences of every system file (none: one
    file's columns), the tags of every side decoded together (:func:`~ts_eval.core.corpus.corpus_from_tag_ids`:
    one vocabulary, the scheme detected over all of them); the files must hold the same sentences and tokens
    (:func:`~ts_eval.io.conll.aligned_difference`; its first error by gold's sentence, as :func:`join`'s).
    Under the conlleval scheme a block grows until every side is outside at its end (conlleval.pl's state
    runs on across sentences otherwise).  ``detected``: the scheme ``auto`` stands for (found in a first pass
    with ``evidence``, which yields each block's :class:`~ts_eval.core.schemes.SchemeEvidence` instead)."""

    conlleval = decoding.scheme == "conlleval"
    sentences = tokens = gold_line = 0
    system_lines = [0] * len(systems)
    checked = False
    rest = _Rest(gold, systems)
    while not gold.done():
        g = gold.take(None)
        parts = [s.take(g.n_docs) for s in systems]
        while (conlleval and systems and not gold.done() and all(p.n_docs == g.n_docs for p in parts)
               and not all(p.ends_outside(layout.outside_tag) for p in parts)):
            more = gold.take(None)
            g = concat_parts([g, more])
            parts = [concat_parts([p, s.take(more.n_docs)]) for p, s in zip(parts, systems)]
        after: Dict[int, InputError] = {}       # a system's error in the sentence after gold's last
        if gold.done():          # one sentence past gold's end shows that a system goes on
            for k, s in enumerate(systems):
                if parts[k].n_docs == g.n_docs and not s.done():
                    try:
                        parts[k] = concat_parts([parts[k], s.take(1)])
                    except InputError as err:    # ranked with the block's errors (a bad tag before it first)
                        after[k] = err
        if systems and not checked:
            _check_token_columns(g.cf, layout.gold_column, [p.cf for p in parts], layout.system_columns[0])
            checked = True
        at = (sentences, tokens, gold_line, system_lines)
        found = _differences(g, parts, systems, words, at, None, after)
        if found:
            if not gold.done() and gold.pending() is None:
                # the message may name the token after the sentence that differs: a sentence more of every file
                # (as when they are read whole; the first difference stays where it is)
                g = concat_parts([g, gold.take(1)])
                parts = [concat_parts([p, s.take(1)]) if not s.done() and s.pending() is None else p
                         for p, s in zip(parts, systems)]
            found = _differences(g, parts, systems, words, at, rest, after)
            first = min(found, key=lambda e: e[:2])
            if first[0] and not evidence:      # a bad tag in the sentences before it comes first
                before_it = np.arange(first[0])
                vocab, sides = _column_sides(g.take(before_it), [p.take(before_it) for p in parts], layout)
                _finish(g.take(before_it).cf, vocab, sides, decoding.scheme, decoding.policy, decoding.label_map,
                        detected)
            raise first[2]()
        vocab, sides = _column_sides(g, parts, layout)
        if evidence:
            from ..core.corpus import scheme_evidence

            yield scheme_evidence(vocab, sides, g.cf.sent_first)
        else:
            yield _finish(g.cf, vocab, sides, decoding.scheme, decoding.policy, decoding.label_map, detected)
        sentences += g.n_docs
        tokens += g.cf.n_tokens
        gold_line = int(g.cf.token_line[-1]) if g.cf.n_tokens else gold_line
        system_lines = [int(p.cf.token_line[-1]) if p.cf.n_tokens else line for p, line in zip(parts, system_lines)]
    if not sentences:
        gold.end()


def _column_sides(g: Any, parts: Sequence[Any], layout: Columns) -> Tuple[List[str], List[SideInfo]]:
    """The tag vocabulary and the sides of gold's part ``g`` and the systems' ``parts`` (column parts)."""
    if layout.one_file:
        return _one_file_sides(g.cf, g.source, layout.gold_column, layout.system_columns, layout.names, layout.raw,
                               layout.outside_tag)
    names = layout.names or tuple(f"system{k + 1}" for k in range(len(parts)))
    return _pair_sides(g.cf, [p.cf for p in parts], names, layout.gold_column, layout.system_columns[0], layout.raw,
                       layout.outside_tag, [g.source] + [p.source for p in parts])


class _Rest:
    """The sentences and tokens of gold and of each system after the blocks handed out (the counts of the whole
    files a message gives), counted once: the files are read to their ends."""

    def __init__(self, gold: Feed, systems: Sequence[Feed]) -> None:
        self.gold, self.systems = gold, systems
        self.counted: Dict[int, Tuple[int, int]] = {}
        self.errors: Dict[int, Optional[InputError]] = {}

    def _count(self, k: int) -> Tuple[int, int]:
        if k not in self.counted:
            feed = self.gold if k < 0 else self.systems[k]
            sentences = tokens = 0
            self.errors[k] = None
            try:
                while not feed.done():
                    part = feed.take(None)
                    sentences += part.n_docs
                    tokens += part.cf.n_tokens
            except InputError as err:
                self.errors[k] = err
            self.counted[k] = (sentences, tokens)
        return self.counted[k]

    def error(self, k: int) -> Optional[InputError]:
        """The error reading the rest of system ``k``'s file is, or of gold's where a message counted it (None:
        they read to their ends)."""
        self._count(k)
        return self.errors.get(-1) or self.errors[k]

    def of(self, k: int) -> Callable[[], Tuple[int, int, int, int]]:
        return lambda: (*self._count(-1), *self._count(k))


def _differences(g: Any, parts: Sequence[Any], systems: Sequence[Feed], words: Optional[Sequence[str]],
                 at: Tuple[int, int, int, List[int]], rest: Optional[_Rest], after: Dict[int, InputError]
                 ) -> List[Tuple[int, int, Callable[[], InputError]]]:
    """Where gold's block ``g`` and each system's part of it stop lining up, as (gold's sentence, system,
    the error); ``at``: sentences, tokens and gold's lines before the block and each system's lines; ``rest``:
    the feeds' ends, for the whole files' counts in the message and a system file's reading error after the
    block (a file that cannot be read is that error; None: not read); ``after``: a system's error in the
    sentence after gold's last."""

    sentences, tokens, gold_line, system_lines = at
    found: List[Tuple[int, int, Callable[[], InputError]]] = []
    for k, (p, s) in enumerate(zip(parts, systems)):
        before = Before(sentences, tokens, gold_line, system_lines[k], rest.of(k) if rest is not None else None)
        pending = s.pending() if p.n_docs < g.n_docs else None
        n = p.n_docs if pending is not None else g.n_docs
        diff = aligned_difference(g.take(np.arange(n)).cf if n < g.n_docs else g.cf, p.cf, before=before,
                                  sides=side_words(words, k))
        if diff is not None:
            found.append((diff[0], k + 1, raising(pending or (rest.error(k) if rest is not None else None)
                                                  or diff[1])))
        elif pending is not None:
            found.append((n, k + 1, raising(pending)))
        elif k in after:
            found.append((g.n_docs, k + 1, raising(after[k])))
    return found
