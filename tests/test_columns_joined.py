"""Token texts of many ranges at once (:meth:`ts_eval.io.columns.ColumnFile.joined`, used for the
disagreements' texts): the same strings as each range's ``texts`` joined by one space, with tokens of
several UTF-8 bytes, of one byte, with spaces inside (a tab-separated file) and ranges of one token."""
from __future__ import annotations

import numpy as np

from ts_eval.io import columns as C

WHITE = "Müller O\nin O\nZürich B-LOC\n\n東京 B-LOC\nx O\n, O\nü O\n".encode()
TABS = "New York\tB-LOC\nis\tO\nbig  city\tO\n\nä ö\tO\n".encode()


def test_joined_ranges_are_the_texts_joined_by_one_space():
    cf = C.split_columns(WHITE, "w.conll", (-1,), 1)
    a, b = np.array([0, 2, 0, 3, 6, 4]), np.array([3, 3, 7, 5, 7, 6])
    want = [" ".join(cf.texts(x, y)) for x, y in zip(a.tolist(), b.tolist())]
    assert want[:3] == ["Müller in Zürich", "Zürich", "Müller in Zürich 東京 x , ü"]
    assert cf.joined(a, b) == want
    assert C.joined_texts(cf.texts, a, b) == want
    assert cf.joined(np.zeros(0, np.int64), np.zeros(0, np.int64)) == []


def test_tokens_with_spaces_inside_keep_them():
    cf = C.split_columns(TABS, "t.conll", (-1,), 1, delimiter="\t")
    assert cf.joined(np.array([0, 2, 3]), np.array([3, 3, 4])) == ["New York is big  city", "big  city", "ä ö"]


def test_other_token_sources_are_joined_per_range():
    words = ["a", "b", "c"]
    assert C.joined_texts(lambda x, y: words[x:y], np.array([0, 1, 1]), np.array([2, 3, 1])) == ["a b", "b c", ""]
