"""``agree --format json`` and ``csv`` keep the disagreements they list in a temporary file
(:class:`ts_eval.agreement.spool.Spool`) and write the report in pieces (issue 32: bounded memory):
the bytes are those of the whole report made in memory (``json.dumps`` of the whole, the CSV of the
whole page), and the temporary file has no name and is gone at the end, also on error."""
from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any, List

import pytest
from streamed import blocks_of, run

import ts_eval
from ts_eval.agreement import spool as spool_module
from ts_eval.agreement import stream
from ts_eval.agreement.spool import Spool, json_chunks

DEMO = Path(ts_eval.__file__).parent / "demo" / "germeval2014_test_sample.conll"

RECORDS: List[Any] = [
    {"sentence": 4, "text": "Zürich ünd 東京 \"quoted\" back\\slash\ttab\nnewline \u0000 \u2028", "line": None,
     "floats": [0.1, 1e-300, -0.0, 1.0, 2.5e+16, 123456789.123456789, 1 / 3, math.inf, -math.inf],
     "empty": [], "empty_dict": {}, "nested": {"a": [[1, 2, "x"], []], "b": {"c": None, "d": True}},
     "tuple": ("LOC", 0, 2, "Tehubu Hitoca")},
    [], {}, "a string", 3, 2.0, None, [[], [[]], {"k": []}],
    {"\u00e9t\u00e9": "caf\u00e9", "emoji": "\U0001F600"},
]


def _dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def _spool(records: List[Any], form: str = "records") -> Spool:
    s = Spool(form)
    s.extend(records)
    return s


@pytest.mark.parametrize("form", ["records", "json"])
@pytest.mark.parametrize("records", [RECORDS, RECORDS[:1], RECORDS[1:2], [], [{}], [[]], [float("nan")]])
def test_json_chunks_write_what_json_dumps_writes_with_the_spool_a_list(records, form):
    for data in ({"before": [1, {"x": 0.5}], "lists": {"items": _spool(records, form), "after": "ü"}, "last": []},
                 _spool(records, form), [_spool(records, form), {"deep": [[_spool(records, form)]]},
                                         _spool(records, "records")],
                 {"items": _spool(records, form)}):
        got = "".join(json_chunks(data))
        plain = json.loads(json.dumps(data, default=list)) if not any(
            isinstance(r, float) and math.isnan(r) for r in records) else None
        expected = _dumps(_as_lists(data))
        assert got == expected
        if plain is not None:
            assert json.loads(got) == plain


def _as_lists(data: Any) -> Any:
    if isinstance(data, Spool):
        return list(data)
    if isinstance(data, dict):
        return {k: _as_lists(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_as_lists(v) for v in data]
    return data


@pytest.mark.parametrize("form", ["records", "json"])
def test_a_spool_gives_back_its_records_in_order_as_json_reads_them(form, monkeypatch):
    monkeypatch.setattr(spool_module, "READ_BYTES", 7)          # (records cut across reads)
    s = _spool(RECORDS, form)
    assert len(s) == len(RECORDS)
    back = list(s)
    assert json.dumps(back, indent=2, ensure_ascii=False) == json.dumps(RECORDS, indent=2, ensure_ascii=False)
    assert back[0]["tuple"] == ["LOC", 0, 2, "Tehubu Hitoca"] and back[0]["floats"][2] == 0.0
    assert math.copysign(1, back[0]["floats"][2]) == -1
    assert s[3] == "a string" and s[-1] == RECORDS[-1] and s[1:3] == [[], {}]
    assert list(s) == back                          # (read again: the same)
    assert list(s.indented()) == [json.dumps(r, indent=2, ensure_ascii=False) for r in RECORDS]
    s.append({"more": 1})
    assert len(s) == len(RECORDS) + 1 and s[-1] == {"more": 1}
    with pytest.raises(IndexError):
        s[len(RECORDS) + 1]
    s.close()
    assert len(s) == 0 and list(s) == []


def test_a_spool_leaves_no_file_in_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    s = _spool(RECORDS * 100)
    assert os.listdir(tmp_path) == []               # (anonymous: nothing to remove, whatever happens)
    assert len(list(s)) == len(RECORDS) * 100
    s.close()


class _InMemory(list):
    """What the disagreements were before the spool: a list (the whole report in memory)."""

    def __init__(self, form: str = "records") -> None:
        super().__init__()

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The demo's sentences with documents, three annotator columns."""
    text = DEMO.read_text(encoding="utf-8")
    sents = [s for s in text.strip("\n").split("\n\n") if s.strip()][:80]
    out = []
    for k, s in enumerate(sents):
        if k % 9 == 0:
            out.append("-DOCSTART- O O O O O")
        out.append(s)
    path = tmp_path_factory.mktemp("agree_spool") / "docs.conll"
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fmt", ["json", "csv"])
@pytest.mark.parametrize("size", [None, 1, 900])
def test_the_report_is_the_whole_report_made_in_memory(three, monkeypatch, fmt, size):
    argv = ["agree", three, "--columns", "2", "3", "4", "--format", fmt]
    with blocks_of(size):
        spooled = run(argv)
    with monkeypatch.context() as m:
        m.setattr(stream, "Spool", _InMemory)
        with blocks_of(size):
            whole = run(argv)
    assert spooled[0] == 0, spooled[2]
    assert spooled == whole
    if fmt == "json":
        data = json.loads(spooled[1])
        assert len(data["disagreements"]["items"]) == data["disagreements"]["total"] > 10
        assert spooled[1] == _dumps(data) + "\n"


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_the_output_file_is_written_whole_and_an_error_leaves_it_and_no_temporary_file(three, tmp_path, monkeypatch,
                                                                                        fmt):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    out = tmp_path / "out" / f"report.{fmt}"
    out.parent.mkdir()
    argv = ["agree", three, "--columns", "2", "3", "4", "--format", fmt, "-o", str(out)]
    assert run(argv)[0] == 0
    expected = run(argv[:-2])[1]
    assert out.read_text(encoding="utf-8") == expected
    out.write_text("old", encoding="utf-8")
    closed: List[Spool] = []
    real_texts = Spool.texts

    def failing(self: Spool) -> Any:
        closed.append(self)
        for k, rec in enumerate(real_texts(self)):
            if k == 5:
                raise RuntimeError("disk gone")
            yield rec

    monkeypatch.setattr(spool_module.Spool, "texts", failing)
    with pytest.raises(RuntimeError, match="disk gone"):
        run(argv)
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(os.listdir(out.parent)) == ["report." + fmt]
    assert os.listdir(tmp) == []
    assert closed and all(s._file is None for s in closed)      # (the temporary file is closed: gone)


@pytest.mark.parametrize("fmt, spooled", [("json", True), ("csv", True), ("table", False), ("html", False)])
def test_json_and_csv_keep_the_lists_on_disk_a_persons_formats_their_first_rows_in_memory(three, monkeypatch, fmt,
                                                                                           spooled):
    from ts_eval.cli import agree as agree_cli

    seen: List[Any] = []
    real = agree_cli.emit_agreement

    def capture(result: Any, args: Any, cases: Any) -> None:
        seen.extend([result.documents, result.disagreements["groups"], result.disagreements["items"]])
        real(result, args, cases)

    monkeypatch.setattr(agree_cli, "emit_agreement", capture)
    assert run(["agree", three, "--columns", "2", "3", "4", "--format", fmt])[0] == 0
    assert [isinstance(s, Spool) for s in seen] == [spooled] * 3
    if spooled:
        assert all(len(s) == 0 for s in seen)       # (closed once written: the temporary files are gone)
