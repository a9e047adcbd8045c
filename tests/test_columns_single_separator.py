"""The column reader's fast way for lines whose fields one space (or one delimiter) separates
(``_single_separated``) against its general way on the same bytes: every field of the ColumnFile, or the
same error, for files that take the fast way, files that must not, and files that switch between the ways
from one chunk to the next; and what both read from odd inputs."""
from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval.errors import TsEvalError
from ts_eval.io import columns as C
from ts_eval.io.conll import ColumnOptions, column_feed


def _outcome(raw: bytes, *, fast: bool, chunk: int, columns: Sequence[int] = (-2, -1),
             token_column: Optional[int] = 1, delimiter: Optional[str] = None) -> Tuple[Any, ...]:
    mp = pytest.MonkeyPatch()
    mp.setattr(C, "SINGLE_SEPARATOR_PATH", fast)
    mp.setattr(C, "CHUNK_BYTES", chunk)
    try:
        cf = C.split_columns(raw, "f.conll", columns, token_column, delimiter=delimiter)
    except TsEvalError as err:
        return ("error", type(err).__name__, str(err))
    finally:
        mp.undo()
    arrays = [cf.token_line, cf.sent_first, cf.doc_first, cf.token_start, cf.token_len]
    out: List[Any] = ["ok", cf.n_columns, cf.docstart_lines, cf.boundary_lines, cf.lines, cf.first_text,
                      cf.first_token_line, cf.first_field, cf.trailing_boundary, cf.token_column, cf.bom]
    out += [(a.dtype.str, a.tolist()) for a in arrays if a is not None]
    out += [(k, v, ids.dtype.str, ids.tolist()) for k, (v, ids) in sorted(cf.columns.items())]
    return tuple(out)


def _fast_chunks(raw: bytes, chunk: int, delimiter: Optional[str] = None) -> List[bool]:
    """Which chunks of ``raw`` took the fast way (False: the general way)."""
    took: List[bool] = []
    real = C._single_separated

    def spy(*args: Any) -> Any:
        got = real(*args)
        took.append(got is not None)
        return got

    mp = pytest.MonkeyPatch()
    mp.setattr(C, "_single_separated", spy)
    try:
        _outcome(raw, fast=True, chunk=chunk, delimiter=delimiter)
    finally:
        mp.undo()
    return took


def _same(raw: bytes, chunk: int = 1 << 18, **kw: Any) -> Tuple[Any, ...]:
    """What both ways read from ``raw`` (they must agree)."""
    general = _outcome(raw, fast=False, chunk=chunk, **kw)
    assert _outcome(raw, fast=True, chunk=chunk, **kw) == general
    return general


@pytest.mark.parametrize("sep, eol", [(b" ", b"\n"), (b"\t", b"\n"), (b" ", b"\r\n"), (b"\t", b"\r\n")])
def test_a_plain_conlleval_file_takes_the_fast_way(sep: bytes, eol: bytes) -> None:
    raw = b"-DOCSTART- O O\n\nEU B-ORG B-ORG\nrejects O O\nGerman B-MISC I-MISC\n\nPeter B-PER B-PER\n"
    raw = raw.replace(b" ", sep).replace(b"\n", eol)
    got = _same(raw)
    assert got[0] == "ok" and _fast_chunks(raw, 1 << 18) == [True]
    assert got[-1][1] == ["B-MISC", "B-ORG", "B-PER", "I-MISC", "O"]
    assert (got[-2][3], got[-1][3]) == ([1, 4, 0, 2], [1, 4, 3, 2])     # B-ORG O B-MISC B-PER, B-ORG O I-MISC B-PER


def test_single_then_double_spaces_mid_file() -> None:
    single = b"".join(b"w%d O B-PER\nv I-PER O\n\n" % k for k in range(200))
    double = b"".join(b"w%d  O  B-PER\nv\tI-PER O \n\n" % k for k in range(200))
    raw = single + double + single
    _same(raw, chunk=512)
    took = _fast_chunks(raw, 512)
    assert True in took and False in took       # both ways within one file


@pytest.mark.parametrize("tag", [b"B-ABCDE", b"B-ABCDEF", b"B-ABCDEFG", b"B-ORGANIZATION-LONG-NAME",
                                 "B-\u00c9T\u00c9".encode(), "I-\u4eba\u540d".encode(), b"7chars!", b"x"])
def test_tags_of_every_length(tag: bytes) -> None:
    raw = b"a O " + tag + b"\nb " + tag + b" O\n\nc " + tag + b" " + tag + b"\n"
    got = _same(raw)
    assert tag.decode() in got[-1][1]
    assert _fast_chunks(raw, 1 << 18) == [True]


@pytest.mark.parametrize("raw", [
    b"a O O\r\nb B-X B-X\r\n\r\nc O O\r\n",            # CR LF
    b"\r\n\r\na O O\r\n\r\n\r\nb B-X B-X\r\n\r\n",     # CR LF and blank lines
    b"a O O\r\nb B-X B-X\nc O O\r\n",                 # CR LF and LF
    b"a O O\r\nb B-X B-X\r\nc O O",                   # CR LF, no line end at the end
    b"a O O\r\nb B-X B-X\r\nc O O\r",                 # CR LF, a CR at the end
    b"a O\rO\r\nb B-X B-X\r\n",                       # a CR inside a line
    b"a O O \r\nb B-X B-X\r\n",                        # a space before CR LF
    b"a\tO\tO\nb\tB-X\tB-X\n\nc O\x0bO\n",              # tabs, a space and a vertical tab
    b"a O O \nb B-X B-X\n",                           # a trailing space
    b"a O O\n \nb B-X B-X\n",                          # a blank line holding a space
    b" a O O\nb B-X B-X\n",                            # a leading space
    b"a O O\nb\tB-X B-X\n",                            # a tab
    b"a O O\nb B-X\x0bB-X\n",                          # a vertical tab
    b"a O\x01 O\nb B-X B-X\n",                         # a control byte inside a field
    b"a O O\nb B-X B-X",                               # no line end at the end
    b"a O O\nb B-X B-X ",                              # no line end, a trailing space
    b"\n\n\na O O\n\n\n\nb B-X B-X\n\n",               # runs of blank lines
    b"\xef\xbb\xbfa O O\nb B-X B-X\n",                 # a BOM
    b"-DOCSTART- -X- -X-\n\na O O\n-X- O O\nb B-X B-X\n-X-\n",
    b"-DOCSTART-\n\na O O\n\n-DOCSTART- O\n",          # a -DOCSTART- line of 2 columns in a 3-column file
    b"a O O\nb B-X\n",                                 # ragged
    b"# comment\na 1 O O\nb 2 B-X B-X\n",              # ragged: the first token line is the odd one out
    b"a O O\n\n\xc3\xa9t\xc3\xa9 B-\xc3\x89 I-\xc3\x89\n",
    b"\n\n",                                           # no token lines
    b"-DOCSTART- O O\n\n",
])
def test_layouts_and_errors(raw: bytes) -> None:
    _same(raw)
    _same(raw, chunk=8)


def test_one_column_and_many_columns() -> None:
    _same(b"O\nB-PER\n\nI-PER\n", columns=(-1,), token_column=None)
    _same(b"O\nB-PER\n", columns=(-1,))
    many = b"".join(b" ".join(b"f%d%d" % (k, j) for j in range(12)) + b"\n" for k in range(50))
    _same(many, columns=(2, 5, -1), token_column=3)
    _same(many, columns=(13,))                                        # no such column: the same error


@pytest.mark.parametrize("delimiter", ["\t", " ", "|"])
def test_a_delimiter(delimiter: str) -> None:
    d = delimiter.encode()
    good = b"a b" + d + b"O" + d + b"O\nc" + d + b"B-X" + d + b"B-X\n\n" if delimiter != " " else b"a O O\nc B-X B-X\n"
    _same(good, delimiter=delimiter)
    assert _fast_chunks(good, 1 << 18, delimiter) == [True]
    for bad in (good.replace(b"\n", d + b"\n", 1),            # a delimiter at the line end: dropped
                good.replace(d, d + d, 1),                    # an empty field: the error
                d + good, good + d,
                good.replace(b"\n", b"\r\n")):
        _same(bad, delimiter=delimiter)
        _same(bad, chunk=4, delimiter=delimiter)


@st.composite
def _files(draw: Any) -> bytes:
    """Column files of one width; most use one separator (a space or a tab) and one line end (LF or
    CR LF) throughout, the others now and then another separator, line end, width or a line of whitespace."""
    messy = draw(st.booleans())
    one = draw(st.sampled_from([" ", " ", "\t"]))
    eol = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    width = draw(st.integers(1, 5))
    field = st.text(alphabet=st.sampled_from(list("abO-BIXé人" + "\x01" * messy)), min_size=1, max_size=11)
    odd = st.integers(0, 19 if messy else 10**9)        # 0: an odd one
    lines = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["token"] * 8 + ["blank", "docstart", "boundary", "space-blank"]))
        if kind == "blank" or (kind == "space-blank" and not messy):
            lines.append(eol)
            continue
        if kind == "space-blank":
            lines.append(draw(st.sampled_from([" ", "\t", "  "])) + "\n")
            continue
        fields = [draw(field) for _ in range(width if draw(odd) else draw(st.integers(1, 5)))]
        if kind == "docstart":
            fields[0] = "-DOCSTART-"
        elif kind == "boundary":
            fields[0] = "-X-"
        out = fields[0]
        for f in fields[1:]:
            out += (draw(st.sampled_from(["  ", "\t", " \t", "\x0c", "\r"])) if not draw(odd) else one) + f
        lines.append(out + (draw(st.sampled_from(["\r\n", "\n", " \n", "\t\n", "\r"])) if not draw(odd) else eol))
    return "".join(lines).encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(_files(), st.sampled_from([8, 30, 100, 1 << 18]), st.booleans(),
       st.sampled_from([(-2, -1), (-1,), (2,), (1, 3)]))
def test_fast_way_agrees_with_the_general_way(raw: bytes, chunk: int, cut_end: bool,
                                              columns: Tuple[int, ...]) -> None:
    if cut_end:
        raw = raw.rstrip(b"\n")
    if raw:
        _same(raw, chunk=chunk, columns=columns)


@settings(max_examples=100, deadline=None)
@given(_files(), st.sampled_from([8, 64, 1 << 18]))
def test_fast_way_agrees_with_a_tab_delimiter(raw: bytes, chunk: int) -> None:
    _same(raw.replace(b" ", b"\t"), chunk=chunk, delimiter="\t")


def test_blocks_agree(tmp_path: Any) -> None:
    path = tmp_path / "f.conll"
    path.write_bytes(b"".join(b"w%d O B-PER\nv I-PER O\n\n" % k for k in range(300)) + b"x  O  O\n\ny O O")

    def blocks(way: str) -> Iterator[Tuple[Any, ...]]:
        mp = pytest.MonkeyPatch()
        mp.setattr(C, "SINGLE_SEPARATOR_PATH", way == "fast")
        mp.setattr(C, "CHUNK_BYTES", 64)
        try:
            feed = column_feed(str(path), (-2, -1), ColumnOptions(), block_bytes=300)
            while not feed.done():
                cf = feed.take(None).cf
                yield (cf.token_line.tolist(), cf.token_start.tolist() if cf.token_start is not None else None,
                       [(v, ids.tolist()) for v, ids in cf.columns.values()], cf.lines, cf.trailing_boundary)
        finally:
            mp.undo()

    assert list(blocks("fast")) == list(blocks("general"))
    assert len(list(blocks("fast"))) > 3


@pytest.mark.parametrize("chunk", [1 << 12, 1 << 18])
def test_chunks_with_different_vocabularies(chunk: int) -> None:
    # chunks whose tag values differ (and a file with more than 2**16 distinct values: int32 ids) merge into
    # one sorted vocabulary with each token's own value
    for distinct in (300, 70000):
        tags = [f"T{k * 7919 % distinct}" for k in range(distinct)] + ["O"] * 50
        raw = "".join(f"w{k} O {t}\n" + ("\n" if k % 5 == 4 else "") for k, t in enumerate(tags)).encode()
        got = _same(raw, chunk=chunk)
        column, vocab, dtype, ids = got[-1]
        assert column == 3 and vocab == sorted(set(tags) | {"O"}) and [vocab[i] for i in ids] == tags
        assert dtype == np.dtype(np.uint16 if len(vocab) < 2**16 else np.int32).str


@pytest.mark.parametrize("raw", [
    b"-DOCSTART- O O\n\nEU B-ORG B-ORG\nrejects O O\n\nPeter B-PER B-PER\n",
    b"a\tO\tO\r\nb  B-X \t B-X \r\n\r\n  \r\n",        # tabs, runs of whitespace, CR LF, a blank line of spaces
    b"a O\x01 O\nb B-X B-X",                           # a control byte inside a field, no line end at the end
    b"-X- O O\na O O\n-DOCSTART-\n\nb B-X B-X\n",     # -X- lines; a -DOCSTART- line of one column
])
def test_files_without_errors(raw: bytes) -> None:
    assert _same(raw)[0] == "ok"
    assert _same(raw, chunk=8)[0] == "ok"


@pytest.mark.parametrize("raw, delimiter, message", [
    (b"a O O\nb B-X\n", None, "2 columns, expected 3 as on line 1"),
    (b"a O O\n-DOCSTART- O\n", None, "-DOCSTART- line with 2 columns, expected 1 or 3"),
    (b"a|O\nb||O\n", "|", "empty field"),
    (b"a|O\n|b|O\n", "|", "empty field"),
])
def test_errors(raw: bytes, delimiter: Optional[str], message: str) -> None:
    got = _same(raw, delimiter=delimiter)
    assert got[0] == "error" and message in got[2]


def test_a_column_the_file_lacks() -> None:
    raw = b"a O O\nb B-X B-X\n"
    for kw in ({"columns": (4,)}, {"columns": (-4,)}, {"columns": (1,), "token_column": 5}):
        got = _same(raw, **kw)
        assert got[0] == "error" and "column" in got[2]


def test_odd_inputs() -> None:
    long_token = b"x" * 300_000                          # a line longer than a chunk
    many = b" ".join(b"f%d" % k for k in range(200))   # many fields
    for raw in (b"a O O",                               # one line, no line end
                b"a O O\n" + long_token + b" B-X B-X\n",
                many + b"\n" + many + b"\n",
                b"\xc3\xa9t\xc3\xa9 B-\xc3\x89T\xc3\x89 O\n\xe4\xba\xba I-\xe4\xba\xba\xe5\x90\x8d O\n",
                b"a O\x00 O\nb\x1f B-X B-X\x7f\n",        # NUL and control bytes are field bytes
                b"a O O\n\x0b\x0c\n\nb B-X B-X\n",        # a line of vertical tab and form feed is blank
                b"a O O\r\n\rb B-X B-X\r\n",              # a CR at a line start
                b"a O B-" + b"L" * 7 + b"\nb O B-" + b"L" * 8,   # values of 7..10 bytes at the very end
                ):
        assert _same(raw, columns=(-2, -1))[0] == "ok", raw[:40]
        _same(raw, chunk=8, columns=(-2, -1))


def test_long_values_with_the_same_start_stay_apart() -> None:
    values = [f"B-ORGANIZATION-{k:04d}" for k in range(3000)] + ["B-ORGANIZATION-0000x", "B-ORGANIZATION-000"]
    raw = "".join(f"w {v} O\n" for v in values).encode()
    got = _same(raw, chunk=1 << 12)
    vocab, ids = got[-2][1], got[-2][3]
    assert [vocab[i] for i in ids] == values


@pytest.mark.parametrize("raw", [b"a O O\n\xff B-X B-X\n", b"a O O\n\xc3 B-X B-X\n", b"a O O\nb B-\xc3\xa9 O\n"])
def test_utf8_is_checked(raw: bytes) -> None:
    got = _same(raw * 3000, chunk=1 << 12)           # several chunks, the error (if any) in the first
    assert got[0] == ("ok" if raw.endswith(b"\xa9 O\n") else "error")


def test_score_reports_a_control_byte_in_a_tag(tmp_path: Any) -> None:
    path = tmp_path / "f.conll"
    path.write_bytes(b"a O O\nb B-X B-X\x01\n")
    run = subprocess.run([sys.executable, "-m", "ts_eval", "score", str(path)], capture_output=True, text=True,
                         env=dict(os.environ))
    assert run.returncode == 1
    assert "f.conll:2: " in run.stderr and "control character" in run.stderr


@pytest.mark.parametrize("chunk", [8, 1 << 18])
def test_docstart_and_boundary_lines_and_their_look_alikes(chunk: int) -> None:
    raw = (b"-DOCSTART- O O\n\n-DOCSTARTX O O\n-DOCSTART-- O O\n-DOCSTAR O O\n-X O O\n-X-- O O\n-X- O O\n"
           b"-Y- O O\n\n-DOCSTART-\n\n- O O")         # a token "-" in the file's last bytes
    got = _same(raw, chunk=chunk)
    assert got[0] == "ok" and (got[2], got[3]) == (2, 1)               # two -DOCSTART- lines, one -X- line
    assert got[11][1] == [3, 4, 5, 6, 7, 9, 13]                        # the token lines (line numbers)
