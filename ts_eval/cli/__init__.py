"""Command line (``ts-eval``): one module per command, thin -- parse arguments, call the library, pick a
renderer.  Shared parts: :mod:`.inputs` (the one loader, column rule and name rule), :mod:`.outputs`
(``--format``/``--output`` and writing), :mod:`.errors` (exit codes), :mod:`.app` (the parser)."""
import os
import sys

#: commands that multiply no matrices (no resampling): numpy starts them with one BLAS thread, since a
#: second one is never used and starting it costs 5-50 ms (more on a busy machine); a thread count the
#: user set is kept.  rank multiplies the counts of its draws per distinct row of statistics (small
#: products, which BLAS threads slow down on a busy machine); analyze and agree multiply resample weights
#: by counts and keep the default.
ONE_BLAS_THREAD = ("score", "fair", "germeval", "convert", "compare", "rank")

if "numpy" not in sys.modules and len(sys.argv) > 1 and sys.argv[1] in ONE_BLAS_THREAD:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .app import COMMANDS, build_parser, main, run  # noqa: E402  (numpy is imported from here on)

__all__ = ["COMMANDS", "build_parser", "main", "run"]
