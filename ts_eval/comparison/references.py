"""Two references of the same tokens (an original test set and its correction, two annotators): what
changed from reference A to reference B, and what it does to every system's scores.

The references and the systems sit in one :class:`~ts_eval.core.corpus.Corpus`: reference A is its gold
(or one of its sides) and reference B one of its systems, read as if it were a system
(:func:`read_references`, or ``ts_eval.read(a_path, {"B": b_path, "sys1": ...})``), so the readers check
that the references and every system share tokens and name the first difference otherwise.

**What changed** (:func:`reference_changes`): the shared matcher's pairs of A's and B's spans
(:func:`ts_eval.core.matching.match`) are taken in this order, each span in at most one pair
(:func:`~ts_eval.core.matching.one_to_one` among the candidates of a step): spans in both (same
boundaries, same label: unchanged); *relabelled* (same boundaries, another label); *re-bounded*
(same label, overlapping, other boundaries); what is left of A is *removed*, what is left of B *added*.
A span whose label and boundaries both change is one removed and one added span (neither its label
nor its boundaries tie it to the other).  A sentence *differs* when it holds a changed span.

**What it does to a system** (:func:`compare_references`): a span (first token, last token, label) is an
error of a system under a reference when exactly one of them has it (a false positive or a false
negative of exact match).  A span that differs between A and B (a change's before or after) is an error
under exactly one of them, whatever the system does: ``wrong_a_right_b`` counts the spans whose error
under A is no error under B (gold's errors the system got right), ``right_a_wrong_b`` the reverse (the
corrections it gets wrong); every other span is an error under both or under neither, so the system's
errors under B are its errors under A - ``wrong_a_right_b`` + ``right_a_wrong_b``.  Its scores (every
ranking model's, from the per-sentence statistics of :mod:`ts_eval.ranking.sufficient`) are given under
A and B on the whole corpus, on the changed sentences and on the unchanged ones: the unchanged sentences
hold the same spans in A and B, so they score the same under both, and the whole difference is the
changed sentences'.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SpanSet
from ..core.matching import Pairs, match, one_to_one
from ..errors import OptionError
from ..ranking.sufficient import resolve_models, sentence_statistics

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


@dataclass
class SystemUnderReferences:
    """One system under A and B: the errors that change sides, its scores per model (``scores[model]``:
    ``score_a``, ``score_b``, ``difference`` = B - A, and the same on ``changed`` and ``unchanged`` sentences)."""

    name: str
    errors_a: int
    errors_b: int
    wrong_a_right_b: int
    right_a_wrong_b: int
    scores: Dict[str, Dict[str, Dict[str, float]]]  # model -> part (whole, changed, unchanged) -> numbers
    kinds: Dict[str, Dict[str, int]] = field(default_factory=dict)   # kind of change -> the two counts

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "errors_a": self.errors_a, "errors_b": self.errors_b,
                "wrong_a_right_b": self.wrong_a_right_b, "right_a_wrong_b": self.right_a_wrong_b, "kinds": self.kinds,
                "models": {m: {part: {k: None if np.isnan(v) else v for k, v in numbers.items()}
                               for part, numbers in per.items()} for m, per in self.scores.items()}}


@dataclass
class ReferenceComparison:
    """:func:`compare_references`'s result: the changes and every system under both references."""

    changes: ReferenceChanges
    models: List[str]
    systems: List[SystemUnderReferences]

    def system(self, name: str) -> SystemUnderReferences:
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_dict(self) -> Dict[str, Any]:
        return {"changes": self.changes.to_dict(), "model_names": list(self.models),
                "systems": [s.to_dict() for s in self.systems]}


# ---------------------------------------------------------------------------
# reading


def read_references(reference_a: str, reference_b: str, systems: Mapping[str, str] | Sequence[str] = (), *,
                    names: Tuple[str, str] = ("A", "B"), **options: Any) -> Corpus:
    """Reference A (gold, named ``names[0]``) and reference B and the systems as one Corpus: B is the system
    ``names[1]`` (``systems``: paths, or a mapping name -> path; ``options`` as :func:`ts_eval.read` takes them).  The
    readers check that B and every system hold A's tokens, naming the first difference otherwise."""
    from ..io.api import read_pair
    from ..io.source import system_name

    items = list(systems.items()) if isinstance(systems, Mapping) else [
        (system_name(str(p)) or f"system{k + 1}", str(p)) for k, p in enumerate(systems)]
    if names[0] == names[1]:
        raise OptionError("the two references need two names", option="names", value=names)
    if any(n == names[1] for n, _ in items):
        raise OptionError(f"a system is called {names[1]!r}, the name of reference B; name the references otherwise",
                          option="names", value=names)
    sides = (f"reference {names[0]}", f"reference {names[1]}", *("system" for _ in items))
    corpus = read_pair(reference_a, {names[1]: reference_b, **dict(items)}, sides=sides, **options)
    corpus.gold_info.name = names[0]        # what the result calls reference A
    return corpus


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


# ---------------------------------------------------------------------------
# the systems


def _members(rows: np.ndarray, system: SpanSet) -> np.ndarray:
    """Which (start, last, label, ...) rows the system has (boundaries and label the same)."""
    if not len(rows):
        return np.zeros(0, bool)
    ref = SpanSet(rows[:, 0].copy(), rows[:, 1].copy(), rows[:, 2].astype(np.int32))
    p = match(ref, system)
    has = np.zeros(len(rows), bool)
    has[p.gold[_same_bounds(p) & p.same_label]] = True
    return has


def _exact_errors(reference: SpanSet, system: SpanSet) -> int:
    """False positives + false negatives of exact match (boundaries and label the same)."""
    p = match(reference, system)
    hits = int(np.count_nonzero(_same_bounds(p) & p.same_label))
    return len(reference) + len(system) - 2 * hits


def as_gold(corpus: Corpus, reference: str, systems: Sequence[str]) -> Corpus:
    """The corpus with the side ``reference`` as gold and ``systems`` as its systems."""
    return dataclasses.replace(corpus, gold=corpus.systems[reference], gold_info=corpus.system_info[reference],
                               systems={n: corpus.systems[n] for n in systems},
                               system_info={n: corpus.system_info[n] for n in systems})


def compare_references(corpus: Corpus, b: str, a: Optional[str] = None, systems: Optional[Sequence[str]] = None,
                       models: Optional[Sequence[str]] = None) -> ReferenceComparison:
    """What changed from reference A (``a``: a side of ``corpus``; None: its gold) to reference B (the side
    ``b``) and every system (``systems``; default: every side but the references) under both: its errors
    that change sides and its scores under every model of ``models`` (default: ``rank``'s default models)
    on the whole corpus, the changed sentences and the unchanged ones (see the module docstring)."""
    changes = reference_changes(corpus, b, a)
    names = [n for n in corpus.systems if n not in (a, b)] if systems is None else list(systems)
    for n in names:
        _side(corpus, n)
        if n in (a, b):
            raise OptionError(f"{n!r} is a reference, not a system", option="systems", value=n)
    if not names:
        raise OptionError("no system besides the references", option="systems", value=systems)
    under_a = corpus if a is None else as_gold(corpus, a, names)
    under_b = as_gold(corpus, b, names)
    chosen = resolve_models(models, under_a)
    changed = np.zeros(corpus.n_sentences, bool)
    changed[changes.changed_sentences] = True
    scored = [_scores(c, chosen, names, changed) for c in (under_a, under_b)]
    out = []
    for k, name in enumerate(names):
        ss = corpus.systems[name]
        # a span only A has is an error under A when the system lacks it; one only B has when it has it
        right_b = np.r_[~_members(changes.only_a, ss), _members(changes.only_b, ss)]
        kind = np.r_[changes.only_a[:, 3], changes.only_b[:, 3]]
        per_kind = {w: {"wrong_a_right_b": int(np.count_nonzero(right_b & (kind == j))),
                        "right_a_wrong_b": int(np.count_nonzero(~right_b & (kind == j)))}
                    for j, w in enumerate(CHANGE_KINDS)}
        per = {m.name: _parts(scored[0][:, k, j], scored[1][:, k, j]) for j, m in enumerate(chosen)}
        errors = _exact_errors(_side(corpus, a), ss), _exact_errors(corpus.systems[b], ss)
        out.append(SystemUnderReferences(name, *errors, int(np.count_nonzero(right_b)),
                                         int(np.count_nonzero(~right_b)), per, per_kind))
    return ReferenceComparison(changes, [m.name for m in chosen], out)


def _scores(corpus: Corpus, models: Sequence[Any], names: Sequence[str], changed: np.ndarray) -> np.ndarray:
    """(3, systems, models): every model's score of every system on the whole corpus, the changed sentences
    and the unchanged ones."""
    from ..ranking.sufficient import StatsMatrix

    data, cols = sentence_statistics(corpus, models, names)
    matrix = StatsMatrix(list(names), list(models), data, cols)
    sums = np.stack([data.sum(0), data[changed].sum(0), data[~changed].sum(0)]).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores: np.ndarray = matrix.scores(sums)
    return scores


def _parts(a: np.ndarray, b: np.ndarray) -> Dict[str, Dict[str, float]]:
    """score_a, score_b and their difference on the whole corpus, changed and unchanged sentences."""
    return {part: {"score_a": float(a[k]), "score_b": float(b[k]), "difference": float(b[k] - a[k])}
            for k, part in enumerate(("whole", "changed", "unchanged"))}
