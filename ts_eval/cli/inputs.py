"""Reading a command's inputs: one loader, one column rule and one system-name rule for every command.

**Columns** (1-based; negative numbers count from the end), the same for ``score``, ``compare`` and
``rank`` (conlleval.pl's layout, ``TOKEN ... GOLD SYSTEM``, is the default):

- one FILE, neither ``--gold-col`` nor ``--system-col``: gold is the second-to-last column, the
  system the last;
- ``--gold-col N`` alone: the systems are every column after N;
- ``--system-col N [M ...]`` alone: gold is the column before the first system column;
- ``--gold G`` with one file per system: the last column of each file unless given (one
  ``--system-col`` then applies to every system file).

**System names**: ``--names`` if given; else a system column of a file with several is ``colN``;
a file is its name without directory, compression suffix (.gz, .bz2, .xz) and last extension
(``runs/crf.conll.gz`` -> ``crf``; standard input ``-`` -> ``stdin``).  Two systems with the same
name, or a system called ``gold``, are an error naming both files (rename them or give ``--names``).
"""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..errors import InputError, UsageError
from .errors import option_errors

POLICIES = ("conlleval", "strict", "discard")
COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz")
STDIN = "-"
COLUMN_RULE = ("Columns are 1-based (negative: from the end). One FILE: gold = second-to-last column, "
               "system = last, unless given; --gold-col alone: every later column is a system; --system-col "
               "alone: gold is the column before the first system column. One file per system (--gold): "
               "the last column of each file unless given.")


@dataclass
class Request:
    """What a command reads: one ``file`` with gold and system columns, or a ``gold`` file and
    ``systems`` (one file each); ``gold_col``/``system_cols`` None follow the column rule."""

    file: Optional[str] = None
    gold: Optional[str] = None
    systems: Sequence[str] = ()
    names: Optional[Sequence[str]] = None
    gold_col: Optional[int] = None
    system_cols: Optional[Sequence[int]] = None
    scheme: Optional[str] = None     # overrides --scheme (a rank manifest's task may set it)


# ---------------------------------------------------------------------------
# options


def _scheme_name(value: str) -> str:
    from ..schemes import resolve_scheme_name

    try:
        return resolve_scheme_name(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _delimiter(value: str) -> Optional[str]:
    from ..io.columns import parse_delimiter

    try:
        return parse_delimiter(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_column_options(p: Any, systems: str = "several columns in FILE are several systems") -> None:
    """``--gold-col``, ``--system-col`` and ``--names``, documented with the column rule."""
    p.add_argument("--gold-col", type=int, default=None, metavar="N",
                   help="gold column (default: second-to-last in FILE, last in a gold file)")
    p.add_argument("--system-col", type=int, nargs="+", default=None, metavar="N",
                   help=f"system column(s) (default: the last; with --gold-col alone every column after it); "
                        f"{systems}")
    p.add_argument("--names", nargs="+", metavar="NAME",
                   help="system names (default: the file name without extension, or colN for columns)")


def add_reading_options(p: argparse.ArgumentParser, policies: Sequence[str] = POLICIES) -> None:
    """The reading options every command that reads columns shares: scheme, policy, token column, label
    map, and conlleval.pl's -d, -o, -r plus a mode for files without tokens."""
    g = p.add_argument_group("reading", COLUMN_RULE)
    g.add_argument("--scheme", default=None, type=_scheme_name,
                   help="tagging scheme: IOB2 (default), IOB1, IOE1, IOE2, IOBES (BIOES), BILOU, IO, "
                        "auto (detect), conlleval (accept any tag as conlleval.pl does; the default "
                        "with --format conlleval)")
    g.add_argument("--policy", default=None, choices=tuple(policies),
                   help="ill-formed spans: conlleval = decode like conlleval.pl and count the repair "
                        "(default), strict = error, discard = drop the span")
    g.add_argument("--token-col", type=int, default=1, metavar="N", help="token column (default 1)")
    g.add_argument("--map-label", action="append", default=[], metavar="PATTERN=REPL",
                   help="rewrite labels with a regular expression before scoring (repeatable, applied in "
                        "order; a label rewritten to the empty string is dropped), e.g. 'deriv$='")
    g.add_argument("--delimiter", "-d", type=_delimiter, default=None, metavar="CHAR",
                   help="field delimiter: one character, e.g. '\\t' for tab (default: any run of spaces "
                        "and tabs); an empty field is an error (conlleval.pl -d)")
    g.add_argument("--outside-tag", default="O", metavar="TAG",
                   help="the tag that means outside any span (default O); it is read as O (conlleval.pl -o)")
    g.add_argument("--raw", "-r", action="store_true",
                   help="tags carry no B-/I- prefixes: every token whose tag is not the outside tag is a "
                        "one-token span of that tag (conlleval.pl -r)")
    g.add_argument("--tags-only", "--no-token-check", dest="tags_only", action="store_true",
                   help="read no token column: two-file mode then checks that sentences and their token "
                        "counts agree instead of comparing tokens (a system file may hold only tags)")


def reading(args: argparse.Namespace, scheme: Optional[str] = None) -> Dict[str, Any]:
    """The column readers' keyword arguments from the shared reading options."""
    from ..corpus import parse_label_map

    with option_errors():
        label_map = parse_label_map(args.map_label)
    default_scheme = "conlleval" if getattr(args, "format", None) == "conlleval" else "IOB2"
    return dict(token_column=args.token_col, scheme=scheme or args.scheme or default_scheme,
                policy=args.policy or "conlleval", label_map=label_map, delimiter=args.delimiter,
                raw=args.raw, outside_tag=args.outside_tag, tags_only=args.tags_only)


# ---------------------------------------------------------------------------
# the column rule and the name rule


def resolve_columns(path: str, n_columns: Callable[[], int], gold_col: Optional[int],
                    system_cols: Optional[Sequence[int]]) -> Tuple[int, List[int]]:
    """Gold and system columns of a FILE by the column rule (``n_columns()`` is called only when the
    rule needs the file's width; columns the user gave as such are checked by the reader)."""
    if system_cols is None and gold_col is None:
        return -2, [-1]
    if system_cols is not None and gold_col is not None:
        return gold_col, list(system_cols)
    n = n_columns()

    def one(c: int) -> int:
        if c == 0 or not -n <= c <= n:
            raise UsageError(f"{path}: column {c} does not exist: the file has {n} columns "
                             f"(give 1..{n}, or -1..-{n} counting from the end)")
        return c if c > 0 else n + c + 1

    if system_cols is None:
        g = one(gold_col)
        return g, list(range(g + 1, n + 1))
    systems = [one(c) for c in system_cols]
    if systems[0] == 1:
        raise UsageError(f"{path}: no column before the first system column 1 to take as gold; give --gold-col")
    return systems[0] - 1, systems


def system_name(path: str) -> str:
    """A system file's name: no directory, compression suffix or last extension; ``-`` is ``stdin``."""
    if path == STDIN:
        return "stdin"
    base = os.path.basename(str(path).rstrip("/"))
    for suffix in COMPRESSION_SUFFIXES:
        if base.lower().endswith(suffix) and len(base) > len(suffix):
            base = base[: -len(suffix)]
    return base.rsplit(".", 1)[0] if "." in base[1:] else base


def system_names(paths: Sequence[str], names: Optional[Sequence[str]] = None, what: str = "system files") -> List[str]:
    """``names`` (checked) or the files' names; two equal names or ``gold`` are an error naming the files."""
    if names is not None and len(names) != len(paths):
        raise UsageError(f"{len(names)} names for {len(paths)} {what}")
    out = list(names) if names is not None else [system_name(p) for p in paths]
    seen: Dict[str, int] = {}
    for k, n in enumerate(out):
        if n in seen:
            raise UsageError(f"system name {n!r} is given twice ({paths[seen[n]]} and {paths[k]}); system names "
                             "must be unique (rename the files or give --names)")
        if n == "gold":
            raise UsageError("'gold' cannot be a system name")
        seen[n] = k
    return out


def expand(paths: Sequence[str], pattern: str = "*", exclude: Sequence[str] = ()) -> List[str]:
    """Files, with each directory replaced by its (non-hidden, matching) files in sorted order."""
    skip = {os.path.realpath(x) for x in exclude}
    out: List[str] = []
    for p in paths:
        if p != STDIN and os.path.isdir(p):
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


# ---------------------------------------------------------------------------
# the loader


def load(request: Request, args: argparse.Namespace, command: str = "score", min_systems: int = 1):
    """The Corpus ``request`` describes, read with the shared reading options in ``args``."""
    if request.gold is not None:
        return _load_files(request, args, command, min_systems)
    if request.file is None:
        raise UsageError("give a FILE, or --gold G with system files")
    return _load_file(request, args, command, min_systems)


_NUMBER = {1: "one", 2: "two", 3: "three"}


def _too_few(command: str, min_systems: int, what: str, found: str) -> UsageError:
    k = _NUMBER.get(min_systems, str(min_systems))
    return UsageError(f"{command} needs at least {k} systems: at least {k} {what}, {found}")


def _load_file(request: Request, args: argparse.Namespace, command: str, min_systems: int):
    from ..io import read_conll
    from ..io.columns import count_columns

    path = request.file
    if path != STDIN and os.path.isdir(path):
        raise InputError("is a directory, expected a column file (a directory of system files goes after "
                         "--gold GOLD)", path)
    kw = reading(args, request.scheme)
    gcol, scols = resolve_columns(path, lambda: count_columns(path, kw["delimiter"]), request.gold_col,
                                  request.system_cols)
    if len(scols) < min_systems:
        raise _too_few(command, min_systems, f"system columns in {path}", f"got {len(scols)} "
                       f"({', '.join(map(str, scols)) or 'none after the gold column'}): give --gold-col N "
                       "(every later column is a system) or --system-col")
    if request.names is not None:
        names = system_names(scols, request.names, "system columns")
    else:   # several columns: colN, numbered by the reader once it knows the file's width
        names = [system_name(path)] if len(scols) == 1 else None
    with option_errors():
        return read_conll(path, gold_column=gcol, system_columns=scols, names=names, **kw)


def _load_files(request: Request, args: argparse.Namespace, command: str, min_systems: int):
    from ..io import read_conll_pair

    files = list(request.systems)
    if len(files) < min_systems:
        raise _too_few(command, min_systems, "system files", f"got {len(files)}"
                       + (f" ({files[0]})" if files else ""))
    scols = request.system_cols if request.system_cols is not None else [-1]
    if len(scols) != 1:
        raise UsageError("with one file per system give one --system-col (the same for every system file)")
    names = system_names(files, request.names)
    kw = reading(args, request.scheme)
    with option_errors():
        return read_conll_pair(request.gold, files, gold_column=-1 if request.gold_col is None else request.gold_col,
                               system_column=scols[0], names=names, **kw)
