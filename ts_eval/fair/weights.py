"""Weights of the fair error types: how much of a TP, FP and FN each type counts as.

The reference's syntax (``LE = 0.5 FP + 0.5 FN, ...``), the paper's presets (eq5 =
the reference's default, eq6, eq7) and checking of user-given mappings.  A bad
weight specification is an :class:`~ts_eval.errors.OptionError` (a ValueError).
"""
from __future__ import annotations

import re
from typing import Dict, Mapping, Union

from ..errors import OptionError
from .types import ERROR_TYPES

Weights = Dict[str, Dict[str, float]]
WEIGHT_TARGETS = ("TP", "FP", "FN")
_BASE: Weights = {"TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1}}
_HALF = {"TP": 0, "FP": 0.5, "FN": 0.5}

#: the paper's weightings.  eq5 is the reference's default (fair evaluation, and
#: ``weights = default`` in its config files); eq7 is the formula of its example configs.
PRESETS: Dict[str, Weights] = {
    "eq5": {**_BASE, "LE": dict(_HALF), "BE": dict(_HALF), "LBE": dict(_HALF)},
    "eq6": {**_BASE, "LE": dict(_HALF), "BE": {"TP": 0.5, "FP": 0.25, "FN": 0.25}, "LBE": dict(_HALF)},
}
EQ7_FORMULA = ("LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, "
               "BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN")
PRESET_ALIASES = {"default": "eq5", "fair": "eq5", "eq5": "eq5", "eq6": "eq6", "eq7": "eq7"}
DEFAULT_WEIGHTS = "eq5"

_NUM = r"(?:\d+(?:\.\d*)?|\.\d+)"
_TERM = re.compile(rf"^\s*({_NUM})\s*\*?\s*([A-Za-z]+)\s*$")
_LHS = re.compile(r"^\s*([A-Za-z]+)\s*=(.*)$", re.S)


def parse_weights(spec: str) -> Weights:
    """Weights in the reference syntax, e.g. ``LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN``,
    or a preset name (``eq5`` = ``default``, ``eq6``, ``eq7``).

    Each comma-separated formula gives one error type as a weighted sum of TP, FP
    and FN (asterisks optional, zero terms may be left out).  As in the reference,
    TP, FP and FN count as themselves unless given, and the result keeps the
    formula order followed by those three.  Raises ValueError on an unknown error
    type, a malformed or repeated term, a repeated error type, or BE together with
    one of its subtypes (the same errors would count twice).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError("weights: empty; expected formulas like 'LE = 0.5 FP + 0.5 FN' or a preset "
                         f"({', '.join(sorted(PRESET_ALIASES))})")
    key = spec.strip().lower()
    if key in PRESET_ALIASES:
        name = PRESET_ALIASES[key]
        return parse_weights(EQ7_FORMULA) if name == "eq7" else {k: dict(v) for k, v in PRESETS[name].items()}
    out: Weights = {}
    for n, formula in enumerate(spec.split(","), 1):
        where = f"weights formula {n} {formula.strip()!r}"
        m = _LHS.match(formula)
        if not m:
            raise OptionError(f"{where}: expected ERROR_TYPE = w1 TP + w2 FP + w3 FN"
                             " (formulas separated by commas)")
        etype, rhs = m.group(1), m.group(2)
        if etype not in ERROR_TYPES:
            raise OptionError(f"{where}: unknown error type {etype!r}; expected one of {', '.join(ERROR_TYPES)}")
        if etype in out:
            raise OptionError(f"{where}: error type {etype} is given twice")
        if "=" in rhs:
            raise OptionError(f"{where}: more than one '='; separate formulas with commas")
        terms: Dict[str, float] = {}
        if rhs.strip() != "0":
            for part in rhs.split("+"):
                t = _TERM.match(part)
                if not t:
                    raise OptionError(f"{where}: term {part.strip()!r} is not 'NUMBER [*] TP|FP|FN'")
                w, target = float(t.group(1)), t.group(2)
                if target not in WEIGHT_TARGETS:
                    raise OptionError(f"{where}: term {part.strip()!r}: {target!r} is not TP, FP or FN")
                if target in terms:
                    raise OptionError(f"{where}: {target} appears twice")
                terms[target] = w
        out[etype] = {k: terms.get(k, 0) for k in WEIGHT_TARGETS}
    sub = [k for k in ("BES", "BEL", "BEO") if k in out]
    if "BE" in out and sub:
        raise OptionError(f"weights: BE and its subtype(s) {', '.join(sub)} both given; BE = BES + BEL + BEO, "
                         "so those errors would count twice")
    for k in WEIGHT_TARGETS:
        if k not in out:
            out[k] = {k: 1}
    return out


def resolve_weights(weights: Union[str, Mapping[str, Mapping[str, float]], None]) -> Weights:
    """None -> the default (eq5); a string -> :func:`parse_weights`; a mapping is checked and copied."""
    if weights is None:
        return parse_weights(DEFAULT_WEIGHTS)
    if isinstance(weights, str):
        return parse_weights(weights)
    out: Weights = {}
    for etype, terms in weights.items():
        if etype not in ERROR_TYPES:
            raise OptionError(f"weights: unknown error type {etype!r}; expected one of {', '.join(ERROR_TYPES)}")
        bad = [t for t in terms if t not in WEIGHT_TARGETS]
        if bad:
            raise OptionError(f"weights[{etype!r}]: {bad[0]!r} is not TP, FP or FN")
        out[etype] = dict(terms)
    return out
