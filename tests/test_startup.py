"""What is loaded before a command runs (issue 22.3): ``import ts_eval`` does not load numpy, and the
commands that multiply no matrices start numpy with one BLAS thread unless the user chose a number."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ts_eval.cli import ONE_BLAS_THREAD

PROBE = ("import os, sys\n"
         "sys.argv = ['ts-eval', *sys.argv[1:]]\n"
         "import ts_eval.cli\n"
         "print(os.environ.get('OPENBLAS_NUM_THREADS'))\n")


def probe(*argv: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                          env={**clean, **env}, check=True)
    return done.stdout.strip()


def test_import_ts_eval_does_not_load_numpy():
    code = "import sys, ts_eval; print('numpy' in sys.modules); ts_eval.evaluate; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.parametrize("command", ONE_BLAS_THREAD)
def test_commands_without_matrix_products_start_one_blas_thread(command):
    assert probe(command, "x.conll") == "1"


@pytest.mark.parametrize("command", ["rank", "analyze", "agree"])
def test_resampling_commands_keep_the_default(command):
    assert probe(command, "x.conll") == "None"


def test_a_thread_count_the_user_set_is_kept():
    assert probe("score", "x.conll", OPENBLAS_NUM_THREADS="2") == "2"
