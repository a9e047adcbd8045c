"""The compiled scanner of the JSON Lines readers (``_jsonl_scan.c``; optional, see ``jsonl_scan.py``)."""
from typing import List, Optional, Tuple, Union

import numpy as np

#: tags: (tag ids int32, the distinct tags); spans: (spans per record int64, starts int64, ends int64, labels)
Aux = Union[None, Tuple[bytearray, List[str]], Tuple[bytearray, bytearray, bytearray, List[str]]]

def scan(data: bytes, starts: np.ndarray, ends: np.ndarray, main_key: bytes, text: bool, aux_key: Optional[bytes],
         aux: int, id_key: Optional[bytes],
         reject: Tuple[bytes, ...]) -> Optional[Tuple[bytearray, bytearray, bytearray, List[Optional[str]], Aux]]: ...
