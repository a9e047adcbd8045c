"""A brat collection read a number of whole documents at a time: a feed of a lock-step read
(:mod:`ts_eval.io.lockstep`), so that two-file mode with brat directories (gold, systems, or both, beside
the other formats) holds one block of documents, not the collection.

The documents are the .txt/.ann pairs in the order the whole read takes them (:func:`~ts_eval.io.brat.brat_pairs`:
sorted by name), read by the whole read's code (:func:`~ts_eval.io.brat.brat_documents`) a block at a time:
pairs are added to a block until their .txt files hold ``block_bytes``.  A block's messages are the whole
read's (they name the .ann file and its line); what the whole read would say otherwise -- an error before
the first document, a system span off the tokens (the whole read says whether the text differs from gold's)
-- makes the files be read whole (:class:`~ts_eval.io.lockstep.NotInStep`).
"""
from __future__ import annotations

import os
from typing import List, Optional

from ..errors import InputError
from .brat import brat_documents, brat_pairs, tools_tokenizer
from .charspans import MisalignedSpanError
from .choices import DISCONTINUOUS
from .documents import Documents
from .lockstep import NotInStep, no_documents
from .source import display_name


class BratFeed:
    """The documents of one brat directory (or one .ann/.txt pair), handed out a number at a time."""

    def __init__(self, path: str, block_bytes: int, *, discontinuous: str = "error", align: str = "strict",
                 tokenizer: Optional[str] = None, system: bool = False) -> None:
        if discontinuous not in DISCONTINUOUS:
            raise ValueError(f"discontinuous {discontinuous!r}: expected one of {', '.join(DISCONTINUOUS)}")
        self.path, self.name, self.system = path, display_name(path), system
        self.block_bytes, self.discontinuous, self.align = max(block_bytes, 1), discontinuous, align
        try:
            self.stems: List[str] = brat_pairs(path)
        except InputError as err:           # the whole read says it (with the other files' errors first)
            raise NotInStep(str(err), self.name) from None
        self.tokenizer = tokenizer or tools_tokenizer(path)
        self.at = 0                         # pairs handed out

    def take(self, n: Optional[int] = None) -> Documents:
        stems = self.stems[self.at:self.at + n] if n is not None else self._block()
        if not stems:
            return no_documents(self.name, "brat")
        try:
            docs = brat_documents(self.path, stems, self.discontinuous, self.align, self.tokenizer)
        except MisalignedSpanError as err:
            if self.system:                 # the whole read says whether the text differs from gold's
                raise NotInStep(str(err), self.name) from err
            raise
        self.at += len(stems)
        return docs

    def _block(self) -> List[str]:
        """The next pairs whose .txt files hold ``block_bytes`` (at least one pair)."""
        end, size = self.at, 0
        while end < len(self.stems) and (end == self.at or size < self.block_bytes):
            size += os.path.getsize(self.stems[end] + ".txt")
            end += 1
        return self.stems[self.at:end]

    def done(self) -> bool:
        return self.at >= len(self.stems)

    def check_end(self) -> None:
        if not self.at:
            raise NotInStep("no documents", self.name)
