"""``analyze``'s attribute values are read a block of sentences at a time (issue 32): the blocks the reader
gives, down to one sentence each, give every built-in attribute's buckets and the bucket of every span and
sentence that the corpus read whole gives."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import pytest

from ts_eval.analysis import attributes as at
from ts_eval.analysis import corpus_blocks
from ts_eval.analysis.attribute_values import AttributeValues, code_type
from ts_eval.analysis.buckets import equal_frequency, parse_bucket_spec
from ts_eval.analysis.study_inputs import chosen_attributes
from ts_eval.core.corpus import Corpus
from ts_eval.io.inputs import Inputs

WORDS = ["Paris", "paris", "PARIS", "de", "Gaulle", "McDonald", "ÉCOLE", "1999", "-", "New", "York", "the", "a"]
LABELS = ["PER", "ORG", "LOC", "MISC"]


def _tags(rng: random.Random, n: int, labels: Sequence[str]) -> List[str]:
    out: List[str] = []
    while len(out) < n:
        if rng.random() < 0.45:
            lab, k = rng.choice(labels), rng.randint(1, 3)
            out += [f"B-{lab}"] + [f"I-{lab}"] * (k - 1)
        else:
            out.append("O")
    return out[:n]


def _write(path: Path, seed: int, sentences: int, documents: bool = False) -> Path:
    """A column file (token, gold, two systems) whose last sentence brings the label AAA, which sorts first."""
    rng = random.Random(seed)
    lines: List[str] = []
    for s in range(sentences):
        if documents and s % 3 == 0:
            lines += ["-DOCSTART- O O O", ""]
        n = rng.randint(1, 7)
        labels = ["AAA"] if s == sentences - 1 else LABELS
        cols = [_tags(rng, n, labels) for _ in range(3)]
        lines += [" ".join([rng.choice(WORDS), *(c[i] for c in cols)]) for i in range(n)] + [""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _read(path: Path, block_bytes: Optional[int]) -> List[Corpus]:
    return list(Inputs(file=str(path), gold_column=2, system_columns=[3, 4], block_bytes=block_bytes).read("analyze"))


def _training(seed: int) -> at.Training:
    rng = random.Random(seed)
    toks = [rng.choice(WORDS) for _ in range(60)]
    spans = sorted({(a, min(59, a + rng.randint(0, 2))) for a in rng.sample(range(0, 60, 3), 12)})
    return at.training_from(toks, np.array([a for a, _ in spans]), np.array([b for _, b in spans]),
                            np.array([rng.randrange(2) for _ in spans]), ["LOC", "PER"], sentences=4)


def _span_sentence(corpus: Corpus) -> np.ndarray:
    return np.concatenate([corpus.sentence_of(s.start) for s in [corpus.gold, *corpus.systems.values()]])


def _fed(blocks: Sequence[Corpus], attrs: List[at.Attribute], spec: Any,
         span_sentence: np.ndarray) -> List[Tuple[Any, ...]]:
    values = AttributeValues(attrs, list(blocks[0].systems), spec)
    for block in blocks:
        values.add(block)
    return [values.assigned(k, span_sentence) for k in range(len(attrs))]


def _same(a: List[Tuple[Any, ...]], b: List[Tuple[Any, ...]], attrs: List[at.Attribute]) -> None:
    for attr, (bk, spans, sentences), (bk2, spans2, sentences2) in zip(attrs, a, b):
        assert bk.to_dict() == bk2.to_dict(), attr.name
        for f in ("closed", "underflow", "values", "missing"):
            assert getattr(bk, f) == getattr(bk2, f), (attr.name, f)
        assert (bk.cuts is None) == (bk2.cuts is None) and (bk.cuts is None or bk.cuts.tolist() == bk2.cuts.tolist())
        assert spans.dtype == spans2.dtype == np.int64 and spans.tolist() == spans2.tolist(), attr.name
        assert (sentences is None) == (sentences2 is None), attr.name
        assert sentences is None or sentences.tolist() == sentences2.tolist(), attr.name


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("documents", [False, True])
@pytest.mark.parametrize("extra", ["none", "train", "vocab"])
def test_every_attribute_read_in_blocks_is_the_attribute_read_whole(tmp_path, monkeypatch, seed, documents, extra):
    """Blocks of one sentence (one document), of a few hundred bytes and the corpus whole, fed to the
    accumulator, and the corpus read whole cut into blocks of sentences (``analyze_corpus``'s road), all give
    the same buckets and bucket of every span and sentence, for every built-in attribute (with training data,
    with a vocabulary) and the document slice."""
    path = _write(tmp_path / "c.conll", seed, 23, documents)
    whole = _read(path, None)
    assert len(whole) == 1
    corpus = whole[0]
    names = list(corpus.systems)
    training = _training(seed) if extra == "train" else None
    vocab = frozenset(WORDS[::2]) if extra == "vocab" else None
    spec = parse_bucket_spec(["3"])
    attrs, _ = chosen_attributes(corpus, names, training, vocab, True, spec, ["document"] if documents else [],
                                 None, None)
    wanted = {"length", "chars", "label", "shape", "position", "sentence_length", "entity_density"}
    wanted |= {"train_frequency", "label_consistency", "seen", "oov_density"} if extra == "train" else set()
    wanted |= {"oov_density"} if extra == "vocab" else set()
    wanted |= {"document"} if documents else set()
    assert {a.name for a in attrs} == wanted
    span_sentence = _span_sentence(corpus)
    reference = _fed(whole, attrs, spec, span_sentence)
    _as_values_read_whole(corpus, attrs, reference, spec["k"])
    for block_bytes in (1, 200):
        blocks = _read(path, block_bytes)
        assert len(blocks) > 1 and sum(b.n_sentences for b in blocks) == corpus.n_sentences
        if block_bytes == 1 and not documents:
            assert {b.n_sentences for b in blocks} == {1}
        assert blocks[0].labels != corpus.labels        # AAA comes in the last block only
        _same(_fed(blocks, attrs, spec, span_sentence), reference, attrs)
    for block_tokens in (1, 5, 1 << 17):       # the corpus read whole, cut (a document may go on into the next block)
        monkeypatch.setattr(corpus_blocks, "BLOCK_TOKENS", block_tokens)
        cut = AttributeValues(attrs, names, spec)
        for block in corpus_blocks.blocks_of(corpus, names):
            cut.add(block)
        _same([cut.assigned(k, span_sentence) for k in range(len(attrs))], reference, attrs)


def _as_values_read_whole(corpus: Corpus, attrs: List[at.Attribute], got: List[Tuple[Any, ...]], k: int) -> None:
    """Every span's (sentence's) bucket is that of its value read from the whole corpus, and a numeric
    attribute's buckets end at the highest values equal frequency finds over every gold value."""
    text = at.Text(corpus)
    sides = [corpus.gold, *corpus.systems.values()]
    for attr, (bk, spans, sentences) in zip(attrs, got):
        if attr.level == at.SENTENCE:
            values = np.asarray(attr.values(corpus, text))
            if attr.name == "document":        # doc 1, doc 2, ...: the documents with a sentence, in order
                values = np.array([f"doc {k + 1}" for k in np.unique(values, return_inverse=True)[1]], object)
            assert sentences is not None and sentences.tolist() == bk.assign(values).tolist(), attr.name
            gold = values[corpus.sentence_of(corpus.gold.start)]
        else:
            parts = [np.asarray(attr.values(corpus, side, text)) for side in sides]
            assert spans.tolist() == np.concatenate([bk.assign(p) for p in parts]).tolist(), attr.name
            gold = parts[0]
        if attr.kind == at.NUMERIC and len(gold):
            gold = gold.astype(float)
            highs = equal_frequency(gold[~np.isnan(gold)], k)
            assert bk.cuts is not None and bk.cuts.tolist() == highs[:-1].tolist(), attr.name


def _corpus_of(rows: List[str]) -> str:
    return "\n".join(rows) + "\n"


def test_a_label_a_later_block_brings_sorts_first_and_a_value_is_never_split(tmp_path):
    """The second sentence (a block of its own) brings AAA: the label buckets are AAA, LOC, PER in that
    order and every span finds its own.  Gold's span lengths are 2, 1, 1, 1, 1 and 1: two buckets would hold
    three spans each by count, but the five spans of length 1 are one value: buckets 1 and 2+."""
    text = _corpus_of(["a B-PER B-PER O", "b I-PER B-LOC O", "c B-LOC I-LOC O", "d O O O", "",
                       "e B-LOC B-LOC B-AAA", "f B-PER O I-AAA", "g B-PER B-PER B-AAA", "h B-LOC B-LOC O"])
    path = tmp_path / "c.conll"
    path.write_text(text, encoding="utf-8")
    blocks = _read(path, 1)
    assert [b.labels for b in blocks] == [["LOC", "PER"], ["AAA", "LOC", "PER"]]
    spec = parse_bucket_spec(["2"])
    attrs, _ = chosen_attributes(blocks[0], ["col3", "col4"], None, None, True, spec, [], None, None)
    by_name = {a.name: k for k, a in enumerate(attrs)}
    whole = _read(path, None)[0]
    got = _fed(blocks, attrs, spec, _span_sentence(whole))
    bk, spans, sentences = got[by_name["label"]]
    assert bk.names == ["AAA", "LOC", "PER"] and sentences is None
    # gold: PER (2 tokens), LOC | LOC, PER, PER, LOC; col3: PER, LOC (2 tokens) | LOC, PER, LOC; col4: | AAA (2), AAA
    assert spans.tolist() == [2, 1, 1, 2, 2, 1] + [2, 1, 1, 2, 1] + [0, 0]
    bk, spans, _ = got[by_name["length"]]
    assert bk.names == ["1", "2+"] and bk.cuts is not None and bk.cuts.tolist() == [1.0]
    assert spans.tolist() == [1, 0, 0, 0, 0, 0] + [0, 1, 0, 0, 0] + [1, 0]
    bk, spans, sentences = got[by_name["sentence_length"]]
    assert bk.names == ["4+"] and sentences is not None and sentences.tolist() == [0, 0]


def test_the_codes_are_kept_in_the_fewest_bytes():
    """A value's code takes one byte while an attribute has at most 256 distinct values, two up to 65,536."""
    assert [code_type(n) for n in (1, 256, 257, 1 << 16, (1 << 16) + 1)] == [np.uint8, np.uint8, np.uint16,
                                                                                np.uint16, np.uint32]
    attr = at.Attribute("x", at.SENTENCE, at.NUMERIC, "x", lambda c, t: np.arange(c.n_sentences) % 300.0)
    from ts_eval.core.sequences import from_sequences

    small = from_sequences([["O"]] * 200, {"s": [["O"]] * 200}, scheme="IOB2", policy="conlleval")
    values = AttributeValues([attr], ["s"], parse_bucket_spec([]))
    values.add(small)
    assert values.tables[0].parts[0][0].dtype == np.uint8
    values.add(from_sequences([["O"]] * 400, {"s": [["O"]] * 400}, scheme="IOB2", policy="conlleval"))
    assert values.tables[0].parts[0][1].dtype == np.uint16 and len(values.tables[0].values) == 300


def test_the_letter_classes_of_texts_read_from_their_bytes_are_those_of_each_text():
    """ASCII texts are classed from their bytes all at once, the others one by one: the same classes."""
    rng = random.Random(3)
    texts = ["".join(rng.choice("aZ1 -éÉßxQ") for _ in range(rng.randint(1, 6))) for _ in range(3000)]
    texts += ["Paris", "PARIS", "paris", "1999", "-", "McDonald", "aB", "Ab", "ÉCOLE", "é", "İstanbul"]
    for sample in (texts, ["Ab"], ["1"], ["x\ny", "Ab"]):
        assert at.letter_classes(at._Bytes(sample)).tolist() == [at._letter_class(t) for t in sample]


def test_coded_values_are_numbered_as_their_names():
    """A categorical attribute's values given as codes into names (:class:`~ts_eval.analysis.attributes.Coded`,
    no Python object a span) get the buckets, and every span the bucket, that the names themselves get; only the
    names some span has become values (here ``c`` never occurs)."""
    from ts_eval.core.sequences import from_sequences

    tags = [["B-PER", "O", "B-ORG", "I-ORG"], ["B-LOC"], ["O", "B-PER"]]
    blocks = [from_sequences(tags[:2], {"s": tags[:2]}, scheme="IOB2", policy="conlleval"),
              from_sequences(tags[2:], {"s": tags[2:]}, scheme="IOB2", policy="conlleval")]
    codes = lambda c, spans, t: at.Coded(np.arange(len(spans)) % 2 * 3, ["a", "c", "d", "b"])   # noqa: E731
    names = lambda c, spans, t: np.asarray(codes(c, spans, t))                                     # noqa: E731
    assert names(None, blocks[0].gold, None).tolist() == ["a", "b", "a"]
    got = []
    for values_of in (codes, names):
        attr = at.Attribute("x", at.SPAN, at.CATEGORICAL, "x", values_of, order=("b",))
        values = AttributeValues([attr], ["s"], parse_bucket_spec([]))
        for block in blocks:
            values.add(block)
        assert sorted(values.tables[0].values) == ["a", "b"]
        bk, spans, _ = values.assigned(0, np.zeros(8, np.int64))
        got.append((bk.names, spans.tolist()))
    assert got[0] == got[1] == (["b", "a"], [1, 0, 1, 1, 1, 0, 1, 1])


def test_the_built_in_categorical_values_are_codes_of_their_names(tmp_path):
    """label, shape, position and seen give their values as codes; read as arrays they are the names."""
    path = tmp_path / "c.conll"
    path.write_text("de B-PER O\nGaulle I-PER O\nin O O\nPARIS B-LOC O\n\n1999 B-ORG O\n", encoding="utf-8")
    corpus = Inputs(file=str(path), gold_column=2, system_columns=[3]).corpus()
    text = at.Text(corpus)
    got = {f.__name__: np.asarray(f(corpus, corpus.gold, text)).tolist()
           for f in (at.span_label, at.span_shape, at.span_position)}
    assert got == {"span_label": ["PER", "LOC", "ORG"], "span_shape": ["mixed", "XX", "no letters"],
                   "span_position": ["first", "last", "whole"]}
    training = at.training_from(["paris"], np.array([0]), np.array([0]), np.array([0]), ["LOC"])
    assert np.asarray(at.seen(training)(corpus, corpus.gold, text)).tolist() == ["unseen", "seen", "unseen"]


def test_numbers_are_numbered_by_value_whether_counted_or_sorted():
    """Small whole numbers are counted (no sort), others sorted by their float bits: either way each distinct
    number (-0.0 is 0.0, one nan) gets one code, new ones in increasing order, and a code is its number."""
    from ts_eval.core.sequences import from_sequences

    given = [np.array([3.0, 1.0, 3.0, 0.0]), np.array([2.5, np.nan, 1.0, -0.0]), np.array([70000.0, 3.0])]
    attr = at.Attribute("x", at.SENTENCE, at.NUMERIC, "x", lambda c, t: given.pop(0))
    values = AttributeValues([attr], ["s"], parse_bucket_spec([]))
    for n in (4, 4, 2):
        values.add(from_sequences([["O"]] * n, {"s": [["O"]] * n}, scheme="IOB2", policy="conlleval"))
    table = values.tables[0]
    assert [x if x == x else "nan" for x in table.values] == [0.0, 1.0, 3.0, 2.5, "nan", 70000.0]
    assert [p.tolist() for p in table.parts[0]] == [[2, 1, 2, 0], [3, 4, 1, 0], [5, 2]]
