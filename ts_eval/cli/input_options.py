"""The options every command that reads inputs shares: the input files (``FILE`` or ``--gold``/``--system``),
the columns (``--gold-col``, ``--system-col``, ``--names``), the reading options (scheme, policy, conlleval.pl's
``-d``, ``-o``, ``-r``, ...), the input formats and generated outputs.  What they describe, the
:class:`~ts_eval.io.inputs.Inputs` a command reads, is made in :mod:`.inputs`."""
from __future__ import annotations

import argparse
from typing import Any, Optional, Sequence

from .once import Once

POLICIES = ("conlleval", "strict", "discard")
COLUMN_RULE = ("Columns are 1-based (negative: from the end). One FILE: gold = second-to-last column, "
               "system = last, unless given; --gold-col alone: every later column is a system; --system-col "
               "alone: gold is the column before the first system column. One file per system (--gold): "
               "the last column of each file unless given.")


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


def add_file_arguments(p: Any, several: bool = False) -> None:
    """``FILE`` (gold and system columns), or ``--gold G`` with system files (``--gold G S [S ...]`` as
    ``rank`` and ``compare`` take them, or ``--gold G --system S [S ...]``): what ``score`` and ``fair`` read;
    ``several``: ``--gold`` may be repeated (several references, NAME=PATH each; a list)."""
    p.add_argument("file", nargs="*", metavar="FILE",
                   help="column file with gold and system columns; after --gold G: system files (like --system)")
    if several:
        p.add_argument("--gold", metavar="G", action="append",
                       help="gold file, any input format (two-file mode); several references of the same tokens: "
                            "NAME=PATH each, repeated (every system against every reference)")
    else:
        p.add_argument("--gold", metavar="G", action=Once, help="gold file, any input format (two-file mode)")
    p.add_argument("--system", nargs="+", metavar="S", help="system file(s), any input format (two-file mode)")


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


def processes(value: str) -> int:
    """``--jobs``: a whole number of processes >= 1 (else a usage error naming the value)."""
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes >= 1, got {value!r}")
    return n


def add_jobs_option(p: Any, what: str, alone: str = "two-file mode") -> None:
    """``--jobs N``: ``what`` one column FILE in N processes (``alone``: what else is read in one)."""
    p.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help=f"{what} one column FILE in N processes, a shard of whole sentences each (default 1; {alone}, "
                        "standard input, compressed files and --scheme auto are read in one)")
