"""The FairEval reference tool's config files: :func:`read_config` gives the checked settings of one
(:class:`FairConfig`), which ``ts-eval fair --config FILE`` runs as the reference runs them.

Config keys (one ``key = value`` per line, ``#`` comments; see the reference README):
``target_in``, ``system_in`` (files, or directories paired by file name; required),
``labels`` (comma list or ``all``), ``exclude`` (comma list; NONE and EMPTY are
always excluded), ``ignore_punct`` (true/false, CoNLL-2000 input only, default
true), ``focus`` (target or system), ``eval_method`` (traditional, fair,
weighted or all), ``weights`` (formulas ``LE = 0.5 FP + 0.5 FN, ...``, ``default``
or a preset eq5/eq6/eq7), ``eval_out`` (a file; a directory gets ``eval.csv``;
``cmd`` or missing = standard output).

Differences from the reference, all on inputs it would mishandle: unknown keys
and values are errors (with the config line) instead of being ignored; relative paths are
taken from the working directory as in the reference, or else from the config
file's directory.  A config file is an input: what is wrong in it is bad input
(:class:`~ts_eval.errors.InputError`), named by file and line.
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ..errors import InputError
from .weights import Weights, parse_weights

CONFIG_KEYS = ("target_in", "system_in", "labels", "exclude", "ignore_punct", "focus", "eval_method",
               "weights", "eval_out")
METHOD_NAMES = ("traditional", "fair", "weighted")

Raw = Dict[str, Tuple[str, int]]   # config key -> (value, line)


@dataclass(frozen=True)
class FairConfig:
    """A config file's settings, checked: the inputs as written (``target_in``, ``system_in``) and where
    they are (``*_path``), the labels kept, the methods shown and the report's path (None: standard output)."""

    config: str
    target_in: str
    target_in_path: str
    system_in: str
    system_in_path: str
    labels: Optional[List[str]]
    exclude: List[str]
    ignore_punct: bool
    focus: str
    eval_method: List[str]
    weights: Optional[Weights]
    eval_out: Optional[str]


def _raw_config(path: str, warn: Callable[[str], None]) -> Raw:
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
            raise InputError(f"{s[:60]!r}: expected key = value", path, n)
        key, val = s.split("=", 1)
        key, val = key.strip(), val.strip()
        if key not in CONFIG_KEYS:
            raise InputError(f"unknown key {key!r}; expected one of {', '.join(CONFIG_KEYS)}", path, n)
        if key in raw:
            warn(f"{path}:{n}: {key} given again (line {raw[key][1]}); the later one counts")
        raw[key] = (val, n)
    return raw


def _input(path: str, raw: Raw, base: str, key: str) -> Tuple[str, str]:
    """target_in or system_in (required) as written, and where it is: the working directory or else the
    config's."""
    if key not in raw:
        raise InputError(f"{key} is missing; target_in and system_in are required", path)
    val, n = raw[key]
    if not val:
        raise InputError(f"{key} is empty", path, n)
    resolved = val if os.path.exists(val) else os.path.join(base, val)
    if not os.path.exists(resolved):
        raise InputError(f"{key} = {val}: no such file or directory (looked in the working directory "
                         f"and in {base})", path, n)
    return val, resolved


def _labels(raw: Raw) -> Tuple[Optional[List[str]], List[str]]:
    """labels (None: all) and exclude."""
    labels: Optional[List[str]] = None
    if "labels" in raw:
        items = [v.strip() for v in raw["labels"][0].split(",") if v.strip()]
        labels = None if (not items or "all" in items) else list(dict.fromkeys(items))
    exclude = [v.strip() for v in raw["exclude"][0].split(",") if v.strip()] if "exclude" in raw else []
    return labels, list(dict.fromkeys(exclude))


def _choice(path: str, raw: Raw, key: str, accepted: Tuple[str, ...], expected: str) -> Optional[str]:
    """A key's value (lower case) among ``accepted``; None when it is not given."""
    if key not in raw:
        return None
    val, n = raw[key]
    if val.lower() not in accepted:
        raise InputError(f"{key} = {val!r}: expected {expected}", path, n)
    return val.lower()


def _methods(path: str, raw: Raw) -> Tuple[List[str], Optional[Weights]]:
    """eval_method and weights (without weights, the reference shows weighted as fair)."""
    methods = list(METHOD_NAMES)
    if "eval_method" in raw:
        val, n = raw["eval_method"]
        items = [v.strip().lower() for v in val.split(",") if v.strip()]
        if items and items != ["all"]:
            bad = [v for v in items if v not in METHOD_NAMES]
            if bad:
                raise InputError(f"eval_method {bad[0]!r}: expected traditional, fair, weighted or all", path, n)
            methods = [m for m in METHOD_NAMES if m in items]
    weights = None
    if "weights" in raw:
        val, n = raw["weights"]
        try:
            weights = parse_weights(val)
        except ValueError as err:
            raise InputError(str(err), path, n) from None
    if weights is None and "weighted" in methods:
        methods = [m for m in methods if m != "weighted"]
        if "fair" not in methods:
            methods.append("fair")
    return methods, weights


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


def _warning(text: str) -> None:
    warnings.warn(text, stacklevel=3)


def read_config(path: str, warn: Callable[[str], None] = _warning) -> FairConfig:
    """A FairEval config file's checked settings (paths resolved); ``warn`` is told of a key given twice
    (default: a Python warning)."""
    raw = _raw_config(path, warn)
    base = os.path.dirname(os.path.abspath(path))
    target_in, target_path = _input(path, raw, base, "target_in")
    system_in, system_path = _input(path, raw, base, "system_in")
    labels, exclude = _labels(raw)
    punct = _choice(path, raw, "ignore_punct", ("true", "false", "yes", "no", "1", "0"), "true or false")
    focus = _choice(path, raw, "focus", ("target", "system"), "target or system")
    methods, weights = _methods(path, raw)
    return FairConfig(path, target_in, target_path, system_in, system_path, labels, exclude,
                      punct is None or punct in ("true", "yes", "1"), focus or "target", methods, weights,
                      _eval_out(raw, base))
