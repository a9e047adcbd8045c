"""The document renderers through the command line (#11): ``--format html`` for every command, rank's
terminal summary that fits 80 and 120 columns, ``--details``, and ``ts-eval convert``."""
from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from support import run_cli, write

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = ["northwind-tagger-alpha", "northwind-tagger-beta", "crf-baseline", "bilstm-crf-glove",
         "roberta-large-ft", "rules-only"]
LOADING = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//|@import|url\(\s*["']?(?:https?:)?//""", re.I)


def _six_systems(path: Path) -> str:
    """30 sentences, gold and six systems with growing error rates (seeded: the same file every run)."""
    rng = random.Random(3)
    lines = []
    for s in range(30):
        gold = ["O"] * 8
        i, lab = rng.randrange(0, 5), rng.choice(["PER", "LOC", "ORG"])
        gold[i], gold[i + 1] = f"B-{lab}", f"I-{lab}"
        for k in range(8):
            row = [f"w{s}_{k}", gold[k]]
            for n in range(6):
                noisy = rng.random() < 0.05 * (n + 1)
                row.append(rng.choice(["O", "B-PER", "B-LOC", "I-ORG"]) if noisy else gold[k])
            lines.append(" ".join(row))
        lines.append("")
    return write(path, "\n".join(lines) + "\n")


@pytest.fixture
def six(tmp_path, monkeypatch):
    """The file of six systems, named relative to the test's own folder: what the terminal prints of its path
    (a path is never cut to fit) does not depend on where the test runner keeps its folders."""
    monkeypatch.chdir(tmp_path)
    _six_systems(tmp_path / "six.conll")
    return "six.conll"


def _rank(six, *extra):
    return ["rank", six, "--gold-col", "2", "--names", *NAMES, "--bootstrap", "20", "--permutations", "20",
            "--no-progress", *extra]


def _fair_config(tmp_path):
    fix = FIXTURES / "faireval"
    return write(tmp_path / "c.config", f"target_in = {fix}/target/ner_spans.csv\n"
                                        f"system_in = {fix}/system/ner_spans.csv\n")


COMMANDS = {
    "score": (lambda tmp, six: ["score", six, "--gold-col", "2", "--names", *NAMES], NAMES),
    "rank": (lambda tmp, six: _rank(six), NAMES),
    "compare": (lambda tmp, six: ["compare", six, "--gold-col", "2", "--system-col", "3", "4",
                                  "--names", *NAMES[:2]], NAMES[:2]),
    "germeval": (lambda tmp, six: ["germeval", str(FIXTURES / "germeval" / "nested.tsv"), "--name", "my-germeval-run"],
                 ["my-germeval-run"]),
    "fair": (lambda tmp, six: ["fair", "--config", _fair_config(tmp)], ["ner_spans"]),
    "agree": (lambda tmp, six: ["agree", six, "--names", "gold", *NAMES, "--bootstrap", "20"], NAMES),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", list(COMMANDS))
def test_html_for_every_command_is_one_self_contained_page(tmp_path, capsys, six, command):
    argv, names = COMMANDS[command][0](tmp_path, six), COMMANDS[command][1]
    code, out, err = run_cli(argv + ["--format", "html"], capsys)
    assert code == 0, err
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    for name in names:
        assert name in out, name
    assert not LOADING.search(out), LOADING.search(out).group(0)   # nothing to load from the network
    assert "ts-eval " + command in out                              # the command line that reproduces it
    page = tmp_path / "page.html"                                    # --output: the same page into the file
    code, out2, err = run_cli(argv + ["--format", "html", "-o", str(page)], capsys)
    assert code == 0 and out2 == "", err
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("fmt", ["csv", "markdown", "latex"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_writes_every_document_format(tmp_path, capsys, six, command, fmt):
    """One road: every command's csv, markdown and latex are its document, rendered (#11.5)."""
    argv, names = COMMANDS[command][0](tmp_path, six), COMMANDS[command][1]
    code, _out, err = run_cli(argv + ["--format", fmt, "-o", str(tmp_path / "out")], capsys)
    assert code == 0, err
    text = (tmp_path / "out").read_text(encoding="utf-8")
    start = {"csv": "table,row,column,value,low,high,kind\n", "markdown": "# ", "latex": "% ts_eval: "}[fmt]
    assert text.startswith(start)
    for name in names if fmt == "markdown" else ():     # (a fair report's tables hold no system name)
        assert name in text, name


@pytest.mark.parametrize("columns", ["80", "120"])
def test_compare_examples_fit_the_terminal(monkeypatch, capsys, six, columns):
    monkeypatch.setenv("COLUMNS", columns)
    code, out, err = run_cli(["compare", six, "--gold-col", "2", "--system-col", "3", "8", "--names", NAMES[0],
                              NAMES[5], "--examples", "2"], capsys)
    assert code == 0, err
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= int(columns)
    assert "example 1 · token · " in out and re.search(r"\n +A ", out) and re.search(r"\n +B ", out)
    assert f"Line numbers are lines of {six} (gold, A and B)" in " ".join(out.split())    # the file once,
    assert " · line " in out                                                                # lines per example


def test_rank_html_has_per_label_scores_and_fair_bars(capsys, six):
    code, out, err = run_cli(_rank(six, "--format", "html"), capsys)
    assert code == 0, err
    assert "Per-label" in out and "Fair error" in out and "<svg" in out


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_rank_leads_with_the_model_asked_for_not_the_reference_it_adds(capsys, six, fmt):
    code, out, err = run_cli(_rank(six, "--models", "overlap-f1-micro", "--format", fmt, "--details"), capsys)
    assert code == 0, err
    boards = re.findall(r"leaderboard under (Ov-F1µ|Seg-F1µ)", out)
    assert boards[0] == "Ov-F1µ" and "Seg-F1µ" in boards          # the reference's board further down
    assert "exact-f1-micro added as the reference" in out


@pytest.mark.parametrize("columns", ["80", "120"])
def test_rank_summary_fits_the_terminal_without_cutting(monkeypatch, capsys, six, columns):
    monkeypatch.setenv("COLUMNS", columns)
    code, out, err = run_cli(_rank(six), capsys)
    assert code == 0, err
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= int(columns)
    for name in NAMES:
        assert name in out, name
    assert "leaderboard" in out and "rank shifts" in out and "Spearman" in out
    assert "Holm" in out                                       # the groups' correction is named
    # every reference score of the JSON report with its interval, in full (percent, two decimals)
    code, js, err = run_cli(_rank(six, "--format", "json"), capsys)
    data = json.loads(js)
    assert [s["name"] for s in data["systems"]] == NAMES
    for system in data["systems"]:
        m = system["models"][data["reference"]]
        want = f"{100 * m['score']:.2f} [{100 * m['score_low']:.2f}–{100 * m['score_high']:.2f}]"
        assert want in out, (system["name"], want)


@pytest.mark.slow
@pytest.mark.parametrize("columns", ["80", "120"])
def test_agree_table_fits_the_terminal_without_cutting(monkeypatch, capsys, six, columns):
    """Every section (with --details and intervals) at 80 and 120 columns: no line wider, nothing cut,
    every annotator's name whole, and every overall and pairwise figure of the JSON with its interval."""
    monkeypatch.setenv("COLUMNS", columns)
    argv = ["agree", six, "--names", "gold", *NAMES, "--bootstrap", "20", "--cases", "1000"]
    code, out, err = run_cli(argv + ["--details"], capsys)
    assert code == 0, err
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= int(columns)
    code, js, err = run_cli(argv + ["--format", "json"], capsys)
    data = json.loads(js)
    for name in NAMES:
        assert name in out, name
    figures = [(fig, kind) for key, kind in (("fleiss", "corr"), ("alpha", "corr"), ("alpha_u", "corr"),
                                              ("kappa", "corr"), ("f_exact", "score"))
               for fig in data["figures"][key].values()]
    figures += [(p[key]["micro"], kind) for p in data["pairs"]
                for key, kind in (("kappa", "corr"), ("f_exact", "score"))]
    for fig, kind in figures:
        for v in (fig["value"], fig["low"], fig["high"]):
            text = f"{v:.3f}" if kind == "corr" else f"{100 * v:.2f}"
            assert text in out, (fig, text)
    assert all(str(d["sentence"] + 1) in out for d in data["disagreements"]["items"])


@pytest.mark.slow
def test_rank_details_show_more(monkeypatch, capsys, six):
    monkeypatch.setenv("COLUMNS", "120")
    _, summary, _ = run_cli(_rank(six), capsys)
    code, details, err = run_cli(_rank(six, "--details"), capsys)
    assert code == 0, err
    assert len(details) > len(summary) and "…" not in details
    assert "Per-label" in details and "Per-label" not in summary


def test_rank_table_into_a_file_is_120_columns(tmp_path, capsys, six):
    dest = tmp_path / "rank.txt"
    code, out, err = run_cli(_rank(six, "-o", str(dest)), capsys)
    assert code == 0 and out == "", err
    text = dest.read_text(encoding="utf-8")
    assert "…" not in text and "\x1b[" not in text
    assert max(len(line) for line in text.splitlines()) <= 120
    assert all(name in text for name in NAMES)


def test_convert_round_trip_through_the_cli_gives_the_same_scores(tmp_path, capsys, six):
    rows = Path(six).read_text().split("\n")[:-1]
    gold = write(tmp_path / "gold.conll", "\n".join(" ".join(line.split()[:2]) for line in rows) + "\n")
    jsonl, back = str(tmp_path / "gold.jsonl"), str(tmp_path / "back.conll")
    code, out, err = run_cli(["convert", gold, jsonl, "--verify"], capsys)
    assert code == 0 and out == "", err
    assert "30 of 30 spans written" in err and "read back: the same spans" in err
    code, out, err = run_cli(["convert", jsonl, back, "--scheme", "IOB2", "--verify"], capsys)
    assert code == 0, err
    system = write(tmp_path / "sys.conll", "\n".join(" ".join(line.split()[:1] + line.split()[3:4])
                                                     for line in rows) + "\n")

    def score(g):
        code, out, err = run_cli(["score", "--gold", g, "--system", system, "--names", "sys", "--format", "json"],
                                 capsys)
        assert code == 0, err
        data = json.loads(out)
        data["settings"].pop("input", None)
        for key in ("path", "name", "file"):          # where the gold came from, not what it holds
            data["gold"].pop(key, None)
        return data

    assert score(gold) == score(back)
    assert Path(gold).read_text() == Path(back).read_text()


def test_convert_to_stdout_keeps_the_report_out_of_the_data(tmp_path, capsys, six):
    code, out, err = run_cli(["convert", six, "-", "--to", "jsonl-tokens"], capsys)
    assert code == 0, err
    assert all(json.loads(line)["tokens"] for line in out.splitlines())
    assert "ts-eval convert:" in err and "ts-eval" not in out


def test_convert_bad_input_exits_1_in_one_line(tmp_path, capsys):
    code, out, err = run_cli(["convert", str(tmp_path / "missing.conll"), str(tmp_path / "x.jsonl")], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1 and "missing.conll" in err
    assert not os.path.exists(tmp_path / "x.jsonl")


@pytest.mark.slow
def test_score_terminal_table_fits_80_and_120_columns_without_cutting(tmp_path, capsys, monkeypatch):
    """score's default table goes through the document renderer: at 80 and 120 columns no line is
    wider, nothing is cut with an ellipsis, and every summary score of the JSON appears in full."""
    import json as _json

    rows = ["a B-PER B-PER I-PER B-LOC", "b I-PER I-PER O I-LOC", "c O O B-ORG O", "",
            "d B-LOC B-LOC B-LOC O", "e O B-MISC O O"]
    monkeypatch.chdir(tmp_path)     # a short path: the line that names it is never cut to fit
    f = tmp_path / "multi.conll"
    f.write_text("\n".join(rows) + "\n")
    base = ["score", f.name, "--gold-col", "2", "--system-col", "3", "4", "5",
            "--names", "system-with-a-long-name-one", "system-with-a-long-name-two", "system-with-a-long-name-three"]
    code, out, err = run_cli(base + ["--format", "json", "--models", "ts,exact,overlap,contain,fair,semeval"], capsys)
    assert code == 0, err
    data = _json.loads(out)
    for width in (80, 120):
        monkeypatch.setenv("COLUMNS", str(width))
        code, out, err = run_cli(base + ["--models", "ts,exact,overlap,contain,fair,semeval"], capsys)
        assert code == 0, err
        assert "\u2026" not in out
        assert max(len(line) for line in out.splitlines()) <= width
        for s in data["systems"]:
            assert s["name"] in out or s["name"][len("system-with-a-long-name-"):] in out
            for v in (s["ts"]["micro"]["f"], s["exact"]["micro"]["f"], s["fair"]["fair"]["micro"]["f"],
                      s["semeval"]["strict"]["overall"]["f"]):
                assert f"{100 * v:.2f}" in out, (width, v)


def test_score_details_shows_the_sections_the_summary_names(capsys, monkeypatch):
    """The table names the sections left out "with --details": score takes --details (alias --confusion)."""
    monkeypatch.setenv("COLUMNS", "120")
    code, out, err = run_cli(["demo", "--no-labels"], capsys)
    assert code == 0, err
    assert "with --details" in out and "fair confusion matrix (diagonal" not in out
    code, out, err = run_cli(["demo", "--no-labels", "--details"], capsys)
    assert code == 0, err
    assert "fair confusion matrix (diagonal" in out
