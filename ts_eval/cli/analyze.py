"""``ts-eval analyze``: where systems are strong or weak, by attributes of spans and sentences,
under every model, for one system, two or many.

    ts-eval analyze --gold GOLD SYSTEM_FILE_OR_DIR ... [--train TRAIN]   (several references: --gold NAME=PATH ...)
    ts-eval analyze FILE [--gold-col N] [--system-col N N ...]     one column file, several systems

Exit codes as for ``score``: 0 done, 1 bad input, 2 bad usage.
"""
from __future__ import annotations

import argparse
from typing import Any

from . import gold_option, lists
from .errors import UsageError, option_errors
from .input_options import COLUMN_RULE, add_column_options, add_reading_options
from .inputs import check_paths, inputs_of
from .outputs import add_output_options, emit

DESCRIPTION = (
    "Score systems by attributes of spans (length in tokens and characters, label, capitalisation, "
    "position; with --train how often the string is a training entity, its label consistency, seen or "
    "unseen) and of sentences (length, entity density, out-of-vocabulary density; documents and JSON Lines "
    "fields with --by), bucket by bucket, under every model, with counts, bootstrap intervals, each "
    "model's ranking and the rank correlations within each bucket, and which buckets account for the "
    "system pairs two models order differently; with two systems the difference per bucket and a paired "
    "permutation test. " + COLUMN_RULE)


def register(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyze", help="scores by span and sentence attributes: where systems differ and why", description=DESCRIPTION)
    p.add_argument("inputs", nargs="+", metavar="SYSTEM",
                   help="system files or directories (with --gold), or one FILE with gold and system columns")
    p.add_argument("--gold", metavar="G", action="append", help="gold file; the inputs are then one file (or "
                   "directory) per system; several references: NAME=PATH each, repeated (see docs/references.md)")
    p.add_argument("--glob", default="*", metavar="PATTERN",
                   help="files to take from a system directory (default '*'; hidden files are skipped)")
    add_column_options(p, "in one FILE several columns are several systems; with --gold one for every file")
    add_reading_options(p)
    a = p.add_argument_group("attributes and buckets")
    a.add_argument("--train", metavar="TRAIN",
                   help="training data (any input format; its gold side): adds train_frequency, "
                        "label_consistency, seen and oov_density")
    a.add_argument("--vocab", metavar="FILE", help="vocabulary for oov_density, one token per line "
                                                   "(default: the training tokens)")
    a.add_argument("--by", action="append", default=[], metavar="FIELD",
                   help="slice by documents (--by document: one bucket per -DOCSTART- block) or by a field of "
                        "the JSON Lines records (dotted: meta.genre); repeatable")
    a.add_argument("--attributes", default=None, metavar="LIST",
                   help="comma-separated attributes to analyse (default: every one that applies)")
    a.add_argument("--buckets", action="append", default=[], metavar="SPEC",
                   help="a number of buckets per numeric attribute (default 4: equal frequency over the gold "
                        "values, never splitting a value), or ATTR=E1,E2,... fixed lower edges (repeatable)")
    m = p.add_argument_group("models and statistics")
    m.add_argument("--models", default=None, metavar="LIST",
                   help="comma-separated models (default: exact-f1-micro, exact-f1-macro, overlap-f1-micro, "
                        "ts-f1-micro, ts-f1-macro, fair-f1, semeval-partial-f1; names as in ts-eval rank "
                        "--list-models)")
    m.add_argument("--reference", default=None, metavar="MODEL",
                   help="the model of the charts and the summary (default: the first model)")
    m.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="paired bootstrap resamples of sentences (default 1000; 0 = none)")
    m.add_argument("--permutations", type=int, default=1000, metavar="N",
                   help="two systems: approximate-randomisation permutations per bucket (default 1000; 0 = none)")
    m.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    m.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    m.add_argument("--flips", action="append", default=[], metavar="A,B",
                   help="model pairs whose flipped system pairs are attributed to buckets (repeatable; "
                        "default every pair)")
    m.add_argument("--pair", nargs=2, metavar=("A", "B"),
                   help="the two systems compared bucket by bucket (default: the two, when there are two)")
    e = p.add_argument_group("error analysis")
    e.add_argument("--no-errors", action="store_true",
                   help="leave out the error analysis (span confusion matrices under exact and overlap matching, "
                        "the most frequent errors, per-document scores, gold suspects, inconsistent gold)")
    e.add_argument("--top", type=int, default=20, metavar="N",
                   help="errors per list, gold suspects and inconsistent strings shown (default 20)")
    e.add_argument("--min-agree", type=int, default=None, metavar="K",
                   help="systems that must agree against gold for a gold suspect (default: a clear majority, "
                        "more than half and at least 3)")
    o = p.add_argument_group("output")
    add_output_options(o)
    o.add_argument("--details", action="store_true",
                   help="table format: also every model's scores per bucket with counts and intervals, the "
                        "rank correlations and every flip table (the other formats always hold everything; "
                        "html: the details open)")
    return p


def _inputs(args: argparse.Namespace) -> Any:
    if args.gold:
        return inputs_of(args, gold=args.gold, systems=args.inputs, glob=args.glob)
    if len(args.inputs) != 1:
        raise UsageError(f"{len(args.inputs)} inputs without --gold: give --gold GOLD SYSTEM [...], or one FILE "
                         "with a gold column and system columns")
    return inputs_of(args, file=args.inputs[0])


def run(args: argparse.Namespace) -> int:
    from ..analysis.buckets import parse_bucket_spec
    from ..analysis.errors import ErrorOptions
    from ..analysis.study import analyze_blocks, analyze_corpus
    from ..ranking.study import check_options

    flips = [lists.model_pair(f) for f in args.flips] or None
    with option_errors():     # each error names its option and the bad value
        parse_bucket_spec(args.buckets)                   # a bad spec fails before reading anything
        check_options(bootstrap=args.bootstrap, permutations=args.permutations, seed=args.seed,
                      confidence=args.confidence)
    if args.top < 1 or (args.min_agree is not None and args.min_agree < 1):
        raise UsageError("--top and --min-agree must be at least 1")
    options = dict(models=lists.names(args.models), reference=args.reference, train=args.train, vocab=args.vocab,
                   by=args.by, buckets=args.buckets, bootstrap=args.bootstrap, permutations=args.permutations,
                   seed=args.seed, confidence=args.confidence, flips=flips,
                   pair=tuple(args.pair) if args.pair else None, attributes=lists.names(args.attributes))
    refs, whole, corpus = None, None, None
    errors = None if args.no_errors else ErrorOptions(args.top, args.min_agree)
    if len(args.gold or []) > 1:            # several references: the analysis is under the first
        from .gold_references import under_first
        refs, whole, corpus = under_first(args, inputs_of(args, names=None), "analyze", args.glob)
        with option_errors():
            result = analyze_corpus(corpus, errors=errors, **options)
    else:
        args.gold = gold_option.one_gold(args.gold)
        check_paths(args, [("--gold", args.gold), ("--train", args.train), ("--vocab", args.vocab)]
                    + [("system", p) for p in args.inputs], [("--output", args.output)])
        from ..io.inputs import taken_from_directories

        with taken_from_directories(args.inputs if args.gold else [], args.glob), option_errors():
            inputs = _inputs(args)
            whole_read = set(args.by) - {"document"} or parse_bucket_spec(args.buckets)["interpreteval"]
            if whole_read:      # record fields and InterpretEval's attributes read the corpus whole
                result = analyze_corpus(inputs.corpus("analyze", 1), errors=errors, **options)
            else:                                               # else one pass over the blocks read
                result = analyze_blocks(inputs.read("analyze", 1), errors=errors, **options)
    if refs and whole is not None:      # what changes from one reference to the next; the suspects checked
        from ..analysis.gold_suspects import gold_suspects
        from ..analysis.reference_steps import reference_steps as steps
        find = None if args.no_errors else lambda c, n: gold_suspects(c, systems=n, min_agree=args.min_agree)
        with option_errors():
            result.references = steps(whole, refs, result.systems, models=result.models, suspects=find)
    result.settings["input"] = {"gold": args.gold, "files": list(args.inputs), "train": args.train, "vocab": args.vocab}
    del corpus, whole   # (and the token texts read for them) before the report is built
    emit(result, args, details=args.details, width=120)
    return 0
