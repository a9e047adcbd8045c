#!/usr/bin/env python3
"""Reproduce the English part of Esuli & Sebastiani (2010), Table 2, then rank all 28 systems.

Part 1 re-ranks the 16 CoNLL-2003 shared-task submissions (``task2003-*.conll``) under
segment exact-match F1 micro (the official score), TS-F1 macro and T-F1 macro, prints
the rank rows and three-decimal values in the paper's layout next to the paper's own,
lists every difference with its size and the reason found, and the English Spearman
correlations.  Part 2 runs the same study over all 28 system outputs with the default
models, paired bootstrap intervals (1000 resamples over sentences) and permutation
tests, and prints timings (including the 16-system x default-models acceptance run).

    python scripts/rank_conll2003.py [--data ../shared/data/conll2003-en] [--resamples 1000]

The data are read from the shared data folder at run time; the CoNLL-2003 text is never
copied anywhere (only numbers and system names are printed).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np

from ts_eval.core.matching import match
from ts_eval.io import read_conll_pair
from ts_eval.output.builders import build
from ts_eval.output.renderers import render
from ts_eval.ranking import statistics, sufficient
from ts_eval.ranking import study as ranking

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "conll2003-en"

# Esuli & Sebastiani (2010), Table 2, ENGLISH: for each position of a model's ranking, the
# original (official, Seg-F1 micro) rank of the system there; then each model's values in
# its own order.
PAPER_ROWS = {
    "exact-f1-micro": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
    "ts-f1-macro": [1, 2, 3, 4, 11, 8, 6, 5, 10, 7, 9, 14, 15, 13, 12, 16],
    "t-f1-macro": [1, 2, 3, 4, 11, 6, 8, 5, 7, 10, 9, 14, 15, 12, 13, 16],
}
PAPER_VALUES = {
    "exact-f1-micro": [.888, .883, .861, .855, .850, .849, .847, .843, .840, .839, .825, .817, .798, .782, .770, .602],
    "ts-f1-macro": [.875, .874, .857, .853, .848, .845, .842, .840, .835, .833, .819, .817, .813, .809, .808, .671],
    "t-f1-macro": [.885, .880, .865, .863, .857, .855, .853, .848, .847, .846, .833, .824, .822, .821, .815, .699],
}
# Table 2's German and Spanish rows (for the check of Table 3 only; no such data here)
PAPER_OTHER = {
    "German": {"ts-f1-macro": [1, 9, 3, 2, 4, 7, 6, 5, 8, 11, 10, 13, 12, 14, 15, 16],
               "t-f1-macro": [1, 9, 3, 2, 4, 7, 6, 5, 8, 11, 10, 13, 12, 14, 15, 16]},
    "Spanish": {"ts-f1-macro": [1, 2, 4, 5, 6, 7, 10, 9, 8, 3, 12, 11],
                "t-f1-macro": [1, 2, 4, 5, 6, 7, 10, 9, 8, 3, 12, 11]},
}
PAPER_TABLE3 = {("exact-f1-micro", "ts-f1-macro"): .832, ("exact-f1-micro", "t-f1-macro"): .832,
                ("ts-f1-macro", "t-f1-macro"): .990}
TITLES = {"exact-f1-micro": "Seg-F1µ", "ts-f1-macro": "TS-F1M", "t-f1-macro": "T-F1M"}


def fmt3(v: float) -> str:
    return f"{v:.3f}"[1:]


def half_up(x: Decimal, places: str) -> Decimal:
    return x.quantize(Decimal(places), rounding=ROUND_HALF_UP)


def ranks_from_row(row: Sequence[int]) -> np.ndarray:
    """Rank of system k (its original rank k) in a ranking given as the row of original ranks by position."""
    out = np.empty(len(row))
    out[np.asarray(row) - 1] = np.arange(1, len(row) + 1)
    return out


def section(title: str) -> None:
    print()
    print("=" * len(title))
    print(title)
    print("=" * len(title))


def read(data: Path, pattern: str, strip: bool = True):
    files = sorted((data / "systems").glob(pattern))
    names = [f.stem.replace("task2003-", "") if strip else f.stem for f in files]
    return read_conll_pair(str(data / "gold.iob2"), [str(f) for f in files], names=names)


def close_match_stats(corpus, a: str, b: str) -> Dict[str, tuple]:
    """The quantities the paper's text compares for the 11th and the 5th participant."""
    out = {}
    for name in (a, b):
        p = match(corpus.gold, corpus.systems[name])
        same = p.same_label
        exact = int(p.exact.sum())
        close = int((same & (p.gold_only + p.system_only == 1)).sum())   # one boundary one token off
        missed = len(corpus.gold) - len(np.unique(p.gold[same]))      # no same-label overlap at all
        bounds = int(((p.gold_only == 0) & (p.system_only == 0)).sum())  # exact boundaries, any label
        out[name] = (exact, close, missed, bounds)
    return out


def part1(data: Path) -> ranking.RankingResult:
    section("Part 1. Esuli & Sebastiani (2010), Table 2, English: the 16 CoNLL-2003 submissions")
    t0 = time.perf_counter()
    corpus = read(data, "task2003-*.conll")
    t_read = time.perf_counter() - t0
    res = ranking.rank_corpus(corpus, models=list(sufficient.PAPER_MODELS), bootstrap=0, permutations=0)
    print(f"{len(res.systems)} systems, {corpus.n_tokens} tokens, {corpus.n_sentences} sentences, "
          f"labels {', '.join(corpus.labels)}; read in {t_read:.2f} s, scored in "
          f"{sum(res.timings.values()):.2f} s")
    official = res.ranks[:, res.reference_index].astype(int)          # official rank = exact F1 micro rank
    by_rank = {int(r): res.systems[i] for i, r in enumerate(official)}
    print("\nOfficial ranks (conlleval F1, identical to the published CoNLL-2003 results):")
    print("  " + ", ".join(f"{r} {by_rank[r]}" for r in range(1, 17)))

    print("\nTable 2 layout: each cell is the original rank of the system at that position.")
    print("          " + " ".join(f"{p:>5}" for p in range(1, 17)))
    ours_rows, ours_vals = {}, {}
    for k, m in enumerate(res.models):
        order = res.order[k]
        ours_rows[m] = [int(official[i]) for i in order]
        ours_vals[m] = [res.scores[i, k] for i in order]
        print(f"{TITLES[m]:8}  " + " ".join(f"{x:>5}" for x in ours_rows[m]) + "   ours")
        print(f"{'':8}  " + " ".join(f"{x:>5}" for x in PAPER_ROWS[m]) + "   paper")
    print()
    for m in res.models:
        print(f"{TITLES[m]:8}  " + " ".join(f"{fmt3(v):>5}" for v in ours_vals[m]) + "   ours")
        print(f"{'':8}  " + " ".join(f"{fmt3(v):>5}" for v in PAPER_VALUES[m]) + "   paper")

    print("\nPer system (values to 3 decimals; 'paper' = the value the paper prints for the system it "
          "labels with this original rank):")
    head = f"  {'rank':>4} {'system':12} " + " ".join(
        f"{TITLES[m] + ' ours':>12} {'paper':>6} {'rank':>4} {'paper':>5}" for m in res.models)
    print(head)
    for r in range(1, 17):
        i = res.systems.index(by_rank[r])
        cells = []
        for k, m in enumerate(res.models):
            pos_paper = PAPER_ROWS[m].index(r)
            cells.append(f"{res.scores[i, k]:>12.5f} {fmt3(PAPER_VALUES[m][pos_paper]):>6} "
                         f"{int(res.ranks[i, k]):>4} {pos_paper + 1:>5}")
        print(f"  {r:>4} {by_rank[r]:12} " + " ".join(cells))

    # ---- differences
    print("\nDifferences from the paper:")
    n_diff = 0
    for k, m in enumerate(res.models):
        for pos, (ours, theirs) in enumerate(zip(ours_rows[m], PAPER_ROWS[m])):
            if ours != theirs:
                n_diff += 1
                print(f"  - {TITLES[m]} ranking, position {pos + 1}: we have the system of original rank "
                      f"{ours} ({by_rank[ours]}), the paper {theirs} ({by_rank[theirs]})")
        for pos, (ours, theirs) in enumerate(zip(ours_vals[m], PAPER_VALUES[m])):
            if fmt3(ours) != fmt3(theirs):
                n_diff += 1
                sys_here = res.systems[res.order[k][pos]]
                print(f"  - {TITLES[m]} value, position {pos + 1} ({sys_here}): ours {ours:.5f} -> {fmt3(ours)}, "
                      f"paper {fmt3(theirs)} (difference {ours - theirs:+.4f})")
                if m == "exact-f1-micro":
                    official2 = half_up(Decimal(f"{float(ours) * 100:.10f}"), "0.01")   # the published F1
                    again = half_up(official2 / 100, "0.001")
                    if float(again) == theirs:
                        print(f"      reason: the paper rounded the published two-decimal score {official2} "
                              f"again (half up: {official2 / 100} -> {again}); rounding the exact value "
                              f"{ours:.5f} gives {fmt3(ours)}")
                    else:
                        print(f"      reason: a misprint: the published score is {official2} (-> "
                              f"{fmt3(float(official2) / 100)}), the paper prints {fmt3(theirs)}; the "
                              "ranking row is unaffected")
    if n_diff == 0:
        print("  none")

    # the swap hypothesis: exchange the labels of two systems and compare again
    swapped = []
    for a in range(1, 17):
        for b in range(a + 1, 17):
            ok = all([{a: b, b: a}.get(x, x) for x in ours_rows[m]] == PAPER_ROWS[m]
                     for m in res.models if m != res.reference)
            if ok:
                swapped.append((a, b))
    vals_equal = all(sorted(fmt3(v) for v in ours_vals[m]) == sorted(fmt3(v) for v in PAPER_VALUES[m])
                     and [fmt3(v) for v in ours_vals[m]] == [fmt3(v) for v in PAPER_VALUES[m]]
                     for m in ("ts-f1-macro", "t-f1-macro"))
    if swapped:
        a, b = swapped[0]
        na, nb = by_rank[a], by_rank[b]
        ia, ib = res.systems.index(na), res.systems.index(nb)
        print(f"\n  Reason for the ranking differences: exchanging the labels of original ranks {a} ({na}) and "
              f"{b} ({nb}) turns every one of our TS-F1M and T-F1M rank rows into the paper's, position for "
              "position, and "
              + ("all 32 TS-F1M and T-F1M values agree with the paper's to three decimals. So the paper computed "
                 "the same numbers from the same outputs and attached the two Carreras et al. systems' original "
                 "ranks the other way round in Table 2."
                 if vals_equal else "(but some values differ, see above)."))
        for k, m in enumerate(res.models):
            print(f"    {TITLES[m]}: {na} (official {a}) {res.scores[ia, k]:.5f}, {nb} (official {b}) "
                  f"{res.scores[ib, k]:.5f}")
        cs = close_match_stats(corpus, "munro", na)
        cs_b = close_match_stats(corpus, "munro", nb)
        (ex_m, cl_m, mi_m, bo_m), (ex_a, cl_a, mi_a, bo_a), (ex_b, cl_b, mi_b, _) = cs["munro"], cs[na], cs_b[nb]
        print("    Which of the two files is the paper's '5th participant'? Its text compares the 11th "
              "(munro) with the 5th: '2.3% fewer exact matches', '157.6% more close matches (accurate "
              "modulo a single token)', '6.9% fewer totally missed segments'. On our files:")
        for label, (ex, cl, mi) in ((f"{na} (official 85.00)", (ex_a, cl_a, mi_a)),
                                    (f"{nb} (official 84.30)", (ex_b, cl_b, mi_b))):
            print(f"      munro vs {label}: exact matches {ex_m} vs {ex} ({100 * (ex_m / ex - 1):+.1f}%), "
                  f"close matches {cl_m} vs {cl} ({100 * (cl_m / cl - 1):+.1f}%), missed {mi_m} vs {mi} "
                  f"({100 * (mi_m / mi - 1):+.1f}%)")
        more, fewer = 100 * (cl_m / cl_a - 1), 100 * (1 - mi_m / mi_a)
        print(f"    The close-match and missed figures reproduce for {na} ({more:.2f}% and {fewer:.2f}%; the paper "
              "truncates to one decimal: 157.6 and 6.9), not for the other file, so the text analysed the "
              f"official 5th system ({na}) as we do; only Table 2's labels 5 and 8 are exchanged (which also "
              "makes the text say that the 5th participant is demoted by 3 places). The exact-match figure "
              "(2.3% fewer) does not reproduce under the readings we tried (same label: "
              f"{100 * (1 - ex_m / ex_a):.1f}% fewer; same boundaries, any label: {100 * (1 - bo_m / bo_a):.1f}% "
              "fewer). Definitions used: "
              "'close match' = same label, one boundary one token off; 'missed' = no overlapping span of the "
              "same label.")
    # ---- Spearman
    print("\nEnglish rank correlations (Spearman: the paper's formula, no ties occur; Kendall tau-b):")
    paper_ranks = {m: ranks_from_row(PAPER_ROWS[m]) for m in res.models}
    print(f"  {'pair':22} {'ours':>7} {'paper rows':>10} {'ours, 5<->8':>11} {'Kendall ours':>12}")
    spearman_notes = []
    for a in range(3):
        for b in range(a + 1, 3):
            ma, mb = res.models[a], res.models[b]
            ours = res.spearman[a, b]
            paper = statistics.spearman_formula(paper_ranks[ma], paper_ranks[mb])
            if swapped:
                x, y = swapped[0]
                swap = {x: y, y: x}
                # relabel the two systems in the non-reference rows (the reference row is 1..16 by definition)
                ra = ranks_from_row([v if ma == res.reference else swap.get(v, v) for v in ours_rows[ma]])
                rb = ranks_from_row([v if mb == res.reference else swap.get(v, v) for v in ours_rows[mb]])
                sw = statistics.spearman_formula(ra, rb)
            else:
                sw = float("nan")
            print(f"  {TITLES[ma] + ' / ' + TITLES[mb]:22} {ours:7.3f} {paper:10.3f} {sw:11.3f} "
                  f"{res.kendall[a, b]:12.3f}")
            pair = f"{TITLES[ma]} / {TITLES[mb]}"
            if fmt3(ours) == fmt3(paper):
                spearman_notes.append(f"  {pair}: same as the paper's rows ({fmt3(ours)}).")
            else:
                why = ("entirely from the exchanged labels (with them exchanged we get the paper's value)"
                       if fmt3(sw) == fmt3(paper) else "not explained by the exchanged labels")
                spearman_notes.append(f"  {pair}: ours {fmt3(ours)} vs {fmt3(paper)} from the paper's rows "
                                      f"({ours - paper:+.3f}), {why}.")
    print("  ('paper rows': the formula applied to the rank rows printed in Table 2; the paper prints no "
          "English-only correlations. 'ours, 5<->8': our rows with the two Carreras labels exchanged.)")
    for line in spearman_notes:
        print(line)

    # ---- Table 3
    print("\nTable 3 (averages over English, German, Spanish) cannot be recomputed here (no German or Spanish "
          "data), but the paper's own Table 2 rows give, with its formula:")
    per_lang = {"English": {m: paper_ranks[m] for m in res.models}}
    for lang, rows in PAPER_OTHER.items():
        p = len(rows["ts-f1-macro"])
        per_lang[lang] = {"exact-f1-micro": np.arange(1, p + 1, dtype=float),
                          **{m: ranks_from_row(r) for m, r in rows.items()}}
    for (ma, mb), printed in PAPER_TABLE3.items():
        vals = [statistics.spearman_formula(per_lang[lang][ma], per_lang[lang][mb]) for lang in per_lang]
        print(f"  {TITLES[ma] + ' / ' + TITLES[mb]:18} " + ", ".join(f"{lang} {v:.3f}" for lang, v in
                                                                      zip(per_lang, vals))
              + f"; mean {np.mean(vals):.3f}, Table 3 prints {printed:.3f}")
    print("  So Table 3 is not the mean of the formula over Table 2's rows (e.g. TS/T is 1.0 for German and "
          "Spanish, whose TS and T rows are identical, so the mean cannot be .990 with English at .991); "
          "we cannot tell how it was computed.")
    return res


def part2(data: Path, resamples: int, permutations: int) -> None:
    section(f"Part 2. All 28 systems, default models, {resamples} paired bootstrap resamples over sentences")
    t0 = time.perf_counter()
    corpus = read(data, "*.conll", strip=False)
    t_read = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = ranking.rank_corpus(corpus, bootstrap=resamples, permutations=permutations, seed=0)
    t_all = time.perf_counter() - t0
    print(render(build(res), "table", width=250, details=True))   # every table of the ranking
    print(f"Timings (28 systems x {len(res.models)} models, {corpus.n_sentences} sentences): read {t_read:.2f} s; "
          + "; ".join(f"{k} {v:.2f} s" for k, v in res.timings.items()) + f"; total {t_all:.2f} s")
    doc = ranking.rank_corpus(corpus, bootstrap=resamples, permutations=0, seed=0, unit="document",
                              models=["exact-f1-micro", "ts-f1-macro"])
    w_s = res.bootstrap.score_high[:, 0] - res.bootstrap.score_low[:, 0]
    w_d = doc.bootstrap.score_high[:, 0] - doc.bootstrap.score_low[:, 0]
    print(f"Resampling unit: median 95% interval width of Seg-F1µ is {100 * np.median(w_s):.2f} points over "
          f"sentences and {100 * np.median(w_d):.2f} over the {doc.bootstrap.units} documents (--unit document; "
          "sentences of one document are not independent, so the document intervals are the safer ones).")


def acceptance_timing(data: Path, resamples: int) -> None:
    section("Acceptance timing: 16 systems x default models, 1000 resamples + 1000 permutations, CoNLL-2003 test")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    t0 = time.perf_counter()
    corpus = read(data, "task2003-*.conll")
    t_read = time.perf_counter() - t0
    res = ranking.rank_corpus(corpus, bootstrap=resamples, permutations=resamples, seed=0)
    total = t_read + sum(res.timings.values())
    print(f"{cores} cores available; models: {', '.join(res.models)}")
    print(f"read {t_read:.2f} s; " + "; ".join(f"{k} {v:.2f} s" for k, v in res.timings.items())
          + f"; total {total:.2f} s (target: < 30 s)")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA), help=f"the conll2003-en folder (default {DEFAULT_DATA})")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--permutations", type=int, default=1000)
    args = ap.parse_args(argv)
    data = Path(args.data)
    if not (data / "gold.iob2").exists():
        print(f"no gold.iob2 in {data}; give --data", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    missing = [m for m in sufficient.DEFAULT_MODELS if m not in sufficient.REGISTRY]
    if missing:
        print("models left out (modules missing): " + "; ".join(f"{m}: {sufficient.UNAVAILABLE.get(m, '?')}"
                                                              for m in missing))
    part1(data)
    part2(data, args.resamples, args.permutations)
    acceptance_timing(data, args.resamples)
    print(f"\nwhole script: {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
