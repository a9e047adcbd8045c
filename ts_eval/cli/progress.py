"""A progress bar for long studies (``rank``'s resampling): rich's, on standard error, only when that is a
terminal."""
from __future__ import annotations

from typing import Any, Dict


class Bar:
    """A rich progress bar on stderr (only when stderr is a terminal); called with a task, a phase, the done
    and the total steps, as the studies report progress."""

    def __init__(self, enabled: bool):
        self.progress = None
        self.tasks: Dict[str, Any] = {}
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            console = Console(stderr=True)
            if console.is_terminal:
                self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                         TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                         console=console, transient=True)

    def __enter__(self) -> Bar:
        if self.progress:
            self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.progress:
            self.progress.__exit__(*exc)

    def __call__(self, task: str, phase: str, done: int, total: int) -> None:
        if not self.progress:
            return
        key = f"{task}: {phase}"
        if key not in self.tasks:
            self.tasks[key] = self.progress.add_task(key, total=total)
        self.progress.update(self.tasks[key], completed=done)
