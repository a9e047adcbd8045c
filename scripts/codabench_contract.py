#!/usr/bin/env python3
"""The Codabench contract (issue 35): a scoring program made by ``ts-eval codabench`` is run exactly as the
platform runs it, on the 16 CoNLL-2003 shared-task submissions, each its own submission zip, and on broken and
harmless variants of one of them.

As Codabench's compute worker does (codalab/codabench, ``compute_worker/compute_worker.py``): a fresh folder with
``program/`` (the program's zip unpacked), ``input/ref`` (the reference data's zip: gold), ``input/res`` (the
submission's zip, plus the ``metadata`` file the platform writes there after the prediction step), ``output/`` and
``shared/``; the command of ``program/metadata.yaml`` with ``$program``, ``$input``, ``$output`` (and ``/app/``)
put in, split as docker-py splits it, run in ``program/`` in a process of its own with no network (its sockets
refuse to connect); ``output/scores.json`` read as the platform reads it.  The one difference: the container's
``python3`` is this Python, with the ts_eval of this checkout.

Checks: every ``scores.json`` value equals ``ts-eval score``'s for the same file (and Seg-F1 matches
conlleval.pl's FB1 in ``conlleval/NAME.out``); a broken submission (truncated, wrong tokens, a missing column,
several files, no file) exits non-zero with readable lines on standard error and no traceback; a harmless variant
(CRLF line ends, a byte order mark, a zip holding a folder, IOB1 tags under a program that allows IOB1) scores as
the clean file does.  Prints a table; exits 1 on any mismatch.

    python scripts/codabench_contract.py [DATA]     # DATA: the shared data folder (default ../shared/data)

The CoNLL-2003 text is written only to a temporary folder, removed at the end.
"""
from __future__ import annotations

import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
#: what Codabench puts in a command (compute_worker.py's replace_legacy_metadata_command), scoring step
PLATFORM_VARS = ("$input", "input"), ("$output", "output"), ("$program", "program"), ("$hidden", "input/ref"), \
    ("$shared", "shared"), ("$tmp", "output"), ("$predictions", "input/res")
NO_NETWORK = """import socket

def _refused(*args, **kwargs):
    raise OSError("no network in the scoring container")

socket.socket.connect = _refused
socket.socket.connect_ex = _refused
socket.create_connection = _refused
socket.getaddrinfo = _refused
"""


@dataclass
class Run:
    """One run of a program on one submission, as the platform sees it."""

    code: int
    stdout: str
    stderr: str
    scores: Optional[Dict[str, float]]
    outputs: List[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        """The first line of standard error (what the participant reads first)."""
        return next((x for x in self.stderr.splitlines() if x.strip()), "")

    @property
    def problems(self) -> str:
        """The validation report's count and kinds of problems (its row of the submissions table), or the first
        line of standard error without its prefix."""
        row = next((m for x in self.stderr.splitlines() if (m := re.match(r"^\S+\s+no\s+(\d+)\s+(.+?)\s*$", x))), None)
        if not row:
            return self.message.replace("ts-eval: error: ", "")
        return f"{row.group(1)} problem{'' if row.group(1) == '1' else 's'}: {row.group(2)}"


def zip_files(path: Path, files: Dict[str, bytes]) -> Path:
    """A zip at ``path`` holding ``files`` (name in the zip -> bytes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def make_program(gold: Path, folder: Path, options: Sequence[str] = (), columns: Optional[str] = None) -> Path:
    """``ts-eval codabench --gold GOLD -o FOLDER [--columns C] -- OPTIONS``; the program's zip."""
    argv = [sys.executable, "-m", "ts_eval", "codabench", "--gold", str(gold), "-o", str(folder)]
    argv += ["--columns", columns] if columns else []
    done = subprocess.run([*argv, "--", *options], capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"ts-eval codabench failed: {done.stderr.strip()}")
    return folder.with_name(folder.name + ".zip")


def platform_run(program_zip: Path, reference_zip: Path, submission_zip: Path, root: Path,
                 timeout: float = 120, image: str = "") -> Run:
    """Run the program on the submission as Codabench's compute worker does, in the fresh folder ``root``
    (``image``: Python run at the container's start, after the network is cut: what else its image lacks)."""
    for sub in ("program", "input/ref", "input/res", "output", "shared", "guard"):
        (root / sub).mkdir(parents=True)
    for zipped, place in ((program_zip, "program"), (reference_zip, "input/ref"), (submission_zip, "input/res")):
        with zipfile.ZipFile(zipped) as z:
            z.extractall(root / place)
    # the prediction step's own file, which the worker writes into what becomes input/res
    (root / "input" / "res" / "metadata").write_text("elapsedTime: 0.1\nexitCode: 0\ningestionElapsedTime: null\n"
                                                     "ingestionExitCode: null\n")
    command = _metadata_command(root / "program" / "metadata.yaml")
    for var, place in PLATFORM_VARS:
        command = command.replace(var, str(root / place))
    argv = shlex.split(command.replace("/app/", f"{root}/"))
    argv[0] = sys.executable if argv[0] in ("python3", "python") else argv[0]
    (root / "guard" / "sitecustomize.py").write_text(NO_NETWORK + image)
    env = dict(os.environ, PYTHONUNBUFFERED="1",
               PYTHONPATH=os.pathsep.join([str(root / "guard"), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(argv, cwd=root / "program", env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)
    outputs = sorted(p.name for p in (root / "output").iterdir())
    if "metadata" in outputs:   # the worker refuses an output folder that holds one
        raise AssertionError("the program wrote output/metadata, which the platform keeps for itself")
    scores = None
    if done.returncode == 0 and (root / "output" / "scores.json").exists():
        scores = json.loads((root / "output" / "scores.json").read_text())
    return Run(done.returncode, done.stdout, done.stderr, scores, outputs)


def _metadata_command(path: Path) -> str:
    try:
        import yaml  # what the worker reads metadata.yaml with (mkdocs, the docs extra, brings it)
    except ImportError:  # pragma: no cover
        return next(x for x in path.read_text().splitlines() if x.startswith("command:")).split(":", 1)[1].strip()
    command: str = yaml.safe_load(path.read_text())["command"]
    return command


def column_values(report: Dict[str, Any], columns: List[Dict[str, Any]], system: int = 0) -> Dict[str, float]:
    """The columns' numbers in a ``ts-eval score`` JSON result (its ``system``-th system)."""
    out = {}
    for c in columns:
        value: Any = report["systems"][system]
        for key in c["path"]:
            value = value[key]
        out[c["key"]] = value
    return out


def two_columns(conll: Path) -> str:
    """TOKEN PRED lines of a TOKEN GOLD PRED file: what a participant submits."""
    return "".join(f"{p[0]} {p[-1]}\n" if (p := line.split()) else "\n" for line in conll.open(encoding="utf-8"))


#: variants of a clean submission (its text -> the files of its zip) and what they must give
def _cut(text: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(lines[: len(lines) * 3 // 5])


def _wrong_tokens(text: str) -> str:
    lines = text.splitlines(keepends=True)
    for k in (40, 41, 900):
        if lines[k].strip():
            lines[k] = "WRONG " + lines[k].split(" ", 1)[1]
    return "".join(lines)


def _missing_column(text: str) -> str:
    lines = text.splitlines(keepends=True)
    k = next(i for i in range(120, len(lines)) if lines[i].strip())
    lines[k] = lines[k].split(" ")[0] + "\n"
    return "".join(lines)


BROKEN: Dict[str, Callable[[str, str], Dict[str, bytes]]] = {
    "truncated": lambda name, t: {name: _cut(t).encode()},
    "wrong tokens": lambda name, t: {name: _wrong_tokens(t).encode()},
    "missing column": lambda name, t: {name: _missing_column(t).encode()},
    "two files": lambda name, t: {name: t.encode(), "notes.txt": b"our system\n"},
    "no file": lambda name, t: {"empty/": b""},
}
#: what the participant must read on standard error for each broken variant (the kind of problem, or the line)
EXPECTED = {"truncated": "missing_sentence", "wrong tokens": "token_mismatch", "missing column": "column_count",
            "two files": "the submission holds 2 files", "no file": "the submission holds no file"}
HARMLESS: Dict[str, Callable[[str, str], Dict[str, bytes]]] = {
    "CRLF": lambda name, t: {name: t.replace("\n", "\r\n").encode()},
    "BOM": lambda name, t: {name: b"\xef\xbb\xbf" + t.encode()},
    "zip holding a folder": lambda name, t: {f"predictions/{name}": t.encode()},
}


def conlleval_fb1(out: Path) -> Optional[float]:
    """conlleval.pl's overall FB1 (percent) in its output ``out``."""
    if not out.exists():
        return None
    m = re.search(r"FB1:\s+([\d.]+)", out.read_text())
    return float(m.group(1)) if m else None


def main(argv: Sequence[str]) -> int:
    data = Path(argv[0]) if argv else DEFAULT_DATA
    conll = data / "conll2003-en"
    files = sorted(glob.glob(str(conll / "systems" / "task2003-*.conll")))
    if len(files) != 16:
        print(f"expected the 16 CoNLL-2003 submissions under {conll}/systems, found {len(files)}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="codabench-contract-") as tmp:
        return _contract(conll, [Path(f) for f in files], Path(tmp), started)


def _contract(conll: Path, files: List[Path], tmp: Path, started: float) -> int:
    gold = conll / "gold.iob2"
    reference = zip_files(tmp / "reference_data.zip", {"gold.iob2": gold.read_bytes()})
    program = make_program(gold, tmp / "scoring_program")
    # an organiser who allows IOB1 gives gold in IOB1 (CoNLL-2003's own): gold validates under the program's scheme
    iob1_program = make_program(conll / "gold.iob1", tmp / "scoring_program_iob1", ["--scheme", "IOB1"])
    iob1_reference = zip_files(tmp / "reference_data_iob1.zip", {"gold.iob1": (conll / "gold.iob1").read_bytes()})
    columns = json.loads((tmp / "scoring_program" / "settings.json").read_text())["columns"]
    texts = {f.stem.replace("task2003-", ""): two_columns(f) for f in files}
    subs = tmp / "submissions"
    subs.mkdir()
    for name, text in texts.items():
        (subs / f"{name}.txt").write_text(text)
    names = sorted(texts)
    done = subprocess.run([sys.executable, "-m", "ts_eval", "score", "--gold", str(gold),
                           *[str(subs / f"{n}.txt") for n in names], "--format", "json"],
                          capture_output=True, text=True, check=True)
    expected = {n: column_values(json.loads(done.stdout), columns, k) for k, n in enumerate(names)}
    jobs: List[Tuple[str, str, Path, Dict[str, bytes]]] = [(n, "clean", program, {f"{n}.txt": texts[n].encode()})
                                                           for n in names]
    references = {program: reference, iob1_program: iob1_reference}
    first = names[0]
    iob1 = two_columns(conll / "systems-iob1" / f"task2003-{first}.conll")
    jobs += [(first, v, program, make(f"{first}.txt", texts[first])) for v, make in {**BROKEN, **HARMLESS}.items()]
    jobs += [(first, "IOB1 tags, IOB1 allowed", iob1_program, {f"{first}.txt": iob1.encode()})]

    def one(k: int) -> Run:
        _, _, prog, content = jobs[k]
        zipped = zip_files(tmp / f"submission-{k}.zip", content)
        return platform_run(prog, references[prog], zipped, tmp / f"run-{k}")

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        runs = list(pool.map(one, range(len(jobs))))
    return _table(jobs, runs, expected, conll, columns, time.perf_counter() - started)


def _table(jobs: List[Tuple[str, str, Path, Dict[str, bytes]]], runs: List[Run], expected: Dict[str, Dict[str, float]],
           conll: Path, columns: List[Dict[str, Any]], seconds: float) -> int:
    key = columns[0]["key"]
    print(f"{'submission':<12} {'variant':<24} {'exit':>4} {key:>15} {'conlleval':>9}  check")
    bad = 0
    for (name, variant, _, _), run in zip(jobs, runs):
        want = expected[name]
        if variant in BROKEN:
            ok = run.code == 1 and EXPECTED[variant] in run.stderr and "Traceback" not in run.stderr and \
                run.scores is None
            note = run.problems
        else:
            ok = run.code == 0 and run.scores == want
            note = "scores.json = ts-eval score's" if ok else f"differs: {run.scores} vs {want}; {run.message}"
        fb1 = conlleval_fb1(conll / "conlleval" / f"task2003-{name}.out") if variant == "clean" else None
        if ok and fb1 is not None and run.scores is not None:
            ok = round(100 * run.scores[key], 2) == fb1
            note += "" if ok else f"; conlleval FB1 {fb1}"
        bad += not ok
        value = f"{run.scores[key]:.6f}" if run.scores else "-"
        print(f"{name:<12} {variant:<24} {run.code:>4} {value:>15} {fb1 if fb1 is not None else '':>9}  "
              f"{'ok' if ok else 'MISMATCH'}: {note}")
    print(f"{len(runs)} platform runs, {bad} mismatches, {seconds:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
