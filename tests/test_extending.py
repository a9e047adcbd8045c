"""Extending is one module: a toy model and a toy format registered from outside the package with the
public API (:func:`ts_eval.models.register`, :func:`ts_eval.io.formats.register_format`; docs/architecture.md
"How to add a format", "How to add a model") show in ``score`` (the terminal's table and JSON; the Python
API), ``rank`` (the leaderboard and JSON), ``analyze`` (JSON, with span buckets) and, the format,
``convert`` (both ways), and no file of the package is touched: each module lives in a temporary folder and
is imported before the command line runs, in a process of its own (the registries of this test process stay
as they are).

Each toy is the source of one module (:data:`TOY_MODEL`, :data:`TOY_FORMAT`); :func:`run` imports the
modules it is given and runs one command line (or Python code).  The toy format's files hold the data of
:data:`CONLL`, so every result is the same as the column files' and the values are hand-computed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

#: "spans found at all": a gold span is found when some system span overlaps it, whatever the labels, and a
#: system span is found when it overlaps some gold span; F1 of the two.  One module, public names only.
TOY_MODEL = '''
import numpy as np

from ts_eval.models import Contributions, Display, ModelSpec, ResultColumn, Score, register

GOLD, SYSTEM, GOLD_FOUND, SYSTEM_FOUND = range(4)


def _found(sd):
    gold, system, pairs = sd.cd.corpus.gold, sd.spans, sd.pairs
    g, s = np.zeros(len(gold), bool), np.zeros(len(system), bool)
    g[pairs.gold], s[pairs.system] = True, True
    return gold, system, g, s


def found_stats(sd, settings, sentences):
    """Per sentence (or for the corpus): gold spans, system spans, gold spans found, system spans found."""
    gold, system, g, s = _found(sd)
    corpus = sd.cd.corpus
    rows = corpus.n_sentences if sentences else 1
    gs = corpus.sentence_of(gold.start) if sentences else np.zeros(len(gold), np.int64)
    ss = corpus.sentence_of(system.start) if sentences else np.zeros(len(system), np.int64)
    key = np.concatenate([gs * 4 + GOLD, ss * 4 + SYSTEM, gs[g] * 4 + GOLD_FOUND, ss[s] * 4 + SYSTEM_FOUND])
    return np.bincount(key, minlength=rows * 4).reshape(rows, 4)


def found_prf(x):
    x = np.asarray(x, float)
    zero = np.zeros(x.shape[:-1])
    p = np.divide(x[..., SYSTEM_FOUND], x[..., SYSTEM], out=zero.copy(), where=x[..., SYSTEM] > 0)
    r = np.divide(x[..., GOLD_FOUND], x[..., GOLD], out=zero.copy(), where=x[..., GOLD] > 0)
    return p, r, np.divide(2 * p * r, p + r, out=zero.copy(), where=p + r > 0)


def found_f1(x):
    return found_prf(x)[2]


def found_result(tally, totals):
    x = tally.sums
    p, r, f = (float(v) for v in found_prf(x))
    return {"gold": int(x[GOLD]), "system": int(x[SYSTEM]), "gold_found": int(x[GOLD_FOUND]),
            "system_found": int(x[SYSTEM_FOUND]), "precision": p, "recall": r, "f": f}


def found_split(sd):
    gold, system, g, s = _found(sd)
    gi, si = np.arange(len(gold)), np.arange(len(system))
    return Contributions.of([(0, gi, np.full(len(gi), GOLD), np.ones(len(gi))),
                             (0, gi, np.full(len(gi), GOLD_FOUND), g),
                             (1, si, np.full(len(si), SYSTEM), np.ones(len(si))),
                             (1, si, np.full(len(si), SYSTEM_FOUND), s)], 4)


register(ModelSpec(
    "found", "spans found at all: overlapping any span of the other side, whatever the labels", found_stats, (4, 0),
    (Score("found-f1", "Found-F1", found_f1, "F1 of spans found at all", reported=("f",)),), found_result,
    display=Display("spans found at all", (ResultColumn("found_f", "found F", ("f",), counts=("gold", "system")),),
                    headline=ResultColumn("found", "found F", ("f",)), gloss="found counts spans that overlap at all"),
    split=found_split, counts=lambda block: block, count_names=("gold", "system", "gold_found", "system_found")))
'''

#: "tagged": one sentence a line, each token with its tag after its last slash (``John/B-PER saw/O``); blank lines
#: are no sentence.  Read in blocks of whole lines (the package's line source and feed), written from documents.
#: One module, registered with :func:`ts_eval.io.formats.register_format`.
TOY_FORMAT = r'''
import re

import numpy as np

from ts_eval.errors import InputError
from ts_eval.io.documents import TOKEN_SEP, documents_from_tags, no_documents
from ts_eval.io.feed import DocumentFeed, before_line, detected_scheme
from ts_eval.io.formats import Format, register_format
from ts_eval.io.sink import write_text
from ts_eval.io.source import check_utf8, display_name, line_blocks, line_end, open_stream
from ts_eval.io.writing import start_report

PAIR = re.compile(r"\S+/(O|[BIES]-\S+)$")


def parse_block(name, decoding, detected):
    def parse(raw, stop, first, evidence=False):
        data = raw.data if stop is None else raw.data[:stop]
        check_utf8(data, name, lines_before=raw.lines, bytes_before=raw.bytes)
        lengths, keys, lines, vocab, tags = [], [], [], {}, []
        for line, text in enumerate(data.decode("utf-8-sig").split("\n"), raw.lines + 1):
            pairs = text.split()
            if not pairs:
                continue
            bad = next((p for p in pairs if "/" not in p[1:]), None)
            if bad is not None:
                raise InputError(f"{bad!r}: expected TOKEN/TAG", name, line)
            split = [p.rsplit("/", 1) for p in pairs]
            lengths.append(len(split))
            keys.append(TOKEN_SEP.join(t for t, _ in split))
            lines.append(line)
            tags += [vocab.setdefault(g, len(vocab)) for _, g in split]
        if not lengths:
            return None if evidence else no_documents(name, "tagged")
        if evidence:
            from ts_eval.io.documents import tags_evidence
            return tags_evidence(name, lengths, list(vocab), np.asarray(tags, np.int32), lines, first=first)
        return documents_from_tags(name, "tagged", lengths, [None] * len(lengths), keys, list(vocab),
                                   np.asarray(tags, np.int32), decoding.scheme, decoding.policy, lines=lines,
                                   first=first, detected=detected[0])
    return parse


def feed(path, options, decoding, block_bytes):
    name, detected = display_name(path), [None]
    parse = parse_block(name, decoding, detected)

    def blocks():
        return line_blocks(lambda: open_stream(path), line_end, block_bytes)

    if decoding.scheme == "auto":
        detected[0] = detected_scheme(path, blocks, parse)
    return DocumentFeed(name, blocks(), parse, before_line(name, False), lambda last: no_documents(name, "tagged"),
                        lambda: InputError("no sentences; expected TOKEN/TAG pairs", name))


def sniff(head):
    first = next((line for line in head.split("\n") if line.strip()), "")
    return bool(first.split()) and all(PAIR.match(p) for p in first.split())


def write(docs, path, **options):
    report = start_report(docs, path, "tagged")
    tags = np.full(docs.n_tokens, "O", object)
    for start, last, label in zip(docs.start.tolist(), docs.last.tolist(), docs.label.tolist()):
        if any(t != "O" for t in tags[start:last + 1]):
            raise InputError(f"the span {docs.labels[label]!r} at token {start} overlaps another; expected one "
                             "layer of spans", docs.path)
        tags[start], tags[start + 1:last + 1] = "B-" + docs.labels[label], "I-" + docs.labels[label]
    write_text(path, "".join(" ".join(f"{t}/{g}" for t, g in zip(docs.tokens(d), tags[docs.offsets[d]:]))
                             + "\n" for d in range(docs.n_docs)))
    report.written = len(docs.start)
    return report


register_format(Format("tagged", feed, extensions=(".tagged",), sniff=sniff, write=write, tags=True,
                       description="one sentence a line: TOKEN/TAG pairs"))
'''

#: two sentences; gold PER, LOC | ORG; system "sys" ORG (inside PER), MISC | ORG, PER; system "same" = gold
CONLL = """A B-PER B-PER O
B I-PER I-PER B-ORG
C O O O
D B-LOC B-LOC O
E O O O
F O O B-MISC

G B-ORG B-ORG B-ORG
H O O O
I O O B-PER
"""
def columns(path: Path) -> List[str]:
    return [str(path), "--gold-col", "2", "--system-col", "4", "3", "--names", "sys", "same"]


#: sys: 2 of its 4 spans overlap a gold span, 2 of the 3 gold spans are overlapped: P 1/2, R 2/3, F1 4/7
FOUND_F1 = 4 / 7


def run(tmp_path: Path, modules: Dict[str, str], *argv: str, code: str = "") -> subprocess.CompletedProcess:
    """The command line ``argv`` (or the Python ``code``) in a process that first imports ``modules`` (name ->
    source), written to a folder of their own, not the package's."""
    folder = tmp_path / "outside"
    folder.mkdir(exist_ok=True)
    for name, source in modules.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    path = os.pathsep.join([str(folder), *filter(None, [os.environ.get("PYTHONPATH")])])
    code = f"import sys\nimport {', '.join(modules)}\n" + (code or "from ts_eval.cli.app import main\n"
                                                              "sys.exit(main(sys.argv[1:]))\n")
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": path, "COLUMNS": "200"})


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "toy.conll"
    path.write_text(CONLL, encoding="utf-8")
    return path


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_toy_model_registered_outside_shows_in_score(tmp_path, data):
    model = {"toy_model": TOY_MODEL}
    report = json.loads(ok(run(tmp_path, model, "score", *columns(data), "--models", "exact,found",
                               "--format", "json")))
    sys_found = report["systems"][0]["found"]
    assert {k: sys_found[k] for k in ("gold", "system", "gold_found", "system_found")} == \
        {"gold": 3, "system": 4, "gold_found": 2, "system_found": 2}
    assert sys_found["f"] == pytest.approx(FOUND_F1) and report["systems"][1]["found"]["f"] == 1.0
    assert report["settings"]["models"] == ["exact", "found"]
    page = ok(run(tmp_path, model, "score", str(data), "--gold-col", "2", "--system-col", "4", "--models",
                  "exact,found"))
    assert "found" in page and f"{100 * FOUND_F1:.2f}" in page      # the summary's declared column
    overview = ok(run(tmp_path, model, "score", *columns(data), "--models", "exact,found"))
    assert f"{100 * FOUND_F1:.2f}   2" in overview                     # the first screen: its headline and rank
    assert "found counts spans that overlap at all" in overview


def test_a_toy_model_registered_outside_shows_in_rank(tmp_path, data):
    model = {"toy_model": TOY_MODEL}
    ranked = json.loads(ok(run(tmp_path, model, "rank", *columns(data), "--models",
                               "found-f1,exact-f1-micro", "--bootstrap", "20", "--permutations", "0", "--format",
                               "json")))
    assert "found-f1" in json.dumps(ranked["models"]) and f"{FOUND_F1!r}"[:12] in json.dumps(ranked)
    board = ok(run(tmp_path, model, "rank", *columns(data), "--models", "found-f1",
                   "--bootstrap", "20", "--permutations", "0"))
    assert "Found-F1" in board and f"{100 * FOUND_F1:.1f}" in board
    listed = ok(run(tmp_path, model, "rank", "--list-models"))
    assert "found-f1" in listed.splitlines()[-1]       # after every model of the package


def test_a_toy_model_registered_outside_shows_in_analyze(tmp_path, data):
    model = {"toy_model": TOY_MODEL}
    out = json.loads(ok(run(tmp_path, model, "analyze", *columns(data), "--models",
                            "found-f1,exact-f1-micro", "--attributes", "label,sentence_length", "--bootstrap", "10",
                            "--permutations", "0", "--no-errors", "--format", "json")))
    text = json.dumps(out)
    assert "found-f1" in text and f"{FOUND_F1!r}"[:12] in text
    labels: List[dict] = [a for a in out["attributes"] if a["name"] == "label"]
    per = {b["name"]: b["systems"]["sys"] for b in labels[0]["buckets"]}
    # a bucket of spans: PER holds gold PER (found) and the system's PER (not found): P 0, R 1 -> F 0
    assert per["PER"]["models"]["found-f1"]["score"] == 0.0
    assert per["ORG"]["counts"]["found"] == {"gold": 1, "system": 2, "gold_found": 1, "system_found": 2}


# ---------------------------------------------------------------------------
# a toy format: the data above, one file per side, in "tagged" and in columns

TOY = {"toy_format": TOY_FORMAT, "toy_model": TOY_MODEL}
SIDES = {"gold": 1, "same": 2, "sys": 3}        # the column of CONLL each side is


def side_lines(column: int) -> List[List[List[str]]]:
    """Per sentence of CONLL, its (token, tag) pairs in ``column``."""
    return [[[line.split()[0], line.split()[column]] for line in block.splitlines()]
            for block in CONLL.strip().split("\n\n")]


def tagged(column: int) -> str:
    return "".join(" ".join(f"{t}/{g}" for t, g in sentence) + "\n" for sentence in side_lines(column))


def conll(column: int) -> str:
    return "".join("".join(f"{t} {g}\n" for t, g in sentence) + "\n" for sentence in side_lines(column))


@pytest.fixture
def sides(tmp_path: Path) -> Path:
    """gold, sys and same, each as NAME.tagged and NAME.conll."""
    for name, column in SIDES.items():
        (tmp_path / f"{name}.tagged").write_text(tagged(column), encoding="utf-8")
        (tmp_path / f"{name}.conll").write_text(conll(column), encoding="utf-8")
    return tmp_path


def two_files(ext: str) -> List[str]:
    return ["--gold", f"gold.{ext}", f"sys.{ext}", f"same.{ext}"]


def comparable(out: dict) -> dict:
    """A JSON result without its timings, the files it names spelled as the column files'."""
    return json.loads(json.dumps({k: v for k, v in out.items() if k != "timings"}).replace(".tagged", ".conll"))


#: sys matches gold's ORG at G exactly and nothing else: P 1/4, R 1/3, F1 2/7
EXACT_F1 = 2 / 7


def test_the_toy_files_are_the_columns_data(sides):
    assert (sides / "sys.tagged").read_text() == "A/O B/B-ORG C/O D/O E/O F/B-MISC\nG/B-ORG H/O I/B-PER\n"
    assert (sides / "gold.conll").read_text().startswith("A B-PER\nB I-PER\nC O\n")


def test_a_toy_format_registered_outside_shows_in_score(sides):
    def report(*argv: str) -> dict:
        out = json.loads(ok(run(sides, TOY, "score", *argv, "--models", "exact,found", "--format", "json")))
        return {s["name"]: {"exact": s["exact"], "found": s["found"]} for s in out["systems"]}

    got = report(*two_files("tagged"))
    assert got["sys"]["exact"]["micro"]["f"] == pytest.approx(EXACT_F1)
    assert got["same"]["exact"]["micro"]["f"] == 1.0
    assert got["sys"]["found"]["f"] == pytest.approx(FOUND_F1)      # the toy model on the toy format
    assert got == report(*two_files("conll"))                          # the same data as columns
    assert got == report(*two_files("tagged"), "--input-format", "tagged")
    (sides / "gold.txt").write_text(tagged(1), encoding="utf-8")     # told by its content (its sniff)
    assert got == report("--gold", "gold.txt", "sys.tagged", "same.tagged")
    assert got == report("--gold", "gold.tagged", "sys.conll", "same.tagged")    # formats mixed
    assert "tagged" in ok(run(sides, TOY, "score", "--help"))        # offered by --input-format


def test_a_toy_format_reads_through_the_python_api_in_blocks_of_any_size(sides):
    code = ("import json, ts_eval\nfrom dataclasses import replace\n"
            "inputs = ts_eval.Inputs(gold='gold.tagged', systems=('sys.tagged', 'same.tagged'))\n"
            "out = [ts_eval.score(replace(inputs, block_bytes=size), models=('exact',)).to_dict()\n"
            "       for size in (None, 1, 20)]\n"
            "print(json.dumps([[s['exact']['micro']['f'] for s in o['systems']] for o in out]))\n")
    assert json.loads(ok(run(sides, TOY, code=code))) == [[pytest.approx(EXACT_F1), 1.0]] * 3


def test_a_toy_format_reports_its_errors_where_they_are(sides):
    (sides / "bad.tagged").write_text("A/O B/O C/O D/O E/O F/O\nG/O H I/O\n", encoding="utf-8")
    done = run(sides, TOY, "score", "--gold", "gold.tagged", "bad.tagged")
    assert done.returncode == 1 and "bad.tagged:2" in done.stderr and "'H': expected TOKEN/TAG" in done.stderr


def test_a_toy_format_registered_outside_shows_in_rank(sides):
    def board(ext: str) -> dict:
        ranked = json.loads(ok(run(sides, TOY, "rank", *two_files(ext), "--models", "exact-f1-micro,found-f1",
                                   "--bootstrap", "20", "--permutations", "0", "--format", "json")))
        return comparable(ranked)

    got = board("tagged")
    text = json.dumps(got)
    assert f"{EXACT_F1!r}"[:12] in text and f"{FOUND_F1!r}"[:12] in text
    assert got == board("conll")


def test_a_toy_format_registered_outside_shows_in_analyze(sides):
    def analysed(ext: str) -> dict:
        out = json.loads(ok(run(sides, TOY, "analyze", *two_files(ext), "--models", "exact-f1-micro",
                                "--attributes", "label", "--bootstrap", "10", "--permutations", "0", "--no-errors",
                                "--format", "json")))
        return comparable(out)

    got = analysed("tagged")
    per = {b["name"]: b["systems"]["sys"] for b in got["attributes"][0]["buckets"]}
    assert per["ORG"]["models"]["exact-f1-micro"]["score"] == pytest.approx(2 / 3)   # ORG at G of gold 1, sys 2
    assert got == analysed("conll")


def test_a_toy_format_registered_outside_converts_both_ways(sides):
    done = run(sides, TOY, "convert", "gold.tagged", "out.conll", "--verify")
    assert done.returncode == 0, done.stderr
    assert (sides / "out.conll").read_text() == conll(1) and "read back: the same spans" in done.stderr
    done = run(sides, TOY, "convert", "sys.conll", "out.tagged", "--verify")      # told by its name
    assert done.returncode == 0, done.stderr
    assert (sides / "out.tagged").read_text() == tagged(3) and "(tagged)" in done.stderr
    assert ok(run(sides, TOY, "convert", "gold.conll", "-", "--to", "tagged")) == tagged(1)
    assert ok(run(sides, TOY, "convert", "gold.tagged", "-", "--from", "tagged", "--to", "columns")) == conll(1)
