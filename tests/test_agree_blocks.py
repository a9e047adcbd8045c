"""``agree`` reads its inputs in blocks (issue 32): the same corpus cut into blocks down to one sentence
gives the report of the corpus read whole, byte for byte, in every input mode and format; a person's
formats keep only the rows they list."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import pytest
from streamed import blocks_of, run
from support import write

import ts_eval
from ts_eval.agreement.stream import exact_in_blocks

DEMO = Path(ts_eval.__file__).parent / "demo" / "germeval2014_test_sample.conll"


def _documents(text: str) -> str:
    """The demo's sentences in documents: some before the first -DOCSTART- line, a document of one sentence,
    an empty document (two -DOCSTART- lines in a row), then documents of 7 sentences."""
    sents = [s for s in text.strip("\n").split("\n\n") if s.strip()][:120]
    out: List[str] = []
    for k, s in enumerate(sents):
        if k in (3, 4) or (k > 4 and k % 7 == 0):
            out.append("-DOCSTART- O O O O O")
        if k == 4:
            out.append("-DOCSTART- O O O O O")
        out.append(s)
    return "\n\n".join(out) + "\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("agree_blocks")
    text = DEMO.read_text(encoding="utf-8")
    docs = write(folder / "docs.conll", _documents(text))
    rows = [line.split() for line in Path(docs).read_text(encoding="utf-8").split("\n")]
    per = {}
    for k, name in ((1, "anna"), (2, "bob"), (3, "cleo")):
        per[name] = write(folder / f"{name}.conll", "\n".join(" ".join([r[0], r[k]]) if r else "" for r in rows))
    jsonl = {}
    for name, path in per.items():
        out = folder / f"{name}.jsonl"
        assert run(["convert", path, str(out)])[0] == 0
        jsonl[name] = str(out)
    return {"demo": str(DEMO), "docs": docs, "per": per, "jsonl": jsonl}


def _same_in_blocks(argv: List[str], stdin: bytes = b"", sizes: tuple = (1, 700)) -> None:
    with blocks_of(None):
        whole = run(argv, stdin)
    assert whole[0] == 0, whole[2]
    for size in sizes:
        with blocks_of(size) as seen:
            got = run(argv, stdin)
        assert max(seen) > 1, f"agree read {argv} whole"          # (it reads blocks)
        assert got == whole, f"blocks of {size} bytes: {argv}"


FORMATS = ["table", "json", "csv", "html", "markdown"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_column_file_in_blocks_gives_the_report_read_whole(corpus, fmt):
    for path in (corpus["docs"], corpus["demo"]):          # with documents, and sentences alone
        _same_in_blocks(["agree", path, "--columns", "2", "3", "4", "--format", fmt, "--cases", "4"])


def test_one_input_per_annotator_in_blocks_gives_the_report_read_whole(corpus):
    per, jsonl = corpus["per"], corpus["jsonl"]
    _same_in_blocks(["agree", *per.values(), "--format", "json"])
    _same_in_blocks(["agree", *per.values(), "--details", "--cases", "3"])
    _same_in_blocks(["agree", *jsonl.values(), "--format", "json"])
    _same_in_blocks(["agree", jsonl["anna"], per["bob"], jsonl["cleo"], "--cases", "2"])


def test_standard_input_bootstrap_and_the_continuum_in_blocks(corpus):
    docs = Path(corpus["docs"]).read_bytes()
    _same_in_blocks(["agree", "-", "--columns", "2", "3", "4", "--format", "json"], docs)
    _same_in_blocks(["agree", corpus["docs"], "--columns", "2", "3", "4", "--bootstrap", "30", "--seed", "3",
                     "--format", "json"])
    _same_in_blocks(["agree", corpus["demo"], "--columns", "2", "3", "4", "--bootstrap", "20", "--format", "csv"])
    _same_in_blocks(["agree", corpus["docs"], "--columns", "2", "3", "4", "--continuum", "characters"])
    _same_in_blocks(["agree", corpus["docs"], "--columns", "2", "4", "--separator-weight", "0.5", "--format",
                     "json"])


def test_what_is_read_whole_stays_as_it_was(corpus):
    """Sums that depend on their order (four annotators: 1/3; a weight of 0.3) and --majority read whole."""
    assert exact_in_blocks(3, 1.0) and exact_in_blocks(5, 0.25) and exact_in_blocks(2, 0.0)
    assert not exact_in_blocks(4, 1.0) and not exact_in_blocks(3, 0.3)
    with blocks_of(1) as seen:
        rc, _, err = run(["agree", corpus["docs"], "--columns", "2", "3", "4", "--separator-weight", "0.3"])
    assert rc == 0 and seen == [1], err


def test_a_persons_format_keeps_the_rows_it_lists(corpus):
    from ts_eval.agreement.inputs import annotation_blocks
    from ts_eval.agreement.stream import agreement_of_blocks
    from ts_eval.io.inputs import Inputs

    def report(keep: Optional[int]) -> ts_eval.agreement.results.Agreement:
        read = Inputs.given(file=corpus["docs"], gold_column=2, system_columns=(3, 4), block_bytes=300)
        return agreement_of_blocks(annotation_blocks(read), keep=keep)

    every, few = report(None), report(3)
    d = every.disagreements
    assert len(few.documents) == 3 and few.documents == every.documents[:3]
    assert few.disagreements["items"] == d["items"][:3] and few.disagreements["groups"] == d["groups"][:3]
    assert few.listed == {"documents": len(every.documents), "groups": len(d["groups"]), "items": len(d["items"])}
    assert few.total("documents") == every.total("documents") == len(every.documents) == 20
    assert few.figures == every.figures and few.pairs == every.pairs and few.labels == every.labels


def test_jobs_is_accepted_and_gives_the_same_report(corpus):
    argv = ["agree", corpus["docs"], "--columns", "2", "3", "4", "--format", "json"]
    one = run(argv)
    assert one[0] == 0 and run([*argv, "--jobs", "2"]) == one
    rc, _, err = run([*argv, "--jobs", "0"])
    assert rc == 2 and "--jobs" in err and "processes >= 1" in err


def test_blocks_give_what_the_python_function_gives_for_the_corpus_read_whole(corpus):
    """The other road: :func:`ts_eval.agreement.study.agreement` over the annotations read whole (every figure,
    the bootstrap's intervals and every row)."""
    from ts_eval.agreement.inputs import annotation_blocks, annotations_of
    from ts_eval.agreement.stream import agreement_of_blocks
    from ts_eval.agreement.study import agreement
    from ts_eval.io.inputs import Inputs

    for path in (corpus["docs"], corpus["demo"]):
        read = Inputs.given(file=path, gold_column=2, system_columns=(3, 4), block_bytes=500)
        whole = agreement(annotations_of(read), bootstrap=25, seed=2).to_dict()
        assert agreement_of_blocks(annotation_blocks(read), bootstrap=25, seed=2).to_dict() == whole


@pytest.mark.parametrize("pending", [1, 3, 10 ** 6])
def test_documents_rows_made_in_steps_of_any_size(corpus, monkeypatch, pending):
    """The documents' rows are made a few blocks at a time (:data:`ts_eval.agreement.units.PENDING`): any
    number at a time gives the rows of the corpus read whole, blocks of 1 MiB, or of one sentence, with
    every document in blocks summed per document (two in a block)."""
    from ts_eval.agreement import units
    from ts_eval.agreement.inputs import annotation_blocks, annotations_of
    from ts_eval.agreement.stream import agreement_of_blocks
    from ts_eval.agreement.study import agreement
    from ts_eval.io.inputs import Inputs

    monkeypatch.setattr(units, "PENDING", pending)
    read = Inputs.given(file=corpus["docs"], gold_column=2, system_columns=(3, 4), block_bytes=500)
    whole = agreement(annotations_of(read), bootstrap=25, seed=2).to_dict()
    for size in (1, 500, 1 << 20):
        read = Inputs.given(file=corpus["docs"], gold_column=2, system_columns=(3, 4), block_bytes=size)
        assert agreement_of_blocks(annotation_blocks(read), bootstrap=25, seed=2).to_dict() == whole
