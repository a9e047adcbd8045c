"""Report -> text: JSON, CSV, Markdown, LaTeX and conlleval.pl's own layout."""
from __future__ import annotations

import csv
import io
from typing import Callable, Dict

from . import tables
from .measures import percent, prf_percent
from .report import Report


def to_json(report: Report) -> str:
    return report.to_json() + "\n"


def to_csv(report: Report) -> str:
    """Long format: one row per system x model x row (label, micro, macro), all counts and scores."""
    out = io.StringIO()
    fields = ["name", "model", "row", "tp", "fp", "fn", "tn", "gold", "system", "gold_hit", "system_hit",
              "le", "be", "bes", "bel", "beo", "lbe", "precision", "recall", "f", "kappa", "accuracy",
              "tags_correct", "tags_counted",
              "correct", "incorrect", "partial", "missed", "spurious", "possible", "actual"]   # the last seven: semeval
    w = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for s in report.systems:
        if "fair" in s:
            for method in ("traditional", "fair", "weighted"):
                block = s["fair"][method]
                for lab, row in list(block["labels"].items()) + [("micro", block["micro"])]:
                    w.writerow({"name": s["name"], "model": f"fair:{method}", "row": lab, **row})
        for model in [m for m in report.settings.get("models", ["ts", "exact"]) if m in s and m not in ("fair", "semeval")]:
            m = s[model]
            for lab in report.labels:
                w.writerow({"name": s["name"], "model": model, "row": lab, **m["labels"][lab]})
            w.writerow({"name": s["name"], "model": model, "row": "micro", **m["micro"]})
            w.writerow({"name": s["name"], "model": model, "row": "macro", **m["macro"]})
            if model == "ts" and "all_labels" in m:
                w.writerow({"name": s["name"], "model": model, "row": "all labels", **m["all_labels"]})
        for scheme, block in s.get("semeval", {}).items():
            if isinstance(block, dict):   # the four schemes (min_overlap_percentage is a number)
                for lab, row in [("overall", block["overall"])] + list(block["labels"].items()):
                    w.writerow({**row, "name": s["name"], "model": f"semeval:{scheme}", "row": lab})
        if "token_accuracy" in s.get("exact", {}):
            w.writerow({"name": s["name"], "model": "exact", "row": "token accuracy",
                        "tags_correct": s["exact"]["tags_correct"], "tags_counted": s["exact"]["tags_counted"],
                        "accuracy": s["exact"]["token_accuracy"]})
    return out.getvalue()


def _settings_line(report: Report) -> str:
    st = report.settings
    return (f"scheme {st['scheme']}, policy {st['policy']}, separator weight {st['separator_weight']:g}, "
            f"beta {st['beta']:g}; {report.corpus['tokens']} tokens, {report.corpus['sentences']} sentences")


def to_markdown(report: Report) -> str:
    parts = [f"_{_settings_line(report)}_\n"]
    for t in tables.all_tables(report, confusion=True):
        parts.append(f"**{t.title}**\n")
        parts.append("| " + " | ".join(t.header) + " |")
        parts.append("|" + "|".join(["---"] + ["---:"] * (len(t.header) - 1)) + "|")
        for r in t.rows:
            parts.append("| " + " | ".join(tables.cell(h, v) for h, v in zip(t.header, r)) + " |")
        parts.append("")
    return "\n".join(parts)


def _tex(s: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("µ", r"$\mu$"), ("κ", r"$\kappa$")):
        s = s.replace(a, b)
    return s


def to_latex(report: Report) -> str:
    parts = [f"% ts_eval: {_settings_line(report)}"]
    for t in tables.all_tables(report, confusion=True):
        parts.append(r"\begin{table}[ht]\centering\small")
        parts.append(r"\begin{tabular}{l" + "r" * (len(t.header) - 1) + "}")
        parts.append(r"\hline")
        parts.append(" & ".join(_tex(h) for h in t.header) + r" \\")
        parts.append(r"\hline")
        for r in t.rows:
            parts.append(" & ".join(_tex(tables.cell(h, v)) for h, v in zip(t.header, r)) + r" \\")
        parts.append(r"\hline")
        parts.append(r"\end{tabular}")
        parts.append(r"\caption{" + _tex(t.title) + "}")
        parts.append(r"\end{table}")
    return "\n".join(parts) + "\n"


def conlleval_block(report: Report, system: dict) -> str:
    """conlleval.pl's report for one system, byte for byte (percentages, %6.2f)."""
    if "exact" not in system:
        raise ValueError("the conlleval format needs the exact model")
    ex = system["exact"]
    G, F, C = ex["micro"]["gold"], ex["micro"]["system"], ex["micro"]["tp"]
    ntok = ex.get("tags_counted", report.corpus["tokens"] + report.corpus["docstart_lines"])
    lines = [f"processed {ntok} tokens with {G} phrases; found: {F} phrases; correct: {C}.\n"]
    p, r, f = prf_percent(C, F, G)     # conlleval.pl's order: 100*correct/found, then 2PR/(P+R)
    if ntok > 0:
        acc = percent(ex["tags_correct"], ntok) if "tags_correct" in ex else 0.0
        lines.append("accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n" % (acc, p, r, f))
    rows = ex["labels"]
    # conlleval sorts the type names of gold and found phrases together and drops a
    # repeat unless the previous name is false in Perl (the empty type): it is printed twice
    keys = sorted([t for t in rows if rows[t]["gold"] > 0] + [t for t in rows if rows[t]["system"] > 0])
    ordered, last = [], None
    for t in keys:
        if not last or last != t:
            ordered.append(t)
        last = t
    for t in ordered:
        c, fo, go = rows[t]["tp"], rows[t]["system"], rows[t]["gold"]
        p, r, f = prf_percent(c, fo, go)
        pad = " " * max(0, 17 - len(t.encode("utf-8")))  # Perl's %17s counts bytes, not characters
        lines.append("%s%s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n" % (pad, t, p, r, f, fo))
    return "".join(lines)


def to_conlleval(report: Report) -> str:
    if len(report.systems) == 1:
        return conlleval_block(report, report.systems[0])
    return "\n".join(f"# system: {s['name']}\n" + conlleval_block(report, s) for s in report.systems)


def to_faireval(report: Report) -> str:
    """The FairEval reference tool's report layout, one block per system."""
    from .formats_fair import faireval_settings, to_faireval as render

    st = report.settings
    inp = st.get("input", {})
    blocks = []
    for s in report.systems:
        if "fair" not in s:
            raise ValueError("the faireval format needs the fair model")
        settings = faireval_settings(
            target_in=str(inp.get("gold") or inp.get("file") or report.gold.get("path") or "gold"),
            system_in=str(s["source"].get("path") or s["name"]), ignore_punct=False,
            focus=st["fair"]["focus"], weights=st["fair"]["weights"])
        text = render(s["fair"], settings)
        blocks.append(text if len(report.systems) == 1 else f"# system: {s['name']}\n{text}")
    return "\n".join(blocks)


FORMATS: Dict[str, Callable[[Report], str]] = {
    "json": to_json, "csv": to_csv, "markdown": to_markdown, "latex": to_latex, "conlleval": to_conlleval,
    "faireval": to_faireval,
}
