"""conlleval.pl compatibility: `--format conlleval` byte for byte, exact-match counts by hand,
-DOCSTART- counted as a token, and a property test against an independent reading of
conlleval.pl's chunk rules (tests/support.py, itself checked against the fixtures)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import CONLLEVAL_FIXTURES, conlleval_reference, run_cli, write

import ts_eval

FIXTURE_NAMES = ["tricky_iob", "tricky_ext", "docstart",
                 # conlleval.pl's correct-chunk state machine (issue 9): see tests/fixtures/README.md
                 "bracket_cut", "across_boundary", "eof_after_blank", "eof_open", "x_line_at_end"]


def fixture(name: str, ext: str = ".conll") -> str:
    return str(CONLLEVAL_FIXTURES / (name + ext))


def expected(name: str) -> str:
    return (CONLLEVAL_FIXTURES / (name + ".conlleval.out")).read_bytes().decode("utf-8")


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_reference_reading_reproduces_the_fixtures(name):
    # the test oracle itself must reproduce conlleval.pl's recorded output
    assert conlleval_reference(Path(fixture(name)).read_text(encoding="utf-8")) == expected(name)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_format_conlleval_byte_for_byte(name, capsys):
    code, out, err = run_cli(["score", "--format", "conlleval", fixture(name)], capsys)
    assert code == 0, err
    assert out == expected(name)
    assert err == ""


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_format_conlleval_with_explicit_scheme_and_output_file(name, tmp_path, capsys):
    out_path = tmp_path / "out.txt"
    code, out, err = run_cli(["score", "--scheme", "conlleval", "--format", "conlleval", "-o", str(out_path),
                              fixture(name)], capsys)
    assert code == 0, err
    assert out == ""
    assert out_path.read_bytes() == (CONLLEVAL_FIXTURES / (name + ".conlleval.out")).read_bytes()


def test_tricky_files_need_the_conlleval_scheme(capsys):
    # the default IOB2 reader rejects the empty type "B-" (line 26 of tricky_iob.conll)
    code, _, err = run_cli(["score", fixture("tricky_iob")], capsys)
    assert code == 1
    assert f"{fixture('tricky_iob')}:26:" in err and "'B-'" in err
    code, _, err = run_cli(["score", "--format", "conlleval", "--scheme", "IOB2", fixture("tricky_iob")], capsys)
    assert code == 1


def test_tricky_iob_counts_by_hand(capsys):
    code, out, err = run_cli(["score", "--scheme", "conlleval", "--format", "json", fixture("tricky_iob")], capsys)
    assert code == 0, err
    ex = json.loads(out)["systems"][0]["exact"]
    # worked out from the README's table of cases:
    # LOC  gold New York, Oslo, Fjord; found New York, Corp, Ann, Oslo, Fjord
    # PER  gold John Smith, Mary Ann Lee, quux, Tom, Ann, Bob Sue, Ann Lee;
    #      found John Smith, Mary, Lee, quux, Tom Ann, Bob, Sue
    # MISC gold Euro; found Euro, deal, talks.  ORG gold Acme Corp; found Acme, end, Ann Lee
    # ""   gold foo bar; found foo bar baz.  WORK-OF-ART gold Gone with Wind; found Gone with
    hand = {"LOC": (3, 5, 3), "PER": (7, 7, 2), "MISC": (1, 3, 1), "ORG": (1, 3, 0), "": (1, 1, 0),
            "WORK-OF-ART": (1, 1, 0)}
    got = {lab: (r["gold"], r["system"], r["tp"]) for lab, r in ex["labels"].items()}
    assert got == hand
    assert (ex["micro"]["gold"], ex["micro"]["system"], ex["micro"]["tp"]) == (14, 20, 6)
    assert ex["micro"]["precision"] == pytest.approx(0.30)
    assert ex["micro"]["recall"] == pytest.approx(6 / 14)
    # 41 tokens counted, the -DOCSTART- line among them; 28 tags equal
    assert (ex["tags_counted"], ex["tags_correct"]) == (41, 28)


def test_tricky_ext_counts_by_hand(capsys):
    code, out, err = run_cli(["score", "--scheme", "conlleval", "--format", "json", fixture("tricky_ext")], capsys)
    assert code == 0, err
    data = json.loads(out)
    ex = data["systems"][0]["exact"]
    assert (ex["micro"]["gold"], ex["micro"]["system"], ex["micro"]["tp"]) == (18, 25, 11)
    # S-PER S-PER is one PER chunk on both sides; Rome / Paris are two LOC chunks around -X-
    assert ex["labels"]["PER"]["system"] == 8 and ex["labels"]["LOC"]["system"] == 8
    assert ex["labels"]["LOC"]["tp"] == 6
    assert data["corpus"]["boundary_lines"] == 1
    assert ex["tags_counted"] == 51


def test_docstart_counts(capsys):
    code, out, err = run_cli(["score", "--format", "json", fixture("docstart")], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["corpus"]["tokens"] == 8 and data["corpus"]["docstart_lines"] == 2
    assert data["corpus"]["documents"] == 2
    ex = data["systems"][0]["exact"]
    assert (ex["tags_counted"], ex["tags_correct"]) == (10, 7)
    assert ex["token_accuracy"] == pytest.approx(0.7)
    assert (ex["micro"]["gold"], ex["micro"]["system"], ex["micro"]["tp"]) == (4, 3, 1)


def test_one_sided_start_keeps_the_chunk_correct(capsys):
    # issue 9: gold B-PER I-PER, guess B-PER [-PER: "[" starts a second guessed chunk but
    # ends nothing, so conlleval.pl's correct state survives until both sides end at "O"
    code, out, err = run_cli(["score", "--scheme", "conlleval", "--format", "json", fixture("bracket_cut")], capsys)
    assert code == 0, err
    ex = json.loads(out)["systems"][0]["exact"]
    assert (ex["micro"]["gold"], ex["micro"]["system"], ex["micro"]["tp"]) == (1, 2, 1)


def test_fair_errors_see_the_spans_not_conllevals_verdict(tmp_path, capsys):
    # conlleval.pl counts bracket_cut's chunk correct, but its spans differ (gold w0..w1,
    # system w0 and w1): the fair errors must be those of the same spans written as IOB2
    def fair(argv):
        code, out, err = run_cli(["score", "--format", "json", *argv], capsys)
        assert code == 0, err
        return json.loads(out)["systems"][0]["fair"]["fair"]["micro"]

    iob2 = write(tmp_path / "iob2.conll", "w0 B-PER B-PER\nw1 I-PER B-PER\nw2 O O\n")
    got = fair(["--scheme", "conlleval", fixture("bracket_cut")])
    assert got == fair(["--scheme", "IOB2", iob2])
    assert (got["tp"], got["be"]) == (0, 2)


def test_final_blank_line_decides_the_last_chunk(capsys):
    # the same tags: a final blank line ends the gold chunk (I -> O) but not the guessed one
    # (. -> O), which loses the correct state; without it the end of the file counts it
    got = {}
    for name in ("eof_after_blank", "eof_open"):
        code, out, err = run_cli(["score", "--format", "json", "--scheme", "conlleval", fixture(name)], capsys)
        assert code == 0, err
        got[name] = json.loads(out)["systems"][0]["exact"]["micro"]["tp"]
    assert got == {"eof_after_blank": 0, "eof_open": 1}


def test_format_conlleval_several_systems(tmp_path, capsys):
    path = write(tmp_path / "two.conll", "a B-X B-X O\nb I-X O O\n")
    code, out, err = run_cli(["score", "--format", "conlleval", "--system-col", "3", "4", "--gold-col", "2",
                              path], capsys)
    assert code == 0, err
    assert out == (
        "# system: col3\n"
        "processed 2 tokens with 1 phrases; found: 1 phrases; correct: 0.\n"
        "accuracy:  50.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
        "                X: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        "\n"
        "# system: col4\n"
        "processed 2 tokens with 1 phrases; found: 0 phrases; correct: 0.\n"
        "accuracy:   0.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
        "                X: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n")


def test_exact_counts_from_python_lists():
    # the tricky_iob sentences (without -DOCSTART-) as lists give the same phrase counts
    sents, cur = [], ([], [])
    for line in Path(fixture("tricky_iob")).read_text(encoding="utf-8").split("\n"):
        f = line.split()
        if not f:
            if cur[0]:
                sents.append(cur)
            cur = ([], [])
        elif f[0] != "-DOCSTART-":
            cur[0].append(f[1])
            cur[1].append(f[2])
    if cur[0]:
        sents.append(cur)
    rep = ts_eval.score([g for g, _ in sents], [p for _, p in sents], scheme="conlleval")
    ex = rep.systems[0]["exact"]["micro"]
    assert (ex["gold"], ex["system"], ex["tp"]) == (14, 20, 6)
    assert rep.systems[0]["exact"]["tags_counted"] == 40  # no -DOCSTART- here


# ---------------------------------------------------------------------------
# property: random files in the tag language of real data (B/I/E/S/O, hyphenated and
# empty types) give exactly conlleval.pl's output

TAGS = ["O", "O", "O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "B-A-B", "I-A-B",
        "B-", "I-", "E-", "I-ORG", "[-PER", "]-PER", "[-LOC", ".", "B", "I", "X"]


@st.composite
def conll_files(draw):
    sents = draw(st.lists(st.lists(st.tuples(st.sampled_from(TAGS), st.sampled_from(TAGS)), min_size=1,
                                   max_size=7), min_size=1, max_size=5))
    lines = []
    if draw(st.booleans()):
        lines += ["-DOCSTART- O O", ""]
    for k, sent in enumerate(sents):
        lines += [f"w{k}{j} {g} {p}" for j, (g, p) in enumerate(sent)]
        lines.append("")
    if draw(st.booleans()):  # a file may end without a blank line (conlleval.pl's last chunk differs)
        lines.pop()
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(text=conll_files())
def test_format_conlleval_matches_conlleval_rules(text, tmp_path_factory):
    path = tmp_path_factory.mktemp("c") / "f.conll"
    path.write_text(text, encoding="utf-8")
    import contextlib
    import io

    from ts_eval.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["score", "--format", "conlleval", str(path)])
    assert code == 0
    assert buf.getvalue() == conlleval_reference(text)


# ---------------------------------------------------------------------------
# corners of conlleval.pl that the fixtures do not cover; expected outputs are worked out
# by hand from conlleval.pl's rules (and agree with tests/support.py's reading of them)

def test_token_accuracy_compares_prefix_and_type_like_conlleval(tmp_path, capsys):
    # conlleval splits every tag into (prefix, type) and turns type "0" into "": so gold
    # B-0 equals guess B-, and gold B (no hyphen) equals guess B-. All 3 tags count as correct.
    text = "a B-0 B-\nb B B-\nc O O\n"
    path = write(tmp_path / "acc.conll", text)
    code, out, err = run_cli(["score", "--format", "conlleval", path], capsys)
    assert code == 0, err
    want = ("processed 3 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            "                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
            "                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n")
    assert want == conlleval_reference(text)
    assert out == want


def test_type_names_are_padded_by_bytes_like_perl(tmp_path, capsys):
    # conlleval.pl reads bytes: printf "%17s" pads "LÖC" (4 bytes in UTF-8) with 13 spaces
    text = "Köln B-LÖC B-LÖC\nliegt O O\n"
    path = write(tmp_path / "utf8.conll", text)
    code, out, err = run_cli(["score", "--format", "conlleval", path], capsys)
    assert code == 0, err
    want = ("processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            + " " * 13 + "LÖC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n")
    assert want == conlleval_reference(text)
    assert out == want


def test_chunk_closed_by_a_start_without_an_end_is_not_correct(tmp_path, capsys):
    # "[" always starts a chunk, but B-PER -> [-PER is not a chunk end for conlleval.pl, so
    # its "correct" state machine carries on: identical columns give 2 phrases, 1 correct
    text = "a B-PER B-PER\nb [-PER [-PER\n"
    path = write(tmp_path / "br.conll", text)
    code, out, err = run_cli(["score", "--format", "conlleval", path], capsys)
    assert code == 0, err
    want = ("processed 2 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            "accuracy: 100.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            "              PER: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n")
    assert want == conlleval_reference(text)
    assert out == want


def test_empty_input_of_phrases(tmp_path, capsys):
    path = write(tmp_path / "o.conll", "a O O\nb O O\n")
    code, out, err = run_cli(["score", "--format", "conlleval", path], capsys)
    assert code == 0, err
    assert out == ("processed 2 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
                   "accuracy: 100.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n")
