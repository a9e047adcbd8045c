"""``ts-eval compare`` reads its inputs in blocks of whole sentences (:meth:`ts_eval.io.inputs.Inputs.read`) and
keeps running sums (:class:`ts_eval.comparison.comparison.ComparisonBuilder`), never the corpus: every report (each
output format, two and three systems, every option, one column file, one file per system, JSON Lines and
CoNLL-U inputs, standard input) is what reading the corpus whole gives, for blocks down to one sentence; an
error in the inputs or in the options is the same as well."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import List, Sequence, Tuple

import pytest
from streamed import run, same_at, same_error
from support import iob2

from ts_eval.comparison import compare, compare_blocks
from ts_eval.comparison.comparison import ComparisonBuilder
from ts_eval.io.inputs import Inputs

LABELS = ("LOC", "MISC", "ORG", "PER")
MODELS = "ts,exact,overlap,constrained,contain,fair,semeval"
FORMATS = ("table", "json", "markdown", "latex", "csv", "html")


def _spans(rng: random.Random, n: int) -> List[Tuple[int, int, str]]:
    out, t = [], 0
    while t < n:
        if rng.random() < 0.3:
            k = min(n - t, rng.randint(1, 3))
            out.append((t, t + k, rng.choice(LABELS)))
            t += k + 1
        else:
            t += 1
    return out


def _noisy(rng: random.Random, spans: Sequence[Tuple[int, int, str]], n: int, p: float) -> List[Tuple[int, int, str]]:
    """A system's spans: gold's, some dropped, relabelled, cut or widened, and some spurious ones."""
    out = []
    for s, e, lab in spans:
        r = rng.random()
        if r < p:
            continue
        if r < 2 * p:
            lab = rng.choice(LABELS)
        elif r < 3 * p:
            e = max(s + 1, e - 1) if rng.random() < 0.5 else min(n, e + 1)
        out.append((s, e, lab))
    if rng.random() < p * 3:
        t = rng.randrange(n)
        if all(e <= t or s > t for s, e, _ in out):
            out.append((t, t + 1, rng.choice(LABELS)))
    out.sort()
    keep, end = [], 0
    for s, e, lab in out:
        if s >= end:
            keep.append((s, e, lab))
            end = e
    return keep


def _tags(spans: Sequence[Tuple[int, int, str]], n: int) -> List[str]:
    return iob2(n, [(lab, s, e) for s, e, lab in spans])


def corpus(seed: int = 3, sentences: int = 80, systems: int = 3) -> List[Tuple[List[str], List[List[str]]]]:
    """Sentences of tokens with gold's and each system's IOB2 tags (seeded; realistic errors)."""
    rng = random.Random(seed)
    out = []
    for s in range(sentences):
        n = rng.randint(1, 14)
        gold = _spans(rng, n)
        sides = [_tags(gold, n)] + [_tags(_noisy(rng, gold, n, 0.08 + 0.04 * k), n) for k in range(systems)]
        out.append(([f"w{s}_{t}" for t in range(n)], sides))
    return out


def column_text(data, columns: Sequence[int], docstart: bool = True) -> str:
    """A column file: the token, then the sides ``columns`` (0 gold, k system k) of ``data``."""
    lines = []
    for s, (tokens, sides) in enumerate(data):
        if docstart and s % 25 == 0:
            lines += ["-DOCSTART-" + " O" * len(columns), ""]
        lines += [" ".join([tok] + [sides[c][t] for c in columns]) for t, tok in enumerate(tokens)] + [""]
    return "\n".join(lines) + "\n"


def jsonl_text(data, side: int) -> str:
    out = []
    for tokens, sides in data:
        tags = sides[side]
        spans, start = [], None
        for t, tag in enumerate(tags + ["O"]):
            if start is not None and not tag.startswith("I-"):
                spans.append({"start": start, "end": t, "label": tags[start][2:]})
                start = None
            if tag.startswith("B-"):
                start = t
        out.append(json.dumps({"tokens": tokens, "spans": spans}))
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare_blocks")
    data = corpus()
    paths = {"all": tmp / "all.conll"}
    paths["all"].write_text(column_text(data, [0, 1, 2, 3]), encoding="utf-8")
    for k in range(4):
        paths[f"col{k}"] = tmp / f"side{k}.conll"
        paths[f"col{k}"].write_text(column_text(data, [k]), encoding="utf-8")
        paths[f"jsonl{k}"] = tmp / f"side{k}.jsonl"
        paths[f"jsonl{k}"].write_text(jsonl_text(data, k), encoding="utf-8")
    return {k: str(v) for k, v in paths.items()}


def _same(argv: List[str], stdin: bytes = b"", sizes=(1, 700)) -> str:
    (rc, out, err), seen = same_at(argv, sizes, stdin)
    assert rc == 0, err
    assert seen and seen[-1] > 1, seen                 # the last run read several blocks
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_of_two_and_three_systems_is_the_same_in_blocks_down_to_one_sentence(files, fmt):
    for argv in (["compare", files["all"], "--system-col", "3", "4"],
                 ["compare", files["all"], "--gold-col", "2", "--details"]):
        out = _same(argv + ["--format", fmt])
        assert out


@pytest.mark.slow
@pytest.mark.parametrize("options", [
    ["--top", "2", "--examples", "3"], ["--examples", "0", "--top", "0"], ["--top", "40", "--examples", "4"],
    ["--view", "label"], ["--no-spans"], ["--models", MODELS], ["--fair-mode", "faireval-skip"],
    ["--separator-weight", "0.5"], ["--pair", "col5", "col3"], ["--map-label", "LOC=PLACE", "--map-label", "MISC="],
    ["--models", "fair,semeval,overlap", "--min-overlap", "nervaluate:50", "--assignment", "one-to-one"],
    ["--models", "semeval", "--pair", "col4", "col5", "--no-spans"],
])
def test_every_option_is_the_same_in_blocks(files, options):
    out = _same(["compare", files["all"], "--gold-col", "2", "--format", "json", *options])
    assert json.loads(out)["systems"]


def test_one_file_per_system_json_lines_and_formats_mixed_are_the_same_in_blocks(files):
    for argv in (["compare", "--gold", files["col0"], files["col1"], files["col2"]],
                 ["compare", "--gold", files["jsonl0"], files["jsonl1"], files["jsonl2"], files["jsonl3"]],
                 ["compare", "--gold", files["jsonl0"], files["col1"], files["jsonl2"], "--models", "semeval"]):
        out = _same(argv + ["--format", "json"])
        assert json.loads(out)["pair"] is not None or len(argv) > 5


def test_standard_input_is_the_same_in_blocks(files):
    with open(files["all"], "rb") as f:
        text = f.read()
    out = _same(["compare", "-", "--gold-col", "2", "--format", "json"], stdin=text)
    assert json.loads(out)["corpus"]["tokens"] == sum(len(t) for t, _ in corpus())


def test_compare_never_reads_the_corpus_whole(files, monkeypatch):
    """The command reads blocks (one per sentence here) and never the inputs whole."""
    monkeypatch.setattr(Inputs, "corpus", lambda *a, **k: pytest.fail("read whole"))
    (rc, _, err), seen = same_at(["compare", files["all"], "--gold-col", "2", "--format", "json"], (1,),
                                 whole=False)
    assert rc == 0, err
    assert seen == [len(corpus())]


def test_errors_are_those_of_the_whole_inputs(files, tmp_path):
    """An error in the inputs comes before a bad option, as when the corpus is read whole (the option's error
    waits until every block was read); both are the same at every block size."""
    lines = Path(files["all"]).read_text(encoding="utf-8").split("\n")
    at = len(lines) - 20
    lines[at] = "w x y"
    bad = tmp_path / "bad.conll"
    bad.write_text("\n".join(lines), encoding="utf-8")
    for argv in (["compare", str(bad), "--gold-col", "2"],
                 ["compare", str(bad), "--gold-col", "2", "--pair", "col3", "x"]):
        same_error(argv, line=at + 1)
    (rc, _, err), _ = same_at(["compare", files["all"], "--gold-col", "2", "--pair", "col3", "x"])
    assert rc == 2 and "no system named 'x'" in err


def test_jobs_are_accepted_and_change_nothing(files):
    one = run(["compare", files["all"], "--gold-col", "2", "--format", "json"])
    assert run(["compare", files["all"], "--gold-col", "2", "--format", "json", "--jobs", "2"]) == one
    rc, _, err = run(["compare", files["all"], "--gold-col", "2", "--jobs", "0"])
    assert rc == 2 and "--jobs" in err


def test_compare_blocks_is_compare_of_the_corpus_read_whole(files):
    inputs = Inputs(file=files["all"], gold_column=2, block_bytes=50)
    whole = compare(inputs.corpus("compare", 2), "col3", "col4", top=3, examples=2, models=["fair", "semeval"])
    blocks = list(inputs.read("compare", 2))
    assert len(blocks) > 50
    streamed = compare_blocks(blocks, "col3", "col4", top=3, examples=2, models=["fair", "semeval"])
    assert json.dumps(streamed.to_dict()) == json.dumps(whole.to_dict())


def test_what_the_builder_keeps_does_not_grow_with_the_sentences(files):
    """Example candidates: at most examples x (1 + 3 x top) per transition, however many sentences (the corpus
    given three times keeps as many as once)."""
    blocks = list(Inputs(file=files["all"], gold_column=2, system_columns=(3, 4), block_bytes=1).read("compare", 2))
    kept = []
    for times in (1, 3):
        builder = ComparisonBuilder(blocks[0], top=2, examples=1)
        for block in blocks * times:
            builder.add(block)
        assert builder.example_sums is not None and builder.example_sums.keep == 7
        kept.append({k: len(v) for k, v in builder.example_sums.found.items()})
        assert builder.result().pair.examples
    assert max(kept[0].values()) == 7
    assert max(kept[1].values()) == 7 and kept[1].keys() == kept[0].keys()
