"""``convert`` writes an input block by block (issue 32): cut into blocks down to one sentence (or one
record), every output format gives the same bytes, the same report and the same first error as the input
read whole; an error in a later block leaves an existing output as it was."""
from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest

import ts_eval
from ts_eval import InputError, OptionError
from ts_eval.io import sink

SIZES = [1, 40, 300, None]     # block bytes: one sentence (record) a block, a few, some, one block
TARGETS = [("columns", ".conll"), ("jsonl-tokens", ".jsonl"), ("jsonl-text", ".jsonl"), ("brat", "")]

SENTENCES = [  # token, tag: a few sentences, one tag that IOB1 starts with I-, one odd token for the tokenizer
    [("John", "B-PER"), ("lives", "O"), ("in", "O"), ("New", "B-LOC"), ("York", "I-LOC"), (".", "O")],
    [("U.S.", "B-LOC"), ("New-York", "B-LOC"), ("EU", "B-ORG"), ("UN", "I-ORG")],
    [("nothing", "O"), ("here", "O")],
    [("Ann", "B-PER"), ("and", "O"), ("Bob", "B-PER"), ("Ltd", "B-ORG")],
    [("Über", "B-MISC"), ('"quoted"', "O"), ("back\\slash", "B-LOC")],
    [("x", "O")],
    [("Mary", "B-PER"), ("Smith", "I-PER"), ("went", "O"), ("to", "O"), ("Paris", "B-LOC"), ("today", "O")],
]
NESTED = [  # records with nested and crossing spans, ids, one without spans
    {"id": "g1", "tokens": ["the", "IL-2", "receptor", "alpha", "chain", "binds"],
     "spans": [{"start": 1, "end": 5, "label": "complex"}, {"start": 1, "end": 2, "label": "protein"},
               {"start": 1, "end": 4, "label": "protein"}]},
    {"id": "g2", "tokens": ["a", "b", "c", "d"], "spans": []},
    {"id": "g3", "tokens": ["a", "b", "c", "d"],
     "spans": [{"start": 0, "end": 3, "label": "X"}, {"start": 2, "end": 4, "label": "Y"},
               {"start": 0, "end": 3, "label": "Y"}]},
    {"id": "g4", "tokens": ["e", "U.S.", "g"], "spans": [{"start": 1, "end": 2, "label": "X"}]},
    {"id": "g5", "tokens": ["p", "q", "r", "s", "t"],
     "spans": [{"start": 0, "end": 5, "label": "X"}, {"start": 1, "end": 2, "label": "X"},
               {"start": 3, "end": 4, "label": "Z"}]},
]


def columns_file(path: Path, sentences: List[List[Tuple[str, str]]] = SENTENCES, docstart: bool = True) -> str:
    lines = ["-DOCSTART- O", ""] if docstart else []
    for sent in sentences:
        lines += [f"{tok} {tag}" for tok, tag in sent] + [""]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def jsonl_file(path: Path, records: List[Any]) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def contents(path: str) -> Any:
    """A file's bytes, or a folder's files and their bytes."""
    if os.path.isdir(path):
        return {f: Path(path, f).read_bytes() for f in sorted(os.listdir(path))}
    return Path(path).read_bytes()


def converted(src: str, dst: str, block_bytes: Optional[int], **options: Any) -> Tuple[Any, Any]:
    """The output written and the report (the output's name left out: each block size writes its own)."""
    rep = ts_eval.convert(src, dst, block_bytes=block_bytes, **options)
    report = rep.to_dict()
    assert report.pop("target") == dst
    return contents(dst), (report, [line.replace(dst, "DST") for line in rep.lines()])


def failure(src: str, dst: str, block_bytes: Optional[int], **options: Any) -> Tuple[type, str]:
    with pytest.raises((InputError, OptionError)) as err:
        ts_eval.convert(src, dst, block_bytes=block_bytes, **options)
    return type(err.value), str(err.value)


@pytest.mark.parametrize("to, ext", TARGETS)
def test_column_input_gives_the_same_output_and_report_in_blocks_of_any_size(tmp_path: Path, to: str,
                                                                             ext: str) -> None:
    src = columns_file(tmp_path / "in.conll")
    got = [converted(src, str(tmp_path / f"out{k}{ext}"), size, to_format=to) for k, size in enumerate(SIZES)]
    assert got[0][1][0]["documents"] == 7 and got[0][1][0]["spans"] == 12
    assert all(g == got[-1] for g in got)


@pytest.mark.parametrize("to, ext", [t for t in TARGETS if t[0] != "columns"])
def test_nested_spans_and_ids_give_the_same_output_and_report_in_blocks_of_any_size(tmp_path: Path, to: str,
                                                                                     ext: str) -> None:
    src = jsonl_file(tmp_path / "in.jsonl", NESTED)
    got = [converted(src, str(tmp_path / f"out{k}{ext}"), size, to_format=to) for k, size in enumerate(SIZES)]
    assert got[0][1][0]["source"]["nested"] == 5 and got[0][1][0]["source"]["crossing"] == 1
    assert all(g == got[-1] for g in got)


@pytest.mark.parametrize("scheme", ["IOB1", "IOBES", "BILOU"])
def test_outermost_lists_the_same_dropped_spans_in_blocks_of_any_size(tmp_path: Path, scheme: str) -> None:
    many = [dict(r, id=f"{r['id']}-{k}") for k in range(6) for r in NESTED]     # more dropped than are listed
    src = jsonl_file(tmp_path / "in.jsonl", many)
    got = [converted(src, str(tmp_path / f"out{k}.conll"), size, overlapping="outermost", scheme=scheme)
           for k, size in enumerate(SIZES)]
    report = got[0][1][0]
    # each copy drops the two protein spans of g1, both Y of g3, and X [1, 2) and Z of g5
    assert (report["dropped"], len(report["dropped_spans"]), report["ids_dropped"]) == (36, 20, 30)
    assert "  ... and 16 more" in got[0][1][1]
    assert all(g == got[-1] for g in got)


def test_compressed_and_standard_output_are_the_bytes_of_the_whole(tmp_path: Path,
                                                                  capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    src = columns_file(tmp_path / "in.conll", SENTENCES * 30)
    whole = converted(src, str(tmp_path / "whole.jsonl.gz"), None)[0]
    assert converted(src, str(tmp_path / "blocks.jsonl.gz"), 1)[0] == whole
    outs = []
    for size in (1, None):
        ts_eval.convert(src, "-", to_format="jsonl-tokens", block_bytes=size)
        outs.append(capsysbinary.readouterr().out)
    assert outs[0] == outs[1] == gzip.decompress(whole)


@pytest.mark.parametrize("size", SIZES)
def test_the_first_error_of_the_whole_at_any_block_size(tmp_path: Path, size: Optional[int]) -> None:
    nested = jsonl_file(tmp_path / "nested.jsonl", NESTED * 3)
    # overlapping spans: the first overlap, with the count of the whole input
    kind, msg = failure(nested, str(tmp_path / "x.conll"), size)
    assert kind is InputError and "document 'g1', line 1" in msg and "(18 spans overlap an earlier one)" in msg
    # a reading error in a later block comes before a writer's refusal in an earlier one
    bad = tmp_path / "bad.jsonl"
    bad.write_text(Path(nested).read_text() + '{"id": "z", "tokens": ["a"], "spans": [{"start": 0}]}\n')
    assert failure(str(bad), str(tmp_path / "y.conll"), size) == failure(str(bad), str(tmp_path / "y.conll"), None)
    assert "bad.jsonl:16: span" in failure(str(bad), str(tmp_path / "y.conll"), size)[1]
    # a token that holds a space: the earlier check (overlaps) first, wherever the two are
    spaced = [{"id": "s", "tokens": ["a b"], "spans": []}] + NESTED
    src = jsonl_file(tmp_path / "spaced.jsonl", spaced)
    assert "overlap" in failure(src, str(tmp_path / "z.conll"), size)[1]
    assert "holds whitespace" in failure(src, str(tmp_path / "z.conll"), size, overlapping="outermost")[1]
    # an option the writer refuses, after the reading error
    assert "bad.jsonl:16: span" in failure(str(bad), str(tmp_path / "w.conll"), size, scheme="NOPE")[1]
    assert not list(tmp_path.glob("?.conll")) and not list(tmp_path.glob(".*.tmp"))


def test_an_error_in_a_later_block_leaves_the_old_output_as_it_was(tmp_path: Path) -> None:
    src = columns_file(tmp_path / "in.conll", SENTENCES * 40 + [[("a", "B-X"), ("b", "Q-X")]])
    for to, ext in TARGETS:
        dst = tmp_path / f"old{ext or '.d'}"
        if to == "brat":
            dst.mkdir()
            (dst / "keep.txt").write_text("keep")
            (dst / "keep.ann").write_text("")
        else:
            dst.write_text("old")
        before = contents(str(dst))
        with pytest.raises(InputError, match=r"in\.conll:1324: bad tag 'Q-X'"):
            ts_eval.convert(src, str(dst), to_format=to, block_bytes=1)
        assert contents(str(dst)) == before
        assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
        if to == "brat":
            assert not [f for f in os.listdir(dst) if f.endswith(".tmp")]


def test_standard_output_holds_back_what_an_error_would_leave_half_written(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    src = columns_file(tmp_path / "in.conll", SENTENCES * 20 + [[("a", "B-X"), ("b", "Q-X")]])
    with pytest.raises(InputError):
        ts_eval.convert(src, "-", to_format="columns", block_bytes=1)
    assert capsysbinary.readouterr().out == b""      # held back: nothing written
    monkeypatch.setattr(sink, "HOLD_BYTES", 100)
    good = columns_file(tmp_path / "good.conll", SENTENCES * 20)
    ts_eval.convert(good, "-", to_format="columns", block_bytes=1)
    streamed = capsysbinary.readouterr().out
    ts_eval.convert(good, str(tmp_path / "good.out.conll"), to_format="columns")
    assert streamed == (tmp_path / "good.out.conll").read_bytes()


def test_brat_names_files_by_ids_only_when_every_id_is_a_safe_unique_name(tmp_path: Path) -> None:
    src = jsonl_file(tmp_path / "in.jsonl", NESTED)
    for size in (1, None):
        rep = ts_eval.convert(src, str(tmp_path / f"ids{size}/"), block_bytes=size, to_format="brat")
        assert sorted(os.listdir(tmp_path / f"ids{size}")) == sorted(
            f"g{k}{ext}" for k in range(1, 6) for ext in (".txt", ".ann")) + ["tools.conf"]
        assert rep.ids_dropped == 0
    twice = jsonl_file(tmp_path / "twice.jsonl", NESTED + [dict(NESTED[0])])
    got = [converted(twice, str(tmp_path / f"dup{k}/"), size, to_format="brat") for k, size in enumerate(SIZES)]
    assert "doc000006.ann" in got[0][0] and got[0][1][0]["ids_dropped"] == 6
    assert all(g == got[-1] for g in got)


def test_standard_output_replaced_by_a_text_stream_gets_the_text(tmp_path: Path) -> None:
    """A caller who points ``sys.stdout`` at a text stream (``io.StringIO``, a notebook, doctest) gets
    the written records there, as they are written to a file."""
    import contextlib
    import io
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"tokens": ["IL-2", "gene"], "spans": [{"start": 0, "end": 1, "label": "P"}]})
                   + "\n", encoding="utf-8")
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        ts_eval.convert(str(src), "-", to_format="jsonl-tokens")
    ts_eval.convert(str(src), str(tmp_path / "out.jsonl"), to_format="jsonl-tokens")
    assert captured.getvalue() == (tmp_path / "out.jsonl").read_text(encoding="utf-8")
    assert json.loads(captured.getvalue())["spans"] == [{"start": 0, "end": 1, "label": "P"}]


GERMEVAL = Path(__file__).parent / "fixtures" / "germeval"


@pytest.mark.parametrize("to, ext", TARGETS)
@pytest.mark.parametrize("side", ["gold", "system"])
def test_a_germeval_side_is_written_in_blocks_as_read_whole(tmp_path: Path, monkeypatch: Any, to: str, ext: str,
                                                           side: str) -> None:
    """A GermEval file is read a piece of whole sentences at a time like any other input (no whole read): the
    writer gets more than one block when the blocks are small, and the output and the report are the whole's."""
    from ts_eval.io import convert as conv

    blocks: List[int] = []
    write = conv._write

    def counted(each: Any, fmt: str, parts: Any, *args: Any) -> Any:
        parts = list(parts)
        blocks.append(len(parts))
        return write(each, fmt, parts, *args)

    monkeypatch.setattr(conv, "_write", counted)
    options = {"overlapping": "outermost"} if to == "columns" else {}
    for src in (GERMEVAL / "nested.tsv", GERMEVAL / "decoding.tsv"):
        got = [converted(str(src), str(tmp_path / f"{src.stem}{k}{ext}"), size, to_format=to, from_format="germeval",
                         side=side, **options) for k, size in enumerate(SIZES)]
        assert got[0][1][0]["spans"] > 0
        assert all(g == got[-1] for g in got), src
    n = len(SIZES)         # decoding.tsv's: a piece a sentence or two, or two (cut where the last chunk may end)
    assert blocks[n] > blocks[2 * n - 1] >= 1, blocks
