"""The compiled scanner of the column reader (``_column_scan.c``; optional, see ``columns.py``)."""
from typing import List, Optional, Tuple

import numpy as np

class Table:
    """The distinct tag values of one block, each with its id (its index in the order first seen)."""

    @property
    def size(self) -> int: ...
    def values(self) -> List[bytes]: ...

def scan(data: np.ndarray, a: int, b: int, delimiter: int, ncol: int, token_column: int,
         columns: Tuple[int, ...], table: Table, token_line: np.ndarray, token_start: np.ndarray,
         token_len: np.ndarray, ids: np.ndarray, stride: int, n0: int,
         line0: int) -> Optional[Tuple[int, int, int, List[int], int, int, int, int]]: ...
def remap(ids: np.ndarray, rank: np.ndarray) -> None: ...
def count_lines(data: np.ndarray) -> Tuple[int, bool]: ...
