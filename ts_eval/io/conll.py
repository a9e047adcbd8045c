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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, corpus_from_tag_ids, scheme_evidence
from ..core.schemes import scheme_of
from ..errors import Hint, InputError, OptionError, Part, TsEvalError
from .columns import ColumnFile, Head, join_blocks, read_column_blocks, read_column_file, shard_offsets, slice_block
from .sink import check_stdin_once
from .source import STDIN, replayable_stdin, side_words, system_name

if TYPE_CHECKING:   # documents are made only for two-file mode (read_pair): score FILE does without the module
    from .documents import Documents


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
    head) of :func:`conll_shards`).  The scheme ``auto`` is detected over the whole file in a first pass
    over its blocks (standard input is kept in a temporary file for the second; a shard, only a part of
    the file, needs a scheme given)."""
    o = _conll_options(path, options)
    tag_columns = [o["gold_column"], *o["system_columns"]]

    def parts() -> Iterator[Tuple[ColumnFile, List[str], List[SideInfo]]]:
        for cf in read_column_blocks(path, tag_columns, None if o["tags_only"] else o["token_column"],
                                     o["delimiter"], block_bytes, _cut_after(o), shard):
            yield (cf, *_one_file_sides(cf, path, o["gold_column"], o["system_columns"], o["names"], o["raw"],
                                        o["outside_tag"]))

    return _decoded(parts, o, "a shard is only a part of the file" if shard is not None else None, [path])


def _decoded(parts: Callable[[], Iterator[Tuple[ColumnFile, List[str], List[SideInfo]]]], o: Dict[str, Any],
             not_twice: Optional[str], paths: Sequence[str]) -> Iterator[Corpus]:
    """The Corpus of each block of ``parts()`` (a block, its tag vocabulary, its sides); the scheme ``auto``
    is detected first over every block (``parts()`` is read twice; ``not_twice``: why it cannot be; standard
    input among ``paths`` is read again from a temporary file that kept it,
    :func:`~ts_eval.io.source.replayable_stdin`)."""
    detected = None
    if o["scheme"] == "auto":
        if not_twice is not None:
            raise OptionError([f"the scheme is detected over the whole input, and {not_twice}: give one (",
                               Hint("scheme"), ") to read it in blocks"])
        if STDIN in paths:
            replayable_stdin()
        evidence = None
        for cf, vocab, sides in parts():
            found = scheme_evidence(vocab, sides, cf.sent_first)
            evidence = found if evidence is None else evidence | found
        if evidence is not None:
            detected = scheme_of(evidence)
    for cf, vocab, sides in parts():
        yield _finish(cf, vocab, sides, o["scheme"], o["policy"], o["label_map"], detected)


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
    vocab, sides = _one_file_sides(cf, path, gold_column, system_columns, names, raw, outside_tag)
    return _finish(cf, vocab, sides, scheme, policy, label_map)


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
    sides: Optional[Sequence[str]] = None,
) -> Corpus:
    """Gold file plus one file per system; sentences and tokens must match the gold file's.

    ``tags_only``: no token column is read; the files must agree in sentences and
    tokens per sentence (a system file may then hold the tags alone).  ``sides``: what the messages
    call gold and each system (default ``gold``, ``system``; ``agree`` names its annotators).
    """
    tc = None if tags_only else token_column
    _check_pair(gold_path, system_paths)
    gold = read_column_file(gold_path, [gold_column], tc, delimiter)
    systems = [read_column_file(p, [system_column], tc, delimiter) for p in system_paths]
    _check_token_columns(gold, gold_column, systems, system_column)
    names = _pair_names(system_paths, names)
    for k, sf in enumerate(systems):
        check_aligned(gold, sf, sides=side_words(sides, k))
        sf.release()
    vocab, infos = _pair_sides(gold, systems, names, gold_column, system_column, raw, outside_tag)
    return _finish(gold, vocab, infos, scheme, policy, label_map)


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
                system_column: int, raw: bool, outside_tag: str) -> Tuple[List[str], List[SideInfo]]:
    """The tag vocabulary and the sides (gold first) of a gold file and the system files lined up with it."""
    gcol = gold.column_index(gold_column) + 1
    scols = [sf.column_index(system_column) + 1 for sf in systems]
    vocab, ids = _tag_ids([(gold, gcol)] + list(zip(systems, scols)), raw, outside_tag)
    sides = [SideInfo("gold", gold.path, gcol, tags=ids[0], token_lines=gold.token_line)]
    sides += [SideInfo(n, sf.path, c, tags=t, token_lines=sf.token_line)
              for n, sf, c, t in zip(names, systems, scols, ids[1:])]
    return vocab, sides


def read_conll_pair_blocks(gold_path: str, system_paths: Sequence[str], *, block_bytes: Optional[int] = None,
                           **options: Any) -> Iterator[Corpus]:
    """:func:`read_conll_pair` (``options`` are its keyword arguments) in blocks of whole sentences: each of
    the gold file's blocks (:func:`~ts_eval.io.columns.read_column_blocks`; under the conlleval scheme
    grown until every system is outside too at its end) with the same sentences of every system file, the
    files read in lock-step.  Each block's files are checked to line up as :func:`check_aligned` checks
    the whole files, with the files' sentence and line numbers and counts; an error is that of the block
    where it is found.  The scheme ``auto`` is detected over the whole files in a first pass."""
    bound = inspect.signature(read_conll_pair).bind(gold_path, system_paths, **options)
    bound.apply_defaults()
    o = dict(bound.arguments)
    _check_pair(gold_path, system_paths)
    names = _pair_names(system_paths, o["names"])

    def parts() -> Iterator[Tuple[ColumnFile, List[str], List[SideInfo]]]:
        for gold, systems in _lock_step(gold_path, system_paths, o, block_bytes):
            yield (gold, *_pair_sides(gold, systems, names, o["gold_column"], o["system_column"], o["raw"],
                                      o["outside_tag"]))

    return _decoded(parts, o, None, [gold_path, *system_paths])


def _lock_step(gold_path: str, system_paths: Sequence[str], o: Dict[str, Any],
               block_bytes: Optional[int]) -> Iterator[Tuple[ColumnFile, List[ColumnFile]]]:
    """The gold file's blocks, each with the same sentences of every system file, checked to line up."""
    tc = None if o["tags_only"] else o["token_column"]
    conlleval = o["scheme"] == "conlleval"
    golds = Sentences(read_column_blocks(gold_path, [o["gold_column"]], tc, o["delimiter"], block_bytes,
                                          _outside([o["gold_column"]], o["outside_tag"]) if conlleval else None))
    feeds = [Sentences(read_column_blocks(p, [o["system_column"]], tc, o["delimiter"], block_bytes))
             for p in system_paths]
    sentences = tokens = gold_line = 0
    system_lines = [0] * len(feeds)
    checked = False
    while golds.more():
        gold_parts: List[ColumnFile] = []
        taken: List[List[ColumnFile]] = [[] for _ in feeds]
        while True:     # under the conlleval scheme: until every side is outside at the end (or the files end)
            g = golds.block()
            gold_parts.append(g)
            n = int(np.count_nonzero(g.sent_first))
            last = not golds.more()
            for t, feed in zip(taken, feeds):
                t.append(feed.take(n))
                if last and feed.more():    # one sentence past gold's end shows that the system goes on
                    t.append(feed.take(1))
            wanted = sum(int(np.count_nonzero(p.sent_first)) for p in gold_parts)
            short = any(sum(int(np.count_nonzero(p.sent_first)) for p in t) != wanted for t in taken)
            if last or not conlleval or short or all(_ends_outside(t[-1], o["outside_tag"]) for t in taken):
                break
        gold = join_blocks(gold_parts)
        systems = [join_blocks(t) for t in taken]
        if not checked:
            _check_token_columns(gold, o["gold_column"], systems, o["system_column"])
            checked = True
        for sf, feed, line in zip(systems, feeds, system_lines):
            before = Before(sentences, tokens, gold_line, line)
            try:
                check_aligned(gold, sf, before=before)
            except InputError:      # the message may name a token after the blocks: look with one more sentence
                check_aligned(join_blocks([gold, golds.take(1)]), join_blocks([sf, feed.take(1)]),
                              before=replace(before, rest=_rest(golds, feed)))
                raise
        yield gold, systems
        sentences += int(np.count_nonzero(gold.sent_first))
        tokens += gold.n_tokens
        gold_line = _line(gold, gold.n_tokens - 1)
        system_lines = [_line(sf, sf.n_tokens - 1) if sf.n_tokens else line for sf, line in zip(systems, system_lines)]


def _rest(gold: Sentences, system: Sentences) -> Callable[[], Tuple[int, int, int, int]]:
    """What :attr:`Before.rest` counts: the sentences and tokens of both files that are not handed out yet
    (counted once: the files are read to their ends)."""
    found: List[Tuple[int, int, int, int]] = []

    def rest() -> Tuple[int, int, int, int]:
        if not found:
            found.append((*gold.rest(), *system.rest()))
        return found[0]

    return rest


def _ends_outside(cf: ColumnFile, outside_tag: str) -> bool:
    """Whether the last token of a block holds the outside tag in its (one) tag column."""
    if not cf.n_tokens:
        return False
    vocab, ids = next(iter(cf.columns.values()))
    return vocab[int(ids[-1])] == outside_tag


class Sentences:
    """The blocks of one column file (:func:`~ts_eval.io.columns.read_column_blocks`), handed out a
    number of whole sentences at a time."""

    def __init__(self, blocks: Iterator[ColumnFile]) -> None:
        self.blocks = blocks
        self.cf: Optional[ColumnFile] = None
        self.starts = np.zeros(0, np.int64)     # the first token of each sentence of ``cf``
        self.at = 0                             # sentences of ``cf`` handed out

    def more(self) -> bool:
        """Whether sentences are left (reads the next block when this one is handed out)."""
        if self.cf is not None and self.at < len(self.starts):
            return True
        cf = next(self.blocks, None)
        if cf is None:
            return False
        self.cf, self.starts, self.at = cf, np.flatnonzero(cf.sent_first), 0
        return True

    def block(self) -> ColumnFile:
        """The next block, whole (a file has one: check :meth:`more` first)."""
        self.more()
        assert self.cf is not None
        if self.at:
            return self.take(len(self.starts) - self.at)
        self.at = len(self.starts)
        return self.cf

    def take(self, n: int) -> ColumnFile:
        """The next ``n`` sentences (fewer, or none, at the end of the file)."""
        parts = []
        while n > 0 and self.more():
            cf = self.cf
            assert cf is not None
            k = min(n, len(self.starts) - self.at)
            stop = self.at + k
            parts.append(slice_block(cf, int(self.starts[self.at]),
                                     int(self.starts[stop]) if stop < len(self.starts) else cf.n_tokens))
            self.at, n = stop, n - k
        if not parts:
            if self.cf is None:
                self.more()
            assert self.cf is not None      # a file holds a block (else its reader raises)
            return slice_block(self.cf, self.cf.n_tokens, self.cf.n_tokens)
        return join_blocks(parts)

    def rest(self) -> Tuple[int, int]:
        """(sentences, tokens) not handed out yet (reads the rest of the file)."""
        sentences = tokens = 0
        while self.more():
            cf = self.cf
            assert cf is not None
            sentences += len(self.starts) - self.at
            tokens += cf.n_tokens - int(self.starts[self.at])
            self.at = len(self.starts)
        return sentences, tokens


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
    cf.release()  # the tags are decoded: the file's bytes are only needed again for token texts
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
    """Same sentences, same tokens (compared as text); else an error at the first line where the
    files diverge.  Without token texts (tags only) only the sentences and their lengths are compared.
    ``before``: the files are blocks of two longer files (:func:`read_conll_pair_blocks`); ``sides``:
    what the message calls the two files.

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
            sent = int(np.searchsorted(gs, first, side="right")) + before.sentences
            gtok, stok = gold.texts(first, first + 1)[0], system.texts(first, first + 1)[0]
            raise InputError(f"{where}: token {gtok!r} ({g} line {_line(gold, first)}) differs from {stok!r} "
                             f"in sentence {sent}", system.path, _line(system, first))
    if k < 0:
        return
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
                     policy: str = "conlleval") -> Documents:
    """The sentences of a column file (or of a block of its sentences) as Documents, the tags of ``column``
    decoded (what :func:`ts_eval.io.api.read_pair` reads a column file as)."""
    from .documents import documents_from_tags, token_keys

    vocab, tag_ids = cf.strings(column)
    first = np.flatnonzero(cf.sent_first)
    lengths = np.diff(np.append(first, cf.n_tokens))
    data, starts, lens = cf.loaded()    # each sentence's tokens joined, cut from the bytes when asked for
    return documents_from_tags(name, "columns", lengths, [None] * len(lengths), token_keys(data, starts, lens, lengths),
                               vocab, tag_ids, scheme, policy, lines=cf.token_line[first].tolist(),
                               token_lines=cf.token_line)
