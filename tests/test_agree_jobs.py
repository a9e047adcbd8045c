"""``agree --jobs N``: one column file read in N processes, a shard of whole sentences each (a document goes
on into the next shard), gives the report of one process in every format; what cannot be cut is read in one."""
from __future__ import annotations

import random
from typing import List

import pytest

import ts_eval
import ts_eval.agreement.shards as agree_shards
import ts_eval.agreement.stream as stream
import ts_eval.streaming.shards as shards
from ts_eval.cli import main

FORMATS = ["table", "json", "markdown", "latex", "csv", "html"]
LABELS = ["PER", "LOC", "ORG"]


def corpus(documents: int = 14, seed: int = 5) -> str:
    """Documents of a few sentences, three annotators who mostly agree (every kind of disagreement)."""
    rnd = random.Random(seed)
    out = []
    for d in range(documents):
        out.append("-DOCSTART- O O O\n\n")
        for s in range(rnd.randint(2, 5)):
            tags: List[List[str]] = [[], [], []]
            n = rnd.randint(3, 9)
            k = 0
            while k < n:
                if rnd.random() < 0.35:
                    lab, ln = rnd.choice(LABELS), min(rnd.randint(1, 3), n - k)
                    for a in range(3):
                        r = rnd.random()
                        alab = rnd.choice(LABELS) if r < 0.1 else lab
                        aln = max(1, ln - 1) if 0.1 <= r < 0.2 else ln
                        if r > 0.93:
                            tags[a] += ["O"] * ln
                            continue
                        tags[a] += [f"B-{alab}"] + [f"I-{alab}"] * (aln - 1) + ["O"] * (ln - aln)
                    k += ln
                else:
                    for a in range(3):
                        tags[a].append(f"B-{rnd.choice(LABELS)}" if rnd.random() < 0.03 else "O")
                    k += 1
            out += [f"w{d}_{s}_{t} {tags[0][t]} {tags[1][t]} {tags[2][t]}\n" for t in range(n)]
            out.append("\n")
    return "".join(out)


@pytest.fixture
def cut(monkeypatch) -> List[List[int]]:
    """Small shards and blocks; per cut the shards' first bytes."""
    monkeypatch.setattr(agree_shards, "SHARD_BYTES", 400)
    monkeypatch.setattr(stream, "BLOCK_BYTES", 150)
    starts: List[List[int]] = []
    real = shards.file_shards

    def recorded(*a, **k):
        found = real(*a, **k)
        starts.append([s.start for s in found])
        return found

    monkeypatch.setattr(shards, "file_shards", recorded)
    return starts


def run(capsys, argv: List[str]) -> str:
    """The output of ``argv``, without the --jobs the HTML page shows in its command line."""
    assert main(argv) == 0
    out = capsys.readouterr().out
    return out.replace(f" --jobs {argv[-1]}", "") if "--jobs" in argv else out


@pytest.mark.parametrize("fmt", FORMATS)
def test_jobs_read_shards_that_split_documents_with_the_report_of_one_process(tmp_path, cut, capsys, fmt):
    path = tmp_path / "a.conll"
    text = corpus()
    path.write_text(text)
    argv = ["agree", str(path), "--columns", "2", "3", "4", "--format", fmt]
    one = run(capsys, argv)
    assert cut == []
    for jobs in ("2", "3"):
        assert run(capsys, [*argv, "--jobs", jobs]) == one
    assert len(cut) == 2 and len(cut[0]) >= 4
    data = text.encode()
    inside = [a for a in cut[0][1:] if not data[a:].startswith(b"-DOCSTART-")]
    assert inside, "no shard starts inside a document"
    if fmt == "json":
        assert '"line": ' in one and '"documents": 14' in one


def test_jobs_give_the_bootstrap_and_the_details_of_one_process(tmp_path, cut, capsys):
    path = tmp_path / "a.conll"
    path.write_text(corpus(seed=9))
    for extra in (["--bootstrap", "30", "--seed", "4", "--format", "json"], ["--details", "--cases", "3"]):
        argv = ["agree", str(path), *extra]
        assert run(capsys, [*argv, "--jobs", "2"]) == run(capsys, argv)
    assert len(cut) == 2


def test_jobs_report_an_error_of_a_later_shard_with_the_line_of_the_file(tmp_path, cut, capsys):
    path = tmp_path / "bad.conll"
    text = corpus()
    path.write_text(text + "x B-PER O\n\n")
    line = text.count("\n") + 1
    assert main(["agree", str(path), "--columns", "2", "3", "4"]) == 1
    one = capsys.readouterr().err
    assert main(["agree", str(path), "--columns", "2", "3", "4", "--jobs", "2"]) == 1
    assert capsys.readouterr().err == one and f":{line}" in one and len(cut) == 1


def test_what_cannot_be_cut_is_read_in_one_process(tmp_path, cut, capsys):
    path = tmp_path / "a.conll"
    path.write_text(corpus())
    sides = []
    for k in (2, 3, 4):
        side = tmp_path / f"ann{k}.conll"
        side.write_text("".join(" ".join([line.split()[0], line.split()[k - 1]]) + "\n" if line.strip() else "\n"
                                for line in corpus().splitlines()))
        sides.append(str(side))
    silver = tmp_path / "silver.conll"
    for argv in (["agree", *sides, "--format", "json"],                       # one input per annotator
                 ["agree", str(path), "--majority", "2", "-o", str(silver)],   # --majority: the whole
                 ["agree", str(path), "--names", "a", "b"],                    # names that do not fit: the error
                 ["agree", str(path), "--columns", "2", "3", "4", "--scheme", "auto"]):
        code = main(argv)
        one = capsys.readouterr()
        assert main([*argv, "--jobs", "2"]) == code
        assert capsys.readouterr() == one
    assert cut == []


def test_a_file_of_less_than_two_shards_is_read_in_one_process(tmp_path, cut, capsys, monkeypatch):
    monkeypatch.setattr(agree_shards, "SHARD_BYTES", 1 << 30)
    path = tmp_path / "a.conll"
    path.write_text(corpus())
    assert run(capsys, ["agree", str(path), "--jobs", "4"]) == run(capsys, ["agree", str(path)])
    assert cut == []


def test_the_help_says_what_jobs_does(capsys):
    assert main(["agree", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--jobs N read one column FILE in N processes, a shard of whole sentences each (default 1; one input " \
           "per annotator, --annotator-field, --majority" in out
    assert "accepted; agree reads in one process" not in out


def test_jobs_must_be_a_whole_number_of_processes(tmp_path, capsys):
    path = tmp_path / "a.conll"
    path.write_text(corpus(2))
    assert main(["agree", str(path), "--jobs", "0"]) == 2
    assert "expected a whole number of processes >= 1, got '0'" in capsys.readouterr().err


def test_the_library_reads_in_shards_too(tmp_path, cut):
    from ts_eval.agreement.inputs import annotation_blocks
    from ts_eval.agreement.stream import agreement_of_inputs
    from ts_eval.io.inputs import Inputs

    path = tmp_path / "a.conll"
    path.write_text(corpus())
    read = Inputs.given(file=str(path), gold_column=2, system_columns=(3, 4))
    one = agreement_of_inputs(read, annotation_blocks, bootstrap=10).to_dict()
    assert agreement_of_inputs(read, annotation_blocks, jobs=2, bootstrap=10).to_dict() == one and len(cut) == 1
    with pytest.raises(ts_eval.OptionError, match="jobs"):
        agreement_of_inputs(read, annotation_blocks, jobs=0)
