"""Outputs that are inputs, and standard input twice (#17.5, #17.2): an output that is one of the inputs
(the same file by inode, whatever path names it) is refused before anything is read; standard input can be
read only once, so naming it for two inputs is a usage error."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import FIXTURES, run_cli, write
from test_atomic_writes import GOLD_ONLY, GOOD, NO_RESAMPLING, PACKAGE_ROOT, _fair_config, _files

import ts_eval

# ---------------------------------------------------------------------------
# #17.5: an output that is one of the inputs is refused before anything is read


def _same_file_refused(capsys, argv, *needles):
    code, out, err = run_cli(argv, capsys)
    assert code == 2, err
    assert out == "" and err.count("\n") == 1 and "the same file" in err, err
    for n in needles:
        assert n in err, (n, err)


@pytest.mark.parametrize("spelling", ["same", "relative", "hard link", "symbolic link"])
def test_score_refuses_to_write_over_its_input(tmp_path, capsys, monkeypatch, spelling):
    monkeypatch.chdir(tmp_path)
    files = _files(tmp_path)
    inout = files["good"]
    out = {"same": inout, "relative": os.path.join("..", tmp_path.name, "g.conll")}.get(spelling)
    if spelling == "hard link":
        os.link(inout, tmp_path / "hard.conll")
        out = "hard.conll"
    elif spelling == "symbolic link":
        (tmp_path / "sym.conll").symlink_to(inout)
        out = "sym.conll"
    _same_file_refused(capsys, ["score", inout, "-o", out], "--output", inout)
    assert Path(inout).read_text() == GOOD


def test_convert_refuses_to_write_over_its_input(tmp_path, capsys):
    files = _files(tmp_path)
    _same_file_refused(capsys, ["convert", files["gold"], files["gold"]], "DST", "SRC")
    assert Path(files["gold"]).read_text() == GOLD_ONLY
    with pytest.raises(ts_eval.OptionError, match="the same file"):
        ts_eval.convert(files["gold"], files["gold"])


def test_refused_before_anything_is_read(tmp_path, capsys):
    """The input is not even a valid file: the refusal comes first, so nothing was read."""
    bad = write(tmp_path / "bad.conll", "a B-X\nb\n\x00\n")
    _same_file_refused(capsys, ["score", bad, "-o", bad])
    _same_file_refused(capsys, ["convert", bad, bad])


@pytest.mark.parametrize("case", ["compare", "rank", "rank-plot", "rank-folder", "rank-manifest", "germeval", "fair",
                                  "fair-gold", "fair-config", "fair-eval-out", "tag-names", "brat", "brat-file",
                                  "demo"])
def test_every_command_refuses_to_write_over_an_input(tmp_path, capsys, monkeypatch, case):
    files = _files(tmp_path)
    two, good = files["two"], files["good"]
    cols = ["--gold-col", "2", "--system-col", "3", "4"]
    if case == "compare":
        argv = ["compare", two, *cols, "-o", two]
    elif case == "rank":
        argv = ["rank", two, "--gold-col", "2", *NO_RESAMPLING, "-o", two]
    elif case == "rank-plot":
        argv = ["rank", two, "--gold-col", "2", *NO_RESAMPLING, "--plot", two]
    elif case == "rank-folder":      # an output that is one of the files of a system folder
        runs = tmp_path / "runs"
        runs.mkdir()
        a, b = write(runs / "a.conll", GOLD_ONLY), write(runs / "b.conll", GOLD_ONLY)
        argv = ["rank", "--gold", files["gold"], str(runs), *NO_RESAMPLING, "-o", b]
        assert Path(a).exists()
    elif case == "rank-manifest":
        manifest = write(tmp_path / "tasks.txt", f"t {files['gold']} {good} {two}\n")
        argv = ["rank", "--manifest", manifest, *NO_RESAMPLING, "--system-col", "-1", "-o", manifest]
    elif case == "germeval":
        nested = write(tmp_path / "n.tsv", (FIXTURES / "germeval" / "nested.tsv").read_text(encoding="utf-8"))
        argv = ["germeval", nested, "-o", nested]
    elif case == "fair":
        argv = ["fair", good, "-o", good]
    elif case == "fair-gold":
        argv = ["fair", "--gold", files["gold"], good, "-o", files["gold"]]
    elif case == "fair-config":
        cfg = _fair_config(tmp_path)
        argv = ["fair", "--config", cfg, "-o", cfg]
    elif case == "fair-eval-out":
        fix = FIXTURES / "faireval"
        target = write(tmp_path / "t.csv", (fix / "target" / "ner_spans.csv").read_text(encoding="utf-8"))
        cfg = write(tmp_path / "e.config", f"target_in = {target}\nsystem_in = {fix}/system/ner_spans.csv\n"
                                           f"eval_out = {target}\n")
        argv = ["fair", "--config", cfg]
    elif case == "tag-names":
        names = write(tmp_path / "names.json", '["O", "B-PER", "I-PER"]')
        tok = write(tmp_path / "t.jsonl", '{"tokens": ["a"], "ner_tags": [1]}\n')
        argv = ["score", "--gold", tok, tok, "--tag-names", names, "-o", names]
    elif case == "brat":                 # a brat folder converted into itself
        brat = tmp_path / "brat"
        brat.mkdir()
        write(brat / "d.txt", "John lives")
        write(brat / "d.ann", "T1\tPER 0 4\tJohn\n")
        argv = ["convert", str(brat), str(brat) + "/"]
    elif case == "brat-file":            # a brat folder output that holds the input file
        brat = tmp_path / "out"
        brat.mkdir()
        src = write(brat / "d.txt", GOLD_ONLY)
        argv = ["convert", src, str(brat) + "/", "--from", "columns", "--to", "brat"]
    else:    # the bundled file, copied: a regression must not overwrite the package's own data
        from ts_eval.cli import demo as cli_demo
        demo = tmp_path / "demo.conll"
        demo.write_bytes(Path(cli_demo.DEMO_FILE).read_bytes())
        monkeypatch.setattr(cli_demo, "DEMO_FILE", str(demo))
        argv = ["demo", "-o", str(demo)]
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    _same_file_refused(capsys, argv)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_two_outputs_to_one_file_are_refused(tmp_path, capsys):
    files = _files(tmp_path)
    out = str(tmp_path / "x.png")
    code, _, err = run_cli(["rank", files["two"], "--gold-col", "2", *NO_RESAMPLING, "-o", out, "--plot", out],
                           capsys)
    assert code == 2 and "--output and --plot are the same file" in err, err


# ---------------------------------------------------------------------------
# #17.2: standard input is read once


def _stdin_run(argv, data):
    env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    return subprocess.run([sys.executable, "-m", "ts_eval", *argv], input=data, capture_output=True, text=True,
                          env=env)


def test_gold_and_system_both_from_standard_input_is_an_error(tmp_path):
    """It scored the gold against itself (100% everywhere, exit 0)."""
    proc = _stdin_run(["score", "--gold", "-", "-"], GOLD_ONLY)
    assert proc.returncode == 2, proc.stdout
    assert proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
    assert "standard input ('-') is given twice (--gold and system)" in proc.stderr


@pytest.mark.parametrize("argv", [["score", "--gold", "{gold}", "-", "-"], ["fair", "--gold", "-", "-"],
                                  ["compare", "--gold", "-", "{gold}", "-"], ["rank", "--gold", "-", "-", "{gold}"],
                                  ["rank", "--task", "a", "{gold}", "-", "{gold}", "--task", "b", "-", "{gold}",
                                   "{gold}"],
                                  ["germeval", "--gold", "-", "--system", "-"],
                                  ["score", "--gold", "-", "--tag-names", "-", "{gold}"]])
def test_standard_input_twice_in_any_role(tmp_path, capsys, argv):
    """Refused before anything is read (pytest's standard input cannot be read at all)."""
    files = _files(tmp_path)
    code, out, err = run_cli([a.format(**files) for a in argv], capsys)
    assert code == 2, err
    assert out == "" and err.count("\n") == 1 and "it can be read only once" in err, err


def test_the_python_api_reads_standard_input_once():
    with pytest.raises(ts_eval.OptionError, match="standard input"):
        ts_eval.read("-", ["-"])
    with pytest.raises(ts_eval.OptionError, match="standard input"):
        ts_eval.io.read_conll_pair("-", ["-"])


def test_standard_input_once_still_works(tmp_path):
    files = _files(tmp_path)
    proc = _stdin_run(["score", "--gold", files["gold"], "-", "--format", "json"],
                      "John B-PER\nSmith O\nvisits O\nParis B-LOC\n\nHe O\nleft O\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["systems"][0]["exact"]["micro"]["tp"] == 1


# ---------------------------------------------------------------------------
# #18.3: one rule names a system after its file, on every road


@pytest.mark.parametrize("path, name", [("runs/sysA.conll.gz", "sysA"), ("sysA.conll", "sysA"), ("sysA.GZ", "sysA"),
                                        ("sys.v2.tsv.bz2", "sys.v2"), (".hidden", ".hidden"), ("-", "stdin"),
                                        ("crf", "crf"), ("brat_dir/", "brat_dir")])
def test_system_name(path, name):
    from ts_eval.io.source import system_name
    assert system_name(path) == name


def test_every_road_names_a_compressed_system_file_alike(tmp_path, capsys):
    import gzip

    gold = write(tmp_path / "gold.conll", "a B-PER\nb O\n\n")
    sys_path = tmp_path / "sysA.conll.gz"
    sys_path.write_bytes(gzip.compress(b"a B-PER\nb O\n\n"))
    assert list(ts_eval.io.read_conll_pair(gold, [str(sys_path)]).systems) == ["sysA"]
    assert list(ts_eval.read(gold, str(sys_path)).systems) == ["sysA"]
    code, out, err = run_cli(["score", "--gold", gold, str(sys_path), "--format", "json"], capsys)
    assert code == 0, err
    assert [s["name"] for s in json.loads(out)["systems"]] == ["sysA"]
