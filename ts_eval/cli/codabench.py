"""``ts-eval codabench``: write a scoring program for Codabench (and CodaLab) that scores each submission with
ts_eval against the reference data, with the organiser's options frozen into it (docs/shared-tasks.md).

It writes a folder (``-o DIR``, default ``scoring_program``) and its zip (``DIR.zip``), never over an existing
folder or file: ``metadata.yaml`` (the command the platform runs; ``metadata``, the same for CodaLab),
``score.py`` (:mod:`.codabench_script`) and ``settings.json`` (the ts_eval that made it, score's options, the
leaderboard's columns, gold's name and checksum).  Before it writes them, the program is run as the platform
runs it on gold submitted as a submission: options ``ts-eval score`` refuses and columns its result lacks are
errors here, not on the platform."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any, Dict, List

from .errors import UsageError, option_errors

if TYPE_CHECKING:
    from .errors import Subparsers

DEFAULT_COLUMNS = "exact-f1-micro,exact.micro.precision,exact.micro.recall,ts-f1-macro,fair-f1"
COMMAND = "python3 $program/score.py $input $output"     # Codabench and CodaLab put their paths for $...
#: score's options that the program sets itself, that would score something else than the submission, or that
#: name a file of this machine, which the platform does not have
SETS = "it sets it itself"
REFUSED = {"format": ("--format", SETS), "output": ("--output", SETS), "names": ("--names", SETS),
           "system": ("--system", SETS), "runs": ("--runs", "it scores one submission"),
           "tag_names": ("--tag-names", "the file would not be on the platform")}


def register(sub: Subparsers) -> None:
    """Add ``codabench`` to the ``ts-eval`` parser."""
    p = sub.add_parser("codabench", help="write a Codabench/CodaLab scoring program that scores with ts_eval",
                       description="Write a scoring program (a folder and its zip) for Codabench or CodaLab: it "
                                   "validates each submission against the gold in the reference data, scores it "
                                   "with ts-eval score and the options after --, and writes scores.json (one "
                                   "number per leaderboard column) and detailed_results.html.")
    p.add_argument("--gold", required=True, metavar="G",
                   help="the gold file, as it goes into the reference data (the program records its name and "
                        "checksum, and is tried on it before it is written)")
    p.add_argument("--columns", default=DEFAULT_COLUMNS, metavar="LIST",
                   help="the leaderboard's columns, comma-separated: ranking scores (ts-eval rank --list-models) or "
                        "paths into a system of ts-eval score's JSON result (exact.micro.precision, "
                        f"exact.labels.PER.f) (default {DEFAULT_COLUMNS})")
    p.add_argument("--primary", metavar="COLUMN",
                   help="the column Codabench ranks by, put at index 0 (default: the first of --columns)")
    p.add_argument("--submission-name", metavar="NAME",
                   help="the file to score when a submission holds several (default: a submission holds one file)")
    p.add_argument("--output", "-o", default="scoring_program", metavar="DIR",
                   help="the folder to write (default scoring_program); its zip is DIR.zip; neither may exist")
    p.add_argument("score_options", nargs="*", metavar="SCORE_OPTION",
                   help="after --: ts-eval score's options, as it takes them (scheme, policy, models, labels, input "
                        "format, ...): the program scores every submission with them")


def score_args(gold: str, options: List[str]) -> argparse.Namespace:
    """``ts-eval score --gold GOLD GOLD OPTIONS`` parsed (a usage error for an option the program sets)."""
    from .app import parse

    args = parse(["score", "--gold", gold, gold, *options])
    plain = parse(["score", "--gold", gold, gold])
    for dest, (flag, why) in REFUSED.items():
        if getattr(args, dest, None) != getattr(plain, dest, None):
            raise UsageError(f"{flag} is not an option of the scoring program: {why}")
    if list(args.file or []) != [gold] or list(args.gold or []) != [gold]:
        raise UsageError("give score's options after --, not files: the program scores one submission against "
                         "--gold")
    return args


def run(args: argparse.Namespace) -> int:
    """Write the program; returns the exit code (errors are raised)."""
    import json
    import tempfile

    from .codabench_columns import competition_yaml, leaderboard
    from .codabench_program import program_settings, tried, write_program, zipped
    from .scoring import models

    folder = os.path.normpath(args.output)
    for path in (folder, folder + ".zip"):
        if os.path.lexists(path):
            raise UsageError(f"--output: {path} exists; the program is never written over anything: remove it or "
                             "give another --output")
    if not os.path.isfile(args.gold):
        raise UsageError(f"--gold: {args.gold}: no such file")
    options = list(args.score_options)
    with option_errors("score options: "):
        scoring = score_args(args.gold, options)
        columns = leaderboard(args.columns, args.primary, scoring, models(scoring))
    settings = program_settings(args.gold, options, columns, args.submission_name)
    parent = os.path.dirname(os.path.abspath(folder))
    with tempfile.TemporaryDirectory(dir=parent, prefix=".ts-eval-codabench-") as tmp:
        program = os.path.join(tmp, "program")
        write_program(program, settings, COMMAND)
        scores = tried(program, args.gold, columns, tmp)
        zipped(program, folder + ".zip")
        os.rename(program, folder)
    shown: Dict[str, Any] = {c["key"]: round(scores[c["key"]], 4) for c in columns}
    print(f"wrote {folder}/ (metadata.yaml, metadata, score.py, settings.json) and {folder}.zip, made by ts_eval "
          f"{settings['ts_eval']} (program {settings['program']})")
    print(f"tried on gold as a submission: scores.json {json.dumps(shown)}")
    print(competition_yaml(columns, os.path.basename(folder) + ".zip", os.path.basename(args.gold),
                           settings["ts_eval"]), end="")
    return 0
