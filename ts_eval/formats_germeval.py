"""GermEval reports -> text: the official scorer's layout (``nereval``), LaTeX, JSON.

``nereval`` reproduces nereval.perl's output byte for byte (without its ``-l``/``-v``
extras); the numbers are recomputed from the report's counts in the scorer's own order
of operations (``100*correct/found`` ...), so rounding at ``%6.2f`` agrees as well.

``latex`` gives the scorer's two tables (metrics; per type and chunk type) and a table of
the TS and fair scores.  Unlike ``nereval.perl -l``, whose "Loose, Combined" row repeats
the strict precision, recall and F1, the loose row shows Metric 2's own numbers.
"""
from __future__ import annotations

from typing import Any, Dict, List

from .germeval import BASES, BLOCK_TITLES, LEVELS, ROW_TITLES, fb1, pct
from .report import Report


def _numbers(g: Dict[str, Any]):
    """(blocks, found, gold, types, per_type) in percent, from a report's ``germeval`` counts."""
    n = g["tokens"]
    lv = g["levels"]

    def tot(mode, levels, key):
        return sum(lv[x][mode][key] for x in levels)

    blocks = []
    for title, mode, levels in ((BLOCK_TITLES[0], "strict", LEVELS), (BLOCK_TITLES[1], "loose", LEVELS),
                                (BLOCK_TITLES[2], "strict", ("outer",)), (BLOCK_TITLES[3], "strict", ("inner",))):
        if len(levels) == 2:
            acc = 100 * ((lv["outer"][mode]["tags_correct"] + lv["inner"][mode]["tags_correct"]) / 2) / n if n else 0.0
        else:
            acc = 100 * (lv[levels[0]][mode]["tags_correct"] / n) if n else 0.0
        k, f, gg = tot(mode, levels, "correct"), tot(mode, levels, "found"), tot(mode, levels, "gold")
        p, r = pct(k, f), pct(k, gg)
        blocks.append((title, acc, p, r, fb1(p, r)))
    per_type = {}
    for t in g["per_type"]:
        rows = []
        for mode, level, title in ROW_TITLES:
            if mode == "loose" and t not in BASES:
                continue
            d = lv[level][mode]["types"].get(t, {"gold": 0, "found": 0, "correct": 0})
            p, r = pct(d["correct"], d["found"]), pct(d["correct"], d["gold"])
            rows.append((title, p, r, fb1(p, r)))
        per_type[t] = rows
    return blocks, per_type


def nereval_block(system: Dict[str, Any]) -> str:
    """nereval.perl's report for one system, byte for byte."""
    g = system["germeval"]
    lv = g["levels"]
    out: List[str] = []
    for mode in ("STRICT", "LOOSE"):
        m = mode.lower()
        out.append(f"{mode}: Found: {lv['outer'][m]['found']} outer and {lv['inner'][m]['found']} inner phrases; "
                   f"Gold: {lv['outer'][m]['gold']} (outer) and {lv['inner'][m]['gold']} (inner).\n")
    blocks, per_type = _numbers(g)
    if g["tokens"] > 0:
        for k, (title, acc, p, r, f) in enumerate(blocks):
            out.append(f"\n{title}:\n")
            out.append("Accuracy: %6.2f%%;\n" % acc)
            out.append("Precision: %6.2f%%;\n" % p)
            out.append("Recall: %6.2f%%;\n" % r)
            out.append("FB1: %6.2f\n" % f + ("\n" if k == 3 else ""))
    out.append("\nEvaluation per type and mode:\n=============================\n\n")
    for t, rows in per_type.items():
        out.append("==> %10s\n==============\n" % t)
        for title, p, r, f in rows:
            out.append(f"{title}: " + "Precision: %6.2f%%; " % p + "Recall: %6.2f%%; " % r + "FB1: %6.2f\n" % f)
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
    blocks, per_type = _numbers(g)
    names = ("Strict, Combined (official)", "Loose, Combined", "Strict, Outer chunks only", "Strict, Inner chunks only")
    out = [f"% ts_eval germeval: {_tex(system['name'])}, policy {g['policy']}, {g['tokens']} tokens",
           r"\begin{tabular}{l|rrrr}", r"Metric & Accuracy & Precision & Recall & F$_{\beta=1}$ \\\hline"]
    for name, (_, acc, p, r, f) in zip(names, blocks):
        out.append(r"%s & %.2f\%% & %.2f\%% & %.2f\%% & %.2f \\" % (name, acc, p, r, f))
    out += [r"\end{tabular}", "", r"\begin{tabular}{ll|rrr}",
            r"Type & Chunk type & Precision & Recall & F$_{\beta=1}$ \\"]
    for t, rows in per_type.items():
        out.append(r"\hline")
        for title, p, r, f in rows:
            out.append(r"%s & %s & %.2f\%% & %.2f\%% & %.2f \\" % (_tex(t), title, p, r, f))
    out += [r"\end{tabular}"]
    ts = system.get("ts")
    if ts:
        out += ["", r"\begin{tabular}{l|rrrr}", r"TS (token \& separator) & Precision & Recall & F & $\kappa$ \\\hline"]
        rows = [("both levels, micro", ts["micro"]), ("both levels, macro", ts["macro"])]
        rows += [(f"{lv} level, micro", ts["levels"][lv]) for lv in LEVELS]
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
