"""The system inputs a command names: each folder among them replaced by its files (:func:`expand`), and their
names (:func:`system_names`; :mod:`ts_eval.io.inputs` describes the naming rule).  Kept below
:mod:`ts_eval.io.inputs` so that what only names files (:mod:`ts_eval.io.runs`) needs none of the readers."""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from ..errors import Hint, InputError, OptionError
from .source import STDIN


def system_names(paths: Sequence[Any], names: Optional[Sequence[str]] = None,
                 what: str = "system files") -> List[str]:
    """``names`` (checked) or the files' names; two equal names or ``gold`` are an error naming the files."""
    from .source import system_name

    if names is not None and len(names) != len(paths):
        raise OptionError(f"{len(names)} names for {len(paths)} {what}")
    out = list(names) if names is not None else [system_name(str(p)) for p in paths]
    seen: Dict[str, int] = {}
    for k, n in enumerate(out):
        if n in seen:
            raise OptionError([f"system name {n!r} is given twice ({paths[seen[n]]} and {paths[k]}); system names "
                               "must be unique (rename the files or give ", Hint("names"), ")"])
        if n == "gold":
            raise OptionError([Hint("names"), f": 'gold' (for {paths[k]}) cannot be a system name: it names the "
                               "gold side"] if names is not None else
                              [f"{paths[k]}: its system name would be 'gold' (from the file name), which names the "
                               "gold side; rename the file or give ", Hint("names")])
        seen[n] = k
    return out


def expand(paths: Sequence[str], pattern: str = "*", exclude: Sequence[str] = (), brat: bool = False) -> List[str]:
    """Files, with each directory replaced by its (non-hidden, matching) files in sorted order -- except a
    brat collection (a directory holding .ann files, or any directory with ``brat``), which is one input."""
    from pathlib import Path

    skip = {os.path.realpath(x) for x in exclude}
    out: List[str] = []
    for p in paths:
        if p != STDIN and os.path.isdir(p) and (brat or any(Path(p).glob("*.ann"))):
            out.append(p)
        elif p != STDIN and os.path.isdir(p):
            found = sorted(str(f) for f in Path(p).glob(pattern)
                           if f.is_file() and not f.name.startswith(".") and os.path.realpath(f) not in skip)
            if not found:
                raise InputError(f"no system file matching {pattern!r} in this directory", p)
            out.extend(found)
        elif p == STDIN or os.path.exists(p):
            out.append(p)
        else:
            raise InputError("no such file or directory", p)
    return out
