#!/usr/bin/env python3
"""Two-file mode in other input formats, before and after, side by side in one run: wall time and peak
RSS of ``ts-eval score --gold G S --format json`` on the synthetic corpora of ``bench_scale.py``.

Each size's conlleval-layout corpus (``TOKEN GOLD PRED``) is converted once with this checkout's
``ts-eval convert`` into a gold file (the gold column) and a system file (the system column) of each
format asked for (``jsonl-tokens``: token lists with spans; ``jsonl-text``: texts with character spans;
``jsonl-tags``: token lists with IOB2 tags; ``columns``: a token and a tag a line, what the JSON formats are
measured against; ``generated``: gold as texts with spans, the system as a generated output -- its spans'
strings with their labels, no offsets, no ids -- scored with ``--generated ground``, ``generated-strings`` with
``--generated strings``), cached beside the corpus.  This checkout and an earlier commit (``--baseline``, a
``git archive`` of its package) run as their own processes, interleaved, best and median of ``--repeat``; peak
RSS from GNU time; their outputs are compared byte for byte.

    python scripts/bench_two_files.py --baseline 028cbe5 --sizes 1M,10M --formats jsonl-tokens
    python scripts/bench_two_files.py --baseline 028cbe5 --sizes 1M --formats jsonl-tokens,jsonl-text --repeat 3
    python scripts/bench_two_files.py --baseline i31-base --sizes 1M --formats columns,jsonl-tags,jsonl-text
    python scripts/bench_two_files.py --baseline c0d1312 --sizes 1M,10M --formats generated,generated-strings
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench import baseline_tree, byte_compile, find_ts_eval  # noqa: E402
from bench_scale import Corpora, Run, Tool, parse_size, run_once, size_name  # noqa: E402

EXT = {"jsonl-tokens": "jsonl", "jsonl-text": "json", "columns": "conll"}


GENERATED = {"generated": "ground", "generated-strings": "strings"}     # format -> --generated MODE


def rewritten(src: Path, name: str, line_of: Callable[[Dict[str, Any]], str]) -> Path:
    """The JSON Lines file ``src`` with each record written as ``line_of`` says, beside it as ``name`` (made once)."""
    path = src.with_name(name)
    if not path.exists():
        tmp = path.with_name(path.name + ".tmp")
        with open(src, encoding="utf-8") as lines, open(tmp, "w", encoding="utf-8") as dst:
            dst.writelines(line_of(json.loads(line)) + "\n" for line in lines)
        tmp.replace(path)
    return path


def generated_output(texts: Path) -> Path:
    """The system of a text file with spans as a generated output: per record its spans' strings and labels
    (``[["text", "label"], ...]``, no ids: paired with gold's documents by order), made once."""
    return rewritten(texts, texts.name.replace(".json", ".generated.jsonl"), lambda rec: json.dumps(
        [[rec["text"][s["start"]:s["end"]], s["label"]] for s in rec["spans"]]))


def tags_of(spans: Path) -> Path:
    """A token-list file with spans as the same token lists with IOB2 tags (``{"tokens", "tags"}``), made once."""
    def line_of(rec: Dict[str, Any]) -> str:
        tags = ["O"] * len(rec["tokens"])
        for s in rec["spans"]:
            tags[s["start"]:s["end"]] = ["B-" + s["label"]] + ["I-" + s["label"]] * (s["end"] - s["start"] - 1)
        return json.dumps({"tokens": rec["tokens"], "tags": tags}, ensure_ascii=False)
    return rewritten(spans, spans.name.replace(".jsonl", ".tags.jsonl"), line_of)


def converted(corpus: Path, fmt: str, ts: List[str]) -> Tuple[Path, Path]:
    """The corpus's gold and system columns as two files in ``fmt`` (made once)."""
    if fmt in GENERATED:
        gold, system = converted(corpus, "jsonl-text", ts)
        return gold, generated_output(system)
    if fmt == "jsonl-tags":
        gold, system = converted(corpus, "jsonl-tokens", ts)
        return tags_of(gold), tags_of(system)
    out = []
    for side, column in (("gold", "-2"), ("sys", "-1")):
        path = corpus.with_name(f"{corpus.stem}.{side}.{EXT[fmt]}")
        if not path.exists():
            tmp = path.with_name(path.name + ".tmp")
            subprocess.run(ts + ["convert", str(corpus), str(tmp), "--to", fmt, "--column", column, "--from",
                                 "columns"], check=True, capture_output=True)
            tmp.replace(path)
        out.append(path)
    return out[0], out[1]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1M,10M", help="corpus sizes in tokens (default %(default)s)")
    ap.add_argument("--formats", default="jsonl-tokens", help="formats of the two files (default %(default)s)")
    ap.add_argument("--baseline", metavar="COMMIT", help="also run this commit's ts-eval")
    ap.add_argument("--repeat", type=int, default=2, help="runs per tool (default 2)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--distinct", type=int, default=10)
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "ts_eval_bench_scale")
    a = ap.parse_args(argv)
    ts = find_ts_eval(None)
    corpora = Corpora(a.cache_dir, a.seed, a.distinct)
    work = Path(tempfile.mkdtemp(prefix="bench_two_files_"))
    variants: Dict[str, Tuple[List[str], Optional[Path]]] = {"after": (ts, None)}
    if a.baseline:
        tree = baseline_tree(a.baseline, work)
        byte_compile(sys.executable, [tree / "ts_eval"])
        variants["before"] = ([sys.executable, "-m", "ts_eval"], tree)
    byte_compile(sys.executable, [HERE.parent / "ts_eval"])
    print(f"{'tokens':>7} {'format':<17} {'variant':<7} {'wall s':>7} {'median s':>8} {'peak RSS MB':>11}")
    rows = []
    for size in [parse_size(s) for s in a.sizes.split(",") if s]:
        corpus = corpora.file(size)
        for fmt in a.formats.split(","):
            gold, system = converted(corpus, fmt, ts)
            best: Dict[str, Run] = {}
            walls: Dict[str, List[float]] = {name: [] for name in variants}
            for _ in range(a.repeat):
                for name, (cmd, cwd) in variants.items():
                    out = work / f"{name}.json"
                    mode = ["--generated", GENERATED[fmt]] if fmt in GENERATED else []
                    tool = Tool(name, name, cmd + ["score", "--gold", str(gold), str(system), *mode, "--format",
                                                   "json", "-o", str(out)], cwd=cwd, output=out)
                    run = run_once(tool, corpus, [corpus], False)
                    walls[name].append(run.wall_s)
                    old = best.get(name)
                    best[name] = Run(min(run.wall_s, old.wall_s) if old else run.wall_s,
                                     max(run.peak_mb, old.peak_mb) if old else run.peak_mb)
            same = len({(work / f"{n}.json").read_bytes() for n in variants}) == 1
            for name, run in best.items():
                median = statistics.median(walls[name])
                print(f"{size_name(size):>7} {fmt:<17} {name:<7} {run.wall_s:7.2f} {median:8.2f} {run.peak_mb:11.1f}")
                rows.append((size, fmt, name, run))
            print(f"{'':>7} outputs {'identical' if same else 'DIFFER'}")
            if not same:
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
