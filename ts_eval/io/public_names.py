"""Public names for systems: the mapping real name -> public name that a shared task's organiser keeps
in a file of their own, so that every page participants see names ``team-01``, ``team-02``, ... and never
a file's or a team's name.

The file is text, one system a line, ``REAL<TAB>PUBLIC``; lines starting with ``#`` are comments (the
file made here starts with one saying what it is) and blank lines are skipped.  The organiser may edit
the public names (a team that wants its name shown); each real name and each public name is there once.

:func:`public_names` reads the file, or creates it when it does not exist: the systems are numbered in
the order of the SHA-256 digest of ``"<seed>:<real name>"`` (a stable order that says nothing about the
names, the same on every machine and Python; the organiser may keep ``seed`` private), as ``team-01`` ...
(two digits, more when there are more than 99 systems).  A system missing from an existing file is an
error, unless ``add``: then the missing ones get the next free numbers, in the same order, and are
appended to the file -- the lines already there are never changed, renamed or dropped, and the file is
never rewritten.
"""
from __future__ import annotations

import hashlib
import os
from typing import Dict, List, Sequence, Tuple

from ..errors import Hint, InputError, OptionError

HEADER = ("# ts_eval public names: REAL<TAB>PUBLIC, one system a line. Keep this file private: it says which "
          "system each public name stands for.\n")
PREFIX = "team-"


def read_public_names(path: str) -> Dict[str, str]:
    """The mapping of the file ``path`` (real name -> public name, in the file's order); a bad line is an
    :class:`~ts_eval.errors.InputError` naming the file, the line and what was expected."""
    try:
        with open(path, encoding="utf-8-sig") as f:     # a BOM (an editor's) is not part of the first name
            lines = f.read().splitlines()
    except UnicodeDecodeError as err:
        raise InputError(f"is not UTF-8 text ({err.reason}); expected lines REAL<TAB>PUBLIC", path) from None
    except OSError as err:
        raise InputError(f"cannot read the public names: {err.strerror or err}", path) from None
    out: Dict[str, str] = {}
    where: Dict[str, int] = {}       # the line of each real name
    where_public: Dict[str, int] = {}
    for k, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
            raise InputError(f"found {line!r}; expected a real name, a tab and a public name (REAL<TAB>PUBLIC)",
                             path, k)
        real, public = fields[0].strip(), fields[1].strip()
        if real in out:
            raise InputError(f"system {real!r} is given a public name twice (line {where[real]} and here); "
                             "expected each real name once", path, k)
        if public in where_public:
            raise InputError(f"public name {public!r} is given twice (line {where_public[public]} and here); expected "
                             "each public name once", path, k)
        out[real] = public
        where[real] = where_public[public] = k
    return out


def hashed_order(names: Sequence[str], seed: int = 0) -> List[str]:
    """``names`` in the order new public numbers are given: by the SHA-256 digest of ``"<seed>:<name>"``."""
    return sorted(names, key=lambda n: (hashlib.sha256(f"{seed}:{n}".encode()).hexdigest(), n))


def _numbered(new: Sequence[str], taken: Sequence[str], seed: int, total: int) -> Dict[str, str]:
    """Public names ``team-NN`` for the ``new`` real names, skipping the ``taken`` public names."""
    digits = max(2, len(str(total)))
    used, out, k = set(taken), {}, len(taken)
    for real in hashed_order(new, seed):
        k += 1
        while f"{PREFIX}{k:0{digits}d}" in used:
            k += 1
        out[real] = f"{PREFIX}{k:0{digits}d}"
        used.add(out[real])
    return out


def public_names(path: str, systems: Sequence[str], *, add: bool = False,
                 seed: int = 0) -> Tuple[Dict[str, str], List[str]]:
    """The public name of each of ``systems`` (real names) from the file ``path``, created when it does not
    exist; and the real names given a new public name now (written to the file).  A system missing from an
    existing file is an :class:`~ts_eval.errors.OptionError` unless ``add`` (then appended); a public name
    that is another system's real name is an error too (a page would name the wrong system)."""
    exists = os.path.exists(path)
    known = read_public_names(path) if exists else {}
    missing = [s for s in dict.fromkeys(systems) if s not in known]
    if exists and missing and not add:
        raise OptionError([f"{path}: {len(missing)} system(s) without a public name: {', '.join(missing)}; "
                           "add them to the file (REAL<TAB>PUBLIC) or give ", Hint("anonymise_add"),
                           " to append them with new public names"])
    unkept = [s for s in missing if not _kept_as_is(s)]
    if unkept:
        raise OptionError([f"{path}: the system name {unkept[0]!r} would not read back from the file (a line "
                           "starting with # is a comment; spaces around a name, tabs and line ends are not kept); "
                           "expected names without them: name the systems with ", Hint("names")])
    new = _numbered(missing, list(known.values()), seed, len(known) + len(missing))
    mapping = {**known, **new}
    clash = [(s, mapping[s]) for s in systems if mapping[s] in systems and mapping[s] != s]
    if clash:
        s, p = clash[0]
        raise OptionError(f"{path}: the public name of {s!r} is {p!r}, which is the real name of another system; "
                          "expected public names that name no system")
    if new:
        text = "".join(f"{real}\t{public}\n" for real, public in new.items())
        _append(path, text if exists else HEADER + text, exists)
    return {s: mapping[s] for s in systems}, list(new)


def _kept_as_is(real: str) -> bool:
    """Whether the real name ``real`` reads back as itself from a line ``REAL<TAB>PUBLIC`` of the file."""
    return real == real.strip() and not real.startswith("#") and len(real.splitlines()) == 1 and "\t" not in real


def _append(path: str, text: str, exists: bool) -> None:
    """Add ``text`` at the end of the file (after a line end if its last line lacks one), or create it; the
    lines already there stay as they are."""
    try:
        if exists:
            with open(path, "rb") as f:
                f.seek(0, os.SEEK_END)
                if f.tell():
                    f.seek(-1, os.SEEK_END)
                    text = ("" if f.read(1) == b"\n" else "\n") + text
        with open(path, "a" if exists else "x", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        raise InputError(f"cannot write the public names: {err.strerror or err}; expected a writable file in an "
                         "existing folder", path) from None
