"""Two references of the same tokens (issue 34.2): what changed from A to B, and what it does to a system.

The hand-worked example (five sentences, IOB2 column files written to a temporary folder):

    s0  John lives in Paris          A = B: PER John, LOC Paris               system: both
    s1  Acme Corp hired Bob          A: ORG Acme Corp; B adds PER Bob         system: ORG Acme Corp, PER Bob
    s2  Visit New York City now      A: LOC New York; B: LOC New York City    system: LOC New York
                                     (re-bounded)
    s3  Reuters said Monday          A: MISC Reuters, MISC Monday;            system: ORG Reuters
                                     B: ORG Reuters (relabelled), no Monday (removed)
    s4  Mary met Tom                 A = B: PER Mary, PER Tom                 system: PER Mary

Changes: added 1 (PER), removed 1 (MISC), relabelled 1 (MISC -> ORG), re-bounded 1 (LOC); changed
sentences 1, 2, 3.  Spans only A has: MISC Reuters, MISC Monday, LOC New York; only B has: PER Bob,
ORG Reuters, LOC New York City.

The system's errors (exact match, FP + FN): under A it has 7 spans, A 8, 5 right (John, Paris, Acme
Corp, New York, Mary): 2 FP + 3 FN = 5; under B 7 and 8, 6 right (John, Paris, Acme Corp, Bob, Reuters
ORG, Mary): 1 + 2 = 3.  wrong_a_right_b = 4 (MISC Reuters and MISC Monday, which it leaves out; PER Bob
and ORG Reuters, which it has); right_a_wrong_b = 2 (LOC New York, which it has; LOC New York City,
which it lacks); 5 - 4 + 2 = 3.

Exact-match F1 = 2 TP / (gold + system): under A 10 / 15 = 2/3, under B 12 / 15 = 4/5, difference 2/15.
Changed sentences (1, 2, 3): A 4 spans, system 4, TP 2 -> 4/8 = 0.5; B 4, 4, TP 3 -> 6/8 = 0.75.
Unchanged (0, 4): 4 reference spans, 3 system spans, TP 3 -> 6/7 under both.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

from ts_eval.comparison.references import compare_references, read_references, reference_changes
from ts_eval.core.sequences import from_spans
from ts_eval.errors import InputError, OptionError

SENTENCES = [["John", "lives", "in", "Paris"], ["Acme", "Corp", "hired", "Bob"],
             ["Visit", "New", "York", "City", "now"], ["Reuters", "said", "Monday"], ["Mary", "met", "Tom"]]
Spans = List[List[Tuple[str, int, int]]]          # per sentence (label, start, end exclusive)
A: Spans = [[("PER", 0, 1), ("LOC", 3, 4)], [("ORG", 0, 2)], [("LOC", 1, 3)], [("MISC", 0, 1), ("MISC", 2, 3)],
            [("PER", 0, 1), ("PER", 2, 3)]]
B: Spans = [[("PER", 0, 1), ("LOC", 3, 4)], [("ORG", 0, 2), ("PER", 3, 4)], [("LOC", 1, 4)], [("ORG", 0, 1)],
            [("PER", 0, 1), ("PER", 2, 3)]]
SYSTEM: Spans = [[("PER", 0, 1), ("LOC", 3, 4)], [("ORG", 0, 2), ("PER", 3, 4)], [("LOC", 1, 3)], [("ORG", 0, 1)],
                 [("PER", 0, 1)]]
LENGTHS = [len(s) for s in SENTENCES]


def write(path: Path, spans: Spans, sentences: List[List[str]] = SENTENCES) -> str:
    lines = []
    for words, sent in zip(sentences, spans):
        tags = ["O"] * len(words)
        for label, start, end in sent:
            tags[start] = f"B-{label}"
            for k in range(start + 1, end):
                tags[k] = f"I-{label}"
        lines += [f"{w} {t}" for w, t in zip(words, tags)] + [""]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> Dict[str, str]:
    return {"a": write(tmp_path / "a.conll", A), "b": write(tmp_path / "b.conll", B),
            "sys": write(tmp_path / "sys.conll", SYSTEM)}


def test_the_hand_worked_changes(files):
    corpus = read_references(files["a"], files["b"], {"sys": files["sys"]})
    ch = reference_changes(corpus, "B")
    assert (ch.reference_a, ch.reference_b, ch.sentences) == ("A", "B", 5)
    assert ch.counts == {"added": 1, "removed": 1, "relabelled": 1, "rebounded": 1}
    assert ch.labels == {"LOC": {"added": 0, "removed": 0, "relabelled": 0, "rebounded": 1},
                         "MISC": {"added": 0, "removed": 1, "relabelled": 1, "rebounded": 0},
                         "PER": {"added": 1, "removed": 0, "relabelled": 0, "rebounded": 0}}
    assert ch.transitions == {"MISC → ORG": 1}
    assert ch.changed_sentences == [1, 2, 3]
    listed = [(c.kind, c.sentence, c.before, c.after) for c in ch.changes]
    assert listed == [("added", 1, None, ("PER", 3, 3)),
                      ("rebounded", 2, ("LOC", 1, 2), ("LOC", 1, 3)),
                      ("relabelled", 3, ("MISC", 0, 0), ("ORG", 0, 0)),
                      ("removed", 3, ("MISC", 2, 2), None)]
    d = ch.changes[1].to_dict()
    assert d["before"]["text"] == "New York" and d["after"]["text"] == "New York City"


def test_the_hand_worked_system(files):
    corpus = read_references(files["a"], files["b"], {"sys": files["sys"]})
    r = compare_references(corpus, "B", models=["exact-f1-micro", "ts-f1-micro"])
    s = r.system("sys")
    assert (s.errors_a, s.errors_b, s.wrong_a_right_b, s.right_a_wrong_b) == (5, 3, 4, 2)
    # per kind of change: Bob added (it has him); Monday removed (it lacks it); Reuters relabelled (it lacks the
    # MISC before and has the ORG after); New York re-bounded (it has the before, lacks the after)
    assert s.kinds == {"added": {"wrong_a_right_b": 1, "right_a_wrong_b": 0},
                       "removed": {"wrong_a_right_b": 1, "right_a_wrong_b": 0},
                       "relabelled": {"wrong_a_right_b": 2, "right_a_wrong_b": 0},
                       "rebounded": {"wrong_a_right_b": 0, "right_a_wrong_b": 2}}
    exact = s.scores["exact-f1-micro"]
    assert exact["whole"]["score_a"] == pytest.approx(2 / 3)
    assert exact["whole"]["score_b"] == pytest.approx(4 / 5)
    assert exact["whole"]["difference"] == pytest.approx(2 / 15)
    assert exact["changed"]["score_a"] == pytest.approx(0.5)
    assert exact["changed"]["score_b"] == pytest.approx(0.75)
    assert exact["unchanged"]["score_a"] == pytest.approx(6 / 7)
    assert exact["unchanged"]["score_b"] == pytest.approx(6 / 7)
    # the unchanged sentences score the same under A and B, under every model: no difference there
    for per in s.scores.values():
        assert per["unchanged"]["score_a"] == per["unchanged"]["score_b"]
        assert per["unchanged"]["difference"] == 0.0


def test_errors_under_b_are_errors_under_a_moved_by_the_changes(files):
    corpus = read_references(files["a"], files["b"], {"sys": files["sys"], "gold-like": files["a"]})
    for s in compare_references(corpus, "B", models=["exact-f1-micro"]).systems:
        assert s.errors_b == s.errors_a - s.wrong_a_right_b + s.right_a_wrong_b
    same = compare_references(corpus, "B", models=["exact-f1-micro"]).system("gold-like")
    # a copy of A: right under A everywhere, so every span that changed is an error of it under B
    assert (same.errors_a, same.wrong_a_right_b, same.right_a_wrong_b, same.errors_b) == (0, 0, 6, 6)


def test_a_span_whose_label_and_boundaries_change_is_removed_and_added():
    corpus = from_spans([4], [[("LOC", 0, 2)]], {"B": [[("ORG", 0, 1)]], "sys": [[("ORG", 0, 1)]]})
    ch = reference_changes(corpus, "B")
    assert ch.counts == {"added": 1, "removed": 1, "relabelled": 0, "rebounded": 0}


def test_the_json_uses_the_vocabulary(files):
    from test_vocabulary import offenders

    corpus = read_references(files["a"], files["b"], {"sys": files["sys"]})
    d = json.loads(json.dumps(compare_references(corpus, "B").to_dict()))
    assert not sorted(set(offenders(d)))
    assert d["changes"]["added"] == 1 and d["systems"][0]["wrong_a_right_b"] == 4


def corpora(seed: int) -> Tuple[List[int], Spans, Spans, Spans]:
    """Random references and a system over the same sentences (spans of one side never overlap)."""
    rng = np.random.default_rng(seed)
    lengths = [int(x) for x in rng.integers(3, 9, 12)]

    def side() -> Spans:
        out: Spans = []
        for n in lengths:
            sent, k = [], 0
            while k < n:
                width = int(rng.integers(1, 3))
                if rng.random() < 0.4 and k + width <= n:
                    sent.append((str(rng.choice(["LOC", "ORG", "PER"])), k, k + width))
                k += width
            out.append(sent)
        return out

    return lengths, side(), side(), side()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_reference_against_itself_changes_nothing(seed):
    lengths, a, _, sys = corpora(seed)
    corpus = from_spans(lengths, a, {"B": a, "sys": sys})
    r = compare_references(corpus, "B")
    assert r.changes.counts == {"added": 0, "removed": 0, "relabelled": 0, "rebounded": 0}
    assert r.changes.changed_sentences == [] and r.changes.changes == []
    s = r.system("sys")
    assert s.wrong_a_right_b == s.right_a_wrong_b == 0 and s.errors_a == s.errors_b
    for per in s.scores.values():
        for part in ("whole", "unchanged"):
            assert per[part]["score_a"] == per[part]["score_b"] and per[part]["difference"] == 0.0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_swapping_the_references_swaps_added_and_removed_and_negates_every_difference(seed):
    lengths, a, b, sys = corpora(seed)
    corpus = from_spans(lengths, a, {"RA": a, "RB": b, "sys": sys})
    ab = compare_references(corpus, "RB", a="RA", systems=["sys"])
    ba = compare_references(corpus, "RA", a="RB", systems=["sys"])
    assert ab.changes.counts["added"] == ba.changes.counts["removed"] > 0
    assert ab.changes.counts["removed"] == ba.changes.counts["added"]
    assert ab.changes.counts["relabelled"] == ba.changes.counts["relabelled"]
    assert ab.changes.counts["rebounded"] == ba.changes.counts["rebounded"]
    assert ab.changes.changed_sentences == ba.changes.changed_sentences
    x, y = ab.system("sys"), ba.system("sys")
    assert (x.wrong_a_right_b, x.right_a_wrong_b) == (y.right_a_wrong_b, y.wrong_a_right_b)
    assert (x.errors_a, x.errors_b) == (y.errors_b, y.errors_a)
    swapped = {"added": "removed", "removed": "added", "relabelled": "relabelled", "rebounded": "rebounded"}
    for kind, counts in x.kinds.items():
        assert counts == {"wrong_a_right_b": y.kinds[swapped[kind]]["right_a_wrong_b"],
                          "right_a_wrong_b": y.kinds[swapped[kind]]["wrong_a_right_b"]}
    for model, per in x.scores.items():
        for part, numbers in per.items():
            other = y.scores[model][part]
            assert numbers["score_a"] == other["score_b"] and numbers["score_b"] == other["score_a"]
            assert numbers["difference"] == -other["difference"] or np.isnan(numbers["difference"])
        assert per["unchanged"]["difference"] == 0.0 or np.isnan(per["unchanged"]["difference"])
    # against gold A read as gold: the same as A read as a side
    assert compare_references(from_spans(lengths, a, {"RB": b, "sys": sys}), "RB").system("sys").scores \
        == x.scores


def test_references_must_share_tokens(tmp_path, files):
    other = [list(s) for s in SENTENCES]
    other[2][3] = "Town"
    b = write(tmp_path / "b2.conll", B, other)
    with pytest.raises(InputError) as e:
        read_references(files["a"], b, {"sys": files["sys"]})
    assert str(e.value).startswith(f"{b}:14: reference A ")
    assert "'City' (reference A line 14) differs from 'Town' in sentence 3" in str(e.value)
    with pytest.raises(InputError, match=r"sys2\.conll"):
        read_references(files["a"], files["b"], {"sys": write(tmp_path / "sys2.conll", SYSTEM, other)})


def test_bad_references_and_systems_are_option_errors(files):
    corpus = read_references(files["a"], files["b"], {"sys": files["sys"]})
    with pytest.raises(OptionError, match="no side called 'C'"):
        compare_references(corpus, "C")
    with pytest.raises(OptionError, match="a reference, not a system"):
        compare_references(corpus, "B", systems=["B"])
    with pytest.raises(OptionError, match="two names"):
        read_references(files["a"], files["b"], {"sys": files["sys"]}, names=("X", "X"))
    with pytest.raises(OptionError, match="name of reference B"):
        read_references(files["a"], files["b"], {"B": files["sys"]})


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_nested_and_crossing_spans_keep_the_identities(seed):
    """Sides with nested and crossing spans: every span of A and B is unchanged or in one change, the errors
    under B are the errors under A moved by the changes, and the unchanged sentences score alike."""
    rng = np.random.default_rng(seed)
    lengths = [int(x) for x in rng.integers(4, 9, 15)]

    def side() -> Spans:
        out: Spans = []
        for n in lengths:
            found = {(str(rng.choice(["LOC", "ORG"])), int(s), int(s) + int(w))
                     for s, w in zip(rng.integers(0, n, 3), rng.integers(1, 4, 3)) if s + w <= n}
            out.append(sorted(found))
        return out

    a, b, sys = side(), side(), side()
    corpus = from_spans(lengths, a, {"B": b, "sys": sys})
    r = compare_references(corpus, "B", models=["exact-f1-micro", "ts-f1-micro", "fair-f1"])
    c = r.changes.counts
    same = sum(len(set(x) & set(y)) for x, y in zip(a, b))
    assert same + c["removed"] + c["relabelled"] + c["rebounded"] == sum(map(len, a))
    assert same + c["added"] + c["relabelled"] + c["rebounded"] == sum(map(len, b))
    assert r.changes.changed_sentences == [k for k, (x, y) in enumerate(zip(a, b)) if set(x) != set(y)]
    s = r.system("sys")
    assert s.errors_a == sum(len(set(x) ^ set(y)) for x, y in zip(a, sys))
    assert s.errors_b == sum(len(set(x) ^ set(y)) for x, y in zip(b, sys))
    assert s.errors_b == s.errors_a - s.wrong_a_right_b + s.right_a_wrong_b
    for per in s.scores.values():
        assert per["unchanged"]["score_a"] == per["unchanged"]["score_b"]
