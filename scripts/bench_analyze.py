#!/usr/bin/env python3
"""How long ``ts-eval analyze`` takes on the CoNLL-2003 data, side by side in one run (issue 19.7).

Cases, each run ``--repeat`` times as a fresh ``ts-eval`` process (wall time and CPU time of the
process, median):

1. **all systems** (28), every built-in attribute with ``--train``, the default models, 1000
   bootstrap resamples, the HTML page written (target: at most 10 s);
2. **one system**, every built-in attribute with ``--train``, no bootstrap, the terminal table
   (target: at most 1 s);
3. with ``--interpreteval DIR`` (the ``interpretEval`` folder of a checkout of neulab/InterpretEval):
   **InterpretEval's own code** on one system (its ``new_metric``: reading, attributes, buckets,
   F1 per bucket) with its training tables built first by its own ``getPreComputed_*`` functions
   from the same training file (the tables are cached in ``--cache``; building them is timed
   once, apart).

    python scripts/bench_analyze.py --data DIR/conll2003-en [--repeat 3] [--interpreteval DIR]
                                    [--cache DIR] [--system NAME]

Prints one line per case and, with ``--json FILE``, writes the numbers.  Nothing is written into
the data folder; the HTML page and InterpretEval's files go to a temporary folder.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Dict, List, Tuple

REPO = Path(__file__).resolve().parents[1]


def run_process(argv: List[str]) -> Tuple[float, float]:
    """(wall seconds, CPU seconds) of one child process; a failure stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(argv)}\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def median_of(runs: List[Tuple[float, float]]) -> Dict[str, Any]:
    return {"wall": statistics.median(r[0] for r in runs), "cpu": statistics.median(r[1] for r in runs),
            "runs": [list(r) for r in runs]}


def ts_eval_cases(data: Path, tmp: Path, system: str, repeat: int) -> Dict[str, Dict[str, Any]]:
    exe = [sys.executable, "-m", "ts_eval"]
    systems = sorted(str(p) for p in (data / "systems").iterdir() if p.suffix == ".conll")
    base = ["analyze", "--gold", str(data / "gold.iob2"), "--train", str(data / "train.iob2")]
    cases = {
        f"ts-eval analyze: {len(systems)} systems, 1000 resamples, html":
            exe + base + systems + ["--bootstrap", "1000", "--format", "html", "-o", str(tmp / "analyze.html")],
        "ts-eval analyze: 1 system, no bootstrap, table":
            exe + base + [str(data / "systems" / f"{system}.conll"), "--bootstrap", "0", "-o", str(tmp / "one.txt")],
    }
    out = {}
    for name, argv in cases.items():
        out[name] = median_of([run_process(argv) for _ in range(repeat)])
        print(f"{name}: {out[name]['wall']:.2f} s wall, {out[name]['cpu']:.2f} s CPU (median of {repeat})", flush=True)
    return out


def interpreteval_case(folder: Path, data: Path, tmp: Path, cache: Path, system: str,
                       repeat: int) -> Dict[str, Dict[str, Any]]:
    """InterpretEval's new_metric on one system, in this process, with its own attribute file."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from interpreteval_conll2003 import load_interpreteval

    ie = load_interpreteval(folder)
    conf = folder / "data" / "ner" / "conf.ner-attributes"
    aspects = ie.loadConf(str(conf))
    cache.mkdir(parents=True, exist_ok=True)
    paths = {a: str(cache / f"conll03_{a}.pkl") for a, f in aspects.items() if f[2].lower() == "yes"}
    train = tmp / "train.txt"
    train.write_text((data / "train.iob2").read_text(encoding="utf-8"), encoding="utf-8")
    out: Dict[str, Dict[str, Any]] = {}
    if not all(os.path.exists(p) for p in paths.values()):
        t0 = time.perf_counter()
        with redirect_stdout(io.StringIO()):
            words, tags, _, _ = ie.read_data("conll03", str(train), column_no=-1, delimiter=" ")
            builders = {"eCon": ie.getPreComputed_eCon, "tCon": ie.getPreComputed_tCon,
                        "eFre": ie.getPreComputed_eFre, "tFre": ie.getPreComputed_tFre, "oDen": ie.getPreComputed_oDen}
            for aspect, path in paths.items():
                builders[aspect](words, tags, path)
        wall = time.perf_counter() - t0
        out["InterpretEval: training tables (getPreComputed_*), once"] = {"wall": wall, "cpu": None, "runs": [[wall]]}
        print(f"InterpretEval: training tables built in {wall:.1f} s", flush=True)
    result = str(data / "systems" / f"{system}.conll")
    runs = []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        with redirect_stdout(io.StringIO()):
            ie.new_metric("conll03", " ", [-1, -2, -1], "getAspectValue", aspects, paths, str(train), result)
        runs.append((time.perf_counter() - t0, time.process_time() - c0))
    name = "InterpretEval new_metric: 1 system"
    out[name] = median_of(runs)
    print(f"{name}: {out[name]['wall']:.2f} s wall, {out[name]['cpu']:.2f} s CPU (median of {repeat})", flush=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, type=Path,
                    help="the conll2003-en folder (gold.iob2, train.iob2, systems/)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (median; default 3)")
    ap.add_argument("--system", default="spanner-CflairWglove_lstmCrf",
                    help="the one system (file name without .conll)")
    ap.add_argument("--interpreteval", type=Path, help="InterpretEval's interpretEval folder (runs its code too)")
    ap.add_argument("--cache", type=Path, help="where InterpretEval's training tables are kept (default: temporary)")
    ap.add_argument("--json", type=Path, help="write the numbers here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        results = ts_eval_cases(args.data, tmp, args.system, args.repeat)
        if args.interpreteval:
            results.update(interpreteval_case(args.interpreteval.resolve(), args.data, tmp,
                                              args.cache or tmp / "tables", args.system, args.repeat))
    if args.json:
        args.json.write_text(json.dumps({"cases": results, "cpus": os.cpu_count(),
                                         "load": os.getloadavg()}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
