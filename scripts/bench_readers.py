#!/usr/bin/env python3
"""Benchmark the readers on one synthetic corpus written in several formats, side by side.

A seeded corpus of N tokens (default 1M; sentences of 5-40 tokens, IOB2 gold and a
noisy system) is written as: CoNLL columns (``TOKEN TAG``), JSON Lines with tokens and
token-offset spans, JSON Lines with tokens and tags, and JSON Lines with text and
character-offset spans (tokens separated by single spaces, so the default tokenizer
finds them again), and CoNLL-U with the tags under the MISC key NER; the system also as a
generated output (entity strings with labels, no offsets).  For each format it times, in-process and
best of ``--repeat``:
reading the gold file (``ts_eval.read``), and the whole score (``read_pair`` of gold
and system + ``evaluate``).  The existing column reader (``read_column_file``) is
timed too, as the baseline.

``--baseline SRC`` times another copy of ts_eval on the same files in the same run, for a
before/after comparison of a reader: SRC is a directory holding a ``ts_eval`` package (e.g.
``git archive HEAD ts_eval | tar -x -C /tmp/before``); its ``read`` and whole score are timed in a
child process (imported from SRC, best of ``--repeat``) and shown beside this copy's numbers.
``--formats`` restricts the formats timed (e.g. ``--formats conllu``).

Then each format's gold file is read again in a fresh process of its own (``ts_eval.read``, best of
``--repeat``), which also gives that read's peak RSS, and both are shown as ratios to the same for the
column file (issue 22.4: the JSON Lines readers within 1.5x of the column reader's time and memory);
with ``--baseline SRC`` the package in SRC is measured the same way, the children interleaved.  The
generated output is timed there too: its strings placed on the gold text file's documents
(``read_generated_on``, ``generated="ground"`` and ``"strings"``), gold read before the clock starts.

    python scripts/bench_readers.py [--tokens 1000000] [--repeat 3] [--json out.json]
    python scripts/bench_readers.py --formats conllu --baseline /tmp/before
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ts_eval import read
from ts_eval.io.api import read_pair
from ts_eval.io.columns import read_column_file
from ts_eval.models.evaluate import evaluate

LABELS = ("PER", "LOC", "ORG", "MISC")
WORDS = ["the", "of", "Smith", "Berlin", "said", "in", "a", "USA", "company", "on", "Inc", "2024", "(", ")",
         "market", "Anna", "New", "York", "was", "to"]


Spans = List[Tuple[int, int, str]]


def corpus(n_tokens: int, seed: int = 1) -> List[Tuple[List[str], Spans, Spans]]:
    """Sentences: tokens, gold spans, system spans (token offsets, end exclusive)."""
    rng = random.Random(seed)
    out, total = [], 0
    while total < n_tokens:
        n = min(rng.randint(5, 40), n_tokens - total)
        toks = [rng.choice(WORDS).replace(" ", "") for _ in range(n)]
        gold, i = [], 0
        while i < n:
            if rng.random() < 0.12:
                ln = min(rng.randint(1, 3), n - i)
                gold.append((i, i + ln, rng.choice(LABELS)))
                i += ln + 1
            else:
                i += 1
        system = []
        for b, e, lab in gold:
            r = rng.random()
            if r < 0.8:
                system.append((b, e, lab))
            elif r < 0.9:
                system.append((b, e, rng.choice(LABELS)))
            elif r < 0.95 and e - b > 1:
                system.append((b, e - 1, lab))
        out.append((toks, gold, system))
        total += n
    return out


def tags(n: int, spans) -> List[str]:
    t = ["O"] * n
    for b, e, lab in spans:
        t[b] = "B-" + lab
        for k in range(b + 1, e):
            t[k] = "I-" + lab
    return t


def write_all(sents, d: str) -> Dict[str, Tuple[str, str]]:
    paths = {}
    for side, k in (("gold", 1), ("system", 2)):
        p = {fmt: os.path.join(d, f"{side}.{ext}") for fmt, ext in
             (("columns", "conll"), ("jsonl-tokens (spans)", "spans.jsonl"), ("jsonl-tokens (tags)", "tags.jsonl"),
              ("jsonl-text", "text.jsonl"), ("conllu", "conllu"))}
        with open(p["columns"], "w") as c, open(p["jsonl-tokens (spans)"], "w") as s, \
                open(p["jsonl-tokens (tags)"], "w") as t, open(p["jsonl-text"], "w") as x, \
                open(p["conllu"], "w") as u:
            for i, sent in enumerate(sents):
                toks, spans = sent[0], sent[k]
                tg = tags(len(toks), spans)
                c.write("".join(f"{w} {g}\n" for w, g in zip(toks, tg)) + "\n")
                s.write(json.dumps({"id": f"s{i}", "tokens": toks,
                                    "spans": [{"start": b, "end": e, "label": lab} for b, e, lab in spans]}) + "\n")
                t.write(json.dumps({"id": f"s{i}", "tokens": toks, "tags": tg}) + "\n")
                starts = [0]
                for w in toks[:-1]:
                    starts.append(starts[-1] + len(w) + 1)
                u.write(f"# sent_id = s{i}\n" + "".join(f"{j + 1}\t{w}\t_\t_\t_\t_\t0\tdep\t_\tNER={g}\n"
                                                         for j, (w, g) in enumerate(zip(toks, tg))) + "\n")
                text = " ".join(toks)
                x.write(json.dumps({"id": f"s{i}", "text": text, "spans": [
                    {"start": starts[b], "end": starts[e - 1] + len(toks[e - 1]), "label": lab}
                    for b, e, lab in spans]}) + "\n")
        for fmt, path in p.items():
            paths.setdefault(fmt, [None, None])[k - 1] = path
    with open(os.path.join(d, "system.generated.jsonl"), "w") as gen:   # a generated output: strings, no offsets
        for i, (toks, _, spans) in enumerate(sents):
            gen.write(json.dumps({"id": f"s{i}", "entities": [{"text": " ".join(toks[b:e]), "label": lab}
                                                              for b, e, lab in spans]}) + "\n")
    return {f: tuple(v) for f, v in paths.items()}


#: the generated output's reads in the fresh-process table: (mode, the generated=... option); each places the
#: system's strings on the gold text file's documents, read before the clock starts
GENERATED = (("generated (ground)", "ground"), ("generated (strings)", "strings"))


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


BASELINE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from ts_eval import read
from ts_eval.models.evaluate import evaluate
from ts_eval.io.api import read_pair
gold, system, repeat = sys.argv[2], sys.argv[3], int(sys.argv[4])
runs = []
for _ in range(repeat):
    t0 = time.perf_counter()
    read(gold)
    t1 = time.perf_counter()
    evaluate(read_pair(gold, system))
    runs.append((t1 - t0, time.perf_counter() - t1))
print(json.dumps(runs))
"""


def baseline(src: str, gold: str, system: str, repeat: int) -> Tuple[float, float]:
    """Read and score times of the ts_eval package in ``src`` on the same files (a child process)."""
    out = subprocess.run([sys.executable, "-c", BASELINE, os.path.abspath(src), gold, system, str(repeat)],
                         check=True, capture_output=True, text=True, cwd=os.path.abspath(src)).stdout
    runs = json.loads(out)
    return min(r[0] for r in runs), min(r[1] for r in runs)


ISOLATED = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from ts_eval import read
import ts_eval.io.api  # every reader imported before the first measurement
path, repeat = sys.argv[2], int(sys.argv[3])
gold, mode = (sys.argv[4], sys.argv[5]) if len(sys.argv) > 5 else (None, None)


def peak_mb():
    # peak RSS: VmHWM (Linux: this program's own, unlike ru_maxrss, which a child of a large process
    # starts from), else ru_maxrss
    try:
        with open("/proc/self/status") as fh:
            return next(int(ln.split()[1]) for ln in fh if ln.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


before = peak_mb()
if gold is not None:     # a generated output, placed on gold's documents (read first, not timed)
    from ts_eval.io.api import read_generated_on
    gold_docs = read(gold)
    gold_docs.keys
    before = peak_mb()
runs, cpu = [], []
for _ in range(repeat):
    t0, c0 = time.perf_counter(), time.process_time()
    docs = read(path) if gold is None else read_generated_on(gold_docs, path, generated=mode)
    runs.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)
    del docs
print(json.dumps({"read_s": min(runs), "cpu_s": min(cpu), "rss_mb": peak_mb(), "imports_rss_mb": before,
                  "grows_mb": peak_mb() - before}))
"""


def isolated(src: str, path: str, repeat: int, gold: Optional[str] = None, mode: str = "") -> Dict[str, float]:
    """``ts_eval.read(path)`` in a fresh process importing the package in ``src``: best time, peak RSS (MB); with
    ``gold``, ``read_generated_on(gold, path, generated=mode)`` instead (gold read before the clock starts)."""
    extra = [gold, mode] if gold else []
    out = subprocess.run([sys.executable, "-c", ISOLATED, os.path.abspath(src), path, str(repeat), *extra],
                         check=True, capture_output=True, text=True, cwd=os.path.abspath(src)).stdout
    return json.loads(out)


def isolated_table(paths: Dict[str, Tuple[str, str]], columns: str, repeat: int, rounds: int,
                   base: Optional[str], generated: Optional[Tuple[str, str]] = None) -> List[Dict[str, Any]]:
    """Each format's gold read in a fresh process (this copy, and the one in ``base`` if given, interleaved;
    the best of ``rounds`` such processes), with its time and peak RSS as ratios to the column file's;
    ``generated``: (gold text file, generated output) also timed as :data:`GENERATED` says."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    srcs = {"this": here, **({"baseline": base} if base else {})}
    files: Dict[str, Tuple[str, Optional[str], str]] = {
        "columns": (columns, None, ""), **{f: (g, None, "") for f, (g, _) in paths.items() if f != "columns"}}
    if generated:
        files.update({fmt: (generated[1], generated[0], mode) for fmt, mode in GENERATED})
    rows: List[Dict[str, Any]] = []
    for _ in range(rounds):     # interleaved rounds: a busy moment of a shared machine hits every row alike
        for fmt, (path, gold, mode) in files.items():
            for who, src in srcs.items():
                got = isolated(src, path, repeat, gold, mode)
                row = next((r for r in rows if r["format"] == fmt and r["package"] == who), None)
                if row is None:
                    rows.append({"format": fmt, "package": who, **got})
                else:
                    row["read_s"] = min(row["read_s"], got["read_s"])
                    row["cpu_s"] = min(row["cpu_s"], got["cpu_s"])
                    row["rss_mb"] = min(row["rss_mb"], got["rss_mb"])
                    row["grows_mb"] = min(row["grows_mb"], got["grows_mb"])
    for r in rows:
        col = next(c for c in rows if c["format"] == "columns" and c["package"] == r["package"])
        r["time_ratio"] = r["read_s"] / col["read_s"]
        r["cpu_ratio"] = r["cpu_s"] / col["cpu_s"]
        r["rss_ratio"] = r["rss_mb"] / col["rss_mb"]
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3,
                    help="fresh-process reads: interleaved rounds, the best kept (default 3)")
    ap.add_argument("--json", help="write the numbers here")
    ap.add_argument("--formats", help="comma-separated formats to time (default: all)")
    ap.add_argument("--baseline", metavar="SRC", help="also time the ts_eval package in SRC on the same files")
    a = ap.parse_args()
    sents = corpus(a.tokens)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        paths = write_all(sents, d)
        columns = paths["columns"][0]
        if a.formats:
            paths = {f: p for f, p in paths.items() if f.split(" ")[0] in a.formats.split(",")}
        rows.append(("columns (read_column_file, baseline)", os.path.getsize(columns),
                     best(lambda: read_column_file(columns, [-1]), a.repeat), None, None))
        scores = {}
        for fmt, (g, s) in paths.items():
            t_read = best(lambda g=g: read(g), a.repeat)
            t_score = best(lambda fmt=fmt, g=g, s=s: scores.__setitem__(fmt, evaluate(read_pair(g, s))), a.repeat)
            rows.append((fmt, os.path.getsize(g), t_read, t_score,
                         baseline(a.baseline, g, s, a.repeat) if a.baseline else None))
        gen = (paths["jsonl-text"][0], os.path.join(d, "system.generated.jsonl")) if "jsonl-text" in paths else None
        fresh = isolated_table(paths, columns, a.repeat, a.rounds, a.baseline, gen)
    f1 = {fmt: (round(r.to_dict()["systems"][0]["exact"]["micro"]["f"], 6),
                round(r.to_dict()["systems"][0]["ts"]["micro"]["f"], 6))
          for fmt, r in scores.items()}
    print(f"{a.tokens} tokens, {len(sents)} sentences; Python {platform.python_version()}; best of {a.repeat}")
    head = f"{'format':40} {'MB':>7} {'read gold s':>12} {'score s':>9}"
    print(head + (f" {'baseline read s':>16} {'baseline score s':>17}" if a.baseline else ""))
    for fmt, size, tr, ts, base in rows:
        line = f"{fmt:40} {size / 1e6:7.1f} {tr:12.3f} {'' if ts is None else f'{ts:9.3f}':>9}"
        print(line + (f" {base[0]:16.3f} {base[1]:17.3f}" if base else ""))
    if a.baseline:
        print(f"baseline: the ts_eval package in {os.path.abspath(a.baseline)}, timed in a child process")
    print("(exact-match, TS) micro F1 per format (must agree):", f1)
    print(f"\neach gold file read alone in a fresh process (ts_eval.read, best of {a.repeat} reads x {a.rounds} "
          "interleaved processes; peak RSS of the process)")
    print("(generated: the system's entity strings placed on the gold text file's documents, read_generated_on; the"
          " gold file is read first, untimed, and\n 'before MB' is the peak after it: 'peak MB' holds gold's"
          " documents too, 'grows MB' is what placing the strings adds)")
    print(f"{'format':22} {'package':9} {'read s':>7} {'x columns':>9} {'CPU s':>6} {'x columns':>9} "
          f"{'peak MB':>8} {'x columns':>9} {'before MB':>9} {'grows MB':>8}")
    for r in fresh:
        print(f"{r['format']:22} {r['package']:9} {r['read_s']:7.3f} {r['time_ratio']:9.2f} {r['cpu_s']:6.3f} "
              f"{r['cpu_ratio']:9.2f} {r['rss_mb']:8.1f} {r['rss_ratio']:9.2f} {r['imports_rss_mb']:9.1f} "
              f"{r['grows_mb']:8.1f}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"tokens": a.tokens, "baseline": a.baseline,
                       "rows": [dict(zip(("format", "bytes", "read_s", "score_s", "baseline_read_score_s"), r))
                                for r in rows], "fresh_process": fresh, "f1": f1}, fh, indent=1)
    return 0 if len(set(f1.values())) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
