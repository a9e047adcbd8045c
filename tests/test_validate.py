"""``ts-eval validate`` and ``ts_eval.validate``: every problem of a submission against gold, counted by kind,
on small fixtures whose problems are known line by line (tests/fixtures/validate)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import run_cli

import ts_eval

HERE = Path(__file__).parent / "fixtures" / "validate"
GOLD, CLEAN, BROKEN, IOB1 = (str(HERE / n) for n in ("gold.conll", "clean.conll", "broken.conll", "iob1.conll"))
#: broken.conll against gold.conll, line by line
BROKEN_PROBLEMS = [(5, "token_mismatch"), (5, "ill_formed"), (6, "bad_tag"), (10, "column_count"),
                   (12, "missing_document"), (12, "unknown_label"), (17, "missing_token")]


def lines_of(path: str):
    return Path(path).read_bytes().split(b"\n")


def write(tmp_path: Path, name: str, lines) -> str:
    p = tmp_path / name
    p.write_bytes(b"\n".join(lines))
    return str(p)


def kinds(v) -> dict:
    return dict(v.counts)


def test_a_clean_submission_is_valid():
    v = ts_eval.validate(GOLD, CLEAN)
    assert v.valid and v.problems == [] and v.counts == {}


def test_every_problem_of_a_broken_submission_with_its_line():
    v = ts_eval.validate(GOLD, BROKEN)
    assert not v.valid
    assert [(p.line, p.kind) for p in v.problems] == BROKEN_PROBLEMS
    assert v.counts == {"column_count": 1, "token_mismatch": 1, "missing_token": 1, "missing_document": 1,
                        "bad_tag": 1, "ill_formed": 1, "unknown_label": 1}
    mismatch, ill = v.problems[0], v.problems[1]
    assert (mismatch.found, mismatch.gold_line) == ("'Germany'", 5) and "'German'" in mismatch.expected
    assert ill.found == "'I-MISC' after 'O'"
    assert set(ill.repairs) == {"conlleval", "strict", "discard"}
    assert "MISC span (line 5)" in ill.repairs["conlleval"] and "dropped" in ill.repairs["discard"]
    missing = v.problems[-1]
    assert (missing.gold_line, missing.expected) == (19, "gold line 19: Commission")
    unknown = v.problems[5]
    assert "'PLACE'" in unknown.found and "LOC, MISC, ORG, PER" in unknown.expected


def test_max_problems_bounds_the_list_not_the_counts():
    v = ts_eval.validate(GOLD, BROKEN, max_problems=2)
    assert [(p.line, p.kind) for p in v.problems] == BROKEN_PROBLEMS[:2]
    assert sum(v.counts.values()) == 7
    d = v.to_dict()
    assert (d["problems"], d["submissions"][0]["shown"], d["settings"]["max_problems"]) == (7, 2, 2)


def test_a_truncated_file_is_one_missing_run_not_every_line(tmp_path):
    cut = write(tmp_path, "cut.conll", lines_of(CLEAN)[:9])        # up to "Peter": Blackburn and two sentences gone
    v = ts_eval.validate(GOLD, cut)
    assert kinds(v) == {"missing_token": 1, "missing_sentence": 1}
    sentence = next(p for p in v.problems if p.kind == "missing_sentence")
    assert sentence.found.startswith("the end of the file: 2 sentences") and sentence.gold_line == 14


def test_a_missing_line_is_reported_once_and_the_rest_realigns(tmp_path):
    lines = lines_of(CLEAN)
    v = ts_eval.validate(GOLD, write(tmp_path, "gap.conll", lines[:3] + lines[4:]))   # "rejects" gone
    assert [(p.line, p.kind, p.gold_line) for p in v.problems] == [(4, "missing_token", 4)]


def test_a_line_without_its_tag_is_one_problem_not_also_the_next_tag(tmp_path):
    """``Oleg`` lost its B-PER: the I-PER after it is no second problem (what it follows is not known), and the
    message counts in words (1 column)."""
    gold = write(tmp_path, "g.conll", [b"The O", b"Oleg B-PER", b"Shutov I-PER", b"left O", b""])
    sub = write(tmp_path, "s.conll", [b"The O", b"Oleg", b"Shutov I-PER", b"left O", b""])
    v = ts_eval.validate(gold, sub)
    assert [(p.line, p.kind, p.found, p.expected) for p in v.problems] == [
        (2, "column_count", "1 column: 'Oleg'", "2 columns as on line 1")]
    # an I- tag after a tag that is there stays ill-formed
    bad = write(tmp_path, "b.conll", [b"The O", b"Oleg O", b"Shutov I-PER", b"left O", b""])
    assert [(p.line, p.kind) for p in ts_eval.validate(gold, bad).problems] == [(3, "ill_formed")]


def test_a_first_line_without_its_tag_is_one_problem_as_score_reads_it(tmp_path, capsys):
    """The first token line is the odd one out: that line is the problem (score's reader says so too), not
    every other line of the file judged against its width (it was 3 column_count and a bad_tag here)."""
    gold = write(tmp_path, "g.conll", [b"Oleg B-PER", b"Shutov I-PER", b"left O", b"", b"Bye O", b""])
    sub = write(tmp_path, "s.conll", [b"Oleg", b"Shutov I-PER", b"left O", b"", b"Bye O", b""])
    v = ts_eval.validate(gold, sub)
    assert [(p.line, p.kind, p.expected) for p in v.problems] == [(1, "column_count", "2 columns as on line 2")]
    code, _, err = run_cli(["score", "--gold", gold, sub], capsys)
    assert code == 1 and "s.conll:1:" in err


def test_docstart_lines_where_gold_has_none_are_a_note_as_score_takes_them(tmp_path, capsys):
    """score pairs column files by their tokens and scores such a submission as the same file without them; it
    was an extra_document problem ('would not score as it is')."""
    gold = write(tmp_path, "g.conll", [b"Oleg B-PER", b"left O", b"", b"Bye O", b""])
    sub = write(tmp_path, "s.conll", [b"-DOCSTART- O", b"", b"Oleg B-PER", b"left O", b"", b"Bye O", b""])
    v = ts_eval.validate(gold, sub)
    assert v.valid and v.counts == {}
    assert v.submissions[0].notes["documents"].startswith("1 -DOCSTART- line where gold has none")
    assert run_cli(["score", "--gold", gold, sub], capsys)[0] == 0


def test_an_extra_sentence_and_a_sentence_boundary(tmp_path):
    lines = lines_of(CLEAN)
    extra = write(tmp_path, "extra.conll", lines[:11] + [b"Hello O O", b"world O O", b""] + lines[11:])
    v = ts_eval.validate(GOLD, extra)
    assert [(p.line, p.kind) for p in v.problems] == [(12, "extra_sentence")]
    merged = write(tmp_path, "merged.conll", lines[:7] + lines[8:])     # no blank line between two sentences
    v = ts_eval.validate(GOLD, merged)
    assert [(p.line, p.kind, p.gold_line) for p in v.problems] == [(8, "sentence_boundary", 9)]


def test_encoding_and_empty_files(tmp_path):
    lines = lines_of(CLEAN)
    bad = write(tmp_path, "latin1.conll", lines[:4] + [b"Gr\xfcn O O"] + lines[5:])
    v = ts_eval.validate(GOLD, bad)
    enc = [p for p in v.problems if p.kind == "encoding"]
    assert len(enc) == 1 and enc[0].line == 5 and enc[0].byte == len(b"\n".join(lines[:4])) + 3
    assert "0xfc" in enc[0].found
    empty = write(tmp_path, "empty.conll", [])
    assert kinds(ts_eval.validate(GOLD, empty)) == {"empty_file": 1}


def test_a_huge_token_is_shown_by_its_start_and_length_not_copied_whole(tmp_path, capsys):
    """A token of 5,000,000 characters (a file that lost its line ends) is one token_mismatch whose ``found``
    is 200 characters at most, in every format (it was the whole token: a 5 MB report and stderr)."""
    lines = lines_of(CLEAN)
    huge = b"x" * 5_000_000
    v = ts_eval.validate(GOLD, write(tmp_path, "huge.conll", lines[:4] + [huge + b" O O"] + lines[5:]))
    assert kinds(v) == {"token_mismatch": 1}
    (p,) = v.problems
    assert len(p.found) <= 200 and p.found.startswith("'xxx") and p.found.endswith("... (5,000,002 characters)")
    code, out, _ = run_cli(["validate", "--gold", GOLD, str(tmp_path / "huge.conll"), "--format", "json"], capsys)
    assert code == 1 and len(out) < 10_000 and json.loads(out)["submissions"][0]["list"][0]["found"] == p.found


def test_a_utf16_file_is_one_encoding_problem(tmp_path):
    """A submission saved as UTF-16 (a Windows editor's 'Unicode'): one problem saying so (it was 2 encoding
    problems and more on every line, 5,862 on 2,816 tokens of a CoNLL-2003 submission)."""
    path = tmp_path / "utf16.conll"
    path.write_bytes(Path(CLEAN).read_text(encoding="utf-8").encode("utf-16"))
    v = ts_eval.validate(GOLD, str(path))
    found = [(p.line, p.kind, p.found) for p in v.problems]
    assert found == [(1, "encoding", "UTF-16 text (the byte order mark ff fe)")]


def test_an_empty_json_lines_file_is_an_empty_file_as_a_column_file_is(tmp_path):
    """It was a missing_document problem (every document of gold missing)."""
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"tokens": ["John", "left"], "tags": ["B-PER", "O"]}\n', encoding="utf-8")
    for text in ("", "\n\n"):
        (tmp_path / "s.jsonl").write_text(text, encoding="utf-8")
        v = ts_eval.validate(str(gold), str(tmp_path / "s.jsonl"))
        assert [(p.kind, p.found) for p in v.problems] == [("empty_file", "no records")] and not v.valid


def test_crlf_and_bom_are_notes_not_problems(tmp_path):
    lines = lines_of(CLEAN)
    crlf = write(tmp_path, "crlf.conll", [x + b"\r" if x else x for x in lines])
    bom = tmp_path / "bom.conll"
    bom.write_bytes(b"\xef\xbb\xbf" + Path(CLEAN).read_bytes())
    v = ts_eval.validate(GOLD, [crlf, str(bom)])
    assert v.valid
    assert set(v.submissions[0].notes) == {"crlf"} and set(v.submissions[1].notes) == {"bom"}


def test_iob1_tags_are_ill_formed_unless_the_scheme_is_iob1():
    v = ts_eval.validate(GOLD, IOB1)
    assert kinds(v) == {"ill_formed": 5}       # EU, German, Peter, BRUSSELS, European: I- opening a span
    assert ts_eval.validate(GOLD, IOB1, scheme="IOB1").valid
    # auto detects over gold and the submission together, as score does: IOB2 here (gold's B- opens fresh spans)
    auto = ts_eval.validate(GOLD, IOB1, scheme="auto")
    assert kinds(auto) == {"ill_formed": 5} and auto.submissions[0].scheme == "IOB2"
    assert auto.to_dict()["submissions"][0]["scheme"] == "IOB2"


def test_labels_given_and_the_label_map():
    v = ts_eval.validate(GOLD, CLEAN, labels=["PER", "LOC", "ORG"])
    assert [(p.line, p.kind) for p in v.problems] == [(5, "unknown_label")]
    assert ts_eval.validate(GOLD, CLEAN, labels=["PER", "LOC", "ORG"], label_map=[("MISC", "")]).valid


def test_one_file_with_gold_and_system_columns(tmp_path):
    lines = lines_of(IOB1)
    v = ts_eval.validate(file=IOB1)
    assert kinds(v) == {"ill_formed": 5}
    assert ts_eval.validate(file=IOB1, scheme="IOB1").valid
    odd = write(tmp_path, "odd.conll", lines[:4] + [b"German I-MISC"] + lines[5:])
    assert kinds(ts_eval.validate(file=odd, scheme="IOB1")) == {"column_count": 1}


def test_the_command_exit_codes(capsys):
    code, out, err = run_cli(["validate", "--gold", GOLD, CLEAN], capsys)
    assert (code, err) == (0, "") and "every one would score as it is" in out
    code, out, err = run_cli(["validate", "--gold", GOLD, CLEAN, BROKEN], capsys)
    assert code == 1 and "1 with problems (7 problems), 1 valid" in out
    code, _, err = run_cli(["validate", "--gold", GOLD, CLEAN, "--max-problems", "-1"], capsys)
    assert code == 2 and "--max-problems" in err
    code, _, err = run_cli(["validate", "--gold", GOLD], capsys)
    assert code == 2


def test_json_counts_and_the_bounded_list(capsys):
    code, out, _ = run_cli(["validate", "--gold", GOLD, BROKEN, "--format", "json", "--max-problems", "3"], capsys)
    d = json.loads(out)
    assert code == 1 and d["valid"] is False and d["layout"] == {"kind": "validate", "version": 1}
    assert d["problems"] == 7 and d["kinds"]["ill_formed"] == 1
    sub = d["submissions"][0]
    assert (sub["problems"], sub["shown"], len(sub["list"])) == (7, 3, 3)
    assert sub["list"][1]["repairs"]["strict"].startswith("an error")


@pytest.mark.parametrize("fmt", ["markdown", "csv", "html"])
def test_every_page_format_shows_the_kinds_and_counts(capsys, fmt):
    code, out, _ = run_cli(["validate", "--gold", GOLD, BROKEN, "--format", fmt], capsys)
    assert code == 1
    for word in ("token_mismatch", "ill_formed", "missing_document", "Germany"):
        assert word in out, (fmt, word)


@pytest.mark.parametrize("width", [80, 120])
def test_the_table_fits_the_terminal(capsys, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = run_cli(["validate", "--gold", GOLD, CLEAN, BROKEN], capsys)
    assert code == 1
    assert max(len(x) for x in out.splitlines()) <= width
    for word in ("Problems by kind", "column_count", "unknown_label", "'Germany'"):
        assert word in out


def test_output_never_overwrites_an_input(capsys, tmp_path):
    code, _, err = run_cli(["validate", "--gold", GOLD, BROKEN, "-o", BROKEN], capsys)
    assert code == 2 and "broken.conll" in err
    out = tmp_path / "report.json"
    code, _, _ = run_cli(["validate", "--gold", GOLD, BROKEN, "--format", "json", "-o", str(out)], capsys)
    assert code == 1 and json.loads(out.read_text())["problems"] == 7


def test_the_json_speaks_the_vocabulary():
    from test_vocabulary import offenders

    d = json.loads(json.dumps(ts_eval.validate(GOLD, [CLEAN, BROKEN], max_problems=3).to_dict()))
    assert not sorted(set(offenders(d)))


JSONL_GOLD, JSONL_CLEAN, JSONL_BROKEN = (str(HERE / n) for n in ("gold.jsonl", "clean.jsonl", "broken.jsonl"))


def test_json_lines_are_read_record_by_record():
    assert ts_eval.validate(JSONL_GOLD, JSONL_CLEAN).valid
    assert ts_eval.validate(GOLD, JSONL_CLEAN).valid                 # gold in columns, the submission in JSON
    for gold in (JSONL_GOLD, GOLD):
        v = ts_eval.validate(gold, JSONL_BROKEN)
        # a span past the tokens (line 2), a record cut short (line 3): each refused on its own, and the
        # records after them still read (line 4's label); the refused ones are not reported missing too
        assert [(p.line, p.kind) for p in v.problems] == [(2, "bad_record"), (3, "bad_record"),
                                                          (4, "unknown_label")]
        assert "invalid JSON" in v.problems[1].found and "'ORGANISATION'" in v.problems[2].found


def test_json_lines_tokens_and_ill_formed_tags(tmp_path):
    records = Path(JSONL_CLEAN).read_text().splitlines()
    odd = tmp_path / "odd.jsonl"
    odd.write_text("\n".join([records[0].replace('"German"', '"Germany"'), records[2], records[3],
                              '{"tokens": ["Hello"], "spans": []}']) + "\n")
    v = ts_eval.validate(JSONL_GOLD, str(odd))
    assert [(p.line, p.kind) for p in v.problems] == [(1, "token_mismatch"), (2, "missing_document"),
                                                      (4, "extra_document")]
    tags = tmp_path / "tags.jsonl"
    tags.write_text('{"tokens": ["EU", "rejects", "German", "call", "."], "tags": ["I-ORG", "O", "I-MISC", "O", "O"]}\n'
                    '{"tokens": ["Peter", "Blackburn"], "tags": ["B-PER", "I-PER"]}\n'
                    '{"tokens": ["BRUSSELS", "1996-08-22"], "tags": ["B-LOC", "O"]}\n'
                    '{"tokens": ["The", "European", "Commission", "said"], "tags": ["O", "B-ORG", "I-ORG", "O"]}\n')
    v = ts_eval.validate(JSONL_GOLD, str(tags))
    assert [(p.line, p.kind) for p in v.problems] == [(1, "ill_formed")]
    assert "2 ill-formed spans" in v.problems[0].found


def conllu(sentences) -> str:
    rows = []
    for sentence in sentences:
        rows += ["\t".join([str(k + 1), form, "_", "_", "_", "_", "0", "dep", "_", f"NER={tag}"])
                 for k, (form, tag) in enumerate(sentence)] + [""]
    return "\n".join(rows) + "\n"


def test_conllu_sentences_are_read_one_by_one(tmp_path):
    sentences = [[("EU", "B-ORG"), ("rejects", "O"), ("German", "B-MISC"), ("call", "O"), (".", "O")],
                 [("Peter", "B-PER"), ("Blackburn", "I-PER")], [("BRUSSELS", "B-LOC"), ("1996-08-22", "O")],
                 [("The", "O"), ("European", "B-ORG"), ("Commission", "I-ORG"), ("said", "O")]]
    clean = tmp_path / "clean.conllu"
    clean.write_text(conllu(sentences))
    assert ts_eval.validate(GOLD, str(clean)).valid
    sentences[1][1] = ("Blackburne", "I-PER")
    sentences[2][0] = ("BRUSSELS", "B-PLACE")
    text = conllu(sentences).replace("\t0\tdep\t_\tNER=O\n", "\t0\tdep\n", 1)     # line 2: 8 fields
    broken = tmp_path / "broken.conllu"
    broken.write_text(text)
    v = ts_eval.validate(GOLD, str(broken))
    assert [(p.line, p.kind) for p in v.problems] == [(2, "bad_record"), (7, "token_mismatch"), (10, "unknown_label")]
    assert v.problems[1].found == "'Blackburne' (token 2 of the record)"
    assert v.problems[1].expected == "'Blackburn' as token 2 of gold's record at line 9"


def test_tags_only_and_standard_input(tmp_path, capsys, monkeypatch):
    tags = write(tmp_path, "tags.conll", [b" ".join(x.split()[1:]) if x.strip() else x for x in lines_of(CLEAN)])
    v = ts_eval.validate(GOLD, tags, tags_only=True)     # the -DOCSTART- lines lost their first field: a tag
    assert [(p.line, p.kind) for p in v.problems] == [(1, "extra_sentence"), (12, "extra_sentence")]
    docstart = write(tmp_path, "docstart.conll", [b"-DOCSTART- O O" if x.startswith(b"O O") and k in (0, 11) else x
                                                  for k, x in enumerate(lines_of(tags))])
    v = ts_eval.validate(GOLD, docstart, tags_only=True)  # as the readers, 1 column or as many as the token lines
    assert [(p.line, p.kind) for p in v.problems] == [(1, "column_count"), (12, "column_count")]
    tags = write(tmp_path, "tags.conll", [x.split()[0] if x.startswith(b"-DOC") else x for x in lines_of(docstart)])
    assert ts_eval.validate(GOLD, tags, tags_only=True).valid
    short = write(tmp_path, "short.conll", lines_of(tags)[:4] + lines_of(tags)[5:])
    v = ts_eval.validate(GOLD, short, tags_only=True)
    assert [(p.line, p.kind) for p in v.problems] == [(7, "missing_token")]     # (which token: unknown)
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(BROKEN).read_bytes())))
    code, out, _ = run_cli(["validate", "--gold", GOLD, "-", "--format", "json"], capsys)
    assert code == 1 and json.loads(out)["kinds"]["column_count"] == 1


def test_a_problem_in_gold_is_an_error(tmp_path, capsys):
    gold = write(tmp_path, "gold.conll", lines_of(GOLD)[:4] + [b"German JJ"] + lines_of(GOLD)[5:])
    code, out, err = run_cli(["validate", "--gold", gold, CLEAN], capsys)
    assert code == 1 and out == "" and "gold.conll:5: gold: 2 columns" in err
