"""Issue #9.1: a system's scores must not depend on the other systems scored beside it.

Adds a fourth column to a CoNLL-2003 submission (``O`` everywhere but one ``B-FOO``),
scores column 3 alone and then columns 3 and 4 with ``ts-eval score --format json``, and
prints column 3's micro TS kappa and accuracy both ways; then checks that every number
of column 3's report (all models, rows of the labels present for it) is the same both ways.

    python scripts/micro_leak_check.py [SYSTEM_FILE]
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[2] / "shared/data/conll2003-en/systems/task2003-florian.conll"


def with_foo_column(src: Path, dst: Path) -> None:
    """Copy ``src`` with a fourth column: O on every token line, B-FOO on the first one."""
    done = False
    with src.open(encoding="utf-8") as fin, dst.open("w", encoding="utf-8") as fout:
        for line in fin:
            parts = line.split()
            if parts and parts[0] != "-DOCSTART-":
                parts.append("O" if done else "B-FOO")
                done = True
            elif parts:
                parts.append("O")
            fout.write(" ".join(parts) + "\n")


def score(path: Path, columns) -> dict:
    out = subprocess.run([sys.executable, "-m", "ts_eval", "score", str(path), "--format", "json",
                          "--gold-col", "2", "--system-col", *map(str, columns)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["systems"][0]


def numbers(system: dict) -> dict:
    """A system's report without its name and without the rows of labels absent for it."""
    out = {k: v for k, v in system.items() if k not in ("name", "source")}
    for model in out.values():
        if isinstance(model, dict) and isinstance(model.get("labels"), dict):
            model["labels"] = {k: r for k, r in model["labels"].items() if r.get("present", True)}
    return out


def main() -> int:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "with_foo.conll"
        with_foo_column(src, path)
        alone, beside = score(path, [3]), score(path, [3, 4])
    for key in ("kappa", "accuracy", "f"):
        a, b = alone["ts"]["micro"][key], beside["ts"]["micro"][key]
        print(f"micro {key:8s} alone {a:.6f}   beside B-FOO system {b:.6f}")
    same = json.dumps(numbers(alone), sort_keys=True) == json.dumps(numbers(beside), sort_keys=True)
    print("column 3's numbers (all models, labels present for it) are", "identical" if same else "DIFFERENT",
          "both ways")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
