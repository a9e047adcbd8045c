"""Ortmann's fair error types (ts_eval.fair), their readers, report layout and CLI.

* The paper's NER numbers (Table 1 NER row, Table 2, Figure 2's NER matrix) and
  the reference tool's published report for them, from the NER span files copied
  to tests/fixtures/faireval (MIT, (c) 2022 Katrin Ortmann).
* Hand-worked cases for every error type and for the tie-breaking rules.
* Property tests: every span counted exactly once, totals between max(n, m) and
  n + m, identical inputs give only TPs, the vectorised shortcuts agree with an
  independent, plain-Python reading of the reference algorithm (sets and lists).
* Weights parsing, readers (span files, CoNLL-2000 stacks, ignore_punct) and the
  ``ts-eval fair --config`` command.
"""
from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ts_eval.cli import fair as cli_fair
from ts_eval.cli.errors import UsageError
from ts_eval.core.corpus import SpanSet
from ts_eval.core.matching import match
from ts_eval.core.measures import prf
from ts_eval.core.sequences import from_spans
from ts_eval.core.tokensets import TokenSets
from ts_eval.errors import InputError
from ts_eval.fair import (
    BEL,
    BEO,
    BES,
    EQ7_FORMULA,
    ERROR_TYPES,
    FN,
    FP,
    LBE,
    LE,
    OUTCOME_NAMES,
    PRESETS,
    TP,
    fair_errors,
    fair_report,
    method_scores,
    parse_weights,
)
from ts_eval.io.faireval import read_conll2000_file, read_faireval, read_span_file
from ts_eval.output.legacy.faireval import faireval_settings, to_faireval

FIX = Path(__file__).parent / "fixtures" / "faireval"
NER_T = FIX / "target" / "ner_spans.csv"
NER_S = FIX / "system" / "ner_spans.csv"

Span = Tuple[str, int, int]


# ---------------------------------------------------------------------------
# helpers

def run(lengths: Sequence[int], gold: Sequence[Sequence[Span]], system: Sequence[Sequence[Span]],
        focus: str = "target", mode: str = "paper", keep_input_order: bool = True, **kw):
    """Fair errors of span lists; the input order of the lists is the reference's tie-break order.

    The hand-worked cases below write a span as the paper draws it, ``(label, first, last)`` token
    by token (and :func:`outcome` finds a span by them); ``from_spans`` takes ``(label, start, end)``
    with ``end`` exclusive, so ``last + 1``."""
    exclusive = [[[(lab, b, e + 1) for lab, b, e in sent] for sent in side] for side in (gold, system)]
    corpus = from_spans(lengths, *exclusive)
    ss = corpus.systems["system"]
    if keep_input_order:
        kw.setdefault("gold_order", _input_order(corpus, corpus.gold, gold))
        kw.setdefault("system_order", _input_order(corpus, ss, system))
    res = fair_errors(corpus.gold, ss, match(corpus.gold, ss), corpus.labels, corpus, focus=focus, mode=mode, **kw)
    return corpus, res


def _input_order(corpus, ss: SpanSet, spans: Sequence[Sequence[Span]]) -> np.ndarray:
    pos = {}
    k = 0
    for s, sent in enumerate(spans):
        for lab, b, e in sent:
            pos[(corpus.labels.index(lab), int(corpus.sent_offsets[s]) + b, int(corpus.sent_offsets[s]) + e)] = k
            k += 1
    return np.array([pos[(int(lab), int(b), int(e))] for lab, b, e in zip(ss.label, ss.start, ss.last)], np.int64)


def nonzero(res, label: Optional[str] = None) -> Dict[str, int]:
    return {k: v for k, v in res.counts(label).items() if v}


def outcome(corpus, res, side: str, label: str, b: int, e: int) -> Tuple[str, int]:
    ss = corpus.gold if side == "gold" else corpus.systems["system"]
    k = int(np.flatnonzero((ss.start == b) & (ss.last == e) & (ss.label == corpus.labels.index(label)))[0])
    o = res.outcomes
    typ, partner = (o.gold_type, o.gold_partner) if side == "gold" else (o.system_type, o.system_partner)
    return OUTCOME_NAMES[typ[k]], int(partner[k])


# ---------------------------------------------------------------------------
# the paper's NER numbers (Table 1, Table 2, Figure 2)

TABLE2 = {  # TP FP LE BEs BEl BEo BEall LBE FN Precision Recall F1
    "LOC": (2132, 81, 56, 29, 28, 0, 57, 40, 98, 93.12, 92.43, 92.78),
    "ORG": (1002, 87, 76, 16, 27, 0, 43, 48, 167, 85.46, 80.00, 82.64),
    "OTH": (473, 48, 89, 15, 26, 3, 44, 44, 142, 77.60, 67.24, 72.05),
    "PER": (1552, 37, 31, 11, 25, 0, 36, 23, 55, 94.98, 93.95, 94.46),
    "overall": (5159, 253, 252, 71, 106, 3, 180, 155, 462, 90.42, 87.23, 88.80),
}
TABLE2_COLS = ("TP", "FP", "LE", "BES", "BEL", "BEO", "BE", "LBE", "FN", "precision", "recall", "f1")
# the report's keys
REPORT_COLS = ("tp", "fp", "le", "bes", "bel", "beo", "be", "lbe", "fn", "precision", "recall", "f")
FIGURE2_NER = {  # target row -> system LOC ORG OTH PER, then FN (_)
    "LOC": (57, 54, 14, 28, 98),
    "ORG": (66, 43, 32, 26, 167),
    "OTH": (41, 59, 44, 33, 142),
    "PER": (14, 29, 11, 36, 55),
    "_": (81, 87, 48, 37, 0),
}

# the reference tool's eval/eval_ner.csv as published with the paper (NER config:
# all labels, exclude NONE/EMPTY, focus target, weights = the paper's equation 7)
NER_REPORT = """### Evaluation settings:
eval_method: ['traditional', 'fair', 'weighted']
exclude: ['NONE', 'EMPTY']
focus: target
ignore_punct: False
labels: ['all']
system_in: ./../data/system/ner_spans.csv
target_in: ./../data/target/ner_spans.csv
weights: {'LE': {'TP': 0, 'FP': 0.5, 'FN': 0.5}, 'BES': {'TP': 0.5, 'FP': 0, 'FN': 0.5}, \
'BEL': {'TP': 0.5, 'FP': 0.5, 'FN': 0}, 'BEO': {'TP': 0.5, 'FP': 0.25, 'FN': 0.25}, \
'LBE': {'TP': 0, 'FP': 0.5, 'FN': 0.5}, 'TP': {'TP': 1}, 'FP': {'FP': 1}, 'FN': {'FN': 1}}


### Traditional evaluation:
Label	TP	FP	FN	Prec	Rec	F1
LOC	2132	251	244	89.47	89.73	89.60
ORG	1002	260	328	79.40	75.34	77.31
OTH	473	132	305	78.18	60.80	68.40
PER	1552	151	142	91.13	91.62	91.37
overall	5159	794	1019	86.66	83.51	85.05

### Fair evaluation:
Label	TP	FP	LE	BE	LBE	FN	Prec	Rec	F1
LOC	2132	81	56	57	40	98	93.12	92.43	92.78
ORG	1002	87	76	43	48	167	85.46	80.00	82.64
OTH	473	48	89	44	44	142	77.60	67.24	72.05
PER	1552	37	31	36	23	55	94.98	93.95	94.46
overall	5159	253	252	180	155	462	90.42	87.23	88.80

### Weighted evaluation:
Label	LE	BES	BEL	BEO	LBE	TP	FP	FN	Prec	Rec	F1
LOC	56	29	28	0	40	2132	81	98	93.79	93.08	93.44
ORG	76	16	27	0	48	1002	87	167	86.30	81.20	83.67
OTH	89	15	26	3	44	473	48	142	79.42	69.55	74.16
PER	31	11	25	0	23	1552	37	55	95.35	94.72	95.04
overall	252	71	106	3	155	5159	253	462	91.14	88.21	89.65

### Comparison:
Version	Prec	Rec	F1
Traditional	86.66	83.51	85.05
Fair	90.42	87.23	88.80
Weighted	91.14	88.21	89.65

### Confusion matrix:
Target\\System	LOC	ORG	OTH	PER	_
LOC	57	54	14	28	98
ORG	66	43	32	26	167
OTH	41	59	44	33	142
PER	14	29	11	36	55
_	81	87	48	37	0

### Target data stats:
Label	Freq	%
OTH	778	12.59
PER	1694	27.42
ORG	1330	21.53
LOC	2376	38.46
"""


@pytest.fixture(scope="module")
def ner():
    fd = read_faireval(str(NER_T), str(NER_S))
    c = fd.corpus
    ss = c.systems[fd.system_name]
    res = fair_errors(c.gold, ss, match(c.gold, ss), c.labels, c, gold_order=fd.gold.order,
                      system_order=fd.system.order, gold_tokens=fd.gold.tokens, system_tokens=fd.system.tokens)
    return fd, res


def test_ner_input(ner):
    fd, res = ner
    assert fd.corpus.n_sentences == 5100
    assert len(fd.corpus.gold) == 6178          # "yielding 6.178 named entities"
    assert fd.excluded == {"gold": 2065, "system": 2126}   # NONE dummy lines
    assert res.target_stats() == [("OTH", 778, pytest.approx(12.593, abs=1e-3)),
                                  ("PER", 1694, pytest.approx(27.420, abs=1e-3)),
                                  ("ORG", 1330, pytest.approx(21.528, abs=1e-3)),
                                  ("LOC", 2376, pytest.approx(38.459, abs=1e-3))]


def test_ner_table1(ner):
    rep = fair_report(ner[1])
    for method, want in (("traditional", (86.66, 83.51, 85.05)), ("fair", (90.42, 87.23, 88.80))):
        o = rep[method]["micro"]
        assert [round(o[k] * 100, 2) for k in ("precision", "recall", "f")] == list(want)


def test_ner_table2(ner):
    rep = fair_report(ner[1])
    for label, want in TABLE2.items():
        row = rep["fair"]["micro"] if label == "overall" else rep["fair"]["labels"][label]
        got = tuple(row[c] if i < 9 else round(row[c] * 100, 2) for i, c in enumerate(REPORT_COLS))
        assert got == want, label


def test_ner_figure2(ner):
    conf = ner[1].confusion_dict()
    for t, want in FIGURE2_NER.items():
        assert tuple(conf[t][s] for s in ("LOC", "ORG", "OTH", "PER", "_")) == want, t


def test_ner_reference_report_layout(ner):
    w = parse_weights(EQ7_FORMULA)
    settings_ = faireval_settings("./../data/target/ner_spans.csv", "./../data/system/ner_spans.csv",
                                  ignore_punct=False, weights=w)
    assert to_faireval(fair_report(ner[1], weights=w), settings_) == NER_REPORT


def test_ner_current_faireval_tool():
    """faireval-skip mode: the numbers the current public FairEval.py writes (it skips
    the span after each match while iterating over a list it removes from)."""
    fd = read_faireval(str(NER_T), str(NER_S))
    c = fd.corpus
    ss = c.systems[fd.system_name]
    res = fair_errors(c.gold, ss, match(c.gold, ss), c.labels, c, gold_order=fd.gold.order,
                      system_order=fd.system.order, mode="faireval-skip")
    assert res.counts() == {"TP": 5159, "FP": 267, "FN": 477, "LE": 252, "BE": 173, "BES": 68, "BEL": 101,
                            "BEO": 4, "LBE": 144}
    assert res.counts("LOC") == {"TP": 2132, "FP": 85, "FN": 102, "LE": 56, "BE": 54, "BES": 27, "BEL": 27,
                                 "BEO": 0, "LBE": 38}
    rep = fair_report(res, weights=EQ7_FORMULA)
    assert [round(rep["weighted"]["micro"][k] * 100, 2) for k in ("precision", "recall", "f")] == \
        [91.04, 88.08, 89.53]


def test_ner_focus_system(ner):
    fd, res_t = ner
    c = fd.corpus
    ss = c.systems[fd.system_name]
    res = fair_errors(c.gold, ss, match(c.gold, ss), c.labels, c, focus="system", gold_order=fd.gold.order,
                      system_order=fd.system.order)
    # same errors overall, LE/LBE moved to the system labels: column sums of the confusion matrix
    assert res.counts() == res_t.counts()
    conf = res.confusion_dict()
    for lab in ("LOC", "ORG", "OTH", "PER"):
        le_lbe = sum(conf[t][lab] for t in ("LOC", "ORG", "OTH", "PER") if t != lab)
        assert res.counts(lab)["LE"] + res.counts(lab)["LBE"] == le_lbe


def test_ner_units_agree(ner):
    """Independent clusters (the default) and whole sentences give the same per-span outcomes."""
    fd, res = ner
    c = fd.corpus
    ss = c.systems[fd.system_name]
    whole = fair_errors(c.gold, ss, match(c.gold, ss), c.labels, c, gold_order=fd.gold.order,
                        system_order=fd.system.order, _units="sentence")
    for f in ("gold_type", "gold_partner", "gold_shared", "system_type", "system_partner", "system_shared"):
        assert np.array_equal(getattr(res.outcomes, f), getattr(whole.outcomes, f)), f


# ---------------------------------------------------------------------------
# hand-worked cases, one error type at a time (one sentence of 10 tokens)

def one(gold: List[Span], system: List[Span], **kw):
    return run([10], [gold], [system], **kw)


def test_tp_fp_fn():
    _c, r = one([("A", 0, 1), ("A", 3, 4)], [("A", 0, 1), ("B", 6, 7)])
    assert nonzero(r) == {"TP": 1, "FN": 1, "FP": 1}
    assert nonzero(r, "A") == {"TP": 1, "FN": 1}
    assert nonzero(r, "B") == {"FP": 1}
    assert r.traditional_counts() == {"TP": 1, "FP": 1, "FN": 1}
    assert r.confusion_dict() == {"A": {"A": 0, "B": 0, "_": 1}, "B": {"A": 0, "B": 0, "_": 0},
                                  "_": {"A": 0, "B": 1, "_": 0}}


def test_labelling_error_and_focus():
    _c, r = one([("A", 2, 4)], [("B", 2, 4)])
    assert nonzero(r) == {"LE": 1}
    assert nonzero(r, "A") == {"LE": 1} and nonzero(r, "B") == {}
    assert r.traditional_counts() == {"TP": 0, "FP": 1, "FN": 1}
    assert r.confusion_dict()["A"]["B"] == 1
    _c, r = one([("A", 2, 4)], [("B", 2, 4)], focus="system")
    assert nonzero(r, "A") == {} and nonzero(r, "B") == {"LE": 1}
    assert r.confusion_dict()["A"]["B"] == 1     # the matrix shows both directions


# the README's overlap table: target ---XXXX--- (tokens 3..6) against each system span
@pytest.mark.parametrize("b,e,kind", [
    (4, 7, "BEO"), (2, 5, "BEO"),
    (4, 5, "BES"), (3, 4, "BES"), (5, 6, "BES"),
    (2, 7, "BEL"), (2, 6, "BEL"), (3, 8, "BEL"),
])
def test_boundary_error_types(b, e, kind):
    c, r = one([("A", 3, 6)], [("A", b, e)])
    assert nonzero(r) == {kind: 1, "BE": 1}
    assert r.confusion_dict()["A"]["A"] == 1       # boundary errors on the diagonal
    assert outcome(c, r, "gold", "A", 3, 6) == (kind, 0)


def test_labelling_boundary_error():
    _c, r = one([("A", 3, 6)], [("B", 5, 8)])
    assert nonzero(r) == {"LBE": 1}
    assert nonzero(r, "A") == {"LBE": 1}
    _c, r = one([("A", 3, 6)], [("B", 5, 8)], focus="system")
    assert nonzero(r, "B") == {"LBE": 1}


def test_no_overlap_is_fn_plus_fp():
    _c, r = one([("A", 3, 4)], [("A", 5, 6)])
    assert nonzero(r) == {"FN": 1, "FP": 1}


def test_split_counts_two_boundary_errors():
    # target A 0..3, system splits it: first A 0..1 (BES, 1:1), then A 2..3 joins the
    # already matched target through its remaining tokens (BES, pass 3)
    c, r = one([("A", 0, 3)], [("A", 0, 1), ("A", 2, 3)])
    assert nonzero(r) == {"BE": 2, "BES": 2}
    assert sum(r.counts().values()) - r.counts()["BE"] == 2       # = max(n, m)
    assert outcome(c, r, "system", "A", 2, 3) == ("BES", 0)
    assert not r.outcomes.system_shared[1] and r.outcomes.system_shared[0]


def test_merge_counts_two_boundary_errors():
    _c, r = one([("A", 0, 1), ("A", 2, 3)], [("A", 0, 3)])
    assert nonzero(r) == {"BE": 2, "BEL": 2}


def test_boundary_error_preferred_to_labelling_boundary_error():
    # the system span overlaps two targets, one with its label: BE for that one, and
    # the other target still counts once, as LBE against the already matched span
    c, r = one([("A", 0, 1), ("B", 2, 3)], [("A", 0, 3)])
    assert nonzero(r) == {"BE": 1, "BEL": 1, "LBE": 1}
    assert outcome(c, r, "gold", "A", 0, 1)[0] == "BEL"
    assert outcome(c, r, "gold", "B", 2, 3)[0] == "LBE"


def test_exhausted_tokens_leave_a_false_positive():
    # A 0..1 takes tokens 0-1 of the target, A 2..3 tokens 2-3; A 1..2 finds no token left
    c, r = one([("A", 0, 3)], [("A", 0, 1), ("A", 2, 3), ("A", 1, 2)])
    assert nonzero(r) == {"BE": 2, "BES": 2, "FP": 1}
    assert outcome(c, r, "system", "A", 1, 2) == ("FP", -1)


def test_most_shared_then_fewest_differing_tokens():
    # both candidates share 2 tokens and leave 2 target tokens; A 0..3 has fewer extra tokens
    c, r = one([("A", 2, 5)], [("A", 4, 9), ("A", 0, 3)])
    assert outcome(c, r, "gold", "A", 2, 5) == ("BEO", 0)      # system index 0 = A 0..3
    assert nonzero(r) == {"BE": 2, "BEO": 2}
    # more shared tokens beats fewer extra tokens
    c, r = one([("A", 2, 5)], [("A", 0, 3), ("A", 3, 9)])
    assert outcome(c, r, "gold", "A", 2, 5) == ("BEO", 1)      # A 3..9 shares 3 tokens


def test_shortest_counterpart_then_input_order():
    # equally similar candidates: the shorter one (by begin/last), then the first in the input
    c, r = one([("A", 1, 4)], [("A", 0, 2), ("A", 3, 5)])
    assert outcome(c, r, "gold", "A", 1, 4) == ("BEO", 0)
    c, r = one([("A", 1, 4)], [("A", 3, 5), ("A", 0, 2)])
    assert outcome(c, r, "gold", "A", 1, 4) == ("BEO", 1)      # A 3..5 came first in the input


def test_shortest_spans_first():
    # nested targets: the shorter A 0..1 is matched first (BEL); A 0..5 then takes the
    # system span's remaining token 2 (BES, pass 2)
    c, r = one([("A", 0, 5), ("A", 0, 1)], [("A", 0, 2)])
    assert outcome(c, r, "gold", "A", 0, 1) == ("BEL", 0)
    assert outcome(c, r, "gold", "A", 0, 5) == ("BES", 0)
    assert nonzero(r) == {"BE": 2, "BEL": 1, "BES": 1}


def test_paper_mode_and_faireval_skip_mode():
    gold, system = [("A", 0, 0), ("A", 2, 2)], [("A", 0, 1), ("A", 2, 3)]
    _c, r = one(gold, system)
    assert nonzero(r) == {"BE": 2, "BEL": 2}
    _c, r = one(gold, system, mode="faireval-skip")
    assert nonzero(r) == {"BE": 1, "BEL": 1, "FN": 1, "FP": 1}   # A 2..2 is skipped after A 0..0 matched


def test_repeated_identical_spans():
    # the reference matches identical spans as a multiset for the fair counts, but its
    # traditional count asks only whether an identical span exists on the other side
    g = SpanSet(np.array([0, 0]), np.array([1, 1]), np.array([0, 0], np.int32))
    s = SpanSet(np.array([0]), np.array([1]), np.array([0], np.int32))
    r = fair_errors(g, s, None, ["A"], np.array([0, 10]))
    assert nonzero(r) == {"TP": 1, "FN": 1}
    assert r.traditional_counts() == {"TP": 2, "FP": 0, "FN": 0}


def test_token_sets_decide_identity():
    # same range and label but other tokens (e.g. punctuation removed on one side only):
    # neither TP nor LE nor BE (same range), so FN + FP, as in the reference
    g = SpanSet(np.array([0]), np.array([3]), np.array([0], np.int32))
    s = SpanSet(np.array([0]), np.array([3]), np.array([0], np.int32))
    gt = TokenSets.from_dict({0: [0, 1, 3]})
    r = fair_errors(g, s, None, ["A"], np.array([0, 10]), gold_tokens=gt)
    assert nonzero(r) == {"FN": 1, "FP": 1}
    assert r.traditional_counts() == {"TP": 0, "FP": 1, "FN": 1}


def test_token_sets_steer_similarity():
    # without token 2 the target shares 1 token with A 2..3 and 2 with A 0..1
    g = SpanSet(np.array([0]), np.array([3]), np.array([0], np.int32))
    s = SpanSet(np.array([0, 2]), np.array([1, 3]), np.array([0, 0], np.int32))
    for holes, first in (({0: [0, 1, 2, 3]}, 0), ({0: [1, 3]}, 0), ({0: [0, 2, 3]}, 1)):
        r = fair_errors(g, s, None, ["A"], np.array([0, 10]), gold_tokens=TokenSets.from_dict(holes),
                        system_order=np.array([1, 0]) if first == 1 else None)
        assert r.outcomes.gold_partner[0] == (1 if holes[0] == [0, 2, 3] else 0)


def test_sentences_are_independent():
    _c, r = run([4, 4], [[("A", 0, 3)], [("A", 0, 1)]], [[("A", 2, 3)], [("A", 0, 1)]])
    assert nonzero(r) == {"TP": 1, "BE": 1, "BES": 1}


def test_empty_sides():
    _c, r = run([3], [[("A", 0, 1)]], [[]])
    assert nonzero(r) == {"FN": 1}
    _c, r = run([3], [[]], [[("A", 0, 1)]])
    assert nonzero(r) == {"FP": 1}


def test_report_and_scores():
    _c, r = one([("A", 0, 3), ("A", 5, 5), ("B", 7, 8)], [("A", 0, 2), ("A", 5, 5), ("C", 7, 8)])
    # TP 1, BES 1, LE 1: fair P = R = 1 / (1 + 0.5 + 0.5) = 0.5
    rep = fair_report(r, weights="eq7")
    assert rep["traditional"]["micro"]["tp"] == 1
    assert rep["fair"]["micro"]["precision"] == pytest.approx(0.5)
    # eq7: BES = 0.5 TP + 0.5 FN -> tp 1.5, fp 0.5 (LE), fn 1.0 (LE 0.5 + BES 0.5)
    assert rep["weighted"]["micro"]["precision"] == pytest.approx(1.5 / 2.0)
    assert rep["weighted"]["micro"]["recall"] == pytest.approx(1.5 / 2.5)
    assert rep["present_labels"] == ["A", "B", "C"]
    assert rep["target_stats"] == [{"label": "A", "gold": 2, "share": pytest.approx(2 / 3)},
                                   {"label": "B", "gold": 1, "share": pytest.approx(1 / 3)}]
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)
    assert method_scores({"TP": 2, "BE": 2}, "weighted", PRESETS["eq6"]) == \
        pytest.approx(prf(3, 0.5, 0.5))


# ---------------------------------------------------------------------------
# weights

def test_weights_reference_syntax():
    w = parse_weights(EQ7_FORMULA)
    assert list(w) == ["LE", "BES", "BEL", "BEO", "LBE", "TP", "FP", "FN"]
    assert w["BEO"] == {"TP": 0.5, "FP": 0.25, "FN": 0.25}
    assert w["LE"] == {"TP": 0, "FP": 0.5, "FN": 0.5}
    assert parse_weights("BE=0.5*TP+.25FP + 0.25 * FN")["BE"] == {"TP": 0.5, "FP": 0.25, "FN": 0.25}
    assert parse_weights("LE = 0") ["LE"] == {"TP": 0, "FP": 0, "FN": 0}
    assert parse_weights("default") == PRESETS["eq5"] == parse_weights("eq5")
    assert parse_weights("eq6")["BE"] == {"TP": 0.5, "FP": 0.25, "FN": 0.25}
    assert parse_weights("eq7") == w


@pytest.mark.parametrize("spec,msg", [
    ("", "empty"),
    ("XE = 0.5 FP", "unknown error type 'XE'"),
    ("LE = 0.5 XP", "'XP' is not TP, FP or FN"),
    ("LE 0.5 FP", "expected ERROR_TYPE ="),
    ("LE = 0.5 FP + ", "is not 'NUMBER [*] TP|FP|FN'"),
    ("LE = FP", "is not 'NUMBER"),
    ("LE = -0.5 FP", "is not 'NUMBER"),
    ("LE = 0.5 FP + 0.5 FP", "FP appears twice"),
    ("LE = 0.5 FP, LE = 0.5 FN", "LE is given twice"),
    ("BE = 0.5 FP, BES = 0.5 FN", "BE and its subtype"),
    ("LE = 0.5 FP = 1 FN", "more than one '='"),
    ("LE = 0.5 FP,", "expected ERROR_TYPE ="),
])
def test_weights_errors(spec, msg):
    with pytest.raises(ValueError, match=msg.replace("[", r"\[").replace("*", r"\*").replace("|", r"\|")):
        parse_weights(spec)


# ---------------------------------------------------------------------------
# an independent reading of the reference algorithm (plain lists and sets), for
# the property tests: whole sentences, no vectorised shortcuts, no bit sets

def _ref_overlap(t, s) -> bool:
    return s[1] <= t[2] and s[2] >= t[1] and (s[1], s[2]) != (t[1], t[2])


def _ref_type(t, s) -> str:
    (tb, te), (sb, se) = (t[1], t[2]), (s[1], s[2])
    if sb == tb:
        return "BES" if se < te else "BEL"
    if sb < tb:
        return "BEO" if se < te else "BEL"
    return "BES" if se <= te else "BEO"


def _ref_best(x, cands):
    def key(c):
        return (-len(x[3] & c[3]), len(x[3] - c[3]), len(c[3] - x[3]), c[2] - c[1])
    return sorted(cands, key=key)[0]


def reference_counts(T: list, S: list, skip: bool) -> Counter:
    """Error-type counts of one sentence; spans are [label, begin, last, set(tokens), id] in input order."""
    out: Counter = Counter()
    for t in [t for t in T if any(t[:4] == s[:4] for s in S)]:
        s = next((s for s in S if s[:4] == t[:4]), None)
        if s is not None:
            out["TP"] += 1
            S.remove(s)
            T.remove(t)
    for t in [t for t in T if any(t[0] != s[0] and t[1:3] == s[1:3] for s in S)]:
        s = next((s for s in S if t[0] != s[0] and t[1:3] == s[1:3]), None)
        if s is not None:
            out["LE"] += 1
            S.remove(s)
            T.remove(t)
    T.sort(key=lambda x: x[2] - x[1])
    S.sort(key=lambda x: x[2] - x[1])
    MT: list = []
    MS: list = []
    for same in (True, False):
        name = (lambda t, s: _ref_type(t, s)) if same else (lambda t, s: "LBE")
        # pass 1
        i = 0
        while i < len(T):
            t = T[i]
            c = [s for s in S if (s[0] == t[0]) == same and _ref_overlap(t, s)]
            if c:
                s = _ref_best(t, c)
                out[name(t, s)] += 1
                S.remove(s)
                T.remove(t)
                m = t[3] & s[3]
                t[3], s[3] = t[3] - m, s[3] - m
                MS.append(s)
                MT.append(t)
                i += 1 if skip else 0
            else:
                i += 1
        # pass 2
        i = 0
        while i < len(T):
            t = T[i]
            c = [s for s in MS if (s[0] == t[0]) == same and _ref_overlap(t, s) and t[3] & s[3]]
            if c:
                s = _ref_best(t, c)
                out[name(t, s)] += 1
                T.remove(t)
                m = t[3] & s[3]
                t[3], s[3] = t[3] - m, s[3] - m
                MT.append(t)
                i += 1 if skip else 0
            else:
                i += 1
        # pass 3
        i = 0
        while i < len(S):
            s = S[i]
            c = [t for t in MT if (t[0] == s[0]) == same and _ref_overlap(t, s) and t[3] & s[3]]
            if c:
                t = _ref_best(s, c)
                out[name(t, s)] += 1
                S.remove(s)
                m = t[3] & s[3]
                t[3], s[3] = t[3] - m, s[3] - m
                MS.append(s)
                i += 1 if skip else 0
            else:
                i += 1
    out["FN"] += len(T)
    out["FP"] += len(S)
    return out


@st.composite
def span_corpora(draw, max_sent=3, max_len=9, labels="ABC"):
    """Sentences with random (possibly nested, overlapping) gold spans and a system
    derived from them: copies, relabels, shifted boundaries, and random extras."""
    n_sent = draw(st.integers(1, max_sent))
    lengths = [draw(st.integers(1, max_len)) for _ in range(n_sent)]

    def spans_of(n):
        out = set()
        for _ in range(draw(st.integers(0, 5))):
            b = draw(st.integers(0, n - 1))
            e = draw(st.integers(b, min(n - 1, b + 4)))
            out.add((draw(st.sampled_from(labels)), b, e))
        return out

    gold, system = [], []
    for n in lengths:
        g = spans_of(n)
        s = set()
        for lab, b, e in g:
            op = draw(st.integers(0, 5))
            if op <= 1:
                s.add((lab, b, e))
            elif op == 2:
                s.add((draw(st.sampled_from(labels)), b, e))
            elif op == 3:
                nb = max(0, min(n - 1, b + draw(st.integers(-1, 1))))
                ne = max(nb, min(n - 1, e + draw(st.integers(-1, 1))))
                s.add((draw(st.sampled_from(labels)), nb, ne))
        s |= spans_of(n) if draw(st.booleans()) else set()
        gold.append(draw(st.permutations(sorted(g))))
        system.append(draw(st.permutations(sorted(s))))
    return lengths, gold, system


def _ref_total(lengths, gold, system, skip):
    total: Counter = Counter()
    for _n, g, s in zip(lengths, gold, system):
        T = [[lab, b, e, set(range(b, e + 1)), k] for k, (lab, b, e) in enumerate(g)]
        S = [[lab, b, e, set(range(b, e + 1)), k] for k, (lab, b, e) in enumerate(s)]
        total += reference_counts(T, S, skip)
    return total


PROP = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@PROP
@given(span_corpora(), st.sampled_from(["paper", "faireval-skip"]))
def test_property_matches_plain_reference_reading(data, mode):
    lengths, gold, system = data
    _c, r = run(lengths, gold, system, mode=mode)
    want = _ref_total(lengths, gold, system, mode == "faireval-skip")
    got = r.counts()
    for k in ("TP", "FP", "FN", "LE", "BES", "BEL", "BEO", "LBE"):
        assert got[k] == want.get(k, 0), k


@pytest.mark.slow
@PROP
@given(span_corpora())
def test_property_every_span_once_and_bounds(data):
    lengths, gold, system = data
    c, r = run(lengths, gold, system)
    n, m = len(c.gold), len(c.systems["system"])
    o = r.outcomes
    assert (o.gold_type >= 0).all() and (o.system_type >= 0).all()
    assert set(o.gold_type.tolist()) <= {TP, FN, LE, BES, BEL, BEO, LBE}
    assert set(o.system_type.tolist()) <= {TP, FP, LE, BES, BEL, BEO, LBE}
    counts = r.counts()
    total = sum(v for k, v in counts.items() if k != "BE")
    # each event is one shared or one gold-only or one system-only outcome
    assert total == int(o.gold_shared.sum()) + int((~o.gold_shared).sum()) + int((~o.system_shared).sum())
    assert max(n, m) <= total <= n + m
    assert counts["BE"] == counts["BES"] + counts["BEL"] + counts["BEO"]
    assert int(o.gold_shared.sum()) == int(o.system_shared.sum())
    # partners point back for shared outcomes
    for g in np.flatnonzero(o.gold_shared).tolist():
        assert o.system_partner[o.gold_partner[g]] == g
    # traditional
    t = r.traditional_counts()
    assert t["TP"] + t["FN"] == n and t["TP"] + t["FP"] == m
    assert r.confusion.sum() == total - counts["TP"]


@pytest.mark.slow
@PROP
@given(span_corpora(), st.sampled_from(["paper", "faireval-skip"]), st.sampled_from(["target", "system"]))
def test_property_identical_inputs_only_tp(data, mode, focus):
    lengths, gold, _ = data
    c, r = run(lengths, gold, gold, mode=mode, focus=focus)
    assert nonzero(r) == ({"TP": len(c.gold)} if len(c.gold) else {})
    assert r.confusion.sum() == 0


@pytest.mark.slow
@PROP
@given(span_corpora())
def test_property_clusters_equal_whole_sentences(data):
    lengths, gold, system = data
    _c, a = run(lengths, gold, system)
    _, b = run(lengths, gold, system, _units="sentence")
    for f in ("gold_type", "gold_partner", "system_type", "system_partner"):
        assert np.array_equal(getattr(a.outcomes, f), getattr(b.outcomes, f)), f


@st.composite
def one_gold_two_system(draw, labels="AB"):
    """Sentences that each hold one gold span and two system spans near it (the clusters of one gold and
    two system spans are resolved at once, not span by span): equal, nested, shifted, disjoint, with the
    same or another label, in any input order."""
    n_sent = draw(st.integers(1, 4))
    lengths, gold, system = [], [], []
    for _ in range(n_sent):
        n = draw(st.integers(3, 10))
        b = draw(st.integers(0, n - 1))
        e = draw(st.integers(b, min(n - 1, b + 4)))
        sys_spans = []
        while len(sys_spans) < 2:
            sb = draw(st.integers(max(0, b - 2), min(n - 1, e + 2)))
            se = draw(st.integers(sb, min(n - 1, sb + 5)))
            span = (draw(st.sampled_from(labels)), sb, se)
            if span not in sys_spans:
                sys_spans.append(span)
        lengths.append(n)
        gold.append([(draw(st.sampled_from(labels)), b, e)])
        system.append(sys_spans)
    return lengths, gold, system


@pytest.mark.slow
@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(one_gold_two_system())
def test_property_one_gold_two_system_clusters_equal_the_sequential_algorithm(data):
    lengths, gold, system = data
    _c, a = run(lengths, gold, system)
    _, b = run(lengths, gold, system, _units="sentence")
    for f in ("gold_type", "gold_partner", "gold_shared", "system_type", "system_partner", "system_shared"):
        assert np.array_equal(getattr(a.outcomes, f), getattr(b.outcomes, f)), f


@pytest.mark.slow
@PROP
@given(span_corpora())
def test_property_focus_moves_only_le_and_lbe(data):
    lengths, gold, system = data
    _, a = run(lengths, gold, system, focus="target")
    _, b = run(lengths, gold, system, focus="system")
    assert a.counts() == b.counts()
    keep = [ERROR_TYPES.index(k) for k in ("TP", "FP", "FN", "BE", "BES", "BEL", "BEO")]
    assert np.array_equal(a.fair[:, keep], b.fair[:, keep])
    assert np.array_equal(a.confusion, b.confusion)


# ---------------------------------------------------------------------------
# readers

def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_span_file_reader(tmp_path):
    t = write(tmp_path / "t.csv", "A\t1\t2\t1, 2\nB\t4\t4\t4\n\nNONE\t999\t999\t999\n\n\nC\t2\t5\t2, 3, 5\n")
    s = write(tmp_path / "s.csv", "A\t1\t2\t1,2\n\nEMPTY\t999\t999\t999\n\nC\t3\t2\t\n")
    fd = read_faireval(t, s)
    c = fd.corpus
    assert c.n_sentences == 3
    assert c.sent_offsets.tolist() == [0, 4, 5, 10]       # lengths: max last token of kept spans + 1, else 1
    assert c.labels == ["A", "B", "C"]
    assert list(zip(c.gold.start.tolist(), c.gold.last.tolist())) == [(0, 1), (3, 3), (6, 9)]
    ss = c.systems["system"]
    assert list(zip(ss.start.tolist(), ss.last.tolist())) == [(0, 1), (6, 7)]   # 3 2 swapped, no tokens = range
    assert c.system_info["system"].repairs == 1
    assert fd.gold.tokens.get(2).tolist() == [6, 7, 9] and fd.gold.tokens.get(0) is None
    assert fd.excluded == {"gold": 1, "system": 1}
    fd2 = read_faireval(t, s, labels=["A"], exclude=["B"])
    assert fd2.corpus.labels == ["A"]


@pytest.mark.parametrize("line,msg", [
    ("A\t1\n", "2 tab-separated fields"),
    ("\t1\t2\t1, 2\n", "empty label"),
    ("A\tx\t2\t1\n", "expected integer token indices"),
    ("A\t0\t2\t1\n", "token indices start at 1"),
    ("A\t1\t2\t1, x\n", "expected comma-separated integers"),
    ("A\t2\t3\t1, 2\n", "must lie within begin 2 .. end 3"),
])
def test_span_file_errors(tmp_path, line, msg):
    p = write(tmp_path / "bad.csv", "A\t1\t1\t1\n\n" + line)
    with pytest.raises(InputError, match=msg) as err:
        read_span_file(p)
    assert err.value.path == p and err.value.line == 3


def test_sentence_counts_must_agree(tmp_path):
    t = write(tmp_path / "t.csv", "A\t1\t1\t1\n\nA\t1\t1\t1\n")
    s = write(tmp_path / "s.csv", "A\t1\t1\t1\n")
    with pytest.raises(InputError, match=r"has 2 sentences, system .* has 1"):
        read_faireval(t, s)


def test_directories_pair_by_name(tmp_path):
    for side in ("target", "system"):
        write(tmp_path / side / "a.csv", "A\t1\t2\t1, 2\n")
        write(tmp_path / side / "b.csv", "B\t1\t1\t1\n")
    fd = read_faireval(str(tmp_path / "target"), str(tmp_path / "system"))
    assert fd.corpus.n_sentences == 2 and fd.corpus.labels == ["A", "B"]
    write(tmp_path / "system" / "c.csv", "B\t1\t1\t1\n")
    with pytest.raises(InputError, match=r"no target file for c\.csv"):
        read_faireval(str(tmp_path / "target"), str(tmp_path / "system"))


README_EXAMPLE = """Das ART B-S|B-NP
ist VAFIN I-S|B-VP
ein ART I-S|I-VP|B-NP
einfacher ADJA I-S|I-VP|I-NP|B-AP
Satz NN I-S|I-VP|I-NP
. $. I-S|
"""


def test_conll2000_stacked_readme_example(tmp_path):
    p = write(tmp_path / "x.conll", README_EXAMPLE)
    r = read_conll2000_file(p, ignore_punct=False)
    # the reference emits spans as its stack closes them
    assert list(zip(r.label, r.begin, r.last)) == [("NP", 0, 0), ("AP", 3, 3), ("NP", 2, 4), ("S", 0, 5),
                                                  ("VP", 1, 4)]
    r = read_conll2000_file(p, ignore_punct=True)
    assert ("S", 0, 4) in list(zip(r.label, r.begin, r.last)) and not r.tokens


def test_conll2000_punctuation(tmp_path):
    p = write(tmp_path / "p.conll", '" $( B-NP\nHaus NN I-NP\n, $, I-NP\n. $. I-NP\nund KON B-X\n, $, B-Y\n')
    r = read_conll2000_file(p, ignore_punct=True)
    # NP 0..3: begin moves past the quote, end back by one token only (the reference's
    # rule), which leaves the comma inside the range but outside the token set; the
    # span of punctuation only is dropped
    assert list(zip(r.label, r.begin, r.last)) == [("NP", 1, 2), ("X", 4, 4)]
    assert r.tokens == {0: [1]}
    assert r.punct_dropped == 1
    r = read_conll2000_file(p, ignore_punct=False)
    assert list(zip(r.label, r.begin, r.last)) == [("NP", 0, 3), ("X", 4, 4), ("Y", 5, 5)]


def test_conll2000_pair_and_errors(tmp_path):
    t = write(tmp_path / "t.conll", "a NN B-NP\nb NN I-NP\n\nc NN B-VP\n")
    s = write(tmp_path / "s.conll", "a NN B-NP\nb NN B-NP\n\nc NN B-VP\n")
    fd = read_faireval(t, s)
    assert fd.format == "conll2000"
    c = fd.corpus
    r = fair_errors(c.gold, c.systems["system"], None, c.labels, c)
    assert nonzero(r) == {"TP": 1, "BE": 2, "BES": 2}
    s2 = write(tmp_path / "s2.conll", "a NN B-NP\nb NN I-NP\nc NN B-VP\n")
    with pytest.raises(InputError, match=r"has 2 sentences, system .* has 1"):
        read_faireval(t, s2)
    s3 = write(tmp_path / "s3.conll", "a NN B-NP\nb NN I-NP\n\nc NN E-VP\n")
    with pytest.raises(InputError, match="'E-VP' is not B-LABEL") as err:
        read_faireval(t, s3)
    assert err.value.line == 4


def _reference_stack_reader(rows: List[str]) -> List[Tuple[str, int, int, Tuple[int, ...]]]:
    """The reference's CoNLL-2000 stack procedure, read from its README and applied
    to well-formed input: spans in emission order, 0-based, with token sets."""
    spans: list = []
    stack: list = []
    for t, ann in enumerate(rows):
        if ann in ("O", "_", ""):
            while stack:
                spans.append(stack.pop(0))
            continue
        comps = ann.split("|")
        while len(stack) > len(comps):
            spans.append(stack.pop())
        for i, a in enumerate(comps):
            if a.startswith("B-"):
                if i == 0 and stack:
                    while stack:
                        spans.append(stack.pop(0))
                else:
                    while len(stack) > i:
                        spans.append(stack.pop())
                stack.append([a[2:], t, t, {t}])
            elif a.startswith("I-"):
                stack[i][2] = t
                stack[i][3].add(t)
    while stack:
        spans.append(stack.pop(0))
    return [(lab, b, e, tuple(sorted(toks))) for lab, b, e, toks in spans]


@st.composite
def stacked_rows(draw):
    """Well-formed stacked BIO annotations of one sentence (a random bracketing)."""
    n = draw(st.integers(1, 10))
    rows = [[] for _ in range(n)]

    def fill(a, b, depth):
        t = a
        while t < b:
            if depth < 3 and draw(st.integers(0, 2)):
                e = draw(st.integers(t, b - 1))
                lab = draw(st.sampled_from("PQR"))
                for k in range(t, e + 1):
                    rows[k].append(("B-" if k == t else "I-") + lab)
                fill(t, e + 1, depth + 1)
                t = e + 1
            else:
                t += 1
    fill(0, n, 0)
    out = []
    for r in rows:
        if not r:
            out.append("O")
        elif len(r) > 1 and r[-1].startswith("I-") and draw(st.integers(0, 3)) == 0:
            # an empty innermost component (the README's "I-S|"): the span stays open
            # without this token, so it may close later and have a gap
            out.append("|".join(r[:-1] + [""]))
        else:
            out.append("|".join(r))
    return out


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(stacked_rows(), min_size=1, max_size=3))
def test_property_conll2000_reader_matches_stack_procedure(tmp_path_factory, sents):
    path = tmp_path_factory.mktemp("c") / "x.conll"
    path.write_text("\n\n".join("\n".join(f"w{i} NN {a}" for i, a in enumerate(s)) for s in sents) + "\n")
    r = read_conll2000_file(str(path), ignore_punct=False)
    want, want_tokens = [], {}
    for k, s in enumerate(sents):
        for lab, b, e, toks in _reference_stack_reader(s):
            if len(toks) != e - b + 1:
                want_tokens[len(want)] = list(toks)
            want.append((k, lab, b, e))
    assert list(zip(r.sent, r.label, r.begin, r.last)) == want
    assert r.tokens == want_tokens


# ---------------------------------------------------------------------------
# command line

REF_CONFIG = """############ Input ############
target_in = {t}
system_in = {s}

#### Labels
labels = all
exclude =
ignore_punct = False
focus = target
eval_method = all
weights = LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, \
BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN

# output file; if omitted: output to cmd
eval_out = {out}
"""


def _cli(argv: List[str]) -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command")
    cli_fair.register(sub)
    return cli_fair.run(ap.parse_args(argv))


def test_cli_reference_config(tmp_path, monkeypatch):
    # the reference's layout: config next to src/, data and eval folders beside it
    (tmp_path / "src").mkdir()
    (tmp_path / "eval").mkdir()
    for side in ("target", "system"):
        write(tmp_path / "data" / side / "ner_spans.csv",
              (FIX / side / "ner_spans.csv").read_text(encoding="utf-8"))
    cfg = write(tmp_path / "config" / "ner.config",
                REF_CONFIG.format(t="./../data/target/ner_spans.csv", s="./../data/system/ner_spans.csv",
                                  out="./../eval/eval_ner.csv"))
    monkeypatch.chdir(tmp_path / "src")
    assert _cli(["fair", "--config", cfg]) == 0
    assert (tmp_path / "eval" / "eval_ner.csv").read_text(encoding="utf-8") == NER_REPORT


def test_cli_directory_output_and_defaults(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    cfg = write(tmp_path / "c.config", f"target_in = {NER_T}\nsystem_in = {NER_S}\neval_out = {out}\n")
    assert _cli(["fair", "--config", cfg]) == 0
    text = (out / "eval.csv").read_text()
    # no weights: the weighted method is dropped (the reference shows fair instead)
    assert "### Weighted" not in text and "eval_method: ['traditional', 'fair']" in text
    cfg = write(tmp_path / "d.config", f"target_in = {NER_T}\nsystem_in = {NER_S}\nfocus = system\n"
                                       "eval_method = fair\nweights = eq6\n")
    assert _cli(["fair", "--config", cfg, "--format", "json"]) == 0
    assert '"focus": "system"' in capsys.readouterr().out


@pytest.mark.parametrize("extra,msg", [
    ("colour = blue\n", "unknown key 'colour'"),
    ("focus = both\n", "focus = 'both': expected target or system"),
    ("ignore_punct = maybe\n", "expected true or false"),
    ("eval_method = fancy\n", "eval_method 'fancy'"),
    ("weights = LE = 0.5 XP\n", "'XP' is not TP, FP or FN"),
])
def test_cli_config_errors(tmp_path, extra, msg):
    cfg = write(tmp_path / "c.config", f"target_in = {NER_T}\nsystem_in = {NER_S}\n" + extra)
    with pytest.raises(InputError, match=msg) as err:     # the config file is an input: exit 1
        _cli(["fair", "--config", cfg])
    assert ":3:" in str(err.value)


def test_cli_missing_input(tmp_path):
    cfg = write(tmp_path / "c.config", f"target_in = {NER_T}\n")
    with pytest.raises(InputError, match="system_in is missing"):
        _cli(["fair", "--config", cfg])
    cfg = write(tmp_path / "d.config", f"target_in = {NER_T}\nsystem_in = nowhere.csv\n")
    with pytest.raises(InputError, match="no such file"):
        _cli(["fair", "--config", cfg])


def _reference_punct(spans: list, punct: List[bool]) -> list:
    """The reference's ignore_punct procedure on [label, begin, last, set(tokens)] spans."""
    spans = [[lab, b, e, set(toks)] for lab, b, e, toks in spans]
    for i, p in enumerate(punct):
        if not p:
            continue
        for s in spans:
            s[3].discard(i)
            if s[1] == i:
                s[1] = i + 1 if s[2] is not None and s[2] > i else None
            if s[2] == i:
                s[2] = i - 1 if s[1] is not None and s[1] <= i - 1 else None
        spans = [s for s in spans if s[1] is not None and s[2] is not None and s[3]]
    return spans


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(stacked_rows(), st.lists(st.booleans(), min_size=10, max_size=10)),
                min_size=1, max_size=3))
def test_property_conll2000_ignore_punct_matches_reference(tmp_path_factory, sents):
    path = tmp_path_factory.mktemp("p") / "x.conll"
    path.write_text("\n\n".join("\n".join(f"w{i} {'$,' if p[i] else 'NN'} {a}" for i, a in enumerate(rows))
                                for rows, p in sents) + "\n")
    r = read_conll2000_file(str(path), ignore_punct=True)
    want, want_tokens = [], {}
    for k, (rows, p) in enumerate(sents):
        for lab, b, e, toks in _reference_punct(_reference_stack_reader(rows), p[:len(rows)]):
            if sorted(toks) != list(range(b, e + 1)):
                want_tokens[len(want)] = sorted(toks)
            want.append((k, lab, b, e))
    assert list(zip(r.sent, r.label, r.begin, r.last)) == want
    assert r.tokens == want_tokens


# ---------------------------------------------------------------------------
# per-sentence outcome counts (the sufficient statistics of every fair score); layers

def test_sentence_outcomes_by_hand():
    from ts_eval.fair import sentence_outcomes

    # sentence 0: PER 0..1 found (TP); LOC 3..4 found as ORG 3..4 (LE)
    # sentence 1: PER 0..2 found as PER 0..1 (BES); a spurious LOC 4..4 (FP)
    c = from_spans([5, 5], [[("PER", 0, 2), ("LOC", 3, 5)], [("PER", 0, 3)]],
                   {"s": [[("PER", 0, 2), ("ORG", 3, 5)], [("PER", 0, 2), ("LOC", 4, 5)]]})
    per, loc, org = (c.labels.index(x) for x in ("PER", "LOC", "ORG"))
    for focus, le_label in (("target", loc), ("system", org)):
        res = fair_errors(c.gold, c.systems["s"], None, c.labels, c, focus=focus)
        out = sentence_outcomes(res.outcomes, c.gold, c.systems["s"], len(c.labels), c, focus)
        want = np.zeros((2, len(c.labels), 8), np.int64)
        want[0, per, TP] = 1
        want[0, le_label, LE] = 1
        want[1, per, BES] = 1
        want[1, loc, FP] = 1
        assert np.array_equal(out, want), focus
        # the result's totals are the column sums (BE = BES + BEL + BEO added)
        cols = [ERROR_TYPES.index(n) for n in OUTCOME_NAMES]
        assert np.array_equal(res.fair[:, cols], out.sum(axis=0))


def test_sentence_outcomes_equal_the_ranking_statistics():
    # the ranking statistics of the fair models are these outcomes per sentence,
    # on a case with several mutually overlapping spans
    from ts_eval.fair import sentence_outcomes
    from ts_eval.models.fair import fair_stats
    from ts_eval.ranking import sufficient

    c = from_spans([9, 6], [[("A", 0, 4), ("B", 2, 6), ("A", 7, 9)], [("B", 0, 6)]],
                   {"s": [[("A", 0, 2), ("A", 2, 5), ("B", 5, 8), ("C", 8, 9)], [("A", 1, 3), ("B", 3, 4)]]})
    res = fair_errors(c.gold, c.systems["s"], None, c.labels, c, focus="target")
    out = sentence_outcomes(res.outcomes, c.gold, c.systems["s"], len(c.labels), c)
    assert out.sum() == len(c.gold) + int((~res.outcomes.system_shared).sum())
    sd = sufficient.CorpusData(c).system("s")
    assert np.array_equal(out.reshape(c.n_sentences, -1), fair_stats(sd))


def test_token_sets_live_in_the_core():
    # the readers build them and the fair model reads them (tests/test_architecture.py: io loads no model)
    import ts_eval.io.faireval as reader

    assert TokenSets.__module__ == "ts_eval.core.tokensets" and reader.TokenSets is TokenSets


def test_prf_is_the_one_helper_of_measures():
    from ts_eval.core import measures

    # the reference's zero rule and measures' are one rule: 0.0 wherever a denominator is 0; F from P and R
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)
    assert prf(0, 3, 0) == (0.0, 0.0, 0.0)
    p, r, f = prf(5, 2, 1)
    assert (p, r) == (5 / 7, 5 / 6) and f == measures.f_from_pr(5 / 7, 5 / 6)
    assert f == pytest.approx(2 * 5 / (2 * 5 + 2 + 1))
    assert prf(97.5, 2.25, 3.0) == (measures.precision(97.5, 2.25), measures.recall(97.5, 3.0),
                                    measures.f_from_pr(97.5 / 99.75, 97.5 / 100.5))


def test_bad_options_are_option_errors():
    from ts_eval.errors import OptionError

    g = SpanSet(np.array([0]), np.array([1]), np.array([0], np.int32))
    with pytest.raises(OptionError, match="focus"):
        fair_errors(g, g, None, ["A"], np.array([0, 3]), focus="gold")
    with pytest.raises(OptionError, match="mode"):
        fair_errors(g, g, None, ["A"], np.array([0, 3]), mode="fast")
    with pytest.raises(OptionError, match="unknown error type"):
        parse_weights("XX = 1 TP")
    with pytest.raises(OptionError, match="method"):
        method_scores({"TP": 1}, "best")
    assert issubclass(OptionError, ValueError) and issubclass(UsageError, OptionError)
