"""Token level (the paper's equation 1 and Algorithm 1, vectorised) and the token labels
of a corpus under the ``tag`` or ``label`` view."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SpanSet
from ..core.units import BITS, label_mask, label_passes, merge_overlaps
from ..errors import OptionError
from .results import CLASSES, VIEWS, ChangeClass, TokenDiff
from .transitions import _ratio, _top_transitions


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


def token_changes(gold: np.ndarray, a: np.ndarray, b: np.ndarray, vocab: Sequence[str],
                  top: Optional[int] = 5) -> Tuple[int, Dict[str, ChangeClass]]:
    """Algorithm 1 over id arrays: (differing positions, the three classes with top transitions)."""
    gold, a, b = (np.asarray(v, np.int64) for v in (gold, a, b))
    masks = change_masks(gold, a, b)
    n_diff = int(np.count_nonzero(a != b))
    V = max(len(vocab), 1)

    def pair(k: int) -> Tuple[str, ...]:
        return vocab[k // V], vocab[k % V]

    def triple(k: int) -> Tuple[str, ...]:
        return vocab[k // (V * V)], vocab[(k // V) % V], vocab[k % V]

    out = {}
    for cls in CLASSES:
        m = masks[cls]
        if cls == "changed_error":
            keys = (gold[m] * V + a[m]) * V + b[m]
            name = triple
        else:
            keys = a[m] * V + b[m]
            name = pair
        distinct, tops = _top_transitions(keys, name, n_diff, top)
        cnt = int(m.sum())
        out[cls] = ChangeClass(cls, cnt, cnt / n_diff if n_diff else 0.0, distinct, tops)
    return n_diff, out


def _label_masks(corpus: Corpus, spans: SpanSet) -> np.ndarray:
    """(tokens, passes): per token the bitmask of the labels of spans covering it (one column per pass)."""
    m = merge_overlaps(spans)
    return np.stack([label_mask(corpus, m, lo, hi) for lo, hi in label_passes(len(corpus.labels))], axis=1)


def token_labels(corpus: Corpus, names: Sequence[str], view: str = "auto") -> Tuple[str, List[str], np.ndarray]:
    """(view used, vocabulary, (1 + len(names), tokens) ids): row 0 gold, then the systems.

    ``tag``: the tags as read (needs per-token tags on every side); ``label``: the labels of
    the covering spans; ``auto``: tags when every side has them and no label map was
    applied, else labels.
    """
    if view not in VIEWS:
        raise OptionError(f"unknown token view {view!r}; expected one of {', '.join(VIEWS)}")
    infos = [corpus.gold_info] + [corpus.system_info[n] for n in names]
    have_tags = all(i.tags is not None for i in infos) and bool(corpus.tag_vocab)
    if view == "tag" and not have_tags:
        raise OptionError("token view 'tag' needs per-token tags on every side (read from files or tag "
                          "sequences); use view 'label'")
    if view == "auto":
        view = "tag" if have_tags and not corpus.label_map else "label"
    if view == "tag":
        return view, list(corpus.tag_vocab), np.stack([i.tag_ids().astype(np.int64) for i in infos])
    sides = [corpus.gold] + [corpus.systems[n] for n in names]
    masks = np.concatenate([_label_masks(corpus, s) for s in sides])
    if masks.shape[1] == 1:
        uniq, inv = np.unique(masks[:, 0], return_inverse=True)
        rows = uniq[:, None]
    else:
        rows, inv = np.unique(masks, axis=0, return_inverse=True)
    vocab = []
    for row in rows:
        labs = [corpus.labels[p * BITS + k] for p, v in enumerate(row.tolist()) for k in range(BITS)
                if (v >> k) & 1]
        vocab.append("+".join(labs) if labs else "O")
    return view, vocab, inv.reshape(len(sides), corpus.n_tokens).astype(np.int64)


def _correct_sentences(corpus: Corpus, right: np.ndarray) -> float:
    if corpus.n_sentences == 0:
        return 0.0
    wrong = np.add.reduceat((~right).astype(np.int64), corpus.sent_offsets[:-1])
    return float(np.count_nonzero(wrong == 0)) / corpus.n_sentences


def token_diff(corpus: Corpus, a: str, b: str, gold_ids: np.ndarray, a_ids: np.ndarray, b_ids: np.ndarray,
               vocab: Sequence[str], top: Optional[int]) -> TokenDiff:
    n = len(gold_ids)
    n_diff, classes = token_changes(gold_ids, a_ids, b_ids, vocab, top)
    ra, rb = a_ids == gold_ids, b_ids == gold_ids
    masks = change_masks(gold_ids, a_ids, b_ids)
    V = len(vocab)
    per = {"tokens": np.bincount(gold_ids, minlength=V), "right_a": np.bincount(gold_ids[ra], minlength=V),
           "right_b": np.bincount(gold_ids[rb], minlength=V)}
    for cls in CLASSES:
        per[cls] = np.bincount(gold_ids[masks[cls]], minlength=V)
    rows = []
    for k in np.flatnonzero(per["tokens"] > 0).tolist():
        t = int(per["tokens"][k])
        rows.append({"label": vocab[k], "tokens": t, "accuracy_a": _ratio(per["right_a"][k], t),
                     "accuracy_b": _ratio(per["right_b"][k], t),
                     "delta_accuracy": _ratio(int(per["right_b"][k]) - int(per["right_a"][k]), t),
                     **{cls: int(per[cls][k]) for cls in CLASSES}})
    rows.sort(key=lambda r: (-r["tokens"], r["label"]))
    return TokenDiff(a, b, n, n_diff, _ratio(n_diff, n), _ratio(ra.sum(), n), _ratio(rb.sum(), n),
                     _correct_sentences(corpus, ra), _correct_sentences(corpus, rb), classes, rows)
