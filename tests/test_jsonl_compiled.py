"""The JSON Lines readers' compiled scanner (``ts_eval/io/_jsonl_scan.c``, optional): it reads the chunks it
recognises exactly as ``json`` (and the numpy scan) read them, and gives every other chunk back.

Hand cases pin what it gives for a chunk (byte ranges, tag ids, span integers and labels, ids) and what it gives
back; properties run json, the numpy scan and the compiled scanner against each other (same documents, or the
same error message) on files written with every JSON whitespace between every token, other key orders, nested
and odd values, and on lines mutated byte by byte (escapes, control bytes, numbers json reads as floats, broken
JSON).  TS_EVAL_NUMPY_READER=1 turns the scanner off.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, List, Optional, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_jsonl_scan import WAYS
from test_jsonl_scan import _same as same_every_way

from ts_eval.io import jsonl_scan

pytestmark = pytest.mark.skipif(jsonl_scan._jsonl_scan is None, reason="the compiled scanner was not built")


def _scan(lines: List[str], main: bytes = b"tokens", text: bool = False, aux_key: bytes = b"spans", aux: int = 2,
          id_key: bytes = b"id", reject: Tuple[bytes, ...] = ()) -> Any:
    """The compiled scanner on one chunk of ``lines`` (joined by line ends)."""
    data = "\n".join(lines).encode("utf-8")
    starts, ends, at = [], [], 0
    for ln in lines:
        starts.append(at)
        at += len(ln.encode("utf-8"))
        ends.append(at)
        at += 1
    assert jsonl_scan._jsonl_scan is not None
    return jsonl_scan._jsonl_scan.scan(data, np.array(starts, np.int64), np.array(ends, np.int64), main, text,
                                       aux_key, aux, id_key, reject)


def _arrays(got: Any) -> List[Any]:
    """The scanner's outputs as lists (bytearrays read as numpy does)."""
    tok_start, tok_len, tok_count, ids, more = got
    out = [np.frombuffer(tok_start, np.int64).tolist(), np.frombuffer(tok_len, np.int32).tolist(),
           np.frombuffer(tok_count, np.int64).tolist(), ids]
    if len(more) == 2:
        return out + [np.frombuffer(more[0], np.int32).tolist(), more[1]]
    return out + [np.frombuffer(more[0], np.int64).tolist(), np.frombuffer(more[1], np.int64).tolist(),
                  np.frombuffer(more[2], np.int64).tolist(), more[3]]


def test_a_chunk_of_spans_by_hand() -> None:
    lines = ['{"id": "a", "tokens": ["New", "York"], "spans": [{"start": 0, "end": 2, "label": "LOC"}]}',
             ' { "spans" : [ ] ,"tokens":["\u00e9"],"meta":{"x":[1,-2.5e3,true,null]},"id":7 } \r',
             '{"tokens": ["b"], "spans": [{"label": "PER", "x": {}, "end": 1, "start": 0}]}']
    got = _arrays(_scan(lines))
    # token ranges: "New" at byte 24, "York" at 31; line 2 starts at byte 91: "é" (2 bytes) at 91 + 29
    second = len(lines[0]) + 1
    assert got[0] == [24, 31, second + lines[1].index("\u00e9"), got[0][3]]
    assert got[1] == [3, 4, 2, 1]
    assert got[2] == [2, 1, 1]
    assert got[3] == ["a", "7", None]
    assert got[4:] == [[1, 0, 1], [0, 0], [2, 1], ["LOC", "PER"]]


def test_a_chunk_of_tags_and_of_texts_by_hand() -> None:
    first = '{"tokens": ["a", "b", "c"], "tags": ["B-X", "I-X", "O"], "id": null}'
    got = _arrays(_scan([first, '{"tokens": ["d"], "tags": ["O"], "id": -12}'], aux_key=b"tags", aux=1))
    assert got == [[13, 18, 23, len(first) + 1 + 13], [1] * 4, [3, 1], [None, "-12"], [0, 1, 2, 2],
                   ["B-X", "I-X", "O"]]
    text = '{"doc": "d1", "content": "Anna met Bob", "spans": [{"start": 9, "end": 12, "label": "P"}]}'
    got = _arrays(_scan([text], main=b"content", text=True, id_key=b"doc", reject=(b"data", b"tokens")))
    assert got == [[text.index("Anna")], [12], [1], ["d1"], [1], [9], [12], ["P"]]


GOOD = '{"id": "a", "tokens": ["x", "y"], "spans": [{"start": 0, "end": 1, "label": "PER"}]}'


@pytest.mark.parametrize("line", [
    '{"id": "a", "tokens": ["x\\u00e9"], "spans": []}',                  # an escape
    '{"id": "a", "tokens": ["x\ty"], "spans": []}',                      # a control byte in a string
    '{"id": "a", "tokens": [], "spans": []}',                            # no tokens
    '{"id": "a", "spans": []}',                                          # no "tokens"
    '{"id": "a", "tokens": ["x"]}',                                      # no "spans"
    '{"id": "a", "tokens": ["x"], "spans": [], "tokens": ["y"]}',        # a key twice
    '{"id": "a", "id": "b", "tokens": ["x"], "spans": []}',
    '{"id": 1.0, "tokens": ["x"], "spans": []}',                         # ids json reads as float, bool, list
    '{"id": true, "tokens": ["x"], "spans": []}', '{"id": -0, "tokens": ["x"], "spans": []}',
    '{"id": [1], "tokens": ["x"], "spans": []}', '{"id": 1234567890123456789, "tokens": ["x"], "spans": []}',
    '{"tokens": ["x"], "spans": [{"start": 0, "end": 1.0, "label": "P"}]}',
    '{"tokens": ["x"], "spans": [{"start": 0, "end": 1e0, "label": "P"}]}',
    '{"tokens": ["x"], "spans": [{"start": -0, "end": 1, "label": "P"}]}',
    '{"tokens": ["x"], "spans": [{"start": 00, "end": 1, "label": "P"}]}',
    '{"tokens": ["x"], "spans": [{"start": 0, "end": 2, "label": "P"}]}',    # beyond the tokens
    '{"tokens": ["x"], "spans": [{"start": 1, "end": 1, "label": "P"}]}',    # empty
    '{"tokens": ["x"], "spans": [{"start": 0, "end": 1, "label": ""}]}',     # an empty label
    '{"tokens": ["x"], "spans": [{"start": 0, "end": 1}]}',                  # no label
    '{"tokens": ["x"], "spans": [{"start": 0, "end": 1, "label": "P", "end": 1}]}',
    '{"tokens": ["x"], "spans": [{}]}', '{"tokens": ["x"], "spans": [[0, 1, "P"]]}',
    '{"tokens": ["x"], "spans": [], "n": NaN}', '{"tokens": ["x"], "spans": [], "n": Infinity}',
    '{"tokens": ["x"], "spans": [], "n": ' + "1" * 101 + "}",
    '{"tokens": ["x"], "spans": [], "n": ' + "[" * 70 + "]" * 70 + "}",    # deeper than the scanner goes
    '{"tokens": ["x"], "spans": [], "n": tru}', '{"tokens": ["x"], "spans": [], "n": 1.}',
    '{"tokens": ["x"], "spans": [],}', '{"tokens": ["x"] "spans": []}', '{"tokens": ["x"], "spans": []} x',
    '{"tokens": ["x"], "spans": []', '{"tokens": ["x",], "spans": []}', '{"tokens": ["x"], "spans": [], "a"}',
    '["x"]', "{}", '{"tokens": ["x"], "spans": [], "n": "\x0b"}', '\x0c{"tokens": ["x"], "spans": []}',
])
def test_lines_it_does_not_recognise_give_the_chunk_back(line: str) -> None:
    assert _scan([GOOD]) is not None
    assert _scan([GOOD, line, GOOD]) is None


def test_rejected_keys_give_the_chunk_back() -> None:
    line = '{"text": "a", "spans": [], "data": {}}'
    assert _scan([line], main=b"text", text=True) is not None
    assert _scan([line], main=b"text", text=True, reject=(b"data", b"tokens")) is None


def test_bad_arguments_are_errors_not_reads_out_of_bounds() -> None:
    scan = jsonl_scan._jsonl_scan.scan     # type: ignore[union-attr]
    one = np.array([0], np.int64)
    with pytest.raises(ValueError, match="outside the data"):
        scan(b"{}", one, np.array([3], np.int64), b"tokens", False, b"spans", 2, b"id", ())
    with pytest.raises(ValueError, match="outside the data"):
        scan(b"{}", np.array([-1], np.int64), one, b"tokens", False, b"spans", 2, b"id", ())
    with pytest.raises(ValueError, match="bad arguments"):
        scan(b"{}", one, np.array([1, 2], np.int64), b"tokens", False, b"spans", 2, b"id", ())
    with pytest.raises(ValueError, match="bad arguments"):
        scan(b"{}", np.array([0], np.int32), np.array([1], np.int32), b"tokens", False, b"spans", 2, b"id", ())
    with pytest.raises(ValueError, match="bad arguments"):
        scan(b"{}", one, one, b"tokens", False, None, 2, b"id", ())
    with pytest.raises(TypeError):
        scan(b"{}", one, one, "tokens", False, b"spans", 2, b"id", ())
    with pytest.raises(TypeError):
        scan(b"{}", one, one, b"tokens", False, b"spans", 2, b"id", ("data",))


def test_keys_the_scanner_cannot_find_by_their_bytes_leave_it_to_numpy() -> None:
    assert jsonl_scan._compiled_keys(("spans", "id", None)) is not None
    assert jsonl_scan._compiled_keys((None, "id", None)) is None              # ner_tags: numpy
    assert jsonl_scan._compiled_keys(("spans", 'i"d', None)) is None
    assert jsonl_scan._compiled_keys(("spans", "i\\d", None)) is None
    assert jsonl_scan._compiled_keys(("tags", "tags", None)) is None          # the id key is the tags' key


def test_the_environment_variable_turns_the_scanner_off() -> None:
    code = "from ts_eval.io import jsonl_scan as S; print(S.COMPILED_PATH)"
    env = dict(os.environ, TS_EVAL_NUMPY_READER="1")
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
    env.pop("TS_EVAL_NUMPY_READER")
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == "True"


def test_the_scanner_is_used_where_the_numpy_scan_is_not(tmp_path: Any) -> None:
    """A layout the numpy scan leaves to json (' :' separators) is read by the compiled scanner."""
    good = {"id": "a", "tokens": ["x", "y"], "tags": ["B-PER", "I-PER"]}
    path = tmp_path / "f.jsonl"
    path.write_text("".join(json.dumps(good, separators=(" ,", " :")) + "\n" for _ in range(4)), encoding="utf-8")
    data = path.read_bytes()
    for compiled in (True, False):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(jsonl_scan, "COMPILED_PATH", compiled)
            items = list(jsonl_scan.scan_chunks(data, "f", "tags", chunk_lines=2) or [])
        assert [isinstance(it, jsonl_scan.Scanned) for it in items] == [compiled] * 2
    assert same_every_way(str(path))["keys"] == ["x\x1fy"] * 4


# ---------------------------------------------------------------- properties

WS = st.text(alphabet=" \t\r", max_size=2)


def mostly(clean: Any, odd: Any, times: int = 9) -> Any:
    """``clean`` ``times`` times in ``times + 1``, else ``odd`` (mostly what the scanner gives back): a line holds
    many values, and a fair share of lines should be read by the scanner."""
    return st.sampled_from([clean] * times + [odd]).flatmap(lambda way: way)


STRINGS = mostly(st.sampled_from(["a", "New", "", "é", "\u4e2d", "\U0001f600", "tokens", "spans", "}", "[", ":",
                                  ",", "a b"]),
                 st.sampled_from(['"', "\\", "x\ty", "\x7f", "\u2028"]) | st.text(max_size=3), 29)
NUMBERS = mostly(st.sampled_from(["0", "7", "-12", "1.5", "1e3", "2E-2", "-0.0e+1", "12345678901234567890"]),
                 st.sampled_from(["-0", "1.0", "00", "1.", ".5", "+1", "NaN", "Infinity", "-Infinity", "1" * 120]), 19)
SCALARS = st.one_of(STRINGS.map(lambda t: json.dumps(t, ensure_ascii=False)), NUMBERS,
                    mostly(st.sampled_from(["true", "false", "null"]), st.sampled_from(["tru", "nul", "True"])))


ASCII = st.sampled_from([False] * 19 + [True])     # json.dumps(ensure_ascii=...): now and then escapes


def _join(draw: Any, parts: List[str], open_: str, close: str) -> str:
    """``open_ part, part close`` with drawn whitespace around every comma and bracket."""
    out = open_ + draw(WS)
    for k, part in enumerate(parts):
        out += (draw(WS) + "," + draw(WS) if k else "") + part
    return out + draw(WS) + close


def _object(draw: Any, items: List[Tuple[str, str]]) -> str:
    return _join(draw, [json.dumps(k, ensure_ascii=draw(ASCII)) + draw(WS) + ":" + draw(WS) + v
                        for k, v in items], "{", "}")


@st.composite
def value(draw: Any, depth: int = 0) -> str:
    """Any JSON value (or near-JSON: numbers json reads as floats or rejects), written with drawn whitespace."""
    kind = draw(st.integers(0, 5 if depth < 3 else 1))
    if kind <= 1:
        return draw(SCALARS)
    if kind <= 3:
        return _join(draw, draw(st.lists(value(depth + 1), max_size=3)), "[", "]")
    keys = draw(st.lists(STRINGS, max_size=3))
    return _object(draw, [(k, draw(value(depth + 1))) for k in keys])


@st.composite
def line(draw: Any, shape: str, k: int) -> str:
    toks = draw(st.lists(STRINGS, min_size=draw(st.sampled_from([0] + [1] * 9)), max_size=4))
    n = len(toks)
    items = [("tokens", _join(draw, [json.dumps(t, ensure_ascii=draw(ASCII)) for t in toks], "[", "]"))]
    if shape == "tags":
        tags = draw(mostly(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "é", ""]), min_size=n,
                                    max_size=n), st.lists(st.sampled_from(["O", "B-PER"]), max_size=n + 1)))
        items.append(("tags", _join(draw, [json.dumps(t, ensure_ascii=draw(ASCII)) for t in tags], "[", "]")))
    else:
        spans = []
        for _ in range(draw(st.integers(0, 3))):
            fields = [("start", draw(mostly(st.integers(0, max(n - 1, 0)).map(str), NUMBERS))),
                      ("end", draw(mostly(st.integers(1, max(n, 1)).map(str), NUMBERS))),
                      ("label", json.dumps(draw(mostly(st.sampled_from(["PER", "LOC", "é"]), STRINGS)),
                                           ensure_ascii=False))]
            fields += draw(st.sampled_from([[]] * 6 + [[("score", "0.5")], [("end", "1")], [("x", "{}")]]))
            spans.append(_object(draw, draw(st.permutations(fields))))
        items.append(("spans", _join(draw, spans, "[", "]")))
    items.append(("id", draw(mostly(st.sampled_from([json.dumps(f"s{k}"), str(k), "null", '"é"', "-3"]),
                                    st.sampled_from(["true", "1.5", "-0", "[1]", "{}"])))))
    items += [(key, draw(value())) for key in draw(st.lists(STRINGS, max_size=2)) if key not in ("tokens", shape, "id")]
    items = [it for it in items if draw(st.sampled_from([True] * 49 + [False]))]     # now and then a key left out
    return draw(WS) + _object(draw, draw(st.permutations(items))) + draw(WS)


def _write(tmp: Any, lines: List[str], newline: str = "\n") -> str:
    path = tmp / "f.jsonl"
    path.write_bytes("".join(ln + newline for ln in lines).encode("utf-8"))
    return str(path)


@settings(max_examples=200, deadline=None)
@given(shape=st.sampled_from(["spans", "tags"]), data=st.data())
def test_every_way_reads_the_same_with_any_whitespace_and_values(shape: str, data: Any,
                                                                  tmp_path_factory: Any) -> None:
    lines = [data.draw(line(shape, k)) for k in range(data.draw(st.integers(1, 8)))]
    path = _write(tmp_path_factory.mktemp("w"), lines, data.draw(st.sampled_from(["\n", "\r\n"])))
    same_every_way(path, group=data.draw(st.sampled_from([1, 8])))


CLEAN = [{"id": "s0", "tokens": ["New", "York", "é"], "spans": [{"start": 0, "end": 2, "label": "LOC"}]},
         {"id": 5, "tokens": ["a"], "spans": []},
         {"tokens": ["Anna", "met", "Bob"], "spans": [{"start": 0, "end": 1, "label": "PER"},
                                                      {"start": 2, "end": 3, "label": "PER"}]}]
TEXTS = [{"id": "t0", "text": "Anna met Bob", "spans": [{"start": 0, "end": 4, "label": "PER"}]},
         {"id": 3, "text": "New York é", "spans": [{"start": 0, "end": 8, "label": "LOC"}], "meta": [1, {"a": None}]},
         {"text": "x", "spans": []}]
MUTANTS = st.sampled_from(['"', "\\", ",", ":", "[", "]", "{", "}", "0", "-", ".", "e", " ", "\t", "\x01", "a", "é",
                           "9", "n", "1.0", '\\"', "\\u00e9"])


@st.composite
def mutated(draw: Any, records: List[Any]) -> List[str]:
    """The records, one line each, with a few characters replaced, inserted or deleted."""
    seps = st.sampled_from([(", ", ": "), (",", ":")])
    lines = [json.dumps(r, ensure_ascii=draw(st.booleans()), separators=draw(seps)) for r in records]
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(0, len(lines) - 1))
        ln = lines[k]
        at = draw(st.integers(0, len(ln)))
        how = draw(st.integers(0, 2))
        cut: Optional[int] = at + 1 if how != 1 else at
        lines[k] = ln[:at] + (draw(MUTANTS) if how != 2 else "") + ln[cut:]
    return lines


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_way_reads_mutated_lines_the_same(data: Any, tmp_path_factory: Any) -> None:
    text = data.draw(st.booleans())
    records = TEXTS if text else CLEAN
    lines = data.draw(mutated(records * data.draw(st.integers(1, 3))))
    path = _write(tmp_path_factory.mktemp("m"), lines)
    same_every_way(path, group=data.draw(st.sampled_from([1, 8])), **({"format": "jsonl-text"} if text else {}))


def test_the_ways_compared_include_the_compiled_scanner() -> None:
    assert WAYS == ["json", "numpy", "compiled"]


def test_the_portable_build_reads_as_the_word_at_a_time_one(tmp_path: Any) -> None:
    """-DPORTABLE (strings read byte by byte) gives the same outputs, and gives back the same lines, on lines
    whose strings end at every offset of a word."""
    import importlib.util
    import shutil
    import sysconfig
    cc = shutil.which(sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC") else "cc")
    if cc is None:
        pytest.skip("no C compiler")
    so = tmp_path / ("_jsonl_scan" + sysconfig.get_config_var("EXT_SUFFIX"))
    src = os.path.join(os.path.dirname(jsonl_scan.__file__), "_jsonl_scan.c")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-DPORTABLE", f"-I{sysconfig.get_paths()['include']}", src,
                    "-o", str(so)], check=True, capture_output=True)
    spec = importlib.util.spec_from_file_location("_jsonl_scan", so)
    assert spec is not None and spec.loader is not None
    portable = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(portable)
    words = ["", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "x" * 15, "x" * 16, "é" * 5, "x\\ty", 'a\\"b',
             "abcdefgh\x01", "tokens"]
    lines = [json.dumps({"id": w, "tokens": [w, "z" + w], "spans": [{"start": 0, "end": 1, "label": w or "P"}]},
                        ensure_ascii=False).replace("\\\\", "\\") for w in words]
    for ln in lines + [ln[:-3] for ln in lines]:
        got = _scan([ln])
        data = ln.encode("utf-8")
        one = np.array([0], np.int64), np.array([len(data)], np.int64)
        assert portable.scan(data, *one, b"tokens", False, b"spans", 2, b"id", ()) == got
