"""``ts-eval codabench`` itself (issue 35, point 2): what it writes (never over anything), the options and columns
it refuses before writing, the competition.yaml lines it prints, and how the program it writes fails when the
platform's image has no ts_eval, a ts_eval of another release series, or when ts_eval has a bug: one line on
standard error each, never a traceback.  The gold is test_codabench's."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from test_codabench import CLEAN, GOLD, contract

from ts_eval import __version__
from ts_eval.cli.codabench_script import series

SCRIPT = Path(__file__).parent.parent / "ts_eval" / "cli" / "codabench_script.py"
yaml = pytest.importorskip("yaml")      # what Codabench reads metadata.yaml and competition.yaml with (mkdocs's)


def make(tmp_path, *args: str, out: str = "prog"):
    gold = tmp_path / "gold.conll"
    gold.write_text(GOLD)
    return subprocess.run([sys.executable, "-m", "ts_eval", "codabench", "--gold", str(gold), "-o",
                           str(tmp_path / out), *args], capture_output=True, text=True, cwd=tmp_path, check=False)


def test_series_is_the_major_version_and_for_0x_the_minor_too():
    assert series("0.2.0") == series("0.2.7") == "0.2"
    assert series("0.3.0") != series("0.2.0")
    assert series("1.2.0") == series("1.9.3") == "1"
    assert series("2.0.0") != series("1.9.3")


@pytest.mark.slow
def test_the_program_folder_its_zip_and_the_competition_yaml_lines(tmp_path):
    done = make(tmp_path, "--columns", "exact-f1-micro,ts-f1-macro,exact.labels.LOC.f", "--primary", "ts-f1-macro",
                "--", "--scheme", "IOB2", "--policy", "conlleval")
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "prog"
    assert sorted(p.name for p in folder.iterdir()) == ["metadata", "metadata.yaml", "score.py", "settings.json"]
    with zipfile.ZipFile(tmp_path / "prog.zip") as z:
        assert sorted(z.namelist()) == ["metadata", "metadata.yaml", "score.py", "settings.json"]
        assert z.read("metadata") == z.read("metadata.yaml")     # CodaLab's name
        assert z.read("score.py") == SCRIPT.read_bytes()
        assert z.read("settings.json") == (folder / "settings.json").read_bytes()
    assert yaml.safe_load((folder / "metadata.yaml").read_text())["command"] == \
        "python3 $program/score.py $input $output"
    settings = json.loads((folder / "settings.json").read_text())
    assert settings["ts_eval"] == __version__
    assert settings["score_options"] == ["--scheme", "IOB2", "--policy", "conlleval"]
    assert settings["gold"] == {"name": "gold.conll", "sha256": hashlib.sha256(GOLD.encode()).hexdigest()}
    assert [c["key"] for c in settings["columns"]] == ["ts_f1_macro", "exact_f1_micro", "exact_labels_LOC_f"]
    assert [c["path"] for c in settings["columns"]] == [["ts", "macro", "f"], ["exact", "micro", "f"],
                                                        ["exact", "labels", "LOC", "f"]]
    # the printed lines: the trial's scores.json (gold against itself), then competition.yaml's lines
    lines = done.stdout.splitlines()
    tried = json.loads(lines[1].split("scores.json ", 1)[1])
    assert tried == {"ts_f1_macro": 1.0, "exact_f1_micro": 1.0, "exact_labels_LOC_f": 1.0}
    competition = yaml.safe_load("\n".join(lines[2:]))
    assert competition["tasks"][0]["scoring_program"] == "prog.zip"
    board = competition["leaderboards"][0]["columns"]
    assert [(c["key"], c["index"], c["title"]) for c in board] == [
        ("ts_f1_macro", 0, "TS-F1M"), ("exact_f1_micro", 1, "Seg-F1µ"), ("exact_labels_LOC_f", 2, "exact.labels.LOC.f")]
    assert [c["key"] for c in board] == list(tried)


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [
    (["--columns", "nope-f1"], "--columns: unknown column 'nope-f1'"),
    (["--columns", "overlap-f1-micro"], "--columns: overlap-f1-micro needs the model overlap: add it to score's "
                                        "--models (now ts,exact,fair)"),
    (["--columns", "t-f1-micro"], "--columns: t-f1-micro is reported with --separator-weight 0.0 only"),
    (["--columns", "exact-f1-micro,exact.f1.micro"], "--columns: two columns have the key exact_f1_micro"),
    (["--", "--format", "html"], "--format is not an option of the scoring program"),
    (["--", "--names", "x"], "--names is not an option of the scoring program: it sets it itself"),
    (["--", "--tag-names", "gold.conll"], "--tag-names is not an option of the scoring program: the file would not "
                                          "be on the platform"),
    (["--", "other.conll"], "give score's options after --, not files"),
    (["--", "--scheme", "NOPE"], "--scheme"),
])
def test_options_the_program_cannot_use_are_refused_before_anything_is_written(tmp_path, args, message):
    done = make(tmp_path, *args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold.conll"]


@pytest.mark.slow
def test_a_column_for_t_f1_with_a_separator_weight_of_0(tmp_path):
    done = make(tmp_path, "--columns", "t-f1-micro", "--", "--separator-weight", "0")
    assert done.returncode == 0, done.stderr
    assert '"t_f1_micro": 1.0' in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("existing", ["prog", "prog.zip"])
def test_nothing_is_written_over_an_existing_folder_or_zip(tmp_path, existing):
    (tmp_path / existing).mkdir() if existing == "prog" else (tmp_path / existing).write_text("mine")
    done = make(tmp_path)
    assert done.returncode == 2
    assert f"{tmp_path / existing} exists; the program is never written over anything" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["gold.conll", existing])
    assert existing == "prog" or (tmp_path / existing).read_text() == "mine"


@pytest.mark.slow
def test_a_path_column_score_has_no_number_for_fails_the_trial(tmp_path):
    done = make(tmp_path, "--columns", "exact.micro.fscore")
    assert done.returncode == 1
    assert "ts-eval score's result holds no number for the column(s) exact.micro.fscore" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold.conll"]


def _program(tmp_path, **changes) -> Path:
    """The program's zip with ``changes`` made to its settings.json."""
    assert make(tmp_path).returncode == 0
    settings = json.loads((tmp_path / "prog" / "settings.json").read_text())
    settings.update(changes)
    settings = {k: v for k, v in settings.items() if v is not None}
    files = {n: (tmp_path / "prog" / n).read_bytes() for n in ("metadata.yaml", "metadata", "score.py")}
    return contract.zip_files(tmp_path / "changed.zip", {**files, "settings.json": json.dumps(settings).encode()})


def _run(tmp_path, program: Path, image: str = ""):
    reference = contract.zip_files(tmp_path / "ref.zip", {"gold.conll": GOLD.encode()})
    submission = contract.zip_files(tmp_path / "sub.zip", {"run1.conll": CLEAN.encode()})
    return contract.platform_run(program, reference, submission, tmp_path / "platform", image=image)


@pytest.mark.slow
def test_a_program_of_another_release_series_fails_with_one_line(tmp_path):
    run = _run(tmp_path, _program(tmp_path, ts_eval="9.0.0"))
    assert run.code == 1 and run.scores is None
    assert run.stderr == (f"scoring program: this program was made by ts_eval 9.0.0 and ts_eval {__version__} runs "
                          "it; a release of the 9.x series must run it: install it in the competition's docker image "
                          "(pip install 'ts-eval==9.0.0'), or make the program again with ts-eval codabench of "
                          f"ts_eval {__version__}\n")


@pytest.mark.parametrize("settings, why", [(b"{bad", "JSONDecodeError"), (b"[]", "TypeError"),
                                           (b"{}", "KeyError: 'ts_eval'")])
def test_a_settings_file_edited_by_hand_fails_with_one_line_not_a_traceback(tmp_path, settings, why):
    """The organiser's edit of settings.json (JSON that does not parse, or keys gone) was a traceback."""
    assert make(tmp_path).returncode == 0
    (tmp_path / "prog" / "settings.json").write_bytes(settings)
    done = subprocess.run([sys.executable, str(tmp_path / "prog" / "score.py"), str(tmp_path / "in"),
                           str(tmp_path / "out")], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"scoring program: its settings.json cannot be read ({why}")
    assert done.stderr.rstrip().endswith("make the program again with ts-eval codabench, and do not edit settings.json")


def blocked(module: str, error: str = "ImportError") -> str:
    """Python for the image's start that makes importing ``module`` raise ``error``."""
    return f"""
import sys

class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == {module!r}:
            raise {error}("No module named {module!r}")

sys.meta_path.insert(0, _Blocked())
"""


BLOCK_TS_EVAL = blocked("ts_eval")


@pytest.mark.slow
def test_an_image_without_ts_eval_fails_with_one_line(tmp_path):
    run = _run(tmp_path, _program(tmp_path), image=BLOCK_TS_EVAL)
    assert run.code == 1 and run.scores is None
    assert run.stderr == (f"scoring program: ts_eval is not installed in this image; this program was made by "
                          f"ts_eval {__version__}: install it in the competition's docker image (pip install "
                          f"'ts-eval=={__version__}')\n")


@pytest.mark.slow
def test_a_bug_is_one_line_for_the_participant_and_a_traceback_for_the_organisers(tmp_path):
    run = _run(tmp_path, _program(tmp_path, columns=None))      # settings.json without its columns
    assert run.code == 1 and run.scores is None
    assert run.stderr == (f"scoring program: internal error of ts_eval {__version__} (KeyError: 'columns'); the "
                          "organisers find its traceback in the scoring output (traceback.txt)\n")
    traceback = (tmp_path / "platform" / "output" / "traceback.txt").read_text()
    assert traceback.startswith("Traceback") and "KeyError: 'columns'" in traceback


@pytest.mark.slow
def test_a_python_ts_eval_cannot_run_on_fails_with_one_line(tmp_path):
    run = _run(tmp_path, _program(tmp_path), image=blocked("ts_eval", "SyntaxError"))   # as Python 3.6 does
    assert run.code == 1 and run.scores is None
    assert run.stderr.startswith("scoring program: ts_eval cannot be imported with Python ")
    assert run.stderr.endswith(f" (SyntaxError: No module named 'ts_eval'); it needs Python 3.9 or later: install it "
                               f"in the competition's docker image (pip install 'ts-eval=={__version__}')\n")


@pytest.mark.slow
def test_ts_eval_without_its_dependencies_fails_with_one_line(tmp_path):
    run = _run(tmp_path, _program(tmp_path), image=blocked("numpy"))
    assert run.code == 1 and run.scores is None
    assert run.stderr == (f"scoring program: ts_eval {__version__} cannot run here (ImportError: No module named "
                          "'numpy'): install it with its dependencies in the competition's docker image (pip install "
                          f"'ts-eval=={__version__}')\n")


@pytest.mark.slow
def test_submission_name_picks_the_file_among_several(tmp_path):
    assert make(tmp_path, "--submission-name", "predictions.conll").returncode == 0
    reference = contract.zip_files(tmp_path / "ref.zip", {"gold.conll": GOLD.encode()})
    submission = contract.zip_files(tmp_path / "sub.zip", {"predictions.conll": CLEAN.encode(),
                                                           "README.txt": b"our system\n"})
    run = contract.platform_run(tmp_path / "prog.zip", reference, submission, tmp_path / "platform")
    assert run.code == 0, run.stderr
    assert run.scores["exact_f1_micro"] == 0.5
    other = contract.zip_files(tmp_path / "other.zip", {"a.conll": CLEAN.encode(), "b.conll": CLEAN.encode()})
    run = contract.platform_run(tmp_path / "prog.zip", reference, other, tmp_path / "platform2")
    assert run.code == 1
    assert run.stderr == ("ts-eval: error: the submission holds 2 files (a.conll, b.conll); expected one file, "
                          "predictions.conll\n")


@pytest.mark.slow
def test_reference_data_of_another_name_or_content_is_used_and_noted(tmp_path):
    """The program's gold is the one file of the reference data; other bytes than those it was made with are
    noted on standard output (another phase's gold, or a stale upload), not refused."""
    assert make(tmp_path).returncode == 0
    changed = GOLD.replace("Paris B-LOC", "Paris B-PER")          # now the submission's 4 spans: 3 correct
    reference = contract.zip_files(tmp_path / "ref.zip", {"test.conll": changed.encode()})
    submission = contract.zip_files(tmp_path / "sub.zip", {"run1.conll": CLEAN.encode()})
    run = contract.platform_run(tmp_path / "prog.zip", reference, submission, tmp_path / "platform")
    assert run.code == 0, run.stderr
    assert run.scores["exact_f1_micro"] == 0.75
    assert "note: ref/test.conll is not the gold this program was made with (gold.conll)" in run.stdout


@pytest.mark.slow
def test_a_program_for_json_lines_gold_scores_json_lines_submissions(tmp_path):
    """Gold and submissions in another input format (JSON Lines of tokens and spans: validate's fixtures, where
    the clean submission holds gold's spans, and one token changed is a token_mismatch)."""
    fixtures = Path(__file__).parent / "fixtures" / "validate"
    done = subprocess.run([sys.executable, "-m", "ts_eval", "codabench", "--gold", str(fixtures / "gold.jsonl"), "-o",
                           str(tmp_path / "prog"), "--columns", "exact-f1-micro"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    reference = contract.zip_files(tmp_path / "ref.zip", {"gold.jsonl": (fixtures / "gold.jsonl").read_bytes()})
    clean = (fixtures / "clean.jsonl").read_text()
    for k, (text, code, scores) in enumerate([(clean, 0, {"exact_f1_micro": 1.0}),
                                              (clean.replace('"EU"', '"EX"', 1), 1, None)]):
        submission = contract.zip_files(tmp_path / f"sub{k}.zip", {"team.jsonl": text.encode()})
        run = contract.platform_run(tmp_path / "prog.zip", reference, submission, tmp_path / f"platform{k}")
        assert (run.code, run.scores) == (code, scores), run.stderr
    assert "token_mismatch" in run.stderr and "Traceback" not in run.stderr
