"""``ts-eval fair`` reads its inputs in blocks of whole sentences on the one road
(:meth:`ts_eval.io.inputs.Inputs.read`, added up by :func:`ts_eval.streaming.files.count`), never the corpus
whole: every format (the reference's layout, JSON, the table, HTML, CSV, Markdown) is byte for byte the report
of the inputs read whole, for blocks down to one sentence, a column file, one file per system and JSON Lines;
``--jobs`` gives the report of one process; a bad line late in a file is the same first error at every block
size."""
from __future__ import annotations

import json
import random
from typing import List

import pytest
from streamed import run, same_at, same_error

import ts_eval.streaming.files as files
from ts_eval.io.inputs import Inputs

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC"]


def sides(n: int, seed: int = 5, systems: int = 2) -> List[List[List[str]]]:
    """Gold and ``systems`` systems' tags of ``n`` sentences (the systems near gold, with every fair error)."""
    rng = random.Random(seed)
    out: List[List[List[str]]] = [[] for _ in range(systems + 1)]
    for _ in range(n):
        gold = [rng.choice(TAGS) for _ in range(rng.randint(1, 9))]
        out[0].append(gold)
        for side in out[1:]:
            side.append([g if rng.random() < 0.6 else rng.choice(TAGS) for g in gold])
    return out


def column_text(tags: List[List[List[str]]], docs: bool = True) -> str:
    lines: List[str] = []
    for s, sent in enumerate(tags[0]):
        if docs and s % 5 == 0:
            lines += ["-DOCSTART- O" + " O" * (len(tags) - 1), ""]
        for t, gold in enumerate(sent):
            lines.append(" ".join([f"w{s}_{t}", gold] + [side[s][t] for side in tags[1:]]))
        lines.append("")
    return "\n".join(lines) + "\n"


def jsonl_text(side: List[List[str]]) -> str:
    return "".join(json.dumps({"tokens": [f"w{s}_{t}" for t in range(len(tags))], "tags": tags}) + "\n"
                   for s, tags in enumerate(side))


FORMATS = ["faireval", "json", "table", "html", "csv", "markdown"]


@pytest.fixture
def never_whole(monkeypatch):
    """Reading the inputs whole fails the test."""
    monkeypatch.setattr(Inputs, "corpus", lambda *a, **k: pytest.fail("the inputs were read whole"))


@pytest.mark.parametrize("form", FORMATS)
def test_fair_of_a_column_file_in_blocks_down_to_one_sentence(tmp_path, never_whole, form):
    path = tmp_path / "c.conll"
    path.write_text(column_text(sides(80)), encoding="utf-8")
    (rc, out, err), seen = same_at(["fair", str(path), "--gold-col", "2", "--format", form], sizes=(1, 60, 700))
    assert rc == 0 and not err and out
    assert seen and seen[-1] > 1          # the last run read several blocks


def test_fair_reads_blocks_of_one_sentence_each(tmp_path, never_whole):
    path = tmp_path / "c.conll"
    path.write_text(column_text(sides(30), docs=False), encoding="utf-8")
    _, seen = same_at(["fair", str(path), "--gold-col", "2", "--format", "json"], sizes=(1,), whole=False)
    assert seen == [30]


@pytest.mark.parametrize("weights,focus,mode", [("eq5", "target", "paper"), ("eq7", "system", "faireval-skip"),
                                                ("LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN", "target", "paper")])
def test_fair_settings_in_blocks(tmp_path, never_whole, weights, focus, mode):
    path = tmp_path / "c.conll"
    path.write_text(column_text(sides(60, seed=9, systems=1)), encoding="utf-8")
    argv = ["fair", str(path), "--weights", weights, "--focus", focus, "--mode", mode, "--format", "json"]
    (rc, out, _), _ = same_at(argv, sizes=(1, 33))
    assert rc == 0 and json.loads(out)["systems"]


def test_fair_of_files_per_system_and_json_lines_in_blocks(tmp_path, never_whole):
    tags = sides(50, seed=11)
    gold, s1, s2 = (tmp_path / f"{n}.jsonl" for n in ("gold", "s1", "s2"))
    for path, side in zip((gold, s1, s2), tags):
        path.write_text(jsonl_text(side), encoding="utf-8")
    col = tmp_path / "s2.conll"
    col.write_text("".join("\n".join(f"w{s}_{t} {tag}" for t, tag in enumerate(sent)) + "\n\n"
                           for s, sent in enumerate(tags[2])), encoding="utf-8")
    for form in ("faireval", "json"):
        (rc, out, _), _ = same_at(["fair", "--gold", str(gold), str(s1), str(s2), "--format", form])
        assert rc == 0 and out
        (rc, mixed, _), _ = same_at(["fair", "--gold", str(gold), str(s1), str(col), "--format", form])
        assert rc == 0 and mixed


def test_fair_jobs_give_the_report_of_one_process(tmp_path, monkeypatch):
    path = tmp_path / "c.conll"
    path.write_text(column_text(sides(200, seed=2)), encoding="utf-8")
    argv = ["fair", str(path), "--gold-col", "2", "--format", "json"]
    one = run(argv)
    monkeypatch.setattr(files, "MIN_SHARD_BYTES", 1)
    shards: List[int] = []
    real = files._in_shards
    monkeypatch.setattr(files, "_in_shards", lambda *a: shards.append(1) or real(*a))
    for jobs in ("2", "3"):
        assert run(argv + ["--jobs", jobs]) == one
    assert shards == [1, 1]
    rc, _, err = run(argv + ["--jobs", "0"])
    assert rc == 2 and "--jobs" in err


def test_fair_error_late_in_a_file_is_the_same_in_blocks(tmp_path):
    path = tmp_path / "c.conll"
    text = column_text(sides(40, seed=4), docs=False)
    lines = text.split("\n")
    lines[-10] = lines[-10] + " extra"          # one column too many, near the end
    path.write_text("\n".join(lines), encoding="utf-8")
    err = same_error(["fair", str(path), "--gold-col", "2"], sizes=(1, 60))
    assert f":{len(lines) - 9}:" in err
