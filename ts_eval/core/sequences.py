"""Python input: seqeval-style tag sequences and span lists -> :class:`~ts_eval.core.corpus.Corpus`
(the readers of data that is already in memory; the file readers are in :mod:`ts_eval.io`)."""
from __future__ import annotations

from typing import Mapping, Sequence, Tuple, Union

import numpy as np

from . import validation as validate
from .printable import control_message, has_control
from .corpus import Corpus, SideInfo, SpanSet, corpus_from_tag_ids
from ..errors import InputError


TagSeqs = Sequence[Sequence[str]]


def from_sequences(
    y_true: TagSeqs,
    y_pred: Union[TagSeqs, Mapping[str, TagSeqs]],
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
    """Corpus from span lists: per sentence a list of ``(label, first, last)`` token indices.

    ``last`` is inclusive.  Spans may overlap and nest (several labels per unit).
    """
    sysmap = dict(systems) if isinstance(systems, Mapping) else {"system": systems}
    if "gold" in sysmap:
        raise ValueError("'gold' cannot be a system name")
    lens = np.asarray(lengths, np.int64)
    if np.any(lens <= 0):
        raise InputError("every sentence needs at least one token")
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    label_set = set()
    raw = {}
    for name, spans in [("gold", gold)] + list(sysmap.items()):
        if len(spans) != len(lens):
            raise InputError(f"{name}: {len(spans)} sentences of spans, expected {len(lens)}")
        rows = []
        for s, sent in enumerate(spans):
            for item in sent:
                label, b, e = item
                if not (0 <= b <= e < lens[s]):
                    raise InputError(f"{name}: sentence {s}: span {item!r} is outside 0..{lens[s] - 1}"
                                     " or ends before it starts")
                if not label:
                    raise InputError(f"{name}: sentence {s}: span {item!r} has an empty label")
                if has_control(str(label)):
                    raise InputError(f"{name}: sentence {s}: span {item!r}: {control_message(str(label), 'label')}")
                rows.append((offsets[s] + b, offsets[s] + e, str(label)))
                label_set.add(str(label))
        raw[name] = rows
    labels = sorted(label_set)
    index = {lab: k for k, lab in enumerate(labels)}
    sets = {}
    for name, rows in raw.items():
        ss = SpanSet(np.array([r[0] for r in rows], np.int64), np.array([r[1] for r in rows], np.int64),
                     np.array([index[r[2]] for r in rows], np.int32)).sorted()
        dup = (np.diff(ss.start) == 0) & (np.diff(ss.end) == 0) & (np.diff(ss.label) == 0)
        if dup.any():
            k = int(np.flatnonzero(dup)[0])
            raise InputError(f"{name}: the span ({labels[ss.label[k]]}, {ss.start[k]}, {ss.end[k]})"
                             " (corpus token indices) is given twice")
        sets[name] = ss
    infos = {name: SideInfo(name, spans=len(sets[name])) for name in sysmap}
    return Corpus(offsets, labels, sets["gold"], {n: sets[n] for n in sysmap},
                  SideInfo("gold", spans=len(sets["gold"])), infos)
