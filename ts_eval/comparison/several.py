"""Several systems (the paper's section 3): the pairwise diff matrix, the oracle upper bounds
(a token is right if any system tags it right; a gold span is found if any system finds it
exactly) next to the best single system, and the gold spans no system finds (hard cases)
and those every system finds (easy cases)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple

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
    right = ids == gold_ids[None, :]
    differ, both = pair_counts(ids, right)
    return pairwise_of(differ, both, right.sum(axis=1), ids.shape[1], names)


def pair_counts(ids: np.ndarray, right: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(k x k) positions where two systems differ, and where both are right."""
    k = ids.shape[0]
    differ, both = np.zeros((k, k), np.int64), np.zeros((k, k), np.int64)
    for i in range(k - 1):
        differ[i, i + 1:] = np.count_nonzero(ids[i + 1:] != ids[i], axis=1)
        both[i, i + 1:] = np.count_nonzero(right[i + 1:] & right[i], axis=1)
    return differ, both


def pairwise_of(differ: np.ndarray, both: np.ndarray, right: np.ndarray, n: int,
                names: Sequence[str]) -> Tuple[np.ndarray, List[Dict[str, Any]]]:
    """:func:`pairwise` from the counts of :func:`pair_counts` and each system's right positions, of ``n``."""
    k = len(names)
    mat = np.zeros((k, k))
    acc = right / n if n else np.zeros(k)
    rows = []
    for i in range(k):
        if i + 1 < k:
            nd = differ[i, i + 1:]
            d = nd / n if n else np.zeros(k - i - 1)
            mat[i, i + 1:] = d
            mat[i + 1:, i] = d
            den = right[i + 1:] + right[i]
            for j in range(i + 1, k):
                rows.append({"a": names[i], "b": names[j], "diff": float(mat[i, j]),
                             "overlap": _ratio(n - nd[j - i - 1], n),
                             "correct_overlap": _ratio(2 * both[i, j], den[j - i - 1]),
                             "delta_accuracy": float(acc[j] - acc[i])})
    return mat, rows


@dataclass
class OracleCounts:
    """Items (tokens, gold spans) per key (their gold label): all of them, those some system gets right,
    and those each system gets right (summed over blocks by the key's name)."""

    systems: int
    per_key: Dict[Hashable, np.ndarray] = field(default_factory=dict)   # key -> [items, any right, system...]

    def add(self, keys: Sequence[Hashable], items: np.ndarray, right: np.ndarray) -> None:
        """``items``: ids into ``keys``; ``right``: systems x items."""
        K = len(keys)
        table = np.stack([np.bincount(items, minlength=K), np.bincount(items[right.any(axis=0)], minlength=K),
                          *(np.bincount(items[r], minlength=K) for r in right)], axis=1)
        for c in np.flatnonzero(table[:, 0]).tolist():
            row = self.per_key.get(keys[c])
            self.per_key[keys[c]] = table[c] if row is None else row + table[c]

    def rows(self, names: Sequence[str], key_name: Callable[[Hashable], str], best: int,
             per_sys: np.ndarray, n: int) -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
        """All items (``micro``: the counts of every label summed) and per key (gold label): each system's
        score, the best single system's, the oracle's (any system right); ``gold`` counts the items."""
        any_right = sum(int(r[1]) for r in self.per_key.values())
        micro: Dict[str, Any] = {"gold": int(n), "systems": {nm: _ratio(per_sys[i], n) for i, nm in enumerate(names)},
                                 "best_system": names[best], "best": _ratio(per_sys[best], n),
                                 "oracle": _ratio(any_right, n)}
        micro["gain"] = micro["oracle"] - micro["best"]
        rows: List[Dict[str, Any]] = []
        for key, row in self.per_key.items():
            t = int(row[0])
            scores = row[2:] / t
            bl = int(np.argmax(scores))
            rows.append({"label": key_name(key), "gold": t,
                         "systems": {nm: float(scores[i]) for i, nm in enumerate(names)},
                         "best_system": names[best], "best": float(scores[best]),
                         "best_for_label_system": names[bl], "best_for_label": float(scores[bl]),
                         "oracle": _ratio(row[1], t), "gain": _ratio(row[1], t) - float(scores[best])})
        rows.sort(key=lambda r: (-r["gold"], r["label"]))
        return micro, rows


def _span_record(corpus: Corpus, k: int, at: Tuple[int, int] = (0, 0)) -> Dict[str, Any]:
    """A gold span for the case lists: label, sentence, positions in it, line in the gold file, text
    (``at``: the gold spans and sentences before the corpus, a block of a larger one)."""
    g = corpus.gold
    st, en = int(g.start[k]), int(g.last[k])
    s = int(corpus.sentence_of(np.array([st]))[0])
    line = int(corpus.gold_info.token_lines[st]) if corpus.gold_info.token_lines is not None else None
    rec = {"index": k + at[0], "label": corpus.labels[int(g.label[k])], "sentence": s + at[1],
           "first": st - int(corpus.sent_offsets[s]), "last": en - int(corpus.sent_offsets[s]), "line": line,
           "text": " ".join(corpus.tokens(st, en + 1)) if corpus.tokens is not None else None}
    return rec


class MultiSums:
    """The several-systems part of a corpus read in blocks: pairwise differences, the token and span
    oracles' counts, how many systems find each gold span, and the hard and easy gold spans (listed
    whole: they grow with the gold spans that no system, or every system, finds)."""

    def __init__(self, names: Sequence[str]) -> None:
        k = len(names)
        self.names = list(names)
        self.differ, self.both = np.zeros((k, k), np.int64), np.zeros((k, k), np.int64)
        self.tokens, self.spans = OracleCounts(k), OracleCounts(k)
        self.hits = np.zeros(k, np.int64)
        self.found_by = np.zeros(k + 1, np.int64)
        self.cases: Dict[str, Dict[str, int]] = {}        # label -> hard, easy
        self.hard: List[Dict[str, Any]] = []
        self.easy: List[Dict[str, Any]] = []
        self.n_gold = 0

    def add(self, corpus: Corpus, keys: Sequence[Hashable], gold_ids: np.ndarray, ids: np.ndarray,
            right: np.ndarray, hits: np.ndarray, at: Tuple[int, int]) -> np.ndarray:
        """Count one block (``at``: the gold spans and sentences before it); the block's hard gold spans."""
        differ, both = pair_counts(ids, right)
        self.differ += differ
        self.both += both
        self.tokens.add(keys, gold_ids, right)
        self.spans.add(corpus.labels, corpus.gold.label.astype(np.int64), hits)
        self.hits += hits.sum(axis=1)
        count = hits.sum(axis=0)
        k = len(self.names)
        self.found_by += np.bincount(count, minlength=k + 1)
        hard, easy = np.flatnonzero(count == 0), np.flatnonzero(count == k)
        for kind, idx in ((0, hard), (1, easy)):
            for lab, n in enumerate(np.bincount(corpus.gold.label[idx], minlength=len(corpus.labels)).tolist()):
                self.cases.setdefault(corpus.labels[lab], {"hard": 0, "easy": 0})["hard" if kind == 0 else "easy"] += n
        self.hard += [_span_record(corpus, int(i), at) for i in hard.tolist()]
        self.easy += [_span_record(corpus, int(i), at) for i in easy.tolist()]
        self.n_gold += len(corpus.gold)
        return hard

    def result(self, token_right: np.ndarray, n_tokens: int, key_name: Callable[[Hashable], str]) -> MultiComparison:
        """The :class:`MultiComparison` of every block so far (``token_right``: each system's right tokens)."""
        names = self.names
        mat, rows = pairwise_of(self.differ, self.both, token_right, n_tokens, names)
        t_over, t_rows = self.tokens.rows(names, key_name, int(np.argmax(token_right)), token_right, n_tokens)
        s_over, s_rows = self.spans.rows(names, str, int(np.argmax(self.hits)), self.hits, self.n_gold)
        for r in s_rows:
            r["hard"], r["easy"] = self.cases[r["label"]]["hard"], self.cases[r["label"]]["easy"]
        s_over["hard"], s_over["easy"] = len(self.hard), len(self.easy)
        t_over["measure"], s_over["measure"] = "token accuracy", "exact-match span recall"
        neighbours = []
        for i, name in enumerate(names):
            d = np.delete(mat[i], i)
            others = [x for j, x in enumerate(names) if j != i]
            lo, hi = int(np.argmin(d)), int(np.argmax(d))
            neighbours.append({"system": name, "mean_diff": float(d.mean()), "nearest": others[lo],
                               "nearest_diff": float(d[lo]), "farthest": others[hi], "farthest_diff": float(d[hi])})
        return MultiComparison(names, mat.tolist(), rows, {"micro": t_over, "per_label": t_rows},
                               {"micro": s_over, "per_label": s_rows}, self.found_by.tolist(),
                               self.hard, self.easy, neighbours)
