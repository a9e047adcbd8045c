"""``ts-eval validate``: every problem of each submission against gold, not only the first, grouped by kind
and counted (the library's :func:`ts_eval.validate`); exit 0 only when every submission would score as it is."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .errors import option_errors
from .input_options import add_column_options, add_file_arguments, add_reading_options
from .inputs import check_paths, file_request, request_paths
from .outputs import add_output_options, emit
from .scoring import labels

if TYPE_CHECKING:
    from .errors import Subparsers


def _count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of problems >= 0, got {value!r}")
    return n


def register(sub: Subparsers) -> None:
    """Add ``validate`` to the ``ts-eval`` parser."""
    p = sub.add_parser("validate", help="check submissions against gold: every problem, not only the first",
                       description="Check each submission against gold before it is scored, read as score reads "
                                   "it: every problem (token mismatches, wrong column counts, ill-formed tag "
                                   "sequences with each policy's repair, labels gold does not use, missing or "
                                   "extra sentences and documents, bytes that are not UTF-8, empty files), with "
                                   "file, line, what was found and what was expected, grouped by kind and "
                                   "counted. A BOM and CR LF line ends are notes: they score the same. Exit 0 "
                                   "when every submission would score as it is, 1 when there are problems, 2 on "
                                   "bad usage. Either --gold G S [S ...] (one file per submission, any input "
                                   "format) or FILE with gold and system columns.")
    add_file_arguments(p)
    add_column_options(p)
    add_reading_options(p)
    g = p.add_argument_group("validation and output")
    g.add_argument("--labels", metavar="L1,L2",
                   help="the labels a submission may use, after --map-label (default: the labels gold uses)")
    g.add_argument("--max-problems", type=_count, default=None, metavar="N",
                   help="list at most N problems of each submission (the counts of each kind stay exact)")
    add_output_options(g)


def run(args: argparse.Namespace) -> int:
    """Run ``validate``; returns 0 when every submission is valid, 1 when one has a problem."""
    from ..validation.check import validate_inputs

    inputs = file_request(args)
    check_paths(args, request_paths(inputs))
    with option_errors():
        result = validate_inputs(inputs, labels=labels(args.labels) or None, max_problems=args.max_problems)
    result.settings["command"] = "validate"
    emit(result, args)
    return 0 if result.valid else 1
