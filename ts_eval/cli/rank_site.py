"""``ts-eval rank``'s results for participants: ``--anonymise MAPPING`` (every output names the systems by the
public names of a mapping the organiser keeps, :mod:`ts_eval.io.public_names`) and ``--site DIR`` (one static
folder: ``index.html``, the leaderboard, and a page per system, :mod:`ts_eval.output.builders.site`).

The public names are given before anything is read, as the systems' names (as ``--names`` would), so that no
page, table or JSON ever holds a real name; the command line, which names the systems' files, is then left
out of the pages, and the settings say that the names are public ones.
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping

from .errors import UsageError, option_errors

if TYPE_CHECKING:
    from ..ranking.manifest import TaskSpec
    from ..ranking.tasks import Task

#: problems listed per system on its page (every one is counted)
PROBLEMS = 50
#: what the settings of an anonymised ranking say (never which system is which)
ANONYMISED = ("system names are public names from a mapping the organiser keeps (--anonymise); the real names "
              "are in no output")


def add_site_options(p: argparse.ArgumentParser) -> None:
    """The group ``results for participants``."""
    g = p.add_argument_group("results for participants")
    g.add_argument("--site", metavar="DIR",
                   help="also write a static results site to DIR (which must not exist or be empty): index.html "
                        "with the leaderboard under every model, and one page per system (its scores, its "
                        "comparison with the best system, its errors), linked both ways; opens from disk")
    g.add_argument("--anonymise", metavar="MAPPING",
                   help="name the systems by public names in every output: MAPPING is a file of lines REAL<TAB>PUBLIC "
                        "that the organiser keeps; created when missing (team-01, team-02, ... in an order set by "
                        "--anonymise-seed), read when it exists")
    g.add_argument("--anonymise-add", action="store_true",
                   help="--anonymise: append the systems missing from MAPPING with new public names (the names "
                        "there are kept as they are); without it a missing system is an error")
    g.add_argument("--anonymise-seed", type=int, metavar="N",
                   help="--anonymise: new public numbers go by the SHA-256 of 'N:<real name>' (default 0); keep N "
                        "private so that nobody can redo the order")


def real_names(spec: TaskSpec, args: argparse.Namespace) -> List[str]:
    """The names ``rank`` gives the task's systems (as :mod:`ts_eval.io.inputs` names them), before reading."""
    from ..io.columns import count_columns
    from ..io.inputs import expand, resolve_columns, system_names
    from ..io.source import system_name

    if spec.options.get("single_file"):
        path = spec.systems[0]
        given = spec.options.get("system_col", args.system_col)
        _, scols = resolve_columns(path, lambda: count_columns(path, args.delimiter),
                                   spec.options.get("gold_col", args.gold_col),
                                   None if given is None else [given] if isinstance(given, int) else list(given))
        if spec.names is not None:
            return list(spec.names)
        return [system_name(path)] if len(scols) == 1 else [f"col{c}" for c in scols]
    glob = spec.options.get("glob", args.glob)
    return system_names(expand(spec.systems, glob, exclude=[spec.gold] if spec.gold else []), spec.names)


def site_specs(args: argparse.Namespace, specs: List[TaskSpec]) -> List[TaskSpec]:
    """``--site`` checked (one task, a folder that is new or empty), and with ``--anonymise`` each task's systems
    given their public names."""
    for flag, given in (("--runs", args.runs), ("--germeval", args.germeval)):
        if given and (args.site or args.anonymise):
            raise UsageError(f"{flag} does not apply with {'--site' if args.site else '--anonymise'}")
    if args.site:
        if len(specs) != 1:
            raise UsageError(f"--site writes one task's results; {len(specs)} tasks were given")
        check_folder(args.site)
    if not args.anonymise:      # (alone they would rank under the real names, which a site would then show)
        if args.anonymise_add or args.anonymise_seed is not None:
            raise UsageError(f"{'--anonymise-add' if args.anonymise_add else '--anonymise-seed'} needs --anonymise "
                             "MAPPING; without it every output names the systems by their real names")
        return specs
    with option_errors():
        reals = [real_names(s, args) for s in specs]
        from ..io.public_names import public_names

        mapping, added = public_names(args.anonymise, [n for names in reals for n in dict.fromkeys(names)],
                                      add=args.anonymise_add, seed=args.anonymise_seed or 0)
    if added:
        print(f"ts-eval: {len(added)} public name(s) added to {args.anonymise}", file=sys.stderr)
    args.argv = None        # the command line names the systems' files: no page shows it
    return [replace(s, names=[mapping[n] for n in names]) for s, names in zip(specs, reals)]


def check_folder(path: str) -> None:
    """The site's folder does not exist, or is an empty folder (nothing is ever overwritten)."""
    if os.path.exists(path) and (not os.path.isdir(path) or os.listdir(path)):
        raise UsageError(f"--site {path}: {'is not a folder' if not os.path.isdir(path) else 'is not empty'}; "
                         "expected a new or empty folder (nothing is overwritten)")


def mark(args: argparse.Namespace, results: Mapping[str, Any]) -> None:
    """With ``--anonymise``: every result's settings say that the names are public ones."""
    for r in results.values():
        if args.anonymise:
            r.settings["anonymised"] = ANONYMISED


def write_site(args: argparse.Namespace, task: Task, result: Any, report: Any, validate: Callable[..., Any],
               **studies: Any) -> None:
    """The results site of the one task ranked (``result``) in the folder ``--site``; ``validate`` and ``studies``:
    the validation, and the error analysis and the comparison (``analyse`` and ``compare`` of
    :func:`ts_eval.analysis.site.results_site`), which ``rank`` hands over so that this module imports none of
    them (the chain of imports stays at eight floors)."""
    from ..analysis.site import by_system, named_files, results_site
    from ..io.sink import output_dir
    from ..output.builders.site import pages
    from ..output.renderers import render
    from .outputs import spelling

    anonymised = bool(args.anonymise)
    with option_errors():
        corpus = task.corpus if task.corpus is not None else task.inputs.corpus("ranking", 2)  # type: ignore
        site = results_site(named_files(corpus, anonymised), result, **studies)
        checked = validate(task.source, max_problems=PROBLEMS) if task.source is not None else None
    for name, v in (by_system(checked, anonymised) if checked is not None else {}).items():
        site.page(name).validation = v
    if anonymised:
        site.settings["anonymised"] = ANONYMISED
    made: Dict[str, Any] = pages(site, report, spell=spelling(args))
    if getattr(args, "argv", None):
        made["index.html"].meta["command"] = ["ts-eval", *args.argv]
    with option_errors(), output_dir(args.site) as batch:
        for name, page in made.items():
            batch.add(os.path.join(args.site, name), render(page, "html").encode("utf-8"))
    print(f"ts-eval: results site written to {args.site} ({len(made)} pages)", file=sys.stderr)
