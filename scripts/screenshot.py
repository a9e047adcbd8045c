#!/usr/bin/env python3
"""PNG screenshots of the HTML pages of every command, at desktop and phone widths, with the
layout rules checked on each.

The pages are made from the bundled data exactly as the browser tests make them
(``tests/pages.py``: the demo sample for score, rank, compare and agree, the fair and GermEval
fixtures), rendered by ``ts_eval.output.renderers.html`` and opened in headless Chromium through
selenium (``tests/browser.py``; Debian's ``chromium`` and ``chromium-driver``).  Each page is
written next to its screenshots, so what the picture shows can be opened by hand.  On each page
at each width the browser tests' layout rules are checked (``browser.layout_problems``: each id
once, no sideways scrolling of the page, every table fits or scrolls with its first column in
view, every mark of an interval chart in view) and what breaks them is printed; the exit code is
1 when anything does.

    python scripts/screenshot.py [--out screenshots] [--widths 1280,390] [--kinds rank,score]
                                 [--readme docs/rank.png] [--conll DIR]

``--readme PATH`` also saves the top of the rank page at desktop width as the README's picture
(cut at ``--readme-height`` pixels, to keep it small).  ``--conll DIR`` makes the rank page of the
16 CoNLL-2003 shared-task submissions too (``rank-conll``, shot and checked at every width; the
README picture is made from it).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

import browser  # noqa: E402  (tests/browser.py)
import pages  # noqa: E402  (tests/pages.py)

from ts_eval.output.renderers import html  # noqa: E402


def conll_rank(data: Path):
    """The rank document of the 16 CoNLL-2003 shared-task submissions (names without 'task2003-')."""
    from ts_eval.io import read_conll_pair

    files = sorted((data / "systems").glob("task2003-*.conll"))
    corpus = read_conll_pair(str(data / "gold.iob2"), [str(f) for f in files],
                             names=[f.stem.replace("task2003-", "") for f in files])
    return pages.rank(1000, corpus)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="screenshots", help="folder for the pages and PNGs (default screenshots/)")
    ap.add_argument("--widths", default="1280,390", help="CSS pixel widths, comma-separated (default 1280,390)")
    ap.add_argument("--kinds", default=",".join(pages.PAGES), help="page kinds (default all)")
    ap.add_argument("--readme", metavar="PNG", help="also save the top of the rank page here (e.g. docs/rank.png)")
    ap.add_argument("--readme-height", type=int, default=1500, help="pixels of the rank page kept for --readme")
    ap.add_argument("--conll", type=Path, metavar="DIR",
                    help="make the --readme page from the 16 CoNLL-2003 submissions in DIR/systems/task2003-*.conll "
                         "(gold DIR/gold.iob2; default models, 1000 resamples) instead of the demo sample")
    args = ap.parse_args()
    reason = browser.missing()
    if reason:
        print(f"screenshot.py: {reason}", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    widths = [int(w) for w in args.widths.split(",")]
    makers = {kind: pages.PAGES[kind][0] for kind in args.kinds.split(",")}
    if args.conll:
        makers["rank-conll"] = lambda: conll_rank(args.conll)
    broken = 0
    drv = browser.driver()
    try:
        for kind, make in makers.items():
            page = out / f"{kind}.html"
            page.write_text(html.render(make()), encoding="utf-8")
            for w in widths:
                browser.set_width(drv, w)
                browser.load(drv, page)
                png = out / f"{kind}-{w}.png"
                browser.full_page_png(drv, str(png))
                errors = [e["message"] for e in drv.get_log("browser") if e["level"] == "SEVERE"]
                problems = browser.layout_problems(drv, w)
                broken += len(errors) + len(problems)
                console = "  console errors: " + "; ".join(errors) if errors else ""
                print(f"{png}  ({png.stat().st_size // 1024} KB){console}"
                      f"  layout: {'; '.join(problems) or 'ok'}")
        if args.readme:
            page = out / ("rank-conll.html" if args.conll else "rank.html")
            if not page.exists():
                page.write_text(html.render(pages.rank()), encoding="utf-8")
            browser.set_width(drv, widths[0])
            browser.load(drv, page)
            browser.full_page_png(drv, args.readme, height=args.readme_height)
            print(f"{args.readme}  ({Path(args.readme).stat().st_size // 1024} KB)")
    finally:
        drv.quit()
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
