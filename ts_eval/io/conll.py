"""CoNLL column files -> Corpus: one file with gold and system columns, or a gold
file plus one file per system whose tokens must line up with it."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..corpus import Corpus, SideInfo, corpus_from_tag_ids
from ..errors import InputError, UsageError
from .columns import ColumnFile, read_column_file


def read_conll(
    path: str,
    gold_column: int = -2,
    system_columns: Sequence[int] = (-1,),
    names: Optional[Sequence[str]] = None,
    token_column: int = 1,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    label_map: Sequence[Tuple[str, str]] = (),
) -> Corpus:
    """One file: gold in ``gold_column``, one system per entry of ``system_columns``.

    Columns are 1-based; negative numbers count from the end (conlleval's layout,
    ``TOKEN ... GOLD SYSTEM``, is the default).
    """
    cf = read_column_file(path, [gold_column, *system_columns], token_column)
    gcol = cf.column_index(gold_column) + 1
    scols = [cf.column_index(c) + 1 for c in system_columns]
    if cf.token_column in [gcol] + scols:
        raise UsageError(f"the token column {cf.token_column} is also given as a tag column")
    if names is not None and len(names) != len(scols):
        raise UsageError(f"{len(names)} names for {len(scols)} system columns")
    if gcol in scols:
        raise UsageError(f"the gold column {gcol} is also given as a system column")
    if names is None:
        names = [_stem(path)] if len(scols) == 1 else [f"col{c}" for c in scols]
    _check_names(names)
    columns = [gcol] + scols
    vocab, ids = _tag_ids([(cf, c) for c in columns])
    sides = [SideInfo("gold", path, gcol, tags=ids[0], token_lines=cf.token_line)]
    sides += [SideInfo(n, path, c, tags=t, token_lines=cf.token_line) for n, c, t in zip(names, scols, ids[1:])]
    return _finish(cf, vocab, sides, scheme, policy, label_map)


def read_conll_pair(
    gold_path: str,
    system_paths: Sequence[str],
    gold_column: int = -1,
    system_column: int = -1,
    names: Optional[Sequence[str]] = None,
    token_column: int = 1,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    label_map: Sequence[Tuple[str, str]] = (),
) -> Corpus:
    """Gold file plus one file per system; sentences and tokens must match the gold file's."""
    if not system_paths:
        raise UsageError("no system file given")
    gold = read_column_file(gold_path, [gold_column], token_column)
    systems = [read_column_file(p, [system_column], token_column) for p in system_paths]
    if names is None:
        names = [_stem(p) for p in system_paths]
        if len(set(names)) != len(names):
            names = list(system_paths)
    if len(names) != len(systems):
        raise UsageError(f"{len(names)} names for {len(systems)} system files")
    _check_names(names)
    for sf in systems:
        check_aligned(gold, sf)
        sf.release()
    gcol = gold.column_index(gold_column) + 1
    scols = [sf.column_index(system_column) + 1 for sf in systems]
    vocab, ids = _tag_ids([(gold, gcol)] + list(zip(systems, scols)))
    sides = [SideInfo("gold", gold_path, gcol, tags=ids[0], token_lines=gold.token_line)]
    sides += [SideInfo(n, sf.path, c, tags=t, token_lines=sf.token_line)
              for n, sf, c, t in zip(names, systems, scols, ids[1:])]
    return _finish(gold, vocab, sides, scheme, policy, label_map)


def _finish(cf: ColumnFile, vocab, sides, scheme, policy, label_map) -> Corpus:
    cf.release()  # the tags are decoded: the file's bytes are only needed again for token texts
    doc = np.flatnonzero(cf.doc_first)
    doc_offsets = np.append(doc, cf.n_tokens) if len(doc) else None
    if doc_offsets is not None and doc_offsets[0] != 0:
        doc_offsets = np.concatenate(([0], doc_offsets))
    return corpus_from_tag_ids(
        vocab, sides, cf.sent_first, scheme, policy, label_map,
        doc_offsets=doc_offsets, docstart_lines=cf.docstart_lines, boundary_lines=cf.boundary_lines,
        tokens=cf.texts, trailing_boundary=cf.trailing_boundary,
    )


def _stem(path: str) -> str:
    import os
    base = os.path.basename(path)
    return base.rsplit(".", 1)[0] if "." in base[1:] else base


def _check_names(names: Sequence[str]) -> None:
    seen = set()
    for n in names:
        if n in seen:
            raise UsageError(f"system name {n!r} is given twice; system names must be unique")
        if n == "gold":
            raise UsageError("'gold' cannot be a system name")
        seen.add(n)


def _tag_ids(columns: List[Tuple[ColumnFile, int]]) -> Tuple[List[str], List[np.ndarray]]:
    """One shared tag vocabulary over several columns (of one or more files), so ids compare."""
    per = [cf.strings(c) for cf, c in columns]
    vocab = sorted(set().union(*[set(v) for v, _ in per]))
    if all(v == vocab for v, _ in per):
        return vocab, [ids for _, ids in per]
    index = {t: k for k, t in enumerate(vocab)}
    dtype = np.uint16 if len(vocab) < 2**16 else np.int32
    return vocab, [np.array([index[t] for t in v], dtype)[ids] if len(v) else ids.astype(dtype) for v, ids in per]


def check_aligned(gold: ColumnFile, system: ColumnFile, block: int = 1 << 18) -> None:
    """Same sentences, same tokens (compared as text); else an error at the first difference."""
    gs, ss = np.flatnonzero(gold.sent_first), np.flatnonzero(system.sent_first)
    where = f"gold {gold.path} vs system {system.path}"
    glen = np.diff(np.append(gs, gold.n_tokens))   # tokens per sentence
    slen = np.diff(np.append(ss, system.n_tokens))
    n = min(len(glen), len(slen))
    diff = np.flatnonzero(glen[:n] != slen[:n])
    if len(diff) or len(glen) != len(slen):
        k = int(diff[0]) if len(diff) else n           # first sentence that differs (0-based)
        if k < n:
            # the first token that one file has and the other has not, or where the sentence ends
            tok = int(gs[k]) + int(min(glen[k], slen[k]))
            detail = f"sentence {k + 1} has {int(glen[k])} tokens in gold, {int(slen[k])} in the system"
        else:
            tok = int(gs[k]) if k < len(gs) else int(ss[k])
            detail = f"sentence {k + 1} is only in the {'gold' if len(glen) > len(slen) else 'system'} file"
        gl, sl = _where(gold, tok), _where(system, tok)
        sent = int(np.searchsorted(gs if tok < gold.n_tokens else ss, tok, side="right"))
        raise InputError(
            f"{where}: files do not line up: gold has {len(gs)} sentences / {gold.n_tokens} tokens, "
            f"system has {len(ss)} / {system.n_tokens}; first difference in sentence {sent} "
            f"(gold line {gl}, system line {sl}): {detail}",
            system.path, sl if sl != "end of file" else None)
    first = -1
    bad_len = np.flatnonzero(gold.token_len != system.token_len)
    limit = int(bad_len[0]) if len(bad_len) else gold.n_tokens
    for a in range(0, limit, block):  # compare texts block by block, up to the first length difference
        b = min(a + block, limit)
        gb, sb = gold.token_bytes(a, b), system.token_bytes(a, b)
        bad = np.flatnonzero(gb != sb)
        if len(bad):
            first = a + int(np.searchsorted(np.cumsum(gold.token_len[a:b]), bad[0], side="right"))
            break
    if first < 0:
        if not len(bad_len):
            return
        first = limit
    sent = int(np.searchsorted(gs, first, side="right"))
    gtok, stok = gold.texts(first, first + 1)[0], system.texts(first, first + 1)[0]
    raise InputError(f"{where}: token {gtok!r} (gold line {_line(gold, first)}) differs from {stok!r} "
                     f"in sentence {sent}", system.path, _line(system, first))


def _line(cf: ColumnFile, tok: int) -> int:
    return int(cf.token_line[min(tok, cf.n_tokens - 1)])


def _where(cf: ColumnFile, tok: int):
    """Line of token ``tok``, or 'end of file' when the file has fewer tokens."""
    return int(cf.token_line[tok]) if tok < cf.n_tokens else "end of file"
