"""Settings every test shares.

The terminal renderer lays tables and prose out for the width of the terminal, read from
``COLUMNS`` (a pipe without it gets ``ts_eval.cli.outputs.PIPE_WIDTH``).  A user who exports
``COLUMNS=80`` must not see the suite fail: every test starts without ``COLUMNS`` and ``LINES``
(so in-process runs and the subprocesses they start, which inherit the environment, see the
same width everywhere); a test about a width sets its own (``monkeypatch.setenv("COLUMNS", ...)``).
``test_terminal_width.py`` runs the message-reading tests under an exported narrow width.
"""
from __future__ import annotations

import pytest

#: what the user's terminal may export and the renderers read
TERMINAL_VARIABLES = ("COLUMNS", "LINES")


@pytest.fixture(autouse=True)
def _no_terminal_size(monkeypatch):
    for name in TERMINAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
