"""``ts_eval.analyze`` and ``ts-eval analyze`` (issue 19): buckets worked by hand on a small corpus,
the training-based attributes read by hand, the default bucket rule on hand-made values, and
properties on random corpora (the buckets partition the spans; per-bucket counts sum to the overall
counts, under every model family that splits by span and for sentence attributes)."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Dict, List

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import fails, run_cli, write

import ts_eval
from ts_eval.analysis.buckets import equal_frequency, parse_bucket_spec
from ts_eval.core.sequences import from_spans
from ts_eval.errors import OptionError

#        token      gold   A      B
SMALL = """John B-PER B-PER B-PER
Smith I-PER I-PER O
visited O O O
Paris B-LOC B-LOC B-ORG

IBM B-ORG B-ORG B-ORG
sued O O O
Apple B-ORG O B-ORG

the O O O
New B-ORG B-LOC B-ORG
York I-ORG I-LOC I-ORG
Stock I-ORG O I-ORG
Exchange I-ORG O I-ORG
"""

TRAIN = """John B-PER
Smith I-PER
lives O
in O
Paris B-LOC

Paris B-ORG
Saint I-ORG
Germain I-ORG
won O

IBM B-ORG
and O
John B-PER
Smith I-PER
"""


@pytest.fixture
def small(tmp_path):
    return ts_eval.io.read_conll(write(tmp_path / "small.txt", SMALL), gold_column=2, system_columns=[3, 4],
                              names=["A", "B"])


def _bucket(result, attribute: str) -> Dict[str, int]:
    a = result.attribute(attribute)
    return {name: k for k, name in enumerate(a.buckets)}


# ---------------------------------------------------------------------------
# worked by hand


def test_span_length_buckets_by_hand(small):
    """Fixed edges 1, 2, 3: buckets 1, 2, 3+.  Gold: 3 spans of one token (Paris, IBM, Apple), 1 of two
    (John Smith), 1 of four (New York Stock Exchange).  A: Paris, IBM (both exact), John Smith (exact),
    New York (LOC, wrong).  B: John (PER, too short), Paris (ORG, wrong label), IBM, Apple (exact), the
    Exchange (exact).  Recall over the bucket's gold spans, precision over its system spans."""
    r = ts_eval.analyze(small, models=["exact-f1-micro"], buckets=["length=1,2,3"], bootstrap=0, attributes=["length"])
    a = r.attribute("length")
    assert a.buckets == ["1", "2", "3+"]
    assert a.gold.tolist() == [3, 1, 1]
    assert a.system.tolist() == [[2, 4], [2, 0], [0, 1]]
    f = a.scores[:, :, 0]
    # bucket 1: A P 2/2 R 2/3; B P 2/4 R 2/3
    assert f[0, 0] == pytest.approx(2 * 1 * (2 / 3) / (1 + 2 / 3))
    assert f[0, 1] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    # bucket 2: A P 1/2 R 1/1; B no system span, R 0
    assert f[1, 0] == pytest.approx(2 / 3)
    assert f[1, 1] == 0
    # bucket 3+: A misses the Exchange; B finds it
    assert f[2, 0] == 0 and f[2, 1] == 1
    exact = a.counts["exact"]
    assert exact[0, 0].tolist() == [3, 2, 2] and exact[0, 1].tolist() == [3, 4, 2]     # gold, system, tp
    assert r.overall[:, 0] == pytest.approx([2 * 3 / (5 + 4), 2 * 3 / (5 + 5)])


def test_sentence_buckets_hold_all_units_of_their_sentences(small):
    """Sentence lengths 4, 3, 5 with edges 1, 4, 5: buckets 1-3 (sentence 2), 4 (sentence 1), 5+ (3)."""
    r = ts_eval.analyze(small, models=["exact-f1-micro", "ts-f1-micro"], buckets=["sentence_length=1,4,5"],
                        bootstrap=0, attributes=["sentence_length"])
    a = r.attribute("sentence_length")
    assert a.buckets == ["1-3", "4", "5+"]
    assert a.sentences.tolist() == [1, 1, 1] and a.gold.tolist() == [2, 2, 1]
    # sentence 1: A both right (F 1); B none exact (F 0)
    assert a.scores[1, :, 0].tolist() == [1.0, 0.0]
    # TS in sentence 1 for B: gold units PER 3 (John _ Smith), LOC 1 (Paris); B: PER 1 (John), ORG 1 (Paris)
    # TP 1 (John), FP 1 (Paris as ORG), FN 3 (separator, Smith, Paris as LOC) -> F = 2/(2+1+3)
    assert a.scores[1, 1, 1] == pytest.approx(2 / 6)
    assert a.counts["ts"][1, 1].tolist() == [1, 1, 3]


def test_label_shape_and_position(small):
    r = ts_eval.analyze(small, models=["exact-f1-micro"], bootstrap=0, attributes=["label", "shape", "position"])
    assert r.attribute("label").buckets == ["LOC", "ORG", "PER"]
    assert r.attribute("label").gold.tolist() == [1, 3, 1]
    shape = r.attribute("shape")
    assert shape.gold[_bucket(r, "shape")["XX"]] == 1           # IBM
    assert shape.gold[_bucket(r, "shape")["Xx"]] == 4
    pos = r.attribute("position")
    b = _bucket(r, "position")
    # first: John Smith, IBM; last: Paris, Apple, the Exchange; inside: only A's New York (a bucket no gold
    # span is in, said, not hidden)
    assert pos.gold[b["first"]] == 2 and pos.gold[b["last"]] == 3 and pos.gold[b["inside"]] == 0
    assert pos.system[b["inside"]].tolist() == [1, 0]
    assert np.isnan(pos.scores[b["inside"], 1, 0]) and pos.scores[b["inside"], 0, 0] == 0


@pytest.mark.slow
def test_training_attributes_by_hand(small, tmp_path):
    """Training entities: john smith PER x2, paris LOC, paris saint germain ORG, ibm ORG."""
    train = write(tmp_path / "train.txt", TRAIN)
    r = ts_eval.analyze(small, models=["exact-f1-micro"], bootstrap=0, train=train,
                        attributes=["train_frequency", "label_consistency", "seen", "oov_density"])
    tf = r.attribute("train_frequency")
    # gold values: john smith 2, paris 1, ibm 1, apple 0, the exchange 0 -> buckets 0, 1, 2+
    assert tf.buckets == ["0", "1", "2+"] and tf.gold.tolist() == [2, 2, 1]
    # B's spans: john 0, paris 1 (as ORG), ibm 1, apple 0, the exchange 0
    assert tf.system[:, 1].tolist() == [3, 2, 0]
    seen = r.attribute("seen")
    assert dict(zip(seen.buckets, seen.gold.tolist())) == {"seen": 3, "unseen": 2}
    lc = r.attribute("label_consistency")
    # gold: every seen string carries its training label (1.0); B's Paris as ORG has consistency 0
    assert lc.buckets[-1] == "unseen"
    assert lc.gold[-1] == 2 and int(lc.gold[:-1].sum()) == 3
    oov = r.attribute("oov_density")
    # sentences: 1/4 (visited), 2/3 (sued, Apple), 5/5 -> each its own bucket
    assert oov.sentences.sum() == 3 and len(oov.buckets) == 3
    assert r.training["spans"] == 5 and r.training["sentences"] == 3 and r.left_out == []


@pytest.mark.slow
def test_without_training_data_the_training_attributes_are_left_out_with_one_line(small):
    r = ts_eval.analyze(small, bootstrap=0)
    assert [a.name for a in r.attributes] == ["length", "chars", "label", "shape", "position", "sentence_length",
                                              "entity_density"]
    assert len(r.left_out) == 1 and "train_frequency" in r.left_out[0] and "train" in r.left_out[0]


def test_the_default_rule_on_hand_made_values():
    # 5 x 1, 3 x 2, 1 x 3, 1 x 4, k = 4: targets 10/4, 5/3, 2/2 -> one value per bucket
    assert equal_frequency(np.array([1] * 5 + [2] * 3 + [3, 4], float), 4).tolist() == [1, 2, 3, 4]
    # 2 x 1, 1 x 2, 5 x 3, k = 2: target 4; after 2 the bucket holds 3, adding 3 would make 8: closing
    # before 3 is nearer the target
    assert equal_frequency(np.array([1, 1, 2, 3, 3, 3, 3, 3], float), 2).tolist() == [2, 3]
    # one value: one bucket
    assert equal_frequency(np.array([7, 7, 7], float), 4).tolist() == [7]


def test_two_systems_get_the_difference_per_bucket_and_a_paired_test(small):
    r = ts_eval.analyze(small, models=["exact-f1-micro"], buckets=["length=1,2,3"], bootstrap=50,
                        permutations=50, attributes=["length"])
    a = r.attribute("length")
    assert a.pair is not None and (a.pair.a, a.pair.b) == ("A", "B")
    assert a.pair.difference[:, 0] == pytest.approx(a.scores[:, 1, 0] - a.scores[:, 0, 0])
    p = a.pair.p[:, 0]
    assert np.all((p > 0) & (p <= 1))
    assert np.all(a.low[:, :, 0] <= a.scores[:, :, 0] + 1e-12) and np.all(a.scores[:, :, 0] <= a.high[:, :, 0] + 1e-12)


def test_flips_are_attributed_to_the_bucket_that_shrinks_the_gap_most():
    """Two systems that exact and TS order differently: A finds short spans exactly, B finds the long
    span with one token missing (TS credits most of it); removing the long spans' bucket leaves only
    A's strength, so that bucket accounts for the flip."""
    gold = [["B-PER", "O", "B-LOC", "I-LOC", "I-LOC", "I-LOC", "I-LOC", "I-LOC"]]
    a = [["B-PER", "O", "O", "O", "O", "O", "O", "O"]]
    b = [["O", "O", "B-LOC", "I-LOC", "I-LOC", "I-LOC", "I-LOC", "O"]]
    r = ts_eval.analyze(gold, {"A": a, "B": b}, models=["exact-f1-micro", "ts-f1-micro"], bootstrap=0,
                        permutations=0, buckets=["length=1,2"], attributes=["length"])
    assert r.overall[0, 0] > r.overall[1, 0] and r.overall[1, 1] > r.overall[0, 1]
    f = r.attribute("length").flips[0]
    assert len(f.pairs) == 1 and f.buckets[f.pairs[0].bucket] == "2+"
    assert f.summary("length") == "of the 1 pair that flips between exact-f1-micro and ts-f1-micro, 1 differs most " \
                                  "on length 2+"


def test_bad_options_name_the_option(small):
    with pytest.raises(OptionError, match="buckets"):
        parse_bucket_spec(["length=a,b"])
    with pytest.raises(OptionError, match="attributes"):
        ts_eval.analyze(small, bootstrap=0, attributes=["colour"])
    with pytest.raises(OptionError, match="reference"):
        ts_eval.analyze(small, bootstrap=0, reference="ts-f1-micro", models=["exact-f1-micro"])


# ---------------------------------------------------------------------------
# properties


LABELS = ["PER", "LOC"]


@st.composite
def corpora(draw):
    n_sent = draw(st.integers(1, 6))
    lengths = [draw(st.integers(1, 8)) for _ in range(n_sent)]

    def spans() -> List[List[tuple]]:
        out = []
        for n in lengths:
            sent, t = [], 0
            while t < n:
                if draw(st.booleans()):
                    e = draw(st.integers(t + 1, min(n, t + 4)))
                    sent.append((draw(st.sampled_from(LABELS)), t, e))
                    t = e
                else:
                    t += 1
            out.append(sent)
        return out

    gold = spans()
    gold[0] = gold[0] or [(LABELS[0], 0, 1)]       # one labelled span at least (else nothing to analyse)
    return from_spans(lengths, gold, {"a": spans(), "b": spans(), "c": spans()})


SPLIT_MODELS = ["exact-f1-micro", "overlap-f1-micro", "ts-f1-micro", "fair-f1", "semeval-partial-f1"]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.integers(1, 4))
def test_buckets_partition_the_spans_and_their_counts_sum_to_the_overall_counts(corpus, k):
    r = ts_eval.analyze(corpus, models=SPLIT_MODELS, bootstrap=0, permutations=0, buckets=[str(k)])
    report = ts_eval.score(corpus, models=["exact", "ts", "fair"])
    for a in r.attributes:
        assert int(a.outside.sum()) == 0
        assert int(a.gold.sum()) == len(corpus.gold)
        assert a.system.sum(0).tolist() == [len(corpus.systems[s]) for s in r.systems]
        for i, s in enumerate(r.systems):
            d = report.system(s)
            ex, ts, fair = d["exact"]["micro"], d["ts"]["micro"], d["fair"]["fair"]["micro"]
            assert a.counts["exact"][:, i].sum(0).tolist() == [ex["gold"], ex["system"], ex["tp"]]
            assert a.counts["ts"][:, i].sum(0) == pytest.approx([ts["tp"], ts["fp"], ts["fn"]])
            assert a.counts["fair"][:, i].sum(0).tolist() == [fair[c] for c in ("tp", "fp", "fn", "le", "bes", "bel",
                                                                                "beo", "lbe")]
        if a.sentences is not None:
            assert int(a.sentences.sum()) == corpus.n_sentences


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_per_bucket_counts_sum_to_the_counts_of_the_whole_corpus(corpus):
    """Per family the counts summed over the buckets of any attribute equal the counts of one bucket that
    holds everything (a fixed edge below every value)."""
    r = ts_eval.analyze(corpus, models=SPLIT_MODELS, bootstrap=0, permutations=0,
                        buckets=["length=0", "sentence_length=0"], attributes=["length", "sentence_length"])
    whole = {fam: r.attribute("length").counts[fam][0] for fam in ("exact", "ts", "fair", "semeval")}
    assert r.attribute("length").scores[0] == pytest.approx(r.overall, nan_ok=True)
    assert r.attribute("sentence_length").scores[0] == pytest.approx(r.overall, nan_ok=True)
    r2 = ts_eval.analyze(corpus, models=SPLIT_MODELS, bootstrap=0, permutations=0)
    for a in r2.attributes:
        for fam, total in whole.items():
            assert a.counts[fam].sum(0) == pytest.approx(total), (a.name, fam)


# ---------------------------------------------------------------------------
# the command


def _small_files(tmp_path: Path):
    rows = [line.split() for line in SMALL.split("\n")]
    gold = "\n".join(" ".join(r[:2]) if r else "" for r in rows)
    a = "\n".join(" ".join([r[0], r[2]]) if r else "" for r in rows)
    b = "\n".join(" ".join([r[0], r[3]]) if r else "" for r in rows)
    return (write(tmp_path / "gold.txt", gold), write(tmp_path / "A.txt", a), write(tmp_path / "B.txt", b),
            write(tmp_path / "train.txt", TRAIN))


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_tables_fit(tmp_path, capsys, monkeypatch, width):
    gold, a, b, train = _small_files(tmp_path)
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run_cli(["analyze", "--gold", gold, a, b, "--train", train, "--bootstrap", "20",
                              "--permutations", "20", "--details"], capsys)
    assert code == 0, err
    assert "By train_frequency" in out and "By length: every model" in out
    for line in out.splitlines():
        assert len(line) <= width or " " not in line.strip(), line


@pytest.mark.slow
def test_every_format(tmp_path, capsys):
    gold, a, b, _ = _small_files(tmp_path)
    base = ["analyze", "--gold", gold, a, b, "--bootstrap", "20", "--permutations", "0"]
    code, out, err = run_cli(base + ["--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["layout"] == {"kind": "analyze", "version": 1}
    length = next(x for x in d["attributes"] if x["name"] == "length")
    assert [b["gold"] for b in length["buckets"]] == [3, 1, 1]
    assert d["settings"]["input"]["gold"] == gold
    code, out, err = run_cli(base + ["--format", "csv"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    cell = next(r for r in rows if r["table"] == "attr-length" and r["row"] == "1" and r["column"] == "A")
    assert float(cell["value"]) == pytest.approx(0.8) and cell["low"] != ""
    for fmt, marker in (("markdown", "| bucket"), ("latex", "\\begin{"), ("html", "<svg")):
        code, out, err = run_cli(base + ["--format", fmt], capsys)
        assert code == 0 and marker in out, (fmt, err)


def test_bad_usage_is_one_line_and_exit_2(tmp_path, capsys):
    gold, a, _, _ = _small_files(tmp_path)
    code, _, err = run_cli(["analyze", "--gold", gold, a, "--buckets", "length=x"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--buckets" in err
    assert err.count("--buckets") == 1, err     # named once, not prefixed twice
    code, _, err = run_cli(["analyze", "--gold", gold, a, "--by", "meta.genre"], capsys)
    assert code == 2 and "--by meta.genre: " in err and "JSON Lines" in err       # the field asked for
    code, _, err = run_cli(["analyze", "--gold", gold, a, "--attributes", "colour"], capsys)
    assert code == 2 and "--attributes" in err and "colour" in err
    code, _, err = run_cli(["analyze", "--gold", gold, a, "--train", str(tmp_path / "missing.txt")], capsys)
    assert code == 1 and "missing.txt" in err


def test_edges_for_an_attribute_of_names_are_refused_with_the_attributes_that_take_them(tmp_path, capsys, small):
    gold, a, _, _ = _small_files(tmp_path)
    takes = "attributes that take edges: length, chars, sentence_length, entity_density"
    fails(capsys, ["analyze", "--gold", gold, a, "--buckets", "label=1,2", "--attributes", "label"], 2,
          "--buckets label=1,2: attribute 'label' takes no edges (its values are names, one bucket each); " + takes)
    fails(capsys, ["analyze", "--gold", gold, a, "--buckets", "length=1,2.5", "--attributes", "label"], 2,
          "--buckets length=1,2.5: edges for an attribute not analysed (add it to --attributes)")
    with pytest.raises(OptionError, match=r"^buckets='shape=1': attribute 'shape' takes no edges .*; " + takes):
        ts_eval.analyze(small, bootstrap=0, buckets="shape=1")


def test_by_and_attributes_say_what_to_give(tmp_path, capsys, small):
    gold, a, _, train = _small_files(tmp_path)
    base = ["analyze", "--gold", gold, a, "--bootstrap", "0"]
    fails(capsys, base + ["--by", "length"], 2, "--by length: 'length' is an attribute, not a slice: give "
          "--attributes length")
    fails(capsys, base + ["--by", "colour"], 2, "--by colour: the input is not JSON Lines: it has no record fields "
          "to slice by; --by takes document (one bucket per -DOCSTART- block) or, with JSON Lines input (one "
          "record per document), a field of its records (dotted: meta.genre)")
    fails(capsys, base + ["--attributes", "train_frequency"], 2, "--attributes train_frequency: attribute "
          "'train_frequency' needs training data (give --train TRAIN); available: length, chars, label")
    fails(capsys, base + ["--attributes", "oov_density"], 2, "needs training data or a vocabulary (give --train "
          "TRAIN or --vocab FILE)")
    fails(capsys, base + ["--attributes", "colour"], 2, "--attributes colour: no attribute 'colour'; available:")
    code, _, err = run_cli(base + ["--attributes", "train_frequency", "--train", train], capsys)
    assert code == 0, err
    with pytest.raises(OptionError, match=r"^by='sentence_length': .* give attributes='sentence_length'$"):
        ts_eval.analyze(small, bootstrap=0, by="sentence_length")
    with pytest.raises(OptionError, match=r"^attributes='seen': attribute 'seen' needs training data "
                                          r"\(give train=TRAIN\)"):
        ts_eval.analyze(small, bootstrap=0, attributes="seen")
    assert [x.name for x in ts_eval.analyze(small, bootstrap=0, attributes="label", errors=False).attributes] \
        == ["label"]                                                   # one name alone is a list of one


def test_by_an_attribute_on_json_lines_input_without_such_a_field_points_to_attributes(tmp_path, capsys):
    recs = [{"tokens": ["John", "visited", "Paris"], "tags": ["B-PER", "O", "B-LOC"], "meta": {"genre": "news"}}]
    gold = write(tmp_path / "gold.jsonl", json.dumps(recs[0]) + "\n")
    system = write(tmp_path / "sys.jsonl", json.dumps(recs[0]) + "\n")
    fails(capsys, ["analyze", "--gold", gold, system, "--by", "length", "--bootstrap", "0"], 2,
          "--by length: 'length' is an attribute, not a slice: give --attributes length")
    fails(capsys, ["analyze", "--gold", gold, system, "--by", "colour", "--bootstrap", "0"], 1,
          "record 1 has no field 'colour'")


def test_slices_by_a_record_field(tmp_path, capsys):
    recs = [{"tokens": ["John", "Smith", "visited", "Paris"], "tags": ["B-PER", "I-PER", "O", "B-LOC"],
             "meta": {"genre": "news"}},
            {"tokens": ["IBM", "sued", "Apple"], "tags": ["B-ORG", "O", "B-ORG"], "meta": {"genre": "law"}}]
    sys_recs = [dict(r, tags=["B-PER", "I-PER", "O", "O"] if k == 0 else r["tags"]) for k, r in enumerate(recs)]
    gold = write(tmp_path / "gold.jsonl", "\n".join(json.dumps(r) for r in recs) + "\n")
    system = write(tmp_path / "sys.jsonl", "\n".join(json.dumps(r) for r in sys_recs) + "\n")
    code, out, err = run_cli(["analyze", "--gold", gold, system, "--by", "meta.genre", "--bootstrap", "0",
                              "--format", "json", "--attributes", "meta.genre"], capsys)
    assert code == 0, err
    genre = json.loads(out)["attributes"][0]
    got = {b["name"]: b["systems"]["sys"]["models"]["exact-f1-micro"]["score"] for b in genre["buckets"]}
    assert got == {"law": 1.0, "news": pytest.approx(2 / 3)}


@pytest.mark.slow
def test_documents_are_a_slice_asked_for(tmp_path):
    first, *rest = SMALL.split("\n\n")
    text = "-DOCSTART- O O O\n\n" + first + "\n\n-DOCSTART- O O O\n\n" + "\n\n".join(rest)
    c = ts_eval.io.read_conll(write(tmp_path / "docs.txt", text), gold_column=2, system_columns=[3, 4],
                              names=["A", "B"])
    assert "document" not in [a.name for a in ts_eval.analyze(c, bootstrap=0).attributes]
    r = ts_eval.analyze(c, models=["exact-f1-micro"], bootstrap=0, by=["document"], attributes=["document"])
    doc = r.attribute("document")
    assert doc.buckets == ["doc 1", "doc 2"] and doc.gold.tolist() == [2, 3]
    assert doc.scores[0, :, 0].tolist() == [1.0, 0.0]
    with pytest.raises(OptionError, match="document"):
        ts_eval.analyze(ts_eval.io.read_conll(write(tmp_path / "small.txt", SMALL), gold_column=2, system_columns=[3]),
                        bootstrap=0, by=["document"])


# ---------------------------------------------------------------------------
# InterpretEval's rules (the reproduction against its own code is scripts/interpreteval_conll2003.py)


def test_interpreteval_chunks_run_over_sentence_ends_and_split_at_b():
    from ts_eval.analysis.interpreteval import chunks_of

    assert chunks_of(["B-PER", "I-PER", "I-LOC", "O", "I-ORG", "B-ORG"]) == [("PER", 0, 2), ("LOC", 2, 3),
                                                                              ("ORG", 4, 5), ("ORG", 5, 6)]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "ab", "a.b"]), min_size=1, max_size=12),
       st.lists(st.sampled_from(["a", "b", "ab", "a.b"]), min_size=1, max_size=3))
def test_interpreteval_matches_are_the_regular_expression_matches(words, entity):
    """The token lookup finds what InterpretEval's regular expression finds (non-overlapping, never
    at the text's ends); '.' in a token makes the pattern a regular expression, searched as such."""
    import re

    from ts_eval.analysis.interpreteval import _Matches, _pattern

    find = _Matches(words)
    pattern = _pattern(" ".join(entity), "()*")
    text = " ".join(words)
    starts = [len(" ".join(words[:i])) + (1 if i else 0) for i in range(len(words))]
    expected = [sum(1 for s in starts if s < m.start()) for m in re.finditer(pattern, text)]
    assert find(pattern) == expected


def test_interpreteval_equal_count_buckets_and_their_keys():
    """eLen's rule: 1, 2 and 3 are buckets of their own; the rest (values 4, 5, 7, 9: 1 span each,
    4 spans for 1 bucket) one bucket keyed (3, 9): it runs from the previous bucket's value."""
    from ts_eval.analysis.interpreteval import _gold_buckets

    keys = {f"k{i}": v for i, v in enumerate([1, 1, 2, 3, 4, 5, 7, 9])}
    b = _gold_buckets("values", (4, [1.0, 2.0, 3.0]), keys)
    assert list(b) == [(1.0,), (2.0,), (3.0,), (3.0, 9.0)] and b[(3.0, 9.0)] == ["k4", "k5", "k6", "k7"]
    # sLen's rule (no listed values): 8 spans, 4 buckets, a bucket closes above 2 spans
    b = _gold_buckets("values", (4, []), {f"k{i}": v for i, v in enumerate([1, 2, 3, 4, 5, 6, 7, 8])})
    assert list(b) == [(1.0, 3.0), (3.0, 6.0), (6.0, 8.0)]


@pytest.mark.slow
def test_interpreteval_mode_puts_spans_in_its_buckets(small, tmp_path):
    """eLen of gold: 2, 1, 1, 1, 4: the listed values 1 and 2 are buckets, 3 does not occur, 4 is the rest."""
    with pytest.raises(ts_eval.InputError, match="fifth-highest"):     # as InterpretEval, which fails there
        ts_eval.analyze(small, train=write(tmp_path / "few.txt", TRAIN), buckets="interpreteval", bootstrap=0)
    more = TRAIN + "\nBerlin B-LOC\nis O\nbig O\n\nMerkel B-PER\nand O\nSony B-ORG\nmet O\n"
    train = write(tmp_path / "train.txt", more)
    r = ts_eval.analyze(small, train=train, buckets="interpreteval", models=["exact-f1-micro"], bootstrap=0)
    assert [a.name for a in r.attributes] == ["eLen", "sLen", "eDen", "oDen", "eFre", "eCon", "tag"]
    e_len = r.attribute("eLen")
    assert e_len.buckets == ["1", "2", "4"] and e_len.gold.tolist() == [3, 1, 1]
    # A's New York (2 tokens) lands in 2; B's John (1 token) in 1
    assert e_len.system.tolist() == [[2, 4], [2, 0], [0, 1]]
    assert r.attribute("tag").buckets == ["loc", "org", "per"] and "tCon" in r.left_out[0]


@pytest.mark.slow
def test_summing_a_family_over_labels_before_resampling_changes_no_interval(monkeypatch):
    """fair-f1 and overlap-f1-micro read their per-label counts only summed: the bootstrap multiplies
    the sums (fewer columns); the intervals are those of multiplying every column."""
    from ts_eval.analysis import study

    corpus = ts_eval.io.read_conll(str(Path(ts_eval.__file__).parent / "demo" / "germeval2014_test_sample.conll"),
                                gold_column=2, system_columns=[3, 4, 5])
    models = ["exact-f1-macro", "overlap-f1-micro", "fair-f1", "ts-f1-micro"]
    st = study.Statistics(corpus, list(corpus.systems), study.resolve_models(models, corpus))
    widths = {st.specs[f].name: st._summed_width(first, k) for f, (first, k) in st.cols.items()}
    assert widths["overlap"] == 4 and widths["fair"] == 8 and widths["exact"] == 0
    grouped = ts_eval.analyze(corpus, models=models, bootstrap=40, permutations=0, attributes=["length", "label"])
    monkeypatch.setattr(study.Statistics, "_summed_width", lambda self, first, k: 0)
    plain = ts_eval.analyze(corpus, models=models, bootstrap=40, permutations=0, attributes=["length", "label"])
    for a, b in zip(grouped.attributes, plain.attributes):
        assert np.array_equal(a.low, b.low, equal_nan=True) and np.array_equal(a.high, b.high, equal_nan=True)


@pytest.mark.slow
def test_generated_strings_found_nowhere_are_in_no_span_bucket(tmp_path):
    """Two hallucinated strings (no token to stand on) count in the whole corpus and in their sentence's
    bucket, and are said to be in no bucket of a span attribute."""
    from test_generated import GOLD, HALLUCINATED, write_jsonl

    c = ts_eval.read(write_jsonl(tmp_path / "gold.jsonl", GOLD),
                          write_jsonl(tmp_path / "gen.jsonl", HALLUCINATED))
    r = ts_eval.analyze(c, models=["exact-f1-micro"], bootstrap=0, errors=False,
                        attributes=["length", "sentence_length"], buckets=["sentence_length=0"])
    length, sentences = r.attribute("length"), r.attribute("sentence_length")
    assert length.outside.tolist() == [0, 2] and int(length.system.sum()) == 4
    assert sentences.counts["exact"][0, 0].tolist() == [5, 6, 3]       # gold, system (4 placed + 2), tp
