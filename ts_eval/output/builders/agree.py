"""Agreement -> Page: the overall figures (micro, macro, multi-class, each with its interval), the
annotators, the pairs (lowest kappa first) with heatmaps of pairwise kappa and exact F1, the labels
(lowest alpha first), the documents (lowest alpha first), the disagreements a person can adjudicate
(kinds, groups by label and surface string, every cluster with who has what) and, as details, every
pair's figures per label.

Kappa and alpha are shown as coefficients (``corr``: three decimals), F1 and observed agreement as
percentages (``score``); counts stand beside them.  The builder selects and orders the result's
numbers and computes none.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence, Union, overload

from ...errors import Hint, Spelling, python_spelling, spell
from ..page import Block, Cell, Column, Figure, Page, Section, Table, Text

if TYPE_CHECKING:
    from ...agreement.results import Agreement

#: the overall rows: (result key, title, cell kind)
OVERALL = (("fleiss", "Fleiss' kappa (TS units)", "corr"), ("alpha", "Krippendorff's alpha (TS units)", "corr"),
           ("alpha_u", "unitizing alpha (continuum)", "corr"), ("kappa", "Cohen's kappa, mean of pairs", "corr"),
           ("f_exact", "F1 exact, mean of pairs", "score"), ("f_overlap", "F1 overlap, mean of pairs", "score"),
           ("agreement", "observed agreement, mean of pairs", "score"))
AVERAGES = ("micro", "macro", "multiclass")
KIND_TITLES = {"missing": "missing", "label": "label", "boundary": "boundary", "boundary_label": "boundary+label"}

PURPOSE = ("What each figure is for: F1 exact and overlap (positive specific agreement) when negatives are ill "
           "defined and no annotator is gold; Cohen's kappa (pairs), Fleiss' kappa and Krippendorff's alpha "
           "(all annotators) on token-and-separator units when chance agreement matters; unitizing alpha when "
           "where a span starts and ends matters, measured on the continuum. Micro pools the labels present, "
           "macro averages them, multi-class treats each unit's set of labels as one category.")


def _cell(fig: Optional[Dict[str, Any]], kind: str, counts: Optional[Dict[str, float]] = None) -> Cell:
    if fig is None:
        return Cell(None, kind)
    if fig["value"] is None:            # undefined (a macro average over no labels): n/a, and why
        return Cell(float("nan"), kind, note=fig.get("undefined"))
    return Cell(fig["value"], kind, low=fig.get("low"), high=fig.get("high"), counts=counts)


def _undefined_note(figs: List[Dict[str, Any]]) -> str:
    """The sentence that says why some of ``figs`` are n/a (empty: none is)."""
    why = sorted({f["undefined"] for f in figs if f.get("value") is None and f.get("undefined")})
    return " ".join(f"n/a: {w}." for w in why)


def overall_table(a: Agreement) -> Table:
    cols = [Column("figure", "figure")] + [Column(k, "multi-class" if k == "multiclass" else k) for k in AVERAGES]
    rows = []
    keys = []
    for key, title, kind in OVERALL:
        d = a.figures[key]
        rows.append([Cell(title)] + [_cell(d.get(k), kind) for k in AVERAGES])
        keys.append(key)
    st = a.settings
    note = ""
    if st["bootstrap"]:
        note = (f"{100 * st['confidence']:g}% bootstrap intervals ({st['bootstrap']} resamples of {st['units']} "
                f"{st['resampling']}, percentile).")
    note = " ".join(n for n in (note, _undefined_note([d for k, _, _ in OVERALL for d in a.figures[k].values()]))
                    if n)
    return Table("overall", "Every figure, all annotators together", cols, rows, note=note, sortable=False,
                 row_keys=keys)


def annotators_table(a: Agreement) -> Table:
    cols = [Column("annotator", "annotator"), Column("spans", "spans"), Column("nested", "nested"),
            Column("crossing", "crossing"), Column("sentences", "sentences annotated"), Column("path", "input")]
    rows = [[Cell(r["name"]), Cell(r["spans"], "count"), Cell(r["nested"], "count"), Cell(r["crossing"], "count"),
             Cell(r["sentences"], "count"),
             Cell(f"{r['path']}" + (f" column {r['column']}" if r["column"] is not None else "") if r["path"] else "")]
            for r in a.annotators]
    return Table("annotators", "Annotators", cols, rows)


def pairs_table(a: Agreement) -> Table:
    cols = [Column("a", "A"), Column("b", "B"), Column("f_exact", "F1 exact %"), Column("f_overlap", "F1 overlap %"),
            Column("kappa", "kappa µ"), Column("kappa_macro", "kappa M"),
            Column("kappa_multiclass", "kappa multi-class"),
            Column("agreement", "observed %"), Column("spans_a", "spans A"), Column("spans_b", "spans B"),
            Column("exact", "same spans")]
    rows = []
    for p in a.pairs:
        c = p["counts"]
        rows.append([Cell(p["a"]), Cell(p["b"]),
                     _cell(p["f_exact"]["micro"], "score", {"exact": c["exact"], "spans_a": c["spans_a"],
                                                             "spans_b": c["spans_b"]}),
                     _cell(p["f_overlap"]["micro"], "score", {"hit_a": c["hit_a"], "hit_b": c["hit_b"]}),
                     _cell(p["kappa"]["micro"], "corr", {k: c[k] for k in ("tp", "fp", "fn", "tn")}),
                     _cell(p["kappa"]["macro"], "corr"), _cell(p["kappa"]["multiclass"], "corr"),
                     _cell(p["agreement"]["micro"], "score"),
                     Cell(c["spans_a"], "count"), Cell(c["spans_b"], "count"), Cell(c["exact"], "count")])
    return Table("pairs", "Each pair of annotators, lowest kappa first (µ micro, M macro over labels)", cols, rows,
                 key_columns=2, note=_undefined_note([p["kappa"]["macro"] for p in a.pairs]))


def _heatmap(a: Agreement, key: str, title: str, kind: str) -> Figure:
    names = [r["name"] for r in a.annotators]
    k = len(names)
    values: List[List[Optional[float]]] = [[1.0 if i == j else None for j in range(k)] for i in range(k)]
    lows = [[None] * k for _ in range(k)]
    highs = [[None] * k for _ in range(k)]
    for p in a.pairs:
        i, j = names.index(p["a"]), names.index(p["b"])
        f = p[key]["micro"]
        for x, y in ((i, j), (j, i)):
            values[x][y] = f["value"]
            lows[x][y], highs[x][y] = f.get("low"), f.get("high")
    flat = [v for row in values for v in row if v is not None]
    has = any(v is not None for row in lows for v in row)
    return Figure(f"{key}-heatmap", title, "heatmap",
                  {"rows": names, "columns": names, "values": values, "low": lows if has else None,
                   "high": highs if has else None, "kind": kind, "range": [min(flat + [0.0]), max(flat + [1.0])]})


def labels_table(a: Agreement) -> Table:
    cols = [Column("label", "label"), Column("spans", "spans"), Column("alpha", "alpha"), Column("fleiss", "Fleiss"),
            Column("alpha_u", "alpha_u"), Column("kappa", "kappa"), Column("f_exact", "F1 exact %"),
            Column("f_overlap", "F1 overlap %")]
    rows = []
    for r in a.labels:
        rows.append([Cell(r["label"]), Cell(sum(r["spans"].values()), "count", counts=dict(r["spans"])),
                     _cell(r["alpha"], "corr"), _cell(r["fleiss"], "corr"),
                     _cell(r["alpha_u"], "corr", {"observed": r["observed_u"], "expected": r["expected_u"],
                                                  "units": r["units_u"]}),
                     _cell(r["mean_kappa"], "corr"), _cell(r["mean_f_exact"], "score"),
                     _cell(r["mean_f_overlap"], "score")])
    return Table("labels", "Per label, lowest alpha first (kappa and F1: mean of the pairs that use the label; spans: "
                 "all annotators)", cols, rows)


def more_note(shown: int, total: int, what: str, spelling: Spelling) -> List[Text]:
    """The note under a list cut at ``shown`` of ``total``: how many more, and how to see them all."""
    if shown >= total:
        return []
    return [Text(spell([f"{total - shown} more {what} not listed: ", Hint("cases", total),
                        " lists them all; the JSON and CSV formats hold every one"], spelling), "note")]


def documents_table(a: Agreement, limit: Optional[int]) -> Table:
    unit = "document" if a.settings["resampling"] == "documents" else "sentence"
    docs = a.documents if limit is None else a.documents[:limit]
    has_lines = any(d["line"] is not None for d in docs)
    cols = [Column("document", unit)] + ([Column("line", "line")] if has_lines else []) + [
        Column("sentences", "sentences"), Column("tokens", "tokens"), Column("spans", "spans"),
        Column("alpha", "alpha"), Column("alpha_u", "alpha_u"), Column("kappa", "kappa"),
        Column("f_exact", "F1 exact %")]

    def row(d: Dict[str, Any]) -> List[Cell]:
        return [Cell(d["document"], "count")] + ([Cell(d["line"], "count")] if has_lines else []) + [
            Cell(d["sentences"], "count"), Cell(d["tokens"], "count"),
            Cell(sum(d["spans"].values()), "count", counts=dict(d["spans"])), Cell(d["alpha"], "corr"),
            Cell(d["alpha_u"], "corr"), Cell(d["kappa"], "corr"), Cell(d["f_exact"], "score")]

    rows = _rows(docs, row)
    more = f"; the {len(docs)} lowest of {a.total('documents')}" if len(docs) < a.total("documents") else ""
    title = f"Per {unit}, lowest alpha first (micro over labels; kappa, F1: mean of the pairs with spans{more})"
    return Table("documents", title, cols, rows)


def _spans_text(spans: List[List[Any]]) -> str:
    if not spans:
        return "-"
    return "; ".join(f"[{s[3] if len(s) > 3 else f'{s[1]}..{s[2]}'}]{s[0]}" for s in spans)


def _spans_cell(item: Dict[str, Any], spans: List[List[Any]]) -> Cell:
    """One annotator's spans in a disagreement: as text (``[tokens]LABEL``), and, when the cluster's
    text has one word per token, as the cluster's tokens with the spans on them, which the renderers
    that draw sentences show side by side, one annotator beside the other."""
    first, last, text = item["first"], item["last"], item["text"]
    words = text.split(" ") if text is not None else []
    if len(words) != last - first + 1:         # no tokens, or a token with a space in it: the text alone
        return Cell(_spans_text(spans))
    return Cell(_spans_text(spans), data={"tokens": words, "spans": [[s[0], s[1] - first, s[2] - first]
                                                                     for s in spans]})


class LazyRows(Sequence[List[Cell]]):
    """A table's rows made from records as they are read (the records of a
    :class:`~ts_eval.agreement.spool.Spool`, kept on disk): a renderer that writes row after row
    (CSV) holds one at a time."""

    def __init__(self, records: Any, make: Callable[[Dict[str, Any]], List[Cell]]) -> None:
        self.records, self.make = records, make

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[List[Cell]]:
        return (self.make(r) for r in self.records)

    @overload
    def __getitem__(self, k: int) -> List[Cell]: ...

    @overload
    def __getitem__(self, k: slice) -> List[List[Cell]]: ...

    def __getitem__(self, k: Union[int, slice]) -> Any:
        if isinstance(k, slice):
            return [self.make(r) for r in self.records[k]]
        return self.make(self.records[k])


def _rows(records: Any, make: Callable[[Dict[str, Any]], List[Cell]]) -> Any:
    """A table's rows: made now from a list, as they are read from anything else (:class:`LazyRows`)."""
    return [make(r) for r in records] if isinstance(records, list) else LazyRows(records, make)


def disagreement_blocks(a: Agreement, limit: Optional[int], spelling: Spelling = python_spelling) -> List[Block]:
    d = a.disagreements
    names = [r["name"] for r in a.annotators]
    kind_cols = [Column(k, KIND_TITLES[k]) for k in KIND_TITLES]
    kinds = Table("disagreement-kinds",
                  f"{d['total']} clusters of overlapping spans that not every annotator has alike, by kind and label "
                  "(a cluster with two labels counts for each)",
                  [Column("label", "label"), Column("count", "clusters"), *kind_cols],
                  [[Cell("all"), Cell(d["total"], "count")] + [Cell(d["kinds"][k], "count") for k in KIND_TITLES]]
                  + [[Cell(r["label"]), Cell(r["count"], "count")] + [Cell(r["kinds"][k], "count") for k in KIND_TITLES]
                     for r in d["by_label"]], row_styles=["total"] + [None] * len(d["by_label"]))
    groups = d["groups"] if limit is None else d["groups"][:limit]
    n_groups = a.total("groups")
    more = f"; the {len(groups)} most frequent of {n_groups}" if len(groups) < n_groups else ""
    groups_more = more_note(len(groups), n_groups, "groups", spelling)
    gt = Table("disagreement-groups", f"Grouped by label and surface string{more}",
               [Column("labels", "labels"), Column("text", "text"), Column("count", "clusters"), *kind_cols],
               _rows(groups, lambda g: [Cell(g["labels"]), Cell(g["text"]), Cell(g["count"], "count")]
                     + [Cell(g["kinds"][k], "count") for k in KIND_TITLES]))
    items = d["items"] if limit is None else d["items"][:limit]
    n_items = a.total("items")
    more = f"; the first {len(items)} of {n_items}" if len(items) < n_items else ""
    has_lines = any(r["line"] is not None for r in items)
    cols = [Column("sentence", "sentence")] + ([Column("line", "line")] if has_lines else []) + [
        Column("kind", "kind"), Column("text", "text")] + [Column(f"by:{n}", n) for n in names]

    def row(r: Dict[str, Any]) -> List[Cell]:
        cells = [Cell(r["sentence"] + 1, "count")] + ([Cell(r["line"], "count")] if has_lines else [])
        cells += [Cell(KIND_TITLES[r["kind"]]), Cell(r["text"] if r["text"] is not None else f"tokens {r['first']}.."
                                                     f"{r['last']}")]
        return cells + [_spans_cell(r, r["annotators"][n]) for n in names]

    it = Table("disagreements", f"Every disagreement, in text order{more}", cols, _rows(items, row), key_columns=1,
               note="each annotator's spans as [text]LABEL; - where an annotator has none")
    return [kinds, gt, *groups_more, it, *more_note(len(items), n_items, "disagreements", spelling)]


def pair_label_table(a: Agreement) -> Table:
    cols = [Column("pair", "pair"), Column("label", "label"), Column("f_exact", "F1 exact %"),
            Column("f_overlap", "F1 overlap %"), Column("kappa", "kappa"), Column("agreement", "observed %"),
            Column("tp", "both"), Column("fp", "B only"), Column("fn", "A only"), Column("spans_a", "spans A"),
            Column("spans_b", "spans B"), Column("exact", "same spans")]
    rows = []
    for p in a.pairs:
        for lab, r in p["labels"].items():
            if not r["present"]:
                continue
            rows.append([Cell(f"{p['a']} ~ {p['b']}"), Cell(lab), _cell(r["f_exact"], "score"),
                         _cell(r["f_overlap"], "score"), _cell(r["kappa"], "corr"), _cell(r["agreement"], "score"),
                         Cell(r["tp"], "count"), Cell(r["fp"], "count"), Cell(r["fn"], "count"),
                         Cell(r["spans_a"], "count"), Cell(r["spans_b"], "count"), Cell(r["exact"], "count")])
    return Table("pair-labels", "Every pair per label (TS units: both, B only, A only)", cols, rows, key_columns=2)


def build(a: Agreement, cases: Optional[int] = None, *, spell: Spelling = python_spelling) -> Page:
    """The page of an agreement result; ``cases``: list at most this many documents, disagreement groups
    and disagreements (None: all)."""
    st, co = a.settings, a.corpus
    unit = "document" if st["resampling"] == "documents" else "sentence"
    about = (f"{len(a.annotators)} annotators, {co['tokens']} tokens, {co['sentences']} sentences, labels "
             f"{', '.join(co['labels']) or '-'}; separator weight {st['separator_weight']:g}, continuum "
             f"{st['continuum']}")
    if st.get("missing"):
        about += f"; {st['missing']} ({co['complete_sentences']} of {co['sentences']} sentences)"
    sections = [
        Section("Agreement", [Text(about, "note"), overall_table(a), annotators_table(a), Text(PURPOSE, "note")],
                id="agreement"),
        Section("Pairs", [pairs_table(a), _heatmap(a, "kappa", "Pairwise Cohen's kappa (micro)", "corr"),
                          _heatmap(a, "f_exact", "Pairwise F1, exact match (micro)", "score")], id="pairs"),
        Section("Labels", [labels_table(a)], id="labels"),
        Section("Documents", [documents_table(a, cases),
                              *more_note(min(a.total("documents"), cases if cases is not None
                                             else a.total("documents")),
                                         a.total("documents"), f"{unit}s", spell)], id="documents"),
        Section("Disagreements", disagreement_blocks(a, cases, spell), id="disagreements"),
        Section("Every pair per label", [pair_label_table(a)], id="pair-labels", detail=True),
    ]
    if a.majority is not None:
        m = a.majority
        text = f"Majority: {m['spans']} spans that at least {m['at_least']} annotators share"
        sections[0].blocks.insert(1, Text(text, "note"))
    return Page("agree", "Agreement", sections, {"settings": st})
