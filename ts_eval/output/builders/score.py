"""Score Report -> Page: the summary over systems, per-label tables of every model, fair
error types (table and bars) and the fair confusion matrix (table and heatmap, a detail).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ...errors import Hint, Spelling, python_spelling, spell
from ...models.registry import ModelSpec, ResultColumn, known_specs
from ..page import Block, Cell, Column, Figure, Page, Section, Table, Text
from ..values import value
from .fair import confusion_blocks, stats_table

if TYPE_CHECKING:
    from ...results.report import Report

#: what the score and GermEval pages read: a Report, or the dict its JSON is
ReportLike = Union["Report", Dict[str, Any]]

FAIR_TYPES = ("tp", "fp", "le", "be", "bes", "bel", "beo", "lbe", "fn")
TRADITIONAL = ("tp", "fp", "fn")
SEMEVAL_SCHEMES = ("strict", "exact", "partial", "ent_type")
SEMEVAL_COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")
TAG_COUNTS = ("tags_correct", "tags_counted")
GENERATED_COUNTS = (("strings", "strings"), ("grounded", "grounded"), ("fuzzy_grounded", "fuzzy"),
                    ("ungrounded", "ungrounded"), ("unplaced", "unplaced (FP)"), ("duplicates", "duplicates"),
                    ("outside_labels", "outside labels"))


def _dict(report: ReportLike) -> Dict[str, Any]:
    """A Report (or its dict) as the dict its JSON is."""
    return report if isinstance(report, dict) else report.to_dict()


def _models(rep: Dict[str, Any]) -> List[str]:
    return list(rep["settings"].get("models", ["ts", "exact"]))


def model_specs(rep: Dict[str, Any]) -> List[ModelSpec]:
    """The declarations of the report's models (those registered), in the registry's order."""
    return known_specs(_models(rep))


def counts(d: Mapping[str, Any], keys: Sequence[str]) -> Dict[str, float]:
    return {k: d[k] for k in keys if d.get(k) is not None}


def score_cell(d: Mapping[str, Any], key: str, count_keys: Sequence[str] = ("tp", "fp", "fn", "gold", "system"),
               style: Optional[str] = None) -> Cell:
    """A score with the counts behind it."""
    return Cell(d.get(key), "score", counts=counts(d, count_keys) or None, style=style)


def accuracy_cell(ex: Mapping[str, Any]) -> Cell:
    """conlleval's token accuracy with its tag counts; ``n/a`` where it is undefined (nested or crossing
    spans have no IOB2 encoding: the reason is in ``token_accuracy_undefined``)."""
    acc = float("nan") if ex.get("token_accuracy_undefined") else ex.get("token_accuracy")
    return Cell(acc, "score", counts=counts(ex, TAG_COUNTS) or None, note=ex.get("token_accuracy_undefined"))


def accuracy_note(ex: Mapping[str, Any]) -> Optional[str]:
    """The sentence a table's note says about conlleval's token accuracy (None: nothing to say)."""
    if ex.get("token_accuracy_undefined"):
        return f"conlleval token accuracy {ex['token_accuracy_undefined']}"
    if ex.get("token_accuracy") is None:
        return None
    return (f"conlleval token accuracy {100 * ex['token_accuracy']:.2f}% ({ex.get('tags_correct')} of "
            f"{ex.get('tags_counted')} tags)")


def declared_cell(result: Mapping[str, Any], col: ResultColumn) -> Cell:
    """The cell of a column a model declares (:class:`~ts_eval.models.registry.ResultColumn`) for one
    system's result of that model: n/a with the reason where its note says one."""
    d = col.holder(result)
    note = d.get(col.note) if col.note else None
    return Cell(float("nan") if note else d.get(col.path[-1]), col.kind, counts=counts(d, col.counts) or None,
                note=note)


# ---------------------------------------------------------------------------
# summary over systems


def summary(rep: Dict[str, Any]) -> Table:
    """One row per system: the columns each model declares (TS micro/macro P/R/F/kappa, exact P/R/F, F of
    the further models, fair F, ...), in the registry's order."""
    shown = [(spec.name, spec.display.group, c) for spec in model_specs(rep) for c in spec.display.summary]
    cols = [Column("system", "system")] + [Column(c.key, c.header, group) for _, group, c in shown]
    rows = [[Cell(s["name"])] + [declared_cell(s[name], c) for name, _, c in shown] for s in rep["systems"]]
    beta = rep["settings"].get("beta", 1.0)
    title = "Scores in %" + (f" (F = F-beta, beta = {beta:g}; F1 columns: beta = 1)" if beta != 1 else "")
    return Table("summary", title, cols, rows)


# ---------------------------------------------------------------------------
# per system


def _label_names(rep: Dict[str, Any]) -> List[str]:
    return list(rep["corpus"]["labels"])


def labels_table(rep: Dict[str, Any], s: Dict[str, Any]) -> Table:
    """Per-label counts and scores of the TS and exact models."""
    ts, ex = s.get("ts"), s.get("exact")
    cols = [Column("label", "label")]
    if ts is not None:
        cols += [Column(f"ts_{k}", f"TS {t}", "token & separator") for k, t in
                 (("tp", "TP"), ("fp", "FP"), ("fn", "FN"), ("tn", "TN"), ("precision", "P"), ("recall", "R"),
                  ("f", "F"), ("kappa", "κ"), ("accuracy", "acc"))]
    if ex is not None:
        cols += [Column(f"exact_{k}", t, "segment exact match") for k, t in
                 (("gold", "gold"), ("system", "system"), ("tp", "correct"), ("precision", "ex P"),
                  ("recall", "ex R"), ("f", "ex F"))]

    def ts_cells(d: Mapping[str, Any], counts_too: bool = True) -> List[Cell]:
        c = [Cell(d.get(k), "count") if counts_too else Cell(None) for k in ("tp", "fp", "fn", "tn")]
        return c + [score_cell(d, k, ("tp", "fp", "fn", "tn")) for k in ("precision", "recall", "f")] + \
            [Cell(d["kappa"], "corr"), Cell(d.get("accuracy"), "score")]

    def ex_cells(d: Mapping[str, Any], counts_too: bool = True) -> List[Cell]:
        c = [Cell(d.get(k), "count") if counts_too else Cell(None) for k in ("gold", "system", "tp")]
        return c + [score_cell(d, k, ("gold", "system", "tp")) for k in ("precision", "recall", "f")]

    rows, styles = [], []
    names = _label_names(rep)
    for key, title, counts_too in [(lab, lab or '""', True) for lab in names] + [("micro", "micro", True),
                                                                                  ("macro", "macro", False)]:
        row = [Cell(title)]
        if ts is not None:
            row += ts_cells(ts["labels"][key] if key in names and key not in ("micro", "macro") else ts[key],
                            counts_too)
        if ex is not None:
            row += ex_cells(ex["labels"][key] if key in names and key not in ("micro", "macro") else ex[key],
                            counts_too)
        rows.append(row)
        styles.append("total" if key in ("micro", "macro") else None)
    if ts is not None and "all_labels" in ts:
        rows.append([Cell("all labels")] + ts_cells(ts["all_labels"]) + [Cell(None)] * (len(cols) - 10))
        styles.append("total")
    notes = [f"{m} macro: mean over {s[m]['macro']['labels_averaged']} labels with gold or system items"
             for m in ("ts", "exact") if m in s and "labels_averaged" in s[m]["macro"]]
    if ts is not None and ts.get("multiclass_kappa") is not None:
        notes.append(f"TS multi-class kappa {fmt_corr(ts['multiclass_kappa'])}")
    acc_note = accuracy_note(ex) if ex is not None else None
    if acc_note:
        notes.append(acc_note)
    return Table(f"labels-{s['name']}", f"{s['name']}: per label (scores in %)", cols, rows, row_styles=styles,
                 note="; ".join(notes))


def token_accuracy_section(rep: Dict[str, Any]) -> Optional[Section]:
    """conlleval's token accuracy with the tag counts behind it, one row per system (a detail)."""
    systems = [s for s in rep["systems"] if "token_accuracy" in s.get("exact", {})]
    if not systems:
        return None
    cols = [Column("tags_correct", "tags correct"), Column("tags_counted", "tags counted"),
            Column("accuracy", "token accuracy")]
    rows = [[Cell(s["name"])] + [Cell(s["exact"].get(k), "count") for k in TAG_COUNTS] + [accuracy_cell(s["exact"])]
            for s in systems]
    why = [f"{s['name']}: {s['exact']['token_accuracy_undefined']}" for s in systems
           if s["exact"].get("token_accuracy_undefined")]
    table = Table("token-accuracy", "conlleval token accuracy (tags with the gold tag, of the tags counted)",
                  [Column("system", "system")] + cols, rows, note="; ".join(why))
    return Section("Token accuracy (conlleval)", [table], id="token-accuracy", detail=True)


def fmt_corr(v: float) -> str:
    return value(v, "corr")


def units_table(rep: Dict[str, Any], s: Dict[str, Any]) -> Table:
    """TS counts split into token units and separator units, per label."""
    ts = s["ts"]
    cols = [Column("label", "label")] + [Column(f"{part}_{k}", f"{part[:3]} {k.upper()}", part)
                                         for part in ("token", "separator") for k in ("tp", "fp", "fn")]
    rows = [[Cell(lab or '""')] + [Cell(ts["labels"][lab][part].get(k), "count") for part in ("token", "separator")
                                   for k in ("tp", "fp", "fn")] for lab in _label_names(rep)]
    return Table(f"units-{s['name']}", f"{s['name']}: TS counts of token and separator units, per label", cols, rows)


def per_label_table(rep: Dict[str, Any], s: Dict[str, Any], model: str, keys: Sequence[Tuple[str, str]], title: str,
                    present_only: bool = False) -> Table:
    """A model's counts (``keys``: key and header) and P/R/F per label (``present_only``: the labels with
    gold or system items), then micro and macro."""
    m = s[model]
    cnt = tuple(k for k, _ in keys)
    cols = [Column("label", "label")] + [Column(k, t) for k, t in keys] + \
        [Column(k, t) for k, t in (("precision", "P"), ("recall", "R"), ("f", "F"))]

    def row(title: str, d: Mapping[str, Any], counts_too: bool = True) -> List[Cell]:
        return [Cell(title)] + [Cell(d.get(k) if counts_too else None, "count") for k in cnt] + \
            [score_cell(d, k, cnt if counts_too else ()) for k in ("precision", "recall", "f")]

    rows = [row(lab or '""', m["labels"][lab]) for lab in _label_names(rep)
            if not present_only or m["labels"][lab].get("present")]
    rows += [row("micro", m["micro"]), row("macro", m["macro"], False)]
    return Table(f"{model}-{s['name']}", title, cols, rows, row_styles=[None] * (len(rows) - 2) + ["total", "total"])


def segment_table(rep: Dict[str, Any], s: Dict[str, Any], model: str) -> Table:
    lim = s[model].get("limits", {})
    note = (f" (k1 = {lim.get('max_spurious')}, k2 = {lim.get('max_missing')})"
            if any(v is not None for v in lim.values()) else "")
    return per_label_table(rep, s, model, (("gold", "gold"), ("gold_hit", "gold hit"), ("system", "system"),
                                           ("system_hit", "system hit")),
                           f"{s['name']}: {model} model{note}, per label (scores in %)")


def fair_labels_table(s: Dict[str, Any]) -> Table:
    """Per-label fair error counts with fair and weighted P/R/F1 (Ortmann's F is F1)."""
    f = s["fair"]
    cols = [Column("label", "label")] + [Column(t, t.upper(), "error types") for t in FAIR_TYPES] + \
        [Column(f"traditional_{t}", f"trad {t.upper()}", "traditional") for t in TRADITIONAL] + \
        [Column(f"{m}_{k}", f"{p} {t}", m) for m, p in (("traditional", "trad"), ("fair", "fair"), ("weighted", "wtd"))
         for k, t in (("precision", "P"), ("recall", "R"), ("f", "F1"))]
    rows = []
    for lab in list(f["present_labels"] if "present_labels" in f else f["labels"]) + [None]:
        tr, fr, wr = (f[m]["micro"] if lab is None else f[m]["labels"][lab]
                      for m in ("traditional", "fair", "weighted"))
        rows.append([Cell("micro" if lab is None else (lab or '""'))] + [Cell(fr.get(t), "count") for t in FAIR_TYPES]
                    + [Cell(tr.get(t), "count") for t in TRADITIONAL]
                    + [score_cell(d, k, FAIR_TYPES) for d in (tr, fr, wr) for k in ("precision", "recall", "f")])
    return Table(f"fair-{s['name']}", f"{s['name']}: fair error types (focus {f['focus']}), per label (scores in %)",
                 cols, rows, row_styles=[None] * (len(rows) - 1) + ["total"])


def error_type_bars(name: str, fair: Mapping[str, Any], tid: str) -> Figure:
    tot = fair["fair"]["micro"]
    return Figure(tid, f"{name}: fair error types", "bars",
                  {"labels": [t.upper() for t in FAIR_TYPES], "values": [tot.get(t, 0) for t in FAIR_TYPES],
                   "kind": "count"})


# ---------------------------------------------------------------------------
# sections shared with the rank page


def label_f_section(report: ReportLike) -> Optional[Section]:
    """Per-label F of the TS and exact models, systems x labels (for rank pages)."""
    rep = _dict(report)
    names = _label_names(rep)
    blocks: List[Block] = []
    for model, what in (("exact", "segment exact match"), ("ts", "token & separator")):
        if not all(model in s for s in rep["systems"]):
            continue
        cols = [Column("system", "system")] + [Column(f"l{j}", lab or '""') for j, lab in enumerate(names)]
        rows = [[Cell(s["name"])] + [score_cell(s[model]["labels"][lab], "f",
                                                ("tp", "fp", "fn") if model == "ts" else ("gold", "system", "tp"))
                                     for lab in names] for s in rep["systems"]]
        blocks.append(Table(f"label-f-{model}", f"Per-label F of {what} (%)", cols, rows))
    return Section("Per-label scores", blocks, id="label-scores") if blocks else None


def error_types_section(report: ReportLike) -> Optional[Section]:
    """Fair error types per system: a table and stacked bars."""
    rep = _dict(report)
    systems = [s for s in rep["systems"] if "fair" in s]
    if not systems:
        return None
    cols = [Column("system", "system")] + [Column(t, t.upper()) for t in FAIR_TYPES]
    rows = [[Cell(s["name"])] + [Cell(s["fair"]["fair"]["micro"].get(t), "count") for t in FAIR_TYPES]
            for s in systems]
    parts = [t for t in FAIR_TYPES if t not in ("be",)]     # BE = BES + BEL + BEO: stacked once
    fig = Figure("error-types-bars", "Fair error types per system", "stacked_bars",
                 {"labels": [s["name"] for s in systems], "parts": [t.upper() for t in parts],
                  "values": [[s["fair"]["fair"]["micro"].get(t, 0) for t in parts] for s in systems]})
    return Section("Fair error types per system", [Table("error-types", "Fair error types per system", cols, rows),
                                                   fig], id="error-types")


# ---------------------------------------------------------------------------
# the page


def decoding(st: Dict[str, Any]) -> str:
    """``scheme S, policy P, `` when some side was decoded from tags; nothing when every side was read as
    spans (no scheme or policy applies to them)."""
    if st.get("scheme") is None:
        return ""
    scheme = st["scheme"] if st["scheme"] == st.get("scheme_requested", st["scheme"]) else f"{st['scheme']} (detected)"
    return f"scheme {scheme}, " + (f"policy {st['policy']}, " if st.get("policy") is not None else "")


def settings_line(rep: Dict[str, Any]) -> str:
    st, co = rep["settings"], rep["corpus"]
    return (f"{co['tokens']} tokens, {co['sentences']} sentences, labels: {', '.join(co['labels']) or '-'}; "
            f"{decoding(st)}separator weight {st['separator_weight']:g}, beta {st['beta']:g}")


def scheme_hint(scheme: str, side: Mapping[str, Any], spelling: Spelling = python_spelling) -> str:
    """Say the likely fix when many spans of one side had to be repaired under IOB2: IOB1 data
    (spans open with I-, B- only between two adjacent spans of one type) look like that."""
    bad = side["repairs"] + side["discarded"]
    if scheme != "IOB2" or bad < 2 or bad * 10 < side["spans"]:
        return ""
    return spell([f"{side['name']}: {bad} of {side['spans']} spans are ill-formed under IOB2; if the data are IOB1 "
                  "(spans open with I-), use ", Hint("scheme", "IOB1"), " or ", Hint("scheme", "auto")], spelling)


def notes(report: ReportLike, spelling: Spelling = python_spelling,
          paths: Optional[Mapping[str, str]] = None) -> List[str]:
    """Repairs and scheme hints (options named as ``spelling`` writes them; ``paths``: how to write an
    input's path, by its path, where it is not written as it is)."""
    rep = _dict(report)
    paths = paths or {}
    out = []
    for side in [rep["gold"]] + [s["source"] for s in rep["systems"]]:
        merged = side.get("merged", 0)
        if side["repairs"] or side["discarded"] or side["unmapped"] or merged:
            first = side.get("first_repair_line")
            path = paths.get(side.get("path") or "", side.get("path"))
            at = f" (first ill-formed: {path}:{first})" if first is not None and path else ""
            out.append(f"{side['name']}: {side['repairs']} ill-formed spans repaired, "
                       f"{side['discarded']} discarded{at}, {side['unmapped']} dropped by the label map"
                       + (f", {merged} merged by it" if merged else ""))
        hint = scheme_hint(rep["settings"]["scheme"], side, spelling)
        if hint:
            out.append(hint)
    undefined: Dict[str, List[str]] = {}    # why conlleval's token accuracy is n/a -> the systems
    for s in rep["systems"]:
        why = s.get("exact", {}).get("token_accuracy_undefined")
        if why:
            undefined.setdefault(why, []).append(s["name"])
    out += [f"acc (conlleval token accuracy) of {', '.join(names)}: {why}" for why, names in undefined.items()]
    return out


LEGEND = ("TS: token & separator units; ex: segment exact match (conlleval); µ micro, M macro, κ Cohen's kappa; "
          "acc: conlleval token accuracy; fair/wtd: Ortmann's fair and weighted scores")


def strings_table(rep: Dict[str, Any], s: Dict[str, Any]) -> Table:
    """The strings model per label: gold strings, system strings, matched, P/R/F."""
    return per_label_table(rep, s, "strings", (("gold", "gold"), ("system", "system"), ("tp", "matched")),
                           f"{s['name']}: generated strings as (normalised string, label) multisets, normalisation "
                           f"{s['strings'].get('normalize')} (scores in %)", present_only=True)


def generated_table(rep: Dict[str, Any]) -> Optional[Table]:
    """What placing the generated outputs found, one row per generated system (None: no such system)."""
    found: List[Tuple[str, Dict[str, Any]]] = []
    for s in rep["systems"]:
        g = (s["source"].get("reading") or {}).get("generated")
        if g:
            found.append((s["name"], g))
    if not found:
        return None
    # --ground (first or all occurrences) decides the spans of the span-level models; when the strings
    # model alone scores strings-mode outputs, no score depends on it and the column would say nothing
    ground = any(g["mode"] != "strings" for _, g in found) or any(
        spec.needs != "generated" for spec in model_specs(rep))
    cols = [Column("system", "system"), Column("mode", "mode"), *([Column("ground", "ground")] if ground else []),
            *(Column(k, t) for k, t in GENERATED_COUNTS), Column("outside_label_names", "labels outside gold")]
    rows = [[Cell(n), Cell(g["mode"]), *([Cell(g["ground"])] if ground else [])]
            + [Cell(g.get(k), "count") for k, _ in GENERATED_COUNTS]
            + [Cell(", ".join(g.get("outside_label_names", [])) or "-")] for n, g in found]
    return Table("generated", "Generated outputs: strings placed in gold's texts (ungrounded: found nowhere; "
                 "unplaced: no span, each a false positive of the span-level models)", cols, rows)


def semeval_table(s: Dict[str, Any]) -> Table:
    """nervaluate's four schemes, overall (one evaluation of all spans) and per label."""
    cols = [Column("scheme", "scheme"), Column("label", "label")] + \
        [Column(k, k, "counts") for k in SEMEVAL_COUNTS] + \
        [Column(k, t) for k, t in (("precision", "P"), ("recall", "R"), ("f", "F"))]
    rows = []
    for k in SEMEVAL_SCHEMES:
        block = s["semeval"][k]
        items = [("overall", block["overall"])] + [(lab, r) for lab, r in block["labels"].items() if r.get("present")]
        for lab, r in items:
            rows.append([Cell(k), Cell(lab)] + [Cell(r[c], "count") for c in SEMEVAL_COUNTS]
                        + [score_cell(r, m, SEMEVAL_COUNTS) for m in ("precision", "recall", "f")])
    return Table(f"semeval-{s['name']}", f"{s['name']}: SemEval-2013 schemes (nervaluate; scores in %)", cols,
                 rows, key_columns=2)


def ts_confusion_blocks(rep: Dict[str, Any], s: Dict[str, Any]) -> List[Any]:
    """The TS confusion matrix (units: tokens + separator weight x separators; rows gold, columns system,
    O = outside) and its heatmap; a note instead where a unit carries two labels on one side."""
    cm = s["ts"].get("confusion")
    if cm is None:
        return [Text(f"{s['name']}: no TS confusion matrix: some token or separator carries two labels on one "
                     "side (nested or overlapping spans), so units have no single label", "note")]
    w = rep["settings"].get("separator_weight", 1.0)
    units = "tokens + separators" if w == 1 else f"tokens + {w:g} x separators"
    outside = next(iter(cm))
    return confusion_blocks(s["name"], cm, f"ts-confusion-{s['name']}", order=list(cm), corner="gold \\ system",
                            off_scale=outside, title=f"{s['name']}: TS confusion matrix ({units}; {outside} = outside "
                                                     f"every span; colour scale without {outside} x {outside})")


#: the per-system tables and detail blocks a model may declare (:attr:`~ts_eval.models.registry.Display.tables`
#: and ``details``), by name: (report, system's result, model) -> blocks
BLOCKS: Dict[str, Callable[[Dict[str, Any], Dict[str, Any], str], List[Any]]] = {
    "labels": lambda rep, s, m: [labels_table(rep, s)],
    "segment": lambda rep, s, m: [segment_table(rep, s, m)],
    "fair-labels": lambda rep, s, m: [fair_labels_table(s)],
    "fair-bars": lambda rep, s, m: [error_type_bars(s["name"], s[m], f"error-bars-{s['name']}")],
    "semeval": lambda rep, s, m: [semeval_table(s)],
    "strings": lambda rep, s, m: [strings_table(rep, s)],
    "units": lambda rep, s, m: [units_table(rep, s)],
    "ts-confusion": lambda rep, s, m: ts_confusion_blocks(rep, s),
    "fair-confusion": lambda rep, s, m: confusion_blocks(s["name"], s[m]["confusion"], f"confusion-{s['name']}"),
    "target-stats": lambda rep, s, m: [stats_table(s[m], f"target-stats-{s['name']}")],
}


def declared_blocks(rep: Dict[str, Any], s: Dict[str, Any], which: str) -> List[Any]:
    """The blocks the system's models declare (``which``: ``tables`` or ``details``), in the registry's order;
    a table two models share (TS and exact match's per-label table) once."""
    out: List[Any] = []
    seen = set()
    for spec in model_specs(rep):
        for kind in getattr(spec.display, which) if spec.name in s else ():
            for block in BLOCKS[kind](rep, s, spec.name) if kind in BLOCKS else ():
                tid = getattr(block, "id", None)
                if tid is None or tid not in seen:
                    out.append(block)
                    seen.add(tid)
    return out


def runs_sections(rep: Dict[str, Any]) -> List[Section]:
    """The systems given as runs (the report's ``runs``): their scores over runs (:mod:`.runs`, as ``rank`` shows
    them), with how their intervals were drawn when the report says, and every run's score (a detail)."""
    if not rep.get("runs"):
        return []
    from .runs import run_scores_table, runs_table

    runs = rep["runs"]
    blocks: List[Any] = [runs_table(runs)]
    if runs.get("bootstrap"):
        blocks.append(Text(runs["bootstrap"], "note"))
    return [Section("Systems given as runs", blocks, id="runs"),
            Section("Systems given as runs: every run's score", [run_scores_table(runs)], id="runs-detail",
                    detail=True)]


def build(report: ReportLike, per_label: bool = True, *, spell: Spelling = python_spelling, overview: bool = False,
          more: Sequence[Tuple[str, Sequence[str]]] = (), intro: str = "") -> Page:
    """The page of a score Report (or its dict).  ``per_label``: the per-label tables (else only
    the summary); the units and the TS and fair confusion matrices are a detail section.
    ``overview``: instead, the first screen of several systems (:mod:`.score_overview`: each model's
    F and each system's rank under it, input paths below the folder they share), under ``intro``
    and ending with ``more``, (what it shows, the commands that show it) each."""
    rep = _dict(report)
    generated = generated_table(rep)
    if overview:
        from .score_overview import sections as overview_sections
        from .score_overview import short_paths

        lead: List[Block] = [*([Text(intro, "summary")] if intro else []),
                             Text(f"{len(rep['systems'])} systems, {settings_line(rep)}", "note"),
                             *(Text(n, "warning") for n in notes(rep, spell, short_paths(rep))),
                             *([generated] if generated else [])]
        return Page("score", "Scores", overview_sections(rep, lead, more) + runs_sections(rep),
                    {"settings": rep["settings"], "versions": rep["settings"].get("versions", {})})
    head: List[Block] = [Text(settings_line(rep), "note"), *(Text(n, "warning") for n in notes(rep, spell))]
    sections = [Section("Summary", [*head, summary(rep), *([generated] if generated else [])], id="summary")]
    sections += runs_sections(rep)
    if per_label:
        sections += [Section(s["name"], declared_blocks(rep, s, "tables"), id=f"system-{s['name']}")
                     for s in rep["systems"]]
    for s in rep["systems"]:
        blocks = declared_blocks(rep, s, "details")
        if blocks:
            sections.append(Section(f"{s['name']}: units, confusion matrices", blocks, id=f"more-{s['name']}",
                                    detail=True))
    acc = token_accuracy_section(rep)
    if acc is not None:
        sections.append(acc)
    sections.append(Section("Legend", [Text(LEGEND, "note")], id="legend"))
    meta = {"settings": rep["settings"], "versions": rep["settings"].get("versions", {})}
    return Page("score", "Scores", sections, meta)
