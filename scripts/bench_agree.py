#!/usr/bin/env python3
"""Time ``ts_eval.agree`` against the reference packages on the same unit vectors, side by side.

A seeded synthetic corpus (default 1M tokens in sentences of 5..40 tokens, 4 labels, an entity about
every 6 tokens, documents of about 20 sentences) annotated by 3 annotators: the first places spans,
the others copy each one with misses, boundary shifts, label switches and spurious spans.  Timed in
one process, each repeated (the median is printed):

* **ts_eval, every figure**: pairwise F1 exact and overlap, Cohen's kappa per label, micro, macro
  and multi-class, Fleiss' kappa, Krippendorff's alpha and unitizing alpha per label, per document,
  the disagreements (``ts_eval.agreement.study.agreement`` on the annotations, reading excluded);
* **ts_eval, 1000 resamples**: the same with a bootstrap of 1000 resamples of the documents;
* **the references, on the same TS unit vectors** (2 n - 1 units per sentence of n tokens, one
  0/1 vector per annotator and label, made here once and not timed): for every label,
  ``sklearn.metrics.cohen_kappa_score`` for the three pairs, ``statsmodels``' ``fleiss_kappa``
  (with ``aggregate_raters``), the ``krippendorff`` package's nominal alpha, and NLTK's
  ``AnnotationTask`` (kappa and alpha; pure Python, so it gets ``--nltk-units`` units of one label and
  its time is scaled linearly to all of them -- a lower bound: it is quadratic in places).

The values are checked to be equal (Fleiss and alpha to 1e-9) before any time is printed.

    python scripts/bench_agree.py                          # 1M tokens, 3 repeats
    python scripts/bench_agree.py --tokens 200000 --repeats 5

Targets (issue 20.7), reported, not enforced: every figure <= 2 s; with 1000 resamples <= 10 s.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ts_eval.agreement.data import Annotations  # noqa: E402
from ts_eval.agreement.study import agreement  # noqa: E402
from ts_eval.core.corpus import Corpus, SideInfo, SpanSet  # noqa: E402

LABELS = ["LOC", "MISC", "ORG", "PER"]
TARGETS = {"every figure": 2.0, "1000 resamples": 10.0}


def synthetic(tokens: int, seed: int, annotators: int = 3) -> Annotations:
    """The corpus (see the module docstring), built as arrays."""
    rng = np.random.default_rng(seed)
    lens = rng.integers(5, 41, tokens // 5 + 10)
    lens = lens[:int(np.searchsorted(np.cumsum(lens), tokens)) + 1]
    lens[-1] -= int(lens.sum()) - tokens
    lens = lens[lens > 0]
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    sent = np.repeat(np.arange(len(lens)), lens)
    end_of = offsets[1:][sent]                              # per token: its sentence's end
    # first annotator: a span starts at a token with probability 1/6 unless the previous one is taken
    starts = np.flatnonzero(rng.random(tokens) < 1 / 6)
    length = rng.choice([1, 1, 1, 2, 2, 3, 4], len(starts))
    last = np.minimum(starts + length - 1, end_of[starts] - 1)
    keep = np.ones(len(starts), bool)
    keep[1:] = starts[1:] > last[:-1] + 1
    starts, last = starts[keep], last[keep]
    label = rng.integers(0, len(LABELS), len(starts)).astype(np.int32)
    sides = [SpanSet(starts, last, label)]
    for _ in range(annotators - 1):
        r = rng.random(len(starts))
        b, e, lab = starts.copy(), last.copy(), label.copy()
        shift = (r >= 0.86) & (r < 0.93)
        e[shift] = np.clip(e[shift] + rng.choice([-1, 1], int(shift.sum())), b[shift], end_of[b[shift]] - 1)
        switch = (r > 0.80) & (r < 0.86)
        lab[switch] = rng.integers(0, len(LABELS), int(switch.sum()))
        kept = r >= 0.06                                     # 6 % missed
        spurious = np.flatnonzero(rng.random(tokens) < 0.01)
        b = np.concatenate([b[kept], spurious])
        e = np.concatenate([e[kept], spurious])
        lab = np.concatenate([lab[kept], rng.integers(0, len(LABELS), len(spurious)).astype(np.int32)])
        sides.append(SpanSet(b, e, lab).sorted())
    names = [f"annotator{k + 1}" for k in range(annotators)]
    docs = np.concatenate([offsets[::20], [] if (len(offsets) - 1) % 20 == 0 else [offsets[-1]]]).astype(np.int64)
    corpus = Corpus(offsets, list(LABELS), sides[0], dict(zip(names[1:], sides[1:])), SideInfo(names[0]),
                    {n: SideInfo(n) for n in names[1:]}, doc_offsets=docs)
    return Annotations(corpus, names)


def unit_vectors(ann: Annotations) -> np.ndarray:
    """(annotators, labels, units) 0/1: the TS units (token, separator, token, ... per sentence) a span
    of the label covers, built by difference arrays (not timed)."""
    c = ann.corpus
    n_units = 2 * c.n_tokens - c.n_sentences
    unit_of_token = 2 * np.arange(c.n_tokens) - c.sentence_of(np.arange(c.n_tokens))
    out = np.zeros((ann.m, len(c.labels), n_units), np.int8)
    for i, ss in enumerate(ann.spans):
        for k in range(len(c.labels)):
            sel = ss.label == k
            diff = np.zeros(n_units + 1, np.int64)
            np.add.at(diff, unit_of_token[ss.start[sel]], 1)
            np.add.at(diff, unit_of_token[ss.last[sel]] + 1, -1)
            out[i, k] = np.cumsum(diff[:-1]) > 0
    return out


CPU: Dict[str, float] = {}      # the median processor time of the last timed call (a busy machine slows the wall clock)


def timed(fn: Callable[[], Any], repeats: int) -> Tuple[float, Any]:
    """The median wall time of ``repeats`` calls and the last result (processor time in CPU["last"])."""
    times, cpu, out = [], [], None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    CPU["last"] = statistics.median(cpu)
    return statistics.median(times), out


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--annotators", type=int, default=3)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--nltk-units", type=int, default=20_000, help="units NLTK's AnnotationTask is timed on")
    args = ap.parse_args(argv)
    try:
        import krippendorff
        from nltk.metrics.agreement import AnnotationTask
        from sklearn.metrics import cohen_kappa_score
        from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
    except ImportError as e:
        print(f"{e.name} is not installed (pip install '.[test,bench]': test brings statsmodels and krippendorff, "
              "bench brings nltk)",
              file=sys.stderr)
        return 2

    ann = synthetic(args.tokens, args.seed, args.annotators)
    c = ann.corpus
    print(f"corpus: {c.n_tokens:,} tokens, {c.n_sentences:,} sentences, {len(c.doc_offsets) - 1:,} documents, "
          f"{ann.m} annotators, {sum(len(s) for s in ann.spans):,} spans")
    rows: List[Tuple[str, float, float, str]] = []

    t, res = timed(lambda: agreement(ann), args.repeats)
    rows.append(("ts_eval: every figure", t, CPU["last"], f"target <= {TARGETS['every figure']:g} s"))
    tb, res_b = timed(lambda: agreement(ann, bootstrap=args.resamples), max(1, args.repeats - 1))
    rows.append((f"ts_eval: every figure + {args.resamples} resamples", tb, CPU["last"],
                 f"target <= {TARGETS['1000 resamples']:g} s" if args.resamples == 1000 else ""))

    iv = res_b.figures["alpha"]["micro"]
    assert iv["low"] <= res.figures["alpha"]["micro"]["value"] <= iv["high"], iv     # the same figures, intervals

    vec = unit_vectors(ann)                                  # annotators x labels x units
    m, n_labels, n_units = vec.shape
    by_label = {r["label"]: r for r in res.labels}
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]

    def sklearn_all() -> Dict[Tuple[int, int, int], float]:
        return {(i, j, k): float(cohen_kappa_score(vec[i, k], vec[j, k])) for k in range(n_labels) for i, j in pairs}

    def statsmodels_all() -> List[float]:
        return [float(fleiss_kappa(aggregate_raters(vec[:, k].T)[0], method="fleiss")) for k in range(n_labels)]

    def krippendorff_all() -> List[float]:
        return [float(krippendorff.alpha(reliability_data=vec[:, k], level_of_measurement="nominal"))
                for k in range(n_labels)]

    ts, sk = timed(sklearn_all, 1)
    cs = CPU["last"]
    tf, fl = timed(statsmodels_all, 1)
    cf = CPU["last"]
    tk, kr = timed(krippendorff_all, 1)
    ck = CPU["last"]
    sub = min(args.nltk_units, n_units)
    data = [(f"a{i}", u, int(vec[i, 0, u])) for i in range(m) for u in range(sub)]
    tn, nl = timed(lambda: (AnnotationTask(data).kappa(), AnnotationTask(data).alpha()), 1)
    scale = n_units / sub * n_labels

    # the same values, or no times
    names = ann.names
    for p in res.pairs:
        i, j = names.index(p["a"]), names.index(p["b"])
        for k, lab in enumerate(c.labels):
            assert abs(p["labels"][lab]["kappa"]["value"] - sk[(i, j, k)]) < 1e-9, (p["a"], p["b"], lab)
    for k, lab in enumerate(c.labels):
        assert abs(by_label[lab]["fleiss"]["value"] - fl[k]) < 1e-9, lab
        assert abs(by_label[lab]["alpha"]["value"] - kr[k]) < 1e-9, lab

    rows.append((f"sklearn cohen_kappa_score: {len(pairs)} pairs x {n_labels} labels", ts, cs, ""))
    rows.append((f"statsmodels fleiss_kappa: {n_labels} labels", tf, cf, ""))
    rows.append((f"krippendorff.alpha (nominal): {n_labels} labels", tk, ck, ""))
    rows.append((f"NLTK AnnotationTask kappa + alpha: {sub:,} units x 1 label", tn, CPU["last"],
                 f"x {scale:,.0f} to all units and labels: >= {tn * scale:,.0f} s"))
    print(f"units: {n_units:,} per label (TS units, separator weight 1); values checked equal "
          f"(kappa, Fleiss, alpha; NLTK's kappa {nl[0]:.4f}, alpha {nl[1]:.4f} on its part)")
    print(f"references together on the same vectors: {ts + tf + tk:.2f} s (Cohen's kappa, Fleiss, alpha per label "
          "only; no F1, no unitizing alpha, no per document, no intervals)")
    width = max(len(r[0]) for r in rows)
    print(f"  {'':<{width}}  {'wall':>8}    {'CPU':>8}")
    for name, secs, cpu, note in rows:
        print(f"  {name:<{width}}  {secs:8.2f} s  {cpu:8.2f} s  {note}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cpus = os.cpu_count() or 1
    for clock, a, b in (("wall", t, tb), ("CPU", rows[0][2], rows[1][2])):
        ok = a <= TARGETS["every figure"] and (args.resamples != 1000 or b <= TARGETS["1000 resamples"])
        print(f"targets {'met' if ok else 'NOT met'} in {clock} time", end="")
        print(f" (load average {load:.1f} on {cpus} cores: others' work stretches the wall clock)" if clock == "wall"
              and load > cpus else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
