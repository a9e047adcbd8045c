"""Readers and writers: inputs -> Corpus, documents -> files.  They know nothing of metrics."""
from .columns import ColumnFile, split_columns
from .conll import check_aligned, read_conll, read_conll_pair

__all__ = ["ColumnFile", "split_columns", "read_conll", "read_conll_pair", "check_aligned"]
