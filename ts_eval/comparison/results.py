"""What a comparison produces: plain dataclasses whose ``to_dict()`` is the JSON output.

Results hold data only (tokens, spans with their roles, counts, shares); how an
example sentence is written out is the pages and renderers' job (:mod:`ts_eval.output.builders.compare`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ..results.display import Displayed, listing, number
from ..results.vocabulary import layout

CLASSES = ("correction", "new_error", "changed_error")
CLASS_TITLES = {"correction": "Corrections", "new_error": "New errors", "changed_error": "Changed errors"}
GOLD_OUTCOMES = ("TP", "LE", "BES", "BEL", "BEO", "LBE", "FN")
SYSTEM_OUTCOMES = ("TP", "LE", "BES", "BEL", "BEO", "LBE", "FP")
ARROW = " → "
VIEWS = ("auto", "tag", "label")


@dataclass
class Transition:
    """One kind of change and how often it occurs."""

    labels: Tuple[str, ...]      # (A, B), or (gold, A, B) for changed errors
    count: int
    share_of_class: float        # count / changes of its class (the paper's Table 4)
    share_of_diff: float         # count / all changes (the paper's Table 8)

    @property
    def name(self) -> str:
        return ARROW.join(self.labels)

    def to_dict(self) -> Dict[str, Any]:
        return {"transition": self.name, "labels": list(self.labels), "count": self.count,
                "share_of_class": self.share_of_class, "share_of_diff": self.share_of_diff}


@dataclass
class ChangeClass:
    """Corrections, new errors or changed errors: count, share of all changes, top transitions."""

    name: str
    count: int
    share: float
    distinct: int                 # distinct transitions of this class
    top: List[Transition]

    def to_dict(self) -> Dict[str, Any]:
        return {"count": self.count, "share": self.share, "distinct_transitions": self.distinct,
                "top": [t.to_dict() for t in self.top]}


@dataclass
class TokenDiff:
    """Algorithm 1 on tokens for one pair (A baseline, B new system)."""

    a: str
    b: str
    tokens: int
    differing: int
    diff: float
    accuracy_a: float
    accuracy_b: float
    correct_sentences_a: float
    correct_sentences_b: float
    classes: Dict[str, ChangeClass]
    per_label: List[Dict[str, Any]]   # per gold token label: tokens, accuracies, changes by class

    def to_dict(self) -> Dict[str, Any]:
        d = {k: getattr(self, k) for k in ("a", "b", "tokens", "differing", "diff", "accuracy_a", "accuracy_b",
                                           "correct_sentences_a", "correct_sentences_b")}
        d["delta_accuracy"] = self.accuracy_b - self.accuracy_a
        d["classes"] = {k: c.to_dict() for k, c in self.classes.items()}
        d["per_label"] = self.per_label
        return d


@dataclass
class SpanDiff:
    """Outcomes of gold spans under A and B, spurious spans, and their transitions: Ortmann's fair
    outcomes (``pair.span``) or the SemEval-2013 categories of one scheme (``pair.semeval``)."""

    a: str
    b: str
    gold: int                     # gold spans
    spurious: int                 # distinct spurious spans of A or B (same start, end, label = same span)
    differing: int                # gold spans + spurious spans that changed
    diff: float
    outcomes_a: Dict[str, int]    # gold outcome counts under A (+ the spurious spans of A: fp / spurious)
    outcomes_b: Dict[str, int]
    matrix: List[List[int]]       # gold spans: rows A outcome, columns B outcome (``outcomes``)
    changed_counterpart: Dict[str, int]   # same outcome, other counterpart span, per outcome
    classes: Dict[str, ChangeClass]
    per_label: List[Dict[str, Any]]
    spurious_moves: Dict[str, int]        # FP → TN, TN → FP, FP kept (SemEval: spurious → none, ...)
    outcomes: Tuple[str, ...] = GOLD_OUTCOMES   # the gold outcomes, in the matrix's order

    def to_dict(self) -> Dict[str, Any]:
        d = {k: getattr(self, k) for k in ("a", "b", "gold", "spurious", "differing", "diff",
                                           "outcomes_a", "outcomes_b", "changed_counterpart", "spurious_moves",
                                           "per_label")}
        d["matrix"] = {"rows_a": list(self.outcomes), "columns_b": list(self.outcomes), "counts": self.matrix}
        d["classes"] = {k: c.to_dict() for k, c in self.classes.items()}
        return d


@dataclass
class TSDiff:
    """Per label: TS units that B gets right and A wrong, and vice versa."""

    a: str
    b: str
    separator_weight: float
    per_label: List[Dict[str, Any]]
    total: Dict[str, Any]

    def to_dict(self) -> Dict[str, Any]:
        return {"a": self.a, "b": self.b, "separator_weight": self.separator_weight,
                "per_label": self.per_label, "total": self.total}


@dataclass
class Example:
    """One sentence (or a window of it) with gold, A and B spans, for one transition."""

    level: str                     # token or span
    change_class: str
    transition: str
    sentence: int                  # 0-based sentence index
    first_token: int               # global index of tokens[0]
    tokens: List[str]
    focus: List[int]               # positions in ``tokens`` the transition is about
    spans: Dict[str, List[Tuple[str, int, int]]]   # side -> (label, start, end) positions in ``tokens``, end exclusive
    where: Dict[str, Dict[str, Any]]               # side -> {path, line} of the first focus token
    clipped_left: bool = False
    clipped_right: bool = False

    def to_dict(self) -> Dict[str, Any]:
        d = asdict(self)
        d["spans"] = {k: [list(s) for s in v] for k, v in self.spans.items()}
        return d


@dataclass
class SemevalDiff:
    """The pair under nervaluate's SemEval-2013 schemes: per scheme (strict, exact, partial,
    ent_type) a :class:`SpanDiff` of the gold spans' categories and the spurious spans
    (:mod:`ts_eval.comparison.semeval_spans`)."""

    a: str
    b: str
    min_overlap_percentage: Optional[float]     # nervaluate's, when the threshold is one
    schemes: Dict[str, SpanDiff]
    min_overlap: str = "nervaluate:1"           # the threshold (ts_eval.core.matching.Threshold)
    assignment: str = "many-to-many"

    def to_dict(self) -> Dict[str, Any]:
        return {"a": self.a, "b": self.b, "min_overlap": self.min_overlap,
                "min_overlap_percentage": self.min_overlap_percentage, "assignment": self.assignment,
                "schemes": {k: v.to_dict() for k, v in self.schemes.items()}}


@dataclass
class PairComparison:
    a: str
    b: str
    token: TokenDiff
    span: Optional[SpanDiff]
    ts: TSDiff
    examples: List[Example] = field(default_factory=list)
    semeval: Optional[SemevalDiff] = None     # with ``models`` holding ``semeval``

    def to_dict(self) -> Dict[str, Any]:
        return {"a": self.a, "b": self.b, "token": self.token.to_dict(),
                "span": self.span.to_dict() if self.span is not None else None,
                "ts": self.ts.to_dict(), "examples": [e.to_dict() for e in self.examples],
                "semeval": self.semeval.to_dict() if self.semeval is not None else None}


@dataclass
class MultiComparison:
    """Several systems: pairwise differences, oracle upper bounds, hard and easy gold spans."""

    names: List[str]
    diff_matrix: List[List[float]]
    pairs: List[Dict[str, Any]]
    token_oracle: Dict[str, Any]
    span_oracle: Dict[str, Any]
    found_by: List[int]            # gold spans found exactly by j systems, j = 0..k
    hard_cases: List[Dict[str, Any]]
    easy_cases: List[Dict[str, Any]]
    neighbours: List[Dict[str, Any]] = field(default_factory=list)  # per system: mean, nearest, farthest diff

    def to_dict(self) -> Dict[str, Any]:
        return {"names": self.names, "diff_matrix": self.diff_matrix, "pairs": self.pairs,
                "neighbours": self.neighbours,
                "token_oracle": self.token_oracle, "span_oracle": self.span_oracle,
                "found_by": self.found_by, "hard_cases": self.hard_cases, "easy_cases": self.easy_cases}


@dataclass
class Comparison(Displayed):
    """Everything ``ts-eval compare`` shows; ``to_dict()`` is the JSON output.

    ``str``: the systems table (terminal); ``repr``: one line per system with its exact-match
    scores and token accuracy; ``_repr_html_``: the HTML page (:mod:`ts_eval.results.display`)."""

    settings: Dict[str, Any]
    corpus: Dict[str, Any]
    systems: List[Dict[str, Any]]
    pair: Optional[PairComparison]
    multi: Optional[MultiComparison]

    def to_dict(self) -> Dict[str, Any]:
        return {"layout": layout("compare"), "settings": self.settings, "corpus": self.corpus,
                "systems": self.systems,
                "pair": self.pair.to_dict() if self.pair is not None else None,
                "multi": self.multi.to_dict() if self.multi is not None else None}

    def __repr__(self) -> str:
        head = (f"<Comparison: {len(self.systems)} systems, {self.corpus.get('tokens')} tokens; "
                "exact-match F (P, R), token accuracy>")
        return listing(head, (f"{s['name']}: F {number(s.get('f'))} (P {number(s.get('precision'))}, "
                              f"R {number(s.get('recall'))}), token accuracy {number(s.get('token_accuracy'))}"
                              for s in self.systems))
