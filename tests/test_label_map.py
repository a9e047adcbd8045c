"""``--map-label`` (and ``label_map=``) for every input format, not only column files (issue #12): the
corpus a span reader gives after :func:`ts_eval.core.corpus.relabel` is the corpus the column reader gives
when it applies the same map while decoding, and ``--labels`` / ``--exclude`` come after it."""
from __future__ import annotations

import json

import numpy as np
import pytest
from support import fails as bad
from support import run_cli, write_sentences

from ts_eval.core.corpus import relabel
from ts_eval.io import read_conll, read_conll_pair
from ts_eval.io.api import read_pair

# three sentences (global tokens 0-5, 6-10, 11-15); GermEval-like derived and part labels
TOKENS = [["Kölner", "Dom", "liegt", "in", "Köln", "."], ["Hans", "aus", "OTHland", "kam", "."],
          ["Die", "EU", "Kommission", "tagt", "."]]
GOLD = [[(0, 1, "LOCderiv"), (4, 5, "LOC")], [(0, 1, "PER"), (2, 3, "OTH")], [(1, 2, "ORGpart")]]
SYSTEM = [[(0, 1, "LOC"), (4, 5, "LOC")], [(0, 1, "PERpart"), (2, 3, "OTH")], [(1, 3, "ORG")]]
MAP = [("(deriv|part)$", ""), ("^OTH$", "")]
MAP_ARGS = ["--map-label", "(deriv|part)$=", "--map-label", "^OTH$="]
SPAN_FORMATS = ["jsonl-tokens", "jsonl-text", "brat", "conllu"]


def sides(folder, fmt):
    (folder / fmt).mkdir()
    return [write_sentences(folder / fmt, fmt, side, list(zip(TOKENS, spans)))
            for side, spans in (("gold", GOLD), ("a", SYSTEM))]


def spans(ss):
    return list(zip(ss.start.tolist(), ss.last.tolist(), ss.label.tolist()))


@pytest.mark.parametrize("fmt", SPAN_FORMATS)
def test_a_span_reader_with_the_map_gives_the_column_readers_corpus(tmp_path, fmt):
    column_gold, column_a = sides(tmp_path, "columns")
    cols = read_conll_pair(column_gold, [column_a], names=["a"], label_map=MAP)
    gold, a = sides(tmp_path, fmt)
    other = read_pair(gold, {"a": a}, label_map=MAP)
    # worked by hand: LOCderiv -> LOC, PERpart -> PER, ORGpart -> ORG, OTH dropped (one span each side)
    for c in (cols, other):
        assert c.labels == ["LOC", "ORG", "PER"]
        assert spans(c.gold) == [(0, 0, 0), (4, 4, 0), (6, 6, 2), (12, 12, 1)]
        assert spans(c.systems["a"]) == [(0, 0, 0), (4, 4, 0), (6, 6, 2), (12, 13, 1)]
        assert (c.gold_info.unmapped, c.system_info["a"].unmapped) == (1, 1)
        assert (c.gold_info.spans, c.system_info["a"].spans) == (4, 4)
        assert c.label_map == MAP
    assert np.array_equal(cols.sent_offsets, other.sent_offsets)
    for field in ("spans", "unmapped", "merged", "shape"):
        assert getattr(cols.gold_info, field) == getattr(other.gold_info, field)
        assert getattr(cols.system_info["a"], field) == getattr(other.system_info["a"], field)


def test_without_a_map_the_labels_stay(tmp_path):
    gold, a = sides(tmp_path, "jsonl-tokens")
    c = read_pair(gold, {"a": a})
    assert c.labels == ["LOC", "LOCderiv", "ORG", "ORGpart", "OTH", "PER", "PERpart"]
    assert relabel(c, []) is c and c.gold_info.unmapped == 0


@pytest.mark.parametrize("fmt", SPAN_FORMATS)
def test_score_with_map_label_is_the_same_for_every_format(tmp_path, capsys, fmt):
    def run(gold, a):
        code, out, err = run_cli(["score", "--gold", gold, "--system", a, "--format", "json"] + MAP_ARGS, capsys)
        assert code == 0, err
        d = json.loads(out)
        s = d["systems"][0]
        exact = {k: s["exact"][k] for k in ("labels", "micro", "macro")}   # token accuracy: column files only
        return d["corpus"]["labels"], exact, s["ts"], s["fair"], s["source"]["unmapped"], d["gold"]["unmapped"]

    want = run(*sides(tmp_path, "columns"))
    got = run(*sides(tmp_path, fmt))
    assert got == want
    labels, exact, _, fair, unmapped_a, unmapped_gold = got
    assert labels == ["LOC", "ORG", "PER"] and (unmapped_a, unmapped_gold) == (1, 1)
    assert (exact["micro"]["tp"], exact["micro"]["gold"], exact["micro"]["system"]) == (3, 4, 4)
    assert fair["fair"]["labels"]["ORG"]["bel"] == 1         # ORG 12-12 found as 12-13: a longer boundary


def test_labels_and_exclude_come_after_the_map_for_span_formats(tmp_path, capsys):
    gold, a = sides(tmp_path, "jsonl-tokens")
    base = ["score", "--gold", gold, "--system", a, "--format", "json"] + MAP_ARGS
    code, out, err = run_cli(base + ["--labels", "LOC,ORG"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["corpus"]["labels"] == ["LOC", "ORG"] and d["systems"][0]["exact"]["micro"]["tp"] == 2
    code, out, err = run_cli(base + ["--exclude", "ORG"], capsys)
    assert code == 0, err
    assert json.loads(out)["systems"][0]["exact"]["micro"]["tp"] == 3
    bad(capsys, base + ["--labels", "LOCderiv"], 2, "'LOCderiv' not in the data")
    bad(capsys, ["score", "--gold", gold, "--system", a, "--map-label", "(oops="], 2, "bad regular expression")


def test_rank_and_compare_take_the_map_for_span_formats(tmp_path, capsys):
    gold, a = sides(tmp_path, "brat")
    b = write_sentences(tmp_path, "jsonl-tokens", "b", list(zip(TOKENS, GOLD)))
    code, out, err = run_cli(["rank", "--gold", gold, a, b, "--bootstrap", "0", "--permutations", "0",
                              "--format", "json"] + MAP_ARGS, capsys)
    assert code == 0, err
    f1 = {s["name"]: s["models"]["exact-f1-micro"]["score"] for s in json.loads(out)["systems"]}
    assert f1 == pytest.approx({"a": 0.75, "b": 1.0})
    code, out, err = run_cli(["compare", "--gold", gold, a, b, "--format", "json"] + MAP_ARGS, capsys)
    assert code == 0, err
    assert json.loads(out)["settings"]["label_map"] == ["(deriv|part)$=", "^OTH$="]


def test_labels_that_merge_merge_their_spans(tmp_path, capsys):
    """Nested spans (a span reader keeps them): LOC and LOCderiv over the same token become one LOC span."""
    sents = [(TOKENS[0], [(0, 1, "LOC"), (0, 1, "LOCderiv"), (0, 2, "LOC")])]
    gold = write_sentences(tmp_path, "jsonl-tokens", "gold", sents)
    a = write_sentences(tmp_path, "jsonl-text", "a", [(TOKENS[0], [(0, 1, "LOCderiv")])])
    c = read_pair(gold, {"a": a}, label_map=MAP)
    assert c.labels == ["LOC"]
    assert spans(c.gold) == [(0, 0, 0), (0, 1, 0)] and spans(c.systems["a"]) == [(0, 0, 0)]
    assert (c.gold_info.merged, c.gold_info.spans, c.gold_info.unmapped) == (1, 2, 0)
    assert c.gold_info.shape == {"nested": 1, "crossing": 0}
    assert c.gold_info.summary()["merged"] == 1 and c.system_info["a"].merged == 0
    code, out, err = run_cli(["score", "--gold", gold, "--system", a] + MAP_ARGS, capsys)
    assert code == 0, err
    assert "gold: 0 ill-formed spans repaired, 0 discarded, 0 dropped by the label map, 1 merged by it" in out


def test_relabel_refuses_a_corpus_decoded_with_the_conlleval_scheme(tmp_path):
    path = write_sentences(tmp_path, "columns", "x", [(TOKENS[0], GOLD[0])])
    with open(path) as fh:
        two = "".join(line.rstrip("\n") + (" " + line.split()[1] if line.strip() else "") + "\n" for line in fh)
    (tmp_path / "two.conll").write_text(two)
    corpus = read_conll(str(tmp_path / "two.conll"), scheme="conlleval")
    with pytest.raises(ValueError, match="conlleval scheme"):
        relabel(corpus, MAP)


def test_rank_germeval_refuses_a_label_map(tmp_path, capsys):
    bad(capsys, ["rank", "--germeval", "a.tsv", "b.tsv", "--map-label", "deriv$="], 2, "--map-label", "--germeval")
