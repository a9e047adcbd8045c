"""The column reader's compiled scanner (``ts_eval/io/_column_scan.c``, optional): it reads the chunks the
numpy path would read without error, producing the same arrays (``test_columns_single_separator.py``
compares the ways field by field on generated files), and gives every other chunk back to numpy, which
reports the error with its message.  Here: which chunks it takes, odd inputs, its bounds checks, its table
of values when a chunk is given back, and the switch that turns it off.  Skipped where it was not built
(no C compiler at installation): the reader then uses numpy alone."""
from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, List, Optional, Tuple

import numpy as np
import pytest
from test_columns_single_separator import _same, chunks_taken

from ts_eval.io import columns as C

pytestmark = pytest.mark.skipif(C._column_scan is None, reason="the compiled scanner was not built")


def _compiled_chunks(raw: bytes, chunk: int = 1 << 18, delimiter: Optional[str] = None) -> List[bool]:
    """Which chunks of ``raw`` the compiled scanner read (False: it gave the chunk back to numpy)."""
    return chunks_taken("_scan_compiled", raw, chunk, delimiter)


@pytest.mark.parametrize("raw", [
    b"-DOCSTART- O O\n\nEU B-ORG B-ORG\nrejects O O\n\nPeter B-PER B-PER\n",
    b"a\tO\tO\r\nb  B-X \t B-X \r\n\r\n  \r\n",        # tabs, runs of whitespace, CR LF, a blank line of spaces
    b"a O\x01 O\nb B-X B-X",                           # a control byte inside a field, no line end at the end
    b"-X- O O\na O O\n-DOCSTART-\n\nb B-X B-X\n",     # -X- lines; a -DOCSTART- line of one column
])
def test_it_reads_the_files_numpy_reads_without_error(raw: bytes) -> None:
    assert _same(raw)[0] == "ok"
    assert _compiled_chunks(raw) == [True]
    assert _compiled_chunks(raw, chunk=8) == [True] * len(_compiled_chunks(raw, chunk=8))


@pytest.mark.parametrize("raw, delimiter, message", [
    (b"a O O\nb B-X\n", None, "2 columns, expected 3 as on line 1"),
    (b"a O O\n-DOCSTART- O\n", None, "-DOCSTART- line with 2 columns, expected 1 or 3"),
    (b"a|O\nb||O\n", "|", "empty field"),
    (b"a|O\n|b|O\n", "|", "empty field"),
])
def test_errors_are_left_to_numpy(raw: bytes, delimiter: Optional[str], message: str) -> None:
    got = _same(raw, delimiter=delimiter)
    assert got[0] == "error" and message in got[2]
    assert _compiled_chunks(raw, delimiter=delimiter) == [False]


def test_a_column_the_file_lacks_is_left_to_numpy() -> None:
    raw = b"a O O\nb B-X B-X\n"
    for kw in ({"columns": (4,)}, {"columns": (-4,)}, {"columns": (1,), "token_column": 5}):
        got = _same(raw, **kw)
        assert got[0] == "error" and "column" in got[2]


def test_odd_inputs() -> None:
    long_token = b"x" * 300_000                          # a line longer than a chunk
    many = b" ".join(b"f%d" % k for k in range(200))   # more fields than the scanner reads (64): left to numpy
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


def _buffers(n: int, wide: bool = False, cols: int = 2) -> Tuple[np.ndarray, ...]:
    return (np.zeros(n, np.int32), np.zeros(n, np.int64 if wide else np.uint32), np.zeros(n, np.int32),
            np.zeros((cols, n), np.int32))


def test_scan_reads_a_chunk_and_checks_its_arguments() -> None:
    scan, Table = C._column_scan.scan, C._column_scan.Table
    raw = b"-DOCSTART- O\n\na B-X\n-X- O\nbc O\n"
    data = np.frombuffer(raw, np.uint8)
    line, start, length, ids = _buffers(8)
    table = Table()
    got = scan(data, 0, len(raw), -1, -1, 1, (-1,), table, line, start, length, ids, 8, 0, 10)
    assert got == (2, 5, 1, [0], 2, 2, 14, 15)     # tokens, line ends, -X- lines, -DOCSTART- lines, first token line...
    assert line[:2].tolist() == [13, 15] and start[:2].tolist() == [14, 26] and length[:2].tolist() == [1, 2]
    assert table.values() == [b"B-X", b"O"] and ids[0, :2].tolist() == [0, 1]     # ids in the order first seen
    empty = scan(data, 3, 3, -1, 2, 1, (-1,), table, line, start, length, ids, 8, 0, 0)
    assert empty == (0, 0, 0, [], -1, 2, 0, 0)
    wide = _buffers(8, wide=True)
    assert scan(data, 0, len(raw), -1, -1, 1, (-1,), Table(), *wide, 8, 0, 0)[0] == 2
    assert wide[1][:2].tolist() == [14, 26]
    bad = [(0, len(raw) + 1), (5, 4), (-1, 3)]                  # the chunk outside the buffer
    for a, b in bad:
        with pytest.raises(ValueError):
            scan(data, a, b, -1, -1, 1, (-1,), table, line, start, length, ids, 8, 0, 0)
    small = _buffers(1)                                         # no room for the tokens
    with pytest.raises(ValueError):
        scan(data, 0, len(raw), -1, -1, 1, (-1,), Table(), *small, 1, 0, 0)
    with pytest.raises(ValueError):                             # ids for fewer columns than asked
        scan(data, 0, len(raw), -1, -1, 1, (-1, 1, 2), Table(), line, start, length, ids, 8, 0, 0)
    with pytest.raises(ValueError):                             # a line end as the delimiter
        scan(data, 0, len(raw), 10, -1, 1, (-1,), Table(), line, start, length, ids, 8, 0, 0)
    with pytest.raises(ValueError):                             # outputs of other item sizes
        scan(data, 0, len(raw), -1, -1, 1, (-1,), Table(), line.astype(np.int16), start, length, ids, 8, 0, 0)
    with pytest.raises(ValueError):
        scan(data, 0, len(raw), -1, -1, 1, (-1,), Table(), line, start, length, ids.astype(np.int8), 8, 0, 0)
    narrow = ids.astype(np.uint16)                              # uint16 ids
    assert scan(data, 0, len(raw), -1, -1, 1, (-1,), Table(), line, start, length, narrow, 8, 0, 0)[0] == 2
    assert narrow[0, :2].tolist() == [0, 1]
    with pytest.raises((TypeError, ValueError)):                # read-only outputs
        scan(data, 0, len(raw), -1, -1, 1, (-1,), Table(), data, start, length, ids, 8, 0, 0)


def test_count_lines_counts_line_ends_and_sees_non_ascii_bytes() -> None:
    rng = np.random.default_rng(5)
    for n in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000]:
        for _ in range(5):
            raw = rng.choice(np.frombuffer(b"ab\n\n\x00\x0b\x7f\x80\xff", np.uint8), n).tobytes()
            got = C._column_scan.count_lines(np.frombuffer(raw, np.uint8))
            assert got == (raw.count(b"\n"), all(c < 128 for c in raw))


@pytest.mark.parametrize("raw", [b"a O O\n\xff B-X B-X\n", b"a O O\n\xc3 B-X B-X\n", b"a O O\nb B-\xc3\xa9 O\n"])
def test_utf8_is_checked_unless_every_byte_is_ascii(raw: bytes) -> None:
    got = _same(raw * 3000, chunk=1 << 12)           # several chunks, the error (if any) in the first
    assert got[0] == ("ok" if raw.endswith(b"\xa9 O\n") else "error")


def test_remap_turns_ids_into_ranks_in_place() -> None:
    remap = C._column_scan.remap
    for dtype in (np.uint16, np.int32):
        ids = np.array([2, 0, 1, 2], dtype)
        remap(ids, np.array([1, 2, 0], dtype))
        assert ids.tolist() == [0, 1, 2, 0]
        with pytest.raises(ValueError):
            remap(ids, np.array([1], dtype))                  # an id beyond the ranks
    with pytest.raises(ValueError):
        remap(np.zeros(3, np.int64), np.zeros(3, np.int64))   # items of another size


def test_a_chunk_given_back_leaves_the_table_as_it_was() -> None:
    scan, Table = C._column_scan.scan, C._column_scan.Table
    table = Table()
    good = np.frombuffer(b"a B-X\nb O\n", np.uint8)
    ragged = np.frombuffer(b"c B-NEW\nd I-NEW\ne O O\n", np.uint8)
    out = _buffers(8, cols=1)
    assert scan(good, 0, len(good), -1, -1, 1, (-1,), table, *out, 8, 0, 0) is not None
    assert scan(ragged, 0, len(ragged), -1, 2, 1, (-1,), table, *out, 8, 2, 2) is None
    assert table.size == 2 and table.values() == [b"B-X", b"O"]
    assert scan(ragged, 0, 16, -1, 2, 1, (-1,), table, *out, 8, 2, 2)[0] == 2    # its good lines
    assert table.values() == [b"B-X", b"O", b"B-NEW", b"I-NEW"] and out[3][0, 2:4].tolist() == [2, 3]


def test_the_switch_turns_it_off(tmp_path: Any) -> None:
    code = "from ts_eval.io import columns as C; print(C.COMPILED_PATH)"
    env = dict(os.environ, TS_EVAL_NUMPY_READER="1")
    off = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    env.pop("TS_EVAL_NUMPY_READER")
    on = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert (off.stdout.strip(), on.stdout.strip()) == ("False", "True")


def test_score_reports_a_control_byte_in_a_tag_the_same_way(tmp_path: Any) -> None:
    path = tmp_path / "f.conll"
    path.write_bytes(b"a O O\nb B-X B-X\x01\n")
    runs = []
    for off in ("", "1"):
        env = dict(os.environ, TS_EVAL_NUMPY_READER=off)
        runs.append(subprocess.run([sys.executable, "-m", "ts_eval", "score", str(path)], env=env,
                                   capture_output=True, text=True))
    assert runs[0].returncode == runs[1].returncode == 1
    assert runs[0].stderr == runs[1].stderr
    assert "f.conll:2: " in runs[0].stderr and "control character" in runs[0].stderr
