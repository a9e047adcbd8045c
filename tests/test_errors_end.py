"""The end of the error analysis made of arrays (issue 32): the per-document scores of every document at once, the
strings gold labels inconsistently grouped by their tokens' lower-cased ids, the unannotated strings verified as
arrays; each against the computation it replaced, written out here one item at a time."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from support import write

import ts_eval
from ts_eval.analysis import attributes as at
from ts_eval.analysis import errors_suspects
from ts_eval.analysis.errors import error_analysis
from ts_eval.analysis.errors_text import Texts
from ts_eval.core import measures
from ts_eval.core.sequences import from_spans


def _docs_file(tmp_path: Path) -> Path:
    """Three documents: the second with no gold span and no system span, the third with system spans only."""
    rows = ["-DOCSTART- O O", "", "Anna B-PER B-PER", "met O O", "Bob B-PER B-LOC", "", "-DOCSTART- O O", "",
            "nothing O O", "here O O", "", "-DOCSTART- O O", "", "Paris O B-LOC", "rain O O", ""]
    return write(tmp_path / "d.conll", "\n".join(rows) + "\n")


def test_the_documents_scores_are_those_of_each_document_on_its_own(tmp_path):
    corpus = ts_eval.io.read_conll(str(_docs_file(tmp_path)), gold_column=2, system_columns=[3], names=["a"])
    d = error_analysis(corpus).documents
    assert d.gold.tolist() == [2, 0, 0]
    cols = d.columns(0)
    for j in range(3):
        gold, system, g_hit, s_hit = (float(x) for x in d.exact[0, j])
        tp, fp, fn = (float(x) for x in d.ts[0, j])
        p, r, _ = measures.prf(tp, fp, fn)
        want = {"exact": {"tp": int(g_hit), "fp": int(system - s_hit), "fn": int(gold - g_hit), "gold": int(gold),
                          "system": int(system), "precision": float(measures.precision(s_hit, system - s_hit)),
                          "recall": float(measures.recall(g_hit, gold - g_hit)), "f": float(d.exact_f[0, j])},
                "ts": {"tp": tp, "fp": fp, "fn": fn, "precision": float(p), "recall": float(r),
                       "f": float(d.ts_f[0, j])}}
        got = {m: {c: v[j] for c, v in cols[m].items()} for m in ("exact", "ts")}
        assert got == want and [type(x) for x in got["exact"].values()] == [int] * 5 + [float] * 3
    assert cols["exact"]["precision"] == [0.5, 0.0, 0.0] and cols["exact"]["recall"] == [0.5, 0.0, 0.0]
    assert cols["exact"]["system"] == [2, 0, 1] and cols["ts"]["fp"][1] == 0.0


def _texts(corpus, words):
    distinct = sorted(set(words))
    return Texts(corpus, at.Tokens(np.array([distinct.index(w) for w in words], np.int32), distinct))


def _by_strings(corpus, words):
    """The strings gold labels differently, one span at a time: (how many; text, label counts, deviating of each,
    in the documented order)."""
    per = defaultdict(lambda: defaultdict(int))
    pos = {}
    gold = corpus.gold
    keys = [" ".join(words[a:b + 1]).lower() for a, b in zip(gold.start.tolist(), gold.last.tolist())]
    for key, lab in zip(keys, gold.label.tolist()):
        per[key][lab] += 1
    major = {k: min(v, key=lambda lab: (-v[lab], lab)) for k, v in per.items()}
    for key, a, lab in zip(keys, gold.start.tolist(), gold.label.tolist()):
        if lab != major[key]:
            pos[key] = min(pos.get(key, a), a)
    bad = [k for k, v in per.items() if len(v) > 1]
    dev = {k: sum(per[k].values()) - per[k][major[k]] for k in bad}
    bad.sort(key=lambda k: (-dev[k], -sum(per[k].values()), pos[k], k))
    return len(bad), [(k, {corpus.labels[lab]: n for lab, n in per[k].items()}, dev[k]) for k in bad]


@pytest.mark.parametrize("spaced", [False, True])
def test_strings_labelled_differently_are_grouped_as_their_lower_cased_strings(spaced):
    """By the tokens' lower-cased ids; and when a token holds a space (``a b`` + ``c`` and ``a`` + ``b c`` are one
    string), by the strings themselves; two spans at one token (nested) order by their strings."""
    words = (["New", "york", "x", "NEW", "York", "y", "new", "york", "a b", "c", "z", "a", "b c", "paris", "Paris"]
             if spaced else ["New", "york", "x", "NEW", "York", "y", "new", "york", "q", "c", "z", "a", "b", "paris",
                             "Paris"])
    gold = [[("LOC", 0, 2), ("ORG", 3, 5), ("LOC", 6, 8), ("PER", 8, 10), ("LOC", 11, 13), ("LOC", 13, 14),
             ("PER", 14, 15), ("ORG", 13, 15), ("LOC", 14, 15)]]
    corpus = from_spans([len(words)], gold, {"s": [[]]})
    n, got = errors_suspects.label_inconsistencies(corpus, _texts(corpus, words), None, 2)
    want = _by_strings(corpus, words)
    assert (n, [(x.text.lower(), x.labels, x.deviating) for x in got]) == want
    assert n == (3 if spaced else 2)


def _unannotated_one_at_a_time(corpus, words):
    """The unannotated strings, a gold span and a window at a time: (how many; per string in the documented
    order its text, gold spans and unannotated windows)."""
    gold, offsets = corpus.gold, corpus.sent_offsets.tolist()
    low = [w.lower() for w in words]
    covered = set()
    for a, b in zip(gold.start.tolist(), gold.last.tolist()):
        covered.update(range(a, b + 1))

    def context(a, b):
        s = max(k for k, o in enumerate(offsets) if o <= a)
        before = low[a - 1] if a > offsets[s] else -1
        after = low[b + 1] if b + 1 < offsets[s + 1] else -2
        return (before, *low[a:b + 1], after)

    spans = defaultdict(list)
    for i, (a, b) in enumerate(zip(gold.start.tolist(), gold.last.tolist())):
        spans[context(a, b)].append(i)
    starts = defaultdict(list)
    lengths = {int(b - a + 1) for a, b in zip(gold.start.tolist(), gold.last.tolist())}
    for s in range(len(offsets) - 1):
        for m in lengths:
            for a in range(offsets[s], offsets[s + 1] - m + 1):
                if not covered & set(range(a, a + m)) and context(a, a + m - 1) in spans:
                    starts[context(a, a + m - 1)].append(a)
    found = sorted(((len(starts[c]), len(spans[c]), min(starts[c]), c) for c in starts),
                   key=lambda f: (-f[0], -f[1], f[2], len(f[3])))
    return len(found), [(" ".join(words[a:a + len(c) - 2]), n_spans, n_starts) for n_starts, n_spans, a, c in found]


@pytest.mark.parametrize("seed", range(3))
def test_the_unannotated_strings_are_those_found_one_window_at_a_time(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    vocab = ["the", "New", "York", "new", "york", "in", "Paris", "."]
    lengths = [int(x) for x in rng.integers(1, 9, 40)]
    words = [vocab[int(k)] for k in rng.integers(0, len(vocab), sum(lengths))]
    gold, t = [], 0
    for n in lengths:
        spans, a = [], 0
        while a < n:
            m = int(rng.integers(1, 3))
            if a + m <= n and rng.random() < 0.3 and words[t + a] in ("New", "Paris", "new"):
                spans.append((["LOC", "ORG"][int(rng.integers(0, 2))], a, a + m))
                a += m
            else:
                a += 1
        gold.append(spans)
        t += n
    corpus = from_spans(lengths, gold, {"s": [[] for _ in lengths]})
    want = _unannotated_one_at_a_time(corpus, words)
    for piece in (1, 1 << 17):
        monkeypatch.setattr(errors_suspects, "UNANNOTATED_TOKENS", piece)
        n, got = errors_suspects.unannotated_inconsistencies(corpus, _texts(corpus, words), None, 2)
        assert (n, [(x.text, x.annotated, x.deviating) for x in got]) == want
    assert want[0] > 0
