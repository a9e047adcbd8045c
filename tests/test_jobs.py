"""``jobs``: counting one plain column file in several processes is the library's (``Inputs.jobs``, read by
:func:`ts_eval.streaming.files.count`); the command line only passes ``--jobs`` on."""
from __future__ import annotations

from typing import List

import pytest

import ts_eval
import ts_eval.streaming.files as files
import ts_eval.streaming.shards as shards
from ts_eval.io.inputs import Inputs
from ts_eval.streaming.files import count_file

MODELS = ["ts", "exact", "fair"]


def sentences(n: int) -> str:
    return "".join(f"a{s} B-PER B-PER\nb{s} I-PER O\nc{s} O B-LOC\n\n" for s in range(n))


@pytest.fixture
def cut(monkeypatch) -> List[int]:
    """The number of shards each cut asked for (a shard may be as small as one byte)."""
    monkeypatch.setattr(files, "MIN_SHARD_BYTES", 1)
    asked: List[int] = []
    real = shards.file_shards
    monkeypatch.setattr(shards, "file_shards", lambda *a, **k: asked.append(a[1]) or real(*a, **k))
    return asked


def test_jobs_count_a_column_file_in_shards_with_the_counts_of_one_process(tmp_path, cut):
    path = tmp_path / "s.conll"
    path.write_text(sentences(200) + "z I-ORG O\n\n")      # the one repair is in the last shard, line 801
    one = count_file(str(path), models=MODELS).report().to_dict()
    assert one["gold"]["first_repair_line"] == 801        # a later shard's line, counted from the file's start
    for jobs in (2, 3):
        assert count_file(str(path), models=MODELS, jobs=jobs).report().to_dict() == one
        inputs = Inputs.given(file=str(path), jobs=jobs)
        assert files.count(inputs, models=MODELS).report().to_dict() == one
    assert cut == [2, 2, 3, 3]


def test_jobs_report_the_first_error_with_the_line_of_the_file(tmp_path, cut):
    path = tmp_path / "bad.conll"
    path.write_text(sentences(200) + "x B-PER\n\n")        # one column short, on line 801
    with pytest.raises(ts_eval.InputError) as one:
        count_file(str(path))
    with pytest.raises(ts_eval.InputError) as three:
        count_file(str(path), jobs=3)
    assert cut == [3] and one.value.line == three.value.line == 801 and str(three.value) == str(one.value)


def test_jobs_count_what_cannot_be_cut_in_one_process(tmp_path, cut):
    gold, system = tmp_path / "g.conll", tmp_path / "s.conll"
    gold.write_text("".join(f"a{s} B-PER\nb{s} I-PER\n\n" for s in range(50)))
    system.write_text("".join(f"a{s} B-PER\nb{s} O\n\n" for s in range(50)))
    both = Inputs.given(gold=str(gold), systems=[str(system)])
    expected = files.count(both).report().to_dict()
    assert files.count(Inputs.given(gold=str(gold), systems=[str(system)], jobs=4)).report().to_dict() == expected
    path = tmp_path / "c.conll"
    path.write_text(sentences(100))
    whole = count_file(str(path)).report().to_dict()
    assert count_file(str(path), scheme="auto", jobs=2).report().to_dict() == \
        count_file(str(path), scheme="auto").report().to_dict()
    assert whole and cut == []


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2"])
def test_jobs_must_be_a_whole_number_of_processes(tmp_path, jobs):
    path = tmp_path / "c.conll"
    path.write_text(sentences(3))
    with pytest.raises(ts_eval.OptionError, match="jobs"):
        count_file(str(path), jobs=jobs)


def test_the_command_passes_jobs_to_the_library(tmp_path, cut, capsys):
    from ts_eval.cli import main

    path = tmp_path / "s.conll"
    path.write_text(sentences(200) + "z I-ORG O\n\n")
    outputs = []
    for jobs in ([], ["--jobs", "3"]):
        assert main(["score", str(path), "--format", "json", *jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert cut == [3] and outputs[0] == outputs[1] and '"first_repair_line": 801' in outputs[0]
