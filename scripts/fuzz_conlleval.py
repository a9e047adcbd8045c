"""Fuzz `ts-eval score --format conlleval --scheme conlleval` against conlleval.pl.

Writes N small random files in conlleval's layout (``TOKEN GOLD GUESS``, single spaces)
with every tag shape conlleval.pl reads: O; B-, I-, E-, S-, [-, ]- with several types
(one of them hyphenated, and the type 0 that Perl reads as empty); bare type-less tags
(B, I, E, S, [, ], ., X) and empty types (B-); sentence breaks (one or two blank
lines), -X- boundary lines (with any tags), -DOCSTART- O O lines, and files that end
with or without a blank line.  Each file goes through ``perl conlleval.pl`` and through
ts-eval in-process; the outputs must agree byte for byte.

    python scripts/fuzz_conlleval.py --conlleval /path/to/conlleval.pl -n 5000

Prints the number of files and of mismatches (the first few mismatching files are
kept in --keep, default $TMPDIR/ts_eval_fuzz); exits 1 on any mismatch, 2 when perl or
conlleval.pl is missing.  conlleval.pl itself is not shipped with ts_eval.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ts_eval.cli import main as ts_eval_main

TYPES = ["PER", "LOC", "A-B", "0"]
PREFIXES = ["B", "I", "E", "S", "[", "]"]
BARE = ["B", "I", "E", "S", "[", "]", ".", "X", "B-", "I-"]


def random_tag(rng: random.Random, types: List[str]) -> str:
    r = rng.random()
    if r < 0.3:
        return "O"
    if r < 0.85:
        return f"{rng.choice(PREFIXES)}-{rng.choice(types)}"
    return rng.choice(BARE)


def random_file(rng: random.Random) -> str:
    """One small file: a few sentences of 1..6 tokens plus boundary and -DOCSTART- lines."""
    types = rng.sample(TYPES, rng.randint(1, len(TYPES)))
    lines: List[str] = []
    if rng.random() < 0.3:
        lines += ["-DOCSTART- O O", ""]
    for s in range(rng.randint(1, 4)):
        for k in range(rng.randint(1, 6)):
            lines.append(f"w{s}{k} {random_tag(rng, types)} {random_tag(rng, types)}")
        r = rng.random()
        if r < 0.55:
            lines.append("")
        elif r < 0.7:
            lines += ["", ""]
        elif r < 0.85:
            lines.append(f"-X- {random_tag(rng, types)} {random_tag(rng, types)}")
        else:
            lines += ["", "-DOCSTART- O O", ""]
    while lines and lines[-1] == "" and rng.random() < 0.4:  # sometimes no blank line at the end
        lines.pop()
    return "\n".join(lines) + "\n"


def run_ts_eval(path: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = ts_eval_main(["score", "--format", "conlleval", "--scheme", "conlleval", path])
    return out.getvalue() if code == 0 else f"exit {code}: {err.getvalue()}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--conlleval", required=True, metavar="PATH", help="conlleval.pl (run as: perl PATH < FILE)")
    ap.add_argument("--perl", default=shutil.which("perl") or "/usr/bin/perl", help="perl interpreter")
    ap.add_argument("-n", "--files", type=int, default=5000, help="number of random files (default 5000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "ts_eval_fuzz",
                    help="folder for the first mismatching files and both outputs")
    args = ap.parse_args(argv)
    if not os.path.exists(args.perl) or not os.path.exists(args.conlleval):
        print(f"need perl ({args.perl}) and conlleval.pl ({args.conlleval})", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "f.conll")
        for k in range(args.files):
            text = random_file(rng)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            with open(path, "rb") as fh:
                want = subprocess.run([args.perl, args.conlleval], stdin=fh, capture_output=True).stdout
            got = run_ts_eval(path)
            if got.encode("utf-8") != want:
                bad += 1
                if bad <= 20:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    stem = args.keep / f"case{k}"
                    stem.with_suffix(".conll").write_text(text, encoding="utf-8")
                    stem.with_suffix(".conlleval.out").write_bytes(want)
                    stem.with_suffix(".ts_eval.out").write_text(got, encoding="utf-8")
    print(f"files: {args.files}  mismatches: {bad}" + (f"  (first cases in {args.keep})" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
