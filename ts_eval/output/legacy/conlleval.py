"""conlleval.pl's report layout, byte for byte (``ts-eval score --format conlleval``).

Only the legacy layout lives here: every other format of a score report is its page
rendered by :mod:`ts_eval.output.renderers`; the numbers are the report's exact-match counts, and the
percentages are computed in conlleval.pl's order of operations (:func:`ts_eval.core.measures.prf` with
``percent=True``).
"""
from __future__ import annotations

from typing import Any, Dict

from ...core.measures import percent, prf
from ...results.report import Report


def conlleval_block(report: Report, system: Dict[str, Any]) -> str:
    """conlleval.pl's report for one system, byte for byte (percentages, %6.2f)."""
    if "exact" not in system:
        raise ValueError("the conlleval format needs the exact model")
    ex = system["exact"]
    G, F, C = ex["micro"]["gold"], ex["micro"]["system"], ex["micro"]["tp"]
    ntok = ex.get("tags_counted", report.corpus["tokens"] + report.corpus["docstart_lines"])
    lines = [f"processed {ntok} tokens with {G} phrases; found: {F} phrases; correct: {C}.\n"]
    p, r, f = prf(C, F - C, G - C, percent=True)   # conlleval.pl's order: 100*correct/found, then 2PR/(P+R)
    if ntok > 0:   # an accuracy that was not computed (nested spans have no IOB2 tags) is n/a, never 0.00%
        acc = "%6.2f%%" % percent(ex["tags_correct"], ntok) if ex.get("tags_correct") is not None else "   n/a"
        lines.append("accuracy: %s; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n" % (acc, p, r, f))
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
        p, r, f = prf(c, fo - c, go - c, percent=True)
        pad = " " * max(0, 17 - len(t.encode("utf-8")))  # Perl's %17s counts bytes, not characters
        lines.append("%s%s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n" % (pad, t, p, r, f, fo))
    return "".join(lines)


def to_conlleval(report: Report) -> str:
    if len(report.systems) == 1:
        return conlleval_block(report, report.systems[0])
    return "\n".join(f"# system: {s['name']}\n" + conlleval_block(report, s) for s in report.systems)
