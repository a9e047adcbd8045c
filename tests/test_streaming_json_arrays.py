"""A file that is one JSON array of records (a Label Studio export; token lists or texts written as one
array) is read in blocks too, each element a record on a line of its own (:class:`ts_eval.io.jsonl.ArrayLines`):
the report of the whole read for blocks down to one record, pretty-printed or compact, with a BOM, compressed;
what is not an array of records is the same error, at the file's line, at every block size."""
from __future__ import annotations

import gzip
import io
import json
from typing import Any, Dict, List

import pytest
from streamed import same_error, whole_and_streamed
from test_streaming_conllu import sample, system_of
from test_streaming_jsonl import tags_lines, tokens_of

from ts_eval.errors import InputError
from ts_eval.io.jsonl import ArrayLines


def records(side: List[List[str]], ids: bool = True) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in tags_lines(side, [f"r{k}" for k in range(len(side))] if ids else None)
            .splitlines()]


def label_studio(side: List[List[str]]) -> List[Dict[str, Any]]:
    """Label Studio tasks of the sentences ``side`` (IOB2 tags; texts the tokens joined by spaces)."""
    tasks = []
    for k, tags in enumerate(side):
        toks = tokens_of(k, len(tags))
        at = [sum(len(t) + 1 for t in toks[:j]) for j in range(len(toks) + 1)]
        result, j = [], 0
        while j < len(tags):
            if tags[j].startswith("B-"):
                e = j + 1
                while e < len(tags) and tags[e] == "I-" + tags[j][2:]:
                    e += 1
                result.append({"type": "labels", "value": {"start": at[j], "end": at[e] - 1,
                                                           "labels": [tags[j][2:]]}})
                j = e
            else:
                j += 1
        result.append({"type": "relation", "from_id": "a", "to_id": "b"})
        tasks.append({"id": f"r{k}", "data": {"text": " ".join(toks)}, "annotations": [{"result": result}]})
    return tasks


def write(tmp_path, name: str, value: Any, indent: Any = None, bom: bool = False, pack=bytes) -> str:
    raw = (b"\xef\xbb\xbf" if bom else b"") + json.dumps(value, indent=indent).encode()
    (tmp_path / name).write_bytes(pack(raw))
    return str(tmp_path / name)


@pytest.mark.parametrize("layout", [dict(indent=2), dict(indent=None), dict(indent="\t", bom=True),
                                    dict(indent=1, pack=gzip.compress)], ids=["pretty", "compact", "bom", "gzip"])
@pytest.mark.parametrize("block_bytes", [1, 300, 1 << 20])
def test_token_lists_as_one_array(tmp_path, layout, block_bytes):
    gold = sample(30)
    g = write(tmp_path, "array.json", records(gold), **layout)
    s = str(tmp_path / "sys.jsonl")
    (tmp_path / "sys.jsonl").write_text(tags_lines(system_of(gold, 1), [f"r{k}" for k in range(30)]))
    for argv in (["score", "--gold", g, s, "--input-format", "jsonl-tokens", "--format", "json"],
                 ["score", "--gold", s, g, "--input-format", "jsonl-tokens", "--format", "json",
                  "--models", "ts,exact,fair,semeval"]):
        whole, streamed, seen = whole_and_streamed(argv, block_bytes=block_bytes)
        assert whole[0] == 0 and streamed == whole, whole[2]
        assert len(seen) == 1 and seen[0] == (30 if block_bytes == 1 else seen[0])


def test_a_label_studio_export(tmp_path):
    gold = sample(25)
    g = write(tmp_path, "export.json", label_studio(gold), indent=2)
    s = write(tmp_path, "sys.json", label_studio(system_of(gold, 2)), indent=2)
    whole, streamed, seen = whole_and_streamed(["score", "--gold", g, s, "--format", "json"], block_bytes=1)
    assert whole[0] == 0 and streamed == whole, whole[2]
    assert seen == [25]
    reading = json.loads(whole[1])["gold"]["reading"]
    assert reading["documents"] == 25 and reading["other_results"] == 25      # added up over the blocks


@pytest.mark.parametrize("text", [
    '[{"tokens": ["a"], "tags": ["O"]},]',                      # a comma before the end
    '[{"tokens": ["a"], "tags": ["O"]}] x',                     # text after the array
    '[]',                                                        # no records
    '{}',                                                        # an object, no array (a record without tokens)
    '[{"tokens": ["a"], "tags": ["O"]}, 7]',                    # an element that is no object
    '[{"tokens": ["a"], "tags": ["O"]}, {"tokens": ["b"], "tags": ["O"]}',   # not closed
    '[{"tokens": ["a"], "tags": ["O"]} {"tokens": ["b"]}]',     # no comma
    '[{"tokens": ["a"], "tags": ["O\n"]}]',                     # a raw line break inside a string
    '[{"tokens": ["a"], "tags": ["B-X"]}, {"tokens": ["b", "c"], "tags": ["O"]}]',   # tags not one per token
])
def test_what_is_not_an_array_of_records_is_the_same_error_at_every_block_size(tmp_path, text):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"tokens": ["a"], "tags": ["O"]}\n{"tokens": ["b"], "tags": ["O"]}\n')
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    argv = ["score", "--gold", str(gold), str(bad), "--input-format", "jsonl-tokens"]
    assert "bad.json" in same_error(argv, (1, 60))


@pytest.mark.parametrize("fill", [1, 2, 7, 1 << 20])
def test_elements_cut_anywhere_between_reads(fill):
    value = [{"a": 12345, "b": "x\u00e9\u4e2d,]\\"}, -7.5e3, "s", [1, [2, {}]], True, None, {"t": "\U0001F600"}]
    raw = json.dumps(value, indent=3, ensure_ascii=False).encode()
    lines = ArrayLines(io.BufferedReader(io.BytesIO(raw)), "a.json")
    lines.fill = fill
    out = b""
    while piece := lines.read(fill):
        out += piece
    assert [json.loads(line) for line in out.decode().splitlines()] == value


def array_error(raw: bytes, fill: int) -> str:
    """The error reading ``raw`` as an array ``fill`` bytes at a time gives (its file, line and message)."""
    lines = ArrayLines(io.BufferedReader(io.BytesIO(raw)), "a.json")
    lines.fill = fill
    with pytest.raises(InputError) as err:
        while lines.read(100):
            pass
    return f"{err.value.path}:{err.value.line}: {err.value}"


@pytest.mark.parametrize("raw, line", [(b"[1, 2", 1), (b"[1 2]", 1), (b"[1,]", 1), (b"[] ", None), (b"[1] [2]", 1),
                                       (b"[\xff]", 1), (b"[1,\n2\n,]", 3)])
def test_not_an_array_of_values_is_one_error_whatever_is_read_at_a_time(raw, line):
    """(The input begins with ``[``: a reader makes an ArrayLines only of such an input.)"""
    first = array_error(raw, 1)
    assert first.startswith(f"a.json:{line}: ")
    assert all(array_error(raw, fill) == first for fill in (2, 7, 1 << 20))
