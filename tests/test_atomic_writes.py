"""Outputs never destroy data (#17.4): every output of every command is written whole or not at all (a
temporary file renamed over the target), and a failure is one line and leaves the old file as it was with
no temporary file behind."""
from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support import FIXTURES, run_cli, write

import ts_eval
from ts_eval.io import sink

GOOD = "John B-PER B-PER\nSmith I-PER O\nvisits O O\nParis B-LOC B-LOC\n\nHe O O\nleft O B-ORG\n"
TWO = ("John B-PER B-PER B-PER\nSmith I-PER O I-PER\nvisits O O O\nParis B-LOC B-LOC B-ORG\n\n"
       "He O O O\nleft O B-ORG O\n")
GOLD_ONLY = "John B-PER\nSmith I-PER\nvisits O\nParis B-LOC\n\nHe O\nleft O\n"
OLD = "the old output, which must survive\n"
PACKAGE_ROOT = str(Path(ts_eval.__file__).resolve().parent.parent)   # the ts_eval these tests import


def _files(tmp_path):
    return {"good": write(tmp_path / "g.conll", GOOD), "two": write(tmp_path / "two.conll", TWO),
            "gold": write(tmp_path / "gold.conll", GOLD_ONLY)}


def _fair_config(tmp_path):
    fix = FIXTURES / "faireval"
    return write(tmp_path / "c.config", f"target_in = {fix}/target/ner_spans.csv\n"
                                        f"system_in = {fix}/system/ner_spans.csv\n")


NO_RESAMPLING = ["--bootstrap", "0", "--permutations", "0"]
# every command that writes, as (arguments before the output, how the output is given)
COMMANDS = {
    "score": lambda t, f: ["score", f["good"], "--format", "html"],
    "demo": lambda t, f: ["demo", "--format", "json"],
    "fair": lambda t, f: ["fair", f["good"]],
    "fair-config": lambda t, f: ["fair", "--config", _fair_config(t)],
    "compare": lambda t, f: ["compare", f["two"], "--gold-col", "2", "--system-col", "3", "4"],
    "rank": lambda t, f: ["rank", f["two"], "--gold-col", "2", *NO_RESAMPLING],
    "germeval": lambda t, f: ["germeval", str(FIXTURES / "germeval" / "nested.tsv")],
    "list-models": lambda t, f: ["rank", "--list-models"],
}
CONVERTS = {"convert-columns": "out.conll", "convert-jsonl": "out.jsonl", "convert-gz": "out.jsonl.gz"}


def _argv(name, tmp_path, files, out):
    if name in CONVERTS:
        return ["convert", files["gold"], out]
    return COMMANDS[name](tmp_path, files) + ["-o", out]


def _out_name(name):
    return CONVERTS.get(name, "out.txt")


def _listing(folder: Path):
    return sorted(p.name for p in folder.iterdir())


# ---------------------------------------------------------------------------
# #17.4: a failed write leaves the old file and no temporary file


def _full_disk(monkeypatch, exc=None):
    """os.write writes a few bytes of its first call, then fails as a full disk does."""
    calls = []
    real = os.write

    def write(fd, data):
        calls.append(fd)
        if len(calls) == 1:
            return real(fd, bytes(data[:5]))
        raise exc or OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", write)
    return calls


@pytest.mark.parametrize("name", list(COMMANDS) + list(CONVERTS))
def test_a_full_disk_leaves_the_old_output(tmp_path, capsys, monkeypatch, name):
    files = _files(tmp_path)
    out = tmp_path / _out_name(name)
    out.write_text(OLD)
    argv = _argv(name, tmp_path, files, str(out))
    before = _listing(tmp_path)
    calls = _full_disk(monkeypatch)
    code, _stdout, err = run_cli(argv, capsys)
    monkeypatch.undo()
    assert calls, "the output was not written through the atomic writer"
    assert code == 1, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"{out}: cannot write the output: No space left on device" in err
    assert out.read_text() == OLD
    assert _listing(tmp_path) == before      # no temporary file left


@pytest.mark.parametrize("name", ["score", "convert-columns", "list-models"])
def test_the_output_is_complete_and_keeps_its_permissions(tmp_path, capsys, name):
    files = _files(tmp_path)
    out = tmp_path / _out_name(name)
    out.write_text(OLD)
    out.chmod(0o640)
    before = _listing(tmp_path)
    code, _, err = run_cli(_argv(name, tmp_path, files, str(out)), capsys)
    assert code == 0, err
    assert out.read_text() != OLD and out.stat().st_size > 0
    assert (out.stat().st_mode & 0o777) == 0o640
    assert _listing(tmp_path) == before
    fresh = tmp_path / ("new_" + out.name)
    code, _, err = run_cli(_argv(name, tmp_path, files, str(fresh)), capsys)
    umask = os.umask(0)
    os.umask(umask)
    assert code == 0 and (fresh.stat().st_mode & 0o777) == (0o666 & ~umask)


def test_a_symbolic_link_keeps_pointing_at_the_file_it_names(tmp_path, capsys):
    files = _files(tmp_path)
    real = tmp_path / "real.txt"
    real.write_text(OLD)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    code, _, err = run_cli(["score", files["good"], "-o", str(link)], capsys)
    assert code == 0, err
    assert link.is_symlink() and "Scores" in real.read_text()


def test_a_folder_that_cannot_be_written_leaves_the_old_file(tmp_path, capsys, monkeypatch):
    """Permission denied (simulated: the tests may run as root) where the temporary file is made."""
    files = _files(tmp_path)
    out = tmp_path / "out.txt"
    out.write_text(OLD)
    real = os.open

    def deny(path, flags, *a, **k):
        if str(path).endswith(".tmp"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", deny)
    code, _, err = run_cli(["score", files["good"], "-o", str(out)], capsys)
    monkeypatch.undo()
    assert code == 1 and err.count("\n") == 1, err
    assert "Permission denied" in err and str(out) in err
    assert out.read_text() == OLD and _listing(tmp_path) == sorted(["g.conll", "two.conll", "gold.conll", "out.txt"])


def test_ctrl_c_while_writing_leaves_the_old_file(tmp_path, monkeypatch):
    out = tmp_path / "out.txt"
    out.write_text(OLD)
    _full_disk(monkeypatch, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        sink.write_text(str(out), "new text " * 1000)
    monkeypatch.undo()
    assert out.read_text() == OLD and _listing(tmp_path) == ["out.txt"]


def _limited(limit):
    def set_limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


@pytest.mark.slow
def test_a_real_write_failure_in_the_middle_of_a_file(tmp_path):
    """The kernel refuses to let a file grow past 4 KiB (RLIMIT_FSIZE: EFBIG in the middle of the write, as a
    full disk fails it): the old output survives and the message is one line."""
    files = _files(tmp_path)
    out = tmp_path / "out.html"
    out.write_text(OLD)
    env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, "-m", "ts_eval", "score", files["good"], "--format", "html", "-o",
                           str(out)], capture_output=True, text=True, env=env, preexec_fn=_limited(4096))
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "File too large" in proc.stderr and str(out) in proc.stderr
    assert out.read_text() == OLD
    assert _listing(tmp_path) == sorted(["g.conll", "two.conll", "gold.conll", "out.html"])


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["score", "{good}", "-o", "/dev/full"], ["convert", "{gold}", "/dev/full",
                                                                           "--to", "columns"]])
def test_dev_full_is_written_directly_and_fails_in_one_line(tmp_path, capsys, argv):
    """A device cannot be replaced by a rename: it is written as the user asked, and its ENOSPC is one line."""
    files = _files(tmp_path)
    code, _out, err = run_cli([a.format(**files) for a in argv], capsys)
    assert code == 1, err
    assert err == "ts-eval: error: /dev/full: cannot write the output: No space left on device\n"


def test_dev_null_is_written_directly(tmp_path, capsys):
    files = _files(tmp_path)
    code, out, err = run_cli(["score", files["good"], "-o", os.devnull], capsys)
    assert code == 0 and out == "" and err == ""
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)


@pytest.mark.slow
def test_a_full_disk_behind_standard_output_is_one_line(tmp_path):
    files = _files(tmp_path)
    env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "ts_eval", "score", files["good"], "--format", "html"],
                              stdout=full, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.returncode == 1
    assert proc.stderr == "ts-eval: error: <stdout>: cannot write the output: No space left on device\n"


def test_brat_folder_is_replaced_whole_or_not_at_all(tmp_path, capsys, monkeypatch):
    src = write(tmp_path / "in.jsonl", "".join(json.dumps({"id": f"d{k}", "tokens": ["a", "b"],
                                                           "spans": [{"start": 0, "end": 1, "label": "X"}]}) + "\n"
                                               for k in range(3)))
    out = tmp_path / "brat"
    code, _, err = run_cli(["convert", src, str(out) + "/"], capsys)
    assert code == 0, err
    old = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(old) == ["d0.ann", "d0.txt", "d1.ann", "d1.txt", "d2.ann", "d2.txt"]
    src2 = write(tmp_path / "in2.jsonl", Path(src).read_text().replace('"X"', '"Y"'))
    real, calls = os.write, []

    def fail_late(fd, data):       # the fifth file fails: the four written before are not renamed
        calls.append(fd)
        if len(calls) == 5:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", fail_late)
    code, _, err = run_cli(["convert", src2, str(out) + "/"], capsys)
    monkeypatch.undo()
    assert code == 1 and err.count("\n") == 1 and "No space left on device" in err, err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == old
    fresh = tmp_path / "fresh"
    monkeypatch.setattr(os, "write", fail_late)
    calls.clear()
    code, _, err = run_cli(["convert", src2, str(fresh) + "/"], capsys)
    monkeypatch.undo()
    assert code == 1 and not fresh.exists()      # the folder made for the output is removed again


@pytest.mark.slow
@pytest.mark.parametrize("name", ["png", "svg"])
def test_the_plot_is_written_whole_or_not_at_all(tmp_path, capsys, monkeypatch, name):
    pytest.importorskip("matplotlib")
    files = _files(tmp_path)
    plot = tmp_path / f"ranks.{name}"
    plot.write_text(OLD)
    argv = ["rank", files["two"], "--gold-col", "2", *NO_RESAMPLING, "--plot", str(plot)]
    _full_disk(monkeypatch)
    code, _, err = run_cli(argv, capsys)
    monkeypatch.undo()
    assert code == 1 and err.count("\n") == 1 and "No space left on device" in err, err
    assert plot.read_text() == OLD
    code, _, err = run_cli(argv, capsys)
    assert code == 0, err
    assert plot.read_bytes()[:4] in (b"\x89PNG", b"<?xm")


def test_a_read_only_file_is_not_replaced(tmp_path, capsys, monkeypatch):
    """As '>' would: a file the user may not write stays (os.access is patched: the tests may run as root)."""
    files = _files(tmp_path)
    out = tmp_path / "out.txt"
    out.write_text(OLD)
    out.chmod(0o444)
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if str(p) == str(out) and mode == os.W_OK
                        else real(p, mode, *a, **k))
    code, _, err = run_cli(["score", files["good"], "-o", str(out)], capsys)
    monkeypatch.undo()
    assert code == 1 and err.count("\n") == 1 and "Permission denied" in err, err
    assert out.read_text() == OLD and _listing(tmp_path) == sorted(["g.conll", "two.conll", "gold.conll", "out.txt"])
