"""``ts-eval rank``'s tasks: from ``--gold``/files, one FILE, ``--task`` or a manifest (what to read;
:mod:`.rank` reads each task through the shared loader, :mod:`.inputs`)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from ..errors import InputError
from .errors import UsageError


@dataclass
class TaskSpec:
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


def _structured_tasks(path: str, text: str, rel) -> List[TaskSpec]:
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


def task_specs(args: argparse.Namespace) -> List[TaskSpec]:
    """The tasks the arguments describe (exactly one way of giving inputs)."""
    ways = [bool(args.task), bool(args.manifest), bool(args.gold) or bool(args.inputs)]
    if sum(ways) == 0:
        raise UsageError("no input: give --gold GOLD SYSTEM..., a FILE with several system columns, "
                         "--task NAME GOLD SYSTEM..., or --manifest FILE")
    if sum(ways) > 1:
        raise UsageError("give inputs one way only: --gold/files, --task, or --manifest")
    if args.task:
        for t in args.task:
            if len(t) < 3:
                raise UsageError(f"--task {' '.join(t)}: expected NAME GOLD SYSTEM...")
        if args.names and len(args.task) > 1:
            raise UsageError("--names applies to one task; name several tasks' systems by their files")
        return [TaskSpec(t[0], t[1], t[2:], args.names if len(args.task) == 1 else None) for t in args.task]
    if args.manifest:
        return read_manifest(args.manifest)
    if args.gold:
        if not args.inputs:
            raise UsageError("--gold needs system files or directories after it")
        return [TaskSpec("task", args.gold, list(args.inputs), args.names)]
    if args.germeval:
        return [TaskSpec("task", "", list(args.inputs), args.names)]
    if len(args.inputs) != 1:
        raise UsageError("without --gold, give one FILE with a gold column and several system columns")
    return [TaskSpec("task", "", [args.inputs[0]], args.names, {"single_file": True})]
