"""unique_slices: the distinct byte slices of a buffer and each slice's index, by every road it takes
(short slices through a perfect hash of a sample, longer ones hashed over their words, too many distinct
short values through the general way) against the plain Python answer."""
from __future__ import annotations

import random
import subprocess
import sys
from typing import List, Set, Tuple

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval.io.columns import SliceCache, byte_windows, unique_slices


def _slices(fields: List[bytes]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    raw = b" ".join(fields) + b"\n"
    starts, at = [], 0
    for f in fields:
        starts.append(at)
        at += len(f) + 1
    s = np.array(starts, np.int64)
    return byte_windows(raw + bytes(8)), s, s + np.array([len(f) for f in fields], np.int64)


def _check(fields: List[bytes]) -> None:
    windows, starts, ends = _slices(fields)
    vocab, ids = unique_slices(windows, starts, ends)
    texts = [f.decode("utf-8") for f in fields]
    assert vocab == sorted(set(texts))
    assert [vocab[i] for i in ids.tolist()] == texts


def test_tags_with_a_value_the_sample_misses() -> None:
    # 20000 slices: the sample takes every 4th, so the lone I-MISC (odd position) is found by the check
    fields = [random.Random(3).choice([b"O", b"B-PER", b"I-PER", b"B-LOC"]) for _ in range(20000)]
    fields[10001] = b"I-MISC"
    _check(fields)


def test_many_distinct_short_values() -> None:
    # more distinct values than a sample table takes: the general way gives the same answer
    fields = [str(k).encode() for k in range(9000)] * 2
    _check(fields)


def test_empty_long_and_non_ascii_slices() -> None:
    _check([b"", b"O", b"B-ORGANISATION", b"\xc3\xa9t\xc3\xa9", b"", b"O", b"1234567", b"12345678"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=" \t\n\r\x0b\x0c"),
                        max_size=9), min_size=1, max_size=60))
def test_agrees_with_python(texts: List[str]) -> None:
    _check([t.encode("utf-8") for t in texts])


def test_does_not_import_numpy_ma() -> None:
    # np.unique imports numpy.ma (~6 ms of every run's start): the reader's distinct values do without it
    code = ("import sys; from ts_eval.io.columns import byte_windows, unique_slices; import numpy as np; "
            "raw = b'O B-PER I-PER O ' * 5000; s = np.arange(0, len(raw), 4); s = s[s < len(raw)]; "
            "unique_slices(byte_windows(raw + bytes(8)), s, s + 1); print('numpy.ma' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from([b"O", b"B-PER", b"I-PER", b"B-LOC", "\u00e9t\u00e9".encode(), b"",
                                          b"1234567", b"B-LONGER-THAN-7"]), min_size=1, max_size=300),
                min_size=1, max_size=6))
def test_a_cache_across_calls(calls: List[List[bytes]]) -> None:
    # the table of short values carried from call to call: each call's ids name its own slices, its
    # vocabulary is sorted and holds only values of this call or of the calls before it
    cache = SliceCache()
    seen: Set[str] = set()
    for fields in calls:
        windows, starts, ends = _slices(fields)
        vocab, ids = unique_slices(windows, starts, ends, cache)
        texts = [f.decode("utf-8") for f in fields]
        seen |= set(texts)
        assert vocab == sorted(vocab) and set(texts) <= set(vocab) <= seen
        assert [vocab[i] for i in ids.tolist()] == texts


def test_a_cache_that_overflows() -> None:
    # a later call with more distinct short values than a table takes: the general way, the same answer
    cache = SliceCache()
    for fields in ([b"O", b"B-PER"] * 50, [str(k).encode() for k in range(9000)], [b"O", b"I-PER"] * 50):
        windows, starts, ends = _slices(fields)
        vocab, ids = unique_slices(windows, starts, ends, cache)
        assert [vocab[i] for i in ids.tolist()] == [f.decode() for f in fields]
