"""conlleval's token accuracy in every input format (#17.1): from a column file's tags as read, and from
any other input over the IOB2 encoding of its spans; equal for a well-formed IOB2 column file; undefined
(never a made-up number) where nested or crossing spans have no IOB2 encoding."""
from __future__ import annotations

import gzip
import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import conlleval_reference, iob2, run_cli, write, write_sentences

from ts_eval.core.sequences import from_sequences, from_spans
from ts_eval.models.evaluate import evaluate

# tokens, spans (first, end exclusive, label): 9 tokens, 4 gold and 4 system spans
GOLD = [(["John", "Smith", "lives", "in", "New", "York"], [(0, 2, "PER"), (4, 6, "LOC")]),
        (["Mary", "joined", "Acme", "Corp", "."], [(0, 1, "PER"), (2, 4, "ORG")])]
SYSTEM = [(["John", "Smith", "lives", "in", "New", "York"], [(0, 1, "PER"), (4, 6, "LOC")]),
          (["Mary", "joined", "Acme", "Corp", "."], [(0, 1, "ORG"), (3, 4, "ORG")])]
# by hand: gold  B-PER I-PER O O B-LOC I-LOC | B-PER O B-ORG I-ORG O
#          sys   B-PER O     O O B-LOC I-LOC | B-ORG O O     B-ORG O   -> 7 of 11 tags agree
TAGS_CORRECT, TAGS_COUNTED = 7, 11
FORMATS = ("columns", "conllu", "jsonl-tokens", "jsonl-text", "brat")


def _column_file(sents_gold, sents_sys) -> str:
    """``TOKEN GOLD SYSTEM`` lines, the layout conlleval.pl reads."""
    blocks = []
    for (toks, gs), (_, ss) in zip(sents_gold, sents_sys):
        g = iob2(len(toks), [(lab, b, e) for b, e, lab in gs])
        s = iob2(len(toks), [(lab, b, e) for b, e, lab in ss])
        blocks.append("".join(f"{t} {a} {b}\n" for t, a, b in zip(toks, g, s)))
    return "\n".join(blocks)


def _pair(tmp_path, fmt, gold=GOLD, system=SYSTEM):
    g = write_sentences(tmp_path, fmt, "gold", gold)
    s = write_sentences(tmp_path, fmt, "sys", system)
    return g, s


@pytest.mark.parametrize("fmt", FORMATS + ("jsonl.gz",))
def test_conlleval_layout_is_conlleval_pl_in_every_input_format(tmp_path, capsys, fmt):
    """The accuracy line is conlleval.pl's for the same spans as a column file, whatever format holds them
    (it printed 'accuracy:   0.00%' for every format but columns)."""
    if fmt == "jsonl.gz":
        g, s = _pair(tmp_path, "jsonl-tokens")
        for p in (g, s):
            with open(p, "rb") as src, gzip.open(p + ".gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
        g, s = g + ".gz", s + ".gz"
    else:
        g, s = _pair(tmp_path, fmt)
    code, out, err = run_cli(["score", "--gold", g, s, "--format", "conlleval"], capsys)
    assert code == 0, err
    assert out == conlleval_reference(_column_file(GOLD, SYSTEM))
    assert "accuracy:  63.64%" in out     # 7 of 11, by hand


@pytest.mark.parametrize("fmt", FORMATS)
def test_json_has_the_tag_counts_in_every_input_format(tmp_path, capsys, fmt):
    g, s = _pair(tmp_path, fmt)
    code, out, err = run_cli(["score", "--gold", g, s, "--format", "json"], capsys)
    assert code == 0, err
    ex = json.loads(out)["systems"][0]["exact"]
    assert (ex["tags_correct"], ex["tags_counted"]) == (TAGS_CORRECT, TAGS_COUNTED)
    assert ex["token_accuracy"] == pytest.approx(7 / 11)


def test_gold_and_system_in_different_formats(tmp_path, capsys):
    g = write_sentences(tmp_path, "columns", "gold", GOLD)
    s = write_sentences(tmp_path, "jsonl-text", "sys", SYSTEM)
    code, out, err = run_cli(["score", "--gold", g, s, "--format", "conlleval"], capsys)
    assert code == 0, err
    assert out == conlleval_reference(_column_file(GOLD, SYSTEM))


@pytest.mark.slow
@pytest.mark.parametrize("fmt,shown", [("table", "63.64"), ("markdown", "63.64"), ("latex", "63.64"),
                                       ("html", "63.64"), ("csv", repr(7 / 11))])
def test_every_layout_shows_the_computed_accuracy(tmp_path, capsys, fmt, shown):
    g, s = _pair(tmp_path, "jsonl-tokens")
    code, out, err = run_cli(["score", "--gold", g, s, "--format", fmt], capsys)
    assert code == 0, err
    assert shown in out


def test_a_column_file_gives_the_same_numbers_as_its_spans(tmp_path, capsys):
    """A well-formed IOB2 column file: its tags (conlleval.pl's own count) and its spans' IOB2 encoding
    (any other format) give the same accuracy; JSON Lines has no -DOCSTART- lines, which conlleval.pl
    counts as correctly tagged tokens."""
    text = _column_file(GOLD, SYSTEM)
    both = write(tmp_path / "both.conll", text)
    _, out_columns, _ = run_cli(["score", both, "--format", "json"], capsys)
    g, s = _pair(tmp_path, "jsonl-tokens")
    _, out_spans, _ = run_cli(["score", "--gold", g, s, "--format", "json"], capsys)
    keys = ("token_accuracy", "tags_correct", "tags_counted")
    col, spn = (json.loads(o)["systems"][0]["exact"] for o in (out_columns, out_spans))
    assert [col[k] for k in keys] == [spn[k] for k in keys]
    doc = write(tmp_path / "doc.conll", "-DOCSTART- O O\n\n" + text)
    _, out_doc, _ = run_cli(["score", doc, "--format", "json"], capsys)
    d = json.loads(out_doc)["systems"][0]["exact"]
    assert (d["tags_correct"], d["tags_counted"]) == (TAGS_CORRECT + 1, TAGS_COUNTED + 1)


def _flat_spans(n: int, steps) -> list:
    """Spans (label, start, end), end exclusive, of a sentence of ``n`` tokens that never overlap: each (size, label)
    step from token k is a span of up to ``size`` tokens, or (size 0) one token outside every span."""
    spans, k = [], 0
    for size, lab in steps:
        if k >= n:
            break
        last = min(n - 1, k + size - 1)
        if size:
            spans.append((lab, k, last + 1))
        k = max(last, k) + 1
    return spans


STEPS = st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["PER", "LOC", "B-X"])), min_size=7, max_size=7)
LENGTHS = st.lists(st.integers(1, 7), min_size=1, max_size=5)


@st.composite
def _flat_corpus(draw):
    """Sentence lengths, and gold and system spans that never overlap."""
    lengths = draw(LENGTHS)
    return lengths, [[_flat_spans(n, draw(STEPS)) for n in lengths] for _ in range(2)]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(_flat_corpus())
def test_iob2_encoding_of_spans_equals_the_tags(data):
    """Property: over spans that do not overlap, the accuracy of their IOB2 encoding (from_spans) equals
    that of the IOB2 tag sequences (from_sequences, conlleval.pl's count) and an independent count."""
    lengths, (gold, system) = data
    g_tags = [iob2(n, s) for n, s in zip(lengths, gold)]
    s_tags = [iob2(n, s) for n, s in zip(lengths, system)]
    by_tags = evaluate(from_sequences(g_tags, s_tags), models=["exact"]).systems[0]["exact"]
    by_spans = evaluate(from_spans(lengths, gold, system), models=["exact"]).systems[0]["exact"]
    expected = sum(a == b for ga, sa in zip(g_tags, s_tags) for a, b in zip(ga, sa))
    assert by_spans["tags_correct"] == by_tags["tags_correct"] == expected
    assert by_spans["tags_counted"] == by_tags["tags_counted"] == sum(lengths)
    assert by_spans["token_accuracy"] == by_tags["token_accuracy"]


# ---------------------------------------------------------------------------
# nested or crossing spans: undefined, said so, never a number

NESTED = [(["Bank", "of", "New", "York", "hires"], [(0, 4, "ORG"), (2, 4, "LOC")])]
FLAT = [(["Bank", "of", "New", "York", "hires"], [(0, 4, "ORG")])]


def test_nested_spans_have_no_token_accuracy_in_the_json(tmp_path, capsys):
    g, s = _pair(tmp_path, "jsonl-tokens", NESTED, FLAT)
    code, out, err = run_cli(["score", "--gold", g, s, "--format", "json"], capsys)
    assert code == 0, err
    ex = json.loads(out)["systems"][0]["exact"]
    assert ex["token_accuracy"] is None
    assert "tags_correct" not in ex and "tags_counted" not in ex
    assert "gold side has 1 nested and 0 crossing spans" in ex["token_accuracy_undefined"]
    # the system's crossing spans: named by the system
    rep = evaluate(from_spans([5], [[("ORG", 0, 4)]], {"crf": [[("ORG", 0, 3), ("LOC", 2, 5)]]}))
    why = rep.systems[0]["exact"]["token_accuracy_undefined"]
    assert "system 'crf'" in why and "0 nested and 1 crossing" in why


def test_nested_spans_print_n_a_in_the_conlleval_layout(tmp_path, capsys):
    g, s = _pair(tmp_path, "jsonl-tokens", NESTED, FLAT)
    code, out, err = run_cli(["score", "--gold", g, s, "--format", "conlleval"], capsys)
    assert code == 0
    assert out.splitlines()[1] == "accuracy:    n/a; precision: 100.00%; recall:  50.00%; FB1:  66.67"
    assert "nested" in err and err.count("\n") == 1


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "html"])
def test_nested_spans_print_n_a_with_the_reason(tmp_path, capsys, fmt):
    g, s = _pair(tmp_path, "jsonl-tokens", NESTED, FLAT)
    code, out, err = run_cli(["score", "--gold", g, s, "--format", fmt, "--details"], capsys)
    assert code == 0, err
    assert "n/a" in out
    assert "cannot encode" in " ".join(out.split())


def test_nested_spans_leave_the_csv_value_empty(tmp_path, capsys):
    g, s = _pair(tmp_path, "jsonl-tokens", NESTED, FLAT)
    code, out, _ = run_cli(["score", "--gold", g, s, "--format", "csv"], capsys)
    assert code == 0
    rows = [line.split(",") for line in out.splitlines()]
    acc = [r for r in rows if r[2] in ("token_accuracy", "tags_correct", "tags_counted")
           or (r[0] == "token-accuracy" and r[2] == "accuracy")]
    assert acc and all(r[3] == "" for r in acc)
