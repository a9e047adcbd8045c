"""Command line (``ts-eval``): one module per command, thin -- parse arguments, call the library, pick a
renderer.  Shared parts: :mod:`.inputs` (the one loader, column rule and name rule), :mod:`.outputs`
(``--format``/``--output`` and writing), :mod:`.errors` (exit codes), :mod:`.app` (the parser)."""
import os
import sys

#: commands that multiply no matrices (no resampling): numpy starts them with one BLAS thread, since a
#: second one is never used and starting it costs 5-50 ms (more on a busy machine); a thread count the
#: user set is kept.  analyze too: its products are one bucket's (resamples x that bucket's sentences),
#: thin ones in its pair tests, which OpenBLAS's second thread slows many times over when the cores are
#: busy; and rank, which multiplies the counts of its draws per distinct row of statistics (small
#: products).  agree multiplies resample weights by counts and keeps the default.
ONE_BLAS_THREAD = ("score", "fair", "germeval", "convert", "compare", "analyze", "rank")

if "numpy" not in sys.modules and len(sys.argv) > 1 and sys.argv[1] in ONE_BLAS_THREAD:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .app import COMMANDS, build_parser, main, run  # noqa: E402  (numpy is imported from here on)

__all__ = ["COMMANDS", "build_parser", "main", "run"]
