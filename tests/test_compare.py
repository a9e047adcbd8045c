"""Comparative evaluation (Tuggener): the paper's toy Tables 1 and 2, Algorithm 1's
classes, span-level transitions of fair outcomes worked out by hand, TS-level unit
changes against a unit-by-unit reference, the oracle upper bounds, and the CLI."""
from __future__ import annotations

import csv
import io
import json
from typing import Dict, List, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ts_eval
from ts_eval.cli import main
from ts_eval.cli.errors import UsageError
from ts_eval.cli.outputs import json_text
from ts_eval.comparison import GOLD_OUTCOMES, change_masks, compare, correct_overlap, diff, token_changes
from ts_eval.core.sequences import from_sequences, from_spans
from ts_eval.errors import InputError, OptionError
from ts_eval.output.builders import build
from ts_eval.output.builders.compare_tables import inline_text
from ts_eval.output.renderers import render

# ---------------------------------------------------------------------------
# the paper's toy tables: five problems A..E, three responses

KEY = ["A", "B", "C", "D", "E"]
TABLE1 = {"S1": ["A", "B", "C", None, None], "S2": [None, "B", "C", "D", None], "S3": [None, None, "C", "D", "E"]}
TABLE2 = {"S1": ["A", "B", "C", "X", "Y"], "S2": ["Z", "B", "C", "D", "U"], "S3": ["Z", "W", "C", "D", "E"]}


def toy_corpus(responses: Dict[str, List]) -> ts_eval.Corpus:
    """One sentence of five one-token problems; an answer X is the tag B-X, no answer is O."""
    def tags(seq):
        return [[f"B-{x}" if x else "O" for x in seq]]
    return from_sequences(tags(KEY), {n: tags(r) for n, r in responses.items()})


def pair_rows(result) -> Dict[Tuple[str, str], dict]:
    return {(p["a"], p["b"]): p for p in result.multi.pairs}


def test_table1_accuracy_and_overlap_on_correct_answers():
    r = compare(toy_corpus(TABLE1), examples=0)
    assert [s["token_accuracy"] for s in r.systems] == [0.6, 0.6, 0.6]
    pairs = pair_rows(r)
    got = {k: round(100 * v["correct_overlap"]) for k, v in pairs.items()}
    assert got == {("S1", "S2"): 67, ("S2", "S3"): 67, ("S1", "S3"): 33}
    assert pairs[("S1", "S2")]["correct_overlap"] == pytest.approx(2 / 3)
    assert pairs[("S1", "S3")]["correct_overlap"] == pytest.approx(1 / 3)
    # the same from plain arrays
    g = np.array([0, 1, 2, 3, 4])
    s1, s2, s3 = np.array([0, 1, 2, 9, 9]), np.array([9, 1, 2, 3, 9]), np.array([9, 9, 2, 3, 4])
    assert correct_overlap(g, s1, s2) == pytest.approx(2 / 3)
    assert correct_overlap(g, s2, s3) == pytest.approx(2 / 3)
    assert correct_overlap(g, s1, s3) == pytest.approx(1 / 3)


def test_table2_accuracy_and_overlap_on_all_answers():
    r = compare(toy_corpus(TABLE2), examples=0)
    assert [s["token_accuracy"] for s in r.systems] == [0.6, 0.6, 0.6]
    pairs = pair_rows(r)
    assert {k: v["overlap"] for k, v in pairs.items()} == {("S1", "S2"): 0.4, ("S2", "S3"): 0.6, ("S1", "S3"): 0.2}
    assert {k: v["diff"] for k, v in pairs.items()} == {("S1", "S2"): 0.6, ("S2", "S3"): 0.4, ("S1", "S3"): 0.8}
    assert r.multi.diff_matrix[0][2] == r.multi.diff_matrix[2][0] == 0.8
    assert diff(np.array(list("ABCXY")), np.array(list("ZBCDU"))) == 0.6
    # every problem is solved by some response: the oracle is perfect, 40 points above 60%
    ov = r.multi.token_oracle["micro"]
    assert (ov["best"], ov["oracle"]) == (0.6, 1.0)
    assert ov["gain"] == pytest.approx(0.4)
    assert r.multi.span_oracle["micro"]["oracle"] == 1.0
    assert r.multi.found_by == [0, 2, 2, 1]      # A, E by one; B, D by two; C by all three
    assert [c["label"] for c in r.multi.easy_cases] == ["C"] and r.multi.hard_cases == []


def test_table2_algorithm1_classes_for_s1_to_s2():
    r = compare(toy_corpus(TABLE2), "S1", "S2", examples=0)
    t = r.pair.token
    assert (t.tokens, t.differing, t.diff) == (5, 3, 0.6)
    # A (S1 right, S2 wrong: Z): new error; D (S1 X, S2 D): correction; E (Y vs U): changed error
    tops = {k: [(tr.labels, tr.count) for tr in c.top] for k, c in t.classes.items()}
    assert tops == {"correction": [(("B-X", "B-D"), 1)], "new_error": [(("B-A", "B-Z"), 1)],
                    "changed_error": [(("B-E", "B-Y", "B-U"), 1)]}
    assert [c.share for c in t.classes.values()] == pytest.approx([1 / 3] * 3)


# ---------------------------------------------------------------------------
# Algorithm 1: a worked example and invariants

def test_algorithm1_counts_percentages_and_top_k():
    vocab = ["NN", "NE", "ADJA", "VVFIN", "VVINF"]
    NN, NE, ADJA, VVFIN, VVINF = range(5)
    g = np.array([NE, NE, NE, NN, NN, VVFIN, VVFIN, ADJA, NE, NN])
    a = np.array([NN, NN, NE, NN, NN, VVINF, VVFIN, NN, NN, NN])
    b = np.array([NE, NE, NN, NN, NE, VVFIN, VVINF, ADJA, ADJA, NN])
    n_diff, classes = token_changes(g, a, b, vocab, top=1)
    assert n_diff == 8
    c, ne, ch = classes["correction"], classes["new_error"], classes["changed_error"]
    assert (c.count, ne.count, ch.count) == (4, 3, 1)
    assert c.share == 0.5 and ne.share == 3 / 8
    assert c.distinct == 3 and [(t.name, t.count) for t in c.top] == [("NN → NE", 2)]
    assert c.top[0].share_of_class == 0.5 and c.top[0].share_of_diff == 0.25
    # ties are broken by name: NE→NN, NN→NE, VVFIN→VVINF once each
    assert [t.name for t in token_changes(g, a, b, vocab, top=None)[1]["new_error"].top] == [
        "NE → NN", "NN → NE", "VVFIN → VVINF"]
    assert [t.name for t in ch.top] == ["NE → NN → ADJA"]


tags3 = st.integers(min_value=1, max_value=60).flatmap(
    lambda n: st.tuples(*[st.lists(st.integers(0, 3), min_size=n, max_size=n) for _ in range(3)]))


@pytest.mark.slow
@given(tags3)
@settings(max_examples=200, deadline=None)
def test_classes_partition_the_differing_tokens_and_swap(arrays):
    g, a, b = (np.array(x) for x in arrays)
    vocab = ["O", "B-X", "I-X", "B-Y"]
    n_diff, cl = token_changes(g, a, b, vocab, top=None)
    assert n_diff == int(np.count_nonzero(a != b))
    assert cl["correction"].count + cl["new_error"].count + cl["changed_error"].count == n_diff
    m = change_masks(g, a, b)
    assert not (m["correction"] & m["new_error"]).any()
    n_diff2, sw = token_changes(g, b, a, vocab, top=None)
    assert n_diff2 == n_diff
    assert sw["correction"].count == cl["new_error"].count and sw["new_error"].count == cl["correction"].count
    assert sw["changed_error"].count == cl["changed_error"].count
    rev = lambda ts: sorted((tuple(reversed(t.labels)), t.count) for t in ts)  # noqa: E731
    assert rev(sw["correction"].top) == sorted((t.labels, t.count) for t in cl["new_error"].top)
    assert sorted((t.labels[0],) + tuple(reversed(t.labels[1:])) for t in sw["changed_error"].top for _ in
                  range(t.count)) == sorted(t.labels for t in cl["changed_error"].top for _ in range(t.count))


# ---------------------------------------------------------------------------
# span level: fair outcomes under A and B, worked out by hand

LENGTHS = [10, 3, 6]
GOLD = [[("PER", 0, 2), ("LOC", 3, 4), ("ORG", 5, 7), ("MISC", 8, 9)],
        [("PER", 0, 1)],
        [("ORG", 0, 2)]]
SYS_A = [[("PER", 0, 3), ("LOC", 3, 4), ("LOC", 5, 7), ("PER", 9, 10)],   # BEL, TP, LE, (MISC FN), FP
         [("PER", 0, 1)],                                                # TP
         [("ORG", 0, 3), ("LOC", 5, 6)]]                                 # BEL, FP
SYS_B = [[("PER", 0, 2), ("ORG", 3, 4), ("ORG", 5, 7), ("MISC", 8, 10)],  # TP, LE, TP, BEL
         [("PER", 0, 1)],                                                # TP
         [("ORG", 0, 4), ("LOC", 5, 6)]]                                 # BEL (another span), the same FP


def hand_corpus():
    return from_spans(LENGTHS, GOLD, {"A": SYS_A, "B": SYS_B})


def test_span_transitions_by_hand():
    r = compare(hand_corpus(), examples=0)
    s = r.pair.span
    assert s.outcomes_a == {"tp": 2, "le": 1, "bes": 0, "bel": 2, "beo": 0, "lbe": 0, "fn": 1, "fp": 2}
    assert s.outcomes_b == {"tp": 3, "le": 1, "bes": 0, "bel": 2, "beo": 0, "lbe": 0, "fn": 0, "fp": 1}
    # 6 gold spans + 2 distinct spurious spans (PER 9..9 of A; LOC 5..5 in the last sentence, kept by B)
    assert (s.gold, s.spurious) == (6, 2)
    # changed: PER BEL→TP, ORG LE→TP, FP→TN (corrections); LOC TP→LE (new); MISC FN→BEL, ORG BEL→BEL (changed)
    assert s.differing == 6 and s.diff == 6 / 8
    got = {k: sorted((t.name, t.count) for t in c.top) for k, c in s.classes.items()}
    assert got == {"correction": [("BEL → TP", 1), ("FP → TN", 1), ("LE → TP", 1)],
                   "new_error": [("TP → LE", 1)],
                   "changed_error": [("BEL → BEL", 1), ("FN → BEL", 1)]}
    assert s.spurious_moves == {"FP → TN": 1, "TN → FP": 0, "FP kept": 1}
    assert s.changed_counterpart["bel"] == 1
    m = np.array(s.matrix)
    idx = {o: k for k, o in enumerate(GOLD_OUTCOMES)}
    assert m.sum() == 6 and m[idx["TP"], idx["TP"]] == 1 and m[idx["BEL"], idx["BEL"]] == 1
    assert m[idx["FN"], idx["BEL"]] == 1 and m[idx["TP"], idx["LE"]] == 1
    per = {row["label"]: row for row in s.per_label}
    assert (per["PER"]["correction"], per["PER"]["spurious"], per["PER"]["transitions"]) == (
        2, 1, {"BEL → TP": 1, "FP → TN": 1})
    assert (per["LOC"]["new_error"], per["LOC"]["spurious"], per["LOC"]["changed_error"]) == (1, 1, 0)
    assert per["ORG"]["transitions"] == {"BEL → BEL": 1, "LE → TP": 1}
    assert per["MISC"]["transitions"] == {"FN → BEL": 1}
    assert per["ORG"]["net"] == 1 and per["LOC"]["net"] == -1


def test_span_level_swapping_a_and_b_swaps_corrections_and_new_errors():
    ab = compare(hand_corpus(), "A", "B", examples=0).pair.span
    ba = compare(hand_corpus(), "B", "A", examples=0).pair.span
    assert ab.classes["correction"].count == ba.classes["new_error"].count == 3
    assert ab.classes["new_error"].count == ba.classes["correction"].count == 1
    assert ab.classes["changed_error"].count == ba.classes["changed_error"].count == 2
    assert ba.spurious_moves["TN → FP"] == 1
    assert np.array_equal(np.array(ab.matrix), np.array(ba.matrix).T)


span_lists = st.lists(st.tuples(st.sampled_from(["X", "Y"]), st.integers(0, 7), st.integers(0, 3)), max_size=5)


def _clean(spans):
    out = {(lab, b, min(b + w, 7) + 1) for lab, b, w in spans}    # end exclusive
    return [sorted(out)]


@pytest.mark.slow
@given(span_lists, span_lists, span_lists)
@settings(max_examples=150, deadline=None)
def test_span_level_invariants(g, a, b):
    corpus = from_spans([8], [_clean(g)[0]], {"A": _clean(a), "B": _clean(b)})
    ab = compare(corpus, "A", "B", examples=0).pair.span
    ba = compare(corpus, "B", "A", examples=0).pair.span
    total = sum(c.count for c in ab.classes.values())
    assert total == ab.differing
    assert ab.classes["correction"].count == ba.classes["new_error"].count
    assert ab.classes["new_error"].count == ba.classes["correction"].count
    assert ab.differing == ba.differing and ab.spurious == ba.spurious
    assert sum(map(sum, ab.matrix)) == ab.gold
    assert sum(r["correction"] + r["new_error"] + r["changed_error"] for r in ab.per_label) == ab.differing


# ---------------------------------------------------------------------------
# TS level against a unit-by-unit reference

def unit_vectors(lengths: Sequence[int], spans, label: str) -> Tuple[np.ndarray, np.ndarray]:
    toks, seps = [], []
    for n, sent in zip(lengths, spans):
        t, s = np.zeros(n, int), np.zeros(n - 1, int)
        for lab, b, e in sent:
            if lab == label:         # tokens b..e-1 and the separators between them
                t[b:e] = 1
                s[b:e - 1] = 1
        toks.append(t)
        seps.append(s)
    return np.concatenate(toks), np.concatenate(seps)


def test_ts_level_against_unit_reference():
    r = compare(hand_corpus(), examples=0, separator_weight=0.5)
    rows = {row["label"]: row for row in r.pair.ts.per_label}
    for label in ("LOC", "MISC", "ORG", "PER"):
        (gt, gs), (at, as_), (bt, bs) = (unit_vectors(LENGTHS, x, label) for x in (GOLD, SYS_A, SYS_B))
        for key, right, wrong in (("b_right_a_wrong", (bt, bs), (at, as_)), ("a_right_b_wrong", (at, as_), (bt, bs))):
            got = rows[label][key]
            fix_t = (right[0] == gt) & (wrong[0] != gt)
            fix_s = (right[1] == gs) & (wrong[1] != gs)
            assert (got["tokens"], got["separators"]) == (fix_t.sum(), fix_s.sum()), (label, key)
            assert got["gold_positive"] == (fix_t & (gt == 1)).sum() + 0.5 * (fix_s & (gs == 1)).sum()
            assert got["units"] == fix_t.sum() + 0.5 * fix_s.sum()
    # PER: B drops A's spurious token 2 and separator 1-2 of sentence 1 and A's spurious PER at token 9
    assert rows["PER"]["b_right_a_wrong"]["tokens"] == 2 and rows["PER"]["b_right_a_wrong"]["separators"] == 1
    assert rows["PER"]["b_right_a_wrong"]["gold_negative"] == 2.5


# ---------------------------------------------------------------------------
# oracle upper bounds

@pytest.mark.slow
@given(st.integers(3, 5).flatmap(lambda k: st.lists(
    st.lists(st.sampled_from(["O", "B-X", "I-X", "B-Y"]), min_size=12, max_size=12), min_size=k + 1, max_size=k + 1)))
@settings(max_examples=80, deadline=None)
def test_oracle_is_at_least_the_best_single_system(rows):
    gold, systems = [rows[0][:5], rows[0][5:]], {f"s{i}": [r[:5], r[5:]] for i, r in enumerate(rows[1:])}
    r = compare(from_sequences(gold, systems), examples=0)
    for o in (r.multi.token_oracle, r.multi.span_oracle):
        ov = o["micro"]
        assert ov["oracle"] >= max(ov["systems"].values()) - 1e-12
        assert ov["best"] == max(ov["systems"].values())
        for row in o["per_label"]:
            assert row["oracle"] >= row["best_for_label"] - 1e-12 >= row["best"] - 2e-12
    fb = r.multi.found_by
    assert sum(fb) == r.corpus["gold_spans"]
    assert fb[0] == len(r.multi.hard_cases) and fb[-1] == len(r.multi.easy_cases)
    assert r.multi.span_oracle["micro"]["oracle"] == pytest.approx(
        1 - fb[0] / r.corpus["gold_spans"] if r.corpus["gold_spans"] else 0.0)


def test_hard_cases_show_what_the_systems_did():
    gold = [[("PER", 0, 1), ("LOC", 2, 4)]]
    systems = {"a": [[("LOC", 0, 1), ("LOC", 2, 4)]], "b": [[("ORG", 0, 1), ("LOC", 2, 4)]],
               "c": [[("LOC", 2, 4)]]}
    r = compare(from_spans([4], gold, systems), examples=0)
    assert [(c["label"], c["first"], c["last"]) for c in r.multi.hard_cases] == [("PER", 0, 0)]
    assert r.multi.hard_cases[0]["systems_instead"] == {"FN": 1, "LE LOC": 1, "LE ORG": 1}
    assert [(c["label"], c["first"]) for c in r.multi.easy_cases] == [("LOC", 2)]
    assert r.settings["view"] == "label"          # span input has no tags: labels of covering spans
    assert r.corpus["token_labels"] == ["O", "LOC", "ORG", "PER"]


def test_label_view_names_nested_labels():
    corpus = from_spans([3], [[("X", 0, 3), ("Y", 1, 2)]], {"a": [[("X", 0, 3)]], "b": [[("Y", 1, 2)]]})
    r = compare(corpus, examples=0)
    assert r.corpus["token_labels"] == ["O", "X", "Y", "X+Y"]
    t = r.pair.token
    assert t.differing == 3 and t.classes["changed_error"].top[0].name == "X+Y → X → Y"


# ---------------------------------------------------------------------------
# examples, formats, files and the command line

GOLD_FILE = """-DOCSTART- O

Alice B-PER
met O
Bob B-PER
Smith I-PER
in O
Paris B-LOC
. O

Carol B-PER
left O
"""
A_TAGS = ["B-PER", "O", "B-PER", "O", "O", "B-ORG", "O", "B-PER", "O"]
B_TAGS = ["B-PER", "O", "B-PER", "I-PER", "O", "B-LOC", "O", "B-LOC", "O"]
C_TAGS = ["B-LOC", "O", "B-PER", "I-PER", "O", "B-LOC", "B-PER", "B-PER", "O"]


def system_file(tags: List[str]) -> str:
    lines, k = [], 0
    for line in GOLD_FILE.splitlines():
        parts = line.split()
        if parts and parts[0] != "-DOCSTART-":
            parts[-1] = tags[k]
            k += 1
        lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


@pytest.fixture
def files(tmp_path):
    paths = {"gold": tmp_path / "gold.conll"}
    paths["gold"].write_text(GOLD_FILE)
    for name, tags in (("a", A_TAGS), ("b", B_TAGS), ("c", C_TAGS)):
        paths[name] = tmp_path / f"{name}.conll"
        paths[name].write_text(system_file(tags))
    return {k: str(v) for k, v in paths.items()}


def test_examples_carry_files_lines_and_inline_spans(files):
    corpus = ts_eval.io.read_conll_pair(files["gold"], [files["a"], files["b"]])
    r = compare(corpus, examples=2)
    tok = [e for e in r.pair.examples if e.level == "token"]
    fix = next(e for e in tok if e.transition == "O → I-PER")
    assert fix.change_class == "correction" and fix.sentence == 0
    assert fix.where["gold"] == {"path": files["gold"], "line": 6}
    assert fix.where["B"] == {"path": files["b"], "line": 6}
    assert inline_text(fix, "gold", ("*", "*")) == "[Alice]PER met [Bob *Smith*]PER in [Paris]LOC ."
    assert fix.spans["gold"] == [("PER", 0, 1), ("PER", 2, 4), ("LOC", 5, 6)]   # (label, start, end), end exclusive
    assert inline_text(fix, "A", ("*", "*")) == "[Alice]PER met [Bob]PER *Smith* in [Paris]ORG ."
    span = [e for e in r.pair.examples if e.level == "span"]
    assert {e.transition for e in span} == {"BES → TP", "LE → TP", "TP → LE"}
    new = next(e for e in span if e.transition == "TP → LE")
    assert new.where["A"]["line"] == 11 and new.tokens == ["Carol", "left"] and new.focus == [0]
    # the terminal renders the examples with the transition, the file names once above them and each
    # example's line; without colours the tokens the example is about are in stars (the legend says
    # so), with colours in reverse video (and no stars)
    text = render(build(r), "table", width=160)
    assert "span · New errors · TP → LE · sentence 2 · line 11" in text and "[*Carol*]LOC" in text
    assert f"Line numbers are lines of {files['gold']} (gold), {files['a']} (A) and {files['b']} (B)" in \
        " ".join(text.split())                                             # (prose wraps at spaces)
    assert text.count(files["a"]) == 1 and "in *stars*" in text
    coloured = render(build(r), "table", width=160, color=True)
    assert "*Carol*" not in coloured and "\x1b[" in coloured and "reverse video" in coloured


def test_examples_are_plain_data_and_renderers_write_them(files):
    corpus = ts_eval.io.read_conll_pair(files["gold"], [files["a"], files["b"]])
    r = compare(corpus, examples=1)
    e = r.pair.examples[0]
    d = e.to_dict()
    assert "inline" not in d                      # the result holds tokens and spans, no rendered text
    assert d["tokens"] == e.tokens and d["spans"]["gold"] == [list(x) for x in e.spans["gold"]]
    doc = build(r)
    b_cell = doc.table("examples").rows[0][8]
    # one writer of examples, in the documents layer: the document's B cell is its text
    assert b_cell.value == inline_text(e, "B", ("*", "*"), clip="...")
    md = render(doc, "markdown")
    assert inline_text(e, "B", ("*", "*"), clip="...").replace("|", "\\|") in md


def test_formats_cover_every_table(files):
    corpus = ts_eval.io.read_conll_pair(files["gold"], [files["a"], files["b"], files["c"]])
    r = compare(corpus, "a", "b", examples=1)
    # the document's long CSV names a table by its id and writes fractions (the old layout: by its
    # title, in percent)
    doc = build(r)
    ids = [t.id for t in doc.tables() if t.rows]      # an empty table has no cells in the CSV
    data = json.loads(json_text(r))
    assert data == json.loads(json.dumps(r.to_dict()))
    assert data["pair"]["token"]["classes"]["correction"]["count"] == r.pair.token.classes["correction"].count
    rows = list(csv.DictReader(io.StringIO(render(doc, "csv"))))
    assert [t for t in dict.fromkeys(row["table"] for row in rows)] == ids
    acc = [row for row in rows if row["table"] == "systems" and row["column"] == "token acc %"]
    assert [float(x["value"]) for x in acc] == pytest.approx([s["token_accuracy"] for s in r.systems])
    md = render(doc, "markdown")
    for t in doc.tables():
        assert f"**{t.title.replace('|', chr(92) + '|')}**" in md
    assert "**Examples" in md and "[Alice]PER" in md


def test_cli_two_files_and_single_file(files, tmp_path, capsys):
    assert main(["compare", "--gold", files["gold"], files["a"], files["b"], "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pair"]["a"] == "a" and out["multi"] is None
    assert out["pair"]["token"]["differing"] == 3        # Smith, Paris, Carol
    # one file, gold in column 2 and three system columns after it
    lines = []
    cols = [system_file(t).splitlines() for t in (A_TAGS, B_TAGS, C_TAGS)]
    for k, line in enumerate(GOLD_FILE.splitlines()):
        p = line.split()
        lines.append(" ".join(p + [c[k].split()[-1] for c in cols]) if p else line)
    multi = tmp_path / "multi.conll"
    multi.write_text("\n".join(lines) + "\n")
    out_file = tmp_path / "out.md"
    assert main(["compare", str(multi), "--gold-col", "2", "--names", "a", "b", "c", "--pair", "a", "c",
                 "--format", "markdown", "-o", str(out_file)]) == 0
    md = out_file.read_text()
    assert "Oracle token accuracy" in md and "Hard cases" in md and "Token level: a (A) → c (B)" in md
    assert main(["compare", str(multi), "--gold-col", "2", "--top", "2", "--examples", "1"]) == 0
    assert "Pairwise diff" in capsys.readouterr().out


def test_cli_bad_input(files, tmp_path, capsys):
    assert main(["compare", "--gold", files["gold"], files["a"]]) == 2
    assert "at least two system files" in capsys.readouterr().err
    bad = tmp_path / "bad.conll"
    bad.write_text(system_file(A_TAGS).replace("Smith", "Smyth"))
    assert main(["compare", "--gold", files["gold"], files["a"], str(bad)]) == 1
    err = capsys.readouterr().err
    assert "Smith" in err and "Smyth" in err and str(bad) in err
    short = tmp_path / "short.conll"
    short.write_text("\n".join(system_file(A_TAGS).splitlines()[:-1]) + "\n")
    assert main(["compare", "--gold", files["gold"], files["a"], str(short)]) == 1
    assert "do not line up" in capsys.readouterr().err
    assert main(["compare", files["a"], "--gold-col", "2"]) == 2     # one system column only
    assert "at least two system columns" in capsys.readouterr().err
    assert main(["compare", "--gold", files["gold"], files["a"], files["b"], "--pair", "a", "zz"]) == 2
    assert "no system named 'zz'" in capsys.readouterr().err
    assert main(["compare", "--gold", files["gold"], files["a"], files["b"], "--scheme", "IOB3"]) == 2
    assert "unknown scheme 'IOB3'" in capsys.readouterr().err
    assert main(["compare", "--gold", files["gold"], files["a"], files["b"], "--top", "-1"]) == 2


def test_api_errors():
    # library code raises OptionError (a ValueError), not the command line's UsageError
    corpus = from_spans([2], [[("X", 0, 1)]], {"only": [[("X", 0, 1)]]})
    with pytest.raises(OptionError, match="at least two systems") as err:
        compare(corpus)
    assert isinstance(err.value, ValueError) and not isinstance(err.value, UsageError)
    two = hand_corpus()
    with pytest.raises(OptionError, match="same system"):
        compare(two, "A", "A")
    with pytest.raises(OptionError, match="both systems"):
        compare(two, "A")
    with pytest.raises(OptionError, match="view 'tag'"):
        compare(two, view="tag")
    with pytest.raises(OptionError, match="unknown token view"):
        compare(two, view="tags")
    with pytest.raises(OptionError, match="no system named 'Z'"):
        compare(two, "A", "Z")
    with pytest.raises(InputError):
        from_sequences([["O", "B-X"]], {"a": [["O"]], "b": [["O", "O"]]})


def test_an_example_names_its_line_and_the_files_are_named_once():
    from types import SimpleNamespace

    from ts_eval.output.builders.compare_tables import example_files, example_line

    same = {"gold": {"path": "x.conll", "line": 43}, "A": {"path": "x.conll", "line": 43},
            "B": {"path": "x.conll", "line": 43}}
    assert example_line(same) == 43
    apart = {"gold": {"path": "g.conll", "line": 11}, "A": {"path": "a.conll", "line": 12},
             "B": {"path": "g.conll", "line": 11}}
    assert example_line(apart) == "gold 11, A 12, B 11"
    assert example_line({"gold": {"path": None, "line": 7}}) == 7
    assert example_line({"gold": {"path": "g", "line": None}}) is None
    assert example_files([SimpleNamespace(where=same)]) == "Line numbers are lines of x.conll (gold, A and B)"
    assert example_files([SimpleNamespace(where=apart)] * 2) == \
        "Line numbers are lines of g.conll (gold and B) and a.conll (A)"
    assert example_files([SimpleNamespace(where={"gold": {"path": None, "line": 7}})]) == ""


