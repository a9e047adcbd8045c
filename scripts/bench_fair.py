#!/usr/bin/env python3
"""Benchmark of the fair evaluation (Ortmann's error types) in ts_eval.

1. The FairEval chunk data (about 100k spans per side), read from the reference
   span files (default ../shared/data/faireval relative to the repository).
2. A synthetic 1M-token IOB2 corpus, generated here with a fixed seed: gold spans
   over about a third of the tokens, and a system that keeps most spans and
   otherwise relabels, shifts, shrinks, widens, splits, merges, drops or invents
   spans (so every error type and multi-span clusters occur).  It is written as
   one conlleval-style file (token POS gold system) and as two CoNLL-2000 files
   (token POS tag), read with the package's column reader and with the
   FairEval-format reader respectively.

Issue 3's target: fair + traditional + weighted scores for the 1M-token file in
under 1 s of compute on top of reading.  Timings are the best of ``--repeat``
runs (wall clock, one process).

    python scripts/bench_fair.py [--data DIR] [--tokens N] [--repeat K] [--keep DIR]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Tuple

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ts_eval.core.matching import match  # noqa: E402
from ts_eval.fair import EQ7_FORMULA, fair_errors, fair_report  # noqa: E402
from ts_eval.io import read_conll  # noqa: E402
from ts_eval.io.faireval import read_faireval  # noqa: E402

LABELS = ["PER", "LOC", "ORG", "MISC"]


def best_of(k: int, fn: Callable[[], object]) -> Tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(k):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def synthesize(n_tokens: int, seed: int = 20220601) -> Tuple[np.ndarray, List[Tuple[int, int, int]],
                                                              List[Tuple[int, int, int]]]:
    """Sentence lengths and gold / system spans (global start, last token (inclusive), label id)."""
    rng = np.random.default_rng(seed)
    lens = []
    total = 0
    while total < n_tokens:
        n = int(rng.integers(5, 41))
        n = min(n, n_tokens - total) if n_tokens - total >= 5 else n_tokens - total
        lens.append(n)
        total += n
    lens = np.array(lens, np.int64)
    offsets = np.concatenate(([0], np.cumsum(lens)))
    gold, system = [], []
    for s in range(len(lens)):
        a, b = int(offsets[s]), int(offsets[s + 1])
        t = a
        sent_gold = []
        while t < b:
            if rng.random() < 0.2:
                ln = int(min(rng.geometric(0.5), b - t))
                sent_gold.append((t, t + ln - 1, int(rng.integers(0, 4))))
                t += ln + 1
            else:
                t += 1
        gold.extend(sent_gold)
        i = 0
        while i < len(sent_gold):
            st, en, lab = sent_gold[i]
            r = rng.random()
            if r < 0.82:
                system.append((st, en, lab))
            elif r < 0.86:
                system.append((st, en, (lab + 1) % 4))                       # LE
            elif r < 0.89 and en > st:
                system.append((st + 1, en, lab))                             # BES
            elif r < 0.92 and st > a:
                system.append((st - 1, en, lab if r < 0.91 else (lab + 2) % 4))  # BEL / LBE
            elif r < 0.925 and en > st and (en + 1 < (sent_gold[i + 1][0] if i + 1 < len(sent_gold) else b)):
                system.append((st + 1, en + 1, lab))                         # BEO
            elif r < 0.93 and en > st:
                system.append((st, st, lab))                                 # split into two
                system.append((st + 1, en, lab))
            elif r < 0.94 and i + 1 < len(sent_gold):
                system.append((st, sent_gold[i + 1][1], lab))                # merge with the next span
                i += 1
            elif r < 0.97:
                pass                                                         # FN
            else:
                system.append((st, en, lab))
                nxt = sent_gold[i + 1][0] if i + 1 < len(sent_gold) else b
                if en + 2 < nxt:
                    system.append((en + 2, en + 2, int(rng.integers(0, 4))))  # FP
            i += 1
    return lens, gold, system


def tags(n: int, spans: List[Tuple[int, int, int]]) -> np.ndarray:
    out = np.array(["O"] * n, dtype=object)
    for st, en, lab in spans:
        out[st] = "B-" + LABELS[lab]
        if en > st:
            out[st + 1:en + 1] = "I-" + LABELS[lab]
    return out


def write_files(folder: Path, n_tokens: int) -> Tuple[Path, Path, Path]:
    lens, gold, system = synthesize(n_tokens)
    n = int(lens.sum())
    g, s = tags(n, gold), tags(n, system)
    first = np.zeros(n, bool)
    first[np.concatenate(([0], np.cumsum(lens)[:-1]))] = True
    both = folder / "synthetic_1m.conll"
    gf, sf = folder / "target" / "synthetic.conll", folder / "system" / "synthetic.conll"
    gf.parent.mkdir(exist_ok=True)
    sf.parent.mkdir(exist_ok=True)
    with open(both, "w") as fb, open(gf, "w") as fg, open(sf, "w") as fs:
        for i in range(n):
            if first[i] and i:
                fb.write("\n")
                fg.write("\n")
                fs.write("\n")
            pos = "$," if i % 17 == 0 else "NN"
            fb.write(f"w{i % 97} {pos} {g[i]} {s[i]}\n")
            fg.write(f"w{i % 97} {pos} {g[i]}\n")
            fs.write(f"w{i % 97} {pos} {s[i]}\n")
    return both, gf, sf


def run_fair(corpus, system, extra_g=None, extra_s=None, mode="paper"):
    pairs = match(corpus.gold, system)
    kw = {}
    if extra_g is not None:
        kw = dict(gold_order=extra_g.order, system_order=extra_s.order,
                  gold_tokens=extra_g.tokens, system_tokens=extra_s.tokens)
    res = fair_errors(corpus.gold, system, pairs, corpus.labels, corpus, mode=mode, **kw)
    rep = fair_report(res, weights=EQ7_FORMULA)
    return res, rep


def stage_times(corpus, system, k, extra_g=None, extra_s=None, mode="paper"):
    kw = {}
    if extra_g is not None:
        kw = dict(gold_order=extra_g.order, system_order=extra_s.order,
                  gold_tokens=extra_g.tokens, system_tokens=extra_s.tokens)
    t_match, pairs = best_of(k, lambda: match(corpus.gold, system))
    t_fair, res = best_of(k, lambda: fair_errors(corpus.gold, system, pairs, corpus.labels, corpus, mode=mode, **kw))
    t_rep, rep = best_of(k, lambda: fair_report(res, weights=EQ7_FORMULA))
    return t_match, t_fair, t_rep, res, rep


def show(name: str, rep: dict) -> None:
    for m in ("traditional", "fair", "weighted"):
        o = rep[m]["micro"]
        counts = " ".join(f"{k.upper()}={o[k]}" for k in ("tp", "fp", "fn", "le", "be", "bes", "bel", "beo", "lbe")
                          if k in o)
        print(f"  {name} {m:<11} P={o['precision'] * 100:6.2f} R={o['recall'] * 100:6.2f} "
              f"F1={o['f'] * 100:6.2f}  {counts}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "faireval"))
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR", help="write the synthetic files here and keep them")
    args = ap.parse_args()
    k = args.repeat

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, best of {k}")
    chunk_t = os.path.join(args.data, "target", "chunk_spans.csv")
    if os.path.exists(chunk_t):
        t_read, fd = best_of(1, lambda: read_faireval(chunk_t, os.path.join(args.data, "system", "chunk_spans.csv")))
        c = fd.corpus
        ss = c.systems[fd.system_name]
        print(f"\nchunk data: {c.n_sentences} sentences, {len(c.gold)} gold / {len(ss)} system spans")
        print(f"  read span files          {t_read:7.3f} s")
        for mode in ("paper", "faireval-skip"):
            tm, tf, tr, _res, rep = stage_times(c, ss, k, fd.gold, fd.system, mode)
            print(f"  [{mode}] match {tm:.3f} s, fair errors {tf:.3f} s, scores {tr:.4f} s, "
                  f"total {tm + tf + tr:.3f} s")
            show(f"chunk ({mode})", rep)
    else:
        print(f"(no chunk data at {chunk_t}; skipped)")

    tmp = None
    if args.keep:
        folder = Path(args.keep)
        folder.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory()
        folder = Path(tmp.name)
    t0 = time.perf_counter()
    both, gf, sf = write_files(folder, args.tokens)
    print(f"\nsynthetic IOB2: {args.tokens} tokens, generated in {time.perf_counter() - t0:.1f} s ({both})")
    t_read, corpus = best_of(1, lambda: read_conll(str(both), gold_column=3, system_columns=[4]))
    ss = next(iter(corpus.systems.values()))
    print(f"  {corpus.n_sentences} sentences, {len(corpus.gold)} gold / {len(ss)} system spans")
    print(f"  read (ts_eval.io.read_conll)   {t_read:7.3f} s")
    tm, tf, tr, _res, rep = stage_times(corpus, ss, k)
    print(f"  match {tm:.3f} s + fair errors {tf:.3f} s + traditional/fair/weighted scores {tr:.4f} s "
          f"= {tm + tf + tr:.3f} s on top of reading (target < 1 s)")
    show("synthetic", rep)
    t_read2, fd = best_of(1, lambda: read_faireval(str(gf), str(sf), ignore_punct=True))
    print(f"  read as CoNLL-2000 pair with ignore_punct (io.faireval)  {t_read2:7.3f} s")
    tm, tf, tr, _res, rep = stage_times(fd.corpus, fd.corpus.systems[fd.system_name], k, fd.gold, fd.system)
    print(f"  ignore_punct: {len(fd.gold.tokens)} gold spans with holes; match {tm:.3f} s + fair {tf:.3f} s "
          f"+ scores {tr:.4f} s = {tm + tf + tr:.3f} s")
    show("synthetic/punct", rep)
    tm, tf, tr, _res, rep = stage_times(corpus, ss, k, mode="faireval-skip")
    print(f"  [faireval-skip] match {tm:.3f} s + fair {tf:.3f} s + scores {tr:.4f} s = {tm + tf + tr:.3f} s")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
