"""What the JSON Lines readers read, as msgspec decodes JSON: token lists and texts with escapes or without,
in any layout, with ids and keys of any kind, and the message of the first bad record.

msgspec decodes each chunk of records into the reader's records, whose values have the types the reader
takes, or, where one does not, as dicts checked record by record (:mod:`ts_eval.io.jsonl_tokens`,
:mod:`ts_eval.io.jsonl_text`).  Properties: a file reads the same (or fails with the same message) when every
string in it is written with escapes and its separators drawn, and the same in chunks of 3 lines as in the
default chunks; every input either reads or raises an :class:`InputError`.  Hand cases pin ids, keys, lines,
spans and messages.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval import InputError
from ts_eval.io import jsonl
from ts_eval.io.api import read
from ts_eval.io.tokenizer import align_spans, tokenize


def outcome(path: str, chunk: Optional[int] = None, **kw: Any) -> Any:
    """The documents read (as plain values), or ``("error", message)``; ``chunk``: lines per msgspec call."""
    with pytest.MonkeyPatch.context() as m:
        if chunk is not None:
            m.setattr(jsonl, "CHUNK_LINES", chunk)
        try:
            docs = read(path, **{"format": "jsonl-tokens", **kw})
        except InputError as err:
            return ("error", str(err))
    out: Dict[str, Any] = {k: v for k, v in vars(docs).items() if k not in ("key_data", "path")}
    out["keys"] = docs.keys
    for k, v in out.items():
        if isinstance(v, np.ndarray):
            out[k] = (v.dtype.str, v.tolist())
    if docs.char_tokens is not None:
        out["char_tokens"] = [(a.dtype.str, a.tolist()) for a in docs.char_tokens]
    return out


def escaped(value: Any, item: str = ", ", key: str = ": ") -> str:
    """``value`` as JSON with every character of every string (keys too) written as a ``\\uXXXX`` escape."""
    if isinstance(value, str):
        units = value.encode("utf-16-le")
        return '"' + "".join(f"\\u{int.from_bytes(units[k:k + 2], 'little'):04x}"
                             for k in range(0, len(units), 2)) + '"'
    if isinstance(value, dict):
        return "{" + item.join(escaped(k) + key + escaped(v, item, key) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + item.join(escaped(v, item, key) for v in value) + "]"
    return json.dumps(value)


def write(tmp_path: Any, lines: List[str], name: str = "f.jsonl", newline: str = "\n") -> str:
    p = tmp_path / name
    p.write_bytes("".join(ln + newline for ln in lines).encode("utf-8"))
    return str(p)


def same_every_way(tmp: Any, lines: List[Any], newline: str = "\n", **kw: Any) -> Any:
    """The outcome of ``lines`` (records, written as json.dumps writes them in a drawn layout, or raw lines):
    the same with every string escaped, and (when they read) in chunks of 3 lines."""
    plain = [it if isinstance(it, str) else json.dumps(it[0], separators=it[1], ensure_ascii=it[2]) for it in lines]
    esc = [it if isinstance(it, str) else escaped(it[0], *it[1]) for it in lines]
    path = write(tmp, plain, newline=newline)
    got = outcome(path, **kw)
    if isinstance(got, dict):   # (a chunk's broken JSON is named before its records' errors: a smaller chunk may
        assert outcome(path, chunk=3, **kw) == got          # name another error first)
    assert outcome(write(tmp, esc, newline=newline), **kw) == got       # (the same path: a message names it)
    return got


TOKENS = st.one_of(st.sampled_from(["a", "New", "York", "", "é", "\u4e2d", '"', "\\", "a b", "x\ty", "]", "[",
                                    "}", ",", ":", "tokens", "\U0001f600", "\x1f", "\u2028", "x\ny"]),
                   st.text(max_size=4))
IDS = st.one_of(st.none(), st.text(max_size=3), st.sampled_from(["s1", "id"]), st.integers(-5, 99),
                st.integers(2 ** 63, 2 ** 70), st.just(True), st.just(1.5), st.just([1]))
LABELS = st.one_of(st.sampled_from(["PER", "LOC", "B-PER", "", "é", 'a"b', "\\"]), st.text(max_size=3))
LAYOUTS = st.tuples(st.sampled_from([(", ", ": "), (",", ":"), (" , ", " : "), (",  ", ":\t")]), st.booleans())
BAD_LINES = st.sampled_from(["", "   ", "\t", "{", "[1]", '{"tokens": ["a"], "tags": ["O"]', "\u00a0", "nul", "7",
                             '{"tokens": ["a"], "tags": ["O"]} {}', '{"tokens": ["a"], "tags": ["O"], "n": NaN}'])


@st.composite
def token_record(draw: Any, shape: str) -> Any:
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
                               st.lists(st.sampled_from(["O", "B-PER", 7, "", "é", '"']), min_size=max(n - 1, 0),
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


def items(record: Any, bad_every: int) -> Any:
    """A record in a drawn layout (the raw line of a bad one, one time in ``bad_every``)."""
    good = st.tuples(record, LAYOUTS).map(lambda t: (t[0], t[1][0], t[1][1]))
    return st.sampled_from([good] * (bad_every - 1) + [BAD_LINES]).flatmap(lambda way: way)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(shape=st.sampled_from(["spans", "tags", "ner_tags"]), data=st.data())
def test_token_lists_read_the_same_escaped_and_in_small_chunks(shape: str, data: Any, tmp_path_factory: Any) -> None:
    lines = data.draw(st.lists(items(token_record(shape), 10), min_size=1, max_size=12))
    kw = {"tag_names": ["O", "B-PER", "I-PER", "B-LOC"]} if shape == "ner_tags" else {}
    same_every_way(tmp_path_factory.mktemp("t"), lines, data.draw(st.sampled_from(["\n", "\r\n"])), **kw)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(shape=st.sampled_from(["spans", "tags"]), data=st.data())
def test_clean_token_files_read_the_same_escaped_and_in_small_chunks(shape: str, data: Any,
                                                                     tmp_path_factory: Any) -> None:
    """Well-formed files (most chunks of the reader's types) with one odd or bad record at most."""
    recs = []
    for k in range(data.draw(st.integers(1, 12))):
        toks = data.draw(st.lists(st.sampled_from(["a", "New", "York", "", "é", "tokens", ":", "]", '"']),
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
    if data.draw(st.booleans()):
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
    layout = data.draw(st.sampled_from([(", ", ": "), (",", ":")]))
    same_every_way(tmp_path_factory.mktemp("c"), [(r, layout, False) for r in recs])


WORDS = st.sampled_from(["New", "York", "a", "é", "\u4e2d", "\U0001f600", "-", ",", '"', "\\", "\t", "x\ny", "\x1f",
                         "}, {", '"start": 1', "  ", ""])
TEXTS = st.one_of(st.lists(WORDS, max_size=6).map(" ".join), st.text(max_size=8), st.sampled_from([1, None, ["a"]]))
OFFSETS = st.integers(-1, 14) | st.sampled_from([2 ** 64, 10 ** 7, 1.0, "1", None, True])


@st.composite
def text_record(draw: Any, k: int) -> Any:
    text = draw(TEXTS)
    n = len(text) if isinstance(text, str) else 3
    span = st.fixed_dictionaries({"start": st.integers(0, max(n - 1, 0)) | OFFSETS,
                                  "end": st.integers(1, max(n, 1)) | OFFSETS,
                                  "label": LABELS | st.sampled_from([1, None, "\x07"])})
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
                                  ("tokens", [{"start": 0, "end": 1}]), ("tokens", None), ("label", []),
                                  ("data", {"text": "a"}), ("data", None), ("tokens", [{"start": 0, "end": True}])]))
    if extra is not None:
        rec[extra[0]] = extra[1]
    return {k: rec[k] for k in draw(st.permutations(list(rec)))}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_texts_read_the_same_escaped_and_in_small_chunks(data: Any, tmp_path_factory: Any) -> None:
    lines = [data.draw(items(text_record(k), 15)) for k in range(data.draw(st.integers(1, 12)))]
    same_every_way(tmp_path_factory.mktemp("x"), lines, data.draw(st.sampled_from(["\n", "\r\n"])),
                   format="jsonl-text", align=data.draw(st.sampled_from(["strict", "expand", "contract"])),
                   tokenizer=data.draw(st.sampled_from(["default", "whitespace"])))


CLEAN = [{"id": "s0", "tokens": ["New", "York", "é"], "spans": [{"start": 0, "end": 2, "label": "LOC"}]},
         {"id": 5, "tokens": ["a"], "spans": []},
         {"tokens": ["Anna", "met", "Bob"], "spans": [{"start": 0, "end": 1, "label": "PER"},
                                                      {"start": 2, "end": 3, "label": "PER"}]}]
TEXT_RECORDS = [{"id": "t0", "text": "Anna met Bob", "spans": [{"start": 0, "end": 4, "label": "PER"}]},
                {"id": 3, "text": "New York é", "spans": [{"start": 0, "end": 8, "label": "LOC"}],
                 "meta": [1, {"a": None}]},
                {"text": "x", "spans": []}]
MUTANTS = st.sampled_from(['"', "\\", ",", ":", "[", "]", "{", "}", "0", "-", ".", "e", " ", "\t", "\x01", "a", "é",
                           "9", "n", "1.0", '\\"', "\\u00e9"])


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_mutated_lines_read_or_are_input_errors(data: Any, tmp_path_factory: Any) -> None:
    """Records with a few characters replaced, inserted or deleted: read (the same in chunks of 3 lines as in the
    default chunks), or an InputError; nothing else is raised."""
    text = data.draw(st.booleans())
    records = (TEXT_RECORDS if text else CLEAN) * data.draw(st.integers(1, 3))
    lines = [json.dumps(r, ensure_ascii=data.draw(st.booleans()), separators=data.draw(
        st.sampled_from([(", ", ": "), (",", ":")]))) for r in records]
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(lines) - 1))
        at = data.draw(st.integers(0, len(lines[k])))
        how = data.draw(st.integers(0, 2))
        lines[k] = lines[k][:at] + (data.draw(MUTANTS) if how != 2 else "") + lines[k][at + (how != 1):]
    path = write(tmp_path_factory.mktemp("m"), lines)
    kw = {"format": "jsonl-text"} if text else {}
    got = outcome(path, **kw)
    assert isinstance(got, tuple) or outcome(path, chunk=3, **kw) == got


# ------------------------------------------------------------------ by hand: token lists


def test_a_clean_file_gives_ids_keys_and_spans(tmp_path: Any) -> None:
    recs = [{"id": f"s{k}", "tokens": ["New", "York", "é", ""], "spans": [{"start": 0, "end": 2, "label": "LOC"}]}
            for k in range(10)]
    got = same_every_way(tmp_path, [(r, (", ", ": "), False) for r in recs])
    assert got["ids"] == [f"s{k}" for k in range(10)]
    assert got["keys"][0] == "New\x1fYork\x1fé\x1f"
    assert got["labels"] == ["LOC"] and got["start"][1][:2] == [0, 4] and got["last"][1][:2] == [1, 5]


def test_compact_layouts_and_integer_ids(tmp_path: Any) -> None:
    recs = [{"tokens": ["a", "b", "c"], "spans": [{"start": 0, "end": 1, "label": "PER"},
                                                   {"start": 1, "end": 3, "label": "LOC"}], "id": k}
            for k in range(6)]
    got = same_every_way(tmp_path, [(r, (",", ":"), False) for r in recs])
    assert got["ids"] == [str(k) for k in range(6)]
    assert got["start"][1] == [0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16]


def test_escaped_tokens_and_tags_among_plain_ones(tmp_path: Any) -> None:
    good = {"id": "a", "tokens": ["x", "y"], "tags": ["B-PER", "I-PER"]}
    lines = [json.dumps(good)] * 3 + [json.dumps({"id": "b", "tokens": ["caf\u00e9", '"', "\\"], "tags": [
        "O", "B-Q\u00e9", "I-Q\u00e9"]})] + [json.dumps(good)] * 2 + [json.dumps(good, separators=(" ,", " :"))]
    path = write(tmp_path, lines)
    for chunk in (None, 2):
        got = outcome(path, chunk=chunk)
        assert got["keys"][3] == 'café\x1f"\x1f\\' and got["keys"][4] == "x\x1fy"
        assert got["labels"] == ["PER", "Qé"]
        assert got["start"][1] == [0, 2, 4, 7, 9, 11, 13] and got["last"][1] == [1, 3, 5, 8, 10, 12, 14]


def test_ids_and_keys_as_msgspec_decodes_them(tmp_path: Any) -> None:
    """An integer id beyond 64 bits, keys of nested objects, a key given twice (the last counts)."""
    lines = ['{"tokens": ["a"], "tags": ["O"], "id": 18446744073709551621}',
             '{"meta": {"tokens": ["z"], "id": "q"}, "id": "s2", "tokens": ["b", "c"], "tags": ["B-X", "I-X"]}',
             '{"tags": ["O"], "tokens": ["d"]}',
             '{"id": "s4", "tokens": ["e"], "tags": ["S-X"], "tokens": ["f"]}']
    got = outcome(write(tmp_path, lines), scheme="IOBES")
    assert got["ids"] == ["18446744073709551621", "s2", None, "s4"]
    assert got["keys"] == ["a", "b\x1fc", "d", "f"]


def test_only_the_top_level_arrays_and_id_are_taken(tmp_path: Any) -> None:
    lines = ['{"id" : "", "meta": {"id": "q"}, "tokens": ["a"], "tags": ["O"]}'] * 4 + \
        ['{"tokens" : [], "meta": {"tokens": ["q"]}, "tags": []}'] + \
        ['{"id": "r", "tokens" : ["a", "b"], "meta": {"tokens": ["q"]}, "tags": ["O", "O"]}'] * 3
    got = outcome(write(tmp_path, lines[:4] + lines[5:]))
    assert got["ids"] == [""] * 4 + ["r"] * 3 and got["keys"][-1] == "a\x1fb"
    path = write(tmp_path, lines, name="g.jsonl")
    assert outcome(path) == ("error", f"{path}:5: 'tokens' is empty; expected at least one token")


def test_a_bom_crlf_and_blank_lines(tmp_path: Any) -> None:
    lines = ['{"id": "a", "tokens": ["x", "y"], "tags": ["B-PER", "I-PER"]}', "", "  ", '{"id": "b", "tokens": '
             '["z"], "tags": ["O"]}', "\t", "\u00a0", '{"id": "c", "tokens": ["w"], "tags": ["B-LOC"]}']
    p = tmp_path / "bom.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8"))
    got = outcome(str(p))
    assert got["ids"] == ["a", "b", "c"] and got["lines"] == [1, 4, 7] and got["labels"] == ["LOC", "PER"]


@pytest.mark.parametrize("bad, message", [
    ('{"id": true, "tokens": ["x"], "tags": ["O"]}', "id true is not a string or integer"),
    ('{"id": 1.0, "tokens": ["x"], "tags": ["O"]}', "id 1.0 is not a string or integer"),
    ('{"id": [1], "tokens": ["x"], "tags": ["O"]}', "id [1] is not a string or integer"),
    ('{"id": "b", "tokens": [], "tags": []}', "'tokens' is empty; expected at least one token"),
    ('{"id": "b", "tokens": ["x"], "tags": ["O", "O"]}', "2 tags for 1 tokens; expected one per token"),
    ('{"id": "b", "tokens": ["x"], "tags": "O"}', "'tags' is 'O', expected a list (all lines must have the shape of "
                                                  "line 1: 'tokens' and 'tags')"),
    ('{"id": "b", "tokens": ["x", ["y"]], "tags": ["O", "O"]}', 'token ["y"] is not a string'),
    ('{"id": "b", "tokens": "x", "tags": ["O"]}', "'tokens' is 'x', expected a list of strings"),
    ('{"id": "b", "tokens": ["x"], "tags": [7]}', "tag 7 is not a string"),
    ('{"id": "b", "tokens": ["x"], "tags": ["O"], "n": NaN}', "invalid JSON: invalid character (column 50); "
                                                              "expected one JSON object per line"),
    ('{"id": "b", "tokens": ["x"],, "tags": ["O"]}', "invalid JSON: object keys must be strings (column 29); "
                                                      "expected one JSON object per line"),
    ('{id": 5, "tokens": ["a"], "tags": ["O"]}', "invalid JSON: object keys must be strings (column 2); "
                                                 "expected one JSON object per line"),
    ('{"id": "b", "tokens": ["x"], "tags": ["O"]', "invalid JSON: Input data was truncated (column 43); "
                                                   "expected one JSON object per line"),
    ('["x"]', 'found list ["x"], expected a JSON object'),
])
def test_a_bad_record_among_good_ones_is_named_with_its_line(tmp_path: Any, bad: str, message: str) -> None:
    good = '{"id": "a", "tokens": ["x"], "tags": ["O"]}'
    path = write(tmp_path, [good] * 4 + [bad] + [good])
    assert outcome(path) == ("error", f"{path}:5: {message}")


@pytest.mark.parametrize("id_key, message", [("tokens", 'id ["x"] is not a string or integer'),
                                             ("tags", 'id ["O"] is not a string or integer')])
def test_an_id_key_that_names_another_key(tmp_path: Any, id_key: str, message: str) -> None:
    path = write(tmp_path, ['{"id": "a", "tokens": ["x"], "tags": ["O"]}'])
    assert outcome(path, id_key=id_key) == ("error", f"{path}:1: {message}")
    assert outcome(path, id_key="tag")["ids"] == [None]


@pytest.mark.parametrize("text, message", [
    ('[{"tokens": ["a"], "tags": ["O"]},\n {"tokens": ["b"], "tags": ["O"',
     ":2: invalid JSON: Input data was truncated (column 32)"),
    ('[{"tokens": ["a"], "tags": ["O"]},\n {"tokens": ["b"] "tags": ["O"]}]',
     ":2: invalid JSON: expected ',' or '}' (column 19)"),
    ('[{"tokens": ["a"], "tags": ["O"]},\n 7]', ":2: found int 7, expected a JSON object"),
])
def test_a_json_array_that_breaks_is_named_with_the_line_it_breaks_on(tmp_path: Any, text: str, message: str) -> None:
    p = tmp_path / "a.json"
    p.write_text(text, encoding="utf-8")
    assert outcome(str(p)) == ("error", f"{p}{message}")


def test_a_bad_span_among_good_ones_is_named_with_its_line(tmp_path: Any) -> None:
    recs = [{"id": f"s{k}", "tokens": ["a", "b"], "spans": [{"start": 0, "end": 1, "label": "PER"}]} for k in range(9)]
    recs[7]["spans"] = [{"start": 0, "end": 3, "label": "PER", "score": 0.5}]           # past the two tokens
    path = write(tmp_path, [json.dumps(r) for r in recs])
    assert outcome(path) == ("error", f'{path}:8: span {{"start": 0, "end": 3, "label": "PER"...: '
                                      "token offsets must be integers with 0 <= start < end <= 2 (the number of "
                                      "tokens; end exclusive)")
    recs[7]["spans"] = [{"start": 0, "end": 1, "label": ""}]
    path = write(tmp_path, [json.dumps(r) for r in recs], "g.jsonl")
    assert outcome(path) == ("error", f'{path}:8: span {{"start": 0, "end": 1, "label": ""}}: label \'\' is not a '
                                      "non-empty string")
    big = 2 ** 64
    path = write(tmp_path, [json.dumps({"tokens": ["a"], "spans": [{"start": 0, "end": big, "label": "PER"}]})],
                 "h.jsonl")
    assert outcome(path)[1] == (f'{path}:1: span {{"start": 0, "end": 18446744073709551...: token offsets must be '
                                "integers with 0 <= start < end <= 1 (the number of tokens; end exclusive)")


def test_a_record_error_comes_before_a_tag_or_span_error_earlier_in_the_file(tmp_path: Any) -> None:
    """(As the whole read always did: tags and spans are checked when every record is read.)"""
    lines = ['{"tokens": ["a"], "tags": ["O"]}', '{"tokens": ["a"], "tags": [5]}'] + \
        ['{"tokens": ["a"], "tags": ["O"]}'] * 5 + ['{"tokens": ["a"], "tags": ["O", "O"]}']
    for chunk in (None, 2):
        path = write(tmp_path, lines)
        assert outcome(path, chunk=chunk) == ("error", f"{path}:8: 2 tags for 1 tokens; expected one per token")
        path = write(tmp_path, lines[:-1], "g.jsonl")
        assert outcome(path, chunk=chunk) == ("error", f"{path}:2: tag 5 is not a string")


# ------------------------------------------------------------------ by hand: texts


def test_texts_with_escapes_other_shapes_or_own_tokens(tmp_path: Any) -> None:
    good = {"id": "a", "text": "Anna lives in Berlin", "spans": [{"start": 0, "end": 4, "label": "PER"}]}
    lines = [json.dumps(good)] * 3 + [json.dumps({**good, "text": "Anna, caf\u00e9"})] + [json.dumps(good)] * 2 + \
        [json.dumps({"id": "b", "text": "Anna", "label": [[0, 4, "PER"]]})] + [json.dumps(good)] * 2 + \
        [json.dumps({**good, "tokens": [{"start": 0, "end": 4}, {"start": 5, "end": 10}]})] + [json.dumps(good)] * 2
    path = write(tmp_path, lines)
    for chunk in (None, 3):
        got = outcome(path, chunk=chunk, format="jsonl-text")
        assert got["texts"][3] == "Anna, café" and got["keys"][6] == "Anna"
        assert got["keys"][9] == "Anna\x1flives" and got["labels"] == ["PER"]


def test_a_bad_span_in_a_text_file_is_named_with_its_line(tmp_path: Any) -> None:
    recs = [{"id": f"s{k}", "text": "Anna met Bob", "spans": [{"start": 0, "end": 4, "label": "PER"}]}
            for k in range(9)]
    recs[7]["spans"] = [{"start": 9, "end": 13, "label": "PER"}]          # beyond the text
    path = write(tmp_path, [json.dumps(r) for r in recs])
    assert outcome(path, format="jsonl-text") == (
        "error", f"{path}:8: document 's7': span [9, 13) is outside the text (length 12) or empty; expected "
                 "0 <= start < end <= length")
    recs[7]["spans"] = [{"start": 1, "end": 4, "label": "PER"}]           # inside a token
    path = write(tmp_path, [json.dumps(r) for r in recs])
    assert outcome(path, format="jsonl-text")[1].startswith(
        f"{path}:8: document 's7': span [1, 4) 'nna' (PER) does not fall on")
    assert outcome(path, format="jsonl-text", align="expand")["notes"]["misaligned"] == 1


def test_texts_have_character_offsets(tmp_path: Any) -> None:
    recs = [{"id": "x", "text": "\u4e2d\u6587 \U0001f600 Zoë", "spans": [{"start": 5, "end": 8, "label": "PER"}]},
            {"id": "y", "text": "é", "spans": [{"start": 0, "end": 1, "label": "é"}]},
            {"id": "z", "text": "ab é", "spans": [{"start": 3, "end": 5, "label": "X"}]}]   # beyond: 4 characters
    got = same_every_way(tmp_path, [(r, (", ", ": "), False) for r in recs[:2]], format="jsonl-text")
    assert got["texts"] == [recs[0]["text"], "é"]
    assert got["keys"] == ["\u4e2d\u6587\x1f\U0001f600\x1fZoë", "é"]
    path = write(tmp_path, [json.dumps(r, ensure_ascii=False) for r in recs])
    assert outcome(path, format="jsonl-text") == (
        "error", f"{path}:3: document 'z': span [3, 5) is outside the text (length 4) or empty; expected 0 <= start "
                 "< end <= length")


def test_another_text_key_and_id_key(tmp_path: Any) -> None:
    recs = [{"doc": f"d{k}", "content": "Anna met Bob", "spans": [{"start": 9, "end": 12, "label": "PER"}]}
            for k in range(4)]
    got = outcome(write(tmp_path, [json.dumps(r) for r in recs]), format="jsonl-text", text_key="content",
                  id_key="doc")
    assert got["ids"] == ["d0", "d1", "d2", "d3"] and got["keys"][0] == "Anna\x1fmet\x1fBob"


def test_own_token_offsets_among_tokenized_texts(tmp_path: Any) -> None:
    recs = [{"id": "a", "text": "New-York is big", "spans": [{"start": 0, "end": 8, "label": "LOC"}]},
            {"id": "b", "text": "New-York is big", "tokens": [{"start": 0, "end": 8}, {"start": 9, "end": 11},
                                                              {"start": 12, "end": 15}],
             "spans": [{"start": 0, "end": 8, "label": "LOC"}]},
            {"id": "c", "text": "ab", "spans": []}]
    got = same_every_way(tmp_path, [(r, (", ", ": "), False) for r in recs], format="jsonl-text")
    assert got["keys"] == ["New\x1f-\x1fYork\x1fis\x1fbig", "New-York\x1fis\x1fbig", "ab"]
    assert got["start"][1] == [0, 5] and got["last"][1] == [2, 5]
    assert got["char_tokens"][0][1] == [0, 3, 4, 9, 12, 0, 9, 12, 0]
    for bad, shown in (({"start": 3, "end": 10}, "[3, 10)"), ({"start": 9, "end": 2 ** 64}, f"[9, {2 ** 64})")):
        recs[1]["tokens"][1] = bad
        path = write(tmp_path, [json.dumps(r) for r in recs])
        assert outcome(path, format="jsonl-text") == (
            "error", f"{path}:2: document 'b': token 1 has offsets {shown}; expected tokens in text order, not "
                     "overlapping, inside the text (length 15)")


def test_an_offset_beyond_64_bits_in_a_text_file(tmp_path: Any) -> None:
    big = 2 ** 64
    path = write(tmp_path, [json.dumps({"text": "a b", "spans": [{"start": big, "end": 1, "label": "PER"}]})])
    assert outcome(path, format="jsonl-text") == (
        "error", f"{path}:1: document 1: span [{big}, 1) is outside the text (length 3) or empty; expected 0 <= "
                 "start < end <= length")


# ------------------------------------------------------------------ the tokenizer


def _tokenize_before(texts: List[str], tokenizer: str) -> Any:
    """The tokenizer as it was before it worked in place (the reference for the property below)."""
    from ts_eval.io.tokenizer import _PUNCT, _SPACE, _WORD, _classes
    joined = "\n".join(texts)
    base = np.zeros(len(texts) + 1, np.int64)
    np.cumsum(np.fromiter((len(t) + 1 for t in texts), np.int64, len(texts)), out=base[1:])
    cls = _classes(np.frombuffer(joined.encode("utf-32-le"), np.uint32))
    if tokenizer == "whitespace":
        cls[cls == _PUNCT] = _WORD
    prev = np.empty_like(cls)
    prev[0] = _SPACE
    prev[1:] = cls[:-1]
    nxt = np.empty_like(cls)
    nxt[-1:] = _SPACE
    nxt[:-1] = cls[1:]
    on = cls != _SPACE
    starts = np.flatnonzero(on & ((cls != prev) | (cls == _PUNCT)))
    ends = np.flatnonzero(on & ((cls != nxt) | (cls == _PUNCT))) + 1
    doc_offsets = np.searchsorted(starts, base)
    doc_offsets[-1] = len(starts)
    doc = np.repeat(np.arange(len(texts)), np.diff(doc_offsets))
    return doc_offsets, starts - base[doc], ends - base[doc]


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(st.sampled_from(list("ab _-,.é\u0301 \t\u00a0\u4e2d1")), min_size=1, max_size=12),
                      min_size=1, max_size=6), tokenizer=st.sampled_from(["default", "whitespace"]))
def test_tokenizer_in_place_equals_the_reference(texts: List[str], tokenizer: str) -> None:
    got, want = tokenize(texts, tokenizer), _tokenize_before(texts, tokenizer)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.tolist() == w.tolist()
    lens = np.array([len(t) for t in texts], np.int64)
    off, ts, te = got
    # every character range of every document, aligned as before (global offsets computed out of place)
    doc = np.array([d for d, t in enumerate(texts) for a in range(len(t)) for b in range(a + 1, len(t) + 1)], np.int64)
    cs = np.array([a for t in texts for a in range(len(t)) for b in range(a + 1, len(t) + 1)], np.int64)
    ce = np.array([b for t in texts for a in range(len(t)) for b in range(a + 1, len(t) + 1)], np.int64)
    base = np.zeros(len(texts) + 1, np.int64)
    np.cumsum(lens + 1, out=base[1:])
    of_tok = np.repeat(np.arange(len(texts)), np.diff(off))
    gs, ge = ts + base[of_tok], te + base[of_tok]
    a, z = cs + base[doc], ce + base[doc]
    for mode in ("expand", "contract"):
        b, e, ok = align_spans(off, ts, te, lens, doc, cs, ce, mode)
        b_exp, e_exp = np.searchsorted(ge, a, "right"), np.searchsorted(gs, z, "left")
        b_con, e_con = np.searchsorted(gs, a, "left"), np.searchsorted(ge, z, "right")
        want_b, want_e = (b_exp, e_exp) if mode == "expand" else (b_con, e_con)
        assert (b + off[doc]).tolist() == want_b.tolist() and (e + off[doc]).tolist() == want_e.tolist()
        assert ok.tolist() == ((b_exp == b_con) & (e_exp == e_con) & (b_con < e_con)).tolist()
