"""``ts-eval convert SRC DST``: read any supported input and write it in any writable format
(:func:`ts_eval.io.convert.convert`), with a short report of what was read, written and could not
be held.

    ts-eval convert gold.conll gold.jsonl                   # columns -> JSON Lines (tokens)
    ts-eval convert gold.jsonl gold.bioes.conll --scheme IOBES
    ts-eval convert nested.ann.d/ flat.conll --overlapping outermost --verify

The report goes to standard error (standard output stays the converted data when DST is ``-``).
Exit codes: 0 done, 1 bad input, 2 bad usage.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Dict

READ_FORMATS = ("columns", "jsonl-tokens", "jsonl-text", "label-studio", "brat", "conllu", "germeval", "generated")
WRITE_FORMATS = ("columns", "jsonl-tokens", "jsonl-text", "brat")   # = ts_eval.io.convert.WRITERS
# reader options of the command line -> the reader's keyword (given only when set)
READER_OPTIONS = ("column", "token_column", "policy", "align", "tokenizer", "id_key", "text_key", "misc_key",
                  "discontinuous", "generated", "ground", "normalize", "fuzzy_threshold")


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``convert`` to the ``ts-eval`` parser (the formats registered from outside the package are offered
    after the package's: those with a writer by ``--to`` too)."""
    from ..io.formats import added

    p: argparse.ArgumentParser = subparsers.add_parser(
        "convert", help="convert labelled spans between formats (columns, JSON Lines, brat, ...)",
        description="Read SRC in any supported format and write it to DST in a writable one: columns (one "
                    "IOB column in any scheme), jsonl-tokens, jsonl-text, brat (a directory). Formats are "
                    "told from the names and content unless --from/--to are given; '-' is standard input or "
                    "output; .gz/.bz2/.xz compress. Nothing is dropped silently: spans the target cannot hold "
                    "are an error unless --overlapping outermost. The report goes to standard error.")
    p.add_argument("src", metavar="SRC", help="input file or brat directory ('-': standard input)")
    p.add_argument("dst", metavar="DST", help="output file or directory ('-': standard output)")
    p.add_argument("--from", dest="from_format", choices=READ_FORMATS + tuple(f.name for f in added()),
                   help="input format (default: detected)")
    writable = WRITE_FORMATS + tuple(f.name for f in added() if f.write is not None)
    p.add_argument("--to", dest="to_format", choices=writable, help="output format (default: from DST's name)")
    p.add_argument("--scheme", default="IOB2", metavar="S", help="tag scheme of columns output (default IOB2)")
    p.add_argument("--overlapping", default="error", choices=("error", "outermost"),
                   help="columns output: nested or overlapping spans are an error (default) or only the "
                        "outermost are kept (the dropped ones are listed)")
    p.add_argument("--tokens", default="auto", metavar="MODE",
                   help="jsonl-text output: when to write the tokens (default auto)")
    p.add_argument("--verify", action="store_true", help="read the output back and check it holds the same spans")
    r = p.add_argument_group("reading (as ts_eval.read takes them; only for the formats that have them)")
    r.add_argument("--in-scheme", metavar="S", help="tag scheme of the input (columns, jsonl-tokens, conllu)")
    r.add_argument("--column", type=int, metavar="N", help="columns/conllu: the tag column (default the last)")
    r.add_argument("--token-column", type=int, metavar="N", help="columns: the token column (default 1)")
    r.add_argument("--policy", metavar="P", help="ill-formed chunks: conlleval, strict, discard, nereval")
    r.add_argument("--align", metavar="A", help="jsonl-text, brat: how character spans meet tokens")
    r.add_argument("--tokenizer", metavar="T", help="jsonl-text, brat: tokenizer of texts without tokens")
    r.add_argument("--id-key", metavar="KEY", help="JSON Lines: the document id key")
    r.add_argument("--text-key", metavar="KEY", help="jsonl-text: the text key")
    r.add_argument("--misc-key", metavar="KEY", help="conllu: the MISC key holding the tag")
    r.add_argument("--discontinuous", metavar="D", help="brat: what to do with discontinuous spans")
    r.add_argument("--side", default="gold", choices=("gold", "system"),
                   help="germeval input: which side of the 6-column file (default gold)")
    g = p.add_argument_group("generated outputs (entity strings without offsets) placed on gold's texts")
    g.add_argument("--gold", metavar="G", help="SRC is a generated output: write its strings as spans where they "
                                               "occur in G's documents (paired by id, else by order)")
    g.add_argument("--generated", choices=("ground", "fuzzy"), help="exact occurrences (default) or near matches")
    g.add_argument("--ground", choices=("first", "all"), help="first free occurrence (default) or every occurrence")
    g.add_argument("--normalize", metavar="STEPS", help="string normalisation (default: space,punct)")
    g.add_argument("--fuzzy-threshold", type=float, metavar="T", help="fuzzy: least similarity, 0-100 (default 90)")
    g.add_argument("--generated-field", metavar="KEY", help="the key of a record's entities (default entities)")
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``ts-eval convert``; returns the exit code (errors are raised)."""
    from ..io.convert import convert
    from .errors import option_errors
    from .inputs import check_paths

    check_paths(args, [("SRC", args.src)], [("DST", args.dst)])
    options: Dict[str, Any] = {k: getattr(args, k) for k in READER_OPTIONS if getattr(args, k) is not None}
    if args.generated_field is not None:
        options["field"] = args.generated_field
    src: Any = args.src
    in_scheme = args.in_scheme or None
    with option_errors():
        if in_scheme and (args.gold or args.from_format in ("germeval", "generated")):
            # (read whole first, as these inputs are; the errors they give)
            from ..io.reader import read

            if args.from_format == "germeval":
                raise ValueError("--in-scheme does not apply to germeval input (IOB2 by definition)")
            src = read(args.src, format=args.from_format, scheme=in_scheme, **options)
            options, in_scheme = {}, None
        report = convert(src, args.dst, from_format=args.from_format, to_format=args.to_format, scheme=args.scheme,
                         overlapping=args.overlapping, tokens=args.tokens, verify=args.verify, side=args.side,
                         gold=args.gold, in_scheme=in_scheme, **options)
    for line in report.lines():
        print(f"ts-eval convert: {line}", file=sys.stderr)
    return 1 if report.verified is False else 0
