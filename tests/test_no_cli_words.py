"""No command-line words in the library: a message of the library names an option as data (a
:class:`ts_eval.errors.Hint`: ``scheme='auto'`` for a Python caller, ``--scheme auto`` on the command
line, spelled by ``ts_eval/cli/`` alone), never as a flag.

Every module outside ``ts_eval/cli/`` is imported, and every string literal in it (f-string parts
included) is searched for a ``--flag``.  Left out, with the reason:

- docstrings: they document the command that uses a module (``ts-eval score --format conlleval``)
  and never reach a message, a page or an error.
"""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import List, Set

import pytest

import ts_eval
from ts_eval.errors import Hint, InputError, OptionError

ROOT = Path(ts_eval.__file__).parent
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def library_modules() -> List[str]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[1:2] == ["cli"] or parts[-1] == "__main__":
            continue
        out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def docstrings(tree: ast.AST) -> Set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


@pytest.mark.parametrize("name", library_modules())
def test_no_flag_in_a_library_string(name):
    module = importlib.import_module(name)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    skip = docstrings(tree)
    found = [f"line {node.lineno}: {flag} in {node.value[:80]!r}" for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
             for flag in FLAG.findall(node.value)]
    assert not found, "\n".join(found)


def test_the_search_finds_a_flag_in_an_f_string():
    tree = ast.parse('x = f"use --scheme {name} or"')
    found = [f for n in ast.walk(tree) if isinstance(n, ast.Constant) for f in FLAG.findall(n.value)]
    assert found == ["--scheme"]


# ---------------------------------------------------------------------------
# what a Python caller reads where the command line reads a flag


def test_a_bad_tag_names_the_scheme_option(tmp_path):
    with pytest.raises(InputError) as err:
        ts_eval.score([["S-PER"]], [["O"]], scheme="IOB2")
    assert "choose another scheme or scheme='auto'" in str(err.value)
    assert Hint("scheme", "auto") in err.value.hints
    with pytest.raises(InputError, match=r"use scheme='conlleval' to accept it"):
        ts_eval.score([["B-"]], [["O"]])


def test_readers_raise_the_librarys_errors(tmp_path):
    from ts_eval.cli.errors import UsageError
    from ts_eval.io import read_conll

    path = tmp_path / "f.conll"
    path.write_text("a B-PER B-PER\n\n", encoding="utf-8")
    with pytest.raises(OptionError) as err:
        read_conll(str(path), token_column=2)
    assert not isinstance(err.value, UsageError)
    assert "choose another token_column" in str(err.value)
