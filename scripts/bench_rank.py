#!/usr/bin/env python3
"""Peak memory and wall time of ``ts-eval rank`` on several system files as the corpus grows, this
checkout against an earlier commit (``--baseline``), side by side in one run (interleaved, best of
``--repeat``), with the two outputs compared (the JSON without its ``timings``).

The corpora are ``bench_scale.py``'s seeded synthetic corpora (the generator of ``bench.py``; above 1M
tokens, 1M-token units repeated), cut into a gold file (``TOKEN GOLD``) and ``--systems`` system files
(``TOKEN TAG``): system k takes the generated system's tags in a share of the sentences that grows with
k (0.4 to 0.9, seeded per sentence) and gold's elsewhere, so the systems differ and rank apart.  Each run
is ``ts-eval rank --gold GOLD SYSTEM... --format json`` with the default models, 1000 bootstrap resamples
and 1000 permutations; peak RSS from GNU time's ``%M``, CPU time its ``%U`` + ``%S`` (best of the
repeats; the machine's other jobs move the wall time more than the CPU time).

    python scripts/bench_rank.py --baseline 028cbe5                        # 1M and 10M, 5 systems
    python scripts/bench_rank.py --baseline 028cbe5 --sizes 1M --repeat 3 --markdown
"""
from __future__ import annotations

import argparse
import contextlib
import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench  # noqa: E402
from bench import GNU_TIME  # noqa: E402
from bench_scale import Corpora, parse_size, size_name  # noqa: E402

REPO = HERE.parent


def system_files(corpus: Path, systems: int, cache: Path, seed: int = 0) -> List[Path]:
    """``[gold, system 1, ...]`` cut from ``corpus`` (``TOKEN GOLD PRED``), cached beside it."""
    stem = f"{corpus.stem}_rank{systems}"
    paths = [cache / f"{stem}_gold.conll"] + [cache / f"{stem}_sys{k + 1}.conll" for k in range(systems)]
    if all(p.exists() for p in paths):
        return paths
    shares = [0.4 + 0.5 * k / max(systems - 1, 1) for k in range(systems)]
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        outs = [stack.enter_context(open(p.with_suffix(".tmp"), "w", encoding="utf-8", newline="\n"))
                for p in paths]
        draws = [rng.random() for _ in range(systems)]
        with open(corpus, encoding="utf-8") as fh:
            for line in fh:
                fields = line.split()
                if not fields:
                    for out in outs:
                        out.write("\n")
                    draws = [rng.random() for _ in range(systems)]    # a new sentence
                    continue
                token, gold, pred = fields[0], fields[-2], fields[-1]
                outs[0].write(f"{token} {gold}\n")
                for k, out in enumerate(outs[1:]):
                    out.write(f"{token} {pred if draws[k] < shares[k] else gold}\n")
    for p in paths:
        p.with_suffix(".tmp").replace(p)
    return paths


@dataclass
class Measured:
    wall_s: float
    cpu_s: float          # user + system: less moved by other jobs on the machine than the wall time
    peak_mb: float


def run_once(argv: List[str], cwd: Path) -> Measured:
    """One run under GNU time: wall time around it, its CPU time and peak RSS from time's own report."""
    with tempfile.NamedTemporaryFile(prefix="bench_rank_") as mem:
        t0 = time.perf_counter()
        proc = subprocess.run([GNU_TIME, "-f", "%M %U %S", "-o", mem.name, *argv], cwd=cwd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"failed (exit {proc.returncode}): {' '.join(argv)}\n{proc.stderr.decode()[-2000:]}")
        kb, user, system = Path(mem.name).read_text().split()[-3:]
    return Measured(wall, float(user) + float(system), int(kb) * 1024 / 1e6)


def comparable(path: Path) -> Any:
    obj = json.loads(path.read_text(encoding="utf-8"))
    obj.pop("timings", None)
    return obj


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1M,10M", help="corpus sizes in tokens (default 1M,10M)")
    ap.add_argument("--systems", type=int, default=5, help="system files (default 5)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each version per size (best is kept)")
    ap.add_argument("--baseline", metavar="COMMIT", help="an earlier commit, measured beside this checkout")
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "ts_eval_bench_scale")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--distinct", type=int, default=10, help="distinct 1M-token units of the large corpora")
    ap.add_argument("--markdown", action="store_true", help="print the table in Markdown")
    args = ap.parse_args(argv)

    py = sys.executable
    work = Path(tempfile.mkdtemp(prefix="bench_rank_"))
    versions: Dict[str, Path] = {"this checkout": REPO}
    if args.baseline:
        versions[f"baseline {args.baseline}"] = bench.baseline_tree(args.baseline, work)
    bench.byte_compile(py, [d / "ts_eval" for d in versions.values()])
    corpora = Corpora(args.cache_dir, args.seed, args.distinct)
    rows = []
    for size in [parse_size(s) for s in args.sizes.split(",")]:
        files = system_files(corpora.file(size), args.systems, args.cache_dir)
        runs: Dict[str, List[Measured]] = {label: [] for label in versions}
        outputs: Dict[str, Path] = {}
        for _ in range(args.repeat):
            for label, root in versions.items():
                out = work / f"{label.split()[0]}_{size_name(size)}.json"
                if out.exists():
                    out.unlink()
                run = run_once([py, "-m", "ts_eval", "rank", "--gold", *map(str, files), "--format", "json",
                                "-o", str(out), "--no-progress"], root)
                outputs[label] = out
                runs[label].append(run)
                print(f"{size_name(size)} {label}: {run.wall_s:.2f} s wall, {run.cpu_s:.2f} s CPU, "
                      f"{run.peak_mb:.0f} MB", file=sys.stderr)
        same = len({json.dumps(comparable(p), sort_keys=True) for p in outputs.values()}) == 1
        sentences = comparable(outputs["this checkout"])["corpus"]["sentences"]
        for label in versions:
            peak = max(r.peak_mb for r in runs[label])
            rows.append(dict(tokens=size, sentences=sentences, version=label,
                             wall_s=min(r.wall_s for r in runs[label]), cpu_s=min(r.cpu_s for r in runs[label]),
                             peak_mb=peak, bytes_per_token=peak * 1e6 / size, same=same))
    head = ["tokens", "sentences", "version", "wall s", "CPU s", "peak RSS MB", "bytes/token", "outputs identical"]
    lines = [[size_name(r["tokens"]), f"{r['sentences']:,}", r["version"], f"{r['wall_s']:.2f}", f"{r['cpu_s']:.2f}",
              f"{r['peak_mb']:.0f}", f"{r['bytes_per_token']:.0f}", "yes" if r["same"] else "NO"] for r in rows]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        print(json.dumps(rows, indent=2))
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
