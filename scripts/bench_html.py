#!/usr/bin/env python3
"""Time the rank HTML page end to end: read, rank, build the document, render and write HTML.

The 28 CoNLL-2003 systems of ``../shared/data/conll2003-en/systems/`` are ranked under every
model (``--models all`` without GermEval's Metric 1), with 1000 bootstrap resamples and 1000
permutations (seed 0), with a score report of the same corpus for the per-label and fair error
sections, as ``ts-eval rank --format html`` will.  Each run is a fresh process (imports
included), so its wall time is what a user waits; the target is under 5 s, the page under 2 MB.

    python scripts/bench_html.py [--data ../shared/data/conll2003-en] [--repeat 3] [--out rank.html]

Prints each run's wall time, the phases of the last run and the page's size.  The machine has
two cores shared with other work: compare best times.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "conll2003-en"


def child(data: Path, out: Path, resamples: int) -> None:
    """One run, timed by phase; prints the phases as JSON."""
    t = {"start": time.perf_counter()}
    sys.path.insert(0, str(REPO))
    from ts_eval.io import read_conll_pair
    from ts_eval.models.evaluate import evaluate
    from ts_eval.output.builders import rank as rank_doc
    from ts_eval.output.renderers import html
    from ts_eval.ranking import sufficient
    from ts_eval.ranking.study import rank_corpus
    t["import"] = time.perf_counter()
    files = sorted((data / "systems").glob("*.conll"))
    corpus = read_conll_pair(str(data / "gold.iob2"), [str(f) for f in files], names=[f.stem for f in files])
    t["read"] = time.perf_counter()
    models = [m for m in sufficient.REGISTRY if m != "germeval-m1"]
    result = rank_corpus(corpus, models=models, bootstrap=resamples, permutations=resamples, seed=0)
    t["rank"] = time.perf_counter()
    report = evaluate(corpus, models=["ts", "exact", "fair"])
    t["score report"] = time.perf_counter()
    doc = rank_doc.build(result, report=report)
    doc.meta["command"] = ["ts-eval", "rank", "--gold", "gold.iob2", "systems/*.conll", "--models", "all",
                           "--bootstrap", str(resamples), "--permutations", str(resamples), "--format", "html"]
    t["document"] = time.perf_counter()
    page = html.render(doc)
    t["render"] = time.perf_counter()
    out.write_text(page, encoding="utf-8")
    t["write"] = time.perf_counter()
    keys = list(t)
    print(json.dumps({"phases": {k: t[k] - t[p] for p, k in zip(keys, keys[1:])}, "bytes": out.stat().st_size,
                      "systems": len(result.systems), "models": len(result.models),
                      "rank_phases": dict(result.timings)}))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples and permutations (1000)")
    ap.add_argument("--out", type=Path, help="keep the page here (default: a temporary file)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp()) / "rank.html"
    if args.child:
        child(args.data, out, args.resamples)
        return 0
    walls, last = [], {}
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        run = subprocess.run([sys.executable, __file__, "--child", "--data", str(args.data), "--out", str(out),
                              "--resamples", str(args.resamples)], capture_output=True, text=True)
        if run.returncode:
            sys.stderr.write(run.stderr)
            return run.returncode
        walls.append(time.perf_counter() - t0)
        last = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"rank page: {last['systems']} systems x {last['models']} models, {args.resamples} resamples and "
          f"permutations, HTML written")
    print("wall per run (s): " + ", ".join(f"{w:.2f}" for w in walls) +
          f"; best {min(walls):.2f}, median {statistics.median(walls):.2f} (target < 5)")
    print("phases of the last run (s): " + ", ".join(f"{k} {v:.2f}" for k, v in last["phases"].items()))
    print("inside rank (s): " + ", ".join(f"{k} {v:.2f}" for k, v in last["rank_phases"].items()))
    print(f"page: {last['bytes'] / 1e6:.2f} MB ({last['bytes']} bytes; target < 2 MB) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
