"""Gold and system :class:`Documents` (any formats) -> one :class:`~ts_eval.core.corpus.Corpus`.

Documents are paired by id when every document on every side has one (each id once
per side, the same ids on both sides), else by order (the same number of documents).
Paired documents must have the same tokens (and the same text, when both sides have
texts); system spans are moved onto the gold document's token positions.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple, Union

import numpy as np

from ..core.corpus import Corpus, SideInfo, SpanSet
from ..errors import InputError, OptionError
from .documents import TOKEN_SEP, Documents
from .source import GOLD_SYSTEM, Words, side_words


class Side(Protocol):
    """What pairing reads of a side: documents (or records) with ids, and how messages name them."""

    path: str
    ids: List[Optional[str]]

    @property
    def n_docs(self) -> int: ...

    def where(self, d: int) -> str: ...




def document_order(gold: Side, sys: Side, sides: Words = GOLD_SYSTEM) -> np.ndarray:
    """For every gold document, the index of its system document (by id when every document on both
    sides has one, else by order)."""
    g = sides[0]
    by_id = all(i is not None for i in gold.ids) and all(i is not None for i in sys.ids)
    if by_id:
        index: Dict[int, Dict[Optional[str], int]] = {}
        for side in (gold, sys):
            seen: Dict[Optional[str], int] = {}
            for d, i in enumerate(side.ids):
                if i in seen:
                    raise InputError(f"document id {i!r} occurs twice ({side.where(seen[i])} and {side.where(d)}); "
                                     "expected each id once", side.path)
                seen[i] = d
            index[id(side)] = seen
        gi, si = index[id(gold)], index[id(sys)]
        missing = [i for i in gold.ids if i not in si]
        if missing:
            raise InputError(f"document id {missing[0]!r} of the {g} file {gold.path} is missing "
                             f"({len(missing)} {g} ids missing); expected the same ids on both sides", sys.path)
        extra = [i for i in sys.ids if i not in gi]
        if extra:
            raise InputError(f"document id {extra[0]!r} is not in the {g} file {gold.path} "
                             f"({len(extra)} such ids); expected the same ids on both sides", sys.path)
        return np.array([si[i] for i in gold.ids], np.int64)
    if sys.n_docs != gold.n_docs:
        raise InputError(f"{sys.n_docs} documents, the {g} file {gold.path} has {gold.n_docs}; without ids on "
                         "every document they are paired by order and must be as many", sys.path)
    return np.arange(gold.n_docs, dtype=np.int64)


def _same_text_tokens(gold: Documents, sys: Documents, order: np.ndarray) -> bool:
    """Fast check for two text sides: equal texts and equal token offsets (no token strings built)."""
    if gold.texts is None or sys.texts is None or gold.char_tokens is None or sys.char_tokens is None:
        return False
    if any(gold.texts[g] != sys.texts[s] for g, s in enumerate(order.tolist())):
        return False
    n = len(order)      # (gold's first n documents are paired)
    if not np.array_equal(np.diff(gold.offsets)[:n], np.diff(sys.offsets)[order]):
        return False
    shift = sys.offsets[:-1][order] - gold.offsets[:n]
    idx = np.arange(int(gold.offsets[n])) + np.repeat(shift, np.diff(gold.offsets)[:n])
    m = len(idx)
    return bool(np.array_equal(gold.char_tokens[0][:m], sys.char_tokens[0][idx])
                and np.array_equal(gold.char_tokens[1][:m], sys.char_tokens[1][idx]))


def _check_same(gold: Documents, sys: Documents, order: np.ndarray, sides: Words = GOLD_SYSTEM) -> None:
    found = first_difference(gold, sys, order, sides)
    if found is not None:
        raise found[1]


def first_difference(gold: Documents, sys: Any, order: np.ndarray,
                     sides: Words = GOLD_SYSTEM) -> Optional[Tuple[int, InputError]]:
    """(gold document, error) of the first of gold's documents ``g`` (those ``order`` pairs: system document
    ``order[g]``) whose tokens, or text where both sides have one, differ from its partner's; None when none
    does (records without tokens, a generated output's, have nothing to compare)."""
    if not isinstance(sys, Documents) or _same_text_tokens(gold, sys, order):
        return None
    who = "" if sides[1] == "system" else f"{sides[1]}, "
    gold_keys, sys_keys = gold.keys, sys.keys
    in_order = sys_keys if np.array_equal(order, np.arange(len(order))) else [sys_keys[s] for s in order.tolist()]
    if (gold.texts is None or sys.texts is None) and gold_keys == in_order:    # all at once, before one by one
        return None
    for g, s in enumerate(order.tolist()):     # (where both have texts, the tokens come from them: texts first)
        if gold.texts is not None and sys.texts is not None and gold.texts[g] != sys.texts[s]:
            return g, _text_differs(gold, g, sys, s, sides)
        if gold_keys[g] != sys_keys[s]:
            gt, st = gold.tokens(g), sys.tokens(s)
            k = next((j for j, (a, b) in enumerate(zip(gt, st)) if a != b), min(len(gt), len(st)))
            found = repr(st[k]) if k < len(st) else "the end"
            want = repr(gt[k]) if k < len(gt) else "the end"
            return g, InputError(f"{who}{sys.where(s)}: token {k} is {found}, the {sides[0]} {gold.where(g)} has "
                                 f"{want} ({len(st)} vs {len(gt)} tokens); expected the same tokens", sys.path)
    return None


def _text_differs(gold: Documents, g: int, sys: Documents, s: int, sides: Words = GOLD_SYSTEM) -> InputError:
    """The error for system document ``s`` whose text is not gold document ``g``'s: where they first differ."""
    assert sys.texts is not None and gold.texts is not None     # (check_texts asks only then)
    a, b = sys.texts[s], gold.texts[g]
    k = next((j for j, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(k - 10, 0)
    who = "" if sides[1] == "system" else f"{sides[1]}, "
    return InputError(f"{who}{sys.where(s)}: the text differs from the {sides[0]} {gold.where(g)} at character {k}: "
                      f"{a[lo:k + 10]!r} vs {sides[0]} {b[lo:k + 10]!r} (lengths {len(a)} and {len(b)}); expected "
                      "the same text for the same document", sys.path)


def pair_documents(gold: Documents, systems: Union[Documents, Mapping[str, Documents]], *,
                   scheme: Optional[str] = None, policy: Optional[str] = None,
                   sides: Optional[Sequence[str]] = None) -> Corpus:
    """Pair each system's documents with gold's and build the Corpus evaluate() scores.

    ``scheme`` (as asked for, e.g. ``auto``) and ``policy``: what the sides read from tags were decoded
    with; the corpus records them only when a side was read from tags (spans read as spans have neither).
    ``sides``: what the messages call gold and each system (default ``gold``, ``system``; ``agree``
    names its annotators).
    """
    sysmap = dict(systems) if isinstance(systems, Mapping) else {"system": systems}
    if not sysmap:
        raise ValueError("no system given")
    if "gold" in sysmap:
        raise OptionError(f"{sysmap['gold'].path}: its system name is 'gold', which names the gold side; give it "
                          "another name")
    aligned: Dict[str, Documents] = {}
    for k, (name, sys) in enumerate(sysmap.items()):
        words = side_words(sides, k)
        order = document_order(gold, sys, words)
        _check_same(gold, sys, order, words)
        aligned[name] = sys if np.array_equal(order, np.arange(sys.n_docs)) else sys.take(order, notes=True)
    return pair_aligned(gold, aligned, scheme=scheme, policy=policy)


def pair_aligned(gold: Documents, systems: Mapping[str, Documents], *, scheme: Optional[str] = None,
                 policy: Optional[str] = None) -> Corpus:
    """The Corpus of ``gold``'s documents and every system's documents that pair with them, in gold's order
    (document d of each system is gold's document d, checked: :func:`first_difference`)."""
    labels = sorted(set(gold.labels).union(*(s.labels for s in systems.values())))
    index = {lab: k for k, lab in enumerate(labels)}

    def spanset(docs: Documents) -> SpanSet:
        # document d of the system lands on gold's document d: shift each span by the offsets' difference
        shift = gold.offsets[:-1] - docs.offsets[:-1]
        doc = np.searchsorted(docs.offsets, docs.start, side="right") - 1
        remap = np.array([index[lab] for lab in docs.labels] or [0], np.int32)
        return SpanSet((docs.start + shift[doc]).astype(np.int64), (docs.last + shift[doc]).astype(np.int64),
                       remap[docs.label]).sorted()

    def info(name: str, docs: Documents) -> SideInfo:
        rep = docs.summary()
        return SideInfo(name, docs.path, spans=len(docs.start), repairs=int(docs.notes.get("repairs", 0)),
                        discarded=int(docs.notes.get("discarded", 0)), reading=rep)

    # the scheme of the sides decoded from tags (each detected alone when it was auto: can differ)
    schemes = list(dict.fromkeys(d.notes["scheme"] for d in [gold, *systems.values()]
                                 if d.notes.get("scheme") is not None))
    used = ", ".join(schemes) if schemes else None
    return Corpus(
        sent_offsets=gold.offsets.copy(), labels=labels,
        gold=spanset(gold),
        systems={n: spanset(d) for n, d in systems.items()},
        gold_info=info("gold", gold), system_info={n: info(n, d) for n, d in systems.items()},
        scheme=used, scheme_requested=scheme if schemes else None, policy=policy if schemes else None,
        tokens=_token_texts(gold),
    )


def _token_texts(docs: Documents) -> Callable[[int, int], List[str]]:
    """``tokens(a, b)`` -> token texts a..b-1 (global indices), cut from the documents' keys."""
    def tokens(a: int, b: int) -> List[str]:
        d0 = int(np.searchsorted(docs.offsets, a, side="right") - 1)
        d1 = int(np.searchsorted(docs.offsets, b, side="left"))
        out: List[str] = []
        for d in range(d0, max(d1, d0 + 1)):
            out.extend(docs.keys[d].split(TOKEN_SEP))
        base = int(docs.offsets[d0])
        return out[a - base:b - base]
    return tokens
