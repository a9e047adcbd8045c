"""What is loaded before a command runs (issue 22.3): ``import ts_eval`` does not load numpy, and the
commands that multiply no matrices (and analyze, issue 32) start numpy with one BLAS thread unless the user
chose a number."""
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
    code = ("import sys, ts_eval; print('numpy' in sys.modules); ts_eval.score([['B-A']], [['B-A']]); "
            "print('numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.parametrize("command", ONE_BLAS_THREAD)
def test_commands_without_matrix_products_start_one_blas_thread(command):
    assert probe(command, "x.conll") == "1"


@pytest.mark.parametrize("command", ["agree"])
def test_resampling_commands_keep_the_default(command):
    """(``rank`` and ``analyze`` multiply only small or thin matrices: one BLAS thread, above.)"""
    assert probe(command, "x.conll") == "None"


def test_a_thread_count_the_user_set_is_kept():
    assert probe("score", "x.conll", OPENBLAS_NUM_THREADS="2") == "2"


def test_score_of_one_column_file_imports_only_what_it_uses(tmp_path):
    """``score FILE`` to a file or pipe (no terminal) leaves the readers of other formats, of two-file
    mode and of generated outputs, the models it does not count, what only ``--jobs`` uses, the
    standard library's json (but for ``--format json``) and fractions, and rich (terminal tables),
    unimported: imports are a good part of its time."""
    path = tmp_path / "f.conll"
    path.write_text("EU B-ORG B-ORG\nrejects O O\n\nPeter B-PER O\n")
    code = ("import sys, ts_eval.cli\n"       # (no json here: whether the command imports it is the question)
            "assert ts_eval.cli.main(['score', *sys.argv[1:]]) == 0\n"
            "print(' '.join(sorted(sys.modules)))\n")
    unused = {"ts_eval.io.conllu", "ts_eval.io.conllu_blocks", "ts_eval.io.jsonl_blocks", "msgspec",
              "ts_eval.io.columns_feed", "ts_eval.io.generated", "ts_eval.io.lockstep", "ts_eval.io.documents",
              "ts_eval.core.tokensets", "ts_eval.models.semeval", "ts_eval.models.germeval", "ts_eval.models.strings",
              "ts_eval.streaming.shards", "fractions", "decimal", "numpy.typing"}
    for fmt in ([], ["--format", "json"]):
        done = subprocess.run([sys.executable, "-c", code, str(path), *fmt], capture_output=True, text=True, check=True)
        loaded = set(done.stdout.strip().splitlines()[-1].split())
        assert {"ts_eval.io.columns", "ts_eval.streaming.files", "ts_eval.models.fair"} <= loaded, loaded
        assert not unused & loaded, unused & loaded
        assert ("json" in loaded) == bool(fmt), fmt
        assert not any(m.startswith("rich") for m in loaded), loaded


def test_writing_the_report_to_a_file_imports_no_hashing(tmp_path):
    """``score FILE -o OUT`` names its temporary file without the secrets module, which imports hashlib and
    OpenSSL (a few ms of every run)."""
    path = tmp_path / "f.conll"
    path.write_text("EU B-ORG B-ORG\nrejects O O\n")
    code = ("import sys, ts_eval.cli\n"
            "assert ts_eval.cli.main(['score', *sys.argv[1:]]) == 0\n"
            "print(' '.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code, str(path), "-o", str(tmp_path / "out.txt")],
                          capture_output=True, text=True, check=True)
    loaded = set(done.stdout.strip().splitlines()[-1].split())
    assert not {"secrets", "hashlib", "hmac"} & loaded
    assert "Summary" in (tmp_path / "out.txt").read_text()


def test_the_registry_is_whole_when_it_is_read():
    """The models ``score`` does not count by default are imported when the registry is read or one of their
    models is asked for, in one order: the registry's order is the same whatever reads it or imports a model
    module first."""
    code = ("import sys\n"
            "from ts_eval.models import registry\n"
            "assert 'ts_eval.models.semeval' not in sys.modules\n"
            "{}\n"
            "print(' '.join(registry.REGISTRY), '|', ' '.join(registry.score_names()))\n")
    firsts = ["pass", "registry.score_specs(['strings'])", "registry.get_model('semeval-strict-f1')",
              "registry.known_specs(['semeval'])", "import ts_eval.models.strings", "import ts_eval.models.semeval",
              "import ts_eval.models.germeval", "import ts_eval.analysis.study",
              "import ts_eval.ranking.sufficient", "from ts_eval.models import REGISTRY"]
    orders = {subprocess.run([sys.executable, "-c", code.format(first)], capture_output=True, text=True,
                             check=True).stdout for first in firsts}
    assert len(orders) == 1, orders
    names, families = orders.pop().split(" | ")
    assert names.split()[-7:] == ["germeval-m1", "semeval-strict-f1", "semeval-exact-f1", "semeval-partial-f1",
                                  "semeval-ent-type-f1", "strings-f1-micro", "strings-f1-macro"]
    assert families.split() == ["ts", "exact", "overlap", "constrained", "contain", "fair", "semeval", "strings"]
