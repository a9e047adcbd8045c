"""The commands only parse and render (issue 31.5): how inputs are read, counted and ranked is the library's, so
each module of ``ts_eval/cli/`` stays small -- at most :data:`MAX_LINES` lines."""
from __future__ import annotations

from pathlib import Path

CLI = Path(__file__).resolve().parent.parent / "ts_eval" / "cli"
MAX_LINES = 150


def test_every_cli_module_is_at_most_150_lines():
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in sorted(CLI.glob("*.py"))}
    assert len(sizes) > 10 and "rank.py" in sizes and "score.py" in sizes
    over = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not over, f"cli modules over {MAX_LINES} lines: {over}"
