"""``ts-eval agree`` and ``ts_eval.agree`` end to end (#20): every way of giving the annotations, the
errors a missing document or a token mismatch gives, hand-computed figures, per-document figures
that are the figures of that document alone, bootstrap intervals, the disagreements a person can
adjudicate, and the majority spans written in convert's formats."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from support import fails, run_cli, write, write_sentences

import ts_eval

# three annotators of two documents (-DOCSTART-): a boundary, a missing and a label disagreement
SENTENCES = [["Anna", "lives", "in", "New", "York", "."], ["Bob", "works", "at", "Acme", "."],
             ["Paris", "is", "big", "."]]
TAGS = {"a": ["B-PER O O B-LOC I-LOC O", "B-PER O O B-ORG O", "B-LOC O O O"],
        "b": ["B-PER O O O B-LOC O", "B-PER O O B-LOC O", "B-LOC O O O"],
        "c": ["B-PER O O B-LOC I-LOC O", "O O O B-ORG O", "B-LOC O O O"]}


def _lines(columns: List[List[str]]) -> str:
    """A column file of SENTENCES whose columns after the tokens are ``columns`` (per sentence the
    tags, space-separated), -DOCSTART- before the first and the third sentence."""
    out = []
    for k, toks in enumerate(SENTENCES):
        if k in (0, 2):
            out += ["-DOCSTART-" + " O" * len(columns), ""]
        tags = [c[k].split() for c in columns]
        out += [" ".join([t] + [tg[j] for tg in tags]) for j, t in enumerate(toks)] + [""]
    return "\n".join(out)


def column_files(folder: Path) -> Dict[str, str]:
    """One column file per annotator, and ``all``: one file with an annotator per column."""
    out = {name: write(folder / f"{name}.conll", _lines([tags])) for name, tags in TAGS.items()}
    out["all"] = write(folder / "all.conll", _lines(list(TAGS.values())))
    return out


@pytest.fixture
def files(tmp_path) -> Dict[str, str]:
    return column_files(tmp_path)


def as_json(capsys, argv: List[str]) -> Dict[str, Any]:
    code, out, err = run_cli([*argv, "--format", "json"], capsys)
    assert code == 0, err
    return json.loads(out)


def values(d: Dict[str, Any]) -> Dict[Tuple[str, str], float]:
    return {(k, a): v["value"] for k, fig in d["figures"].items() if isinstance(fig, dict) for a, v in fig.items()}


# ---------------------------------------------------------------------------
# inputs


def test_one_file_per_annotator_and_one_column_file_give_the_same_figures(capsys, files):
    per_file = as_json(capsys, ["agree", files["a"], files["b"], files["c"]])
    columns = as_json(capsys, ["agree", files["all"]])
    named = as_json(capsys, ["agree", files["all"], "--names", "a", "b", "c"])
    assert [a["name"] for a in per_file["annotators"]] == ["a", "b", "c"]          # from the files
    assert [a["name"] for a in columns["annotators"]] == ["col2", "col3", "col4"]  # from the columns
    assert [a["name"] for a in named["annotators"]] == ["a", "b", "c"]
    assert values(per_file) == values(columns) == values(named)
    assert per_file["corpus"]["documents"] == 2 and per_file["settings"]["resampling"] == "documents"
    two = as_json(capsys, ["agree", files["all"], "--columns", "2", "4"])
    assert [a["name"] for a in two["annotators"]] == ["col2", "col4"] and len(two["pairs"]) == 1


@pytest.mark.parametrize("fmt", ["conllu", "jsonl-tokens", "jsonl-text", "brat"])
def test_every_input_format_gives_the_figures_of_the_column_files(tmp_path, capsys, fmt):
    sents = {"x": [(["Anna", "met", "Bob", "in", "Rome"], [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")]),
                   (["The", "UN", "said", "so"], [(1, 2, "ORG")])],
             "y": [(["Anna", "met", "Bob", "in", "Rome"], [(0, 1, "PER"), (4, 5, "ORG")]),
                   (["The", "UN", "said", "so"], [(0, 2, "ORG")])]}
    for folder in ("columns", fmt):
        (tmp_path / folder).mkdir()
    want = as_json(capsys, ["agree", *(write_sentences(tmp_path / "columns", "columns", n, s)
                                       for n, s in sents.items())])
    paths = [write_sentences(tmp_path / fmt, fmt, n, s) for n, s in sents.items()]
    got = as_json(capsys, ["agree", *paths])
    assert [a["name"] for a in got["annotators"]] == ["x", "y"]
    assert values(got) == pytest.approx(values(want))


def test_a_json_lines_export_with_an_annotator_field(tmp_path, capsys):
    recs = [{"id": 1, "text": "Anna lives in New York.", "label": [[0, 4, "PER"], [14, 22, "LOC"]], "user": "ann"},
            {"id": 1, "text": "Anna lives in New York.", "label": [[0, 4, "PER"], [18, 22, "LOC"]], "user": "bob"},
            {"id": 2, "text": "Bob works at Acme.", "label": [[0, 3, "PER"], [13, 17, "ORG"]], "user": "ann"},
            {"id": 2, "text": "Bob works at Acme.", "label": [[13, 17, "LOC"]], "user": "bob"}]
    path = write(tmp_path / "export.jsonl", "".join(json.dumps(r) + "\n" for r in recs))
    d = as_json(capsys, ["agree", path, "--annotator-field", "user"])
    assert [a["name"] for a in d["annotators"]] == ["ann", "bob"]
    assert [a["spans"] for a in d["annotators"]] == [4, 3]
    pair = d["pairs"][0]
    assert pair["counts"]["exact"] == 1 and pair["f_exact"]["micro"]["value"] == pytest.approx(2 / 7)
    # a document one annotator lacks is an error naming it, unless --partial counts it as missing
    part = write(tmp_path / "part.jsonl", "".join(json.dumps(r) + "\n" for r in recs[:3]))
    fails(capsys, ["agree", part, "--annotator-field", "user"], 1, f"{part}:3", "'bob'", "id '2'", "--partial")
    d = as_json(capsys, ["agree", part, "--annotator-field", "user", "--partial"])
    assert d["corpus"]["complete_sentences"] == 1 and d["settings"]["missing"]
    assert [a["sentences"] for a in d["annotators"]] == [2, 1]
    # labels rewritten as every reader does; column options are refused, not ignored
    d = as_json(capsys, ["agree", path, "--annotator-field", "user", "--map-label", "ORG=LOC"])
    assert d["corpus"]["labels"] == ["LOC", "PER"] and d["pairs"][0]["counts"]["exact"] == 2
    fails(capsys, ["agree", path, "--annotator-field", "user", "--scheme", "IOB1"], 2, "--scheme", "--annotator-field")
    # without the field, one export is one annotation
    fails(capsys, ["agree", path], 2, "holds one annotation", "--annotator-field")
    fails(capsys, ["agree", path, "--annotator-field", "who"], 1, "'who'")


def test_an_export_annotator_called_gold_is_read_as_any_other(tmp_path, capsys):
    """An export is paired by the one joiner, whose sides stand in for an annotator called ``gold`` (as one file
    per annotator does): before, its second annotator of that name was refused as the gold side's name."""
    recs = [{"id": 1, "text": "Anna lives in New York.", "label": [[0, 4, "PER"], [14, 22, "LOC"]], "user": "ann"},
            {"id": 1, "text": "Anna lives in New York.", "label": [[0, 4, "PER"], [18, 22, "LOC"]], "user": "gold"}]
    path = write(tmp_path / "export.jsonl", "".join(json.dumps(r) + "\n" for r in recs))
    d = as_json(capsys, ["agree", path, "--annotator-field", "user"])
    assert [a["name"] for a in d["annotators"]] == ["ann", "gold"]
    assert [a["spans"] for a in d["annotators"]] == [2, 2]
    assert d["pairs"][0]["counts"]["exact"] == 1


def test_a_label_studio_export_names_annotators_by_their_email(tmp_path, capsys):
    task = {"id": 7, "data": {"text": "Anna lives in New York."}, "annotations": [
        {"completed_by": {"id": 1, "email": "ann@example.org"},
         "result": [{"type": "labels", "value": {"start": 0, "end": 4, "labels": ["PER"]}},
                    {"type": "labels", "value": {"start": 14, "end": 22, "labels": ["LOC"]}}]},
        {"completed_by": {"id": 2, "email": "bob@example.org"},
         "result": [{"type": "labels", "value": {"start": 0, "end": 4, "labels": ["PER"]}}]}]}
    path = write(tmp_path / "ls.json", json.dumps([task]))
    d = as_json(capsys, ["agree", path, "--annotator-field", "completed_by"])
    assert [a["name"] for a in d["annotators"]] == ["ann@example.org", "bob@example.org"]
    (item,) = d["disagreements"]["items"]
    assert item["kind"] == "missing" and item["text"] == "New York"
    assert item["annotators"] == {"ann@example.org": [["LOC", 3, 5, "New York"]], "bob@example.org": []}


def test_brat_folders_one_per_annotator_and_a_missing_document(tmp_path, capsys):
    for name, anns in (("ann", "T1\tPER 0 4\tAnna\nT2\tLOC 14 22\tNew York\n"), ("bob", "T1\tPER 0 4\tAnna\n")):
        (tmp_path / name).mkdir()
        write(tmp_path / name / "d1.txt", "Anna lives in New York.\n")
        write(tmp_path / name / "d1.ann", anns)
        write(tmp_path / name / "d2.txt", "Bob is here.\n")
        write(tmp_path / name / "d2.ann", "T1\tPER 0 3\tBob\n")
    d = as_json(capsys, ["agree", str(tmp_path / "ann"), str(tmp_path / "bob")])
    assert [a["name"] for a in d["annotators"]] == ["ann", "bob"] and d["corpus"]["documents"] == 2
    assert d["pairs"][0]["counts"]["exact"] == 2
    (tmp_path / "bob" / "d2.txt").unlink()
    (tmp_path / "bob" / "d2.ann").unlink()
    fails(capsys, ["agree", str(tmp_path / "ann"), str(tmp_path / "bob")], 1, "'d2'", "missing")


def test_inputs_that_do_not_line_up_are_errors(tmp_path, capsys, files):
    text = Path(files["c"]).read_text(encoding="utf-8")
    other = write(tmp_path / "other.conll", text.replace("Paris", "Rome"))
    fails(capsys, ["agree", files["a"], other], 1, "'Paris'", "'Rome'", "other.conll")
    short = write(tmp_path / "short.conll", text[:text.index("-DOCSTART-", 5)])
    fails(capsys, ["agree", files["a"], files["b"], short], 1, "short.conll", "sentence 3")
    fails(capsys, ["agree", files["a"]], 2, "1 annotation column", "one input per annotator")
    fails(capsys, ["agree", files["a"], files["a"]], 2, "given twice")
    fails(capsys, ["agree", files["all"], "--columns", "2"], 2, "at least two annotator columns")
    fails(capsys, ["agree", files["a"], files["b"], "--names", "x"], 2, "1 names for 2 annotators")


def test_inputs_that_differ_name_the_annotators_not_gold_and_system(tmp_path, capsys, files):
    text = Path(files["c"]).read_text(encoding="utf-8")
    other = write(tmp_path / "other.conll", text.replace("Paris", "Rome"))
    err = fails(capsys, ["agree", files["a"], files["b"], other], 1,
                f"{other}:18: annotator a {files['a']} vs annotator other {other}: token 'Paris' (annotator a line "
                "18) differs from 'Rome' in sentence 3")
    end = text.rindex(". O")                                        # one token more after the last
    longer = write(tmp_path / "longer.conll", text[:end] + ". O\n! O" + text[end + 3:])
    err += fails(capsys, ["agree", files["a"], longer], 1, "has 4 tokens in annotator a, 5 in annotator longer")
    as_jsonl = tmp_path / "j.jsonl"
    ts_eval.convert(other, str(as_jsonl))
    err += fails(capsys, ["agree", files["a"], str(as_jsonl)], 1, f"{as_jsonl}: annotator j, document 3",
                 "token 0 is 'Rome', the annotator a document 3")
    assert "gold" not in err and "system" not in err, err
    with pytest.raises(ts_eval.InputError, match=r"annotator a .* vs annotator other "):
        ts_eval.agree([files["a"], other])


# ---------------------------------------------------------------------------
# figures


def test_hand_computed_figures_of_two_annotators():
    """One sentence of two tokens; A marks the first token PER, B both.  TS units: token 0, separator,
    token 1; A has 1 positive unit, B 3: both 1, B only 2, neither 0.  Observed agreement 1/3; chance
    1/3 * 1 + 2/3 * 0 = 1/3, so kappa 0; exact F1 0 (different spans), overlap F1 1.  Token level
    (weight 0): units token 0 and token 1, agreement 1/2, chance 1/2 * 1 + 1/2 * 0, kappa 0."""
    spans = {"A": [[("PER", 0, 1)]], "B": [[("PER", 0, 2)]]}
    res = ts_eval.agree(spans, lengths=[2])
    (pair,) = res.pairs
    per = pair["labels"]["PER"]
    assert (per["tp"], per["fp"], per["fn"], per["tn"]) == (1, 2, 0, 0)
    assert per["agreement"]["value"] == pytest.approx(1 / 3)
    assert per["kappa"]["value"] == pytest.approx(0.0)
    assert pair["f_exact"]["micro"]["value"] == 0.0 and pair["f_overlap"]["micro"]["value"] == 1.0
    tok = ts_eval.agree(spans, lengths=[2], separator_weight=0).pairs[0]["labels"]["PER"]
    assert (tok["tp"], tok["fp"], tok["fn"], tok["tn"]) == (1, 1, 0, 0)
    assert tok["agreement"]["value"] == 0.5 and tok["kappa"]["value"] == pytest.approx(0.0)
    # Krippendorff's alpha of the 3 units x 2 coders, values (1, 1), (0, 1), (0, 1): coincidences o_11 = 2,
    # o_01 = o_10 = 2, so n_1 = 4, n_0 = 2, n = 6, and alpha = 1 - (n - 1) o_01 / (n_0 n_1) = 1 - 10 / 8
    by_label = {r["label"]: r for r in res.labels}
    assert by_label["PER"]["alpha"]["value"] == pytest.approx(-0.25)


NO_LABEL = "no annotator uses a label: an average over no labels is undefined"
NO_PAIR_LABEL = "neither annotator of the pair uses a label: an average over no labels is undefined"


def test_annotators_who_mark_nothing_agree_and_have_no_macro_average(tmp_path, capsys):
    """Micro and multi-class: complete agreement; macro, an average over no labels: n/a (null in
    JSON) with the reason, in every format."""
    path = write(tmp_path / "o.conll", "a O O O\nb O O O\n")
    argv = ["agree", path, "--columns", "2", "3", "4"]
    d = as_json(capsys, argv)
    assert d["layout"] == {"kind": "agree", "version": 2} and d["figures"]["labels_averaged"] == 0
    for k in ("fleiss", "alpha", "alpha_u", "kappa", "agreement", "f_exact", "f_overlap"):
        assert d["figures"][k]["macro"] == {"value": None, "undefined": NO_LABEL}, k
    for k in ("fleiss", "alpha", "alpha_u", "kappa", "agreement"):
        assert d["figures"][k]["micro"] == {"value": 1.0}, k
    assert d["figures"]["f_exact"]["micro"] == {"value": 0.0}       # F of no spans: the zero-division rule
    for p in d["pairs"]:
        assert p["kappa"]["micro"] == {"value": 1.0}
        assert p["kappa"]["macro"] == p["agreement"]["macro"] == {"value": None, "undefined": NO_PAIR_LABEL}
        assert p["counts"]["tn"] == 3.0
    code, out, err = run_cli(argv, capsys)
    assert code == 0, err
    overall = out[:out.index("Annotators")]
    assert [line.split()[-2:] for line in overall.splitlines() if line.startswith("Fleiss")] == [["n/a", "1.000"]]
    assert "0.000" not in overall and f"n/a: {NO_LABEL}." in overall and f"n/a: {NO_PAIR_LABEL}." in out
    for fmt, cell in (("markdown", "| n/a |"), ("latex", "& n/a &"), ("html", ">n/a</td>")):
        code, out, err = run_cli([*argv, "--format", fmt], capsys)
        assert code == 0 and out.count(cell) >= 7 + 3 and NO_LABEL in out and NO_PAIR_LABEL in out, fmt
    code, out, err = run_cli([*argv, "--format", "csv"], capsys)
    assert code == 0 and "overall,kappa,macro,,,,corr" in out.splitlines()     # undefined: no number
    assert "overall,kappa,micro,1.0,,,corr" in out.splitlines()


def test_a_pair_that_marks_nothing_has_no_macro_average_but_the_others_do():
    res = ts_eval.agree({"a": [[], [("PER", 0, 1)]], "b": [[], []], "c": [[], []]}, lengths=[2, 2], bootstrap=50)
    silent = next(p for p in res.pairs if (p["a"], p["b"]) == ("b", "c"))
    assert silent["kappa"]["macro"] == {"value": None, "undefined": NO_PAIR_LABEL}
    assert silent["kappa"]["micro"]["value"] == 1.0
    # the mean over the pairs that use a label: a~b and a~c, each with PER's kappa 0 (a alone marks it)
    assert res.figures["kappa"]["macro"]["value"] == 0.0 and res.figures["labels_averaged"] == 1
    assert res.figures["fleiss"]["macro"]["value"] == pytest.approx(res.labels[0]["fleiss"]["value"])
    # resamples without the second sentence have no label: the interval runs over the others
    assert "low" in res.figures["fleiss"]["macro"] and "low" not in silent["kappa"]["macro"]


def test_a_documents_row_is_the_figures_of_that_document_alone(files):
    res = ts_eval.agree([files["a"], files["b"], files["c"]])
    first = next(d for d in res.documents if d["document"] == 1)
    assert (first["sentences"], first["tokens"]) == (2, 11)
    lengths = [6, 5]
    alone = ts_eval.agree({n: [[(lab, b, e) for lab, b, e in sents] for sents in spans]
                           for n, spans in {"a": [[("PER", 0, 1), ("LOC", 3, 5)], [("PER", 0, 1), ("ORG", 3, 4)]],
                                            "b": [[("PER", 0, 1), ("LOC", 4, 5)], [("PER", 0, 1), ("LOC", 3, 4)]],
                                            "c": [[("PER", 0, 1), ("LOC", 3, 5)], [("ORG", 3, 4)]]}.items()},
                          lengths=lengths)
    assert first["alpha"] == pytest.approx(alone.figures["alpha"]["micro"]["value"])
    assert first["alpha_u"] == pytest.approx(alone.figures["alpha_u"]["micro"]["value"])
    assert first["kappa"] == pytest.approx(alone.figures["kappa"]["micro"]["value"])
    assert first["f_exact"] == pytest.approx(alone.figures["f_exact"]["micro"]["value"])
    assert first["spans"] == {"a": 4, "b": 4, "c": 3}
    # lowest first: the pairs by kappa, the labels by alpha, the documents by alpha
    assert [p["kappa"]["micro"]["value"] for p in res.pairs] == sorted(p["kappa"]["micro"]["value"] for p in res.pairs)
    assert [r["alpha"]["value"] for r in res.labels] == sorted(r["alpha"]["value"] for r in res.labels)
    assert [d["alpha"] for d in res.documents] == sorted(d["alpha"] for d in res.documents)


def _random_spans(seed: int, n_sent: int = 60) -> Tuple[Dict[str, List[List[Tuple[str, int, int]]]], List[int]]:
    import random

    rng = random.Random(seed)
    lengths = [rng.randint(3, 9) for _ in range(n_sent)]
    out: Dict[str, List[List[Tuple[str, int, int]]]] = {}
    base = [[(rng.choice("XY"), b, b + 1) for b in range(0, n, 3)] for n in lengths]
    for name in ("p", "q", "r"):
        out[name] = [[s for s in sent if rng.random() < 0.8] for sent in base]
    return out, lengths


def test_bootstrap_intervals_hold_the_value_and_are_reproducible():
    spans, lengths = _random_spans(1)
    a = ts_eval.agree(spans, lengths=lengths, bootstrap=200, seed=5)
    b = ts_eval.agree(spans, lengths=lengths, bootstrap=200, seed=5)
    c = ts_eval.agree(spans, lengths=lengths, bootstrap=200, seed=6)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()
    assert a.settings["resampling"] == "sentences" and a.settings["units"] == len(lengths)
    for key, fig in a.figures.items():
        for avg, v in fig.items() if isinstance(fig, dict) else ():
            assert v["low"] <= v["value"] + 1e-12 and v["value"] <= v["high"] + 1e-12, (key, avg, v)
            assert v["low"] < v["high"], (key, avg)
    for p in a.pairs:
        assert p["kappa"]["micro"]["low"] <= p["kappa"]["micro"]["value"] <= p["kappa"]["micro"]["high"]
    for r in a.labels:
        assert r["alpha"]["low"] <= r["alpha"]["value"] <= r["alpha"]["high"]
    narrow = ts_eval.agree(spans, lengths=lengths, bootstrap=200, seed=5, confidence=0.5).figures["alpha"]["micro"]
    wide = a.figures["alpha"]["micro"]
    assert wide["low"] <= narrow["low"] and narrow["high"] <= wide["high"]
    plain = ts_eval.agree(spans, lengths=lengths)
    assert "low" not in plain.figures["alpha"]["micro"]
    assert values({"figures": plain.figures}) == values({"figures": a.figures})   # the values do not move


def test_documents_are_resampled_when_there_are_documents(capsys, files):
    d = as_json(capsys, ["agree", files["a"], files["b"], files["c"], "--bootstrap", "50"])
    assert d["settings"]["resampling"] == "documents" and d["settings"]["units"] == 2
    assert d["settings"]["bootstrap"] == 50 and "low" in d["figures"]["fleiss"]["micro"]


# ---------------------------------------------------------------------------
# disagreements and the majority


def test_disagreements_say_who_has_what(capsys, files):
    d = as_json(capsys, ["agree", files["a"], files["b"], files["c"]])
    dis = d["disagreements"]
    assert dis["total"] == 3 and dis["kinds"] == {"missing": 1, "label": 1, "boundary": 1, "boundary_label": 0}
    items = {i["text"]: i for i in dis["items"]}
    ny = items["New York"]
    assert ny["kind"] == "boundary" and ny["line"] == 6 and (ny["sentence"], ny["first"], ny["last"]) == (0, 3, 4)
    assert ny["annotators"] == {"a": [["LOC", 3, 5, "New York"]], "b": [["LOC", 4, 5, "York"]],
                                "c": [["LOC", 3, 5, "New York"]]}
    assert items["Bob"]["kind"] == "missing" and items["Bob"]["annotators"]["c"] == []
    assert items["Acme"]["kind"] == "label" and items["Acme"]["labels"] == ["LOC", "ORG"]
    assert {(g["labels"], g["text"], g["count"]) for g in dis["groups"]} == {
        ("LOC", "New York", 1), ("PER", "Bob", 1), ("LOC+ORG", "Acme", 1)}
    assert [(r["label"], r["count"], r["kinds"]["label"]) for r in dis["by_label"]] == [
        ("LOC", 2, 1), ("ORG", 1, 1), ("PER", 1, 0)]
    # Anna and Paris, which everyone has alike, are no disagreement
    assert not {"Anna", "Paris"} & set(items)


def test_disagreement_kinds_and_groups_by_surface_string():
    spans = {"a": [[("PER", 0, 2)], [("PER", 0, 2)], [("LOC", 0, 1)]],
             "b": [[("PER", 0, 1)], [("PER", 0, 1)], [("ORG", 0, 2)]]}
    res = ts_eval.agree(spans, lengths=[3, 3, 3])
    kinds = [i["kind"] for i in res.disagreements["items"]]
    assert kinds == ["boundary", "boundary", "boundary_label"]
    # no tokens (span lists): the groups key on the labels alone
    assert [(g["labels"], g["count"]) for g in res.disagreements["groups"]] == [("PER", 2), ("LOC+ORG", 1)]


@pytest.mark.slow
def test_majority_spans_are_written_in_any_format_convert_writes(tmp_path, capsys, files):
    out = tmp_path / "silver.conll"
    code, report, err = run_cli(["agree", files["a"], files["b"], files["c"], "--majority", "2", "-o", str(out),
                                 "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(report)                       # the report goes to standard output
    assert d["majority"] == {"at_least": 2, "spans": 5, "path": str(out)}
    silver = ts_eval.read(str(out))
    spans = sorted((silver.labels[int(lab)], int(s), int(e)) for s, e, lab in
                   zip(silver.start, silver.end, silver.label))
    # Anna, New York (a and c), Bob (a and b), Acme ORG (a and c), Paris
    assert spans == [("LOC", 3, 5), ("LOC", 11, 12), ("ORG", 9, 10), ("PER", 0, 1), ("PER", 6, 7)]
    # scored at once against an annotator
    code, scored, err = run_cli(["score", "--gold", str(out), files["b"], "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(scored)["systems"][0]["exact"]["micro"]["tp"] == 3     # b: Anna, Bob, Paris (not York, Acme LOC)
    for fmt, name in (("jsonl-tokens", "silver.jsonl"), ("brat", "silver-brat")):
        code, _, err = run_cli(["agree", files["a"], files["b"], files["c"], "--majority", "3", "-o",
                                str(tmp_path / name), "--to", fmt], capsys)
        assert code == 0, err
        assert ts_eval.read(str(tmp_path / name)).start.size == 2      # Anna and Paris: all three
    # never over an input, never without -o
    fails(capsys, ["agree", files["a"], files["b"], "--majority", "2", "-o", files["a"]], 2, files["a"])
    fails(capsys, ["agree", files["a"], files["b"], "--majority", "2"], 2, "-o")
    fails(capsys, ["agree", files["a"], files["b"], "--majority", "3", "-o", str(tmp_path / "x.conll")], 2,
          "between 1 and the number of annotators (2)")


def test_an_option_that_does_not_apply_to_the_input_is_an_error_not_ignored(files):
    spans = {"A": [[("PER", 0, 2)]], "B": [[("PER", 0, 1)]]}
    with pytest.raises(ts_eval.OptionError, match="names: not an option for dict input"):
        ts_eval.agree(spans, lengths=[3], names=["x", "y"])
    with pytest.raises(ts_eval.OptionError, match="scheme: not an option"):
        ts_eval.agree(spans, lengths=[3], scheme="IOB1")
    with pytest.raises(ts_eval.OptionError, match="lengths"):
        ts_eval.agree([files["a"], files["b"]], lengths=[3])
    with pytest.raises(ts_eval.OptionError, match="give lengths"):
        ts_eval.agree(spans)
    assert [a["name"] for a in ts_eval.agree([files["a"], files["b"]], names=["x", "y"]).annotators] == ["x", "y"]


@pytest.mark.parametrize("fmt", ["columns", "jsonl-tokens"])
def test_an_annotator_may_be_called_gold(capsys, tmp_path, fmt):
    """'gold' names the first side of the pair readers, not an annotator: a file called gold in second
    place is an annotator like any other (it was refused as 'a system name', with no --names given)."""
    sentences = [(["Anna", "sings"], [(0, 1, "PER")])]
    ext = ".conll" if fmt == "columns" else ".jsonl"
    first, second = tmp_path / f"anna{ext}", tmp_path / f"gold{ext}"
    for path in (first, second):
        written = write_sentences(tmp_path, fmt, path.stem, sentences)
        Path(written).rename(path)
    code, out, err = run_cli(["agree", str(first), str(second), "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert [a["name"] for a in d["annotators"]] == ["anna", "gold"]
    assert [a["name"] for a in ts_eval.agree([str(first), str(second)]).to_dict()["annotators"]] == ["anna", "gold"]


# ---------------------------------------------------------------------------
# how many of each list a person's format shows (issue 30.6)

DEMO = str(Path(ts_eval.__file__).parent / "demo" / "germeval2014_test_sample.conll")


def test_a_persons_formats_list_cases_of_each_list_and_say_how_many_more(capsys):
    """The HTML page (and the terminal, Markdown, LaTeX) lists --cases documents, groups and
    disagreements (default 10) and says how many more there are; JSON and CSV hold all of them."""
    import csv
    import io

    argv = ["agree", DEMO, "--columns", "2", "3", "4"]
    d = as_json(capsys, argv)
    docs, groups, items = len(d["documents"]), len(d["disagreements"]["groups"]), d["disagreements"]["total"]
    assert docs == 300 and groups > 10 and items == len(d["disagreements"]["items"]) > 10
    code, page, err = run_cli([*argv, "--format", "html"], capsys)
    assert code == 0, err
    assert page.count('<article class="record">') == 10                 # one record per disagreement
    assert page.split('id="table-documents"')[1].split("<tbody>")[1].split("</tbody>")[0].count("<tr>") == 10
    for more, n in ((items - 10, items), (groups - 10, groups), (docs - 10, docs)):
        assert f"{more} more " in page and f"not listed: --cases {n} lists them all" in page
    code, small, err = run_cli([*argv, "--format", "html", "--cases", "3"], capsys)
    assert small.count('<article class="record">') == 3 and f"{items - 3} more disagreements" in small
    code, every, err = run_cli([*argv, "--format", "html", "--cases", str(items)], capsys)
    assert every.count('<article class="record">') == items and "more disagreements" not in every
    assert len(page) < len(every) / 2
    for fmt in ("markdown", "latex", "table"):
        code, out, err = run_cli([*argv, "--format", fmt], capsys)
        assert code == 0 and f"{items - 10} more disagreements not listed: --cases {items}" in " ".join(out.split())
    code, out, err = run_cli([*argv, "--format", "csv"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len({r["row"] for r in rows if r["table"] == "disagreements"}) <= items
    assert sum(r["table"] == "disagreements" and r["column"] == "kind" for r in rows) == items
    assert sum(r["table"] == "documents" and r["column"] == "tokens" for r in rows) == docs
