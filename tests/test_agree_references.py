"""Agreement figures against reference implementations on the same unit vectors (#20.6).

The vectors are built here independently, one unit at a time: per sentence of n tokens the units
token 0, separator 0, token 1, ..., token n-1; a unit is positive for a label when a span of that
label covers it (a span covers its tokens and the separators between them).  Then:

- ``sklearn.metrics.cohen_kappa_score`` on two annotators' vectors of one label (separators
  weighted by ``sample_weight``) = ts_eval's pairwise kappa; on their label-set vectors = the
  multi-class kappa;
- statsmodels' ``fleiss_kappa`` on the (units x {0, 1}) counts table = Fleiss' kappa;
- the ``krippendorff`` package's nominal alpha on the (annotators x units) matrix with missing
  values (NaN where an annotator did not annotate the sentence) = Krippendorff's alpha.
"""
from __future__ import annotations

import krippendorff  # the reference packages come with the test extra (setup.cfg): no skipping
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater

from ts_eval.agreement.api import agree
from ts_eval.core.units import BITS

LABELS = ("A", "B", "C")


def random_annotations(rng: np.random.Generator, m: int, n_sent: int, nested: bool = False,
                       missing: float = 0.0):
    lengths = rng.integers(1, 9, n_sent).tolist()
    out = {}
    for k in range(m):
        sents = []
        for n in lengths:
            if missing and rng.random() < missing:
                sents.append(None)
                continue
            spans = set()
            for _ in range(int(rng.integers(0, 3))):
                b = int(rng.integers(0, n))
                e = int(rng.integers(b + 1, n + 1))
                spans.add((LABELS[int(rng.integers(0, 2 if not nested else 3))], b, e))
            if not nested:    # no overlap at all: keep a set of disjoint spans
                kept, reach = [], -1
                for sp in sorted(spans, key=lambda s: (s[1], s[2])):
                    if sp[1] > reach:
                        kept.append(sp)
                        reach = sp[2] - 1
                spans = set(kept)
            sents.append(sorted(spans))
        out[f"ann{k}"] = sents
    return out, lengths


def unit_vectors(ann, lengths, labels, separator_weight=1.0):
    """{name: (units x labels) 0/1 matrix, NaN rows where not annotated}, unit weights."""
    out = {}
    weights = []
    for n in lengths:
        for u in range(2 * n - 1):
            weights.append(1.0 if u % 2 == 0 else separator_weight)
    for name, sents in ann.items():
        rows = []
        for n, spans in zip(lengths, sents):
            for u in range(2 * n - 1):
                if spans is None:
                    rows.append([np.nan] * len(labels))
                    continue
                row = []
                for lab in labels:
                    covered = any(sp[0] == lab and 2 * sp[1] <= u <= 2 * (sp[2] - 1) for sp in spans)
                    row.append(1.0 if covered else 0.0)
                rows.append(row)
        out[name] = np.array(rows)
    return out, np.array(weights)


def used_labels(ann):
    return sorted({sp[0] for sents in ann.values() for spans in sents if spans for sp in spans})


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weight", [1.0, 0.5, 0.0])
def test_cohen_kappa_is_sklearns_on_the_same_unit_vectors(seed, weight):
    rng = np.random.default_rng(seed)
    ann, lengths = random_annotations(rng, 3, 40, nested=seed % 2 == 1)
    labels = used_labels(ann)
    vec, w = unit_vectors(ann, lengths, labels, weight)
    res = agree(ann, lengths=lengths, separator_weight=weight)
    keep = w > 0
    for pair in res.pairs:
        a, b = vec[pair["a"]], vec[pair["b"]]
        for k, lab in enumerate(labels):
            x, y = a[keep, k], b[keep, k]
            if len(set(x) | set(y)) < 2:
                continue          # sklearn's kappa is undefined (nan) for one class; ours is 1.0 there
            want = cohen_kappa_score(x, y, sample_weight=w[keep])
            assert pair["labels"][lab]["kappa"]["value"] == pytest.approx(want, abs=1e-12), (pair["a"], pair["b"], lab)
        # multi-class: every unit's set of labels is its category
        ca = [tuple(r) for r in a[keep]]
        cb = [tuple(r) for r in b[keep]]
        want = cohen_kappa_score([str(c) for c in ca], [str(c) for c in cb], sample_weight=w[keep])
        assert pair["kappa"]["multiclass"]["value"] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weight", [1.0, 0.0])
def test_fleiss_kappa_is_statsmodels_on_the_same_counts(seed, weight):
    rng = np.random.default_rng(10 + seed)
    m = 2 + seed
    ann, lengths = random_annotations(rng, m, 30, nested=True)
    labels = used_labels(ann)
    vec, w = unit_vectors(ann, lengths, labels, weight)
    res = agree(ann, lengths=lengths, separator_weight=weight)
    keep = w > 0
    stack = np.stack([vec[n][keep] for n in ann])            # annotators x units x labels
    by_label = {row["label"]: row for row in res.labels}
    for k, lab in enumerate(labels):
        ones = stack[:, :, k].sum(0)
        table = np.column_stack([m - ones, ones])
        want = inter_rater.fleiss_kappa(table, method="fleiss")
        assert by_label[lab]["fleiss"]["value"] == pytest.approx(want, abs=1e-12), lab
    # multi-class: counts per label set
    cats = sorted({str(tuple(r)) for n in ann for r in vec[n][keep]})
    table = np.zeros((int(keep.sum()), len(cats)))
    for n in ann:
        for u, r in enumerate(vec[n][keep]):
            table[u, cats.index(str(tuple(r)))] += 1
    want = inter_rater.fleiss_kappa(table, method="fleiss")
    assert res.figures["fleiss"]["multiclass"]["value"] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_krippendorff_alpha_is_the_krippendorff_packages_with_missing_values(seed):
    rng = np.random.default_rng(20 + seed)
    m = 3 + seed % 2
    ann, lengths = random_annotations(rng, m, 40, nested=seed % 2 == 0, missing=0.25)
    labels = used_labels(ann)
    vec, _ = unit_vectors(ann, lengths, labels, 1.0)
    res = agree(ann, lengths=lengths)
    by_label = {row["label"]: row for row in res.labels}
    for k, lab in enumerate(labels):
        data = np.stack([vec[n][:, k] for n in ann])        # annotators x units, NaN = missing
        pairable = (~np.isnan(data)).sum(0) >= 2
        if len(np.unique(data[:, pairable][~np.isnan(data[:, pairable])])) < 2:
            continue                                      # one value only: the package divides by zero
        want = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
        assert by_label[lab]["alpha"]["value"] == pytest.approx(want, abs=1e-10), lab
    cats = {}
    data = np.full((m, len(vec[next(iter(ann))])), np.nan)
    for i, n in enumerate(ann):
        for u, r in enumerate(vec[n]):
            if not np.isnan(r).any():
                data[i, u] = cats.setdefault(str(tuple(r)), len(cats))
    want = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert res.figures["alpha"]["multiclass"]["value"] == pytest.approx(want, abs=1e-10)


@pytest.mark.slow
def test_multiclass_figures_with_more_labels_than_one_bitmask_holds():
    """70 labels: a unit's label set no longer fits one integer mask (categories are rows of masks);
    the multi-class kappa, Fleiss and alpha are still sklearn's, statsmodels' and krippendorff's."""
    rng = np.random.default_rng(7)
    labels = [f"L{k:02d}" for k in range(70)]
    lengths = rng.integers(2, 8, 60).tolist()
    ann = {}
    for name in ("p", "q", "r"):
        sents = []
        for n in lengths:
            spans = {(labels[int(rng.integers(0, 70))], b, b + 1) for b in range(n) if rng.random() < 0.4}
            if rng.random() < 0.3:
                spans.add((labels[int(rng.integers(0, 70))], 0, n))        # nested: label sets of two
            sents.append(sorted(spans))
        ann[name] = sents
    used = used_labels(ann)
    assert len(used) > 2 * BITS            # three passes of label masks
    vec, w = unit_vectors(ann, lengths, used, 0.0)
    res = agree(ann, lengths=lengths, separator_weight=0)
    keep = w > 0
    cats = {n: [str(tuple(r)) for r in vec[n][keep]] for n in ann}
    for pair in res.pairs:
        want = cohen_kappa_score(cats[pair["a"]], cats[pair["b"]])
        assert pair["kappa"]["multiclass"]["value"] == pytest.approx(want, abs=1e-12)
    names = sorted({c for v in cats.values() for c in v})
    table = np.zeros((int(keep.sum()), len(names)))
    for v in cats.values():
        for u, c in enumerate(v):
            table[u, names.index(c)] += 1
    assert res.figures["fleiss"]["multiclass"]["value"] == pytest.approx(
        inter_rater.fleiss_kappa(table, method="fleiss"), abs=1e-12)
    data = np.array([[names.index(c) for c in cats[n]] for n in ann], float)
    assert res.figures["alpha"]["multiclass"]["value"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"), abs=1e-10)
