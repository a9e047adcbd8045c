"""Every Python example in the documentation runs (issue 17.10).

The ```python (or ```pycon) blocks of each file in :data:`EXAMPLE_FILES` run in order in one
namespace and one fresh working directory, like a doctest session: a later block may use what an
earlier one defined or wrote.  A block with ``>>>`` prompts is a doctest (its shown output is
checked, ``...`` matches anything); any other block is executed, and its ``assert`` lines check
what it claims.  A failure names the file and the line.  Examples read the bundled sample
(``ts_eval/demo``) or files they write themselves, never anything outside the package.
"""
from __future__ import annotations

import doctest
import re
import textwrap
from pathlib import Path
from typing import List, Tuple

import pytest
from support import expect_warnings

ROOT = Path(__file__).parent.parent
EXAMPLE_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: the warnings a file's examples show on purpose (seqeval's drop-in warns where seqeval does: y_pred finds no
#: ORG); any other warning fails the file's test
WARNS = {"README.md": ["Precision and F-score are ill-defined .* no predicted samples"],
         "python-api.md": ["Precision and F-score are ill-defined .* no predicted samples"]}
FENCE = re.compile(r"^```(python|pycon)\s*$")


def python_blocks(path: Path) -> List[Tuple[int, str]]:
    """(line of the block's first code line, its code) for every Python block of ``path``."""
    out, block, start = [], None, 0
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if block is None:
            if FENCE.match(line.strip()):
                block, start = [], n + 1
        elif line.strip() == "```":
            out.append((start, textwrap.dedent("\n".join(block))))
            block = None
        else:
            block.append(line)
    assert block is None, f"{path.name}:{start - 1}: a Python block is not closed"
    return out


def is_session(code: str) -> bool:
    return any(line.startswith(">>> ") or line == ">>>" for line in code.split("\n"))


class Checker(doctest.OutputChecker):
    """Whitespace-normalised output with ``...`` for any text; a line of just ``...`` stands for any
    lines, blank ones too (a doctest cannot show a blank line without ``<BLANKLINE>``)."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        want = re.sub(r"\s*^\.\.\.$\s*", "...", want, flags=re.M)
        return super().check_output(want, got, optionflags)


def run_block(path: Path, line: int, code: str, namespace: dict) -> None:
    """One block in ``namespace``; tracebacks and doctest reports point at the file's lines."""
    if not is_session(code):
        exec(compile("\n" * (line - 1) + code, str(path), "exec"), namespace)
        return
    test = doctest.DocTestParser().get_doctest(code, namespace, f"{path.name}:{line}", str(path), line - 1)
    report: List[str] = []
    runner = doctest.DocTestRunner(Checker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, out=report.append, clear_globs=False)
    namespace.update(test.globs)          # a DocTest runs in a copy of the namespace it is given
    if result.failed:
        pytest.fail("".join(report), pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_python_example_runs(path, tmp_path, monkeypatch):
    blocks = python_blocks(path)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__main__"}
    from sklearn.exceptions import UndefinedMetricWarning

    with expect_warnings(*[(UndefinedMetricWarning, pattern) for pattern in WARNS.get(path.name, [])]):
        for line, code in blocks:
            run_block(path, line, code, namespace)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_examples_read_nothing_outside_the_package(path):
    for line, code in python_blocks(path):
        assert "../" not in code and "/work/" not in code, f"{path.name}:{line}: reads outside the package"


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_tables_are_not_broken_by_blank_lines(path):
    """A blank line ends a Markdown table: rows after it would show as a paragraph of pipes."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for n, line in enumerate(lines):
        if line.strip() or not n or not lines[n - 1].startswith("|"):
            continue
        nxt = next((k for k in range(n + 1, len(lines)) if lines[k].strip()), None)
        if nxt is not None and lines[nxt].startswith("|"):
            new_table = nxt + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|\s*$", lines[nxt + 1])
            assert new_table, f"{path.name}:{n + 1}: a blank line inside a table"


def test_the_runner_checks_shown_values_and_names_the_line(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("text\n\n```python\nx = 2\n```\n\n```python\n>>> x + 1\n4\n```\n")
    blocks = python_blocks(doc)
    assert blocks == [(4, "x = 2"), (8, ">>> x + 1\n4")]
    namespace: dict = {}
    run_block(doc, *blocks[0], namespace)
    with pytest.raises(pytest.fail.Exception, match=r"line 8.*\n(.|\n)*Expected:\s+4\s+Got:\s+3"):
        run_block(doc, *blocks[1], namespace)
    with pytest.raises(ZeroDivisionError) as info:
        run_block(doc, 5, "\n1 / 0", namespace)
    assert info.traceback[-1].lineno + 1 == 6 and str(info.traceback[-1].path) == str(doc)
