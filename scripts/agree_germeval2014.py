#!/usr/bin/env python3
"""Three GermEval 2014 systems treated as annotators: ``ts_eval.agree``'s figures, and the reference
packages' on the same token-and-separator unit vectors.

The systems' outer-level IOB2 outputs (``systems/NAME.conll``: token, gold, system) are read with
the system column as the annotation; the figures are printed per label and overall, then each
per-label Cohen's kappa (every pair), Fleiss' kappa and Krippendorff's nominal alpha beside
``sklearn.metrics.cohen_kappa_score``, ``statsmodels``' ``fleiss_kappa`` and the ``krippendorff``
package on the vectors built independently in ``bench_agree.unit_vectors`` (the largest difference
is printed; the script fails above 1e-9).

    python scripts/agree_germeval2014.py --data ../shared/data/germeval2014
    python scripts/agree_germeval2014.py --data DIR --systems NAME NAME NAME --bootstrap 1000
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_agree import unit_vectors  # noqa: E402

import ts_eval  # noqa: E402
from ts_eval.agreement.api import annotations_of  # noqa: E402

SYSTEMS = ["maviccprp-germaner_germeval", "maviccprp-lstm_germeval", "maviccprp-spacy_germeval"]


def _fig(d: Any) -> str:
    out = f"{d['value']:.3f}"
    return out + (f" [{d['low']:.3f}, {d['high']:.3f}]" if "low" in d else "")


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--data", required=True, help="the germeval2014 data folder (with systems/)")
    ap.add_argument("--systems", nargs="+", default=SYSTEMS, help="system names in systems/ (default: 3)")
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args(argv)
    import krippendorff
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    paths = [str(Path(args.data) / "systems" / f"{name}.conll") for name in args.systems]
    ann = annotations_of(paths)
    t0 = time.perf_counter()
    res = ts_eval.agree(ann, bootstrap=args.bootstrap)
    took = time.perf_counter() - t0
    c = ann.corpus
    print(f"{ann.m} annotators ({', '.join(ann.names)}), {c.n_tokens:,} tokens, {c.n_sentences:,} sentences; "
          f"{args.bootstrap} resamples of sentences; {took:.2f} s")
    f = res.figures
    for key, title in (("fleiss", "Fleiss' kappa"), ("alpha", "Krippendorff's alpha"), ("alpha_u", "unitizing alpha"),
                       ("kappa", "Cohen's kappa (mean of pairs)"), ("f_exact", "F1 exact (mean of pairs)"),
                       ("f_overlap", "F1 overlap (mean of pairs)")):
        print(f"  {title:<30} " + "  ".join(f"{a} {_fig(v)}" for a, v in f[key].items()))
    print("pairs (lowest kappa first):")
    for p in res.pairs:
        print(f"  {p['a']} ~ {p['b']}: kappa {_fig(p['kappa']['micro'])}, F1 exact {_fig(p['f_exact']['micro'])}, "
              f"same spans {p['counts']['exact']} of {p['counts']['spans_a']} / {p['counts']['spans_b']}")
    print("labels (lowest alpha first):")
    for r in res.labels:
        spans = sum(r["spans"].values())
        print(f"  {r['label']:<4} alpha {_fig(r['alpha'])}  alpha_u {_fig(r['alpha_u'])}  spans {spans}")
    d = res.disagreements
    print(f"disagreements: {d['total']} ({', '.join(f'{k} {v}' for k, v in d['kinds'].items())})")

    vec = unit_vectors(ann)
    names = ann.names
    worst: List[float] = [0.0]
    print("references on the same TS unit vectors (ts_eval | reference):")
    for k, lab in enumerate(c.labels):
        row = next(r for r in res.labels if r["label"] == lab)
        fl = float(fleiss_kappa(aggregate_raters(vec[:, k].T)[0], method="fleiss"))
        kr = float(krippendorff.alpha(reliability_data=vec[:, k], level_of_measurement="nominal"))
        kappas = []
        for p in res.pairs:
            i, j = names.index(p["a"]), names.index(p["b"])
            ref = float(cohen_kappa_score(vec[i, k], vec[j, k]))
            kappas.append(f"{p['labels'][lab]['kappa']['value']:.6f}|{ref:.6f}")
            worst.append(abs(p["labels"][lab]["kappa"]["value"] - ref))
        worst += [abs(row["fleiss"]["value"] - fl), abs(row["alpha"]["value"] - kr)]
        print(f"  {lab:<4} Fleiss {row['fleiss']['value']:.6f}|{fl:.6f}  alpha {row['alpha']['value']:.6f}|{kr:.6f}  "
              f"Cohen {' '.join(kappas)}")
    print(f"largest difference: {max(worst):.2e}")
    return 0 if max(worst) <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
