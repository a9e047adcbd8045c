"""GermEval 2014 nested NER scoring: reader, the official scorer's Metrics 1-4, layouts, CLI, ranking hooks.

Expected numbers are worked out by hand in the comments (fixtures: tests/fixtures/germeval,
see its README).  A property test checks the vectorised counts against a token-by-token
reading of the official scorer's rules written here.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Dict, List, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval.cli.errors import UsageError
from ts_eval.errors import InputError, OptionError
from ts_eval.germeval.corpus import GermEvalSide, germeval_corpus
from ts_eval.germeval.counts import germeval_counts, metric1_stats
from ts_eval.germeval.evaluate import evaluate_germeval, official_numbers
from ts_eval.io.germeval import read_germeval, read_germeval_any, read_germeval_pair
from ts_eval.io.germeval_data import LABELS, TAG_ID, TAGS, GermEvalData, decode_level
from ts_eval.models.germeval import metric1_f1, metric1_sentence_stats
from ts_eval.output.legacy.nereval import nereval_block, to_latex, to_nereval

FIX = Path(__file__).parent / "fixtures" / "germeval"
NESTED = str(FIX / "nested.tsv")
NESTED_GOLD = str(FIX / "nested.gold.tsv")
NESTED_SYS = str(FIX / "nested.system.tsv")
DECODING = str(FIX / "decoding.tsv")


def score_files(gold_or_file: str, system_path=None, **kwargs):
    """Read (6-column FILE, or gold + system files) and score (reading is io's job, scoring germeval's)."""
    return evaluate_germeval(read_germeval_any(gold_or_file, system_path), **kwargs)


def metric1_from_files(gold_or_file: str, system_path=None):
    """Metric 1 statistics of a 6-column FILE, or of a gold file and a system file."""
    return metric1_stats(read_germeval_any(gold_or_file, system_path))


def metrics(report) -> Dict:
    return report.systems[0]["germeval"]["metrics"]


def level(report, lv: str, mode: str) -> Dict:
    return report.systems[0]["germeval"]["levels"][lv][mode]


def totals(report, lv: str, mode: str) -> Tuple[int, int, int]:
    d = level(report, lv, mode)
    return d["gold"], d["system"], d["tp"]


# ---------------------------------------------------------------------------
# nesting, both levels, deriv/part (the evaluation plan's example sentences)
#
# outer gold: LOC Stuttgart, LOC Braunschweig, LOC Bonn, LOCpart Troia-Ausstellung,
#             OTH "Troia - Traum und Wirklichkeit", LOCderiv norddeutsche      -> 6
# inner gold: LOC Troia                                                        -> 1
# outer system: LOC Stuttgart (right), ORG Braunschweig, LOCderiv Bonn, LOC Troia-Ausstellung,
#               OTH Troia..Wirklichkeit (right)                                -> 5
# inner system: LOC Troia (right), LOCderiv norddeutsche (wrong level)         -> 2
# strict correct: outer 2, inner 1; loose adds Bonn (LOC~LOCderiv) and Troia-Ausstellung
# (LOCpart~LOC): outer 4, inner 1.  30 tokens.

def test_nested_metrics_by_hand():
    rep = score_files(NESTED)
    m = metrics(rep)
    assert totals(rep, "outer", "strict") == (6, 5, 2)
    assert totals(rep, "inner", "strict") == (1, 2, 1)
    assert totals(rep, "outer", "loose") == (6, 5, 4)
    assert totals(rep, "inner", "loose") == (1, 2, 1)
    m1 = m["m1_strict_combined"]
    assert (m1["gold"], m1["system"], m1["tp"]) == (7, 7, 3)
    assert m1["precision"] == pytest.approx(3 / 7) and m1["f"] == pytest.approx(3 / 7)
    assert m["m2_loose_combined"]["f"] == pytest.approx(5 / 7)
    assert m["m3_strict_outer"]["precision"] == pytest.approx(2 / 5)
    assert m["m3_strict_outer"]["recall"] == pytest.approx(2 / 6)
    assert m["m3_strict_inner"]["precision"] == pytest.approx(1 / 2)
    assert m["m3_strict_inner"]["recall"] == pytest.approx(1.0)
    # Metric 4: outer tags wrong on Braunschweig, Bonn, Troia-Ausstellung, norddeutsche (26/30);
    # inner wrong on norddeutsche (29/30); loose forgives Bonn and Troia-Ausstellung (28/30)
    acc = m["m4_token_accuracy"]
    assert acc["outer"] == pytest.approx(26 / 30)
    assert acc["inner"] == pytest.approx(29 / 30)
    assert acc["strict_combined"] == pytest.approx((26 + 29) / 2 / 30)
    assert acc["loose_combined"] == pytest.approx((28 + 29) / 2 / 30)


def test_nested_per_type_and_loose_collapsing():
    rep = score_files(NESTED)
    g = rep.systems[0]["germeval"]
    assert list(g["per_type"]) == ["LOC", "LOCderiv", "LOCpart", "ORG", "OTH"]
    # strict LOC outer: gold 3 (Stuttgart, Braunschweig, Bonn), found 2 (Stuttgart, Troia-Ausstellung)
    assert g["levels"]["outer"]["strict"]["types"]["LOC"] == {"gold": 3, "system": 2, "tp": 1}
    # loose LOC outer pools LOC, LOCderiv, LOCpart: gold 5, found 3 (+Bonn), all 3 right
    assert g["levels"]["outer"]["loose"]["types"]["LOC"] == {"gold": 5, "system": 3, "tp": 3}
    # loose LOC inner: Troia right, norddeutsche (LOCderiv on the inner level) found but wrong
    assert g["levels"]["inner"]["loose"]["types"]["LOC"] == {"gold": 1, "system": 2, "tp": 1}
    # the deriv/part types have strict rows only
    assert set(g["per_type"]["LOCderiv"]) == {"outer_strict", "inner_strict"}
    assert set(g["per_type"]["ORG"]) == {"outer_strict", "inner_strict", "outer_loose", "inner_loose"}
    assert g["per_type"]["LOC"]["outer_loose"]["recall"] == pytest.approx(3 / 5)


def test_nested_nereval_layout_byte_for_byte():
    expected = (FIX / "nested.nereval.out").read_text(encoding="utf-8")
    assert to_nereval(score_files(NESTED)) == expected
    # spot checks of the hand-worked numbers in the expected file
    assert "FB1:  42.86\n" in expected and "Accuracy:  91.67%;\n" in expected
    assert "Outer loose: Precision: 100.00%; Recall:  60.00%; FB1:  75.00\n" in expected


def test_two_file_mode_equals_six_columns():
    six = score_files(NESTED).systems[0]["germeval"]
    pair = score_files(NESTED_GOLD, NESTED_SYS).systems[0]["germeval"]
    assert pair == six
    # a 6-column system file in two-file mode: its columns 5-6 are the system
    pair6 = score_files(NESTED_GOLD, NESTED).systems[0]["germeval"]
    assert pair6 == six
    # the input's layout is 'input_layout'; 'layout' names the JSON's own layout version only
    d = json.loads(json.dumps(score_files(NESTED_GOLD, NESTED_SYS).to_dict()))
    assert d["layout"]["kind"] == "germeval" and d["settings"]["input_layout"] == "pair"
    assert d["systems"][0]["source"]["input_layout"] == "pair" and "layout" not in d["settings"]
    assert score_files(NESTED).to_dict()["settings"]["input_layout"] == "6col"


def test_ts_over_both_levels_by_hand():
    # units per label (outer and inner chunks in one span set):
    # LOC: gold tokens Stuttgart, Braunschweig, Bonn, Troia (inner); system Stuttgart, Troia-Ausstellung,
    #      Troia (inner) -> TP 2, FP 1, FN 2
    # LOCderiv: gold norddeutsche; system Bonn, norddeutsche (inner) -> TP 1, FP 1 (a TS unit has no level)
    # LOCpart: FN 1; ORG: FP 1; OTH: 5 tokens + 4 separators, all TP
    ts = score_files(NESTED).systems[0]["ts"]
    assert (ts["micro"]["tp"], ts["micro"]["fp"], ts["micro"]["fn"]) == (12, 3, 3)
    assert ts["labels"]["LOC"]["tp"] == 2 and ts["labels"]["LOC"]["fn"] == 2
    assert ts["labels"]["OTH"]["separator"] == {"tp": 4, "fp": 0, "fn": 0}
    # each level alone: the inner LOCderiv is an FP there and the outer one an FN
    assert (ts["levels"]["inner"]["tp"], ts["levels"]["inner"]["fp"], ts["levels"]["inner"]["fn"]) == (1, 1, 0)
    assert (ts["levels"]["outer"]["tp"], ts["levels"]["outer"]["fp"], ts["levels"]["outer"]["fn"]) == (10, 3, 4)


def test_fair_error_types_per_level():
    fair = score_files(NESTED).systems[0]["fair"]
    if not fair.get("available"):
        pytest.skip(fair.get("note"))
    outer = fair["levels"]["outer"]["fair"]["micro"]
    inner = fair["levels"]["inner"]["fair"]["micro"]
    # outer: TP Stuttgart, OTH; LE Braunschweig (ORG), Bonn (LOCderiv), Troia-Ausstellung (LOC);
    # FN norddeutsche (it was predicted on the inner level)
    assert (outer["tp"], outer["le"], outer["fn"], outer["fp"], outer["be"], outer["lbe"]) == (2, 3, 1, 0, 0, 0)
    assert (inner["tp"], inner["fp"], inner["fn"]) == (1, 1, 0)
    # traditional F1 of a level is Metric 3
    assert fair["levels"]["outer"]["traditional"]["micro"]["f"] == pytest.approx(2 * 2 / (6 + 5))


# ---------------------------------------------------------------------------
# the official scorer's chunk decoding (decoding.tsv, outer level)
#
#   A  a B-LOC/B-LOC  b I-LOC/I-ORG      nereval: one system chunk LOC a-b (label changes) -> wrong
#   B  c O/O  d B-PER/I-PER              I- after O opens a chunk; it matches B-PER       -> right
#   C  e B-ORG/B-OTH  f O/I-ORG          B-Y I-X: one chunk OTH e-f                        -> wrong
#   D1 g B-PER/B-PER | D2 h O/I-PER i O  the I- opening D2 continues g's chunk: PER g-h   -> wrong
#   E  j B-LOCderiv/B-LOC k I-LOCderiv/I-LOCpart: one chunk; strict wrong, loose right
#   F  l O/O  m B-ORG/B-ORG (last line)  right, but ends on the last token: not counted
# gold 6 chunks; nereval finds 6; strict correct 1 (d), loose 2 (d, j-k)
# conlleval finds 10 (a, b, d, e, f, g, h, j, k, m): strict correct d, g (2); loose d, g (2)
# discard drops the 5 chunks opening with I- (b, d, f, h, k): found 5, correct g (1) either way
# tags: strict 6 of 13 right (a c g i l m), loose also j k (8)

@pytest.mark.parametrize("policy, found, strict_ok, loose_ok", [
    ("nereval", 6, 1, 2), ("conlleval", 10, 2, 2), ("discard", 5, 1, 1)])
def test_decoding_policies(policy, found, strict_ok, loose_ok):
    rep = score_files(DECODING, policy=policy, fair=False)
    assert totals(rep, "outer", "strict") == (6, found, strict_ok)
    assert totals(rep, "outer", "loose") == (6, found, loose_ok)
    assert level(rep, "outer", "strict")["tags_correct"] == 6
    assert level(rep, "outer", "loose")["tags_correct"] == 8
    assert level(rep, "outer", "strict")["eof_dropped"] == 1


def test_decoding_chunks_nereval():
    data = read_germeval(DECODING)
    ch = decode_level(data.row("system", "outer"), data.sent_first, "nereval")
    # tokens: a0 b1 | c2 d3 | e4 f5 | g6 | h7 i8 | j9 k10 | l11 m12
    assert list(zip(ch.start.tolist(), ch.last.tolist())) == [(0, 1), (3, 3), (4, 5), (6, 7), (9, 10), (12, 12)]
    assert [LABELS[k] for k in ch.label] == ["LOC", "PER", "OTH", "PER", "LOC", "ORG"]
    assert ch.mixed.tolist() == [True, False, True, False, True, False]
    assert ch.crosses.tolist() == [False, False, False, True, False, False]
    rows = evaluate_germeval(data, fair=False).systems[0]["validation"]["rows"]["system outer"]
    assert rows == {"spans": 6, "ill_formed": 5, "discarded": 0, "i_start": 1, "label_change_inside": 3,
                    "crosses_sentence": 1}


def test_last_chunk_rule():
    rep = score_files(DECODING, eof_quirk=False, fair=False)
    assert totals(rep, "outer", "strict") == (6, 6, 2)
    assert level(rep, "outer", "strict")["eof_dropped"] == 0
    assert score_files(DECODING, fair=False).systems[0]["validation"]["eof_dropped_strict"] == 1


def test_strict_policy_rejects_first_ill_formed_tag():
    with pytest.raises(InputError) as err:
        read_germeval(DECODING, policy="strict")
    assert err.value.line == 3 and err.value.path == DECODING
    assert "'I-ORG'" in str(err.value) and "follows B-LOC" in str(err.value) and "system outer" in str(err.value)


def test_cross_sentence_chunk_is_cut_for_ts_and_counted_once_for_m1():
    data = read_germeval(DECODING)
    st = metric1_stats(data)
    # sentences A B C D1 D2 E F; the chunk g-h is found in D1, nothing is found in D2
    assert st.stats[:, 1].tolist() == [1, 1, 1, 1, 0, 1, 1]
    assert st.stats[:, 2].tolist() == [0, 1, 0, 0, 0, 0, 0]
    ts = evaluate_germeval(data, fair=False).systems[0]["ts"]
    # PER: gold d, g; system d and the chunk g-h, cut at the sentence end into g and h
    per = ts["labels"]["PER"]
    assert per["token"] == {"tp": 2, "fp": 1, "fn": 0}   # d and g right, h spurious
    assert per["separator"] == {"tp": 0, "fp": 0, "fn": 0}


# ---------------------------------------------------------------------------
# the official layout on real data: counts -> nereval.perl's exact output


def test_official_layout_byte_for_byte_on_real_counts():
    counts = json.loads((FIX / "gen-crf_rich_dev.counts.json").read_text(encoding="utf-8"))
    # the renderer only formats: the scorer's numbers are computed from the stored counts here
    counts["official"] = official_numbers(counts["levels"], counts["tokens"], list(counts["per_type"]))
    expected = (FIX / "gen-crf_rich_dev.nereval.out").read_text(encoding="utf-8")
    assert nereval_block({"name": "gen-crf_rich_dev", "germeval": counts}) == expected


def test_latex_tables():
    tex = to_latex(score_files(NESTED))
    assert r"Strict, Combined (official) & 91.67\% & 42.86\% & 42.86\% & 42.86 \\" in tex
    # the loose row shows Metric 2 (nereval.perl -l repeats the strict numbers there)
    assert r"Loose, Combined & 95.00\% & 71.43\% & 71.43\% & 71.43 \\" in tex
    assert r"LOC & Outer loose & 100.00\% & 60.00\% & 75.00 \\" in tex
    assert tex.count(r"\begin{tabular}") == tex.count(r"\end{tabular}") >= 3


# ---------------------------------------------------------------------------
# reading: accepted variants and bad inputs


def write(path: Path, text: str, encoding: str = "utf-8") -> str:
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return str(path)


SIX = "#\tsrc\t\n1\tDer\tO\tO\tO\tO\n2\tMain\tB-LOC\tO\tB-LOC\tO\n3\t.\tO\tO\tO\tO\n"


def test_reader_variants(tmp_path):
    base = score_files(write(tmp_path / "a.tsv", SIX)).systems[0]["germeval"]
    crlf = write(tmp_path / "b.tsv", SIX.replace("\n", "\r\n"))
    bom = write(tmp_path / "c.tsv", b"\xef\xbb\xbf" + SIX.encode())
    trailing = write(tmp_path / "d.tsv", SIX.replace("O\tO\tO\tO\n", "O\tO\tO\tO\t\n", 1))  # empty last field
    no_final_newline = write(tmp_path / "e.tsv", SIX.rstrip("\n"))
    for p in (crlf, bom, trailing, no_final_newline):
        assert score_files(p, fair=False).systems[0]["germeval"] == base, p
    data = read_germeval(crlf)
    assert data.n_tokens == 3 and data.n_sentences == 1 and data.comment_lines == 1
    assert data.gold_lines.tolist() == [2, 3, 4]


def test_tokens_are_bytes_safe(tmp_path):
    # soft hyphen and C1 controls occur in the original test file; they must pass and compare exactly
    tok = "Bundes\u00adliga\u0096"
    gold = write(tmp_path / "g.tsv", f"1\t{tok}\tB-ORG\tO\n2\tx\tO\tO\n")
    sys_ok = write(tmp_path / "s.tsv", f"1\t{tok}\tB-ORG\tO\n2\tx\tO\tO\n")
    data = read_germeval_pair(gold, sys_ok)
    assert data.texts(0, 2) == [tok, "x"]
    sys_bad = write(tmp_path / "t.tsv", "1\tBundesliga\u0096\tB-ORG\tO\n2\tx\tO\tO\n")
    with pytest.raises(InputError, match="differs"):
        read_germeval_pair(gold, sys_bad)


@pytest.mark.parametrize("text, line, needle", [
    (SIX.replace("B-LOC\tO\tB-LOC", "B-LOC\tO\tB-MISC"), 3, "no MISC"),
    (SIX.replace("B-LOC\tO\tB-LOC", "B-LOC\tO\tb-LOC"), 3, "case sensitive"),
    (SIX.replace("B-LOC\tO\tB-LOC", "B-LOC\tO\tB-loc"), 3, "case sensitive"),
    (SIX.replace("2\tMain\tB-LOC\tO", "2\tMain\tB-LOC\to"), 3, "gold inner tag 'o'"),
    (SIX.replace("B-LOC\tO\tB-LOC", "B-LOC\tO\tB-LOC "), 3, "white space"),
    (SIX.replace("B-LOC\tO\tB-LOC", "B-LOC\tO\tE-LOC"), 3, "not IOB2"),
    (SIX.replace("B-LOC\tO\tB-LOC", "B-LOC\tO\tB-LOCx"), 3, "not a GermEval 2014 tag"),
    (SIX.replace("3\t.\tO\tO\tO\tO", "3\t.\tO\tO\tO"), 4, "5 TAB-separated fields, expected 6"),
    (SIX.replace("1\tDer\tO\tO\tO\tO", "1 Der O O O O"), 2, "not spaces"),
    (SIX.replace("3\t.", "\t."), 4, "starts with a TAB"),
    (SIX.replace("1\tDer", "1\t"), 2, "empty token field"),
    ("\n\n#\tonly a comment\n", None, "no token lines"),
    ("", None, "empty file"),
])
def test_bad_six_column_inputs(tmp_path, text, line, needle):
    path = write(tmp_path / "bad.tsv", text)
    with pytest.raises(InputError) as err:
        read_germeval(path)
    assert needle in str(err.value)
    assert err.value.path == path and err.value.line == line


def test_bad_utf8(tmp_path):
    path = write(tmp_path / "bad.tsv", SIX.encode("utf-8") + b"4\t\xff\tO\tO\tO\tO\n")
    with pytest.raises(InputError, match="not UTF-8") as err:
        read_germeval(path)
    assert err.value.line == 5


GOLD4 = "#\tsrc\t\n1\tDer\tO\tO\n2\tMain\tB-LOC\tO\n3\t.\tO\tO\n\n1\tJa\tO\tO\n"


@pytest.mark.parametrize("system, line, needle", [
    (GOLD4.replace("Main", "Rhein"), 3, "token 'Main' (gold line 3) differs from 'Rhein'"),
    (GOLD4.replace("2\tMain", "7\tMain"), 3, "index field '7' differs from the gold file's '2'"),
    (GOLD4.replace("1\tJa\tO\tO\n", ""), None, "do not line up"),
    (GOLD4.replace("\n\n1\tJa", "\n1\tJa"), None, "do not line up"),
    (GOLD4.replace("B-LOC\tO", "B-LOC\tO\tX"), 3, "5 TAB-separated fields, expected 4 or 6"),
    (GOLD4.replace("2\tMain\tB-LOC\tO", "2\tMain\tB-LOC\tO\tB-ORG\tO"), 3, "fields"),
    (GOLD4.replace("2\tMain\tB-LOC\tO", "2\tMain\tB-LOC\tI-PER"), 3, "system inner tag 'I-PER'"),
])
def test_bad_pairs(tmp_path, system, line, needle):
    gold = write(tmp_path / "gold.tsv", GOLD4)
    sys_path = write(tmp_path / "sys.tsv", system)
    if needle == "system inner tag 'I-PER'":  # a valid tag, but ill-formed IOB2: only strict rejects it
        read_germeval_pair(gold, sys_path)
        with pytest.raises(InputError, match="ill-formed IOB2 on the system inner level") as err:
            read_germeval_pair(gold, sys_path, policy="strict")
        assert err.value.path == sys_path and err.value.line == line
        return
    with pytest.raises(InputError) as err:
        read_germeval_pair(gold, sys_path)
    assert needle in str(err.value)
    assert err.value.path == sys_path
    if line is not None:
        assert err.value.line == line


def test_six_column_system_with_other_gold(tmp_path):
    gold = write(tmp_path / "gold.tsv", GOLD4)
    six = "#\tsrc\t\n1\tDer\tO\tO\tO\tO\n2\tMain\tB-ORG\tO\tB-LOC\tO\n3\t.\tO\tO\tO\tO\n\n1\tJa\tO\tO\tO\tO\n"
    path = write(tmp_path / "six.tsv", six)
    with pytest.raises(InputError, match="different gold data") as err:
        read_germeval_pair(gold, path)
    assert err.value.line == 3


def test_gold_tags_are_validated_too(tmp_path):
    path = write(tmp_path / "g.tsv", GOLD4.replace("B-LOC", "B-PERS"))
    with pytest.raises(InputError, match="gold outer tag 'B-PERS'") as err:
        read_germeval_pair(path, write(tmp_path / "s.tsv", GOLD4))
    assert err.value.path == path and err.value.line == 3


def test_unknown_policy():
    with pytest.raises(ValueError, match="unknown policy"):
        read_germeval(NESTED, policy="lenient")


# ---------------------------------------------------------------------------
# command line


def parser() -> argparse.ArgumentParser:
    from ts_eval.cli import germeval as cli_germeval

    p = argparse.ArgumentParser(prog="ts-eval")
    sub = p.add_subparsers(dest="command")
    cli_germeval.register(sub)
    return p


def run(argv: Sequence[str]) -> int:
    from ts_eval.cli import germeval as cli_germeval

    return cli_germeval.run(parser().parse_args(list(argv)))


def test_cli_formats(tmp_path, capsys):
    assert run(["germeval", NESTED, "--format", "nereval"]) == 0
    assert capsys.readouterr().out == (FIX / "nested.nereval.out").read_text(encoding="utf-8")
    assert run(["germeval", "--gold", NESTED_GOLD, "--system", NESTED_SYS, "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["systems"][0]["germeval"]["metrics"]["m1_strict_combined"]["tp"] == 3
    assert d["settings"]["input"]["gold"] == NESTED_GOLD
    out = tmp_path / "r.tex"
    assert run(["germeval", NESTED, "--format", "latex", "-o", str(out)]) == 0
    assert r"\begin{tabular}" in out.read_text(encoding="utf-8")
    out = tmp_path / "r.txt"
    assert run(["germeval", DECODING, "-o", str(out), "--name", "toy"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "toy: GermEval 2014 metrics" in text and "M1 strict, combined (official)" in text
    assert "1 correct chunk(s) end on the last token" in text and "run into the next sentence" in text
    assert run(["germeval", DECODING, "--count-last-chunk", "--format", "json", "--no-fair"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["systems"][0]["germeval"]["levels"]["outer"]["strict"]["tp"] == 2
    assert "fair" not in d["systems"][0]


@pytest.mark.parametrize("argv", [
    ["germeval"], ["germeval", NESTED, "--gold", NESTED_GOLD, "--system", NESTED_SYS],
    ["germeval", "--gold", NESTED_GOLD], ["germeval", NESTED, "--separator-weight", "-1"]])
def test_cli_usage_errors(argv):
    with pytest.raises(UsageError):
        run(argv)


def test_cli_main_exit_codes(capsys):
    from ts_eval import cli

    if "germeval" not in getattr(cli, "COMMANDS", {}):
        pytest.skip("ts-eval germeval is not wired into ts_eval.cli")
    assert cli.main(["germeval", NESTED, "--format", "nereval"]) == 0
    capsys.readouterr()
    assert cli.main(["germeval", NESTED_GOLD]) == 1           # 4 columns where 6 are expected
    assert "expected 6" in capsys.readouterr().err
    assert cli.main(["germeval", DECODING, "--policy", "strict"]) == 1
    assert cli.main(["germeval"]) == 2


# ---------------------------------------------------------------------------
# ranking: Metric 1 as per-sentence sufficient statistics


def test_metric1_sentence_stats():
    st = metric1_from_files(NESTED)
    # sentence 1: gold 5 outer + 1 inner, found 5 + 1, correct 3; sentence 2: gold 1, found 1 (wrong level)
    assert st.stats.tolist() == [[6, 6, 3], [1, 1, 0]]
    assert st.f1 == pytest.approx(3 / 7) and st.precision == pytest.approx(3 / 7)
    assert st.f1 == pytest.approx(metrics(score_files(NESTED))["m1_strict_combined"]["f"])
    assert metric1_from_files(NESTED_GOLD, NESTED_SYS).stats.tolist() == st.stats.tolist()
    # vectorised over resamples: each row is a weighted sum of sentences
    w = np.array([[1, 0], [0, 1], [2, 1]])
    assert metric1_f1(w @ st.stats).tolist() == pytest.approx([6 / 12, 0.0, 12 / 26])


def test_germeval_corpus_for_ranking(tmp_path):
    worse = write(tmp_path / "worse.tsv", Path(NESTED_SYS).read_text(encoding="utf-8").replace("B-OTH", "B-ORG"))
    corpus = germeval_corpus(NESTED_GOLD, [NESTED_SYS, worse], names=["sys", "worse"])
    assert list(corpus.systems) == ["sys", "worse"] and corpus.labels == list(LABELS)
    assert len(corpus.gold) == 7                     # both levels in one span set
    assert isinstance(corpus.system_info["sys"], GermEvalSide)
    stats = {n: metric1_sentence_stats(SimpleNamespace(cd=SimpleNamespace(corpus=corpus), name=n))
             for n in corpus.systems}
    assert stats["sys"].tolist() == [[6, 6, 3], [1, 1, 0]]
    # "worse" tags the OTH chunk B-ORG I-OTH ...: one chunk, wrong label
    assert stats["worse"].tolist() == [[6, 6, 2], [1, 1, 0]]
    # 6-column files alone must share their gold
    corpus6 = germeval_corpus(None, [NESTED, NESTED], names=["a", "b"])
    assert len(corpus6.systems) == 2
    other = write(tmp_path / "other.tsv", Path(NESTED).read_text(encoding="utf-8").replace(
        "Stuttgart\tB-LOC", "Stuttgart\tB-ORG"))
    with pytest.raises(InputError, match="same gold"):
        germeval_corpus(None, [NESTED, other])
    with pytest.raises(OptionError, match="used twice"):     # a library error (the CLI's UsageError is one)
        germeval_corpus(None, [NESTED, NESTED])


# ---------------------------------------------------------------------------
# property test: the vectorised counts equal a token-by-token reading of the scorer's rules


def _parse(tag: str) -> Tuple[str, str, str]:
    if tag == "O":
        return "O", "", ""
    prefix, label = tag.split("-", 1)
    return prefix, label[:3], label[3:]


def reference_counts(rows: List[Tuple[str, str]], mode: str) -> Tuple[Dict[str, int], Dict[str, int],
                                                                           Dict[str, int], int]:
    """The official scorer's rules for one level, token by token over the whole file
    (sentence breaks play no part): a chunk starts at B, or at I after O; it ends before
    B or O; a pair of chunks is correct when both start and end together with the same
    type on every token; the chunk still open at the end of the input is never counted."""
    gold: Dict[str, int] = {}
    found: Dict[str, int] = {}
    correct: Dict[str, int] = {}
    tags = 0
    in_correct = False
    pg = ps = ("O", "", "")

    def typ(t):
        return t[1] + t[2] if mode == "strict" else t[1]

    for gt, stag in rows:
        g, s = _parse(gt), _parse(stag)
        g_end = pg[0] in "BI" and g[0] in "BO"
        s_end = ps[0] in "BI" and s[0] in "BO"
        g_start = g[0] == "B" or (g[0] == "I" and pg[0] == "O")
        s_start = s[0] == "B" or (s[0] == "I" and ps[0] == "O")
        if in_correct:
            if g_end and s_end:
                correct[typ(pg)] = correct.get(typ(pg), 0) + 1
                in_correct = False
            elif g_end != s_end or typ(g) != typ(s):
                in_correct = False
        if g_start and s_start and typ(g) == typ(s):
            in_correct = True
        if g_start:
            gold[typ(g)] = gold.get(typ(g), 0) + 1
        if s_start:
            found[typ(s)] = found.get(typ(s), 0) + 1
        tags += g[0] == s[0] and typ(g) == typ(s)
        pg, ps = g, s
    return gold, found, correct, tags


TAG_POOL = ["O", "O", "O", "B-LOC", "I-LOC", "B-LOCderiv", "I-LOCderiv", "B-ORG", "I-ORG", "I-ORGpart"]


@st.composite
def corpora(draw):
    lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=6))
    n = sum(lengths)
    rows = [draw(st.lists(st.sampled_from(TAG_POOL), min_size=n, max_size=n)) for _ in range(4)]
    return lengths, rows


def _data(lengths, rows) -> GermEvalData:
    n = sum(lengths)
    sent_first = np.zeros(n, bool)
    sent_first[np.cumsum([0] + lengths[:-1])] = True
    tags = np.array([[TAG_ID[t] for t in r] for r in rows], np.uint8)
    lines = np.arange(1, n + 1, dtype=np.int32)
    return GermEvalData("s", "<g>", "<s>", "6col", tags, sent_first, lines, lines,
                        lambda a, b: ["t"] * (b - a))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(corpora())
def test_counts_match_reference_rules(case):
    lengths, rows = case
    c = germeval_counts(_data(lengths, rows))
    for k, lv in enumerate(("outer", "inner")):
        pairs = list(zip(rows[k], rows[k + 2]))
        for mode in ("strict", "loose"):
            gold, found, correct, tags = reference_counts(pairs, mode)
            lc = c.get(mode, lv)

            def ours(arr, types=lc.types):
                return {t: int(v) for t, v in zip(types, arr) if v}

            assert ours(lc.gold) == gold
            assert ours(lc.found) == found
            assert ours(lc.correct) == correct
            assert lc.tags_correct == tags
    assert c.m1_sentences.sum(axis=0).tolist() == [
        sum(c.get("strict", lv).totals()[i] for lv in ("outer", "inner")) for i in range(3)]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(corpora())
def test_policies_agree_on_well_formed_input(case):
    lengths, rows = case
    data = _data(lengths, rows)
    # make every row well-formed IOB2: an I- that cannot continue becomes B-
    for r in range(4):
        prev = "O"
        for i, t in enumerate(rows[r]):
            if data.sent_first[i]:
                prev = "O"
            if t.startswith("I-") and (prev == "O" or prev[2:] != t[2:]):
                t = "B-" + t[2:]
            data.tags[r, i] = TAG_ID[t]
            prev = t
    base = germeval_counts(data, "nereval", eof_quirk=False)
    for policy in ("conlleval", "strict", "discard"):
        other = germeval_counts(data, policy, eof_quirk=False)
        for key, lc in base.levels.items():
            o = other.levels[key]
            assert lc.totals() == o.totals() and lc.tags_correct == o.tags_correct
    # a system equal to gold is perfect (without the end-of-input rule)
    data.tags[2:] = data.tags[:2]
    same = germeval_counts(data, eof_quirk=False)
    for lc in same.levels.values():
        g, f, k = lc.totals()
        assert g == f == k and lc.tags_correct == data.n_tokens
    assert set(TAGS) >= set(TAG_POOL)


def test_rank_model_with_sufficient_statistics(tmp_path):
    sufficient = pytest.importorskip("ts_eval.ranking.sufficient")
    from ts_eval.models.germeval import MODEL

    worse = write(tmp_path / "worse.tsv", Path(NESTED_SYS).read_text(encoding="utf-8").replace("B-OTH", "B-ORG"))
    corpus = germeval_corpus(NESTED_GOLD, [NESTED_SYS, worse], names=["sys", "worse"])
    model = sufficient.get_model("germeval-m1")
    assert model is MODEL
    sm = sufficient.statistics(corpus, [model])
    scores = sm.scores(sm.totals)               # (systems, models)
    assert scores[:, 0].tolist() == pytest.approx([2 * 3 / 14, 2 * 2 / 14])
    assert scores[0, 0] == pytest.approx(metrics(score_files(NESTED_GOLD, NESTED_SYS))["m1_strict_combined"]["f"])


# ---------------------------------------------------------------------------
# layers: the legacy rounding order, renderers that only format, Metric 1 from the corpus's data


def test_legacy_percentages_keep_the_scorers_order():
    from ts_eval.core.measures import percent, percent_of_ratio, prf

    # 100*1/3 and 100*(1/3) differ in the last bit; nereval.perl multiplies first
    assert percent(1, 3) == 33.333333333333336 and percent_of_ratio(1, 3) == 33.33333333333333
    assert percent(1, 0) == 0.0 and percent_of_ratio(1, 0) == 0.0
    p, r, f = prf(1, 2, 1, percent=True)    # 1 correct of 3 found (2 false), 2 gold (1 missed)
    assert (p, r) == (100 * 1 / 3, 50.0) and f == 2 * p * r / (p + r)
    assert prf(0, 0, 0, percent=True) == (0.0, 0.0, 0.0)


def test_nereval_layout_prints_the_reports_numbers_without_recomputing():
    report = score_files(NESTED)
    system = report.systems[0]
    system["germeval"]["official"]["blocks"][0]["precision"] = 12.344   # not derivable from the counts
    system["germeval"]["official"]["per_type"]["LOC"][0]["f"] = 98.765
    text = nereval_block(system)
    assert "Precision:  12.34%;\n" in text
    assert "Outer strict: Precision: " in text and "FB1:  98.77\n" in text


def test_germeval_modules_import_one_way():
    import ast

    import ts_eval

    root = Path(ts_eval.__file__).parent

    def imports(rel: str) -> set:
        tree = ast.parse((root / rel).read_text(encoding="utf-8"))
        return {"." * n.level + (n.module or "") for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}

    for metric in ("germeval/counts.py", "germeval/evaluate.py"):     # the metrics read no files (only the data)
        assert {m for m in imports(metric) if m.startswith("..io")} <= {"..io.germeval_data"}
    for reading in ("io/germeval.py", "io/germeval_data.py"):         # the format knows no model and no study
        assert not {m for m in imports(reading) if m.startswith(("..models", "..fair", "..germeval"))}
    assert imports("output/legacy/nereval.py") <= {"__future__", "typing", "...results.report"}   # layouts only format
    assert not {m for m in imports("models/germeval.py") if "germeval" in m}       # the model reads the side only


def test_metric1_statistics_come_from_the_corpus_data():
    corpus = germeval_corpus(None, [DECODING], names=["toy"], eof_quirk=False)
    side = corpus.system_info["toy"]
    assert isinstance(side, GermEvalSide) and side.germeval is not None and not side.eof_quirk
    sd = SimpleNamespace(cd=SimpleNamespace(corpus=corpus), name="toy")
    got = metric1_sentence_stats(sd)
    assert got.tolist() == metric1_stats(read_germeval(DECODING), eof_quirk=False).stats.tolist()
    # the last chunk is counted only without the scorer's end-of-input rule
    with_rule = metric1_stats(read_germeval(DECODING)).stats
    assert got[:, 2].sum() == with_rule[:, 2].sum() + 1
    # a corpus that is not GermEval data has no Metric 1
    from ts_eval.core.sequences import from_spans
    plain = from_spans([3], [[("PER", 0, 1)]], {"s": [[("PER", 0, 1)]]})
    with pytest.raises(OptionError, match="GermEval-layout input"):
        metric1_sentence_stats(SimpleNamespace(cd=SimpleNamespace(corpus=plain), name="s"))


def test_cli_maps_metric1_on_non_germeval_input_to_exit_2(tmp_path, capsys):
    from ts_eval import cli

    rows = ["w0 B-PER B-PER O B-PER", "w1 I-PER I-PER O O", "", "w0 O B-LOC O O", ""]
    path = write(tmp_path / "three.conll", "\n".join(rows) + "\n")
    assert cli.main(["rank", path, "--gold-col", "2", "--models", "germeval-m1"]) == 2
    assert "GermEval-layout input" in capsys.readouterr().err
