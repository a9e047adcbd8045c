"""What is loaded before a command runs (issue 22.3): ``import ts_eval`` does not load numpy, and the
commands that multiply no matrices start numpy with one BLAS thread unless the user chose a number."""
from __future__ import annotations

import json
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


def test_score_of_one_column_file_imports_only_what_it_uses(tmp_path):
    """``score FILE`` to a file or pipe (no terminal) leaves the readers of other formats, of two-file
    mode and of generated outputs, and rich (terminal tables), unimported: imports are a good part of its
    time."""
    path = tmp_path / "f.conll"
    path.write_text("EU B-ORG B-ORG\nrejects O O\n\nPeter B-PER O\n")
    code = ("import json, sys, ts_eval.cli\n"
            "assert ts_eval.cli.main(['score', *sys.argv[1:]]) == 0\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('rich', 'ts_eval.io.')))))\n")
    for fmt in ([], ["--format", "json"]):
        done = subprocess.run([sys.executable, "-c", code, str(path), *fmt], capture_output=True, text=True, check=True)
        loaded = json.loads(done.stdout.strip().splitlines()[-1])
        unused = {"ts_eval.io.conllu", "ts_eval.io.conllu_blocks", "ts_eval.io.jsonl_blocks", "ts_eval.io.jsonl_scan",
                  "ts_eval.io.columns_feed", "ts_eval.io.generated", "ts_eval.io.lockstep"}
        assert "ts_eval.io.columns" in loaded and not unused & set(loaded), loaded
        assert not any(m.startswith("rich") for m in loaded), loaded
