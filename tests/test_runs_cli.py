"""``--runs NAME=PATTERN`` of ``rank`` and ``score`` (issue 33): systems given as several runs, end to end on tiny
files -- each system's mean, sd, min and max over its runs worked by hand, every error named, a JSON Lines run,
one run per system is today's ranking byte for byte, and neither the order of the options nor the files' names
change a number.

The corpus: gold has 3 spans (PER, LOC, ORG) in two sentences.  A's runs score exact F1 1 and 0.8, B's 2/3, 1/2
and 1 (test_runs.py works them out): A's mean 0.9, sd sqrt(2 * 0.1^2) = 0.1414; B's mean 13/18, sd as below.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import pytest
from support import fails, run_cli, write
from test_vocabulary import offenders

from ts_eval.io.inputs import Inputs
from ts_eval.io.runs import run_files, with_runs
from ts_eval.ranking.blocks import score_runs

TOKENS = [["John", "Smith", "lives", "in", "Paris"], ["IBM", "rocks"]]
GOLD = [["B-PER", "I-PER", "O", "O", "B-LOC"], ["B-ORG", "O"]]
A_RUNS = [GOLD,                                                            # F1 1
          [["B-PER", "I-PER", "O", "O", "B-LOC"], ["O", "O"]]]             # TP 2, FN 1: F1 0.8
B_RUNS = [[["B-PER", "O", "O", "O", "B-LOC"], ["B-ORG", "O"]],             # TP 2, FP 1, FN 1: F1 2/3
          [["O", "O", "O", "O", "O"], ["B-ORG", "O"]],                     # TP 1, FN 2: F1 1/2
          GOLD]                                                            # F1 1
B_MEAN = (2 / 3 + 0.5 + 1) / 3
B_SD = math.sqrt(sum((x - B_MEAN) ** 2 for x in (2 / 3, 0.5, 1.0)) / 2)
EXACT = ["--models", "exact-f1-micro"]
QUICK = ["--bootstrap", "0", "--permutations", "0"]


def columns(tags: Sequence[Sequence[str]]) -> str:
    return "\n".join("".join(f"{t} {g}\n" for t, g in zip(toks, tg)) for toks, tg in zip(TOKENS, tags))


def jsonl(tags: Sequence[Sequence[str]]) -> str:
    return "".join(json.dumps({"id": f"s{k}", "tokens": toks, "tags": list(tg)}) + "\n"
                   for k, (toks, tg) in enumerate(zip(TOKENS, tags), 1))


def corpus(tmp: Path, names: Optional[Dict[str, List[str]]] = None) -> str:
    """gold.conll, and runs/A/<name>.conll, runs/B/<name>.conll holding A_RUNS and B_RUNS in order (names: r1,
    r2, ...)."""
    names = names or {"A": ["r1", "r2"], "B": ["r1", "r2", "r3"]}
    for system, runs in (("A", A_RUNS), ("B", B_RUNS)):
        (tmp / "runs" / system).mkdir(parents=True, exist_ok=True)
        for name, tags in zip(names[system], runs):
            write(tmp / "runs" / system / f"{name}.conll", columns(tags))
    return write(tmp / "gold.conll", columns(GOLD))


def json_of(capsys: Any, argv: List[str]) -> Dict[str, Any]:
    code, out, err = run_cli(argv + ["--format", "json"], capsys)
    assert code == 0, err
    data: Dict[str, Any] = json.loads(out)
    return data


def by_name(runs: Dict[str, Any]) -> Dict[str, Any]:
    return {s["name"]: s for s in runs["systems"]}


def test_score_runs_mean_sd_min_max_and_every_run_by_hand(tmp_path: Path, capsys: Any) -> None:
    gold = corpus(tmp_path)
    d = json_of(capsys, ["score", "--gold", gold, "--runs", f"A={tmp_path}/runs/A/*.conll",
                         "--runs", f"B={tmp_path}/runs/B", "--run-models", "exact-f1-micro,ts-f1-micro"])
    assert [s["name"] for s in d["systems"]] == ["A/r1", "A/r2", "B/r1", "B/r2", "B/r3"]   # every run a system
    assert d["systems"][1]["exact"]["micro"]["f"] == pytest.approx(0.8)
    runs = by_name(d["runs"])
    a, b = runs["A"]["models"]["exact-f1-micro"], runs["B"]["models"]["exact-f1-micro"]
    assert a["score_mean"] == pytest.approx(0.9) and a["score_sd"] == pytest.approx(math.sqrt(2 * 0.1 ** 2))
    assert (a["score_min"], a["score_max"]) == pytest.approx((0.8, 1.0))
    assert b["score_mean"] == pytest.approx(B_MEAN) and b["score_sd"] == pytest.approx(B_SD)
    assert b["run_scores"] == pytest.approx([0.5, 2 / 3, 1.0])          # in the order of the scores
    assert runs["B"]["runs"] == ["B/r2", "B/r1", "B/r3"]
    assert list(runs["A"]["models"]) == ["exact-f1-micro", "ts-f1-micro"]
    # the runs' TS scores are the report's own, run by run
    ts = {s["name"]: s["ts"]["micro"]["f"] for s in d["systems"]}
    assert runs["A"]["models"]["ts-f1-micro"]["run_scores"] == pytest.approx(sorted([ts["A/r1"], ts["A/r2"]]))
    assert d["settings"]["input"]["runs"][0] == {"name": "A", "runs": ["A/r1", "A/r2"]}
    assert not list(offenders(d))                                       # the result vocabulary


def test_score_runs_default_models_are_ranks_default_set(tmp_path: Path, capsys: Any) -> None:
    from ts_eval.models.registry import default_models

    gold = corpus(tmp_path)
    d = json_of(capsys, ["score", "--gold", gold, "--runs", f"A={tmp_path}/runs/A"])
    assert list(d["runs"]["systems"][0]["models"]) == default_models()
    assert d["runs"]["systems"][0]["models"]["exact-f1-micro"]["score_mean"] == pytest.approx(0.9)


def test_rank_runs_by_hand_beside_a_system_of_one_file(tmp_path: Path, capsys: Any) -> None:
    gold = corpus(tmp_path)
    c = write(tmp_path / "C.conll", columns(B_RUNS[0]))
    d = json_of(capsys, ["rank", "--gold", gold, c, "--runs", f"A={tmp_path}/runs/A/*.conll",
                         "--runs", f"B={tmp_path}/runs/B", *EXACT, *QUICK])
    scores = {s["name"]: s["models"]["exact-f1-micro"]["score"] for s in d["systems"]}
    assert scores == pytest.approx({"C": 2 / 3, "A": 0.9, "B": B_MEAN})
    runs = by_name(d["runs"])
    assert runs["B"]["models"]["exact-f1-micro"]["score_sd"] == pytest.approx(B_SD)
    assert runs["C"]["models"]["exact-f1-micro"]["score_sd"] is None      # one run: no sd
    assert d["rankings"]["exact-f1-micro"] == ["A", "B", "C"]
    assert not list(offenders(d))


def test_one_run_per_system_is_todays_rank_json(tmp_path: Path, capsys: Any) -> None:
    """The systems given as runs come after the system files, in the order of the options."""
    gold = corpus(tmp_path)
    a, b = f"{tmp_path}/runs/A/r2.conll", f"{tmp_path}/runs/B/r1.conll"
    numbers = ["--format", "json", "--bootstrap", "50", "--permutations", "50"]

    def steady(argv: List[str]) -> str:       # (without the seconds each step took: they differ run to run)
        code, out, err = run_cli(["rank", "--gold", gold, *argv, *numbers], capsys)
        assert code == 0, err
        d = json.loads(out)
        d.pop("timings")
        return json.dumps(d, indent=2)

    assert steady(["--runs", f"r2={a}", b]) == steady([b, a])
    assert steady(["--runs", f"r2={a}", "--runs", f"r1={b}"]) == steady([a, b])


def test_neither_option_order_nor_file_names_change_a_number(tmp_path: Path, capsys: Any) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    g1 = corpus(first)
    g2 = corpus(second, {"A": ["z", "a"], "B": ["m", "c", "x"]})       # other names, so another file order
    argv = ["--models", "exact-f1-micro,ts-f1-macro", "--bootstrap", "200", "--permutations", "0"]
    one = json_of(capsys, ["rank", "--gold", g1, "--runs", f"A={first}/runs/A", "--runs", f"B={first}/runs/B", *argv])
    two = json_of(capsys, ["rank", "--gold", g2, "--runs", f"B={second}/runs/B", "--runs", f"A={second}/runs/A", *argv])
    for d in (one, two):
        for s in d["systems"]:
            s["models"] = {m: {k: v for k, v in per.items()} for m, per in s["models"].items()}
    assert by_name(one) == by_name(two)        # scores, intervals, ranks of every system under every model
    for name in ("A", "B"):
        x, y = by_name(one["runs"])[name]["models"], by_name(two["runs"])[name]["models"]
        assert x == y
    s1 = json_of(capsys, ["score", "--gold", g1, "--runs", f"A={first}/runs/A", "--runs", f"B={first}/runs/B"])
    s2 = json_of(capsys, ["score", "--gold", g2, "--runs", f"B={second}/runs/B", "--runs", f"A={second}/runs/A"])
    assert {n: s["models"] for n, s in by_name(s1["runs"]).items()} == \
        {n: s["models"] for n, s in by_name(s2["runs"]).items()}


def test_a_json_lines_run_beside_column_runs(tmp_path: Path, capsys: Any) -> None:
    gold = corpus(tmp_path)
    (tmp_path / "runs" / "A" / "r2.conll").unlink()
    write(tmp_path / "runs" / "A" / "r2.jsonl", jsonl(A_RUNS[1]))
    for command in (["score"], ["rank", *QUICK]):
        d = json_of(capsys, [*command, "--gold", gold, "--runs", f"A={tmp_path}/runs/A",
                             "--runs", f"B={tmp_path}/runs/B/*.conll", "--run-models" if command == ["score"]
                             else "--models", "exact-f1-micro"])
        a = by_name(d["runs"])["A"]
        assert a["runs"] == ["A/r2", "A/r1"]
        assert a["models"]["exact-f1-micro"]["score_mean"] == pytest.approx(0.9)
        assert a["models"]["exact-f1-micro"]["run_scores"] == pytest.approx([0.8, 1.0])


def test_a_run_whose_tokens_are_not_golds_names_its_file_and_line(tmp_path: Path, capsys: Any) -> None:
    gold = corpus(tmp_path)
    bad = columns(B_RUNS[1]).replace("IBM", "Apple")
    path = write(tmp_path / "runs" / "B" / "r2.conll", bad)
    line = bad.splitlines().index("Apple B-ORG") + 1
    for command in (["score"], ["rank", *QUICK]):
        err = fails(capsys, [*command, "--gold", gold, "--runs", f"A={tmp_path}/runs/A", "--runs",
                             f"B={tmp_path}/runs/B"], 1, f"{path}:{line}", "Apple")
        assert "IBM" in err


@pytest.mark.parametrize("command", ["score", "rank"])
def test_bad_runs_options_are_named(tmp_path: Path, capsys: Any, command: str) -> None:
    gold = corpus(tmp_path)
    a, r1 = f"{tmp_path}/runs/A", f"{tmp_path}/runs/A/r1.conll"
    base = [command, "--gold", gold]
    fails(capsys, base + ["--runs", a], 2, f"--runs {a}: expected NAME=PATTERN")
    fails(capsys, base + ["--runs", f"={a}"], 2, f"--runs ={a}: the system's name is empty")
    fails(capsys, base + ["--runs", "A="], 2, "--runs A=: no pattern")
    fails(capsys, base + ["--runs", f"A={tmp_path}/none/*.conll"], 2,
          f"--runs 'A={tmp_path}/none/*.conll': system 'A': no file matches this pattern")
    (tmp_path / "empty").mkdir()
    fails(capsys, base + ["--runs", f"A={tmp_path}/empty"], 2,
          f"--runs A={tmp_path}/empty: system 'A': no run file matching '*' in this folder")
    fails(capsys, base + ["--runs", f"A={a}", "--runs", f"A={tmp_path}/runs/B"], 2,
          "the system 'A' is given twice")
    fails(capsys, base + [r1, "--runs", f"A={a}"], 2, f"{r1} is a run of 'A' and also a system of its own")
    fails(capsys, base + ["--runs", f"A={a}", "--runs", f"B={r1}"], 2, f"{r1} is a run of two systems ('A' and 'B')")
    fails(capsys, base + ["--runs", f"A/x={a}"], 2, "holds '/'")
    c = write(tmp_path / "A.conll", columns(GOLD))
    fails(capsys, base + [c, "--runs", f"A={a}"], 2, "system name 'A' is given as runs and names a system file")
    fails(capsys, [command, "--runs", f"A={a}"], 2, "--runs needs --gold GOLD", f"ts-eval {command} --gold")
    fails(capsys, base + [c, "--names", "X", "Y", "--runs", f"B={a}"], 2, "--names: 2 names for 1 system files",
          "a system given as runs is named by its own name")


def test_rank_runs_with_task_or_manifest_is_a_usage_error(tmp_path: Path, capsys: Any) -> None:
    gold = corpus(tmp_path)
    a = f"{tmp_path}/runs/A"
    fails(capsys, ["rank", "--task", "t", gold, f"{a}/r1.conll", f"{a}/r2.conll", "--runs", f"B={tmp_path}/runs/B"],
          2, "--runs goes with --gold GOLD", "with --task or --manifest give each run as a system file")


def test_runs_table_fits_80_and_120_columns_and_every_page_format(tmp_path: Path, capsys: Any,
                                                                  monkeypatch: Any) -> None:
    gold = corpus(tmp_path)
    argv = ["score", "--gold", gold, "--runs", f"A={tmp_path}/runs/A", "--runs", f"B={tmp_path}/runs/B"]
    for width in (80, 120):
        monkeypatch.setenv("COLUMNS", str(width))
        code, out, err = run_cli(argv + ["--details"], capsys)
        assert code == 0, err
        for line in out.splitlines():
            assert len(line) <= width or " " not in line.strip(), (width, line)
        assert "Systems given as runs" in out and "every run's score" in out
        # rank's layout (one row per model and system), whole under rank's ten default models, never transposed
        section = out[out.index("Systems given as runs\n"):out.index("Systems given as runs: every run's score")]
        assert "transposed" not in section
        assert re.search(r"^model +system +mean +sd +min +max +runs$", section, re.M)
        assert re.search(r"^Seg-F1µ +A +90\.00 +14\.14 +80\.00 +100\.00 +2$", section, re.M)   # A by hand
        assert re.search(rf"^Seg-F1µ +B +{100 * B_MEAN:.2f} +{100 * B_SD:.2f} +50\.00 +100\.00 +3$", section, re.M)
    for fmt, needles in (("markdown", ["| Seg-F1µ | A | 90.00 | 14.14 | 80.00 | 100.00 | 2 |"]),
                         ("latex", ["14.14", "90.00"]),
                         ("csv", ["runs,exact-f1-micro/A,mean,0.9", "runs,exact-f1-micro/A,runs,2,",
                                  "run-scores,A/r2,exact-f1-micro,0.8"]),
                         ("html", ["Systems given as runs", "14.14"])):
        code, out, err = run_cli(argv + ["--format", fmt], capsys)
        assert code == 0, err
        for needle in needles:
            assert needle in out, (fmt, needle)


def test_python_with_runs_and_score_runs(tmp_path: Path) -> None:
    gold = corpus(tmp_path)
    inputs, runs = with_runs(Inputs(gold=gold), {"A": f"{tmp_path}/runs/A", "B": f"{tmp_path}/runs/B/*.conll"})
    assert runs == {"A": ["A/r1", "A/r2"], "B": ["B/r1", "B/r2", "B/r3"]}
    assert inputs.names == ("A/r1", "A/r2", "B/r1", "B/r2", "B/r3")
    scores = score_runs(inputs.read(), runs, models=["exact-f1-micro"])
    assert scores.mean[:, 0] == pytest.approx([0.9, B_MEAN])
    assert scores.sd[:, 0] == pytest.approx([math.sqrt(0.02), B_SD])
    assert scores.low[:, 0] == pytest.approx([0.8, 0.5]) and scores.high[:, 0] == pytest.approx([1.0, 1.0])
    assert run_files({"A": [f"{tmp_path}/runs/A/r2.conll", f"{tmp_path}/runs/A/r1.conll"]}) == {
        "A": [f"{tmp_path}/runs/A/r1.conll", f"{tmp_path}/runs/A/r2.conll"]}
    import ts_eval

    ranked = ts_eval.rank(inputs.corpus("ranking", 2), runs=runs, models=["exact-f1-micro"], bootstrap=0,
                          permutations=0)
    assert ranked.scores[:, 0] == pytest.approx(scores.mean[:, 0])
    # rank(Inputs, runs=patterns): the files found and grouped as with_runs does, read in blocks
    ranked = ts_eval.rank(Inputs(gold=gold), runs={"A": f"{tmp_path}/runs/A", "B": f"{tmp_path}/runs/B/*.conll"},
                          models=["exact-f1-micro"], bootstrap=0, permutations=0)
    assert ranked.systems == ["A", "B"] and ranked.scores[:, 0] == pytest.approx([0.9, B_MEAN])


def test_score_runs_keep_the_labels_score_keeps(tmp_path: Path, capsys: Any) -> None:
    """``--labels``: the runs are scored on the labels kept, as the report's systems are (B's first run then
    finds PER wrong and nothing else: F1 0; its second finds nothing of PER: 0; its third: 1)."""
    gold = corpus(tmp_path)
    d = json_of(capsys, ["score", "--gold", gold, "--runs", f"B={tmp_path}/runs/B", "--labels", "PER",
                         "--run-models", "exact-f1-micro"])
    exact = {s["name"]: s["exact"]["micro"]["f"] for s in d["systems"]}
    assert exact == pytest.approx({"B/r1": 0.0, "B/r2": 0.0, "B/r3": 1.0})
    b = d["runs"]["systems"][0]["models"]["exact-f1-micro"]
    assert b["run_scores"] == pytest.approx([0.0, 0.0, 1.0]) and b["score_mean"] == pytest.approx(1 / 3)
