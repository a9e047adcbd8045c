"""The byte-level scan of token-list JSON Lines reads exactly what ``json`` reads.

The scan (:mod:`ts_eval.io.jsonl_scan`) takes a chunk of lines only when it recognises every one of
them and leaves everything else to the json path, which also reports every error.  Property: on
generated files (unicode and escaped tokens, empty arrays and strings, big integers, extra keys, other
key orders, whitespace and separator variants, blank lines, CRLF, bad records) the reader gives the same
documents, or the same error message, with the scan and without it.  Hand cases check that the scan is
really used where it should be, and the mixed files (some chunks scanned, some not).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_jsonl_fast_chunks import _outcome as read_outcome

from ts_eval.io import jsonl_scan, jsonl_text, jsonl_tokens

#: the ways a chunk is read: json only, the numpy scan, and the compiled scanner (``_jsonl_scan.c``) where built
WAYS = ["json", "numpy"] + (["compiled"] if jsonl_scan._jsonl_scan is not None else [])


def _outcome(path: str, scan: bool, group: int = 2, compiled: bool = False, **kw: Any) -> Any:
    """The documents read (or the error), the scan on or off (``compiled``: the compiled scanner first, the numpy
    scan for the chunks it gives back); chunks of 3 lines, ``group`` chunks a scan; ``format`` jsonl-tokens
    unless given."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(jsonl_scan, "GROUP_CHUNKS", group)
        m.setattr(jsonl_scan, "COMPILED_PATH", compiled)
        m.setattr(jsonl_tokens, "SCAN", scan)
        m.setattr(jsonl_text, "SCAN", scan)
        return read_outcome(path, True, **{"format": "jsonl-tokens", **kw})


def _same(path: str, **kw: Any) -> Any:
    """The outcome, the same every way (:data:`WAYS`)."""
    got = _outcome(path, False, **kw)
    for way in WAYS[1:]:
        assert _outcome(path, True, compiled=way == "compiled", **kw) == got, way
    return got


def _scanned(path: str, shape: Optional[str] = "spans", chunk: int = 3) -> List[bool]:
    """Per chunk: was it scanned (by the numpy scan)?"""
    with open(path, "rb") as fh:
        data = fh.read()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(jsonl_scan, "GROUP_CHUNKS", 2)
        m.setattr(jsonl_scan, "COMPILED_PATH", False)
        items = jsonl_scan.scan_chunks(data, "f", shape, chunk_lines=chunk)
        assert items is not None
        return [isinstance(it, jsonl_scan.Scanned) for it in items]


def _write(tmp_path: Any, lines: List[str], name: str = "f.jsonl", newline: str = "\n") -> str:
    p = tmp_path / name
    p.write_bytes("".join(ln + newline for ln in lines).encode("utf-8"))
    return str(p)


def _dump(rec: Any, item: str = ", ", key: str = ": ", ascii_only: bool = True) -> str:
    return json.dumps(rec, separators=(item, key), ensure_ascii=ascii_only)


TOKENS = st.one_of(st.sampled_from(["a", "New", "York", "", "é", "\u4e2d", '"', "\\", "a b", "x\ty", "]", "[",
                                    "}", ",", ":", "tokens", "\U0001f600", "\x1f", "\u2028"]),
                   st.text(max_size=4))
IDS = st.one_of(st.none(), st.text(max_size=3), st.sampled_from(["s1", "id"]), st.integers(-5, 99),
                st.integers(2 ** 63, 2 ** 70), st.just(True), st.just(1.5), st.just([1]))
LABELS = st.one_of(st.sampled_from(["PER", "LOC", "B-PER", "", "é", 'a"b', "\\"]), st.text(max_size=3))


@st.composite
def record(draw: Any, shape: str) -> Any:
    toks = draw(st.one_of(st.lists(TOKENS, min_size=1, max_size=5), st.lists(TOKENS, max_size=1),
                          st.sampled_from([["a", 1], "a", None, [["a"]]])))
    n = len(toks) if isinstance(toks, list) else 2
    if shape == "spans":
        span = st.fixed_dictionaries({"start": st.integers(-1, 6) | st.just(2 ** 64), "end": st.integers(0, 7),
                                      "label": LABELS})
        value = draw(st.one_of(st.lists(span, max_size=3), st.lists(span, max_size=3),
                               st.just([[0, 1, "PER"]]), st.just("x"),
                               st.just([{"end": 1, "start": 0, "label": "PER"}]),
                               st.just([{"start": 0, "end": 1, "label": "PER", "x": 1}]),
                               st.just([{"start": 0, "end": 1.0, "label": "PER"}])))
    elif shape == "tags":
        value = draw(st.one_of(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "S-X"]), min_size=n,
                                        max_size=n),
                               st.lists(st.sampled_from(["O", "B-PER", 7, "", "é"]), min_size=max(n - 1, 0),
                                        max_size=n + 1)))
    else:
        value = draw(st.lists(st.integers(0, 3) | st.just(9) | st.just("O"), min_size=n, max_size=n + 1))
    keys: Dict[str, Any] = {}
    rid = draw(IDS)
    if rid is not None:
        keys["id"] = rid
    if draw(st.integers(0, 19)):
        keys["tokens"] = toks
    if draw(st.integers(0, 19)):
        keys[shape] = value
    extra = draw(st.sampled_from([None, ("meta", {"tokens": ["z"], "id": "q"}), ("n", 2 ** 65), ("e", []),
                                  ("id2", "x\\y"), ("s", "\"tokens\": [")]))
    if extra is not None:
        keys[extra[0]] = extra[1]
    order = draw(st.permutations(list(keys)))
    return {k: keys[k] for k in order}


@st.composite
def line(draw: Any, shape: str) -> str:
    rec = draw(record(shape))
    kind = draw(st.integers(0, 14))
    if kind == 0:
        return draw(st.sampled_from(["", "   ", "\t", "{", "[1]", "{\"tokens\": [\"a\"], \"tags\": [\"O\"]",
                                     "\u00a0", "nul"]))
    item, key = draw(st.sampled_from([(", ", ": "), (",", ":"), (" , ", " : "), (",  ", ":\t"), (", ", ": ")]))
    text = _dump(rec, item, key, ascii_only=draw(st.booleans()))
    if kind == 1:
        text = "  " + text + " \r"
    return text


@settings(max_examples=150, deadline=None)
@given(shape=st.sampled_from(["spans", "tags", "ner_tags"]), data=st.data())
def test_scan_reads_what_json_reads(shape: str, data: Any, tmp_path_factory: Any) -> None:
    lines = data.draw(st.lists(line(shape), min_size=1, max_size=12))
    newline = data.draw(st.sampled_from(["\n", "\r\n"]))
    path = _write(tmp_path_factory.mktemp("s"), lines, newline=newline)
    kw = {"tag_names": ["O", "B-PER", "I-PER", "B-LOC"]} if shape == "ner_tags" else {}
    _same(path, group=data.draw(st.sampled_from([1, 2, 8])), **kw)


@settings(max_examples=150, deadline=None)
@given(shape=st.sampled_from(["spans", "tags"]), data=st.data())
def test_scan_reads_what_json_reads_on_clean_files(shape: str, data: Any, tmp_path_factory: Any) -> None:
    """Well-formed files but for one record at most (most chunks scanned), as json.dumps writes them."""
    recs = []
    for k in range(data.draw(st.integers(1, 12))):
        toks = data.draw(st.lists(st.sampled_from(["a", "New", "York", "", "é", "tokens", ":", "]"]),
                                  min_size=1, max_size=6))
        rec: Dict[str, Any] = {"id": data.draw(st.sampled_from([f"s{k}", k, 2 ** 64 + k, None]))}
        if rec["id"] is None:
            del rec["id"]
        rec["tokens"] = toks
        if shape == "spans":
            spans = []
            for b in range(0, len(toks), 2):
                if data.draw(st.booleans()):
                    spans.append({"start": b, "end": min(b + data.draw(st.integers(1, 2)), len(toks)),
                                  "label": data.draw(st.sampled_from(["PER", "LOC", "é"]))})
            rec["spans"] = spans
        else:
            rec["tags"] = [data.draw(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC"])) for _ in toks]
        recs.append(rec)
    if data.draw(st.booleans()):            # one record made bad (or odd) in a way json reads
        rec = recs[data.draw(st.integers(0, len(recs) - 1))]
        how = data.draw(st.integers(0, 7))
        if how == 0:
            rec["tokens"] = []
        elif how == 1:
            rec["id"] = True
        elif how == 2 and shape == "tags":
            rec["tags"] = rec["tags"][1:]
        elif how == 2:
            rec["spans"] = [{"start": 0, "end": len(rec["tokens"]) + 1, "label": "X"}]
        elif how == 3:
            rec[shape] = None
        elif how == 4:
            rec["tokens"] = rec["tokens"] + [7]
        elif how == 5:
            rec["extra"] = {"tokens": ["q"], shape: []}
        elif how == 6:
            del rec["tokens"]
        else:
            rec["tokens"], rec[shape] = rec.pop(shape), rec.pop("tokens")
    compact = data.draw(st.booleans())
    lines = [_dump(r, ",", ":") if compact else json.dumps(r, ensure_ascii=False) for r in recs]
    path = _write(tmp_path_factory.mktemp("c"), lines)
    _same(path, group=data.draw(st.sampled_from([1, 2, 8])))


def test_a_clean_file_is_scanned_chunk_by_chunk(tmp_path: Any) -> None:
    recs = [{"id": f"s{k}", "tokens": ["New", "York", "é", ""], "spans": [{"start": 0, "end": 2, "label": "LOC"}]}
            for k in range(10)]
    path = _write(tmp_path, [json.dumps(r, ensure_ascii=False) for r in recs])
    assert _scanned(path) == [True] * 4
    got = _same(path)
    assert got["ids"] == [f"s{k}" for k in range(10)]
    assert got["keys"][0] == "New\x1fYork\x1fé\x1f"
    assert got["labels"] == ["LOC"]


def test_chunks_with_escapes_or_unknown_layouts_go_to_json(tmp_path: Any) -> None:
    good = {"id": "a", "tokens": ["x", "y"], "tags": ["B-PER", "I-PER"]}
    lines = [json.dumps(good)] * 3 + [json.dumps({"id": "b", "tokens": ["caf\u00e9"], "tags": ["O"]})] + \
        [json.dumps(good)] * 2 + [json.dumps(good, indent=None, separators=(" ,", " :"))] + [json.dumps(good)] * 2
    path = _write(tmp_path, lines)
    # chunks of 3 lines: clean; \u00e9 escaped (a backslash); the ' :' layout; clean
    assert _scanned(path, "tags") == [True, False, False]
    assert _scanned(path, "tags", chunk=2) == [True, False, True, False, True]
    got = _same(path)
    assert got["keys"][3] == "café"
    assert got["labels"] == ["PER"]


def test_a_bad_record_in_a_scanned_file_is_reported_as_json_reports_it(tmp_path: Any) -> None:
    recs = [{"id": f"s{k}", "tokens": ["a", "b"], "spans": [{"start": 0, "end": 1, "label": "PER"}]} for k in range(9)]
    recs[7]["spans"][0]["end"] = 3          # past the two tokens
    path = _write(tmp_path, [json.dumps(r) for r in recs])
    got = _same(path)
    assert got[0] == "error" and ":8:" in got[1] and "0 <= start < end <= 2" in got[1]
    recs[7]["spans"][0]["end"] = 1
    recs[7]["spans"].append({"start": 0, "end": 1, "label": ""})
    got = _same(_write(tmp_path, [json.dumps(r) for r in recs], "g.jsonl"))
    assert got[0] == "error" and "label '' is not a non-empty string" in got[1]
    lines = [json.dumps(r) for r in recs[:5]] + ['{"id": "x", "tokens": ["a"], "spans": [}']
    got = _same(_write(tmp_path, lines, "h.jsonl"))
    assert got[0] == "error" and "invalid JSON" in got[1] and ":6:" in got[1]


def test_ids_and_keys_as_json_reads_them(tmp_path: Any) -> None:
    lines = ['{"tokens": ["a"], "tags": ["O"], "id": 18446744073709551621}',
             '{"meta": {"tokens": ["z"], "id": "q"}, "id": "s2", "tokens": ["b", "c"], "tags": ["B-X", "I-X"]}',
             '{"tags": ["O"], "tokens": ["d"]}',
             '{"id": "s4", "tokens": ["e"], "tags": ["S-X"], "tokens": ["f"]}']
    got = _same(_write(tmp_path, lines), scheme="IOBES")
    assert got["ids"] == ["18446744073709551621", "s2", None, "s4"]
    assert got["keys"] == ["a", "b\x1fc", "d", "f"]


def test_a_spans_file_written_compactly_is_scanned(tmp_path: Any) -> None:
    recs = [{"tokens": ["a", "b", "c"], "spans": [{"start": 0, "end": 1, "label": "PER"},
                                                   {"start": 1, "end": 3, "label": "LOC"}], "id": k}
            for k in range(6)]
    path = _write(tmp_path, [_dump(r, ",", ":") for r in recs])
    assert _scanned(path) == [True, True]
    got = _same(path)
    assert got["ids"] == [str(k) for k in range(6)]
    assert got["start"][1] == [0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16]


def test_a_scanned_chunk_with_a_bad_id_or_empty_tokens_goes_to_json(tmp_path: Any) -> None:
    good = '{"id": "a", "tokens": ["x"], "tags": ["O"]}'
    for bad, message in (('{"id": true, "tokens": ["x"], "tags": ["O"]}', "id true is not a string or integer"),
                         ('{"id": "b", "tokens": [], "tags": []}', "'tokens' is empty"),
                         ('{"id": "b", "tokens": ["x"], "tags": ["O", "O"]}', "2 tags for 1 tokens"),
                         ('{"id": "b", "tokens": ["x"], "tags": "O"}', "'tags' is 'O', expected a list")):
        path = _write(tmp_path, [good] * 4 + [bad] + [good], name=f"f{len(message)}.jsonl")
        got = _same(path)
        assert got[0] == "error" and message in got[1] and ":5:" in got[1], got
    lines = ['{"id": "a", "tokens": ["x", "y"], "spans": [{"start": 0, "end": 123456789, "label": "P"}]}']
    got = _same(_write(tmp_path, lines, name="big.jsonl"))
    assert got[0] == "error" and "123456789" in got[1]


def test_only_the_top_level_arrays_and_id_are_taken(tmp_path: Any) -> None:
    """A key written with a space before its colon is not one the scan finds: a nested key of the same
    name must then not be taken for it."""
    lines = ['{"id" : "", "meta": {"id": "q"}, "tokens": ["a"], "tags": ["O"]}'] * 4 + \
        ['{"tokens" : [], "meta": {"tokens": ["q"]}, "tags": []}'] + \
        ['{"id": "r", "tokens" : ["a", "b"], "meta": {"tokens": ["q"]}, "tags": ["O", "O"]}'] * 3
    got = _same(_write(tmp_path, lines[:4] + lines[5:]))
    assert got["ids"] == [""] * 4 + ["r"] * 3 and got["keys"][-1] == "a\x1fb"
    got = _same(_write(tmp_path, lines, name="g.jsonl"))
    assert got[0] == "error" and "'tokens' is empty" in got[1]


def test_a_bom_crlf_and_blank_lines_are_read_alike(tmp_path: Any) -> None:
    lines = ['{"id": "a", "tokens": ["x", "y"], "tags": ["B-PER", "I-PER"]}', "", "  ", '{"id": "b", "tokens": '
             '["z"], "tags": ["O"]}', "\t", '{"id": "c", "tokens": ["w"], "tags": ["B-LOC"]}']
    p = tmp_path / "bom.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8"))
    assert _scanned(str(p), "tags") == [True]
    got = _same(str(p))
    assert got["ids"] == ["a", "b", "c"] and got["lines"] == [1, 4, 6] and got["labels"] == ["LOC", "PER"]


def test_a_line_with_an_odd_number_of_quotes_is_reported_as_json_reports_it(tmp_path: Any) -> None:
    """(The numpy scan raised a numpy ValueError: its quotes did not pair up.)"""
    lines = ['{"id": "s0", "tokens": ["a"], "spans": []}', '{id": 5, "tokens": ["a"], "spans": []}']
    path = _write(tmp_path, lines)
    assert _same(path) == ("error", f"{path}:2: invalid JSON: Expecting property name enclosed in double quotes "
                                    "(column 2); expected one JSON object per line")
