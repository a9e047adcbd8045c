"""A hand-made document with every block and figure kind, and names that need escaping, for the
HTML renderer's tests (the builders' documents are tested through the real results)."""
from __future__ import annotations

from ts_eval.output.page import Cell, Column, Figure, Page, Section, Table, Text

EVIL = '<b>&"x\'</b>'
SYSTEMS = ["task2003-florian", "task2003-chieu", EVIL, "task2003-klein"]
MODELS = ["Seg-F1µ", "TS-F1M", "T-F1µ"]
SCORES = [[0.8876, 0.90, 0.91], [0.8831, 0.87, 0.905], [0.8642, 0.88, 0.89], [0.8607, 0.86, 0.85]]
RANKS = [[1, 1, 1], [2, 3, 2], [3, 2, 3], [4, 4, 4]]
RHO = [[1.0, 0.8, 0.6], [0.8, 1.0, -0.2], [0.6, -0.2, 1.0]]


def sample_page() -> Page:
    cols = ([Column("rank", "#"), Column("system", "system")]
            + [Column(f"m{j}", m, group="scores") for j, m in enumerate(MODELS)] + [Column("group", "group")])
    rows = [[Cell(i + 1, "rank"), Cell(s)]
            + [Cell(v, "score", low=v - 0.006, high=v + 0.005, counts={"tp": 5000 + i, "fp": 300, "fn": 420},
                    style="best" if i == 0 else None) for v in SCORES[i]]
            + [Cell(1 if i < 2 else 2, "count")] for i, s in enumerate(SYSTEMS)]
    leaderboard = Table("leaderboard", "Leaderboard", cols, rows, key_columns=2, note="Holm; alpha 0.05")
    pvalues = Table("p", "p-values", [Column("pair", "pair"), Column("p", "p")],
                    [[Cell("a > b"), Cell(0.0004, "p")], [Cell("b > c"), Cell(float("nan"), "p")],
                     [Cell("c > d"), Cell(0.25, "p")]])
    figures = [
        Figure("bump", "Ranks across models", "bump", {"models": MODELS, "systems": SYSTEMS, "ranks": RANKS}),
        Figure("spearman", "Spearman", "heatmap",
               {"rows": MODELS, "columns": MODELS, "values": RHO, "low": [[v - 0.1 for v in r] for r in RHO],
                "high": [[min(1.0, v + 0.05) for v in r] for r in RHO], "kind": "corr", "range": [-1, 1]}),
        Figure("labels", "F1 per label", "bars", {"labels": ["LOC", "PER"], "values": [0.91, 0.95], "kind": "score"}),
        Figure("fair", "Fair error types", "stacked_bars",
               {"labels": SYSTEMS, "parts": ["FP", "FN", "LE"], "values": [[10, 20, 5], [12, 18, 4], [9, 25, 6],
                                                                           [13, 21, 5]]}),
        Figure("lb", "Leaderboard with intervals", "intervals",
               {"labels": SYSTEMS, "values": [r[0] for r in SCORES], "low": [r[0] - 0.006 for r in SCORES],
                "high": [r[0] + 0.005 for r in SCORES], "kind": "score", "groups": [1, 1, 2, 2]}),
    ]
    return Page("rank", f"Ranking of {EVIL}", [
        Section("Leaderboard", [Text(f"{EVIL} is third.", "summary"), leaderboard], id="leaderboard"),
        Section("Figures", figures),
        Section("p-values", [pvalues], detail=True),
    ], meta={"command": ["ts-eval", "rank", "--gold", "gold.iob2", f"{EVIL}.conll"], "seed": 0,
             "settings": {"bootstrap": 1000, "models": MODELS}, "versions": {"ts_eval": "0"}})
