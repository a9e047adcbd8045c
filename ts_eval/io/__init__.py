"""Readers: files -> Corpus. They know nothing of metrics."""
from .columns import ColumnFile, read_column_file, split_columns
from .conll import check_aligned, read_conll, read_conll_pair

__all__ = ["ColumnFile", "read_column_file", "split_columns", "read_conll", "read_conll_pair", "check_aligned"]
