"""A column file read a number of whole sentences at a time: a feed of a lock-step read
(:mod:`ts_eval.io.lockstep`), for two-file mode that mixes column files with other formats.

The blocks are :func:`~ts_eval.io.columns.read_column_blocks`'s (whole sentences with the file's line
numbers and column checks, the messages of the whole read), handed out as
:func:`~ts_eval.io.api.read_pair` reads a column file (:func:`~ts_eval.io.conll.column_documents`: one
document per sentence, the tags of ``column`` decoded sentence by sentence).
"""
from __future__ import annotations

from typing import Optional

from ..errors import InputError
from .columns import read_column_blocks
from .conll import Sentences, column_documents
from .documents import Documents
from .lockstep import NotInStep, no_documents
from .source import display_name


class ColumnFeed:
    """The sentences of one column file, handed out a number of whole sentences at a time."""

    def __init__(self, path: str, block_bytes: int, *, column: int = -1, token_column: int = 1,
                 scheme: str = "IOB2", policy: str = "conlleval") -> None:
        self.path, self.name = path, display_name(path)
        self.column, self.scheme, self.policy = column, scheme, policy
        self.sentences = Sentences(read_column_blocks(path, [column], token_column, None, block_bytes))
        self.docs0 = 0

    def take(self, n: Optional[int] = None) -> Documents:
        try:
            cf = self.sentences.block() if n is None else self.sentences.take(n)
        except InputError as err:
            raise self._first(err) from None
        if not cf.n_tokens:
            return no_documents(self.name, "columns")
        docs = column_documents(cf, self.name, self.column, self.scheme, self.policy)
        self.docs0 += docs.n_docs
        return docs

    def done(self) -> bool:
        try:
            return not self.sentences.more()
        except InputError as err:
            raise self._first(err) from None

    def _first(self, err: InputError) -> InputError:
        """An error before the first sentence is read whole (its message may be another: an empty file, a
        file of other columns); later ones are the whole read's (the blocks have the file's line numbers)."""
        return NotInStep(str(err), self.name) if not self.docs0 else err

    def check_end(self) -> None:
        if not self.docs0:
            raise NotInStep("no sentences", self.name)
