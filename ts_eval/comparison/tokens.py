"""Token level (the paper's equation 1 and Algorithm 1, vectorised) and the token labels
of a corpus under the ``tag`` or ``label`` view.

A corpus read in blocks is counted block by block (:class:`TokenSums`): each block's token labels are
keys that mean the same in every block (a tag, or the names of the labels covering the token), and what
the token level shows is sums over the blocks' tokens and sentences keyed by them."""
from __future__ import annotations

from collections import Counter
from typing import Any, Dict, Hashable, List, Optional, Sequence, Tuple, cast

import numpy as np

from ..core.corpus import Corpus, SpanSet
from ..core.units import BITS, label_mask, label_passes, merge_overlaps
from ..errors import OptionError
from .results import CLASSES, VIEWS, ChangeClass, TokenDiff
from .transitions import _ratio, _top_counts, _top_transitions

#: a token label that means the same in every block: a tag (view ``tag``), or the sorted names of the
#: labels of the spans covering the token (view ``label``; () outside any span)
Key = Hashable


def diff(x: np.ndarray, y: np.ndarray) -> float:
    """The paper's equation 1: the share of positions whose labels differ (1 - overlap)."""
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape:
        raise ValueError(f"label arrays differ in length: {x.shape} vs {y.shape}")
    return float(np.count_nonzero(x != y)) / len(x) if len(x) else 0.0


def correct_overlap(gold: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """Overlap on correct answers (the paper's Table 1): 2|C_x ∩ C_y| / (|C_x| + |C_y|).

    C_x are the positions x gets right.  The paper's toy systems all have three correct
    answers, so its ratio (shared / correct) is this Dice coefficient.
    """
    cx, cy = np.asarray(x) == gold, np.asarray(y) == gold
    den = int(cx.sum() + cy.sum())
    return 2.0 * float(np.count_nonzero(cx & cy)) / den if den else 0.0


def change_masks(gold: np.ndarray, a: np.ndarray, b: np.ndarray) -> Dict[str, np.ndarray]:
    """Algorithm 1's three classes as masks over positions (they partition ``a != b``)."""
    d = a != b
    correction = d & (b == gold)
    new_error = d & (a == gold)
    return {"correction": correction, "new_error": new_error, "changed_error": d & ~correction & ~new_error}


def change_keys(gold: np.ndarray, a: np.ndarray, b: np.ndarray, V: int,
                masks: Optional[Dict[str, np.ndarray]] = None) -> Dict[str, np.ndarray]:
    """Per class, the transition of every position in it as one number: ``a * V + b`` (corrections, new
    errors), ``(gold * V + a) * V + b`` (changed errors)."""
    masks = change_masks(gold, a, b) if masks is None else masks
    out = {}
    for cls in CLASSES:
        m = masks[cls]
        out[cls] = (gold[m] * V + a[m]) * V + b[m] if cls == "changed_error" else a[m] * V + b[m]
    return out


def transition_of(cls: str, k: int, V: int) -> Tuple[int, ...]:
    """The ids (A, B), or (gold, A, B) for changed errors, of a transition number of :func:`change_keys`."""
    if cls == "changed_error":
        return k // (V * V), (k // V) % V, k % V
    return k // V, k % V


def token_changes(gold: np.ndarray, a: np.ndarray, b: np.ndarray, vocab: Sequence[str],
                  top: Optional[int] = 5) -> Tuple[int, Dict[str, ChangeClass]]:
    """Algorithm 1 over id arrays: (differing positions, the three classes with top transitions)."""
    gold, a, b = (np.asarray(v, np.int64) for v in (gold, a, b))
    masks = change_masks(gold, a, b)
    n_diff = int(np.count_nonzero(a != b))
    V = max(len(vocab), 1)
    keys = change_keys(gold, a, b, V, masks)
    out = {}
    for cls in CLASSES:
        def name(k: int, cls: str = cls) -> Tuple[str, ...]:
            return tuple(vocab[i] for i in transition_of(cls, k, V))

        distinct, tops = _top_transitions(keys[cls], name, n_diff, top)
        cnt = int(masks[cls].sum())
        out[cls] = ChangeClass(cls, cnt, cnt / n_diff if n_diff else 0.0, distinct, tops)
    return n_diff, out


def _label_masks(corpus: Corpus, spans: SpanSet) -> np.ndarray:
    """(tokens, passes): per token the bitmask of the labels of spans covering it (one column per pass)."""
    m = merge_overlaps(spans)
    return np.stack([label_mask(corpus, m, lo, hi) for lo, hi in label_passes(len(corpus.labels))], axis=1)


def resolve_view(corpus: Corpus, names: Sequence[str], view: str = "auto") -> str:
    """The view used for ``view``: ``tag`` needs per-token tags on every side; ``auto`` is ``tag`` when
    every side has them and no label map was applied, else ``label``."""
    if view not in VIEWS:
        raise OptionError(f"unknown token view {view!r}; expected one of {', '.join(VIEWS)}")
    infos = [corpus.gold_info] + [corpus.system_info[n] for n in names]
    have_tags = all(i.tags is not None for i in infos) and bool(corpus.tag_vocab)
    if view == "tag" and not have_tags:
        raise OptionError("token view 'tag' needs per-token tags on every side (read from files or tag "
                          "sequences); use view 'label'")
    if view == "auto":
        view = "tag" if have_tags and not corpus.label_map else "label"
    return view


def token_label_keys(corpus: Corpus, names: Sequence[str], view: str) -> Tuple[List[Key], np.ndarray]:
    """(the corpus's token labels as :data:`Key` s, (1 + len(names), tokens) ids into them): row 0 gold,
    then the systems; ``view``: ``tag`` or ``label`` (:func:`resolve_view`).  The label view's ids are in
    the order of the labels' bitmasks."""
    infos = [corpus.gold_info] + [corpus.system_info[n] for n in names]
    if view == "tag":
        return list(corpus.tag_vocab), np.stack([i.tag_ids().astype(np.int64) for i in infos])
    sides = [corpus.gold] + [corpus.systems[n] for n in names]
    masks = np.concatenate([_label_masks(corpus, s) for s in sides])
    if masks.shape[1] == 1:
        uniq, inv = np.unique(masks[:, 0], return_inverse=True)
        rows = uniq[:, None]
    else:
        rows, inv = np.unique(masks, axis=0, return_inverse=True)
    keys: List[Key] = [tuple(corpus.labels[p * BITS + k] for p, v in enumerate(row.tolist()) for k in range(BITS)
                             if (v >> k) & 1) for row in rows]
    return keys, inv.reshape(len(sides), corpus.n_tokens).astype(np.int64)


def key_name(key: Key) -> str:
    """How a token label is shown: a tag as read; labels joined by ``+``, ``O`` outside any span."""
    if isinstance(key, tuple):
        return "+".join(key) if key else "O"
    return str(key)


def key_order(keys: Sequence[Key], view: str, labels: Sequence[str]) -> List[Key]:
    """``keys`` in the order a corpus read whole numbers them: tags sorted; label sets by their bitmasks
    over ``labels`` (every label of the corpus, sorted)."""
    if view == "tag":
        return sorted(keys, key=str)
    index = {lab: k for k, lab in enumerate(labels)}
    passes = max(1, len(label_passes(len(labels))))

    def masks(key: Key) -> Tuple[int, ...]:
        out = [0] * passes
        for lab in cast(Tuple[str, ...], key):      # (label view: a tuple of names)
            out[index[lab] // BITS] |= 1 << (index[lab] % BITS)
        return tuple(out)

    return sorted(keys, key=masks)


def token_labels(corpus: Corpus, names: Sequence[str], view: str = "auto") -> Tuple[str, List[str], np.ndarray]:
    """(view used, vocabulary, (1 + len(names), tokens) ids): row 0 gold, then the systems.

    ``tag``: the tags as read (needs per-token tags on every side); ``label``: the labels of
    the covering spans; ``auto``: tags when every side has them and no label map was
    applied, else labels.
    """
    view = resolve_view(corpus, names, view)
    keys, ids = token_label_keys(corpus, names, view)
    return view, [key_name(k) for k in keys], ids


def _right_sentences(corpus: Corpus, right: np.ndarray) -> int:
    """The sentences whose tokens are all right."""
    if corpus.n_sentences == 0:
        return 0
    wrong = np.add.reduceat((~right).astype(np.int64), corpus.sent_offsets[:-1])
    return int(np.count_nonzero(wrong == 0))


#: a gold token label's counts in :attr:`TokenSums.per_label`: tokens, right under A, under B, then per class
PER_LABEL = ("tokens", "right_a", "right_b", *CLASSES)


class TokenSums:
    """The token level of a corpus read in blocks: per system the tokens it gets right and the sentences it
    gets all right; for the pair (A, B) the differing tokens, each class's transitions (as token label
    keys) and the counts per gold token label.  Grows with the token labels, not with the tokens."""

    def __init__(self, systems: int, pair: Optional[Tuple[int, int]]) -> None:
        self.pair = pair
        self.tokens = 0
        self.sentences = 0
        self.right = np.zeros(systems, np.int64)
        self.right_sentences = np.zeros(systems, np.int64)
        self.differing = 0
        self.transitions: Dict[str, Counter[Tuple[Key, ...]]] = {cls: Counter() for cls in CLASSES}
        self.per_label: Dict[Key, np.ndarray] = {}

    def add(self, corpus: Corpus, keys: Sequence[Key], gold: np.ndarray, ids: np.ndarray, right: np.ndarray) -> None:
        """Count one block: its token label ``keys``, gold's ``ids`` into them, the systems' ``ids`` and
        ``right`` (systems x tokens)."""
        self.tokens += corpus.n_tokens
        self.sentences += corpus.n_sentences
        self.right += right.sum(axis=1)
        self.right_sentences += [_right_sentences(corpus, r) for r in right]
        if self.pair is None:
            return
        ia, ib = self.pair
        a, b = ids[ia], ids[ib]
        V = max(len(keys), 1)
        masks = change_masks(gold, a, b)
        self.differing += int(np.count_nonzero(a != b))
        for cls, codes in change_keys(gold, a, b, V, masks).items():
            u, c = np.unique(codes, return_counts=True)
            for k, n in zip(u.tolist(), c.tolist()):
                self.transitions[cls][tuple(keys[i] for i in transition_of(cls, k, V))] += n
        table = np.stack([np.bincount(gold, minlength=V), np.bincount(gold[right[ia]], minlength=V),
                          np.bincount(gold[right[ib]], minlength=V),
                          *(np.bincount(gold[masks[cls]], minlength=V) for cls in CLASSES)], axis=1)
        for k in np.flatnonzero(table[:, 0]).tolist():
            row = self.per_label.get(keys[k])
            self.per_label[keys[k]] = table[k] if row is None else row + table[k]

    def result(self, names: Sequence[str], top: Optional[int]) -> TokenDiff:
        """The pair's :class:`TokenDiff` (``names``: the systems)."""
        assert self.pair is not None
        ia, ib = self.pair
        n, n_diff = self.tokens, self.differing
        classes = {}
        for cls in CLASSES:
            counts = self.transitions[cls]
            distinct, tops = _top_counts(counts, lambda t: tuple(key_name(k) for k in t), n_diff, top)
            cnt = sum(counts.values())
            classes[cls] = ChangeClass(cls, cnt, cnt / n_diff if n_diff else 0.0, distinct, tops)
        rows: List[Dict[str, Any]] = []
        for key, row in self.per_label.items():
            c = dict(zip(PER_LABEL, row.tolist()))
            t, ra, rb = c["tokens"], c["right_a"], c["right_b"]
            rows.append({"label": key_name(key), "tokens": t, "accuracy_a": _ratio(ra, t),
                         "accuracy_b": _ratio(rb, t), "delta_accuracy": _ratio(rb - ra, t),
                         **{cls: c[cls] for cls in CLASSES}})
        rows.sort(key=lambda r: (-r["tokens"], r["label"]))
        return TokenDiff(names[ia], names[ib], n, n_diff, _ratio(n_diff, n), _ratio(self.right[ia], n),
                         _ratio(self.right[ib], n), self.correct_sentences(ia), self.correct_sentences(ib),
                         classes, rows)

    def correct_sentences(self, i: int) -> float:
        return _ratio(self.right_sentences[i], self.sentences)


def token_diff(corpus: Corpus, a: str, b: str, gold_ids: np.ndarray, a_ids: np.ndarray, b_ids: np.ndarray,
               vocab: Sequence[str], top: Optional[int]) -> TokenDiff:
    """The token level of A (baseline) against B over id arrays into ``vocab`` (the corpus read whole)."""
    sums = TokenSums(2, (0, 1))
    ids = np.stack([a_ids, b_ids])
    sums.add(corpus, list(vocab), gold_ids, ids, ids == gold_ids[None, :])
    return sums.result([a, b], top)
