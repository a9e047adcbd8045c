"""validate's HTML page in headless Chromium at 1280 and 390 px: the submissions, the kinds and every problem
listed, no console errors and nothing outside the page (the other tests of validate: test_validate.py)."""
from __future__ import annotations

from pathlib import Path

import browser
import pytest

import ts_eval
from ts_eval.output.builders import build
from ts_eval.output.renderers import html

HERE = Path(__file__).parent / "fixtures" / "validate"


@pytest.mark.skipif(bool(browser.missing()), reason=browser.missing() or "browser present")
def test_the_html_page_in_chromium(tmp_path):
    v = ts_eval.validate(str(HERE / "gold.conll"), [str(HERE / n) for n in ("clean.conll", "broken.conll",
                                                                            "iob1.conll")])
    path = tmp_path / "validate.html"
    path.write_text(html.render(build(v)), encoding="utf-8")
    drv = browser.driver()
    try:
        for width in (1280, 390):
            browser.set_width(drv, width)
            browser.load(drv, path)
            assert drv.execute_script("return document.readyState") == "complete"
            assert [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
            rows = drv.execute_script("return ['submissions', 'kinds', 'problems-2', 'problems-3'].map("
                                      "id => document.querySelectorAll('#table-' + id + ' tbody tr').length)")
            assert rows == [3, 7, 7, 5]      # 7 kinds: broken.conll has each once, iob1.conll ill_formed too
            assert browser.layout_problems(drv, width) == []
            browser.full_page_png(drv, str(tmp_path / f"validate-{width}.png"))
    finally:
        drv.quit()
