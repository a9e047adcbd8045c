"""Errors at the edges (issue 17, points 6 and 7): every failure is one line and a documented exit code
(0 done, 1 bad input or failed write, 2 bad usage, 130 interrupted), and every message says what to do,
naming options as the command line spells them there and as Python keywords in the library."""
from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest
from support import fails, run_cli, write

import ts_eval
from ts_eval.cli.errors import UsageError
from ts_eval.core.sequences import from_sequences
from ts_eval.errors import InputError, OptionError
from ts_eval.ranking import study as ranking

GOLD = "EU B-ORG\nrejects O\nGerman B-MISC\ncall O\n\nPeter B-PER\nBlackburn I-PER\n"
SYS_A = "EU B-ORG\nrejects O\nGerman O\ncall O\n\nPeter B-PER\nBlackburn I-PER\n"
SYS_B = "EU O\nrejects O\nGerman B-MISC\ncall O\n\nPeter B-PER\nBlackburn O\n"


@pytest.fixture
def three(tmp_path):
    return (write(tmp_path / "gold.conll", GOLD), write(tmp_path / "a.conll", SYS_A),
            write(tmp_path / "b.conll", SYS_B))


def _env():
    """The environment of a ``ts-eval`` subprocess: this checkout's package first on the path."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(ts_eval.__file__)))
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _cli_process(argv, **kw):
    return subprocess.run([sys.executable, "-m", "ts_eval", *argv], capture_output=True, text=True, env=_env(),
                          timeout=120, **kw)


def _one_line(stderr: str) -> str:
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    return stderr


# ---------------------------------------------------------------------------
# point 6: tracebacks become one line and an exit code


def test_a_bootstrap_that_cannot_fit_in_memory_is_refused_before_reading(three, capsys, monkeypatch):
    from ts_eval.ranking import memory

    monkeypatch.setattr(memory, "available", lambda: 8 << 30)
    gold, a, b = three
    err = fails(capsys, ["rank", "--gold", gold, a, b, "--bootstrap", "1000000000"], 2,
                "--bootstrap 1000000000:", "1,000,000,000 resamples of 2 systems", "more than the 8.0 GiB available",
                "at most")
    assert "bootstrap=" not in err
    fit = int(err.split("at most ")[1].split(" resamples")[0].replace(",", ""))
    n_models = len(ranking.model_set(ts_eval.io.read_conll_pair(gold, [a, b]), None, ranking.REFERENCE_MODEL)[0])
    assert ranking.bootstrap_bytes(fit, 2, n_models) <= 8 << 30 < ranking.bootstrap_bytes(fit + 1, 2, n_models)
    with pytest.raises(OptionError) as info:      # the library says it too, with the keyword
        ts_eval.rank([["B-PER", "O"]], {"a": [["B-PER", "O"]], "b": [["O", "O"]]}, bootstrap=10**9)
    assert info.value.option == "bootstrap" and info.value.value == 10**9
    assert str(info.value).startswith("bootstrap=1000000000: ") and "GiB available" in str(info.value)


def _bootstrap_peak(corpus, resamples: int) -> int:
    tracemalloc.start()
    try:
        ranking.rank_corpus(corpus, bootstrap=resamples, permutations=0)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
@pytest.mark.parametrize("n_systems", [2, 8])
def test_the_memory_estimate_matches_the_measured_growth_of_the_bootstrap(n_systems):
    """What the resamples add to the peak (numpy's allocations, as tracemalloc sees them) is what
    bootstrap_bytes says, within a factor: the estimate is not a guess."""
    rng = np.random.default_rng(3)
    tags = np.array(["O", "O", "B-PER", "I-PER", "B-LOC"])
    gold = [list(rng.choice(tags, 8)) for _ in range(60)]
    systems = {f"s{k}": [list(rng.choice(tags, 8)) for _ in range(60)] for k in range(n_systems)}
    corpus = from_sequences(gold, systems)
    n_models = len(ranking.model_set(corpus, None, ranking.REFERENCE_MODEL)[0])
    grown = _bootstrap_peak(corpus, 4000) - _bootstrap_peak(corpus, 1000)
    estimate = ranking.bootstrap_bytes(3000, n_systems, n_models)
    assert 0.5 * estimate < grown < 1.1 * estimate, (grown, estimate)


def test_a_negative_seed_names_the_option(three, capsys):
    gold, a, b = three
    err = fails(capsys, ["rank", "--gold", gold, a, b, "--seed", "-1"], 2, "--seed -1:", "whole number >= 0")
    assert "seed=" not in err
    with pytest.raises(OptionError, match=r"^seed=-1: expected a whole number >= 0") as info:
        ts_eval.rank([["B-PER", "O"]], {"a": [["B-PER", "O"]], "b": [["O", "O"]]}, seed=-1)
    assert info.value.option == "seed"


@pytest.mark.parametrize("argv, typed, expected, python", [
    (["score", "{gold}", "--separator-weight", "-1"], "--separator-weight -1", "expected a finite number >= 0",
     dict(separator_weight=-1)),
    (["score", "{gold}", "--beta", "0"], "--beta 0", "expected a finite number > 0", dict(beta=0)),
    (["score", "{gold}", "--k1", "-1"], "--k1 -1", "expected a whole number >= 0", dict(k1=-1)),
    (["agree", "{gold}", "{a}", "--confidence", "2"], "--confidence 2", "expected a number between 0 and 1",
     dict(confidence=2)),
    (["agree", "{gold}", "{a}", "--separator-weight", "-1"], "--separator-weight -1", "expected a finite number",
     dict(separator_weight=-1)),
    (["agree", "{gold}", "{a}", "{b}", "--majority", "5", "-o", "{out}"], "--majority 5",
     "expected a number between 1 and the number of annotators (3)", dict(majority=5)),
    (["germeval", "{gold}", "--separator-weight", "-0.5"], "--separator-weight -0.5", "expected a finite number",
     None),
])
def test_a_bad_number_names_the_option_as_typed(three, tmp_path, capsys, argv, typed, expected, python):
    gold, a, b = three
    if argv[0] == "score":      # a file with gold and system columns
        gold = write(tmp_path / "gs.conll", "EU B-ORG B-ORG\nrejects O O\n")
    argv = [x.format(gold=gold, a=a, b=b, out=tmp_path / "m.conll") for x in argv]
    err = fails(capsys, argv, 2, f"{typed}: {expected}")
    assert not re.search(r"\w=", err), err           # no Python keyword on the command line
    if python is None:
        return
    keyword, value = next(iter(python.items()))
    with pytest.raises(OptionError, match=f"^{keyword}={value}: {re.escape(expected)}") as info:
        if argv[0] == "score":
            ts_eval.score([["B-PER", "O"]], [["B-PER", "O"]], **python)
        else:
            ts_eval.agree([gold, a, b], **python)
    assert info.value.option == keyword


def test_a_bad_option_of_rank_fails_before_the_inputs_are_read(tmp_path, capsys):
    missing = str(tmp_path / "nowhere.conll")
    fails(capsys, ["rank", "--gold", missing, missing, missing, "--seed", "-1"], 2, "--seed -1")
    fails(capsys, ["rank", "--gold", missing, missing, missing, "--confidence", "1.5"], 2, "--confidence 1.5")


@pytest.mark.parametrize("error,needles", [
    (OSError(errno.EIO, "Input/output error", "x.conll"), ["x.conll: Input/output error"]),
    (OSError(errno.ENOSPC, "No space left on device"), ["cannot write the output", "No space left on device"]),
    (PermissionError(errno.EACCES, "Permission denied", "out.json"), ["out.json: Permission denied"]),
    (MemoryError("Unable to allocate 149. GiB"), ["not enough memory", "149. GiB"]),
])
def test_an_os_or_memory_error_escaping_any_command_is_one_line_and_exit_1(three, capsys, monkeypatch, error,
                                                                          needles):
    from ts_eval.cli import app

    gold, a, b = three
    argv = {"demo": [], "convert": [gold, "-"], "germeval": [gold], "agree": [gold, a, b]}
    for command, module in app.command_modules().items():
        def boom(args, error=error):
            raise error
        monkeypatch.setattr(module, "run", boom)
        fails(capsys, [command, *argv.get(command, ["--gold", gold, a, b])], 1, *needles)
        monkeypatch.undo()


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_exit_1(three):
    gold, a, _ = three
    done = _cli_process(["score", "--gold", gold, a, "-o", "/dev/full"])
    assert done.returncode == 1 and "No space left on device" in _one_line(done.stderr)
    with open("/dev/full", "w") as full:          # standard output on a full disk
        done = subprocess.run([sys.executable, "-m", "ts_eval", "score", "--gold", gold, a, "--format", "json"],
                              stdout=full, stderr=subprocess.PIPE, text=True, env=_env(), timeout=120)
    assert done.returncode == 1 and "No space left on device" in _one_line(done.stderr)


@pytest.mark.slow
def test_ctrl_c_is_exit_130_and_one_line(three):
    """A real SIGINT to a ``ts-eval rank`` subprocess that is busy permuting."""
    gold, a, b = three
    code = textwrap.dedent(f"""
        import sys
        from ts_eval.cli import main
        print("ready", file=sys.stderr, flush=True)
        sys.exit(main(["rank", "--gold", {gold!r}, {a!r}, {b!r}, "--bootstrap", "0",
                       "--permutations", "1000000000", "--no-progress"]))
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env())
    try:
        assert proc.stderr.readline() == "ready\n"
        import time
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, (proc.returncode, err)
    assert err == "ts-eval: interrupted\n" and out == ""


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["score", "--gold", "{gold}", "{a}"], ["score", "--gold", "{gold}", "{a}",
                                                                          "--format", "json"],
                                  ["score", "--help"], ["convert", "{gold}", "-", "--to", "jsonl-tokens"]])
def test_a_closed_pipe_prints_no_traceback(three, argv):
    """``ts-eval ... | head -1``: the reader went away; nothing to report, exit 0."""
    gold, a, _ = three
    argv = [x.format(gold=gold, a=a) for x in argv]
    proc = subprocess.Popen([sys.executable, "-m", "ts_eval", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env())
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert "Traceback" not in err and "Exception ignored" not in err and "rror" not in err, err


def test_the_exit_codes_are_documented_in_the_readme():
    with open(os.path.join(os.path.dirname(__file__), os.pardir, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    table = readme[readme.index("| exit code |"):]
    table = table[:table.index("\n\n")]
    for code in ("| 0 |", "| 1 |", "| 2 |", "| 130 |"):
        assert code in table, table


def test_a_hint_is_data_and_each_audience_spells_it():
    from ts_eval.cli.spelling import spell_hint
    from ts_eval.errors import AnyOf, Hint

    err = InputError(["no tag source: give ", AnyOf(Hint("column", metavar="NAME"), Hint("misc_key", metavar="KEY")),
                      "; or ", Hint("tags_only", True), ", ", Hint("delimiter", "\t"), ", ", Hint("names")], "f", 3)
    assert str(err) == ("f:3: no tag source: give column=NAME or misc_key=KEY; or tags_only=True, "
                        "delimiter='\\t', names")
    flags = {"misc_key": ("--misc-key", True), "tags_only": ("--tags-only", False), "delimiter": ("--delimiter", True),
             "names": ("--names", True)}
    assert err.spelled(lambda h: spell_hint(h, flags)) == (
        "f:3: no tag source: give --misc-key KEY; or --tags-only, --delimiter '\\t', --names")
    assert err.option == "column" and [h.option for h in err.hints] == ["column", "misc_key", "tags_only",
                                                                       "delimiter", "names"]
    opt = OptionError("expected a whole number", option="seed", value=-1)
    assert str(opt) == "seed=-1: expected a whole number" and (opt.option, opt.value) == ("seed", -1)
    assert isinstance(UsageError("x"), ValueError)


def _choice_options():
    """Every command's options that argparse checks (a fixed set of values, or a type such as --scheme's),
    and the command itself."""
    from ts_eval.cli.app import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and a.dest == "command")
    out = [["nope"]]
    for command, p in sub.choices.items():
        for action in p._actions:
            if action.option_strings and (action.choices or action.type not in (None, int, float, str)):
                out.append([command, action.option_strings[-1], "nope"])
    return out


@pytest.mark.parametrize("argv", _choice_options(), ids=" ".join)
def test_an_unknown_choice_is_one_line_with_a_pointer_to_help(capsys, argv):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "usage:" not in err, err
    assert "'nope'" in err and "--help'" in err, err


def test_every_choice_option_is_checked():
    assert {"ts-eval score --scheme", "ts-eval score --format", "ts-eval rank --format", "ts-eval convert --to",
            "ts-eval germeval --policy"} <= {"ts-eval " + " ".join(a[:2]) for a in _choice_options()}


@pytest.mark.parametrize("command", ["fair", "validate"])
def test_a_second_gold_is_refused_where_one_is_taken(tmp_path, capsys, command):
    """``fair`` and ``validate`` take one gold: a second ``--gold`` is a usage error naming both (argparse kept the
    last one silently, and the first was never read)."""
    a = write(tmp_path / "a.conll", "x B-PER\n")
    b = write(tmp_path / "b.conll", "x O\n")
    fails(capsys, [command, "--gold", a, "--gold", b, a], 2, "--gold given twice", a, b)
