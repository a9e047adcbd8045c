"""A control character inside a tag or label is an error in every reader (#17.3): ``B-LOC\\x00`` made a second
label that prints as ``LOC`` (two rows both shown as LOC, F 87.27 -> 83.64, exit 0).  The message names the
file and line and shows the value escaped."""
from __future__ import annotations

import json

import pytest
from support import FIXTURES, run_cli, write

import ts_eval
from ts_eval.core.sequences import from_sequences, from_spans
from ts_eval.errors import InputError

BAD = ["\x00", "\x07", "\x1b[31m", "\x7f", "\x85"]     # C0, escape sequences, DEL, C1


def _fails(capsys, argv, where, shown):
    code, out, err = run_cli(argv, capsys)
    assert code == 1, err
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert where in err and shown in err and "control character" in err, err
    return err


def _columns(tmp_path, c):
    return ["score", write(tmp_path / "c.conll", f"John B-PER B-PER\nin O O\nParis B-LOC B-LOC{c}\n")]


def _two_files(tmp_path, c):
    gold = write(tmp_path / "g.conll", "John B-PER\nin O\nParis B-LOC\n")
    return ["score", "--gold", gold, write(tmp_path / "s.conll", f"John B-PER\nin O\nParis B-LOC{c}\n")]


def _conllu(tmp_path, c):
    f = write(tmp_path / "c.conllu", "".join(f"{k}\t{w}\t_\t_\t_\t_\t_\t_\t_\tNER={t}\n" for k, (w, t) in
                                             enumerate([("John", "B-PER"), ("in", "O"), ("Paris", f"B-LOC{c}")], 1)))
    return ["score", "--gold", f, f]


def _jsonl_tags(tmp_path, c):
    f = write(tmp_path / "t.jsonl", '{"tokens": ["a"], "tags": ["O"]}\n\n'
              + json.dumps({"tokens": ["John", "Paris"], "tags": ["B-PER", f"B-LOC{c}"]}) + "\n")
    return ["score", "--gold", f, f]


def _jsonl_spans(tmp_path, c):
    f = write(tmp_path / "s.jsonl", '{"tokens": ["a"], "spans": []}\n\n' + json.dumps(
        {"tokens": ["John", "Paris"], "spans": [{"start": 1, "end": 2, "label": f"LOC{c}"}]}) + "\n")
    return ["score", "--gold", f, f]


def _jsonl_text(tmp_path, c):
    f = write(tmp_path / "x.json", '{"text": "a", "spans": []}\n\n' + json.dumps(
        {"text": "John Paris", "spans": [{"start": 5, "end": 10, "label": f"LOC{c}"}]}) + "\n")
    return ["score", "--gold", f, f, "--input-format", "jsonl-text"]


def _brat(tmp_path, c):
    d = tmp_path / "brat"
    d.mkdir()
    write(d / "a.txt", "John Paris")
    write(d / "a.ann", f"T1\tPER 0 4\tJohn\n#1\tnote\n\nT2\tLOC{c} 5 10\tParis\n")
    return ["score", "--gold", str(d), str(d)]


def _germeval(tmp_path, c):
    return ["germeval", write(tmp_path / "g.tsv", "# doc\n1\tJohn\tB-PER\tO\tB-PER\tO\n"
                                                  f"2\tParis\tB-LOC\tO\tB-LOC{c}\tO\n")]


def _faireval_spans(tmp_path, c):
    spans = write(tmp_path / "spans.csv", f"PER\t1\t1\t1\n\nL{c}OC\t2\t2\t2\n")  # around a label: whitespace
    return ["fair", "--config", write(tmp_path / "f.config", f"target_in = {spans}\nsystem_in = {spans}\n")]


def _faireval_conll2000(tmp_path, c):
    chunks = write(tmp_path / "chunks.txt", f"John NNP B-NP\nsleeps VBZ B-VP\nin IN B-PP{c}\n\n")
    return ["fair", "--config", write(tmp_path / "f.config", f"target_in = {chunks}\nsystem_in = {chunks}\n")]


def _tag_names(tmp_path, c):
    names = write(tmp_path / "names.json", json.dumps(["O", "B-PER", f"B-LOC{c}"]))
    f = write(tmp_path / "n.jsonl", '{"tokens": ["a", "b"], "ner_tags": [1, 2]}\n')
    return ["score", "--gold", f, f, "--tag-names", names]


# reader -> (argv maker, where the message must point)
READERS = {
    "columns": (_columns, "c.conll:3:"), "columns two files": (_two_files, "s.conll:3:"),
    "conllu": (_conllu, "c.conllu:3:"), "jsonl-tokens tags": (_jsonl_tags, "t.jsonl:3:"),
    "jsonl-tokens spans": (_jsonl_spans, "s.jsonl:3:"), "jsonl-text": (_jsonl_text, "x.json:3:"),
    "brat": (_brat, "a.ann:4:"), "faireval spans": (_faireval_spans, "spans.csv:3:"),
    "faireval conll2000": (_faireval_conll2000, "chunks.txt:3:"), "tag names": (_tag_names, "names.json: tag name 2"),
}


@pytest.mark.parametrize("c", BAD, ids=[repr(c) for c in BAD])
@pytest.mark.parametrize("reader", list(READERS))
def test_every_reader_rejects_a_control_character(tmp_path, capsys, reader, c):
    make, where = READERS[reader]
    _fails(capsys, make(tmp_path, c), where, repr("X" + c)[2:-1])


def test_the_escaped_value_is_shown(tmp_path, capsys):
    err = _fails(capsys, _columns(tmp_path, "\x00"), "c.conll:3:", "'B-LOC\\x00'")
    assert "\x00" not in err


def test_germeval_rejects_it_with_its_own_tag_set(tmp_path, capsys):
    _germeval_argv = _germeval(tmp_path, "\x00")
    code, _out, err = run_cli(_germeval_argv, capsys)
    assert code == 1 and "g.tsv:3:" in err and "'B-LOC\\x00'" in err and "\x00" not in err, err


def test_the_label_map_cannot_make_one(tmp_path, capsys):
    f = write(tmp_path / "m.conll", "John B-PER B-PER\n")
    code, _out, err = run_cli(["score", f, "--map-label", "PER=P\x01"], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert "'P\\x01'" in err and "control character" in err and "\x01" not in err
    with pytest.raises(ValueError, match="control character"):
        ts_eval.read(f, [f], format="columns", label_map=[("PER", "P\x00")])


def test_a_nul_no_longer_splits_a_label(tmp_path, capsys):
    """The reproduction: the same system with one tag NUL-suffixed scored 83.64 with two LOC rows."""
    gold = write(tmp_path / "g.conll", "Paris B-LOC\nand O\nRome B-LOC\n")
    sys_ = write(tmp_path / "s.conll", "Paris B-LOC\nand O\nRome B-LOC\x00\n")
    code, _, err = run_cli(["score", "--gold", gold, sys_], capsys)
    assert code == 1 and "s.conll:3:" in err


@pytest.mark.parametrize("make", [
    lambda: ts_eval.score([["B-LOC", "O"]], [["B-LOC\x00", "O"]]),
    lambda: from_sequences([["O", "B-LOC\x1b"]], [["O", "O"]]),
    lambda: from_spans([3], [[("LOC", 0, 2)]], {"crf": [[("LOC\x7f", 0, 2)]]}),
])
def test_the_python_api_rejects_it(make):
    with pytest.raises(InputError, match="control character") as err:
        make()
    assert "\\x" in str(err.value) and not any(ch in str(err.value) for ch in "\x00\x1b\x7f")


def test_the_python_api_names_sentence_and_token():
    with pytest.raises(ValueError, match=r"y_pred: sentence 1, token 0: tag 'B-LOC\\x00'"):
        ts_eval.score([["O"], ["B-LOC"]], [["O"], ["B-LOC\x00"]])


def test_printable_labels_still_read(tmp_path, capsys):
    """Non-ASCII printable labels are fine: only control characters are refused."""
    f = write(tmp_path / "u.conll", "Zürich B-ORT B-ORT\nist O O\nschön B-GEFÜHL B-GEFÜHL\n")
    code, out, err = run_cli(["score", f, "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)["corpus"]["labels"] == ["GEFÜHL", "ORT"]


def test_germeval_fixture_still_reads(capsys):
    code, _, err = run_cli(["germeval", str(FIXTURES / "germeval" / "nested.tsv"), "--format", "json"], capsys)
    assert code == 0, err
