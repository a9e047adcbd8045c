"""The layer rule of docs/architecture.md, checked on the source: every module of ts_eval is parsed
(every import, also those inside functions), gets its layer from its folder, and

- no import goes to a higher layer (an upward arrow);
- the imports between the project's modules form no circle;
- the longest chain of imports is at most :data:`MAX_FLOORS` modules (a module's floor is 1 + the
  highest floor of the modules it imports);
- at most :data:`MAX_TOP_MODULES` modules sit at the top of ``ts_eval/``;
- the readers and writers (``io/``) load no model, no result, no study and no page: everything an
  ``io`` module imports, directly or through others, is in the kernel, the core or ``io/`` (GermEval's
  6-column files are a format of ``io/``; ``germeval/`` is the study that scores them).

Imports under ``if TYPE_CHECKING:`` are left out: they name types for the type checker and never
run.  ``from package import name`` counts as an import of the module ``package.name`` when there is
one, else of ``package`` (its ``__init__``).  The packages a module sits in are not counted as its
imports (Python runs their ``__init__`` first; ``models/__init__`` imports the models ``score``
counts by default, the registry every other module of ``models/`` when it is asked for one it does not
know).  The tables that import by name at run time (the package's lazy attributes, the page builders,
the renderers, the commands) are checked against the modules they name.
"""
from __future__ import annotations

import ast
import importlib
from functools import cache
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

import pytest

import ts_eval

ROOT = Path(ts_eval.__file__).parent
MAX_FLOORS = 8
MAX_TOP_MODULES = 6

#: the layers, bottom first: a module may import its own layer and the layers below
LAYERS: List[Tuple[str, Tuple[str, ...]]] = [
    ("kernel", ("errors", "version")),          # modules at the top of ts_eval/
    ("core", ("core",)),
    ("results", ("results",)),
    ("models", ("models", "fair")),
    ("formats", ("io",)),
    ("studies", ("ranking", "comparison", "compat", "analysis", "agreement", "streaming", "germeval",
                 "validation")),
    ("output", ("output",)),
    ("cli", ("cli",)),
    ("package", ("__init__", "__main__", "api")),   # the package itself: its API and ``python -m ts_eval``
]


def layer_names() -> List[str]:
    return [name for name, _ in LAYERS]


def place(module: str) -> str:
    """The folder (or top-level module) of ``ts_eval.x.y...``: ``x``."""
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def layer_of(module: str) -> str:
    where = place(module)
    for name, places in LAYERS:
        if where in places:
            return name
    raise AssertionError(f"{module}: its folder {where!r} has no layer in LAYERS (docs/architecture.md)")


@cache
def modules() -> Dict[str, Tuple[Path, bool]]:
    """module name -> (path, is a package ``__init__``).  A compiled module (there is none now) would be known by
    its stub (``.pyi``), which says what it imports."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")) + sorted(ROOT.rglob("*.pyi")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        pkg = parts[-1] == "__init__"
        out.setdefault(".".join(parts[:-1] if pkg else parts), (path, pkg))
    return out


def _type_checking_only(tree: ast.AST) -> Set[int]:
    skip: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for stmt in node.body:
                    skip.update(id(n) for n in ast.walk(stmt))
    return skip


def _resolve(name: str) -> Optional[str]:
    mods = modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports(types: bool = False) -> Dict[str, Set[str]]:
    """module -> the project's modules it imports (anywhere in it; ``types``: TYPE_CHECKING blocks too, else
    left out)."""
    mods = modules()
    out: Dict[str, Set[str]] = {}
    for module, (path, pkg) in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = set() if types else _type_checking_only(tree)
        found: Set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                found.update(r for a in node.names if a.name.split(".")[0] == "ts_eval"
                             for r in [_resolve(a.name)] if r)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".") if pkg else module.split(".")[:-1]
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "ts_eval":
                    continue
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    resolved = full if full in mods else _resolve(target)
                    if resolved:
                        found.add(resolved)
        found.discard(module)
        out[module] = found
    return out


def floors(types: bool = False) -> Tuple[Dict[str, int], List[List[str]]]:
    """Each module's floor, and the circles met on the way (``types``: through type-only imports too)."""
    graph = imports(types)
    floor: Dict[str, int] = {}
    circles: List[List[str]] = []

    def visit(m: str, stack: List[str]) -> int:
        if m in floor:
            return floor[m]
        if m in stack:
            circles.append(stack[stack.index(m):] + [m])
            return 0
        stack.append(m)
        f = 1 + max((visit(n, stack) for n in sorted(graph[m])), default=0)
        stack.pop()
        floor[m] = f
        return f

    for m in sorted(graph):
        visit(m, [])
    return floor, circles


def longest_chain(floor: Dict[str, int]) -> List[str]:
    graph = imports()
    m = max(floor, key=lambda k: (floor[k], k))
    chain = [m]
    while any(floor[n] < floor[m] for n in graph[m]):
        m = max((n for n in graph[m] if floor[n] < floor[m]), key=lambda k: (floor[k], k))
        chain.append(m)
    return chain


# ---------------------------------------------------------------------------


def test_every_module_has_a_layer():
    for m in modules():
        layer_of(m)


def test_few_modules_at_the_top():
    top = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


@pytest.mark.slow
def test_no_upward_import():
    order = {name: k for k, name in enumerate(layer_names())}
    up = [f"{m} ({layer_of(m)}) -> {n} ({layer_of(n)})" for m, targets in sorted(imports().items())
          for n in sorted(targets) if order[layer_of(n)] > order[layer_of(m)]]
    assert not up, "imports into a higher layer:\n" + "\n".join(up)


@pytest.mark.slow
def test_readers_and_writers_load_no_metric():
    graph = imports()

    def allowed(m: str) -> bool:
        return layer_of(m) in ("kernel", "core") or place(m) == "io"

    bad = []
    for start in sorted(m for m in graph if place(m) == "io"):
        seen, todo = {start}, [start]
        while todo:
            for n in graph[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        bad += [f"{start} loads {n}" for n in sorted(seen) if not allowed(n)]
    assert not bad, "\n".join(bad)


def test_no_circle():
    _, circles = floors()
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


def test_no_circle_and_no_upward_import_through_type_only_imports():
    """The imports under ``if TYPE_CHECKING:`` never run, but a circle or an upward arrow through them is
    still a design that runs back up (issue 31.7)."""
    _, circles = floors(types=True)
    assert not circles, "\n".join(" -> ".join(c) for c in circles)
    order = layer_names()
    bad = [f"{m} -> {n}" for m, targets in imports(types=True).items() for n in sorted(targets)
           if order.index(layer_of(n)) > order.index(layer_of(m))]
    assert not bad, "\n".join(bad)


def test_at_most_eight_floors():
    floor, _ = floors()
    chain = longest_chain(floor)
    assert max(floor.values()) <= MAX_FLOORS, "longest chain:\n" + "\n".join(chain)


def test_the_checker_sees_imports_inside_functions():
    # the lazy imports count: ts_eval.output.views imports the builders inside its functions
    assert "ts_eval.output.builders" in imports()["ts_eval.output.views"]
    assert "ts_eval.results.display" in imports()["ts_eval.ranking.study"]


# ---------------------------------------------------------------------------
# imports by name at run time


def test_the_lazy_attributes_name_real_modules():
    for name, module in ts_eval._LAZY.items():
        assert hasattr(importlib.import_module(f"ts_eval.{module}"), name), (name, module)


@pytest.mark.parametrize("table, package", [("ts_eval.output.builders:KINDS", "ts_eval.output.builders"),
                                            ("ts_eval.output.renderers:FORMATS", "ts_eval.output.renderers"),
                                            ("ts_eval.cli.app:COMMANDS", "ts_eval.cli")])
def test_import_tables_stay_in_their_package(table, package):
    module, name = table.split(":")
    entries = getattr(importlib.import_module(module), name)
    names = entries.values() if isinstance(entries, dict) else entries
    for entry in names:
        assert f"{package}.{entry}" in modules(), (table, entry)


MAX_FUNCTION_LINES = 80


def test_no_function_over_eighty_lines():
    """A function (or method) of the package is at most :data:`MAX_FUNCTION_LINES` lines, docstring included:
    one that grows past it is doing two jobs."""
    long = []
    for module, (path, _) in sorted(modules().items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{module}.{node.name}: {lines} lines")
    assert not long, "\n".join(long)
