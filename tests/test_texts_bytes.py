"""The analysis's token texts read as bytes (issue 32): a column file's distinct token texts are told apart by
their bytes (hashed, then checked byte for byte), the strings of spans are cut from the distinct texts' bytes
in one gather, and the unannotated strings' windows go through a sieve before their binary search; each gives
what the text-by-text way gives."""
from __future__ import annotations

import numpy as np
import pytest
from support import write

import ts_eval
from ts_eval.analysis import attributes as at
from ts_eval.analysis import errors_suspects
from ts_eval.analysis.errors_text import Shifted, Texts, range_strings
from ts_eval.core import arrays

WORDS = ["Paris", "paris", "ΟΔΟΣ", "Straße", "東京", "é", "-", "ab", "ba", "İstanbul", "x", "ΣΑΣ", "abcdefgh",
         "bacdefgh", "Zürich-Nord"]


def _corpus(tmp_path, seed: int, n: int, delimiter=None):
    rng = np.random.default_rng(seed)
    toks = [WORDS[i] for i in rng.integers(0, len(WORDS), n)]
    if delimiter:
        toks = [t + (" y" if k % 3 == 0 else "") for k, t in enumerate(toks)]
    sep = delimiter or " "
    lines = []
    for k, t in enumerate(toks):
        lines.append(f"{t}{sep}{'B-PER' if k % 4 == 0 else 'O'}{sep}O")
        if k % 7 == 6:
            lines.append("")
    path = write(tmp_path / "t.conll", "\n".join(lines) + "\n")
    corpus = ts_eval.io.read_conll(path, gold_column=2, system_columns=[3], names=["a"],
                                   **({"delimiter": delimiter} if delimiter else {}))
    return toks, corpus


def _by_dict(toks):
    index: dict = {}
    return [index.setdefault(t, len(index)) for t in toks], list(index)


@pytest.mark.parametrize("chunk", [1, 2, 5, 1 << 16])
def test_distinct_slices_number_the_texts_in_order_of_first_occurrence(chunk):
    toks = [WORDS[i] for i in np.random.default_rng(chunk).integers(0, len(WORDS), 60)]
    raw = np.frombuffer(" ".join(toks).encode(), np.uint8)
    length = np.array([len(t.encode()) for t in toks])
    start = np.concatenate(([0], np.cumsum(length + 1)[:-1]))
    ids, first = arrays.distinct_slices(raw, start, length, chunk)
    want, distinct = _by_dict(toks)
    assert ids.tolist() == want
    assert [toks[k] for k in first.tolist()] == distinct


def test_a_hash_collision_is_caught_byte_for_byte(monkeypatch):
    # base 1: a text's hash is the sum of its bytes, so "abcdefgh" and "bacdefgh" collide (texts of at most 7
    # bytes are their own keys: "ab" and "ba" do not)
    monkeypatch.setattr(arrays, "_SLICE_BASE", 1)
    raw = np.frombuffer(b"abcdefgh bacdefgh ab ba", np.uint8)
    assert arrays.distinct_slices(raw, np.array([0, 9]), np.array([8, 8])) is None
    assert arrays.distinct_slices(raw, np.array([0, 18, 21, 0]), np.array([8, 2, 2, 8]))[0].tolist() == [0, 1, 2, 0]


def test_short_texts_at_the_end_of_the_bytes_are_read_whole():
    raw = np.frombuffer(b"abc de abc fgh de", np.uint8)
    ids, first = arrays.distinct_slices(raw, np.array([0, 4, 7, 11, 15]), np.array([3, 2, 3, 3, 2]), 2)
    assert ids.tolist() == [0, 1, 0, 2, 1] and first.tolist() == [0, 1, 3]


@pytest.mark.parametrize("collide", [False, True])
def test_a_column_files_token_texts_are_numbered_as_text_by_text(tmp_path, monkeypatch, collide):
    """The bytes' way (and, on a collision, the text-by-text way it falls back to) give every token's text, the
    distinct texts in order of first occurrence and their numbers."""
    if collide:
        monkeypatch.setattr(arrays, "_SLICE_BASE", 1)
    monkeypatch.setattr(at, "TEXT_CHUNK", 3)
    toks, corpus = _corpus(tmp_path, 3, 40)
    assert (arrays.distinct_slices(*corpus.tokens.__self__.loaded(), 3) is None) == collide
    tokens, ids, distinct = at.token_texts(corpus)
    want, want_distinct = _by_dict(toks)
    assert ids.tolist() == want and distinct == want_distinct and ids.dtype == np.int32
    assert list(tokens) == toks


def test_the_letters_of_each_token_count_its_characters(tmp_path):
    toks, corpus = _corpus(tmp_path, 4, 30)
    text = at.Text(corpus)
    assert np.diff(text.char_cum).tolist() == [len(t) for t in toks]


@pytest.mark.parametrize("delimiter", [None, "\t"])
def test_ranges_are_joined_from_the_distinct_texts_bytes(tmp_path, delimiter):
    """Spans' strings as written and lower-cased (Greek final sigma too: lower-casing the joined string is
    lower-casing token by token), from a whole corpus and seen from a block, as range by range."""
    toks, corpus = _corpus(tmp_path, 5, 50, delimiter)
    tokens = at.token_texts(corpus)[0]
    a = np.array([0, 3, 3, 10, 49, 20, 0])
    b = np.array([1, 6, 4, 30, 50, 23, 50])
    plain = [" ".join(toks[x:y]) for x, y in zip(a.tolist(), b.tolist())]
    assert tokens.joined(a, b) == plain
    assert tokens.joined(a, b, lower=True) == [t.lower() for t in plain]
    assert Shifted(tokens, 3).joined(a[1:3] - 3, b[1:3] - 3) == plain[1:3]
    assert tokens.joined(np.zeros(0, np.int64), np.zeros(0, np.int64)) == []
    for lower in (False, True):
        got = range_strings(tokens, len(toks), a, b - 1, lower)
        want = range_strings(toks, len(toks), a, b - 1, lower)
        assert got[0].tolist() == want[0].tolist() and got[1] == want[1]


def test_texts_with_line_ends_are_joined_range_by_range():
    tokens = at.Tokens(np.array([0, 1, 0, 2], np.int32), ["a\nb", "C", "dΣ"])
    assert tokens.joined(np.array([0, 1, 3]), np.array([2, 4, 4])) == ["a\nb C", "C a\nb dΣ", "dΣ"]
    assert tokens.joined(np.array([1]), np.array([4]), lower=True) == ["c a\nb dς"]


def test_the_lower_cased_ids_follow_the_first_occurrences(tmp_path):
    toks, corpus = _corpus(tmp_path, 6, 40)
    index: dict = {}
    assert Texts(corpus).lower_ids().tolist() == [index.setdefault(t.lower(), len(index)) for t in toks]


def test_the_sieve_lets_every_key_through():
    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(0, 2 ** 63, 5000, dtype=np.int64).astype(np.uint64) * np.uint64(2))
    sieve = errors_suspects._Sieve(keys)
    others = rng.integers(0, 2 ** 63, 20000, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
    k = np.concatenate((others, keys))
    a, kept = sieve.through(np.arange(len(k)), k)
    assert np.array_equal(kept, k[a]) and set(keys.tolist()) <= set(kept.tolist())
    assert len(kept) < len(keys) + len(others) // 4            # most others stop at the sieve


@pytest.mark.parametrize("seed", range(4))
def test_the_unannotated_strings_are_those_found_without_the_filters(tmp_path, monkeypatch, seed):
    """The first/last-token filter and the sieve drop only windows no gold span's key has: the unannotated
    strings (all of them, with their examples) are those of every window hashed and looked up."""
    rng = np.random.default_rng(seed)
    words = ["the", "New", "York", "times", "in", "new", "york", "Paris", "."]
    lines = []
    for _ in range(300):
        w = words[int(rng.integers(0, len(words)))]
        tag = "B-LOC" if w in ("New", "Paris") and rng.random() < 0.5 else ("I-LOC" if w == "York" and
                                                                           lines and "LOC" in lines[-1] else "O")
        lines.append(f"{w} {tag} O")
        if rng.random() < 0.1:
            lines.append("")
    corpus = ts_eval.io.read_conll(write(tmp_path / "u.conll", "\n".join(lines) + "\n"), gold_column=2,
                                   system_columns=[3], names=["a"])
    got = errors_suspects.unannotated_inconsistencies(corpus, Texts(corpus), None, 2)
    codes_all = lambda codes, first, last: (np.ones(int(codes.max()) + 1, bool),) * 2    # noqa: E731
    monkeypatch.setattr(errors_suspects, "_ends", codes_all)
    monkeypatch.setattr(errors_suspects._Sieve, "through", lambda self, a, k: (a, k))
    want = errors_suspects.unannotated_inconsistencies(corpus, Texts(corpus), None, 2)
    assert got[0] == want[0] > 0
    assert [x.to_dict() for x in got[1]] == [x.to_dict() for x in want[1]]
