"""Round trips of the real data through every writable format (#12.7).

For CoNLL-2003 English (gold + the 28 systems) and GermEval 2014 (outer-level IOB2 files,
and both levels of the 6-column files via the GermEval reader), every input is converted
to every format that can hold its spans, read back (same documents, tokens and spans?), and
scored: ``evaluate()`` (TS, exact, overlap, contain, fair) of the systems against gold must be
identical whichever format gold and systems come in.  Prints counts and the first difference.

    python scripts/convert_roundtrip.py [--data ../shared/data] [--quick]
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import ts_eval
from ts_eval.io.convert import convert
from ts_eval.io.germeval import read_germeval_side
from ts_eval.io.writing import same_spans

MODELS = ("ts", "exact", "overlap", "contain", "fair")
FLAT = [("columns", "IOB2"), ("columns", "IOB1"), ("columns", "IOE1"), ("columns", "IOE2"), ("columns", "IOBES"),
        ("columns", "BILOU"), ("jsonl-tokens", None), ("jsonl-text", None), ("brat", None)]
NESTED = [f for f in FLAT if f[0] != "columns"]
EXT = {"columns": ".conll.gz", "jsonl-tokens": ".jsonl", "jsonl-text": ".jsonl.xz", "brat": ""}


def scores(gold, systems) -> dict:
    rep = ts_eval.score(ts_eval.read(gold, systems), models=MODELS)
    return {s["name"]: {k: v for k, v in s.items() if k != "source"} for s in rep.systems}


def first_diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            d = first_diff(a.get(k), b.get(k), f"{path}/{k}")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def run(name: str, gold, systems: dict, formats, tmp: str) -> int:
    """Convert gold and systems to each format, check round trips and scores; returns failures."""
    t0 = time.time()
    base = scores(gold, systems)
    n_spans = len(gold.start) + sum(len(s.start) for s in systems.values())
    print(f"{name}: gold {gold.summary()['spans']} spans ({gold.summary()['nested']} nested, "
          f"{gold.summary()['crossing']} crossing), {len(systems)} systems, {n_spans} spans in all")
    bad = 0
    for fmt, scheme in formats:
        label = fmt + (f"/{scheme}" if scheme else "")
        out = {}
        same = 0
        for key, docs in [("gold", gold)] + list(systems.items()):
            dst = os.path.join(tmp, f"{name}-{label.replace('/', '-')}-{key}{EXT[fmt]}")
            rep = convert(docs, dst, to_format=fmt, scheme=scheme or "IOB2")
            back = ts_eval.read(dst, format=fmt, **({"scheme": scheme} if fmt == "columns" else {}))
            diff = same_spans(docs, back)
            if diff or not rep.lossless:
                bad += 1
                print(f"  {label} {key}: NOT the same spans: {diff}")
            else:
                same += 1
            out[key] = back
        got = scores(out.pop("gold"), out)
        mixed = scores(gold, out)  # systems in this format, gold as read originally
        d = first_diff(base, got) or first_diff(base, mixed)
        bad += bool(d)
        print(f"  {label:14s} {same}/{len(systems) + 1} files the same spans; scores "
              f"{'identical' if not d else 'DIFFER: ' + d} ({len(systems)} systems x {len(MODELS)} models)")
    print(f"  ({time.time() - t0:.1f} s)")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    ap.add_argument("--quick", action="store_true", help="three systems per data set")
    args = ap.parse_args()
    data = args.data
    if not os.path.isdir(data):
        ap.error(f"--data {data}: no such folder (the shared reference data: conll2003-en/, germeval2014/)")
    cut = 3 if args.quick else None
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        conll = os.path.join(data, "conll2003-en")
        gold = ts_eval.read(os.path.join(conll, "gold.iob2"))
        systems = {os.path.basename(p)[:-6]: ts_eval.read(p)
                   for p in sorted(glob.glob(os.path.join(conll, "systems", "*.conll")))[:cut]}
        bad += run("conll2003", gold, systems, FLAT, tmp)

        ge = os.path.join(data, "germeval2014")
        gold = ts_eval.read(os.path.join(ge, "gold.iob2"), column=2)  # TOKEN OUTER INNER
        systems = {os.path.basename(p)[:-6]: ts_eval.read(p)
                   for p in sorted(glob.glob(os.path.join(ge, "systems", "*.conll")))[:cut]}
        bad += run("germeval-outer", gold, systems, FLAT, tmp)

        six = sorted(glob.glob(os.path.join(ge, "systems-6col", "*.tsv")))[:cut]
        gold = read_germeval_side(six[0], "gold")
        systems = {os.path.basename(p)[:-4]: read_germeval_side(p, "system") for p in six}
        for p in six[1:]:
            assert same_spans(gold, read_germeval_side(p, "gold")) is None, p
        merged = {k: v.notes["merged_levels"] for k, v in systems.items() if v.notes["merged_levels"]}
        print(f"germeval both levels: spans that are both the outer and the inner chunk, kept once: {merged}")
        bad += run("germeval-nested", gold, systems, NESTED, tmp)
        try:
            convert(gold, os.path.join(tmp, "nested.conll"), to_format="columns")
        except ts_eval.InputError as err:
            print(f"  columns refuse nested gold: {err}")
        rep = convert(gold, os.path.join(tmp, "nested.conll"), to_format="columns", overlapping="outermost")
        print(f"  columns with overlapping=outermost: {rep.written} of {rep.spans} gold spans written, "
              f"{rep.dropped} dropped")
    print("all round trips and scores identical" if not bad else f"{bad} FAILURES")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
