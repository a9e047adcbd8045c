"""The CoNLL-U reader read with numpy in blocks of lines (issue #12): every line rule of the format as
the reader defines it, checked on small files worked out by hand, and the same result whatever the
block size."""
from __future__ import annotations

import pytest

from ts_eval import InputError
from ts_eval.io import conllu_lines
from ts_eval.io.reader import read as read_input


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # (each case's file is t.conllu there: messages name it so)


def word(k, form, misc="_", xpos="_", k_=None):
    return "\t".join([str(k if k_ is None else k_), form, "_", "_", xpos, "_", "0", "dep", "_", misc])


def read(text, **kw):
    raw = text.encode("utf-8") if isinstance(text, str) else text
    with open("t.conllu", "wb") as fh:
        fh.write(raw)
    return read_input("t.conllu", format="conllu", **kw)


def spans(docs):
    return [(docs.labels[k], s, e) for k, s, e in zip(docs.label.tolist(), docs.start.tolist(), docs.last.tolist())]


def fails(text, message, **kw):
    with pytest.raises(InputError) as err:
        read(text, **kw)
    assert str(err.value) == message


SAMPLE = "\n".join([
    "# newdoc id = d1",
    "# sent_id = a",
    word(1, "Anna", "NER=B-PER|SpaceAfter=No"),
    "1-2\tvom\t_\t_\t_\t_\t_\t_\t_\t_",
    word(2, "von", "NER=O"),
    word(3, "dem", "NER=O"),
    "3.1\tgone\t_\t_\t_\t_\t_\t_\t_\t_",
    word(4, "Rhein", "Foo=1|NER=B-LOC|NER=I-LOC"),     # the last NER= item counts
    "",
    "# sent_id = first",
    "# text = Köln .",
    word(1, "Köln", "NER=B-LOC"),
    "# sent_id = b",                                     # a later sent_id in the sentence wins
    word(2, ".", "NER=O"),
    "",
    "# sent_id = orphan",                                 # ends at the blank line: no sentence of its own
    "",
    "# comment",
    word(1, "Ende", "NER=O"),
])


def test_sentences_ids_and_tokens():
    docs = read(SAMPLE)
    assert docs.ids == ["a", "b", None]
    assert [docs.tokens(d) for d in range(3)] == [["Anna", "von", "dem", "Rhein"], ["Köln", "."], ["Ende"]]
    assert docs.offsets.tolist() == [0, 4, 6, 7]
    assert docs.lines == [3, 12, 19]
    # Rhein's MISC says NER=B-LOC then NER=I-LOC: the last item gives I-LOC, which conlleval's policy
    # reads as a new LOC span (after O)
    assert spans(docs) == [("PER", 0, 0), ("LOC", 3, 3), ("LOC", 4, 4)]
    assert docs.notes["multiword_tokens"] == 1 and docs.notes["empty_nodes"] == 1


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
def test_any_block_size_reads_the_same(monkeypatch, block):
    monkeypatch.setattr(conllu_lines, "BLOCK_BYTES", block)
    docs = read("\n\n".join([SAMPLE] * 3))
    assert docs.ids == ["a", "b", None] * 3
    assert [docs.tokens(d) for d in range(9)] == [["Anna", "von", "dem", "Rhein"], ["Köln", "."], ["Ende"]] * 3
    assert docs.lines == [3, 12, 19, 23, 32, 39, 43, 52, 59]
    assert spans(docs)[3:] == [("PER", 7, 7), ("LOC", 10, 10), ("LOC", 11, 11), ("PER", 14, 14), ("LOC", 17, 17),
                               ("LOC", 18, 18)]
    assert docs.notes["multiword_tokens"] == 3 and docs.notes["empty_nodes"] == 3
    # without a blank line between them, the comments and words after "Ende" continue its sentence
    docs = read("\n".join([SAMPLE] * 2))
    assert docs.ids == ["a", "b", "a", "b", None] and docs.tokens(2) == ["Ende", "Anna", "von", "dem", "Rhein"]


def test_crlf_bom_and_blank_lines_of_whitespace():
    lines = [word(1, "Anna", "NER=B-PER"), " \t ", word(1, "Bert", "NER=B-PER"), "\u00a0\u3000",
             word(1, "Carl", "NER=B-PER"), "\x1f", word(1, "Dora", "NER=O")]
    docs = read(b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8") + b"\r\n")
    assert [docs.tokens(d) for d in range(docs.n_docs)] == [["Anna"], ["Bert"], ["Carl"], ["Dora"]]
    assert docs.lines == [1, 3, 5, 7]
    assert spans(docs) == [("PER", 0, 0), ("PER", 1, 1), ("PER", 2, 2)]


def test_the_tag_from_a_named_or_numbered_column():
    text = "\n".join([word(1, "Anna", xpos="B-NP"), word(2, "Berg", xpos="I-NP"), word(3, "lacht", xpos="O")])
    assert spans(read(text, column="XPOS")) == spans(read(text, column=5)) == [("NP", 0, 1)]
    plus = "# global.columns = ID FORM NER\n1\tAnna\tB-PER\n2\tlacht\tO\n"
    assert spans(read(plus, column="NER")) == [("PER", 0, 0)]
    fails(plus, "t.conllu: no tag source: give column=NAME or misc_key=KEY (the file has no MISC column)")
    fails("# global.columns = ID\n1\n", "t.conllu:1: # global.columns names 1 column(s); expected at least "
                                         "ID and FORM")


def test_ids_that_are_words_and_ids_that_are_errors():
    # Unicode digits are digits for str.isdigit, as the line-by-line reader had it
    assert read(word("١", "x", "NER=O", k_="١")).n_tokens == 1
    long_ids = "\n".join([word(0, "a", "NER=O", k_="1234567890123456"), word(0, "b", "NER=O", k_="12345678901-23"),
                          word(0, "c", "NER=O", k_="1234567890123.5")])
    docs = read(long_ids)
    assert docs.n_tokens == 1 and docs.notes["multiword_tokens"] == 1 and docs.notes["empty_nodes"] == 1
    for bad, shown in [("", "''"), ("x1", "'x1'"), (" 1", "' 1'"), ("abcdefghijklmnopqrstuvwxyz", None)]:
        fails(word(1, "ok", "NER=O") + "\n" + word(0, "w", "NER=O", k_=bad),
              f"t.conllu:2: ID {shown or repr(bad)}; expected an integer, a range (1-2) or a decimal (1.1)")


def test_the_first_bad_line_is_the_error():
    good = word(1, "ok", "NER=O")
    short = "2\tshort\t_"
    nomisc = word(2, "bare", "SpaceAfter=No")
    badid = word(0, "bad", "NER=O", k_="x")
    fields = "3 tab-separated fields; expected 10 (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC)"
    fails("\n".join([good, short, nomisc, badid]), f"t.conllu:2: {fields}")
    fails("\n".join([good, badid, short]), "t.conllu:2: ID 'x'; expected an integer, a range (1-2) or a decimal (1.1)")
    fails("\n".join([good, nomisc, short]), "t.conllu:2: MISC 'SpaceAfter=No' has no NER=...; expected the key "
                                            "'NER' on every word (MISC keys seen so far: SpaceAfter; or give "
                                            "misc_key=KEY or column=NAME)")


def test_a_missing_misc_key_names_the_keys_seen_so_far(monkeypatch):
    monkeypatch.setattr(conllu_lines, "BLOCK_BYTES", 16)    # the keys are gathered across blocks
    text = "\n".join([word(1, "a", "NER=O|Gloss=x"), "1-2\tzum\t_\t_\t_\t_\t_\t_\t_\tMWT=1", "",
                      word(1, "b", "Lang=de|NER=O"), word(2, "c", "_"), word(3, "d", "NER=O")])
    fails(text, "t.conllu:5: MISC '_' has no NER=...; expected the key 'NER' on every word (MISC keys seen so "
                "far: Gloss, Lang; or give misc_key=KEY or column=NAME)")
    fails(text, "t.conllu:1: MISC 'NER=O|Gloss=x' has no ENT=...; expected the key 'ENT' on every word (MISC keys "
                "seen so far: Gloss, NER; or give misc_key=KEY or column=NAME)", misc_key="ENT")
    # a key is the whole item name: NERX= and NER (without =) are not NER=
    fails(word(1, "a", "NERX=B-PER|NER"), "t.conllu:1: MISC 'NERX=B-PER|NER' has no NER=...; expected the key 'NER' "
                                          "on every word (MISC keys seen so far: NER, NERX; or give misc_key=KEY or "
                                          "column=NAME)")


def test_empty_tag_and_empty_file():
    fails(word(1, "a", "NER="), "t.conllu:1: bad tag '': expected O or PREFIX-LABEL with PREFIX one of B, I "
                                "(e.g. B-PER)")   # a file read alone names no side
    fails("# only a comment\n\n", "t.conllu: no word lines; expected CoNLL-U sentences")
    fails(b"", "t.conllu: empty input")     # (as every format says it)


def test_not_utf8_names_the_byte_and_its_line_also_after_a_bom():
    body = (word(1, "a", "NER=O") + "\n").encode("utf-8")
    fails(body + b"2\tb\xff", f"t.conllu:2: not UTF-8: byte 0xff at byte offset {len(body) + 3} (invalid start "
                              "byte); expected UTF-8 text")
    fails(b"\xef\xbb\xbf" + body + b"2\tb\xff", f"t.conllu:2: not UTF-8: byte 0xff at byte offset {len(body) + 6} "
                                                "(invalid start byte); expected UTF-8 text")
