"""Ranking results -> rich tables (rank jumps in colour), JSON, CSV, Markdown, LaTeX.

The tables are built once (:func:`task_tables`, :func:`mean_tables`) as header +
rows of strings plus an optional style per cell; every text renderer formats the
same tables.  CSV is long format straight from the numbers (``task, table, row,
column, value``), for programs rather than for reading.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Union

import numpy as np

from . import rank_uncertainty
from .documents.rank import summary_line  # noqa: F401  (its home is the rank document now)
from .ranking import MultiTaskResult, RankingResult

Result = Union[RankingResult, MultiTaskResult]


@dataclass
class RankTable:
    title: str
    header: List[str]
    rows: List[List[str]]
    styles: Optional[List[List[Optional[str]]]] = None   # rich style per cell (None = plain)
    note: str = ""
    row_styles: List[Optional[str]] = field(default_factory=list)


# ---------------------------------------------------------------------------
# cell formatting


def fmt_rank(r: float) -> str:
    if r is None or np.isnan(r):
        return ""
    return str(int(r)) if float(r).is_integer() else f"{r:.1f}"


def fmt_pct(v: float, digits: int = 2) -> str:
    return "" if v is None or np.isnan(v) else f"{100 * v:.{digits}f}"


def fmt_paper(v: float) -> str:
    """Three decimals without the leading zero, as the paper prints scores (.875)."""
    if v is None or np.isnan(v):
        return ""
    s = f"{v:.3f}"
    return s[1:] if s.startswith("0.") else ("-" + s[2:] if s.startswith("-0.") else s)


def fmt_p(p: float) -> str:
    if p is None or np.isnan(p):
        return ""
    return f"{p:.3f}"


def fmt_corr(v: float) -> str:
    return "n/a" if v is None or np.isnan(v) else f"{v:.3f}"


def jump_style(jump: float) -> Optional[str]:
    """Promoted (reference rank worse than the position): green; demoted: red; bold from 3 places."""
    if jump == 0 or np.isnan(jump):
        return None
    colour = "green" if jump > 0 else "red"
    return f"bold {colour}" if abs(jump) >= 3 else colour


# ---------------------------------------------------------------------------
# tables


def score_table(r: RankingResult) -> RankTable:
    ref = r.reference_index
    order = r.order[ref]
    header = ["#", "system"] + r.titles
    rows = [[fmt_rank(r.ranks[i, ref]), r.systems[i]] + [fmt_pct(r.scores[i, k]) for k in range(len(r.models))]
            for i in order]
    return RankTable(f"{r.task}: scores in % (systems in the order of {r.titles[ref]})", header, rows)


def interval_table(r: RankingResult) -> Optional[RankTable]:
    b = r.bootstrap
    if b is None:
        return None
    ref = r.reference_index
    header = ["system"] + r.titles
    rows = [[r.systems[i]] + [f"{fmt_pct(b.score_low[i, k])}–{fmt_pct(b.score_high[i, k])}"
                              for k in range(len(r.models))] for i in r.order[ref]]
    return RankTable(f"{r.task}: {100 * b.confidence:g}% bootstrap intervals of the scores "
                     f"({b.resamples} resamples of {b.units} {b.unit}s, percentile)", header, rows)


def layout_table(r: RankingResult) -> RankTable:
    """The paper's Table 2: per model the reference ranks in that model's order, the scores, p-values."""
    n = len(r.systems)
    ref = r.ranks[:, r.reference_index]
    header = ["model"] + [str(p) for p in range(1, n + 1)]
    rows, styles, row_styles = [], [], []
    alpha = r.settings.get("alpha", 0.05)
    for k, title in enumerate(r.titles):
        refs = ref[r.order[k]]
        rows.append([title] + [fmt_rank(x) for x in refs])
        styles.append([None] + [jump_style(x - (p + 1)) for p, x in enumerate(refs)])
        row_styles.append("bold" if k == r.reference_index else None)
    for k, title in enumerate(r.titles):
        rows.append([f"{title} score"] + [fmt_paper(r.scores[i, k]) for i in r.order[k]])
        styles.append([None] * (n + 1))
        row_styles.append("dim")
    if r.permutation is not None:
        for k, title in enumerate(r.titles):
            ps = [r.permutation.p_next[i, k] for i in r.order[k][:-1]]
            rows.append([f"{title} p"] + [fmt_p(p) for p in ps] + [""])
            styles.append([None] + [("yellow" if p >= alpha else None) for p in ps] + [None])
            row_styles.append(None)
    note = (f"Each cell: the rank of the system at that position under {r.titles[r.reference_index]} "
            "(green: promoted, red: demoted, bold: 3 places or more). 'score' rows: the scores in each "
            "model's order (3 decimals).")
    if r.permutation is not None:
        note += (f" 'p' rows: paired approximate-randomisation test ({r.permutation.permutations} "
                 f"permutations over {r.permutation.unit}s) between the system at this position and the next "
                 f"one (yellow: p >= {alpha:g}, uncorrected; the groups below use Holm).")
    return RankTable(f"{r.task}: rankings (cells: rank under {r.titles[r.reference_index]})", header, rows,
                     styles, note, row_styles)


def rank_interval_table(r: RankingResult) -> Optional[RankTable]:
    b = r.bootstrap
    if b is None:
        return None
    header = ["system"] + r.titles
    rows = []
    for i in r.order[r.reference_index]:
        rows.append([r.systems[i]] + [
            f"{fmt_rank(r.ranks[i, k])} [{fmt_rank(b.rank_low[i, k])}–{fmt_rank(b.rank_high[i, k])}] "
            f"{100 * b.keep[i, k]:.0f}%" for k in range(len(r.models))])
    return RankTable(f"{r.task}: rank, {100 * b.confidence:g}% bootstrap rank interval, probability of keeping "
                     "the rank", header, rows)


def matrix_table(title: str, titles: List[str], m: np.ndarray, note: str = "") -> RankTable:
    rows = [[t] + [fmt_corr(v) for v in row] for t, row in zip(titles, m)]
    return RankTable(title, [""] + titles, rows, note=note)


# ---------------------------------------------------------------------------
# uncertainty of the rank study (ts_eval.rank_uncertainty)


def fmt_interval(low: float, high: float) -> str:
    return "n/a" if low is None or np.isnan(low) or np.isnan(high) else f"{low:.3f}–{high:.3f}"


def agreement_table(r: RankingResult) -> RankTable:
    """Each model against the reference: rank correlations (with intervals) and how many pairs flip."""
    ref, u = r.reference_index, r.uncertainty
    has_ci = u is not None and u.spearman_low is not None
    ci = f"{100 * u.confidence:g}% interval" if has_ci else "interval"
    header = ["model", "Spearman", ci, "Kendall tau-b", ci, "pairs changing order", "significant under both"]
    rows = []
    for k, title in enumerate(r.titles):
        if k == ref:
            continue
        f = r.flips(r.reference, r.models[k])
        rows.append([title, fmt_corr(r.spearman[ref, k]),
                     fmt_interval(u.spearman_low[ref, k], u.spearman_high[ref, k]) if has_ci else "",
                     fmt_corr(r.kendall[ref, k]),
                     fmt_interval(u.kendall_low[ref, k], u.kendall_high[ref, k]) if has_ci else "",
                     f"{f.changed} of {f.pairs_compared}",
                     "" if f.significant_under_both is None else str(f.significant_under_both)])
    note = rank_uncertainty.FLIP_RULE.capitalize() + (
        f" (alpha {u.alpha:g})." if u is not None else ".")
    if has_ci:
        note += f" Intervals: {rank_uncertainty.CORRELATION_METHOD} ({u.resamples} resamples)."
        if u.undefined.any():
            note += " Some resamples left a coefficient undefined (see undefined_resamples in the JSON)."
    return RankTable(f"{r.task}: agreement of each model with {r.titles[ref]}", header, rows, note=note)


def group_table(r: RankingResult) -> Optional[RankTable]:
    """Significance group of every system under every model (1 = top group)."""
    u = r.uncertainty
    if u is None or u.groups is None:
        return None
    header = ["system"] + r.titles
    rows = [[r.systems[i]] + [str(u.groups[i, k]) for k in range(len(r.models))] for i in r.order[r.reference_index]]
    note = ("Groups: " + rank_uncertainty.GROUP_RULE + f"; alpha {u.alpha:g}, paired permutation test "
            f"({r.permutation.permutations} permutations over {r.permutation.unit}s).")
    return RankTable(f"{r.task}: significance groups (Holm-corrected neighbour tests, alpha {u.alpha:g})",
                     header, rows, note=note)


def flip_tables(r: RankingResult) -> List[RankTable]:
    """The flips of the model pairs asked for (settings['flips']), pair by pair."""
    out = []
    for a, b in r.settings.get("flips", []):
        f = r.flips(a, b)
        ta, tb = r.titles[r.models.index(a)], r.titles[r.models.index(b)]
        header = [f"better under {ta}", f"better under {tb}", f"p under {ta}", f"p under {tb}",
                  "significant under both"]
        rows = [[p.better_under_a, p.better_under_b, fmt_p(p.p_a) if f.tested else "",
                 fmt_p(p.p_b) if f.tested else "",
                 "" if not f.tested else ("yes" if p.p_a < f.alpha and p.p_b < f.alpha else "no")] for p in f.pairs]
        out.append(RankTable(f"{r.task}: flips between {ta} and {tb}: {f.summary}", header, rows,
                             note=rank_uncertainty.FLIP_RULE.capitalize() + "."))
    return out


def interval_matrix_table(title: str, titles: List[str], low: np.ndarray, high: np.ndarray) -> RankTable:
    rows = [[t] + [fmt_interval(lo, hi) for lo, hi in zip(rl, rh)] for t, rl, rh in zip(titles, low, high)]
    return RankTable(title, [""] + titles, rows)


def uncertainty_tables(r: RankingResult, wide: bool = True) -> List[RankTable]:
    """Agreement with the reference, significance groups, asked-for flips; ``wide``: the interval matrices too."""
    out = [t for t in (agreement_table(r), group_table(r)) if t is not None] + flip_tables(r)
    u = r.uncertainty
    if wide and u is not None and u.spearman_low is not None:
        ci = f"{100 * u.confidence:g}% bootstrap intervals ({u.resamples} resamples, percentile)"
        out.append(interval_matrix_table(f"{r.task}: Spearman's rank correlation, {ci}", r.titles,
                                         u.spearman_low, u.spearman_high))
        out.append(interval_matrix_table(f"{r.task}: Kendall's tau-b, {ci}", r.titles, u.kendall_low, u.kendall_high))
    return out


def task_tables(r: RankingResult, wide: bool = True) -> List[RankTable]:
    out = [score_table(r)]
    it = interval_table(r)
    if it is not None:
        out.append(it)
    out.append(layout_table(r))
    rt = rank_interval_table(r)
    if rt is not None:
        out.append(rt)
    out.append(matrix_table(f"{r.task}: Spearman's rank correlation", r.titles, r.spearman, r.spearman_note))
    out.append(matrix_table(f"{r.task}: Kendall's tau-b", r.titles, r.kendall))
    return out + uncertainty_tables(r, wide)


def mean_tables(res: MultiTaskResult, wide: bool = True) -> List[RankTable]:
    k = len(res.tasks)
    out = [matrix_table(f"Spearman's rank correlation, mean over {k} tasks", res.titles, res.spearman,
                        res.spearman_note),
           matrix_table(f"Kendall's tau-b, mean over {k} tasks", res.titles, res.kendall)]
    ci = rank_uncertainty.mean_intervals(res.tasks) if wide else None
    if ci is not None:
        what = f"{100 * ci['confidence']:g}% bootstrap intervals ({ci['resamples']} resamples per task, percentile)"
        out.append(interval_matrix_table(f"Spearman's rank correlation, mean over {k} tasks, {what}", res.titles,
                                         ci["spearman_low"], ci["spearman_high"]))
        out.append(interval_matrix_table(f"Kendall's tau-b, mean over {k} tasks, {what}", res.titles,
                                         ci["kendall_tau_b_low"], ci["kendall_tau_b_high"]))
    return out


def all_tables(res: Result, wide: bool = True) -> List[RankTable]:
    """Every table of a result; ``wide=False`` leaves out the models x models interval matrices (terminal)."""
    if isinstance(res, RankingResult):
        return task_tables(res, wide)
    out: List[RankTable] = []
    for r in res.tasks.values():
        out.extend(task_tables(r, wide))
    return out + mean_tables(res, wide)


def _tasks(res: Result) -> List[RankingResult]:
    return [res] if isinstance(res, RankingResult) else list(res.tasks.values())


# ---------------------------------------------------------------------------
# renderers


def print_ranking(res: Result, console=None) -> None:
    """Rich tables to the terminal (or to ``console``)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    if console is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=max(200, console.width))
    for r in _tasks(res):
        console.print(f"[dim]{summary_line(r)}[/dim]")
    for t in all_tables(res, wide=False):
        console.print(Text(t.title, style="bold"))
        rt = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
        for k, h in enumerate(t.header):
            rt.add_column(h, justify="left" if k == 0 or h == "system" else "right", no_wrap=True)
        for i, row in enumerate(t.rows):
            cells = []
            for j, v in enumerate(row):
                st = t.styles[i][j] if t.styles else None
                cells.append(Text(v, style=st) if st else Text(v))
            rs = t.row_styles[i] if t.row_styles else None
            rt.add_row(*cells, style=rs)
        console.print(rt)
        if t.note:
            console.print(Text(t.note, style="dim"))
        console.print()
    descr = {}
    for r in _tasks(res):
        for name, title in zip(r.models, r.titles):
            descr[title] = r.settings.get("model_descriptions", {}).get(name, name)
    console.print("[dim]" + "; ".join(f"{t}: {d}" for t, d in descr.items()) + "[/dim]")


def to_json(res: Result) -> str:
    return json.dumps(res.to_dict(), indent=2, ensure_ascii=False) + "\n"


def to_csv(res: Result) -> str:
    """Long format: task, table, row, column, value (scores as fractions, not %)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["task", "table", "row", "column", "value"])

    num = csv_num
    for r in _tasks(res):
        per = {"score": r.scores, "rank": r.ranks}
        if r.bootstrap is not None:
            b = r.bootstrap
            per.update(score_low=b.score_low, score_high=b.score_high, score_se=b.score_se, rank_low=b.rank_low,
                       rank_high=b.rank_high, keep_rank=b.keep)
        if r.permutation is not None:
            per["p_next"] = r.permutation.p_next
        for table, arr in per.items():
            for i, s in enumerate(r.systems):
                for k, m in enumerate(r.models):
                    w.writerow([r.task, table, s, m, num(arr[i, k])])
        for k, m in enumerate(r.models):
            for pos, i in enumerate(r.order[k]):
                w.writerow([r.task, "ranking", str(pos + 1), m, r.systems[i]])
        for table, arr in (("spearman", r.spearman), ("kendall_tau_b", r.kendall)):
            for a, ma in enumerate(r.models):
                for b_, mb in enumerate(r.models):
                    w.writerow([r.task, table, ma, mb, num(arr[a, b_])])
        w.writerows(uncertainty_csv_rows(r))
    if isinstance(res, MultiTaskResult):
        for table, arr in (("mean_spearman", res.spearman), ("mean_kendall_tau_b", res.kendall)):
            for a, ma in enumerate(res.models):
                for b_, mb in enumerate(res.models):
                    w.writerow(["", table, ma, mb, num(arr[a, b_])])
        ci = rank_uncertainty.mean_intervals(res.tasks)
        if ci is not None:
            for key in ("spearman_low", "spearman_high", "kendall_tau_b_low", "kendall_tau_b_high",
                        "undefined_resamples"):
                w.writerows(_matrix_rows("", "mean_" + key, res.models, ci[key]))
    return out.getvalue()


def csv_num(v) -> str:
    return "" if v is None or (isinstance(v, float) and np.isnan(v)) else repr(float(v))


def _matrix_rows(task: str, table: str, models: List[str], arr: np.ndarray) -> List[List[str]]:
    return [[task, table, ma, mb, csv_num(arr[a, b])] for a, ma in enumerate(models) for b, mb in enumerate(models)]


def uncertainty_csv_rows(r: RankingResult) -> List[List[str]]:
    """CSV rows of the rank study's uncertainty: groups, Holm p-values, correlation intervals, flips.

    Flips: ``flips_changed`` / ``flips_significant_under_both`` / ``flips_tied_under_one``
    (row model A, column model B) and, per changed pair, ``flip_p_a:A:B`` and ``flip_p_b:A:B``
    (row: the system better under A, column: the system better under B).
    """
    u, rows = r.uncertainty, []
    if u is None:
        return rows
    if u.groups is not None:
        rows += [[r.task, "group", s, m, str(u.groups[i, k])] for i, s in enumerate(r.systems)
                 for k, m in enumerate(r.models)]
        rows += [[r.task, "p_next_holm", s, m, csv_num(u.p_next_holm[i, k])] for i, s in enumerate(r.systems)
                 for k, m in enumerate(r.models)]
    if u.spearman_low is not None:
        for table, arr in (("spearman_low", u.spearman_low), ("spearman_high", u.spearman_high),
                           ("kendall_tau_b_low", u.kendall_low), ("kendall_tau_b_high", u.kendall_high),
                           ("correlation_undefined_resamples", u.undefined)):
            rows += _matrix_rows(r.task, table, r.models, arr)
    for f in rank_uncertainty.all_flips(r):
        a, b = f.model_a, f.model_b
        rows += [[r.task, "flips_changed", a, b, str(f.changed)],
                 [r.task, "flips_tied_under_one", a, b, str(f.tied_under_one)]]
        if f.tested:
            rows.append([r.task, "flips_significant_under_both", a, b, str(f.significant_under_both)])
            for p in f.pairs:
                rows += [[r.task, f"flip_p_a:{a}:{b}", p.better_under_a, p.better_under_b, csv_num(p.p_a)],
                         [r.task, f"flip_p_b:{a}:{b}", p.better_under_a, p.better_under_b, csv_num(p.p_b)]]
    return rows


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def to_markdown(res: Result) -> str:
    parts = [f"_{summary_line(r)}_\n" for r in _tasks(res)]
    for t in all_tables(res):
        parts.append(f"**{_md_escape(t.title)}**\n")
        parts.append("| " + " | ".join(_md_escape(h) for h in t.header) + " |")
        parts.append("|" + "|".join(["---"] + ["---:"] * (len(t.header) - 1)) + "|")
        for i, row in enumerate(t.rows):
            cells = []
            for j, v in enumerate(row):
                st = t.styles[i][j] if t.styles else None
                cells.append(f"**{_md_escape(v)}**" if (st and "bold" in st and v) else _md_escape(v))
            parts.append("| " + " | ".join(cells) + " |")
        if t.note:
            parts.append(f"\n_{_md_escape(t.note)}_")
        parts.append("")
    return "\n".join(parts)


def _tex(s: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("µ", r"$\mu$"), ("κ", r"$\kappa$"),
                 ("–", "--"), ("^", r"\^{}"), ("~", r"\~{}")):
        s = s.replace(a, b)
    return s


def to_latex(res: Result) -> str:
    parts = [f"% ts_eval rank: {summary_line(r)}" for r in _tasks(res)]
    for t in all_tables(res):
        parts.append(r"\begin{table}[ht]\centering\small")
        parts.append(r"\begin{tabular}{l" + "r" * (len(t.header) - 1) + "}")
        parts.append(r"\hline")
        parts.append(" & ".join(_tex(h) for h in t.header) + r" \\")
        parts.append(r"\hline")
        for i, row in enumerate(t.rows):
            cells = []
            for j, v in enumerate(row):
                st = t.styles[i][j] if t.styles else None
                cell = _tex(v)
                if st and v:
                    cell = r"\textcolor{%s}{%s}" % ("green!50!black" if "green" in st else
                                                    ("red" if "red" in st else "orange"), cell)
                    if "bold" in st:
                        cell = r"\textbf{" + cell + "}"
                cells.append(cell)
            parts.append(" & ".join(cells) + r" \\")
        parts.append(r"\hline")
        parts.append(r"\end{tabular}")
        caption = t.title + (". " + t.note if t.note else "")
        parts.append(r"\caption{" + _tex(caption) + "}")
        parts.append(r"\end{table}")
    parts.append("% colours need \\usepackage[dvipsnames]{xcolor}")
    return "\n".join(parts) + "\n"


FORMATS: Dict[str, Callable[[Result], str]] = {
    "json": to_json, "csv": to_csv, "markdown": to_markdown, "latex": to_latex,
}
FORMAT_CHOICES = ("table",) + tuple(FORMATS)


def render(res: Result, fmt: str = "table", console=None) -> Optional[str]:
    """Text of a format; ``table`` prints rich tables and returns None."""
    if fmt == "table":
        print_ranking(res, console)
        return None
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMAT_CHOICES)}")
    return FORMATS[fmt](res)


def plain_text(res: Result, width: int = 200) -> str:
    """The rich tables as plain text (no colour), e.g. for a file or a script's output."""
    from rich.console import Console

    buf = io.StringIO()
    print_ranking(res, Console(file=buf, width=width, no_color=True, color_system=None, highlight=False))
    return buf.getvalue()
