"""Grounding finds a string's occurrences without one regular expression per string when case counts.

:func:`ts_eval.io.grounding.occurrences` placed every string with its own compiled pattern (the pieces
of the string with ``\\s*`` between them, looked for at every position); where case counts it now
walks the places of the first piece with ``str.find``.  Property: on generated texts (Unicode
spaces, punctuation, letters whose case folds oddly) both give the same token ranges.
"""
from __future__ import annotations

import re
from typing import List, Tuple

from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval.io import grounding
from ts_eval.io.tokenizer import tokenize

PARTS = st.sampled_from(["a", "b", "ab", " ", "  ", "\u00a0", "\t", "\n", ".", "-", "é", "A", "\u2028", "x.y", "1",
                         "(", "ß", "\u4e2d"])


def _by_pattern(doc: grounding._Doc, s: str) -> List[Tuple[int, int]]:
    """The pattern the grounding used before (and still uses when case is ignored)."""
    pieces = grounding._pieces(s)
    if not pieces:
        return []
    pattern = re.compile("(?=(" + r"\s*".join(map(re.escape, pieces)) + "))")
    out = []
    for m in pattern.finditer(doc.text):
        b, e = doc.at_start.get(m.start(1)), doc.at_end.get(m.end(1))
        if b is not None and e is not None and m.end(1) > m.start(1):
            out.append((b, e + 1))
    return out


@settings(max_examples=400, deadline=None)
@given(text=st.lists(PARTS, min_size=1, max_size=14).map("".join), data=st.data())
def test_occurrences_as_written_are_the_patterns(text: str, data: st.DataObject) -> None:
    if not text.strip():
        return
    _, starts, ends = tokenize([text], data.draw(st.sampled_from(["default", "whitespace"])))
    doc = grounding._Doc(text, starts, ends)
    if data.draw(st.booleans()):
        a = data.draw(st.integers(0, len(text) - 1))
        s = text[a:data.draw(st.integers(a + 1, len(text)))]
    else:
        s = data.draw(st.lists(PARTS, min_size=1, max_size=5).map("".join))
    assert grounding.occurrences(doc, s, False) == _by_pattern(doc, s)


def test_occurrences_hand_cases() -> None:
    text = "New  York and New\u00a0York, new york"
    _, starts, ends = tokenize([text])
    doc = grounding._Doc(text, starts, ends)
    assert grounding.occurrences(doc, "New York", False) == [(0, 2), (3, 5)]
    assert grounding.occurrences(doc, "New York", True) == [(0, 2), (3, 5), (6, 8)]
    assert grounding.occurrences(doc, "ew York", False) == []
