"""The suite and the messages it reads do not depend on the user's terminal (issue 17.8).

``conftest.py`` starts every test without ``COLUMNS``; here the messages the suite greps are read
under a narrow and a wide exported width, and the tests that once failed under ``COLUMNS=80`` are
run in a subprocess with a narrow ``COLUMNS`` exported, as a user's shell may have it.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cli, write

ROOT = Path(__file__).parent.parent
DEMO = ROOT / "ts_eval" / "demo" / "germeval2014_test_sample.conll"
IOB1 = "a I-PER I-PER\nb I-PER O\nc O I-LOC\nd I-LOC I-LOC\ne B-LOC I-LOC\n\nf I-ORG I-ORG\n"

#: tests that read prose from the terminal table and failed with COLUMNS=80 exported
MESSAGE_TESTS = ("test_compare_semeval.py::test_cli_compare_models_semeval_equals_score",
                 "test_input_layout.py::test_many_repairs_under_iob2_suggest_iob1",
                 "test_label_map.py::test_labels_that_merge_merge_their_spans")


def words(text: str) -> str:
    """The text with every run of spaces and line ends as one space: prose wrapped at spaces reads
    the same at any width."""
    return " ".join(text.split())


def laid_out(text: str, width: int) -> None:
    """Every line fits ``width``, or is one word (a path is never cut to fit)."""
    for line in text.splitlines():
        assert len(line) <= width or " " not in line.strip(), (width, line)


@pytest.mark.slow
@pytest.mark.parametrize("width", [40, 200])
def test_the_messages_the_suite_reads_are_whole_at_any_width(tmp_path, capsys, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    deep = tmp_path / ("a-folder-whose-name-is-wider-than-a-narrow-terminal-" * 2)
    deep.mkdir()
    f = write(deep / "iob1.txt", IOB1)
    code, out, err = run_cli(["score", f, "--no-labels"], capsys)
    assert code == 0, err
    laid_out(out, width)
    assert f"{f}:1)" in out                                     # the path is never cut to fit
    assert f"gold: 3 ill-formed spans repaired, 0 discarded (first ill-formed: {f}:1)" in words(out)
    assert "gold: 3 of 4 spans are ill-formed under IOB2" in words(out)
    assert "--scheme IOB1 or --scheme auto" in words(out)
    code, out, err = run_cli(["compare", str(DEMO), "--gold-col", "2", "--system-col", "3", "4", "--models",
                              "semeval", "--examples", "0"], capsys)
    assert code == 0, err
    laid_out(out, width)
    assert "with --details (every machine format has them): SemEval-2013 per label" in words(out)


@pytest.mark.slow
def test_the_suite_passes_with_a_narrow_terminal_exported(tmp_path):
    env = {**os.environ, "COLUMNS": "40", "LINES": "10"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n0",
                           *(str(ROOT / "tests" / t) for t in MESSAGE_TESTS)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert f"{len(MESSAGE_TESTS)} passed" in proc.stdout
