"""One side (gold or system) of a GermEval 2014 6-column file as :class:`Documents`, both
levels in one span set (outer and inner entities nest), so that it can be converted to the
formats that hold nested spans (JSON Lines, brat) and scored like any other input.

Chunks are decoded as :mod:`ts_eval.germeval.data` decodes them under ``policy`` and cut
at sentence boundaries; one span that is both the outer and the inner chunk (same range,
same label) is kept once and counted in ``notes["merged_levels"]``.
"""
from __future__ import annotations

from typing import List, Sequence

import numpy as np

from ..errors import OptionError
from ..io.documents import TOKEN_SEP, Documents
from .data import LABELS, LEVELS, level_chunks, sentence_bounded
from .reader import read_germeval

SIDES = ("gold", "system")


def read_germeval_side(path: str, side: str = "gold", *, policy: str = "nereval",
                       levels: Sequence[str] = LEVELS) -> Documents:
    """The ``side`` spans of a 6-column GermEval file (every sentence a document)."""
    if side not in SIDES:
        raise OptionError(f"side {side!r}: expected gold or system")
    data = read_germeval(path, policy=policy)
    chunks = level_chunks(data, policy)
    offsets = data.sent_offsets
    sets = [sentence_bounded(chunks[(side, lv)], offsets) for lv in levels]
    start = np.concatenate([s.start for s in sets]).astype(np.int64)
    last = np.concatenate([s.last for s in sets]).astype(np.int64)
    label = np.concatenate([s.label for s in sets]).astype(np.int64)
    key = (start * (offsets[-1] + 1) + last) * len(LABELS) + label
    _, first = np.unique(key, return_index=True)
    merged = len(key) - len(first)
    first.sort()
    used = sorted(set(label[first].tolist()))
    remap = np.zeros(len(LABELS), np.int32)
    remap[used] = np.arange(len(used), dtype=np.int32)

    def keys() -> List[str]:
        return [TOKEN_SEP.join(data.texts(int(a), int(b))) for a, b in zip(offsets[:-1], offsets[1:])]
    lines = data.gold_lines[offsets[:-1]].tolist() if len(offsets) > 1 else []
    return Documents(str(path), "germeval", offsets.copy(), [None] * (len(offsets) - 1), keys,
                     start[first], last[first], remap[label[first]], [LABELS[k] for k in used], lines,
                     notes={"side": side, "levels": list(levels), "merged_levels": merged})
