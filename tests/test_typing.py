"""The type checker's settings (``pyproject.toml``, docs/architecture.md "Types"): the strict list holds
its modules to every flag of ``mypy --strict``.

mypy has no per-module ``strict``: ``strict = true`` in an override turns strict mode on for every
module of the run, so the override lists the flags one by one, and a flag that a new mypy adds to
``--strict`` (or one dropped from the list by hand) would leave these modules less strict without a
word.  CI's ``mypy`` run then checks the code against them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest

import ts_eval

PYPROJECT = Path(ts_eval.__file__).parent.parent / "pyproject.toml"
#: what the strict list must hold: these folders and modules (the whole package)
STRICT_MODULES = ["ts_eval", "ts_eval.__main__", "ts_eval.errors", "ts_eval.version", "ts_eval.core.*",
                  "ts_eval.results.*", "ts_eval.models.*", "ts_eval.fair.*", "ts_eval.agreement.*",
                  "ts_eval.comparison.*", "ts_eval.analysis.*", "ts_eval.compat.*", "ts_eval.ranking.*",
                  "ts_eval.streaming.*", "ts_eval.germeval.*", "ts_eval.output.*", "ts_eval.api",
                  "ts_eval.io.*", "ts_eval.cli.*"]


def _settings() -> Dict[str, Any]:
    tomllib = pytest.importorskip("tomllib")      # Python 3.11+
    if not PYPROJECT.is_file():
        pytest.skip("no pyproject.toml beside the package (an installed copy)")
    settings: Dict[str, Any] = tomllib.loads(PYPROJECT.read_text("utf-8"))["tool"]["mypy"]
    return settings


def _strict_override(settings: Dict[str, Any]) -> Dict[str, Any]:
    found: List[Dict[str, Any]] = [o for o in settings.get("overrides", []) if "ts_eval.core.*" in o["module"]]
    assert len(found) == 1, "one override holds the strict list"
    return found[0]


def test_the_strict_list_sets_every_flag_of_mypy_strict() -> None:
    main = pytest.importorskip("mypy.main")
    _, _, strict_flags = main.define_options()    # [(option, value)] that --strict sets
    settings = _settings()
    override = _strict_override(settings)
    assert len(strict_flags) >= 13                # (mypy 2.4's --strict sets 13)
    for option, value in strict_flags:
        # two of them are global only (mypy reads them from [tool.mypy], never from an override)
        where = settings if option in ("warn_redundant_casts", "warn_unused_ignores") else override
        assert where.get(option) == value, f"{option} = {value} is missing from the strict settings"


def test_the_strict_list_holds_its_modules_and_no_override_says_strict() -> None:
    settings = _settings()
    assert _strict_override(settings)["module"] == STRICT_MODULES
    # strict = true in an override would make every module strict, the folders not yet typed too
    assert all("strict" not in o for o in settings.get("overrides", []))
    assert "strict" not in settings
