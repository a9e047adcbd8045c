"""Settings every test shares.

The terminal renderer lays tables and prose out for the width of the terminal, read from
``COLUMNS`` (a pipe without it gets ``ts_eval.cli.outputs.PIPE_WIDTH``).  A user who exports
``COLUMNS=80`` must not see the suite fail: every test starts without ``COLUMNS`` and ``LINES``
(so in-process runs and the subprocesses they start, which inherit the environment, see the
same width everywhere); a test about a width sets its own (``monkeypatch.setenv("COLUMNS", ...)``).
``test_terminal_width.py`` runs the message-reading tests under an exported narrow width.

Markers (registered in setup.cfg, ``--strict-markers``):

- ``slow``: a test that takes more than about 0.3 s (hypothesis properties over random
  corpora, subprocesses, the docs build, the 28-system rank table); together they are most of
  the suite's time;
- ``browser``: a test that opens pages in headless Chromium.  Every test of a module that
  imports ``tests/browser.py`` gets it here, so a new browser test cannot be forgotten; it gets
  ``slow`` too (a page loaded and measured in Chromium takes 0.3-1 s, starting Chromium 2 s).

``python -m pytest -m "not slow"`` is the quick run while working (about 25 s instead of about
100 s); CI runs everything.
"""
from __future__ import annotations

import os

import browser
import pytest

#: what the user's terminal may export and the renderers read
TERMINAL_VARIABLES = ("COLUMNS", "LINES")


@pytest.fixture(autouse=True)
def _no_terminal_size(monkeypatch):
    for name in TERMINAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        # GNU readline, which pytest loads, puts COLUMNS and LINES into the C environment without
        # os.environ knowing: subprocesses inherited COLUMNS=80 although no test had set it
        os.unsetenv(name)


def pytest_collection_modifyitems(items):
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and any(v is browser for v in vars(module).values()):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
