"""``ts-eval score --gold G S.jsonl --generated ...`` reads a generated output (entity strings with labels,
no offsets) in blocks of records, placed on each block of gold's documents by the one joiner
(:class:`ts_eval.io.generated.GeneratedFeed`, :mod:`ts_eval.io.join`): every output is byte for byte what
reading the files whole gives, for blocks down to one document, with ids and without, in the three modes
(fuzzy where rapidfuzz is installed), also what grounding reports over the whole file (ungrounded examples,
labels outside gold's); records with ids in another order give the report of the records in order; bad
records give the same message, file and line at every block size."""
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest
from streamed import blocks_of, run, same_error, whole_and_streamed

from ts_eval.io import grounding
from ts_eval.io.inputs import Inputs

LABELS = ["PER", "LOC", "ORG", "MISC"]
FORMATS = ["json", "table", "csv", "markdown", "latex", "html"]


def corpus(seed: int, n: int = 60, late_label: str = "MISC") -> Tuple[List[Dict[str, Any]], List[List[List[str]]]]:
    """Gold records (texts with spans) and each record's entity strings ([text, label]): strings found
    once, twice, nowhere, with punctuation, repeated, of labels gold does not have; ``late_label`` occurs in
    gold only in the last documents (a label outside gold's in the first blocks, not over the whole file)."""
    rnd = random.Random(seed)
    gold, gen = [], []
    for d in range(n):
        toks = [rnd.choice(["Paris", "Obama", "Apple", "Inc", "the", "and", "U.S.", f"w{d}", "x", "."])
                for _ in range(rnd.randint(1, 12))]
        at = [sum(len(t) + 1 for t in toks[:k]) for k in range(len(toks) + 1)]
        spans: Dict[Tuple[int, int], str] = {}
        ents: List[List[str]] = []
        for _ in range(rnd.randint(0, 4)):
            b = rnd.randrange(len(toks))
            e = min(len(toks), b + rnd.randint(1, 3))
            lab = rnd.choice(LABELS)
            if lab != late_label or d >= n - 3:
                spans[(b, e)] = lab
            text = " ".join(toks[b:e])
            roll = rnd.random()
            if roll < 0.1:
                text = "the " + text + ","
            elif roll < 0.15:
                text = text.lower()
            elif roll < 0.2:
                text = f"nowhere{d}"
            elif roll < 0.25:
                text = text[:-1] + "q" if len(text) > 3 else text       # near, for fuzzy
            ents.append([text, rnd.choice(["ODD", "PRODUCT"]) if rnd.random() < 0.1 else lab])
            if rnd.random() < 0.1:
                ents.append(list(ents[-1]))      # a repeat
        if d == n - 1:
            spans[(0, 1)] = late_label
        gold.append({"id": f"d{d}", "text": " ".join(toks),
                     "spans": [{"start": at[b], "end": at[e] - 1, "label": lab} for (b, e), lab in spans.items()]})
        gen.append(ents)
    return gold, gen


def records(gen: List[List[List[str]]], shape: str, ids: Optional[List[str]] = None) -> str:
    out = []
    for k, ents in enumerate(gen):
        if shape == "pairs":
            value: Any = ents
        elif shape == "objects":
            value = [{"text": t, "label": lab} for t, lab in ents]
        else:
            by: Dict[str, List[str]] = {}
            for t, lab in ents:
                by.setdefault(lab, []).append(t)
            value = by
        out.append(json.dumps(value if ids is None else {"id": ids[k], "entities": value}))
    return "\n".join(out) + "\n"


def write(tmp, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def files(tmp, seed: int, shape: str = "pairs", with_ids: bool = True, n: int = 60) -> Tuple[str, str]:
    gold, gen = corpus(seed, n)
    ids = [g["id"] for g in gold] if with_ids else None
    return (write(tmp, "gold.jsonl", "".join(json.dumps(g) + "\n" for g in gold)),
            write(tmp, "gen.jsonl", records(gen, shape, ids)))


def streamed_same(argv: List[str], block_bytes: int) -> Tuple[int, str, str]:
    """``argv``'s run read whole and in blocks: the same; the streamed run read in blocks."""
    whole, streamed, seen = whole_and_streamed(argv, block_bytes=block_bytes)
    assert len(seen) == 1 and seen[0] > (1 if block_bytes < 400 else 0), seen
    assert streamed == whole
    return whole


def modes() -> List[str]:
    try:
        import rapidfuzz  # noqa: F401
    except ImportError:
        return ["ground", "strings"]
    return ["ground", "strings", "fuzzy"]


@pytest.mark.parametrize("mode", ["ground", "strings", "fuzzy"])
@pytest.mark.parametrize("with_ids", [True, False])
@pytest.mark.parametrize("block_bytes", [1, 150, 1 << 20])
def test_generated_outputs_in_blocks_give_the_report_of_the_whole_files(tmp_path, mode, with_ids, block_bytes):
    if mode not in modes():
        pytest.skip("fuzzy needs rapidfuzz")
    gold, gen = files(tmp_path, 7 + with_ids, with_ids=with_ids)
    argv = ["score", "--gold", gold, gen, "--generated", mode, "--format", "json"]
    if mode != "strings":
        argv += ["--models", "ts,exact,overlap,fair,semeval,strings"]
    rc, out, _ = streamed_same(argv, block_bytes)
    assert rc == 0
    g = json.loads(out)["systems"][0]["source"]["reading"]["generated"]
    assert g["records"] == 60 and g["ungrounded"] > 0 and g["duplicates"] > 0
    assert g["outside_label_names"] == ["ODD", "PRODUCT"]     # MISC: only in gold's last documents


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_output_format_is_the_same(tmp_path, fmt):
    gold, gen = files(tmp_path, 3, shape="objects")
    rc, out, _ = streamed_same(["score", "--gold", gold, gen, "--format", fmt, "--details"], 1)
    assert rc == 0 and out


@pytest.mark.parametrize("options", [["--ground", "all"], ["--normalize", "universalner"],
                                     ["--normalize", "case,punct", "--generated", "strings"],
                                     ["--map-label", "MISC=ODD"], ["--labels", "PER,LOC"]])
@pytest.mark.parametrize("shape", ["pairs", "by-label"])
def test_the_options_of_generated_outputs(tmp_path, options, shape):
    gold, gen = files(tmp_path, 11, shape=shape)
    assert streamed_same(["score", "--gold", gold, gen, *options, "--format", "json"], 90)[0] == 0


def test_more_ungrounded_strings_than_the_examples_keep(tmp_path, monkeypatch):
    monkeypatch.setattr(grounding, "EXAMPLES", 3)
    gold, gen = files(tmp_path, 5, n=120)
    rc, out, _ = streamed_same(["score", "--gold", gold, gen, "--format", "json"], 1)
    g = json.loads(out)["systems"][0]["source"]["reading"]["generated"]
    assert rc == 0 and len(g["ungrounded_examples"]) == 3 < g["ungrounded"]


def test_two_generated_systems_and_one_of_another_format(tmp_path):
    gold, gen = files(tmp_path, 13)
    other = write(tmp_path, "other.jsonl", records(corpus(14)[1], "objects", [f"d{d}" for d in range(60)]))
    spans = write(tmp_path, "spans.jsonl", Path(gold).read_text(encoding="utf-8"))
    rc, out, _ = streamed_same(["score", "--gold", gold, gen, other, spans, "--format", "json",
                                      "--input-format", "auto"], 100)
    assert rc == 0 and len(json.loads(out)["systems"]) == 3


def test_records_in_another_order_pair_by_id_as_in_order(tmp_path):
    gold_recs, gen = corpus(17)
    gold = write(tmp_path, "gold.jsonl", "".join(json.dumps(g) + "\n" for g in gold_recs))
    ids = [g["id"] for g in gold_recs]
    order = list(range(len(gen)))
    order[3], order[40] = order[40], order[3]
    path = write(tmp_path, "gen.jsonl", records([gen[k] for k in order], "pairs", [ids[k] for k in order]))
    in_order = write(tmp_path, "in_order.jsonl", records(gen, "pairs", ids))
    argv = ["score", "--gold", gold, path, "--format", "json"]
    rc, out, _ = streamed_same(argv, 100)
    assert rc == 0
    _, out2, _ = streamed_same(["score", "--gold", gold, in_order, "--names", "gen", "--format", "json"], 100)
    assert json.loads(out)["systems"][0]["exact"] == json.loads(out2)["systems"][0]["exact"]


@pytest.mark.parametrize("bad", ["missing", "extra", "other id"])
def test_records_that_do_not_pair_give_the_same_error_at_every_block_size(tmp_path, bad):
    gold_recs, gen = corpus(19)
    gold = write(tmp_path, "gold.jsonl", "".join(json.dumps(g) + "\n" for g in gold_recs))
    ids = [g["id"] for g in gold_recs]
    if bad == "missing":
        gen, ids = gen[:-1], ids[:-1]
    elif bad == "extra":
        gen, ids = gen + [[["x", "PER"]]], ids + ["zz"]
    else:
        ids[30] = "zz"
    path = write(tmp_path, "gen.jsonl", records(gen, "pairs", ids))
    same_error(["score", "--gold", gold, path], (1, 100))
    path = write(tmp_path, "gen2.jsonl", records(gen, "pairs"))     # without ids: by order
    if bad == "other id":
        assert streamed_same(["score", "--gold", gold, path], 100)[0] == 0
    else:
        same_error(["score", "--gold", gold, path], (1, 100))


BAD_RECORDS = [("json", '{"id": "d40", "entities": [["x", "PER"]'), ("entity", '{"id": "d40", "entities": [["x"]]}'),
               ("label", '{"id": "d40", "entities": [["x", ""]]}'), ("no id", '[["x", "PER"]]'),
               ("utf-8", '{"id": "d40", "entities": [["x\udcff", "PER"]]}'), ("id type", '{"id": [1], "entities": []}')]


@pytest.mark.parametrize("bad", BAD_RECORDS, ids=lambda b: b[0])
def test_a_bad_record_deep_in_the_file_names_the_same_line(tmp_path, bad):
    gold, gen = files(tmp_path, 23)
    lines = Path(gen).read_text(encoding="utf-8").split("\n")
    lines[40] = bad[1]
    raw = "\n".join(lines).encode("utf-8", "surrogateescape")
    (tmp_path / "gen.jsonl").write_bytes(raw)
    same_error(["score", "--gold", gold, gen], (1, 100), line=41)


def test_the_first_record_without_an_id_is_named(tmp_path):
    gold, gen = files(tmp_path, 29, with_ids=False)
    lines = Path(gen).read_text(encoding="utf-8").split("\n")
    lines[45] = json.dumps({"id": "d45", "entities": json.loads(lines[45])})
    (tmp_path / "gen.jsonl").write_text("\n".join(lines), encoding="utf-8")
    same_error(["score", "--gold", gold, gen], (1, 100), line=1)


def test_blank_lines_crlf_and_a_bom(tmp_path):
    gold, gen = files(tmp_path, 31)
    text = Path(gen).read_text(encoding="utf-8").replace("\n", "\r\n\n \n", 7)
    (tmp_path / "gen.jsonl").write_bytes(b"\xef\xbb\xbf" + text.rstrip("\n").encode("utf-8"))
    assert streamed_same(["score", "--gold", gold, gen, "--format", "json"], 60)[0] == 0


def array_text(gold_recs: List[Dict[str, Any]], gen: List[List[List[str]]], with_ids: bool,
               indent: Optional[int]) -> str:
    """The generated records as one JSON array over several lines (``indent``: each record over several)."""
    values = [{"id": g["id"], "entities": e} if with_ids else e for g, e in zip(gold_recs, gen)]
    if indent is None:
        return "[\n" + ",\n".join(json.dumps(v) for v in values) + "\n]\n"
    return json.dumps(values, indent=indent) + "\n"


@pytest.mark.parametrize("with_ids", [True, False])
@pytest.mark.parametrize("indent", [None, 2])
@pytest.mark.parametrize("block_bytes", [1, 150, 1 << 20])
def test_a_json_array_of_records_is_read_in_blocks(tmp_path, with_ids, indent, block_bytes):
    """A file that is one JSON array over several lines is read as JSON Lines (element n on line n, as the
    whole read numbers them), in blocks, with the whole read's report."""
    gold_recs, gen = corpus(37)
    gold = write(tmp_path, "gold.jsonl", "".join(json.dumps(g) + "\n" for g in gold_recs))
    path = write(tmp_path, "gen.json", array_text(gold_recs, gen, with_ids, indent))
    argv = ["score", "--gold", gold, path, "--gold-format", "jsonl-text", "--input-format", "generated"]
    with blocks_of(100) as seen:
        assert run(argv)[0] == 0
    assert len(seen) == 1 and seen[0] > 1
    assert streamed_same(argv + ["--format", "json"], block_bytes)[0] == 0
    raw = b"\xef\xbb\xbf" + Path(path).read_bytes()          # a BOM, and compressed
    with gzip.open(tmp_path / "gen.json.gz", "wb") as fh:
        fh.write(raw)
    argv[3] = str(tmp_path / "gen.json.gz")
    assert streamed_same(argv + ["--format", "json"], block_bytes)[0] == 0


def test_a_bad_record_in_a_json_array_is_the_same_error_at_every_block_size(tmp_path):
    gold_recs, gen = corpus(38)
    gen[40] = [["Paris", 7]]                     # a label that is not a string, deep in the array
    gold = write(tmp_path, "gold.jsonl", "".join(json.dumps(g) + "\n" for g in gold_recs))
    path = write(tmp_path, "gen.json", array_text(gold_recs, gen, True, None))
    same_error(["score", "--gold", gold, path, "--gold-format", "jsonl-text", "--input-format", "generated"],
               (1, 100), line=41)


def test_an_array_whose_first_line_is_longer_than_the_look_is_read_in_blocks(tmp_path):
    """The first line opens an array, and does not end within the 64 KiB looked at: read as one array, in
    blocks, with the report of the whole read."""
    gold_recs, gen = corpus(39)
    gold = write(tmp_path, "gold.jsonl", "".join(json.dumps(g) + "\n" for g in gold_recs))
    path = write(tmp_path, "gen.json", array_text(gold_recs, gen, True, None).replace("[\n", "[" + " " * 70000, 1))
    argv = ["score", "--gold", gold, path, "--gold-format", "jsonl-text", "--input-format", "generated"]
    assert streamed_same(argv + ["--format", "json"], 100)[0] == 0


def test_gold_cannot_be_generated_in_blocks_either(tmp_path):
    gold, gen = files(tmp_path, 41)
    same_error(["score", "--gold", gen, gold, "--names", "g"], (1, 100))


def test_a_generated_output_is_read_in_blocks_where_blocks_are_asked_for(tmp_path, monkeypatch):
    """The inputs are read in blocks of the default size (not whole)."""
    gold, gen = files(tmp_path, 43)
    calls: List[Optional[int]] = []
    real = Inputs.read

    def spy(self, *a, **k):
        calls.append(self.block_bytes)
        return real(self, *a, **k)

    monkeypatch.setattr(Inputs, "read", spy)
    assert run(["score", "--gold", gold, gen])[0] == 0 and calls == [Inputs().block_bytes] and calls[0]


@pytest.mark.parametrize("pack", [bytes, gzip.compress], ids=["plain", "gzip"])
def test_standard_input_and_compressed_files(tmp_path, pack):
    gold, gen = files(tmp_path, 47)
    raw = pack(Path(gen).read_bytes())
    packed = tmp_path / "gen.jsonl.gz"
    packed.write_bytes(gzip.compress(raw) if pack is bytes else raw)
    for argv, stdin in ((["score", "--gold", gold, "-", "--input-format", "generated", "--gold-format", "jsonl-text",
                          "--format", "json"], raw),
                        (["score", "--gold", gold, str(packed), "--format", "json"], b"")):
        whole, streamed, seen = whole_and_streamed(argv, stdin=stdin, block_bytes=200)
        assert seen and seen[0] > 1
        assert streamed == whole and whole[0] == 0, whole
