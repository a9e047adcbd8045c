"""``ts-eval demo``: ``score`` (:mod:`.score`, which runs it) on the bundled GermEval 2014 sample (four
systems): its parser, the sample, and the commands its one screen names to show more."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .errors import Subparsers

DEMO_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "demo",
                         "germeval2014_test_sample.conll")
DEMO_INTRO = ("ts_eval scores labelled spans under several models of what counts as right. Here: four NER "
              "systems on 300 sentences of the GermEval 2014 test set.")
DEMO_SYSTEMS = ["gen-ap_rich_dev", "gen-crf_poor_dev", "gen-crf_rich_dev", "gen-mft_dev"]
#: what the overview does not show, and the commands that show it
MORE = [("Every score (P, R, kappa, macro) and each system's per-label tables", ["ts-eval demo --per-label"]),
        ("All of it as one HTML page (sortable tables, error types, confusion heatmaps)",
         ["ts-eval demo --format html -o demo.html"]),
        ("Ranks with 95% intervals and significance groups under every model",
         ["DEMO=$(ts-eval demo --sample-path)",
          'ts-eval rank "$DEMO" --gold-col 2 --names ap_rich crf_poor crf_rich mft'])]


def register(sub: Subparsers) -> argparse.ArgumentParser:
    """Add ``demo`` to the ``ts-eval`` parser; returns its parser, to which :mod:`.score` adds the scoring
    options."""
    demo = sub.add_parser("demo", help="score the bundled GermEval 2014 sample (four systems)",
                          description="Score the bundled sample of the GermEval 2014 test set (300 sentences; tokens "
                                      "in column 1, gold in column 2, four systems in columns 3-6) under the TS, "
                                      "exact and fair models: each model's F1 and each system's rank, on one "
                                      "screen, and the commands that show more.")
    demo.add_argument("--sample-path", action="store_true",
                      help="print the path of the bundled sample and exit (to give it to other commands)")
    return demo


def as_score(args: argparse.Namespace) -> argparse.Namespace:
    """The demo as a ``score`` command: the bundled file, gold in column 2, four systems after it."""
    values = dict(file=DEMO_FILE, gold=None, system=None, gold_col=2, system_col=None, names=DEMO_SYSTEMS,
                  scheme="IOB2", policy="conlleval", token_col=1, map_label=[], delimiter=None, raw=False,
                  outside_tag="O", tags_only=False, labels=None, exclude=None)
    return argparse.Namespace(**{**vars(args), **values})
