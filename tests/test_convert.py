"""Writers and ts_eval.convert (#12.7): round trips between every pair of formats, every IOB
scheme, property tests, and the errors for what a target cannot hold."""
from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ts_eval
from ts_eval import InputError, OptionError
from ts_eval.io.documents import build_documents
from ts_eval.io.writing import same_spans

FORMATS = ["columns", "jsonl-tokens", "jsonl-text", "brat"]
SCHEMES = ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"]
EXT = {"columns": ".conll", "jsonl-tokens": ".jsonl", "jsonl-text": ".jsonl", "brat": ""}

FLAT = [
    {"id": "d1", "tokens": ["John", "lives", "in", "New", "York", "."],
     "spans": [{"start": 0, "end": 1, "label": "PER"}, {"start": 3, "end": 5, "label": "LOC"}]},
    {"id": "d2", "tokens": ["U.S.", "New-York", "EU", "UN", "Bonn"],   # tokens the default tokenizer splits
     "spans": [{"start": 0, "end": 1, "label": "LOC"}, {"start": 1, "end": 2, "label": "LOC"},
               {"start": 2, "end": 3, "label": "ORG"}, {"start": 3, "end": 4, "label": "ORG"}]},
    {"id": "d3", "tokens": ["nothing", "here"], "spans": []},
]
NESTED = [  # GENIA-like: a protein inside a protein complex, same-label nesting, crossing spans
    {"id": "g1", "tokens": ["the", "IL-2", "receptor", "alpha", "chain", "binds"],
     "spans": [{"start": 1, "end": 5, "label": "complex"}, {"start": 1, "end": 2, "label": "protein"},
               {"start": 1, "end": 4, "label": "protein"}]},
    {"id": "g2", "tokens": ["a", "b", "c", "d"],
     "spans": [{"start": 0, "end": 3, "label": "X"}, {"start": 2, "end": 4, "label": "Y"},
               {"start": 0, "end": 3, "label": "Y"}]},
]


def jsonl(tmp_path, records, name="in.jsonl"):
    p = tmp_path / name
    p.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(p)


def out(tmp_path, fmt, tag=""):
    return str(tmp_path / f"out{tag}-{fmt}{EXT[fmt]}")


@pytest.mark.parametrize("src_fmt", FORMATS)
@pytest.mark.parametrize("dst_fmt", FORMATS)
def test_round_trip_between_every_pair_of_formats(tmp_path, src_fmt, dst_fmt):
    orig = ts_eval.read(jsonl(tmp_path, FLAT))
    src = out(tmp_path, src_fmt, "src")
    assert ts_eval.convert(orig, src, to_format=src_fmt, verify=True).verified
    first = ts_eval.read(src, format=src_fmt)
    dst = out(tmp_path, dst_fmt, "dst")
    rep = ts_eval.convert(src, dst, from_format=src_fmt, to_format=dst_fmt, verify=True)
    assert rep.verified and rep.lossless and rep.written == rep.spans == 6
    back = ts_eval.read(dst, format=dst_fmt)
    if "columns" not in (src_fmt, dst_fmt):   # columns keep no ids; the rest pair by id
        assert same_spans(orig, back) is None
    assert same_spans(first, back) is None
    assert back.tokens(1) == ["U.S.", "New-York", "EU", "UN", "Bonn"]


@pytest.mark.parametrize("dst_fmt", ["jsonl-tokens", "jsonl-text", "brat"])
def test_nested_spans_round_trip_where_the_format_holds_them(tmp_path, dst_fmt):
    orig = ts_eval.read(jsonl(tmp_path, NESTED))
    assert orig.summary()["nested"] == 3 and orig.summary()["crossing"] == 1
    dst = out(tmp_path, dst_fmt)
    rep = ts_eval.convert(orig, dst, to_format=dst_fmt, verify=True)
    assert rep.verified and rep.lossless and rep.written == 6
    assert same_spans(orig, ts_eval.read(dst, format=dst_fmt)) is None


def test_nested_into_one_iob_column_is_refused_naming_document_and_spans(tmp_path):
    src = jsonl(tmp_path, NESTED)
    with pytest.raises(InputError) as err:
        ts_eval.convert(src, str(tmp_path / "x.conll"))
    msg = str(err.value)
    assert "\n" not in msg and "document 'g1'" in msg
    assert "'complex' over tokens [1, 5)" in msg and "'protein' over tokens [1, 4)" in msg
    assert "4 spans overlap" in msg and "overlapping='outermost'" in msg
    assert not os.path.exists(tmp_path / "x.conll")


def test_outermost_keeps_outer_spans_and_lists_the_dropped(tmp_path):
    rep = ts_eval.convert(jsonl(tmp_path, NESTED), str(tmp_path / "x.conll"), overlapping="outermost",
                          verify=True)
    assert rep.verified and not rep.lossless
    assert (rep.spans, rep.written, rep.dropped) == (6, 2, 4)
    got = {(d["document"], d["start"], d["end"], d["label"]) for d in rep.dropped_spans}
    assert got == {("document 'g1', line 1", 1, 2, "protein"), ("document 'g1', line 1", 1, 4, "protein"),
                   ("document 'g2', line 2", 0, 3, "Y"), ("document 'g2', line 2", 2, 4, "Y")}
    assert rep.ids_dropped == 2
    assert (tmp_path / "x.conll").read_text().split("\n")[:6] == [
        "the O", "IL-2 B-complex", "receptor I-complex", "alpha I-complex", "chain I-complex", "binds O"]
    assert any("dropped 4 spans" in line for line in rep.lines())


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_scheme_writes_the_tags_it_defines(tmp_path, scheme):
    docs = build_documents("t", "test", [5], [None], ["a\x1fb\x1fc\x1fd\x1fe"], [0, 0, 0], [0, 1, 3], [1, 3, 5],
                           ["A", "A", "B"])
    dst = str(tmp_path / "x.conll")
    ts_eval.convert(docs, dst, scheme=scheme)
    tags = [line.split(" ")[1] for line in Path(dst).read_text().split("\n") if line]
    want = {"IOB2": "B-A B-A I-A B-B I-B", "IOB1": "I-A B-A I-A I-B I-B", "IOE1": "E-A I-A I-A I-B I-B",
            "IOE2": "E-A I-A E-A I-B E-B", "IOBES": "S-A B-A E-A B-B E-B", "BILOU": "U-A B-A L-A B-B L-B"}
    assert " ".join(tags) == want[scheme]
    assert same_spans(docs, ts_eval.read(dst, scheme=scheme)) is None


def test_io_cannot_separate_adjacent_spans_of_one_label(tmp_path):
    docs = build_documents("t", "test", [3], [None], ["a\x1fb\x1fc"], [0, 0], [0, 1], [1, 3], ["A", "A"])
    with pytest.raises(InputError, match=r"\[0, 1\) cannot be told from its neighbour in scheme IO"):
        ts_eval.convert(docs, str(tmp_path / "x.conll"), scheme="IO")
    ok = build_documents("t", "test", [3], [None], ["a\x1fb\x1fc"], [0, 0], [0, 2], [1, 3], ["A", "A"])
    assert ts_eval.convert(ok, str(tmp_path / "y.conll"), scheme="IO", verify=True).verified


doc_strategy = st.lists(st.integers(1, 7), min_size=1, max_size=5).flatmap(
    lambda lens: st.tuples(st.just(lens), st.lists(
        st.tuples(st.integers(0, len(lens) - 1), st.integers(0, 6), st.integers(1, 4), st.sampled_from("ABC")),
        max_size=8)))


def _docs(lens, raw, flat):
    seen, spans = set(), []
    taken = {}
    for d, b, n, lab in raw:
        b = min(b, lens[d] - 1)
        e = min(b + n, lens[d])
        if (d, b, e, lab) in seen:
            continue
        if flat and any(not (e <= b2 or e2 <= b) for b2, e2 in taken.get(d, [])):
            continue
        seen.add((d, b, e, lab))
        taken.setdefault(d, []).append((b, e))
        spans.append((d, b, e, lab))
    keys = ["\x1f".join(f"w{d}_{k}" for k in range(n)) for d, n in enumerate(lens)]
    return build_documents("gen", "test", lens, [None] * len(lens), keys, [s[0] for s in spans],
                           [s[1] for s in spans], [s[2] for s in spans], [s[3] for s in spans])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(doc_strategy, st.sampled_from(SCHEMES))
def test_property_flat_spans_survive_every_scheme(tmp_path_factory, data, scheme):
    docs = _docs(*data, flat=True)
    dst = str(tmp_path_factory.mktemp("p") / "x.conll")
    ts_eval.convert(docs, dst, scheme=scheme)
    assert same_spans(docs, ts_eval.read(dst, scheme=scheme)) is None


@settings(max_examples=30, deadline=None)
@given(doc_strategy, st.sampled_from(["jsonl-tokens", "jsonl-text", "brat"]))
def test_property_any_spans_survive_span_formats(tmp_path_factory, data, fmt):
    docs = _docs(*data, flat=False)
    dst = str(tmp_path_factory.mktemp("p") / ("x" if fmt == "brat" else "x.jsonl"))
    ts_eval.convert(docs, dst, to_format=fmt)
    assert same_spans(docs, ts_eval.read(dst, format=fmt)) is None


@pytest.mark.parametrize("ext,opener", [(".gz", gzip.open), (".bz2", bz2.open), (".xz", lzma.open)])
def test_compressed_output_by_extension(tmp_path, ext, opener):
    dst = str(tmp_path / f"x.jsonl{ext}")
    ts_eval.convert(jsonl(tmp_path, FLAT), dst)
    with opener(dst, "rt", encoding="utf-8") as fh:
        assert json.loads(fh.readline())["tokens"][0] == "John"
    assert same_spans(ts_eval.read(jsonl(tmp_path, FLAT)), ts_eval.read(dst)) is None


def test_dash_writes_standard_output(tmp_path, capsys):
    rep = ts_eval.convert(jsonl(tmp_path, FLAT[:1]), "-", to_format="columns", scheme="BILOU")
    assert capsys.readouterr().out == "John U-PER\nlives O\nin O\nNew B-LOC\nYork L-LOC\n. O\n\n"
    assert rep.target == "-" and rep.ids_dropped == 1


def test_text_output_from_tokens_joins_with_spaces_and_keeps_token_offsets_where_needed(tmp_path):
    dst = str(tmp_path / "t.jsonl")
    rep = ts_eval.convert(jsonl(tmp_path, FLAT), dst, to_format="jsonl-text")
    recs = [json.loads(x) for x in Path(dst).read_text().splitlines()]
    assert recs[0] == {"id": "d1", "text": "John lives in New York .",
                       "spans": [{"start": 0, "end": 4, "label": "PER"}, {"start": 14, "end": 22, "label": "LOC"}]}
    assert "tokens" in recs[1] and recs[1]["tokens"][1] == {"start": 5, "end": 13}   # New-York: one token
    assert "tokens" not in recs[2]
    assert "token offsets written for 1 of 3 documents" in " ".join(rep.notes)


def test_brat_output_files_and_tools_conf(tmp_path):
    dst = str(tmp_path / "brat")
    ts_eval.convert(jsonl(tmp_path, FLAT), dst, to_format="brat")
    assert sorted(os.listdir(dst)) == ["d1.ann", "d1.txt", "d2.ann", "d2.txt", "d3.ann", "d3.txt", "tools.conf"]
    assert Path(dst, "d1.ann").read_text() == "T1\tPER 0 4\tJohn\nT2\tLOC 14 22\tNew York\n"
    assert "tokenizer:whitespace" in Path(dst, "tools.conf").read_text()
    # without tools.conf the default tokenizer splits U.S. and New-York: the reader follows brat's config
    assert ts_eval.read(dst, format="brat", tokenizer="default").tokens(1)[:3] == ["U", ".", "S"]


def test_brat_refuses_tokens_no_tokenizer_gives_back(tmp_path):
    rec = {"id": "x", "text": "ab cd", "tokens": [{"start": 0, "end": 1}, {"start": 1, "end": 2},
                                                    {"start": 3, "end": 5}], "spans": []}
    with pytest.raises(InputError, match="brat keeps no token offsets"):
        ts_eval.convert(jsonl(tmp_path, [rec]), str(tmp_path / "b"), to_format="brat")
    assert ts_eval.convert(jsonl(tmp_path, [rec]), str(tmp_path / "t.jsonl"), verify=True).verified


def test_token_with_whitespace_cannot_go_to_columns(tmp_path):
    src = jsonl(tmp_path, [{"tokens": ["New York", "x"], "spans": []}])
    with pytest.raises(InputError, match=r"document 1, line 1: token 0 'New York' is empty or holds whitespace"):
        ts_eval.convert(src, str(tmp_path / "x.conll"))


def test_unwritable_path_is_a_one_line_error(tmp_path):
    bad = str(tmp_path / "no" / "such" / "dir" / "x.conll")
    with pytest.raises(InputError) as err:
        ts_eval.convert(jsonl(tmp_path, FLAT), bad)
    assert str(err.value).startswith(bad + ": cannot write the output:") and "\n" not in str(err.value)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(InputError, match="cannot create the directory"):
        ts_eval.convert(jsonl(tmp_path, FLAT), str(blocker / "sub"), to_format="brat")


def test_bad_options(tmp_path):
    src = jsonl(tmp_path, FLAT)
    with pytest.raises(OptionError, match="cannot tell the output format"):
        ts_eval.convert(src, str(tmp_path / "x.weird"))
    with pytest.raises(OptionError, match="to_format='xml': expected one of"):
        ts_eval.convert(src, str(tmp_path / "x.conll"), to_format="xml")
    with pytest.raises(OptionError, match="scheme 'IOX'"):
        ts_eval.convert(src, str(tmp_path / "x.conll"), scheme="IOX")
    with pytest.raises(OptionError, match="overlapping 'inner'"):
        ts_eval.convert(src, str(tmp_path / "x.conll"), overlapping="inner")


def test_scores_identical_whichever_format(tmp_path):
    gold = ts_eval.read(jsonl(tmp_path, NESTED, "g.jsonl"))
    sys_recs = [dict(NESTED[0], spans=NESTED[0]["spans"][:1] + [{"start": 2, "end": 3, "label": "protein"}]),
                dict(NESTED[1], spans=[{"start": 0, "end": 3, "label": "X"}])]
    system = ts_eval.read(jsonl(tmp_path, sys_recs, "s.jsonl"))
    models = ("ts", "exact", "overlap", "contain", "fair")
    base = ts_eval.score(ts_eval.read(gold, {"s": system}), models=models).systems[0]
    for fmt in ["jsonl-tokens", "jsonl-text", "brat"]:
        g, s = out(tmp_path, fmt, "g"), out(tmp_path, fmt, "s")
        ts_eval.convert(gold, g, to_format=fmt)
        ts_eval.convert(system, s, to_format=fmt)
        got = ts_eval.score(ts_eval.read(g, {"s": s}), models=models).systems[0]
        assert {k: v for k, v in got.items() if k != "source"} == {k: v for k, v in base.items() if k != "source"}


def test_germeval_both_levels_as_documents(tmp_path):
    from ts_eval.io.germeval import read_germeval_side
    path = os.path.join(os.path.dirname(__file__), "fixtures", "germeval", "nested.tsv")
    gold = read_germeval_side(path, "gold")
    assert gold.notes["levels"] == ["outer", "inner"]
    spans = {(int(a), int(b), gold.labels[c]) for a, b, c in zip(gold.start, gold.last, gold.label)}
    assert (20, 24, "OTH") in spans and (20, 20, "LOC") in spans   # an inner LOC inside an outer OTH
    assert (gold.summary()["spans"], gold.summary()["nested"]) == (7, 1)
    rep = ts_eval.convert(path, str(tmp_path / "g.jsonl"), from_format="germeval", verify=True)
    assert rep.verified and rep.written == len(gold.start)
    with pytest.raises(OptionError):
        read_germeval_side(path, "both")


def test_whitespace_tokenizer_option_of_the_text_readers(tmp_path):
    from ts_eval.io.tokenizer import tokenize
    off, ts, te = tokenize(["U.S. New-York", " a  b "], "whitespace")
    assert off.tolist() == [0, 2, 4] and ts.tolist() == [0, 5, 1, 4] and te.tolist() == [4, 13, 2, 5]
    with pytest.raises(ValueError, match="tokenizer 'spaces'"):
        tokenize(["x"], "spaces")
    src = jsonl(tmp_path, [{"id": "a", "text": "U.S. New-York", "spans": [{"start": 5, "end": 13, "label": "LOC"}]}])
    assert ts_eval.read(src, tokenizer="whitespace").tokens(0) == ["U.S.", "New-York"]
    assert ts_eval.read(src).tokens(0) == ["U", ".", "S", ".", "New", "-", "York"]


def test_side_is_for_germeval_input_only(tmp_path):
    with pytest.raises(OptionError, match="side='system': applies to from_format='germeval' only"):
        ts_eval.convert(jsonl(tmp_path, FLAT), str(tmp_path / "x.jsonl"), side="system")


def test_brat_refuses_a_directory_with_other_documents(tmp_path):
    dst = tmp_path / "b"
    dst.mkdir()
    (dst / "old.txt").write_text("x")
    with pytest.raises(InputError, match=r"b: holds 1 other .txt/.ann files \(e.g. old.txt\)"):
        ts_eval.convert(jsonl(tmp_path, FLAT), str(dst), to_format="brat")
    (dst / "old.txt").unlink()
    ts_eval.convert(jsonl(tmp_path, FLAT), str(dst), to_format="brat")
    assert ts_eval.convert(jsonl(tmp_path, FLAT), str(dst), to_format="brat", verify=True).verified  # rewrite
