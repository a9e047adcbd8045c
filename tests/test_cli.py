"""The command line: exit codes (0 scored, 1 bad input, 2 bad usage), one-line error
messages that name file, line and value, output formats, `ts-eval demo`, `--version`."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest
from support import run_cli, write

import ts_eval

GOOD = "John B-PER B-PER\nSmith I-PER O\nvisits O O\nParis B-LOC B-LOC\n\nHe O O\nleft O B-ORG\n"


def bad_input(capsys, argv, *needles):
    """Run and check: exit 1, one line on stderr, nothing on stdout, every needle in the message."""
    code, out, err = run_cli(argv, capsys)
    assert code == 1, (code, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for n in needles:
        assert n in err, (n, err)
    return err


# ---------------------------------------------------------------------------
# bad input: exit 1

@pytest.mark.parametrize("tag,column", [("X-PER", "gold"), ("B_PER", "gold"), ("B-", "system"),
                                        ("b-PER", "system"), ("PER", "gold")])
def test_unknown_tag_shapes(tmp_path, capsys, tag, column):
    line = f"Smith {tag} O\n" if column == "gold" else f"Smith O {tag}\n"
    path = write(tmp_path / "tags.conll", "John O O\n" + line)
    bad_input(capsys, ["score", path], f"{path}:2:", repr(tag))


def test_tag_not_in_the_chosen_scheme(tmp_path, capsys):
    path = write(tmp_path / "s.conll", "a O O\nb O O\nc S-PER O\n")
    bad_input(capsys, ["score", "--scheme", "IOB2", path], f"{path}:3:", "'S-PER'", "S-")


def test_ragged_columns(tmp_path, capsys):
    path = write(tmp_path / "ragged.conll", "a O O\nb O O\n\nc O\n")
    bad_input(capsys, ["score", path], f"{path}:4:", "2 columns", "expected 3", "'c O'")
    path = write(tmp_path / "ragged2.conll", "a O O\nb O O B-X\n")
    bad_input(capsys, ["score", path], f"{path}:2:", "4 columns", "'b O O B-X'")


def test_ragged_columns_in_the_gold_file_of_two_file_mode(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\nb\tO\tO\n")
    sys_ = write(tmp_path / "s.conll", "a O\nb O\n")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], f"{gold}:2:", "3 columns")


def test_two_file_mode_sentence_count_mismatch(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\nb B-X\n\nc O\n")
    sys_ = write(tmp_path / "s.conll", "a O\nb B-X\n\nc O\n\nd O\n")
    # the system's extra sentence 3 starts on its line 6
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], gold, "2 sentences", "sentence 3", f"{sys_}:6:")


def test_two_file_mode_system_file_truncated(tmp_path, capsys):
    # the system lacks the gold's sentence 2 (gold line 3)
    gold = write(tmp_path / "g.conll", "a O\n\nb O\n")
    sys_ = write(tmp_path / "s.conll", "a O\n")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], gold, sys_, "2 sentences", "sentence 2",
              "gold line 3")


def test_two_file_mode_sentence_split_differently(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\nb B-X\n\nc O\n")
    sys_ = write(tmp_path / "s.conll", "a O\nb B-X\nc O\n")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], gold, sys_, "sentence 2", "gold line 4",
              "system line 3")


def test_two_file_mode_token_mismatch(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\nb B-X\n\nKöln O\nist O\n")
    sys_ = write(tmp_path / "s.conll", "a O\nb B-X\n\nKoeln O\nist O\n")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], f"{sys_}:4:", gold, "'Köln'", "'Koeln'",
              "sentence 2")


def test_two_file_mode_token_mismatch_same_length(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\nb B-X\nc O\n")
    sys_ = write(tmp_path / "s.conll", "a O\nB B-X\nc O\n")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], f"{sys_}:2:", "'b'", "'B'", "sentence 1")


def test_two_file_mode_extra_token_at_the_end_of_a_sentence(tmp_path, capsys):
    # sentence 2 of the system has one token more: the message must point at sentence 2
    # (gold has only two sentences) and at the system's extra line 5
    gold = write(tmp_path / "g.conll", "a O\nb B-X\n\nc O\n")
    sys_ = write(tmp_path / "s.conll", "a O\nb B-X\n\nc O\nd O\n")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], gold, sys_, "sentence 2", "line 5")


@pytest.mark.parametrize("content,needle", [(b"", "empty"), (b"\n\n  \n", "no token lines"),
                                            (b"-DOCSTART- O O\n\n", "no token lines"),
                                            (b"\xef\xbb\xbf", "empty")])
def test_empty_files(tmp_path, capsys, content, needle):
    path = tmp_path / "empty.conll"
    path.write_bytes(content)
    bad_input(capsys, ["score", str(path)], str(path), needle)


def test_empty_system_file_in_two_file_mode(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\n")
    sys_ = write(tmp_path / "s.conll", "")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], sys_, "empty")


@pytest.mark.parametrize("bom", [False, True])
def test_non_utf8_bytes_give_the_byte_offset(tmp_path, capsys, bom):
    raw = b"a O O\nb\xe9 O O\n"  # Latin-1 e-acute at byte offset 7 (10 with a BOM)
    path = tmp_path / "latin1.conll"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + raw)
    offset = 10 if bom else 7
    bad_input(capsys, ["score", str(path)], f"{path}:2:", f"byte offset {offset}", "0xe9")


def test_non_utf8_in_a_later_block(tmp_path, capsys):
    # far into the file (past the reader's first block): offset and line still exact
    line = "token O O\n"
    n = 200_000
    raw = (line * n).encode() + b"bad\xff O O\n"
    path = tmp_path / "big.conll"
    path.write_bytes(raw)
    bad_input(capsys, ["score", str(path)], f"{path}:{n + 1}:", f"byte offset {len(line) * n + 3}", "0xff")


def test_nonexistent_path(tmp_path, capsys):
    path = str(tmp_path / "missing.conll")
    bad_input(capsys, ["score", path], path, "No such file")


def test_nonexistent_system_path(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\n")
    path = str(tmp_path / "missing.conll")
    bad_input(capsys, ["score", "--gold", gold, "--system", path], path)


def test_directory_path(tmp_path, capsys):
    bad_input(capsys, ["score", str(tmp_path)], str(tmp_path), "directory")


def test_unreadable_path_name_too_long(tmp_path, capsys):
    path = str(tmp_path / ("x" * 300))
    bad_input(capsys, ["score", path], path, "cannot read")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_path_permissions(tmp_path, capsys):
    path = tmp_path / "secret.conll"
    path.write_text(GOOD)
    path.chmod(0)
    try:
        bad_input(capsys, ["score", str(path)], str(path), "ermission")
    finally:
        path.chmod(0o644)


def test_strict_policy_error(tmp_path, capsys):
    path = write(tmp_path / "s.conll", "a O O\nb O I-X\n")
    bad_input(capsys, ["score", "--policy", "strict", path], f"{path}:2:", "'I-X'")


def test_bad_docstart_line(tmp_path, capsys):
    path = write(tmp_path / "d.conll", "a O O\n-DOCSTART- O\n")
    bad_input(capsys, ["score", path], f"{path}:2:", "-DOCSTART-")


# ---------------------------------------------------------------------------
# bad usage: exit 2

def usage(capsys, argv, *needles):
    code, _out, err = run_cli(argv, capsys)
    assert code == 2, (code, err)
    assert "Traceback" not in err
    for n in needles:
        assert n in err, (n, err)
    return err


def test_unknown_option(tmp_path, capsys):
    path = write(tmp_path / "g.conll", GOOD)
    usage(capsys, ["score", "--bogus", path], "--bogus")


def test_no_command(capsys):
    usage(capsys, [])


def test_file_and_gold_together(tmp_path, capsys):
    path = write(tmp_path / "g.conll", GOOD)
    usage(capsys, ["score", path, "--gold", path, "--system", path], "not both")


def test_gold_without_system_and_nothing_at_all(tmp_path, capsys):
    path = write(tmp_path / "g.conll", GOOD)
    usage(capsys, ["score", "--gold", path], "--system")
    usage(capsys, ["score"], "FILE")


def test_system_files_after_gold_as_rank_and_compare_take_them(tmp_path, capsys):
    # score --gold G S1 S2 reads like score --gold G --system S1 S2 (and like rank/compare --gold G S1 S2)
    gold = write(tmp_path / "gold.conll", "John B-PER\nlives O\nin O\nParis B-LOC\n")
    a = write(tmp_path / "a.conll", "John B-PER\nlives O\nin O\nParis B-ORG\n")
    b = write(tmp_path / "b.conll", "John O\nlives O\nin O\nParis B-LOC\n")
    code, out, err = run_cli(["score", "--gold", gold, a, b, "--format", "json"], capsys)
    assert code == 0, err
    after = json.loads(out)
    code, out, err = run_cli(["score", "--gold", gold, "--system", a, b, "--format", "json"], capsys)
    assert code == 0, err
    flagged = json.loads(out)
    assert [s["exact"]["micro"]["f"] for s in after["systems"]] == [0.5, 2 / 3]
    assert after["systems"] == flagged["systems"] and after["settings"]["input"]["system"] == [a, b]
    assert after["settings"]["input"]["file"] is None
    usage(capsys, ["score", "--gold", gold, a, "--system", b], "not both")
    usage(capsys, ["score", a, b], "2 files", "--gold G")


COLUMN_OPTS = [["--gold-col", "0"], ["--system-col", "0"], ["--token-col", "0"], ["--gold-col", "9"],
               ["--system-col", "-9"], ["--gold-col", "x"], ["--gold-col", "3", "--system-col", "3"],
               ["--token-col", "3"]]


@pytest.mark.parametrize("opts", COLUMN_OPTS,
                         ids=["=".join(o[:2]) + ("..." if len(o) > 2 else "") for o in COLUMN_OPTS])
def test_bad_column_numbers(tmp_path, capsys, opts):
    # the file has 3 columns: 0, 9 and -9 are no column; a column cannot be both gold and system
    path = write(tmp_path / "g.conll", GOOD)
    usage(capsys, ["score", path] + opts)


OPTION_VALUES = [["--scheme", "IOB3"], ["--policy", "lenient"], ["--format", "xml"], ["--separator-weight", "-1"],
                 ["--beta", "0"], ["--map-label", "noequals"], ["--map-label", "(unclosed="], ["--names", "a", "b"],
                 ["--names", "gold"]]


@pytest.mark.parametrize("opts", OPTION_VALUES, ids=["=".join(o[:2]) for o in OPTION_VALUES])
def test_bad_option_values(tmp_path, capsys, opts):
    path = write(tmp_path / "g.conll", GOOD)
    usage(capsys, ["score"] + opts + ["--", path] if opts[0] == "--names" else ["score", path] + opts)


# ---------------------------------------------------------------------------
# output formats

@pytest.fixture
def two_systems(tmp_path):
    return write(tmp_path / "two.conll", "John B-PER B-PER B-PER\nSmith I-PER O I-PER\nvisits O O O\n"
                                         "Paris B-LOC B-LOC B-ORG\n\nHe O O O\nleft O B-ORG O\n")


def test_json_has_counts_scores_and_settings(two_systems, capsys):
    code, out, err = run_cli(["score", two_systems, "--gold-col", "2", "--system-col", "3", "4",
                              "--names", "A", "B", "--separator-weight", "0.5", "--beta", "2",
                              "--all-labels-row", "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    st = data["settings"]
    assert (st["scheme"], st["scheme_requested"], st["policy"]) == ("IOB2", "IOB2", "conlleval")
    assert (st["separator_weight"], st["beta"], st["all_labels_row"]) == (0.5, 2.0, True)
    assert st["versions"]["ts_eval"] == ts_eval.__version__
    assert {"numpy", "python"} <= set(st["versions"])
    assert st["input"]["file"] == two_systems
    assert "macro_average" in st and "zero_division" in st
    assert data["corpus"]["tokens"] == 6 and data["corpus"]["sentences"] == 2
    assert data["corpus"]["labels"] == ["LOC", "ORG", "PER"]
    assert data["gold"]["path"] == two_systems and data["gold"]["spans"] == 2
    a, b = data["systems"]
    assert (a["name"], b["name"]) == ("A", "B")
    # system A: PER John (gold John Smith), LOC Paris, ORG left
    per = a["ts"]["labels"]["PER"]
    assert (per["tp"], per["fp"], per["fn"]) == (1, 0, 1.5)
    assert per["token"] == {"tp": 1, "fp": 0, "fn": 1} and per["separator"] == {"tp": 0, "fp": 0, "fn": 1}
    for key in ("tp", "fp", "fn", "tn", "precision", "recall", "f", "kappa", "accuracy"):
        assert key in per and key in a["ts"]["micro"]
    assert a["ts"]["micro"]["tn"] == pytest.approx(3 * (6 + 0.5 * 4) - 4.5)
    assert a["ts"]["all_labels"]["tp"] == 2
    assert a["exact"]["labels"]["LOC"] == {"gold": 1, "system": 1, "tp": 1, "precision": 1.0, "recall": 1.0,
                                           "f": 1.0, "present": True}
    assert (a["exact"]["micro"]["gold"], a["exact"]["micro"]["system"], a["exact"]["micro"]["tp"]) == (2, 3, 1)
    assert (a["exact"]["tags_correct"], a["exact"]["tags_counted"]) == (4, 6)
    assert b["exact"]["labels"]["PER"]["tp"] == 1 and b["exact"]["labels"]["ORG"]["system"] == 1
    assert b["ts"]["labels"]["LOC"]["fn"] == 1 and b["ts"]["labels"]["ORG"]["fp"] == 1
    for s in (a, b):
        assert {"macro", "micro", "labels", "multiclass_kappa"} <= set(s["ts"])
        assert {"repairs", "discarded", "unmapped", "path", "column"} <= set(s["source"])


def test_csv_has_per_label_counts(two_systems, capsys):
    # the document's long CSV (table, row, column, value, low, high, kind): the per-label table of each
    # system is "labels-NAME", its columns the model's vocabulary key ("ts_tp", "exact_system", ...)
    code, out, err = run_cli(["score", two_systems, "--gold-col", "2", "--system-col", "3", "4",
                              "--format", "csv"], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["table", "row", "column", "value", "low", "high", "kind"]
    by = {(r["table"], r["row"], r["column"]): r["value"] for r in rows}
    assert float(by[("labels-col3", "PER", "ts_tp")]) == 1 and float(by[("labels-col3", "PER", "ts_fn")]) == 2
    assert int(by[("labels-col3", "LOC", "exact_tp")]) == 1
    assert int(by[("labels-col4", "ORG", "exact_system")]) == 1
    # col3 has PER John, LOC Paris, ORG left: micro TP 2 (John, Paris), FP 1 (left), FN 2 (Smith + separator)
    assert float(by[("labels-col3", "micro", "ts_f")]) == pytest.approx(2 * 2 / (2 * 2 + 1 + 2))
    assert ("token-accuracy", "col3", "accuracy") in by
    assert (by[("token-accuracy", "col3", "tags_correct")], by[("token-accuracy", "col3", "tags_counted")]) == \
        ("4", "6")
    assert {r["row"] for r in rows if r["table"] == "summary"} == {"col3", "col4"}


def test_markdown_and_latex_contain_counts(two_systems, capsys):
    for fmt in ("markdown", "latex"):
        code, out, err = run_cli(["score", two_systems, "--gold-col", "2", "--system-col", "3", "4",
                                  "--format", fmt], capsys)
        assert code == 0, err
        assert "col3" in out and "col4" in out and "PER" in out and "LOC" in out
        # system col3, label PER: TS TP 1, FP 0, FN 2; exact gold 1, found 1, correct 0 (the document's
        # per-label table: label, TS TP FP FN TN P R F kappa acc, then exact gold, system, correct, P, R, F)
        sep = " | " if fmt == "markdown" else " & "
        per = [line for line in out.splitlines() if line.strip(" |").startswith("PER")]
        assert per, out
        cells = [c.strip() for c in per[0].strip(" |\\").split(sep.strip())]
        assert cells[1:4] == ["1", "0", "2"]
        assert cells[10:13] == ["1", "1", "0"]
    assert out.startswith("%") and r"\begin{tabular}" in out and r"\end{table}" in out


def test_table_format(two_systems, capsys, tmp_path):
    code, out, err = run_cli(["score", two_systems, "--gold-col", "2", "--system-col", "3", "4"], capsys)
    assert code == 0, err
    assert "col3" in out and "col4" in out and "PER" in out and "micro" in out and "macro" in out
    assert "scheme IOB2" in out and "policy conlleval" in out
    out_file = tmp_path / "report.txt"
    code, out, err = run_cli(["score", two_systems, "--no-labels", "-o", str(out_file)], capsys)
    assert code == 0 and out == ""
    text = out_file.read_text(encoding="utf-8")
    assert "two" in text and "per label" not in text


def test_table_reports_repairs(tmp_path, capsys):
    path = write(tmp_path / "r.conll", "a O I-X\nb O O\n")
    code, out, _ = run_cli(["score", path], capsys)
    assert code == 0
    assert "r: 1 ill-formed spans repaired" in out


def test_json_output_file(tmp_path, capsys):
    path = write(tmp_path / "g.conll", GOOD)
    target = tmp_path / "out.json"
    code, out, _ = run_cli(["score", path, "--format", "json", "--output", str(target)], capsys)
    assert code == 0 and out == ""
    ex = json.loads(target.read_text(encoding="utf-8"))["systems"][0]["exact"]["micro"]
    assert (ex["gold"], ex["system"], ex["tp"]) == (2, 3, 1)


def test_demo_runs(capsys):
    code, out, err = run_cli(["demo", "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert [s["name"] for s in data["systems"]] == ["gen-ap_rich_dev", "gen-crf_poor_dev", "gen-crf_rich_dev",
                                                     "gen-mft_dev"]
    assert data["corpus"]["sentences"] == 300
    code, out, err = run_cli(["demo"], capsys)
    assert code == 0 and "gen-mft_dev" in out


@pytest.mark.slow
def test_module_version_and_demo_in_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "ts_eval", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"ts_eval {ts_eval.__version__}"
    proc = subprocess.run([sys.executable, "-m", "ts_eval", "demo", "--no-labels"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "gen-crf_rich_dev" in proc.stdout and proc.stderr == ""


@pytest.mark.slow
def test_module_exit_codes_in_a_subprocess(tmp_path):
    path = write(tmp_path / "bad.conll", "a O X-PER\n")
    proc = subprocess.run([sys.executable, "-m", "ts_eval", "score", path], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and f"{path}:1:" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "ts_eval", "score", "--nope"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2


def test_two_file_mode_token_mismatch_far_into_the_files(tmp_path, capsys):
    # past the first comparison block (2^18 tokens): the first differing token is still found
    n, bad = 300_000, 290_001
    gold_lines = [f"t{k} O" for k in range(n)]
    sys_lines = list(gold_lines)
    sys_lines[bad] = f"u{bad} O"
    gold = write(tmp_path / "g.conll", "\n".join(gold_lines) + "\n")
    sys_ = write(tmp_path / "s.conll", "\n".join(sys_lines) + "\n")
    bad_input(capsys, ["score", "--gold", gold, "--system", sys_], f"{sys_}:{bad + 1}:", f"'t{bad}'", f"'u{bad}'",
              "sentence 1")


# ---------------------------------------------------------------------------
# issue #9.5: options that silently gave wrong or odd numbers; one -o behaviour

NON_FINITE = [["--separator-weight", "nan"], ["--separator-weight", "inf"], ["--beta", "inf"], ["--beta", "nan"],
              ["--beta", "-inf"]]


@pytest.mark.parametrize("opts", NON_FINITE, ids=["=".join(o) for o in NON_FINITE])
def test_non_finite_option_values_are_rejected(tmp_path, capsys, two_systems, opts):
    path = write(tmp_path / "g.conll", GOOD)
    opts, value = ["=".join(opts)], opts[1]     # --beta=-inf: not an option
    err = usage(capsys, ["score", path] + opts, "finite", value)
    assert "Warning" not in err
    if opts[0].startswith("--separator-weight"):
        usage(capsys, ["compare", two_systems, "--gold-col", "2", "--system-col", "3", "4"] + opts, "finite")
        germeval = os.path.join(os.path.dirname(__file__), "fixtures", "germeval", "nested.tsv")
        usage(capsys, ["germeval", germeval] + opts, "finite")


def test_non_finite_values_raise_value_error_in_the_api():
    from ts_eval.comparison import compare
    from ts_eval.core.sequences import from_sequences
    from ts_eval.germeval.evaluate import evaluate_germeval
    from ts_eval.io.germeval import read_germeval
    from ts_eval.models.evaluate import evaluate

    corpus = from_sequences([["B-PER", "O"]], {"a": [["B-PER", "O"]], "b": [["O", "O"]]})
    for kwargs in ({"separator_weight": float("nan")}, {"beta": float("inf")}, {"separator_weight": -1.0}):
        with pytest.raises(ValueError, match="finite"):
            evaluate(corpus, **kwargs)
    with pytest.raises(ValueError, match="finite"):
        compare(corpus, separator_weight=float("nan"))
    data = read_germeval(os.path.join(os.path.dirname(__file__), "fixtures", "germeval", "nested.tsv"))
    with pytest.raises(ValueError, match="finite"):
        evaluate_germeval(data, beta=float("nan"))


def test_beta_labels_every_f_column_with_its_own_beta(two_systems, capsys):
    """--beta 2 makes TS and segment F into F2; Ortmann's fair and weighted F stay F1 and say so."""
    runs = {}
    for beta in ("1", "2"):
        code, out, err = run_cli(["score", two_systems, "--gold-col", "2", "--system-col", "3", "4",
                                  "--beta", beta, "--format", "json"], capsys)
        assert code == 0, err
        runs[beta] = json.loads(out)["systems"][0]
    assert runs["1"]["fair"] == runs["2"]["fair"]          # F1 by definition: beta is not theirs
    assert runs["1"]["ts"]["micro"]["f"] != runs["2"]["ts"]["micro"]["f"]
    code, out, err = run_cli(["score", two_systems, "--gold-col", "2", "--system-col", "3", "4", "--beta", "2",
                              "--format", "markdown"], capsys)
    assert code == 0, err
    assert "beta = 2; F1 columns: beta = 1" in out
    assert "fair F1" in out and "wtd F1" in out and "fair F |" not in out


def _fair_config(tmp_path):
    fix = os.path.join(os.path.dirname(__file__), "fixtures", "faireval")
    return write(tmp_path / "c.config", f"target_in = {fix}/target/ner_spans.csv\n"
                                        f"system_in = {fix}/system/ner_spans.csv\n")


OUTPUT_COMMANDS = {
    "score-table": lambda tmp, f: ["score", f["good"]],
    "score-json": lambda tmp, f: ["score", f["good"], "--format", "json"],
    "compare": lambda tmp, f: ["compare", f["two"], "--gold-col", "2", "--system-col", "3", "4"],
    "rank": lambda tmp, f: ["rank", f["two"], "--gold-col", "2", "--bootstrap", "0", "--permutations", "0"],
    "rank-json": lambda tmp, f: ["rank", f["two"], "--gold-col", "2", "--bootstrap", "0", "--permutations", "0",
                                 "--format", "json"],
    "germeval": lambda tmp, f: ["germeval", os.path.join(os.path.dirname(__file__), "fixtures", "germeval",
                                                         "nested.tsv")],
    "fair": lambda tmp, f: ["fair", "--config", _fair_config(tmp)],
    "agree": lambda tmp, f: ["agree", f["two"]],
}


@pytest.mark.parametrize("command", list(OUTPUT_COMMANDS))
def test_output_into_a_missing_folder_fails_the_same_for_every_command(tmp_path, capsys, two_systems, command):
    files = {"good": write(tmp_path / "g.conll", GOOD), "two": two_systems}
    dest = tmp_path / "no" / "such" / "out.txt"
    err = bad_input(capsys, OUTPUT_COMMANDS[command](tmp_path, files) + ["-o", str(dest)],
                    str(dest), "cannot write the output")
    assert not (tmp_path / "no").exists(), err      # no folder is created behind the user's back
    ok = tmp_path / "out.txt"
    code, _out, err = run_cli(OUTPUT_COMMANDS[command](tmp_path, files) + ["-o", str(ok)], capsys)
    assert code == 0 and ok.stat().st_size > 0, err
