"""Gold suspects checked against a corrected reference (issue 34.4): precision of the top k, recall of the
corrections, each suspect's verdict.

The hand-worked example (five sentences; three systems, the same spans but s4; min_agree 3):

    s0  Reuters said Monday        A: MISC Reuters, MISC Monday    systems: ORG Reuters
                                   B: ORG Reuters (relabelled), Monday removed
    s1  Visit New York City now    A: LOC New York                 systems: LOC New York City;  B = A
    s2  Acme Corp hired Bob        A: ORG Acme Corp                systems: ORG Acme Corp, PER Bob
                                   B adds PER Bob
    s3  Mary met Tom Smith         A: PER Mary, PER Tom            systems: PER Mary, LOC Tom Smith
                                   B: PER Tom Smith (re-bounded)
    s4  Paris is nice              A: LOC Paris                    systems 1, 2: LOC Paris, system 3 nothing
                                   B: ORG Paris (relabelled)

Suspects (all three systems agree, none confirms; ranked by position, FN last): 1. LE Reuters MISC -> ORG,
2. BE New York -> New York City, 3. FP PER Bob, 4. LBE PER Tom -> LOC Tom Smith, 5. FN MISC Monday.
Paris is no suspect (one system rejects it).  Changes: 5 (relabelled Reuters, removed Monday, added Bob,
re-bounded Tom, relabelled Paris).

Verdicts: 1 agreed (B relabels Reuters to the systems' ORG), 2 untouched (B keeps New York), 3 agreed (B adds
the systems' PER Bob), 4 touched (B re-bounds Tom to Tom Smith, as the systems do, but keeps PER where they
say LOC), 5 agreed (B removes Monday, as the systems leave it out).
Precision at 2: 1 of 2 touched = 0.5, agreed 0.5; at 5: 4 of 5 = 0.8, agreed 3 of 5 = 0.6; at 10: the five
there are, the same.  Recall: the changes some suspect touches: all but Paris, 4 of 5 = 0.8.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from test_references import write as write_columns

from ts_eval.analysis.errors import error_analysis
from ts_eval.analysis.suspects_checked import check_suspects
from ts_eval.comparison.references import read_references, reference_changes
from ts_eval.errors import OptionError

SENTENCES = [["Reuters", "said", "Monday"], ["Visit", "New", "York", "City", "now"], ["Acme", "Corp", "hired", "Bob"],
             ["Mary", "met", "Tom", "Smith"], ["Paris", "is", "nice"]]
Spans = List[List[Tuple[str, int, int]]]          # per sentence (label, start, end exclusive)
A: Spans = [[("MISC", 0, 1), ("MISC", 2, 3)], [("LOC", 1, 3)], [("ORG", 0, 2)], [("PER", 0, 1), ("PER", 2, 3)],
            [("LOC", 0, 1)]]
B: Spans = [[("ORG", 0, 1)], [("LOC", 1, 3)], [("ORG", 0, 2), ("PER", 3, 4)], [("PER", 0, 1), ("PER", 2, 4)],
            [("ORG", 0, 1)]]
SYSTEM: Spans = [[("ORG", 0, 1)], [("LOC", 1, 4)], [("ORG", 0, 2), ("PER", 3, 4)], [("PER", 0, 1), ("LOC", 2, 4)],
                 [("LOC", 0, 1)]]
SYSTEM3: Spans = SYSTEM[:4] + [[]]
#: another correction: Monday relabelled (not removed), Bob added as ORG (not PER), Tom re-bounded and relabelled
B2: Spans = [[("ORG", 0, 1), ("ORG", 2, 3)], [("LOC", 1, 3)], [("ORG", 0, 2), ("ORG", 3, 4)],
             [("PER", 0, 1), ("LOC", 2, 4)], [("LOC", 0, 1)]]
NAMES = ["s1", "s2", "s3"]


def write(path: Path, spans: Spans) -> str:
    return write_columns(path, spans, SENTENCES)


@pytest.fixture
def files(tmp_path: Path) -> Dict[str, str]:
    return {"a": write(tmp_path / "a.conll", A), "b": write(tmp_path / "b.conll", B),
            "s1": write(tmp_path / "s1.conll", SYSTEM), "s2": write(tmp_path / "s2.conll", SYSTEM),
            "s3": write(tmp_path / "s3.conll", SYSTEM3), "b2": write(tmp_path / "b2.conll", B2)}


def checked(files: Dict[str, str], b: str = "b", systems=NAMES, ks=(2, 5, 10)):
    corpus = read_references(files["a"], files[b], {n: files[n] for n in NAMES})
    analysis = error_analysis(corpus, systems=list(systems), top=None)
    return check_suspects(analysis, reference_changes(corpus, "B"), ks=ks)


def test_the_hand_worked_check(files):
    r = checked(files)
    assert [(c.rank, c.suspect.type, c.suspect.gold_text, c.suspect.text, c.verdict) for c in r.suspects] == [
        (1, "LE", "Reuters", "Reuters", "agreed"), (2, "BE", "New York", "New York City", "untouched"),
        (3, "FP", None, "Bob", "agreed"), (4, "LBE", "Tom", "Tom Smith", "touched"),
        (5, "FN", "Monday", None, "agreed")]
    assert [[c.kind for c in s.changes] for s in r.suspects] == [
        ["relabelled"], [], ["added"], ["rebounded"], ["removed"]]
    assert r.at == [{"top": 2, "checked": 2, "touched": 1, "agreed": 1, "precision": 0.5, "precision_agreed": 0.5},
                    {"top": 5, "checked": 5, "touched": 4, "agreed": 3, "precision": 0.8, "precision_agreed": 0.6},
                    {"top": 10, "checked": 5, "touched": 4, "agreed": 3, "precision": 0.8, "precision_agreed": 0.6}]
    assert (r.touched, r.agreed, r.corrections, r.pointed, r.recall) == (4, 3, 5, 4, 0.8)
    assert r.kinds == {"added": {"corrections": 1, "pointed": 1}, "removed": {"corrections": 1, "pointed": 1},
                       "relabelled": {"corrections": 2, "pointed": 1}, "rebounded": {"corrections": 1, "pointed": 1}}
    assert r.precision(5) == 0.8
    d = json.loads(json.dumps(r.to_dict()))
    assert (d["reference_a"], d["reference_b"], d["checked"], d["recall"]) == ("A", "B", 5, 0.8)
    assert d["suspects"][3]["changes"] == [{"kind": "rebounded", "sentence": 3,
                                            "before": {"label": "PER", "first": 2, "last": 2, "text": "Tom"},
                                            "after": {"label": "PER", "first": 2, "last": 3, "text": "Tom Smith"}}]


def test_a_change_that_is_not_what_the_systems_say_is_touched_not_agreed(files):
    """B2: Reuters relabelled to ORG (agreed); Monday relabelled, not removed (FN: touched); Bob added as ORG
    where the systems say PER (FP: touched); Tom: PER Tom removed and LOC Tom Smith added, the systems' span
    (LBE: agreed; the changes in text order, added before removed at the same token).  Precision at 2 = 1/2;
    at 5 = 4/5 touched, 2/5 agreed; recall 5 changes of 5 (Paris unchanged)."""
    r = checked(files, b="b2")
    assert [(c.suspect.type, c.verdict, [ch.kind for ch in c.changes]) for c in r.suspects] == [
        ("LE", "agreed", ["relabelled"]), ("BE", "untouched", []), ("FP", "touched", ["added"]),
        ("LBE", "agreed", ["added", "removed"]), ("FN", "touched", ["relabelled"])]
    assert [(row["precision"], row["precision_agreed"]) for row in r.at] == [(0.5, 0.5), (0.8, 0.4), (0.8, 0.4)]
    assert (r.corrections, r.pointed, r.recall) == (5, 5, 1.0)


def test_a_reference_against_itself_changes_nothing(files):
    """No change: every suspect untouched, precision 0 at every k, recall undefined (None, null in JSON)."""
    r = checked(files, b="a")
    assert r.corrections == r.pointed == r.touched == r.agreed == 0
    assert r.recall is None and r.to_dict()["recall"] is None
    assert [row["precision"] for row in r.at] == [0.0, 0.0, 0.0]
    assert {c.verdict for c in r.suspects} == {"untouched"} and len(r.suspects) == 5


def test_the_order_of_the_systems_does_not_change_the_result(files):
    assert checked(files).to_dict() == checked(files, systems=NAMES[::-1]).to_dict()


def test_no_suspect_leaves_the_precision_undefined(files):
    corpus = read_references(files["a"], files["b"], {n: files[n] for n in NAMES})
    r = check_suspects([], reference_changes(corpus, "B"), ks=(20,))
    assert r.at == [{"top": 20, "checked": 0, "touched": 0, "agreed": 0, "precision": None,
                     "precision_agreed": None}]
    assert (r.corrections, r.pointed, r.recall) == (5, 0, 0.0)


def test_what_cannot_be_checked_is_refused(files):
    corpus = read_references(files["a"], files["b"], {n: files[n] for n in NAMES})
    changes = reference_changes(corpus, "B")
    with pytest.raises(OptionError, match="cut at 2 of 5"):           # recall needs every suspect
        check_suspects(error_analysis(corpus, systems=NAMES, top=2), changes)
    with pytest.raises(OptionError, match="reference 'B' is among the systems"):
        check_suspects(error_analysis(corpus, top=None), changes)
    with pytest.raises(OptionError, match="at least 1"):
        check_suspects(error_analysis(corpus, systems=NAMES, top=None), changes, ks=(0,))


def test_its_numbers_are_vocabulary(files):
    from test_vocabulary import offenders

    assert not sorted(set(offenders(json.loads(json.dumps(checked(files).to_dict())))))
