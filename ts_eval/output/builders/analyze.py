"""Analysis -> Page.

Summary (always): what was read and what was left out; every system's score under every model
over the whole corpus; where the rankings move (for the pairs of the reference model with every
other model: per attribute the bucket that accounts for most flipped system pairs); per
attribute a table of its buckets (gold spans, or sentences and gold spans, then each system's
score under the reference model with its interval; with two systems their difference, its
interval and the paired test's p-value) and a chart (bars with interval whiskers per bucket, one
colour per system).

Details (sections marked ``detail``): per attribute every model's score of every system in every
bucket with the system's spans, its rank among the systems under each model and the counts behind
the scores, the rank correlations of every
model with the reference within each bucket, and the flips of every model pair.  An attribute with
more than :data:`MANY_BUCKETS` buckets (documents, a record field with many values) is a detail
section as a whole.

With the error analysis (on by default), its sections follow (:mod:`.analysis_errors`: span
confusion matrices with heatmaps, errors by type, the most frequent errors, gold suspects,
inconsistent gold; per-document scores and each system's own matrices in the details).

Numbers are read from the result's arrays (the same arrays ``to_dict()`` writes), never recomputed.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ...errors import Spelling, python_spelling
from ..page import Cell, Column, Figure, Page, Section, Table, Text

#: an attribute with more buckets than this is shown among the details
MANY_BUCKETS = 12

#: the counts shown per family in the detail tables (family -> its count names in the result)
COUNT_COLUMNS = (("exact", ("tp",)), ("ts", ("tp", "fp", "fn")),
                 ("fair", ("tp", "fp", "fn", "le", "bes", "bel", "beo", "lbe")))


def _f(x: Any) -> Optional[float]:
    if x is None:
        return None
    v = float(x)
    return v


def _score(a: Any, k: int, i: int, j: int, counts: Optional[Dict[str, float]] = None) -> Cell:
    """Bucket k, system i, model j: the score with its interval (n/a with a note when empty)."""
    v = _f(a.scores[k, i, j])
    cell = Cell(v, "score", counts=counts)
    if a.low is not None and a.high is not None:
        cell.low, cell.high = _f(a.low[k, i, j]), _f(a.high[k, i, j])
        if cell.low is not None and np.isnan(cell.low):
            cell.low = cell.high = None
    if a.empty(k, i):
        cell.note = "no gold span and no system span in this bucket"
    return cell


def _exact_counts(a: Any, k: int, i: int) -> Optional[Dict[str, float]]:
    c = a.counts.get("exact")
    if c is None:
        return None
    return {n: float(v) for n, v in zip(a.count_names["exact"], c[k, i])}


def overview(r: Any, spell: Spelling) -> Section:
    co = r.corpus
    about = (f"{co.get('tokens')} tokens, {co.get('sentences')} sentences"
             + (f", {co['documents']} documents" if co.get("documents") else "")
             + f", {co.get('gold_spans')} gold spans; labels {', '.join(co.get('labels') or []) or '-'}")
    blocks: List[Any] = [Text(about, "note")]
    tr = r.training
    if tr is not None:
        blocks.append(Text(f"training data{' ' + str(tr['path']) if tr.get('path') else ''}: {tr['sentences']} "
                           f"sentences, {tr['tokens']} tokens, {tr['spans']} entities", "note"))
    for line in r.left_out:
        blocks.append(Text(f"left out: {line}", "warning"))
    st = r.settings
    if st.get("bootstrap"):
        blocks.append(Text(f"{100 * st['confidence']:g}% paired bootstrap intervals ({st['bootstrap']} resamples of "
                           f"sentences, percentile, seed {st['seed']}), the same resamples for every bucket.", "note"))
    from ...analysis.buckets import EQUAL_FREQUENCY_RULE

    if any(a.rule.startswith(EQUAL_FREQUENCY_RULE) for a in r.attributes):
        blocks.append(Text(f"Buckets of numbers: {EQUAL_FREQUENCY_RULE}.", "note"))
    cols = [Column("system", "system")] + [Column(m, t) for m, t in zip(r.models, r.titles)]
    rows = [[Cell(s)] + [Cell(_f(r.overall[i, j]), "score") for j in range(len(r.models))]
            for i, s in enumerate(r.systems)]
    blocks.append(Table("overall", "Whole corpus: every model", cols, rows,
                        note="; ".join(f"{t} = {m}" for m, t in zip(r.models, r.titles))))
    return Section("Overview", blocks, id="overview")


def _flip_rows(r: Any) -> List[List[Cell]]:
    rows = []
    for a in r.attributes:
        for f in a.flips:
            if not f.pairs or not f.defined:
                continue
            acc, res = f.accounted, f.resolved
            k = int(np.argmax(acc))
            rows.append([Cell(f.model_a), Cell(f.model_b), Cell(a.name), Cell(len(f.pairs), "count"),
                         Cell(f.buckets[k]), Cell(int(acc[k]), "count"), Cell(int(res[k]), "count")])
    return rows


FLIP_COLUMNS = [Column("model_a", "model A"), Column("model_b", "model B"), Column("attribute", "attribute"),
                Column("changed", "pairs flipped"), Column("bucket", "bucket"),
                Column("accounted", "differ most there"), Column("resolved", "gone without it")]


def flips(r: Any) -> Optional[Section]:
    """The pairs two models order differently and the bucket that accounts for most of them."""
    if len(r.systems) < 2 or not r.attributes:
        return None
    blocks: List[Any] = []
    for f in r.flips:
        if r.reference in (f["model_a"], f["model_b"]) and f["changed"]:
            best = _best_attribute(r, f["model_a"], f["model_b"])
            if best:
                blocks.append(Text(best, "summary"))
    others = [f["model_b"] if f["model_a"] == r.reference else f["model_a"] for f in r.flips
              if r.reference in (f["model_a"], f["model_b"]) and f["changed"]]
    if not others:
        blocks.append(Text(f"no system pair changes order between {r.reference} and another model", "note"))
        return Section("Where the rankings move", blocks, id="flips")
    title = dict(zip(r.models, r.titles))
    cols = [Column("attribute", "attribute")] + [Column(m, title[m]) for m in others]
    rows = []
    for a in r.attributes:
        cells = {}
        for f in a.flips:
            other = f.model_b if f.model_a == r.reference else f.model_a if f.model_b == r.reference else None
            if other in others and f.pairs and f.defined:
                acc = f.accounted
                k = int(np.argmax(acc))
                cells[other] = Cell(f"{f.buckets[k]}: {int(acc[k])} of {len(f.pairs)}")
        rows.append([Cell(a.name)] + [cells.get(m, Cell("n/a")) for m in others])
    blocks.append(Table("flips", f"Pairs that flip between {r.reference} and another model: the bucket where "
                        "most of them differ most", cols, rows,
                        note="cell: bucket: pairs that differ most there of the pairs that flip; "
                             + "; ".join(f"{title[m]} = {m}" for m in [r.reference] + others)
                             + "; the rule and every model pair in the details (table flips-all)"))
    return Section("Where the rankings move", blocks, id="flips")


def _best_attribute(r: Any, ma: str, mb: str) -> str:
    """The summary line of the attribute whose top bucket accounts for the most flips of (ma, mb)."""
    best, best_n = "", -1
    for a in r.attributes:
        for f in a.flips:
            if (f.model_a, f.model_b) == (ma, mb) and f.pairs and f.defined:
                n = int(f.accounted.max()) if len(f.buckets) else 0
                if n > best_n:
                    best, best_n = f.summary(a.name), n
    return best


def _attribute_table(r: Any, a: Any, j: int) -> Table:
    """The buckets under the reference model (j): gold spans (and sentences), each system's score with
    its interval (its exact counts on the cell), with two systems their difference and the p-value.
    A row per bucket when there are more buckets than systems, else a row per system (and one each
    for the counts and the difference) and a column per bucket."""
    B = len(a.buckets)
    lines: List[Tuple[str, str, List[Cell]]] = [("gold", "gold spans", [Cell(int(a.gold[k]), "count")
                                                                         for k in range(B)])]
    if a.sentences is not None:
        lines.append(("sentences", "sentences", [Cell(int(a.sentences[k]), "count") for k in range(B)]))
    lines += [(s, s, [_score(a, k, i, j, _exact_counts(a, k, i)) for k in range(B)]) for i, s in enumerate(r.systems)]
    pair = a.pair
    if pair is not None:
        diffs = []
        for k in range(B):
            d = Cell(_f(pair.difference[k, j]), "signed")
            if pair.low is not None and pair.high is not None and not np.isnan(pair.low[k, j]):
                d.low, d.high = _f(pair.low[k, j]), _f(pair.high[k, j])
            diffs.append(d)
        lines.append(("difference", "B - A", diffs))
        lines.append(("p_value", "p", [Cell(_f(pair.p[k, j]) if pair.p is not None else None, "p") for k in range(B)]))
    if len(r.systems) < B:
        cols = [Column("bucket", "bucket")] + [Column(key, title) for key, title, _ in lines]
        rows = [[Cell(name)] + [cells[k] for _, _, cells in lines] for k, name in enumerate(a.buckets)]
        styles: List[Optional[str]] = []
    else:
        cols = [Column("row", a.name)] + [Column(name, name) for name in a.buckets]
        rows = [[Cell(title)] + cells for _, title, cells in lines]
        styles = ["total" if key in ("gold", "sentences", "difference", "p_value") else None for key, _, _ in lines]
    notes = [a.description, _short_rule(a.rule)]
    if pair is not None:
        notes.append(f"B - A: {pair.b} - {pair.a} (paired bootstrap interval; p: paired permutation test)")
    if int(a.outside.sum()):
        notes.append(f"spans in no bucket: gold {int(a.outside[0])}, systems "
                     + ", ".join(str(int(x)) for x in a.outside[1:]))
    if r.reference in a.undefined:
        notes.append(f"{r.reference} has no value on buckets of spans")
    title = f"{a.name}: {r.titles[j]} per bucket"
    return Table(f"attr-{a.name}", title, cols, rows, note="; ".join(notes), row_styles=styles)


def _short_rule(rule: str) -> str:
    """A bucket rule as a table note says it (the equal-frequency rule is said once, in the overview)."""
    from ...analysis.buckets import EQUAL_FREQUENCY_RULE

    if rule.startswith(EQUAL_FREQUENCY_RULE):
        return "equal-frequency buckets" + rule[len(EQUAL_FREQUENCY_RULE):] + ", the rule in the overview"
    return rule


def _attribute_figure(r: Any, a: Any, j: int) -> Figure:
    n = len(r.systems)
    values = [[_f(a.scores[k, i, j]) for i in range(n)] for k in range(len(a.buckets))]
    low = high = None
    if a.low is not None and a.high is not None:
        low = [[_f(a.low[k, i, j]) for i in range(n)] for k in range(len(a.buckets))]
        high = [[_f(a.high[k, i, j]) for i in range(n)] for k in range(len(a.buckets))]
    return Figure(f"attr-fig-{a.name}", f"{a.name}: {r.titles[j]} per bucket", "grouped_bars",
                  {"groups": list(a.buckets), "series": list(r.systems), "values": values, "low": low,
                   "high": high, "kind": "score"})


def _models_table(r: Any, a: Any) -> Table:
    """Every bucket x system under every model, with the system's spans and the counts."""
    cols = [Column("bucket", "bucket"), Column("system", "system"), Column("gold", "gold spans"),
            Column("system_spans", "system spans")]
    cols += [Column(m, t, group="scores") for m, t in zip(r.models, r.titles)]
    cols += [Column(f"rank_{m}", f"rank {t}", group="rank in the bucket") for m, t in zip(r.models, r.titles)]
    present = [(fam, names) for fam, names in COUNT_COLUMNS if fam in a.counts]
    cols += [Column(f"{fam}_{c}", c, group=fam) for fam, names in present for c in names]
    rows = []
    for k, name in enumerate(a.buckets):
        for i, s in enumerate(r.systems):
            row = [Cell(name), Cell(s), Cell(int(a.gold[k]), "count"), Cell(int(a.system[k, i]), "count")]
            row += [_score(a, k, i, j) for j in range(len(r.models))]
            row += [Cell(_f(a.ranks[k, i, j]), "rank") for j in range(len(r.models))]
            for fam, names in present:
                where = {n: x for x, n in enumerate(a.count_names[fam])}
                row += [Cell(_f(a.counts[fam][k, i, where[c]]), "count") for c in names]
            rows.append(row)
    return Table(f"attr-{a.name}-models", f"{a.name}: every model, the systems' ranks, the counts", cols, rows,
                 key_columns=2,
                 note="counts: exact tp = gold spans matched exactly; ts tp, fp, fn = units; fair: Ortmann's "
                      "error types; a span's counts fall in its bucket (recall over the bucket's gold spans, "
                      "precision over its system spans)")


def _correlations_table(r: Any, a: Any, j: int) -> Optional[Table]:
    if len(r.systems) < 2 or len(r.models) < 2:
        return None
    others = [m for m in range(len(r.models)) if m != j]
    cols = [Column("bucket", "bucket")]
    cols += [Column(f"spearman_{r.models[m]}", f"ρ {r.titles[m]}", group="Spearman") for m in others]
    cols += [Column(f"kendall_tau_b_{r.models[m]}", f"τ {r.titles[m]}", group="Kendall") for m in others]
    rows = [[Cell(name)] + [Cell(_f(a.spearman[k, j, m]), "corr") for m in others]
            + [Cell(_f(a.kendall[k, j, m]), "corr") for m in others] for k, name in enumerate(a.buckets)]
    return Table(f"attr-{a.name}-correlations", f"{a.name}: rank correlation with {r.titles[j]} within each bucket",
                 cols, rows, note="Spearman's rho and Kendall's tau-b of the systems' rankings; n/a: a bucket "
                                  "where a model has no value")


def attribute_sections(r: Any, j: int) -> List[Section]:
    out = []
    for a in r.attributes:
        many = len(a.buckets) > MANY_BUCKETS
        blocks: List[Any] = [_attribute_table(r, a, j)]
        if not many:
            blocks.append(_attribute_figure(r, a, j))
        out.append(Section(f"By {a.name}", blocks, id=f"attr-{a.name}", detail=many))
        detail: List[Any] = [_models_table(r, a)]
        corr = _correlations_table(r, a, j)
        if corr is not None:
            detail.append(corr)
        out.append(Section(f"By {a.name}: every model", detail, id=f"attr-{a.name}-details", detail=True))
    return out


def all_flips(r: Any) -> Optional[Section]:
    rows = _flip_rows(r)
    if not rows:
        return None
    from ...analysis.result import FLIP_RULE

    return Section("Flips of every model pair", [Table("flips-all", "Pairs that flip between two models, by attribute",
                                                       FLIP_COLUMNS, rows, key_columns=3, note=FLIP_RULE)],
                   id="flips-all", detail=True)


def build(r: Any, *, spell: Spelling = python_spelling) -> Page:
    j = r.models.index(r.reference) if r.reference in r.models else 0
    sections = [overview(r, spell)]
    fl = flips(r)
    if fl is not None:
        sections.append(fl)
    sections += attribute_sections(r, j)
    every = all_flips(r)
    if every is not None:
        sections.append(every)
    if r.errors is not None:
        from .analysis_errors import sections as error_sections

        sections += error_sections(r.errors, spell=spell)
    if getattr(r, "references", None) is not None:
        from .reference_steps import about
        from .reference_steps import sections as step_sections

        sections[0].blocks.insert(0, about(r.references))
        sections += step_sections(r.references, r.reference)
    title = f"Analysis of {r.systems[0]}" if len(r.systems) == 1 else f"Analysis of {len(r.systems)} systems"
    return Page("analyze", title, sections, {"settings": r.settings, "reference": r.reference})
