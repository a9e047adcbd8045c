"""The manual (README.md, docs/*.md, mkdocs.yml) stays true and whole.

- every page of ``docs/`` is in the site's navigation, and the site builds with ``mkdocs build
  --strict`` (broken links and anchors fail it) when mkdocs and its theme are installed (the
  ``docs`` extra; skipped otherwise);
- no link or path points outside the repository, and every relative link names a file that exists;
- every ``--option`` written after ``ts-eval COMMAND`` (in a command block or an inline code span),
  and every option in the table of ``score``'s options, is an option of that command's parser; and
  every long option of every command is named somewhere in the manual;
- the README's tour (its ``sh`` blocks) runs as written, in a fresh folder, exit status 0.

The Python examples are run by ``test_doc_examples.py``.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

from ts_eval.cli import main

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
COMMANDS = ("score", "demo", "fair", "rank", "compare", "germeval", "convert", "agree", "codabench")
#: commands that take another command's options after ``--`` (``ts-eval codabench ... -- --scheme IOB1``)
AFTER_DASHES = {"codabench": "score"}
FENCE = re.compile(r"^```(\w*)\s*$")
LONG_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
COMMAND_LINE = re.compile(r"\bts-eval ((?:[a-z]+\|)*[a-z]+)\b(.*)")


def nav_pages() -> List[str]:
    """The ``.md`` files named in mkdocs.yml's ``nav`` (``  - Title: page.md`` lines)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:\n", 1)[1]
    return re.findall(r"^\s+- [^:\n]+:\s*(\S+\.md)\s*$", nav.split("\n\n", 1)[0], flags=re.M)


def test_every_docs_page_is_in_the_navigation():
    pages = nav_pages()
    assert len(pages) == len(set(pages)), pages
    assert sorted(pages) == sorted(p.name for p in DOCS.glob("*.md"))


def test_the_site_builds_strictly(tmp_path):
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip('mkdocs and mkdocs-material are not installed (pip install ".[docs]")')
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                          "-d", str(tmp_path / "site")], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    built = {p.parent.name or "index" for p in (tmp_path / "site").rglob("index.html")}
    assert {p.stem for p in DOCS.glob("*.md")} <= built | {"index"}


def links(path: Path) -> Iterator[Tuple[int, str]]:
    """(line, target) of every Markdown link and image of ``path``, outside code."""
    fenced = False
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
                yield n, target


@pytest.mark.parametrize("path", [*PAGES, ROOT / "scripts" / "README.md"], ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_inside_the_repository_and_exist(path):
    text = path.read_text(encoding="utf-8")
    for outside in ("../shared", "/work/", "shared/data/"):
        assert outside not in text, f"{path.name}: names {outside!r}, outside the repository"
    for n, target in links(path):
        assert not re.match(r"^[a-z]+://", target), f"{path.name}:{n}: {target} leaves the repository"
        file = target.split("#", 1)[0]
        if file:
            resolved = (path.parent / file).resolve()
            assert resolved.is_relative_to(ROOT.resolve()), f"{path.name}:{n}: {target} is outside the repository"
            assert resolved.exists(), f"{path.name}:{n}: {target} does not exist"


_OPTIONS: Dict[str, Set[str]] = {}


def options_of(command: str) -> Set[str]:
    """The long options ``ts-eval COMMAND --help`` lists."""
    if command not in _OPTIONS:
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main([command, "--help"]) == 0
        _OPTIONS[command] = set(LONG_OPTION.findall(out.getvalue()))
    return _OPTIONS[command]


def command_uses(path: Path) -> Iterator[Tuple[int, str, Set[str]]]:
    """(line, command, options) for every ``ts-eval COMMAND ...`` in a non-Python block or an
    inline code span of ``path``; comments after ``#`` in blocks are left out."""
    lang = None
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        fence = FENCE.match(line.strip())
        if fence:
            lang = None if lang is not None else fence.group(1)
            continue
        if lang is not None:
            texts = [] if lang in ("python", "pycon") else [re.sub(r"\s#\s.*$", "", line)]
        else:
            texts = re.findall(r"`([^`]*ts-eval [^`]*)`", line)
        for text in texts:
            for m in COMMAND_LINE.finditer(text):
                for command in m.group(1).split("|"):
                    if command in COMMANDS:
                        own, dashes, other = f"{m.group(2)} ".partition(" -- ")
                        yield n, command, set(LONG_OPTION.findall(own))
                        if dashes and command in AFTER_DASHES:
                            yield n, AFTER_DASHES[command], set(LONG_OPTION.findall(other))


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_option_written_after_a_command_is_one_of_its_options(path):
    wrong = [f"{path.name}:{n}: ts-eval {command} has no {option}"
             for n, command, options in command_uses(path) for option in sorted(options - options_of(command))]
    assert not wrong, "\n".join(wrong)


def test_the_options_table_of_score_names_options_of_score():
    text = (DOCS / "command-line.md").read_text(encoding="utf-8")
    table = text.split("## Options of `score`", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in table.split("\n") if line.startswith("| `-")]
    named = {option for row in rows for option in LONG_OPTION.findall(row)}
    assert len(rows) > 20 and named <= options_of("score"), sorted(named - options_of("score"))


def test_every_option_of_every_command_is_documented():
    manual = "\n".join(p.read_text(encoding="utf-8") for p in PAGES)
    named = set(LONG_OPTION.findall(manual))
    missing = {command: sorted(options_of(command) - named - {"--help"}) for command in COMMANDS}
    assert not any(missing.values()), {c: m for c, m in missing.items() if m}


def test_the_option_checks_catch_a_wrong_option(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Run `ts-eval rank FILE --bootstrap 9 --no-such-option`.\n\n"
                    "```\nts-eval score|compare FILE --details --plot x.png   # --comment-only\n"
                    "ts-eval codabench --gold G --columns C -- --scheme IOB1 --plot x\n```\n")
    uses = list(command_uses(page))
    assert uses == [(1, "rank", {"--bootstrap", "--no-such-option"}), (4, "score", {"--details", "--plot"}),
                    (4, "compare", {"--details", "--plot"}), (5, "codabench", {"--gold", "--columns"}),
                    (5, "score", {"--scheme", "--plot"})]
    assert "--no-such-option" not in options_of("rank") and "--plot" not in options_of("score")


def tour() -> str:
    """The README's ``sh`` blocks, in order, as one script."""
    blocks, block = [], None
    for line in (ROOT / "README.md").read_text(encoding="utf-8").split("\n"):
        if block is None:
            if line.strip() == "```sh":
                block = []
        elif line.strip() == "```":
            blocks.append("\n".join(block))
            block = None
        else:
            block.append(line)
    return "\n".join(blocks)


@pytest.mark.slow
def test_the_readme_tour_runs(tmp_path):
    script = tour()
    assert script.count("ts-eval ") >= 6
    bins = [str(Path(sys.executable).parent), sysconfig.get_path("scripts")]
    env = {**os.environ, "PATH": os.pathsep.join([*bins, os.environ.get("PATH", "")])}
    if shutil.which("ts-eval", path=env["PATH"]) is None:
        pytest.skip("the ts-eval command is not installed beside this interpreter")
    run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert (tmp_path / "rank.html").stat().st_size > 10_000
    assert "processed 5660 tokens with 332 phrases" in run.stdout
