"""Several systems (the paper's section 3): the pairwise diff matrix, the oracle upper bounds
(a token is right if any system tags it right; a gold span is found if any system finds it
exactly) next to the best single system, and the gold spans no system finds (hard cases)
and those every system finds (easy cases)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.arrays import unique
from ..core.corpus import Corpus, SpanSet
from ..core.matching import Pairs, match
from .results import MultiComparison
from .transitions import _ratio


def exact_hits(gold: SpanSet, system: SpanSet, pairs: Optional[Pairs] = None) -> Tuple[np.ndarray, int]:
    """(per gold span: found exactly?, system spans that are exact hits) from the matcher's pairs."""
    p = match(gold, system) if pairs is None else pairs
    hit = np.zeros(len(gold), bool)
    hit[p.gold[p.exact]] = True
    return hit, len(unique(p.system[p.exact]))


def pairwise(gold_ids: np.ndarray, ids: np.ndarray, names: Sequence[str]) -> Tuple[np.ndarray, List[Dict[str, Any]]]:
    """Diff matrix (k x k) and per pair: diff, overlap on all answers, on correct answers, Δ accuracy."""
    k, n = ids.shape
    mat = np.zeros((k, k))
    right = ids == gold_ids[None, :]
    acc = right.mean(axis=1) if n else np.zeros(k)
    rows = []
    for i in range(k):
        if i + 1 < k:
            nd = np.count_nonzero(ids[i + 1:] != ids[i], axis=1)
            d = nd / n if n else np.zeros(k - i - 1)
            mat[i, i + 1:] = d
            mat[i + 1:, i] = d
            both = np.count_nonzero(right[i + 1:] & right[i], axis=1)
            den = right[i + 1:].sum(axis=1) + right[i].sum()
            for j in range(i + 1, k):
                rows.append({"a": names[i], "b": names[j], "diff": float(mat[i, j]),
                             "overlap": _ratio(n - nd[j - i - 1], n),
                             "correct_overlap": _ratio(2 * both[j - i - 1], den[j - i - 1]),
                             "delta_accuracy": float(acc[j] - acc[i])})
    return mat, rows


def _oracle_rows(keys: np.ndarray, right: np.ndarray, names: Sequence[str], key_names: Sequence[str],
                 best: int) -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
    """All items (``micro``: the counts of every label summed) and per key (gold label): each system's
    score, the best single system's, the oracle's (any system right); ``gold`` counts the items."""
    k = right.shape[0]
    n = right.shape[1]
    any_right = right.any(axis=0)
    per_sys = right.sum(axis=1)
    micro: Dict[str, Any] = {"gold": int(n), "systems": {nm: _ratio(per_sys[i], n) for i, nm in enumerate(names)},
             "best_system": names[best], "best": _ratio(per_sys[best], n), "oracle": _ratio(any_right.sum(), n)}
    micro["gain"] = micro["oracle"] - micro["best"]
    K = len(key_names)
    tot = np.bincount(keys, minlength=K)
    sys_right = np.stack([np.bincount(keys[right[i]], minlength=K) for i in range(k)]) if k else np.zeros((0, K))
    orc = np.bincount(keys[any_right], minlength=K)
    rows = []
    for c in np.flatnonzero(tot > 0).tolist():
        t = int(tot[c])
        scores = sys_right[:, c] / t
        bl = int(np.argmax(scores))
        rows.append({"label": key_names[c], "gold": t,
                     "systems": {nm: float(scores[i]) for i, nm in enumerate(names)},
                     "best_system": names[best], "best": float(scores[best]),
                     "best_for_label_system": names[bl], "best_for_label": float(scores[bl]),
                     "oracle": _ratio(orc[c], t), "gain": _ratio(orc[c], t) - float(scores[best])})
    rows.sort(key=lambda r: (-r["gold"], r["label"]))
    return micro, rows


def _span_record(corpus: Corpus, k: int) -> Dict[str, Any]:
    """A gold span for the case lists: label, sentence, positions in it, line in the gold file, text."""
    g = corpus.gold
    st, en = int(g.start[k]), int(g.last[k])
    s = int(corpus.sentence_of(np.array([st]))[0])
    line = int(corpus.gold_info.token_lines[st]) if corpus.gold_info.token_lines is not None else None
    rec = {"index": k, "label": corpus.labels[int(g.label[k])], "sentence": s,
           "first": st - int(corpus.sent_offsets[s]), "last": en - int(corpus.sent_offsets[s]), "line": line,
           "text": " ".join(corpus.tokens(st, en + 1)) if corpus.tokens is not None else None}
    return rec


def several_systems(corpus: Corpus, names: List[str], gold_ids: np.ndarray, sys_ids: np.ndarray,
                    vocab: Sequence[str], hits: np.ndarray) -> MultiComparison:
    """The several-systems part: pairwise diffs and neighbours, token and span oracles, hard
    and easy gold spans (:func:`ts_eval.comparison.spans.systems_instead` adds what the
    systems found instead of the hard ones)."""
    mat, rows = pairwise(gold_ids, sys_ids, names)
    right = sys_ids == gold_ids[None, :]
    best_tok = int(np.argmax(right.sum(axis=1)))
    t_over, t_rows = _oracle_rows(gold_ids, right, names, vocab, best_tok)
    best_span = int(np.argmax(hits.sum(axis=1)))
    s_over, s_rows = _oracle_rows(corpus.gold.label.astype(np.int64), hits, names, corpus.labels, best_span)
    count = hits.sum(axis=0)
    k = len(names)
    L = len(corpus.labels)
    hard = np.flatnonzero(count == 0)
    easy = np.flatnonzero(count == k)
    hard_l = np.bincount(corpus.gold.label[hard], minlength=L)
    easy_l = np.bincount(corpus.gold.label[easy], minlength=L)
    for r in s_rows:
        lab = corpus.labels.index(r["label"])
        r["hard"], r["easy"] = int(hard_l[lab]), int(easy_l[lab])
    s_over["hard"], s_over["easy"] = len(hard), len(easy)
    t_over["measure"], s_over["measure"] = "token accuracy", "exact-match span recall"
    hard_records = [_span_record(corpus, int(i)) for i in hard.tolist()]
    neighbours = []
    for i, name in enumerate(names):
        d = np.delete(mat[i], i)
        others = [x for j, x in enumerate(names) if j != i]
        lo, hi = int(np.argmin(d)), int(np.argmax(d))
        neighbours.append({"system": name, "mean_diff": float(d.mean()), "nearest": others[lo],
                           "nearest_diff": float(d[lo]), "farthest": others[hi], "farthest_diff": float(d[hi])})
    return MultiComparison(names, mat.tolist(), rows, {"micro": t_over, "per_label": t_rows},
                           {"micro": s_over, "per_label": s_rows},
                           np.bincount(count, minlength=k + 1).tolist(),
                           hard_records,
                           [_span_record(corpus, int(i)) for i in easy.tolist()], neighbours)
