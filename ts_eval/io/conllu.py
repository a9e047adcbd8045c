"""CoNLL-U -> :class:`Documents`: NER or chunk tags from a named column or a MISC key.

Tokens are the syntactic words (lines whose ID is an integer); multi-word token lines
(``1-2``) and empty nodes (``1.1``) are not tokens, as the format defines (they are
counted in ``notes``).  Sentences end at a blank line; ``# sent_id = X`` gives the
sentence id.  Tags come from ``column`` (a name: ID FORM LEMMA UPOS XPOS FEATS HEAD
DEPREL DEPS MISC, a CoNLL-U Plus ``# global.columns`` name, or a 1-based number) or from
the MISC key ``misc_key`` (``NER=B-PER|SpaceAfter=No``), which every word must carry.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Union

import numpy as np

from ..errors import InputError
from .documents import TOKEN_SEP, Documents, documents_from_tags
from .source import gc_paused, display_name, read_text

COLUMNS = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC"]


@gc_paused
def read_conllu(path: str, misc_key: Optional[str] = "NER", column: Union[None, str, int] = None,
                scheme: str = "IOB2", policy: str = "conlleval", raw: Optional[bytes] = None) -> Documents:
    """Read a CoNLL-U (or CoNLL-U Plus) file; tags from ``column`` if given, else from ``misc_key``."""
    name = display_name(path)
    lines = read_text(path, raw).split("\n")
    names, col, misc = _tag_source(lines, column, misc_key, name)
    ids: List[Optional[str]] = []
    keys: List[str] = []
    starts: List[int] = []
    lengths: List[int] = []
    forms: List[str] = []
    tags: List[str] = []
    tok_lines: List[int] = []
    mwt = empty = 0
    sent_id: Optional[str] = None
    first_line = 0
    key_seen: Dict[str, int] = {}

    def close() -> None:
        nonlocal forms, sent_id
        if forms:
            ids.append(sent_id)
            keys.append(TOKEN_SEP.join(forms))
            lengths.append(len(forms))
            starts.append(first_line)
        forms, sent_id = [], None

    for k, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            close()
            continue
        if line.startswith("#"):
            if line.startswith("# sent_id") and "=" in line:
                sent_id = line.split("=", 1)[1].strip()
            continue
        f = line.split("\t")
        if len(f) != len(names):
            raise InputError(f"{len(f)} tab-separated fields; expected {len(names)} ({' '.join(names)})", name, k)
        tid = f[0]
        if "-" in tid:
            mwt += 1
            continue
        if "." in tid:
            empty += 1
            continue
        if not tid.isdigit():
            raise InputError(f"ID {tid!r}; expected an integer, a range (1-2) or a decimal (1.1)", name, k)
        if not forms:
            first_line = k
        forms.append(f[1])
        tok_lines.append(k)
        tags.append(f[col] if col is not None else _misc_tag(f[misc], misc_key or "", key_seen, name, k))
    close()
    if not lengths:
        raise InputError("no word lines; expected CoNLL-U sentences", name)
    vocab: Dict[str, int] = {}
    tag_ids = np.fromiter((vocab.setdefault(t, len(vocab)) for t in tags), np.int32, len(tags))
    docs = documents_from_tags(name, "conllu", lengths, ids, keys, list(vocab), tag_ids, scheme, policy,
                               lines=starts, token_lines=np.asarray(tok_lines, np.int32))
    docs.notes.update({"multiword_tokens": mwt, "empty_nodes": empty})
    return docs


def _tag_source(lines: List[str], column: Union[None, str, int], misc_key: Optional[str], name: str):
    """(column names, tag column index or None, MISC column index or None) of the file."""
    names = COLUMNS
    if lines and lines[0].startswith("# global.columns ="):
        names = lines[0].split("=", 1)[1].split()
    col = _column(column, names, name) if column is not None else None
    misc = names.index("MISC") if "MISC" in names else None
    if col is None and (misc_key is None or misc is None):
        raise InputError("no tag source: give column=NAME or misc_key=KEY (the file has no MISC column)" if
                         misc is None else "no tag source: give column=NAME or misc_key=KEY", name)
    return names, col, misc


def _misc_tag(field: str, misc_key: str, key_seen: Dict[str, int], name: str, k: int) -> str:
    """The value of ``misc_key`` in a MISC field (InputError naming the keys seen when it is missing)."""
    prefix = misc_key + "="
    tag = None
    for item in field.split("|"):
        if item.startswith(prefix):
            tag = item[len(prefix):]
        else:
            key_seen[item.split("=", 1)[0]] = k
    if tag is None:
        found = ", ".join(sorted(k_ for k_ in key_seen if k_ != "_")) or "none"
        raise InputError(f"MISC {field!r} has no {misc_key}=...; expected the key {misc_key!r} on every "
                         f"word (MISC keys seen so far: {found}; or give column=NAME)", name, k)
    return tag


def _column(column: Union[str, int], names: List[str], path: str) -> int:
    if isinstance(column, int) and not isinstance(column, bool):
        if 1 <= column <= len(names):
            return column - 1
        raise InputError(f"column {column} does not exist; expected 1..{len(names)}", path)
    if str(column).upper() in names:
        return names.index(str(column).upper())
    raise InputError(f"column {column!r} does not exist; expected one of {', '.join(names)}", path)
