"""brat, CoNLL-U, standard input and compression, format detection."""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import sys

import pytest

from ts_eval import InputError
from ts_eval.io.api import read, read_pair
from ts_eval.io.columns import split_columns
from ts_eval.io.formats import detect as detect_format
from ts_eval.io.source import read_bytes

TEXT = "John Smith lives in New York.\n"


def labelled(docs):
    return sorted(zip([docs.labels[k] for k in docs.label], docs.start.tolist(), docs.last.tolist()))


def brat_dir(tmp_path, ann, name="doc1", text=TEXT):
    d = tmp_path / "brat"
    d.mkdir(exist_ok=True)
    (d / f"{name}.txt").write_text(text)
    (d / f"{name}.ann").write_text(ann)
    return d


def test_brat_text_bound_spans(tmp_path):
    d = brat_dir(tmp_path, "T1\tPER 0 10\tJohn Smith\nT2\tLOC 20 28\tNew York\nR1\tLives Arg1:T1 Arg2:T2\n"
                           "#1\tAnnotatorNotes T1\tnote\n")
    docs = read(str(d))
    assert docs.format == "brat" and docs.ids == ["doc1"]
    assert docs.tokens(0) == ["John", "Smith", "lives", "in", "New", "York", "."]
    assert labelled(docs) == [("LOC", 4, 5), ("PER", 0, 1)]
    assert docs.notes["other_annotations"] == 2
    corpus = read_pair(str(d), str(d))
    assert len(corpus.gold) == 2


def test_brat_discontinuous(tmp_path):
    d = brat_dir(tmp_path, "T1\tPER 0 4;11 16\tJohn lives\n")
    with pytest.raises(InputError, match=r"doc1\.ann:1: T1: discontinuous span '0 4;11 16'"):
        read(str(d))
    assert labelled(read(str(d), discontinuous="first")) == [("PER", 0, 0)]
    assert labelled(read(str(d), discontinuous="hull")) == [("PER", 0, 2)]


@pytest.mark.parametrize("ann, message", [
    ("T1\tPER 0 99\tJohn\n", r"doc1\.ann:1: T1: offsets \[0, 99\) are outside the text"),
    ("T1\tPER 4 4\t\n", r"doc1\.ann:1: T1: offsets \[4, 4\) .*empty"),
    ("T1\tPER 0 4\tJohm\n", r"doc1\.ann:1: T1: the annotation text 'Johm' differs from the document text 'John'"),
    ("T1\tPER zero 4\tJohn\n", r"doc1\.ann:1: offsets 'zero 4': expected 'START END'"),
    ("X1\tfoo\n", r"doc1\.ann:1: annotation 'X1\\tfoo'"),
    ("T1\tPER 0 3\tJoh\n", r"span \[0, 3\) 'Joh' \(PER\) does not fall on token boundaries"),
])
def test_bad_brat(tmp_path, ann, message):
    with pytest.raises(InputError, match=message):
        read(str(brat_dir(tmp_path, ann)))


def test_brat_missing_partner_files(tmp_path):
    d = brat_dir(tmp_path, "")
    (d / "lonely.ann").write_text("")
    with pytest.raises(InputError, match=r"lonely\.ann: lonely\.ann has no lonely\.txt beside it"):
        read(str(d))
    (d / "lonely.ann").unlink()
    (d / "other.txt").write_text("x")
    with pytest.raises(InputError, match=r"other\.txt has no other\.ann"):
        read(str(d))


CONLLU = """# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC
# sent_id = s1
1-2\tZum\t_\t_\t_\t_\t_\t_\t_\tNER=O
1\tZu\tzu\tADP\tO\t_\t3\tcase\t_\tNER=O
2\tdem\tder\tDET\tO\t_\t3\tdet\t_\tNER=O
3\tNew\tNew\tPROPN\tB-NP\t_\t0\troot\t_\tNER=B-LOC|SpaceAfter=No
3.1\tx\t_\t_\t_\t_\t_\t_\t_\t_
4\tYork\tYork\tPROPN\tI-NP\t_\t3\tflat\t_\tNER=I-LOC

# sent_id = s2
1\tAnna\tAnna\tPROPN\tB-NP\t_\t0\troot\t_\tNER=B-PER
"""


def test_conllu_misc_key_and_column(tmp_path):
    p = tmp_path / "a.conllu"
    p.write_text(CONLLU)
    docs = read(str(p))
    assert docs.ids == ["s1", "s2"] and docs.tokens(0) == ["Zu", "dem", "New", "York"]
    assert labelled(docs) == [("LOC", 2, 3), ("PER", 4, 4)]
    assert docs.notes["multiword_tokens"] == 1 and docs.notes["empty_nodes"] == 1
    assert labelled(read(str(p), column="XPOS")) == [("NP", 2, 3), ("NP", 4, 4)]


def test_conllu_bad_input(tmp_path):
    p = tmp_path / "a.conllu"
    p.write_text(CONLLU)
    with pytest.raises(InputError, match=r"a\.conllu:4: MISC 'NER=O' has no ENT=\.\.\.; expected the key 'ENT'"):
        read(str(p), misc_key="ENT")
    with pytest.raises(InputError, match="column 'NERCOL' does not exist"):
        read(str(p), column="NERCOL")
    p.write_text("1\tJohn\t_\t_\t_\t_\t0\troot\t_\n")
    with pytest.raises(InputError, match=r"a\.conllu:1: 9 tab-separated fields; expected 10"):
        read(str(p))
    p.write_text("# only a comment\n")
    with pytest.raises(InputError, match="no word lines"):
        read(str(p))


COLUMNS = "John B-PER\nlives O\n\nNew B-LOC\nYork I-LOC\n"


@pytest.mark.parametrize("suffix, pack", [(".gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress)])
def test_compressed_inputs(tmp_path, suffix, pack):
    p = tmp_path / ("a.conll" + suffix)
    p.write_bytes(pack(COLUMNS.encode()))
    assert read_bytes(str(p)) == COLUMNS.encode()
    cf = split_columns(read_bytes(str(p)), str(p), [-1])   # the column reader on bytes from the helper
    assert cf.n_tokens == 4
    docs = read(str(p))
    assert docs.format == "columns" and labelled(docs) == [("LOC", 2, 3), ("PER", 0, 0)]


def test_truncated_compressed_file(tmp_path):
    p = tmp_path / "a.jsonl.gz"
    p.write_bytes(gzip.compress(b'{"tokens": ["a"], "spans": []}\n' * 50)[:-12])
    with pytest.raises(InputError, match=r"a\.jsonl\.gz: truncated or corrupt gzip data"):
        read(str(p))


def test_stdin(monkeypatch):
    body = b'{"id": "d", "tokens": ["a", "b"], "spans": [{"start": 1, "end": 2, "label": "X"}]}\n'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(body))))
    docs = read("-")
    assert docs.path == "<stdin>" and docs.format == "jsonl-tokens" and labelled(docs) == [("X", 1, 1)]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(COLUMNS.encode())))
    assert read("-").format == "columns"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    with pytest.raises(InputError, match="<stdin>: empty input"):
        read("-")


@pytest.mark.parametrize("name", ["a.conll", "a.jsonl", "a.conllu", "a.json"])
@pytest.mark.parametrize("body", [b"", b"\n \t\n\r\n"])
def test_an_input_of_white_space_only_is_an_empty_input(tmp_path, name, body):
    """Read whole, alone or beside another input, an input without a byte but white space is said to be empty
    whatever its format (not a format's own complaint: no token lines, no JSON records)."""
    p = tmp_path / name
    p.write_bytes(body)
    other = tmp_path / "g.conll"
    other.write_text(COLUMNS)
    for reading in (lambda: read(str(p)), lambda: read(str(p), format="jsonl-tokens"),
                    lambda: read_pair(str(other), str(p)), lambda: read_pair(str(p), str(other))):
        with pytest.raises(InputError, match=f"^{re.escape(str(p))}: empty input$"):
            reading()


@pytest.mark.parametrize("name, body, fmt", [
    ("a.jsonl", b'{"tokens": ["a"], "tags": ["O"]}\n', "jsonl-tokens"),
    ("a.jsonl", b'{"text": "a", "spans": []}\n', "jsonl-text"),
    ("a.json", b'[{"data": {"text": "a"}, "annotations": []}]', "label-studio"),
    ("a.txt", b"1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", "conllu"),
    ("a.conllu.gz", gzip.compress(b"x", mtime=0), "conllu"),
    ("a.txt", b"a O\n", "columns"),
])
def test_detect_format(tmp_path, name, body, fmt):
    p = tmp_path / name
    p.write_bytes(body)
    assert detect_format(str(p), read_bytes(str(p))) == fmt


def test_columns_gold_with_jsonl_system_pairs_by_order(tmp_path):
    g = tmp_path / "g.conll"
    g.write_text(COLUMNS)
    s = tmp_path / "s.jsonl"
    s.write_text('{"tokens": ["John", "lives"], "spans": [{"start": 0, "end": 1, "label": "PER"}]}\n'
                 '{"tokens": ["New", "York"], "spans": [{"start": 1, "end": 2, "label": "LOC"}]}\n')
    corpus = read_pair(str(g), str(s))
    assert corpus.sent_offsets.tolist() == [0, 2, 4]
    assert corpus.tokens(0, 4) == ["John", "lives", "New", "York"]
    ss = corpus.systems["s"]
    assert sorted(zip([corpus.labels[k] for k in ss.label], ss.start.tolist(), ss.last.tolist())) == \
        [("LOC", 3, 3), ("PER", 0, 0)]
    s.write_text('{"tokens": ["John", "lived"], "spans": []}\n{"tokens": ["New", "York"], "spans": []}\n')
    with pytest.raises(InputError, match=r"s\.jsonl: document 1, line 1: token 1 is 'lived', the gold document 1, "
                                         r"line 1 has 'lives'"):
        read_pair(str(g), str(s))


def test_brat_single_ann_path(tmp_path):
    d = brat_dir(tmp_path, "T1\tLOC 20 28\tNew York\n")
    docs = read(str(d / "doc1.ann"))
    assert docs.ids == ["doc1"] and labelled(docs) == [("LOC", 4, 5)]
    with pytest.raises(InputError, match=r"missing nodoc\.txt"):
        read(str(d / "nodoc.ann"), format="brat")


def test_the_listed_formats_are_the_built_in_ones():
    from ts_eval.io.formats import BUILT_IN, LISTED, names

    assert sorted(LISTED) == sorted(BUILT_IN) and names()[-len(LISTED):] == LISTED
