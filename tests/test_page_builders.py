"""Page builders (score, fair, rank, compare, germeval) and the file renderers.

Each kind of result is built into a document and rendered through rich at 80 and 120
columns: every number of its JSON (the scoring parts; settings and file provenance aside)
must appear in full, written as the renderer writes its kind; no ``…``; names intact or
without an announced common prefix.  Fixtures: the bundled GermEval sample (ts_eval/demo),
tests/fixtures/faireval and tests/fixtures/germeval.
"""
from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest
from test_renderers_text import WIDTHS, assert_fits, names_intact, synthetic_corpus

import ts_eval
from ts_eval.output.builders import build, kind_of
from ts_eval.output.page import Figure
from ts_eval.output.renderers import render
from ts_eval.output.values import value

ROOT = Path(__file__).parent.parent
DEMO = ROOT / "ts_eval" / "demo" / "germeval2014_test_sample.conll"
FAIR = Path(__file__).parent / "fixtures" / "faireval"
NESTED = Path(__file__).parent / "fixtures" / "germeval" / "nested.tsv"
DEMO_SYSTEMS = ["gen-ap_rich_dev", "gen-crf_poor_dev", "gen-crf_rich_dev", "gen-mft_dev"]
FAIR_TYPES = ("tp", "fp", "le", "be", "bes", "bel", "beo", "lbe", "fn")


@pytest.fixture(scope="module")
def demo():
    return ts_eval.io.read_conll(str(DEMO), gold_column=2, system_columns=[3, 4, 5, 6], names=DEMO_SYSTEMS)


@pytest.fixture(scope="module")
def score_report(demo):
    return ts_eval.score(demo, models=("ts", "exact", "overlap", "constrained", "contain", "fair"))


@pytest.fixture(scope="module")
def fair_report():
    from ts_eval.core.matching import match
    from ts_eval.fair import fair_errors, fair_report
    from ts_eval.io.faireval import read_faireval

    fd = read_faireval(str(FAIR / "target" / "ner_spans.csv"), str(FAIR / "system" / "ner_spans.csv"))
    c = fd.corpus
    s = c.systems[fd.system_name]
    return fair_report(fair_errors(c.gold, s, match(c.gold, s), c.labels, c, focus="target"), weights="eq7")


@pytest.fixture(scope="module")
def pair(demo):
    from ts_eval.comparison import compare
    return compare(demo, "gen-crf_poor_dev", "gen-crf_rich_dev")


@pytest.fixture(scope="module")
def several(demo):
    from ts_eval.comparison import compare
    return compare(demo)


@pytest.fixture(scope="module")
def germeval_report():
    from ts_eval.germeval.evaluate import evaluate_germeval
    from ts_eval.io.germeval import read_germeval
    return evaluate_germeval(read_germeval(str(NESTED)))


def texts(doc):
    return {w: render(doc, "table", width=w, details=True) for w in WIDTHS}


def missing(text: str, numbers) -> list:
    out = set()
    for kind, x in numbers:
        s = value(math.nan if x is None else x, kind)
        if s not in text:
            out.add(f"{kind} {x!r} -> {s}")
    return sorted(out)


def check(doc, numbers, names=()):
    for w, text in texts(doc).items():
        assert_fits(text, w)
        names_intact(text, names)
        gone = missing(text, numbers)
        assert not gone, f"width {w}: {gone[:10]}"


# ---------------------------------------------------------------------------
# score


def score_numbers(d):
    out = []
    for s in d["systems"]:
        for model in ("ts", "exact", "overlap", "constrained", "contain"):
            m = s[model]
            for row in list(m["labels"].values()) + [m["micro"]]:
                for k, v in row.items():
                    if k in ("precision", "recall", "f", "accuracy"):
                        out.append(("score", v))
                    elif k == "kappa":
                        out.append(("corr", v))
                    elif k in ("tp", "fp", "fn", "tn", "gold", "found", "correct", "gold_hit", "found_hit"):
                        out.append(("count", v))
                    elif k in ("token", "separator"):
                        out += [("count", x) for x in v.values()]
            out += [("score", m["macro"][k]) for k in ("precision", "recall", "f")]
            out.append(("count", m["macro"]["labels_averaged"]))
        out += [("corr", s["ts"]["macro"]["kappa"]), ("corr", s["ts"]["multiclass_kappa"]),
                ("score", s["exact"]["token_accuracy"]), ("count", s["exact"]["tags_correct"]),
                ("count", s["exact"]["tags_counted"])]
        out += fair_numbers(s["fair"])
    return out


def fair_numbers(f):
    out = []
    for method in ("traditional", "fair", "weighted"):
        for row in list(f[method]["labels"].values()) + [f[method]["micro"]]:
            out += [("count", row[t]) for t in FAIR_TYPES if t in row]
            out += [("score", row[k]) for k in ("precision", "recall", "f")]
    out += [("count", n) for row in f["confusion"].values() for n in row.values()]
    out += [("count", st["gold"]) for st in f["target_stats"]] + [("score", st["share"]) for st in f["target_stats"]]
    return out


@pytest.mark.slow
def test_score_document_shows_every_number_of_the_report(score_report):
    check(build(score_report), score_numbers(score_report.to_dict()), DEMO_SYSTEMS)


@pytest.mark.slow
def test_score_document_figures_and_counts_behind_scores(score_report):
    doc = build(score_report)
    assert kind_of(score_report) == "score" and doc.kind == "score"
    summary = doc.table("summary")
    ex_f = summary.columns.index(next(c for c in summary.columns if c.key == "exact_f"))
    s0 = score_report.systems[0]
    cell = summary.rows[0][ex_f]
    assert cell.value == s0["exact"]["micro"]["f"]
    assert cell.counts == {"gold": s0["exact"]["micro"]["gold"], "system": s0["exact"]["micro"]["system"],
                           "tp": s0["exact"]["micro"]["tp"]}
    heat = [f for f in doc.figures() if f.kind == "heatmap" and f.id.startswith("confusion-")]   # fair's
    assert len(heat) == 4
    ts_heat = [f for f in doc.figures() if f.kind == "heatmap" and f.id.startswith("ts-confusion-")]
    assert len(ts_heat) == 4                  # one TS confusion heatmap per system, beside the fair one
    tcm = s0["ts"]["confusion"]
    t = ts_heat[0]
    assert t.data["rows"] == t.data["columns"] == list(tcm) and t.data["rows"][0] == "O"
    assert t.data["values"] == [[tcm[r][c] for c in t.data["columns"]] for r in t.data["rows"]]
    # the outside x outside cell (most units) stays off the colour scale, so the errors show
    assert t.data["range"] == [0, max(v for r, row in tcm.items() for c, v in row.items() if r != "O" or c != "O")]
    cm = s0["fair"]["confusion"]
    h = heat[0]
    assert h.data["values"][h.data["rows"].index("PER")][h.data["columns"].index("PER")] == cm["PER"].get("PER", 0)
    bars = next(f for f in doc.figures() if f.kind == "bars")
    assert bars.data["values"] == [s0["fair"]["fair"]["micro"][t] for t in FAIR_TYPES]
    # the confusion matrices and unit counts are details: the terminal shows them on request
    assert "fair confusion matrix (diagonal" not in render(doc, "table", width=120)
    assert "fair confusion matrix (diagonal" in render(doc, "table", width=120, details=True)
    assert "TS confusion matrix (tokens + separators" in render(doc, "table", width=120, details=True)


def test_builders_read_the_vocabulary_names_as_well(score_report):
    """After the VOCAB rename (found -> system, correct -> tp, f1 -> f, overall -> micro, TP -> tp) the
    document is the same: the builders read keys through their accessor."""
    d = json.loads(score_report.to_json())

    def rename(x):
        if isinstance(x, dict):
            table = {"found": "system", "correct": "tp", "found_hit": "system_hit", "f1": "f", "overall": "micro"}
            return {(table.get(k) or (k.lower() if k in FAIR_TYPES else k)): rename(v) for k, v in x.items()}
        if isinstance(x, list):
            return [rename(v) for v in x]
        return x

    old, new = build(d), build(rename(d))
    assert render(old, "csv") == render(new, "csv")


# ---------------------------------------------------------------------------
# fair


def test_fair_document_shows_every_number(fair_report):
    doc = build(fair_report)
    assert doc.kind == "fair"
    check(doc, fair_numbers(fair_report))
    t = doc.table("fair-fair")
    micro = t.rows[-1]
    assert micro[0].value == "micro" and t.row_styles[-1] == "total"
    assert micro[-1].value == fair_report["fair"]["micro"]["f"]
    assert micro[-1].counts["le"] == fair_report["fair"]["micro"]["le"]


# ---------------------------------------------------------------------------
# compare


def compare_numbers(c):
    d = c.to_dict()
    out = []
    for s in d["systems"]:
        out += [("score", s[k]) for k in ("token_accuracy", "correct_sentences", "precision", "recall", "f")]
        out += [("count", s[k]) for k in ("system", "tp")]
    p = d["pair"]
    if p is not None:
        t = p["token"]
        out += [("count", t["differing"]), ("count", t["tokens"]), ("score", t["diff"]), ("score", t["accuracy_a"]),
                ("score", t["accuracy_b"]), ("signed", t["delta_accuracy"]), ("score", t["correct_sentences_a"]),
                ("score", t["correct_sentences_b"])]
        for level in (t, p["span"]):
            for cl in level["classes"].values():
                out += [("count", cl["count"]), ("score", cl["share"])]
                for tr in cl["top"]:
                    out += [("count", tr["count"]), ("score", tr["share_of_class"]), ("score", tr["share_of_diff"])]
        for r in t["per_label"]:
            out += [("count", r["tokens"]), ("score", r["accuracy_a"]), ("score", r["accuracy_b"]),
                    ("signed", r["delta_accuracy"]), ("count", r["correction"]), ("count", r["new_error"]),
                    ("count", r["changed_error"])]
        sp = p["span"]
        out += [("count", sp["gold"]), ("count", sp["spurious"]), ("count", sp["differing"]),
                ("score", sp["diff"])]
        out += [("count", v) for v in list(sp["outcomes_a"].values()) + list(sp["outcomes_b"].values())]
        out += [("count", v) for row in sp["matrix"]["counts"] for v in row]
        for r in sp["per_label"]:
            out += [("count", r[k]) for k in ("gold", "spurious", "tp_a", "tp_b", "correction", "new_error",
                                              "changed_error", "net")] + [("score", r["diff"])]
        for r in p["ts"]["per_label"] + [p["ts"]["total"]]:
            for side in ("b_right_a_wrong", "a_right_b_wrong"):
                out += [("count", v) for v in r[side].values()]
            out.append(("count", r["net_units"]))
        for e in p["examples"]:
            out.append(("count", e["sentence"] + 1))
    m = d["multi"]
    if m is not None:
        out += [("score", v) for row in m["diff_matrix"] for v in row]
        for r in m["pairs"]:
            out += [("score", r["diff"]), ("score", r["overlap"]), ("score", r["correct_overlap"]),
                    ("signed", r["delta_accuracy"])]
        for r in m["neighbours"]:
            out += [("score", r["mean_diff"]), ("score", r["nearest_diff"]), ("score", r["farthest_diff"])]
        for o in (m["token_oracle"], m["span_oracle"]):
            for r in [o["micro"]] + o["per_label"]:
                out += [("count", r["gold"]), ("score", r["best"]), ("score", r["oracle"]), ("score", r["gain"])]
        out += [("count", v) for v in m["found_by"]]
    return out


@pytest.mark.slow
def test_compare_document_of_a_pair_shows_every_number(pair):
    check(build(pair), compare_numbers(pair), ["gen-crf_poor_dev", "gen-crf_rich_dev"])


def semeval_compare_numbers(c):
    """Every number ``compare --models semeval`` adds: the systems' overall counts and scores per
    scheme, and per scheme the pair's spans, classes, transitions, matrix and per-label rows."""
    out = []
    for s in c.systems:
        for scheme in ("strict", "exact", "partial", "ent_type"):
            r = s["semeval"][scheme]["overall"]
            out += [("count", r[k]) for k in ("correct", "incorrect", "partial", "missed", "spurious", "possible",
                                               "actual")]
            out += [("score", r[k]) for k in ("precision", "recall", "f")]
    for d in c.pair.semeval.schemes.values():
        out += [("count", d.gold), ("count", d.spurious), ("count", d.differing), ("score", d.diff)]
        out += [("count", v) for v in list(d.spurious_moves.values()) + [d.changed_counterpart["correct"]]]
        for cl in d.classes.values():
            out.append(("count", cl.count))
            for t in cl.top:
                out += [("count", t.count), ("score", t.share_of_class), ("score", t.share_of_diff)]
        out += [("count", v) for row in d.matrix for v in row + [sum(row)]]
        for r in d.per_label:
            out += [("count", r[k]) for k in ("gold", "spurious", "correct_a", "correct_b", "correction",
                                              "new_error", "changed_error", "net")] + [("score", r["diff"])]
    return out


@pytest.mark.slow
def test_compare_document_with_semeval_shows_every_number(demo):
    from ts_eval.comparison import compare
    c = compare(demo, "gen-crf_poor_dev", "gen-crf_rich_dev", examples=0, models=["fair", "semeval"])
    doc = build(c)
    check(doc, semeval_compare_numbers(c), ["gen-crf_poor_dev", "gen-crf_rich_dev"])
    assert [t.id for t in doc.tables() if t.id.startswith("semeval")] == [
        "semeval-systems", "semeval-summary", "semeval-transitions", "semeval-matrix", "semeval-labels"]
    models = doc.table("models")   # score's summary over the same dicts: fair F1 and one F per scheme
    assert [col.title for col in models.columns][-5:] == ["wtd F1", "SE strict F", "SE exact F", "SE partial F",
                                                          "SE ent_type F"]
    assert models.rows[0][-4].value == c.systems[0]["semeval"]["strict"]["overall"]["f"]
    csv_text = render(doc, "csv")
    assert "semeval-transitions" in csv_text and "semeval-labels" in csv_text
    # the matrix leaves out the category a scheme never gives (partial under strict, incorrect under partial)
    rows = [(r[0].value, r[1].value) for r in doc.table("semeval-matrix").rows]
    assert ("strict", "partial") not in rows and ("partial", "incorrect") not in rows
    assert ("strict", "incorrect") in rows and ("partial", "partial") in rows and ("ent_type", "total") in rows
    several = build(compare(demo, models=["semeval"]))   # no pair: the systems' table only
    assert [t.id for t in several.tables() if t.id.startswith("semeval")] == ["semeval-systems"]


def test_compare_document_of_several_systems_shows_every_number(several):
    check(build(several), compare_numbers(several), DEMO_SYSTEMS)


def test_compare_examples_carry_the_spans_for_highlighting(pair):
    doc = build(pair)
    t = doc.table("examples")
    e = pair.pair.examples[0]
    gold, a, b = t.rows[0][-3:]
    assert gold.data["tokens"] == e.tokens and gold.data["spans"] == [list(s) for s in e.spans["gold"]]
    assert a.data["spans"] == [list(s) for s in e.spans["A"]] and b.data["role"] == "B"
    assert b.data["focus"] == e.focus
    assert any(f.id == "span-matrix-heatmap" for f in doc.figures())


# ---------------------------------------------------------------------------
# germeval


def germeval_numbers(rep):
    out = []
    for s in rep.systems:
        off = s["germeval"]["official"]
        for b in off["blocks"]:
            out += [("count", b[k]) for k in ("gold", "system", "tp")]
            out += [("percent", b[k]) for k in ("accuracy", "precision", "recall", "f")]
        for rows in off["per_type"].values():
            for r in rows:
                out += [("count", r[k]) for k in ("gold", "system", "tp")]
                out += [("percent", r[k]) for k in ("precision", "recall", "f")]
        ts = s["ts"]
        for row in [d for d in ts["labels"].values() if d["present"]] + [ts["micro"]] + list(ts["levels"].values()):
            out += [("count", row[k]) for k in ("tp", "fp", "fn")] + [("corr", row["kappa"])]
            out += [("score", row[k]) for k in ("precision", "recall", "f")]
        out += [("score", ts["macro"][k]) for k in ("precision", "recall", "f")] + [("corr", ts["macro"]["kappa"])]
        for lv in s["fair"]["levels"].values():
            out += [("count", lv["fair"]["micro"][t]) for t in FAIR_TYPES]
            out += [("score", lv["fair"]["micro"]["f"]), ("score", lv["traditional"]["micro"]["f"])]
    return out


def test_germeval_document_shows_every_number(germeval_report):
    doc = build(germeval_report)
    assert doc.kind == "germeval"
    check(doc, germeval_numbers(germeval_report))
    m = doc.table(f"metrics-{germeval_report.systems[0]['name']}")
    assert m.rows[0][0].value.startswith("M1") and m.rows[0][4].kind == "percent"


# ---------------------------------------------------------------------------
# rank: figures, details, several tasks


@pytest.fixture(scope="module")
def small_ranking():
    corpus = synthetic_corpus(n_systems=6, sentences=30)
    return corpus, ts_eval.rank(corpus, bootstrap=20, permutations=20, seed=2)


def test_rank_document_figures_carry_their_data(small_ranking):
    corpus, r = small_ranking
    doc = build(r, report=ts_eval.score(corpus))
    figs = {f.kind: f for f in doc.figures() if not f.id.startswith("lb-fig") or f.kind == "intervals"}
    lb = next(f for f in doc.figures() if f.id == f"lb-fig-task-{r.reference}")
    ref = r.reference_index
    best = r.order[ref][0]
    assert lb.data["labels"][0] == r.systems[best] and lb.data["values"][0] == r.scores[best, ref]
    assert lb.data["low"][0] == r.bootstrap.score_low[best, ref]
    assert lb.data["groups"][0] == r.uncertainty.groups[best, ref]
    bump = figs["bump"]
    assert bump.data["ranks"][2] == list(r.ranks[2]) and bump.data["models"] == r.titles
    heat = next(f for f in doc.figures() if f.id == "spearman-task-heatmap")
    assert heat.data["values"][0][1] == r.spearman[0, 1] and heat.data["low"][0][1] == r.uncertainty.spearman_low[0, 1]
    stacked = figs["stacked_bars"]
    assert stacked.data["labels"] == r.systems and "LBE" in stacked.data["parts"]
    assert any(t.id == "label-f-exact" for t in doc.tables())


def test_rank_details_flag(small_ranking):
    _, r = small_ranking
    full, short = build(r), build(r, details=False)
    assert any(s.detail for s in full.sections) and not any(s.detail for s in short.sections)
    assert [s.title for s in short.sections] == [s.title for s in full.sections if not s.detail]
    # the terminal shows the summary of either, and names the detail sections it leaves out
    assert render(full, "table", width=100).startswith(render(short, "table", width=100))
    assert "11 more section(s) with details=True" in render(full, "table", width=100)   # a Python caller's words
    flag = render(full, "table", width=100, spell=lambda hint: "--details" if hint.option == "details" else None)
    assert "11 more section(s) with --details" in flag                                     # the command line's
    assert len(render(short, "markdown")) < len(render(full, "markdown"))


def test_several_tasks_have_mean_correlations(small_ranking):
    from ts_eval.ranking.study import combine

    corpus, r = small_ranking
    r2 = ts_eval.rank(corpus, bootstrap=20, permutations=20, seed=5, task="again")
    doc = build(combine({"task": r, "again": r2}))
    assert doc.table("mean-spearman").rows[0][1].value == pytest.approx(1.0)
    text = render(doc, "table", width=80)
    assert_fits(text, 80)
    assert "mean over 2 tasks" in text
    # several tasks: every title says which task; one task: no task name in front of every title
    assert "task: leaderboard under" in text and "again: leaderboard under" in text
    # the CSV of several tasks has a task column (table ids alone split badly: a task may contain '-')
    rows = list(csv.reader(io.StringIO(render(doc, "csv"))))
    assert rows[0] == ["task", "table", "row", "column", "value", "low", "high", "kind"]
    assert {r[0] for r in rows[1:] if r[1].startswith("lb-")} == {"task", "again"}
    assert {r[0] for r in rows[1:] if r[1] == "mean-spearman"} == {""}
    single = build(r)
    assert next(csv.reader(io.StringIO(render(single, "csv")))) == ["table", "row", "column", "value", "low",
                                                                   "high", "kind"]
    titles = [s.title for s in single.sections] + [t.title for t in single.tables()]
    assert single.sections[0].title == "Data" and not any(t.startswith(f"{r.task}: ") for t in titles)
    assert any(t.startswith("leaderboard under") for t in titles)


def test_the_models_asked_for_lead_and_an_added_reference_comes_after_them(small_ranking):
    """rank with models that leave out the reference: the study adds the reference (first in its
    arrays), and the page leads with the first model asked for, the reference after the models."""
    corpus, _ = small_ranking
    asked = ["overlap-f1-micro", "ts-f1-macro"]
    r = ts_eval.rank(corpus, models=asked, bootstrap=20, permutations=20, seed=2)
    assert r.models == ["exact-f1-micro", *asked] and r.settings["reference_added"]      # the study's order
    shown = [*asked, "exact-f1-micro"]
    doc = build(r)
    k = r.models.index("overlap-f1-micro")
    boards = [s for s in doc.sections if s.id.startswith("leaderboard-")]
    assert boards[0].id == "leaderboard-task-overlap-f1-micro" and not boards[0].detail
    assert [s.id for s in boards[1:]] == ["leaderboard-task-ts-f1-macro", "leaderboard-task-exact-f1-micro"]
    assert all(s.detail for s in boards[1:])
    assert doc.sections[1] is boards[0]                             # right after the data line
    lb = doc.table("lb-task-overlap-f1-micro")
    assert [row[1].value for row in lb.rows] == r.ranking("overlap-f1-micro")
    assert [row[2].value for row in lb.rows] == [r.scores[i, k] for i in r.order[k]]
    assert "exact-f1-micro added as the reference" in doc.sections[0].blocks[0].text
    # every table of models shows them as asked, then the reference
    assert [c.key for c in doc.table("shifts-task").columns[1:]] == shown
    assert [c.key for c in doc.table("rankings-task").columns[1:]] == shown
    assert [c.key for c in doc.table("scores-task").columns[1:]] == shown
    assert [row[0].value for row in doc.table("scores-task").rows] == r.ranking("overlap-f1-micro")
    assert doc.table("agreement-task").row_keys == asked
    sp = doc.table("spearman-task")
    assert sp.row_keys == shown and [c.key for c in sp.columns[1:]] == shown
    for i, a in enumerate(shown):
        for j, b in enumerate(shown):
            x, y = r.models.index(a), r.models.index(b)
            cell = sp.rows[i][j + 1]
            assert cell.value == r.spearman[x, y] and cell.low == r.uncertainty.spearman_low[x, y]
    ref = r.reference_index
    assert doc.table("shifts-task").rows[0][1].value == r.ranks[r.order[k][0], ref]   # still reference ranks
    text = render(doc, "table", width=100)
    assert text.index("leaderboard under Ov-F1µ") < text.index("leaderboard under Seg-F1µ")
    assert "leaderboard under Ov-F1µ" in str(r) and "Seg-F1µ" not in str(r)   # a Python caller's summary too
    # the reference asked for: it leads, and the models keep the order asked for
    r2 = ts_eval.rank(corpus, models=["overlap-f1-micro", "exact-f1-micro"], bootstrap=0, permutations=0)
    doc2 = build(r2)
    assert next(s.id for s in doc2.sections if s.id.startswith("leaderboard-")) == "leaderboard-task-exact-f1-micro"
    assert [c.key for c in doc2.table("shifts-task").columns[1:]] == ["overlap-f1-micro", "exact-f1-micro"]


# ---------------------------------------------------------------------------
# the file renderers render the same tables


def test_markdown_latex_and_csv_render_every_table(score_report):
    doc = build(score_report)
    md, tex, text = render(doc, "markdown"), render(doc, "latex"), render(doc, "csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["table", "row", "column", "value", "low", "high", "kind"]
    ids = {r[0] for r in rows[1:]}
    for t in doc.tables():
        assert f"**{t.title}**" in md.replace("\\|", "|")
        assert t.id in ids
    s0 = score_report.systems[0]
    line = [r for r in rows if r[:3] == ["summary", s0["name"], "exact_f"]]
    assert float(line[0][3]) == s0["exact"]["micro"]["f"] and line[0][6] == "score"
    assert value(s0["exact"]["micro"]["f"], "score") in md and value(s0["exact"]["micro"]["f"], "score") in tex
    assert r"\begin{tabular}" in tex and "µ" not in tex


def test_csv_keeps_the_intervals(small_ranking):
    _, r = small_ranking
    rows = list(csv.reader(io.StringIO(render(build(r), "csv"))))
    ref = r.reference_index
    best = r.systems[r.order[ref][0]]
    lb = [x for x in rows if x[0] == f"lb-task-{r.reference}" and x[1] == f"1/{best}" and x[2] == "score"]
    assert float(lb[0][4]) == r.bootstrap.score_low[r.order[ref][0], ref]


def test_rank_details_carry_what_the_old_formats_printed(small_ranking):
    """Each model's ranking (position -> system), the undefined resamples, every model pair's
    flipped pairs on request, and the models' names as the CSV's keys."""
    _, r = small_ranking
    doc = build(r)
    order = doc.table("rankings-task")
    for k, m in enumerate(r.models):
        assert [row[k + 1].value for row in order.rows] == r.ranking(m)
    undefined = doc.table("undefined-task")
    assert [[c.value for c in row[1:]] for row in undefined.rows] == r.uncertainty.undefined.tolist()
    pair_tables = {t.id for t in doc.tables() if t.id.startswith("flips-task-")}
    every = {t.id for t in build(r, every_flip=True).tables() if t.id.startswith("flips-task-")}
    assert pair_tables == {f"flips-task-{r.reference}-{m}" for m in r.models if m != r.reference}
    assert every == {f"flips-task-{f.model_a}-{f.model_b}" for f in ts_eval.ranking.uncertainty.all_flips(r)}
    rows = list(csv.reader(io.StringIO(render(doc, "csv"))))
    a, b = r.models[0], r.models[1]
    rho = [x for x in rows if x[:3] == ["spearman-task", a, b]]
    assert float(rho[0][3]) == r.spearman[0, 1] and float(rho[0][4]) == r.uncertainty.spearman_low[0, 1]
    changed = [x for x in rows if x[:3] == ["flip-summary-task", f"{a}/{b}", "changed"]]
    assert int(changed[0][3]) == r.flips(a, b).changed


def test_row_keys_must_match_the_rows():
    from ts_eval.output.page import Cell, Column, Table

    with pytest.raises(ValueError, match="1 row keys for 2 rows"):
        Table("t", "t", [Column("a", "a")], [[Cell("x")], [Cell("y")]], row_keys=["x"])


def test_score_document_holds_the_tag_counts_of_the_token_accuracy(score_report):
    t = build(score_report).table("token-accuracy")
    for row, s in zip(t.rows, score_report.systems):
        assert [row[0].value, row[1].value, row[2].value, row[3].value] == \
            [s["name"], s["exact"]["tags_correct"], s["exact"]["tags_counted"], s["exact"]["token_accuracy"]]


def test_unknown_format_and_result():
    with pytest.raises(ValueError, match="unknown format 'pdf'"):
        render(build({"confusion": {}, "target_stats": [], "focus": "target", "mode": "paper"}), "pdf")
    with pytest.raises(TypeError, match="no page builder for int"):
        build(3)


def test_figures_validate_their_kind():
    with pytest.raises(ValueError):
        Figure("x", "x", "pie", {})
