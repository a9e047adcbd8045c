"""The CLI's one loader (issue #10.3, #12): the column rule, the system-name rule, every reader
through every command, standard input and compression, and bad inputs (exit codes, file:line)."""
from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import sys
from pathlib import Path

import pytest
from support import fails as bad
from support import run_cli, write

# the same spans in every format: "John Smith lives in New York ." -- gold PER 0-1, LOC 4-5;
# system A finds PER 0-1 and LOC 5-5 (a boundary error); system B finds PER 0-0 and LOC 4-5
TOKENS = ["John", "Smith", "lives", "in", "New", "York", "."]
TEXT = "John Smith lives in New York ."
GOLD = ["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC", "O"]
SYS_A = ["B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]
SYS_B = ["B-PER", "O", "O", "O", "B-LOC", "I-LOC", "O"]
SPANS = {"gold": [(0, 2, "PER"), (4, 6, "LOC")], "a": [(0, 2, "PER"), (5, 6, "LOC")],
         "b": [(0, 1, "PER"), (4, 6, "LOC")]}
# exact match against gold: A 1 correct of 2, B 1 correct of 2
EXACT = {"a": 1, "b": 1}


def columns(*tag_lists) -> str:
    return "".join(" ".join([t, *tags]) + "\n" for t, *tags in zip(TOKENS, *tag_lists))


def char_spans(spans):
    starts = [TEXT.index(t, sum(len(x) + 1 for x in TOKENS[:k])) for k, t in enumerate(TOKENS)]
    return [(starts[b], starts[e - 1] + len(TOKENS[e - 1]), lab) for b, e, lab in spans]


def write_format(tmp_path, fmt: str, side: str) -> str:
    spans = SPANS[side]
    tags = {"gold": GOLD, "a": SYS_A, "b": SYS_B}[side]
    if fmt == "columns":
        return write(tmp_path / f"{side}.conll", columns(tags))
    if fmt == "jsonl-tokens":
        rec = {"id": "d1", "tokens": TOKENS, "spans": [{"start": b, "end": e, "label": lab} for b, e, lab in spans]}
        return write(tmp_path / f"{side}.jsonl", json.dumps(rec) + "\n")
    if fmt == "jsonl-text":
        rec = {"id": "d1", "text": TEXT, "spans": [{"start": b, "end": e, "label": lab}
                                                  for b, e, lab in char_spans(spans)]}
        return write(tmp_path / f"{side}.json", json.dumps(rec) + "\n")
    if fmt == "brat":
        d = tmp_path / side
        d.mkdir()
        (d / "d1.txt").write_text(TEXT)
        (d / "d1.ann").write_text("".join(f"T{k + 1}\t{lab} {b} {e}\t{TEXT[b:e]}\n"
                                          for k, (b, e, lab) in enumerate(char_spans(spans))))
        return str(d)
    if fmt == "conllu":
        rows = [f"{k + 1}\t{t}\t_\t_\t_\t_\t_\t_\t_\tNER={g}" for k, (t, g) in enumerate(zip(TOKENS, tags))]
        return write(tmp_path / f"{side}.conllu", "# sent_id = d1\n" + "\n".join(rows) + "\n\n")
    raise AssertionError(fmt)


def scores(capsys, argv):
    code, out, err = run_cli(argv + ["--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    return {s["name"]: s for s in d["systems"]}, d


# ---------------------------------------------------------------------------
# the column rule, the same for every command


@pytest.fixture
def wide(tmp_path):
    """TOKEN GOLD A B: four columns."""
    return write(tmp_path / "wide.conll", columns(GOLD, SYS_A, SYS_B))


def test_default_columns_are_conllevals_last_two(wide, capsys):
    systems, d = scores(capsys, ["score", wide])
    assert list(systems) == ["wide"] and d["settings"]["input"]["gold_col"] == 3
    assert systems["wide"]["exact"]["micro"]["tp"] == 0        # A's tags taken as gold, B's as the system


def test_gold_col_alone_makes_every_later_column_a_system(wide, capsys):
    for command in (["score"], ["compare"], ["rank", "--bootstrap", "0", "--permutations", "0"]):
        code, out, err = run_cli(command + [wide, "--gold-col", "2", "--format", "json"], capsys)
        assert code == 0, (command, err)
        d = json.loads(out)
        names = [s["name"] for s in d["systems"]]
        assert names == ["col3", "col4"], (command, names)
    systems, _ = scores(capsys, ["score", wide, "--gold-col", "2"])
    assert [s["exact"]["micro"]["tp"] for s in systems.values()] == [EXACT["a"], EXACT["b"]]


def test_system_col_alone_takes_gold_from_the_column_before(wide, capsys):
    systems, d = scores(capsys, ["score", wide, "--system-col", "3", "4"])
    assert d["settings"]["input"]["gold_col"] == 2 and list(systems) == ["col3", "col4"]
    systems, d = scores(capsys, ["score", wide, "--system-col", "-2"])     # A, gold before it
    assert d["settings"]["input"]["gold_col"] == 2 and systems["wide"]["exact"]["micro"]["tp"] == 1
    bad(capsys, ["score", wide, "--system-col", "1"], 2, "no column before the first system column")
    bad(capsys, ["score", wide, "--system-col", "-9"], 2, "column -9 does not exist", "4 columns")


def test_compare_and_rank_need_two_system_columns_by_default(wide, capsys):
    bad(capsys, ["compare", wide], 2, "at least two system columns", "--gold-col")
    bad(capsys, ["rank", wide], 2, "at least two systems", "--gold-col")


def test_two_file_mode_takes_the_last_column_and_names_files(tmp_path, capsys):
    gold = write(tmp_path / "gold.conll", columns(["x"] * 7, GOLD))
    (tmp_path / "runs").mkdir()
    a = tmp_path / "runs" / "crf.conll.gz"
    a.write_bytes(gzip.compress(columns(SYS_A).encode()))
    b = write(tmp_path / "runs" / "bert.txt", columns(SYS_B))
    systems, _ = scores(capsys, ["score", "--gold", gold, "--system", str(a), b])
    assert list(systems) == ["crf", "bert"]
    assert [s["exact"]["micro"]["tp"] for s in systems.values()] == [1, 1]


def test_the_same_name_twice_is_an_error_naming_both_files(tmp_path, capsys):
    gold = write(tmp_path / "gold.conll", columns(GOLD))
    for d in ("x", "y"):
        (tmp_path / d).mkdir()
    a = write(tmp_path / "x" / "out.conll", columns(SYS_A))
    b = write(tmp_path / "y" / "out.conll", columns(SYS_B))
    for argv in (["score", "--gold", gold, "--system", a, b], ["compare", "--gold", gold, a, b]):
        bad(capsys, argv, 2, "'out' is given twice", a, b, "--names")
    systems, _ = scores(capsys, ["score", "--gold", gold, "--system", a, b, "--names", "A", "B"])
    assert list(systems) == ["A", "B"]


def test_reading_options_are_shared_by_rank_and_compare(tmp_path, capsys):
    """-d, --outside-tag and --raw, once only for score, now for every command reading columns."""
    rows = "".join(f"{t}\t{g}\t{a}\t{b}\n" for t, g, a, b in zip(TOKENS, *[[x.replace("O", "NONE") if x == "O"
                                                                             else x for x in tags]
                                                                           for tags in (GOLD, SYS_A, SYS_B)]))
    path = write(tmp_path / "t.tsv", rows)
    opts = ["--gold-col", "2", "-d", "\\t", "--outside-tag", "NONE"]
    systems, _ = scores(capsys, ["score", path] + opts)
    code, out, err = run_cli(["compare", path] + opts + ["--format", "json"], capsys)
    assert code == 0, err
    assert [s["name"] for s in json.loads(out)["systems"]] == list(systems) == ["col3", "col4"]
    code, out, err = run_cli(["rank", path, "--bootstrap", "0", "--permutations", "0", "--format", "json"] + opts,
                             capsys)
    assert code == 0, err
    ranked = {s["name"]: s["models"]["exact-f1-micro"]["score"] for s in json.loads(out)["systems"]}
    assert ranked == pytest.approx({n: s["exact"]["micro"]["f"] for n, s in systems.items()})


# ---------------------------------------------------------------------------
# standard input and compression


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_stdin_column_file(tmp_path, wide, monkeypatch, capsys):
    expected, _ = scores(capsys, ["score", wide, "--gold-col", "2"])
    _stdin(monkeypatch, Path(wide).read_bytes())
    systems, d = scores(capsys, ["score", "-", "--gold-col", "2"])     # counting columns reads stdin once
    assert d["settings"]["input"]["file"] == "-"
    assert {n: s["exact"] for n, s in systems.items()} == {n: s["exact"] for n, s in expected.items()}
    _stdin(monkeypatch, gzip.compress(columns(GOLD).encode()))
    systems, d = scores(capsys, ["score", "--gold", "-", "--system", write_format(tmp_path, "columns", "a")])
    assert systems["a"]["exact"]["micro"]["tp"] == 1
    assert d["gold"]["path"] == "-"


def test_a_system_on_stdin_is_named_stdin_and_its_path_is_dash(monkeypatch, capsys):
    _stdin(monkeypatch, b"a B-PER B-PER\nb O O\n\n")
    systems, d = scores(capsys, ["score", "-"])
    assert list(systems) == ["stdin"] and systems["stdin"]["source"]["path"] == "-"
    assert d["gold"]["path"] == "-"


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress], ids=["gz", "bz2", "xz"])
def test_compressed_column_files(tmp_path, wide, capsys, compress):
    expected, _ = scores(capsys, ["score", wide, "--gold-col", "2"])
    packed = tmp_path / "packed.conll.z"
    packed.write_bytes(compress(Path(wide).read_bytes()))
    systems, _ = scores(capsys, ["score", str(packed), "--gold-col", "2"])    # columns counted after decompressing
    assert {n: s["ts"] for n, s in systems.items()} == {n: s["ts"] for n, s in expected.items()}


def test_truncated_compressed_file_and_empty_stdin(tmp_path, monkeypatch, capsys):
    f = tmp_path / "t.conll.xz"
    f.write_bytes(lzma.compress(columns(GOLD, SYS_A).encode())[:-8])
    bad(capsys, ["score", str(f)], 1, str(f), "truncated or corrupt xz")
    _stdin(monkeypatch, b"")
    bad(capsys, ["score", "-"], 1, "<stdin>", "empty")


# ---------------------------------------------------------------------------
# every reader through every command

FORMATS = ["columns", "jsonl-tokens", "jsonl-text", "brat", "conllu"]


@pytest.fixture
def reference(tmp_path_factory, capsys):
    tmp = tmp_path_factory.mktemp("ref")
    gold, a, b = (write_format(tmp, "columns", s) for s in ("gold", "a", "b"))
    systems, _ = scores(capsys, ["score", "--gold", gold, "--system", a, b])
    return {n: (s["exact"]["micro"], s["ts"]["micro"]) for n, s in systems.items()}


@pytest.mark.parametrize("gold_fmt", FORMATS)
@pytest.mark.parametrize("sys_fmt", ["jsonl-tokens", "jsonl-text", "brat", "conllu"])
def test_score_is_the_same_whatever_the_formats(tmp_path, capsys, reference, gold_fmt, sys_fmt):
    (tmp_path / "g").mkdir()
    (tmp_path / "s").mkdir()
    gold = write_format(tmp_path / "g", gold_fmt, "gold")
    a, b = (write_format(tmp_path / "s", sys_fmt, s) for s in ("a", "b"))
    systems, _ = scores(capsys, ["score", "--gold", gold, "--system", a, b])
    assert list(systems) == ["a", "b"]
    for n, s in systems.items():
        exact, ts = reference[n]
        assert s["exact"]["micro"]["tp"] == exact["tp"] and s["exact"]["micro"]["f"] == exact["f"]
        assert s["ts"]["micro"]["f"] == pytest.approx(ts["f"])


@pytest.mark.parametrize(("gold_fmt", "sys_fmt", "scheme", "expected"), [
    ("jsonl-tokens", "columns", [], "scheme IOB2, policy conlleval, "),          # the system's tags were decoded
    ("jsonl-tokens", "columns", ["--scheme", "auto"], "scheme IOB2 (detected), policy conlleval, "),
    ("columns", "jsonl-text", ["--policy", "strict"], "scheme IOB2, policy strict, "),   # gold's tags were
    ("jsonl-tokens", "jsonl-text", [], ""),                     # spans on both sides: no scheme, no policy
])
def test_the_summary_names_the_scheme_and_policy_only_when_tags_were_decoded(tmp_path, capsys, gold_fmt, sys_fmt,
                                                                            scheme, expected):
    (tmp_path / "g").mkdir()
    gold, a = write_format(tmp_path / "g", gold_fmt, "gold"), write_format(tmp_path, sys_fmt, "a")
    code, out, err = run_cli(["score", "--gold", gold, a, *scheme], capsys)
    assert code == 0, err
    assert f"labels: LOC, PER; {expected}separator weight 1, beta 1" in out
    assert "None" not in out
    _, report = scores(capsys, ["score", "--gold", gold, a, *scheme])
    st = report["settings"]
    if expected:
        assert st["scheme"] == "IOB2" and st["policy"] in ("conlleval", "strict")
        assert st["scheme_requested"] == ("auto" if scheme[1:] == ["auto"] else "IOB2")
    else:
        assert st["scheme"] is st["policy"] is st["scheme_requested"] is None


def test_rank_and_compare_read_other_formats(tmp_path, capsys, reference):
    gold, a, b = (write_format(tmp_path, "jsonl-tokens", s) for s in ("gold", "a", "b"))
    code, out, err = run_cli(["rank", "--gold", gold, a, b, "--bootstrap", "0", "--permutations", "0",
                              "--format", "json"], capsys)
    assert code == 0, err
    ranked = {s["name"]: s["models"]["exact-f1-micro"]["score"] for s in json.loads(out)["systems"]}
    assert ranked == pytest.approx({n: e["f"] for n, (e, _) in reference.items()})
    code, out, err = run_cli(["compare", "--gold", gold, a, b, "--format", "json"], capsys)
    assert code == 0, err
    assert [s["name"] for s in json.loads(out)["systems"]] == ["a", "b"]


def test_rank_keeps_a_brat_directory_whole(tmp_path, capsys, reference):
    gold, a, b = (write_format(tmp_path, "brat", s) for s in ("gold", "a", "b"))
    code, out, err = run_cli(["rank", "--gold", gold, a, b, "--bootstrap", "0", "--permutations", "0",
                              "--format", "json"], capsys)
    assert code == 0, err
    assert sorted(s["name"] for s in json.loads(out)["systems"]) == ["a", "b"]


def test_input_format_forces_a_reader(tmp_path, capsys, reference):
    gold = write_format(tmp_path, "columns", "gold")
    a = write_format(tmp_path, "jsonl-tokens", "a")
    odd = tmp_path / "a.data"
    odd.write_text(Path(a).read_text())
    systems, _ = scores(capsys, ["score", "--gold", gold, "--system", str(odd), "--gold-format", "columns",
                                 "--input-format", "jsonl-tokens"])
    assert systems["a"]["exact"]["micro"]["tp"] == reference["a"][0]["tp"]
    # --input-format is every input's format, gold's too unless --gold-format says otherwise
    bad(capsys, ["score", "--gold", gold, "--system", str(odd), "--input-format", "conllu"], 1, f"{gold}:1",
        "expected 10")
    bad(capsys, ["score", "--gold", gold, "--system", str(odd), "--input-format", "conllu", "--gold-format",
                 "columns"], 1, f"{odd}:1")


def test_reader_options_reach_the_readers(tmp_path, capsys):
    gold = write_format(tmp_path, "brat", "gold")
    (tmp_path / "gold" / "d1.ann").write_text("T1\tPER 0 4;11 16\tJohn lives\n")
    sys_ = write_format(tmp_path, "jsonl-tokens", "a")
    bad(capsys, ["score", "--gold", gold, "--system", sys_], 1, "d1.ann:1", "discontinuous")
    systems, _ = scores(capsys, ["score", "--gold", gold, "--system", sys_, "--discontinuous", "first"])
    assert systems["a"]["exact"]["micro"]["tp"] == 0 and systems["a"]["exact"]["micro"]["gold"] == 1
    names = write(tmp_path / "names.json", json.dumps(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]))
    ids = {"O": 0, "B-PER": 1, "I-PER": 2, "B-LOC": 3, "I-LOC": 4}
    hf = write(tmp_path / "hf.jsonl", json.dumps({"id": "d1", "tokens": TOKENS, "ner_tags": [ids[t] for t in SYS_A]})
               + "\n")
    g = write_format(tmp_path, "columns", "gold")
    bad(capsys, ["score", "--gold", g, "--system", hf], 1, hf, "tag_names")
    systems, _ = scores(capsys, ["score", "--gold", g, "--system", hf, "--tag-names", names])
    assert systems["hf"]["exact"]["micro"]["tp"] == 1


# ---------------------------------------------------------------------------
# bad inputs and options


def test_bad_json_lines_name_file_and_line(tmp_path, capsys):
    gold = write_format(tmp_path, "columns", "gold")
    broken = write(tmp_path / "broken.jsonl", json.dumps({"id": "d1", "tokens": TOKENS, "spans": []}) + "\n{oops\n")
    bad(capsys, ["score", "--gold", gold, "--system", broken], 1, f"{broken}:2")
    missing = write(tmp_path / "missing.jsonl", json.dumps({"id": "d1", "tokens": TOKENS,
                                                            "spans": [{"start": 0, "label": "PER"}]}) + "\n")
    bad(capsys, ["score", "--gold", gold, "--system", missing], 1, f"{missing}:1")
    outside = write(tmp_path / "outside.jsonl", json.dumps({"id": "d1", "tokens": TOKENS,
                                                            "spans": [{"start": 5, "end": 9, "label": "X"}]}) + "\n")
    bad(capsys, ["score", "--gold", gold, "--system", outside], 1, outside)


def test_brat_ann_without_txt(tmp_path, capsys):
    gold = write_format(tmp_path, "brat", "gold")
    sys_ = write_format(tmp_path, "brat", "a")
    (tmp_path / "a" / "d1.txt").unlink()
    bad(capsys, ["score", "--gold", gold, "--system", sys_], 1, "d1.ann", "no d1.txt")


def test_column_options_with_other_formats_and_one_file_of_another_format(tmp_path, capsys):
    gold, a = (write_format(tmp_path, "jsonl-tokens", s) for s in ("gold", "a"))
    bad(capsys, ["score", "--gold", gold, "--system", a, "--token-col", "2"], 2, "--token-col", "column files")
    bad(capsys, ["score", "--gold", gold, "--system", a, "--raw"], 2, "--raw")
    bad(capsys, ["score", a], 2, "jsonl-tokens", "--gold")
    code, _, err = run_cli(["score", "--gold", gold, "--system", a, "--input-format", "xml"], capsys)
    assert code == 2 and "invalid choice: 'xml'" in err


def test_documents_that_differ_between_gold_and_system(tmp_path, capsys):
    gold = write_format(tmp_path, "jsonl-text", "gold")
    other = write(tmp_path / "other.json", json.dumps({"id": "d1", "text": "Mary lives here .", "spans": []}) + "\n")
    # both sides have texts: the texts are compared (the tokens come from them)
    bad(capsys, ["score", "--gold", gold, "--system", other], 1, other, "document 'd1'",
        "the text differs from the gold document 'd1'", "'Mary lives' vs gold 'John Smith'",
        "expected the same text for the same document")


# ---------------------------------------------------------------------------
# the command registry


def test_every_command_is_offered_and_a_broken_module_is_an_error(monkeypatch, capsys):
    from ts_eval.cli import app

    code, out, _ = run_cli(["--help"], capsys)
    assert code == 0
    for command in ("score", "demo", "fair", "rank", "compare", "germeval"):
        assert command in out
    monkeypatch.setitem(app.COMMANDS, "broken", "no_such_module")
    with pytest.raises(ImportError):
        app.main(["score", "--help"])
