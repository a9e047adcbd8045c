"""The error analysis fed the blocks a reader gives (issue 32): each block a corpus of its own (its own sorted
labels, numbered from 0, its own documents and token texts), down to one sentence a block, gives the analysis of
the corpus read whole, byte for byte (``to_dict()``), with nothing of the blocks kept but what
:mod:`ts_eval.analysis.errors_kept` says."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import iob2, random_spans

from ts_eval.analysis.errors import error_analysis, error_counts, error_result
from ts_eval.analysis.errors_kept import Lines, line_runs
from ts_eval.io.inputs import Inputs

#: block sizes in bytes: 1 makes every sentence a block
SIZES = (1, 40, 200, 1 << 20)


def _write(tmp: Path, name: str, rows: Sequence[str]) -> str:
    path = tmp / name
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def _inputs(path: str, n_systems: int, block_bytes: Optional[int] = None) -> Inputs:
    return Inputs(file=path, gold_column=2, system_columns=tuple(range(3, 3 + n_systems)),
                  block_bytes=block_bytes if block_bytes is not None else 1 << 22)


def _streamed(path: str, n_systems: int, block_bytes: int, **options):
    blocks = _inputs(path, n_systems, block_bytes).read("analyze")
    first = next(blocks)
    counts = error_counts(first, **options)
    counts.add(first)
    for block in blocks:
        counts.add(block)
    return error_result(counts)


def _json(a) -> str:
    return json.dumps(a.to_dict(), sort_keys=True, default=str)


def _same(path: str, n_systems: int, **options) -> dict:
    """The analysis of the corpus read whole, checked to be that of its blocks at every size; its dict."""
    whole = error_analysis(_inputs(path, n_systems).corpus(), **options)
    for size in SIZES:
        assert _json(_streamed(path, n_systems, size, **options)) == _json(whole), size
    return whole.to_dict()


def test_a_later_block_brings_a_label_that_sorts_first(tmp_path):
    """The first sentences have PER and ORG only; a later one brings AAA (gold) and a system's BBB: the matrices,
    lists and ties are over the sorted union, as the corpus read whole gives them."""
    rows = ["Bob B-PER B-PER B-ORG", "Lee I-PER I-PER I-ORG", "ran O O O", "",
            "Acme B-ORG B-ORG B-PER", "won O B-ORG O", "",
            "Zed B-AAA B-BBB B-AAA", "and O O O", "Zed B-AAA B-AAA B-BBB", "",
            "Bob B-PER B-AAA B-PER", ""]
    path = _write(tmp_path, "labels.conll", rows)
    blocks = list(_inputs(path, 2, 1).read("analyze"))
    assert blocks[0].labels == ["ORG", "PER"] and blocks[2].labels == ["AAA", "BBB"]
    got = _same(path, 2, top=None, min_agree=1)
    assert got["corpus"]["labels"] == ["AAA", "BBB", "ORG", "PER"]
    matrix = got["systems"][0]["matching"]["exact"]["confusion"]
    assert list(matrix) == ["AAA", "BBB", "ORG", "PER", "spurious"]
    assert matrix["AAA"] == {"AAA": 1, "BBB": 1, "ORG": 0, "PER": 0, "missed": 0}
    assert matrix["PER"] == {"AAA": 1, "BBB": 0, "ORG": 0, "PER": 1, "missed": 0}
    _same(path, 2, top=2, min_agree=1)


def test_documents_before_and_after_the_first_docstart(tmp_path):
    """Sentences before the first -DOCSTART- are one document (found only when a later block has one), a document
    runs on over several blocks, and every document's scores are those of the corpus read whole."""
    rows = ["a B-PER B-PER O", "", "b O O O", "",
            "-DOCSTART- O O O", "", "c B-LOC B-LOC B-LOC", "", "d B-LOC O B-LOC", "", "e O O O", "",
            "-DOCSTART- O O O", "", "f B-ORG B-PER B-ORG", ""]
    path = _write(tmp_path, "docs.conll", rows)
    got = _same(path, 2, top=None, min_agree=1)
    docs = got["documents"]
    assert [(d["sentence"], d["sentences"], d["gold"]) for d in docs] == [(0, 2, 1), (2, 3, 2), (5, 1, 1)]
    assert [d["line"] for d in docs] == [1, 7, 15]
    assert docs[1]["systems"]["col3"]["exact"]["tp"] == 1 and docs[1]["systems"]["col4"]["exact"]["tp"] == 2
    no_docs = _write(tmp_path, "nodocs.conll", [r for r in rows if not r.startswith("-DOCSTART-")])
    assert [d["sentences"] for d in _same(no_docs, 2, top=None, min_agree=1)["documents"]] == [1] * 6


def test_several_systems_find_gold_suspects(tmp_path):
    """Four systems agree against gold (a label, a boundary, a missed and an added span) in different blocks:
    the suspects, their ranking (ties by position) and examples, cut to ``top`` or not."""
    rows = ["Paris B-PER B-LOC B-LOC B-LOC B-PER", "is O O O O O", "", "New B-LOC B-LOC B-LOC B-LOC O",
            "York O I-LOC I-LOC I-LOC O", "", "Acme B-ORG O O O B-ORG", "", "the O B-MISC B-MISC B-MISC O", "",
            "Paris B-PER B-LOC B-LOC B-LOC B-LOC", ""]
    path = _write(tmp_path, "suspects.conll", rows)
    got = _same(path, 4, top=None)
    assert got["suspects"]["min_agree"] == 3 and got["suspects"]["count"] == 5
    assert [(s["type"], s["agreeing"]) for s in got["suspects"]["spans"]] == [
        ("LE", 4), ("BE", 3), ("LE", 3), ("FP", 3), ("FN", 3)]     # then fewest confirming, then position
    for top in (1, 2, 3):
        assert _same(path, 4, top=top)["suspects"]["spans"] == got["suspects"]["spans"][:top]


def test_unannotated_occurrences_before_and_after_the_gold_span(tmp_path):
    """"in Paris ." is unannotated in the first and the last sentence and a gold span in the middle one; "Acme
    won" is a gold span first and unannotated later; "Bob" is labelled inconsistently: every occurrence is found
    whichever block it is in."""
    rows = ["in O O", "Paris O O", ".", "",
            "Acme B-ORG B-ORG", "won O O", "", "Bob B-PER B-PER", "", "in O O", "Paris B-LOC B-LOC", ". O O", "",
            "Bob B-ORG B-ORG", "", "Acme O O", "won O O", "", "in O O", "Paris O O", ". O O", ""]
    rows[2] = ". O O"
    path = _write(tmp_path, "unannotated.conll", rows)
    got = _same(path, 1, top=None, min_agree=1)
    found = {x["text"]: (x["annotated"], x["deviating"], x["example"]["sentence"], x["reference"]["sentence"])
             for x in got["inconsistent"]["unannotated"]["strings"]}
    assert found == {"Paris": (1, 2, 0, 3), "Acme": (1, 1, 5, 1)}
    labels = got["inconsistent"]["label"]["strings"]
    assert [(x["text"], x["labels"]) for x in labels] == [("Bob", {"ORG": 1, "PER": 1})]
    _same(path, 1, top=1, min_agree=1)


def test_the_kept_lines_give_every_tokens_line_back():
    lines = np.array([3, 4, 5, 7, 8, 12, 13, 14], np.int64)
    first, shift = line_runs(lines, 100)
    assert first.tolist() == [100, 103, 105]
    kept = Lines(first, shift)
    assert [kept[100 + t] for t in range(len(lines))] == lines.tolist()


WORDS = ["Paris", "paris", "Acme", "the", "of", "Bob", "Lee", "New", "York", "Zed"]
LABELS = ["PER", "LOC", "ORG", "AAA", "ZZZ"]


def _random_file(tmp: Path, seed: int, sentences: int, systems: int) -> str:
    """Sentences of a few documents (maybe none before the first -DOCSTART-), whose labels come in over the file
    (a later sentence may bring one that sorts first): systems copy gold or agree elsewhere, so that suspects,
    shared errors, unannotated strings and ties occur."""
    rng = np.random.default_rng(seed)
    lines: List[str] = []
    for s in range(sentences):
        if rng.random() < 0.2:
            lines += ["-DOCSTART- O" + " O" * systems, ""]
        labels = LABELS[:1 + min(len(LABELS) - 1, s // 3)]
        n = int(rng.integers(1, 8))
        toks = [WORDS[int(k)] for k in rng.integers(0, len(WORDS), n)]
        gold, shared = (iob2(n, random_spans(rng, n, labels, False)) for _ in range(2))
        cols = [gold if rng.random() < 0.5 else (shared if rng.random() < 0.7 else
                                                  iob2(n, random_spans(rng, n, labels, False)))
                for _ in range(systems)]
        lines += [" ".join([toks[i], gold[i]] + [c[i] for c in cols]) for i in range(n)] + [""]
    return _write(tmp, f"random{seed}.conll", lines)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10 ** 6), st.integers(1, 30), st.sampled_from([1, 30, 120]), st.sampled_from([1, 3, None]),
       st.sampled_from([2, 4]))
def test_random_corpora_in_reader_blocks_give_the_analysis_of_the_whole(tmp_path, seed, sentences, size, top,
                                                                        systems):
    path = _random_file(tmp_path, seed, sentences, systems)
    options = dict(top=top, min_agree=2)
    whole = error_analysis(_inputs(path, systems).corpus(), **options)
    assert _json(_streamed(path, systems, size, **options)) == _json(whole)


def test_blocks_out_of_order_are_refused(tmp_path):
    path = _write(tmp_path, "two.conll", ["a B-PER B-PER", "", "b O O", ""])
    blocks = list(_inputs(path, 1, 1).read("analyze"))
    counts = error_counts(blocks[0], min_agree=1)
    counts.add(blocks[0])
    with pytest.raises(ValueError, match="first_token 0: expected 1"):
        counts.add(blocks[1], first_token=0)


def _counted(path: str):
    """The error counts of a two-system file's blocks of one sentence each."""
    blocks = _inputs(path, 2, 1).read("analyze")
    first = next(blocks)
    counts = error_counts(first, min_agree=1)
    counts.add(first)
    for block in blocks:
        counts.add(block)
    return counts


def test_the_kept_corpus_reads_the_kept_token_numbers(tmp_path):
    """What the end reads keeps the spans' token numbers as kept (int32 while they fit), not int64 copies of them,
    and gives the spans of the corpus read whole."""
    path = _write(tmp_path, "two.conll", ["Bob B-PER B-PER O", "Lee I-PER B-ORG O", "", "b O O B-LOC", ""])
    corpus, _, _ = _counted(path).kept.corpus()
    whole = _inputs(path, 2).corpus()
    for mine, want in [(corpus.gold, whole.gold)] + [(corpus.systems[n], whole.systems[n]) for n in whole.systems]:
        assert mine.start.dtype == mine.last.dtype == np.int32
        assert [mine.start.tolist(), mine.last.tolist(), [corpus.labels[j] for j in mine.label.tolist()]] == \
            [want.start.tolist(), want.last.tolist(), [whole.labels[j] for j in want.label.tolist()]]


def test_what_is_kept_takes_the_fewest_bytes(tmp_path):
    """Between the blocks a token's text number takes 2 bytes (few distinct texts), a span 6 (its first token, its
    length in one byte, its label in one), and a system whose lines are gold's keeps no lines of its own; the end
    gets back every token's text and every span and line exactly."""
    rows = ["Bob B-PER B-PER O", "Lee I-PER B-ORG O", "", "b O O B-LOC", "c B-LOC I-LOC I-LOC", ""]
    path = _write(tmp_path, "two.conll", rows)
    kept = _counted(path).kept
    assert {c.dtype for c in kept._codes} == {np.dtype(np.uint8)}
    for parts in kept._spans.values():
        assert [(s.dtype, n.dtype, lab.dtype) for s, n, lab in parts] == [(np.int32, np.uint8, np.int8)] * 2
    assert all(r == "gold" for side, runs in kept._runs.items() if side is not None for r in runs)
    corpus, tokens, _ = kept.corpus()
    whole = _inputs(path, 2).corpus()
    assert tokens is not None and list(tokens) == ["Bob", "Lee", "b", "c"]
    for mine, want in [(corpus.gold, whole.gold)] + [(corpus.systems[n], whole.systems[n]) for n in whole.systems]:
        assert [mine.start.tolist(), mine.last.tolist(), [corpus.labels[j] for j in mine.label.tolist()]] == \
            [want.start.tolist(), want.last.tolist(), [whole.labels[j] for j in want.label.tolist()]]
    for name in [None, *whole.systems]:
        info = corpus.gold_info if name is None else corpus.system_info[name]
        assert [info.where(t)[1] for t in range(4)] == [1, 2, 4, 5]
