"""What a scoring program made by ``ts-eval codabench`` writes at its end (:mod:`.codabench_run`): the
leaderboard's numbers, or the lines of a failure, for the participant on standard error (and a bug's traceback
for the organisers, in the scoring output)."""
from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Dict

from .errors import report


def write_scores(values: Dict[str, float], output_dir: str) -> None:
    """``scores.json`` (Codabench) and ``scores.txt`` (CodaLab: ``key: value`` lines); the scores on stdout."""
    with open(os.path.join(output_dir, "scores.json"), "w", encoding="utf-8") as f:
        json.dump(values, f, indent=1)
    lines = "".join(f"{key}: {value!r}\n" for key, value in values.items())
    with open(os.path.join(output_dir, "scores.txt"), "w", encoding="utf-8") as f:
        f.write(lines)
    print(lines, end="")


def failed(err: BaseException, output_dir: str) -> int:
    """The exit code of ``err``, reported in lines for the participant (a bug too: its traceback goes to
    ``OUTPUT/traceback.txt``, for the organisers, not to standard error)."""
    if isinstance(err, SystemExit) and isinstance(err.code, int):
        return err.code or 1     # reported already (one line, by command())
    from ..version import __version__

    if isinstance(err, ImportError):   # ts_eval installed without what it needs (numpy, ...)
        print(f"scoring program: ts_eval {__version__} cannot run here ({type(err).__name__}: {err}): install "
              f"it with its dependencies in the competition's docker image (pip install 'ts-eval=={__version__}')",
              file=sys.stderr)
        return 1
    try:
        return report(err)
    except BaseException:   # a bug: no traceback for the participant
        with open(os.path.join(output_dir, "traceback.txt"), "w", encoding="utf-8") as f:
            f.write("".join(traceback.format_exception(type(err), err, err.__traceback__)))
        print(f"scoring program: internal error of ts_eval {__version__} ({type(err).__name__}: {err}); the "
              "organisers find its traceback in the scoring output (traceback.txt)", file=sys.stderr)
        return 1

