"""Errors a person can read (issue 19.5): span confusion matrices worked out by hand (exact and
overlap, one system span covering two gold spans, the tie-breaks of the counterpart rule), errors
grouped by surface string, per-document scores that add up to the overall counts, gold suspects on
a hand-made corpus of five systems, strings gold labels inconsistently, and that the order of the
systems never matters (hypothesis).  The pages fit 80 and 120 columns (Chromium:
test_analysis_errors_browser.py).

Every corpus here is hand-made (no Reuters text): CoNLL-style files written to a temporary folder,
so that token texts and line numbers are real.
"""
from __future__ import annotations

import dataclasses
import doctest
import json
from pathlib import Path
from typing import Dict, List, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pages import DEMO_SYSTEMS, demo_corpus
from support import fit_check
from test_vocabulary import offenders

import ts_eval
from ts_eval.analysis import errors as errors_module
from ts_eval.analysis.errors import error_analysis
from ts_eval.core.sequences import from_spans
from ts_eval.errors import OptionError
from ts_eval.fair import fair_corpus
from ts_eval.io import read_conll
from ts_eval.output.builders import build
from ts_eval.output.renderers import render


def conll(tmp_path: Path, name: str, sentences: Sequence[Sequence[str]]) -> Path:
    """A column file of whitespace-separated lines (one sentence per block)."""
    lines: List[str] = []
    for s in sentences:
        lines += list(s) + [""]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read(path: Path, systems: Sequence[str]):
    return read_conll(str(path), gold_column=2, system_columns=list(range(3, 3 + len(systems))), names=list(systems))


# ---------------------------------------------------------------------------
# the confusion matrices, by hand

CONFUSION = [
    ["Anna B-PER B-PER", "Smith I-PER I-PER", "in O O", "Paris B-LOC B-ORG", "said O O", "Acme B-ORG B-ORG",
     "Corp I-ORG I-ORG", "Berlin B-LOC I-ORG", "office I-LOC I-ORG", "today O B-MISC"],
    ["Bob B-PER B-PER", "Lee I-PER B-LOC", "Jones I-PER I-LOC", "visited O O", "Rome B-LOC O"],
    ["the O O", "New B-ORG B-LOC", "York I-ORG I-LOC", "Times I-ORG B-MISC"],
    ["Ann B-PER B-LOC", "Lee I-PER B-ORG"],
]


@pytest.fixture
def confusion_corpus(tmp_path):
    return read(conll(tmp_path, "confusion.conll", CONFUSION), ["s"])


def test_the_exact_confusion_matrix_by_hand(confusion_corpus):
    c = error_analysis(confusion_corpus).systems[0].confusion["exact"]
    # Paris: same tokens, other label; Acme Corp and Berlin office: the system's Acme Corp Berlin office
    # has neither's boundaries (missed, and it is spurious); Bob Lee Jones, Rome, New York Times, Ann Lee missed
    assert c.matrix() == {
        "LOC": {"LOC": 0, "MISC": 0, "ORG": 1, "PER": 0, "missed": 2},
        "MISC": {"LOC": 0, "MISC": 0, "ORG": 0, "PER": 0, "missed": 0},
        "ORG": {"LOC": 0, "MISC": 0, "ORG": 0, "PER": 0, "missed": 2},
        "PER": {"LOC": 0, "MISC": 0, "ORG": 0, "PER": 1, "missed": 2},
        "spurious": {"LOC": 3, "MISC": 2, "ORG": 2, "PER": 1}}
    assert (c.gold, c.system, c.spurious, c.unpaired) == (8, 10, 8, 0)


def test_the_overlap_confusion_matrix_by_hand(confusion_corpus):
    c = error_analysis(confusion_corpus).systems[0].confusion["overlap"]
    # the system's Acme Corp Berlin office covers two gold spans: the ORG one counts it as its ORG, the LOC
    # one as its ORG too; Bob Lee Jones takes Bob (same label first) and leaves Lee Jones unpaired; New York
    # Times takes New York (two shared tokens beat one) and leaves Times; Ann Lee takes Ann (one token
    # each, one outside each: the first to start) and leaves Lee; only "today" touches no gold span
    assert c.matrix() == {
        "LOC": {"LOC": 0, "MISC": 0, "ORG": 2, "PER": 0, "missed": 1},
        "MISC": {"LOC": 0, "MISC": 0, "ORG": 0, "PER": 0, "missed": 0},
        "ORG": {"LOC": 1, "MISC": 0, "ORG": 1, "PER": 0, "missed": 0},
        "PER": {"LOC": 1, "MISC": 0, "ORG": 0, "PER": 2, "missed": 0},
        "spurious": {"LOC": 0, "MISC": 1, "ORG": 0, "PER": 0}}
    assert (c.gold, c.system, c.spurious, c.unpaired) == (8, 10, 1, 3)


def test_the_diagonals_are_the_models_hits(confusion_corpus):
    ea = error_analysis(confusion_corpus)
    rep = ts_eval.score(confusion_corpus, models=["exact", "overlap"]).to_dict()["systems"][0]
    conf = ea.systems[0].confusion
    assert conf["exact"].diagonal == rep["exact"]["micro"]["tp"] == 1
    assert conf["overlap"].diagonal == rep["overlap"]["micro"]["gold_hit"] == 3


def test_a_label_called_missed_keeps_its_own_column(tmp_path):
    c = read(conll(tmp_path, "m.conll", [["a B-missed B-missed", "b O B-spurious"]]), ["s"])
    m = error_analysis(c).systems[0].confusion["exact"].matrix()
    assert m["missed"] == {"missed": 1, "spurious": 0, "missed*": 0}
    assert m["spurious*"] == {"missed": 0, "spurious": 1}


# ---------------------------------------------------------------------------
# errors grouped by surface string

GROUPS = [
    ["In O O", "Paris B-LOC B-ORG", "Acme B-ORG O", "rose O O", "today O B-MISC"],
    ["Paris B-LOC B-ORG", "and O O", "Acme B-ORG O", "and O O", "Lyon B-LOC B-LOC"],
    ["Paris B-LOC B-ORG", "New B-LOC B-LOC", "York I-LOC O"],
]


def test_errors_are_grouped_by_type_and_strings(tmp_path):
    path = conll(tmp_path, "groups.conll", GROUPS)
    corpus = read(path, ["s"])
    x = error_analysis(corpus).systems[0]
    got = [(e.type, e.gold_label, e.gold_text, e.system_label, e.system_text, e.count) for e in x.errors]
    assert got == [("LE", "LOC", "Paris", "ORG", "Paris", 3), ("FN", "ORG", "Acme", None, None, 2),
                   ("FP", None, None, "MISC", "today", 1), ("BES", "LOC", "New York", "LOC", "New", 1)]
    first = x.errors[0].example
    assert first.where["gold"] == {"path": str(path), "line": 2} and first.where["system"]["line"] == 2
    assert first.tokens == ["In", "Paris", "Acme", "rose", "today"] and first.focus == [1]
    assert first.spans == {"gold": [("LOC", 1, 2), ("ORG", 2, 3)], "system": [("ORG", 1, 2), ("MISC", 4, 5)]}
    assert x.errors[1].example.where["gold"]["line"] == 3
    # the errors of a system are its fair counts
    fair = fair_corpus(corpus, "s").counts()
    assert {k: v for k, v in x.types.items()} == {k.lower(): fair[k] for k in ("FN", "FP", "LE", "BES", "BEL", "BEO",
                                                                             "LBE", "BE")}
    assert x.distinct == 4


def test_top_cuts_the_list_and_none_keeps_all(tmp_path):
    corpus = read(conll(tmp_path, "groups.conll", GROUPS), ["s"])
    assert [e.count for e in error_analysis(corpus, top=2).systems[0].errors] == [3, 2]
    assert len(error_analysis(corpus, top=None).systems[0].errors) == 4


def test_pooled_errors_count_occurrences_and_systems(tmp_path):
    rows = [["In O O O", "Paris B-LOC B-ORG B-ORG", "today O B-MISC O"],
            ["Paris B-LOC B-ORG B-LOC", "rose O O O"]]
    ea = error_analysis(read(conll(tmp_path, "p.conll", rows), ["b", "a"]))
    top = ea.pooled.errors[0]
    assert (top.type, top.gold_text, top.system_label, top.count, top.by_systems) == ("LE", "Paris", "ORG", 3, 2)
    assert top.example.transition == "gold → a"        # the first occurrence; a tie goes to the name that sorts first
    assert ea.pooled.types["le"] == 3 and ea.pooled.types["fp"] == 1


# ---------------------------------------------------------------------------
# per-document scores

DOCS = [
    ["DOC"],
    ["Anna B-PER B-PER B-PER", "in O O O", "Paris B-LOC B-ORG B-LOC"],
    ["Acme B-ORG B-ORG O", "Corp I-ORG I-ORG O"],
    ["DOC"],
    ["Bob B-PER B-PER B-PER", "Lee I-PER O I-PER", "in O O O", "Rome B-LOC B-LOC O"],
    ["DOC"],
    ["nothing O B-MISC O"],
]


def docstart_file(tmp_path: Path) -> Path:
    lines: List[str] = []
    for s in DOCS:
        lines += ["-DOCSTART- O O O", ""] if s == ["DOC"] else list(s) + [""]
    path = tmp_path / "docs.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _sums_match(corpus, ea) -> None:
    rep = ts_eval.score(corpus, models=["exact", "ts"]).to_dict()
    docs = ea.documents.to_dict()
    for s in rep["systems"]:
        ex, ts = s["exact"]["micro"], s["ts"]["micro"]
        per = [d["systems"][s["name"]] for d in docs]
        for k in ("tp", "gold", "system"):
            assert sum(p["exact"][k] for p in per) == ex[k], (s["name"], k)
        assert sum(p["exact"]["fp"] for p in per) == ex["system"] - ex["tp"]
        for k in ("tp", "fp", "fn"):
            assert sum(p["ts"][k] for p in per) == pytest.approx(ts[k]), (s["name"], k)
    assert sum(d["tokens"] for d in docs) == corpus.n_tokens
    assert sum(d["sentences"] for d in docs) == corpus.n_sentences
    assert sum(d["gold"] for d in docs) == len(corpus.gold)


def _document(d, k: int, j: int, matching: str) -> dict:
    """System ``k``'s counts and scores in document ``j`` under ``matching`` (exact, ts)."""
    return {c: v[j] for c, v in d.columns(k)[matching].items()}


def test_documents_by_docstart_by_hand(tmp_path):
    corpus = read(docstart_file(tmp_path), ["a", "b"])
    ea = error_analysis(corpus)
    d = ea.documents
    assert d.unit == "document"
    assert d.sentences.tolist() == [2, 1, 1] and d.tokens.tolist() == [5, 4, 1] and d.gold.tolist() == [3, 2, 0]
    assert d.lines == [3, 12, 19]                 # the line of each document's first token
    a1 = _document(d, 0, 0, "exact")                    # a, document 1: Anna right, Paris wrong label, Acme Corp right
    assert (a1["tp"], a1["fp"], a1["fn"], a1["f"]) == (2, 1, 1, pytest.approx(2 / 3))
    b2 = _document(d, 1, 1, "exact")                    # b, document 2: Bob Lee right, Rome missed
    assert (b2["tp"], b2["fp"], b2["fn"], b2["precision"], b2["recall"]) == (1, 0, 1, 1.0, 0.5)
    t = _document(d, 0, 1, "ts")                        # a, document 2: Bob (1 token of Bob Lee's 3 units), Rome
    assert (t["tp"], t["fp"], t["fn"]) == (2.0, 0.0, 2.0)
    assert _document(d, 0, 2, "exact")["fp"] == 1 and _document(d, 1, 2, "exact")["system"] == 0
    _sums_match(corpus, ea)


def test_documents_add_up_to_the_overall_counts_on_the_demo():
    corpus = demo_corpus()
    ea = error_analysis(corpus)
    assert ea.documents.unit == "sentence" and len(ea.documents.sentences) == corpus.n_sentences
    _sums_match(corpus, ea)


# ---------------------------------------------------------------------------
# gold suspects: five systems

#        token        gold     s1      s2      s3      s4      s5
SUSPECTS = [
    ["Karlsruhe   B-LOC  B-ORG  B-ORG  B-ORG  B-ORG  B-LOC",
     "won         O      O      O      O      O      O",
     "against     O      O      O      O      O      O",
     "Acme        B-ORG  B-LOC  B-LOC  B-MISC B-MISC B-ORG",
     ".           O      O      O      O      O      O"],
    ["John        B-PER  B-PER  B-PER  B-PER  B-PER  B-PER",
     "Mills       I-PER  I-PER  I-PER  I-PER  I-PER  I-PER",
     "Jr          O      I-PER  I-PER  I-PER  O      O",
     "watched     O      O      O      O      O      O",
     "Premier     B-MISC O      O      O      B-MISC B-MISC",
     "league      I-MISC O      O      O      I-MISC I-MISC"],
    ["RUGBY       B-ORG  B-ORG  B-ORG  B-ORG  B-ORG  B-ORG",
     "-           O      O      O      O      O      O",
     "BRITISH     O      B-MISC B-MISC B-MISC B-MISC B-MISC",
     "RESULTS     O      O      O      O      O      O",
     "Foo         O      B-ORG  B-ORG  O      O      O"],
]
FIVE = ["s1", "s2", "s3", "s4", "s5"]


@pytest.fixture
def five(tmp_path):
    return read(conll(tmp_path, "five.conll", SUSPECTS), FIVE)


def test_gold_suspects_of_five_systems_by_hand(five):
    s = error_analysis(five).suspects
    assert s.min_agree == 3                       # more than half of 5, and at least 3
    got = [(x.type, x.gold_label, x.gold_text, x.label, x.text, x.agreeing, x.confirming, x.systems)
           for x in s.suspects]
    assert got == [
        # all five mark BRITISH where gold has nothing; no system leaves it alone
        ("FP", None, None, "MISC", "BRITISH", 5, 0, FIVE),
        ("LE", "LOC", "Karlsruhe", "ORG", "Karlsruhe", 4, 1, ["s1", "s2", "s3", "s4"]),
        # three agree on one other span (BE) before three agree on no span (FN), at equal agreement
        ("BE", "PER", "John Mills", "PER", "John Mills Jr", 3, 2, ["s1", "s2", "s3"]),
        ("FN", "MISC", "Premier league", None, None, 3, 2, ["s1", "s2", "s3"]),
    ]
    # Acme: two say LOC, two MISC (no three agree); Foo: two systems only
    assert s.total == 4
    first = s.suspects[1].example
    assert first.spans == {"gold": [("LOC", 0, 1), ("ORG", 3, 4)], "systems": [("ORG", 0, 1)]}
    assert first.where["gold"]["line"] == 1


def test_min_agree_decides_and_is_checked(five):
    assert error_analysis(five, min_agree=5).suspects.total == 1
    assert error_analysis(five, min_agree=2).suspects.total == 6          # Acme (2 LOC) and Foo too
    with pytest.raises(OptionError, match="min_agree=0"):
        error_analysis(five, min_agree=0)
    with pytest.raises(OptionError, match=r"min_agree=6: expected at most the number of systems given \(5\)"):
        error_analysis(five, min_agree=6)          # no span could be a suspect: an error, not an empty list
    two = error_analysis(five, systems=["s1", "s2"])
    assert two.suspects.total == 0 and two.suspects.min_agree == 3 and "min_agree 3" in two.notes[0]


def test_bad_options_are_one_line_errors(five):
    with pytest.raises(OptionError, match="systems: 'nope' not in the corpus; its systems are s1, s2"):
        error_analysis(five, systems=["nope"])
    with pytest.raises(OptionError, match="given twice"):
        error_analysis(five, systems=["s1", "s1"])
    with pytest.raises(OptionError, match="top=0"):
        error_analysis(five, top=0)
    with pytest.raises(OptionError, match="window=-1"):
        error_analysis(five, window=-1)


INCONSISTENT = [   # gold, and a system that copies it
    ["In O O", "Chicago B-LOC B-LOC", ", O O", "snow O O"],
    ["Chicago B-ORG B-ORG", "won O O"],
    ["In O O", "Chicago B-LOC B-LOC", ", O O", "rain O O"],
    ["They O O", "met O O", "in O O", "Paris B-LOC B-LOC", ". O O"],
    ["We O O", "stayed O O", "in O O", "Paris O O", ". O O"],
    ["from O O", "Paris O O", "to O O", "Lyon B-LOC B-LOC"],
]


def test_strings_gold_labels_inconsistently(tmp_path):
    corpus = read(conll(tmp_path, "inc.conll", INCONSISTENT), ["copy"])
    s = error_analysis(corpus).suspects
    assert s.label_total == 1
    x = s.labels[0]
    assert (x.text, x.label, x.labels, x.annotated, x.deviating) == ("Chicago", "LOC", {"LOC": 2, "ORG": 1}, 3, 1)
    assert x.example.where["gold"]["line"] == 6 and x.reference.where["gold"]["line"] == 2
    # "in Paris ." is annotated once and not once; "from Paris to" is another context
    assert s.unannotated_total == 1
    u = s.unannotated[0]
    assert (u.text, u.label, u.annotated, u.deviating) == ("Paris", "LOC", 1, 1)
    assert u.example.where["gold"]["line"] == 23 and u.reference.where["gold"]["line"] == 17


def test_without_token_texts_strings_are_left_out():
    c = from_spans([3, 2], [[("PER", 0, 1), ("LOC", 2, 3)], [("PER", 0, 2)]],
                           {"s": [[("PER", 0, 1), ("ORG", 2, 3)], []]})
    ea = error_analysis(c)
    assert any("no token texts" in n for n in ea.notes)
    assert ea.suspects.label_total == ea.suspects.unannotated_total == 0
    assert {(e.type, e.count) for e in ea.systems[0].errors} == {("LE", 1), ("FN", 1)}


def test_the_docstring_example_runs():
    assert doctest.testmod(errors_module).failed == 0


# ---------------------------------------------------------------------------
# the order of the systems never matters


WORDS = ["Paris", "Acme", "in", "the", "Bob", "of", "New", "York"]


@st.composite
def many_systems(draw):
    lengths = draw(st.lists(st.integers(1, 7), min_size=1, max_size=5))
    n_sys = draw(st.integers(2, 5))
    sides = []
    for _ in range(1 + n_sys):
        side = []
        for n in lengths:
            spans = draw(st.lists(st.tuples(st.sampled_from(["LOC", "ORG", "PER"]), st.integers(0, n - 1),
                                            st.integers(0, 2)), max_size=3))
            side.append(sorted({(lab, b, min(n, b + d + 1)) for lab, b, d in spans}))
        sides.append(side)
    words = draw(st.lists(st.sampled_from(WORDS), min_size=sum(lengths), max_size=sum(lengths)))
    order = draw(st.permutations(list(range(n_sys))))
    return lengths, sides, words, order


def _by_name(d: Dict) -> Dict:
    d = json.loads(json.dumps(d))
    d["settings"]["systems"] = sorted(d["settings"]["systems"])
    d["systems"] = sorted(d["systems"], key=lambda x: x["name"])
    return d


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(many_systems())
def test_the_order_of_the_systems_never_matters(data):
    lengths, sides, words, order = data
    names = [f"sys{k}" for k in range(len(sides) - 1)]
    corpus = from_spans(lengths, sides[0], dict(zip(names, sides[1:])))
    corpus = dataclasses.replace(corpus, tokens=lambda a, b: words[a:b])
    one = error_analysis(corpus, top=None, min_agree=2)
    two = error_analysis(corpus, systems=[names[k] for k in order], top=None, min_agree=2)
    assert _by_name(one.to_dict()) == _by_name(two.to_dict())
    # and the invariants: rows sum to gold spans per label, the cells to gold + spurious spans,
    # the errors to the fair counts, the documents to the totals
    for x in one.systems:
        for c in x.confusion.values():
            per_label = np.bincount(corpus.gold.label, minlength=len(corpus.labels))
            assert c.counts[:-1].sum(axis=1).tolist() == per_label.tolist()
            assert int(c.counts.sum()) == c.gold + c.spurious
        assert sum(e.count for e in x.errors) == sum(v for k, v in x.types.items() if k != "be")
    _sums_match(corpus, one)


# ---------------------------------------------------------------------------
# the result's JSON, pages and formats


def test_the_json_uses_the_vocabulary(five):
    d = json.loads(json.dumps(error_analysis(five).to_dict()))
    assert d["layout"] == {"kind": "errors", "version": 1}
    assert not sorted(set(offenders(d)))
    assert d["suspects"]["count"] == 4 and d["suspects"]["spans"][0]["agreeing"] == 5
    assert d["systems"][0]["matching"]["exact"]["confusion"]["LOC"]["ORG"] == 1


@pytest.fixture(scope="module")
def demo_analysis():
    return error_analysis(demo_corpus(), top=5)


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_page_fits(demo_analysis, width):
    text = render(build(demo_analysis), "table", width=width, details=True)
    widest, line = fit_check(text, width)
    assert widest <= width, line
    for title in ("Span confusion", "Errors by type", "Most frequent errors", "Gold suspects", "Inconsistent gold",
                  "Scores per document"):
        assert title in text


def test_str_shows_the_summary_and_repr_one_line_per_system(demo_analysis):
    assert "span confusion, exact matching" in str(demo_analysis)
    r = repr(demo_analysis)
    assert r.startswith("<ErrorAnalysis: 4 systems") and all(n in r for n in DEMO_SYSTEMS)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["csv", "markdown", "latex", "html"])
def test_every_format_renders(demo_analysis, fmt):
    out = render(build(demo_analysis), fmt)
    assert "errors-confusion-exact" in out or "span confusion" in out.lower()
