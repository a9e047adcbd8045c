#!/usr/bin/env python3
"""How ``ts-eval score`` scales with the corpus: wall time and peak memory from 100k to 100M tokens,
side by side with conlleval.pl, seqeval and nervaluate (and ``--jobs 2``, and an earlier commit, with
``--jobs 2`` too when it has that option).

Every size is one seeded synthetic corpus in conlleval's layout (``TOKEN GOLD PRED``, the generator of
``bench.py``: IOB2 gold, a noisy system with boundary shifts, label switches, misses, splits,
spurious and ill-formed spans).  Corpora of more than 1M tokens are made of 1M-token units (``--distinct``
of them, each generated once with its own seed and cached), repeated in order: the 100M corpus is a
copy of units on disk (``--cache-dir``, about 11 bytes a token), or, with ``--stream``, never written:
a thread feeds the units through a pipe to every tool's standard input as it reads.

Each tool runs as its own process, timed from spawn to exit, its peak resident memory measured by GNU
``/usr/bin/time -f %M``; the tools of one size are interleaved when repeated.  The outputs of ``ts-eval``,
``ts-eval --jobs 2`` and the baseline commit are compared byte for byte.

    python scripts/bench_scale.py                                         # 100k, 1M, 10M, 100M
    python scripts/bench_scale.py --sizes 100k,1M --repeat 5 --conlleval /path/to/conlleval.pl
    python scripts/bench_scale.py --sizes 1M,10M --baseline b28481f       # before/after in one run
    python scripts/bench_scale.py --sizes 50M --only ts,ts_jobs2          # the --jobs speed-up
    python scripts/bench_scale.py --markdown                              # the table for docs/benchmarks.md

Peers that would take too long or too much memory at a size (``--peer-max``, default 10M tokens for
seqeval and nervaluate, which hold the corpus as Python lists) are skipped, and the table says why.
conlleval.pl is not part of this repository: give its path with ``--conlleval`` (it needs perl).
Targets of issue 22 are reported, not enforced.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench  # noqa: E402
from bench import GNU_TIME, READER_CODE, baseline_tree, byte_compile, find_ts_eval, generate_corpus, ts_eval_source  # noqa: E402

UNIT = 1_000_000
TARGET_1M_S = 0.30
TARGET_100M_MB = 200.0
TARGET_RATE = 3e6          # tokens per second at 100M

LISTS_READER = READER_CODE.replace('with open(path, encoding="utf-8") as fh:',
                                   'with (open(path, encoding="utf-8") if path != "-" else '
                                   '__import__("sys").stdin) as fh:')

SEQEVAL_SCRIPT = LISTS_READER + r'''
import sys
from seqeval.metrics import classification_report
y_true, y_pred = read_lists(sys.argv[1])
with open(sys.argv[2], "w") as out:
    out.write(classification_report(y_true, y_pred))
'''

NERVALUATE_SCRIPT = LISTS_READER + r'''
import sys
from nervaluate import Evaluator
y_true, y_pred = read_lists(sys.argv[1])
labels = sorted({t[2:] for s in y_true + y_pred for t in s if t != "O"})
result = Evaluator(y_true, y_pred, tags=labels, loader="list").evaluate()
with open(sys.argv[2], "w") as out:
    out.write(repr(result)[:100000])
'''


def parse_size(text: str) -> int:
    text = text.strip().lower().replace("_", "")
    mult = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}.get(text[-1:], 1)
    return int(float(text[:-1] if text[-1:] in "kmg" else text) * mult)


def size_name(n: int) -> str:
    for div, suffix in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if n >= div and n % div == 0:
            return f"{n // div}{suffix}"
    return str(n)


# --------------------------------------------------------------------------- corpora

class Corpora:
    """Seeded corpora of any size: one generated file up to 1M tokens, 1M-token units above."""

    prefix = "scale"        # the cached files' names begin with it

    def __init__(self, cache: Path, seed: int, distinct: int):
        self.cache, self.seed, self.distinct = cache, seed, distinct
        cache.mkdir(parents=True, exist_ok=True)

    def generate(self, path: Path, tokens: int, seed: int) -> None:
        """Write the corpus of ``tokens`` tokens and ``seed`` to ``path``."""
        generate_corpus(path, tokens, seed)

    def _generated(self, tokens: int, seed: int) -> Path:
        path = self.cache / f"{self.prefix}_{tokens}tok_seed{seed}.conll"
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            self.generate(tmp, tokens, seed)
            tmp.replace(path)
        return path

    def parts(self, tokens: int) -> List[Path]:
        """The files whose concatenation is the corpus of ``tokens`` tokens."""
        if tokens <= UNIT:
            return [self._generated(tokens, self.seed)]
        units = [self._generated(UNIT, self.seed + k) for k in range(min(self.distinct, tokens // UNIT))]
        out = [units[k % len(units)] for k in range(tokens // UNIT)]
        if tokens % UNIT:
            out.append(self._generated(tokens % UNIT, self.seed + 1000))
        return out

    def file(self, tokens: int) -> Path:
        parts = self.parts(tokens)
        if len(parts) == 1:
            return parts[0]
        path = self.cache / f"{self.prefix}_{size_name(tokens)}_seed{self.seed}_distinct{self.distinct}.conll"
        if not path.exists() or path.stat().st_size != sum(p.stat().st_size for p in parts):
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as out:
                for p in parts:
                    with open(p, "rb") as fh:
                        shutil.copyfileobj(fh, out, 1 << 24)
            tmp.replace(path)
        return path


class Feeder:
    """Writes the concatenation of ``parts`` into a pipe (the tool's standard input), in a thread."""

    def __init__(self, parts: Sequence[Path]):
        self.parts = list(parts)
        self.read_fd, self.write_fd = os.pipe()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            with open(self.write_fd, "wb", closefd=True) as out:
                for p in self.parts:
                    with open(p, "rb") as fh:
                        while True:
                            block = fh.read(1 << 20)
                            if not block:
                                break
                            out.write(block)
        except BrokenPipeError:
            pass


# --------------------------------------------------------------------------- measuring

@dataclass
class Run:
    wall_s: float
    peak_mb: float


@dataclass
class Tool(bench.Tool):
    reads_stdin: bool = False       # reads the corpus from standard input
    output: Optional[Path] = None   # the file the tool writes (compared between ts-eval variants)
    stdout_to_output: bool = False
    skipped: str = ""


def run_once(tool: Tool, corpus: Path, parts: Sequence[Path], stream: bool) -> Run:
    feeder = Feeder(parts) if (tool.reads_stdin and stream) else None
    argv = [a if a != "{corpus}" else ("-" if tool.reads_stdin else str(corpus)) for a in tool.argv]
    with contextlib.ExitStack() as stack:
        if feeder:
            fin: Any = feeder.read_fd
        else:
            fin = stack.enter_context(open(corpus, "rb")) if tool.reads_stdin else subprocess.DEVNULL
        fout: Any = stack.enter_context(open(tool.output, "wb")) if tool.stdout_to_output else subprocess.DEVNULL
        mem = stack.enter_context(tempfile.NamedTemporaryFile(prefix="bench_scale_mem_"))
        err = stack.enter_context(tempfile.TemporaryFile())
        t0 = time.perf_counter()
        proc = subprocess.Popen([GNU_TIME, "-f", "%M", "-o", mem.name] + argv, stdin=fin, stdout=fout,
                                stderr=err, cwd=tool.cwd)
        if feeder:
            os.close(feeder.read_fd)
        proc.wait()
        wall = time.perf_counter() - t0
        if feeder:
            feeder.thread.join()
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{tool.label} failed (exit {proc.returncode}): {' '.join(argv)}\n"
                             + err.read().decode("utf-8", "replace")[-2000:])
        kb = int(Path(mem.name).read_text().split()[-1])
    return Run(wall, kb * 1024 / 1e6)


def supports(ts: List[str], option: str) -> bool:
    out = subprocess.run(ts + ["score", "--help"], capture_output=True, text=True)
    return option in out.stdout


# --------------------------------------------------------------------------- main

def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100k,1M,10M,100M", help="corpus sizes in tokens (default %(default)s)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--distinct", type=int, default=10, help="distinct 1M-token units of the large corpora")
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "ts_eval_bench_scale")
    ap.add_argument("--stream", action="store_true",
                    help="feed corpora above 1M tokens through a pipe instead of writing them to disk")
    ap.add_argument("--repeat", type=int, default=3, help="runs per tool up to 1M tokens (default 3)")
    ap.add_argument("--repeat-large", type=int, default=1, help="runs per tool above 1M tokens (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="the --jobs N variant (default 2; 0: none)")
    ap.add_argument("--conlleval", metavar="PATH", help="conlleval.pl (run as perl PATH < corpus)")
    ap.add_argument("--perl", default="/usr/bin/perl")
    ap.add_argument("--no-seqeval", action="store_true")
    ap.add_argument("--no-nervaluate", action="store_true")
    ap.add_argument("--peer-max", default="10M", help="largest size seqeval and nervaluate run at (default 10M)")
    ap.add_argument("--conlleval-max", default="100M", help="largest size conlleval.pl runs at (default 100M)")
    ap.add_argument("--baseline", metavar="COMMIT", help="also time this commit's ts-eval (git archive)")
    ap.add_argument("--baseline-max", default="100M", help="largest size the baseline runs at")
    ap.add_argument("--ts-eval", dest="ts_eval", metavar="CMD", help="command that runs ts-eval")
    ap.add_argument("--only", metavar="KEYS", help="run only these tools (ts, ts_jobsN, base, base_jobsN, conlleval, "
                                                    "seqeval, nervaluate)")
    ap.add_argument("--json", type=Path, metavar="OUT", help="write every run as JSON")
    ap.add_argument("--markdown", action="store_true", help="also print the table in Markdown")
    args = ap.parse_args(argv)
    if not os.path.exists(GNU_TIME):
        ap.error(f"needs GNU time at {GNU_TIME} for the peak memory of each process")
    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    only = set(args.only.split(",")) if args.only else None
    corpora = Corpora(args.cache_dir, args.seed, args.distinct)
    workdir = Path(tempfile.mkdtemp(prefix="bench_scale_"))
    (workdir / "seqeval_report.py").write_text(SEQEVAL_SCRIPT)
    (workdir / "nervaluate_report.py").write_text(NERVALUATE_SCRIPT)
    ts = find_ts_eval(args.ts_eval)
    py = sys.executable
    jobs = args.jobs if args.jobs and supports(ts, "--jobs") else 0
    base = baseline_tree(args.baseline, workdir) if args.baseline else None
    base_jobs = bool(jobs and base and "--jobs" in subprocess.run(
        [py, "-m", "ts_eval", "score", "--help"], cwd=base, capture_output=True, text=True).stdout)
    src = ts_eval_source(py, ts)
    byte_compile(py, ([Path(src["package"])] if src["package"] else [])
                 + ([base / "ts_eval"] if base else []))
    print(f"ts-eval: {' '.join(ts)} ({src['package']} at commit {src['commit']}, {src['modified']} modified, "
          f"{src['untracked']} untracked files); python {platform.python_version()}; {os.cpu_count()} CPUs"
          + (f"; baseline {args.baseline}" if base else "") + ("" if jobs else "; --jobs not supported"))
    print(f"memory: peak RSS from {GNU_TIME} -f %M (MB = 1e6 bytes, max over runs); time: wall, spawn to exit")
    results: List[Dict[str, object]] = []
    for n in sizes:
        large = n > UNIT
        parts = corpora.parts(n)
        stream = args.stream and large
        corpus = parts[0] if stream else corpora.file(n)
        if not stream:
            with open(corpus, "rb") as fh:      # warm the page cache once for every tool
                while fh.read(1 << 24):
                    pass
        nbytes = sum(p.stat().st_size for p in parts)
        out = workdir / size_name(n)
        out.mkdir()
        tools = [Tool("ts", "ts-eval score", ts + ["score", "{corpus}", "-o", str(out / "ts.txt")],
                      reads_stdin=stream, output=out / "ts.txt")]
        if jobs:
            tools.append(Tool(f"ts_jobs{jobs}", f"ts-eval score --jobs {jobs}",
                              ts + ["score", "{corpus}", "--jobs", str(jobs), "-o", str(out / "jobs.txt")],
                              reads_stdin=stream, output=out / "jobs.txt"))
        if base:
            t = Tool("base", f"ts-eval {args.baseline}", [py, "-m", "ts_eval", "score", "{corpus}", "-o",
                                                          str(out / "base.txt")], reads_stdin=stream, cwd=base,
                     output=out / "base.txt")
            if n > parse_size(args.baseline_max):
                t.skipped = f"above --baseline-max {args.baseline_max}"
            tools.append(t)
            if base_jobs:
                t = Tool(f"base_jobs{jobs}", f"ts-eval {args.baseline} --jobs {jobs}",
                         [py, "-m", "ts_eval", "score", "{corpus}", "--jobs", str(jobs), "-o",
                          str(out / "base_jobs.txt")], reads_stdin=stream, cwd=base, output=out / "base_jobs.txt")
                if n > parse_size(args.baseline_max):
                    t.skipped = f"above --baseline-max {args.baseline_max}"
                tools.append(t)
        if args.conlleval:
            t = Tool("conlleval", "conlleval.pl", [args.perl, args.conlleval], reads_stdin=True,
                     output=out / "conlleval.txt", stdout_to_output=True)
            if n > parse_size(args.conlleval_max):
                t.skipped = f"above --conlleval-max {args.conlleval_max}"
            tools.append(t)
        for key, script, off in (("seqeval", "seqeval_report.py", args.no_seqeval),
                                 ("nervaluate", "nervaluate_report.py", args.no_nervaluate)):
            if off:
                continue
            t = Tool(key, key, [py, str(workdir / script), "{corpus}", str(out / f"{key}.txt")], reads_stdin=stream)
            if n > parse_size(args.peer_max):
                t.skipped = f"above --peer-max {args.peer_max}: its time and memory grow with the corpus"
            tools.append(t)
        if only is not None:
            tools = [t for t in tools if t.key in only]
        print(f"\n{size_name(n)} tokens: {nbytes / 1e6:.0f} MB ({len(parts)} part(s)"
              + (", streamed through a pipe" if stream else f", {corpus}") + ")", flush=True)
        for _ in range(args.repeat_large if large else args.repeat):
            for t in tools:
                if t.skipped:
                    continue
                t.runs.append(run_once(t, corpus, parts, stream))  # type: ignore[arg-type]
                print(f"  {t.label:28s} {t.runs[-1].wall_s:8.2f} s {t.runs[-1].peak_mb:8.1f} MB", flush=True)
        ran = [t for t in tools if t.runs]
        ref = next((t for t in ran if t.key == "ts"), None)
        for t in ran:
            if t.key in (f"ts_jobs{jobs}", "base", f"base_jobs{jobs}") and ref is not None and t.output and ref.output:
                same = t.output.read_bytes() == ref.output.read_bytes()
                print(f"  output of {t.label} {'identical to' if same else 'DIFFERS from'} ts-eval score's")
                if not same:
                    return 1
        for t in tools:
            row: Dict[str, object] = {"tokens": n, "bytes": nbytes, "tool": t.key, "label": t.label}
            if t.runs:
                row.update(best_s=t.best(), median_s=t.median(), peak_mb=t.peak(),
                           bytes_per_token=t.peak() * 1e6 / n, tokens_per_s=n / t.best(),
                           vs_ts=(t.best() / ref.best()) if ref else None, runs=[asdict(r) for r in t.runs])
            else:
                row["skipped"] = t.skipped
            results.append(row)

    print()
    head = f"{'tokens':>7s} {'tool':30s} {'best s':>9s} {'M tok/s':>8s} {'peak MB':>8s} {'B/token':>8s} {'vs ts':>7s}"
    print(head)
    print("-" * len(head))
    for r in results:
        if "skipped" in r:
            print(f"{size_name(r['tokens']):>7s} {r['label']:30s} skipped: {r['skipped']}")
            continue
        print(f"{size_name(r['tokens']):>7s} {r['label']:30s} {r['best_s']:9.3f} {r['tokens_per_s'] / 1e6:8.2f} "
              f"{r['peak_mb']:8.1f} {r['bytes_per_token']:8.1f} {r['vs_ts']:6.2f}x")
    print("\ntargets (issue 22), reported, not enforced:")
    for r in results:
        if r["tool"] == "ts" and "best_s" in r and r["tokens"] == UNIT:
            print(f"  1M tokens in <= {TARGET_1M_S} s: {r['best_s']:.3f} s "
                  f"{'PASS' if r['best_s'] <= TARGET_1M_S else 'FAIL'}")
        if r["tool"] == "ts" and "best_s" in r and r["tokens"] == 100 * UNIT:
            print(f"  100M tokens in <= {TARGET_100M_MB:.0f} MB: {r['peak_mb']:.1f} MB "
                  f"{'PASS' if r['peak_mb'] <= TARGET_100M_MB else 'FAIL'}; >= {TARGET_RATE / 1e6:.0f}M tokens/s: "
                  f"{r['tokens_per_s'] / 1e6:.2f}M {'PASS' if r['tokens_per_s'] >= TARGET_RATE else 'FAIL'}")
        if r["tool"].startswith("ts_jobs") and "best_s" in r:
            one = next((x for x in results if x["tool"] == "ts" and x["tokens"] == r["tokens"] and "best_s" in x),
                       None)
            if one:
                print(f"  {size_name(r['tokens'])}: --jobs speed-up {one['best_s'] / r['best_s']:.2f}x")
    if args.markdown:
        print("\n| tokens | tool | wall s (best) | M tokens/s | peak RSS MB | bytes/token |")
        print("|---:|---|---:|---:|---:|---:|")
        for r in results:
            if "skipped" in r:
                print(f"| {size_name(r['tokens'])} | {r['label']} | skipped: {r['skipped']} | | | |")
            else:
                print(f"| {size_name(r['tokens'])} | {r['label']} | {r['best_s']:.3f} | "
                      f"{r['tokens_per_s'] / 1e6:.2f} | {r['peak_mb']:.1f} | {r['bytes_per_token']:.1f} |")
    if args.json:
        args.json.write_text(json.dumps({"python": platform.python_version(), "cpus": os.cpu_count(),
                                         "source": src, "baseline": args.baseline, "results": results},
                                        indent=1))
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
