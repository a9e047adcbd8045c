"""The HTML pages of several references (score, compare and analyze with --gold NAME=PATH three times) in
headless Chromium at 1280 and 390 px: no console errors, the reference sections present, nothing outside the
page (the other tests are in test_several_references.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import browser
import pytest
from support import run_cli

sys.path.insert(0, str(Path(__file__).parent))
from test_several_references import FEW, SYSTEM, A, B, C, write

NEEDLES = {"score": ["table-by-reference", "a-summary"], "compare": ["table-pair-by-reference", "c-systems"],
           "analyze": ["table-step1-changes", "table-step2-systems", "table-step1-suspects"]}


@pytest.mark.skipif(bool(browser.missing()), reason=browser.missing() or "browser present")
def test_the_html_pages_in_chromium(tmp_path, capsys):
    p = {k: write(tmp_path / f"{k}.conll", v) for k, v in (("a", A), ("b", B), ("c", C), ("sys", SYSTEM),
                                                            ("few", FEW))}
    golds = [x for r in "abc" for x in ("--gold", f"{r}={p[r]}")]
    pages = {}
    for command in NEEDLES:
        extra = ["--min-agree", "1", "--bootstrap", "20", "--permutations", "20"] if command == "analyze" else []
        pages[command] = tmp_path / f"{command}.html"
        code, _, err = run_cli([command, *golds, p["sys"], p["few"], *extra, "--format", "html", "-o",
                                str(pages[command])], capsys)
        assert code == 0, err
    drv = browser.driver()
    try:
        for command, path in pages.items():
            for width in (1280, 390):
                browser.set_width(drv, width)
                browser.load(drv, path)
                assert drv.execute_script("return document.readyState") == "complete"
                assert [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
                for needle in NEEDLES[command]:
                    assert drv.execute_script(f"return document.getElementById('{needle}') !== null"), needle
                assert browser.layout_problems(drv, width) == [], (command, width)
                browser.full_page_png(drv, str(tmp_path / f"{command}-{width}.png"), height=2400)
    finally:
        drv.quit()
