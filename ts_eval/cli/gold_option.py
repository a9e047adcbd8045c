"""``--gold`` given once: the one gold's path (given two or more times, the references are
:mod:`.gold_references`'s)."""
from __future__ import annotations

import os
from typing import Optional, Sequence


def one_gold(golds: Optional[Sequence[str]]) -> Optional[str]:
    """The path of ``--gold`` given once (None: not given); ``--gold NAME=PATH`` once is PATH, the one gold,
    where no file is called NAME=PATH and PATH is there (several references need two or more)."""
    if not golds:
        return None
    name, eq, path = golds[0].partition("=")
    return path if name and eq and os.path.exists(path) and not os.path.exists(golds[0]) else golds[0]
