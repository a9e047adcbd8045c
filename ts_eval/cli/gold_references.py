"""``--gold NAME=PATH`` given more than once: several references of the same tokens (a test set and its
corrections, annotators) on the command line.  :func:`references_of` reads the option, :func:`read_corpus`
reads the references and the systems as one corpus (the first reference is the gold, every other one a side
read beside the systems, so the readers check every file's tokens against the first reference's and name the
two references by name), and :func:`run_score` and :func:`run_compare` are ``score`` and ``compare`` with
several references (``analyze`` reads its corpus with :func:`read_corpus`; ``rank``'s is :mod:`.rank_references`)."""
from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Sequence, Tuple

from .errors import UsageError, option_errors
from .outputs import emit

if TYPE_CHECKING:
    from ..core.corpus import Corpus
    from ..io.inputs import Inputs


def references_of(golds: Sequence[str]) -> List[Tuple[str, str]]:
    """``--gold NAME=PATH`` given more than once: (name, path) each, names distinct."""
    out: List[Tuple[str, str]] = []
    for g in golds:
        name, eq, path = g.partition("=")
        if not eq or not name or not path:
            raise UsageError(f"--gold {g}: with several references, give each as NAME=PATH "
                             "(e.g. --gold original=gold.iob2 --gold conllpp=gold-conllpp.iob2)")
        if any(name == n for n, _ in out):
            raise UsageError(f"--gold {g}: two references are both called {name!r}; name them apart")
        out.append((name, path))
    return out


def not_with(args: argparse.Namespace, flags: Sequence[str]) -> None:
    """A usage error for an option that does not apply to several references (``flags``: ``--task`` ...)."""
    for flag in flags:
        if getattr(args, flag[2:].replace("-", "_"), None):
            raise UsageError(f"{flag} does not apply to several --gold references (give --gold NAME=PATH "
                             "for each reference and the system files)")


def jobs_not_with(args: argparse.Namespace) -> None:
    """A usage error for ``--jobs`` (score's and compare's) with several references."""
    if args.jobs != 1:
        raise UsageError("--jobs does not apply to several --gold references (they are read whole, in one)")


def read_corpus(args: argparse.Namespace, refs: List[Tuple[str, str]], files: Sequence[str], shared: Inputs,
                command: str, glob: str = "*") -> Tuple[Corpus, List[str]]:
    """(corpus, system names): the references ``refs`` and the system ``files`` (directories expanded by
    ``glob``, the references' files left out), read with the reading options of ``shared``."""
    from ..io.paths import expand
    from ..io.sink import check_outputs, check_stdin_once
    from ..io.source import system_name

    if not files:
        raise UsageError("--gold NAME=PATH given more than once needs system files or directories after it")
    if args.gold_col is not None:
        raise UsageError("--gold-col does not apply to several --gold references: every reference after the first "
                         "is read as the systems are, its tags in --system-col (default: the last column)")
    paths = expand(list(files), glob or "*", exclude=[p for _, p in refs])
    names = list(args.names) if args.names else [system_name(f) or f"system{k + 1}" for k, f in enumerate(paths)]
    if len(names) != len(paths):
        raise UsageError(f"--names gives {len(names)} names for {len(paths)} system files")
    taken = [n for n in names if n in dict(refs)]
    if taken:
        raise UsageError(f"--gold {taken[0]}={dict(refs)[taken[0]]}: a system is called {taken[0]!r} too; name the "
                         "references otherwise (--gold NAME=PATH)")
    named = [(f"--gold {n}", p) for n, p in refs] + [("system", f) for f in paths]
    check_stdin_once(named)                 # (before anything is read; no output is an input)
    check_outputs([("--output", args.output)] if args.output else [], named)
    inputs = replace(shared, gold=refs[0][1], systems=(*(p for _, p in refs[1:]), *paths),
                     names=(*(n for n, _ in refs[1:]), *names),
                     words=(*(f"reference {n}" for n, _ in refs), *("system" for _ in paths)))
    with option_errors():
        corpus = inputs.corpus(command, len(refs))
    corpus.gold_info.name = refs[0][0]
    return corpus, names


def under_first(args: argparse.Namespace, shared: Inputs, command: str, glob: str = "*"
                ) -> Tuple[List[str], Corpus, Corpus]:
    """(the references' names, the corpus of every reference and system, the corpus under the first reference
    with the systems alone) of ``--gold NAME=PATH`` given more than once and the system files."""
    from ..comparison.changes import under

    refs = references_of(args.gold)
    whole, names = read_corpus(args, refs, args.inputs, shared, command, glob)
    return [n for n, _ in refs], whole, under(whole, refs[0][0], names)


def run_score(args: argparse.Namespace, shared: Inputs, score_references: Callable[..., Any],
              options: Dict[str, Any]) -> int:
    """``score`` with several references: every system against every reference under every model
    (``score_references``: :func:`ts_eval.comparison.by_reference.score_references`, handed in with the reading
    options ``shared`` and the scoring ``options``, checked, so that this module stays a few floors down)."""
    refs = references_of(args.gold)
    not_with(args, ("--runs",))
    jobs_not_with(args)
    if args.format in ("conlleval", "faireval"):
        raise UsageError(f"--format {args.format} shows one reference; with several --gold use table, json, csv, "
                         "markdown, latex or html")
    if options.pop("labels") or options.pop("exclude"):
        raise UsageError("--labels and --exclude do not apply to several --gold references")
    if args.system and args.file:
        raise UsageError("give either FILE or --gold/--system, not both (system files go after the --gold options "
                         "or after --system)")
    corpus, names = read_corpus(args, refs, args.system or args.file or [], shared, "score")
    with option_errors():
        result = score_references(corpus, [n for n, _ in refs], names, **options)
    result.settings["input"] = {"gold": [f"{n}={p}" for n, p in refs], "files": list(args.system or args.file)}
    several = len(names) > 1 and args.format == "table" and not (
        args.per_label or args.no_labels or args.confusion or args.all_labels_row)
    page = {"overview": True} if several else {"per_label": not (args.no_labels and args.format == "table")}
    emit(result, args, page_options=page, details=args.confusion, width=120)
    return 0


def run_compare(args: argparse.Namespace, shared: Inputs, models: List[str], compare_by_reference: Callable[..., Any],
                compare: Callable[..., Any]) -> int:
    """``compare`` with several references: the pair under each reference, with the paired test (the study's
    functions handed in, as :func:`run_score` takes them; ``models``: ``--models``, checked)."""
    from .matching import matching_options

    refs = references_of(args.gold)
    jobs_not_with(args)
    corpus, names = read_corpus(args, refs, args.inputs, shared, "compare")
    if args.pair:
        a, b = args.pair
        for n in (a, b):
            if n not in names:
                raise UsageError(f"--pair: no system named {n!r}; systems: {', '.join(names)}")
    elif len(names) == 2:
        a, b = names
    elif len(names) < 2:
        raise UsageError(f"compare needs at least two systems: at least two system files, got 1 ({args.inputs[0]})")
    else:
        raise UsageError(f"{len(names)} systems: with several --gold give the pair to compare (--pair A B)")
    with option_errors():
        result = compare_by_reference(corpus, [n for n, _ in refs], a, b, permutations=args.permutations,
                                      seed=args.seed, compare=compare, top=args.top, examples=args.examples,
                                      view=args.view, separator_weight=args.separator_weight, spans=not args.no_spans,
                                      fair_mode=args.fair_mode, models=models, **matching_options(args))
    result.settings["input"] = {"gold": [f"{n}={p}" for n, p in refs], "files": list(args.inputs)}
    emit(result, args, page_options={"cases": args.cases if args.format == "table" else None}, details=args.details)
    return 0
