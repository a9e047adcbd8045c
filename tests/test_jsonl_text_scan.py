"""The byte-level scan of JSON Lines with text and character-offset spans reads exactly what ``json`` reads.

The text reader scans a chunk of lines (:mod:`ts_eval.io.jsonl_scan` with a text key) only when it
recognises every one of them: one top-level text string, ``"spans"`` as ``json.dumps`` writes
``{"start", "end", "label"}`` objects, no own tokens, no Label Studio ``data``; everything else goes to the
json path, which also reports every error.  Property: on generated files (unicode, escaped and control
characters in texts and labels, empty texts, spans outside the text, across tokens or in the wrong order,
big integers, extra keys, other key orders and separators, other span shapes, blank lines, CRLF) the reader
gives the same documents, or the same error message, with the scan and without it, under every ``align``.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_jsonl_scan import _same as same_with_scan

from ts_eval.io import jsonl_scan


def _same(path: str, **kw: Any) -> Any:
    return same_with_scan(path, format="jsonl-text", **kw)


def _scanned(path: str, chunk: int = 3, text_key: str = "text") -> List[bool]:
    """Per chunk: was it scanned (by the numpy scan)?"""
    with open(path, "rb") as fh:
        data = fh.read()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(jsonl_scan, "GROUP_CHUNKS", 2)
        m.setattr(jsonl_scan, "COMPILED_PATH", False)
        items = jsonl_scan.scan_chunks(data, "f", "spans", chunk_lines=chunk, text_key=text_key)
        assert items is not None
        return [isinstance(it, jsonl_scan.Scanned) for it in items]


def _write(tmp_path: Any, lines: List[str], newline: str = "\n") -> str:
    p = tmp_path / "f.jsonl"
    p.write_bytes("".join(ln + newline for ln in lines).encode("utf-8"))
    return str(p)


WORDS = st.sampled_from(["New", "York", "a", "é", "\u4e2d", "\U0001f600", "-", ",", '"', "\\", "\t", "x\ny", "\x1f",
                         "}, {", '"start": 1', "  ", ""])
TEXTS = st.one_of(st.lists(WORDS, max_size=6).map(" ".join), st.text(max_size=8),
                  st.sampled_from([1, None, ["a"]]))
LABELS = st.one_of(st.sampled_from(["PER", "LOC", "", "é", 'a"b', "\\", "\x07"]), st.text(max_size=3),
                   st.sampled_from([1, None]))
OFFSETS = st.integers(-1, 14) | st.sampled_from([2 ** 64, 10 ** 7, 1.0, "1", None])


@st.composite
def record(draw: Any, k: int) -> str:
    """One line: mostly a well-formed text record, sometimes something the scan must leave to json."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.sampled_from(["", "   ", "{", "[1]", '{"text": "a b", "spans": [', "null",
                                     '{"text": "a", "spans": []} {}']))
    text = draw(TEXTS)
    n = len(text) if isinstance(text, str) else 3
    span = st.fixed_dictionaries({"start": st.integers(0, max(n - 1, 0)) | OFFSETS,
                                  "end": st.integers(1, max(n, 1)) | OFFSETS, "label": LABELS})
    spans: Any = draw(st.one_of(st.lists(span, max_size=4), st.lists(span, max_size=4),
                                st.just([[0, 1, "PER"]]), st.just("x"),
                                st.just([{"end": 1, "start": 0, "label": "PER"}]),
                                st.just([{"start": 0, "end": 1, "label": "PER", "x": 1}]),
                                st.just([{"start_offset": 0, "end_offset": 1, "label": "PER"}])))
    rec: Dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        rec["id"] = draw(st.one_of(st.just(f"s{k}"), st.sampled_from([k, "", "x y", 2 ** 64, True, 1.5, [1]])))
    rec["text"] = text
    if draw(st.integers(0, 14)):
        rec["spans"] = spans
    extra = draw(st.sampled_from([None, None, None, ("meta", {"text": "z", "spans": []}), ("n", 2 ** 65),
                                  ("tokens", [{"start": 0, "end": 1}]), ("label", []), ("data", {"text": "a"}),
                                  ("id", "again")]))
    keys = list(rec) + ([extra[0]] if extra else [])
    values = {**rec, **({extra[0]: extra[1]} if extra else {})}
    order = draw(st.permutations(keys))
    item, key = draw(st.sampled_from([(", ", ": "), (",", ":"), (" , ", " : "), (", ", ":\t")]))
    body = ", ".join if item == ", " else item.join
    parts = [json.dumps(k) + key + json.dumps(values[k], separators=(item, key), ensure_ascii=draw(st.booleans()))
             for k in order]
    if extra and extra[0] == "id" and "id" in rec:      # the id key twice (json keeps the last)
        parts.append(json.dumps("id") + key + json.dumps(rec["id"]))
    return "{" + body(parts) + "}"


@settings(max_examples=250, deadline=None)
@given(data=st.data())
def test_scan_reads_what_json_reads(data: Any, tmp_path_factory: Any) -> None:
    n = data.draw(st.integers(1, 12))
    lines = [data.draw(record(k)) for k in range(n)]
    newline = data.draw(st.sampled_from(["\n", "\r\n"]))
    path = _write(tmp_path_factory.mktemp("t"), lines, newline)
    _same(path, group=data.draw(st.sampled_from([1, 2, 8])),
          align=data.draw(st.sampled_from(["strict", "expand", "contract"])),
          tokenizer=data.draw(st.sampled_from(["default", "whitespace"])))


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_scan_reads_what_json_reads_on_clean_files(data: Any, tmp_path_factory: Any) -> None:
    """Files as the converters write them (every chunk scanned), some with one odd record."""
    lines = []
    for k in range(data.draw(st.integers(1, 12))):
        words = data.draw(st.lists(st.sampled_from(["New", "York", "é", "-", "a", "based,", "\u4e2d"]), min_size=1,
                                   max_size=6))
        text = " ".join(words)
        spans = []
        at = 0
        for w in words:
            if data.draw(st.booleans()):
                spans.append({"start": at + data.draw(st.sampled_from([0, 0, 0, 1])),
                              "end": at + len(w) + data.draw(st.sampled_from([0, 0, 0, -1, 1])),
                              "label": data.draw(st.sampled_from(["PER", "LOC", "é"]))})
            at += len(w) + 1
        rec = {"id": data.draw(st.sampled_from([f"s{k}", k, None])), "text": text, "spans": spans}
        if rec["id"] is None:
            del rec["id"]
        lines.append(json.dumps(rec, ensure_ascii=False, separators=(",", ":") if data.draw(st.booleans())
                                else (", ", ": ")))
    path = _write(tmp_path_factory.mktemp("c"), lines)
    _same(path, group=data.draw(st.sampled_from([1, 2, 8])),
          align=data.draw(st.sampled_from(["strict", "expand", "contract"])))


def test_a_clean_file_is_scanned_and_read_as_json_reads_it(tmp_path: Any) -> None:
    recs = [{"id": f"s{k}", "text": "New York-based, Inc.", "spans": [{"start": 0, "end": 8, "label": "LOC"},
                                                                   {"start": 16, "end": 20, "label": "ORG"}]}
            for k in range(10)]
    path = _write(tmp_path, [json.dumps(r) for r in recs])
    assert _scanned(path) == [True] * 4
    got = _same(path)
    assert got["ids"] == [f"s{k}" for k in range(10)]
    assert got["keys"][0] == "New\x1fYork\x1f-\x1fbased\x1f,\x1fInc\x1f."
    assert got["labels"] == ["LOC", "ORG"]
    assert got["start"][1][:2] == [0, 5] and got["last"][1][:2] == [1, 6]


def test_texts_with_escapes_other_shapes_or_own_tokens_go_to_json(tmp_path: Any) -> None:
    good = {"id": "a", "text": "Anna lives in Berlin", "spans": [{"start": 0, "end": 4, "label": "PER"}]}
    lines = [json.dumps(good)] * 3 + [json.dumps({**good, "text": "Anna, caf\u00e9"})] + [json.dumps(good)] * 2 + \
        [json.dumps({"id": "b", "text": "Anna", "label": [[0, 4, "PER"]]})] + [json.dumps(good)] * 2 + \
        [json.dumps({**good, "tokens": [{"start": 0, "end": 4}, {"start": 5, "end": 10}]})] + [json.dumps(good)] * 2
    path = _write(tmp_path, lines)
    # chunks of 3 lines: clean; \u00e9 escaped (a backslash); doccano's "label" (no "spans"); own tokens (the
    # scan takes its text and spans, the reader turns the chunk down: the json path reads the tokens)
    assert _scanned(path) == [True, False, False, True]
    got = _same(path)
    assert got["texts"][3] == "Anna, café"
    assert got["labels"] == ["PER"]


def test_a_bad_span_in_a_scanned_file_is_reported_as_json_reports_it(tmp_path: Any) -> None:
    recs = [{"id": f"s{k}", "text": "Anna met Bob", "spans": [{"start": 0, "end": 4, "label": "PER"}]}
            for k in range(9)]
    recs[7]["spans"] = [{"start": 9, "end": 13, "label": "PER"}]          # beyond the text
    path = _write(tmp_path, [json.dumps(r) for r in recs])
    assert _scanned(path) == [True, True, False]
    assert _same(path) == ("error", f"{path}:8: document 's7': span [9, 13) is outside the text (length 12) "
                                    "or empty; expected 0 <= start < end <= length")
    recs[7]["spans"] = [{"start": 1, "end": 4, "label": "PER"}]           # inside a token
    path = _write(tmp_path, [json.dumps(r) for r in recs])
    assert _scanned(path) == [True] * 3
    assert _same(path)[1].startswith(f"{path}:8: document 's7': span [1, 4) 'nna' (PER) does not fall on")
    assert _same(path, align="expand")["notes"]["misaligned"] == 1


def test_non_ascii_texts_are_scanned_with_character_offsets(tmp_path: Any) -> None:
    recs = [{"id": "x", "text": "\u4e2d\u6587 \U0001f600 Zoë", "spans": [{"start": 5, "end": 8, "label": "PER"}]},
            {"id": "y", "text": "é", "spans": [{"start": 0, "end": 1, "label": "é"}]},
            {"id": "z", "text": "ab é", "spans": [{"start": 3, "end": 5, "label": "X"}]}]   # beyond: 4 characters
    path = _write(tmp_path, [json.dumps(r, ensure_ascii=False) for r in recs[:2]])
    assert _scanned(path) == [True]
    got = _same(path)
    assert got["texts"] == [recs[0]["text"], "é"]
    assert got["keys"] == ["\u4e2d\u6587\x1f\U0001f600\x1fZoë", "é"]
    path = _write(tmp_path, [json.dumps(r, ensure_ascii=False) for r in recs])
    assert _same(path)[1].endswith("span [3, 5) is outside the text (length 4) or empty; expected 0 <= start < end "
                                   "<= length")


def test_another_text_key_and_id_key_are_scanned(tmp_path: Any) -> None:
    recs = [{"doc": f"d{k}", "content": "Anna met Bob", "spans": [{"start": 9, "end": 12, "label": "PER"}]}
            for k in range(4)]
    path = _write(tmp_path, [json.dumps(r) for r in recs])
    assert _scanned(path, text_key="content") == [True, True]
    got = _same(path, text_key="content", id_key="doc")
    assert got["ids"] == ["d0", "d1", "d2", "d3"]
    assert jsonl_scan.scan_chunks(b"{}", "f", "spans", text_key="a_long_key") is None


def test_an_offset_beyond_64_bits_is_an_input_error(tmp_path: Any) -> None:
    """(It was an OverflowError from numpy in both JSON Lines span readers.)"""
    big = 2 ** 64
    path = _write(tmp_path, [json.dumps({"text": "a b", "spans": [{"start": big, "end": 1, "label": "PER"}]})])
    assert _same(path) == ("error", f"{path}:1: document 1: span [{big}, 1) is outside the text (length 3) or empty;"
                                    " expected 0 <= start < end <= length")
    path = _write(tmp_path, [json.dumps({"tokens": ["a"], "spans": [{"start": 0, "end": big, "label": "PER"}]})])
    got = same_with_scan(path)[1]
    assert got.startswith(f"{path}:1: span ") and got.endswith(": token offsets must be integers with 0 <= start < "
                                                               "end <= 1 (the number of tokens; end exclusive)")
