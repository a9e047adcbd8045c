"""Reading a command's inputs: one loader, one column rule and one system-name rule for every command.

**Columns** (1-based; negative numbers count from the end), the same for ``score``, ``fair``, ``compare`` and
``rank`` (conlleval.pl's layout, ``TOKEN ... GOLD SYSTEM``, is the default):

- one FILE, neither ``--gold-col`` nor ``--system-col``: gold is the second-to-last column, the
  system the last;
- ``--gold-col N`` alone: the systems are every column after N;
- ``--system-col N [M ...]`` alone: gold is the column before the first system column;
- ``--gold G`` with one file per system: the last column of each file unless given (one
  ``--system-col`` then applies to every system file).

**Formats**: every input is read by the reader of its format (:mod:`ts_eval.io`): ``--input-format``
forces one for every input (``--gold-format`` for gold alone), else it is chosen by extension and
content (a directory is brat); ``-`` reads standard input and .gz/.bz2/.xz files are decompressed.
One FILE with gold and system columns is a column file; other formats come as ``--gold G`` plus
one input per system, and gold and systems may differ in format when they hold the same tokens
(or the same texts).  The column options (columns, delimiter, --raw, ...) are for column files.

**System names**: ``--names`` if given; else a system column of a file with several is ``colN``;
a file is its name without directory, compression suffix (.gz, .bz2, .xz) and last extension
(``runs/crf.conll.gz`` -> ``crf``; standard input ``-`` -> ``stdin``).  Two systems with the same
name, or a system called ``gold``, are an error naming both files (rename them or give ``--names``).
"""
from __future__ import annotations

import argparse
import os
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ..errors import InputError
from .errors import UsageError, option_errors

POLICIES = ("conlleval", "strict", "discard")
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
    sides: Optional[Sequence[str]] = None   # what messages call gold and each system (agree: its annotators)


# ---------------------------------------------------------------------------
# options


def _scheme_name(value: str) -> str:
    from ..core.schemes import resolve_scheme_name

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


def add_file_arguments(p: Any) -> None:
    """``FILE`` (gold and system columns), or ``--gold G`` with system files (``--gold G S [S ...]`` as
    ``rank`` and ``compare`` take them, or ``--gold G --system S [S ...]``): what ``score`` and ``fair`` read."""
    p.add_argument("file", nargs="*", metavar="FILE",
                   help="column file with gold and system columns; after --gold G: system files (like --system)")
    p.add_argument("--gold", metavar="G", help="gold file, any input format (two-file mode)")
    p.add_argument("--system", nargs="+", metavar="S", help="system file(s), any input format (two-file mode)")


def file_request(args: argparse.Namespace) -> Request:
    """The :class:`Request` of :func:`add_file_arguments` and :func:`add_column_options`; afterwards
    ``args.file`` is the one FILE (or None) and ``args.system`` the system files (or None)."""
    files = [args.file] if isinstance(args.file, str) else list(args.file or [])
    if args.gold:
        if files and args.system:
            raise UsageError("give either FILE or --gold/--system, not both (system files go after --gold G "
                             "or after --system)")
        systems = args.system or files
        if not systems:
            raise UsageError("two-file mode needs system files: --gold G S [S ...] or --gold G --system S [S ...]")
        args.file, args.system = None, systems
        return Request(gold=args.gold, systems=systems, names=args.names, gold_col=args.gold_col,
                       system_cols=args.system_col)
    if args.system:
        if files:
            raise UsageError("give either FILE or --gold/--system, not both")
        raise UsageError("two-file mode needs both --gold and --system")
    if len(files) != 1:
        raise UsageError("give a FILE, or --gold G --system S" if not files else
                         f"{len(files)} files: give --gold G to name the gold file (the others are systems), or "
                         "one FILE holding gold and system columns")
    args.file = files[0]
    return Request(file=files[0], names=args.names, gold_col=args.gold_col, system_cols=args.system_col)


def request_paths(request: Request) -> List[Tuple[str, str]]:
    """The files a :class:`Request` reads, each with how a message names it."""
    if request.gold is None:
        return [("FILE", request.file)] if request.file is not None else []
    systems = list(request.systems)
    return [("--gold", request.gold)] + [(f"system {k + 1}" if len(systems) > 1 else "system", s)
                                         for k, s in enumerate(systems)]


def check_paths(args: argparse.Namespace, inputs: Sequence[Tuple[str, Optional[str]]],
                outputs: Optional[Sequence[Tuple[str, Optional[str]]]] = None) -> None:
    """Before anything is read: standard input is named at most once, and no output (``--output``
    unless ``outputs`` are given) is one of the inputs (``--tag-names`` included), by inode."""
    from ..io.sink import check_outputs, check_stdin_once

    named = [(what, path) for what, path in inputs if path] + \
        ([("--tag-names", args.tag_names)] if getattr(args, "tag_names", None) else [])
    check_stdin_once(named)
    wanted = outputs if outputs is not None else [("--output", getattr(args, "output", None))]
    check_outputs([(what, path) for what, path in wanted if path], named)


def input_settings(args: argparse.Namespace, corpus) -> Dict[str, Any]:
    """What :func:`file_request` read, for a report's ``settings["input"]``."""
    return {"file": args.file, "gold": args.gold, "system": args.system, "gold_col": corpus.gold_info.column,
            "token_col": args.token_col, "system_cols": [i.column for i in corpus.system_info.values()],
            "delimiter": args.delimiter, "raw": args.raw, "outside_tag": args.outside_tag,
            "tags_only": args.tags_only}


def add_column_options(p: Any, systems: str = "several columns in FILE are several systems") -> None:
    """``--gold-col``, ``--system-col`` and ``--names``, documented with the column rule."""
    p.add_argument("--gold-col", type=int, default=None, metavar="N",
                   help="gold column (default: second-to-last in FILE, last in a gold file)")
    p.add_argument("--system-col", type=int, nargs="+", default=None, metavar="N",
                   help=f"system column(s) (default: the last; with --gold-col alone every column after it); "
                        f"{systems}")
    p.add_argument("--names", nargs="+", metavar="NAME",
                   help="system names (default: the file name without extension, or colN for columns)")


def _format_options(p: argparse.ArgumentParser) -> None:
    from ..io.choices import ALIGN_MODES, DISCONTINUOUS
    from ..io.detect import FORMATS

    g = p.add_argument_group("input formats", "Formats: " + ", ".join(FORMATS) + ". '-' reads standard input; "
                             ".gz, .bz2 and .xz files are decompressed.")
    g.add_argument("--input-format", default="auto", choices=("auto",) + tuple(FORMATS), metavar="FORMAT",
                   help="format of every input (default auto: by extension and content; a directory is brat)")
    g.add_argument("--gold-format", default=None, choices=FORMATS, metavar="FORMAT",
                   help="gold's format when it differs from the systems' (default: as --input-format)")
    g.add_argument("--tag-names", metavar="FILE",
                   help="jsonl-tokens with integer 'ner_tags': the tag names (a JSON list, or dataset_info.json)")
    g.add_argument("--align", default=None, choices=ALIGN_MODES,
                   help="character-offset inputs (jsonl-text, label-studio, brat): a span not on token boundaries "
                        "is an error (strict, default), grows to the covering tokens (expand), or shrinks to the "
                        "tokens inside it (contract)")
    g.add_argument("--discontinuous", default=None, choices=DISCONTINUOUS,
                   help="brat: a discontinuous span is an error (default), its first fragment, or its hull")
    g.add_argument("--misc-key", default=None, metavar="KEY",
                   help="conllu: the MISC key holding the tags (default NER)")
    gen = p.add_argument_group("generated outputs", "Systems that give entity strings with labels and no "
                               "offsets (JSON Lines {\"id\", \"entities\": [{\"text\", \"label\"}]}, "
                               "[[text, label], ...] or {label: [text, ...]}), placed on gold's texts.")
    gen.add_argument("--generated", default=None, choices=("ground", "strings", "fuzzy"),
                     help="ground (default): each string becomes a span where it occurs in gold's text, scored by "
                          "every model; strings: only the strings model (multiset F1 over (normalised string, "
                          "label) pairs, no positions) by default; fuzzy: as ground, near matches accepted "
                          "(needs rapidfuzz)")
    gen.add_argument("--ground", default=None, choices=("first", "all"),
                     help="a string is a span at its first free occurrence, left to right (first, default) or at "
                          "every occurrence (all)")
    gen.add_argument("--normalize", default=None, metavar="STEPS",
                     help="string normalisation: a preset default (space,punct), none, universalner, or steps "
                          "from case, all-punct, punct, articles, space, dedupe")
    gen.add_argument("--fuzzy-threshold", type=float, default=None, metavar="T",
                     help="fuzzy: the least similarity (rapidfuzz ratio, 0-100; default 90)")
    gen.add_argument("--generated-field", default=None, metavar="KEY",
                     help="the key of a record's entities (default entities)")


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
                   help="rewrite labels with a regular expression before scoring, in every input format "
                        "(repeatable, applied in order; a label rewritten to the empty string is dropped), "
                        "e.g. 'deriv$='")
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
    _format_options(p)


def label_map(args: argparse.Namespace) -> List[Tuple[str, str]]:
    """``--map-label`` as (pattern, replacement) pairs (a bad pattern is an option error)."""
    from ..core.corpus import parse_label_map

    with option_errors():
        return parse_label_map(args.map_label)


def reading(args: argparse.Namespace, scheme: Optional[str] = None) -> Dict[str, Any]:
    """The column readers' keyword arguments from the shared reading options."""
    default_scheme = "conlleval" if getattr(args, "format", None) == "conlleval" else "IOB2"
    return dict(token_column=args.token_col, scheme=scheme or args.scheme or default_scheme,
                policy=args.policy or "conlleval", label_map=label_map(args), delimiter=args.delimiter,
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

    if gold_col is not None:        # (and no system columns: both given returned above)
        g = one(gold_col)
        return g, list(range(g + 1, n + 1))
    systems = [one(c) for c in system_cols or ()]
    if systems[0] == 1:
        raise UsageError(f"{path}: no column before the first system column 1 to take as gold; give --gold-col")
    return systems[0] - 1, systems


def system_names(paths: Sequence[Union[str, int]], names: Optional[Sequence[str]] = None,
                 what: str = "system files") -> List[str]:
    """``names`` (checked) or the files' names; two equal names or ``gold`` are an error naming the files."""
    from ..io.source import system_name

    if names is not None and len(names) != len(paths):
        raise UsageError(f"{len(names)} names for {len(paths)} {what}")
    out = list(names) if names is not None else [system_name(str(p)) for p in paths]
    seen: Dict[str, int] = {}
    for k, n in enumerate(out):
        if n in seen:
            raise UsageError(f"system name {n!r} is given twice ({paths[seen[n]]} and {paths[k]}); system names "
                             "must be unique (rename the files or give --names)")
        if n == "gold":
            raise UsageError(f"--names: 'gold' (for {paths[k]}) cannot be a system name: it names the gold side"
                             if names is not None else
                             f"{paths[k]}: its system name would be 'gold' (from the file name), which names the "
                             "gold side; rename the file or give --names")
        seen[n] = k
    return out


def expand(paths: Sequence[str], pattern: str = "*", exclude: Sequence[str] = (), brat: bool = False) -> List[str]:
    """Files, with each directory replaced by its (non-hidden, matching) files in sorted order -- except a
    brat collection (a directory holding .ann files, or any directory with ``brat``), which is one input."""
    from pathlib import Path  # (only here: score FILE does without it)

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


@contextmanager
def taken_from_directories(paths: Sequence[str], pattern: str) -> Iterator[None]:
    """Inside: bad input in a file that one of the directories among ``paths`` gave (its files matching
    ``pattern``, :func:`expand`) says so, and which ``--glob`` takes only the system files (a README beside
    them is no column file)."""
    dirs = {os.path.realpath(p): p for p in paths if p != STDIN and os.path.isdir(p)}
    try:
        yield
    except InputError as err:
        folder = dirs.get(os.path.realpath(os.path.dirname(err.path))) if err.path else None
        if folder is None or err.path is None:
            raise
        from pathlib import Path

        name = os.path.basename(err.path)
        others = [f.suffix for f in Path(folder).glob(pattern) if f.is_file() and f.name != name
                  and not f.name.startswith(".")]
        common = Counter(s for s in others if s).most_common(1)
        glob = f"'*{common[0][0]}'" if common and common[0][0] != Path(name).suffix else "PATTERN"
        raise InputError([*err.parts, f" ({name} is one of the files taken from the directory {folder}"
                          f" by --glob {pattern!r}: give --glob {glob} to take only the system files)"],
                         err.path, err.line) from None


# ---------------------------------------------------------------------------
# the loader


def load(request: Request, args: argparse.Namespace, command: str = "score", min_systems: int = 1):
    """The Corpus ``request`` describes, read with the shared reading options in ``args``."""
    if request.gold is not None:
        formats = [input_format(request.gold, args, gold=True)] + [input_format(f, args) for f in request.systems]
        if set(formats) == {"columns"}:
            return _load_files(request, args, command, min_systems)
        return _load_documents(request, args, command, min_systems, formats)
    if request.file is None:
        raise UsageError("give a FILE, or --gold G with system files")
    if request.file != STDIN and os.path.isdir(request.file):
        raise InputError("is a directory, expected a column file (a directory of system files goes after "
                         "--gold GOLD)", request.file)
    fmt = input_format(request.file, args)
    if fmt != "columns":
        raise UsageError(f"{request.file} is read as {fmt}, which holds one side: give the gold file and the "
                         "system files separately (--gold GOLD and the system inputs)")
    return _load_file(request, args, command, min_systems)


def input_format(path: str, args: argparse.Namespace, gold: bool = False) -> str:
    """The format ``path`` is read as: forced (``--gold-format`` for gold, ``--input-format``), else by
    extension and content."""
    forced = (getattr(args, "gold_format", None) if gold else None) or getattr(args, "input_format", "auto")
    if forced and forced != "auto":
        return forced
    from ..io.detect import detect_format
    from ..io.source import is_dir, read_head

    if is_dir(path):
        return "brat"
    return detect_format(path, read_head(path))


_NUMBER = {1: "one", 2: "two", 3: "three"}


def _too_few(command: str, min_systems: int, what: str, found: str) -> UsageError:
    k = _NUMBER.get(min_systems, str(min_systems))
    return UsageError(f"{command} needs at least {k} systems: at least {k} {what}, {found}")


def _given(path: Optional[str], what: str) -> str:
    """The path the request names (the parser makes every request name its inputs)."""
    if path is None:
        raise UsageError(f"no {what} given")
    return path


def _load_file(request: Request, args: argparse.Namespace, command: str, min_systems: int):
    from ..io import read_conll
    from ..io.columns import count_columns

    path = _given(request.file, "input file")
    kw = reading(args, request.scheme)
    gcol, scols = resolve_columns(path, lambda: count_columns(path, kw["delimiter"]), request.gold_col,
                                  request.system_cols)
    if len(scols) < min_systems:
        raise _too_few(command, min_systems, f"system columns in {path}", f"got {len(scols)} "
                       f"({', '.join(map(str, scols)) or 'none after the gold column'}): give --gold-col N "
                       "(every later column is a system) or --system-col")
    # without names: the reader names one column after the file, several colN
    names = system_names(scols, request.names, "system columns") if request.names is not None else None
    with option_errors():
        return read_conll(path, gold_column=gcol, system_columns=scols, names=names, **kw)


@dataclass
class Blocks:
    """What :func:`block_request` reads in blocks of whole sentences: one column ``file``, or a ``gold``
    file and ``systems`` (two-file mode), with the readers' keyword ``options``."""

    options: Dict[str, Any]
    file: Optional[str] = None
    gold: Optional[str] = None
    systems: Sequence[str] = ()

    @property
    def paths(self) -> List[str]:
        return [self.file] if self.file is not None else [_given(self.gold, "gold file"), *self.systems]


def block_request(request: Request, args: argparse.Namespace, command: str = "score",
                  min_systems: int = 1) -> Optional[Blocks]:
    """How to read ``request`` in blocks of whole sentences (:func:`ts_eval.io.conll.read_conll_blocks`,
    :func:`~ts_eval.io.conll.read_conll_pair_blocks`), or None when it cannot be: one column FILE and a
    gold column file with column files per system can (standard input and compressed files too), also
    with ``--scheme auto`` (standard input is kept in a temporary file for the second pass); so can a gold file and
    system files in CoNLL-U and JSON Lines and brat directories (:func:`_document_blocks`), and for ``score``
    generated outputs among the systems; the other formats are read whole."""
    paths = [request.file] if request.gold is None else [request.gold, *request.systems]
    if any(p is None for p in paths):
        return None
    gold = request.gold is not None
    each = [input_format(p, args, gold=gold and k == 0) for k, p in enumerate(paths) if p is not None]
    formats = set(each)
    if gold and formats <= set(BLOCK_FORMATS) and formats != {"columns"}:
        if "generated" in formats and (command != "score" or each[0] == "generated"):
            return None     # (rank reads generated outputs whole; gold cannot be one: the whole read says so)
        return _document_blocks(request, args, each, min_systems)
    if formats != {"columns"}:
        return None
    kw = reading(args, request.scheme)
    if gold:
        files = list(request.systems)
        scols = request.system_cols if request.system_cols is not None else [-1]
        if len(files) < min_systems or len(scols) != 1:
            return None
        return Blocks(dict(gold_column=-1 if request.gold_col is None else request.gold_col,
                           system_column=scols[0], names=system_names(files, request.names), **kw),
                      gold=request.gold, systems=files)
    from ..io.columns import count_columns

    path = _given(request.file, "input file")
    gcol, scols = resolve_columns(path, lambda: count_columns(path, kw["delimiter"]), request.gold_col,
                                  request.system_cols)
    if len(scols) < min_systems:
        return None
    names = system_names(scols, request.names, "system columns") if request.names is not None else None
    return Blocks(dict(gold_column=gcol, system_columns=scols, names=names, **kw), file=path)


#: two-file mode in lock-step blocks of documents (ts_eval.streaming.files; column files alone: ts_eval.io.conll)
BLOCK_FORMATS = ("conllu", "jsonl-tokens", "jsonl-text", "label-studio", "brat", "columns", "generated")


def _document_blocks(request: Request, args: argparse.Namespace, formats: List[str],
                     min_systems: int) -> Optional[Blocks]:
    """How to read a gold file and system files in CoNLL-U, JSON Lines or brat (each in its own format, column
    files among them) in lock-step blocks of whole documents (:func:`ts_eval.streaming.files.read_pair_blocks`),
    or None: ``--scheme auto`` (detected over each whole file) and options that none of these formats takes
    (a generated output's, without one) are read whole.  Standard input too is read in blocks: what is read of
    it is kept in a temporary file, from which it is read whole again when the documents pair by id in another order."""
    from ..io.lockstep import TAKES

    files = list(request.systems)
    options = _reader_options(args)
    if (len(files) < min_systems or options.get("scheme") == "auto"
            or set(options) - set().union(*(TAKES[f] for f in formats))):
        return None
    fmt: Any = formats[0] if len(set(formats)) == 1 else formats
    return Blocks(dict(format=fmt, names=system_names(files, request.names), label_map=label_map(args),
                       **options), gold=request.gold, systems=files)


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
        return read_conll_pair(_given(request.gold, "gold file"), files,
                               gold_column=-1 if request.gold_col is None else request.gold_col,
                               system_column=scols[0], names=names, sides=request.sides, **kw)


COLUMN_ONLY = {"gold_col": None, "system_col": None, "token_col": 1, "delimiter": None, "raw": False,
               "outside_tag": "O", "tags_only": False}
READER_OPTIONS = ("tag_names", "align", "discontinuous", "misc_key", "generated", "ground", "normalize",
                  "fuzzy_threshold")


def _reader_options(args: argparse.Namespace) -> Dict[str, Any]:
    """The reader options given (each reader takes those that apply to it; one that applies to none of the
    formats read is an error)."""
    given = [k for k, default in COLUMN_ONLY.items() if getattr(args, k, default) != default]
    if given:
        raise UsageError(f"--{given[0].replace('_', '-')} applies to column files only; these inputs are read in "
                         "other formats")
    options = {k: getattr(args, k) for k in READER_OPTIONS if getattr(args, k, None) is not None}
    if getattr(args, "generated_field", None) is not None:
        options["field"] = args.generated_field
    if args.scheme:
        options["scheme"] = args.scheme
    if args.policy:
        options["policy"] = args.policy
    return options


def _load_documents(request: Request, args: argparse.Namespace, command: str, min_systems: int,
                    formats: List[str]):
    """Gold and systems in any supported formats (at least one not a column file), paired by document id
    or order (:func:`ts_eval.io.api.read_pair`)."""
    from ..io.api import read_pair

    files = list(request.systems)
    if len(files) < min_systems:
        raise _too_few(command, min_systems, "system inputs", f"got {len(files)}")
    names = system_names(files, request.names)
    forced = args.input_format if args.input_format != "auto" else None
    options = _reader_options(args)
    with option_errors():
        return read_pair(_given(request.gold, "gold input"), files, format=formats[0], system_format=forced,
                         names=names, label_map=label_map(args), sides=request.sides, **options)
