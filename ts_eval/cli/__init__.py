"""Command line (``ts-eval``): one module per command, thin -- parse arguments, call the library, pick a
renderer.  Shared parts: :mod:`.inputs` (the one loader, column rule and name rule), :mod:`.outputs`
(``--format``/``--output`` and writing), :mod:`.errors` (exit codes), :mod:`.app` (the parser)."""
from .app import COMMANDS, build_parser, main, run

__all__ = ["COMMANDS", "build_parser", "main", "run"]
