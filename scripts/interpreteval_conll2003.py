#!/usr/bin/env python3
"""InterpretEval's per-bucket F1 on CoNLL-2003, reproduced (issue 19.2): ts_eval's reimplementation
(``ts_eval.analysis.interpreteval``) against InterpretEval's own code, bucket by bucket.

InterpretEval (neulab/InterpretEval, ``interpretEval/tensorEvaluation-ner.py``) is run as it is,
from a checkout given with ``--interpreteval DIR`` (its ``interpretEval`` folder): its training
tables are built by its own ``getPreComputed_*`` functions from ``train.iob2`` (not the pickles its
repository ships, which were made from other data) and kept in ``--tables`` (building them takes
InterpretEval many minutes; the folder is reused); then its ``new_metric`` scores each system's
file.  ts_eval builds the same tables (checked entry by entry against InterpretEval's) and scores
the same spans.  Every bucket of every attribute of every system is compared: the same bucket
keys, the same number of gold spans, the same F1 (to 1e-12).

    python scripts/interpreteval_conll2003.py --data DIR/conll2003-en --interpreteval DIR \\
        --tables DIR [--systems 'interpreteval-*' 'spanner-*']

Exit code 0 when every bucket agrees.
"""
from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import io
import os
import pickle
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, List, Tuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ts_eval.analysis import interpreteval as ie  # noqa: E402


def read_columns(path: Path, column: int) -> Tuple[List[str], List[str], List[int]]:
    """Tokens, the tags of ``column`` and the sentence lengths, as InterpretEval reads a file (blank
    lines and -DOCSTART- lines end a sentence; fields split at single spaces)."""
    words: List[str] = []
    tags: List[str] = []
    lengths: List[int] = []
    n = 0
    for line in path.read_text(encoding="utf-8").split("\n"):
        line = line.strip()
        if not line or line.startswith("-DOCSTART-"):
            if n:
                lengths.append(n)
                n = 0
            continue
        fields = line.split(" ")
        words.append(fields[0].strip())
        tags.append(fields[column].strip())
        n += 1
    if n:
        lengths.append(n)
    return words, tags, lengths


def load_interpreteval(folder: Path) -> Any:
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location("interpreteval_ner", folder / "tensorEvaluation-ner.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
    return module


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, type=Path, help="the conll2003-en folder")
    ap.add_argument("--interpreteval", required=True, type=Path, help="InterpretEval's interpretEval folder")
    ap.add_argument("--tables", required=True, type=Path, help="where InterpretEval's training tables are kept")
    ap.add_argument("--systems", nargs="+", default=["interpreteval-*", "spanner-*"], help="file name patterns")
    args = ap.parse_args()
    theirs = load_interpreteval(args.interpreteval.resolve())
    aspects = theirs.loadConf(str(args.interpreteval / "data" / "ner" / "conf.ner-attributes"))
    train = args.data / "train.iob2"
    words, tags, _ = read_columns(train, -1)

    args.tables.mkdir(parents=True, exist_ok=True)
    paths = {a: str(args.tables / f"conll03_{a}.pkl") for a, f in aspects.items() if f[2].lower() == "yes"}
    build = {"eCon": theirs.getPreComputed_eCon, "tCon": theirs.getPreComputed_tCon,
             "eFre": theirs.getPreComputed_eFre, "tFre": theirs.getPreComputed_tFre,
             "oDen": theirs.getPreComputed_oDen}
    for aspect, path in paths.items():
        if not os.path.exists(path):
            t0 = time.perf_counter()
            with redirect_stdout(io.StringIO()):
                build[aspect](words, tags, path)
            print(f"InterpretEval's {aspect} table built in {time.perf_counter() - t0:.0f} s", flush=True)
    t0 = time.perf_counter()
    tables = ie.Tables.from_training(words, tags)
    print(f"ts_eval's tables built in {time.perf_counter() - t0:.1f} s")
    ok = True
    for aspect, path in paths.items():
        with open(path, "rb") as f:
            table = pickle.load(f)
        mine = getattr(tables, aspect)
        same = (set(table) == set(mine)) if aspect == "oDen" else (table == mine)
        ok &= same
        print(f"table {aspect}: {len(table)} entries, {'equal' if same else 'DIFFERENT'}")

    files = sorted(p for p in (args.data / "systems").iterdir()
                   if any(fnmatch.fnmatch(p.stem, pat) for pat in args.systems))
    agree = total = 0
    for path in files:
        with redirect_stdout(io.StringIO()):
            ref, _ = theirs.new_metric("conll03", " ", [-1, -2, -1], "getAspectValue", aspects, paths, str(train),
                                       str(path))
        test_words, gold, lengths = read_columns(path, -2)
        _, pred, _ = read_columns(path, -1)
        got = ie.bucket_f1(ie.values(test_words, gold, lengths, gold, tables),
                           ie.values(test_words, pred, lengths, gold, tables))
        here = there = 0
        for aspect in aspects:
            r, g = ref[aspect], got[aspect]
            for key in set(r) | set(g):
                there += 1
                a, b = r.get(key), g.get(key)
                same = a is not None and b is not None and a[1] == b[1] and abs(a[0] - b[0]) <= 1e-12
                here += same
                if not same:
                    print(f"  {path.stem} {aspect} {key}: InterpretEval {a}, ts_eval {b}")
        agree, total = agree + here, total + there
        print(f"{path.stem}: {here} of {there} buckets agree", flush=True)
    print(f"all: {agree} of {total} buckets agree ({len(files)} systems)")
    return 0 if ok and agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
