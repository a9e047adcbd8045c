"""Where annotators differ, in a form a person can adjudicate, and the spans a majority shares.

A *disagreement* is a cluster of spans that overlap one another (of any annotator and label, in a
sentence every annotator annotated) in which not every annotator has the same spans.  Its kind:

- ``missing``: one span, which some annotators have and the others do not;
- ``label``: the same tokens, different labels;
- ``boundary``: one label, different tokens;
- ``boundary_label``: both differ.

Each one lists who has what; :func:`groups` counts them by label and surface string (the text of
the tokens the cluster covers) and :func:`by_label` per label.  :func:`majority` keeps the spans
at least ``k`` annotators have.
"""
from __future__ import annotations

import heapq
from collections import Counter
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np

from ..core.arrays import overlap_clusters
from ..core.corpus import SpanSet
from ..io.columns import joined_texts
from ..io.source import gc_paused
from .data import Annotations

KINDS = ("missing", "label", "boundary", "boundary_label")


def _all_spans(ann: Annotations) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every span of every annotator: start, last, label, annotator."""
    sets = ann.spans
    who = np.concatenate([np.full(len(s), i, np.int64) for i, s in enumerate(sets)]) if sets else np.zeros(0, np.int64)
    return (np.concatenate([s.start for s in sets]), np.concatenate([s.last for s in sets]),
            np.concatenate([s.label for s in sets]).astype(np.int64), who)


def distinct_spans(ann: Annotations) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct spans (start, last, label), how many annotators have each, and per span instance
    (in :func:`_all_spans` order) the index of its distinct span."""
    start, last, label, _ = _all_spans(ann)
    if not len(start):
        z = np.zeros(0, np.int64)
        return z, z, z, z, z
    order = np.lexsort((label, last, start))
    s, e, lab = start[order], last[order], label[order]
    new = np.ones(len(s), bool)
    new[1:] = (s[1:] != s[:-1]) | (e[1:] != e[:-1]) | (lab[1:] != lab[:-1])
    ids = np.cumsum(new) - 1
    inverse = np.empty(len(s), np.int64)
    inverse[order] = ids
    return s[new], e[new], lab[new], np.bincount(ids), inverse


def majority(ann: Annotations, k: int) -> SpanSet:
    """The spans at least ``k`` annotators have (same tokens, same label)."""
    s, e, lab, count, _ = distinct_spans(ann)
    keep = count >= k
    return SpanSet(s[keep], e[keep], lab[keep].astype(np.int32))


def clusters(ann: Annotations, limit: Optional[int] = None) -> Dict[str, Any]:
    """The disagreements of ``ann`` (see the module docstring) as records (``limit``: the first ``limit``
    as records, and ``keys``: what :class:`Tally` counts of every one)."""
    corpus = ann.corpus
    start, last, label, who = _all_spans(ann)
    complete = ann.complete()
    if not complete.all():
        keep = complete[corpus.sentence_of(start)] if len(start) else np.zeros(0, bool)
        start, last, label, who = start[keep], last[keep], label[keep], who[keep]
    if not len(start):
        return {"kinds": {k: 0 for k in KINDS}, "items": [], "total": 0}
    order = _by_position(start, last, label, who)
    start, last, label, who = start[order], last[order], label[order], who[order]
    cl = overlap_clusters(start, last)
    n = int(cl[-1]) + 1
    # distinct spans per cluster and how many annotators have each
    dnew = np.ones(len(start), bool)
    dnew[1:] = (start[1:] != start[:-1]) | (last[1:] != last[:-1]) | (label[1:] != label[:-1])
    did = np.cumsum(dnew) - 1
    have = np.bincount(did)
    d_cl = cl[dnew]
    m = ann.m
    full = np.bincount(d_cl, weights=(have == m).astype(float), minlength=n)
    distinct = np.bincount(d_cl, minlength=n)
    agreed = full == distinct
    # kinds: distinct bounds and labels per cluster
    ds, de, dl = start[dnew], last[dnew], label[dnew]
    bnew = np.ones(len(ds), bool)
    bnew[1:] = (ds[1:] != ds[:-1]) | (de[1:] != de[:-1]) | (d_cl[1:] != d_cl[:-1])
    bounds = np.bincount(d_cl[bnew], minlength=n)
    lo = np.lexsort((dl, d_cl))
    lnew = np.ones(len(dl), bool)
    lnew[1:] = (dl[lo][1:] != dl[lo][:-1]) | (d_cl[lo][1:] != d_cl[lo][:-1])
    labels_n = np.bincount(d_cl[lo][lnew], minlength=n)
    kind = np.where(distinct == 1, 0, np.where(bounds == 1, 1, np.where(labels_n == 1, 2, 3)))
    bad = np.flatnonzero(~agreed)
    kinds = {k: int(np.count_nonzero(kind[bad] == i)) for i, k in enumerate(KINDS)}
    if limit is not None and limit < len(bad):       # the first as records, every one as what the tallies count
        return {"kinds": kinds, "total": len(bad),
                "items": _records(ann, bad[:limit], cl, start, last, label, who, kind),
                "keys": _keys(ann, bad, cl, start, last, label, kind)}
    return {"kinds": kinds, "total": len(bad), "items": _records(ann, bad, cl, start, last, label, who, kind)}


def _by_position(start: np.ndarray, last: np.ndarray, label: np.ndarray, who: np.ndarray) -> np.ndarray:
    """The order of ``lexsort((who, label, last, start))``: one stable sort of a packed key when it fits in 63
    bits (the annotators' spans come in runs by start, which the sort merges)."""
    if int(start.min()) >= 0 and int((last - start).min()) >= 0 and int(label.min()) >= 0 and int(who.min()) >= 0:
        bits = [int(x.max()).bit_length() for x in (start, last - start, label, who)]
        if sum(bits) <= 63:
            key = start.astype(np.int64)
            for x, b in zip((last - start, label, who), bits[1:]):
                key = (key << b) | x.astype(np.int64)
            return np.argsort(key, kind="stable")
    return np.lexsort((who, label, last, start))


#: disagreement clusters as :class:`Tally` counts them: per cluster its labels joined by ``+``, its text (""
#: without the tokens' texts) and its kind (an index into :data:`KINDS`); per label its clusters by kind
Counted = Tuple[List[str], List[str], np.ndarray, Dict[str, List[int]]]


@gc_paused
def _keys(ann: Annotations, bad: np.ndarray, cl: np.ndarray, start: np.ndarray, last: np.ndarray,
          label: np.ndarray, kind: np.ndarray) -> Counted:
    """What :class:`Tally` counts of the disagreement clusters ``bad`` (the label sets found for all clusters at
    once, as masks, and counted per label and kind as such)."""
    corpus = ann.corpus
    first_of = np.searchsorted(cl, bad, side="left")
    end_of = np.searchsorted(cl, bad, side="right")
    each = np.searchsorted(cl, np.arange(int(cl[-1]) + 1))        # every cluster's first span
    reach = np.maximum.reduceat(last, each)[bad]
    tokens = corpus.tokens
    names = corpus.labels
    kinds = kind[bad]
    if len(names) <= 62:
        bits = np.bitwise_or.reduceat(np.left_shift(np.int64(1), label.astype(np.int64)), each)[bad]
        sets = {m: "+".join(sorted(names[k] for k in range(len(names)) if (m >> k) & 1)) for m in set(bits.tolist())}
        labelled = [sets[m] for m in bits.tolist()]
        per_label = {names[k]: np.bincount(kinds[(bits >> k) & 1 == 1], minlength=len(KINDS))
                     for k in range(len(names))}
        rows = {lab: [int(c.sum())] + c.tolist() for lab, c in per_label.items() if c.any()}
    else:
        labs = label.tolist()
        tuples = [tuple(sorted({names[k] for k in labs[a:b]})) for a, b in zip(first_of.tolist(), end_of.tolist())]
        labelled = ["+".join(t) for t in tuples]
        rows = _label_rows(tuples, kinds.tolist())
    texts = [""] * len(bad) if tokens is None else joined_texts(tokens, start[first_of], reach + 1)
    return labelled, list(texts), kinds, rows


def _label_rows(labels: List[Tuple[str, ...]], kinds: List[int]) -> Dict[str, List[int]]:
    """Per label the clusters (of the label sets ``labels`` and kinds ``kinds``) that have it, by kind (a row:
    the count, then the count per kind)."""
    rows: Dict[str, List[int]] = {}
    for (labs, k), n in Counter(zip(labels, kinds)).items():
        for lab in labs:
            row = rows.get(lab)
            if row is None:
                row = rows[lab] = [0, 0, 0, 0, 0]
            row[0] += n
            row[k + 1] += n
    return rows


@gc_paused     # tens of thousands of small dicts and lists, no cycles: the collector's passes only cost time
def _records(ann: Annotations, bad: np.ndarray, cl: np.ndarray, start: np.ndarray, last: np.ndarray,
             label: np.ndarray, who: np.ndarray, kind: np.ndarray) -> List[Dict[str, Any]]:
    """One record per disagreement cluster: where it is, its text, its kind, who has which spans
    (positions computed for all clusters at once; the loop only assembles the records)."""
    corpus = ann.corpus
    if not len(bad):
        return []
    first_of = np.searchsorted(cl, bad, side="left")
    end_of = np.searchsorted(cl, bad, side="right")
    reach = np.maximum.reduceat(last, np.searchsorted(cl, np.arange(int(cl[-1]) + 1)))[bad]
    sent = corpus.sentence_of(start[first_of])
    base = corpus.sent_offsets[sent]
    info = ann.infos[0] if ann.infos else None
    line = info.token_lines[start[first_of]].tolist() if info is not None and info.token_lines is not None \
        else [None] * len(bad)
    tokens = corpus.tokens
    names = ann.names
    size = end_of - first_of                                 # the spans of the clusters, in order
    idx = np.repeat(first_of - np.cumsum(size) + size, size) + np.arange(int(size.sum()))
    offset = np.repeat(base, size)
    labs = [corpus.labels[k] for k in label[idx].tolist()]
    bs, es = (start[idx] - offset).tolist(), (last[idx] + 1 - offset).tolist()
    spans: List[List[Union[str, int]]]     # per span: label, first token, end token (exclusive), its text
    if tokens is None:
        spans = [[lab, b, e] for lab, b, e in zip(labs, bs, es)]
    else:
        spans = [[lab, b, e, t] for lab, b, e, t in zip(labs, bs, es, joined_texts(tokens, start[idx], last[idx] + 1))]
    owner = [names[k] for k in who[idx].tolist()]
    kinds = [KINDS[k] for k in kind[bad].tolist()]
    texts: List[Optional[str]] = [None] * len(bad) if tokens is None else \
        list(joined_texts(tokens, start[first_of], reach + 1))
    out = []
    at = 0
    for n, s, s0, e0, ln, b0, kd, text in zip(size.tolist(), sent.tolist(), start[first_of].tolist(), reach.tolist(),
                                              line, base.tolist(), kinds, texts):
        have: Dict[str, List[List[Union[str, int]]]] = {name: [] for name in names}
        for k in range(at, at + n):
            have[owner[k]].append(spans[k])
        out.append({"sentence": s, "first": s0 - b0, "last": e0 - b0, "kind": kd,
                    "labels": sorted(set(labs[at:at + n])),
                    "text": text,
                    "line": ln, "annotators": have})
        at += n
    return out


class Tally:
    """Disagreements counted per label and per label(s) and surface string, by kind, as records come (per label
    a row: its count, then its count per kind in the order of :data:`KINDS`; per group counters; made into the
    report's dicts at the end)."""

    def __init__(self) -> None:
        self.labels: Dict[str, List[int]] = {}
        self.groups: Counter[Tuple[str, str]] = Counter()            # per (labels, text) its clusters
        self.kinds: Counter[Tuple[str, str, int]] = Counter()        # the same by kind (an index into KINDS)

    def add(self, items: List[Dict[str, Any]]) -> None:
        self.add_counted(counted_of(items))

    def add_keys(self, keys: List[Tuple[Tuple[str, ...], Optional[str], str]]) -> None:
        """Count clusters given as (labels, text, kind)."""
        self.add_counted(_counted(keys))

    def add_counted(self, counted: Counted) -> None:
        """Count clusters as :func:`clusters` gives them (``keys``)."""
        names, texts, kinds, rows = counted
        self.groups.update(zip(names, texts))           # (counted in C: a row of a group is made when it is listed)
        self.kinds.update(zip(names, texts, kinds.tolist()))
        _merge_rows(self.labels, rows)

    def by_label(self) -> List[Dict[str, Any]]:
        rows = sorted(self.labels.items(), key=lambda r: (-r[1][0], r[0]))
        return [{"label": lab, "count": row[0], "kinds": dict(zip(KINDS, row[1:]))} for lab, row in rows]

    def by_group(self, limit: Optional[int] = None) -> List[Dict[str, Any]]:
        """The groups, most frequent first (then by labels and text); ``limit``: the first ``limit``."""
        return list(self.each_group(limit))

    def each_group(self, limit: Optional[int] = None) -> Iterator[Dict[str, Any]]:
        """:meth:`by_group`'s records one at a time (a record is made as it is taken)."""
        def order(r: Tuple[Tuple[str, str], int]) -> Tuple[int, str, str]:
            return -r[1], r[0][0], r[0][1]

        items = self.groups.items()
        rows = sorted(items, key=order) if limit is None else heapq.nsmallest(limit, items, key=order)
        kinds = self.kinds
        return ({"labels": lab, "text": text, "count": n,
                 "kinds": {k: kinds[lab, text, i] for i, k in enumerate(KINDS)}} for (lab, text), n in rows)


_KIND_AT = {k: i + 1 for i, k in enumerate(KINDS)}


def counted_of(items: List[Dict[str, Any]]) -> Counted:
    """What :class:`Tally` counts of disagreement records."""
    return _counted([(tuple(rec["labels"]), rec["text"], rec["kind"]) for rec in items])


def _counted(keys: List[Tuple[Tuple[str, ...], Optional[str], str]]) -> Counted:
    """What :class:`Tally` counts of clusters given as (labels, text, kind)."""
    kinds = [_KIND_AT[kind] - 1 for _, _, kind in keys]
    return (["+".join(labels) for labels, _, _ in keys], [text or "" for _, text, _ in keys],
            np.array(kinds, np.int64), _label_rows([labels for labels, _, _ in keys], kinds))


def _merge_rows(mine: Dict[Any, List[int]], theirs: Dict[Any, List[int]]) -> None:
    """Add rows of counts by kind (``theirs`` taken over, not copied)."""
    get = mine.get
    for key, row in theirs.items():
        have = get(key)
        if have is None:
            mine[key] = row
            continue
        for k in range(5):
            have[k] += row[k]


def by_label(items: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Disagreements counted per label, by kind, most frequent first (a cluster with two labels counts
    for each)."""
    t = Tally()
    t.add(items)
    return t.by_label()


def groups(items: List[Dict[str, Any]], limit: Optional[int] = None) -> List[Dict[str, Any]]:
    """Disagreements counted by label(s) and surface string, most frequent first."""
    t = Tally()
    t.add(items)
    return t.by_group(limit)
