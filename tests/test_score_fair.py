"""`ts-eval score` with the fair model: rows, weights, confusion view, faireval layout for IOB input."""
import json

import pytest

import ts_eval
from ts_eval.cli import main

# gold: PER(0-1) LOC(3) ORG(5-6); system: PER(0) [boundary, shorter], ORG(3) [label], ORG(5-6) [TP], LOC(8) [FP]
GOLD = ["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG", "I-ORG", "O", "O"]
PRED = ["B-PER", "O", "O", "B-ORG", "O", "B-ORG", "I-ORG", "O", "B-LOC"]


def test_fair_counts_in_the_report():
    rep = ts_eval.score([GOLD], [PRED])
    fair = rep.systems[0]["fair"]
    ov = fair["fair"]["micro"]
    assert (ov["tp"], ov["fp"], ov["le"], ov["be"], ov["bes"], ov["lbe"], ov["fn"]) == (1, 1, 1, 1, 1, 0, 0)
    # fair (eq5): TP 1; FP = 1 + 0.5 LE + 0.5 BE = 2; FN = 0.5 LE + 0.5 BE = 1
    assert ov["precision"] == pytest.approx(1 / 3)
    assert ov["recall"] == pytest.approx(1 / 2)
    assert fair["traditional"]["micro"]["tp"] == 1
    assert fair["traditional"]["micro"]["fp"] == 3 and fair["traditional"]["micro"]["fn"] == 2
    # weighted, eq7 by default: BES = 0.5 TP + 0.5 FN, LE = 0.5 FP + 0.5 FN
    w = fair["weighted"]["micro"]
    assert w["precision"] == pytest.approx(1.5 / (1.5 + 1.5))
    assert w["recall"] == pytest.approx(1.5 / (1.5 + 1.0))
    assert rep.settings["fair"]["focus"] == "target"
    assert fair["confusion"]["LOC"]["ORG"] == 1 and fair["confusion"]["PER"]["PER"] == 1
    assert fair["confusion"]["_"]["LOC"] == 1


def test_identical_input_is_all_tp():
    rep = ts_eval.score([GOLD], [GOLD])
    ov = rep.systems[0]["fair"]["fair"]["micro"]
    assert ov["tp"] == 3 and ov["fp"] == ov["fn"] == ov["le"] == ov["be"] == ov["lbe"] == 0
    assert ov["f"] == 1.0


def test_focus_system_counts_le_under_the_system_label():
    rep = ts_eval.score([GOLD], [PRED], focus="system")
    labels = rep.systems[0]["fair"]["fair"]["labels"]
    assert labels["ORG"]["le"] == 1 and labels["LOC"]["le"] == 0


def _write(tmp_path):
    path = tmp_path / "f.conll"
    path.write_text("".join(f"w{i} {g} {p}\n" for i, (g, p) in enumerate(zip(GOLD, PRED))))
    return str(path)


def test_cli_json_has_fair_and_settings(tmp_path, capsys):
    assert main(["score", _write(tmp_path), "--format", "json", "--weights", "eq6"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["settings"]["models"] == ["ts", "exact", "fair"]
    assert data["settings"]["fair"]["weights"]["BE"] == {"TP": 0.5, "FP": 0.25, "FN": 0.25}
    assert data["systems"][0]["fair"]["fair"]["micro"]["be"] == 1


def test_cli_faireval_layout_for_iob_input(tmp_path, capsys):
    assert main(["score", _write(tmp_path), "--format", "faireval", "--models", "ts"]) == 0
    out = capsys.readouterr().out
    for section in ("### Traditional evaluation:", "### Fair evaluation:", "### Weighted evaluation:"):
        assert section in out
    assert "overall\t1\t1\t1\t1\t0\t0\t33.33\t50.00\t40.00" in out


def test_cli_confusion_view(tmp_path, capsys):
    assert main(["score", _write(tmp_path), "--confusion"]) == 0
    assert "fair confusion matrix" in capsys.readouterr().out


@pytest.mark.parametrize("spec", ["LE = 0.5 XX", "FOO = 1 TP", "LE = half FP", "eq9"])
def test_cli_bad_weights_are_usage_errors(tmp_path, capsys, spec):
    assert main(["score", _write(tmp_path), "--weights", spec]) == 2
    assert "ts-eval: error:" in capsys.readouterr().err
