"""``ts-eval fair`` through the one loader (issue #12): every input format, the column and name rules,
standard input and compression, the fair model's report per system -- and ``--config`` as before."""
from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

import pytest
from support import FIXTURES, run_cli, write, write_sentences
from support import fails as bad
from test_fair import NER_REPORT

# "John Smith lives in New York ." / "Mary met IBM staff in Paris ."
TOKENS = [["John", "Smith", "lives", "in", "New", "York", "."], ["Mary", "met", "IBM", "staff", "in", "Paris", "."]]
GOLD = [[(0, 2, "PER"), (4, 6, "LOC")], [(0, 1, "PER"), (2, 3, "ORG"), (5, 6, "LOC")]]
# A: PER exact, LOC shorter (BES); PER exact, ORG as LOC (LE), LOC missed (FN)
SYS_A = [[(0, 2, "PER"), (5, 6, "LOC")], [(0, 1, "PER"), (2, 3, "LOC")]]
# B: PER shorter (BES), LOC exact; PER exact, ORG longer as ORG (BEL), spurious PER on "in" (FP), LOC exact
SYS_B = [[(0, 1, "PER"), (4, 6, "LOC")], [(0, 1, "PER"), (2, 4, "ORG"), (4, 5, "PER"), (5, 6, "LOC")]]
FORMATS = ["columns", "jsonl-tokens", "jsonl-text", "brat", "conllu"]


def inputs(folder, fmt):
    (folder / fmt).mkdir()
    return [write_sentences(folder / fmt, fmt, side, list(zip(TOKENS, spans)))
            for side, spans in (("gold", GOLD), ("a", SYS_A), ("b", SYS_B))]


def fair_json(capsys, argv):
    code, out, err = run_cli(["fair"] + argv + ["--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    return {s["name"]: s["fair"] for s in d["systems"]}, d


def test_hand_counted_fair_errors_from_columns(tmp_path, capsys):
    gold, a, b = inputs(tmp_path, "columns")
    fair, d = fair_json(capsys, ["--gold", gold, "--system", a, b])
    assert d["settings"]["models"] == ["fair"] and d["settings"]["fair"]["focus"] == "target"
    micro = {n: {k: f["fair"]["micro"][k] for k in ("tp", "fp", "fn", "le", "bes", "bel", "beo", "lbe")}
             for n, f in fair.items()}
    assert micro == {"a": {"tp": 2, "fp": 0, "fn": 1, "le": 1, "bes": 1, "bel": 0, "beo": 0, "lbe": 0},
                     "b": {"tp": 3, "fp": 1, "fn": 0, "le": 0, "bes": 1, "bel": 1, "beo": 0, "lbe": 0}}
    # fair P/R (eq. 5: LE, BE, LBE are half an FP and half an FN): a 2 / (2 + 0 + 1) both ways
    assert fair["a"]["fair"]["micro"]["precision"] == pytest.approx(2 / 3)
    assert fair["a"]["fair"]["micro"]["recall"] == pytest.approx(2 / 4)
    assert fair["b"]["fair"]["micro"]["precision"] == pytest.approx(3 / 5)
    assert fair["b"]["fair"]["micro"]["recall"] == pytest.approx(3 / 4)
    assert fair["a"]["confusion"]["ORG"]["LOC"] == 1 and fair["a"]["confusion"]["LOC"]["_"] == 1


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS[1:])
def test_the_same_spans_in_any_format_give_the_same_fair_results(tmp_path, capsys, fmt):
    column_gold, *column_systems = inputs(tmp_path, "columns")
    want, _ = fair_json(capsys, ["--gold", column_gold, "--system", *column_systems])
    gold, a, b = inputs(tmp_path, fmt)
    got, _ = fair_json(capsys, ["--gold", gold, "--system", a, b])
    assert got == want
    code, out, err = run_cli(["fair", "--gold", gold, "--system", a, b], capsys)    # faireval, the default
    assert code == 0, err
    code, col, err = run_cli(["fair", "--gold", column_gold, "--system", *column_systems], capsys)
    # the same report but for the file names in the settings blocks
    assert [ln for ln in out.splitlines() if not ln.startswith(("system_in:", "target_in:"))] == \
        [ln for ln in col.splitlines() if not ln.startswith(("system_in:", "target_in:"))]
    assert out.startswith("# system: a\n### Evaluation settings:\n") and "\n# system: b\n" in out


def test_one_column_file_stdin_and_compression(tmp_path, monkeypatch, capsys):
    rows = []
    for toks, g, a, b in zip(TOKENS, GOLD, SYS_A, SYS_B):    # TOKEN GOLD A B
        cols = [_tags(len(toks), spans) for spans in (g, a, b)]
        rows.append("".join(" ".join(r) + "\n" for r in zip(toks, *cols)))
    text = "\n".join(rows)
    path = write(tmp_path / "all.conll", text)
    gold, *systems = inputs(tmp_path, "columns")
    want, _ = fair_json(capsys, ["--gold", gold, "--system", *systems])
    got, d = fair_json(capsys, [path, "--gold-col", "2", "--names", "a", "b"])
    assert got == want and d["settings"]["input"]["gold_col"] == 2
    got, _ = fair_json(capsys, [path, "--system-col", "3", "4"])
    assert list(got) == ["col3", "col4"] and list(got.values()) == list(want.values())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(text.encode()))))
    got, _ = fair_json(capsys, ["-", "--gold-col", "2", "--names", "a", "b"])
    assert got == want


def _tags(n, spans):
    tags = ["O"] * n
    for s, e, lab in spans:
        tags[s:e] = ["B-" + lab] + ["I-" + lab] * (e - s - 1)
    return tags


def test_options_of_the_fair_model(tmp_path, capsys):
    gold, a, _b = inputs(tmp_path, "jsonl-tokens")
    fair, d = fair_json(capsys, ["--gold", gold, "--system", a, "--focus", "system", "--weights", "eq5",
                                 "--mode", "faireval-skip"])
    assert d["settings"]["fair"]["focus"] == "system" and d["settings"]["fair"]["mode"] == "faireval-skip"
    # focus system: A's labelling error (gold ORG found as LOC) counts under LOC, the system's label
    assert fair["a"]["fair"]["labels"]["LOC"]["le"] == 1 and fair["a"]["fair"]["labels"]["ORG"]["le"] == 0
    # eq5 weights: weighted = fair
    assert fair["a"]["weighted"]["micro"]["f"] == pytest.approx(fair["a"]["fair"]["micro"]["f"])
    fair, _ = fair_json(capsys, ["--gold", gold, "--system", a, "--map-label", "^ORG$=LOC"])
    assert fair["a"]["fair"]["micro"]["tp"] == 3 and fair["a"]["fair"]["micro"]["le"] == 0


def test_html_page_of_the_loader_road(tmp_path, capsys):
    gold, a, b = inputs(tmp_path, "brat")
    code, out, err = run_cli(["fair", "--gold", gold, "--system", a, b, "--format", "html"], capsys)
    assert code == 0, err
    assert out.startswith("<!DOCTYPE html>") and "a: fair error types" in out and "b: fair error types" in out


def test_the_reference_ner_report_from_json_lines(tmp_path, capsys):
    """The FairEval span files (GermEval 2014 test set, Stanza) as JSON Lines with token offsets: the
    loader road gives the reference tool's published eval_ner.csv but for the two file names."""
    sides = {}
    for side in ("target", "system"):
        sents = [[]]
        for line in (FIXTURES / "faireval" / side / "ner_spans.csv").read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                sents.append([])
                continue
            lab, b, e, _ = line.split("\t")
            if lab != "NONE":                 # the reference's dummy label, excluded by its config
                sents[-1].append((int(b) - 1, int(e), lab))     # 1-based, inclusive -> 0-based, exclusive
        sides[side] = sents
    assert len(sides["target"]) == len(sides["system"])
    lengths = [max([e for _, e, _ in t + s] + [1]) for t, s in zip(sides["target"], sides["system"])]
    for side, sents in sides.items():
        write(tmp_path / f"{side}.jsonl", "".join(
            json.dumps({"tokens": ["w"] * n, "spans": [{"start": b, "end": e, "label": lab} for b, e, lab in sp]})
            + "\n" for n, sp in zip(lengths, sents)))
    code, out, err = run_cli(["fair", "--gold", str(tmp_path / "target.jsonl"), "--system",
                              str(tmp_path / "system.jsonl")], capsys)
    assert code == 0, err
    names = ("system_in:", "target_in:")
    assert [ln for ln in out.split("\n") if not ln.startswith(names)] == \
        [ln for ln in NER_REPORT.split("\n") if not ln.startswith(names)]
    assert f"target_in: {tmp_path / 'target.jsonl'}" in out


def test_config_and_input_files_together_are_a_usage_error(tmp_path, capsys):
    gold, a, _ = inputs(tmp_path, "columns")
    cfg = write(tmp_path / "c.config", f"target_in = {gold}\nsystem_in = {a}\n")
    bad(capsys, ["fair", "--config", cfg, "--gold", gold, "--system", a], 2, "--config", "not both", "--gold")
    bad(capsys, ["fair", "--config", cfg, gold], 2, "not both", "FILE")
    bad(capsys, ["fair", "--config", cfg, "--focus", "system"], 2, "not both", "--focus")
    bad(capsys, ["fair", "--config", cfg, "--map-label", "X="], 2, "--map-label")
    bad(capsys, ["fair"], 2, "--config FILE", "--gold")


def test_bad_inputs_name_the_file_and_the_value(tmp_path, capsys):
    gold, a, _ = inputs(tmp_path, "columns")
    tagged = write(tmp_path / "bad.conll", Path(a).read_text().replace("B-LOC", "X-LOC", 1))
    bad(capsys, ["fair", "--gold", gold, "--system", tagged], 1, f"{tagged}:", "'X-LOC'")
    label = write(tmp_path / "label.jsonl", json.dumps({"id": "s1", "tokens": TOKENS[0], "spans": [
        {"start": 0, "end": 2, "label": 7}]}) + "\n")
    bad(capsys, ["fair", "--gold", gold, "--system", label], 1, label, "7")
    g, sys_brat = (write_sentences(tmp_path, "brat", side, list(zip(TOKENS, spans)))
                   for side, spans in (("bg", GOLD), ("bs", SYS_A)))
    (tmp_path / "bs" / "s1.ann").write_text("T1\tPER 0 99\tJohn\n")
    bad(capsys, ["fair", "--gold", g, "--system", sys_brat], 1, "s1.ann", "99")
    other = write(tmp_path / "other.jsonl", json.dumps({"id": "s1", "tokens": ["Mary"], "spans": []}) + "\n")
    bad(capsys, ["fair", "--gold", write_sentences(tmp_path, "jsonl-tokens", "g1", [(TOKENS[0], GOLD[0])]),
                 "--system", other], 1, other, "'Mary'", "'John'")
