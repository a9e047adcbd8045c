"""``rank --anonymise`` and ``rank --site`` (issue 35.4): every output names the systems by their public names
only, in every format and in the site's every file; the site is one folder of pages linked both ways by
relative links that resolve; the folder is never overwritten; a system's page holds the ranking's numbers of
that system, its comparison with the best system and its errors.  The pages in Chromium:
test_rank_site_browser.py."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from pages import DEMO
from support import fails, run_cli

from ts_eval.io.public_names import read_public_names

#: real names no page may show (each a word that occurs nowhere else)
SECRETS = ["zqalpha-lab", "zqbravo-lab", "zqcharlie-lab", "zqdelta-lab"]
FAST = ["--bootstrap", "40", "--permutations", "40", "--no-progress"]


def split_demo(folder: Path) -> Tuple[str, List[str]]:
    """The demo sample (TOKEN GOLD S1..S4) as a gold file and four system files named by :data:`SECRETS`."""
    rows = [line.split() for line in DEMO.read_text(encoding="utf-8").splitlines()]
    gold = folder / "gold.iob2"
    gold.write_text("".join(f"{r[0]} {r[1]}\n" if r else "\n" for r in rows), encoding="utf-8")
    systems = []
    for k, name in enumerate(SECRETS):
        path = folder / "subs" / f"{name}.conll"
        path.parent.mkdir(exist_ok=True)
        path.write_text("".join(f"{r[0]} {r[1]} {r[2 + k]}\n" if r else "\n" for r in rows), encoding="utf-8")
        systems.append(str(path))
    return str(gold), systems


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Tuple[str, List[str], Path]:
    folder = tmp_path_factory.mktemp("site")
    gold, systems = split_demo(folder)
    return gold, systems, folder


def no_secret(text: str) -> List[str]:
    return [s for s in SECRETS if s in text]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown", "latex", "html"])
def test_every_format_shows_only_public_names(data, capsys, fmt, tmp_path) -> None:
    gold, systems, _ = data
    mapping = tmp_path / "names.tsv"
    code, out, err = run_cli(["rank", "--gold", gold, *systems, "--anonymise", str(mapping), "--format", fmt,
                              "--details", *FAST], capsys)
    assert code == 0, err
    public = read_public_names(str(mapping))
    assert sorted(public) == sorted(SECRETS)
    assert no_secret(out) == [] and no_secret(err) == []
    assert all(p in out for p in public.values())
    if fmt == "json":
        assert "anonymised" in json.loads(out)["settings"]
    if fmt == "html":
        assert "anonymised" in out and "The command that made this page" not in out


@pytest.mark.slow
def test_the_mapping_is_kept_across_runs_and_a_new_system_is_appended(data, capsys, tmp_path) -> None:
    gold, systems, _ = data
    mapping = tmp_path / "names.tsv"
    code, out, err = run_cli(["rank", "--gold", gold, *systems[:3], "--anonymise", str(mapping), "--format", "json",
                              *FAST], capsys)
    assert code == 0 and "3 public name(s) added" in err
    first, before = read_public_names(str(mapping)), mapping.read_bytes()
    code, again, err = run_cli(["rank", "--gold", gold, *systems[:3], "--anonymise", str(mapping), "--format",
                                "json", *FAST], capsys)
    assert code == 0 and mapping.read_bytes() == before and err == ""
    assert json.loads(again)["systems"] == json.loads(out)["systems"]
    fails(capsys, ["rank", "--gold", gold, *systems, "--anonymise", str(mapping), *FAST], 2,
          "1 system(s) without a public name: zqdelta-lab", "--anonymise-add")
    assert mapping.read_bytes() == before
    code, out, err = run_cli(["rank", "--gold", gold, *systems, "--anonymise", str(mapping), "--anonymise-add",
                              "--format", "json", *FAST], capsys)
    assert code == 0 and "1 public name(s) added" in err
    now = read_public_names(str(mapping))
    assert {k: now[k] for k in first} == first and now["zqdelta-lab"] == "team-04"
    assert mapping.read_bytes().startswith(before)


class Links(HTMLParser):
    """Every href and every id of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: List[str] = []
        self.ids: List[str] = []
        self.sources: List[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        if a.get("href") is not None:
            self.hrefs.append(a["href"])
        if a.get("id") is not None:
            self.ids.append(a["id"])
        if a.get("src") is not None:
            self.sources.append(a["src"])


def parsed(folder: Path) -> Dict[str, Links]:
    out = {}
    for page in sorted(folder.iterdir()):
        links = Links()
        links.feed(page.read_text(encoding="utf-8"))
        out[page.name] = links
    return out


@pytest.fixture(scope="module")
def site(data, tmp_path_factory) -> Tuple[Path, Dict[str, str], str]:
    from support import run_cli as run

    gold, systems, _ = data
    where = tmp_path_factory.mktemp("made")
    folder, mapping = where / "site", where / "names.tsv"

    class Capture:       # (a module fixture cannot take capsys: the command's output is not needed here)
        @staticmethod
        def readouterr():
            return "", ""

    code, _, _ = run(["rank", "--gold", gold, *systems, "--anonymise", str(mapping), "--site", str(folder),
                      "-o", str(where / "rank.json"), "--format", "json", *FAST], Capture())
    assert code == 0
    return folder, read_public_names(str(mapping)), (where / "rank.json").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_site_is_an_index_and_a_page_per_system_and_no_file_holds_a_real_name(site) -> None:
    folder, public, _ = site
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(["index.html"] + [f"system-{p}.html" for p in public.values()])
    for page in folder.iterdir():
        text = page.read_text(encoding="utf-8")
        assert no_secret(text) == [], page.name
        assert "subs/" not in text and str(folder.parent) not in text, page.name    # no folder of the organiser's
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert "anonymised" in index and "The command that made this page" not in index


@pytest.mark.slow
def test_every_link_resolves_is_relative_and_the_pages_are_linked_both_ways(site) -> None:
    folder, public, _ = site
    pages = parsed(folder)
    for name, links in pages.items():
        assert links.sources == [], name                       # nothing loaded from anywhere
        for href in links.hrefs:
            assert not re.match(r"^([a-z]+:|/)", href), (name, href)   # no scheme, no absolute path
            file, _, anchor = href.partition("#")
            target = file or name
            assert target in pages, (name, href)
            assert not anchor or anchor in pages[target].ids, (name, href)
        text = (folder / name).read_text(encoding="utf-8")
        assert "fetch(" not in text and "XMLHttpRequest" not in text
    index = set(pages["index.html"].hrefs)
    for p in public.values():
        assert f"system-{p}.html" in index
        assert "index.html" in pages[f"system-{p}.html"].hrefs


@pytest.mark.slow
def test_a_system_page_holds_the_rankings_numbers_and_the_comparison_with_the_best(site) -> None:
    folder, _, ranking_json = site
    r = json.loads(ranking_json)
    ref = r["reference"]
    scores = {s["name"]: s["models"][ref]["score"] for s in r["systems"]}
    order = sorted(scores, key=lambda n: next(s["models"][ref]["rank"] for s in r["systems"] if s["name"] == n))
    best, second, last = order[0], order[1], order[-1]
    text = (folder / f"system-{last}.html").read_text(encoding="utf-8")
    assert f'data-sort="{scores[last]!r}"' in text                    # its score under the reference model
    assert f'data-sort="{scores[last] - scores[best]!r}"' in text      # the difference with the best system
    assert f"Against {best}" in text and f"compared with the best system ({best}" in text
    assert "Errors: span confusion" in text and "Errors: most frequent errors" in text
    top = (folder / f"system-{best}.html").read_text(encoding="utf-8")
    assert f"Against {second}" in top and "the best system, compared with the second" in top


@pytest.mark.slow
def test_the_site_folder_is_never_overwritten(data, capsys, tmp_path) -> None:
    gold, systems, _ = data
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine", encoding="utf-8")
    fails(capsys, ["rank", "--gold", gold, *systems, "--site", str(full), *FAST], 2, str(full), "is not empty")
    assert [p.name for p in full.iterdir()] == ["keep.txt"]
    a_file = tmp_path / "file.html"
    a_file.write_text("x", encoding="utf-8")
    fails(capsys, ["rank", "--gold", gold, *systems, "--site", str(a_file), *FAST], 2, "is not a folder")
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run_cli(["rank", "--gold", gold, *systems, "--site", str(empty), *FAST], capsys)
    assert code == 0 and "results site written" in err and (empty / "index.html").exists()
    assert sorted(p.name for p in empty.iterdir())[1:] == sorted(f"system-{s}.html" for s in SECRETS)


@pytest.mark.slow
def test_site_and_anonymise_refuse_what_they_cannot_do(data, capsys, tmp_path) -> None:
    gold, systems, _ = data
    fails(capsys, ["rank", "--task", "a", gold, *systems[:2], "--task", "b", gold, *systems[2:], "--site",
                   str(tmp_path / "s"), *FAST], 2, "--site writes one task's results; 2 tasks were given")
    fails(capsys, ["rank", "--gold", f"a={gold}", "--gold", f"b={gold}", *systems, "--anonymise",
                   str(tmp_path / "n.tsv"), *FAST], 2, "--anonymise does not apply to several --gold references")
    assert not (tmp_path / "s").exists() and not (tmp_path / "n.tsv").exists()
    for alone in (["--anonymise-add"], ["--anonymise-seed", "0"]):   # (they ranked under the real names)
        fails(capsys, ["rank", "--gold", gold, *systems, "--site", str(tmp_path / "s"), *alone, *FAST], 2,
              f"{alone[0]} needs --anonymise MAPPING; without it every output names the systems by their real names")
        assert not (tmp_path / "s").exists()


@pytest.mark.slow
def test_one_file_of_several_columns_is_anonymised_by_its_column_names(capsys, tmp_path) -> None:
    mapping = tmp_path / "names.tsv"
    code, out, err = run_cli(["rank", str(DEMO), "--gold-col", "2", "--anonymise", str(mapping), "--format", "json",
                              *FAST], capsys)
    assert code == 0, err
    assert sorted(read_public_names(str(mapping))) == ["col3", "col4", "col5", "col6"]
    assert sorted(s["name"] for s in json.loads(out)["systems"]) == ["team-01", "team-02", "team-03", "team-04"]


def test_a_linked_cell_and_text_are_links_on_the_html_page_and_plain_text_elsewhere() -> None:
    from ts_eval.output.page import Cell, Column, Page, Section, Table, Text
    from ts_eval.output.renderers import render

    table = Table("t", "t", [Column("system", "system")], [[Cell('a"<b>', link="system-a_b.html")], [Cell("c")]])
    page = Page("rank", "p", [Section("s", [Text("back", link="index.html"), table])])
    html = render(page, "html")
    assert '<a href="system-a_b.html">a&#34;&lt;b&gt;</a>' in html and '<a href="index.html">back</a>' in html
    assert html.count("<a href=\"system-") == 1
    for fmt in ("table", "markdown", "csv", "latex"):
        assert "href" not in render(page, fmt) and "system-a_b" not in render(page, fmt)


def first_ill_formed(path: str) -> int:
    """The line of the first I-X of an IOB2 file whose previous tag is neither B-X nor I-X (worked out here)."""
    prev = "O"
    for k, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        tag = line.split()[-1] if line.strip() else "O"
        if tag.startswith("I-") and prev[2:] != tag[2:]:
            return k
        prev = tag
    raise AssertionError("no ill-formed sequence")


@pytest.mark.slow
def test_each_system_page_has_its_validation_report_naming_no_file(data, site) -> None:
    _, systems, _ = data
    folder, public, _ = site
    alpha = (folder / f"system-{public['zqalpha-lab']}.html").read_text(encoding="utf-8")
    section = alpha[alpha.index('id="validation-summary"'):alpha.index('id="scores"')]
    assert "1 with problems (1 problem)" in section and "ill_formed" in section
    assert f'data-sort="{float(first_ill_formed(systems[0]))!r}"' in section
    assert f"{public['zqalpha-lab']}&#39;s file" in section and "checked against gold.iob2" in section
    bravo = (folder / f"system-{public['zqbravo-lab']}.html").read_text(encoding="utf-8")
    assert "every one would score as it is" in bravo and "ill_formed" not in bravo


def test_a_page_file_is_a_plain_file_name_once_per_system() -> None:
    from ts_eval.output.builders.site import page_files

    files = page_files(["team-01", "a/b c", "a_b_c", "../x", "é"])
    assert files == {"team-01": "system-team-01.html", "a/b c": "system-a_b_c.html", "a_b_c": "system-a_b_c-2.html",
                     "../x": "system-.._x.html", "é": "system-_.html"}


@pytest.mark.slow
def test_the_paired_test_against_the_best_system_hand_checked() -> None:
    """A copy of the best system: no swap changes the difference (0), p = 1 under every model; the others' p-values
    are those of rank's test (pair_pvalues) of that pair alone: the swaps are drawn once for all the pairs, the same
whichever pairs are tested."""
    import dataclasses

    import numpy as np
    from pages import demo_corpus

    from ts_eval.analysis.errors import error_analysis
    from ts_eval.analysis.site import _statistics, results_site
    from ts_eval.comparison.comparison import compare
    from ts_eval.ranking.study import rank_corpus
    from ts_eval.ranking.uncertainty import pair_pvalues

    c = demo_corpus()
    r0 = rank_corpus(c, bootstrap=0, permutations=0)
    best = r0.systems[r0.order[r0.reference_index][0]]
    info = dataclasses.replace(c.system_info[best], name="copy")
    c = dataclasses.replace(c, systems={**c.systems, "copy": c.systems[best]},
                            system_info={**c.system_info, "copy": info})
    r = rank_corpus(c, bootstrap=20, permutations=30, seed=5)
    site = results_site(c, r, analyse=error_analysis, compare=compare)
    top = site.best
    assert top in (best, "copy")                        # the two tie; either comes first
    other = "copy" if top == best else best
    assert site.page(other).against == top and site.page(other).p_values.tolist() == [1.0] * len(r.models)
    names = list(r.systems)
    for s in site.systems:
        if s.name == top:
            continue
        one = pair_pvalues(_statistics(c, r), [(np.array([names.index(top)]), np.array([names.index(s.name)]))]
                           * len(r.models), 30, np.random.SeedSequence(5))
        assert s.p_values.tolist() == [p[0] for p in one]   # the same swaps whatever the other pairs
