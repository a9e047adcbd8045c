"""What a study reads: :class:`Inputs`, one object for the command line and for Python.

Inputs are one column file with gold and system columns (``file``), or a gold input and one input per
system (``gold`` and ``systems``; a directory among the systems stands for its files that match ``glob``,
except a brat collection, which is one input).

**Columns** (1-based; negative numbers count from the end):

- one file, neither ``gold_column`` nor ``system_columns``: gold is the second-to-last column, the system the
  last (conlleval.pl's layout, ``TOKEN ... GOLD SYSTEM``);
- ``gold_column`` alone: the systems are every column after it;
- ``system_columns`` alone: gold is the column before the first system column;
- a gold file with one file per system: the last column of each file unless given (one system column then
  applies to every system file).

**Formats**: ``format`` forces one for every input (``gold_format`` for gold alone), else each input's is
chosen by extension and content (a directory is brat); ``-`` reads standard input and .gz/.bz2/.xz files are
decompressed.  Gold and systems may differ in format when they hold the same tokens (or texts).  The column
options (columns, ``delimiter``, ``raw``, ...) are for column files; ``options`` holds the other readers'
(``align``, ``discontinuous``, ``misc_key``, ``tag_names``, and a generated output's ``generated``,
``ground``, ``normalize``, ``fuzzy_threshold``, ``field``): each reader takes those that apply to it, and one
that applies to none of the formats read is an error.

**System names**: ``names`` if given; else a system column of a file with several is ``colN``; a file is its
name without directory, compression suffix and last extension (``runs/crf.conll.gz`` -> ``crf``; standard
input -> ``stdin``).  Two systems with the same name, or a system called ``gold``, are an error naming both.

**Jobs**: counting the inputs (:func:`ts_eval.streaming.files.count`, what ``score`` does) reads one plain column
file in ``jobs`` processes, a shard of whole sentences each, and adds up their counts (the same counts as one
process); inputs it cannot cut are counted in one, and every other reading is in one.
"""
from __future__ import annotations

import os
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from ..core.options import Options
from ..errors import Hint, InputError, OptionError, Part
from .paths import expand as expand  # (re-exported: its callers import it from here)
from .paths import system_names as system_names
from .source import STDIN
from .source import display_name as display

if TYPE_CHECKING:
    from ..core.corpus import Corpus

#: the column readers' options, with their defaults (they apply to column files only)
COLUMN_OPTIONS: Dict[str, object] = {"token_column": 1, "delimiter": None, "raw": False, "outside_tag": "O",
                                     "tags_only": False}
#: the other readers' options (``Inputs.options``)
READER_OPTIONS = ("tag_names", "align", "discontinuous", "misc_key", "generated", "ground", "normalize",
                  "fuzzy_threshold", "field")
_NUMBER = {1: "one", 2: "two", 3: "three"}


@dataclass(frozen=True)
class Inputs(Options):
    """What a study reads, and how (see the module docstring)."""

    file: Optional[str] = None
    gold: Optional[str] = None
    systems: Tuple[str, ...] = ()
    names: Optional[Tuple[str, ...]] = None
    gold_column: Optional[int] = None
    system_columns: Optional[Tuple[int, ...]] = None
    format: Optional[str] = None
    gold_format: Optional[str] = None
    scheme: Optional[str] = None
    policy: Optional[str] = None
    label_map: Tuple[Tuple[str, str], ...] = ()
    token_column: int = 1
    delimiter: Optional[str] = None
    raw: bool = False
    outside_tag: str = "O"
    tags_only: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    #: what messages call gold and each system (agree: its annotators), None: gold and system
    words: Optional[Tuple[str, ...]] = None
    #: a directory among the systems stands for its files that match this (None: inputs are taken as given)
    glob: Optional[str] = None
    #: the scheme of column files when none is given (the command line's conlleval layout reads them as
    #: conlleval.pl does: ``conlleval``)
    default_scheme: str = "IOB2"
    #: about how many bytes of gold a block holds (None: one block, the whole inputs)
    block_bytes: Optional[int] = 1 << 22
    #: one column file's bytes start..stop only, after ``lines`` lines, with its first line's Head (a shard of
    #: :func:`ts_eval.streaming.shards.file_shards`)
    shard: Optional[Tuple[int, int, int, Any]] = None
    #: counting (:func:`ts_eval.streaming.files.count`) reads one plain column file in this many processes, a
    #: shard of whole sentences each, when it can (not standard input, a compressed file, gold with system files
    #: or the scheme ``auto``; a shard is at least ``streaming.files.MIN_SHARD_BYTES``); reading is in one
    jobs: int = 1

    @classmethod
    def given(cls, **keywords: Any) -> Inputs:
        """Inputs from keywords as the Python functions take them: the fields by name (``label_map`` and the
        sequences as any sequence), every other keyword a reader's option (``options``)."""
        names = {f.name for f in dataclass_fields(cls)} - {"options"}
        made = {k: v for k, v in keywords.items() if k in names and v is not None}
        for key in ("systems", "names", "system_columns", "words"):
            if key in made:
                made[key] = tuple(made[key])
        made["label_map"] = tuple(tuple(x) for x in made.get("label_map", ()))
        return cls(**made, options={k: v for k, v in keywords.items() if k not in names})

    # -- what is read

    def paths(self) -> List[str]:
        """The inputs, each as given (gold first)."""
        if self.gold is None:
            return [self.file] if self.file is not None else []
        return [self.gold, *self.systems]

    def system_inputs(self) -> List[str]:
        """The system inputs, each directory among them replaced by its files (:func:`expand`) when ``glob``
        is given."""
        if self.glob is None:
            return list(self.systems)
        return expand(self.systems, self.glob, exclude=[self.gold] if self.gold else [])

    def input_format(self, path: str, gold: bool = False) -> str:
        """The format ``path`` is read as: forced (``gold_format`` for gold, ``format``), else by extension
        and content."""
        forced = (self.gold_format if gold else None) or self.format
        if forced and forced != "auto":
            return forced
        from .formats import detect as detect_format
        from .source import is_dir, read_head

        if is_dir(path):
            return "brat"
        return detect_format(path, read_head(path))

    def decoding(self, scheme: Optional[str] = None) -> Dict[str, Any]:
        """The column readers' keyword arguments (decoding and column options)."""
        return dict(token_column=self.token_column, scheme=scheme or self.scheme or self.default_scheme,
                    policy=self.policy or "conlleval", label_map=list(self.label_map), delimiter=self.delimiter,
                    raw=self.raw, outside_tag=self.outside_tag, tags_only=self.tags_only)

    def reader_options(self) -> Dict[str, Any]:
        """The document readers' keyword arguments: ``options`` (those given), the scheme and the policy given;
        a column option given for inputs in other formats is an error."""
        given = ["gold_column"] if self.gold_column is not None else []
        given += ["system_columns"] if self.system_columns is not None else []
        given += [k for k, default in COLUMN_OPTIONS.items() if getattr(self, k) != default]
        if given:
            raise OptionError([Hint(given[0]), " applies to column files only; these inputs are read in other "
                               "formats"])
        options = {k: v for k, v in self.options.items() if v is not None}
        if self.scheme:
            options["scheme"] = self.scheme
        if self.policy:
            options["policy"] = self.policy
        return options

    # -- reading

    def corpus(self, command: str = "score", min_systems: int = 1) -> Corpus:
        """Every input read whole and paired: the one block of :meth:`read` with blocks of any size."""
        blocks = list(replace(self, block_bytes=None).read(command, min_systems))
        assert len(blocks) == 1       # (the road reads at least a block: an input without one is an error)
        return blocks[0]

    def read(self, command: str = "score", min_systems: int = 1) -> Iterator[Corpus]:
        """The Corpus of each block of whole sentences (documents) of gold, with the same of every system
        (``command`` and ``min_systems`` word the error for too few systems)."""
        self.check_stdin_once()
        if self.gold is None:
            return self._one_file(command, min_systems)
        files = self.system_inputs()
        formats = [self.input_format(self.gold, gold=True)] + [self.input_format(f) for f in files]
        if set(formats) == {"columns"}:
            return self._column_files(files, command, min_systems)
        return self._documents(files, formats, command, min_systems)

    def check_stdin_once(self) -> None:
        """Standard input given as more than one input is an error (it can be read once)."""
        from .sink import check_stdin_once

        check_stdin_once([("gold", p) if k == 0 and self.gold is not None else (f"system {k}", p)
                          for k, p in enumerate(self.paths())])

    def _decoding(self, columns: bool = True) -> Any:
        """How tags are decoded (the command line's conlleval layout reads column files as conlleval.pl does)."""
        from .feed import Decoding

        return Decoding(self.scheme or (self.default_scheme if columns else "IOB2"), self.policy or "conlleval",
                        tuple(self.label_map))

    def _column_options(self) -> Any:
        from .conll import ColumnOptions

        return ColumnOptions(self.token_column, self.delimiter, self.raw, self.outside_tag, self.tags_only)

    def _one_file(self, command: str, min_systems: int) -> Iterator[Corpus]:
        from .columns import count_columns

        path = self.file
        if path is None:
            raise OptionError("give a file, or a gold file with system files")
        if path != STDIN and os.path.isdir(path):
            raise InputError(["is a directory, expected a column file (a directory of system files goes after ",
                              Hint("gold", metavar="GOLD"), ")"], path)
        fmt = self.input_format(path)
        if fmt != "columns":
            raise OptionError([f"{path} is read as {fmt}, which holds one side: give the gold file and the "
                               "system files separately (", Hint("gold", metavar="GOLD"), " and the system inputs)"])
        gcol, scols = resolve_columns(path, lambda: count_columns(path, self.delimiter), self.gold_column,
                                      self.system_columns)
        if len(scols) < min_systems:
            raise too_few(command, min_systems, f"system columns in {path}", [
                f"got {len(scols)} ({', '.join(map(str, scols)) or 'none after the gold column'}): give ",
                Hint("gold_column", metavar="N"), " (every later column is a system) or ", Hint("system_columns")])
        # without names: one column is named after the file, several colN
        names = system_names(scols, self.names, "system columns") if self.names is not None else None
        from .conll import Columns

        layout = Columns(gcol, tuple(scols), tuple(names) if names is not None else None, True, self.raw,
                         self.outside_tag)
        return self._columns(lambda: (self._column_feed(path, [gcol, *scols]), []), layout)

    def _column_feed(self, path: str, columns: Sequence[int]) -> Any:
        from .conll import _outside, column_feed

        decoding = self._decoding()
        cut = _outside(columns, self.outside_tag) if decoding.scheme == "conlleval" else None
        return column_feed(path, columns, self._column_options(), self.block_bytes, cut,
                           self.shard if path == self.file else None)

    def _columns(self, feeds: Callable[[], Tuple[Any, List[Any]]], layout: Any) -> Iterator[Corpus]:
        """The blocks of column files (``feeds()``: gold's and the systems', opened afresh for each pass), the
        scheme ``auto`` detected over the whole files in a first pass."""
        from .conll import join_columns

        decoding = self._decoding()
        detected = None
        if decoding.scheme == "auto":
            from ..core.schemes import scheme_of

            if self.shard is not None:
                raise OptionError(["the scheme is detected over the whole input, and a shard is only a part of the "
                                   "file: give one (", Hint("scheme"), ") to read it in blocks"])

            if STDIN in self.paths():
                from .source import replayable_stdin

                replayable_stdin()
            evidence = None
            gold, systems = feeds()
            try:
                for found in join_columns(gold, systems, layout, decoding=decoding, words=self.words, evidence=True):
                    evidence = found if evidence is None else evidence | found
            except InputError:        # the second pass reports it where it is
                pass
            detected = scheme_of(evidence) if evidence is not None else None
        gold, systems = feeds()
        return join_columns(gold, systems, layout, decoding=decoding, words=self.words, detected=detected)

    def _column_files(self, files: List[str], command: str, min_systems: int) -> Iterator[Corpus]:
        from .conll import Columns

        if len(files) < min_systems:
            raise too_few(command, min_systems, "system files", [f"got {len(files)}"
                                                               + (f" ({files[0]})" if files else "")])
        scols = self.system_columns if self.system_columns is not None else (-1,)
        if len(scols) != 1:
            raise OptionError(["with one file per system give one ", Hint("system_columns"),
                               " (the same for every system file)"])
        gold = self.gold
        assert gold is not None
        gcol = -1 if self.gold_column is None else self.gold_column
        names = system_names(files, self.names)
        layout = Columns(gcol, (scols[0],), tuple(names), False, self.raw, self.outside_tag)
        return self._columns(lambda: (self._column_feed(gold, [gcol]),
                                      [self._column_feed(f, [scols[0]]) for f in files]), layout)

    def _documents(self, files: List[str], formats: List[str], command: str, min_systems: int) -> Iterator[Corpus]:
        from .formats import get_format
        from .join import join

        if len(files) < min_systems:
            raise too_few(command, min_systems, "system inputs", [f"got {len(files)}"])
        options = self.reader_options()
        each = [get_format(f) for f in formats]
        gold = self.gold
        assert gold is not None
        if each[0].places:
            raise InputError(f"gold is in the {each[0].name} format (strings without offsets); gold needs its text "
                             "or tokens with spans (the generated outputs are systems)", display(gold))
        names = system_names(files, self.names)
        generated = set(get_format("generated").option_names())
        spoken = [k for k in sorted(set(options) & generated) if k != "generated" or options[k] != "ground"]
        if spoken and not any(f.places for f in each):
            raise OptionError(f"option(s) {', '.join(spoken)} apply to generated outputs only; no system was read "
                              "in the generated format")
        takes = set().union(*(f.option_names() for f in each), {"scheme", "policy"}, generated)
        unknown = sorted(set(options) - takes)
        if unknown:
            raise OptionError(f"option(s) {', '.join(unknown)} apply to none of the formats read "
                              f"({', '.join(sorted({f.name for f in each}))})")
        decoding = self._decoding(columns=False)
        feeds = [f.feed(p, f.make_options(options), decoding, self.block_bytes)
                 for f, p in zip(each, [gold, *files])]
        return join(feeds[0], feeds[1:], names, decoding=decoding, words=self.words)


def too_few(command: str, min_systems: int, what: str, found: Sequence[Part]) -> OptionError:
    k = _NUMBER.get(min_systems, str(min_systems))
    return OptionError([f"{command} needs at least {k} systems: at least {k} {what}, ", *found])


def resolve_columns(path: str, n_columns: Callable[[], int], gold_col: Optional[int],
                    system_cols: Optional[Sequence[int]]) -> Tuple[int, List[int]]:
    """Gold and system columns of a file by the column rule (``n_columns()`` is called only when the rule needs
    the file's width; columns given as such are checked by the reader)."""
    if system_cols is None and gold_col is None:
        return -2, [-1]
    if system_cols is not None and gold_col is not None:
        return gold_col, list(system_cols)
    n = n_columns()

    def one(c: int) -> int:
        if c == 0 or not -n <= c <= n:
            raise OptionError(f"{path}: column {c} does not exist: the file has {n} columns "
                              f"(give 1..{n}, or -1..-{n} counting from the end)")
        return c if c > 0 else n + c + 1

    if gold_col is not None:        # (and no system columns: both given returned above)
        g = one(gold_col)
        return g, list(range(g + 1, n + 1))
    systems = [one(c) for c in system_cols or ()]
    if systems[0] == 1:
        raise OptionError([f"{path}: no column before the first system column 1 to take as gold; give ",
                           Hint("gold_column")])
    return systems[0] - 1, systems


@contextmanager
def taken_from_directories(paths: Sequence[str], pattern: str) -> Iterator[None]:
    """Inside: bad input in a file that one of the directories among ``paths`` gave (its files matching
    ``pattern``, :func:`expand`) says so, and which ``glob`` takes only the system files (a README beside them
    is no column file)."""
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
        raise InputError([*err.parts, f" ({name} is one of the files taken from the directory {folder} by ",
                          Hint("glob", pattern), ": give ", Hint("glob", metavar=glob),
                          " to take only the system files)"], err.path, err.line) from None
