"""GermEval 2014 files are read in blocks of whole sentences: every block size gives the data, the
reports and the first error of the file read as one block (issue 31: reading is only in blocks)."""
from __future__ import annotations

import bz2
import gzip
import io
import sys
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import pytest

from ts_eval.errors import InputError
from ts_eval.germeval.evaluate import evaluate_germeval
from ts_eval.io.germeval import read_germeval, read_germeval_pair, read_germeval_side
from ts_eval.io.germeval_data import GermEvalData

FIX = Path(__file__).parent / "fixtures" / "germeval"
NESTED, NESTED_GOLD, NESTED_SYS, DECODING = (str(FIX / n) for n in
                                             ("nested.tsv", "nested.gold.tsv", "nested.system.tsv", "decoding.tsv"))
#: one byte (a block per sentence, or per '#'/blank line), a sentence or two, a few sentences, the whole file
SIZES: Tuple[Optional[int], ...] = (1, 40, 120, None)
POLICIES = ("nereval", "conlleval", "strict", "discard")


def as_tuple(data: GermEvalData) -> Tuple[Any, ...]:
    return (data.name, data.gold_path, data.system_path, data.layout, data.tags.dtype, data.tags.tolist(),
            data.sent_first.tolist(), data.gold_lines.tolist(), data.system_lines.tolist(),
            data.texts(0, data.n_tokens), data.comment_lines, data.blank_lines)


def first_error(read: Callable[..., Any], *args: Any, **kwargs: Any) -> Tuple[str, Optional[str], Optional[int]]:
    with pytest.raises(InputError) as err:
        read(*args, **kwargs)
    return str(err.value), err.value.path, err.value.line


def write(path: Path, text: Any) -> str:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


def test_the_fixtures_read_the_same_in_blocks_of_every_size():
    reads: List[Callable[[Optional[int]], GermEvalData]] = [
        lambda b: read_germeval(NESTED, block_bytes=b),
        lambda b: read_germeval(DECODING, block_bytes=b),
        lambda b: read_germeval_pair(NESTED_GOLD, NESTED_SYS, block_bytes=b),
        lambda b: read_germeval_pair(NESTED_GOLD, NESTED, block_bytes=b),     # a 6-column system
    ]
    for read in reads:
        whole = read(None)
        assert whole.n_sentences >= 2
        report = evaluate_germeval(whole).to_dict()
        for size in SIZES:
            data = read(size)
            assert as_tuple(data) == as_tuple(whole), size
            assert evaluate_germeval(data).to_dict() == report, size
    for policy in POLICIES:
        whole = read_germeval(DECODING, policy="nereval" if policy == "strict" else policy, block_bytes=None)
        for size in SIZES:
            data = read_germeval(DECODING, policy="nereval" if policy == "strict" else policy, block_bytes=size)
            assert evaluate_germeval(data, policy=policy if policy != "strict" else "nereval").to_dict() == \
                evaluate_germeval(whole, policy=policy if policy != "strict" else "nereval").to_dict()


def test_documents_of_a_side_are_the_same_in_blocks():
    for side in ("gold", "system"):
        whole = read_germeval_side(NESTED, side, block_bytes=None)
        for size in SIZES:
            docs = read_germeval_side(NESTED, side, block_bytes=size)
            assert docs.offsets.tolist() == whole.offsets.tolist()
            assert (docs.start.tolist(), docs.last.tolist(), docs.label.tolist()) == \
                (whole.start.tolist(), whole.last.tolist(), whole.label.tolist())
            assert docs.labels == whole.labels and docs.lines == whole.lines and docs.keys == whole.keys
            assert docs.notes == whole.notes


def sentences(n: int, cols: int = 6, start: str = "") -> str:
    """``n`` sentences of two tokens, each after a '#' line and followed by a blank line."""
    tags = "\tO" * (cols - 2)
    return start + "".join(f"#\tsent {k}\n1\tw{k}{tags}\n2\tv{k}{tags}\n\n" for k in range(n))


SIX = sentences(8)
FOUR = sentences(8, 4)
LAST = "2\tv7\tO\tO\tO\tO\n"          # the last token line of SIX
FIRST = "1\tw0\tO\tO\tO\tO\n"         # the first


BAD_SIX = {
    "bad tag": SIX.replace(LAST, "2\tv7\tO\tO\tB-MISC\tO\n"),
    "bad tag, then a later bad tag in an earlier column": SIX.replace("1\tw3\tO\tO\tO\tO", "1\tw3\tO\tO\tO\tB-X")
    .replace("1\tw6\tO\tO\tO\tO", "1\tw6\tX\tO\tO\tO"),
    "too few columns": SIX.replace(LAST, "2\tv7\tO\tO\tO\n"),
    "too few columns in the first line": SIX.replace(FIRST, "1\tw0\tO\tO\tO\n"),
    "spaces": SIX.replace(LAST, "2 v7 O O O O\n"),
    "empty field": SIX.replace(LAST, "2\t\tO\tO\tO\tO\n"),
    "empty tag field": SIX.replace(LAST, "2\tv7\tO\t\tO\tO\n"),
    "a TAB first": SIX.replace(LAST, "\tv7\tO\tO\tO\tO\n"),
    # the whole file's checks come in an order: every block size must raise the same one first
    "a TAB first after a wrong count": SIX.replace(FIRST, "1\tw0\tO\n").replace(LAST, "\tv7\tO\tO\tO\tO\n"),
    "not UTF-8 after a TAB first": SIX.replace(FIRST, "\tw0\tO\tO\tO\tO\n").encode() + b"1\t\xff\tO\tO\tO\tO\n",
    "not UTF-8 at the end": SIX.encode() + b"1\tx\xc3",
    "an empty field before a wrong count": SIX.replace(FIRST, "1\t\tO\tO\tO\tO\n")
    .replace(LAST, "2\tv7\tO\tO\tO\n"),
    "only comments": "#\ta\n\n#\tb\n\n\n",
    "empty": "",
    "a BOM only": b"\xef\xbb\xbf",
    "ill-formed on the system outer level": SIX.replace("2\tv5\tO\tO\tO\tO", "2\tv5\tO\tO\tI-PER\tO")
    .replace("2\tv6\tO\tO\tO\tO", "2\tv6\tO\tI-LOC\tO\tO"),
    "ill-formed at a sentence start": SIX.replace("1\tw4\tO\tO\tO\tO", "1\tw4\tO\tO\tO\tI-ORG"),
}


@pytest.mark.parametrize("what", sorted(BAD_SIX))
@pytest.mark.parametrize("policy", POLICIES)
def test_the_first_error_of_a_six_column_file_is_the_same_in_blocks(tmp_path, what, policy):
    path = write(tmp_path / "bad.tsv", BAD_SIX[what])
    if what.startswith("ill-formed") and policy != "strict":     # read as the policy says, the same in blocks
        whole = read_germeval(path, policy=policy, block_bytes=None)
        for size in SIZES:
            data = read_germeval(path, policy=policy, block_bytes=size)
            assert as_tuple(data) == as_tuple(whole)
            assert evaluate_germeval(data, policy=policy).to_dict() == \
                evaluate_germeval(whole, policy=policy).to_dict()
        return
    whole = first_error(read_germeval, path, policy=policy, block_bytes=None)
    for size in SIZES:
        assert first_error(read_germeval, path, policy=policy, block_bytes=size) == whole, size


def test_which_error_comes_first(tmp_path):
    """The checks' order (not the file's) decides, as when the file is read whole."""
    cases = {"a TAB first after a wrong count": ("starts with a TAB", 31),
             "not UTF-8 after a TAB first": ("not UTF-8: byte 0xff", 33),
             "an empty field before a wrong count": ("5 TAB-separated fields", 31),
             "bad tag, then a later bad tag in an earlier column": ("system inner tag 'B-X'", 14),
             "too few columns in the first line": ("5 TAB-separated fields", 2),
             "ill-formed on the system outer level": ("ill-formed IOB2 on the system outer level", 23)}
    for what, (needle, line) in cases.items():
        path = write(tmp_path / "bad.tsv", BAD_SIX[what])
        for size in SIZES:
            msg, _, at = first_error(read_germeval, path, policy="strict", block_bytes=size)
            assert needle in msg and at == line, (what, size, msg)


def test_a_different_field_count_names_the_files_first_token_line(tmp_path):
    text = "#\tsrc\n\n" + FOUR.replace("1\tw5\tO\tO", "1\tw5\tO\tO\tO\tO")
    path = write(tmp_path / "g.tsv", text)
    for size in SIZES:
        msg, _, line = first_error(read_germeval_pair, path, path, block_bytes=size)
        assert "6 fields, but the first token line (line 4) has 4" in msg and line == 24


BAD_PAIRS = {
    "a token differs": FOUR.replace("2\tv6", "2\tV6"),
    "an index differs": FOUR.replace("2\tv6", "3\tv6"),
    "a line less": FOUR.replace("2\tv7\tO\tO\n", ""),
    "a sentence break less": FOUR.replace("2\tv3\tO\tO\n\n#\tsent 4\n", "2\tv3\tO\tO\n"),
    "a sentence more": FOUR + "1\tx\tO\tO\n",
    "a wrong count": FOUR.replace("2\tv6\tO\tO", "2\tv6\tO\tO\tO"),
    "a bad system tag": FOUR.replace("2\tv6\tO\tO", "2\tv6\tO\tI-Loc"),
    "other gold in a 6-column system": SIX.replace("2\tv6\tO\tO\tO\tO", "2\tv6\tB-PER\tO\tO\tO"),
    "ill-formed system": FOUR.replace("2\tv6\tO\tO", "2\tv6\tO\tI-PER"),
}


@pytest.mark.parametrize("what", sorted(BAD_PAIRS))
@pytest.mark.parametrize("policy", POLICIES)
def test_the_first_error_of_a_pair_is_the_same_in_blocks(tmp_path, what, policy):
    gold = write(tmp_path / "gold.tsv", FOUR)
    system = write(tmp_path / "sys.tsv", BAD_PAIRS[what])
    if what.startswith("ill-formed") and policy != "strict":
        whole = read_germeval_pair(gold, system, policy=policy, block_bytes=None)
        assert all(as_tuple(read_germeval_pair(gold, system, policy=policy, block_bytes=s)) == as_tuple(whole)
                   for s in SIZES)
        return
    whole = first_error(read_germeval_pair, gold, system, policy=policy, block_bytes=None)
    assert whole[1] == system
    for size in SIZES:
        assert first_error(read_germeval_pair, gold, system, policy=policy, block_bytes=size) == whole
    # the gold file's errors come before the system's
    gold_bad = write(tmp_path / "gold_bad.tsv", FOUR.replace("2\tv7\tO\tO", "2\tv7\tO\tO\tO"))
    whole = first_error(read_germeval_pair, gold_bad, system, policy=policy, block_bytes=None)
    assert whole[1] == gold_bad
    for size in SIZES:
        assert first_error(read_germeval_pair, gold_bad, system, policy=policy, block_bytes=size) == whole


def test_compressed_files_and_standard_input(tmp_path, monkeypatch):
    whole = as_tuple(read_germeval(NESTED, block_bytes=None))[3:]
    raw = Path(NESTED).read_bytes()
    for name, packed in (("n.tsv.gz", gzip.compress(raw)), ("n.tsv.bz2", bz2.compress(raw))):
        for size in SIZES:
            assert as_tuple(read_germeval(write(tmp_path / name, packed), block_bytes=size))[3:] == whole
    truncated = write(tmp_path / "t.tsv.gz", gzip.compress(raw)[:-12])
    msg, path, line = first_error(read_germeval, truncated, block_bytes=1)
    assert "truncated or corrupt gzip data" in msg and path == truncated and line is None
    for size in SIZES:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + raw)))
        data = read_germeval("-", block_bytes=size)
        assert data.name == "stdin" and as_tuple(data)[3:] == whole
        assert np.array_equal(data.gold_lines, read_germeval(NESTED).gold_lines)


def test_a_directory_and_a_missing_file(tmp_path):
    for size in SIZES:
        assert first_error(read_germeval, str(tmp_path), block_bytes=size) == \
            (f"{tmp_path}: is a directory, expected a GermEval file", str(tmp_path), None)
        missing = str(tmp_path / "none.tsv")
        assert first_error(read_germeval, missing, block_bytes=size) == \
            (f"{missing}: cannot read: No such file or directory", missing, None)
