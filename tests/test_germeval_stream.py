"""``germeval`` counts a 6-column file piece by piece and keeps only the report's sums (issue 32): cut
into blocks down to one sentence, the report is the whole file's, in every format and option, and the
first error is the whole read's."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest
from test_germeval_blocks import BAD_SIX, DECODING, NESTED, POLICIES, SIZES, as_tuple, first_error, write

from ts_eval.germeval.evaluate import evaluate_germeval, evaluate_germeval_pieces
from ts_eval.io.germeval import germeval_blocks, read_germeval
from ts_eval.io.germeval_data import GermEvalData, joined

O4 = "\tO\tO\tO\tO"


def line(k: int, word: str, tags: str = O4) -> str:
    return f"{k}\t{word}{tags}\n"


#: a nereval chunk that runs on into the next sentence (gold and system: B-PER, then I-PER starting
#: sentence 2), a sentence that starts with I- after O (cuttable), and a correct chunk on the very last token
RUN_ON = ("#\ts1\n" + line(1, "a") + line(2, "Bob", "\tB-PER\tO\tB-PER\tO") + "\n"
          "#\ts2\n" + line(1, "Lee", "\tI-PER\tO\tI-PER\tO") + line(2, "b") + "\n"
          "#\ts3\n" + line(1, "Ulm", "\tI-LOC\tO\tB-LOC\tO") + line(2, "c") + "\n"
          "#\ts4\n" + line(1, "d") + line(2, "Rom", "\tB-LOC\tB-LOCderiv\tB-LOC\tB-LOCderiv") + "\n")


def pieces(path: str, **kwargs: Any) -> List[Tuple[GermEvalData, bool]]:
    return list(germeval_blocks(path, **kwargs))


def whole_report(path: str, policy: str = "nereval", **kwargs: Any) -> Any:
    return evaluate_germeval(read_germeval(path, policy=policy, block_bytes=None), policy=policy, **kwargs).to_dict()


OPTIONS = ({}, {"eof_quirk": False}, {"fair": False}, {"separator_weight": 0.25, "beta": 2.0})


@pytest.mark.parametrize("policy", ("nereval", "conlleval", "discard"))
def test_the_report_of_the_pieces_is_the_whole_files_at_every_block_size(tmp_path, policy):
    run_on = write(tmp_path / "run_on.tsv", RUN_ON)
    for path in (NESTED, DECODING, run_on):
        for options in OPTIONS:
            whole = whole_report(path, policy, **options)
            for size in SIZES:
                got = evaluate_germeval_pieces(germeval_blocks(path, policy=policy, block_bytes=size),
                                               policy=policy, **options).to_dict()
                assert got == whole, (path, options, size)


def test_pieces_are_whole_sentences_that_cut_no_chunk(tmp_path):
    path = write(tmp_path / "run_on.tsv", RUN_ON)
    whole = read_germeval(path, block_bytes=None)
    got = pieces(path, block_bytes=1)                 # a block per line: a piece wherever it may be cut
    # sentences 1-2 stay together (Bob Lee runs on); sentence 3 starts with I-LOC after O: a cut
    assert [(p.n_tokens, p.n_sentences, last) for p, last in got] == [(4, 2, False), (2, 1, False), (2, 1, True)]
    assert [p.gold_lines.tolist() for p, _ in got] == [[2, 3, 6, 7], [10, 11], [14, 15]]
    assert [p.texts(0, p.n_tokens) for p, _ in got] == [["a", "Bob", "Lee", "b"], ["Ulm", "c"], ["d", "Rom"]]
    assert sum(p.comment_lines for p, _ in got) == 4 and sum(p.blank_lines for p, _ in got) == 4
    one = got[0][0]
    for p, _ in got[1:]:
        one = joined(one, p)
    assert as_tuple(one) == as_tuple(whole)
    # conlleval ends every chunk at its sentence: every sentence is a piece
    assert [p.n_sentences for p, _ in pieces(path, policy="conlleval", block_bytes=1)] == [1, 1, 1, 1]


def test_the_end_of_input_rule_and_the_run_on_chunk_in_pieces(tmp_path):
    path = write(tmp_path / "run_on.tsv", RUN_ON)
    for size in SIZES:
        rep = evaluate_germeval_pieces(germeval_blocks(path, block_bytes=size)).to_dict()["systems"][0]
        # gold: Bob Lee (PER), Ulm (LOC), Rom (LOC, LOCderiv); the correct ones on the last token are not counted
        assert rep["validation"]["eof_dropped_strict"] == 2, size
        assert rep["validation"]["rows"]["gold outer"]["crosses_sentence"] == 1
        m3 = rep["germeval"]["metrics"]["m3_strict_outer"]
        # Bob Lee and Ulm (I-LOC after O matches B-LOC) are correct; Rom ends on the last token
        assert (m3["gold"], m3["system"], m3["tp"]) == (3, 3, 2)


@pytest.mark.parametrize("what", sorted(BAD_SIX))
@pytest.mark.parametrize("policy", POLICIES)
def test_the_first_error_of_the_pieces_is_the_whole_reads(tmp_path, what, policy):
    path = write(tmp_path / "bad.tsv", BAD_SIX[what])
    if what.startswith("ill-formed") and policy != "strict":
        return                                          # no error (test_germeval_blocks reads them)
    whole = first_error(read_germeval, path, policy=policy, block_bytes=None)
    for size in SIZES:
        assert first_error(pieces, path, policy=policy, block_bytes=size) == whole, size


def test_the_command_streams_and_prints_the_whole_files_report(tmp_path):
    """The CLI reads through the pieces: a file of 60 sentences in 4 MB blocks, and the same cut at
    every sentence (the library with 1-byte blocks) give the same JSON."""
    text = RUN_ON * 15
    path = write(tmp_path / "many.tsv", text)
    out = subprocess.run([sys.executable, "-m", "ts_eval", "germeval", path, "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    lib = evaluate_germeval_pieces(germeval_blocks(path, block_bytes=1))
    assert json.loads(out)["systems"][0]["germeval"] == lib.to_dict()["systems"][0]["germeval"]
    assert len(pieces(path, block_bytes=1)) == 45


def test_an_error_after_pieces_were_counted_is_still_raised(tmp_path):
    path = write(tmp_path / "late.tsv", RUN_ON * 5 + line(1, "x", "\tO\tO\tB-MISC\tO"))
    msg: Optional[str] = None
    for size in SIZES:
        err = first_error(lambda p, b=size: evaluate_germeval_pieces(germeval_blocks(p, block_bytes=b)), path)
        assert "'B-MISC'" in err[0] and err[2] == 81, size
        msg = msg or err[0]
        assert err[0] == msg
    assert Path(path).read_text().count("\n") == 81


def test_every_official_tag_is_read_and_near_misses_are_errors(tmp_path):
    """Tags are looked up by their first 8 bytes: the rest and the length are checked too."""
    from ts_eval.io.germeval_data import TAGS
    text = "".join(line(k + 1, "w", f"\t{t}\tO\tO\t{t}") for k, t in enumerate(TAGS)) + "\n"
    data = read_germeval(write(tmp_path / "all.tsv", text), policy="conlleval")
    assert [TAGS[k] for k in data.tags[0]] == list(TAGS) and [TAGS[k] for k in data.tags[3]] == list(TAGS)
    for bad in ("I-LOCderiX", "I-LOCder", "I-LOCderivv", "B-ORGpartt", "OO", "o", "B-LOC\x00", "I-PERpart" + "x" * 9):
        path = write(tmp_path / "bad.tsv", text.replace("5\tw\tI-LOCderiv", f"5\tw\t{bad}"))
        msg, _, at = first_error(read_germeval, path)
        assert f"gold outer tag {bad!r} (field 3) is not a GermEval 2014 tag" in msg and at == 5, bad
