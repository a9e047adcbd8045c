"""Messages a person can act on (issue 17, point 7): what was found, where, and what to do -- with the
option named as the command line spells it there (``--align expand``) and as a keyword in Python."""
from __future__ import annotations

import json
import os

import pytest
from support import fails, run_cli, write

import ts_eval
from ts_eval.errors import InputError, OptionError

GOLD = "EU B-ORG\nrejects O\nGerman B-MISC\ncall O\n\nPeter B-PER\nBlackburn I-PER\n"
SYS_A = "EU B-ORG\nrejects O\nGerman O\ncall O\n\nPeter B-PER\nBlackburn I-PER\n"


def test_a_tab_delimiter_on_a_space_separated_file_says_no_tab_was_found(tmp_path, capsys):
    f = write(tmp_path / "sp.conll", "EU B-ORG B-ORG\nrejects O O\n")
    err = fails(capsys, ["score", f, "-d", "\\t"], 1, f"{f}: column -2 does not exist: the file has 1 column",
                "no tab (the delimiter) was found on line 1 'EU B-ORG B-ORG'", "which has spaces",
                "leave out --delimiter")
    assert "1 columns" not in err
    two = write(tmp_path / "two.conll", "EU B-ORG\nrejects O\n")
    fails(capsys, ["score", "--gold", two, two, "-d", "\\t"], 1, two, "no tab (the delimiter) was found",
          "leave out --delimiter")
    with pytest.raises(InputError) as info:       # the library: the keyword
        ts_eval.io.read_conll(f, delimiter="\t")
    assert "leave out delimiter to split" in str(info.value) and info.value.option == "delimiter"


def test_a_one_column_file_is_bad_input(tmp_path, capsys):
    one = write(tmp_path / "one.conll", "EU\nrejects\n")
    fails(capsys, ["score", one], 1, "column -2 does not exist: the file has 1 column")
    fails(capsys, ["score", "--gold", one, one], 1, "the token column 1 is also the tag column", "--tags-only")
    wide = write(tmp_path / "wide.conll", "EU B-ORG B-ORG\n")          # a column beyond a wider file: usage
    fails(capsys, ["score", wide, "--system-col", "-9"], 2, "column -9 does not exist")


@pytest.mark.parametrize("head", ["# comment\n", "# comment\n-DOCSTART- -X- -X- O\n\n", "# a comment of five words\n"])
def test_a_comment_line_first_is_the_line_named(tmp_path, capsys, head):
    f = write(tmp_path / "c.conll", head + "EU NNP B-NP B-ORG\nrejects VBZ B-VP O\nGerman JJ B-NP B-MISC\n")
    err = fails(capsys, ["score", "--gold", f, f], 1, f"{f}:1:", "expected 4 as on line",
                "column files have no comment lines")
    assert ": '#" in err
    later = write(tmp_path / "later.conll", "EU NNP B-NP B-ORG\nrejects VBZ B-VP O\n# comment\n")   # unchanged
    fails(capsys, ["score", "--gold", later, later], 1, f"{later}:3:", "2 columns, expected 4 as on line 1")


def _brat(folder, text, ann):
    folder.mkdir()
    (folder / "d.txt").write_text(text, encoding="utf-8")
    (folder / "d.ann").write_text(ann, encoding="utf-8")
    return str(folder)


def test_a_brat_text_that_differs_from_gold_says_so_and_where(tmp_path, capsys):
    gold = _brat(tmp_path / "g", "EU rejects German call\n", "T1\tORG 0 2\tEU\nT2\tMISC 11 17\tGerman\n")
    sys_ = _brat(tmp_path / "s", "EU rejects Germancall\n", "T1\tORG 0 2\tEU\nT2\tMISC 11 17\tGerman\n")
    err = fails(capsys, ["score", "--gold", gold, sys_], 1, "the text differs from the gold document 'd'",
                "at character 17", "Germancall")
    assert "token boundaries" not in err
    off = _brat(tmp_path / "o", "EU rejects German call\n", "T1\tORG 0 1\tE\n")   # same text: the span is off
    fails(capsys, ["score", "--gold", gold, off], 1, os.path.join(off, "d.ann") + ":1:",
          "does not fall on token boundaries", "--align expand or contract")


def test_a_bad_tag_in_a_conllu_system_file_is_not_called_gold(tmp_path, capsys):
    row = "{k}\t{w}\t_\t_\t_\t_\t_\t_\t_\tNER={t}\n"
    gold = write(tmp_path / "g.conllu", row.format(k=1, w="EU", t="B-ORG") + row.format(k=2, w="rejects", t="O"))
    sys_ = write(tmp_path / "s.conllu", row.format(k=1, w="EU", t="B-ORG") + row.format(k=2, w="rejects", t="X-O"))
    err = fails(capsys, ["score", "--gold", gold, sys_], 1, f"{sys_}:2:", "bad tag 'X-O'")
    assert "gold side" not in err


def test_span_lists_are_echoed_as_the_caller_wrote_them():
    with pytest.raises(InputError) as info:
        ts_eval.score([[("PER", 0, 9)]], [[]], lengths=[5])
    assert "span ('PER', 0, 9)" in str(info.value) and "5 tokens" in str(info.value)
    with pytest.raises(InputError) as info:
        ts_eval.score([[("PER", 2, 2)]], [[]], lengths=[5])
    assert "span ('PER', 2, 2) is empty" in str(info.value) and "ends at 3" in str(info.value)
    with pytest.raises(InputError, match=r"^y_pred\['s'\]: sentence 1: span \('LOC', 1, 4\)"):
        ts_eval.score([[], []], {"s": [[], [("LOC", 1, 4)]]}, lengths=[2, 3])


def test_hints_name_the_flag_on_the_command_line_and_the_keyword_in_python(tmp_path, capsys):
    nested = write(tmp_path / "n.jsonl", json.dumps({"tokens": ["a", "b", "c"], "spans": [
        {"start": 0, "end": 3, "label": "X"}, {"start": 1, "end": 2, "label": "Y"}]}) + "\n")
    err = fails(capsys, ["convert", nested, str(tmp_path / "out.conll")], 1, "give --overlapping outermost")
    assert "overlapping=" not in err
    with pytest.raises(InputError, match="give overlapping='outermost'") as info:
        ts_eval.convert(nested, str(tmp_path / "out2.conll"))
    assert info.value.option == "overlapping"
    text = write(tmp_path / "t.jsonl", json.dumps({"text": "EU rejects", "spans": [
        {"start": 0, "end": 1, "label": "ORG"}]}) + "\n")
    err = fails(capsys, ["score", "--gold", text, text], 1, "(or give --align expand or contract)")
    assert "align=" not in err
    with pytest.raises(InputError, match=r"\(or give align='expand' or 'contract'\)"):
        ts_eval.read(text)
    fails(capsys, ["convert", nested, "-"], 2, "give --to columns or jsonl-tokens or jsonl-text or brat")


def test_a_faireval_config_without_target_in_is_bad_input(tmp_path, capsys):
    cfg = write(tmp_path / "c.config", "system_in = s.csv\n")
    fails(capsys, ["fair", "--config", cfg], 1, cfg, "target_in is missing")
    cfg = write(tmp_path / "d.config", "target_in = t.csv\nsystem_in = s.csv\ncolour = blue\n")
    fails(capsys, ["fair", "--config", cfg], 1, f"{cfg}:3:", "unknown key 'colour'")


def test_a_system_called_gold_names_its_file(tmp_path, capsys):
    g = write(tmp_path / "g.conll", GOLD)
    s = write(tmp_path / "s.conll", SYS_A)
    other = tmp_path / "sub"
    other.mkdir()
    gold_named = write(other / "gold.conll", SYS_A)
    fails(capsys, ["score", "--gold", g, gold_named], 2, f"{gold_named}: its system name would be 'gold'",
          "--names")
    fails(capsys, ["score", "--gold", g, s, "--names", "gold"], 2, "--names", f"for {s}")
    with pytest.raises(OptionError, match=f"^{gold_named}: its system name is 'gold'.*give other names"):
        ts_eval.io.read_conll_pair(g, [gold_named])


def test_a_readme_in_a_directory_of_systems_is_named_with_the_glob_that_leaves_it_out(tmp_path, capsys):
    gold = write(tmp_path / "gold.conll", GOLD)
    runs = tmp_path / "runs"
    runs.mkdir()
    write(runs / "a.conll", SYS_A)
    write(runs / "b.conll", GOLD)
    readme = write(runs / "README.md", "# Runs\n\nTwo systems, one per file.\n")
    why = (f"{readme}:3: 5 columns, expected 2 as on line 1: 'Two systems, one per file.' (README.md is one of the "
           f"files taken from the directory {runs} by --glob '*': give --glob '*.conll' to take only the system files)")
    fails(capsys, ["rank", "--gold", gold, str(runs), "--bootstrap", "0"], 1, why)
    fails(capsys, ["analyze", "--gold", gold, str(runs), "--bootstrap", "0"], 1, why)
    code, _, err = run_cli(["rank", "--gold", gold, str(runs), "--bootstrap", "0", "--glob", "*.conll"], capsys)
    assert code == 0, err
    err = fails(capsys, ["rank", "--gold", gold, str(runs / "a.conll"), readme, "--bootstrap", "0"], 1,
                f"{readme}:3: 5 columns, expected 2 as on line 1")   # a file given by name: no --glob to suggest
    assert "--glob" not in err
