"""Comparative evaluation of system outputs (Tuggener): what changed between a baseline
A and a new system B, judged against gold, and how far all the systems together could go.

- **Token level** (the paper's equation 1 and Algorithm 1, vectorised): diff(A, B) is the
  share of tokens whose label differs between A and B, whatever gold says; every such
  token is a *correction* (B right), a *new error* (A right) or a *changed error* (both
  wrong), counted per transition ``A → B`` (``gold → A → B`` for changed errors).
- **Span level**: every gold span's fair outcome (Ortmann's TP, LE, BES, BEL, BEO, LBE, FN,
  from :mod:`ts_eval.fair`, which reads the shared matcher's pairs) under A and under B,
  and every spurious system span (FP); a gold span differs when its outcome or its
  counterpart span differs.  B = TP is a correction, A = TP a new error, else a changed
  error; a spurious span that B drops is ``FP → TN`` (a correction, as in the paper's
  Table 8), one that B adds ``TN → FP`` (a new error).
- **TS level**: per label, the token and separator units (:mod:`ts_eval.events`) that B
  gets right and A wrong, and vice versa.
- **Several systems** (section 3): the pairwise diff matrix, the oracle upper bounds (a
  token is right if any system tags it right; a gold span is found if any system finds it
  exactly), overall and per label next to the best single system, and the gold spans no
  system finds (hard cases) and those every system finds (easy cases).

A token's label is its tag as read (``view="tag"``, conlleval's token accuracy) or the
label of the spans covering it, ``O`` outside any span and ``A+B`` under nested spans
(``view="label"``: after decoding and label mapping; the only view for span input).
``-DOCSTART-`` lines are not tokens here (conlleval counts them as correct ``O`` tokens).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import measures
from .arrays import unique

from .corpus import Corpus, SpanSet
from .errors import UsageError
from .events import paint, merge_overlaps
from .matching import Pairs, match

CLASSES = ("correction", "new_error", "changed_error")
CLASS_TITLES = {"correction": "Corrections", "new_error": "New errors", "changed_error": "Changed errors"}
GOLD_OUTCOMES = ("TP", "LE", "BES", "BEL", "BEO", "LBE", "FN")
SYSTEM_OUTCOMES = ("TP", "LE", "BES", "BEL", "BEO", "LBE", "FP")
ARROW = " → "
_BITS = 31      # labels per painting pass (as in events.py)
VIEWS = ("auto", "tag", "label")


# ---------------------------------------------------------------------------
# result pieces

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
    """Fair outcomes of gold spans under A and B, spurious spans, and their transitions."""

    a: str
    b: str
    gold_spans: int
    spurious: int                 # distinct spurious spans of A or B (same start, end, label = same span)
    differing: int                # gold spans + spurious spans that changed
    diff: float
    outcomes_a: Dict[str, int]    # gold outcome counts under A (+ FP: spurious spans of A)
    outcomes_b: Dict[str, int]
    matrix: List[List[int]]       # gold spans: rows A outcome, columns B outcome (GOLD_OUTCOMES)
    changed_counterpart: Dict[str, int]   # same outcome, other counterpart span, per outcome
    classes: Dict[str, ChangeClass]
    per_label: List[Dict[str, Any]]
    spurious_moves: Dict[str, int]        # FP → TN, TN → FP, FP kept

    def to_dict(self) -> Dict[str, Any]:
        d = {k: getattr(self, k) for k in ("a", "b", "gold_spans", "spurious", "differing", "diff",
                                           "outcomes_a", "outcomes_b", "changed_counterpart", "spurious_moves",
                                           "per_label")}
        d["matrix"] = {"rows_a": list(GOLD_OUTCOMES), "columns_b": list(GOLD_OUTCOMES), "counts": self.matrix}
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
    spans: Dict[str, List[Tuple[str, int, int]]]   # side -> (label, first, last) positions in ``tokens``
    where: Dict[str, Dict[str, Any]]               # side -> {path, line} of the first focus token
    clipped_left: bool = False
    clipped_right: bool = False

    def to_dict(self) -> Dict[str, Any]:
        d = asdict(self)
        d["spans"] = {k: [list(s) for s in v] for k, v in self.spans.items()}
        d["inline"] = {side: inline_text(self, side) for side in self.spans}
        return d


@dataclass
class PairComparison:
    a: str
    b: str
    token: TokenDiff
    span: Optional[SpanDiff]
    ts: TSDiff
    examples: List[Example] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        return {"a": self.a, "b": self.b, "token": self.token.to_dict(),
                "span": self.span.to_dict() if self.span is not None else None,
                "ts": self.ts.to_dict(), "examples": [e.to_dict() for e in self.examples]}


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
class Comparison:
    """Everything ``ts-eval compare`` shows; ``to_dict()`` is the JSON output."""

    settings: Dict[str, Any]
    corpus: Dict[str, Any]
    systems: List[Dict[str, Any]]
    pair: Optional[PairComparison]
    multi: Optional[MultiComparison]

    def to_dict(self) -> Dict[str, Any]:
        return {"settings": self.settings, "corpus": self.corpus, "systems": self.systems,
                "pair": self.pair.to_dict() if self.pair is not None else None,
                "multi": self.multi.to_dict() if self.multi is not None else None}


# ---------------------------------------------------------------------------
# token level: plain arrays

def diff(x: np.ndarray, y: np.ndarray) -> float:
    """The paper's equation 1: the share of positions whose labels differ (1 - overlap)."""
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape:
        raise ValueError(f"label arrays differ in length: {x.shape} vs {y.shape}")
    return float(np.count_nonzero(x != y)) / len(x) if len(x) else 0.0


def correct_overlap(gold: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """Overlap on correct answers (the paper's Table 1): 2|C_x ∩ C_y| / (|C_x| + |C_y|).

    C_x are the positions x gets right.  The paper's toy systems all have three correct
    answers, so its ratio (shared / correct) is this Dice coefficient.
    """
    cx, cy = np.asarray(x) == gold, np.asarray(y) == gold
    den = int(cx.sum() + cy.sum())
    return 2.0 * float(np.count_nonzero(cx & cy)) / den if den else 0.0


def change_masks(gold: np.ndarray, a: np.ndarray, b: np.ndarray) -> Dict[str, np.ndarray]:
    """Algorithm 1's three classes as masks over positions (they partition ``a != b``)."""
    d = a != b
    correction = d & (b == gold)
    new_error = d & (a == gold)
    return {"correction": correction, "new_error": new_error, "changed_error": d & ~correction & ~new_error}


def _top_transitions(keys: np.ndarray, names: Callable[[int], Tuple[str, ...]], total_diff: int,
                     top: Optional[int]) -> Tuple[int, List[Transition]]:
    """Distinct keys by count (descending, ties by name), the first ``top`` as Transitions."""
    if not len(keys):
        return 0, []
    uniq, cnt = np.unique(keys, return_counts=True)
    named = sorted(((int(c), names(int(u))) for u, c in zip(uniq, cnt)), key=lambda t: (-t[0], t[1]))
    n_class = int(cnt.sum())
    shown = named if top is None else named[:top]
    return len(uniq), [Transition(lab, c, c / n_class, c / total_diff if total_diff else 0.0) for c, lab in shown]


def token_changes(gold: np.ndarray, a: np.ndarray, b: np.ndarray, vocab: Sequence[str],
                  top: Optional[int] = 5) -> Tuple[int, Dict[str, ChangeClass]]:
    """Algorithm 1 over id arrays: (differing positions, the three classes with top transitions)."""
    gold, a, b = (np.asarray(v, np.int64) for v in (gold, a, b))
    masks = change_masks(gold, a, b)
    n_diff = int(np.count_nonzero(a != b))
    V = max(len(vocab), 1)
    out = {}
    for cls in CLASSES:
        m = masks[cls]
        if cls == "changed_error":
            keys = (gold[m] * V + a[m]) * V + b[m]
            name = (lambda k: (vocab[k // (V * V)], vocab[(k // V) % V], vocab[k % V]))
        else:
            keys = a[m] * V + b[m]
            name = (lambda k: (vocab[k // V], vocab[k % V]))
        distinct, tops = _top_transitions(keys, name, n_diff, top)
        cnt = int(m.sum())
        out[cls] = ChangeClass(cls, cnt, cnt / n_diff if n_diff else 0.0, distinct, tops)
    return n_diff, out


# ---------------------------------------------------------------------------
# token labels of a corpus

def _label_masks(corpus: Corpus, spans: SpanSet) -> np.ndarray:
    """(tokens, passes) int64: per token the bitmask of the labels of spans covering it."""
    n, L = corpus.n_tokens, len(corpus.labels)
    m = merge_overlaps(spans)
    cols = []
    for lo in range(0, max(L, 1), _BITS):
        sub = m.take((m.label >= lo) & (m.label < lo + _BITS))
        bits = np.left_shift(1, (sub.label - lo).astype(np.int64))
        cols.append(paint(sub, bits, n, sub.start, sub.end))
    return np.stack(cols, axis=1)


def token_labels(corpus: Corpus, names: Sequence[str], view: str = "auto") -> Tuple[str, List[str], np.ndarray]:
    """(view used, vocabulary, (1 + len(names), tokens) ids): row 0 gold, then the systems.

    ``tag``: the tags as read (needs per-token tags on every side); ``label``: the labels of
    the covering spans; ``auto``: tags when every side has them and no label map was
    applied, else labels.
    """
    if view not in VIEWS:
        raise UsageError(f"unknown token view {view!r}; expected one of {', '.join(VIEWS)}")
    infos = [corpus.gold_info] + [corpus.system_info[n] for n in names]
    have_tags = all(i.tags is not None for i in infos) and bool(corpus.tag_vocab)
    if view == "tag" and not have_tags:
        raise UsageError("token view 'tag' needs per-token tags on every side (read from files or tag "
                         "sequences); use view 'label'")
    if view == "auto":
        view = "tag" if have_tags and not corpus.label_map else "label"
    if view == "tag":
        return view, list(corpus.tag_vocab), np.stack([i.tags.astype(np.int64) for i in infos])
    sides = [corpus.gold] + [corpus.systems[n] for n in names]
    masks = np.concatenate([_label_masks(corpus, s) for s in sides])
    if masks.shape[1] == 1:
        uniq, inv = np.unique(masks[:, 0], return_inverse=True)
        rows = uniq[:, None]
    else:
        rows, inv = np.unique(masks, axis=0, return_inverse=True)
    vocab = []
    for row in rows:
        labs = [corpus.labels[p * _BITS + k] for p, v in enumerate(row.tolist()) for k in range(_BITS)
                if (v >> k) & 1]
        vocab.append("+".join(labs) if labs else "O")
    return view, vocab, inv.reshape(len(sides), corpus.n_tokens).astype(np.int64)


def _correct_sentences(corpus: Corpus, right: np.ndarray) -> float:
    if corpus.n_sentences == 0:
        return 0.0
    wrong = np.add.reduceat((~right).astype(np.int64), corpus.sent_offsets[:-1])
    return float(np.count_nonzero(wrong == 0)) / corpus.n_sentences


def _ratio(a, b) -> float:
    return float(a) / float(b) if b else 0.0


def token_diff(corpus: Corpus, a: str, b: str, gold_ids: np.ndarray, a_ids: np.ndarray, b_ids: np.ndarray,
               vocab: Sequence[str], top: Optional[int]) -> TokenDiff:
    n = len(gold_ids)
    n_diff, classes = token_changes(gold_ids, a_ids, b_ids, vocab, top)
    ra, rb = a_ids == gold_ids, b_ids == gold_ids
    masks = change_masks(gold_ids, a_ids, b_ids)
    V = len(vocab)
    per = {"tokens": np.bincount(gold_ids, minlength=V), "right_a": np.bincount(gold_ids[ra], minlength=V),
           "right_b": np.bincount(gold_ids[rb], minlength=V)}
    for cls in CLASSES:
        per[cls] = np.bincount(gold_ids[masks[cls]], minlength=V)
    rows = []
    for k in np.flatnonzero(per["tokens"] > 0).tolist():
        t = int(per["tokens"][k])
        rows.append({"label": vocab[k], "tokens": t, "accuracy_a": _ratio(per["right_a"][k], t),
                     "accuracy_b": _ratio(per["right_b"][k], t),
                     "delta_accuracy": _ratio(int(per["right_b"][k]) - int(per["right_a"][k]), t),
                     **{cls: int(per[cls][k]) for cls in CLASSES}})
    rows.sort(key=lambda r: (-r["tokens"], r["label"]))
    return TokenDiff(a, b, n, n_diff, _ratio(n_diff, n), _ratio(ra.sum(), n), _ratio(rb.sum(), n),
                     _correct_sentences(corpus, ra), _correct_sentences(corpus, rb), classes, rows)


# ---------------------------------------------------------------------------
# span level: fair outcomes

@dataclass
class OutcomeCodes:
    """Per-span fair outcomes of one system as codes into GOLD_OUTCOMES (gold spans) and
    SYSTEM_OUTCOMES (system spans), with the counterpart's index (-1: none)."""

    gold_type: np.ndarray
    gold_partner: np.ndarray
    system_type: np.ndarray
    system_partner: np.ndarray


def fair_outcomes(corpus: Corpus, system: str, pairs: Optional[Pairs] = None, mode: str = "paper") -> OutcomeCodes:
    """Per-span outcomes of one system from :func:`ts_eval.fair.fair_errors` (Ortmann's
    Algorithm 2 on the shared matcher's pairs), recoded into this module's outcome order."""
    from . import fair

    ss = corpus.systems[system]
    if pairs is None:
        pairs = match(corpus.gold, ss)
    o = fair.fair_errors(corpus.gold, ss, pairs, corpus.labels, corpus, mode=mode).outcomes
    return OutcomeCodes(_recode(o.gold_type, fair.OUTCOME_NAMES, GOLD_OUTCOMES),
                        np.asarray(o.gold_partner, np.int64),
                        _recode(o.system_type, fair.OUTCOME_NAMES, SYSTEM_OUTCOMES),
                        np.asarray(o.system_partner, np.int64))


def _recode(codes: np.ndarray, source: Sequence[str], target: Sequence[str]) -> np.ndarray:
    """Outcome codes named by ``source`` -> codes into ``target`` (a code with no place there is an error)."""
    table = np.array([target.index(n) if n in target else -1 for n in source], np.int64)
    out = table[np.asarray(codes, np.int64)] if len(codes) else np.zeros(0, np.int64)
    if np.any(out < 0):
        bad = sorted({source[int(c)] for c in np.asarray(codes)[out < 0]})
        raise ValueError(f"unexpected fair outcome(s) {', '.join(bad)}; expected {', '.join(target)}")
    return out


def _identical(x: SpanSet, y: SpanSet) -> np.ndarray:
    """For every span of x, the index of the identical span (start, end, label) in y, or -1.

    Read from the shared matcher's pairs (its ``exact`` flag), x in the gold role."""
    p = match(x, y)
    out = np.full(len(x), -1, np.int64)
    out[p.gold[p.exact]] = p.system[p.exact]
    return out


def span_diff(corpus: Corpus, a: str, b: str, oa: OutcomeCodes, ob: OutcomeCodes,
              top: Optional[int]) -> Tuple[SpanDiff, Dict[str, Any]]:
    """Transitions of gold spans (A outcome → B outcome) and of spurious spans; also the
    per-unit arrays the examples need."""
    gold, sa, sb = corpus.gold, corpus.systems[a], corpus.systems[b]
    L = len(corpus.labels)
    G = len(GOLD_OUTCOMES)
    TP = GOLD_OUTCOMES.index("TP")
    FP = SYSTEM_OUTCOMES.index("FP")
    ta, tb = oa.gold_type, ob.gold_type
    same_ab = _identical(sa, sb)
    pa, pb = oa.gold_partner, ob.gold_partner
    same_partner = pb < 0                       # both without counterpart, or ...
    has = pa >= 0
    same_partner[has] = same_ab[pa[has]] == pb[has]   # ... B's counterpart is A's, span for span
    changed = (ta != tb) | ~same_partner
    g_cls = np.full(len(gold), -1, np.int64)
    g_cls[changed & (tb == TP)] = 0
    g_cls[changed & (ta == TP)] = 1
    g_cls[changed & (ta != TP) & (tb != TP)] = 2

    # spurious spans: A's FP spans, and B's FP spans that are not identical to one of A's
    fp_a = np.flatnonzero(oa.system_type == FP)
    fp_b = np.flatnonzero(ob.system_type == FP)
    twin = same_ab[fp_a]
    kept = np.zeros(len(fp_a), bool)
    kept[twin >= 0] = ob.system_type[twin[twin >= 0]] == FP
    b_fp_mask = np.zeros(len(sb), bool)
    b_fp_mask[fp_b] = True
    b_twin_of_a_fp = np.zeros(len(sb), bool)
    b_twin_of_a_fp[twin[kept]] = True
    added = np.flatnonzero(b_fp_mask & ~b_twin_of_a_fp)       # TN → FP
    dropped = fp_a[~kept]                                      # FP → TN
    n_spurious = len(fp_a) + len(added)

    n_gold_changed = int(np.count_nonzero(changed))
    n_diff = n_gold_changed + len(dropped) + len(added)
    matrix = np.zeros((G, G), np.int64)
    np.add.at(matrix, (ta, tb), 1)
    cc = np.bincount(ta[changed & (ta == tb)], minlength=G)

    # transition keys: A outcome * W + B outcome for gold spans; two extra keys for spurious spans
    W = G + 1
    gold_key = ta * W + tb
    key_fp_tn, key_tn_fp = W * W, W * W + 1

    def name_of(k: int) -> Tuple[str, str]:
        if k == key_fp_tn:
            return ("FP", "TN")
        if k == key_tn_fp:
            return ("TN", "FP")
        return (GOLD_OUTCOMES[k // W], GOLD_OUTCOMES[k % W])

    keys = {0: np.concatenate([gold_key[g_cls == 0], np.full(len(dropped), key_fp_tn, np.int64)]),
            1: np.concatenate([gold_key[g_cls == 1], np.full(len(added), key_tn_fp, np.int64)]),
            2: gold_key[g_cls == 2]}
    classes = {}
    for k, cls in enumerate(CLASSES):
        distinct, tops = _top_transitions(keys[k], name_of, n_diff, top)
        cnt = len(keys[k])
        classes[cls] = ChangeClass(cls, cnt, _ratio(cnt, n_diff), distinct, tops)

    # per label: gold spans by gold label, spurious spans by their own label
    per = []
    for lab in range(L):
        gmask = gold.label == lab
        row: Dict[str, Any] = {"label": corpus.labels[lab], "gold_spans": int(gmask.sum())}
        drop_l = int(np.count_nonzero(sa.label[dropped] == lab))
        add_l = int(np.count_nonzero(sb.label[added] == lab))
        fp_l = int(np.count_nonzero(sa.label[fp_a] == lab)) + add_l
        row["spurious"] = fp_l
        row["correction"] = int(np.count_nonzero(gmask & (g_cls == 0))) + drop_l
        row["new_error"] = int(np.count_nonzero(gmask & (g_cls == 1))) + add_l
        row["changed_error"] = int(np.count_nonzero(gmask & (g_cls == 2)))
        row["net"] = row["correction"] - row["new_error"]
        units = row["gold_spans"] + fp_l
        row["diff"] = _ratio(row["correction"] + row["new_error"] + row["changed_error"], units)
        row["tp_a"] = int(np.count_nonzero(gmask & (ta == TP)))
        row["tp_b"] = int(np.count_nonzero(gmask & (tb == TP)))
        tr: Dict[str, int] = {}
        sel = gmask & changed
        if sel.any():
            u, c = np.unique(gold_key[sel], return_counts=True)
            tr.update({ARROW.join(name_of(int(x))): int(y) for x, y in zip(u, c)})
        if drop_l:
            tr["FP → TN"] = drop_l
        if add_l:
            tr["TN → FP"] = add_l
        row["transitions"] = dict(sorted(tr.items(), key=lambda kv: (-kv[1], kv[0])))
        per.append(row)

    def outcome_counts(o: OutcomeCodes) -> Dict[str, int]:
        c = np.bincount(o.gold_type, minlength=G)
        d = {n: int(c[k]) for k, n in enumerate(GOLD_OUTCOMES)}
        d["FP"] = int(np.count_nonzero(o.system_type == FP))
        return d

    sd = SpanDiff(
        a, b, len(gold), n_spurious, n_diff, _ratio(n_diff, len(gold) + n_spurious),
        outcome_counts(oa), outcome_counts(ob), matrix.tolist(),
        {n: int(cc[k]) for k, n in enumerate(GOLD_OUTCOMES) if n != "TP"},
        classes, per, {"FP → TN": int(len(dropped)), "TN → FP": int(len(added)), "FP kept": int(kept.sum())})
    ctx = {"gold_key": gold_key, "g_cls": g_cls, "name_of": name_of, "dropped": dropped, "added": added}
    return sd, ctx


# ---------------------------------------------------------------------------
# TS level

def _unit_masks(corpus: Corpus, spans: SpanSet, lo: int, hi: int) -> Tuple[np.ndarray, np.ndarray]:
    """Label bitmasks (labels lo..hi-1) over token units and separator units, painted as events.py does."""
    sub = spans.take((spans.label >= lo) & (spans.label < hi))
    bits = np.left_shift(1, (sub.label - lo).astype(np.int64))
    tok = paint(sub, bits, corpus.n_tokens, sub.start, sub.end)
    sent = corpus.sentence_of(sub.start)
    sep = paint(sub, bits, corpus.n_separators, sub.start - sent, sub.end - 1 - sent)
    return tok, sep


def _bit_counts(mask: np.ndarray, width: int) -> np.ndarray:
    v = mask[mask != 0]
    if not len(v):
        return np.zeros(width, np.int64)
    u, c = np.unique(v, return_counts=True)
    return (((u[:, None] >> np.arange(width)) & 1) * c[:, None]).sum(0)


def ts_diff(corpus: Corpus, a: str, b: str, separator_weight: float = 1.0) -> TSDiff:
    """Per label, the TS units B gets right and A wrong (split into units gold has, i.e. a
    missed unit found, and units gold lacks, i.e. a spurious unit removed), and vice versa."""
    L = len(corpus.labels)
    g, sa, sb = (merge_overlaps(s) for s in (corpus.gold, corpus.systems[a], corpus.systems[b]))
    keys = ("b_fixes", "b_fixes_positive", "a_fixes", "a_fixes_positive")
    counts = {(k, u): np.zeros(L, np.int64) for k in keys for u in ("tok", "sep")}
    for lo in range(0, max(L, 1), _BITS):
        hi = min(lo + _BITS, L)
        if hi <= lo:
            break
        for u, (gm, am, bm) in zip(("tok", "sep"), zip(*(_unit_masks(corpus, s, lo, hi) for s in (g, sa, sb)))):
            wa, wb = gm ^ am, gm ^ bm
            bf, af = wa & ~wb, wb & ~wa
            w = hi - lo
            counts[("b_fixes", u)][lo:hi] = _bit_counts(bf, w)
            counts[("b_fixes_positive", u)][lo:hi] = _bit_counts(bf & gm, w)
            counts[("a_fixes", u)][lo:hi] = _bit_counts(af, w)
            counts[("a_fixes_positive", u)][lo:hi] = _bit_counts(af & gm, w)
    w = float(separator_weight)

    def row(name: str, pick) -> Dict[str, Any]:
        r: Dict[str, Any] = {"label": name}
        for side in ("b", "a"):
            tok, sep = pick(counts[(f"{side}_fixes", "tok")]), pick(counts[(f"{side}_fixes", "sep")])
            ptok = pick(counts[(f"{side}_fixes_positive", "tok")])
            psep = pick(counts[(f"{side}_fixes_positive", "sep")])
            r[f"{side}_right_{'a' if side == 'b' else 'b'}_wrong"] = {
                "tokens": tok, "separators": sep, "units": tok + w * sep,
                "gold_positive": ptok + w * psep, "gold_negative": (tok - ptok) + w * (sep - psep)}
        r["net_units"] = r["b_right_a_wrong"]["units"] - r["a_right_b_wrong"]["units"]
        return r

    per = [row(lab, lambda arr, k=k: int(arr[k])) for k, lab in enumerate(corpus.labels)]
    total = row("total", lambda arr: int(arr.sum()))
    return TSDiff(a, b, w, per, total)


# ---------------------------------------------------------------------------
# several systems

def exact_hits(gold: SpanSet, system: SpanSet, pairs: Optional[Pairs] = None) -> Tuple[np.ndarray, int]:
    """(per gold span: found exactly?, system spans that are exact hits) from the matcher's pairs."""
    p = match(gold, system) if pairs is None else pairs
    hit = np.zeros(len(gold), bool)
    hit[p.gold[p.exact]] = True
    return hit, int(len(unique(p.system[p.exact])))


def pairwise(gold_ids: np.ndarray, ids: np.ndarray, names: Sequence[str]) -> Tuple[np.ndarray, List[Dict[str, Any]]]:
    """Diff matrix (k x k) and per pair: diff, overlap on all answers, on correct answers, Δ accuracy."""
    k, n = ids.shape
    mat = np.zeros((k, k))
    right = ids == gold_ids[None, :]
    acc = right.mean(axis=1) if n else np.zeros(k)
    rows = []
    for i in range(k):
        if i + 1 < k:
            nd = np.count_nonzero(ids[i + 1:] != ids[i], axis=1)
            d = nd / n if n else np.zeros(k - i - 1)
            mat[i, i + 1:] = d
            mat[i + 1:, i] = d
            both = np.count_nonzero(right[i + 1:] & right[i], axis=1)
            den = right[i + 1:].sum(axis=1) + right[i].sum()
            for j in range(i + 1, k):
                rows.append({"a": names[i], "b": names[j], "diff": float(mat[i, j]),
                             "overlap": _ratio(n - nd[j - i - 1], n),
                             "correct_overlap": _ratio(2 * both[j - i - 1], den[j - i - 1]),
                             "delta_accuracy": float(acc[j] - acc[i])})
    return mat, rows


def _oracle_rows(keys: np.ndarray, right: np.ndarray, names: Sequence[str], key_names: Sequence[str],
                 best: int) -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
    """Overall and per key (gold label): each system's score, best single, oracle (any right)."""
    k = right.shape[0]
    n = right.shape[1]
    any_right = right.any(axis=0)
    per_sys = right.sum(axis=1)
    overall = {"items": int(n), "systems": {nm: _ratio(per_sys[i], n) for i, nm in enumerate(names)},
               "best_system": names[best], "best": _ratio(per_sys[best], n), "oracle": _ratio(any_right.sum(), n)}
    overall["gain"] = overall["oracle"] - overall["best"]
    K = len(key_names)
    tot = np.bincount(keys, minlength=K)
    sys_right = np.stack([np.bincount(keys[right[i]], minlength=K) for i in range(k)]) if k else np.zeros((0, K))
    orc = np.bincount(keys[any_right], minlength=K)
    rows = []
    for c in np.flatnonzero(tot > 0).tolist():
        t = int(tot[c])
        scores = sys_right[:, c] / t
        bl = int(np.argmax(scores))
        rows.append({"label": key_names[c], "items": t,
                     "systems": {nm: float(scores[i]) for i, nm in enumerate(names)},
                     "best_system": names[best], "best": float(scores[best]),
                     "best_for_label_system": names[bl], "best_for_label": float(scores[bl]),
                     "oracle": _ratio(orc[c], t), "gain": _ratio(orc[c], t) - float(scores[best])})
    rows.sort(key=lambda r: (-r["items"], r["label"]))
    return overall, rows


# ---------------------------------------------------------------------------
# examples

def _sentence_spans(spans: SpanSet, a: int, b: int) -> List[Tuple[int, int, int]]:
    lo, hi = np.searchsorted(spans.start, [a, b])
    return [(int(l), int(s), int(e)) for s, e, l in
            zip(spans.start[lo:hi].tolist(), spans.end[lo:hi].tolist(), spans.label[lo:hi].tolist())]


def make_example(corpus: Corpus, sides: Dict[str, str], level: str, cls: str, transition: str,
                 focus_first: int, focus_last: int, window: int = 12) -> Example:
    """The sentence around tokens focus_first..focus_last (global), with every side's spans.

    ``sides`` maps the role shown (gold, A, B) to the corpus side name ("gold" or a system)."""
    s = int(corpus.sentence_of(np.array([focus_first]))[0])
    sa, sb = int(corpus.sent_offsets[s]), int(corpus.sent_offsets[s + 1])
    a, b = max(sa, focus_first - window), min(sb, focus_last + 1 + window)
    toks = corpus.tokens(a, b) if corpus.tokens is not None else [f"t{i - sa}" for i in range(a, b)]
    spans, where = {}, {}
    for role, side in sides.items():
        ss = corpus.gold if side == "gold" else corpus.systems[side]
        ss = ss.sorted() if len(ss) and np.any(np.diff(ss.start) < 0) else ss
        out = []
        for lab, st, en in _sentence_spans(ss, sa, sb):
            if en < a or st >= b:
                continue
            out.append((corpus.labels[lab], max(st, a) - a, min(en, b - 1) - a))
        spans[role] = out
        info = corpus.gold_info if side == "gold" else corpus.system_info[side]
        path, line = info.where(focus_first) if info.token_lines is not None else (info.path, None)
        where[role] = {"path": path, "line": line}
    return Example(level, cls, transition, s, a, toks, list(range(focus_first - a, focus_last - a + 1)),
                   spans, where, a > sa, b < sb)


def inline_text(ex: Example, role: str, mark_focus: Optional[Tuple[str, str]] = None) -> str:
    """Tokens with one side's spans inline, ``[Nadim Ladki]PER``; focus tokens wrapped in mark_focus."""
    opens: Dict[int, int] = {}
    closes: Dict[int, List[str]] = {}
    for lab, st, en in ex.spans[role]:
        opens[st] = opens.get(st, 0) + 1
        closes.setdefault(en, []).append(lab)
    focus = set(ex.focus)
    parts = ["…"] if ex.clipped_left else []
    for i, t in enumerate(ex.tokens):
        w = t
        if mark_focus and i in focus:
            w = f"{mark_focus[0]}{w}{mark_focus[1]}"
        w = "[" * opens.get(i, 0) + w + "".join(f"]{lab}" for lab in closes.get(i, []))
        parts.append(w)
    if ex.clipped_right:
        parts.append("…")
    return " ".join(parts)


# ---------------------------------------------------------------------------
# the entry point

def compare(
    corpus: Corpus,
    a: Optional[str] = None,
    b: Optional[str] = None,
    top: Optional[int] = 5,
    examples: int = 1,
    view: str = "auto",
    separator_weight: float = 1.0,
    spans: bool = True,
    fair_mode: str = "paper",
) -> Comparison:
    """Compare the systems of ``corpus``.

    ``a`` (baseline) and ``b`` (new system) pick the pair compared in detail; with exactly
    two systems they default to them in order, with more the pair is optional.  With more
    than two systems the pairwise matrix, the oracle upper bounds and the hard/easy gold
    spans are computed.  ``top``: transitions kept per class (None: all); ``examples``:
    sentences per top transition; ``spans=False`` skips the span-level pair comparison;
    ``fair_mode``: :func:`ts_eval.fair.fair_errors`'s mode (``paper`` or ``faireval-skip``).
    """
    measures.check_separator_weight(separator_weight)
    names = list(corpus.systems)
    if len(names) < 2:
        raise UsageError(f"compare needs at least two systems, got {len(names)}"
                         + (f" ({names[0]})" if names else ""))
    if top is not None and top < 0:
        raise UsageError(f"top must be >= 0, got {top}")
    if examples < 0:
        raise UsageError(f"examples must be >= 0, got {examples}")
    if (a is None) != (b is None):
        raise UsageError("give both systems of the pair (A and B) or neither")
    if a is None and len(names) == 2:
        a, b = names
    for n in (a, b):
        if n is not None and n not in corpus.systems:
            raise UsageError(f"no system named {n!r}; systems: {', '.join(names)}")
    if a is not None and a == b:
        raise UsageError(f"A and B are the same system ({a!r})")

    used_view, vocab, ids = token_labels(corpus, names, view)
    gold_ids, sys_ids = ids[0], ids[1:]
    n = corpus.n_tokens

    # one row per system: token accuracy, correct sentences, exact-match span scores
    systems, hits = [], []
    for i, name in enumerate(names):
        right = sys_ids[i] == gold_ids
        hit, found_hit = exact_hits(corpus.gold, corpus.systems[name])
        hits.append(hit)
        found = len(corpus.systems[name])
        p, r = _ratio(found_hit, found), _ratio(hit.sum(), len(corpus.gold))
        info = corpus.system_info[name]
        systems.append({"name": name, "path": info.path, "column": info.column,
                        "token_accuracy": _ratio(right.sum(), n),
                        "correct_sentences": _correct_sentences(corpus, right),
                        "spans": found, "exact_hits": int(hit.sum()), "precision": p, "recall": r,
                        "f": 2 * p * r / (p + r) if p + r else 0.0})

    pair = None
    if a is not None:
        ia, ib = names.index(a), names.index(b)
        tok = token_diff(corpus, a, b, gold_ids, sys_ids[ia], sys_ids[ib], vocab, top)
        sd, ctx = None, None
        if spans:
            oa = fair_outcomes(corpus, a, mode=fair_mode)
            ob = fair_outcomes(corpus, b, mode=fair_mode)
            sd, ctx = span_diff(corpus, a, b, oa, ob, top)
        pair = PairComparison(a, b, tok, sd, ts_diff(corpus, a, b, separator_weight))
        if examples:
            pair.examples = _pair_examples(corpus, a, b, gold_ids, sys_ids[ia], sys_ids[ib], vocab, tok, sd, ctx,
                                           examples)

    multi = None
    if len(names) > 2:
        multi = _multi(corpus, names, gold_ids, sys_ids, vocab, np.stack(hits), systems, spans, fair_mode)

    settings = {"view": used_view, "view_requested": view, "top": top, "examples": examples,
                "separator_weight": separator_weight, "scheme": corpus.scheme, "policy": corpus.policy,
                "label_map": [f"{p}={r}" for p, r in corpus.label_map], "pair": [a, b] if a else None,
                "span_outcomes": f"ts_eval.fair, mode {fair_mode}" if spans and a is not None else None,
                "tokens_note": "-DOCSTART- lines are not tokens (conlleval counts them as correct O tokens)"}
    corpus_info = {"tokens": n, "sentences": corpus.n_sentences, "separators": corpus.n_separators,
                   "gold_spans": len(corpus.gold), "labels": list(corpus.labels), "token_labels": list(vocab),
                   "docstart_lines": corpus.docstart_lines, "gold_path": corpus.gold_info.path}
    return Comparison(settings, corpus_info, systems, pair, multi)


def _pair_examples(corpus: Corpus, a: str, b: str, g: np.ndarray, xa: np.ndarray, xb: np.ndarray,
                   vocab: Sequence[str], tok: TokenDiff, sd: Optional[SpanDiff], ctx, per: int) -> List[Example]:
    sides = {"gold": "gold", "A": a, "B": b}
    out: List[Example] = []
    masks = change_masks(g, xa, xb)
    index = {v: k for k, v in enumerate(vocab)}
    shown_tok: set = set()
    shown_span: set = set()
    for cls in CLASSES:
        m = masks[cls]
        for t in tok.classes[cls].top:
            ids = [index[x] for x in t.labels]
            sel = m & (xa == ids[-2]) & (xb == ids[-1])
            if cls == "changed_error":
                sel &= g == ids[0]
            out += _first_in_distinct_sentences(corpus, np.flatnonzero(sel), np.flatnonzero(sel), per,
                                                lambda f, l: make_example(corpus, sides, "token", cls, t.name, f, l),
                                                shown_tok)
    if sd is not None:
        gold, sa, sb = corpus.gold, corpus.systems[a], corpus.systems[b]
        W = len(GOLD_OUTCOMES) + 1
        for k, cls in enumerate(CLASSES):
            for t in sd.classes[cls].top:
                if t.labels == ("FP", "TN"):
                    idx, src = ctx["dropped"], sa
                elif t.labels == ("TN", "FP"):
                    idx, src = ctx["added"], sb
                else:
                    key = GOLD_OUTCOMES.index(t.labels[0]) * W + GOLD_OUTCOMES.index(t.labels[1])
                    idx = np.flatnonzero((ctx["g_cls"] == k) & (ctx["gold_key"] == key))
                    src = gold
                out += _first_in_distinct_sentences(
                    corpus, src.start[idx], src.end[idx], per,
                    lambda f, l: make_example(corpus, sides, "span", cls, t.name, f, l), shown_span)
    return out


def _first_in_distinct_sentences(corpus: Corpus, first: np.ndarray, last: np.ndarray, per: int, make,
                                 shown: set) -> List[Example]:
    """Up to ``per`` examples in distinct sentences, preferring sentences not ``shown`` yet."""
    if not len(first):
        return []
    first, last = np.asarray(first), np.asarray(last)
    sents = corpus.sentence_of(first).tolist()
    picked: List[int] = []
    used = set()
    for fresh in (True, False):
        for k, s in enumerate(sents):
            if len(picked) >= per:
                break
            if s in used or (fresh and s in shown):
                continue
            used.add(s)
            picked.append(k)
    shown.update(used)
    return [make(int(first[k]), int(last[k])) for k in sorted(picked)]


def _span_record(corpus: Corpus, k: int) -> Dict[str, Any]:
    """A gold span for the case lists: label, sentence, positions in it, line in the gold file, text."""
    g = corpus.gold
    st, en = int(g.start[k]), int(g.end[k])
    s = int(corpus.sentence_of(np.array([st]))[0])
    line = int(corpus.gold_info.token_lines[st]) if corpus.gold_info.token_lines is not None else None
    rec = {"index": k, "label": corpus.labels[int(g.label[k])], "sentence": s,
           "first": st - int(corpus.sent_offsets[s]), "last": en - int(corpus.sent_offsets[s]), "line": line,
           "text": " ".join(corpus.tokens(st, en + 1)) if corpus.tokens is not None else None}
    return rec


def _instead(corpus: Corpus, names: List[str], idx: np.ndarray, fair_mode: str) -> List[Dict[str, int]]:
    """For each gold span in ``idx``: how the systems' fair outcomes for it are distributed,
    as ``"LE ORG"`` (outcome and the counterpart's label) -> number of systems."""
    from collections import Counter

    counters = [Counter() for _ in range(len(idx))]
    if not len(idx):
        return []
    for name in names:
        o = fair_outcomes(corpus, name, mode=fair_mode)
        ss = corpus.systems[name]
        t, p = o.gold_type[idx], o.gold_partner[idx]
        for k, (tt, pp) in enumerate(zip(t.tolist(), p.tolist())):
            key = GOLD_OUTCOMES[tt] + (f" {corpus.labels[int(ss.label[pp])]}" if pp >= 0 else "")
            counters[k][key] += 1
    return [dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for c in counters]


def _multi(corpus: Corpus, names: List[str], gold_ids: np.ndarray, sys_ids: np.ndarray, vocab: Sequence[str],
           hits: np.ndarray, systems: List[Dict[str, Any]], spans: bool = True,
           fair_mode: str = "paper") -> MultiComparison:
    mat, rows = pairwise(gold_ids, sys_ids, names)
    right = sys_ids == gold_ids[None, :]
    best_tok = int(np.argmax(right.sum(axis=1)))
    t_over, t_rows = _oracle_rows(gold_ids, right, names, vocab, best_tok)
    best_span = int(np.argmax(hits.sum(axis=1)))
    s_over, s_rows = _oracle_rows(corpus.gold.label.astype(np.int64), hits, names, corpus.labels, best_span)
    count = hits.sum(axis=0)
    k = len(names)
    L = len(corpus.labels)
    hard = np.flatnonzero(count == 0)
    easy = np.flatnonzero(count == k)
    hard_l = np.bincount(corpus.gold.label[hard], minlength=L)
    easy_l = np.bincount(corpus.gold.label[easy], minlength=L)
    for r in s_rows:
        lab = corpus.labels.index(r["label"])
        r["hard"], r["easy"] = int(hard_l[lab]), int(easy_l[lab])
    s_over["hard"], s_over["easy"] = int(len(hard)), int(len(easy))
    t_over["measure"], s_over["measure"] = "token accuracy", "exact-match span recall"
    hard_records = [_span_record(corpus, int(i)) for i in hard.tolist()]
    if spans:
        for rec, inst in zip(hard_records, _instead(corpus, names, hard, fair_mode)):
            rec["systems_instead"] = inst
    neighbours = []
    for i, name in enumerate(names):
        d = np.delete(mat[i], i)
        others = [x for j, x in enumerate(names) if j != i]
        lo, hi = int(np.argmin(d)), int(np.argmax(d))
        neighbours.append({"system": name, "mean_diff": float(d.mean()), "nearest": others[lo],
                           "nearest_diff": float(d[lo]), "farthest": others[hi], "farthest_diff": float(d[hi])})
    return MultiComparison(names, mat.tolist(), rows, {"overall": t_over, "per_label": t_rows},
                           {"overall": s_over, "per_label": s_rows},
                           np.bincount(count, minlength=k + 1).tolist(),
                           hard_records,
                           [_span_record(corpus, int(i)) for i in easy.tolist()], neighbours)
