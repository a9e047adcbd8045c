"""The first screen (issue 30.7): ``ts-eval demo`` and ``score`` of several systems show each model's F and
each system's rank under it on one screen, with headers in words, where the rankings disagree, how to read
it and the commands that show more; every score and the per-label tables are one option away.

The numbers on the screen are read back and compared with the JSON of the same command; the ranks
and the disagreements are worked out here from the JSON's scores, by sorting.
"""
from __future__ import annotations

import json
import math
import os
import re
import shlex
from itertools import combinations
from pathlib import Path
from typing import Dict, List

import pytest
from support import run_cli, write

from ts_eval.cli import app
from ts_eval.cli.demo import DEMO_FILE
from ts_eval.output.builders import build
from ts_eval.output.renderers import render
from ts_eval.output.renderers.text import blocks_of

DEMO = Path(DEMO_FILE)
#: the columns of the two tables: (title on the screen, the score in a system's JSON)
MICRO = [("TS micro F1", lambda s: s["ts"]["micro"]["f"]), ("exact micro F1", lambda s: s["exact"]["micro"]["f"]),
         ("fair F1", lambda s: s["fair"]["fair"]["micro"]["f"])]
OTHER = [("TS macro F1", lambda s: s["ts"]["macro"]["f"]), ("exact macro F1", lambda s: s["exact"]["macro"]["f"]),
         ("weighted F1", lambda s: s["fair"]["weighted"]["micro"]["f"])]


def screen(capsys, monkeypatch, argv: List[str], width: int):
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run_cli(argv, capsys)
    assert code == 0 and err == "", err
    code, js, err = run_cli([*argv, "--format", "json"], capsys)
    assert code == 0, err
    return out, json.loads(js)


def table_rows(out: str, title: str, names: List[str]) -> List[List[str]]:
    """The rows of the table under ``title``: [name, score, rank, score, rank, ...] each."""
    lines = out.split("\n")
    start = next(k for k, line in enumerate(lines) if line.startswith(title))
    rule = next(k for k in range(start, len(lines)) if lines[k].startswith("───"))
    rows = []
    for line in lines[rule + 1:]:
        if not line.strip():
            break
        rows.append(line.split())
    assert sorted(r[0] for r in rows) == sorted(names)
    return rows


def ranks(values: List[float]) -> List[float]:
    """1 = best; tied values share the mean of their places."""
    return [sum(1 for w in values if w > v) + (sum(1 for w in values if w == v) + 1) / 2 for v in values]


def rank_text(r: float) -> str:
    return str(int(r)) if r == int(r) else f"{r:.1f}"


def check_tables(out: str, data: Dict, columns=(MICRO, OTHER)) -> None:
    """Every score, rank, mark and the rows' order on the screen, from the JSON."""
    systems = data["systems"]
    names = [s["name"] for s in systems]
    reference = ranks([MICRO[0][1](s) for s in systems])
    titles = ("F1 in % and rank (#) of each system under each model: micro averages",
              "F1 in % and rank (#): macro averages and the fair model's weighted F1")
    for title, cols in zip(titles, columns):
        rows = table_rows(out, title, names)
        assert [r[0] for r in rows] == [names[k] for k in sorted(range(len(names)), key=lambda k: reference[k])]
        for head, _ in cols:
            assert all(w in out for w in head.split())
        for j, (_, get) in enumerate(cols):
            rk = ranks([get(s) for s in systems])
            for row in rows:
                k = names.index(row[0])
                assert row[1 + 2 * j] == f"{100 * get(systems[k]):.2f}"
                assert row[2 + 2 * j] == rank_text(rk[k]) + ("*" if rk[k] != reference[k] else "")


def disagreeing(data: Dict) -> List[tuple]:
    systems = data["systems"]
    out = []
    for a, b in combinations(systems, 2):
        signs = {math.copysign(1, get(a) - get(b)) for _, get in MICRO + OTHER if get(a) != get(b)}
        if len(signs) == 2:
            out.append((a["name"], b["name"]))
    return out


@pytest.mark.parametrize("width", [80, 120])
def test_the_demo_fits_one_screen_and_shows_what_the_json_holds(capsys, monkeypatch, width):
    out, data = screen(capsys, monkeypatch, ["demo"], width)
    lines = out.rstrip("\n").split("\n")
    assert len(lines) <= 50, len(lines)
    assert max(len(line) for line in lines) <= width
    assert lines[0] == "Summary"                       # .ci/run looks for it
    assert str(DEMO) not in out                        # the path as it is installed takes no line
    first = data["systems"][0]["source"]               # the one ill-formed span, with its line
    assert f"(first ill-formed: {DEMO.name}:{first['first_repair_line']})" in " ".join(out.split())
    check_tables(out, data)
    pairs = disagreeing(data)
    assert len(pairs) == 1                             # crf_poor and mft swap places 3 and 4 under macro
    flat = " ".join(out.split())
    assert "The columns order 1 of the 6 pairs of systems differently: " in flat
    a, b = pairs[0]
    assert re.search(rf"{a} is above {b} under TS micro F1, exact micro F1 and fair F1, below it under TS macro F1, "
                     rf"exact macro F1 and weighted F1\.", flat)
    assert "How to read: higher is better;" in flat and "# is the rank (1 = best), * where it differs" in flat
    assert "Legend" not in out and "µ" not in out      # headers in words, no legend
    for command in ("ts-eval demo --per-label", "ts-eval demo --format html -o demo.html",
                    'ts-eval rank "$DEMO" --gold-col 2'):
        assert command in out


def test_the_commands_the_demo_names_are_commands(capsys, monkeypatch):
    out, _ = screen(capsys, monkeypatch, ["demo"], 80)
    more = out.split("\nMore\n", 1)[1]
    commands = [line.strip() for line in more.split("\n") if line.startswith("  ts-eval ")]
    assert len(commands) == 3
    for command in commands:
        argv = shlex.split(command.replace('"$DEMO"', shlex.quote(DEMO_FILE)))[1:]
        args = app.parse(argv)
        assert args.command in ("demo", "rank")
    code, path, _ = run_cli(["demo", "--sample-path"], capsys)     # DEMO=$(ts-eval demo --sample-path)
    assert code == 0 and path == DEMO_FILE + "\n" and os.path.isfile(path.strip())


@pytest.mark.parametrize("width", [80, 120])
def test_every_score_and_the_per_label_tables_are_one_option_away(capsys, monkeypatch, width):
    """--per-label is the page the demo showed before: every score, the legend, per-label tables."""
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run_cli(["demo", "--per-label"], capsys)
    assert code == 0, err
    from pages import demo_corpus

    import ts_eval

    page = build(ts_eval.score(demo_corpus(), models=["ts", "exact", "fair"]))
    whole = render(page, "table", width=width, spell=lambda hint: f"--{hint.option.replace('_', '-')}")
    assert out.replace(str(DEMO), "PATH") == whole.replace(str(DEMO), "PATH")
    assert "gen-mft_dev: per label (scores in %)" in out and "Legend" in out
    for option in ("--no-labels", "--details"):       # the full page, as before, without the per-label tables
        code, out, err = run_cli(["demo", option], capsys)
        assert code == 0 and "TS µF" in out and "F1 in % and rank" not in out


@pytest.mark.parametrize("width", [80, 120])
def test_score_of_several_systems_starts_with_the_same_overview(tmp_path, capsys, monkeypatch, width):
    """Two-file mode, paths deeper than the width: the note writes them below the folder they share."""
    deep = tmp_path / ("a-folder-whose-name-is-long-" * 3)
    deep.mkdir()
    gold = write(deep / "gold.conll", "a B-PER\nb I-PER\nc O\nd B-LOC\n\ne B-ORG\nf O\n")
    systems = [write(deep / "one.conll", "a B-PER\nb I-PER\nc O\nd B-LOC\n\ne B-ORG\nf O\n"),
               write(deep / "two.conll", "a I-PER\nb I-PER\nc B-PER\nd O\n\ne B-ORG\nf B-ORG\n"),
               write(deep / "three.conll", "a B-PER\nb O\nc O\nd B-LOC\n\ne O\nf O\n")]
    out, data = screen(capsys, monkeypatch, ["score", "--gold", gold, *systems], width)
    lines = out.rstrip("\n").split("\n")
    assert max(len(line) for line in lines) <= width and len(lines) <= 50
    assert str(deep) not in out and "(first ill-formed: two.conll:1)" in " ".join(out.split())
    check_tables(out, data)
    assert "this command with --per-label" in out and "Legend" not in out
    code, full, _ = run_cli(["score", "--gold", gold, *systems, "--per-label"], capsys)
    assert code == 0 and f"(first ill-formed: {systems[1]}:1)" in " ".join(full.split()) and "one: per label" in full


def test_one_system_keeps_every_score_and_its_per_label_table(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run_cli(["score", str(DEMO), "--gold-col", "2", "--system-col", "5"], capsys)
    assert code == 0, err
    assert "per label (scores in %)" in out and "F1 in % and rank" not in out


def test_ties_share_a_rank_and_an_undefined_score_has_none():
    from ts_eval.output.builders.score_overview import disagreements
    from ts_eval.output.builders.score_overview import ranks as overview_ranks

    assert overview_ranks([0.5, 0.7, 0.5, float("nan"), 0.1]) == [2.5, 1.0, 2.5, None, 4.0]
    names = ["a", "b", "c"]
    assert disagreements(names, [("X", [0.3, 0.2, 0.1]), ("Y", [0.3, 0.2, 0.1])], [0, 1, 2]) == \
        "The 2 columns rank the 3 systems alike."
    assert disagreements(names, [("X", [0.3, 0.2, 0.1]), ("Y", [0.1, 0.2, 0.3])], [0, 1, 2]) == (
        "The columns order 3 of the 3 pairs of systems differently: a is above b under X, below it under Y; "
        "a is above c under X, below it under Y; b is above c under X, below it under Y.")


def test_a_score_and_its_rank_stay_in_one_block():
    # key 10 wide, then (score 5, rank 2) x 3; at 33 columns the key and one pair take 23, a second pair 13 more
    widths, groups = [10, 5, 2, 5, 2, 5, 2], [None, "a", "a", "b", "b", "c", "c"]
    assert blocks_of(widths, 1, 33, groups) == [[0, 1, 2], [0, 3, 4], [0, 5, 6]]
    assert blocks_of(widths, 1, 33) == [[0, 1, 2, 3], [0, 4, 5, 6]]          # without groups: column by column
    assert blocks_of(widths, 1, 36, groups) == [[0, 1, 2, 3, 4], [0, 5, 6]]
    assert blocks_of([10, 30, 2], 1, 30, [None, "a", "a"]) == [[0, 1], [0, 2]]   # a group wider than a block


@pytest.mark.parametrize("width", [40, 80, 120])
def test_the_overview_is_written_as_rich_writes_it(width):
    from pages import demo_corpus

    import ts_eval

    page = build(ts_eval.score(demo_corpus(), models=["ts", "exact", "overlap", "fair", "semeval"]), overview=True,
                 more=[("More", ["ts-eval demo --per-label"])])
    plain = render(page, "table", width=width)
    from ts_eval.output.renderers.text import render as text_render

    assert plain == text_render(page, width=width, plain=False)
    assert max(len(line) for line in plain.split("\n")) <= width
