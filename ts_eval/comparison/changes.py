"""What changed from one reference to another of the same tokens (:mod:`ts_eval.comparison.references` says
how the spans are paired), apart from the reading of the files, so that the rankings under two references
(:mod:`ts_eval.ranking.references`) can use it without the readers; and how several references are chosen
among a corpus's sides (:func:`reference_sides`) and one of them made the gold (:func:`under`)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SpanSet
from ..core.matching import Pairs, match, one_to_one
from ..errors import OptionError

#: the kinds of change, in the order results list them
CHANGE_KINDS = ("added", "removed", "relabelled", "rebounded")


@dataclass(frozen=True)
class SpanChange:
    """One change from A to B: ``before`` and ``after`` are ``(label, first, last)`` with the first and last
    token (inclusive) counted in the sentence, None where the span is not there (added, removed)."""

    kind: str
    sentence: int                                   # 0-based sentence index
    tokens: Tuple[str, ...]                         # the sentence's tokens (empty when the corpus has none)
    before: Optional[Tuple[str, int, int]]
    after: Optional[Tuple[str, int, int]]

    def to_dict(self) -> Dict[str, Any]:
        def side(s: Optional[Tuple[str, int, int]]) -> Optional[Dict[str, Any]]:
            if s is None:
                return None
            return {"label": s[0], "first": s[1], "last": s[2], "text": " ".join(self.tokens[s[1]:s[2] + 1])}

        return {"kind": self.kind, "sentence": self.sentence, "before": side(self.before), "after": side(self.after)}


@dataclass
class ReferenceChanges:
    """What changed from reference A to reference B (see the module docstring)."""

    reference_a: str
    reference_b: str
    sentences: int
    counts: Dict[str, int]                          # kind -> changes
    labels: Dict[str, Dict[str, int]]               # label -> kind -> changes (A's label; B's for added)
    transitions: Dict[str, int]                     # "LOC → ORG" -> relabelled spans
    changed_sentences: List[int]                    # 0-based, ascending
    changes: List[SpanChange]
    only_a: np.ndarray = field(repr=False)          # (start, last, label, kind) rows in A and not in B
    only_b: np.ndarray = field(repr=False)          # ... in B and not in A (kind: index into CHANGE_KINDS)

    def to_dict(self) -> Dict[str, Any]:
        return {"reference_a": self.reference_a, "reference_b": self.reference_b, "sentences": self.sentences,
                **self.counts, "labels": self.labels, "transitions": self.transitions,
                "changed_sentences": list(self.changed_sentences), "changes": [c.to_dict() for c in self.changes]}


# ---------------------------------------------------------------------------
# the changes


def _side(corpus: Corpus, name: Optional[str]) -> SpanSet:
    if name is None:
        return corpus.gold
    if name not in corpus.systems:
        raise OptionError(f"no side called {name!r}; the corpus has {', '.join(corpus.systems) or 'no systems'}",
                          option="reference", value=name)
    return corpus.systems[name]


def _same_bounds(p: Pairs) -> np.ndarray:
    same: np.ndarray = (p.gold_only == 0) & (p.system_only == 0)
    return same


def pair_references(a: SpanSet, b: SpanSet) -> Dict[str, Tuple[np.ndarray, np.ndarray]]:
    """A's and B's span indices of every kind of pair: ``unchanged``, ``relabelled``, ``rebounded`` (index
    arrays of A, of B, paired), ``removed`` (A's, none of B) and ``added`` (B's)."""
    p = match(a, b)
    used_a, used_b = np.zeros(len(a), bool), np.zeros(len(b), bool)
    out: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
    steps = (("unchanged", _same_bounds(p) & p.same_label), ("relabelled", _same_bounds(p) & ~p.same_label),
             ("rebounded", ~_same_bounds(p) & p.same_label))
    for kind, ok in steps:
        chosen = one_to_one(p, ok & ~used_a[p.gold] & ~used_b[p.system])
        ia, ib = p.gold[chosen], p.system[chosen]
        used_a[ia] = True
        used_b[ib] = True
        out[kind] = (ia, ib)
    none = np.zeros(0, np.int64)
    out["removed"] = (np.flatnonzero(~used_a), none)
    out["added"] = (none, np.flatnonzero(~used_b))
    return out


def _rows(s: SpanSet, kinds: Dict[str, Tuple[np.ndarray, np.ndarray]], side: int) -> np.ndarray:
    """(start, last, label, kind) of one side's spans in changes (kind: index into :data:`CHANGE_KINDS`)."""
    parts = [(kinds[k][side], CHANGE_KINDS.index(k)) for k in CHANGE_KINDS if len(kinds[k][side])]
    if not parts:
        return np.zeros((0, 4), np.int64)
    idx = np.concatenate([i for i, _ in parts])
    kind = np.concatenate([np.full(len(i), k, np.int64) for i, k in parts])
    rows: np.ndarray = np.stack([s.start[idx], s.last[idx], s.label[idx].astype(np.int64), kind], axis=1)
    return rows


def reference_changes(corpus: Corpus, b: str, a: Optional[str] = None) -> ReferenceChanges:
    """What changed from reference A (``a``: a side of ``corpus``; None: its gold) to reference B (the
    side ``b``), as the module docstring says."""
    sa, sb = _side(corpus, a), _side(corpus, b)
    if a == b:
        raise OptionError("the two references are the same side", option="reference", value=b)
    kinds = pair_references(sa, sb)
    labels = corpus.labels
    counts = {k: int(len(kinds[k][0]) or len(kinds[k][1])) for k in CHANGE_KINDS}
    per_label: Dict[str, Dict[str, int]] = {}
    changes: List[Tuple[int, int, SpanChange]] = []
    for kind in CHANGE_KINDS:
        ia, ib = kinds[kind]
        n = max(len(ia), len(ib))
        for k in range(n):
            ja = int(ia[k]) if len(ia) else None
            jb = int(ib[k]) if len(ib) else None
            changes.append(_change(corpus, kind, sa, ja, sb, jb))
            label = labels[int(sa.label[ja])] if ja is not None else labels[int(sb.label[jb])]
            per_label.setdefault(label, {w: 0 for w in CHANGE_KINDS})[kind] += 1
    transitions: Dict[str, int] = {}
    for ja, jb in zip(*(x.tolist() for x in kinds["relabelled"])):
        key = f"{labels[int(sa.label[ja])]} → {labels[int(sb.label[jb])]}"
        transitions[key] = transitions.get(key, 0) + 1
    changes.sort(key=lambda t: (t[0], t[1]))
    listed = [c for _, _, c in changes]
    only_a, only_b = _rows(sa, kinds, 0), _rows(sb, kinds, 1)
    return ReferenceChanges(a or corpus.gold_info.name, b, corpus.n_sentences, counts,
                            dict(sorted(per_label.items())), dict(sorted(transitions.items())),
                            sorted({c.sentence for c in listed}), listed, only_a, only_b)


def _change(corpus: Corpus, kind: str, sa: SpanSet, ja: Optional[int], sb: SpanSet, jb: Optional[int]
            ) -> Tuple[int, int, SpanChange]:
    """One change, with the sort key (first token, kind's order) the list is in."""
    first = int(sa.start[ja]) if ja is not None else int(sb.start[jb])
    sentence = int(corpus.sentence_of(np.array([first]))[0])
    offset = int(corpus.sent_offsets[sentence])
    tokens = tuple(corpus.tokens(offset, int(corpus.sent_offsets[sentence + 1]))) if corpus.tokens else ()

    def side(s: SpanSet, j: Optional[int]) -> Optional[Tuple[str, int, int]]:
        if j is None:
            return None
        return corpus.labels[int(s.label[j])], int(s.start[j]) - offset, int(s.last[j]) - offset

    return first, CHANGE_KINDS.index(kind), SpanChange(kind, sentence, tokens, side(sa, ja), side(sb, jb))



def as_gold(corpus: Corpus, reference: str, systems: Sequence[str]) -> Corpus:
    """The corpus with the side ``reference`` as gold and ``systems`` as its systems."""
    return dataclasses.replace(corpus, gold=corpus.systems[reference], gold_info=corpus.system_info[reference],
                               systems={n: corpus.systems[n] for n in systems},
                               system_info={n: corpus.system_info[n] for n in systems})



def reference_systems(corpus: Corpus, a: Optional[str], b: str, systems: Optional[Sequence[str]]) -> List[str]:
    """The systems to score under references ``a`` (None: the gold) and ``b``: ``systems``, or every side but
    the references; an :class:`OptionError` for a side the corpus lacks, a reference, or none at all."""
    names = [n for n in corpus.systems if n not in (a, b)] if systems is None else list(systems)
    for n in names:
        _side(corpus, n)
        if n in (a, b):
            raise OptionError(f"{n!r} is a reference, not a system", option="systems", value=n)
    if not names:
        raise OptionError("no system besides the references", option="systems", value=systems)
    return names


def reference_sides(corpus: Corpus, references: Sequence[str], systems: Optional[Sequence[str]] = None, *,
                    gold_first: bool = True) -> Tuple[List[str], List[str]]:
    """(references, systems) checked: two or more distinct references, each the gold's name or a side of
    ``corpus`` (the gold's the first of them unless not ``gold_first``); the systems (default: every side that is
    no reference), none of them a reference."""
    refs = list(references)
    if len(refs) < 2:
        raise OptionError("several references are two or more", option="references", value=refs)
    gold = corpus.gold_info.name or "gold"
    for k, r in enumerate(refs):
        if r in refs[:k]:
            raise OptionError(f"the reference {r!r} is given twice; name the references apart",
                              option="references", value=r)
        if r != gold and r not in corpus.systems:
            raise OptionError(f"no side called {r!r}; the corpus has {', '.join([gold, *corpus.systems])}",
                              option="references", value=r)
    if gold_first and gold in refs[1:] and gold not in corpus.systems:
        raise OptionError(f"the gold ({gold!r}) is a reference: it comes first", option="references", value=refs)
    names = [n for n in corpus.systems if n not in refs] if systems is None else list(systems)
    for n in names:
        if n in refs:
            raise OptionError(f"{n!r} is a reference, not a system", option="systems", value=n)
        if n not in corpus.systems:
            raise OptionError(f"no system called {n!r}", option="systems", value=n)
    if not names:
        raise OptionError("no system besides the references", option="systems", value=systems)
    return refs, names


def under(corpus: Corpus, reference: str, systems: Sequence[str]) -> Corpus:
    """The corpus with ``reference`` (the gold's name or a side) as gold and ``systems`` as its systems."""
    if reference in corpus.systems:
        return as_gold(corpus, reference, systems)
    return dataclasses.replace(corpus, systems={n: corpus.systems[n] for n in systems},
                               system_info={n: corpus.system_info[n] for n in systems})


def side_of(corpus: Corpus, reference: str) -> Optional[str]:
    """``reference`` as the functions of :mod:`.references` take a side: None for the gold."""
    return reference if reference in corpus.systems else None
