"""``ts-eval fair``: Ortmann's fair evaluation, from the FairEval reference tool's config files
(``--config FILE``) or from any inputs through the one loader (:mod:`ts_eval.cli.inputs`).

**Inputs** (``ts-eval fair FILE`` or ``--gold G --system S [S ...]``): the same reading options,
column rule, name rule, input formats, standard input and compression as ``score``; the report is
the fair model's (:mod:`ts_eval.models.fair`) for every system: ``faireval`` (the reference
layout, one block per system), ``json`` (``score``'s layout with the fair model alone) and the
formats every command offers.  ``--focus``, ``--weights`` (default eq7, so all three methods are
shown) and ``--mode`` as in ``score``.  ``--config`` names its own inputs and settings: giving it
with input files or their options is a usage error.

**Config files** (``--config FILE``), the reference tool's command, same config files.

Config keys (one ``key = value`` per line, ``#`` comments; see the reference README):
``target_in``, ``system_in`` (files, or directories paired by file name; required),
``labels`` (comma list or ``all``), ``exclude`` (comma list; NONE and EMPTY are
always excluded), ``ignore_punct`` (true/false, CoNLL-2000 input only, default
true), ``focus`` (target or system), ``eval_method`` (traditional, fair,
weighted or all), ``weights`` (formulas ``LE = 0.5 FP + 0.5 FN, ...``, ``default``
or a preset eq5/eq6/eq7), ``eval_out`` (a file; a directory gets ``eval.csv``;
``cmd`` or missing = standard output).

Differences from the reference, all on inputs it would mishandle: unknown keys
and values are errors (with the config line) instead of being ignored; target
and system files with different sentence counts are an error; relative paths are
taken from the working directory as in the reference, or else from the config
file's directory.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

from ..errors import InputError
from .errors import UsageError, option_errors
from .inputs import (
    add_column_options,
    add_file_arguments,
    add_reading_options,
    check_paths,
    file_request,
    input_settings,
    load,
    request_paths,
)
from .outputs import add_output_options, emit

CONFIG_KEYS = ("target_in", "system_in", "labels", "exclude", "ignore_punct", "focus", "eval_method",
               "weights", "eval_out")
METHOD_NAMES = ("traditional", "fair", "weighted")
SHARED = ("config", "mode", "format", "output")   # options of both roads; the others are the loader's


def register(subparsers) -> None:
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
    g = p.add_argument_group("fair model (input files; a config file has its own keys)")
    g.add_argument("--focus", default=None, choices=("target", "system"),
                   help="whose label LE and LBE errors count under (default target)")
    g.add_argument("--weights", default=None, metavar="SPEC",
                   help="the weighted scores: a preset eq5, eq6, eq7 (default; the paper's equation 7), or the "
                        "FairEval syntax, e.g. 'LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, ...'")
    add_output_options(p, ("faireval",), default="faireval")
    # what every input option is when not given: --config with any of them is a usage error
    p.set_defaults(input_defaults={k: v for k, v in vars(p.parse_args([])).items() if k not in SHARED})


def _fail(path: str, line: int, msg: str) -> InputError:
    """A config file is an input: what is wrong in it is bad input (exit 1), named by file and line."""
    return InputError(msg, path, line)


Raw = Dict[str, Tuple[str, int]]   # config key -> (value, line)


def _raw_config(path: str) -> Raw:
    """The ``key = value`` lines of a config file (unknown keys are errors; a repeated key warns)."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            lines = fh.read().split("\n")
    except OSError as err:
        raise InputError(f"cannot read config: {err.strerror}", path) from None
    raw: Raw = {}
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if "=" not in s:
            raise _fail(path, n, f"{s[:60]!r}: expected key = value")
        key, val = s.split("=", 1)
        key, val = key.strip(), val.strip()
        if key not in CONFIG_KEYS:
            raise _fail(path, n, f"unknown key {key!r}; expected one of {', '.join(CONFIG_KEYS)}")
        if key in raw:
            print(f"ts-eval fair: warning: {path}:{n}: {key} given again (line {raw[key][1]}); the later one "
                  "counts", file=sys.stderr)
        raw[key] = (val, n)
    return raw


def _inputs(path: str, raw: Raw, base: str, cfg: Dict[str, Any]) -> None:
    """target_in and system_in: required, taken from the working directory or else the config's."""
    for key in ("target_in", "system_in"):
        if key not in raw:
            raise InputError(f"{key} is missing; target_in and system_in are required", path)
        val, n = raw[key]
        if not val:
            raise _fail(path, n, f"{key} is empty")
        resolved = val if os.path.exists(val) else os.path.join(base, val)
        if not os.path.exists(resolved):
            raise _fail(path, n, f"{key} = {val}: no such file or directory (looked in the working directory "
                                 f"and in {base})")
        cfg[key] = val
        cfg[key + "_path"] = resolved


def _labels(raw: Raw, cfg: Dict[str, Any]) -> None:
    labels: Optional[List[str]] = None
    if "labels" in raw:
        items = [v.strip() for v in raw["labels"][0].split(",") if v.strip()]
        labels = None if (not items or "all" in items) else list(dict.fromkeys(items))
    cfg["labels"] = labels
    exclude = [v.strip() for v in raw["exclude"][0].split(",") if v.strip()] if "exclude" in raw else []
    cfg["exclude"] = list(dict.fromkeys(exclude))


def _choices(path: str, raw: Raw, cfg: Dict[str, Any]) -> None:
    """ignore_punct and focus."""
    cfg["ignore_punct"] = True
    if "ignore_punct" in raw:
        val, n = raw["ignore_punct"]
        if val.lower() not in ("true", "false", "yes", "no", "1", "0"):
            raise _fail(path, n, f"ignore_punct = {val!r}: expected true or false")
        cfg["ignore_punct"] = val.lower() in ("true", "yes", "1")
    cfg["focus"] = "target"
    if "focus" in raw:
        val, n = raw["focus"]
        if val.lower() not in ("target", "system"):
            raise _fail(path, n, f"focus = {val!r}: expected target or system")
        cfg["focus"] = val.lower()


def _methods(path: str, raw: Raw, cfg: Dict[str, Any]) -> None:
    """eval_method and weights (without weights, the reference shows weighted as fair)."""
    from ..fair import parse_weights

    methods = list(METHOD_NAMES)
    if "eval_method" in raw:
        val, n = raw["eval_method"]
        items = [v.strip().lower() for v in val.split(",") if v.strip()]
        if items and items != ["all"]:
            bad = [v for v in items if v not in METHOD_NAMES]
            if bad:
                raise _fail(path, n, f"eval_method {bad[0]!r}: expected traditional, fair, weighted or all")
            methods = [m for m in METHOD_NAMES if m in items]
    cfg["weights"] = None
    if "weights" in raw:
        val, n = raw["weights"]
        try:
            cfg["weights"] = parse_weights(val)
        except ValueError as err:
            raise _fail(path, n, str(err)) from None
    if cfg["weights"] is None and "weighted" in methods:
        methods = [m for m in methods if m != "weighted"]
        if "fair" not in methods:
            methods.append("fair")
    cfg["eval_method"] = methods


def _eval_out(raw: Raw, base: str) -> Optional[str]:
    """Where the report goes: None = standard output; a directory gets ``eval.csv``."""
    out = raw.get("eval_out", ("", 0))[0]
    if not out or out == "cmd":
        return None
    target = out
    if not os.path.isabs(out) and not os.path.isdir(os.path.dirname(out) or "."):
        alt = os.path.join(base, out)
        if os.path.isdir(os.path.dirname(alt)):
            target = alt
    return os.path.join(target, "eval.csv") if os.path.isdir(target) else target


def read_config(path: str) -> Dict[str, Any]:
    """Parse a FairEval config file into checked settings (paths resolved)."""
    raw = _raw_config(path)
    base = os.path.dirname(os.path.abspath(path))
    cfg: Dict[str, Any] = {"config": path}
    _inputs(path, raw, base, cfg)
    _labels(raw, cfg)
    _choices(path, raw, cfg)
    _methods(path, raw, cfg)
    cfg["eval_out"] = _eval_out(raw, base)
    return cfg


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


def _legacy():
    from ..output.legacy.faireval import score_to_faireval

    return {"faireval": score_to_faireval}


def run_inputs(args: argparse.Namespace) -> int:
    """The loader road: every system of the corpus through the fair model, one report."""
    from ..models.evaluate import evaluate

    inputs = file_request(args)
    check_paths(args, request_paths(inputs))
    corpus = load(inputs, "fair")
    with option_errors():
        report = evaluate(corpus, models=["fair"], focus=args.focus or "target", weights=args.weights or "eq7",
                          fair_mode=args.mode)
    report.settings["input"] = input_settings(args, corpus)
    emit(report, args, _legacy)
    return 0


def run_config(args: argparse.Namespace) -> int:
    """The config road: FairEval's config file, its readers and its report, byte for byte."""
    import json

    from ..core.matching import match
    from ..fair import fair_errors, fair_report
    from ..io.faireval import read_faireval
    from ..output.legacy.faireval import faireval_settings, to_faireval
    from ..results.vocabulary import layout

    cfg = read_config(args.config)
    check_paths(args, [("--config", args.config), ("target_in", cfg["target_in_path"]),
                       ("system_in", cfg["system_in_path"])],
                [("--output", args.output) if args.output else ("eval_out", cfg["eval_out"])])
    data = read_faireval(cfg["target_in_path"], cfg["system_in_path"], labels=cfg["labels"],
                         exclude=cfg["exclude"], ignore_punct=cfg["ignore_punct"])
    corpus = data.corpus
    system = corpus.systems[data.system_name]
    result = fair_errors(corpus.gold, system, match(corpus.gold, system), corpus.labels, corpus, focus=cfg["focus"],
                         gold_tokens=data.gold.tokens, system_tokens=data.system.tokens,
                         gold_order=data.gold.order, system_order=data.system.order, mode=args.mode)
    report = fair_report(result, weights=cfg["weights"], methods=cfg["eval_method"])
    settings = faireval_settings(cfg["target_in"], cfg["system_in"], labels=cfg["labels"], exclude=cfg["exclude"],
                                 ignore_punct=cfg["ignore_punct"], focus=cfg["focus"],
                                 eval_method=cfg["eval_method"], weights=cfg["weights"])
    # the page shows the settings too
    full = {"layout": layout("fair"), "settings": {**settings, "mode": args.mode}, **report}
    texts = {"json": lambda r: json.dumps(r, indent=1) + "\n", "faireval": lambda r: to_faireval(report, settings)}
    args.output = args.output or cfg["eval_out"]   # a missing folder is an error, as for every command
    emit(full, args, lambda: texts, page_options={"name": data.system_name})
    return 0
