"""Readers and writers: inputs -> Corpus, documents -> files.  They know nothing of metrics."""
from typing import Any

from .columns import ColumnFile, split_columns
from .conll import check_aligned

__all__ = ["ColumnFile", "split_columns", "read_conll", "read_conll_pair", "check_aligned"]


def __getattr__(name: str) -> Any:
    """``read_conll`` and ``read_conll_pair`` (:mod:`ts_eval.io.api`), loaded when first asked for."""
    if name in ("read_conll", "read_conll_pair"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
