"""One vocabulary (#10.4, #13.4): every key of every result kind's JSON that holds a number (or a
list of numbers) is a word of :data:`ts_eval.results.vocabulary.WORDS`, the list README's "Result
vocabulary" documents; SemEval's own words (``correct``, ``overall``, ...) appear only under a
``semeval`` key; no upper-case key names a quantity; every JSON says its layout and version.

A new key that names a count or a score another way (``f1``, ``found``, ``items``, ``TP``) fails
here until it is renamed, or documented in vocabulary.py and the README.
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest
from support import run_cli

import ts_eval
from ts_eval.analysis.errors import error_analysis
from ts_eval.results.vocabulary import FRAME_COLUMNS, LAYOUT_VERSIONS, LEGACY, NAME_MAPS, SEMEVAL_ONLY, WORDS, layout

ROOT = Path(__file__).parent.parent
DEMO = ROOT / "ts_eval" / "demo" / "germeval2014_test_sample.conll"
NAMES = ["gen-ap_rich_dev", "gen-crf_poor_dev", "gen-crf_rich_dev", "gen-mft_dev"]
NESTED = Path(__file__).parent / "fixtures" / "germeval" / "nested.tsv"
FAIR = Path(__file__).parent / "fixtures" / "faireval"
ALL_MODELS = ("ts", "exact", "overlap", "constrained", "contain", "fair", "semeval")


def _numeric(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)):
        return True
    if isinstance(v, list) and v:
        return all(x is None or _numeric(x) for x in v) and any(x is not None for x in v)
    return False


def offenders(node: Any, path: Tuple[str, ...] = (), names: bool = False) -> Iterator[str]:
    """Where a key breaks the vocabulary (``names``: the keys here are names, their values are checked)."""
    if isinstance(node, list):
        for x in node:
            yield from offenders(x, path + ("[]",))
        return
    if not isinstance(node, dict):
        return
    for k, v in node.items():
        where = ".".join(path + (str(k),))
        if k in LEGACY and not names:
            continue
        if not names:
            if k in SEMEVAL_ONLY and "semeval" not in path:
                yield f"{where}: a SemEval word outside semeval"
            if k != k.lower():
                yield f"{where}: an upper-case key"
            if _numeric(v) and k not in WORDS:
                yield f"{where}: {k!r} is not a word of the vocabulary"
        deep = names and path and path[-1] == "confusion"   # target -> system -> count: both levels names
        yield from offenders(v, path + (str(k),), names=(k in NAME_MAPS and isinstance(v, dict)) or bool(deep))


def demo():
    return ts_eval.io.read_conll(str(DEMO), gold_column=2, system_columns=[3, 4, 5, 6], names=NAMES)


@pytest.fixture(scope="module")
def results():
    """The JSON of every result kind, with every optional part switched on."""
    from ts_eval.comparison import compare
    from ts_eval.germeval.evaluate import evaluate_germeval
    from ts_eval.io.germeval import read_germeval

    corpus = demo()
    out = {"score": ts_eval.score(corpus, models=ALL_MODELS, all_labels_row=True).to_dict()}
    rank = ts_eval.rank(corpus, models=["exact-f1-micro", "ts-f1-macro", "fair-f1", "semeval"],
                               bootstrap=30, permutations=30, seed=3, flips=[("exact-f1-micro", "ts-f1-macro")])
    out["rank"] = rank.to_dict()
    out["rank (runs)"] = ts_eval.rank(corpus, runs={"ap": NAMES[:2], "crf": NAMES[2:]}, bootstrap=20,
                                      models=["exact-f1-micro", "ts-f1-macro"], aso_resamples=50, seed=2).to_dict()
    out["rank (tasks)"] = ts_eval.rank({"a": corpus, "b": corpus}, models=["exact-f1-micro", "ts-f1-macro"],
                                             bootstrap=20, permutations=0, seed=1).to_dict()
    out["compare"] = compare(corpus, NAMES[1], NAMES[2], models=list(ALL_MODELS)).to_dict()
    from ts_eval.ranking.references import rank_references

    out["references"] = rank_references(corpus, NAMES[0], systems=NAMES[1:], models=["exact-f1-micro", "ts-f1-macro"],
                                        bootstrap=20, permutations=20, seed=1).to_dict()
    from ts_eval.ranking.references import rank_several

    out["references (several)"] = rank_several(corpus, ["gold", *NAMES[:2]], systems=NAMES[2:], annotators=True,
                                               models=["exact-f1-micro", "ts-f1-macro"], bootstrap=20,
                                               permutations=20, seed=1).to_dict()
    out["germeval"] = evaluate_germeval(read_germeval(str(NESTED))).to_dict()
    out["analyze"] = ts_eval.analyze(corpus, bootstrap=20, permutations=0, seed=1).to_dict()
    out["analyze (pair)"] = ts_eval.analyze(corpus, NAMES[:2], bootstrap=20, permutations=20, seed=1,
                                            train=corpus, vocab=["Die", "der"]).to_dict()
    out["errors"] = error_analysis(corpus, top=3, min_agree=2).to_dict()
    out["agree"] = ts_eval.agree(corpus, names=["gold", *NAMES], bootstrap=20, majority=2).to_dict()
    from ts_eval.comparison.by_reference import compare_by_reference

    refs = [corpus.gold_info.name, NAMES[0]]       # several references: the gold and a system as the second
    out["score-references"] = ts_eval.score(corpus, references=refs, models=ALL_MODELS).to_dict()
    out["compare-references"] = compare_by_reference(corpus, refs, NAMES[1], NAMES[2], permutations=20,
                                                     compare=compare).to_dict()
    out["analyze (references)"] = ts_eval.analyze(corpus, references=refs, bootstrap=20, permutations=0, seed=1,
                                                  min_agree=2).to_dict()
    return {k: json.loads(json.dumps(v)) for k, v in out.items()}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["score", "rank", "rank (runs)", "rank (tasks)", "compare", "references",
                                  "references (several)", "germeval", "analyze", "analyze (pair)", "errors", "agree",
                                  "score-references", "compare-references", "analyze (references)"])
def test_every_number_of_a_result_is_named_in_the_vocabulary(results, kind):
    bad = sorted(set(offenders(results[kind])))
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("kind", ["score", "rank", "rank (runs)", "rank (tasks)", "compare", "references",
                                  "references (several)", "germeval", "analyze", "analyze (pair)", "errors", "agree",
                                  "score-references", "compare-references", "analyze (references)"])
def test_every_json_says_its_layout(results, kind):
    assert results[kind]["layout"] == layout(kind.split()[0])


def test_the_fair_commands_json_too(capsys, tmp_path):
    cfg = tmp_path / "ner.config"
    cfg.write_text(f"target_in = {FAIR / 'target' / 'ner_spans.csv'}\n"
                   f"system_in = {FAIR / 'system' / 'ner_spans.csv'}\n"
                   "eval_method = traditional, fair, weighted\n"
                   "weights = LE = 0.5 FP + 0.5 FN, BE = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN\n",
                   encoding="utf-8")
    code, out, err = run_cli(["fair", "--config", str(cfg), "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["layout"] == {"kind": "fair", "version": LAYOUT_VERSIONS["fair"]}
    assert sorted(d["settings"]["weights"]["LE"]) == ["FN", "FP", "TP"]   # FairEval's syntax, kept
    assert not sorted(set(offenders(d)))
    assert d["target_stats"][0]["gold"] > 0 and 0 < d["target_stats"][0]["share"] < 1


def test_the_walker_catches_offenders():
    """The check itself: other tools' names for the vocabulary's quantities are caught."""
    bad = list(offenders({"systems": [{"name": "a", "exact": {"micro": {"found": 3, "f1": 0.5, "TP": 2},
                                                              "overall": {"f": 0.5}},
                                       "oracle": {"items": 4}}],
                          "labels": {"PER": {"tp": 1, "correct": 1}},
                          "semeval": {"strict": {"overall": {"correct": 1}}}}))
    assert sorted(b.split(":")[0] for b in bad) == [
        "labels.PER.correct", "systems.[].exact.micro.TP", "systems.[].exact.micro.TP",
        "systems.[].exact.micro.f1", "systems.[].exact.micro.found", "systems.[].exact.overall",
        "systems.[].oracle.items"]


def test_score_csv_columns_and_rows_are_vocabulary(capsys):
    code, out, err = run_cli(["score", str(DEMO), "--gold-col", "2", "--format", "csv", "--models",
                              ",".join(ALL_MODELS)], capsys)
    assert code == 0, err
    header = next(csv.reader(io.StringIO(out)))
    # the long document CSV (#11): one line per cell; a column is a word of the vocabulary, or a model /
    # method / unit prefix and a word (ts_micro_precision, exact_gold, token_tp), or in a confusion
    # matrix a label
    assert header == ["table", "row", "column", "value", "low", "high", "kind"]
    rows = list(csv.DictReader(io.StringIO(out)))
    labels = set(demo().labels) | {"O", "_"}
    for r in rows:
        parts = r["column"].split("_")
        if "confusion" in r["table"]:
            assert r["column"] in labels, r
        else:
            assert any("_".join(parts[k:]) in WORDS for k in range(len(parts))), r
    strict = next(r for r in rows if r["table"].startswith("semeval-") and r["row"] == "strict/overall"
                  and r["column"] == "correct")
    assert strict["value"] != ""          # every SemEval count has its column
    quantities = {k for r in ts_eval.score(demo(), models=ALL_MODELS).rows() for k in r}
    assert quantities - {"name", "model", "label"} <= set(WORDS)


def _readme_section(title: str) -> str:
    text = (ROOT / "docs" / "outputs.md").read_text(encoding="utf-8")    # the manual's outputs page
    start = text.index(f"## {title}")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_the_readme_documents_every_word():
    section = _readme_section("Result vocabulary")
    documented = set(re.findall(r"`([a-z_0-9]+)`", section))
    missing: List[str] = sorted(set(WORDS) - documented)
    assert not missing, f"README's Result vocabulary lacks {missing}"
    for kind, version in LAYOUT_VERSIONS.items():
        assert f'"kind": "{kind}", "version": {version}' in section, kind
    assert set(FRAME_COLUMNS) <= set(WORDS)


@pytest.mark.parametrize("align", ["expand", "contract"])
def test_the_reading_of_text_formats_is_vocabulary(capsys, tmp_path, align):
    """Text formats add what aligning found to each side's ``reading`` (misaligned spans, those over no
    token, each with its character offsets): those counts are words of the vocabulary too."""
    text = "John Smithson lives in New York-City"
    spans = [{"start": 5, "end": 10, "label": "PER"}, {"start": 23, "end": 31, "label": "LOC"},
             {"start": 27, "end": 33, "label": "X"}]
    gold, system = tmp_path / "g.jsonl", tmp_path / "s.jsonl"
    gold.write_text(json.dumps({"id": "d", "text": text, "spans": spans}) + "\n", encoding="utf-8")
    system.write_text(json.dumps({"id": "d", "text": text, "spans": spans[1:]}) + "\n", encoding="utf-8")
    code, out, err = run_cli(["score", "--gold", str(gold), str(system), "--input-format", "jsonl-text",
                              "--align", align, "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["gold"]["reading"]["misaligned"] == 2
    assert d["gold"]["reading"]["dropped_no_token"] == (1 if align == "contract" else 0)
    assert [m["start"] for m in d["gold"]["reading"]["misaligned_spans"]] == [5, 27]
    assert not sorted(set(offenders(d)))


def test_the_command_lines_settings_are_vocabulary(capsys):
    """What the command line read (``settings.input``: the columns) is named in the vocabulary too."""
    code, out, err = run_cli(["score", str(DEMO), "--gold-col", "2", "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert (d["settings"]["input"]["gold_col"], d["settings"]["input"]["token_col"]) == (2, 1)
    assert not sorted(set(offenders(d)))
