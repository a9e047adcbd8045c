"""Extending is one module: a toy model registered from outside the package with the public API
(:func:`ts_eval.models.register`, docs/architecture.md "How to add a model") shows in ``score`` (the
terminal's table and JSON), ``rank`` (the leaderboard and JSON) and ``analyze`` (JSON, with span
buckets), and no file of the package is touched: the module lives in a temporary folder and is imported
before the command line runs, in a process of its own (the registry of this test process stays as it is).

Each toy is the source of one module (:data:`TOY_MODEL`); :func:`run` imports the modules it is given and
runs one command line, so a toy of another kind (a format) is another module beside it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

#: "spans found at all": a gold span is found when some system span overlaps it, whatever the labels, and a
#: system span is found when it overlaps some gold span; F1 of the two.  One module, public names only.
TOY_MODEL = '''
import numpy as np

from ts_eval.models import Contributions, Display, ModelSpec, ResultColumn, Score, register

GOLD, SYSTEM, GOLD_FOUND, SYSTEM_FOUND = range(4)


def _found(sd):
    gold, system, pairs = sd.cd.corpus.gold, sd.spans, sd.pairs
    g, s = np.zeros(len(gold), bool), np.zeros(len(system), bool)
    g[pairs.gold], s[pairs.system] = True, True
    return gold, system, g, s


def found_stats(sd, settings, sentences):
    """Per sentence (or for the corpus): gold spans, system spans, gold spans found, system spans found."""
    gold, system, g, s = _found(sd)
    corpus = sd.cd.corpus
    rows = corpus.n_sentences if sentences else 1
    gs = corpus.sentence_of(gold.start) if sentences else np.zeros(len(gold), np.int64)
    ss = corpus.sentence_of(system.start) if sentences else np.zeros(len(system), np.int64)
    key = np.concatenate([gs * 4 + GOLD, ss * 4 + SYSTEM, gs[g] * 4 + GOLD_FOUND, ss[s] * 4 + SYSTEM_FOUND])
    return np.bincount(key, minlength=rows * 4).reshape(rows, 4)


def found_prf(x):
    x = np.asarray(x, float)
    zero = np.zeros(x.shape[:-1])
    p = np.divide(x[..., SYSTEM_FOUND], x[..., SYSTEM], out=zero.copy(), where=x[..., SYSTEM] > 0)
    r = np.divide(x[..., GOLD_FOUND], x[..., GOLD], out=zero.copy(), where=x[..., GOLD] > 0)
    return p, r, np.divide(2 * p * r, p + r, out=zero.copy(), where=p + r > 0)


def found_f1(x):
    return found_prf(x)[2]


def found_result(tally, totals):
    x = tally.sums
    p, r, f = (float(v) for v in found_prf(x))
    return {"gold": int(x[GOLD]), "system": int(x[SYSTEM]), "gold_found": int(x[GOLD_FOUND]),
            "system_found": int(x[SYSTEM_FOUND]), "precision": p, "recall": r, "f": f}


def found_split(sd):
    gold, system, g, s = _found(sd)
    gi, si = np.arange(len(gold)), np.arange(len(system))
    return Contributions.of([(0, gi, np.full(len(gi), GOLD), np.ones(len(gi))),
                             (0, gi, np.full(len(gi), GOLD_FOUND), g),
                             (1, si, np.full(len(si), SYSTEM), np.ones(len(si))),
                             (1, si, np.full(len(si), SYSTEM_FOUND), s)], 4)


register(ModelSpec(
    "found", "spans found at all: overlapping any span of the other side, whatever the labels", found_stats, (4, 0),
    (Score("found-f1", "Found-F1", found_f1, "F1 of spans found at all", reported=("f",)),), found_result,
    display=Display("spans found at all", (ResultColumn("found_f", "found F", ("f",), counts=("gold", "system")),),
                    headline=ResultColumn("found", "found F", ("f",)), gloss="found counts spans that overlap at all"),
    split=found_split, counts=lambda block: block, count_names=("gold", "system", "gold_found", "system_found")))
'''

#: two sentences; gold PER, LOC | ORG; system "sys" ORG (inside PER), MISC | ORG, PER; system "same" = gold
CONLL = """A B-PER B-PER O
B I-PER I-PER B-ORG
C O O O
D B-LOC B-LOC O
E O O O
F O O B-MISC

G B-ORG B-ORG B-ORG
H O O O
I O O B-PER
"""
def columns(path: Path) -> List[str]:
    return [str(path), "--gold-col", "2", "--system-col", "4", "3", "--names", "sys", "same"]


#: sys: 2 of its 4 spans overlap a gold span, 2 of the 3 gold spans are overlapped: P 1/2, R 2/3, F1 4/7
FOUND_F1 = 4 / 7


def run(tmp_path: Path, modules: Dict[str, str], *argv: str) -> subprocess.CompletedProcess:
    """The command line ``argv`` in a process that first imports ``modules`` (name -> source), written to a
    folder of their own, not the package's."""
    folder = tmp_path / "outside"
    folder.mkdir(exist_ok=True)
    for name, source in modules.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    path = os.pathsep.join([str(folder), *filter(None, [os.environ.get("PYTHONPATH")])])
    code = (f"import sys\nimport {', '.join(modules)}\nfrom ts_eval.cli.app import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": path, "COLUMNS": "200"})


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "toy.conll"
    path.write_text(CONLL, encoding="utf-8")
    return path


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_toy_model_registered_outside_shows_in_score(tmp_path, data):
    model = {"toy_model": TOY_MODEL}
    report = json.loads(ok(run(tmp_path, model, "score", *columns(data), "--models", "exact,found",
                               "--format", "json")))
    sys_found = report["systems"][0]["found"]
    assert {k: sys_found[k] for k in ("gold", "system", "gold_found", "system_found")} == \
        {"gold": 3, "system": 4, "gold_found": 2, "system_found": 2}
    assert sys_found["f"] == pytest.approx(FOUND_F1) and report["systems"][1]["found"]["f"] == 1.0
    assert report["settings"]["models"] == ["exact", "found"]
    page = ok(run(tmp_path, model, "score", str(data), "--gold-col", "2", "--system-col", "4", "--models",
                  "exact,found"))
    assert "found" in page and f"{100 * FOUND_F1:.2f}" in page      # the summary's declared column
    overview = ok(run(tmp_path, model, "score", *columns(data), "--models", "exact,found"))
    assert f"{100 * FOUND_F1:.2f}   2" in overview                     # the first screen: its headline and rank
    assert "found counts spans that overlap at all" in overview


def test_a_toy_model_registered_outside_shows_in_rank(tmp_path, data):
    model = {"toy_model": TOY_MODEL}
    ranked = json.loads(ok(run(tmp_path, model, "rank", *columns(data), "--models",
                               "found-f1,exact-f1-micro", "--bootstrap", "20", "--permutations", "0", "--format",
                               "json")))
    assert "found-f1" in json.dumps(ranked["models"]) and f"{FOUND_F1!r}"[:12] in json.dumps(ranked)
    board = ok(run(tmp_path, model, "rank", *columns(data), "--models", "found-f1",
                   "--bootstrap", "20", "--permutations", "0"))
    assert "Found-F1" in board and f"{100 * FOUND_F1:.1f}" in board
    listed = ok(run(tmp_path, model, "rank", "--list-models"))
    assert "found-f1" in listed.splitlines()[-1]       # after every model of the package


def test_a_toy_model_registered_outside_shows_in_analyze(tmp_path, data):
    model = {"toy_model": TOY_MODEL}
    out = json.loads(ok(run(tmp_path, model, "analyze", *columns(data), "--models",
                            "found-f1,exact-f1-micro", "--attributes", "label,sentence_length", "--bootstrap", "10",
                            "--permutations", "0", "--no-errors", "--format", "json")))
    text = json.dumps(out)
    assert "found-f1" in text and f"{FOUND_F1!r}"[:12] in text
    labels: List[dict] = [a for a in out["attributes"] if a["name"] == "label"]
    per = {b["name"]: b["systems"]["sys"] for b in labels[0]["buckets"]}
    # a bucket of spans: PER holds gold PER (found) and the system's PER (not found): P 0, R 1 -> F 0
    assert per["PER"]["models"]["found-f1"]["score"] == 0.0
    assert per["ORG"]["counts"]["found"] == {"gold": 1, "system": 2, "gold_found": 1, "system_found": 2}
