"""JSON Lines readers (token lists; text with character offsets), pairing, ts_eval.read/read_pair."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import ts_eval
from ts_eval import InputError
from ts_eval.io.api import read, read_pair
from ts_eval.io.tokenizer import tokenize
from ts_eval.models.evaluate import evaluate

TOKENS = ["John", "lives", "in", "New", "York"]


def write(tmp_path, name, records, raw=False):
    p = tmp_path / name
    p.write_text(records if raw else "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(p)


def spans_of(corpus, side="gold"):
    ss = corpus.gold if side == "gold" else corpus.systems[side]
    return sorted((corpus.labels[lab], int(s), int(e)) for s, e, lab in zip(ss.start, ss.last, ss.label))


def test_token_spans_tags_and_hf_shapes_read_to_the_same_spans(tmp_path):
    g = write(tmp_path, "g.jsonl", [{"id": "d1", "tokens": TOKENS, "spans": [
        {"start": 0, "end": 1, "label": "PER"}, {"start": 3, "end": 5, "label": "LOC"}]}])
    t = write(tmp_path, "t.jsonl", [{"id": "d1", "tokens": TOKENS, "tags": ["B-PER", "O", "O", "B-LOC", "I-LOC"]}])
    names = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    info = tmp_path / "dataset_info.json"
    info.write_text(json.dumps({"features": {"ner_tags": {"feature": {"names": names, "_type": "ClassLabel"},
                                                          "_type": "Sequence"}}}))
    h = write(tmp_path, "h.jsonl", [{"id": "d1", "tokens": TOKENS, "ner_tags": [1, 0, 0, 3, 4]}])
    for path, kw in ((g, {}), (t, {}), (h, {"tag_names": str(info)}), (h, {"tag_names": names})):
        docs = read(path, **kw)
        assert docs.format == "jsonl-tokens"
        assert docs.offsets.tolist() == [0, 5]
        assert sorted(zip([docs.labels[k] for k in docs.label], docs.start.tolist(), docs.last.tolist())) == \
            [("LOC", 3, 4), ("PER", 0, 0)]
    lst = tmp_path / "names.json"
    lst.write_text(json.dumps(names))
    assert read(h, tag_names=str(lst)).n_tokens == 5


def test_read_pair_scores_by_hand(tmp_path):
    g = write(tmp_path, "g.jsonl", [{"id": "d1", "tokens": TOKENS, "spans": [
        {"start": 0, "end": 1, "label": "PER"}, {"start": 3, "end": 5, "label": "LOC"}]}])
    s = write(tmp_path, "s.jsonl", [{"id": "d1", "tokens": TOKENS, "tags": ["B-PER", "O", "O", "B-LOC", "O"]}])
    corpus = read_pair(g, s)
    assert spans_of(corpus, "s") == [("LOC", 3, 3), ("PER", 0, 0)]
    sys = evaluate(corpus).to_dict()["systems"][0]
    assert sys["exact"]["micro"]["tp"] == 1 and sys["exact"]["micro"]["f"] == pytest.approx(0.5)
    # TS units: gold PER {0}, LOC {6,7,8}; system PER {0}, LOC {6}: TP 2, FP 0, FN 2
    assert (sys["ts"]["micro"]["tp"], sys["ts"]["micro"]["fp"], sys["ts"]["micro"]["fn"]) == (2, 0, 2)
    assert sys["ts"]["micro"]["f"] == pytest.approx(2 / 3)


def test_score_accepts_span_lists():
    r = ts_eval.score([[("PER", 0, 1), ("LOC", 3, 5)]], [[("PER", 0, 1), ("LOC", 3, 4)]], lengths=[5])
    sys = r.to_dict()["systems"][0]
    assert sys["exact"]["micro"]["f"] == pytest.approx(0.5)
    assert sys["ts"]["micro"]["f"] == pytest.approx(2 / 3)
    with pytest.raises(InputError, match=r"span \('PER', 2, 2\) is empty: end is exclusive"):
        ts_eval.score([[("PER", 2, 2)]], [[]], lengths=[5])
    with pytest.raises(InputError, match=r"span \('PER', 3, 1\) is outside .* or ends before it starts"):
        ts_eval.score([[("PER", 3, 1)]], [[]], lengths=[5])


def test_nested_and_crossing_spans_are_kept_and_counted(tmp_path):
    g = write(tmp_path, "g.jsonl", [{"id": "a", "tokens": TOKENS, "spans": [
        {"start": 3, "end": 5, "label": "LOC"}, {"start": 3, "end": 4, "label": "LOC"},
        {"start": 3, "end": 5, "label": "ORG"}, {"start": 1, "end": 4, "label": "X"}]}])
    docs = read(g)
    summ = docs.summary()
    # sorted by (start, -end): X 1..3, ORG/LOC 3..4 (one of them nested in the other), LOC 3..3 nested;
    # the first 3..4 span crosses X (overlap without containment)
    assert (summ["spans"], summ["nested"], summ["crossing"]) == (4, 2, 1)
    corpus = read_pair(g, g)
    assert len(corpus.gold) == 4 and spans_of(corpus, "g") == spans_of(corpus)
    assert corpus.gold_info.shape == corpus.system_info["g"].shape == {"nested": 2, "crossing": 1}
    assert corpus.gold_info.reading["nested"] == 2 and corpus.gold_info.summary()["reading"]["crossing"] == 1


def test_pairing_by_id_reorders_and_by_order_compares_tokens(tmp_path):
    recs = [{"id": "a", "tokens": ["x", "y"], "spans": [{"start": 0, "end": 1, "label": "A"}]},
            {"id": "b", "tokens": ["p", "q", "r"], "spans": [{"start": 2, "end": 3, "label": "B"}]}]
    g = write(tmp_path, "g.jsonl", recs)
    s = write(tmp_path, "s.jsonl", recs[::-1])
    corpus = read_pair(g, s)
    assert spans_of(corpus, "s") == spans_of(corpus) == [("A", 0, 0), ("B", 4, 4)]
    noid = [{k: v for k, v in r.items() if k != "id"} for r in recs[::-1]]
    with pytest.raises(InputError, match=r"token 0 is 'p', the gold document 'a'.*expected the same tokens"):
        read_pair(g, write(tmp_path, "n.jsonl", noid))
    in_order = [{k: v for k, v in r.items() if k != "id"} for r in recs]
    with pytest.raises(InputError, match=r"1 documents, the gold file .* has 2"):
        read_pair(g, write(tmp_path, "one.jsonl", in_order[:1]))
    # the first error is the one at the first of gold's documents where one shows: here the tokens differ at
    # gold's first document, before the system runs out at its second
    with pytest.raises(InputError, match=r"token 0 is 'p', the gold document 'a'.*expected the same tokens"):
        read_pair(g, write(tmp_path, "short.jsonl", noid[:1]))


@pytest.mark.parametrize("records, message", [
    ([{"id": "a", "tokens": ["x", "y"], "spans": []}, {"id": "a", "tokens": ["x", "y"], "spans": []}],
     "document id 'a' occurs twice"),
    ([{"id": "a", "tokens": ["x"], "spans": []}, {"id": "a", "tokens": ["x"], "spans": []}],
     r"token 1 is the end, the gold document 'a'.*expected the same tokens"),   # (at gold's first document)
    ([{"id": "a", "tokens": ["x", "y"], "spans": []}], "document id 'b' of the gold file .* is missing"),
    ([{"id": "a", "tokens": ["x", "y"], "spans": []}, {"id": "b", "tokens": ["p"], "spans": []},
      {"id": "c", "tokens": ["p"], "spans": []}], "document id 'c' is not in the gold file"),
])
def test_bad_document_ids(tmp_path, records, message):
    g = write(tmp_path, "g.jsonl", [{"id": "a", "tokens": ["x", "y"], "spans": []},
                                     {"id": "b", "tokens": ["p"], "spans": []}])
    with pytest.raises(InputError, match=message):
        read_pair(g, write(tmp_path, "s.jsonl", records))


@pytest.mark.parametrize("body, message", [
    ('{"tokens": ["a"], "spans": []}\n{"tokens": ["a"], "spans": [}\n',
     r"s\.jsonl:2: invalid JSON: invalid character \(column 29\); expected one JSON object per line$"),
    ('{"tokens": ["a"]}\n', r":1: keys 'tokens'; expected 'tokens' and one of 'spans', 'tags', 'ner_tags'"),
    ('{"tokens": "a b", "spans": []}\n', r":1: 'tokens' is 'a b', expected a list of strings"),
    ('{"tokens": ["a", 3], "spans": []}\n', r":1: token 3 is not a string"),
    ('{"tokens": [], "spans": []}\n', r":1: 'tokens' is empty"),
    ('{"tokens": ["a"], "spans": [{"start": 0, "end": 2, "label": "X"}]}\n', r":1: span .* 0 <= start < end <= 1"),
    ('{"tokens": ["a"], "spans": [{"start": 0, "end": 0, "label": "X"}]}\n', r":1: span .* 0 <= start < end"),
    ('{"tokens": ["a"], "spans": [{"start": 0, "end": "1", "label": "X"}]}\n', r":1: span .*integers"),
    ('{"tokens": ["a"], "spans": [{"start": 0, "end": 1, "label": 7}]}\n', r":1: span .*label 7 is not a non-empty"),
    ('{"tokens": ["a"], "spans": [{"start": 0, "label": "X"}]}\n', r":1: span .*expected \{\"start\""),
    ('{"tokens": ["a"], "spans": [{"start": 0, "end": 1, "label": "X"}, {"start": 0, "end": 1, "label": "X"}]}\n',
     "given twice"),
    ('{"tokens": ["a", "b"], "tags": ["B-X"]}\n', r":1: 1 tags for 2 tokens"),
    ('{"tokens": ["a"], "tags": ["B-X"]}\n{"tokens": ["a"], "tags": [5]}\n', r":2: tag 5 is not a string"),
    ('{"tokens": ["a"], "tags": ["B-X"]}\n{"tokens": ["a"], "spans": []}\n', r":2: 'tags' is null"),
    ('{"tokens": ["a"], "ner_tags": [0]}\n', "give tag_names"),
    ('[1, 2]\n', r"s\.jsonl:1: found int 1, expected a JSON object"),
    ('{"tokens": ["a"], "spans": []}\n7\n', r"s\.jsonl:2: found int 7, expected a JSON object"),
    ('\n\n', "empty input"),
])
def test_bad_token_jsonl(tmp_path, body, message):
    p = write(tmp_path, "s.jsonl", body, raw=True)
    with pytest.raises(InputError, match=message):
        read(p, format="jsonl-tokens")


def test_bad_hf_tag_numbers(tmp_path):
    p = write(tmp_path, "h.jsonl", '{"tokens": ["a", "b"], "ner_tags": [0, 9]}\n', raw=True)
    with pytest.raises(InputError, match=r"h\.jsonl:1: ner_tags value 9 has no tag name; expected 0\.\.2"):
        read(p, tag_names=["O", "B-X", "I-X"])


# ---------------------------------------------------------------------------
# text with character offsets

def test_default_tokenizer():
    texts = ["New York-based, Inc.", "Zoë läuft_x !"]
    off, s, e = tokenize(texts)
    toks = [texts[d][a:b] for d in range(2) for a, b in zip(s[off[d]:off[d + 1]], e[off[d]:off[d + 1]])]
    assert toks == ["New", "York", "-", "based", ",", "Inc", ".", "Zoë", "läuft_x", "!"]
    assert off.tolist() == [0, 7, 10]


def test_spacy_doccano_label_studio_shapes_agree(tmp_path):
    text = "John lives in New York."
    sp = write(tmp_path, "sp.jsonl", [{"id": "1", "text": text, "spans": [
        {"start": 0, "end": 4, "label": "PER"}, {"start": 14, "end": 22, "label": "LOC"}]}])
    dc = write(tmp_path, "dc.jsonl", [{"id": 1, "text": text, "label": [[0, 4, "PER"], [14, 22, "LOC"]]}])
    dc2 = write(tmp_path, "dc2.jsonl", [{"id": 1, "text": text, "entities": [
        {"start_offset": 0, "end_offset": 4, "label": "PER"}, {"start_offset": 14, "end_offset": 22, "label": "LOC"}]}])
    ls = tmp_path / "ls.json"
    ls.write_text(json.dumps([{"id": 1, "data": {"text": text}, "annotations": [{"result": [
        {"type": "labels", "value": {"start": 0, "end": 4, "text": "John", "labels": ["PER"]}},
        {"type": "labels", "value": {"start": 14, "end": 22, "text": "New York", "labels": ["LOC"]}},
        {"type": "relation", "from_id": "a", "to_id": "b"}]}]}]))
    for p in (sp, dc, dc2, str(ls)):
        docs = read(p)
        assert docs.tokens(0) == ["John", "lives", "in", "New", "York", "."]
        assert sorted(zip([docs.labels[k] for k in docs.label], docs.start.tolist(), docs.last.tolist())) == \
            [("LOC", 3, 4), ("PER", 0, 0)]
    assert read(str(ls)).notes["other_results"] == 1
    corpus = read_pair(sp, {"doccano": dc, "studio": str(ls)})
    assert spans_of(corpus, "doccano") == spans_of(corpus, "studio") == spans_of(corpus)


def test_own_token_offsets_are_used(tmp_path):
    p = write(tmp_path, "t.jsonl", [{"text": "New-York", "tokens": [{"start": 0, "end": 8}],
                                     "spans": [{"start": 0, "end": 8, "label": "LOC"}]}])
    docs = read(p)
    assert docs.tokens(0) == ["New-York"] and docs.start.tolist() == [0]


def test_misaligned_spans_strict_expand_contract(tmp_path):
    text = "John Smithson lives in New York-City"
    # [5, 10) "Smith" ends inside "Smithson"; [23, 31) "New York" is aligned; [27, 33) "York-C" ends inside City
    rec = {"id": "d", "text": text, "spans": [{"start": 5, "end": 10, "label": "PER"},
                                              {"start": 23, "end": 31, "label": "LOC"},
                                              {"start": 27, "end": 33, "label": "X"}]}
    p = write(tmp_path, "t.jsonl", [rec])
    with pytest.raises(InputError, match=r"t\.jsonl:1: document 'd': span \[5, 10\) 'Smith' \(PER\) does not fall "
                                         "on token boundaries"):
        read(p)
    exp = read(p, align="expand")
    assert sorted(zip([exp.labels[k] for k in exp.label], exp.start.tolist(), exp.last.tolist())) == \
        [("LOC", 4, 5), ("PER", 1, 1), ("X", 5, 7)]
    assert exp.notes["misaligned"] == 2 and exp.notes["dropped_no_token"] == 0
    assert [m["text"] for m in exp.notes["misaligned_spans"]] == ["Smith", "York-C"]
    con = read(p, align="contract")
    # contract: "Smith" holds no whole token (dropped, listed); "York-C" keeps York and '-'
    assert sorted(zip([con.labels[k] for k in con.label], con.start.tolist(), con.last.tolist())) == \
        [("LOC", 4, 5), ("X", 5, 6)]
    assert con.notes["dropped_no_token"] == 1 and con.notes["misaligned_spans"][0]["tokens"] is None


@pytest.mark.parametrize("rec, message", [
    ({"id": "d", "text": "ab cd", "spans": [{"start": 3, "end": 9, "label": "X"}]}, r"outside the text \(length 5\)"),
    ({"id": "d", "text": "ab cd", "spans": [{"start": 3, "end": 3, "label": "X"}]}, "or empty"),
    ({"id": "d", "text": "ab cd", "spans": [{"start": 0, "end": 2, "label": ["X"]}]}, r"label \[\"X\"\] is not"),
    ({"id": "d", "text": "ab cd", "spans": [[0, "2", "X"]]}, "are not integers"),
    ({"id": "d", "text": "ab cd"}, "no spans key"),
    ({"id": "d", "spans": []}, "no 'text' key"),
    ({"id": "d", "text": 5, "spans": []}, "'text' is 5, expected a string"),
    ({"id": "d", "text": "   ", "spans": []}, "has no tokens"),
    ({"id": "d", "text": "ab", "tokens": [{"start": 0, "end": 3}], "spans": []}, "token 0 has offsets"),
    ({"id": [1], "text": "ab", "spans": []}, r"id \[1\] is not a string or integer"),
])
def test_bad_text_jsonl(tmp_path, rec, message):
    with pytest.raises(InputError, match=message):
        read(write(tmp_path, "t.jsonl", [rec]))


def test_label_studio_without_annotations(tmp_path):
    p = tmp_path / "ls.json"
    p.write_text(json.dumps([{"id": 1, "data": {"text": "a b"}, "annotations": []}]))
    with pytest.raises(InputError, match="has no 'annotations'"):
        read(str(p))
    p.write_text(json.dumps([{"id": 1, "data": {"txt": "a b"}, "predictions": [{"result": []}]}]))
    with pytest.raises(InputError, match=r"without data\['text'\]; the data keys are 'txt'"):
        read(str(p))
    assert read(str(p), text_key="txt", source="predictions").n_tokens == 2


def test_texts_that_differ_for_the_same_id(tmp_path):
    g = write(tmp_path, "g.jsonl", [{"id": "d", "text": "a  b", "spans": []}])
    s = write(tmp_path, "s.jsonl", [{"id": "d", "text": "a b", "spans": []}])
    with pytest.raises(InputError, match="document 'd', line 1: the text differs from the gold document 'd'"):
        read_pair(g, s)


def test_mixed_formats_gold_text_system_tokens(tmp_path):
    g = write(tmp_path, "g.jsonl", [{"id": "d", "text": "John lives in New York", "spans": [
        {"start": 14, "end": 22, "label": "LOC"}]}])
    s = write(tmp_path, "s.jsonl", [{"id": "d", "tokens": TOKENS, "tags": ["O", "O", "O", "B-LOC", "I-LOC"]}])
    corpus = read_pair(g, s)
    assert spans_of(corpus, "s") == spans_of(corpus) == [("LOC", 3, 4)]
    assert corpus.tokens(0, 5) == TOKENS


def test_unknown_option_is_an_option_error(tmp_path):
    g = write(tmp_path, "g.jsonl", [{"tokens": ["a"], "spans": []}])
    with pytest.raises(ts_eval.OptionError, match="align"):
        read(g, align="expand")


def test_garbage_collector_is_back_on_after_a_read_and_after_an_error(tmp_path):
    import gc
    assert gc.isenabled()
    read(write(tmp_path, "g.jsonl", [{"tokens": ["a"], "spans": []}]))
    assert gc.isenabled()
    with pytest.raises(InputError):
        read(write(tmp_path, "b.jsonl", '{"tokens": 1, "spans": []}\n', raw=True))
    assert gc.isenabled()


@pytest.mark.parametrize("fmt", ["tokens", "text"])
def test_chunked_parsing_reads_the_same_and_names_a_bad_line_in_a_later_chunk(tmp_path, monkeypatch, fmt):
    # records are parsed a chunk of lines at a time (only one chunk's per-token objects alive); with
    # chunks of 2 lines the documents are those of one chunk, and a bad line in the third chunk is named
    import ts_eval.io.jsonl as jsonl

    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"]
    if fmt == "tokens":
        recs = [{"id": f"d{k}", "tokens": [n, "left"], "spans": [{"start": 0, "end": 1, "label": "PER"}]}
                for k, n in enumerate(names)]
    else:
        recs = [{"id": f"d{k}", "text": f"{n} left", "spans": [{"start": 0, "end": len(n), "label": "PER"}]}
                for k, n in enumerate(names)]
    path = write(tmp_path, "g.jsonl", recs)
    whole = read_pair(path, [path])
    monkeypatch.setattr(jsonl, "CHUNK_LINES", 2)
    chunked = read_pair(path, [path])
    assert spans_of(chunked) == spans_of(whole) and len(spans_of(whole)) == 7
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5][:-1]                      # line 6 (third chunk) loses its closing brace
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.jsonl:6: invalid JSON"):
        read(str(bad))
