"""What a scoring program made by ``ts-eval codabench`` does when the platform runs it (its script,
:mod:`.codabench_script`, calls :func:`run` once it has checked the version of ts_eval).

The platform gives two folders: ``INPUT`` (``ref``: the reference data, unpacked; ``res``: the submission,
unpacked) and ``OUTPUT``.  The program finds gold and the submission (one folder down when a zip held a folder),
validates the submission with ``ts-eval validate`` and the organiser's reading options, then scores it with
``ts-eval score`` and the organiser's options (frozen in ``settings.json`` when the program was made), and writes
to ``OUTPUT``: ``validation.txt`` and ``validation.html`` (every problem), ``report.json`` (score's JSON),
``detailed_results.html`` (score's HTML page), ``scores.json`` (one number per leaderboard column, as Codabench
reads it) and ``scores.txt`` (the same as CodaLab reads it).  A bad submission ends with readable lines on
standard error (what the platform shows the participant) and exit 1, never a traceback.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import sys
from typing import Any, Dict, List, Sequence

from .codabench_files import found
from .codabench_outputs import failed, write_scores
from .codabench_program import sha256, validate_options
from .errors import report
from .spelling import option_flags

DEFAULT_PATHS = ("/app/input", "/app/output")   # where Codabench mounts them, when no argument names them
SHOWN = 20        # problems of a submission listed on standard error
LISTED = 1000     # problems listed in validation.txt and validation.html (every problem is counted)


def run(argv: Sequence[str], settings: Dict[str, Any], here: str) -> int:
    """Score the submission in ``argv[0]``/res against the gold in ``argv[0]``/ref into ``argv[1]``; exit code."""
    given = [os.path.abspath(p) for p in argv[:2]]
    input_dir, output_dir = given + list(DEFAULT_PATHS)[len(given):]
    try:
        os.chdir(input_dir)        # messages and pages name ref/GOLD and res/FILE, not the container's paths
        gold = found("ref", "reference data", settings["gold"]["name"])
        submission = found("res", "submission", settings.get("submission"))
        if settings["gold"].get("sha256") != sha256(gold):
            print(f"note: {gold} is not the gold this program was made with ({settings['gold']['name']})")
        stem = os.path.splitext(os.path.basename(submission))[0]    # (gold's name for a system is refused)
        options = [*settings["score_options"], "--names", "submission" if stem == "gold" else stem]
        if not validated(gold, submission, options, output_dir):
            return 1
        values = scored(gold, submission, options, settings["columns"], output_dir)
    except BaseException as err:   # every error: lines for the participant (failed())
        return failed(err, output_dir)
    write_scores(values, output_dir)
    return 0


def command(argv: List[str], shown: List[str]) -> int:
    """``ts-eval ARGV`` run in this process (its page shows the command line ``shown``); its exit code, an error
    the user can act on reported in one line as the command line reports it."""
    from .app import parse

    args = parse(argv)
    args.argv = shown
    try:
        code: int = args.command_modules[argv[0]].run(args)
    except BaseException as err:   # report() re-raises what is not one of them
        return report(err, option_flags(args.command_parser))
    return code


def validated(gold: str, submission: str, options: List[str], output_dir: str) -> bool:
    """Whether the submission would score as it is (``ts-eval validate`` with score's reading options, read once):
    the report in ``output_dir`` (``validation.txt``, ``validation.html``, which is ``detailed_results.html`` too
    when there are problems), and the first :data:`SHOWN` problems on standard error."""
    from ..validation.check import validate_inputs
    from .app import parse
    from .errors import option_errors
    from .inputs import file_request
    from .outputs import emit

    shown = ["validate", "--gold", gold, submission, *validate_options(options)]
    args = parse(shown)
    args.argv = shown
    with option_errors():
        result = validate_inputs(file_request(args), max_problems=LISTED)
    result.settings["command"] = "validate"
    for args.format, args.output in (("table", os.path.join(output_dir, "validation.txt")),
                                     ("html", os.path.join(output_dir, "validation.html"))):
        emit(result, args)
    if result.valid:
        return True
    shutil.copyfile(args.output, os.path.join(output_dir, "detailed_results.html"))
    first = os.path.join(output_dir, ".problems.txt")     # the report again, its lists cut short
    command([*shown, "--max-problems", str(SHOWN), "-o", first], shown)
    with open(first, encoding="utf-8") as f:
        table = f.read()
    os.remove(first)
    print(f"ts-eval: error: {submission} would not score as it is; its problems (validation.txt and "
          f"validation.html of the scoring output list up to {LISTED}):", file=sys.stderr)
    print(table, end="", file=sys.stderr)
    return False


def scored(gold: str, submission: str, options: List[str], columns: List[Dict[str, Any]],
           output_dir: str) -> Dict[str, float]:
    """``ts-eval score``'s JSON and HTML page of the submission in ``output_dir``; the columns' numbers."""
    shown = ["score", "--gold", gold, submission, *options]
    out = {fmt: os.path.join(output_dir, name) for fmt, name in (("json", "report.json"),
                                                                  ("html", "detailed_results.html"))}
    for fmt, path in out.items():
        code = command([*shown, "--format", fmt, "-o", path], shown)
        if code:
            raise SystemExit(code)
    with open(out["json"], encoding="utf-8") as f:
        system = json.load(f)["systems"][0]
    values = {}
    for column in columns:
        value: Any = system
        for key in column["path"]:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, (int, float)) and math.isfinite(value):
            values[column["key"]] = float(value)
        else:
            print(f"note: {column['key']} ({column['spec']}) is n/a for this submission; left out of scores.json")
    return values
