"""FairEval's input files are read in blocks of whole sentences (issue 31, point 1): reading a file whole
is adding up its blocks, so the spans, the fair report and the first error are the same whatever the
block size (None: one block, the file whole; 1 byte: a sentence a block; a few sentences a block)."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Optional

import pytest

from ts_eval.core.matching import match
from ts_eval.errors import InputError
from ts_eval.fair import EQ7_FORMULA, fair_errors, fair_report, parse_weights
from ts_eval.io.faireval import FairData, read_conll2000_file, read_faireval, read_span_file
from ts_eval.output.legacy.faireval import faireval_settings, to_faireval

FIX = Path(__file__).parent / "fixtures" / "faireval"
NER_T = str(FIX / "target" / "ner_spans.csv")
NER_S = str(FIX / "system" / "ner_spans.csv")
SIZES = (None, 1, 40, 150, 1 << 22)

# stacked chunks with punctuation inside and at the edges of spans, several sentences
CONLL_T = """Das ART B-S|B-NP
ist VAFIN I-S|B-VP
ein ART I-S|I-VP|B-NP
einfacher ADJA I-S|I-VP|I-NP|B-AP
Satz NN I-S|I-VP|I-NP
. $. I-S|

" $( B-NP
Haus NN I-NP
, $, I-NP
. $. I-NP
und KON B-X
, $, B-Y

a NN O
b NN B-NP
c NN I-NP

-DOCSTART- -X- O

d NN B-VP|B-NP
e NN I-VP|I-NP
f NN I-VP
"""
CONLL_S = """Das ART B-S|B-NP
ist VAFIN I-S|I-NP
ein ART I-S|B-VP|B-NP
einfacher ADJA I-S|I-VP|I-NP
Satz NN I-S|I-VP|I-NP
. $. I-S|

" $( B-NP
Haus NN I-NP
, $, B-NP
. $. I-NP
und KON B-X
, $, I-X

a NN B-NP
b NN I-NP
c NN O

-DOCSTART- -X- O

d NN B-VP
e NN I-VP|B-NP
f NN I-VP|I-NP
"""
SPANS = "PER\t1\t2\t1,2\nLOC\t4\t4\t4\n\nNONE\t999\t999\t999\n\nORG\t2\t5\t2,3,5\nPER\t3\t1\t\n\nLOC\t1\t1\t1\n"


def write(path: Path, text: str, data: Optional[bytes] = None) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if data is None else data)
    return str(path)


def raw_dump(r: Any) -> Any:
    d = dataclasses.asdict(r)
    d["sent_len"] = None if r.sent_len is None else r.sent_len.tolist()
    return d


def span_raw(path: str, **kw: Any) -> Any:
    return raw_dump(read_span_file(path, **kw))


def fair_dump(fd: FairData) -> Any:
    """Everything read: the corpus, the input order and token sets of both sides, the counts."""
    c = fd.corpus
    sides = {"gold": (c.gold, fd.gold, c.gold_info), "system": (c.systems[fd.system_name], fd.system,
                                                                 c.system_info[fd.system_name])}
    out = {"offsets": c.sent_offsets.tolist(), "labels": list(c.labels), "format": fd.format,
           "excluded": fd.excluded, "punct": fd.punct_dropped}
    for side, (ss, extra, info) in sides.items():
        out[side] = (ss.start.tolist(), ss.last.tolist(), ss.label.tolist(), extra.order.tolist(),
                     [None if extra.tokens.get(k) is None else extra.tokens.get(k).tolist() for k in range(len(ss))],
                     dataclasses.asdict(info))
    return out


def report(fd: FairData) -> str:
    c = fd.corpus
    ss = c.systems[fd.system_name]
    res = fair_errors(c.gold, ss, match(c.gold, ss), c.labels, c, gold_order=fd.gold.order,
                      system_order=fd.system.order, gold_tokens=fd.gold.tokens, system_tokens=fd.system.tokens)
    w = parse_weights(EQ7_FORMULA)
    rep = fair_report(res, weights=w)
    return json.dumps(rep, sort_keys=True, default=str) + to_faireval(rep, faireval_settings("t", "s", weights=w))


def first_error(fn: Any, *args: Any, **kw: Any) -> str:
    with pytest.raises(InputError) as err:
        fn(*args, **kw)
    return f"{err.value.path}|{err.value.line}|{err.value}"


def same_at_every_size(fn: Any, *args: Any, **kw: Any) -> Any:
    """``fn``'s result (dumped) at every block size, which must all be the same; returns it."""
    got = [fn(*args, block_bytes=b, **kw) for b in SIZES]
    for g, b in zip(got[1:], SIZES[1:]):
        assert g == got[0], b
    return got[0]


def same_error_at_every_size(fn: Any, *args: Any, **kw: Any) -> str:
    got = [first_error(fn, *args, block_bytes=b, **kw) for b in SIZES]
    for g, b in zip(got[1:], SIZES[1:]):
        assert g == got[0], b
    return got[0]


def test_the_ner_fixture_is_the_same_at_every_block_size():
    fd = read_faireval(NER_T, NER_S, block_bytes=None)
    assert fd.corpus.n_sentences == 5100 and len(fd.corpus.gold) == 6178
    same_at_every_size(lambda **kw: fair_dump(read_faireval(NER_T, NER_S, **kw)))
    want = report(fd)
    for b in (1, 300):
        assert report(read_faireval(NER_T, NER_S, block_bytes=b)) == want
    same_at_every_size(span_raw, NER_T)


@pytest.mark.parametrize("ignore_punct", [True, False])
def test_conll2000_is_the_same_at_every_block_size(tmp_path, ignore_punct):
    t, s = write(tmp_path / "t.conll", CONLL_T), write(tmp_path / "s.conll", CONLL_S)
    whole = same_at_every_size(lambda **kw: raw_dump(read_conll2000_file(t, ignore_punct, **kw)))
    assert whole["n_sent"] == 4 and whole["sent_len"] == [6, 6, 3, 3]
    # the punctuation rule moved spans of sentence 2 (test_fair.py's hand-worked case) or did not
    assert (whole["punct_dropped"], whole["tokens"] != {}) == ((1, True) if ignore_punct else (0, False))
    assert whole["line"][-3:] == [16, 21, 21]     # a span's line is its first token's, in the whole file
    same_at_every_size(lambda **kw: fair_dump(read_faireval(t, s, ignore_punct=ignore_punct, **kw)))
    want = report(read_faireval(t, s, ignore_punct=ignore_punct, block_bytes=None))
    assert report(read_faireval(t, s, ignore_punct=ignore_punct, block_bytes=1)) == want


def test_span_files_are_the_same_at_every_block_size(tmp_path):
    t = write(tmp_path / "t.csv", SPANS)
    s = write(tmp_path / "s.csv", SPANS.replace("ORG", "PER").replace("LOC\t1\t1\t1", "LOC\t1\t2\t"))
    crlf = write(tmp_path / "crlf.csv", SPANS.replace("\n", "\r\n"))
    bom = write(tmp_path / "bom.csv", "", b"\xef\xbb\xbf" + SPANS.encode())
    whole = same_at_every_size(span_raw, t)
    assert whole["n_sent"] == 4 and whole["line"] == [1, 2, 4, 6, 7, 9] and whole["repairs"] == 1
    assert whole["tokens"] == {3: [1, 2, 4]}
    for other in (crlf, bom):
        assert {**same_at_every_size(span_raw, other), "path": t} == whole
    same_at_every_size(lambda **kw: fair_dump(read_faireval(t, s, **kw)))


BAD_SPANS = [
    # (file, line of the first error, what it says)
    (SPANS + "\nA\t1\n\nB\t1\t1\t1\n", 11, "2 tab-separated fields"),
    (SPANS + "\nA\tx\t2\t1\n", 11, "expected integer token indices"),
    (SPANS + "\nA\t2\t3\t1,2\n", 11, "must lie within begin 2 .. end 3"),
    # an error of a later sentence that the whole file's bulk checks look at first does not come first
    (SPANS + "\nA\t0\t1\t1\n\nB\x07\t1\t1\t1\n\nC\t1\n", 11, "token indices start at 1"),
    # in one sentence, the checks' order decides (the same in every block that holds it)
    (SPANS + "\nA\t0\t1\t1\nB\x07\t1\t1\t1\n\nC\t1\n", 12, "label"),
    (SPANS + "\nB\x07\t1\t1\t1\n\nC\t1\n", 11, "label"),
    (SPANS.replace("\n\nLOC", "\nA\t1\n\nLOC"), 8, "2 tab-separated fields"),
    # line numbers of a file whose lines end at a lone carriage return too
    (SPANS.replace("\n", "\r", 3) + "\nA\t1\n", 11, "2 tab-separated fields"),
]


@pytest.mark.parametrize("text,line,says", BAD_SPANS)
def test_bad_span_files_fail_alike_at_every_block_size(tmp_path, text, line, says):
    p = write(tmp_path / "bad.csv", text)
    err = same_error_at_every_size(read_span_file, p)
    assert err.startswith(f"{p}|{line}|") and says in err
    ok = write(tmp_path / "ok.csv", SPANS + "\nA\t1\t1\t1\n")
    assert same_error_at_every_size(read_faireval, ok, p) == err


def test_a_span_file_that_is_not_utf8_fails_alike(tmp_path):
    later = write(tmp_path / "later.csv", "", b"\xef\xbb\xbf" + SPANS.encode() + b"\nA\t1\t1\t\xff\n")
    err = same_error_at_every_size(read_span_file, later)
    assert err == f"{later}|None|{later}: not UTF-8 (invalid start byte at byte {len(SPANS) + 7})"
    # a bad line in a sentence before the bad byte comes first (at every block size, the file whole too)
    earlier = write(tmp_path / "earlier.csv", "", b"A\t1\n\n" + SPANS.encode() + b"\nA\t1\t1\t\xff\n")
    assert same_error_at_every_size(read_span_file, earlier).startswith(f"{earlier}|1|")


BAD_CONLL = [
    (CONLL_T + "\ng NN X-NP\n", 25, "component 'X-NP' is not B-LABEL"),
    (CONLL_T + "\ng NN B-\x07\n", 25, "annotation"),
    # a later sentence with another number of columns (reading the file whole once kept the sentences before it)
    (CONLL_T + "\ng NN\n", 25, "2 columns, expected 3"),
    (CONLL_T.replace("c NN I-NP", "c NN Q-NP") + "\ng NN\n", 17, "component 'Q-NP'"),
    ("a NN\n\nb NN\n", 1, "2 columns; a CoNLL-2000 file has 3"),
]


@pytest.mark.parametrize("text,line,says", BAD_CONLL)
def test_bad_conll2000_files_fail_alike_at_every_block_size(tmp_path, text, line, says):
    p = write(tmp_path / "bad.conll", text)
    err = same_error_at_every_size(read_conll2000_file, p, True)
    assert err.startswith(f"{p}|{line}|") and says in err


def test_files_that_do_not_pair_fail_alike(tmp_path):
    t = write(tmp_path / "t.csv", SPANS)
    s = write(tmp_path / "s.csv", SPANS + "\nA\t1\t1\t1\n")
    err = same_error_at_every_size(read_faireval, t, s)
    assert f"target {t} has 4 sentences, system {s} has 5" in err
    ct = write(tmp_path / "t.conll", CONLL_T)
    cs = write(tmp_path / "s.conll", CONLL_S.replace("c NN O\n", "c NN O\nc2 NN O\n"))
    err = same_error_at_every_size(read_faireval, ct, cs)
    assert f"sentence 3 has 3 tokens in target {ct} but 4 in system {cs}" in err
    for text, says in (("", "empty file, expected token lines"), ("\n\n", "no token lines (the file is blank")):
        empty = write(tmp_path / "empty.conll", text)
        assert says in same_error_at_every_size(read_conll2000_file, empty)
    assert same_at_every_size(span_raw, write(tmp_path / "e.csv", "\n"))["n_sent"] == 0
