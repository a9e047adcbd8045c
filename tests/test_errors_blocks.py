"""The error analysis counted a block of sentences at a time (issue 32): blocks down to one sentence give the
report of the corpus counted whole, in every format, with ties in the ranked lists broken as before."""
from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import List

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pages import DEMO_SYSTEMS, demo_corpus

from ts_eval.analysis import corpus_blocks, errors_suspects
from ts_eval.analysis import errors as errors_module
from ts_eval.analysis.errors import error_analysis
from ts_eval.analysis.errors_blocks import ErrorCounts
from ts_eval.io import read_conll
from ts_eval.output.builders import build
from ts_eval.output.renderers import render

WORDS = ["Paris", "paris", "Acme", "the", "of", "Bob", "Lee", "New", "York"]
LABELS = ["PER", "LOC", "ORG"]


def _tags(rng: random.Random, n: int) -> List[str]:
    out: List[str] = []
    while len(out) < n:
        if rng.random() < 0.45:
            lab = rng.choice(LABELS)
            k = min(n - len(out), rng.randint(1, 3))
            out += [f"B-{lab}"] + [f"I-{lab}"] * (k - 1)
        else:
            out.append("O")
    return out


def _file(seed: int, sentences: int, systems: int = 4) -> Path:
    """A column file (token, gold, ``systems`` systems) of a few documents, made from ``seed``: systems copy
    gold in most sentences and alike elsewhere, so that suspects, shared errors and ties occur."""
    rng = random.Random(seed)
    lines: List[str] = []
    for s in range(sentences):
        if s == 0 or rng.random() < 0.25:
            lines += ["-DOCSTART- O" + " O" * systems, ""]
        n = rng.randint(1, 7)
        toks = [rng.choice(WORDS) for _ in range(n)]
        gold = _tags(rng, n)
        shared = _tags(rng, n)
        cols = [gold if rng.random() < 0.5 else (shared if rng.random() < 0.7 else _tags(rng, n))
                for _ in range(systems)]
        lines += [" ".join([toks[i], gold[i]] + [c[i] for c in cols]) for i in range(n)] + [""]
    path = Path(tempfile.mkdtemp()) / f"blocks{seed}.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _analysis(corpus, monkeypatch, block_tokens: int, cut: bool = True, **options):
    with monkeypatch.context() as m:
        m.setattr(corpus_blocks, "BLOCK_TOKENS", block_tokens)
        m.setattr(errors_suspects, "UNANNOTATED_TOKENS", block_tokens if cut else 1 << 40)
        if not cut:
            m.setattr(errors_module, "can_cut", lambda *a: False)
        return error_analysis(corpus, **options)


def _json(a) -> str:
    return json.dumps(a.to_dict(), sort_keys=True, default=str)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10 ** 6), st.integers(1, 25), st.integers(1, 12), st.sampled_from([1, 2, 3, None]),
       st.sampled_from([None, 2, 3]))
def test_blocks_down_to_one_sentence_give_the_analysis_of_the_whole_corpus(monkeypatch, seed, sentences,
                                                                           block_tokens, top, min_agree):
    """Every list (its order, counts, first occurrences and examples), every confusion matrix, every
    document's scores, every suspect and every string gold leaves unannotated: the same whether the corpus
    is one block or blocks of at least ``block_tokens`` tokens (1: each sentence a block)."""
    corpus = read_conll(str(_file(seed, sentences)), gold_column=2, system_columns=[3, 4, 5, 6],
                        names=["w", "x", "y", "z"])
    assert corpus_blocks.can_cut(corpus, list(corpus.systems), [""])
    options = dict(top=top, min_agree=min_agree)
    whole = _analysis(corpus, monkeypatch, 1, cut=False, **options)
    assert _json(_analysis(corpus, monkeypatch, block_tokens, **options)) == _json(whole)


def test_the_demo_corpus_in_one_sentence_blocks_gives_every_format_unchanged(monkeypatch):
    """The demo corpus (texts, lines, documents, many ties among the error groups): JSON, table, Markdown,
    LaTeX, CSV and HTML of the analysis in one-sentence blocks are those of the corpus counted whole."""
    corpus = demo_corpus()
    whole = _analysis(corpus, monkeypatch, 1, cut=False, top=5)
    blocks = _analysis(corpus, monkeypatch, 1, top=5)
    assert len(list(corpus_blocks.sentence_blocks(corpus, list(DEMO_SYSTEMS), True, 1))) == corpus.n_sentences > 1
    assert _json(blocks) == _json(whole)
    for fmt in ("table", "markdown", "latex", "csv", "html"):
        assert render(build(blocks), fmt) == render(build(whole), fmt), fmt


def test_a_later_block_never_moves_a_groups_first_occurrence():
    """Two one-sentence blocks with the same error: one group of count 2 whose example is the first block's
    (the pooled rep is the earliest token, then the system whose name sorts first)."""
    corpus = read_conll(str(_file(7, 2, systems=2)), gold_column=2, system_columns=[3, 4], names=["b", "a"])
    counts = ErrorCounts(["b", "a"], corpus.labels, agree=2, top=None)
    for block in corpus_blocks.sentence_blocks(corpus, ["b", "a"], True, 1):
        t0 = int(corpus.sent_offsets[block.first_sentence])
        counts.add(block.corpus, first_sentence=block.first_sentence, first_token=t0, first_span=block.first_span,
                   documents=[block.first_sentence])
    whole = error_analysis(corpus, top=None, min_agree=2)
    for k in range(2):
        kept, distinct = counts.ranked_groups(k)
        assert distinct == whole.systems[k].distinct
        assert [v[0] for _, v in kept] == [e.count for e in whole.systems[k].errors]


@pytest.mark.parametrize("top", [1, 4])
def test_the_suspects_kept_are_the_first_top_of_the_whole_ranking(monkeypatch, top):
    corpus = read_conll(str(_file(3, 40)), gold_column=2, system_columns=[3, 4, 5, 6], names=["w", "x", "y", "z"])
    every = _analysis(corpus, monkeypatch, 1, cut=False, top=None, min_agree=2).suspects
    cut = _analysis(corpus, monkeypatch, 1, top=top, min_agree=2).suspects
    assert every.total == cut.total > top
    assert [s.to_dict() for s in cut.suspects] == [s.to_dict() for s in every.suspects[:top]]


def test_unannotated_strings_are_found_across_pieces(monkeypatch):
    """A string that is a gold span in the last sentence and unannotated in the first (in the same context) is
    found when every sentence is read on its own: the gold keys are all known before the windows are looked at."""
    path = Path(tempfile.mkdtemp()) / "u.conll"
    path.write_text("the O O O O\nParis O O O O\nof O O O O\n\nthe O O O O\nParis O O O O\nof O O O O\n\n"
                    "the O O O O\nParis B-LOC B-LOC B-LOC B-LOC\nof O O O O\n", encoding="utf-8")
    corpus = read_conll(str(path), gold_column=2, system_columns=[3, 4, 5], names=["x", "y", "z"])
    whole = _analysis(corpus, monkeypatch, 1, cut=False)
    found = whole.suspects.unannotated
    assert whole.suspects.unannotated_total == 1 and found[0].text == "Paris" and found[0].deviating == 2
    assert _json(_analysis(corpus, monkeypatch, 1)) == _json(whole)


def test_lower_cased_token_ids_take_four_bytes_a_token():
    """The unannotated strings' token codes: 4 bytes a token (the only token-sized array the search keeps
    for the whole corpus), the same ids as before."""
    from ts_eval.analysis.errors_text import Texts

    corpus = read_conll(str(_file(5, 30)), gold_column=2, system_columns=[3, 4, 5, 6], names=["w", "x", "y", "z"])
    codes = Texts(corpus).lower_ids()
    toks = corpus.tokens(0, corpus.n_tokens)
    index: dict = {}
    assert codes.dtype == np.int32
    assert codes.tolist() == [index.setdefault(t.lower(), len(index)) for t in toks]


def test_the_documents_rows_are_kept_as_one_array_a_block():
    """Every document's counts and statistics are rows of one array per block (no Python object a document: a
    corpus without -DOCSTART- has a document a sentence); a document that runs on into the next block adds up,
    and the scores are those of the corpus counted whole."""
    corpus = read_conll(str(_file(3, 40, systems=2)), gold_column=2, system_columns=[3, 4], names=["b", "a"])
    documents = errors_module.sentence_documents(corpus)
    counts = ErrorCounts(["b", "a"], corpus.labels, agree=2, top=None)
    blocks = list(corpus_blocks.sentence_blocks(corpus, ["b", "a"], True, 12))
    for block in blocks:
        t0 = int(corpus.sent_offsets[block.first_sentence])
        counts.add(block.corpus, first_sentence=block.first_sentence, first_token=t0, first_span=block.first_span,
                   documents=documents[block.first_sentence:block.first_sentence + block.corpus.n_sentences])
    for store in [counts.doc_rows] + counts.exact + counts.ts:
        assert len(store) <= len(blocks) and all(isinstance(x, np.ndarray) and x.ndim == 2 for x in store)
    assert sum(len(x) for x in counts.doc_rows) == documents.max() + 1 < len(blocks)
    whole = error_analysis(corpus, top=None, min_agree=2).documents
    mine = counts.documents(whole.unit)
    assert json.dumps(mine.to_dict(), sort_keys=True) == json.dumps(whole.to_dict(), sort_keys=True)


def test_a_blocks_matches_are_freed_with_the_block_and_groups_keep_no_list_a_group(monkeypatch):
    """No block's corpus data (its matcher's pairs and statistics) waits for the cycle collector once the block
    is counted, and a group is a row of numbers (its key maps to the row), with the counts the lists had."""
    import gc

    from ts_eval.models.context import CorpusData

    corpus = read_conll(str(_file(5, 30, systems=2)), gold_column=2, system_columns=[3, 4], names=["b", "a"])
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        result = _analysis(corpus, monkeypatch, 5, top=None, min_agree=2)
        assert not [x for x in gc.get_objects() if isinstance(x, CorpusData)]
    finally:
        if was:
            gc.enable()
    counts = ErrorCounts(["b", "a"], corpus.labels, agree=2, top=None)
    documents = errors_module.sentence_documents(corpus)
    for block in corpus_blocks.sentence_blocks(corpus, ["b", "a"], True, 5):
        t0 = int(corpus.sent_offsets[block.first_sentence])
        counts.add(block.corpus, first_sentence=block.first_sentence, first_token=t0, first_span=block.first_span,
                   documents=documents[block.first_sentence:block.first_sentence + block.corpus.n_sentences])
    for table in counts.groups + [counts.pooled]:     # kept as arrays: no Python object a group
        keys, values = table.rows()
        assert keys.dtype == values.dtype == np.int32 and len(keys) == len(values) == len(table)    # 4 bytes each
    kept, distinct = counts.ranked_groups(None)
    assert distinct == result.pooled.distinct
    assert [(v[0], len(v[6])) for _, v in kept] == [(e.count, e.by_systems) for e in result.pooled.errors]


def _unannotated_by_hand(corpus):
    """The unannotated strings counted one window at a time: per gold span its context (the lower-cased token
    before, -1 at a sentence start; its tokens; the one after, -2 at a sentence end); every window of as many
    tokens within a sentence, touching no gold token, in the same context; ranked by unannotated windows, gold
    spans, first window, then the string's length (the order they are first met)."""
    toks = [t.lower() for t in corpus.tokens(0, corpus.n_tokens)]
    offsets = corpus.sent_offsets.tolist()
    sentence = np.searchsorted(corpus.sent_offsets, np.arange(corpus.n_tokens), side="right") - 1
    gold = corpus.gold
    covered = np.zeros(corpus.n_tokens, bool)
    for a, b in zip(gold.start.tolist(), gold.last.tolist()):
        covered[a:b + 1] = True

    def context(a, b):
        s = int(sentence[a])
        return (toks[a - 1] if a > offsets[s] else -1, *toks[a:b + 1], toks[b + 1] if b + 1 < offsets[s + 1] else -2)

    spans: dict = {}
    for i, (a, b) in enumerate(zip(gold.start.tolist(), gold.last.tolist())):
        spans.setdefault(context(a, b), []).append(i)
    rows = []
    for ctx, ids in spans.items():
        m = len(ctx) - 2
        starts = [a for a in range(corpus.n_tokens - m + 1) if sentence[a] == sentence[a + m - 1]
                  and not covered[a:a + m].any() and context(a, a + m - 1) == ctx]
        if starts:
            rows.append((-len(starts), -len(ids), starts[0], m, len(ids), len(starts)))
    rows.sort()
    return [(r[2], r[3], r[4], r[5]) for r in rows]


@pytest.mark.parametrize("seed", range(8))
def test_unannotated_strings_and_their_order_are_those_counted_by_hand(monkeypatch, seed):
    """Found in pieces down to one sentence, with ties of count and first window (strings of other lengths)."""
    corpus = read_conll(str(_file(seed, 60)), gold_column=2, system_columns=[3, 4, 5, 6], names=["w", "x", "y", "z"])
    want = _unannotated_by_hand(corpus)
    for block_tokens in (1, 10 ** 9):
        s = _analysis(corpus, monkeypatch, block_tokens, top=None, min_agree=2).suspects
        assert s.unannotated_total == len(want)
        got = [(x.annotated, x.deviating) for x in s.unannotated]
        assert got == [(w[2], w[3]) for w in want]
        assert [len(x.text.split()) for x in s.unannotated] == [w[1] for w in want]


def test_unannotated_strings_that_tie_are_in_the_order_of_their_length(monkeypatch):
    """"New" and "New York" are both unannotated once, first at the same token, each a gold span once: the
    shorter first, as counted by hand."""
    path = Path(tempfile.mkdtemp()) / "tie.conll"
    path.write_text("the O O O\nNew B-LOC O O\nYork O O O\nis O O O\n\nthe O O O\nNew B-LOC O O\nYork I-LOC O O\n"
                    "is O O O\n\nthe O O O\nNew O O O\nYork O O O\nis O O O\n", encoding="utf-8")
    corpus = read_conll(str(path), gold_column=2, system_columns=[3, 4], names=["x", "y"])
    assert _unannotated_by_hand(corpus) == [(9, 1, 1, 1), (9, 2, 1, 1)]
    for block_tokens in (1, 10 ** 9):
        s = _analysis(corpus, monkeypatch, block_tokens, top=None, min_agree=2).suspects
        assert [x.text for x in s.unannotated] == ["New", "New York"]
