"""Column-file readers: whitespace, CRLF, BOM, -DOCSTART-, -X-, several system columns,
two-file mode, column selection, label mapping; plus the CLI options that reach them."""
from __future__ import annotations

import json
import re

import pytest
from support import FIXTURES, run_cli, write

import ts_eval
from ts_eval.io.api import read_conll, read_conll_pair
from ts_eval.models.evaluate import evaluate

BASIC = "John B-PER B-PER\nSmith I-PER O\nvisits O O\nParis B-LOC B-LOC\n\nHe O O\nleft O B-LOC\n"


def spans_of(corpus, side="gold"):
    ss = corpus.gold if side == "gold" else corpus.systems[side]
    return sorted((corpus.labels[lab], int(b), int(e)) for b, e, lab in zip(ss.start, ss.last, ss.label))


def summary(corpus):
    return (corpus.n_tokens, corpus.n_sentences, spans_of(corpus), {n: spans_of(corpus, n) for n in corpus.systems})


def test_basic_file(tmp_path):
    c = read_conll(write(tmp_path / "basic.conll", BASIC))
    assert c.n_tokens == 6 and c.n_sentences == 2
    assert c.sent_offsets.tolist() == [0, 4, 6]
    assert spans_of(c) == [("LOC", 3, 3), ("PER", 0, 1)]
    assert list(c.systems) == ["basic"]
    assert spans_of(c, "basic") == [("LOC", 3, 3), ("LOC", 5, 5), ("PER", 0, 0)]
    assert c.tokens(0, 6) == ["John", "Smith", "visits", "Paris", "He", "left"]


@pytest.mark.parametrize("variant", ["tabs", "mixed", "crlf", "bom", "bom_crlf", "trailing_ws", "blank_runs",
                                     "no_final_newline", "blank_lines_with_spaces"])
def test_layout_variants_read_the_same(tmp_path, variant):
    ref = summary(read_conll(write(tmp_path / "ref.conll", BASIC)))
    text = BASIC
    if variant == "tabs":
        text = text.replace(" ", "\t")
    elif variant == "mixed":
        text = ("John \t B-PER\tB-PER\nSmith\t\tI-PER   O\nvisits O\tO\nParis  B-LOC \tB-LOC\n\n"
                "He\tO O\nleft O\t \tB-LOC\n")
    elif variant == "crlf":
        text = text.replace("\n", "\r\n")
    elif variant == "bom":
        text = "\ufeff" + text
    elif variant == "bom_crlf":
        text = "\ufeff" + text.replace("\n", "\r\n")
    elif variant == "trailing_ws":
        text = text.replace("\n", " \t\n")
    elif variant == "blank_runs":
        text = "\n\n" + text.replace("\n\n", "\n\n\n\n") + "\n\n"
    elif variant == "no_final_newline":
        text = text.rstrip("\n")
    elif variant == "blank_lines_with_spaces":
        text = text.replace("\n\n", "\n  \t \n")
    path = write(tmp_path / "ref.conll", text)
    c = read_conll(path)
    assert summary(c) == ref
    assert c.tokens(0, 1) == ["John"]  # no BOM, no CR in token texts
    assert c.tokens(5, 6) == ["left"]


def test_crlf_line_numbers_in_errors(tmp_path, capsys):
    path = write(tmp_path / "crlf.conll", "a O O\r\nb O O\r\n\r\nc O X-PER\r\n")
    code, _, err = run_cli(["score", path], capsys)
    assert code == 1
    assert f"{path}:4:" in err and "'X-PER'" in err
    assert "\r" not in err


def test_docstart_lines_start_documents_and_are_not_tokens(tmp_path):
    text = "-DOCSTART- O O\n\nA B-PER B-PER\nB O O\n\n-DOCSTART- O O\nC I-LOC I-LOC\nD O O\n"
    c = read_conll(write(tmp_path / "docs.conll", text))
    assert c.n_tokens == 4
    assert c.n_sentences == 2
    assert c.docstart_lines == 2
    assert c.doc_offsets.tolist() == [0, 2, 4]
    assert spans_of(c) == [("LOC", 2, 2), ("PER", 0, 0)]
    rep = evaluate(c)
    assert rep.corpus["documents"] == 2 and rep.corpus["docstart_lines"] == 2
    # conlleval counts -DOCSTART- as a correctly tagged token
    assert (rep.systems[0]["exact"]["tags_counted"], rep.systems[0]["exact"]["tags_correct"]) == (6, 6)


def test_docstart_without_blank_line_still_ends_the_sentence(tmp_path):
    text = "-DOCSTART- O O\nA B-X B-X\n-DOCSTART-\nB I-X I-X\n"
    c = read_conll(write(tmp_path / "d.conll", text))
    assert c.n_tokens == 2 and c.n_sentences == 2
    # I-X after the document start opens a new span: two spans, not one
    assert spans_of(c) == [("X", 0, 0), ("X", 1, 1)]


def test_x_line_is_a_boundary_and_not_a_token(tmp_path):
    c = read_conll(write(tmp_path / "x.conll", "Rome B-LOC B-LOC\n-X- B-PER B-PER\nParis I-LOC I-LOC\n"))
    assert c.n_tokens == 2 and c.n_sentences == 2 and c.boundary_lines == 1
    assert spans_of(c) == [("LOC", 0, 0), ("LOC", 1, 1)]


def test_non_ascii_tokens_and_labels(tmp_path):
    # GermEval has soft hyphens and C1 controls inside tokens; labels may be non-ASCII too
    text = "Stra\u00adße B-LÖC B-LÖC\n\u0096 O O\nKöln B-LÖC O\n"
    c = read_conll(write(tmp_path / "u.conll", text))
    assert c.tokens(0, 3) == ["Stra\u00adße", "\u0096", "Köln"]
    assert c.labels == ["LÖC"]
    assert spans_of(c) == [("LÖC", 0, 0), ("LÖC", 2, 2)]


def test_several_system_columns_are_several_systems(tmp_path):
    text = "a B-X B-X O B-X\nb I-X I-X O B-X\nc O O O O\n"
    path = write(tmp_path / "multi.conll", text)
    c = read_conll(path, gold_column=2, system_columns=[3, 4, 5])
    assert list(c.systems) == ["col3", "col4", "col5"]
    rep = evaluate(c)
    assert [s["exact"]["micro"]["tp"] for s in rep.systems] == [1, 0, 0]
    assert [s["exact"]["micro"]["system"] for s in rep.systems] == [1, 0, 2]
    assert [s["ts"]["micro"]["tp"] for s in rep.systems] == [3, 0, 2]
    # through the CLI, with names
    code, out, err = run_cli_json(["score", path, "--gold-col", "2", "--system-col", "3", "4", "5",
                                   "--names", "good", "none", "split"])
    assert code == 0, err
    assert [s["name"] for s in out["systems"]] == ["good", "none", "split"]
    assert [s["source"]["column"] for s in out["systems"]] == [3, 4, 5]
    assert out["gold"]["column"] == 2


_capsys = None


@pytest.fixture(autouse=True)
def _keep_capsys(capsys):
    global _capsys
    _capsys = capsys


def run_cli_json(argv):
    code, out, err = run_cli(list(argv) + ["--format", "json"], _capsys)
    return code, (json.loads(out) if code == 0 else None), err


def test_negative_and_positive_columns_select_the_same(tmp_path):
    text = "1 a B-X x O B-X\n2 b I-X x O I-X\n3 c O x B-Y O\n"
    path = write(tmp_path / "cols.conll", text)
    pos = read_conll(path, gold_column=3, system_columns=[6, 5], token_column=2)
    neg = read_conll(path, gold_column=-4, system_columns=[-1, -2], token_column=-5)
    assert summary(pos) == summary(neg)
    assert spans_of(pos) == [("X", 0, 1)]
    assert spans_of(pos, "col6") == [("X", 0, 1)]
    assert spans_of(pos, "col5") == [("Y", 2, 2)]
    assert pos.tokens(0, 3) == ["a", "b", "c"]
    code, out, err = run_cli_json(["score", path, "--gold-col", "-4", "--system-col", "-1", "--token-col", "2"])
    assert code == 0, err
    assert out["systems"][0]["exact"]["micro"]["tp"] == 1
    assert out["settings"]["input"]["gold_col"] == 3
    assert out["settings"]["input"]["system_cols"] == [6]


def test_two_file_mode(tmp_path):
    gold = write(tmp_path / "gold.conll", "John B-PER\nSmith I-PER\n\nParis B-LOC\n")
    s1 = write(tmp_path / "sys1.conll", "John B-PER\nSmith I-PER\n\nParis O\n")
    s2 = write(tmp_path / "sys2.txt", "John POS B-PER\nSmith POS O\n\nParis POS B-LOC\n")
    c = read_conll_pair(gold, [s1, s2])
    assert list(c.systems) == ["sys1", "sys2"]
    assert spans_of(c, "sys1") == [("PER", 0, 1)]
    assert spans_of(c, "sys2") == [("LOC", 2, 2), ("PER", 0, 0)]
    code, out, err = run_cli_json(["score", "--gold", gold, "--system", s1, s2])
    assert code == 0, err
    assert [s["exact"]["micro"]["tp"] for s in out["systems"]] == [1, 1]
    assert [s["source"]["path"] for s in out["systems"]] == [s1, s2]
    assert out["gold"]["path"] == gold
    assert out["settings"]["input"]["gold"] == gold and out["settings"]["input"]["system"] == [s1, s2]


def test_two_file_mode_with_same_stems_uses_paths_as_names(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    gold = write(tmp_path / "gold.conll", "x B-X\n")
    s1 = write(tmp_path / "a" / "out.conll", "x B-X\n")
    s2 = write(tmp_path / "b" / "out.conll", "x O\n")
    c = read_conll_pair(gold, [s1, s2])
    assert list(c.systems) == [s1, s2]


def test_two_file_mode_column_selection(tmp_path):
    gold = write(tmp_path / "gold.tsv", "1\tJohn\tB-PER\tO\n2\tSmith\tI-PER\tO\n")
    sys_ = write(tmp_path / "sys.tsv", "1\tJohn\tB-PER\tB-PER\n2\tSmith\tO\tI-PER\n")
    c = read_conll_pair(gold, [sys_], gold_column=3, system_column=-1, token_column=2)
    assert spans_of(c) == [("PER", 0, 1)] and spans_of(c, "sys") == [("PER", 0, 1)]
    code, out, err = run_cli_json(["score", "--gold", gold, "--system", sys_, "--gold-col", "3",
                                   "--system-col", "3", "--token-col", "2"])
    assert code == 0, err
    assert out["systems"][0]["exact"]["micro"]["tp"] == 0
    assert out["systems"][0]["exact"]["micro"]["system"] == 1


def test_label_mapping(tmp_path):
    text = ("Kölner B-LOCderiv B-LOC\nDom O O\n\nEU-weit B-ORGpart B-ORGpart\n\n"
            "Hans B-PER B-PER\nim O O\nOTHland B-OTH O\n")
    path = write(tmp_path / "map.conll", text)
    plain = evaluate(read_conll(path))
    assert plain.labels == ["LOC", "LOCderiv", "ORGpart", "OTH", "PER"]
    mapped = read_conll(path, label_map=[("(deriv|part)$", ""), ("^OTH$", "")])
    assert mapped.labels == ["LOC", "ORG", "PER"]
    rep = evaluate(mapped)
    ex = rep.systems[0]["exact"]["labels"]
    assert (ex["LOC"]["gold"], ex["LOC"]["system"], ex["LOC"]["tp"]) == (1, 1, 1)
    assert (ex["ORG"]["gold"], ex["ORG"]["system"], ex["ORG"]["tp"]) == (1, 1, 1)
    # OTH mapped to the empty label is dropped (and counted)
    assert rep.gold["unmapped"] == 1 and rep.systems[0]["source"]["unmapped"] == 0
    assert rep.settings["label_map"] == ["(deriv|part)$=", "^OTH$="]
    code, out, err = run_cli_json(["score", path, "--map-label", "(deriv|part)$=", "--map-label", "^OTH$="])
    assert code == 0, err
    assert out["corpus"]["labels"] == ["LOC", "ORG", "PER"]
    assert out["systems"][0]["exact"]["micro"]["f"] == 1.0
    assert out["settings"]["label_map"] == ["(deriv|part)$=", "^OTH$="]


def test_label_mapping_with_group_reference(tmp_path):
    path = write(tmp_path / "g.conll", "a B-LOCpart B-LOC\n")
    code, out, err = run_cli_json(["score", path, "--map-label", r"^(.*)part$=\1"])
    assert code == 0, err
    assert out["corpus"]["labels"] == ["LOC"]
    assert out["systems"][0]["exact"]["micro"]["tp"] == 1


def test_separator_weight_and_beta_options(tmp_path):
    rows = zip("The quick brown fox jumps over the lazy dog".split(),
               "O B-C I-C O O O O B-C I-C".split(), "O B-C I-C I-C O O O B-C B-C".split())
    path = write(tmp_path / "t1.conll", "".join(f"{a} {b} {c}\n" for a, b, c in rows))
    _code, out, _ = run_cli_json(["score", path])
    assert round(out["systems"][0]["ts"]["micro"]["f"], 3) == 0.769
    _code, out, _ = run_cli_json(["score", path, "--separator-weight", "0.5"])
    ts = out["systems"][0]["ts"]["micro"]
    assert (ts["tp"], ts["fp"], ts["fn"]) == (4.5, 1.5, 0.5) and round(ts["f"], 3) == 0.818
    assert out["settings"]["separator_weight"] == 0.5
    _code, out, _ = run_cli_json(["score", path, "--separator-weight", "0"])
    ts = out["systems"][0]["ts"]["micro"]
    assert (ts["tp"], ts["fp"], ts["fn"], ts["tn"]) == (4, 1, 0, 4)
    _code, out, _ = run_cli_json(["score", path, "--beta", "2"])
    assert out["systems"][0]["ts"]["micro"]["f"] == pytest.approx(25 / 31)
    assert out["settings"]["beta"] == 2.0


# ---------------------------------------------------------------------------
# real data: 40 GermEval 2014 test sentences (CC BY 4.0), 7 columns, nested inner level

GERMEVAL = str(FIXTURES / "germeval_sample.tsv")


def test_germeval_outer_and_inner_levels():
    outer = read_conll(GERMEVAL, gold_column=3, system_columns=[5, 7], token_column=2, names=["crf", "mft"])
    assert outer.n_tokens == 716 and outer.n_sentences == 40
    assert outer.tokens(0, 3) == ["1951", "bis", "1953"]
    inner = read_conll(GERMEVAL, gold_column=4, system_columns=[6], token_column=2)
    # B- tags counted in the file: outer 12 LOC, 3 LOCderiv, 4 ORG, 2 ORGpart, 4 OTH, 20 PER;
    # inner 3 LOC, 1 ORG, 3 PER (valid IOB2, so one span per B-)

    def counts(c):
        return {lab: int((c.gold.label == k).sum()) for k, lab in enumerate(c.labels)}

    assert counts(outer) == {"LOC": 12, "LOCderiv": 3, "ORG": 4, "ORGpart": 2, "OTH": 4, "PER": 20}
    assert counts(inner) == {"LOC": 3, "ORG": 1, "PER": 3}
    assert list(inner.systems) == ["germeval_sample"]  # one system column: named after the file
    assert len(inner.systems["germeval_sample"]) == 0
    rep = evaluate(inner)
    assert rep.systems[0]["exact"]["micro"]["recall"] == 0.0
    assert rep.systems[0]["ts"]["micro"]["tp"] == 0


def test_germeval_exact_match_agrees_with_seqeval():
    from seqeval.metrics import f1_score, precision_score, recall_score

    c = read_conll(GERMEVAL, gold_column=3, system_columns=[5, 7], token_column=2, names=["crf", "mft"])
    rep = evaluate(c)
    vocab = c.tag_vocab
    bounds = c.sent_offsets.tolist()

    def seqs(tags):
        flat = [vocab[t] for t in tags.tolist()]
        return [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    y_true = seqs(c.gold_info.tags)
    for name in ("crf", "mft"):
        y_pred = seqs(c.system_info[name].tags)
        ex = rep.system(name)["exact"]["micro"]
        assert ex["precision"] == pytest.approx(precision_score(y_true, y_pred))
        assert ex["recall"] == pytest.approx(recall_score(y_true, y_pred))
        assert ex["f"] == pytest.approx(f1_score(y_true, y_pred))


# ---------------------------------------------------------------------------
# a file larger than the reader's blocks, with long tags that share long prefixes

LONG_TAGS = ["O"] * 6 + ["B-PER", "I-PER", "B-ORGANISATION", "I-ORGANISATION", "B-ORGANIZATION",
                         "I-ORGANIZATION", "B-WORK-OF-ART-WITH-A-VERY-LONG-NAME-THAT-GOES-ON-AND-ON-AND-ON-FOREVER",
                         "I-WORK-OF-ART-WITH-A-VERY-LONG-NAME-THAT-GOES-ON-AND-ON-AND-ON-FOREVER", "B-ÄÖÜ", "I-ÄÖÜ"]


@pytest.mark.slow
def test_large_file_reads_like_python_lists(tmp_path):
    import numpy as np

    rng = np.random.default_rng(3)
    gold, pred, lines = [], [], []
    n_tok = 0
    while n_tok < 150_000:  # about 3 MB: several of the reader's blocks
        n = int(rng.integers(1, 30))
        g = [str(t) for t in rng.choice(LONG_TAGS, size=n)]
        p = [t if rng.random() < 0.8 else str(rng.choice(LONG_TAGS)) for t in g]
        gold.append(g)
        pred.append(p)
        lines += [f"tok{n_tok + k}\t{a} {b}" for k, (a, b) in enumerate(zip(g, p))]
        lines.append("" if rng.random() < 0.9 else "\n")
        n_tok += n
    path = write(tmp_path / "big.conll", "\n".join(lines) + "\n")
    from_file = evaluate(read_conll(path))
    from_lists = ts_eval.score(gold, pred)
    assert from_file.corpus["tokens"] == n_tok
    assert from_file.corpus["sentences"] == len(gold)
    assert from_file.labels == from_lists.labels
    a, b = from_file.systems[0], from_lists.systems[0]
    for model in ("ts", "exact"):
        assert a[model]["labels"] == b[model]["labels"]
        assert a[model]["micro"] == b[model]["micro"]
    assert a["exact"]["tags_correct"] == b["exact"]["tags_correct"]
    assert a["source"]["repairs"] == b["source"]["repairs"] > 0


@pytest.mark.parametrize("block_bytes", [1, None])
def test_tags_only_files_that_do_not_line_up_in_blocks(tmp_path, block_bytes):
    """Without a token column (tags only) a file's sentences are cut and joined like any other's: a system
    that goes on after gold's end, or a sentence split in two, is the error that says where the files stop
    lining up (not that the file has no token texts)."""
    from ts_eval import InputError
    from ts_eval.io.inputs import Inputs

    gold = write(tmp_path / "gold.conll", "a O\nb O\n\nc O\n\n")
    for system, where in (("a O\nb O\n\nc O\n\nd O\n\n", "sentence 3 (system line 6) is not in the gold file"),
                          ("O\n\nO\n\nO\n\n", "sentence 1 (gold line 1, system line 1) has 2 tokens in gold, 1")):
        path = write(tmp_path / "sys.conll", system)
        inputs = Inputs(gold=gold, systems=(path,), gold_column=-1, system_columns=(-1,), tags_only=True,
                        block_bytes=block_bytes)
        with pytest.raises(InputError, match=re.escape(where)):
            list(inputs.read())


@pytest.mark.parametrize("block_bytes", [1, 6, None])
def test_where_files_stop_lining_up_is_said_alike_in_blocks(tmp_path, block_bytes):
    """The token after the sentence whose length differs is named as reading the files whole names it, also
    when a block ends with that sentence (a sentence of every file more is read for the message)."""
    from ts_eval import InputError
    from ts_eval.io.inputs import Inputs

    gold = write(tmp_path / "gold.conll", "a O\n\nb O\n\nc O\n\n")
    for system, where in (("a O\nx O\n\nb O\n\nc O\n\n", "first difference: gold line 2 (the sentence ends; its "
                           "next token, gold line 3, is in sentence 2), system line 2 (a token)"),
                          ("a O\n\nb O\nc O\n\n", "sentence 2 (gold line 3, system line 3) has 1 tokens in gold, 2 "
                           "in the system; first difference: gold line 4 (the sentence ends; its next token, gold "
                           "line 5, is in sentence 3), system line 4 (a token)")):
        path = write(tmp_path / "sys.conll", system)
        with pytest.raises(InputError, match=re.escape(where)):
            list(Inputs(gold=gold, systems=(path,), block_bytes=block_bytes).read())
