"""A comparison's tables as header + rows of plain values (``%`` columns hold fractions).

The comparison page (:mod:`ts_eval.output.builders.compare`) turns them into page tables,
which every renderer renders.  How an example sentence is written inline (``[Nadim Ladki]PER``)
is here too: the text of an example's cells (the cells also carry the tokens and spans, from
which the HTML and the coloured terminal highlight the spans).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ...comparison.results import (
    CLASS_TITLES,
    CLASSES,
    GOLD_OUTCOMES,
    ChangeClass,
    Comparison,
    Example,
    MultiComparison,
    PairComparison,
    SpanDiff,
)

ROLE_NAMES = ("gold", "A", "B")


@dataclass
class Table:
    title: str
    header: List[str]
    rows: List[List[Any]]


@dataclass
class CTable(Table):
    """A table of the comparison; ``percent``: every numeric cell is a fraction shown in %."""

    percent: bool = False


def _is_pct(t: Table, header: str) -> bool:
    return "%" in header or bool(getattr(t, "percent", False))


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _roles(roles: List[str]) -> str:
    return roles[0] if len(roles) == 1 else f"{', '.join(roles[:-1])} and {roles[-1]}"


def example_files(examples: List[Example]) -> str:
    """The files the examples' line numbers count in, each named once (one file per role):
    ``lines of x.conll (gold, A and B)`` or ``lines of g.conll (gold), a.conll (A) and b.conll (B)``;
    '' when no example comes from a file."""
    roles_of: Dict[str, List[str]] = {}
    seen = set()
    for e in examples:
        for role, w in e.where.items():
            if w.get("path") is not None and role not in seen:
                seen.add(role)
                roles_of.setdefault(str(w["path"]), []).append(role)
    if not roles_of:
        return ""
    return "Line numbers are lines of " + _roles([f"{p} ({_roles(r)})" for p, r in roles_of.items()])


def example_line(where: Dict[str, Dict[str, Any]]) -> Any:
    """An example's line in the files :func:`example_files` names: one number when every role is on
    that line (aligned files, or one file), else each role's (``gold 11, A 12, B 12``); None
    without lines."""
    lines = {role: w.get("line") for role, w in where.items() if w.get("line") is not None}
    if not lines:
        return None
    if len(lines) == len(where) and len(set(lines.values())) == 1:
        return next(iter(lines.values()))
    return ", ".join(f"{role} {line}" for role, line in lines.items())


# ---------------------------------------------------------------------------
# an example sentence as text

def inline_text(ex: Example, role: str, mark_focus: Optional[Tuple[str, str]] = None, clip: str = "…") -> str:
    """Tokens with one side's spans inline, ``[Nadim Ladki]PER``; focus tokens wrapped in mark_focus;
    ``clip`` marks a sentence window that does not start or end with the sentence."""
    opens: Dict[int, int] = {}
    closes: Dict[int, List[str]] = {}
    for lab, st, en in ex.spans[role]:              # end exclusive: the span closes after token en - 1
        opens[st] = opens.get(st, 0) + 1
        closes.setdefault(en - 1, []).append(lab)
    focus = set(ex.focus)
    parts = [clip] if ex.clipped_left else []
    for i, t in enumerate(ex.tokens):
        w = t
        if mark_focus and i in focus:
            w = f"{mark_focus[0]}{w}{mark_focus[1]}"
        w = "[" * opens.get(i, 0) + w + "".join(f"]{lab}" for lab in closes.get(i, []))
        parts.append(w)
    if ex.clipped_right:
        parts.append(clip)
    return " ".join(parts)


# ---------------------------------------------------------------------------
# tables

def _pair(c: Comparison) -> PairComparison:
    """The pair ``c`` compares (the page asks for a pair's tables only when it has one)."""
    if c.pair is None:
        raise ValueError("this comparison has no pair of systems")
    return c.pair


def _span(c: Comparison) -> SpanDiff:
    span = _pair(c).span
    if span is None:
        raise ValueError("this comparison has no span level")
    return span


def _multi(c: Comparison) -> MultiComparison:
    if c.multi is None:
        raise ValueError("this comparison has no part for several systems")
    return c.multi

def systems_table(c: Comparison) -> Table:
    rows = [[s["name"], s["token_accuracy"], s["correct_sentences"], s["system"], s["tp"],
             s["precision"], s["recall"], s["f"]] for s in c.systems]
    return Table("Systems (token accuracy over corpus tokens; spans: exact match)",
                 ["system", "token acc %", "correct sents %", "spans", "exact hits", "ex P %", "ex R %", "ex F %"],
                 rows)


def token_summary(c: Comparison) -> Table:
    t = _pair(c).token
    rows = [["difference", t.differing, t.tokens, t.diff]]
    rows += [[CLASS_TITLES[k].lower(), t.classes[k].count, t.differing, t.classes[k].share] for k in CLASSES]
    rows += [[f"accuracy A ({t.a})", round(t.accuracy_a * t.tokens), t.tokens, t.accuracy_a],
             [f"accuracy B ({t.b})", round(t.accuracy_b * t.tokens), t.tokens, t.accuracy_b],
             ["Δ accuracy (B - A)", None, None, t.accuracy_b - t.accuracy_a],
             ["correct sentences A", None, None, t.correct_sentences_a],
             ["correct sentences B", None, None, t.correct_sentences_b]]
    return Table(f"Token level: {t.a} (A) → {t.b} (B), view {c.settings['view']}",
                 ["", "count", "of", "share %"], rows)


def _transitions(classes: Dict[str, ChangeClass], title: str) -> Table:
    rows = []
    for k in CLASSES:
        for tr in classes[k].top:
            rows.append([CLASS_TITLES[k], tr.name, tr.count, tr.share_of_class, tr.share_of_diff])
    return Table(title, ["class", "transition", "count", "of class %", "of diff %"], rows)


def token_transitions(c: Comparison) -> Table:
    return _transitions(_pair(c).token.classes, "Token transitions: A → B (gold → A → B for changed errors), "
                                              "most frequent per class")


def token_labels(c: Comparison) -> Table:
    rows = [[r["label"], r["tokens"], r["accuracy_a"], r["accuracy_b"], r["delta_accuracy"], r["correction"],
             r["new_error"], r["changed_error"]] for r in _pair(c).token.per_label]
    return Table("Token level per gold label", ["gold label", "tokens", "acc A %", "acc B %", "Δ acc %",
                                                "corrections", "new errors", "changed"], rows)


def span_summary(c: Comparison) -> Table:
    s = _span(c)
    units = s.gold + s.spurious
    rows = [["difference", s.differing, units, s.diff]]
    rows += [[CLASS_TITLES[k].lower(), s.classes[k].count, s.differing, s.classes[k].share] for k in CLASSES]
    rows += [["gold spans", s.gold, None, None], ["spurious spans (A or B)", s.spurious, None, None]]
    rows += [[k, v, None, None] for k, v in s.spurious_moves.items()]
    return Table(f"Span level (fair outcomes): {s.a} (A) → {s.b} (B)", ["", "count", "of", "share %"], rows)


def span_outcomes(c: Comparison) -> Table:
    s = _span(c)
    rows = [[o.upper(), s.outcomes_a[o], s.outcomes_b[o], s.outcomes_b[o] - s.outcomes_a[o]] for o in s.outcomes_a]
    return Table("Fair outcomes of gold spans (FP: spurious system spans)", ["outcome", "A", "B", "B - A"], rows)


def span_matrix(c: Comparison) -> Table:
    s = _span(c)
    rows: List[List[Any]] = [[a, *row, sum(row)] for a, row in zip(GOLD_OUTCOMES, s.matrix)]
    rows.append(["total"] + [sum(col) for col in zip(*s.matrix)] + [s.gold])
    cc = ", ".join(f"{k.upper()} {v}" for k, v in s.changed_counterpart.items() if v)
    note = f"; on the diagonal, other counterpart span: {cc}" if cc else ""
    return Table(f"Gold spans: outcome under A (rows) → under B (columns){note}",
                 ["A \\ B"] + list(GOLD_OUTCOMES) + ["total"], rows)


def span_transitions(c: Comparison) -> Table:
    return _transitions(_span(c).classes, "Span transitions: A outcome → B outcome, most frequent per class")


def span_labels(c: Comparison) -> Table:
    rows = []
    for r in _span(c).per_label:
        top = next(iter(r["transitions"].items()), None)
        rows.append([r["label"], r["gold"], r["spurious"], r["tp_a"], r["tp_b"], r["correction"],
                     r["new_error"], r["changed_error"], r["net"], r["diff"],
                     f"{top[0]} ({top[1]})" if top else ""])
    return Table("Span level per label (gold spans by gold label, spurious spans by their label)",
                 ["label", "gold", "spurious", "TP A", "TP B", "corrections", "new errors", "changed", "net",
                  "diff %", "top transition"], rows)


def ts_labels(c: Comparison) -> Table:
    t = _pair(c).ts
    rows = []
    for r in t.per_label + [t.total]:
        x, y = r["b_right_a_wrong"], r["a_right_b_wrong"]
        rows.append([r["label"], x["tokens"], x["separators"], x["units"], x["gold_positive"], x["gold_negative"],
                     y["tokens"], y["separators"], y["units"], y["gold_positive"], y["gold_negative"], r["net_units"]])
    return Table(f"TS units per label: B right & A wrong vs A right & B wrong "
                 f"(found: gold unit recovered, cleared: spurious unit removed; separator weight "
                 f"{t.separator_weight:g})",
                 ["label", "B✓A✗ tok", "B✓A✗ sep", "B✓A✗ units", "B found", "B cleared",
                  "A✓B✗ tok", "A✓B✗ sep", "A✓B✗ units", "A found", "A cleared", "net units"], rows)


def diff_matrix(c: Comparison) -> Table:
    m = _multi(c)
    k = len(m.names)
    rows = [[f"{i + 1} {n}"] + m.diff_matrix[i] for i, n in enumerate(m.names)]
    return CTable("Pairwise diff in % (tokens labelled differently; columns numbered as the rows)",
                  ["system"] + [str(j + 1) for j in range(k)], rows, percent=True)


def pair_list(c: Comparison) -> Table:
    rows = [[p["a"], p["b"], p["diff"], p["overlap"], p["correct_overlap"], p["delta_accuracy"]]
            for p in _multi(c).pairs]
    return CTable("Pairs: diff, overlap on all answers (1 - diff), overlap on correct answers (Dice), Δ accuracy",
                  ["A", "B", "diff %", "overlap %", "correct overlap %", "Δ acc %"], rows)


def neighbours(c: Comparison) -> Table:
    rows = [[r["system"], r["mean_diff"], r["nearest"], r["nearest_diff"], r["farthest"], r["farthest_diff"]]
            for r in _multi(c).neighbours]
    return Table("Per system: mean diff to the others, nearest and farthest system",
                 ["system", "mean diff %", "nearest", "nearest diff %", "farthest", "farthest diff %"], rows)


def _oracle(o: Dict[str, Any], title: str, items: str, extra: bool) -> Table:
    ov = o["micro"]
    header = ["label", items, "best single %", "best for label %", "best for label", "oracle %", "gain %"]
    if extra:
        header += ["hard", "easy"]

    def row(name: str, r: Dict[str, Any], best_lab: Optional[float], best_lab_sys: Optional[str]) -> List[Any]:
        out = [name, r["gold"], r["best"], best_lab, best_lab_sys, r["oracle"], r["gain"]]
        if extra:
            out += [r.get("hard"), r.get("easy")]
        return out

    rows = [row("overall", ov, None, None)]
    rows += [row(r["label"], r, r["best_for_label"], r["best_for_label_system"]) for r in o["per_label"]]
    return Table(f"{title} (best single system overall: {ov['best_system']})", header, rows)


def token_oracle(c: Comparison) -> Table:
    return _oracle(_multi(c).token_oracle, "Oracle token accuracy: right if any system is right, per gold label",
                   "tokens", False)


def span_oracle(c: Comparison) -> Table:
    return _oracle(_multi(c).span_oracle, "Oracle span recall: found if any system finds the gold span exactly",
                   "gold spans", True)


def found_by(c: Comparison) -> Table:
    fb = _multi(c).found_by
    total = sum(fb)
    rows = [[j, n, n / total if total else 0.0] for j, n in enumerate(fb)]
    return Table("Gold spans found exactly by j of the systems", ["systems", "gold spans", "share %"], rows)


def _cases(cases: List[Dict[str, Any]], title: str, limit: Optional[int], gold_path: Optional[str]) -> Table:
    shown = cases if limit is None else cases[:limit]
    instead = any("systems_instead" in r for r in shown)
    rows = []
    for r in shown:
        row = [r["label"], r["text"] if r["text"] is not None else f"tokens {r['first']}..{r['last']}",
               r["sentence"] + 1, r["line"]]
        if instead:
            row.append(", ".join(f"{k} ×{v}" for k, v in list(r.get("systems_instead", {}).items())[:3]))
        rows.append(row)
    more = f"; first {len(shown)} of {len(cases)}" if len(shown) < len(cases) else ""
    line = f"line in {os.path.basename(gold_path)}" if gold_path else "line"
    header = ["label", "span", "sentence", line] + (["systems instead (fair outcome, label)"]
                                                                 if instead else [])
    return Table(f"{title} ({len(cases)}{more})", header, rows)


def hard_cases(c: Comparison, limit: Optional[int] = None) -> Table:
    return _cases(_multi(c).hard_cases, "Hard cases: gold spans no system finds exactly", limit,
                  c.corpus.get("gold_path"))


def easy_cases(c: Comparison, limit: Optional[int] = None) -> Table:
    return _cases(_multi(c).easy_cases, "Easy cases: gold spans every system finds exactly", limit,
                  c.corpus.get("gold_path"))
