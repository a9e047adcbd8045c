"""Ranking many systems: sufficient statistics, rank correlations, bootstrap, permutation test, CLI.

All data here are synthetic (generated below); nothing is read from outside the repository.
"""
from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import iob2

from ts_eval import InputError
from ts_eval.cli import main as rank_main
from ts_eval.cli.outputs import json_text
from ts_eval.core.sequences import from_spans
from ts_eval.errors import OptionError
from ts_eval.models.evaluate import evaluate
from ts_eval.models.ts import ts_counts
from ts_eval.output.builders import build
from ts_eval.output.renderers import render
from ts_eval.ranking import statistics, sufficient
from ts_eval.ranking import study as ranking

scipy_stats = pytest.importorskip("scipy.stats")

LABELS = ("LOC", "ORG", "PER")

# ---------------------------------------------------------------------------
# synthetic data


def make_data(n_sent: int, seed: int, n_systems: int = 3, nested: bool = False):
    """Sentence lengths, gold spans and ``n_systems`` noisy systems (per sentence (label, first, last))."""
    rnd = random.Random(seed)
    lengths, gold = [], []
    for _ in range(n_sent):
        n = rnd.randint(3, 14)
        spans, t = [], 0
        while t < n:
            if rnd.random() < 0.3:
                e = min(n - 1, t + rnd.choice((0, 0, 1, 1, 2, 3)))
                spans.append((rnd.choice(LABELS), t, e))
                t = e + 2
            else:
                t += 1
        if nested and spans and rnd.random() < 0.3:
            lab, b, e = spans[0]
            spans = sorted(set(spans + [(rnd.choice(LABELS), b, min(n - 1, e + 1))]), key=lambda x: (x[1], x[2], x[0]))
        lengths.append(n)
        gold.append(spans)
    systems = {}
    for k in range(n_systems):
        noise = 0.1 + 0.12 * k
        out = []
        for n, spans in zip(lengths, gold):
            sent = set()
            for lab, b, e in spans:
                r = rnd.random()
                if r < noise / 3:
                    continue                                       # missed
                if r < 2 * noise / 3:
                    lab = rnd.choice(LABELS)                       # label switch
                elif r < noise:
                    b, e = max(0, b - rnd.randint(0, 1)), min(n - 1, e + rnd.randint(0, 1))  # boundary
                sent.add((lab, b, e))
            if rnd.random() < noise:
                b = rnd.randrange(n)
                sent.add((rnd.choice(LABELS), b, min(n - 1, b + rnd.randint(0, 2))))
            if not nested:   # keep the spans of one sentence disjoint (taggable as IOB2)
                kept, last = [], -1
                for lab, b, e in sorted(sent, key=lambda x: (x[1], x[2], x[0])):
                    if b > last:
                        kept.append((lab, b, e))
                        last = e
                sent = kept
            out.append(sorted(sent, key=lambda x: (x[1], x[2], x[0])))
        systems[f"sys{k}"] = out

    def exclusive(side):   # drawn as first..last tokens; the API takes (label, start, end), end exclusive
        return [[(lab, b, e + 1) for lab, b, e in sent] for sent in side]
    return lengths, exclusive(gold), {k: exclusive(v) for k, v in systems.items()}


def make_corpus(n_sent: int, seed: int, n_systems: int = 3, nested: bool = False):
    lengths, gold, systems = make_data(n_sent, seed, n_systems, nested)
    return from_spans(lengths, gold, systems)


def write_conll(path, lengths, columns, docs_every: int = 0) -> None:
    """TOKEN COL1 COL2 ...; ``columns`` is a list of per-sentence span lists."""
    lines = []
    for s, n in enumerate(lengths):
        if docs_every and s % docs_every == 0:
            lines += ["-DOCSTART-" + " O" * len(columns), ""]
        tags = [iob2(n, col[s]) for col in columns]
        for t in range(n):
            lines.append(" ".join([f"w{s}_{t}"] + [tg[t] for tg in tags]))
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def reference_scores(report, report_t, name):
    """Every registry model's number as evaluate() reports it."""
    s, s0 = report.system(name), report_t.system(name)
    return {
        "exact-f1-micro": s["exact"]["micro"]["f"], "exact-f1-macro": s["exact"]["macro"]["f"],
        "ts-f1-micro": s["ts"]["micro"]["f"], "ts-f1-macro": s["ts"]["macro"]["f"],
        "t-f1-micro": s0["ts"]["micro"]["f"], "t-f1-macro": s0["ts"]["macro"]["f"],
        "ts-kappa-micro": s["ts"]["micro"]["kappa"], "ts-kappa-macro": s["ts"]["macro"]["kappa"],
        "overlap-f1-micro": s["overlap"]["micro"]["f"], "overlap-f1-macro": s["overlap"]["macro"]["f"],
        "constrained-f1-micro": s["constrained"]["micro"]["f"], "contain-f1-micro": s["contain"]["micro"]["f"],
    }


SEGMENT = ("ts", "exact", "overlap", "constrained", "contain")
BUILTIN = [m for m in sufficient.REGISTRY if m in (
    "exact-f1-micro", "exact-f1-macro", "ts-f1-micro", "ts-f1-macro", "t-f1-micro", "t-f1-macro",
    "ts-kappa-micro", "ts-kappa-macro", "overlap-f1-micro", "overlap-f1-macro", "constrained-f1-micro",
    "contain-f1-micro")]

# ---------------------------------------------------------------------------
# sufficient statistics


def check_sums_equal_evaluate(corpus):
    models = sufficient.resolve_models(BUILTIN)
    sm = sufficient.statistics(corpus, models)
    got = sm.scores(sm.totals)
    rep = evaluate(corpus, models=SEGMENT)
    rep_t = evaluate(corpus, separator_weight=0.0, models=("ts",))
    for i, name in enumerate(sm.systems):
        ref = reference_scores(rep, rep_t, name)
        for k, m in enumerate(models):
            assert got[i, k] == pytest.approx(ref[m.name], abs=1e-12), (name, m.name)
        # the counts themselves, not only the scores
        ts = sm.block(sm.totals, sufficient.get_model("ts-f1-macro"))[i]
        counts = ts_counts(corpus, corpus.gold, corpus.systems[name])
        assert ts[0] == corpus.n_tokens and ts[1] == corpus.n_separators
        per = ts[2:].reshape(-1, 6)
        np.testing.assert_array_equal(per[:, :3], counts.tok)
        np.testing.assert_array_equal(per[:, 3:], counts.sep)
        ex = sm.block(sm.totals, sufficient.get_model("exact-f1-micro"))[i].reshape(-1, 4)
        lab = rep.system(name)["exact"]["labels"]
        for j, label in enumerate(corpus.labels):
            assert (ex[j, 0], ex[j, 1], ex[j, 2]) == (lab[label]["gold"], lab[label]["system"], lab[label]["tp"])


def test_sufficient_statistics_sum_to_evaluate():
    check_sums_equal_evaluate(make_corpus(300, seed=1, n_systems=4))


def test_sufficient_statistics_sum_to_evaluate_nested_spans():
    check_sums_equal_evaluate(make_corpus(200, seed=2, n_systems=3, nested=True))


span = st.tuples(st.sampled_from(LABELS), st.integers(0, 7), st.integers(0, 3))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 8), st.lists(span, max_size=4), st.lists(span, max_size=4),
                          st.lists(span, max_size=4)), min_size=1, max_size=6))
def test_sufficient_statistics_property(sents):
    lengths, gold, a, b = [], [], [], []
    for n, g, s1, s2 in sents:
        lengths.append(n)
        for out, spans in ((gold, g), (a, s1), (b, s2)):
            fixed = sorted({(lab, min(x, n - 1), min(x + w, n - 1) + 1) for lab, x, w in spans})   # end exclusive
            out.append(fixed)
    check_sums_equal_evaluate(from_spans(lengths, gold, {"a": a, "b": b}))


def test_one_resample_equals_re_evaluating_the_resampled_corpus():
    lengths, gold, systems = make_data(80, seed=3)
    corpus = from_spans(lengths, gold, systems)
    models = sufficient.resolve_models(BUILTIN)
    sm = sufficient.statistics(corpus, models)
    w = ranking.bootstrap_weights(np.random.default_rng(7), 1, len(lengths))[0]
    picked = np.repeat(np.arange(len(lengths)), w.astype(int))
    resampled = from_spans([lengths[s] for s in picked], [gold[s] for s in picked],
                           {k: [v[s] for s in picked] for k, v in systems.items()})
    rep = evaluate(resampled, models=SEGMENT)
    rep_t = evaluate(resampled, separator_weight=0.0, models=("ts",))
    got = sm.scores(w @ sm.data)
    for i, name in enumerate(sm.systems):
        ref = reference_scores(rep, rep_t, name)
        for k, m in enumerate(models):
            assert got[i, k] == pytest.approx(ref[m.name], abs=1e-12), (name, m.name)


def test_document_statistics_sum_to_the_same_totals():
    lengths, gold, systems = make_data(60, seed=4)
    corpus = from_spans(lengths, gold, systems)
    # three documents, starting at sentences 0, 10 and 33
    corpus.doc_offsets = np.array([0, corpus.sent_offsets[10], corpus.sent_offsets[33], corpus.n_tokens])
    models = sufficient.resolve_models(["ts-f1-macro", "exact-f1-micro"])
    by_sent = sufficient.statistics(corpus, models)
    by_doc = sufficient.statistics(corpus, models, unit="document")
    assert by_doc.n_units == 3
    np.testing.assert_array_equal(by_doc.unit_sizes, [10, 23, 27])
    np.testing.assert_allclose(by_doc.totals, by_sent.totals)
    np.testing.assert_allclose(by_doc.data[0], by_sent.data[:10].sum(0))


def test_document_unit_needs_documents():
    corpus = make_corpus(20, seed=5)
    with pytest.raises(OptionError, match="DOCSTART"):
        ranking.rank_corpus(corpus, unit="document", bootstrap=10, permutations=0)


def test_unknown_and_unavailable_models():
    corpus = make_corpus(20, seed=5)
    with pytest.raises(OptionError, match="unknown model"):
        ranking.rank_corpus(corpus, models=["no-such-model"], bootstrap=0, permutations=0)
    for name in sufficient.UNAVAILABLE:
        with pytest.raises(OptionError, match="not available"):
            sufficient.get_model(name)


# ---------------------------------------------------------------------------
# rank correlations


@pytest.mark.parametrize("seed", range(8))
def test_spearman_and_kendall_against_scipy_random(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 30))
    x, y = rng.normal(size=n), rng.normal(size=n)
    y = 0.6 * x + y
    rho, tied = statistics.spearman(x, y)
    assert not tied
    assert rho == pytest.approx(scipy_stats.spearmanr(x, y)[0], abs=1e-12)
    assert statistics.kendall_tau_b(x, y) == pytest.approx(scipy_stats.kendalltau(x, y)[0], abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_spearman_and_kendall_against_scipy_with_ties(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(5, 25))
    x = rng.integers(0, 4, size=n).astype(float)
    y = x + rng.integers(0, 3, size=n)
    rho, tied = statistics.spearman(x, y)
    assert tied
    assert rho == pytest.approx(scipy_stats.spearmanr(x, y)[0], abs=1e-12)
    assert statistics.kendall_tau_b(x, y) == pytest.approx(scipy_stats.kendalltau(x, y)[0], abs=1e-12)


def test_average_ranks_against_scipy():
    x = np.array([0.5, 0.9, 0.5, 0.1, 0.9, 0.7])
    np.testing.assert_array_equal(statistics.average_ranks(x), scipy_stats.rankdata(-x))   # 1 = highest
    np.testing.assert_array_equal(statistics.average_ranks(x), [4.5, 1.5, 4.5, 6, 1.5, 3])


def test_spearman_formula_on_the_rank_rows_of_table_2():
    """Esuli & Sebastiani (2010), Table 2, English: for each position of the TS-F1M and T-F1M
    rankings, the system's original (Seg-F1 micro) rank."""
    ts_row = [1, 2, 3, 4, 11, 8, 6, 5, 10, 7, 9, 14, 15, 13, 12, 16]
    t_row = [1, 2, 3, 4, 11, 6, 8, 5, 7, 10, 9, 14, 15, 12, 13, 16]
    seg = np.arange(1, 17)                  # system k (its original rank) has Seg rank k
    ts = np.empty(16)
    ts[np.array(ts_row) - 1] = np.arange(1, 17)   # system ts_row[pos] has TS rank pos + 1
    t = np.empty(16)
    t[np.array(t_row) - 1] = np.arange(1, 17)
    # Seg vs TS, |d| per system 1..16: 0 0 0 0 3 1 3 2 2 1 6 3 1 2 2 0 -> sum d^2 = 82
    expected_seg_ts = 1 - 6 * 82 / (16 * (16 ** 2 - 1))            # = 1 - 492/4080 = 0.8794...
    # Seg vs T:  0 0 0 0 3 0 2 1 2 0 6 2 2 2 2 0 -> sum d^2 = 70
    expected_seg_t = 1 - 6 * 70 / (16 * 255)                       # = 0.8971...
    # TS vs T: systems 6, 7, 8, 10, 12, 13 each move one place -> sum d^2 = 6
    expected_ts_t = 1 - 6 * 6 / (16 * 255)                         # = 0.9912...
    assert statistics.spearman_formula(seg, ts) == pytest.approx(expected_seg_ts, abs=1e-15)
    assert statistics.spearman_formula(seg, t) == pytest.approx(expected_seg_t, abs=1e-15)
    assert statistics.spearman_formula(ts, t) == pytest.approx(expected_ts_t, abs=1e-15)
    assert round(expected_seg_ts, 3) == 0.879 and round(expected_seg_t, 3) == 0.897
    assert round(expected_ts_t, 3) == 0.991
    # spearman() on scores (higher = better) uses the formula and agrees
    rho, tied = statistics.spearman(-seg, -ts)
    assert not tied and rho == pytest.approx(expected_seg_ts, abs=1e-15)
    assert rho == pytest.approx(scipy_stats.spearmanr(seg, ts)[0], abs=1e-12)


def test_correlation_matrices_and_constant_model():
    scores = np.array([[0.9, 0.8, 0.5], [0.8, 0.9, 0.5], [0.7, 0.6, 0.5], [0.6, 0.7, 0.5]])
    rho, tied, tau = statistics.correlation_matrices(scores)
    assert rho[0, 1] == pytest.approx(1 - 6 * 4 / (4 * 15))        # two swaps of neighbours: sum d^2 = 4
    assert tau[0, 1] == pytest.approx(scipy_stats.kendalltau(scores[:, 0], scores[:, 1])[0])
    assert np.isnan(rho[0, 2]) and np.isnan(tau[2, 2])             # a constant model has no ranking
    assert tied[0, 2] and not tied[0, 1]


# ---------------------------------------------------------------------------
# bootstrap and permutation test


@pytest.mark.slow
def test_bootstrap_intervals_shrink_as_data_grow():
    small = ranking.rank_corpus(make_corpus(60, seed=11), bootstrap=400, permutations=0, seed=1,
                                models=BUILTIN)
    large = ranking.rank_corpus(make_corpus(960, seed=11), bootstrap=400, permutations=0, seed=1,
                                models=BUILTIN)
    w_small = small.bootstrap.score_high - small.bootstrap.score_low
    w_large = large.bootstrap.score_high - large.bootstrap.score_low
    assert np.all(w_small > 0)
    # 16 times the data: about a quarter of the width; allow for noise
    assert np.all(w_large < 0.5 * w_small), (w_large / w_small).round(2)
    assert np.all(large.bootstrap.score_low <= large.scores) and np.all(large.scores <= large.bootstrap.score_high)


@pytest.mark.slow
def test_bootstrap_is_seeded_and_rank_distributions_are_distributions():
    corpus = make_corpus(150, seed=12, n_systems=4)
    a = ranking.rank_corpus(corpus, bootstrap=200, permutations=100, seed=5)
    b = ranking.rank_corpus(corpus, bootstrap=200, permutations=100, seed=5)
    c = ranking.rank_corpus(corpus, bootstrap=200, permutations=100, seed=6)
    np.testing.assert_array_equal(a.bootstrap.score_low, b.bootstrap.score_low)
    np.testing.assert_array_equal(a.permutation.p_next, b.permutation.p_next)
    assert not np.array_equal(a.bootstrap.score_low, c.bootstrap.score_low)
    d = a.bootstrap
    np.testing.assert_allclose(d.rank_dist.sum(-1), 1.0)
    assert np.all((d.keep >= 0) & (d.keep <= 1))
    assert np.all(d.rank_low <= d.rank_high)
    # keep = the probability mass at the observed rank (no ties here)
    obs = a.ranks.astype(int) - 1
    np.testing.assert_allclose(np.take_along_axis(d.rank_dist, obs[..., None], -1)[..., 0], d.keep)


def test_permutation_test_finds_no_difference_between_a_system_and_itself():
    lengths, gold, systems = make_data(200, seed=13, n_systems=2)
    systems["copy"] = systems["sys0"]
    res = ranking.rank(from_spans(lengths, gold, systems), bootstrap=100, permutations=500, seed=3)
    i, j = res.systems.index("copy"), res.systems.index("sys0")
    for k, model in enumerate(res.models):
        assert res.scores[i, k] == res.scores[j, k]
        assert res.ranks[i, k] == res.ranks[j, k] and res.ranks[i, k] % 1 == 0.5   # tied: average rank
        order = list(res.order[k])
        first = min(order.index(i), order.index(j))
        assert {order[first], order[first + 1]} == {i, j}                      # neighbours in every ranking
        assert res.permutation.p_next[order[first], k] == 1.0, model
        assert res.bootstrap.keep[i, k] == 1.0                                  # always tied at the same rank


def test_permutation_test_finds_a_real_difference():
    lengths, gold, systems = make_data(300, seed=14, n_systems=1)
    systems["perfect"] = gold
    res = ranking.rank(from_spans(lengths, gold, systems), bootstrap=0, permutations=300, seed=3)
    k = res.reference_index
    best = res.order[k][0]
    assert res.systems[best] == "perfect"
    assert res.permutation.p_next[best, k] == pytest.approx(1 / 301)


# ---------------------------------------------------------------------------
# API, result object, formats


def test_rank_from_tag_sequences_and_result_object():
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "O"], ["B-LOC", "O", "O", "B-PER"]]
    systems = {
        "good": [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "O"], ["B-LOC", "O", "O", "O"]],
        "partial": [["B-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "O", "O"], ["B-LOC", "O", "O", "B-PER"]],
        "bad": [["O", "B-PER", "O", "O"], ["O", "O", "B-LOC", "O"], ["O", "O", "O", "O"]],
    }
    res = ranking.rank(gold, systems, models=["exact-f1-micro", "ts-f1-macro"], bootstrap=50, permutations=50)
    # exact match, 5 gold spans: good finds 4, all correct -> P 1, R 4/5, F 8/9;
    # partial finds 5, 3 correct (PER 0-0 and ORG 1-1 are cut short) -> P = R = F = 3/5
    assert res.score("good", "exact-f1-micro") == pytest.approx(8 / 9)
    assert res.score("partial", "exact-f1-micro") == pytest.approx(0.6)
    assert res.ranking("exact-f1-micro") == ["good", "partial", "bad"]
    assert res.rank_table()["exact-f1-micro"] == [1.0, 2.0, 3.0]
    d = json.loads(json.dumps(res.to_dict()))
    assert d["reference"] == "exact-f1-micro"
    assert d["systems"][0]["models"]["exact-f1-micro"]["score"] == pytest.approx(8 / 9)
    assert "paper's formula" in d["spearman_note"]
    assert "partial" in json_text(res)
    for fmt in ("csv", "markdown", "latex"):          # the document, rendered
        text = render(build(res), fmt)
        assert "partial" in text
    plain = render(build(res), "table", width=200)
    assert "rankings" in plain and "Kendall" in plain


def test_reference_model_is_added_when_missing():
    res = ranking.rank_corpus(make_corpus(40, seed=15), models=["ts-f1-macro"], bootstrap=0, permutations=0)
    assert res.models == ["exact-f1-micro", "ts-f1-macro"] and res.settings["reference_added"]


def test_to_frame_with_pandas():
    pd = pytest.importorskip("pandas")
    res = ranking.rank_corpus(make_corpus(40, seed=15), bootstrap=20, permutations=20)
    frame = res.to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.index) == res.systems
    assert frame[("exact-f1-micro", "score")].tolist() == pytest.approx(res.scores[:, 0].tolist())


def test_several_tasks_average_the_correlations():
    tasks = {"a": make_corpus(80, seed=16), "b": make_corpus(80, seed=17), "c": make_corpus(80, seed=18)}
    multi = ranking.rank_tasks(tasks, bootstrap=0, permutations=0)
    stacked = np.stack([r.spearman for r in multi.tasks.values()])
    np.testing.assert_allclose(multi.spearman, stacked.mean(0))
    assert set(json.loads(json.dumps(multi.to_dict()))["tasks"]) == {"a", "b", "c"}
    assert "mean over 3 tasks" in render(build(multi), "markdown")


def test_bad_input_is_refused():
    lengths, gold, systems = make_data(10, seed=19, n_systems=1)
    with pytest.raises(OptionError, match="at least two systems"):
        ranking.rank(from_spans(lengths, gold, systems))
    seqs = [iob2(n, s) for n, s in zip(lengths, gold)]
    with pytest.raises(OptionError, match="given twice"):
        ranking.rank(seqs, [("a", seqs), ("a", seqs)])
    with pytest.raises(InputError):
        ranking.rank(seqs, {"a": seqs, "b": seqs[:-1]})
    with pytest.raises(OptionError, match="given twice"):
        ranking.rank_tasks([("t", make_corpus(10, 1)), ("t", make_corpus(10, 2))])


@pytest.mark.slow
def test_plot_needs_matplotlib_or_draws(tmp_path):
    from ts_eval.output import plot

    res = ranking.rank_corpus(make_corpus(40, seed=20), bootstrap=20, permutations=0)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        with pytest.raises(OptionError, match="pip install 'ts_eval\\[plot\\]'"):
            plot.bump_chart(res, str(tmp_path / "x.png"))
        return
    plot.bump_chart(res, str(tmp_path / "x.png"))
    assert (tmp_path / "x.png").stat().st_size > 1000


# ---------------------------------------------------------------------------
# command line


@pytest.fixture
def files(tmp_path):
    lengths, gold, systems = make_data(120, seed=21, n_systems=3)
    write_conll(tmp_path / "gold.conll", lengths, [gold], docs_every=20)
    sysdir = tmp_path / "systems"
    sysdir.mkdir()
    for name, spans in systems.items():
        write_conll(sysdir / f"{name}.conll", lengths, [gold, spans], docs_every=20)
    write_conll(tmp_path / "all.conll", lengths, [gold] + list(systems.values()), docs_every=20)
    return tmp_path, lengths, gold, systems


def run_cli(capsys, *argv):
    code = rank_main(["rank", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_gold_and_directory(files, capsys):
    tmp, lengths, gold, systems = files
    code, out, err = run_cli(capsys, "--gold", tmp / "gold.conll", tmp / "systems", "--format", "json",
                             "--bootstrap", "100", "--permutations", "100", "--unit", "document")
    assert code == 0, err
    d = json.loads(out)
    assert [s["name"] for s in d["systems"]] == ["sys0", "sys1", "sys2"]
    assert d["bootstrap"]["unit"] == "document" and d["bootstrap"]["units"] == 6
    corpus = from_spans(lengths, gold, systems)
    rep = evaluate(corpus)
    for s in d["systems"]:
        assert s["models"]["exact-f1-micro"]["score"] == pytest.approx(rep.system(s["name"])["exact"]["micro"]["f"])
        assert s["models"]["ts-f1-macro"]["score"] == pytest.approx(rep.system(s["name"])["ts"]["macro"]["f"])


def test_rank_json_records_versions_as_score_does(files, capsys):
    """issue #9.4: the rank JSON says which versions produced it (one task and several)."""
    import platform

    import ts_eval
    tmp = files[0]
    code, out, err = run_cli(capsys, "--gold", tmp / "gold.conll", tmp / "systems", "--format", "json",
                             "--bootstrap", "0", "--permutations", "0")
    assert code == 0, err
    expected = {"ts_eval": ts_eval.__version__, "numpy": np.__version__, "python": platform.python_version()}
    assert json.loads(out)["settings"]["versions"] == expected
    assert evaluate(from_spans([3], [[]], [[]])).settings["versions"] == expected
    g, s = tmp / "gold.conll", tmp / "systems"
    code, out, err = run_cli(capsys, "--task", "one", g, s, "--task", "two", g, s, "--format", "json",
                             "--bootstrap", "0", "--permutations", "0")
    assert code == 0, err
    d = json.loads(out)
    assert d["versions"] == expected and d["tasks"]["two"]["settings"]["versions"] == expected


def test_cli_one_file_with_system_columns_and_formats(files, capsys):
    tmp = files[0]
    code, out, err = run_cli(capsys, tmp / "all.conll", "--gold-col", "2", "--names", "a", "b", "c", "--format", "csv",
                             "--bootstrap", "20", "--permutations", "20")
    assert code == 0, err
    # the renderers' long CSV; the scores of the task "task" are the table "scores-task"
    assert out.startswith("table,row,column,value,low,high,kind\n") and "\nscores-task,a,exact-f1-micro," in out
    for fmt in ("markdown", "latex", "table"):
        code, out, err = run_cli(capsys, tmp / "all.conll", "--gold-col", "2", "--format", fmt, "--bootstrap", "20",
                                 "--permutations", "20", "--models", "paper")
        assert code == 0, err
        assert "col3" in out and "col5" in out and "TS-F1M" in out


def test_cli_tasks_and_manifest(files, capsys):
    tmp = files[0]
    g, s = tmp / "gold.conll", tmp / "systems"
    code, out, err = run_cli(capsys, "--task", "one", g, s, "--task", "two", g, s / "sys0.conll", s / "sys2.conll",
                             "--format", "json", "--bootstrap", "0", "--permutations", "0")
    assert code == 0, err
    d = json.loads(out)
    assert set(d["tasks"]) == {"one", "two"} and "mean_spearman" in d
    (tmp / "tasks.txt").write_text("# name gold systems\none gold.conll systems\ntwo gold.conll systems/sys1.conll "
                                   "systems/sys2.conll\n")
    (tmp / "tasks.json").write_text(json.dumps({"tasks": [{"name": "one", "gold": "gold.conll",
                                                           "systems": ["systems"]}]}))
    code, out, err = run_cli(capsys, "--manifest", tmp / "tasks.txt", "--format", "json", "--bootstrap", "0",
                             "--permutations", "0")
    assert code == 0, err
    d = json.loads(out)
    assert set(d["tasks"]) == {"one", "two"} and len(d["tasks"]["two"]["systems"]) == 2
    code, out, err = run_cli(capsys, "--manifest", tmp / "tasks.json", "--format", "json", "--bootstrap", "0",
                             "--permutations", "0")
    assert code == 0, err
    d = json.loads(out)
    assert d["task"] == "one" and len(d["systems"]) == 3


def test_cli_errors(files, capsys, tmp_path_factory):
    tmp, lengths, gold, systems = files
    g, s = tmp / "gold.conll", tmp / "systems"
    code, _, err = run_cli(capsys, "--gold", g, s / "sys0.conll")
    assert code == 2 and "at least two systems" in err
    other = tmp_path_factory.mktemp("other")
    (other / "sys0.conll").write_text((s / "sys0.conll").read_text())
    code, _, err = run_cli(capsys, "--gold", g, s, other / "sys0.conll")
    assert code == 2 and "'sys0' is given twice" in err
    short = tmp / "short.conll"
    write_conll(short, lengths[:-1], [gold[:-1], systems["sys1"][:-1]], docs_every=20)
    code, _, err = run_cli(capsys, "--gold", g, s / "sys0.conll", short)
    assert code == 1 and "do not line up" in err
    code, _, err = run_cli(capsys, "--gold", g, s, "--models", "exact-f1-micro,nope")
    assert code == 2 and "unknown model 'nope'" in err
    code, _, err = run_cli(capsys, "--gold", g, s, "--task", "x", g, s)
    assert code == 2 and "one way only" in err
    code, _, err = run_cli(capsys, "--gold", g, s, "--unit", "document", "--bootstrap", "5", "--permutations", "0",
                           "--format", "json")
    assert code == 0
    write_conll(tmp / "nodoc.conll", lengths, [gold])
    code, _, err = run_cli(capsys, "--gold", tmp / "nodoc.conll", s, "--unit", "document")
    assert code == 2 and "DOCSTART" in err


def test_cli_list_models(capsys):
    code, out, _ = run_cli(capsys, "--list-models")
    assert code == 0 and "exact-f1-micro" in out and "ts-f1-macro" in out
    for name in sufficient.UNAVAILABLE:
        assert name in out


def test_register_adds_the_rank_command():
    import argparse

    from ts_eval.cli.rank import register, run

    parser = argparse.ArgumentParser(prog="ts-eval")
    sub = parser.add_subparsers(dest="command")
    register(sub)
    args = parser.parse_args(["rank", "--list-models"])
    assert args.command == "rank" and callable(run)
    from ts_eval.cli.rank import FORMAT_CHOICES
    from ts_eval.output.renderers import FORMATS
    assert set(FORMAT_CHOICES) == {"json", *FORMATS}       # every renderer, and the result's JSON


def test_timing_is_reported():
    res = ranking.rank_corpus(make_corpus(50, seed=22), bootstrap=10, permutations=10)
    assert set(res.timings) == {"statistics", "scores", "bootstrap", "permutation", "rank_uncertainty"}
    assert all(v >= 0 and math.isfinite(v) for v in res.timings.values())


# ---------------------------------------------------------------------------
# models of other modules (fair errors, GermEval Metric 1)


def test_fair_statistics_sum_to_fair_counts():
    fair = pytest.importorskip("ts_eval.fair")
    corpus = make_corpus(250, seed=23, n_systems=3, nested=True)
    models = sufficient.resolve_models(["fair-f1", "weighted-f1"])
    sm = sufficient.statistics(corpus, models)
    got = sm.scores(sm.totals)
    for i, name in enumerate(sm.systems):
        res = fair.fair_corpus(corpus, name)
        per = sm.block(sm.totals, models[0])[i].reshape(-1, 8)
        cols = [fair.ERROR_TYPES.index(t) for t in fair.OUTCOME_NAMES]
        np.testing.assert_array_equal(per, res.fair[:, cols])
        assert got[i, 0] == pytest.approx(fair.method_scores(res.counts(), "fair")[2], abs=1e-12)
        w7 = fair.parse_weights("eq7")
        assert got[i, 1] == pytest.approx(fair.method_scores(res.counts(), "weighted", w7)[2], abs=1e-12)


def write_germeval(path, lengths, gold, system) -> None:
    lines = []
    for s, n in enumerate(lengths):
        g, t = iob2(n, gold[s]), iob2(n, system[s])
        lines.append(f"#\tsentence {s}")
        lines += [f"{k + 1}\tw{k}\t{g[k]}\tO\t{t[k]}\tO" for k in range(n)]
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_cli_germeval_layout_ranks_with_metric_1(tmp_path, capsys):
    germeval = pytest.importorskip("ts_eval.germeval.counts")
    from ts_eval.io.germeval import read_germeval_any

    lengths, gold, systems = make_data(60, seed=24, n_systems=3)
    for name, spans in systems.items():
        write_germeval(tmp_path / f"{name}.tsv", lengths, gold, spans)
    code, out, err = run_cli(capsys, "--germeval", tmp_path, "--format", "json", "--bootstrap", "50",
                             "--permutations", "50")
    assert code == 0, err
    d = json.loads(out)
    assert "germeval-m1" in [m["name"] for m in d["models"]]
    for s in d["systems"]:
        m1 = germeval.metric1_stats(read_germeval_any(str(tmp_path / f"{s['name']}.tsv")))
        assert s["models"]["germeval-m1"]["score"] == pytest.approx(m1.f1, abs=1e-12)
