#!/usr/bin/env python3
"""conlleval.pl's own numbers against CoNLL++'s corrected test set, beside ``ts-eval score``'s.

    python scripts/conllpp_conlleval.py --conlleval /path/to/conlleval.pl
    python scripts/conllpp_conlleval.py --conlleval conlleval.pl --data /path/to/conll2003-en --systems 28

For each system (default: five, the first of each family and the best; ``--systems N``: the first N, sorted),
the script writes a temporary ``TOKEN GOLD PRED`` file whose GOLD column is ``gold-conllpp.iob2``'s label (the
same tokens and lines as ``gold.iob2``) and whose PRED is the system's, runs ``perl conlleval.pl`` on it, and runs
``ts-eval score --gold gold-conllpp.iob2 SYSTEM --format conlleval`` on the original files.  The two outputs must
be identical byte for byte; the script prints the FB1 of both, under the original and the corrected reference,
and exits 1 on any difference.  The temporary files (Reuters text without an open licence) are deleted.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conll2003_data import DEFAULT_DATA, system_files  # noqa: E402  (scripts/ is on the path)


def last_column(path: Path) -> List[str]:
    """The last field of every line of ``path`` ('' on a blank line)."""
    return [line.split()[-1] if line.strip() else "" for line in path.read_text(encoding="utf-8").splitlines()]


def fb1(conlleval_output: str) -> str:
    """The FB1 of conlleval's second line."""
    return conlleval_output.splitlines()[1].rsplit("FB1:", 1)[1].strip()


def ts_eval_conlleval(gold: Path, system: Path) -> str:
    return subprocess.run([sys.executable, "-m", "ts_eval", "score", "--gold", str(gold), str(system),
                           "--format", "conlleval"], check=True, capture_output=True, text=True).stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conlleval", required=True, metavar="PATH", help="conlleval.pl (run as: perl PATH < FILE)")
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the conll2003-en folder (default: %(default)s)")
    ap.add_argument("--systems", type=int, default=0, metavar="N",
                    help="check the first N systems, sorted by name (default: five chosen ones; 0 = those five)")
    args = ap.parse_args()
    data = Path(args.data)
    files = [Path(f) for f in system_files(data)]
    if args.systems:
        files = files[:args.systems]
    else:
        chosen = ("task2003-florian", "task2003-chieu", "task2003-zhang", "spanner-CflairWglove_lstmCrf",
                  "interpreteval-CelmoWglove_lstmCrf")
        files = [f for f in files if f.stem in chosen]
    original, corrected = data / "gold.iob2", data / "gold-conllpp.iob2"
    tokens = [line.split()[0] if line.strip() else "" for line in
              corrected.read_text(encoding="utf-8").splitlines()]
    labels = last_column(corrected)
    differ = 0
    print(f"{'':36} {'original':>8}  {'CoNLL++ (corrected)':^21}")
    print(f"{'system (FB1)':36} {'ts-eval':>8}  {'conlleval.pl':>12} {'ts-eval':>8}  identical")
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            predicted = last_column(f)
            if len(predicted) != len(labels):
                raise SystemExit(f"{f}: {len(predicted)} lines, {corrected}: {len(labels)}")
            joined = Path(tmp) / f.name
            joined.write_text("".join(f"{w} {g} {p}\n" if w else "\n" for w, g, p in zip(tokens, labels, predicted)),
                              encoding="utf-8")
            with joined.open("rb") as stdin:
                perl = subprocess.run(["perl", args.conlleval], stdin=stdin, check=True, capture_output=True,
                                      text=True).stdout
            ours = ts_eval_conlleval(corrected, f)
            same = perl == ours
            differ += not same
            print(f"{f.stem:36} {fb1(ts_eval_conlleval(original, f)):>8}  {fb1(perl):>12} {fb1(ours):>8}  "
                  f"{'yes' if same else 'NO'}")
    print(f"{len(files) - differ} of {len(files)} identical byte for byte")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
