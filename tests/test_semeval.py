"""ts_eval.models.semeval (nervaluate's SemEval-2013 schemes) against nervaluate 1.2.1 itself.

The worked examples of nervaluate's README, hand-worked cases for the parts of its
algorithm that are easy to get wrong (which gold span a system span takes, a second
system span on a taken gold span, the 1% overlap threshold), then a few hundred seeded
random corpora -- ill-formed tags, nested spans of several labels, other overlap
thresholds, and the loop that finishes long contested chains -- compared count by
count and score by score with nervaluate (the same spans fed to both; on tags also
nervaluate's own IOB list loader).  Then the sums-of-sentences property and the
registry's ranking models.
"""
from __future__ import annotations

import random
from typing import Dict, List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nervaluate = pytest.importorskip("nervaluate")
from nervaluate import Evaluator  # noqa: E402

import ts_eval  # noqa: E402
from ts_eval.core.corpus import Corpus, SpanSet  # noqa: E402
from ts_eval.core.sequences import from_sequences, from_spans  # noqa: E402
from ts_eval.models import semeval  # noqa: E402
from ts_eval.models import semeval as semeval_family  # noqa: E402
from ts_eval.ranking import sufficient  # noqa: E402

SCHEMES = ("strict", "exact", "partial", "ent_type")
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


# ---------------------------------------------------------------------------
# helpers

def as_dicts(corpus: Corpus, spans: SpanSet) -> List[List[Dict]]:
    """nervaluate's list-of-dicts input: per sentence the spans in SpanSet order."""
    docs: List[List[Dict]] = [[] for _ in range(corpus.n_sentences)]
    for s, b, e, lab in zip(corpus.sentence_of(spans.start).tolist(), spans.start.tolist(), spans.last.tolist(),
                            spans.label.tolist()):
        o = int(corpus.sent_offsets[s])
        docs[s].append({"label": corpus.labels[lab], "start": b - o, "end": e - o})
    return docs


def ours(corpus: Corpus, pct: float = 1.0, system: str = "system") -> Dict:
    return semeval.semeval_model(corpus, corpus.systems[system], min_overlap_percentage=pct)


def differences(mine: Dict, ref: Dict) -> List[tuple]:
    """Every count and score where ts_eval and nervaluate's evaluate() output differ (exact equality)."""
    out = []

    def cmp(where, a, r):
        for k in COUNTS + ("precision", "recall"):
            if a[k] != getattr(r, k):
                out.append((where, k, a[k], getattr(r, k)))
        if a["f"] != r.f1:
            out.append((where, "f", a["f"], r.f1))

    for sch in SCHEMES:
        cmp((sch, "overall"), mine[sch]["overall"], ref["overall"][sch])
        present = {lab for lab, row in mine[sch]["labels"].items() if row["present"]}
        if present != set(ref["entities"]):
            out.append((sch, "labels", sorted(present), sorted(ref["entities"])))
        for lab in present & set(ref["entities"]):
            cmp((sch, lab), mine[sch]["labels"][lab], ref["entities"][lab][sch])
    return out


def reference_on_spans(corpus: Corpus, pct: float = 1.0, system: str = "system") -> Dict:
    return Evaluator(as_dicts(corpus, corpus.gold), as_dicts(corpus, corpus.systems[system]),
                     tags=list(corpus.labels), loader="dict", min_overlap_percentage=pct).evaluate()


def check_spans(corpus: Corpus, pct: float = 1.0) -> List[tuple]:
    return differences(ours(corpus, pct), reference_on_spans(corpus, pct))


def overall(corpus: Corpus, scheme: str) -> tuple:
    r = ours(corpus)[scheme]["overall"]
    return tuple(r[k] for k in ("correct", "incorrect", "partial", "missed", "spurious"))


# ---------------------------------------------------------------------------
# nervaluate's README

README_TRUE = [['O', 'B-PER', 'I-PER', 'O', 'O', 'O', 'B-ORG', 'I-ORG'],
               ['O', 'B-LOC', 'B-PER', 'I-PER', 'O', 'O', 'B-DATE']]
README_PRED = [['O', 'O', 'B-PER', 'I-PER', 'O', 'O', 'B-ORG', 'I-ORG'],
               ['O', 'B-LOC', 'I-LOC', 'B-PER', 'O', 'O', 'B-DATE']]


def test_readme_summary_report():
    """The README's summary_report tables (overall, and per entity under strict), as printed there."""
    c = from_sequences(README_TRUE, README_PRED)
    m = ours(c)
    printed = {"ent_type": (5, 0, 0, 0, 0, 1.00), "exact": (2, 3, 0, 0, 0, 0.40),
               "partial": (2, 0, 3, 0, 0, 0.70), "strict": (2, 3, 0, 0, 0, 0.40)}
    for sch, (*counts, score) in printed.items():
        assert overall(c, sch) == tuple(counts)
        row = m[sch]["overall"]
        assert [row["precision"], row["recall"], row["f"]] == pytest.approx([score] * 3)
    strict_entities = {"DATE": (1, 0, 0, 0, 0, 1.0), "LOC": (0, 1, 0, 0, 0, 0.0), "ORG": (1, 0, 0, 0, 0, 1.0),
                       "PER": (0, 2, 0, 0, 0, 0.0)}
    for lab, (*counts, score) in strict_entities.items():
        row = m["strict"]["labels"][lab]
        assert tuple(row[k] for k in COUNTS[:5]) == tuple(counts)
        assert row["f"] == score
    ev = Evaluator(README_TRUE, README_PRED, tags=["PER", "ORG", "LOC", "DATE"], loader="list")
    assert differences(m, ev.evaluate()) == []


# the README's scenario table: gold, prediction -> category under ent_type, partial, exact, strict
SCENARIOS = {
    "III missed": ([("BRAND", 0, 1)], [], ("missed",) * 4),
    "II spurious": ([], [("BRAND", 0, 1)], ("spurious",) * 4),
    "V boundary": ([("DRUG", 1, 2)], [("DRUG", 0, 2)], ("correct", "partial", "incorrect", "incorrect")),
    "IV type": ([("DRUG", 0, 1)], [("BRAND", 0, 1)], ("incorrect", "correct", "correct", "incorrect")),
    "I same": ([("DRUG", 0, 1)], [("DRUG", 0, 1)], ("correct",) * 4),
    "VI both": ([("GROUP", 1, 2)], [("DRUG", 0, 2)], ("incorrect", "partial", "incorrect", "incorrect")),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_readme_scenarios(name):
    gold, pred, cats = SCENARIOS[name]
    c = from_spans([2], [gold], [pred])
    m = ours(c)
    for sch, cat in zip(("ent_type", "partial", "exact", "strict"), cats):
        row = m[sch]["overall"]
        assert row[cat] == 1 and sum(row[k] for k in COUNTS[:5]) == 1, (sch, row)
    assert check_spans(c) == []


def test_readme_scenarios_together():
    """All six scenarios as one corpus: ent_type COR 2, INC 2; partial COR 2, PAR 2; exact COR 2, INC 2;
    strict COR 1, INC 3; each MIS 1, SPU 1 (possible = actual = 5)."""
    items = list(SCENARIOS.values())
    c = from_spans([2] * len(items), [g for g, _, _ in items], [p for _, p, _ in items])
    assert overall(c, "ent_type") == (2, 2, 0, 1, 1)
    assert overall(c, "partial") == (2, 0, 2, 1, 1)
    assert overall(c, "exact") == (2, 2, 0, 1, 1)
    assert overall(c, "strict") == (1, 3, 0, 1, 1)
    m = ours(c)
    assert m["partial"]["overall"]["precision"] == pytest.approx(3 / 5)
    assert m["strict"]["overall"]["f"] == pytest.approx(1 / 5)
    assert m["strict"]["overall"]["possible"] == m["strict"]["overall"]["gold"] == 5
    assert check_spans(c) == []


# ---------------------------------------------------------------------------
# hand-worked cases of the algorithm


def test_a_system_span_over_two_gold_spans_takes_the_first():
    # gold PER 0-1, PER 2-3; system PER 1-2: incorrect (strict) for gold 0-1, gold 2-3 missed
    c = from_spans([4], [[("PER", 0, 2), ("PER", 2, 4)]], [[("PER", 1, 3)]])
    assert overall(c, "strict") == (0, 1, 0, 1, 0)
    assert overall(c, "partial") == (0, 0, 1, 1, 0)
    # ent_type: both at distance 2; the first wins
    assert overall(c, "ent_type") == (1, 0, 0, 1, 0)
    assert check_spans(c) == []


def test_ent_type_takes_the_closest_same_label_gold_span():
    # system PER 1-3 overlaps gold PER 0-1 (distance 1 + 2 = 3) and PER 2-3 (distance 1): takes 2-3;
    # then system PER 0-0 can still take gold 0-1 -> two correct, nothing missed
    c = from_spans([4], [[("PER", 0, 2), ("PER", 2, 4)]], [[("PER", 0, 1), ("PER", 1, 4)]])
    # SpanSet order: (0, 0) first; it takes gold 0-1, then 1-3 takes 2-3
    assert overall(c, "ent_type") == (2, 0, 0, 0, 0)
    c2 = from_spans([4], [[("PER", 0, 2), ("PER", 2, 4)]], [[("PER", 1, 4)]])
    m = ours(c2)["ent_type"]["overall"]
    assert (m["correct"], m["missed"]) == (1, 1)
    assert check_spans(c) == [] and check_spans(c2) == []


def test_a_second_system_span_on_a_taken_gold_span_is_spurious():
    # gold LOC 0-3; system LOC 0-1 and LOC 2-3: the first is incorrect/partial, the second spurious
    c = from_spans([4], [[("LOC", 0, 4)]], [[("LOC", 0, 2), ("LOC", 2, 4)]])
    assert overall(c, "strict") == (0, 1, 0, 0, 1)
    assert overall(c, "partial") == (0, 0, 1, 0, 1)
    assert overall(c, "ent_type") == (1, 0, 0, 0, 1)
    m = ours(c)["partial"]["overall"]
    assert (m["precision"], m["recall"]) == (0.25, 0.5)
    assert check_spans(c) == []


def test_strict_prefers_a_later_exact_match_over_an_earlier_overlap():
    # nested gold: ORG 0-3 then ORG 1-2 (SpanSet order); system ORG 1-2 is correct for the second
    c = from_spans([4], [[("ORG", 0, 4), ("ORG", 1, 3)]], [[("ORG", 1, 3)]])
    assert overall(c, "strict") == (1, 0, 0, 1, 0)
    assert check_spans(c) == []


def test_label_rows_are_evaluations_of_one_label():
    # system ORG over gold LOC: overall incorrect (strict), but in the ORG row spurious, in LOC missed
    c = from_spans([3], [[("LOC", 0, 2)]], [[("ORG", 0, 2)]])
    m = ours(c)["strict"]
    assert (m["overall"]["incorrect"], m["labels"]["ORG"]["spurious"], m["labels"]["LOC"]["missed"]) == (1, 1, 1)
    assert check_spans(c) == []


def test_one_percent_of_a_long_gold_span():
    # a 101-token gold span shares 1 token with the system span: 1/101 < 1% -> spurious and missed
    c = from_spans([101], [[("X", 0, 101)]], [[("X", 100, 101)]])
    assert overall(c, "ent_type") == (0, 0, 0, 1, 1)
    c100 = from_spans([100], [[("X", 0, 100)]], [[("X", 99, 100)]])   # 1/100 = 1%: enough
    assert overall(c100, "ent_type") == (1, 0, 0, 0, 0)
    assert check_spans(c) == [] and check_spans(c100) == []


def test_min_overlap_percentage():
    c = from_spans([4], [[("X", 0, 4)]], [[("X", 0, 2)], ])
    assert overall(c, "partial") == (0, 0, 1, 0, 0)
    m = semeval.semeval_model(c, c.systems["system"], min_overlap_percentage=51)
    assert tuple(m["partial"]["overall"][k] for k in COUNTS[:5]) == (0, 0, 0, 1, 1)
    assert m["min_overlap_percentage"] == 51.0
    assert check_spans(c, 50) == [] and check_spans(c, 51) == []
    with pytest.raises(ValueError, match="min_overlap_percentage"):
        semeval.semeval_model(c, c.systems["system"], min_overlap_percentage=0.5)


def test_empty_sides():
    c = from_spans([3, 2], [[("A", 0, 2)], []], [[], [("B", 0, 1)]])
    m = ours(c)
    assert overall(c, "strict") == (0, 0, 0, 1, 1)
    assert m["strict"]["overall"]["f"] == 0.0
    assert check_spans(c) == []
    none = from_spans([2], [[]], [[]])
    assert overall(none, "strict") == (0, 0, 0, 0, 0)


# ---------------------------------------------------------------------------
# random corpora against nervaluate

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "I-MISC"]


def random_tags(rng: random.Random, well_formed: bool):
    n = rng.randint(1, 10)
    lens = [rng.randint(1, 14) for _ in range(n)]

    def sent(m):
        tags = [rng.choice(TAGS) for _ in range(m)]
        if well_formed:   # IOB2: an I- tag only after B-/I- of its type
            for i, t in enumerate(tags):
                if t.startswith("I-") and (i == 0 or tags[i - 1] == "O" or tags[i - 1][2:] != t[2:]):
                    tags[i] = "B-" + t[2:]
        return tags

    return [sent(m) for m in lens], [sent(m) for m in lens]


@pytest.mark.slow
@pytest.mark.parametrize("well_formed", [False, True])
def test_random_tag_corpora(well_formed):
    """Ill-formed and well-formed tags: the decoded spans fed to both; nervaluate's own IOB list
    loader too, which decodes B-/I-/O tags exactly as ts_eval's conlleval policy does."""
    rng = random.Random(13 + well_formed)
    for _ in range(150):
        gold, pred = random_tags(rng, well_formed)
        c = from_sequences(gold, pred)
        mine = ours(c)
        assert differences(mine, reference_on_spans(c)) == [], (gold, pred)
        labels = sorted({t[2:] for s in gold + pred for t in s if t != "O"})
        ref = Evaluator(gold, pred, tags=labels, loader="list").evaluate()
        assert differences(mine, ref) == [], (gold, pred)


def random_spans(rng: random.Random, n: int, k: int, labels=("A", "B", "C"), longest: int = 5):
    out = {(rng.choice(labels), b, min(n, b + 1 + rng.randrange(longest))) for b in
           (rng.randrange(n) for _ in range(k))}
    return sorted(out)


@pytest.mark.parametrize("max_rounds", [semeval.MAX_ROUNDS, 1])
def test_random_nested_spans(monkeypatch, max_rounds):
    """Overlapping and nested spans of several labels (contested choices everywhere); with
    MAX_ROUNDS = 1 the sequential finish does almost all the work."""
    monkeypatch.setattr(semeval, "MAX_ROUNDS", max_rounds)
    rng = random.Random(7 + max_rounds)
    for _ in range(150):
        lens = [rng.randint(1, 16) for _ in range(rng.randint(1, 4))]
        gold = [random_spans(rng, m, rng.randint(0, 7)) for m in lens]
        pred = [random_spans(rng, m, rng.randint(0, 7)) for m in lens]
        c = from_spans(lens, gold, pred)
        assert check_spans(c) == [], (lens, gold, pred)


def test_random_thresholds_and_long_spans():
    rng = random.Random(99)
    for _ in range(60):
        lens = [rng.randint(50, 260) for _ in range(rng.randint(1, 3))]
        gold = [random_spans(rng, m, rng.randint(0, 5), longest=200) for m in lens]
        pred = [random_spans(rng, m, rng.randint(0, 5), longest=60) for m in lens]
        c = from_spans(lens, gold, pred)
        pct = rng.choice([1.0, 1.0, 2.5, 33.3, 50.0, 100.0])
        assert check_spans(c, pct) == [], (lens, gold, pred, pct)


def test_long_contested_chain():
    """Staggered spans (each system span overlaps two gold spans): a chain of contested choices
    longer than MAX_ROUNDS, finished by the loop."""
    n = 2 * (semeval.MAX_ROUNDS + 20)
    gold = [("A", i, i + 2) for i in range(0, n - 1, 2)]
    pred = [("A", i, i + 2) for i in range(1, n - 1, 2)]
    c = from_spans([n], [gold], [pred])
    assert check_spans(c) == []
    assert overall(c, "strict") == (0, len(pred), 0, len(gold) - len(pred), 0)


# ---------------------------------------------------------------------------
# statistics, the API and the registry


def test_sentence_sums_are_the_totals():
    rng = random.Random(5)
    gold, pred = random_tags(rng, False)
    c = from_sequences(gold, pred)
    stats = semeval.semeval_stats(c, c.gold, c.systems["system"])
    assert stats.shape == (c.n_sentences, 4 * (1 + len(c.labels)) * 5)
    assert np.all(stats >= 0)
    # the counts of any multiset of sentences are that sub-corpus's counts (as nervaluate gives them)
    for keep in ([0], [len(gold) - 1, 0], [1, 1, 2] if len(gold) > 2 else [0, 0]):
        mine = semeval.semeval_result(stats[keep].sum(0), c.labels)
        g, p = as_dicts(c, c.gold), as_dicts(c, c.systems["system"])
        ref = Evaluator([g[k] for k in keep], [p[k] for k in keep], tags=list(c.labels), loader="dict").evaluate()
        assert differences(mine, ref) == []


def test_evaluate_and_score_api():
    rep = ts_eval.score(README_TRUE, README_PRED, models=("exact", "semeval"))
    m = rep.system("system")["semeval"]
    assert m["partial"]["overall"]["f"] == pytest.approx(0.7)
    assert m["strict"]["overall"]["correct"] == rep.system("system")["exact"]["micro"]["tp"]
    with pytest.raises(ValueError, match="unknown model"):
        ts_eval.score(README_TRUE, README_PRED, models=("semevals",))


def test_ranking_models():
    names = [m.name for m in sufficient.resolve_models(["exact-f1-micro", "semeval"])]
    assert names == ["exact-f1-micro", "semeval-strict-f1", "semeval-exact-f1", "semeval-partial-f1",
                     "semeval-ent-type-f1"]
    rng = random.Random(3)
    gold, p1 = random_tags(rng, False)
    _, p2 = random_tags(rng, False)
    p2 = [s[:len(g)] + ["O"] * (len(g) - len(s)) for s, g in zip(p2, gold)]
    c = from_sequences(gold, {"a": p1, "b": p2})
    sm = sufficient.statistics(c, sufficient.resolve_models(["semeval"]))
    rep = ts_eval.score(c, models=("semeval",))
    cd = sufficient.CorpusData(c)
    for name in ("a", "b"):
        x = cd.system(name).stats(semeval_family.stats).sum(0)
        for sch in SCHEMES:
            model = sufficient.get_model(f"semeval-{sch.replace('_', '-')}-f1")
            assert float(model.score(x)) == rep.system(name)["semeval"][sch]["overall"]["f"]
    assert sm.data.shape[0] == c.n_sentences


# ---------------------------------------------------------------------------
# span by span: nervaluate's *_indices


def indices_of(corpus: Corpus, o: semeval.SpanOutcomes, by_label: bool) -> Dict:
    """nervaluate's index lists from ts_eval's per-span codes: (sentence, position in the
    sentence's list -- of the span's label alone in a label's evaluation)."""
    def local(spans: SpanSet):
        sent = corpus.sentence_of(spans.start).tolist()
        seen: Dict[tuple, int] = {}
        pos = []
        for s, lab in zip(sent, spans.label.tolist()):   # earlier spans of the same sentence (and label)
            key = (s, lab if by_label else None)
            pos.append(seen.get(key, 0))
            seen[key] = pos[-1] + 1
        return list(zip(sent, pos)), spans.label.tolist()

    s_loc, s_lab = local(corpus.systems["system"])
    g_loc, g_lab = local(corpus.gold)
    out: Dict = {}
    for code, name in enumerate(("correct", "incorrect", "partial", "missed", "spurious")):
        rows = [(corpus.labels[s_lab[i]] if by_label else None, s_loc[i]) for i in np.flatnonzero(o.system == code)]
        if name == "missed":
            rows = [(corpus.labels[g_lab[i]] if by_label else None, g_loc[i]) for i in np.flatnonzero(o.gold == code)]
        out[name] = sorted(rows)
    return out


def test_span_categories_equal_nervaluates_indices():
    rng = random.Random(21)
    for _ in range(80):
        lens = [rng.randint(1, 12) for _ in range(rng.randint(1, 3))]
        c = from_spans(lens, [random_spans(rng, m, rng.randint(0, 5)) for m in lens],
                       [random_spans(rng, m, rng.randint(0, 5)) for m in lens])
        ref = reference_on_spans(c)
        for sch in SCHEMES:
            for by_label in (False, True):
                o = semeval.span_outcomes(c.gold, c.systems["system"], scheme=sch, by_label=by_label)
                mine = indices_of(c, o, by_label)
                if by_label:
                    theirs = {name: sorted((lab, tuple(ix)) for lab, r in ref["entity_indices"].items()
                                           for ix in getattr(r[sch], f"{name}_indices")) for name in mine}
                else:
                    theirs = {name: sorted((None, tuple(ix)) for ix in getattr(ref["overall_indices"][sch],
                                                                                 f"{name}_indices")) for name in mine}
                assert mine == theirs, (sch, by_label)
                taken = o.gold_system >= 0       # partners agree both ways
                assert np.array_equal(o.system_gold[o.gold_system[taken]], np.flatnonzero(taken))
    with pytest.raises(ValueError, match="unknown scheme"):
        semeval.span_outcomes(c.gold, c.systems["system"], scheme="type")


# ---------------------------------------------------------------------------
# invariants


@st.composite
def span_corpora(draw):
    lens = draw(st.lists(st.integers(1, 12), min_size=1, max_size=4))

    def side():
        return [sorted(set(draw(st.lists(st.tuples(st.sampled_from("AB"), st.integers(0, n - 1), st.integers(0, 3))
                                         .map(lambda t, n=n: (t[0], t[1], min(n, t[1] + t[2] + 1))), max_size=5))))
                for n in lens]

    return lens, side(), side()


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(span_corpora())
def test_invariants(corpus_spans):
    """possible = gold spans and actual = system spans in every scheme and row; partial makes
    exact's choices (its incorrect are partial's partial); in a label's row strict is exact."""
    lens, gold, pred = corpus_spans
    c = from_spans(lens, gold, pred)
    m = ours(c)
    n_gold, n_sys = len(c.gold), len(c.systems["system"])
    for sch in SCHEMES:
        o = m[sch]["overall"]
        assert (o["possible"], o["actual"]) == (n_gold, n_sys)
        for k, lab in enumerate(c.labels):
            row = m[sch]["labels"][lab]
            assert row["possible"] == int((c.gold.label == k).sum())
            assert row["actual"] == int((c.systems["system"].label == k).sum())
    ex, pa = m["exact"]["overall"], m["partial"]["overall"]
    assert (pa["correct"], pa["partial"], pa["missed"], pa["spurious"]) == \
        (ex["correct"], ex["incorrect"], ex["missed"], ex["spurious"])
    for lab in c.labels:   # per label, strict and exact count the same
        a, b = m["strict"]["labels"][lab], m["exact"]["labels"][lab]
        assert a == b


# ---------------------------------------------------------------------------
# the command line

def test_cli_score_and_rank(tmp_path, capsys):
    import csv
    import io
    import json

    from support import run_cli, write

    f = write(tmp_path / "two.conll", "John B-PER B-PER B-PER\nSmith I-PER O I-PER\nvisits O O O\n"
                                      "Paris B-LOC B-LOC B-ORG\n\nHe O O O\nleft O B-ORG O\n")
    base = ["score", f, "--gold-col", "2", "--system-col", "3", "4", "--names", "A", "B", "--models", "semeval"]
    code, out, err = run_cli(base + ["--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    a = data["systems"][0]["semeval"]
    # A: PER John (gold John Smith) INC / PAR, LOC Paris COR, ORG left SPU
    assert {k: a["strict"]["overall"][k] for k in ("correct", "incorrect", "spurious", "possible", "actual")} == \
        {"correct": 1, "incorrect": 1, "spurious": 1, "possible": 2, "actual": 3}
    assert (a["partial"]["overall"]["precision"], a["partial"]["overall"]["recall"]) == (0.5, 0.75)
    b = data["systems"][1]["semeval"]   # B: PER COR; ORG Paris on gold LOC: strict INC, exact COR
    assert (b["strict"]["overall"]["incorrect"], b["exact"]["overall"]["correct"]) == (1, 2)
    assert b["strict"]["labels"]["ORG"]["spurious"] == 1 and b["strict"]["labels"]["LOC"]["missed"] == 1
    code, out, err = run_cli(base + ["--format", "csv"], capsys)
    assert code == 0, err
    # the document's long CSV: system A's SemEval table is "semeval-A", a row is "scheme/label"
    rows = {(r["table"], r["row"], r["column"]): r["value"] for r in csv.DictReader(io.StringIO(out))}
    assert rows[("semeval-A", "partial/overall", "partial")] == "1"
    assert float(rows[("semeval-B", "strict/overall", "f")]) == 0.5
    code, out, err = run_cli(base + ["--per-label"], capsys)   # two systems: every score with --per-label
    assert code == 0, err
    assert "SemEval-2013" in out and "ent_type" in out
    code, out, err = run_cli(base, capsys)                      # first, each model's F and rank
    assert code == 0, err
    assert all(w in out.split() for w in ("SemEval", "strict", "partial"))   # headers, stacked
    strict = [f"{100 * s['semeval']['strict']['overall']['f']:.2f}" for s in data["systems"]]
    assert all(v in out for v in strict)
    code, out, err = run_cli(["rank", f, "--gold-col", "2", "--system-col", "3", "4", "--names", "A", "B",
                              "--models", "semeval", "--bootstrap", "10", "--permutations", "10",
                              "--no-progress", "--format", "json"], capsys)
    assert code == 0, err
    ranked = json.loads(out)
    assert [m["name"] for m in ranked["models"]][1:] == list(sufficient.GROUPS["semeval"])
    got = {s["name"]: s["models"]["semeval-partial-f1"]["score"] for s in ranked["systems"]}
    assert got["A"] == pytest.approx(a["partial"]["overall"]["f"])
