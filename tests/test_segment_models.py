"""Segment models beside exact match (Esuli & Sebastiani, section 3), the matcher they share,
and label selection."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ts_eval
from ts_eval.cli import main
from ts_eval.core.corpus import SpanSet, select_labels
from ts_eval.core.matching import match
from ts_eval.core.sequences import from_spans

# "the Ronald Reagan Presidential Library": gold ORG = tokens 1..4
LEN = [5]
GOLD = [[("ORG", 1, 5)]]


def model(system, name, **kw):
    rep = ts_eval.score(from_spans(LEN, GOLD, {"s": [system]}), models=("exact", name), **kw)
    return rep.systems[0][name]


def test_paper_example_constrained_k1_k2_1():
    # "the Ronald Reagan Presidential" (1 spurious, 1 missing) and "Ronald Reagan Presidential Library"
    # get the same credit with k1 = k2 = 1, as the paper complains
    shifted = model([("ORG", 0, 4)], "constrained", k1=1, k2=1)
    exact = model([("ORG", 1, 5)], "constrained", k1=1, k2=1)
    assert shifted["micro"]["f"] == exact["micro"]["f"] == 1.0
    assert model([("ORG", 0, 3)], "constrained", k1=1, k2=1)["micro"]["f"] == 0.0  # 2 missing


def test_overlap_counts_any_shared_token_and_exact_does_not():
    sys_ = [("ORG", 2, 5)]  # "Reagan Presidential Library"
    assert model(sys_, "overlap")["micro"] == pytest.approx(
        {"gold": 1, "system": 1, "gold_hit": 1, "system_hit": 1, "precision": 1.0, "recall": 1.0, "f": 1.0})
    rep = ts_eval.score(from_spans(LEN, GOLD, {"s": [sys_]}), models=("exact",))
    assert rep.systems[0]["exact"]["micro"]["tp"] == 0


def test_contain_needs_the_whole_gold_span():
    assert model([("ORG", 0, 5)], "contain")["micro"]["f"] == 1.0      # contains, 1 spurious
    assert model([("ORG", 2, 5)], "contain")["micro"]["f"] == 0.0      # misses "Ronald"
    assert model([("ORG", 0, 5)], "contain", k1=0)["micro"]["f"] == 0.0


def test_labels_must_agree_and_one_wide_span_hits_several_gold_spans():
    rep = ts_eval.score(from_spans([6], [[("PER", 0, 2), ("PER", 3, 5)]], {"s": [[("PER", 0, 6), ("LOC", 3, 4)]]}),
                           models=("overlap",))
    m = rep.systems[0]["overlap"]
    # the PER span covering everything hits both gold spans (recall 1), the LOC span hits nothing
    assert m["labels"]["PER"]["gold_hit"] == 2 and m["labels"]["PER"]["system_hit"] == 1
    assert m["micro"]["precision"] == pytest.approx(0.5) and m["micro"]["recall"] == 1.0


spans = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 19), st.integers(0, 4)), max_size=12)


@settings(max_examples=150, deadline=None)
@given(spans, spans)
def test_matcher_pairs_equal_brute_force(g, s):
    def mk(rows):
        rows = sorted({(b, min(b + n, 19), lab) for lab, b, n in rows})
        return SpanSet(np.array([r[0] for r in rows], np.int64), np.array([r[1] for r in rows], np.int64),
                       np.array([r[2] for r in rows], np.int32))
    gs, ss = mk(g), mk(s)
    p = match(gs, ss)
    got = {(int(a), int(b)) for a, b in zip(p.gold, p.system)}
    want = {(i, j) for i in range(len(gs)) for j in range(len(ss))
            if gs.start[i] <= ss.last[j] and ss.start[j] <= gs.last[i]}
    assert got == want
    for k in range(len(p)):
        i, j = p.gold[k], p.system[k]
        ov = min(gs.last[i], ss.last[j]) - max(gs.start[i], ss.start[j]) + 1
        assert p.overlap[k] == ov
        assert p.exact[k] == (gs.start[i] == ss.start[j] and gs.last[i] == ss.last[j] and gs.label[i] == ss.label[j])


def test_select_labels_and_exclude():
    c = from_spans([4], [[("PER", 0, 1), ("LOC", 2, 4)]], {"s": [[("PER", 0, 1), ("ORG", 2, 4)]]})
    only = select_labels(c, ["PER"])
    assert only.labels == ["PER"] and len(only.gold) == 1 and len(only.systems["s"]) == 1
    rest = select_labels(c, exclude=["ORG"])
    assert rest.labels == ["LOC", "PER"] and rest.system_info["s"].unmapped == 1
    with pytest.raises(ValueError, match="'XYZ' not in the data"):
        select_labels(c, ["XYZ"])


def test_cli_labels_and_exclude(tmp_path, capsys):
    path = tmp_path / "f.conll"
    path.write_text("a B-PER B-PER\nb B-LOC B-ORG\n")
    assert main(["score", str(path), "--labels", "PER", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"labels": [\n      "PER"\n    ]' in out
    assert main(["score", str(path), "--exclude", "NOPE"]) == 2
    assert "'NOPE' not in the data" in capsys.readouterr().err
