#!/usr/bin/env python3
"""Benchmark ``ts-eval score`` end to end against seqeval and conlleval.pl.

Generates a seeded synthetic corpus in conlleval's layout (``TOKEN GOLD PRED``,
one token per line, blank line between sentences, ``-DOCSTART- O O`` between
documents) with a noisy system column, then times each tool as a separate
process, from process start to report written, interleaving the tools and
repeating each measurement.  The default table is timed twice: written to a
file (plain text, rich not imported) and drawn in a pseudo-terminal of 120
columns (in colour, by rich), as a person at a terminal sees it.  Peak memory is each tool's own maximum resident
set size as GNU ``/usr/bin/time -f %M`` reports it (fallback without it:
``os.wait4`` rusage, which on Linux cannot go below this script's own RSS).

    python scripts/bench.py                                 # 1M tokens
    python scripts/bench.py --tokens 5000000
    python scripts/bench.py --conlleval /tmp/conlleval.pl --check --json out.json

The conlleval.pl script is not part of this repository; pass its path.
Exit status 1 only when --check finds a difference; targets are reported, not enforced.
"""
from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import platform
import pstats
import pty
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

GENERATOR_VERSION = 1
LABELS = ("PER", "LOC", "ORG", "MISC")
LABEL_WEIGHTS = (0.30, 0.30, 0.25, 0.15)
SPAN_LENGTHS = (1, 2, 3, 4, 5)
SPAN_LENGTH_WEIGHTS = (0.50, 0.30, 0.12, 0.06, 0.02)

# Targets from issue 2 ("Performance").
TARGETS_1M = dict(wall_s=1.0, vs_seqeval=8.0, vs_conlleval=3.5)
TARGETS_5M = dict(wall_s=5.0, peak_mb=300.0)
TARGET_1M_TERMINAL_S = 0.30     # issue 22: the default table, drawn for a terminal (rich imported)


# --------------------------------------------------------------------------- corpus

@dataclass
class NoiseStats:
    """What the generator did to the system column (for the record)."""

    tokens: int = 0
    sentences: int = 0
    documents: int = 0
    gold_spans: int = 0
    kept: int = 0
    label_switch: int = 0
    boundary_shift: int = 0
    missed: int = 0
    split: int = 0
    spurious: int = 0
    i_after_o_start: int = 0
    type_change_inside: int = 0
    stray_i: int = 0


def _vocabulary(rng: random.Random, n: int = 3000) -> List[str]:
    consonants, vowels = "bcdfghjklmnprstvwz", "aeiou"
    words = set()
    while len(words) < n:
        k = rng.choice((1, 1, 2, 2, 2, 3, 3, 4))
        words.add("".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(k)))
    return sorted(words)


def generate_corpus(path: Path, tokens: int, seed: int) -> NoiseStats:
    """Write ``tokens`` token lines (plus sentence breaks and -DOCSTART- lines) to ``path``.

    Gold is well-formed IOB2.  The system column starts from the gold spans and
    applies realistic errors: label switches, boundary shifts (one token left or
    right), missed and spurious spans, a span split in two, and ill-formed tags:
    a span opened with I- (I- after O or after another type), a type change
    inside a span (B-X I-Y) and stray I- tags in O regions.
    """
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    caps = [w.capitalize() for w in vocab]
    punct = [".", ",", ";", ":", "(", ")", "'s", "\""]
    st = NoiseStats()
    out: List[str] = []
    buf_lines = 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        remaining = tokens
        sent_in_doc = rng.randint(10, 40)
        out.append("-DOCSTART- O O\n\n")
        st.documents += 1
        while remaining > 0:
            n = min(remaining, max(1, min(60, round(rng.gauss(15, 7)))))
            remaining -= n
            st.tokens += n
            st.sentences += 1
            # gold spans
            gold: List[Tuple[int, int, str]] = []
            i = 0
            while i < n:
                if rng.random() < 0.11:
                    length = min(rng.choices(SPAN_LENGTHS, SPAN_LENGTH_WEIGHTS)[0], n - i)
                    gold.append((i, i + length - 1, rng.choices(LABELS, LABEL_WEIGHTS)[0]))
                    i += length
                    if rng.random() > 0.04:  # mostly an O gap; sometimes adjacent spans
                        i += 1
                else:
                    i += 1
            st.gold_spans += len(gold)
            # system spans
            sysp: List[Tuple[int, int, str]] = []
            for b, e, lab in gold:
                r = rng.random()
                if r < 0.05:
                    st.label_switch += 1
                    sysp.append((b, e, rng.choice([x for x in LABELS if x != lab])))
                elif r < 0.10:
                    st.boundary_shift += 1
                    k = rng.randrange(4)
                    if k == 0 and b > 0:
                        b -= 1
                    elif k == 1 and e > b:
                        b += 1
                    elif k == 2 and e < n - 1:
                        e += 1
                    elif e > b:
                        e -= 1
                    else:
                        e = min(n - 1, e + 1)
                    sysp.append((b, e, lab))
                elif r < 0.14:
                    st.missed += 1
                elif r < 0.16 and e > b:
                    st.split += 1
                    m = rng.randint(b + 1, e)
                    sysp.append((b, m - 1, lab))
                    sysp.append((m, e, lab))
                else:
                    st.kept += 1
                    sysp.append((b, e, lab))
            gtags = ["O"] * n
            for b, e, lab in gold:
                gtags[b] = "B-" + lab
                for j in range(b + 1, e + 1):
                    gtags[j] = "I-" + lab
            stags = ["O"] * n
            for b, e, lab in sysp:  # later spans overwrite earlier ones where shifts overlap
                start_tag = "B-" + lab
                if rng.random() < 0.04:
                    start_tag = "I-" + lab  # ill-formed start unless it continues a same-type span
                    st.i_after_o_start += 1
                stags[b] = start_tag
                for j in range(b + 1, e + 1):
                    stags[j] = "I-" + lab
                if e > b and rng.random() < 0.02:
                    j = rng.randint(b + 1, e)
                    stags[j] = "I-" + rng.choice([x for x in LABELS if x != lab])
                    st.type_change_inside += 1
            for j in range(n):
                if stags[j] == "O" and gtags[j] == "O":
                    r = rng.random()
                    if r < 0.008:
                        lab = rng.choices(LABELS, LABEL_WEIGHTS)[0]
                        stags[j] = "B-" + lab
                        st.spurious += 1
                        if j + 1 < n and stags[j + 1] == "O" and rng.random() < 0.3:
                            stags[j + 1] = "I-" + lab
                    elif r < 0.011:
                        stags[j] = "I-" + rng.choices(LABELS, LABEL_WEIGHTS)[0]
                        st.stray_i += 1
            # tokens
            lines = []
            for j in range(n):
                if gtags[j] != "O":
                    tok = rng.choice(caps)
                elif rng.random() < 0.12:
                    tok = rng.choice(punct)
                else:
                    tok = rng.choice(vocab)
                lines.append(f"{tok} {gtags[j]} {stags[j]}\n")
            lines.append("\n")
            out.append("".join(lines))
            buf_lines += n
            sent_in_doc -= 1
            if sent_in_doc == 0 and remaining > 0:
                out.append("-DOCSTART- O O\n\n")
                st.documents += 1
                sent_in_doc = rng.randint(10, 40)
            if buf_lines > 200_000:
                fh.write("".join(out))
                out.clear()
                buf_lines = 0
        fh.write("".join(out))
    return st


def corpus_path(cache_dir: Path, tokens: int, seed: int) -> Path:
    return cache_dir / f"synth_v{GENERATOR_VERSION}_{tokens}tok_seed{seed}.conll"


# --------------------------------------------------------------------------- helper scripts

READER_CODE = r'''
def read_lists(path):
    """Sentences as lists of gold and system tags (last two columns); -DOCSTART- skipped."""
    y_true, y_pred, t, p = [], [], [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            cols = line.split()
            if not cols:
                if t:
                    y_true.append(t); y_pred.append(p); t, p = [], []
                continue
            if cols[0] == "-DOCSTART-":
                continue
            t.append(cols[-2]); p.append(cols[-1])
    if t:
        y_true.append(t); y_pred.append(p)
    return y_true, y_pred
'''

READ_ONLY_SCRIPT = READER_CODE + r'''
import sys
y_true, y_pred = read_lists(sys.argv[1])
with open(sys.argv[2], "w") as out:
    out.write(f"{len(y_true)} sentences, {sum(map(len, y_true))} tokens\n")
'''

SEQEVAL_SCRIPT = READER_CODE + r'''
import sys
from seqeval.metrics import classification_report
y_true, y_pred = read_lists(sys.argv[1])
report = classification_report(y_true, y_pred)  # default mode, digits=2
with open(sys.argv[2], "w") as out:
    out.write(report)
'''


# --------------------------------------------------------------------------- measuring

@dataclass
class Run:
    wall_s: float
    peak_mb: float  # ru_maxrss * 1024 / 1e6 (decimal MB)
    rc: int


@dataclass
class Tool:
    key: str
    label: str
    argv: List[str]
    stdin: Optional[Path] = None
    stdout: Optional[Path] = None
    cwd: Optional[Path] = None
    terminal: bool = False      # standard output a pseudo-terminal of TERMINAL_COLUMNS (what a person sees)
    runs: List[Run] = field(default_factory=list)

    def best(self) -> float:
        return min(r.wall_s for r in self.runs)

    def median(self) -> float:
        return statistics.median(r.wall_s for r in self.runs)

    def peak(self) -> float:
        return max(r.peak_mb for r in self.runs)


GNU_TIME = "/usr/bin/time"
TERMINAL_COLUMNS = 120


def memory_method() -> str:
    if os.path.exists(GNU_TIME):
        return (f"peak RSS from {GNU_TIME} -f %M (the tool's own maximum resident set, kB), "
                "reported as MB = 1e6 bytes, max over repeats; wall time is measured around it")
    return ("peak RSS = ru_maxrss from os.wait4 of each child, reported as MB = 1e6 bytes; CAUTION: Linux "
            "counts the forked benchmark process's RSS before exec, so small values are a floor, not a peak")


def run_once(tool: Tool) -> Run:
    """Run one process; wall time from before the spawn to after the wait, plus its own peak RSS.

    With GNU time the RSS is time's %M for the child it runs.  Plain os.wait4 rusage is only
    the fallback: on Linux a child's ru_maxrss includes the memory of the (v)forked parent
    image before exec, so it can never report less than this benchmark process uses.
    """
    # the files are closed by hand: the finally below, and after the error message is read
    fin = open(tool.stdin, "rb") if tool.stdin else subprocess.DEVNULL  # noqa: SIM115
    fout = open(tool.stdout, "wb") if tool.stdout else subprocess.DEVNULL  # noqa: SIM115
    err = tempfile.TemporaryFile()  # noqa: SIM115
    use_time = os.path.exists(GNU_TIME)
    memfile = tempfile.NamedTemporaryFile(prefix="bench_mem_", delete=False) if use_time else None  # noqa: SIM115
    argv = ([GNU_TIME, "-f", "%M", "-o", memfile.name] if memfile else []) + tool.argv
    env, screen = None, None
    if tool.terminal:       # the table is drawn for a terminal (rich is imported): a pseudo-terminal, drained
        env = {**os.environ, "COLUMNS": str(TERMINAL_COLUMNS), "TERM": "xterm-256color"}
        screen, fout = pty.openpty()
        drained = threading.Thread(target=_drain, args=(screen,), daemon=True)
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=err, cwd=tool.cwd, env=env)
        if screen is not None:
            os.close(fout)      # the child holds the terminal now; reading ends when it exits
            drained.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        for f in (fin, fout):
            if hasattr(f, "close"):
                f.close()
        if screen is not None:
            drained.join(5)
            os.close(screen)
    if proc.returncode != 0:
        err.seek(0)
        msg = err.read().decode("utf-8", "replace")[-2000:]
        raise SystemExit(f"{tool.label} failed (exit {proc.returncode}): {' '.join(tool.argv)}\n{msg}")
    err.close()
    if memfile:
        memfile.close()
        text = Path(memfile.name).read_text().split()
        os.unlink(memfile.name)
        kb = int(text[-1])
    else:
        kb = usage.ru_maxrss
    return Run(wall_s=wall, peak_mb=kb * 1024 / 1e6, rc=proc.returncode)


def _drain(fd: int) -> None:
    """Read a pseudo-terminal until its child has closed it (what the terminal would show is not kept)."""
    with contextlib.suppress(OSError):
        while os.read(fd, 1 << 16):
            pass


def find_ts_eval(explicit: Optional[str]) -> List[str]:
    """The real console script next to this interpreter (not a pyenv shim), else PATH."""
    if explicit:
        return explicit.split()
    here = Path(sys.executable).parent / "ts-eval"
    if here.exists():
        return [str(here)]
    found = shutil.which("ts-eval")
    if found:
        return [found]
    return [sys.executable, "-m", "ts_eval"]


def ts_eval_source(py: str, ts: Sequence[str] = ()) -> Dict[str, object]:
    """Where the measured ts_eval (the command ``ts``) lives, its commit, and how many files under it differ
    from that commit."""
    # ``python -m ts_eval`` imports the package of the current directory first; a console script does not
    cwd = None if list(ts[-2:]) == ["-m", "ts_eval"] else tempfile.gettempdir()
    try:
        pkg = subprocess.run([py, "-c", "import ts_eval, os; print(os.path.dirname(ts_eval.__file__))"],
                             capture_output=True, text=True, timeout=60, cwd=cwd).stdout.strip()
        head = subprocess.run(["git", "-C", pkg, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=60).stdout.strip()
        dirty = subprocess.run(["git", "-C", pkg, "status", "--porcelain", "--", "."], capture_output=True,
                               text=True, timeout=60).stdout.strip()
        lines = dirty.splitlines()
        untracked = sum(1 for line in lines if line.startswith("??"))
        return dict(package=pkg, commit=head or None, modified=len(lines) - untracked, untracked=untracked)
    except (OSError, subprocess.SubprocessError):
        return dict(package=None, commit=None, modified=None, untracked=None)


def baseline_tree(commit: str, workdir: Path, py: str = sys.executable) -> Path:
    """``git archive`` of ``commit``'s ts_eval package (from the repository this script is in) into
    ``workdir/baseline``, run there as ``python -m ts_eval`` (the cwd comes first on sys.path).  A commit
    with the column reader's compiled scanner gets it built there (``setup.py build_ext --inplace``), as
    ``pip install`` builds it."""
    repo = Path(__file__).resolve().parent.parent
    dest = workdir / "baseline"
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    top = subprocess.run(["git", "-C", str(repo), "ls-tree", "--name-only", commit], capture_output=True, text=True,
                         timeout=120).stdout.split()
    wanted = ["ts_eval"] + [f for f in ("setup.py", "setup.cfg", "README.md", "LICENSE") if f in top]
    archive = subprocess.run(["git", "-C", str(repo), "archive", commit, *wanted], capture_output=True, timeout=120)
    if archive.returncode != 0:
        raise SystemExit(f"--baseline {commit}: git archive failed: {archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    if (dest / "ts_eval" / "io" / "_column_scan.c").exists():
        built = subprocess.run([py, "setup.py", "-q", "build_ext", "--inplace"], cwd=dest, capture_output=True,
                               text=True, timeout=600)
        if built.returncode != 0:
            print(f"--baseline {commit}: its compiled scanner was not built (it reads with numpy): "
                  f"{built.stderr.strip()[-300:]}", file=sys.stderr)
    return dest


def byte_compile(py: str, package_dirs: Sequence[Path]) -> None:
    """Compile the measured packages' bytecode first, as ``pip install`` does: with
    PYTHONDONTWRITEBYTECODE set (as on this project's machines) every run would otherwise compile every
    module from source, which measures the size of the code base rather than its speed."""
    for d in package_dirs:
        subprocess.run([py, "-m", "compileall", "-q", str(d)], stdout=subprocess.DEVNULL, check=False)


def tool_version(argv: Sequence[str]) -> str:
    try:
        return subprocess.run(list(argv), capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


# --------------------------------------------------------------------------- profiling

def profile_ts_eval(py: str, data: Path, workdir: Path, top: int = 25) -> None:
    """Import cost (python -X importtime) and a cProfile of ``python -m ts_eval score FILE``."""
    out = workdir / "profile_table.txt"
    proc = subprocess.run([py, "-X", "importtime", "-m", "ts_eval", "score", str(data), "-o", str(out)],
                          capture_output=True, text=True)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = line[len("import time:"):].split("|")
        try:
            self_us, cum_us = int(parts[0]), int(parts[1])
        except ValueError:
            continue
        name = parts[2].rstrip()
        rows.append((cum_us, self_us, len(name) - len(name.lstrip()), name.strip()))
    top_level = sum(c for c, _, depth, _ in rows if depth == 1)
    print(f"\nimport time (python -X importtime; top-level total {top_level / 1e3:.0f} ms); "
          "modules over 10 ms cumulative, or 5 ms self:")
    for cum, self_, depth, name in rows:
        if cum >= 10_000 or self_ >= 5_000:
            print(f"  {cum / 1e3:7.1f} ms cum {self_ / 1e3:6.1f} ms self  {'  ' * (depth - 1)}{name}")
    prof = workdir / "ts_eval.prof"
    t0 = time.perf_counter()
    subprocess.run([py, "-m", "cProfile", "-o", str(prof), "-m", "ts_eval", "score", str(data), "-o", str(out)],
                   check=True)
    wall = time.perf_counter() - t0
    buf = io.StringIO()
    st = pstats.Stats(str(prof), stream=buf)
    st.sort_stats("cumulative").print_stats(r"ts_eval|numpy|rich", top)
    st.sort_stats("tottime").print_stats(top)
    print(f"\ncProfile of python -m ts_eval score FILE ({wall:.2f} s wall under the profiler; "
          f"profile kept in {prof}):")
    print(buf.getvalue())


# --------------------------------------------------------------------------- main

def fmt_ratio(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.2f}x"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, default=1_000_000, help="corpus size in tokens (default 1,000,000)")
    ap.add_argument("--seed", type=int, default=13, help="generator seed (default 13)")
    ap.add_argument("--file", type=Path, help="benchmark this existing file instead of a synthetic corpus")
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "ts_eval_bench",
                    help="where generated corpora are kept and reused (default: %(default)s)")
    ap.add_argument("--regenerate", action="store_true", help="regenerate the corpus even if cached")
    ap.add_argument("--repeat", type=int, default=3, help="measurements per tool (default 3)")
    ap.add_argument("--conlleval", metavar="PATH", help="path of conlleval.pl (run as: perl PATH < FILE)")
    ap.add_argument("--perl", default="/usr/bin/perl", help="perl interpreter (default %(default)s)")
    ap.add_argument("--ts-eval", dest="ts_eval", metavar="CMD",
                    help="command to run ts-eval (default: the console script beside this python)")
    ap.add_argument("--baseline", metavar="COMMIT",
                    help="also time this commit's ts_eval (git archive of this repository) in the same run, "
                         "interleaved, on the same two reports: the before/after comparison")
    ap.add_argument("--no-seqeval", action="store_true", help="skip seqeval")
    ap.add_argument("--check", action="store_true",
                    help="diff ts-eval --format conlleval against conlleval.pl's output on the file "
                         "(needs --conlleval)")
    ap.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    ap.add_argument("--profile", action="store_true",
                    help="afterwards, show ts-eval's import times (-X importtime) and a cProfile of one run")
    ap.add_argument("--keep-outputs", type=Path, metavar="DIR", help="keep the reports each tool wrote here")
    args = ap.parse_args(argv)
    if args.check and not args.conlleval:
        ap.error("--check needs --conlleval PATH")
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")

    # corpus
    gen_info: Dict[str, object] = {}
    if args.file:
        data = args.file
        n_tokens = None
    else:
        args.cache_dir.mkdir(parents=True, exist_ok=True)
        data = corpus_path(args.cache_dir, args.tokens, args.seed)
        n_tokens = args.tokens
        meta_path = data.with_suffix(".json")
        if args.regenerate or not data.exists() or not meta_path.exists():
            t0 = time.perf_counter()
            stats = generate_corpus(data, args.tokens, args.seed)
            gen_info = asdict(stats)
            gen_info["generate_s"] = round(time.perf_counter() - t0, 2)
            meta_path.write_text(json.dumps(gen_info, indent=1))
        else:
            gen_info = json.loads(meta_path.read_text())
    size_mb = data.stat().st_size / 1e6
    with open(data, "rb") as fh:  # warm the page cache once for everyone
        while fh.read(1 << 24):
            pass

    workdir = Path(args.keep_outputs) if args.keep_outputs else Path(tempfile.mkdtemp(prefix="ts_eval_bench_"))
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "read_lists.py").write_text(READ_ONLY_SCRIPT)
    (workdir / "seqeval_report.py").write_text(SEQEVAL_SCRIPT)
    ts = find_ts_eval(args.ts_eval)
    py = sys.executable

    tools: List[Tool] = [
        Tool("python", "python startup (reference)", [py, "-c", "pass"]),
        Tool("read", "read file into lists (reference)", [py, str(workdir / "read_lists.py"), str(data),
                                                           str(workdir / "read_lists.txt")]),
        Tool("ts_table", "ts-eval score (default table)", ts + ["score", str(data), "-o",
                                                                str(workdir / "ts_eval_table.txt")]),
        Tool("ts_terminal", f"ts-eval score (terminal, {TERMINAL_COLUMNS} col)", ts + ["score", str(data)],
             terminal=True),
        Tool("ts_json", "ts-eval score --format json", ts + ["score", str(data), "--format", "json", "-o",
                                                             str(workdir / "ts_eval.json")]),
        Tool("ts_conlleval", "ts-eval score --format conlleval",
             ts + ["score", str(data), "--format", "conlleval", "-o", str(workdir / "ts_eval_conlleval.txt")]),
    ]
    if args.baseline:
        base = baseline_tree(args.baseline, workdir, py)
        base_cmd = [py, "-m", "ts_eval", "score", str(data)]
        tools += [Tool("base_table", f"ts-eval {args.baseline} (default table)",
                       base_cmd + ["-o", str(workdir / "base_table.txt")], cwd=base),
                  Tool("base_json", f"ts-eval {args.baseline} --format json",
                       base_cmd + ["--format", "json", "-o", str(workdir / "base.json")], cwd=base)]
    if not args.no_seqeval:
        tools.append(Tool("seqeval", "seqeval classification_report",
                          [py, str(workdir / "seqeval_report.py"), str(data), str(workdir / "seqeval.txt")]))
    if args.conlleval:
        tools.append(Tool("conlleval", "conlleval.pl", [args.perl, args.conlleval], stdin=data,
                          stdout=workdir / "conlleval_pl.txt"))

    print(f"corpus: {data} ({size_mb:.1f} MB"
          + (f", {gen_info.get('tokens')} tokens, {gen_info.get('sentences')} sentences, "
             f"{gen_info.get('documents')} documents, {gen_info.get('gold_spans')} gold spans" if gen_info else "")
          + ")")
    if gen_info:
        noise = {k: gen_info[k] for k in ("label_switch", "boundary_shift", "missed", "split", "spurious",
                                          "i_after_o_start", "type_change_inside", "stray_i") if k in gen_info}
        print("system noise: " + ", ".join(f"{k}={v}" for k, v in noise.items()))
    src = ts_eval_source(py, ts)
    byte_compile(py, ([Path(src["package"])] if src["package"] else [])
                 + ([workdir / "baseline" / "ts_eval"] if args.baseline else []))
    print(f"ts-eval: {' '.join(ts)} ({tool_version(ts + ['--version'])}; {src['package']} at commit "
          f"{src['commit']}, {src['modified']} modified and {src['untracked']} untracked files); "
          f"python {platform.python_version()}; "
          f"{os.cpu_count()} CPUs; repeat {args.repeat}, tools interleaved")
    print("memory: " + memory_method())
    sys.stdout.flush()

    for rep in range(args.repeat):
        for tool in tools:
            tool.runs.append(run_once(tool))
        print(f"  round {rep + 1}/{args.repeat}: "
              + ", ".join(f"{t.key} {t.runs[-1].wall_s:.2f}s" for t in tools), flush=True)

    by = {t.key: t for t in tools}
    ref = by["ts_table"]

    def ratio(key: str, stat: str) -> Optional[float]:
        if key not in by:
            return None
        return getattr(by[key], stat)() / getattr(ref, stat)()

    print()
    head = f"{'process':36s} {'best s':>8s} {'median s':>9s} {'peak MB':>8s} {'vs ts-eval (best)':>18s}"
    print(head)
    print("-" * len(head))
    for t in tools:
        r = t.best() / ref.best()
        rel = "1.00x (reference)" if t is ref else f"{r:.2f}x"
        print(f"{t.label:36s} {t.best():8.3f} {t.median():9.3f} {t.peak():8.1f} {rel:>18s}")
    print()
    if args.baseline:
        for now, then in (("ts_table", "base_table"), ("ts_json", "base_json")):
            print(f"before/after ({args.baseline} -> now), {by[now].label}: best {by[then].best():.3f} -> "
                  f"{by[now].best():.3f} s ({by[now].best() / by[then].best():.2f}x), median "
                  f"{by[then].median():.3f} -> {by[now].median():.3f} s ({by[now].median() / by[then].median():.2f}x)")
    print(f"ratios (best/best, median/median): seqeval/ts-eval {fmt_ratio(ratio('seqeval', 'best'))}, "
          f"{fmt_ratio(ratio('seqeval', 'median'))}; conlleval.pl/ts-eval {fmt_ratio(ratio('conlleval', 'best'))}, "
          f"{fmt_ratio(ratio('conlleval', 'median'))}")

    # targets
    results_targets: List[Dict[str, object]] = []

    def target(name: str, ok: Optional[bool], detail: str) -> None:
        status = "n/a " if ok is None else ("PASS" if ok else "FAIL")
        results_targets.append(dict(target=name, status=status.strip(), detail=detail))
        print(f"  [{status}] {name}: {detail}")

    print()
    if n_tokens == 1_000_000:
        print("targets (1M tokens, issue 2), on ts-eval's default table report, best of runs:")
        target("wall < 1 s", ref.best() < TARGETS_1M["wall_s"], f"{ref.best():.3f} s")
        tty = by["ts_terminal"]
        target("<= 0.30 s drawn in a terminal (issue 22)", tty.best() <= TARGET_1M_TERMINAL_S,
               f"{tty.best():.3f} s (median {tty.median():.3f} s)")
        rs = ratio("seqeval", "best")
        target(">= 8x faster than seqeval", None if rs is None else rs >= TARGETS_1M["vs_seqeval"],
               "not measured" if rs is None else f"{rs:.2f}x")
        rc = ratio("conlleval", "best")
        target(">= 3.5x faster than conlleval.pl", None if rc is None else rc >= TARGETS_1M["vs_conlleval"],
               "not measured (give --conlleval PATH)" if rc is None else f"{rc:.2f}x")
    elif n_tokens == 5_000_000:
        print("targets (5M tokens, issue 2), on ts-eval's default table report:")
        target("wall < 5 s", ref.best() < TARGETS_5M["wall_s"], f"{ref.best():.3f} s (best)")
        target("peak memory < 300 MB", ref.peak() < TARGETS_5M["peak_mb"], f"{ref.peak():.1f} MB (max of runs)")
    else:
        print("targets: defined for --tokens 1000000 and 5000000 only")

    check: Dict[str, object] = {}
    if args.check:
        ours = (workdir / "ts_eval_conlleval.txt").read_text(encoding="utf-8")
        theirs = (workdir / "conlleval_pl.txt").read_text(encoding="utf-8")
        same = ours == theirs
        print()
        print(f"check: ts-eval --format conlleval vs conlleval.pl on {data.name}: "
              + ("IDENTICAL (byte for byte)" if same else "DIFFERENT"))
        if same:
            print("  " + theirs.splitlines()[0])
        else:
            for line in difflib.unified_diff(theirs.splitlines(), ours.splitlines(),
                                             "conlleval.pl", "ts-eval", lineterm=""):
                print("  " + line)
        check = dict(identical=same, conlleval_pl=theirs, ts_eval=ours)

    if args.json:
        out = dict(
            corpus=dict(path=str(data), bytes=data.stat().st_size, seed=None if args.file else args.seed,
                        generator_version=None if args.file else GENERATOR_VERSION, **gen_info),
            machine=dict(python=platform.python_version(), platform=platform.platform(), cpus=os.cpu_count()),
            ts_eval_command=ts, ts_eval_source=src, repeat=args.repeat,
            memory_method=memory_method(),
            tools={t.key: dict(label=t.label, argv=t.argv, best_s=t.best(), median_s=t.median(), peak_mb=t.peak(),
                               runs=[asdict(r) for r in t.runs]) for t in tools},
            ratios=dict(seqeval_best=ratio("seqeval", "best"), seqeval_median=ratio("seqeval", "median"),
                        conlleval_best=ratio("conlleval", "best"), conlleval_median=ratio("conlleval", "median")),
            targets=results_targets, check=check,
        )
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
        print(f"\nresults written to {args.json}")
    if args.profile:
        profile_ts_eval(py, data, workdir)
    if not args.keep_outputs:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if check and not check["identical"] else 0


if __name__ == "__main__":
    sys.exit(main())
