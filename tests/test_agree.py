"""Agreement between annotators (#20): Krippendorff's unitizing alpha on the worked examples that
Krippendorff published (1995, 2004) and DKPro Statistics' tests use, the distances between
sections, the edge cases DKPro got wrong, and properties every figure must have."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ts_eval
from ts_eval.agreement.continuum import Continuum
from ts_eval.agreement.data import from_span_lists


def units(rater_units, length, stretch=1):
    """Krippendorff's (begin, length, rater, category) units on a continuum of ``length`` positions,
    as one sentence of that many tokens with separators of weight 0 (a token is one position)."""
    raters = sorted({r for _, _, r, _ in rater_units})
    spans = {f"r{r}": [[(c, b * stretch, (b + n) * stretch) for b, n, rr, c in rater_units if rr == r]]
             for r in raters}
    return ts_eval.agree(spans, lengths=[length * stretch], separator_weight=0)


def by_label(res):
    return {row["label"]: row for row in res.labels}


# Krippendorff (2004: 254), as in DKPro's Krippendorff2004Test: continuum 150..450 shifted to 0..300
K2004 = [(75, 70, 0, "c"), (220, 30, 0, "c"), (30, 60, 0, "k"), (150, 50, 0, "k"),
         (70, 80, 1, "c"), (205, 20, 1, "c"), (250, 20, 1, "c"), (30, 60, 1, "k"), (150, 50, 1, "k")]

# Krippendorff (1995: 57), as in DKPro's Krippendorff1995Test (Bertha/Bill, John/Jill, ...)
K1995 = [(2, 8, 0, "A"), (14, 6, 0, "A"), (4, 4, 1, "A"), (15, 2, 1, "A"),
         (0, 18, 0, "B"), (0, 2, 1, "B"), (2, 1, 1, "B"), (3, 1, 1, "B"), (4, 1, 1, "B"), (5, 1, 1, "B"),
         (6, 3, 1, "B"), (9, 1, 1, "B"),
         (2, 6, 0, "C"), (10, 2, 0, "C"), (14, 4, 0, "C"), (20, 2, 0, "C"), (0, 2, 1, "C"), (4, 4, 1, "C"),
         (10, 4, 1, "C"), (16, 2, 1, "C"), (20, 2, 1, "C"),
         (0, 2, 0, "D"), (2, 8, 0, "D"), (10, 4, 0, "D"), (14, 6, 0, "D"), (20, 4, 0, "D"), (0, 4, 1, "D"),
         (4, 4, 1, "D"), (8, 7, 1, "D"), (15, 2, 1, "D"), (17, 7, 1, "D")]


def test_krippendorff_2004_worked_example():
    res = units(K2004, 300)
    lab = by_label(res)
    assert lab["c"]["observed_u"] == pytest.approx(0.0144, abs=1e-4)
    assert lab["c"]["expected_u"] == pytest.approx(0.0532, abs=1e-4)
    assert lab["c"]["alpha_u"]["value"] == pytest.approx(0.7286, abs=1e-4)
    assert lab["k"]["observed_u"] == 0.0
    assert lab["k"]["expected_u"] == pytest.approx(0.0490, abs=1e-4)
    assert lab["k"]["alpha_u"]["value"] == 1.0
    # all categories: 1 - sum D_o / sum D_e
    assert res.figures["alpha_u"]["micro"]["value"] == pytest.approx(0.8591, abs=5e-4)
    # re-derived by hand: the units [225, 295) and [220, 300) overlap (5^2 + 5^2), so do [370, 400) and
    # [355, 375) (15^2 + 25^2); [400, 420) lies in the first rater's gap (20^2); m = 2, L = 300
    assert lab["c"]["observed_u"] == pytest.approx(2 * (50 + 850 + 400) / (2 * 1 * 300 ** 2))


def test_krippendorff_1995_worked_example():
    """The published values are for a continuous continuum; 500 positions per unit of the example come
    within DKPro's tolerances (D_e 0.005, alpha 0.02); D_o does not depend on the resolution."""
    res = units(K1995, 24, stretch=500)
    lab = by_label(res)
    for c, d_o, d_e, alpha in (("A", 0.03125, 0.06990, 0.553), ("B", 2.26736, 1.17731, -0.926),
                               ("C", 0.02777, 0.08642, 0.679), ("D", 0.38715, 0.41445, 0.066)):
        assert lab[c]["observed_u"] == pytest.approx(d_o, abs=1e-5), c
        assert lab[c]["expected_u"] == pytest.approx(d_e, abs=5e-3), c
        assert lab[c]["alpha_u"]["value"] == pytest.approx(alpha, abs=2e-2), c


def test_krippendorff_1995_at_one_position_per_unit():
    """At the example's own resolution D_e of C is 0.07003 (what DKPro's implementation computes too);
    DKPro's test expects the paper's 0.05494 there, which neither formula gives."""
    lab = by_label(units(K1995, 24))
    assert lab["C"]["observed_u"] == pytest.approx(0.02778, abs=1e-5)
    assert lab["C"]["expected_u"] == pytest.approx(0.07003, abs=1e-5)
    assert lab["A"]["expected_u"] == pytest.approx(0.06447, abs=1e-5)


def test_dkpro_unitizing_example():
    res = units([(1, 8, 0, "A"), (2, 1, 1, "A"), (4, 1, 1, "A"), (6, 1, 1, "A")], 10)
    lab = by_label(res)["A"]
    assert lab["observed_u"] == pytest.approx(0.9100, abs=1e-4)
    assert lab["expected_u"] == pytest.approx(0.5351, abs=1e-4)
    assert lab["alpha_u"]["value"] == pytest.approx(-0.7003, abs=1e-4)


@pytest.mark.parametrize("a, b, want", [((5, 6), (4, 2), 26), ((5, 6), (5, 2), 16), ((5, 6), (6, 2), 10),
                                        ((5, 6), (7, 2), 8), ((5, 6), (6, 4), 2), ((5, 6), (5, 6), 0),
                                        ((225, 70), (220, 80), 50), ((370, 30), (355, 20), 850),
                                        ((1, 8), (2, 1), 37), ((1, 8), (4, 1), 25), ((1, 8), (6, 1), 29)])
def test_distance_of_two_overlapping_units(a, b, want):
    """Krippendorff's distance (DKPro's measureDistance cases): squared begin and end differences."""
    ann = from_span_lists({"i": [[("X", a[0], a[0] + a[1])]], "j": [[("X", b[0], b[0] + b[1])]]}, [500])
    d = Continuum(ann.corpus, "tokens", 0.0).distance(ann.spans[0], ann.spans[1], ann.corpus, 1)
    assert d.sum() == want


def test_a_unit_inside_the_others_gap_adds_its_length_squared():
    ann = from_span_lists({"i": [[("X", 2, 5)]], "j": [[]]}, [20])
    assert Continuum(ann.corpus, "tokens", 0.0).distance(ann.spans[0], ann.spans[1], ann.corpus, 1).sum() == 9


def test_one_unit_among_three_raters_is_not_agreement():
    """DKPro's issue 2: one of three raters marks one unit -> alpha_u was 1.0; it is 0 (D_o = D_e)."""
    res = ts_eval.agree({"a": [[("X", 0, 1)]], "b": [[]], "c": [[]]}, lengths=[20], separator_weight=0)
    assert by_label(res)["X"]["alpha_u"]["value"] == pytest.approx(0.0, abs=1e-12)


def test_different_documents_are_not_full_agreement():
    """INCEpTION's issue 2219 (documents laid end to end without offsets gave 1.0): annotators who mark
    different documents disagree."""
    res = ts_eval.agree({"a": [[("X", 0, 1)], []], "b": [[], [("X", 0, 1)]]}, lengths=[2, 2])
    for k in ("fleiss", "alpha"):
        assert res.figures[k]["micro"]["value"] < 0
    assert res.figures["alpha_u"]["micro"]["value"] < 0
    assert res.pairs[0]["f_exact"]["micro"]["value"] == 0.0


# ---------------------------------------------------------------------------
# properties

LABELS = ("PER", "LOC", "ORG")


@st.composite
def annotation_sets(draw, min_annotators=2, max_annotators=4):
    n_sent = draw(st.integers(1, 6))
    lengths = [draw(st.integers(1, 7)) for _ in range(n_sent)]
    m = draw(st.integers(min_annotators, max_annotators))
    out = {}
    for k in range(m):
        sents = []
        for n in lengths:
            spans = set()
            for _ in range(draw(st.integers(0, 3))):
                b = draw(st.integers(0, n - 1))
                e = draw(st.integers(b + 1, n))
                spans.add((draw(st.sampled_from(LABELS)), b, e))
            sents.append(sorted(spans))
        out[f"a{k}"] = sents
    return out, lengths


def overall_values(res):
    return {(k, a): v["value"] for k, d in res.figures.items() if isinstance(d, dict) for a, v in d.items()}


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(annotation_sets(), st.sampled_from([1.0, 0.5, 0.0]))
def test_identical_annotations_agree_fully(data, weight):
    ann, lengths = data
    first = next(iter(ann.values()))
    same = {name: first for name in ann}
    res = ts_eval.agree(same, lengths=lengths, separator_weight=weight)
    vals = overall_values(res)
    has_spans = any(first)
    for (k, a), v in vals.items():
        if not has_spans and a == "macro":
            assert v is None      # a mean over no label is undefined
        elif not has_spans and k.startswith("f_"):
            assert v == 0.0       # F of no spans: 0 by the zero-division rule
        else:
            assert v == pytest.approx(1.0), (k, a)
    assert res.disagreements["total"] == 0


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(annotation_sets(), st.randoms(use_true_random=False))
def test_figures_do_not_depend_on_the_order_of_annotators_or_spans(data, rnd):
    ann, lengths = data
    names = list(ann)
    shuffled_names = names[:]
    rnd.shuffle(shuffled_names)
    shuffled = {}
    for n in shuffled_names:
        sents = []
        for spans in ann[n]:
            spans = list(spans)
            rnd.shuffle(spans)
            sents.append(spans)
        shuffled[n] = sents
    a = ts_eval.agree(ann, lengths=lengths)
    b = ts_eval.agree(shuffled, lengths=lengths)
    va, vb = overall_values(a), overall_values(b)
    assert va.keys() == vb.keys()
    for k in va:
        assert va[k] == pytest.approx(vb[k], abs=1e-12), k
    pa = {frozenset((p["a"], p["b"])): p["kappa"]["micro"]["value"] for p in a.pairs}
    pb = {frozenset((p["a"], p["b"])): p["kappa"]["micro"]["value"] for p in b.pairs}
    assert pa.keys() == pb.keys() and all(pa[k] == pytest.approx(pb[k], abs=1e-12) for k in pa)
    assert a.disagreements["total"] == b.disagreements["total"]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(annotation_sets(min_annotators=1, max_annotators=3))
def test_an_annotator_with_no_spans_does_not_agree(data):
    ann, lengths = data
    if not any(s for sents in ann.values() for s in sents):
        return
    ann = dict(ann)
    ann["silent"] = [[] for _ in lengths]
    res = ts_eval.agree(ann, lengths=lengths)
    for k in ("fleiss", "alpha", "kappa", "f_exact", "f_overlap"):
        assert res.figures[k]["micro"]["value"] < 1.0, k
    assert res.figures["alpha_u"]["micro"]["value"] < 1.0
    # a pair of the silent annotator and one with spans (two annotators without spans agree: kappa 1.0)
    silent = [p for p in res.pairs if "silent" in (p["a"], p["b"]) and p["counts"]["spans_a"] + p["counts"]["spans_b"]]
    assert silent
    assert all(p["f_exact"]["micro"]["value"] == 0.0 and p["kappa"]["micro"]["value"] <= 0.0 for p in silent)


def kappa_of(tp, fp, fn, tn):
    """Cohen's kappa of a 2x2 table, (po - pe) / (1 - pe); 1.0 when pe is 1 (both sides constant alike)."""
    n = tp + fp + fn + tn
    po = (tp + tn) / n
    pe = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / n ** 2
    return 1.0 if pe == pytest.approx(1.0, abs=1e-12) else (po - pe) / (1 - pe)


def assert_figures_of_the_counts(pair):
    """A pair's micro figures and every per-label row are what the counts beside them give."""
    c = pair["counts"]
    tp, fp, fn, tn = (c[k] for k in ("tp", "fp", "fn", "tn"))
    assert pair["kappa"]["micro"]["value"] == pytest.approx(kappa_of(tp, fp, fn, tn), abs=1e-9)
    assert pair["agreement"]["micro"]["value"] == pytest.approx((tp + tn) / (tp + fp + fn + tn), abs=1e-9)
    sa, sb, ex = c["spans_a"], c["spans_b"], c["exact"]
    assert pair["f_exact"]["micro"]["value"] == pytest.approx(2 * ex / (sa + sb) if sa + sb else 0.0)
    p, r = (c["hit_b"] / sb if sb else 0.0), (c["hit_a"] / sa if sa else 0.0)
    assert pair["f_overlap"]["micro"]["value"] == pytest.approx(2 * p * r / (p + r) if p + r else 0.0)
    for r in pair["labels"].values():
        assert r["kappa"]["value"] == pytest.approx(kappa_of(r["tp"], r["fp"], r["fn"], r["tn"]), abs=1e-9)
        assert r["agreement"]["value"] == pytest.approx((r["tp"] + r["tn"]) / (r["tp"] + r["fp"] + r["fn"] + r["tn"]))


def test_a_pairs_counts_leave_out_the_labels_neither_uses():
    res = ts_eval.agree({"a0": [[("C", 0, 1)]], "a1": [[("C", 0, 2)]], "a2": [[("A", 0, 1)]]}, lengths=[2])
    pair = next(p for p in res.pairs if (p["a"], p["b"]) == ("a0", "a1"))
    # C over units 0 (a0) and 0..2 (a1): both 1, a1 only 2, neither 0; A (a2's) is no label of theirs
    assert {k: pair["counts"][k] for k in ("tp", "fp", "fn", "tn")} == {"tp": 1.0, "fp": 2.0, "fn": 0.0, "tn": 0.0}
    assert pair["kappa"]["micro"]["value"] == 0.0 and pair["agreement"]["micro"]["value"] == pytest.approx(1 / 3)
    for p in res.pairs:
        assert_figures_of_the_counts(p)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(annotation_sets(), st.sampled_from([1.0, 0.5, 0.0]))
def test_every_pairs_figures_are_those_of_its_counts(data, weight):
    ann, lengths = data
    for p in ts_eval.agree(ann, lengths=lengths, separator_weight=weight).pairs:
        assert_figures_of_the_counts(p)


# ---------------------------------------------------------------------------
# the continuum of unitizing alpha


def test_the_continuum_in_atoms_of_the_separator_weight_and_in_characters(tmp_path):
    """``Ada Lovelace met Bob``; A marks [Ada Lovelace] and [Bob], B [Ada] and [Bob].  Weight 0.5: a token
    is 2 atoms, a separator 1 (L = 4 * 2 + 3 = 11); A's first unit is [0, 5), B's [0, 2): D_o =
    2 * 3^2 / (2 * 1 * 11^2).  Characters: tokens as long as their text, separators 1 (L = 20); A's
    [0, 12), B's [0, 3): D_o = 2 * 9^2 / (2 * 20^2)."""
    spans = {"A": [[("PER", 0, 2), ("PER", 3, 4)]], "B": [[("PER", 0, 1), ("PER", 3, 4)]]}
    half = ts_eval.agree(spans, lengths=[4], separator_weight=0.5)
    assert (half.settings["token_atoms"], half.settings["separator_atoms"]) == (2, 1)
    assert half.corpus["continuum_length"] == 11
    assert by_label(half)["PER"]["observed_u"] == pytest.approx(2 * 9 / (2 * 121))
    a = tmp_path / "A.conll"
    b = tmp_path / "B.conll"
    a.write_text("Ada B-PER\nLovelace I-PER\nmet O\nBob B-PER\n", encoding="utf-8")
    b.write_text("Ada B-PER\nLovelace O\nmet O\nBob B-PER\n", encoding="utf-8")
    chars = ts_eval.agree([str(a), str(b)], continuum="characters")
    assert chars.corpus["continuum_length"] == 20
    assert by_label(chars)["PER"]["observed_u"] == pytest.approx(2 * 81 / (2 * 400))
    # the TS figures do not depend on the continuum
    tokens = ts_eval.agree([str(a), str(b)])
    assert chars.pairs[0]["kappa"] == tokens.pairs[0]["kappa"]
    with pytest.raises(ts_eval.OptionError, match="continuum 'characters' needs the tokens"):
        ts_eval.agree(spans, lengths=[4], continuum="characters")
    with pytest.raises(ts_eval.OptionError, match="not a ratio"):
        ts_eval.agree(spans, lengths=[4], separator_weight=0.123456789)


def test_the_command_and_the_python_api_read_annotations_through_one_inputs(tmp_path):
    """``annotations_of`` reads what an ``Inputs`` describes, for ``ts-eval agree`` and ``read_annotations``
    alike: the same annotators and names, and one input that holds one annotation is an error naming the
    keyword (the command spells it ``--annotator-field FIELD``)."""
    from ts_eval.agreement.inputs import annotations_of, read_annotations
    from ts_eval.agreement.study import agreement as agree
    from ts_eval.io.inputs import Inputs

    path = tmp_path / "three.conll"
    path.write_text("EU B-ORG B-ORG B-ORG\nrejects O O O\nPeter B-PER B-PER O\n\nGerman B-MISC B-LOC B-MISC\n")
    given = annotations_of(Inputs.given(file=str(path), gold_column=2))
    assert given.names == ["col2", "col3", "col4"]
    python = read_annotations([str(path)])
    assert python.names == given.names and agree(given).to_dict() == agree(python).to_dict()
    assert annotations_of(Inputs.given(file=str(path), gold_column=2), ["a", "b", "c"]).names == ["a", "b", "c"]
    with pytest.raises(ts_eval.OptionError, match="2 names for 3 annotator columns"):
        annotations_of(Inputs.given(file=str(path), gold_column=2), ["a", "b"])
    text = tmp_path / "one.jsonl"
    text.write_text('{"text": "EU rejects", "spans": [[0, 2, "ORG"]]}\n')
    with pytest.raises(ts_eval.OptionError, match=r"holds one annotation: .* or annotator_field=FIELD for an export"):
        annotations_of(Inputs.given(file=str(text)))
