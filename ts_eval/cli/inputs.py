"""A command's inputs from its arguments: the options every command that reads inputs shares, and the
:class:`~ts_eval.io.inputs.Inputs` they describe (the column rule, the formats and the system names are the
library's: :mod:`ts_eval.io.inputs`)."""
from __future__ import annotations

import argparse
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..io.inputs import READER_OPTIONS, Inputs
from .errors import UsageError, option_errors

POLICIES = ("conlleval", "strict", "discard")
STDIN = "-"
COLUMN_RULE = ("Columns are 1-based (negative: from the end). One FILE: gold = second-to-last column, "
               "system = last, unless given; --gold-col alone: every later column is a system; --system-col "
               "alone: gold is the column before the first system column. One file per system (--gold): "
               "the last column of each file unless given.")


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


def file_request(args: argparse.Namespace) -> Inputs:
    """The :class:`~ts_eval.io.inputs.Inputs` of :func:`add_file_arguments` and :func:`add_column_options`;
    afterwards ``args.file`` is the one FILE (or None) and ``args.system`` the system files (or None)."""
    files = [args.file] if isinstance(args.file, str) else list(args.file or [])
    if args.gold:
        if files and args.system:
            raise UsageError("give either FILE or --gold/--system, not both (system files go after --gold G "
                             "or after --system)")
        systems = args.system or files
        if not systems:
            raise UsageError("two-file mode needs system files: --gold G S [S ...] or --gold G --system S [S ...]")
        args.file, args.system = None, systems
        return inputs_of(args, gold=args.gold, systems=systems)
    if args.system:
        if files:
            raise UsageError("give either FILE or --gold/--system, not both")
        raise UsageError("two-file mode needs both --gold and --system")
    if len(files) != 1:
        raise UsageError("give a FILE, or --gold G --system S" if not files else
                         f"{len(files)} files: give --gold G to name the gold file (the others are systems), or "
                         "one FILE holding gold and system columns")
    args.file = files[0]
    return inputs_of(args, file=files[0])


def inputs_of(args: argparse.Namespace, *, file: Optional[str] = None, gold: Optional[str] = None,
              systems: Sequence[str] = (), names: Any = "--names", columns: bool = True, **more: Any) -> Inputs:
    """The :class:`~ts_eval.io.inputs.Inputs` of ``file`` (gold and system columns), or of ``gold`` and
    ``systems``, read with the shared reading options in ``args`` (``names``: the systems' names, None for
    their files' and columns', by default ``--names``; ``columns``: ``--gold-col`` and ``--system-col``
    apply; ``more``: other fields of Inputs)."""
    given = args.names if names == "--names" else names
    cols: Dict[str, Any] = {}
    if columns:
        system_col = args.system_col
        cols = dict(gold_column=args.gold_col,
                    system_columns=None if system_col is None else tuple([system_col] if isinstance(system_col, int)
                                                                         else system_col))
    options = {k: getattr(args, k) for k in READER_OPTIONS if getattr(args, k, None) is not None}
    if getattr(args, "generated_field", None) is not None:
        options["field"] = args.generated_field
    forced = getattr(args, "input_format", "auto")
    return Inputs(file=file, gold=gold, systems=tuple(systems), names=tuple(given) if given is not None else None,
                  format=None if forced in (None, "auto") else forced, gold_format=getattr(args, "gold_format", None),
                  scheme=args.scheme, policy=args.policy, label_map=tuple(label_map(args)),
                  token_column=args.token_col, delimiter=args.delimiter, raw=args.raw, outside_tag=args.outside_tag,
                  tags_only=args.tags_only, options=options,
                  default_scheme="conlleval" if getattr(args, "format", None) == "conlleval" else "IOB2",
                  **{**cols, **more})


def request_paths(inputs: Inputs) -> List[Tuple[str, str]]:
    """The files ``inputs`` reads, each with how a message names it."""
    if inputs.gold is None:
        return [("FILE", inputs.file)] if inputs.file is not None else []
    systems = list(inputs.systems)
    return [("--gold", inputs.gold)] + [(f"system {k + 1}" if len(systems) > 1 else "system", s)
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
    from ..io.formats import ALIGN_MODES, DISCONTINUOUS
    from ..io.formats import names as format_names

    FORMATS = format_names()

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


def load(inputs: Inputs, command: str = "score", min_systems: int = 1) -> Any:
    """The Corpus ``inputs`` describe, read whole (its errors as the command line spells them)."""
    with option_errors():
        return inputs.corpus(command, min_systems)
