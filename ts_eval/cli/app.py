"""The ``ts-eval`` program: the parser of every command, dispatch, and exit codes.

Each command is one module of this package with ``register(subparsers)`` and ``run(args) -> int``
(see :data:`COMMANDS`).  Every command module is imported to build the parser, so a module that
fails to import is an error at once, never a command silently missing from ``--help``; the modules
import only argparse-level code at the top and the library inside ``run``, so ``score`` does not pay
for ranking or comparison code.

Exit codes (:mod:`ts_eval.cli.errors`): 0 done, 1 bad input (or an output that cannot be written),
2 bad usage, 130 interrupted.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import Dict, List, Optional

from ..version import __version__
from .errors import ArgumentParser, report
from .spelling import option_flags

# command -> module of this package; a module may register several commands (score: score and demo)
COMMANDS = {"score": "score", "demo": "score", "fair": "fair", "rank": "rank", "compare": "compare",
            "germeval": "germeval", "convert": "convert", "agree": "agree", "analyze": "analyze",
            "validate": "validate", "codabench": "codabench"}


def command_modules() -> Dict[str, ModuleType]:
    """Every command's module, imported (an ImportError is raised, not hidden)."""
    modules = {name: importlib.import_module(f"{__package__}.{name}") for name in dict.fromkeys(COMMANDS.values())}
    return {command: modules[name] for command, name in COMMANDS.items()}


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="ts-eval",
        description="Evaluate labelled spans: token-and-separator scores, conlleval-exact segment scores, "
                    "fair error types, rankings and comparisons of systems.")
    parser.add_argument("--version", action="version", version=f"ts_eval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    modules = command_modules()
    for module in dict.fromkeys(modules.values()):
        module.register(sub)
    for command_parser in sub.choices.values():   # what errors need to spell the command's options
        command_parser.set_defaults(command_parser=command_parser)
    parser.set_defaults(command_modules=modules)
    return parser


def parse(argv: Optional[List[str]] = None) -> argparse.Namespace:
    """``argv`` (default: the process's) parsed by :func:`build_parser`."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser().parse_args(argv)
    args.argv = argv   # the command line that reproduces the output (shown on HTML pages)
    return args


def run(argv: Optional[List[str]] = None) -> int:
    """Parse ``argv`` and run its command; errors are raised (see :func:`main`)."""
    args = parse(argv)
    code: int = args.command_modules[args.command].run(args)
    return code


def _keep_freed_memory() -> None:
    """Let glibc reuse freed memory instead of returning large blocks to the kernel.

    numpy's big temporaries are otherwise mmap-ed afresh each time and every page
    faults on first touch; on this project's reference machine that made reading
    a 1M-token file 5-10x slower (flatnonzero over 9 MB: 96 ms -> 13 ms).  Only
    the command-line process does this; importing ts_eval changes nothing.
    """
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD: serve big blocks from the heap
        libc.mallopt(-1, 1 << 31)  # M_TRIM_THRESHOLD: keep freed heap memory for reuse
    except (OSError, AttributeError):  # not glibc: nothing to tune
        pass


def main(argv: Optional[List[str]] = None) -> int:
    """``ts-eval``: run and return the exit code; a bad input or option, a failed write, Ctrl-C are
    one line on stderr (exit codes: :mod:`ts_eval.cli.errors`)."""
    _keep_freed_memory()
    args = None
    try:
        args = parse(argv)
        code: int = args.command_modules[args.command].run(args)
        sys.stdout.flush()    # a full disk or a closed pipe is reported here, not at interpreter exit
        return code
    except (Exception, SystemExit, KeyboardInterrupt) as err:  # report() re-raises the rest
        if isinstance(err, OSError) and err.filename is None:   # standard output, most likely
            _drop_stdout()
        return report(err, option_flags(args.command_parser) if args is not None else None)


def _drop_stdout() -> None:
    """After a failed write to standard output, send what is left in its buffer nowhere, so that the
    flush at interpreter exit does not fail a second time with a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):   # no real file behind stdout (a test's capture)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
