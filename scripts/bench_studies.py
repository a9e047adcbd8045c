#!/usr/bin/env python3
"""Every command at 1M and 10M tokens, side by side with an earlier commit and with the peers (issue 32.5).

The corpus has the shape of issue 32: ``TOKEN GOLD SYSTEM1 SYSTEM2`` (4 columns), about 15 tokens a
sentence, ``-DOCSTART-`` documents; gold and the first system are ``bench.py``'s seeded generator (IOB2
gold, a tagger's realistic errors: boundary shifts, label switches, misses, splits, spurious and ill-formed
spans), the second system is the first system's tags with gold's tag in every fifth token.  Sizes above
1M tokens are made of 1M-token units (``--distinct`` of them, each generated once with its own seed),
repeated in order.  Corpora up to 10M tokens are stored in ``--cache-dir`` (default: a folder in the
system's temporary directory); larger ones (``--sizes 100M``) are never stored: a thread pipes the units
to the command's standard input as it reads, and only the commands that read standard input run
(score, agree, compare, analyze; ``--stream`` pipes every size above 1M the same way).

Each command of each version runs as its own process (``python -m ts_eval`` with the version's tree first
on the path, both trees byte-compiled), timed from spawn to exit, its peak RSS measured by GNU
``/usr/bin/time -f %M``; the runs of one size are interleaved and repeated (``--repeat``, ``--repeat-large``;
the median time, the largest RSS).  A run longer than ``--timeout`` seconds is stopped, and the table
says so.  The outputs of this checkout and of the baseline are compared byte for byte (the first run).

    python scripts/bench_studies.py                                    # 1M and 10M, this checkout and i32-base
    python scripts/bench_studies.py --quick                            # a smoke run: 100k, one repeat
    python scripts/bench_studies.py --sizes 1M --repeat 3 --markdown   # the table for docs/benchmarks.md
    python scripts/bench_studies.py --sizes 100M --versions now        # 100M tokens piped, never stored
    python scripts/bench_studies.py --baseline COMMIT --json out.json

The commands: ``score --system-col 3 4`` (the reference of every ratio), ``fair --gold-col 2 --system-col
3``, ``compare --gold-col 2``, ``rank --gold-col 2 --system-col 3 4`` (1,000 resamples and permutation
tests, its defaults), ``agree --columns 2 3 4``, ``analyze --gold-col 2 --system-col 3 4`` with
``--bootstrap 0`` and with 1,000 resamples, ``convert`` to jsonl-tokens, and ``germeval`` on the same
corpus in GermEval's 6-column layout (gold, the first system, no inner level).  The peers: seqeval and
nervaluate (one system: gold and the first system, read as Python lists, the scripts of
``bench_scale.py``) beside score; the ``krippendorff`` package's nominal alpha and statsmodels'
``fleiss_kappa`` per label on the TS unit vectors of the three columns beside agree (their time is
the computation only, over vectors built from the file first and not timed; the RSS is the whole
process); InterpretEval's own code on one system beside analyze with ``--interpreteval DIR`` (its
``interpretEval`` folder, as in ``bench_analyze.py``; its training tables are built first from another
1M-token unit's gold and not timed).  Targets of issue 32 (at 10M tokens) are reported, not enforced.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from bench import GNU_TIME, baseline_tree, byte_compile, generate_corpus  # noqa: E402
from bench_scale import NERVALUATE_SCRIPT, SEQEVAL_SCRIPT, Corpora, Feeder, parse_size, size_name  # noqa: E402

UNIT = 1_000_000
STORE_MAX = 10 * UNIT           # larger corpora are piped, never stored
TARGET_MB = 250.0
RESAMPLING_BYTES = 64           # what resampling may add per sentence and system (or annotator)

# key: (label, argv after "python -m ts_eval" ({in}: the corpus, {out}: the output), reads standard input,
#       the target as a multiple of score's time, systems or annotators resampled)
COMMANDS: Dict[str, Any] = {
    "score": ("score --system-col 3 4", ["score", "{in}", "--system-col", "3", "4", "-o", "{out}"], True, None, 0),
    "fair": ("fair --gold-col 2 --system-col 3", ["fair", "{in}", "--gold-col", "2", "--system-col", "3",
                                                  "-o", "{out}"], False, 2.0, 0),
    "compare": ("compare --gold-col 2", ["compare", "{in}", "--gold-col", "2", "-o", "{out}"], True, 2.0, 0),
    "rank": ("rank --gold-col 2 --system-col 3 4", ["rank", "{in}", "--gold-col", "2", "--system-col", "3", "4",
                                                    "--no-progress", "-o", "{out}"], False, 4.0, 2),
    "rank-jobs2": ("rank ... --jobs 2", ["rank", "{in}", "--gold-col", "2", "--system-col", "3", "4", "--jobs", "2",
                                         "--no-progress", "-o", "{out}"], False, 4.0, 2),
    "agree": ("agree --columns 2 3 4", ["agree", "{in}", "--columns", "2", "3", "4", "-o", "{out}"], True, 2.0, 0),
    "analyze0": ("analyze --bootstrap 0", ["analyze", "{in}", "--gold-col", "2", "--system-col", "3", "4",
                                           "--bootstrap", "0", "-o", "{out}"], True, 3.0, 0),
    "analyze1000": ("analyze --bootstrap 1000", ["analyze", "{in}", "--gold-col", "2", "--system-col", "3", "4",
                                                 "--bootstrap", "1000", "-o", "{out}"], True, 6.0, 2),
    "convert": ("convert --to jsonl-tokens", ["convert", "{in}", "{out}", "--to", "jsonl-tokens"], False, 2.0, 0),
    "germeval": ("germeval (6 columns)", ["germeval", "{germeval}", "-o", "{out}"], False, None, 0),
}

# seqeval and nervaluate on gold (column 2) and the first system (column 3)
ONE_SYSTEM = {"t.append(cols[-2]); p.append(cols[-1])": "t.append(cols[1]); p.append(cols[2])"}

AGREE_PEERS_SCRIPT = r'''
"""krippendorff's nominal alpha and statsmodels' fleiss_kappa per label on the TS unit vectors (token,
separator, token, ... per sentence) of columns 2, 3 and 4; only their computation is timed."""
import json, sys, time
from array import array
import numpy as np
import krippendorff
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

src, timefile = sys.argv[1], sys.argv[2]
labels = {}
lab = [array("b") for _ in range(3)]        # per annotator and token: the label's index, -1 outside
start = [array("b") for _ in range(3)]      # a span starts at the token (conlleval's reading of IOB2)
last = array("b")                           # the token ends its sentence
fh = sys.stdin if src == "-" else open(src, encoding="utf-8")
prev = [None, None, None]
for line in fh:
    cols = line.split()
    if not cols or cols[0] == "-DOCSTART-":
        if len(last) and not last[-1]:
            last[-1] = 1
        prev = [None, None, None]
        continue
    last.append(0)
    for j in range(3):
        tag = cols[1 + j]
        if tag == "O":
            lab[j].append(-1); start[j].append(0); prev[j] = None
            continue
        name = tag[2:]
        k = labels.setdefault(name, len(labels))
        lab[j].append(k)
        start[j].append(1 if tag[0] == "B" or prev[j] != name else 0)
        prev[j] = name
if len(last):
    last[-1] = 1
ends = np.frombuffer(last, np.int8).astype(bool)
n = len(ends)
sentence = np.concatenate([[0], np.cumsum(ends[:-1])])
unit = 2 * np.arange(n) - sentence                  # each token's unit
n_units = 2 * n - int(ends.sum())
vec = np.zeros((3, len(labels), n_units), np.int8)
for j in range(3):
    lj, sj = np.frombuffer(lab[j], np.int8), np.frombuffer(start[j], np.int8).astype(bool)
    joined = ~ends[:-1] & (lj[:-1] == lj[1:]) & (lj[1:] >= 0) & ~sj[1:]     # the separator after token i inside a span
    for k in range(len(labels)):
        vec[j, k, unit[lj == k]] = 1
        vec[j, k, unit[:-1][joined & (lj[:-1] == k)] + 1] = 1
del lab, start, last
t0 = time.perf_counter()
alpha = [float(krippendorff.alpha(reliability_data=vec[:, k], level_of_measurement="nominal"))
         for k in range(len(labels))]
fleiss = [float(fleiss_kappa(aggregate_raters(vec[:, k].T)[0], method="fleiss")) for k in range(len(labels))]
seconds = time.perf_counter() - t0
with open(timefile, "w") as out:
    json.dump({"seconds": seconds, "units": n_units, "labels": sorted(labels, key=labels.get), "alpha": alpha,
               "fleiss": fleiss}, out)
'''

INTERPRETEVAL_SCRIPT = r'''
"""InterpretEval's new_metric on one system (TOKEN GOLD SYSTEM), its training tables built first (not
timed; kept in a folder); only new_metric is timed."""
import io, json, os, sys, time
from contextlib import redirect_stdout
sys.path.insert(0, sys.argv[1])
from interpreteval_conll2003 import load_interpreteval
from pathlib import Path
folder, train, tables, result, timefile = (Path(a) for a in sys.argv[2:7])
ie = load_interpreteval(folder)
aspects = ie.loadConf(str(folder / "data" / "ner" / "conf.ner-attributes"))
os.makedirs(tables, exist_ok=True)
paths = {a: str(tables / f"synthetic_{a}.pkl") for a, f in aspects.items() if f[2].lower() == "yes"}
if not all(os.path.exists(p) for p in paths.values()):
    with redirect_stdout(io.StringIO()):
        words, tags, _, _ = ie.read_data("synthetic", str(train), column_no=-1, delimiter=" ")
        builders = {"eCon": ie.getPreComputed_eCon, "tCon": ie.getPreComputed_tCon, "eFre": ie.getPreComputed_eFre,
                    "tFre": ie.getPreComputed_tFre, "oDen": ie.getPreComputed_oDen}
        for aspect, path in paths.items():
            builders[aspect](words, tags, path)
t0 = time.perf_counter()
with redirect_stdout(io.StringIO()):
    ie.new_metric("synthetic", " ", [-1, -2, -1], "getAspectValue", aspects, paths, str(train), str(result))
with open(timefile, "w") as out:
    json.dump({"seconds": time.perf_counter() - t0}, out)
'''


# --------------------------------------------------------------------------- corpora

class StudyCorpora(Corpora):
    """Seeded 4-column corpora: one generated file up to 1M tokens, 1M-token units above."""

    prefix = "studies"

    def generate(self, path: Path, tokens: int, seed: int) -> None:
        three = path.with_suffix(".3col.tmp")
        generate_corpus(three, tokens, seed)
        derive_second_system(three, path)
        three.unlink()

    def training(self) -> Path:
        """Another unit's ``TOKEN GOLD`` (InterpretEval's training data)."""
        path = self.cache / f"studies_train_seed{self.seed + 2000}.conll"
        if not path.exists():
            src = self._generated(UNIT, self.seed + 2000)
            tmp = path.with_suffix(".tmp")
            with open(src, encoding="utf-8") as fh, open(tmp, "w", encoding="utf-8") as out:
                for line in fh:
                    f = line.split()
                    out.write(f"{f[0]} {f[1]}\n" if f and f[0] != "-DOCSTART-" else ("" if f else "\n"))
            tmp.replace(path)
        return path


def derive_second_system(src: Path, dst: Path) -> None:
    """``TOKEN GOLD SYSTEM`` -> ``TOKEN GOLD SYSTEM SYSTEM2``: the system's tags, gold's in every fifth token
    (counted over the corpus's tokens)."""
    k = 0
    with open(src, encoding="utf-8") as fh, open(dst, "w", encoding="utf-8", newline="\n") as out:
        buf: List[str] = []
        for line in fh:
            f = line.split()
            if not f:
                buf.append("\n")
            elif f[0] == "-DOCSTART-":
                buf.append("-DOCSTART- O O O\n")
            else:
                k += 1
                buf.append(f"{f[0]} {f[1]} {f[2]} {f[1] if k % 5 == 0 else f[2]}\n")
            if len(buf) > 100_000:
                out.write("".join(buf))
                buf.clear()
        out.write("".join(buf))


def germeval_layout(src: Path, dst: Path) -> None:
    """The corpus in GermEval 2014's evaluation layout: index, token, gold, O, the first system, O (TAB; MISC
    becomes GermEval's OTH)."""
    if dst.exists() and dst.stat().st_mtime >= src.stat().st_mtime:
        return
    tmp = dst.with_suffix(".tmp")
    with open(src, encoding="utf-8") as fh, open(tmp, "w", encoding="utf-8", newline="\n") as out:
        k, buf = 0, []
        for line in fh:
            f = line.split()
            if not f or f[0] == "-DOCSTART-":
                if k:
                    buf.append("\n")
                k = 0
            else:
                if not k:
                    buf.append("#\tsynthetic\n")
                k += 1
                gold, system = (x.replace("MISC", "OTH") for x in f[1:3])
                buf.append(f"{k}\t{f[0]}\t{gold}\tO\t{system}\tO\n")
            if len(buf) > 100_000:
                out.write("".join(buf))
                buf.clear()
        out.write("".join(buf))
    tmp.replace(dst)


def count_sentences(parts: Sequence[Path]) -> int:
    """Sentences of the corpus (blank-line separated groups of token lines), counted once per distinct part."""
    counted: Dict[Path, int] = {}
    for p in parts:
        if p not in counted:
            n, inside = 0, False
            with open(p, encoding="utf-8") as fh:
                for line in fh:
                    token = bool(line.strip()) and not line.startswith("-DOCSTART-")
                    if token and not inside:
                        n += 1
                    inside = token
            counted[p] = n
    return sum(counted[p] for p in parts)


# --------------------------------------------------------------------------- measuring

@dataclass
class Run:
    wall_s: float
    peak_mb: Optional[float]
    stopped: bool = False
    failed: int = 0             # the exit status of a run that failed (137: killed, e.g. out of memory)
    cpu_s: Optional[float] = None   # user + system CPU seconds (GNU time; of every process, threads and children)


@dataclass
class Tool:
    key: str                        # version:command or peer:name
    version: str                    # now, base or peer
    command: str                    # the COMMANDS key it stands beside
    label: str
    argv: List[str]
    cwd: Optional[Path] = None
    reads_stdin: bool = False
    output: Optional[Path] = None
    timefile: Optional[Path] = None     # the tool reports the seconds of its computation here
    note: str = ""
    skipped: str = ""
    runs: List[Run] = field(default_factory=list)

    def stopped(self) -> bool:
        return any(r.stopped or r.failed for r in self.runs)

    def failed(self) -> int:
        return next((r.failed for r in self.runs if r.failed), 0)

    def median(self) -> Optional[float]:
        done = [r.wall_s for r in self.runs if not r.stopped]
        return statistics.median(done) if done and not self.stopped() else None

    def cpu(self) -> Optional[float]:
        done = [r.cpu_s for r in self.runs if r.cpu_s is not None and not r.stopped]
        return statistics.median(done) if done else None

    def peak(self) -> Optional[float]:
        seen = [r.peak_mb for r in self.runs if r.peak_mb is not None]
        return max(seen) if seen else None


def _child_of(pid: int) -> Optional[int]:
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int(Path(f"/proc/{pid}/task/{pid}/children").read_text().split()[0])
    return None


def run_once(tool: Tool, corpus: Path, parts: Sequence[Path], stream: bool, timeout: float) -> Run:
    """One process: wall time from spawn to exit, GNU time's peak RSS; stopped after ``timeout`` seconds (the
    measured process is killed, GNU time still reports its peak)."""
    feeder = Feeder(parts) if (tool.reads_stdin and stream) else None
    with contextlib.ExitStack() as stack:
        if feeder:
            fin: Any = feeder.read_fd
        else:
            fin = stack.enter_context(open(corpus, "rb")) if tool.reads_stdin else subprocess.DEVNULL
        mem = stack.enter_context(tempfile.NamedTemporaryFile(prefix="bench_studies_mem_"))
        err = stack.enter_context(tempfile.TemporaryFile())
        t0 = time.perf_counter()
        proc = subprocess.Popen([GNU_TIME, "-f", "%U %S %M", "-o", mem.name] + tool.argv, stdin=fin,
                                stdout=subprocess.DEVNULL, stderr=err, cwd=tool.cwd, start_new_session=True)
        if feeder:
            os.close(feeder.read_fd)
        stopped = False
        try:
            proc.wait(timeout)
        except KeyboardInterrupt:       # the measured process is in its own session: stop it too
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            raise
        except subprocess.TimeoutExpired:
            stopped = True
            child = _child_of(proc.pid)
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL) if child else os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        wall = time.perf_counter() - t0
        if feeder:
            feeder.thread.join(5)
        failed = proc.returncode if proc.returncode != 0 and not stopped else 0
        if failed:      # reported in the table; the other runs go on
            err.seek(0)
            print(f"  {tool.label} failed (exit {failed}{': killed' if failed == 137 else ''}): "
                  f"{' '.join(tool.argv)}\n" + err.read().decode("utf-8", "replace")[-1000:], flush=True)
        text = Path(mem.name).read_text().split()
        peak = int(text[-1]) * 1024 / 1e6 if text and text[-1].isdigit() else None
        cpu: Optional[float] = None
        with contextlib.suppress(ValueError, IndexError):
            cpu = float(text[-3]) + float(text[-2])
    if tool.timefile and not stopped and not failed:
        wall = json.loads(tool.timefile.read_text())["seconds"]
    return Run(timeout if stopped else wall, peak, stopped, failed, cpu)


def same_output(a: Optional[Path], b: Optional[Path]) -> Optional[bool]:
    if not a or not b or not a.exists() or not b.exists():
        return None
    return a.read_bytes() == b.read_bytes()


# --------------------------------------------------------------------------- the table

def fmt_time(t: Dict[str, Any]) -> str:
    if t.get("skipped"):
        return f"skipped: {t['skipped']}"
    if t.get("failed"):
        killed = ": killed" if t["failed"] == 137 else ""
        return f"failed after {t['failed_after_s']:.0f} s (exit {t['failed']}{killed})"
    if t.get("stopped"):
        return f"stopped after {t['timeout']:.0f} s"
    cpu = f" (CPU {t['cpu_s']:.2f} s)" if t.get("cpu_s") is not None else ""
    return f"{t['median_s']:.2f} s{cpu}"


def rows_of(tools: List[Tool], tokens: int, nbytes: int, sentences: int, timeout: float) -> List[Dict[str, Any]]:
    score = {t.version: t.median() for t in tools if t.command == "score" and t.version != "peer"}
    out = []
    for t in tools:
        _, _, _, target, resampled = COMMANDS[t.command]
        row: Dict[str, Any] = {"tokens": tokens, "bytes": nbytes, "sentences": sentences, "key": t.key,
                               "version": t.version, "command": t.command, "label": t.label, "note": t.note,
                               "runs": [asdict(r) for r in t.runs], "timeout": timeout}
        if t.skipped or not t.runs:
            row["skipped"] = t.skipped or "not run (interrupted)"
            out.append(row)
            continue
        med, peak = t.median(), t.peak()
        ref = score.get(t.version) if t.version != "peer" else (score.get("now") or score.get("base"))
        allowed = TARGET_MB + RESAMPLING_BYTES * sentences * resampled / 1e6
        if t.failed():
            row.update(failed=t.failed(), failed_after_s=next(r.wall_s for r in t.runs if r.failed))
        row.update(median_s=med, cpu_s=t.cpu(), stopped=t.stopped(), peak_mb=peak,
                   bytes_per_token=(peak * 1e6 / tokens) if peak is not None else None,
                   vs_score=(med / ref) if med is not None and ref else None,
                   target_x=target if t.version != "peer" else None,
                   target_mb=allowed if t.version != "peer" else None)
        out.append(row)
    return out


def verdict(r: Dict[str, Any]) -> str:
    """The issue's targets for this row (stated at 10M tokens): time and memory, PASS or FAIL."""
    if r.get("skipped") or r["version"] == "peer":
        return ""
    parts = []
    if r.get("target_x"):
        ok = r["vs_score"] is not None and r["vs_score"] <= r["target_x"]
        parts.append(f"<= {r['target_x']:g}x {'PASS' if ok else 'FAIL'}")
    if r.get("target_mb") and r["peak_mb"] is not None:
        parts.append(f"<= {r['target_mb']:.0f} MB {'PASS' if r['peak_mb'] <= r['target_mb'] else 'FAIL'}")
    return ", ".join(parts)


def cells(r: Dict[str, Any]) -> Dict[str, str]:
    """A row's time, peak RSS, bytes per token and ratio to score as text."""
    return {"time": fmt_time(r),
            "peak": f"{r['peak_mb']:.1f}" if r.get("peak_mb") is not None else ("" if r.get("skipped") else "?"),
            "per_token": f"{r['bytes_per_token']:.1f}" if r.get("bytes_per_token") is not None else "",
            "vs": f"{r['vs_score']:.2f}x" if r.get("vs_score") is not None else "",
            "label": r["label"] + (f" ({r['note']})" if r["note"] else "")}


def print_table(rows: List[Dict[str, Any]], markdown: bool) -> None:
    head = f"{'tokens':>6s} {'version':8s} {'time':>22s} {'peak MB':>8s} {'B/token':>8s} {'x score':>8s}  " \
           f"command; targets (at 10M; reported, not enforced)"
    print(head)
    print("-" * len(head))
    for r in rows:
        c = cells(r)
        if r.get("skipped"):
            print(f"{size_name(r['tokens']):>6s} {r['version']:8s} {'skipped':>22s} {'':>8s} {'':>8s} {'':>8s}  "
                  f"{c['label']}: {r['skipped']}")
            continue
        print(f"{size_name(r['tokens']):>6s} {r['version']:8s} {c['time']:>22s} {c['peak']:>8s} {c['per_token']:>8s} "
              f"{c['vs']:>8s}  {c['label']}{'; ' + verdict(r) if verdict(r) else ''}")
    if markdown:
        print("\n| tokens | version | command | wall s (median) | peak RSS MB | bytes/token | × score | targets |")
        print("|---:|---|---|---:|---:|---:|---:|---|")
        for r in rows:
            c = cells(r)
            print(f"| {size_name(r['tokens'])} | {r['version']} | {c['label']} | {c['time']} | {c['peak']} | "
                  f"{c['per_token']} | {c['vs']} | {verdict(r)} |")


# --------------------------------------------------------------------------- main

def build_tools(n: int, out: Path, corpus: Path, germeval: Optional[Path], trees: Dict[str, Path], stream: bool,
                args: argparse.Namespace, workdir: Path, corpora: StudyCorpora) -> List[Tool]:
    py = sys.executable
    wanted = [c.strip() for c in args.commands.split(",")] if args.commands else list(COMMANDS)
    tools: List[Tool] = []
    for cmd in wanted:
        label, argv, stdin_ok, _, _ = COMMANDS[cmd]
        for version, root in trees.items():
            ext = ".jsonl" if cmd == "convert" else ".txt"
            target = out / f"{version}-{cmd}{ext}"
            t = Tool(f"{version}:{cmd}", version, cmd, label,
                     [py, "-m", "ts_eval"] + [a.replace("{out}", str(target)).replace(
                         "{in}", "-" if stream else str(corpus)).replace("{germeval}", str(germeval))
                         for a in argv], cwd=root, reads_stdin=stream, output=target)
            if stream and not stdin_ok:
                t.skipped = "piped sizes: only score, agree, compare and analyze run"
            elif version == "base" and n > parse_size(args.baseline_max):
                t.skipped = f"above --baseline-max {args.baseline_max}"
            elif cmd == "rank-jobs2" and version == "base":
                t.skipped = "the baseline has no rank --jobs"
            elif cmd == "germeval" and germeval is None:
                t.skipped = "no GermEval layout of a piped corpus"
            tools.append(t)
        peer_max = parse_size(args.peer_max)
        if cmd == "score":
            for key in ("seqeval", "nervaluate"):
                t = Tool(f"peer:{key}", "peer", "score", f"{key} (1 system)",
                         [py, str(workdir / f"{key}_report.py"), "-" if stream else str(corpus),
                          str(out / f"{key}.txt")], reads_stdin=stream, note="Python lists of tags")
                if n > peer_max:
                    t.skipped = f"above --peer-max {args.peer_max}"
                tools.append(t)
        if cmd == "agree":
            t = Tool("peer:agree", "peer", "agree", "krippendorff + statsmodels fleiss",
                     [py, str(workdir / "agree_peers.py"), "-" if stream else str(corpus), str(out / "agree.json")],
                     reads_stdin=stream, timefile=out / "agree.json",
                     note="alpha and Fleiss' kappa per label on unit vectors; time: computation only")
            if n > peer_max:
                t.skipped = f"above --peer-max {args.peer_max}"
            tools.append(t)
        if cmd == "analyze0":
            t = Tool("peer:interpreteval", "peer", "analyze0", "InterpretEval new_metric (1 system)", [],
                     note="its code, tables built first; time: new_metric only")
            if not args.interpreteval:
                t.skipped = "no --interpreteval DIR"
            elif stream:
                t.skipped = "piped sizes"
            else:
                one = out / "one-system.conll"
                with open(corpus, encoding="utf-8") as fh, open(one, "w", encoding="utf-8") as dst:
                    for line in fh:
                        f = line.split()
                        dst.write(f"{f[0]} {f[1]} {f[2]}\n" if f and f[0] != "-DOCSTART-" else ("" if f else "\n"))
                t.argv = [py, str(workdir / "interpreteval_run.py"), str(HERE), str(args.interpreteval.resolve()),
                          str(corpora.training()), str(args.cache_dir / "interpreteval_tables"), str(one),
                          str(out / "interpreteval.json")]
                t.timefile = out / "interpreteval.json"
            tools.append(t)
    return tools


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1M,10M", help="corpus sizes in tokens (default %(default)s)")
    ap.add_argument("--baseline", default="i32-base", metavar="COMMIT",
                    help="the earlier commit (git archive of this repository; default %(default)s)")
    ap.add_argument("--versions", default="now,base", help="now (this checkout), base (--baseline) or both")
    ap.add_argument("--baseline-max", default="10M", help="largest size the baseline runs at (default 10M)")
    ap.add_argument("--commands", help=f"a comma-separated subset of {','.join(COMMANDS)}")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each process up to 1M tokens (default 3)")
    ap.add_argument("--repeat-large", type=int, default=1, help="runs above 1M tokens (default 1)")
    ap.add_argument("--timeout", type=float, default=600.0, help="stop a run after this many seconds (default 600)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--distinct", type=int, default=10, help="distinct 1M-token units of the larger corpora")
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "ts_eval_bench_studies",
                    help="where the corpora are kept (default %(default)s)")
    ap.add_argument("--stream", action="store_true", help="pipe every size above 1M instead of storing it")
    ap.add_argument("--peer-max", default="10M", help="largest size the peers run at (default 10M)")
    ap.add_argument("--interpreteval", type=Path, metavar="DIR", help="InterpretEval's interpretEval folder")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 100k tokens, one repeat, 120 s timeout")
    ap.add_argument("--json", type=Path, metavar="FILE", help="write every run as JSON")
    ap.add_argument("--markdown", action="store_true", help="also print the table in Markdown")
    ap.add_argument("--table", type=Path, nargs="+", metavar="JSON",
                    help="run nothing: print the table of earlier runs' --json files, together")
    args = ap.parse_args(argv)
    if args.table:
        rows = [r for f in args.table for r in json.loads(f.read_text())["results"]]
        for r in rows:          # a peer's ratio to score of the same size, whichever version ran
            if r["version"] == "peer" and r.get("median_s") and not r.get("vs_score"):
                ref = [x["median_s"] for x in rows if x["command"] == "score" and x["version"] != "peer"
                       and x["tokens"] == r["tokens"] and x.get("median_s")]
                r["vs_score"] = r["median_s"] / ref[0] if ref else None
        print_table(rows, args.markdown)
        return 0
    if args.quick:
        args.sizes, args.repeat, args.repeat_large, args.timeout = "100k", 1, 1, min(args.timeout, 120.0)
    if not os.path.exists(GNU_TIME):
        ap.error(f"needs GNU time at {GNU_TIME} for the peak memory of each process")
    if args.commands and not set(c.strip() for c in args.commands.split(",")) <= set(COMMANDS):
        ap.error(f"--commands: choose from {','.join(COMMANDS)}")
    versions = [v.strip() for v in args.versions.split(",") if v.strip()]
    if not versions or not set(versions) <= {"now", "base"}:
        ap.error("--versions: now, base or now,base")
    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    args.cache_dir = args.cache_dir.resolve()
    for forbidden in (REPO, Path("/work/bench")):
        if args.cache_dir == forbidden or forbidden in args.cache_dir.parents:
            ap.error(f"--cache-dir {args.cache_dir}: not inside {forbidden}")
    corpora = StudyCorpora(args.cache_dir, args.seed, args.distinct)
    workdir = Path(tempfile.mkdtemp(prefix="bench_studies_"))
    for name, text in (("seqeval_report.py", SEQEVAL_SCRIPT), ("nervaluate_report.py", NERVALUATE_SCRIPT)):
        for old, new in ONE_SYSTEM.items():
            assert old in text, name
            text = text.replace(old, new)
        (workdir / name).write_text(text)
    (workdir / "agree_peers.py").write_text(AGREE_PEERS_SCRIPT)
    (workdir / "interpreteval_run.py").write_text(INTERPRETEVAL_SCRIPT)
    trees: Dict[str, Path] = {}
    if "now" in versions:
        trees["now"] = REPO
    if "base" in versions:
        trees["base"] = baseline_tree(args.baseline, workdir)
    byte_compile(sys.executable, [root / "ts_eval" for root in trees.values()])
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO).stdout
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "ts_eval"], capture_output=True, text=True,
                           cwd=REPO).stdout.splitlines()
    print(f"now: {REPO} at {head.strip()} ({len(dirty)} changed files in ts_eval/); base: {args.baseline}; "
          f"python {platform.python_version()}; {os.cpu_count()} CPUs; load average "
          f"{os.getloadavg()[0]:.1f} (a shared machine slows the wall clock)")
    print(f"time: wall, spawn to exit, median of the runs; memory: peak RSS from {GNU_TIME} -f %M, MB = 1e6 bytes, "
          f"the largest of the runs; timeout {args.timeout:.0f} s")
    results: List[Dict[str, Any]] = []
    interrupted = False
    try:
        for n in sizes:
            large = n > UNIT
            parts = corpora.parts(n)
            stream = large and (args.stream or n > STORE_MAX)
            corpus = parts[0] if stream else corpora.file(n)
            germeval = None
            if not stream and (not args.commands or "germeval" in args.commands):
                germeval = corpus.with_suffix(".germeval.tsv")
                germeval_layout(corpus, germeval)
            nbytes = sum(p.stat().st_size for p in parts)
            sentences = count_sentences(parts)
            out = workdir / size_name(n)
            out.mkdir()
            tools = build_tools(n, out, corpus, germeval, trees, stream, args, workdir, corpora)
            print(f"\n{size_name(n)} tokens, {sentences:,} sentences: {nbytes / 1e6:.0f} MB "
                  + ("(piped to standard input, never stored)" if stream else f"({corpus})"), flush=True)
            if not stream:
                with open(corpus, "rb") as fh:        # the page cache warmed once for every process
                    while fh.read(1 << 24):
                        pass
            try:
                for rep in range(args.repeat_large if large else args.repeat):
                    for t in tools:
                        if t.skipped or t.stopped():
                            continue
                        t.runs.append(run_once(t, corpus, parts, stream, args.timeout))
                        r = t.runs[-1]
                        took = (f"stopped after {args.timeout:.0f} s" if r.stopped else
                                f"failed (exit {r.failed})" if r.failed else f"{r.wall_s:8.2f} s")
                        took += f" CPU {r.cpu_s:6.2f} s" if r.cpu_s is not None else ""
                        print(f"  {t.version:5s} {t.label:36s} {took:>22s} "
                              f"{r.peak_mb if r.peak_mb is not None else float('nan'):8.1f} MB", flush=True)
                        if rep == 0 and t.version == "base" and t.output:
                            now = next((x for x in tools if x.key == f"now:{t.command}"), None)
                            same = same_output(now.output if now else None, t.output)
                            if same is not None:
                                t.note = "output identical to now's" if same else "OUTPUT DIFFERS from now's"
                        if rep == 0 and t.key == "now:rank-jobs2":      # the output of rank in one process
                            one = next((x for x in tools if x.key == "now:rank"), None)
                            same = same_output(one.output if one else None, t.output)
                            if same is not None:
                                t.note = "output identical to rank's" if same else "OUTPUT DIFFERS from rank's"
                        if t.command == "convert" and t.output and t.version == "base":
                            for x in tools:
                                if x.command == "convert" and x.output and x.output.exists():
                                    x.output.unlink()
            except KeyboardInterrupt:      # Ctrl-C: the table of what was measured so far
                print("  interrupted: the runs so far", flush=True)
                interrupted = True
            results.extend(rows_of(tools, n, nbytes, sentences, args.timeout))
            shutil.rmtree(out, ignore_errors=True)
            if interrupted:
                break
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print()
    print_table(results, args.markdown)
    if args.json:
        args.json.write_text(json.dumps({"python": platform.python_version(), "cpus": os.cpu_count(),
                                         "commit": head.strip(), "baseline": args.baseline, "results": results},
                                        indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
