"""Python input: seqeval-style tag sequences and span lists -> :class:`~ts_eval.core.corpus.Corpus`
(the readers of data that is already in memory; the file readers are in :mod:`ts_eval.io`).

Spans are ``(label, start, end)`` token offsets with ``end`` exclusive, as everywhere in ts_eval's
public API (Python slices, spaCy, Hugging Face).  Inside, a :class:`~ts_eval.core.corpus.SpanSet`
keeps each span's first and last token (``start``, ``last``; ``SpanSet.end`` = ``last + 1``), which
is what the vectorised models compute with."""
from __future__ import annotations

from typing import Any, Mapping, Sequence, Tuple, Union

import numpy as np

from ..errors import InputError
from . import validation as validate
from .corpus import Corpus, SideInfo, SpanSet, corpus_from_tag_ids
from .printable import control_message, has_control

TagSeqs = Sequence[Sequence[str]]


def from_sequences(
    y_true: TagSeqs,
    y_pred: Union[TagSeqs, Mapping[str, TagSeqs]],
    *,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    label_map: Sequence[Tuple[str, str]] = (),
) -> Corpus:
    """Corpus from seqeval-style lists of tag sequences (one list per sentence).

    ``y_pred`` is one system's sequences or a mapping ``name -> sequences``.  Bad input (see
    :mod:`ts_eval.core.validation`) raises a ``TypeError``/``ValueError`` (also an ``InputError``) naming
    the argument, the sentence and token index and the value.
    """
    systems = dict(y_pred) if isinstance(y_pred, Mapping) else {"system": y_pred}
    if not systems:
        raise ValueError("no system given")
    if "gold" in systems:
        raise ValueError("'gold' cannot be a system name")
    names = [str(name) for name in systems]
    arg = "y_pred" if not isinstance(y_pred, Mapping) else None
    lengths, arrays, tag_vocab = validate.encode(
        [("y_true", y_true)] + [(arg or f"y_pred[{name!r}]", seqs) for name, seqs in zip(names, systems.values())])
    if lengths.sum() == 0:  # an error, not a warning: no Report can hold scores of nothing
        raise validate.TagValueError(f"y_true is empty ({len(lengths)} sentences, 0 tokens): there is nothing to score")
    if np.any(lengths == 0):
        k = int(np.flatnonzero(lengths == 0)[0])
        raise validate.TagValueError(f"y_true: sentence {k} is empty (no tokens); remove it or give it tokens")
    sides = [SideInfo("gold", tags=arrays[0])] + [SideInfo(n, tags=a) for n, a in zip(names, arrays[1:])]
    sent_first = np.zeros(int(lengths.sum()), bool)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    sent_first[starts[lengths > 0]] = True
    return corpus_from_tag_ids(tag_vocab, sides, sent_first, scheme, policy, label_map)


SpanList = Sequence[Sequence[Tuple[str, int, int]]]


def from_spans(
    lengths: Sequence[int],
    gold: SpanList,
    systems: Union[SpanList, Mapping[str, SpanList]],
) -> Corpus:
    """Corpus from span lists: per sentence a list of ``(label, start, end)`` token offsets, ``end``
    exclusive like a Python slice (a one-token span at token 3 is ``(label, 3, 4)``).

    ``systems``: one system's span lists, or a mapping name -> span lists.  Spans may overlap and
    nest (several labels per unit).  A span must lie in its sentence and hold at least one token:
    ``start == end`` is an error (most likely an inclusive end), as is the same span twice on a side.
    """
    sysmap = dict(systems) if isinstance(systems, Mapping) else {"system": systems}
    return spans_corpus(lengths, "gold", gold, {name: (name, spans) for name, spans in sysmap.items()})


def spans_corpus(lengths: Sequence[int], gold_name: str, gold: SpanList,
                 systems: Mapping[str, Tuple[str, SpanList]]) -> Corpus:
    """:func:`from_spans` with the names its messages give each argument (``gold_name``; per system
    ``(name in messages, spans)``): ``score(..., lengths=)`` names them ``y_true`` and ``y_pred``."""
    if "gold" in systems:
        raise ValueError("'gold' cannot be a system name")
    lens = np.asarray(lengths, np.int64)
    if np.any(lens <= 0):
        raise InputError("every sentence needs at least one token")
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    label_set = set()
    raw = {}
    for key, (name, spans) in [("gold", (gold_name, gold))] + list(systems.items()):
        if len(spans) != len(lens):
            raise InputError(f"{name}: {len(spans)} sentences of spans, expected {len(lens)}")
        rows = []
        for s, sent in enumerate(spans):
            for item in sent:
                label, b, e = _span(item, int(lens[s]), f"{name}: sentence {s}")
                rows.append((offsets[s] + b, offsets[s] + e - 1, label))
                label_set.add(label)
        raw[key] = rows
    labels = sorted(label_set)
    index = {lab: k for k, lab in enumerate(labels)}
    sets = {}
    for key, rows in raw.items():
        ss = SpanSet(np.array([r[0] for r in rows], np.int64), np.array([r[1] for r in rows], np.int64),
                     np.array([index[r[2]] for r in rows], np.int32)).sorted()
        dup = (np.diff(ss.start) == 0) & (np.diff(ss.last) == 0) & (np.diff(ss.label) == 0)
        if dup.any():
            k = int(np.flatnonzero(dup)[0])
            name = gold_name if key == "gold" else systems[key][0]
            raise InputError(f"{name}: the span ({labels[ss.label[k]]}, {ss.start[k]}, {ss.last[k] + 1})"
                             " (corpus token offsets, end exclusive) is given twice")
        sets[key] = ss
    infos = {key: SideInfo(key, spans=len(sets[key])) for key in systems}
    return Corpus(offsets, labels, sets["gold"], {key: sets[key] for key in systems},
                  SideInfo("gold", spans=len(sets["gold"])), infos)


def _span(item: Any, n: int, where: str) -> Tuple[str, int, int]:
    """``item`` checked as a ``(label, start, end)`` span (end exclusive) of a sentence of ``n`` tokens;
    an error echoes the span as the caller wrote it."""
    if not isinstance(item, (tuple, list)) or len(item) != 3:
        raise InputError(f"{where}: span {item!r}; expected (label, start, end) token offsets")
    label, b, e = item
    if not (isinstance(b, (int, np.integer)) and isinstance(e, (int, np.integer)) and 0 <= b < e <= n):
        raise InputError(f"{where}: span {tuple(item)!r} {_bad_range(b, e, n)}")
    if not label:
        raise InputError(f"{where}: span {tuple(item)!r} has an empty label")
    if has_control(str(label)):
        raise InputError(f"{where}: span {tuple(item)!r}: {control_message(str(label), 'label')}")
    return str(label), int(b), int(e)


def _bad_range(b: Any, e: Any, n: int) -> str:
    """What is wrong with token offsets ``b``..``e`` (end exclusive) in a sentence of ``n`` tokens."""
    if not (isinstance(b, (int, np.integer)) and isinstance(e, (int, np.integer))):
        return "has offsets that are not integers; expected token offsets"
    if b == e:
        return (f"is empty: end is exclusive, so a one-token span at {b} ends at {b + 1}" if 0 <= b < n
                else f"is empty and outside the sentence's {n} tokens")
    return (f"is outside the sentence's {n} tokens or ends before it starts; expected 0 <= start < end <= {n} "
            "(end exclusive)")
