"""The training attributes' counts (``--train``): each span's string looked up in the training entities, read per
distinct string (issue 32.4: one dictionary look-up and one row per distinct string, not one per span)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from ts_eval.analysis.attributes import Text, _count_rows, training_from
from ts_eval.io import read_conll


def test_training_counts_per_span_by_hand():
    # training: "paris" LOC twice and PER once; "acme" ORG once; MISC is no training label
    tokens = ["Paris", "is", "paris", "Acme", "PARIS"]
    training = training_from(tokens, np.array([0, 2, 3, 4]), np.array([0, 2, 3, 4]), np.array([0, 0, 1, 2]),
                             ["LOC", "ORG", "PER"])
    path = Path(tempfile.mkdtemp()) / "t.conll"
    path.write_text("Paris B-LOC B-LOC\nAcme B-MISC B-MISC\nnew B-LOC B-LOC\nparis B-PER B-PER\n", encoding="utf-8")
    corpus = read_conll(str(path), gold_column=2, system_columns=[3], names=["s"])
    gold = corpus.gold                      # Paris LOC, Acme MISC, new LOC, paris PER
    total, same = _count_rows(training, Text(corpus), gold)
    assert [corpus.labels[k] for k in gold.label.tolist()] == ["LOC", "MISC", "LOC", "PER"]
    assert total.tolist() == [3.0, 1.0, 0.0, 3.0]
    assert same.tolist() == [2.0, 0.0, 0.0, 1.0]          # MISC: not a training label; "new": not a training entity
    assert total.dtype == same.dtype == np.float64
