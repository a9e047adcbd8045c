"""The files of a scoring program made by ``ts-eval codabench`` (:mod:`.codabench`), its zip, and the trial run
on gold before it is written: the program in a fresh folder as the platform lays it out, run as the platform runs
it (the command of ``metadata.yaml`` with the paths put in, in a process of its own)."""
from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import zipfile
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional

from ..errors import InputError
from ..version import __version__

SCRIPT = "score.py"
#: metadata.yaml is what Codabench reads; CodaLab reads the same lines from metadata (Codabench too, without the first)
FILES = ("metadata.yaml", "metadata", SCRIPT, "settings.json")


def sha256(path: str) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def program_settings(gold: str, options: List[str], columns: List[Dict[str, Any]],
                     submission: Optional[str]) -> Dict[str, Any]:
    """What ``settings.json`` holds: the ts_eval that made the program, when, an id of what it does (a hash of
    the rest, printed when it runs: the organiser sees which program scored a submission), score's options, the
    columns, gold's name and checksum, the submission's file name if one is expected."""
    settings: Dict[str, Any] = {"ts_eval": __version__,
                                "made": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                "score_options": options, "columns": columns,
                                "gold": {"name": os.path.basename(gold), "sha256": sha256(gold)},
                                "submission": submission}
    what = {k: v for k, v in settings.items() if k != "made"}
    settings["program"] = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:12]
    return settings


def write_program(folder: str, settings: Dict[str, Any], command: str) -> None:
    """``metadata.yaml`` (and ``metadata``, the same for CodaLab), ``score.py`` and ``settings.json`` in a new
    ``folder``."""
    os.makedirs(folder)
    for name in ("metadata.yaml", "metadata"):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(f"# a scoring program made by ts-eval codabench (ts_eval {settings['ts_eval']}, program "
                    f"{settings['program']}); it needs ts_eval {settings['ts_eval']} in the competition's docker "
                    f"image\ncommand: {command}\ndescription: scores a submission with ts_eval against the "
                    "reference data\n")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "codabench_script.py")
    shutil.copyfile(script, os.path.join(folder, SCRIPT))
    with open(os.path.join(folder, "settings.json"), "w", encoding="utf-8") as f:
        json.dump(settings, f, indent=1, ensure_ascii=False)
        f.write("\n")


def zipped(folder: str, path: str) -> None:
    """The program's files at the top of a new zip ``path`` (where the platform looks for ``metadata.yaml``)."""
    with open(path, "xb") as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as z:
        for name in FILES:
            z.write(os.path.join(folder, name), name)


def platform_command(program: str, root: str, python: str = sys.executable) -> List[str]:
    """The command of ``program``'s ``metadata.yaml`` as the platform runs it in ``root``: ``$program``, ``$input``
    and ``$output`` put in (``root``'s ``program``, ``input``, ``output``), the image's ``python3`` this one."""
    with open(os.path.join(program, "metadata.yaml"), encoding="utf-8") as f:
        line = next(x for x in f if x.startswith("command:"))
    command = line.split(":", 1)[1].strip()
    for var, place in (("$program", program), ("$input", os.path.join(root, "input")),
                       ("$output", os.path.join(root, "output"))):
        command = command.replace(var, place)
    argv = shlex.split(command)
    return [python if argv[0] == "python3" else argv[0], *argv[1:]]


def tried(program: str, gold: str, columns: List[Dict[str, Any]], tmp: str) -> Dict[str, float]:
    """Run ``program`` on ``gold`` submitted as the submission, as the platform would; its scores.json (an
    InputError with the program's messages when it fails or leaves a column out)."""
    root = os.path.join(tmp, "trial")
    for sub in ("input/ref", "input/res", "output"):
        os.makedirs(os.path.join(root, sub))
    shutil.copyfile(gold, os.path.join(root, "input", "ref", os.path.basename(gold)))
    shutil.copyfile(gold, os.path.join(root, "input", "res", os.path.basename(gold)))
    done = subprocess.run(platform_command(program, root), cwd=program, capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise InputError(f"the program fails on gold as a submission (exit {done.returncode}): "
                         f"{done.stderr.strip() or done.stdout.strip()}", gold)
    with open(os.path.join(root, "output", "scores.json"), encoding="utf-8") as f:
        scores: Dict[str, float] = json.load(f)
    missing = [c["spec"] for c in columns if c["key"] not in scores]
    if missing:
        raise InputError(f"ts-eval score's result holds no number for the column(s) {', '.join(missing)} "
                         "(see the JSON of ts-eval score --format json)", gold)
    return scores


#: score's options that validate takes with another meaning: score's --labels scores only those labels,
#: validate's are the labels a submission may use (by default gold's, which is what the program checks)
NOT_VALIDATED = ("labels",)


def validate_options(options: List[str]) -> List[str]:
    """The options among score's ``options`` that ``ts-eval validate`` takes too (the reading options), each
    with the values after it."""
    import argparse

    from .app import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    score = sub.choices["score"]._option_string_actions     # argparse has no public table of them
    known = {d for a in sub.choices["validate"]._actions for d in [a.dest] if d not in NOT_VALIDATED}
    kept: List[str] = []
    keep = False
    for token in options:
        if token.startswith("-") and not token[1:2].isdigit():
            action = score.get(token.split("=", 1)[0])
            keep = action is not None and action.dest in known
        if keep:
            kept.append(token)
    return kept
