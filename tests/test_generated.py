"""Generated outputs (issue 21.3): entity strings with labels, no offsets, read in three shapes,
paired with gold by id or order, placed on gold's texts (``ground``, ``fuzzy``) or compared as
strings (``strings``), with ungrounded strings, duplicates and labels outside gold's counted.

Expected values are worked by hand from the small texts below (token positions in comments).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest
from support import run_cli

import ts_eval
from ts_eval.errors import InputError, OptionError
from ts_eval.io.api import read_generated_on, read_pair
from ts_eval.io.feed import Decoding, whole
from ts_eval.io.formats import get_format
from ts_eval.io.grounding import Normalization, normalization

#   doc a: Barack(0) Obama(1) visited(2) Paris(3) and(4) Paris(5) again(6) .(7)
#   doc b: The(0) U(1) .(2) S(3) .(4) and(5) Apple(6) Inc(7) .(8) agreed(9) .(10)
GOLD = [
    {"id": "a", "text": "Barack Obama visited Paris and Paris again.",
     "spans": [[0, 12, "PER"], [21, 26, "LOC"], [31, 36, "LOC"]]},
    {"id": "b", "text": "The U.S. and Apple Inc. agreed.", "spans": [[4, 8, "LOC"], [13, 23, "ORG"]]},
]


def read_generated(path: str) -> Any:
    """A generated output's records, read whole by its format's feed."""
    fmt = get_format("generated")
    return whole(fmt.feed(str(path), fmt.options(), Decoding(), None))


def write_jsonl(path: Path, records: List[Any]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


@pytest.fixture
def gold(tmp_path: Path) -> str:
    return write_jsonl(tmp_path / "gold.jsonl", GOLD)


def generated(tmp_path: Path, records: List[Any], name: str = "gen") -> str:
    return write_jsonl(tmp_path / f"{name}.jsonl", records)


def reading(corpus: ts_eval.Corpus, name: str = "gen") -> Dict[str, Any]:
    return corpus.system_info[name].reading["generated"]


# ---------------------------------------------------------------------------
# reading


def test_the_three_shapes_read_alike(tmp_path: Path) -> None:
    objects = generated(tmp_path, [{"id": 1, "entities": [{"text": "Paris", "label": "LOC"},
                                                          {"text": "Obama", "label": "PER"}]}], "objects")
    pairs = generated(tmp_path, [{"id": 1, "entities": [["Paris", "LOC"], ["Obama", "PER"]]}], "pairs")
    by_label = generated(tmp_path, [{"id": 1, "entities": {"LOC": ["Paris"], "PER": ["Obama"]}}], "by_label")
    bare = generated(tmp_path, [[["Paris", "LOC"], ["Obama", "PER"]]], "bare")
    bare_map = generated(tmp_path, [{"LOC": ["Paris"], "PER": ["Obama"]}], "bare_map")
    for path in (objects, pairs, by_label, bare, bare_map):
        g = read_generated(path)
        assert (g.text, g.label, g.doc, g.lines) == (["Paris", "Obama"], ["LOC", "PER"], [0, 0], [1]), path
    assert read_generated(objects).ids == ["1"] and read_generated(bare).ids == [None]


def test_a_json_array_of_records_over_several_lines(tmp_path: Path) -> None:
    path = tmp_path / "gen.json"
    path.write_text(json.dumps([{"id": "a", "entities": []}, {"id": "b", "entities": [["U.S.", "LOC"]]}],
                               indent=2), encoding="utf-8")
    g = read_generated(str(path))
    assert g.ids == ["a", "b"] and g.text == ["U.S."] and g.doc == [1]


def test_a_record_without_an_id_after_one_with_an_id(tmp_path: Path, gold: str) -> None:
    path = tmp_path / "gen.jsonl"
    path.write_text('{"id": "a", "entities": []}\n{"entities": []}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"gen\.jsonl:2: .*record 2 has no 'id'"):
        read_pair(gold, str(path))


@pytest.mark.parametrize("records, needles", [
    (['{"id": "a", "entities": []}', '{"id": "b", "entities": [}'], ["gen.jsonl:2", "invalid JSON"]),
    (['{"id": "a", "entities": [["Paris"]]}'], ["gen.jsonl:1", "record 1", '["text", "label"]']),
    (['{"id": "a", "entities": [[3, "LOC"]]}'], ["gen.jsonl:1", "entity text 3 is not a non-empty string"]),
    (['{"id": "a", "entities": [["Paris", ""]]}'], ["gen.jsonl:1", "entity label '' is not a non-empty string"]),
    (['{"id": "a", "entities": []}', '{"id": "b", "entities": [{"text": "", "label": "PER"}]}'],
     ["gen.jsonl:2", "record 2", "entity text '' is not a non-empty string", "the entity's words"]),
    (['{"id": "a", "entities": {"PER": [" "]}}'], ["gen.jsonl:1", "entity text ' ' is not a non-empty string"]),
    (['{"id": "a", "entities": {"LOC": "Paris"}}'], ["gen.jsonl:1", "label 'LOC'", "list of strings"]),
    (['{"id": "a"}'], ["gen.jsonl:1", "no 'entities' key"]),
])
def test_bad_records_name_file_line_and_what_was_expected(tmp_path: Path, records: List[str],
                                                          needles: List[str]) -> None:
    path = tmp_path / "gen.jsonl"
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_generated(str(path))
    for needle in needles:
        assert needle in str(err.value), (needle, str(err.value))


def test_records_pair_with_gold_by_id_whatever_their_order(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "b", "entities": [["U.S.", "LOC"]]},
                                {"id": "a", "entities": [["Barack Obama", "PER"]]}])
    c = read_pair(gold, path)
    s = c.systems["gen"]
    # doc a starts at token 0, doc b at token 8 (U.S. = tokens 9..12)
    assert sorted(zip(s.start.tolist(), s.last.tolist())) == [(0, 1), (9, 12)]


def test_a_gold_document_without_its_record_is_an_error(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": []}])
    with pytest.raises(InputError, match="'b'"):
        read_pair(gold, path)


def test_gold_cannot_be_a_generated_output(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": []}, {"id": "b", "entities": []}])
    with pytest.raises(InputError, match="gold is in the generated format"):
        read_pair(path, gold)
    with pytest.raises(OptionError, match="beside gold"):
        ts_eval.read(path)


def test_generated_options_without_a_generated_system_are_an_error(tmp_path: Path, gold: str) -> None:
    system = write_jsonl(tmp_path / "sys.jsonl", GOLD)
    with pytest.raises(OptionError, match="generated outputs only"):
        read_pair(gold, system, ground="all")


# ---------------------------------------------------------------------------
# grounding: repeats, every occurrence, hallucinations, labels outside gold's


def test_repeated_strings_take_the_occurrences_left_to_right(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": [["Paris", "LOC"]] * 3}, {"id": "b", "entities": []}])
    c = read_pair(gold, path)
    s = c.systems["gen"]
    assert list(zip(s.start.tolist(), s.last.tolist())) == [(3, 3), (5, 5)]   # both Paris, once each
    g = reading(c)
    assert (g["strings"], g["grounded"], g["ungrounded"], g["duplicates"], g["unplaced"]) == (3, 2, 0, 2, 1)
    ex = ts_eval.score(c, models=["exact"]).systems[0]["exact"]["micro"]
    # gold 5 spans; system: 2 placed + 1 repeat with no free occurrence (a false positive)
    assert (ex["gold"], ex["system"], ex["tp"]) == (5, 3, 2)


def test_ground_all_puts_one_string_at_every_occurrence(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": [["Paris", "LOC"]]}, {"id": "b", "entities": []}])
    c = read_pair(gold, path, ground="all")
    s = c.systems["gen"]
    assert list(zip(s.start.tolist(), s.last.tolist())) == [(3, 3), (5, 5)]
    ex = ts_eval.score(c, models=["exact"]).systems[0]["exact"]["micro"]
    assert (ex["system"], ex["tp"]) == (2, 2)
    assert reading(c)["ground"] == "all" and reading(c)["unplaced"] == 0


def test_as_given_first_then_without_surrounding_punctuation(tmp_path: Path, gold: str) -> None:
    # "U.S." occurs as given (tokens 9..12); "Apple Inc.," only without its trailing comma
    path = generated(tmp_path, [{"id": "a", "entities": []},
                                {"id": "b", "entities": [["U.S.", "LOC"], ["Apple Inc.,", "ORG"]]}])
    c = read_pair(gold, path)
    ex = ts_eval.score(c, models=["exact"]).systems[0]["exact"]["micro"]
    assert (ex["system"], ex["tp"]) == (2, 2)
    assert reading(read_pair(gold, path, normalize="space"))["ungrounded"] == 1   # no punct step: found nowhere


def test_case_is_kept_unless_the_normalisation_folds_it(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": [["barack obama", "PER"]]}, {"id": "b", "entities": []}])
    assert reading(read_pair(gold, path))["ungrounded"] == 1
    c = read_pair(gold, path, normalize="case,space")
    assert reading(c)["ungrounded"] == 0
    assert ts_eval.score(c, models=["exact"]).systems[0]["exact"]["micro"]["tp"] == 1


def test_a_string_inside_a_token_is_not_an_occurrence(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": [["Bar", "PER"]]}, {"id": "b", "entities": []}])
    assert reading(read_pair(gold, path))["ungrounded"] == 1


HALLUCINATED = [{"id": "a", "entities": [["Barack Obama", "PER"], ["New York Times", "ORG"]]},
                {"id": "b", "entities": [["U.S.", "LOC"], ["Apple Inc.", "ORG"], ["Google", "ORG"],
                                         ["Apple", "PRODUCT"]]}]


def test_hallucinated_strings_are_false_positives_in_every_model(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, HALLUCINATED)
    c = read_pair(gold, path)
    g = reading(c)
    assert (g["strings"], g["grounded"], g["ungrounded"], g["unplaced"]) == (6, 4, 2, 2)
    assert [(x["record"], x["line"], x["text"]) for x in g["ungrounded_examples"]] == [
        ("a", 1, "New York Times"), ("b", 2, "Google")]
    assert (g["outside_labels"], g["outside_label_names"]) == (1, ["PRODUCT"])
    r = ts_eval.score(c, models=["ts", "exact", "fair", "semeval"]).systems[0]
    # exact: gold 5; system 4 placed (Barack Obama, U.S., Apple Inc. correct; Apple/PRODUCT not) + 2 unplaced
    ex = r["exact"]["labels"]["ORG"]
    assert (ex["gold"], ex["system"], ex["tp"]) == (1, 3, 1)
    assert (r["exact"]["micro"]["system"], r["exact"]["micro"]["tp"]) == (6, 3)
    # fair: the two unplaced strings are FPs of ORG (besides Apple/PRODUCT inside Apple Inc.)
    assert r["fair"]["traditional"]["labels"]["ORG"]["fp"] == 2
    # SemEval: two more spurious spans in every scheme than the same output without the two strings
    kept = [e for e in HALLUCINATED[1]["entities"] if e[0] != "Google"]
    placed = generated(tmp_path, [{"id": "a", "entities": HALLUCINATED[0]["entities"][:1]},
                                  {"id": "b", "entities": kept}], "placed")
    base = ts_eval.score(read_pair(gold, placed), models=["semeval"]).systems[0]["semeval"]
    for scheme in ("strict", "exact", "partial", "ent_type"):
        assert r["semeval"][scheme]["overall"]["spurious"] == base[scheme]["overall"]["spurious"] + 2
        assert r["semeval"][scheme]["labels"]["ORG"]["spurious"] == base[scheme]["labels"]["ORG"]["spurious"] + 2
        assert r["semeval"][scheme]["overall"]["correct"] == base[scheme]["overall"]["correct"]
    # TS: New York Times = 3 tokens + 2 separators, Google = 1 token, all false positives of ORG
    assert r["ts"]["labels"]["ORG"]["token"]["fp"] == 4
    assert r["ts"]["labels"]["ORG"]["separator"]["fp"] == 2


def test_grounded_strings_score_as_the_same_spans_with_offsets(tmp_path: Path, gold: str) -> None:
    """A generated output whose strings all occur once scores exactly as its spans given by offsets."""
    path = generated(tmp_path, [{"id": "a", "entities": [["Obama", "PER"], ["Paris and Paris", "LOC"]]},
                                {"id": "b", "entities": [["Apple", "ORG"], ["agreed", "MISC"]]}])
    offsets = write_jsonl(tmp_path / "offsets.jsonl", [
        {"id": "a", "text": GOLD[0]["text"], "spans": [[7, 12, "PER"], [21, 36, "LOC"]]},
        {"id": "b", "text": GOLD[1]["text"], "spans": [[13, 18, "ORG"], [24, 30, "MISC"]]}])
    models = ["ts", "exact", "overlap", "fair", "semeval"]
    a = ts_eval.score(read_pair(gold, {"x": path}), models=models).systems[0]
    b = ts_eval.score(read_pair(gold, {"x": offsets}), models=models).systems[0]
    for m in models:
        assert a[m] == b[m], m


# ---------------------------------------------------------------------------
# the strings model


def test_strings_are_multisets_per_record_and_label(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": [["Paris", "LOC"]] * 3 + [["Obama", "PER"]]},
                                {"id": "b", "entities": [["U.S.", "LOC"], ["Apple Inc.", "ORG"]]}])
    c = read_pair(gold, path, generated="strings")
    r = ts_eval.score(c)          # strings mode: the strings model alone by default
    assert r.settings["models"] == ["strings"]
    assert r.settings["generated"]["mode"] == "strings"
    s = r.systems[0]["strings"]
    # LOC: gold {Paris x2, U.S}, system {Paris x3, U.S}: 3 matched of 4; PER: Barack Obama vs Obama: 0
    assert (s["labels"]["LOC"]["gold"], s["labels"]["LOC"]["system"], s["labels"]["LOC"]["tp"]) == (3, 4, 3)
    assert (s["labels"]["PER"]["tp"], s["labels"]["ORG"]["tp"]) == (0, 1)
    assert (s["micro"]["gold"], s["micro"]["system"], s["micro"]["tp"]) == (5, 6, 4)
    assert s["micro"]["precision"] == pytest.approx(4 / 6) and s["micro"]["recall"] == pytest.approx(4 / 5)


def test_dedupe_makes_them_sets(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, [{"id": "a", "entities": [["Paris", "LOC"]] * 3}, {"id": "b", "entities": []}])
    c = read_pair(gold, path, generated="strings", normalize="space,dedupe")
    s = ts_eval.score(c).systems[0]["strings"]["labels"]["LOC"]
    assert (s["gold"], s["system"], s["tp"]) == (2, 1, 1)     # gold: Paris (a), U.S. (b)


def test_normalisation_steps() -> None:
    assert Normalization()("  “Paris”, ") == "Paris"
    assert normalization("none")(" Paris ") == " Paris "
    u = normalization("universalner")
    assert u("The  U.S.") == "us" and u("an Apple, Inc.") == "apple inc"
    assert str(normalization("space,punct")) == "default" and str(normalization("case,space")) == "case,space"
    with pytest.raises(OptionError, match="unknown step 'lower'"):
        normalization("lower")


def test_the_strings_model_needs_generated_outputs() -> None:
    with pytest.raises(OptionError, match="strings model scores generated outputs"):
        ts_eval.score([["B-PER"]], [["B-PER"]], models=["strings"])


# ---------------------------------------------------------------------------
# fuzzy


def test_fuzzy_places_near_matches_above_the_threshold(tmp_path: Path, gold: str) -> None:
    pytest.importorskip("rapidfuzz")
    path = generated(tmp_path, [{"id": "a", "entities": [["Barak Obama", "PER"]]}, {"id": "b", "entities": []}])
    assert reading(read_pair(gold, path))["ungrounded"] == 1
    c = read_pair(gold, path, generated="fuzzy")
    g = reading(c)
    # rapidfuzz ratio("Barak Obama", "Barack Obama") = 2 * 11 / 23 = 95.65 >= 90
    assert (g["fuzzy_grounded"], g["ungrounded"], g["fuzzy_threshold"]) == (1, 0, 90.0)
    assert ts_eval.score(c, models=["exact"]).systems[0]["exact"]["micro"]["tp"] == 1
    g = reading(read_pair(gold, path, generated="fuzzy", fuzzy_threshold=96))
    assert (g["fuzzy_grounded"], g["ungrounded"]) == (0, 1)


# ---------------------------------------------------------------------------
# writing the grounded spans, and the command line


def test_convert_writes_the_grounded_spans(tmp_path: Path, gold: str) -> None:
    path = generated(tmp_path, HALLUCINATED)
    docs = read_generated_on(gold, path)
    assert docs.notes["generated"]["ungrounded"] == 2
    out = tmp_path / "grounded.jsonl"
    rep = ts_eval.convert(path, str(out), gold=gold, verify=True)
    assert rep.verified and rep.written == 4
    back = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [[(s["start"], s["end"], s["label"]) for s in r["spans"]] for r in back] == [
        [(0, 12, "PER")], [(4, 8, "LOC"), (13, 18, "PRODUCT"), (13, 23, "ORG")]]
    assert any("2 ungrounded" in line for line in rep.lines())


def test_convert_pairs_records_with_gold_as_score_does(tmp_path: Path, gold: str) -> None:
    """``read_generated_on`` (``convert --gold``) pairs records with gold's documents on the one joiner that
    ``score`` reads with: by id whatever their order, and a record without an id after one with an id is the
    same error (before, its own pairing paired such records by order without a word)."""
    path = generated(tmp_path, [{"id": "b", "entities": [["U.S.", "LOC"]]},
                                {"id": "a", "entities": [["Barack Obama", "PER"]]}])
    docs = read_generated_on(gold, path)
    assert docs.ids == ["a", "b"] and sorted(zip(docs.start.tolist(), docs.last.tolist())) == [(0, 1), (9, 12)]
    mixed = generated(tmp_path, [{"id": "a", "entities": []}, {"entities": []}], "mixed")
    with pytest.raises(InputError) as scored:
        read_pair(gold, mixed)
    with pytest.raises(InputError) as converted:
        read_generated_on(gold, mixed)
    assert str(converted.value) == str(scored.value)
    assert re.search(r"mixed\.jsonl:2: .*record 2 has no 'id'", str(converted.value))


def test_score_command_with_generated_outputs(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture) -> None:
    path = generated(tmp_path, HALLUCINATED)
    code, out, err = run_cli(["score", "--gold", gold, path, "--generated", "strings", "--normalize",
                              "universalner", "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["settings"]["models"] == ["strings"]
    assert d["settings"]["generated"]["normalize"] == "universalner"
    assert d["systems"][0]["source"]["reading"]["generated"]["ungrounded"] == 2
    code, out, err = run_cli(["score", "--gold", gold, path, "--format", "table"], capsys)
    assert code == 0, err
    assert "ungrounded" in out and "PRODUCT" in out


def test_bad_generated_input_on_the_command_line(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "gen.jsonl"
    path.write_text('{"id": "a", "entities": []}\n{"id": "b", "entities": [["x"]]}\n', encoding="utf-8")
    code, out, err = run_cli(["score", "--gold", gold, str(path)], capsys)
    assert code == 1 and not out
    assert "gen.jsonl:2" in err and "record 2" in err


def test_the_json_of_a_generated_run_keeps_the_vocabulary(tmp_path: Path, gold: str) -> None:
    from test_vocabulary import offenders

    path = generated(tmp_path, HALLUCINATED)
    r = ts_eval.score(read_pair(gold, path), models=["ts", "exact", "fair", "semeval", "strings"])
    d = json.loads(json.dumps(r.to_dict()))
    # what this feature adds: the settings, the systems' reading and their strings results
    assert not sorted(set(offenders({"settings": d["settings"], "systems": d["systems"]})))
    assert d["systems"][0]["source"]["reading"]["generated"]["ungrounded"] == 2


def test_rank_reads_the_strings_model_as_score_does(tmp_path: Path, gold: str) -> None:
    one = generated(tmp_path, HALLUCINATED, "one")
    two = generated(tmp_path, [{"id": "a", "entities": [["Paris", "LOC"]]}, {"id": "b", "entities": [["U.S.", "LOC"]]}],
                    "two")
    corpus = read_pair(gold, [one, two], generated="strings")
    result = ts_eval.rank(corpus, bootstrap=0, permutations=0)
    report = ts_eval.score(corpus)
    for name in ("one", "two"):
        assert result.score(name, "strings-f1-micro") == pytest.approx(report.system(name)["strings"]["micro"]["f"])
        assert result.score(name, "strings-f1-macro") == pytest.approx(report.system(name)["strings"]["macro"]["f"])


@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_page_of_generated_systems_fits(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture,
                                                     monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    one = generated(tmp_path, HALLUCINATED, "generated-system-with-a-long-name")
    two = generated(tmp_path, [{"id": "a", "entities": [["Paris", "LOC"]]}, {"id": "b", "entities": []}], "short")
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run_cli(["score", "--gold", gold, one, two, "--models", "ts,exact,fair,semeval,strings"], capsys)
    assert code == 0, err
    assert "\u2026" not in out
    assert max(len(line) for line in out.splitlines()) <= width
    assert "ungrounded" in out and "PRODUCT" in out


def test_gold_without_text_is_searched_in_its_tokens(tmp_path: Path) -> None:
    """Column gold has tokens only: records pair by order, strings are found in the tokens joined by spaces."""
    gold = tmp_path / "gold.conll"
    gold.write_text("New B-LOC\nYork I-LOC\nis O\nbig O\n\nParis B-LOC\n. O\n", encoding="utf-8")
    path = generated(tmp_path, [[["New  York", "LOC"], ["big", "MISC"]], [["Paris,", "LOC"], ["Rome", "LOC"]]])
    c = read_pair(str(gold), path)
    g = reading(c)
    assert (g["grounded"], g["ungrounded"], g["outside_labels"]) == (3, 1, 1)
    ex = ts_eval.score(c, models=["exact"]).systems[0]["exact"]["labels"]["LOC"]
    # New York (whitespace inside may differ) and Paris (the comma trimmed) right; Rome found nowhere
    assert (ex["gold"], ex["system"], ex["tp"]) == (2, 3, 2)


def test_strings_with_nothing_to_find_are_ungrounded_false_positives(tmp_path: Path, gold: str) -> None:
    """Punctuation alone leaves no text once trimmed (the tokenizer gets no empty string)."""
    path = generated(tmp_path, [{"id": "a", "entities": [["«»", "LOC"], ["(-)", "PER"]]}, {"id": "b", "entities": []}])
    c = read_pair(gold, path)
    assert reading(c)["ungrounded"] == 2
    ex = ts_eval.score(c, models=["exact"]).systems[0]["exact"]["micro"]
    assert (ex["system"], ex["tp"]) == (2, 0)


# the generated-outputs table of every page format: --ground means something only where a span-level
# model scores the placed spans (first or all occurrences change them), not when the strings model scores alone
GROUND_IN = {"table": r"(?m)^system\s+mode\s+ground\s", "markdown": r"\| ground \|", "latex": r"& ground &",
             "csv": r"(?m)^generated,gen,ground,first,", "html": r'data-key="ground"'}


@pytest.mark.parametrize("fmt", list(GROUND_IN))
def test_the_ground_column_only_where_a_model_scores_placed_spans(tmp_path: Path, gold: str, fmt: str,
                                                                   capsys: pytest.CaptureFixture) -> None:
    import re

    path = generated(tmp_path, HALLUCINATED)
    for extra, shown in (([], False), (["--models", "strings,ts"], True), (["--generated", "ground"], True)):
        mode = [] if "--generated" in extra else ["--generated", "strings"]
        code, out, err = run_cli(["score", "--gold", gold, path, *mode, *extra, "--format", fmt], capsys)
        assert code == 0, err
        assert "ungrounded" in out                      # the generated-outputs table is there
        assert bool(re.search(GROUND_IN[fmt], out)) is shown, (extra, out)


def test_an_empty_string_is_refused_as_an_empty_label_is(tmp_path: Path, gold: str) -> None:
    for entity, what in (({"text": "", "label": "PER"}, "entity text ''"), ({"text": "Obama", "label": ""},
                                                                            "entity label ''")):
        path = generated(tmp_path, [{"id": "a", "entities": [entity]}, {"id": "b", "entities": []}])
        with pytest.raises(InputError, match=f"gen.jsonl:1: record 1: {what} is not a non-empty string"):
            read_pair(gold, path)
