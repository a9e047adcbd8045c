"""The results site of ``rank --site`` (issue 35.4) in headless Chromium, opened from disk (file://): the index
and a system's page at 1280 and 390 px keep the layout rules (no sideways scrolling of the page, every table
fits or scrolls with its first column in view, every mark of the interval charts in view), log no error, and
their links lead from the leaderboard to the system's page and back."""
from __future__ import annotations

import browser
import pytest
from test_rank_site import FAST, split_demo

from ts_eval.cli import main


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browse")
    gold, systems = split_demo(folder)
    assert main(["rank", "--gold", gold, *systems, "--anonymise", str(folder / "names.tsv"), "--site",
                 str(folder / "site"), "-o", str(folder / "rank.txt"), *FAST]) == 0
    return folder / "site"


@pytest.mark.skipif(bool(browser.missing()), reason=browser.missing() or "browser present")
def test_the_site_in_chromium(site):
    drv = browser.driver()
    try:
        for width in (1280, 390):
            browser.set_width(drv, width)
            for page in ("index.html", "system-team-01.html"):
                browser.load(drv, site / page)
                assert drv.execute_script("return document.readyState") == "complete"
                assert [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
                assert browser.layout_problems(drv, width) == [], (page, width)
            browser.load(drv, site / "index.html")
            first = drv.execute_script("const a = document.querySelector('table a[href^=\"system-\"]'); a.click(); "
                                       "return a.getAttribute('href')")
            assert drv.current_url.endswith("/" + first)
            drv.execute_script("document.querySelector('a[href=\"index.html\"]').click()")
            assert drv.current_url.endswith("/index.html")
    finally:
        drv.quit()
