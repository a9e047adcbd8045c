"""``ts-eval fair``: Ortmann's fair evaluation, from the FairEval reference tool's config files
(``--config FILE``, read by :mod:`ts_eval.fair.config`) or from any inputs through the one loader
(:mod:`ts_eval.cli.inputs`).

**Inputs** (``ts-eval fair FILE`` or ``--gold G --system S [S ...]``): the same reading options,
column rule, name rule, input formats, standard input and compression as ``score``; the report is
the fair model's (:mod:`ts_eval.models.fair`) for every system: ``faireval`` (the reference
layout, one block per system), ``json`` (``score``'s layout with the fair model alone) and the
formats every command offers.  ``--focus``, ``--weights`` (default eq7, so all three methods are
shown) and ``--mode`` as in ``score``.  The inputs are read in blocks and counted on ``score``'s road
(:func:`ts_eval.streaming.files.count`), so only the fair model's counts are kept; ``--jobs N`` counts one
plain column file in N processes.  ``--config`` names its own inputs and settings: giving it
with input files or their options is a usage error.

**Config files** (``--config FILE``), the reference tool's command, same config files, run as the
reference runs them; target and system files with different sentence counts are an error.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, List

from .errors import UsageError, option_errors
from .input_options import add_column_options, add_file_arguments, add_jobs_option, add_reading_options
from .inputs import check_paths, file_request, input_settings, request_paths
from .outputs import Texts, add_output_options, emit

if TYPE_CHECKING:
    from .errors import Subparsers

SHARED = ("config", "mode", "format", "output", "jobs")   # options of both roads; the others are the loader's


def register(subparsers: Subparsers) -> None:
    """Add the ``fair`` command to the ``ts-eval`` parser."""
    p = subparsers.add_parser(
        "fair", help="Ortmann's fair evaluation (any inputs, or FairEval config files)",
        description="Fair evaluation of labelled spans (Ortmann 2022): TP, FP, FN, labelling (LE), "
                    "boundary (BE: BES/BEL/BEO) and labelling-boundary (LBE) errors, with traditional, "
                    "fair and weighted precision/recall/F1. Either FILE with gold and system columns or "
                    "--gold G S [S ...] (also --gold G --system S [S ...]) in any input format (as for score), "
                    "or --config FILE: the "
                    "FairEval reference tool's config files, unchanged. Writes the reference's report layout "
                    "(one block per system).")
    p.add_argument("--config", metavar="FILE", help="FairEval config file (names its own inputs and settings)")
    p.add_argument("--mode", default="paper", choices=("paper", "faireval-skip"),
                   help="paper (default): Algorithm 2 as published, reproduces the paper and its result "
                        "files; faireval-skip: also reproduce the current FairEval.py, which skips the "
                        "span after each match in every pass")
    add_file_arguments(p)
    add_column_options(p)
    add_reading_options(p)
    add_jobs_option(p, "count")
    g = p.add_argument_group("fair model (input files; a config file has its own keys)")
    g.add_argument("--focus", default=None, choices=("target", "system"),
                   help="whose label LE and LBE errors count under (default target)")
    g.add_argument("--weights", default=None, metavar="SPEC",
                   help="the weighted scores: a preset eq5, eq6, eq7 (default; the paper's equation 7), or the "
                        "FairEval syntax, e.g. 'LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, ...'")
    add_output_options(p, ("faireval",), default="faireval")
    # what every input option is when not given: --config with any of them is a usage error
    p.set_defaults(input_defaults={k: v for k, v in vars(p.parse_args([])).items() if k not in SHARED})


def _inputs_given(args: argparse.Namespace) -> List[str]:
    """The input files and input options given on the command line (as the user wrote them)."""
    defaults = getattr(args, "input_defaults", {})
    return [("FILE" if k == "file" else "--" + k.replace("_", "-")) for k, v in defaults.items()
            if getattr(args, k, v) != v]


def run(args: argparse.Namespace) -> int:
    """Run ``ts-eval fair``; returns the exit code (errors raise InputError / UsageError)."""
    given = _inputs_given(args)
    if args.config is None:
        if not (args.file or args.gold or args.system):
            raise UsageError("give FILE, or --gold G --system S [S ...], or --config FILE (a FairEval config)")
        return run_inputs(args)
    if given:
        raise UsageError(f"--config names its own inputs and settings (target_in, system_in, ...): give either "
                         f"--config FILE or input files with their options, not both (got {', '.join(given)})")
    return run_config(args)


def _legacy() -> Texts:
    from ..output.legacy.faireval import score_to_faireval

    return {"faireval": score_to_faireval}


def run_inputs(args: argparse.Namespace) -> int:
    """The loader road: every system of the corpus through the fair model, one report."""
    from ..streaming.files import count

    inputs = replace(file_request(args), jobs=args.jobs)
    check_paths(args, request_paths(inputs))
    with option_errors():
        counts = count(inputs, command="fair", models=["fair"], focus=args.focus or "target",
                       weights=args.weights or "eq7", fair_mode=args.mode)
        report = counts.report()
    sides = SimpleNamespace(gold_info=counts.gold, system_info={s.name: s.source for s in counts.systems})
    report.settings["input"] = input_settings(args, sides)
    emit(report, args, _legacy)
    return 0


def _warn(text: str) -> None:
    print(f"ts-eval fair: warning: {text}", file=sys.stderr)


def run_config(args: argparse.Namespace) -> int:
    """The config road: FairEval's config file, its readers and its report, byte for byte."""
    import json

    from ..core.matching import match
    from ..fair import fair_errors, fair_report
    from ..fair.config import read_config
    from ..io.faireval import read_faireval
    from ..output.legacy.faireval import faireval_settings, to_faireval
    from ..results.vocabulary import layout

    cfg = read_config(args.config, warn=_warn)
    check_paths(args, [("--config", args.config), ("target_in", cfg.target_in_path), ("system_in", cfg.system_in_path)],
                [("--output", args.output) if args.output else ("eval_out", cfg.eval_out)])
    data = read_faireval(cfg.target_in_path, cfg.system_in_path, labels=cfg.labels, exclude=cfg.exclude,
                         ignore_punct=cfg.ignore_punct)
    corpus = data.corpus
    system = corpus.systems[data.system_name]
    result = fair_errors(corpus.gold, system, match(corpus.gold, system), corpus.labels, corpus, focus=cfg.focus,
                         gold_tokens=data.gold.tokens, system_tokens=data.system.tokens,
                         gold_order=data.gold.order, system_order=data.system.order, mode=args.mode)
    report = fair_report(result, weights=cfg.weights, methods=cfg.eval_method)
    settings = faireval_settings(cfg.target_in, cfg.system_in, labels=cfg.labels, exclude=cfg.exclude,
                                 ignore_punct=cfg.ignore_punct, focus=cfg.focus, eval_method=cfg.eval_method,
                                 weights=cfg.weights)
    # the page shows the settings too
    full = {"layout": layout("fair"), "settings": {**settings, "mode": args.mode}, **report}
    texts: Texts = {"json": lambda r: json.dumps(r, indent=1) + "\n",
                    "faireval": lambda r: to_faireval(report, settings)}
    args.output = args.output or cfg.eval_out   # a missing folder is an error, as for every command
    emit(full, args, lambda: texts, page_options={"name": data.system_name})
    return 0
