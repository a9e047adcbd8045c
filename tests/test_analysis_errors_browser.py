"""The error analysis's HTML page in headless Chromium at 1280 and 390 px: both heatmaps drawn, the
suspects' example sentences present, no console errors and nothing outside the page (the other
tests of the error analysis are in test_analysis_errors.py)."""
from __future__ import annotations

import browser
import pytest
from pages import demo_corpus

from ts_eval.analysis.errors import error_analysis
from ts_eval.output.builders import build
from ts_eval.output.renderers import html


@pytest.mark.skipif(bool(browser.missing()), reason=browser.missing() or "browser present")
def test_the_html_page_in_chromium(tmp_path):
    demo_analysis = error_analysis(demo_corpus(), top=5)
    path = tmp_path / "errors.html"
    path.write_text(html.render(build(demo_analysis)), encoding="utf-8")
    drv = browser.driver()
    try:
        for width in (1280, 390):
            browser.set_width(drv, width)
            browser.load(drv, path)
            assert drv.execute_script("return document.readyState") == "complete"
            assert [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
            charts = drv.execute_script("return Array.from(document.querySelectorAll('svg.chart-heatmap'))"
                                        ".map(s => s.getBoundingClientRect().width > 0)")
            assert len(charts) == 2 and all(charts)        # exact and overlap, summed over the systems
            records = drv.execute_script("return document.querySelectorAll('#table-errors-suspects .record').length")
            assert records == 5
            assert browser.layout_problems(drv, width) == []
    finally:
        drv.quit()
