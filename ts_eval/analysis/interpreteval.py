"""InterpretEval's per-bucket F1 (Fu, Liu & Neubig 2020, ``tensorEvaluation-ner.py``), reproduced
with its rules and its quirks, so that its published kind of numbers can be checked and compared
with ts_eval's own buckets.

Its nine attributes of a span (the configuration its repository ships), each bucketed its way:

- ``eLen`` (tokens), ``sLen`` (the gold sentence's tokens), ``eDen`` (the gold sentence's entity
  tokens / tokens), ``oDen`` (the sentence's tokens not in the training vocabulary, case kept /
  tokens), ``eFre`` (the span string's training frequency, below), ``tFre`` (each token's, below):
  *specified values, then equal counts*: each listed value (eLen 1, 2, 3; eFre, tFre, oDen 0) that
  occurs is a bucket of its own; the other gold values are walked upwards and a bucket closes as
  soon as it holds *more* than (gold spans left) / (buckets left) spans, the average fixed
  before the walk; a bucket of several values is keyed by its first and last value, and the keys
  are then rewritten so that each runs from the previous bucket's last value: a system span finds
  its bucket by ``low < value <= high`` (or equality for a one-value bucket), in bucket order, so
  a system value equal to the lowest value of a first bucket that is not a listed value finds no
  bucket (its spans are dropped), while gold's spans were put there when the bucket was made.
- ``eCon``, ``tCon`` (label consistency of the span string, of each token): fixed intervals
  ``0``, ``(0, 0.5]``, ``(0.5, 0.999]``, ``1``; values with no interval are dropped.
- ``tag``: the six most frequent gold labels (lower-cased), one bucket each.

The training tables are built as its ``getPreComputed_*`` functions build them:

- ``eFre``: for each distinct lower-cased training entity string, the number of matches of the
  *regular expression* `` string `` (parentheses and asterisks removed) in the training tokens
  joined by one space, lower-cased (so an entity at the very start or end of the text is not
  counted, and ``.`` matches any character); divided by the fifth-highest of these counts and
  written with three decimals; strings counted more often than the fifth-highest are left out of
  the table (they get the value 0 of a string never seen);
- ``tFre``: each lower-cased training token's count, divided by the fifth-highest count, three
  decimals (more frequent tokens: 1.0);
- ``eCon``: for each distinct entity string, over the same regular-expression matches (parentheses,
  asterisks and plus signs removed), the labels of the tokens the match covers (``o`` outside an
  entity): the share of each label, three decimals;
- ``tCon``: for each lower-cased token, the share of each label among its training occurrences;
- ``oDen``: the set of training tokens (case kept).

A span's ``tCon`` and ``tFre`` are per token: a token is scored with its label (key: position
and label), and a token missing from the table takes the value of the token before it in the
span (0 for the first).  Spans are compared by first token, end and lower-cased label; F1 in a
bucket is computed from the gold keys and the system keys in it, 0 when nothing is correct.
"""
from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core import measures
from ..core.corpus import Corpus, SpanSet
from ..errors import InputError

if TYPE_CHECKING:   # types only: the attributes are imported where they are made (interpreteval_attributes)
    from .attributes import Attribute, Text, Training

#: the attributes and their bucketing, as InterpretEval's ``conf.ner-attributes`` ships them
ASPECTS: Dict[str, Tuple[str, Any]] = {
    "eCon": ("interval", [(0.0,), (0.0, 0.5), (0.5, 0.999), (1.0,)]),
    "tCon": ("interval", [(0.0,), (0.0, 0.5), (0.5, 0.999), (1.0,)]),
    "eFre": ("values", (4, [0.0])),
    "tFre": ("values", (4, [0.0])),
    "eLen": ("values", (4, [1.0, 2.0, 3.0])),
    "sLen": ("values", (4, [])),
    "eDen": ("values", (4, [])),
    "oDen": ("values", (4, [0.0])),
    "tag": ("discrete", (6, 1)),
}

Chunk = Tuple[str, int, int]       # label (as tagged), first token, end (exclusive), flat positions
#: an attribute's value for a span or token: a number, or a name (a label, a training-frequency class)
Value = Union[float, str]
Bucket = Tuple[Value, ...]


def _label(tag: str) -> str:
    return tag.split("-")[1].lower() if len(tag) > 1 else tag.lower()


@dataclass
class Tables:
    """InterpretEval's training tables (see the module's docstring)."""

    eCon: Dict[str, Dict[str, float]]
    tCon: Dict[str, Dict[str, float]]
    eFre: Dict[str, str]
    tFre: Dict[str, str]
    oDen: FrozenSet[str]

    @classmethod
    def from_training(cls, words: Sequence[str], tags: Sequence[str]) -> Tables:
        """The tables from the training tokens and tags (flat, as InterpretEval reads them: sentences
        joined, -DOCSTART- lines left out)."""
        chunks = set(chunks_of(tags))
        labels: List[str] = []
        for tag, _ in Counter(tags).most_common():
            if len(tag) > 1 and tag.split("-")[1].lower() not in labels:
                labels.append(tag.split("-")[1].lower())
        labels.append("o")
        find = _Matches(words)
        e_con: Dict[str, Dict[str, float]] = {}
        e_count: Dict[str, int] = {}
        for _, s, e in chunks:
            span = " ".join(words[s:e]).lower()
            if span in e_count:
                continue
            e_count[span] = len(find(_pattern(span, "()*")))
            e_con[span] = {lab: 0.0 for lab in labels}
            found = find(_pattern(span, "()*+"))
            if found:
                n = len(span.split())
                got: List[str] = [_label(t) for first in found for t in tags[first:first + n]]
                for lab in set(got):
                    e_con[span][lab] = float("%.3f" % (got.count(lab) / len(got)))
        e_fre: Dict[str, str] = {}
        ranked = sorted(e_count.values(), reverse=True)
        if len(ranked) < 5 or ranked[4] == 0:
            raise InputError("InterpretEval's frequency tables divide by the fifth-highest count of a training "
                             f"entity string; the training data has {len(ranked)} distinct entity strings, "
                             "expected 5 or more found in its text")
        top = ranked[4]
        for span, freq in e_count.items():
            if freq <= top:
                e_fre[span] = "%.3f" % (freq / top)
        lower = [w.lower() for w in words]
        counts = Counter(lower)
        if len(counts) < 5:
            raise InputError("InterpretEval's token frequencies divide by the fifth-highest count of a training "
                             f"token; the training data has {len(counts)} distinct tokens, expected 5 or more")
        t_top = sorted(counts.values(), reverse=True)[4]
        t_fre = {w: ("%.3f" % (c / t_top) if c <= t_top else "1.0") for w, c in counts.items()}
        per: Dict[str, List[str]] = {}
        for w, t in zip(lower, tags):
            per.setdefault(w, []).append(_label(t).strip())
        t_con: Dict[str, Dict[str, float]] = {}
        for w, labs in per.items():
            t_con[w] = {lab: 0.0 for lab in labels}
            for lab in set(labs):
                t_con[w][lab] = float("%.3f" % (labs.count(lab) / len(labs)))
        return cls(e_con, t_con, e_fre, t_fre, frozenset(words))


def _pattern(span: str, removed: str) -> str:
    """InterpretEval's search pattern for an entity string: padded with spaces, some characters removed."""
    out = " " + span + " "
    for c in removed:
        out = out.replace(c, "")
    return out


class _Matches:
    """Where a pattern matches the training tokens joined by one space, lower-cased, as ``re.finditer``
    finds it (left to right, without overlap), as the indices of the first token of each match.  A
    pattern that is plain words between single spaces is looked up by its tokens (a match then covers
    whole tokens with a space on both sides: never the first or the last token, and a match cannot
    start at the space the previous one ended with); any other pattern runs as the regular expression
    it is in InterpretEval."""

    SPECIAL = frozenset(".^$*+?{}[]\\|()")

    def __init__(self, words: Sequence[str]):
        self.lower = [w.lower() for w in words]
        self.text = " ".join(self.lower)
        self.starts = [0]
        for w in self.lower[:-1]:
            self.starts.append(self.starts[-1] + len(w) + 1)
        self.where: Dict[str, List[int]] = {}
        for i, w in enumerate(self.lower):
            self.where.setdefault(w, []).append(i)

    def __call__(self, pattern: str) -> List[int]:
        toks = pattern[1:-1].split(" ")
        plain = (len(pattern) > 2 and pattern[0] == pattern[-1] == " " and all(toks)
                 and not any(c in self.SPECIAL or c.isspace() for t in toks for c in t))
        if not plain:
            return [bisect.bisect_left(self.starts, m.start()) for m in re.finditer(pattern, self.text)]
        n, last, out = len(toks), len(self.lower), []
        after = -1
        for i in self.where.get(toks[0], []):
            if i >= 1 and i + n <= last - 1 and i > after and self.lower[i:i + n] == toks:
                out.append(i)
                after = i + n
        return out


def chunks_of(tags: Sequence[str]) -> List[Chunk]:
    """Chunks of a flat tag sequence as InterpretEval finds them: a chunk ends at O, at a B- tag, or
    where the label changes (an I- tag after O starts a chunk; sentences are not boundaries)."""
    out: List[Chunk] = []
    label: Optional[str] = None
    start = 0
    for i, tag in enumerate(tags):
        if tag == "O":
            if label is not None:
                out.append((label, start, i))
                label = None
            continue
        cls, lab = tag.split("-")[0], tag.split("-")[-1]
        if label is None:
            label, start = lab, i
        elif lab != label or cls == "B":
            out.append((label, start, i))
            label, start = lab, i
    if label is not None:
        out.append((label, start, len(tags)))
    return out


def values(words: Sequence[str], tags: Sequence[str], sentences: Sequence[int], gold_tags: Sequence[str],
           tables: Tables) -> Dict[str, Dict[str, Value]]:
    """Per attribute, each span's (or each span token's) key -> value, as InterpretEval's
    ``getAspectValue``: ``tags`` are the side's tags (gold's or a system's), ``sentences`` the length
    of each sentence in order, ``gold_tags`` gold's (the sentence attributes read gold)."""
    sent_of: List[int] = []
    for sid, n in enumerate(sentences):
        sent_of += [sid] * n
    e_den, o_den = [], []
    pos = 0
    for n in sentences:
        inside = sum(e - s for _, s, e in set(chunks_of(gold_tags[pos:pos + n])))
        e_den.append(inside / n)
        o_den.append(sum(1 for w in words[pos:pos + n] if w not in tables.oDen) / n)
        pos += n
    out: Dict[str, Dict[str, Value]] = {a: {} for a in ASPECTS}
    for lab, s, e in chunks_of(tags):
        kind = lab.lower()
        text = " ".join(words[s:e]).lower()
        key = f"{s}_{e}_{kind}"
        sid = sent_of[s]
        out["eCon"][key] = tables.eCon[text].get(kind, 0.0) if text in tables.eCon else 0.0
        con: float = 0.0
        fre: Value = 0.0
        for p in range(s, e):
            w = words[p].lower()
            if w in tables.tCon and kind in tables.tCon[w]:
                con = tables.tCon[w][kind]
            out["tCon"][f"{p}_{kind}"] = con
            if w in tables.tFre:
                fre = tables.tFre[w]
            out["tFre"][f"{p}_{kind}"] = fre
        out["eFre"][key] = tables.eFre.get(text, 0.0)
        out["eLen"][key] = e - s
        out["sLen"][key] = float(sentences[sid])
        out["eDen"][key] = float(e_den[sid])
        out["oDen"][key] = float(o_den[sid])
        out["tag"][key] = kind
    return out


def _by_value(keys: Dict[str, Value]) -> Dict[float, List[str]]:
    rev: Dict[float, List[str]] = {}
    for k, v in keys.items():
        rev.setdefault(float(v), []).append(k)
    return dict(sorted(rev.items()))


def _gold_buckets(kind: str, setting: Any, keys: Dict[str, Value]) -> Dict[Bucket, List[str]]:
    if kind == "interval":
        return _interval_buckets(keys, list(setting))
    if kind == "discrete":
        top, least = setting
        rev: Dict[Value, List[str]] = {}
        for k, v in keys.items():
            rev.setdefault(v, []).append(k)
        out: Dict[Bucket, List[str]] = {}
        for n, (v, ks) in enumerate(sorted(rev.items(), key=lambda it: len(it[1]), reverse=True), 1):
            if len(ks) < least or n > top:
                break
            out[(v,)] = ks
        return out
    n_buckets, listed = setting
    by = _by_value(keys)
    n_spans = len(keys)
    made: Dict[Bucket, List[str]] = {}
    for v in listed:
        if v in by:
            made[(v,)] = by[v]
            n_spans -= len(by[v])
            n_buckets -= 1
    average = n_spans / n_buckets
    held: List[str] = []
    vals: List[float] = []
    for v, ks in by.items():
        if v in listed:
            continue
        vals.append(v)
        held += ks
        if len(held) > average:
            made[(vals[0], vals[-1]) if len(vals) >= 2 else (vals[0],)] = held
            held, vals = [], []
    if held:
        made[(vals[0], vals[-1]) if len(vals) >= 2 else (vals[0],)] = held
    out = {}
    last: Value = 0
    for i, key in enumerate(made):
        if i == 0:
            last = key[0]
        if len(key) == 1:
            out[key] = made[key]
            last = key[0]
        else:
            out[(last, key[1])] = made[key]
            last = key[1]
    return out


def _interval_buckets(keys: Dict[str, Value], intervals: List[Bucket]) -> Dict[Bucket, List[str]]:
    out: Dict[Bucket, List[str]] = {}
    if isinstance(intervals[0][0], str):
        rev: Dict[Value, List[str]] = {}
        for k, v in keys.items():
            rev.setdefault(v, []).append(k)
        for v, ks in sorted(rev.items(), key=lambda it: len(it[1]), reverse=True):
            if (v,) in intervals:
                out.setdefault((v,), []).extend(ks)
        for iv in intervals:
            out.setdefault(iv, [])
        return out
    for iv in intervals:
        out[iv] = []
    for v, ks in _by_value(keys).items():
        for iv in out:
            if (len(iv) == 1 and v == iv[0]) or (len(iv) == 2 and float(iv[0]) < v <= float(iv[1])):
                out[iv] += ks
                break
    return out


def bucket_f1(gold: Dict[str, Dict[str, Value]], system: Dict[str, Dict[str, Value]]
              ) -> Dict[str, Dict[Bucket, Tuple[float, int]]]:
    """Per attribute, per bucket (InterpretEval's key), (F1, gold keys in the bucket), buckets sorted."""
    out: Dict[str, Dict[Bucket, Tuple[float, int]]] = {}
    for aspect, (kind, setting) in ASPECTS.items():
        g = _gold_buckets(kind, setting, gold[aspect])
        s = _interval_buckets(system[aspect], list(g))
        res = {}
        for iv, true in g.items():
            pred = s[iv]
            correct = len(set(true) & set(pred))
            res[iv] = (measures.prf(correct, len(pred) - correct, len(true) - correct)[2], len(true))
        out[aspect] = dict(sorted(res.items()))
    return out


# ---------------------------------------------------------------------------
# as attributes of ts_eval's analysis (buckets interpreteval)

#: InterpretEval's attributes of spans; its token-level tCon and tFre put tokens, not spans, in
#: buckets and stay with :func:`bucket_f1`
SPAN_ASPECTS = ("eLen", "sLen", "eDen", "oDen", "eFre", "eCon", "tag")

DESCRIPTIONS = {
    "eLen": "InterpretEval eLen: span length in tokens", "sLen": "InterpretEval sLen: the gold sentence's length",
    "eDen": "InterpretEval eDen: the gold sentence's entity tokens / tokens",
    "oDen": "InterpretEval oDen: the sentence's tokens not in the training vocabulary / tokens",
    "eFre": "InterpretEval eFre: the span string's training frequency / the fifth-highest",
    "eCon": "InterpretEval eCon: the share of the span string's training occurrences with its label",
    "tag": "InterpretEval tag: the label (lower case; the six most frequent gold labels)",
}

RULE = ("InterpretEval's buckets: listed values first, then equal counts (a bucket closes above the average), keys "
        "from the previous bucket's value (a system span finds its bucket by low < value <= high, in bucket "
        "order, else it is left out); eCon by fixed intervals; tag: the six most frequent gold labels")


def bucket_name(key: Bucket) -> str:
    """A bucket key as InterpretEval writes it: one value, or the range (low, high]."""
    def fmt(v: Value) -> str:
        return format(float(v), ".3g") if not isinstance(v, str) else v

    return fmt(key[0]) if len(key) == 1 else f"({fmt(key[0])}, {fmt(key[1])}]"


def span_keys(start: Sequence[int], last: Sequence[int], label: Sequence[int], labels: Sequence[str]) -> List[str]:
    return [f"{s}_{e + 1}_{labels[k].lower()}" for s, e, k in zip(start, last, label)]


def interpreteval_attributes(corpus: Corpus, names: Sequence[str], training: Training, text: Text) -> List[Attribute]:
    """InterpretEval's span attributes as analysis attributes, each with every span's bucket given
    (gold's spans by InterpretEval's rule on gold, each system's by its lookup; -1: left out)."""
    from .attributes import CATEGORICAL, NUMERIC, SPAN, Attribute, iob2_tags
    from .buckets import Buckets

    tables = Tables.from_training(training.words, training.tags)
    words = list(text.tokens)
    lengths = [int(x) for x in (corpus.sent_offsets[1:] - corpus.sent_offsets[:-1])]
    labels = list(corpus.labels)

    def side(spans: SpanSet) -> Tuple[List[str], Dict[str, Dict[str, Value]], List[str]]:
        tags = iob2_tags(len(words), spans.start, spans.last, spans.label, labels)
        return tags, {}, span_keys(spans.start.tolist(), spans.last.tolist(), spans.label.tolist(), labels)

    gold_tags, _, gold_keys = side(corpus.gold)
    gold_vals = values(words, gold_tags, lengths, gold_tags, tables)
    systems = []
    for n in names:
        tags, _, keys = side(corpus.systems[n])
        systems.append((values(words, tags, lengths, gold_tags, tables), keys))
    out = []
    for aspect in SPAN_ASPECTS:
        kind, setting = ASPECTS[aspect]
        g = _gold_buckets(kind, setting, gold_vals[aspect])
        order = sorted(g)                                       # InterpretEval reports its buckets sorted
        index = {key: order.index(key) for key in g}
        where = {k: index[key] for key, ks in g.items() for k in ks}
        parts = [np.array([where.get(k, -1) for k in gold_keys], np.int64)]
        for vals, keys in systems:
            s = _interval_buckets(vals[aspect], list(g))
            w = {k: index[key] for key, ks in s.items() for k in ks}
            parts.append(np.array([w.get(k, -1) for k in keys], np.int64))
        bucket_names = [bucket_name(k) for k in order]
        ranges: List[Optional[List[float]]] = [
            None if kind == "discrete" else [float(str(k[0])), float(str(k[-1]))] for k in order]
        bk = Buckets(bucket_names, RULE, CATEGORICAL, values=bucket_names, ranges=ranges)
        out.append(Attribute(aspect, SPAN, CATEGORICAL if kind == "discrete" else NUMERIC, DESCRIPTIONS[aspect],
                             lambda *a: np.zeros(0), source="InterpretEval",
                             extra={"assigned": (bk, np.concatenate(parts), None), "keys": order}))
    return out
