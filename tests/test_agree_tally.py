"""The disagreements' running counts (:class:`ts_eval.agreement.disagreements.Tally`): rows per label and per
label(s) and surface string, by kind, most frequent first; the first ``limit`` groups are the first of all."""
from __future__ import annotations

from ts_eval.agreement.disagreements import Tally

KEYS = [(("PER",), "Anna", "label"), (("PER",), "Anna", "boundary"), (("LOC", "PER"), "Bonn", "label"),
        (("ORG",), "UN", "missing"), (("PER",), "Anna", "label"), (("ORG",), "EU", "missing"),
        (("ORG",), None, "boundary_label")]


def _tally() -> Tally:
    a = Tally()
    a.add_keys(KEYS[:4])
    a.add_keys(KEYS[4:])
    return a


def _kinds(missing=0, label=0, boundary=0, boundary_label=0):
    return {"missing": missing, "label": label, "boundary": boundary, "boundary_label": boundary_label}


def test_groups_by_count_then_labels_then_text():
    t = _tally()
    want = [{"labels": "PER", "text": "Anna", "count": 3, "kinds": _kinds(label=2, boundary=1)},
            {"labels": "LOC+PER", "text": "Bonn", "count": 1, "kinds": _kinds(label=1)},
            {"labels": "ORG", "text": "", "count": 1, "kinds": _kinds(boundary_label=1)},
            {"labels": "ORG", "text": "EU", "count": 1, "kinds": _kinds(missing=1)},
            {"labels": "ORG", "text": "UN", "count": 1, "kinds": _kinds(missing=1)}]
    assert t.by_group() == want
    for k in range(7):
        assert t.by_group(k) == want[:k]
    assert len(t.groups) == 5


def test_labels_count_each_label_of_a_cluster():
    assert _tally().by_label() == [
        {"label": "PER", "count": 4, "kinds": _kinds(label=3, boundary=1)},
        {"label": "ORG", "count": 3, "kinds": _kinds(missing=2, boundary_label=1)},
        {"label": "LOC", "count": 1, "kinds": _kinds(label=1)}]


def test_spans_ordered_by_position_as_a_lexsort_orders_them():
    """The disagreements' spans by start, last, label, annotator: a packed key's stable sort gives lexsort's
    order (ties, that is the same span twice, in their first order), and lexsort itself where the key does
    not fit."""
    import numpy as np

    from ts_eval.agreement.disagreements import _by_position

    rng = np.random.default_rng(3)
    for big in (50, 1 << 40, 1 << 61):
        start = np.concatenate([np.sort(rng.integers(0, big, 300)) for _ in range(3)])
        last = start + rng.integers(0, 4, len(start))
        label = rng.integers(0, 3, len(start))
        who = np.repeat(np.arange(3), 300)
        assert _by_position(start, last, label, who).tolist() == np.lexsort((who, label, last, start)).tolist()


def test_groups_are_counted_without_a_row_each():
    """A block's clusters are counted per group and per group and kind in counters (no row of five is made per
    group as clusters come, only for the groups listed); a group's kinds are its clusters of each kind."""
    t = _tally()
    assert t.groups[("PER", "Anna")] == 3 and t.groups[("ORG", "")] == 1
    assert t.kinds[("PER", "Anna", 1)] == 2 and t.kinds[("PER", "Anna", 2)] == 1
    assert sum(t.kinds.values()) == sum(t.groups.values()) == len(KEYS)
