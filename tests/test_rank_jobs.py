"""``ts-eval rank --jobs N``: the statistics of one column file taken in N processes, a shard of whole sentences
each (:mod:`ts_eval.ranking.shards`), and the permutation test in a process of its own beside the bootstrap --
every report (JSON, table, the detailed table, HTML, CSV; sentences and documents as the resampling unit; a
label first met in a later shard) is the one of ``--jobs 1``, byte for byte; a shard's error is the file's
error with the file's line numbers; a bad value is a usage error."""
from __future__ import annotations

import json
from typing import List

import numpy as np
import pytest
from streamed import QUICK, run, without_timings
from test_rank_blocks import text

import ts_eval.ranking.blocks as in_blocks
import ts_eval.ranking.shards as shards
import ts_eval.streaming.processes as processes
from ts_eval.io.inputs import Inputs
from ts_eval.ranking.blocks import StatsBuilder
from ts_eval.ranking.study import _Plan

pytestmark = pytest.mark.skipif(not processes.forks(), reason="--jobs works beside the caller only with fork")


@pytest.fixture
def corpus_file(tmp_path):
    path = tmp_path / "c.conll"
    path.write_text(text(60, docs=True), encoding="utf-8")      # the label MISC only in the second half
    return str(path)


@pytest.fixture
def small_shards(monkeypatch):
    """Shards of a few hundred bytes, and the number of processes each ``rank`` started."""
    started: List[int] = []
    real = processes.Started.__init__

    def counted(self, works, workers=None):
        started.append(len(works))
        real(self, works, workers)

    monkeypatch.setattr(shards, "MIN_SHARD_BYTES", 200)
    monkeypatch.setattr(in_blocks, "BLOCK_BYTES", 80)
    monkeypatch.setattr(processes.Started, "__init__", counted)
    return started


@pytest.mark.parametrize("options", [["--format", "json"], ["--format", "json", "--unit", "document"],
                                     ["--format", "table"], ["--format", "table", "--details"],
                                     ["--format", "html"], ["--format", "csv"],
                                     ["--format", "json", "--models", "all", "--min-overlap", "iou:0.5"]],
                         ids=lambda o: "-".join(x.strip("-") for x in o[1:]))
@pytest.mark.parametrize("jobs", ["2", "3"])
def test_jobs_give_the_report_of_one_process(corpus_file, small_shards, options, jobs):
    argv = ["rank", corpus_file, "--gold-col", "2", *QUICK, *options]
    one = without_timings(run(argv + ["--jobs", "1"]))
    assert one[0] == 0 and small_shards == []
    rc, out, err = without_timings(run(argv + ["--jobs", jobs]))
    assert (rc, out.replace(f"--jobs {jobs}<", "--jobs 1<"), err) == one      # (the page shows its command line)
    # the later shards' processes, then the permutation test's
    assert small_shards == [int(jobs) - 1, 1]


@pytest.mark.parametrize("merged_rows", [3, 8192])
def test_the_statistics_of_the_shards_are_those_of_the_file(corpus_file, small_shards, monkeypatch, merged_rows):
    """The merged builder holds what one builder of every block holds: the same distinct rows in the same order,
    every sentence's row, the documents, the labels (MISC first met in a later shard) and the tallies (a later
    builder's rows found a few at a time, or all at once)."""
    monkeypatch.setattr(in_blocks, "MERGED_ROWS", merged_rows)
    blocks = list(Inputs(file=corpus_file, gold_column=2, system_columns=(3, 4, 5), block_bytes=80).read())
    plan = _Plan.of(blocks[0], None, None, "exact-f1-micro", 0, 0, 0, .95, .05, None, None, "many-to-many", .5,
                    None)
    one = StatsBuilder(plan.models, plan.names, plan.matching)
    for block in blocks:
        one.add(block)
    cut = len(blocks) // 3
    assert "MISC" not in set().union(*(b.labels for b in blocks[:cut]))
    merged = StatsBuilder(plan.models, plan.names, plan.matching)
    for block in blocks[:cut]:
        merged.add(block)
    for part in (blocks[cut:2 * cut], blocks[2 * cut:]):
        later = StatsBuilder(plan.models, plan.names, plan.matching)
        for block in part:
            later.add(block)
        merged.merge(later.part())
    assert merged.labels == one.labels and "MISC" in one.labels
    assert merged.info() == one.info()
    for unit in ("sentence", "document"):
        a, b = one.matrix(unit), merged.matrix(unit)
        assert np.array_equal(a.data, b.data) and a.data.dtype == b.data.dtype
        assert np.array_equal(a.dense(), b.dense()) and np.array_equal(a.unit_sizes, b.unit_sizes)


def test_an_error_in_a_later_shard_has_the_line_of_the_file(tmp_path, small_shards):
    lines = text(60).splitlines()
    bad = len(lines) - 5
    assert lines[bad]
    lines[bad] = lines[bad].rsplit(" ", 1)[0]        # a line with a column too few
    path = tmp_path / "bad.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["rank", str(path), "--gold-col", "2", *QUICK, "--format", "json"]
    one, several = run(argv + ["--jobs", "1"]), run(argv + ["--jobs", "2"])
    assert one[0] != 0 and f":{bad + 1}" in one[2]
    assert several == one


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5"])
def test_a_bad_jobs_value_is_a_usage_error(corpus_file, value):
    rc, out, err = run(["rank", corpus_file, "--gold-col", "2", *QUICK, "--jobs", value])
    assert rc == 2 and out == ""
    assert "--jobs" in err and repr(value) in err and "whole number of processes >= 1" in err


def test_the_library_checks_jobs(corpus_file):
    from ts_eval.errors import OptionError
    from ts_eval.ranking.blocks import rank_blocks

    blocks = Inputs(file=corpus_file, gold_column=2, system_columns=(3, 4, 5)).read()
    with pytest.raises(OptionError, match="jobs"):
        rank_blocks(blocks, jobs=0, bootstrap=0, permutations=0)


def test_jobs_with_the_corpus_read_whole_give_the_same_numbers(corpus_file, small_shards, monkeypatch):
    """A task read whole (a model that cannot be read in blocks) still runs its permutation test beside the
    bootstrap."""
    import ts_eval.ranking.tasks as rank_tasks

    monkeypatch.setattr(rank_tasks, "reads_in_blocks", lambda *a, **k: False)
    argv = ["rank", corpus_file, "--gold-col", "2", *QUICK, "--format", "json"]
    one = without_timings(run(argv + ["--jobs", "1"]))
    several = without_timings(run(argv + ["--jobs", "2"]))
    assert one[0] == 0 and several == one and small_shards == [1]
    assert json.loads(one[1])["permutation"]["permutations"] == 40
