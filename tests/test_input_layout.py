"""What conlleval.pl accepts, `ts-eval score` accepts too (issue #9, point 6), and input
errors point at the first bad line (point 7).

The expected outputs in tests/fixtures/conlleval/{raw_tags,tab_delimited,two_columns}.conlleval.out
are the stdout of the original conlleval.pl (2004-01-26) run with -r -o NONE, -d '\\t' and no
option respectively.
"""
from __future__ import annotations

import gzip
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import CONLLEVAL_FIXTURES, fails, run_cli, write


def ok(capsys, argv):
    code, out, err = run_cli(argv, capsys)
    assert code == 0, err
    return out


@pytest.mark.parametrize("name, options", [
    ("raw_tags", ["--raw", "--outside-tag", "NONE"]),        # conlleval.pl -r -o NONE
    ("tab_delimited", ["--delimiter", "\\t"]),               # conlleval.pl -d '\t'
    ("two_columns", []),                                     # GOLD SYSTEM, no tokens
])
def test_conlleval_input_options_reproduce_conlleval_pl(capsys, name, options):
    path = str(CONLLEVAL_FIXTURES / f"{name}.conll")
    expected = (CONLLEVAL_FIXTURES / f"{name}.conlleval.out").read_text()
    assert ok(capsys, ["score", path, "--format", "conlleval", *options]) == expected


def test_two_columns_are_gold_and_system_without_tokens(tmp_path, capsys):
    two = write(tmp_path / "two.txt", "B-PER B-PER\nI-PER O\n\nB-LOC B-LOC\n")
    three = write(tmp_path / "three.txt", "a B-PER B-PER\nb I-PER O\n\nc B-LOC B-LOC\n")
    out2 = ok(capsys, ["score", two, "--format", "conlleval"])
    assert out2 == ok(capsys, ["score", three, "--format", "conlleval"])
    # gold PER(a-b) LOC(c), system PER(a) LOC(c): 1 of 2 correct
    assert out2.startswith("processed 3 tokens with 2 phrases; found: 2 phrases; correct: 1.")


def test_token_column_given_as_tag_column_in_three_columns_is_a_usage_error(tmp_path, capsys):
    f = write(tmp_path / "f.txt", "a B-X B-X\n")
    fails(capsys, ["score", f, "--token-col", "2"], 2, f, "token column 2", "--tags-only")


def test_raw_tags_each_token_is_a_span(tmp_path, capsys):
    # gold: N N V ; system: N V V -> spans N0 N1 V2 vs N0 V1 V2: 2 of 3 correct
    f = write(tmp_path / "raw.txt", "a N N\nb N V\nc V V\n")
    out = ok(capsys, ["score", f, "--raw", "--format", "conlleval"])
    assert out.startswith("processed 3 tokens with 3 phrases; found: 3 phrases; correct: 2.")


def test_outside_tag_is_read_as_o(tmp_path, capsys):
    f = write(tmp_path / "o.txt", "a B-X B-X\nb _ I-X\nc _ _\n")
    out = ok(capsys, ["score", f, "--outside-tag", "_", "--format", "conlleval"])
    assert out.startswith("processed 3 tokens with 1 phrases; found: 1 phrases; correct: 0.")


def test_tags_only_system_file_next_to_gold_with_tokens(tmp_path, capsys):
    gold = write(tmp_path / "g.txt", "a B-PER\nb I-PER\nc O\n\nd B-LOC\n")
    sys_ = write(tmp_path / "s.txt", "B-PER\nO\nO\n\nB-LOC\n")
    # a file of one column cannot hold tokens and tags: bad input (exit 1)
    fails(capsys, ["score", "--gold", gold, "--system", sys_], 1, sys_, "token column 1", "--tags-only")
    out = ok(capsys, ["score", "--gold", gold, "--system", sys_, "--tags-only", "--format", "conlleval"])
    assert out.startswith("processed 4 tokens with 2 phrases; found: 2 phrases; correct: 1.")
    # --no-token-check is the same option; token texts differ but are not compared
    other = write(tmp_path / "o.txt", "x B-PER\ny O\nz O\n\nw B-LOC\n")
    assert ok(capsys, ["score", "--gold", gold, "--system", other, "--no-token-check", "--format",
                       "conlleval"]) == out


def test_tags_only_checks_sentence_lengths(tmp_path, capsys):
    gold = write(tmp_path / "g.txt", "a B-PER\nb I-PER\nc O\n\nd B-LOC\n")
    sys_ = write(tmp_path / "s.txt", "B-PER\nO\n\nB-LOC\n")
    fails(capsys, ["score", "--gold", gold, "--system", sys_, "--tags-only"], 1, f"{sys_}:3:",
          "sentence 1", "3 tokens in gold, 2 in the system", "gold line 3 (a token)",
          "system line 3 (the sentence ends")


def test_delimiter_tab_keeps_spaces_in_tokens(tmp_path, capsys):
    f = write(tmp_path / "t.tsv", "New York\tB-LOC\tB-LOC\nis\tO\tO\n")
    out = ok(capsys, ["score", f, "-d", "\\t", "--format", "conlleval"])
    assert out.startswith("processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.")
    # without the delimiter the space splits "New York": 4 fields against 3
    fails(capsys, ["score", f], 1, f"{f}:2:", "3 columns, expected 4")


def test_delimiter_empty_field_is_an_input_error(tmp_path, capsys):
    f = write(tmp_path / "t.tsv", "a\tO\tO\nb\t\tO\n")
    fails(capsys, ["score", f, "--delimiter", "\\t"], 1, f"{f}:2:", "empty field", "'b\\t\\tO'")


@pytest.mark.parametrize("bad", ["ab", "\\n"])
def test_delimiter_must_be_one_character(tmp_path, capsys, bad):
    f = write(tmp_path / "t.tsv", "a O O\n")
    got, _out, err = run_cli(["score", f, "--delimiter", bad], capsys)
    assert got == 2 and "delimiter" in err, err


def test_gzip_file_is_read_and_a_truncated_one_is_an_input_error(tmp_path, capsys):
    """issue #12.5: compressed column files are read transparently (this once said "looks compressed");
    a truncated stream is one line naming the file."""
    f = tmp_path / "g.conll.gz"
    f.write_bytes(gzip.compress(b"a B-X B-X\nb O B-X\n"))
    got, out, err = run_cli(["score", str(f), "--format", "json"], capsys)
    assert got == 0, err
    assert json.loads(out)["systems"][0]["exact"]["micro"]["tp"] == 1
    f.write_bytes(gzip.compress(b"a B-X B-X\nb O B-X\n")[:-12])
    fails(capsys, ["score", str(f)], 1, str(f), "truncated or corrupt gzip")


# ---------------------------------------------------------------------------
# misalignment: the first line where the files diverge

GOLD3 = "a O\nb B-X\nc I-X\n\nd O\ne B-Y\nf O\ng O\n\nh O\ni O\n"


def test_deleted_token_line_is_named_where_it_was_deleted(tmp_path, capsys):
    gold = write(tmp_path / "g.txt", GOLD3)
    # line 6 ("e B-Y") deleted: the system's line 6 holds 'f'
    sys_ = write(tmp_path / "s.txt", GOLD3.replace("e B-Y\n", ""))
    err = fails(capsys, ["score", "--gold", gold, "--system", sys_], 1, f"{sys_}:6:", "'e'", "'f'",
                "gold line 6", "sentence 2")
    assert "end of file" not in err and "sentence 3" not in err


def test_deleted_token_line_tags_only(tmp_path, capsys):
    gold = write(tmp_path / "g.txt", GOLD3)
    sys_ = write(tmp_path / "s.txt", GOLD3.replace("e B-Y\n", ""))
    err = fails(capsys, ["score", "--gold", gold, "--system", sys_, "--tags-only"], 1, f"{sys_}:8:",
                "sentence 2 (gold line 5, system line 5) has 4 tokens in gold, 3 in the system",
                "gold line 8 (a token)", "system line 8 (the sentence ends")
    assert "end of file" not in err


def test_deleted_blank_line_names_the_merged_sentence(tmp_path, capsys):
    gold = write(tmp_path / "g.txt", GOLD3)
    sys_ = write(tmp_path / "s.txt", GOLD3.replace("g O\n\n", "g O\n"))
    err = fails(capsys, ["score", "--gold", gold, "--system", sys_], 1, f"{sys_}:9:",
                "sentence 2", "4 tokens in gold, 6 in the system", "gold line 9 (the sentence ends",
                "system line 9 (a token)")
    assert "end of file" not in err


def test_extra_sentence_at_the_end_names_its_line(tmp_path, capsys):
    gold = write(tmp_path / "g.txt", GOLD3)
    sys_ = write(tmp_path / "s.txt", GOLD3 + "\nj O\n")
    fails(capsys, ["score", "--gold", gold, "--system", sys_], 1, f"{sys_}:13:",
          "sentence 4 (system line 13) is not in the gold file, which ends after gold line 11")


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(2, 5), min_size=1, max_size=6), st.data())
def test_any_deleted_token_line_is_named_at_its_own_line(tmp_path_factory, capsys, lengths, data):
    """Property: delete any one token line of a copy of gold (distinct tokens, sentences of two
    tokens or more): the error names gold's line of the deleted token and the same line number
    in the system file, which now holds the next token or the sentence end."""
    lines, k = [], 0
    for n in lengths:
        lines += [f"t{k + i} O" for i in range(n)] + [""]
        k += n
    token_lines = [i for i, ln in enumerate(lines) if ln]
    drop = data.draw(st.sampled_from(token_lines))
    tmp = tmp_path_factory.mktemp("del")
    gold = write(tmp / "g.txt", "\n".join(lines))
    sys_ = write(tmp / "s.txt", "\n".join(lines[:drop] + lines[drop + 1:]))
    fails(capsys, ["score", "--gold", gold, "--system", sys_], 1, f"{sys_}:{drop + 1}:",
          f"gold line {drop + 1}")


# ---------------------------------------------------------------------------
# scheme errors at the first bad line, and the likely fix

def test_iobes_read_as_iob2_names_the_first_bad_line_not_the_first_bad_tag(tmp_path, capsys):
    # sorted, 'E-LOC' comes before 'S-PER'; in the file the S- line comes first
    f = write(tmp_path / "f.txt", "a O O\nb S-PER S-PER\nc B-LOC B-LOC\nd E-LOC E-LOC\n")
    err = fails(capsys, ["score", f], 1, f"{f}:2:", "'S-PER'", "--scheme")
    assert "E-LOC" not in err


def test_bad_tag_on_the_system_side_earlier_than_on_gold(tmp_path, capsys):
    f = write(tmp_path / "f.txt", "a O E-X\nb S-PER O\n")
    fails(capsys, ["score", f], 1, f"{f}:1:", "'E-X'", "(f side)")


IOB1 = "a I-PER I-PER\nb I-PER O\nc O I-LOC\nd I-LOC I-LOC\ne B-LOC I-LOC\n\nf I-ORG I-ORG\n"


def test_many_repairs_under_iob2_suggest_iob1(tmp_path, capsys):
    f = write(tmp_path / "iob1.txt", IOB1)
    out = ok(capsys, ["score", f, "--no-labels"])
    # gold spans PER(a-b) LOC(d) LOC(e) ORG(f): PER, LOC(d) and ORG open with I-
    assert f"gold: 3 ill-formed spans repaired, 0 discarded (first ill-formed: {f}:1)" in out
    assert "gold: 3 of 4 spans are ill-formed under IOB2" in out
    assert "--scheme IOB1 or --scheme auto" in out
    out = ok(capsys, ["score", f, "--no-labels", "--scheme", "IOB1"])
    assert "ill-formed" not in out and "--scheme IOB1" not in out


def test_germeval_file_given_to_score_suggests_germeval(tmp_path, capsys):
    f = write(tmp_path / "ge.tsv", "# http://example.org [2009-10-17]\n1\tSchartau\tB-PER\tO\n"
                                   "2\tsagte\tO\tO\n")
    # the comment line is the odd one out: it is the line named
    fails(capsys, ["score", f], 1, f"{f}:1:", "3 columns, expected 4 as on line 2", "GermEval 2014",
          "ts-eval germeval")
