"""GermEval reports -> text: the official scorer's layout (``nereval``), LaTeX, JSON.

``nereval`` reproduces nereval.perl's output byte for byte (without its ``-l``/``-v``
extras); its numbers are the report's ``official`` part, which :mod:`ts_eval.germeval.evaluate`
computes in the scorer's own order of operations (``100*correct/found`` ...), so rounding
at ``%6.2f`` agrees as well.  Nothing here computes a number; it only formats them.

``latex`` gives the scorer's two tables (metrics; per type and chunk type) and a table of
the TS and fair scores.  Unlike ``nereval.perl -l``, whose "Loose, Combined" row repeats
the strict precision, recall and F1, the loose row shows Metric 2's own numbers.
"""
from __future__ import annotations

from typing import Any, Dict, List

from ...results.report import Report


def nereval_block(system: Dict[str, Any]) -> str:
    """nereval.perl's report for one system, byte for byte."""
    g = system["germeval"]
    lv = g["levels"]
    out: List[str] = []
    for mode in ("STRICT", "LOOSE"):
        m = mode.lower()
        out.append(f"{mode}: Found: {lv['outer'][m]['system']} outer and {lv['inner'][m]['system']} inner phrases; "
                   f"Gold: {lv['outer'][m]['gold']} (outer) and {lv['inner'][m]['gold']} (inner).\n")
    official = g["official"]
    if g["tokens"] > 0:
        for k, b in enumerate(official["blocks"]):
            out.append(f"\n{b['title']}:\n")
            out.append("Accuracy: %6.2f%%;\n" % b["accuracy"])
            out.append("Precision: %6.2f%%;\n" % b["precision"])
            out.append("Recall: %6.2f%%;\n" % b["recall"])
            out.append("FB1: %6.2f\n" % b["f"] + ("\n" if k == 3 else ""))
    out.append("\nEvaluation per type and mode:\n=============================\n\n")
    for t, rows in official["per_type"].items():
        out.append("==> %10s\n==============\n" % t)
        for d in rows:
            out.append(f"{d['run']}: " + "Precision: %6.2f%%; " % d["precision"] + "Recall: %6.2f%%; " % d["recall"]
                       + "FB1: %6.2f\n" % d["f"])
    out.append("\n")
    return "".join(out)


def to_nereval(report: Report) -> str:
    if len(report.systems) == 1:
        return nereval_block(report.systems[0])
    return "\n".join(f"# system: {s['name']}\n" + nereval_block(s) for s in report.systems)


def _tex(s: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}")):
        s = s.replace(a, b)
    return s


def latex_block(system: Dict[str, Any]) -> str:
    g = system["germeval"]
    official = g["official"]
    names = ("Strict, Combined (official)", "Loose, Combined", "Strict, Outer chunks only", "Strict, Inner chunks only")
    out = [f"% ts_eval germeval: {_tex(system['name'])}, policy {g['policy']}, {g['tokens']} tokens",
           r"\begin{tabular}{l|rrrr}", r"Metric & Accuracy & Precision & Recall & F$_{\beta=1}$ \\\hline"]
    for name, b in zip(names, official["blocks"]):
        out.append(r"%s & %.2f\%% & %.2f\%% & %.2f\%% & %.2f \\" % (name, b["accuracy"], b["precision"],
                                                                    b["recall"], b["f"]))
    out += [r"\end{tabular}", "", r"\begin{tabular}{ll|rrr}",
            r"Type & Chunk type & Precision & Recall & F$_{\beta=1}$ \\"]
    for t, rows in official["per_type"].items():
        out.append(r"\hline")
        for d in rows:
            out.append(r"%s & %s & %.2f\%% & %.2f\%% & %.2f \\" % (_tex(t), d["run"], d["precision"], d["recall"],
                                                                   d["f"]))
    out += [r"\end{tabular}"]
    ts = system.get("ts")
    if ts:
        out += ["", r"\begin{tabular}{l|rrrr}", r"TS (token \& separator) & Precision & Recall & F & $\kappa$ \\\hline"]
        rows = [("both levels, micro", ts["micro"]), ("both levels, macro", ts["macro"])]
        rows += [(f"{lv} level, micro", d) for lv, d in ts["levels"].items()]
        for name, d in rows:
            out.append(r"%s & %.2f & %.2f & %.2f & %.3f \\" % (name, 100 * d["precision"], 100 * d["recall"],
                                                               100 * d["f"], d.get("kappa", float("nan"))))
        out.append(r"\end{tabular}")
    fair = system.get("fair")
    if fair and fair.get("available") and fair.get("table"):
        head, rows = fair["table"]["header"], fair["table"]["rows"]
        out += ["", r"\begin{tabular}{l|" + "r" * (len(head) - 1) + "}",
                " & ".join(_tex(str(h)) for h in head) + r" \\\hline"]
        for r in rows:
            out.append(" & ".join(_tex(str(v)) for v in r) + r" \\")
        out.append(r"\end{tabular}")
    return "\n".join(out) + "\n"


def to_latex(report: Report) -> str:
    return "\n".join(latex_block(s) for s in report.systems)


def to_json(report: Report) -> str:
    return report.to_json() + "\n"


FORMATS = {"nereval": to_nereval, "latex": to_latex, "json": to_json}
