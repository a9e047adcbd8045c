"""The scoring program ``ts-eval codabench`` writes, run exactly as Codabench runs it (issue 35, points 2 and 3):
``scripts/codabench_contract.py``'s ``platform_run`` lays out a fresh folder as the compute worker does
(``program/`` from the program's zip, ``input/ref`` from the reference data's zip, ``input/res`` from the
submission's zip plus the platform's own ``metadata`` file, ``output/``), runs the command of ``metadata.yaml``
with its paths put in, in a process of its own without network, and reads ``output/scores.json``.

The gold and the submissions are small hand-made column files.  Gold has 4 spans (PER John Smith, LOC New York,
ORG Acme Corp, LOC Paris); the submission finds PER John Smith and LOC New York, ORG Acme only (a boundary error)
and PER Paris (a label error): 4 spans, 2 correct, so exact precision = recall = F1 = 2/4 = 0.5.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, List

import pytest

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).parent.parent / "scripts" / "codabench_contract.py"
GOLD = ("John B-PER\nSmith I-PER\nlives O\nin O\nNew B-LOC\nYork I-LOC\n. O\n\n"
        "He O\nworks O\nfor O\nAcme B-ORG\nCorp I-ORG\nin O\nParis B-LOC\n. O\n\n"
        "It O\nrains O\n. O\n")
CLEAN = GOLD.replace("Corp I-ORG", "Corp O").replace("Paris B-LOC", "Paris B-PER")
#: the same spans in IOB1 (a span starts with I- unless it follows one of its own type): the organiser who allows
#: IOB1 gives gold in IOB1 (the program refuses to be made when gold itself does not validate under its scheme)
GOLD_IOB1 = GOLD.replace("B-", "I-")
IOB1 = CLEAN.replace("B-", "I-")
COLUMNS = "exact-f1-micro,exact.micro.precision,exact.micro.recall,ts-f1-macro,fair-f1"
HAND = {"exact_f1_micro": 0.5, "exact_micro_precision": 0.5, "exact_micro_recall": 0.5}


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("codabench_contract", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module      # (its dataclass looks its module up there)
    spec.loader.exec_module(module)
    return module


contract = _script()


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The gold, its reference data zip, a program with score's defaults and one that reads IOB1."""
    root = tmp_path_factory.mktemp("kit")
    gold = root / "gold.conll"
    gold.write_text(GOLD)
    (root / "iob1").mkdir()
    (root / "iob1" / "gold.conll").write_text(GOLD_IOB1)
    return {"root": root, "gold": gold,
            "reference": contract.zip_files(root / "reference_data.zip", {"gold.conll": GOLD.encode()}),
            "reference_iob1": contract.zip_files(root / "reference_iob1.zip", {"gold.conll": GOLD_IOB1.encode()}),
            "program": contract.make_program(gold, root / "scoring_program", columns=COLUMNS),
            "iob1": contract.make_program(root / "iob1" / "gold.conll", root / "scoring_program_iob1",
                                          ["--scheme", "IOB1"], COLUMNS)}


def submit(kit, tmp_path, files: Dict[str, bytes], program: str = "program"):
    tmp_path.mkdir(exist_ok=True)
    zipped = contract.zip_files(tmp_path / "submission.zip", files)
    reference = kit["reference_iob1" if program == "iob1" else "reference"]
    return contract.platform_run(kit[program], reference, zipped, tmp_path / "platform")


def score_json(kit, tmp_path, text: str, *options: str) -> Dict[str, float]:
    """The columns' numbers of ``ts-eval score`` on the submission ``text``."""
    path = tmp_path / "run.conll"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "ts_eval", "score", "--gold", str(kit["gold"]), str(path), *options,
                           "--format", "json"], capture_output=True, text=True, check=True)
    settings = json.loads((kit["root"] / "scoring_program" / "settings.json").read_text())
    values: Dict[str, float] = contract.column_values(json.loads(done.stdout), settings["columns"])
    return values


def test_a_clean_submission_gets_the_hand_worked_scores_and_ts_eval_scores(kit, tmp_path):
    run = submit(kit, tmp_path, {"run1.conll": CLEAN.encode()})
    assert run.code == 0, run.stderr
    assert run.stderr == ""
    assert list(run.scores) == ["exact_f1_micro", "exact_micro_precision", "exact_micro_recall", "ts_f1_macro",
                                "fair_f1"]
    assert {k: run.scores[k] for k in HAND} == HAND
    assert run.scores == score_json(kit, tmp_path, CLEAN)
    out = tmp_path / "platform" / "output"
    assert run.outputs == ["detailed_results.html", "report.json", "scores.json", "scores.txt", "validation.html",
                           "validation.txt"]
    assert "every one would score as it is" in (out / "validation.txt").read_text()
    assert (out / "scores.txt").read_text().splitlines()[:3] == [
        "exact_f1_micro: 0.5", "exact_micro_precision: 0.5", "exact_micro_recall: 0.5"]
    page = (out / "detailed_results.html").read_text()
    assert page.rstrip().endswith("</html>") and "run1" in page and "/app/" not in page
    assert "made by ts_eval" in run.stdout


@pytest.mark.parametrize("variant, files", [
    ("CRLF line ends", {"run1.conll": CLEAN.replace("\n", "\r\n").encode()}),
    ("a byte order mark", {"run1.conll": b"\xef\xbb\xbf" + CLEAN.encode()}),
    ("a zip holding a folder", {"team/run1.conll": CLEAN.encode()}),
    ("the file named as gold", {"gold.conll": CLEAN.encode()}),
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_harmless_difference_scores_as_the_clean_file(kit, tmp_path, variant, files):
    run = submit(kit, tmp_path, files)
    assert run.code == 0, run.stderr
    assert {k: run.scores[k] for k in HAND} == HAND
    assert run.scores == score_json(kit, tmp_path, CLEAN)


def test_iob1_tags_score_as_the_clean_file_where_the_organiser_allows_iob1(kit, tmp_path):
    run = submit(kit, tmp_path, {"run1.conll": IOB1.encode()}, program="iob1")
    assert run.code == 0, run.stderr
    assert {k: run.scores[k] for k in HAND} == HAND
    assert run.scores == score_json(kit, tmp_path, CLEAN)
    # where the organiser does not allow IOB1, the same file is refused: its spans would be repairs
    refused = submit(kit, tmp_path / "iob2", {"run1.conll": IOB1.encode()})
    assert refused.code == 1 and "ill_formed" in refused.stderr and "Traceback" not in refused.stderr


NOT_AS_IT_IS = ("ts-eval: error: res/run1.conll would not score as it is; its problems (validation.txt and "
               "validation.html of the scoring output list up to 1000):\nSummary\n")


def _lines(text: str, k: int, line: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[k] = line
    return "".join(lines)


@pytest.mark.parametrize("variant, files, expected", [
    ("truncated", {"run1.conll": CLEAN[:CLEAN.index("Acme")].encode()},
     [NOT_AS_IT_IS, "(2 problems)", "5 token lines missing at the end of the file",
      "gold lines 12-16: Acme Corp in Paris", "the end of the file: 1 sentence of gold not there",
      "gold lines 18-20: It rains ."]),
    ("wrong tokens", {"run1.conll": CLEAN.replace("Smith", "Smyth").encode()},
     [NOT_AS_IT_IS, "(1 problem)", "token_mismatch   'Smyth'   'Smith' as on gold line 2"]),
    ("a missing column", {"run1.conll": _lines(CLEAN, 2, "lives\n").encode()},
     [NOT_AS_IT_IS, "(1 problem)", "column_count   1 column: 'lives'   2 columns as on line 1"]),
    ("two files", {"run1.conll": CLEAN.encode(), "run2.conll": CLEAN.encode()},
     ["the submission holds 2 files (run1.conll, run2.conll); expected one file"]),
    ("no file", {"team/": b""}, ["the submission holds no file; expected one file"]),
    ("a zip in the zip", {"run1.zip": b"PK\x03\x04"},
     ["the submission holds a zip, run1.zip; expected the file itself: zip the file once, not a zip of it"]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_broken_submission_fails_with_readable_lines_and_no_traceback(kit, tmp_path, variant, files,
                                                                      expected: List[str]):
    run = submit(kit, tmp_path, files)
    assert run.code == 1
    assert run.scores is None and "scores.json" not in run.outputs
    assert "Traceback" not in run.stderr and run.stderr.strip()
    assert all(e in run.stderr for e in expected), run.stderr
    if expected[0] == NOT_AS_IT_IS:    # the whole report for the participant, and as the detailed results
        out = tmp_path / "platform" / "output"
        assert {"validation.txt", "validation.html", "detailed_results.html"} <= set(run.outputs)
        assert (out / "detailed_results.html").read_bytes() == (out / "validation.html").read_bytes()
        assert all(e in (out / "validation.txt").read_text() for e in expected[2:])


def test_validate_names_a_submission_called_gold_as_told(tmp_path, capsys):
    """A participant's file may be called gold.conll: the program names it (--names), and validate, which read it
    once more as score does under the file's own name, refused it as naming the gold side (exit 2)."""
    from ts_eval.cli import main

    (tmp_path / "res").mkdir()
    (tmp_path / "gold.conll").write_text(GOLD)
    (tmp_path / "res" / "gold.conll").write_text(CLEAN)
    assert main(["validate", "--gold", str(tmp_path / "gold.conll"), str(tmp_path / "res" / "gold.conll"),
                 "--names", "run1"]) == 0
    assert "every one would score as it is" in capsys.readouterr().out


def test_validate_names_a_record_submission_called_gold_as_told(tmp_path, capsys):
    """The same for a submission in a format of records (JSON Lines), checked record by record."""
    from ts_eval.cli import main

    fixtures = Path(__file__).parent / "fixtures" / "validate"
    (tmp_path / "res").mkdir()
    (tmp_path / "res" / "gold.jsonl").write_bytes((fixtures / "clean.jsonl").read_bytes())
    assert main(["validate", "--gold", str(fixtures / "gold.jsonl"), str(tmp_path / "res" / "gold.jsonl"),
                 "--names", "run1"]) == 0
    assert "every one would score as it is" in capsys.readouterr().out


def test_the_contract_table_fails_on_any_mismatch(tmp_path, capsys):
    """scripts/codabench_contract.py's verdicts: a clean run whose scores.json differs from ts-eval score's, a
    broken run that exits 0 or shows a traceback, each make its exit code 1."""
    columns = [{"key": "exact_f1_micro", "path": ["exact", "micro", "f"]}]
    want = {"x": {"exact_f1_micro": 0.5}}

    def verdict(variant, run):
        return contract._table([("x", variant, tmp_path, {})], [run], want, tmp_path, columns, 1.0)

    assert verdict("clean", contract.Run(0, "", "", {"exact_f1_micro": 0.5})) == 0
    assert verdict("clean", contract.Run(0, "", "", {"exact_f1_micro": 0.5000001})) == 1
    assert verdict("CRLF", contract.Run(1, "", "ts-eval: error: x", None)) == 1
    assert verdict("two files", contract.Run(1, "", "ts-eval: error: the submission holds 2 files (a, b)", None)) == 0
    assert verdict("two files", contract.Run(0, "", "", {"exact_f1_micro": 0.5})) == 1
    traceback = "Traceback (most recent call last):\n token_mismatch"
    assert verdict("wrong tokens", contract.Run(1, "", traceback, None)) == 1
    assert "MISMATCH" in capsys.readouterr().out
