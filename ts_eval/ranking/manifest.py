"""A ranking's tasks as given: a name, a gold input and system inputs (files, or directories of them)
(:class:`TaskSpec`); a manifest lists several (:func:`read_manifest`: JSON ``{"tasks": [...]}``, TOML
``[[task]]`` tables, or lines ``NAME GOLD SYSTEM...``; paths relative to the manifest).  What each task reads
and how: :mod:`ts_eval.ranking.tasks`."""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..errors import InputError, OptionError


@dataclass
class TaskSpec:
    """One task as given: its name, gold input and system inputs (files or directories)."""

    name: str
    gold: str
    systems: List[str]
    names: Optional[List[str]] = None
    options: Dict[str, Any] = field(default_factory=dict)   # gold_col, system_col, scheme, glob per task


def _manifest_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot read the manifest: {err.strerror}", path) from None


def _structured_tasks(path: str, text: str, rel: Callable[[str], str]) -> List[TaskSpec]:
    """Tasks of a JSON (``{"tasks": [...]}``) or TOML (``[[task]]``) manifest."""
    suffix = Path(path).suffix.lower()
    try:
        if suffix == ".json":
            data = json.loads(text)
        elif sys.version_info >= (3, 11):
            import tomllib
            data = tomllib.loads(text)
        else:
            raise InputError("a TOML manifest needs Python 3.11 or later (tomllib); expected a JSON manifest "
                             "on this Python", path)
    except ValueError as err:
        raise InputError(f"cannot parse the manifest: {err}", path) from None
    items = data.get("tasks", data.get("task")) if isinstance(data, dict) else data
    if not isinstance(items, list) or not items:
        raise InputError("expected a list of tasks (JSON: {\"tasks\": [...]}; TOML: [[task]] tables), each "
                         "with name, gold and systems", path)
    tasks = []
    for k, t in enumerate(items):
        if not isinstance(t, dict) or not {"name", "gold", "systems"} <= set(t):
            raise InputError(f"task {k + 1}: expected name, gold and systems (a list of files or "
                             "directories)", path)
        systems = t["systems"] if isinstance(t["systems"], list) else [t["systems"]]
        opts = {k2: t[k2] for k2 in ("gold_col", "system_col", "scheme", "glob") if k2 in t}
        tasks.append(TaskSpec(str(t["name"]), rel(str(t["gold"])), [rel(str(s)) for s in systems],
                              t.get("names"), opts))
    return tasks


def read_manifest(path: str) -> List[TaskSpec]:
    """Tasks from a JSON, TOML or line manifest; relative paths are relative to the manifest."""
    base = os.path.dirname(os.path.abspath(path))

    def rel(p: str) -> str:
        return p if os.path.isabs(p) else os.path.join(base, p)

    text = _manifest_text(path)
    if Path(path).suffix.lower() in (".json", ".toml"):
        return _structured_tasks(path, text, rel)
    tasks = []
    for lineno, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) < 3:
            raise InputError(f"expected 'NAME GOLD SYSTEM...', found {line.strip()!r}", path, lineno)
        tasks.append(TaskSpec(fields[0], rel(fields[1]), [rel(s) for s in fields[2:]]))
    if not tasks:
        raise InputError("no task in the manifest (lines 'NAME GOLD SYSTEM...')", path)
    return tasks


def check_two(task: str, files: Sequence[str]) -> None:
    """A ranking needs two systems (the message names the task)."""
    if len(files) < 2:
        raise OptionError(f"ranking needs at least two systems; task {task!r} has {len(files)}"
                          + (f" ({files[0]})" if files else ""))
