"""Results of all six kinds from the bundled data, as documents, for the HTML tests and
scripts/screenshot.py: the demo sample (300 GermEval 2014 sentences, four systems) for score,
rank, compare and agree, the Ortmann (2022) NER fixture for fair, the GermEval fixture for germeval.
Few resamples keep them fast."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, Optional, Tuple

import ts_eval
from ts_eval.output.page import Page

DEMO = Path(ts_eval.__file__).parent / "demo" / "germeval2014_test_sample.conll"
DEMO_SYSTEMS = ["gen-ap_rich_dev", "gen-crf_poor_dev", "gen-crf_rich_dev", "gen-mft_dev"]
FIXTURES = Path(__file__).parent / "fixtures"


def demo_corpus():
    from ts_eval.io import read_conll

    return read_conll(str(DEMO), gold_column=2, system_columns=[3, 4, 5, 6], names=DEMO_SYSTEMS)


def score() -> Page:
    from ts_eval.models.evaluate import evaluate
    from ts_eval.output.builders import score as build

    return build.build(evaluate(demo_corpus(), models=["ts", "exact", "fair"]))


def rank(resamples: int = 50, corpus=None, models=None) -> Page:
    from ts_eval.models.evaluate import evaluate
    from ts_eval.output.builders import rank as build
    from ts_eval.ranking.study import rank_corpus

    corpus = corpus or demo_corpus()
    result = rank_corpus(corpus, models=models, bootstrap=resamples, permutations=resamples, seed=0)
    return build.build(result, report=evaluate(corpus, models=["ts", "exact", "fair"]))


def sixteen_systems():
    """The demo corpus with 16 systems, as many as the CoNLL-2003 shared task's: each demo system, and it
    without every 2nd, 3rd or 5th of its spans (for the layout of a long leaderboard)."""
    import dataclasses

    import numpy as np

    c = demo_corpus()
    systems, info = {}, {}
    for name, spans in c.systems.items():
        for k in (1, 2, 3, 5):
            new = name if k == 1 else f"{name}-less{k}"
            keep = np.flatnonzero(np.arange(len(spans)) % k != 0) if k > 1 else np.arange(len(spans))
            systems[new] = spans.take(keep)
            info[new] = dataclasses.replace(c.system_info[name], name=new, spans=len(keep))
    return dataclasses.replace(c, systems=systems, system_info=info)


def rank16() -> Page:
    return rank(corpus=sixteen_systems())


def with_aso(result, threshold: float = 0.2):
    """``result`` (a ranking of runs) with Almost Stochastic Order's fields of its runs filled by hand, as the
    ranking would fill them: epsilon_min of row over column 0.05 where the row's mean is higher, 0.95 where it is
    lower, 0.5 where equal; P(beats) its complement; a group per system, in the order of the means, except that
    two systems whose epsilon_min is not below ``threshold`` share one (for the pages' layout, not for the
    numbers of ASO itself)."""
    import dataclasses

    import numpy as np

    rs = result.runs
    diff = rs.mean[:, None, :] - rs.mean[None, :, :]
    eps = np.where(diff > 0, 0.05, np.where(diff < 0, 0.95, 0.5))
    n, m = rs.mean.shape
    eps[np.arange(n), np.arange(n)] = np.nan
    groups = np.zeros((n, m), dtype=int)
    for k in range(m):
        g = 0
        order = list(result.order[k])
        for pos, i in enumerate(order):
            g += 1 if pos == 0 or eps[order[pos - 1], i, k] < threshold else 0
            groups[i, k] = g
    aso = {"confidence": 0.95, "resamples": 1000, "threshold": threshold, "seed": 0, "correction": "Bonferroni",
           "rule": f"a system starts a new group when the one above it has epsilon_min < {threshold:g} over it"}
    runs = dataclasses.replace(rs, eps_min=eps, beat=1 - eps, groups=groups, aso=aso)
    return dataclasses.replace(result, runs=runs)


def runs_ranking(resamples: int = 50, aso: bool = True):
    """The demo's four systems each given as four runs (itself and itself without every 2nd, 3rd or 5th span:
    :func:`sixteen_systems`), ranked with ``resamples`` two-level resamples; ``aso``: ASO's fields filled by
    hand (:func:`with_aso`)."""
    from ts_eval.ranking.study import rank_corpus

    runs = {name: [name] + [f"{name}-less{k}" for k in (2, 3, 5)] for name in DEMO_SYSTEMS}
    result = rank_corpus(sixteen_systems(), bootstrap=resamples, seed=0, runs=runs, aso_resamples=0)
    return with_aso(result) if aso else result


def rank_runs() -> Page:
    from ts_eval.output.builders import rank as build

    return build.build(runs_ranking())


def compare() -> Page:
    from ts_eval.comparison import compare as run
    from ts_eval.output.builders import compare as build

    return build.build(run(demo_corpus(), "gen-crf_poor_dev", "gen-crf_rich_dev", top=5, examples=1))


def fair() -> Page:
    from ts_eval.core.matching import match
    from ts_eval.fair import fair_errors, fair_report
    from ts_eval.io.faireval import read_faireval
    from ts_eval.output.builders import fair as build

    data = read_faireval(str(FIXTURES / "faireval" / "target"), str(FIXTURES / "faireval" / "system"))
    c = data.corpus
    system = c.systems[data.system_name]
    result = fair_errors(c.gold, system, match(c.gold, system), c.labels, c, focus="target",
                         gold_tokens=data.gold.tokens, system_tokens=data.system.tokens,
                         gold_order=data.gold.order, system_order=data.system.order)
    return build.build(fair_report(result), name=data.system_name)


def germeval() -> Page:
    from ts_eval.germeval.evaluate import evaluate_germeval
    from ts_eval.io.germeval import read_germeval
    from ts_eval.output.builders import germeval as build

    return build.build(evaluate_germeval(read_germeval(str(FIXTURES / "germeval" / "nested.tsv"))))


def generated() -> Page:
    """score's page with a generated output (strings without offsets) beside gold."""
    from ts_eval.io.api import read_pair
    from ts_eval.models.evaluate import evaluate
    from ts_eval.output.builders import score as build

    folder = FIXTURES / "generated"
    corpus = read_pair(str(folder / "gold.jsonl"), str(folder / "llm.jsonl"))
    return build.build(evaluate(corpus, models=["ts", "exact", "fair", "semeval", "strings"]))


def agree(resamples: int = 30, cases: Optional[int] = 10) -> Page:
    """agree's page of the demo's gold and four systems as five annotators, each list cut at ``cases`` as the
    command's page is (None: every document, group and disagreement, thousands of records)."""
    from ts_eval.agreement.api import agree as run
    from ts_eval.agreement.data import Annotations
    from ts_eval.output.builders import agree as build

    corpus = demo_corpus()
    names = ["gold", *DEMO_SYSTEMS]
    return build.build(run(Annotations(corpus, names), bootstrap=resamples, majority=3), cases=cases)


def agree_long_names(cases: int = 10) -> Page:
    """agree's page of three annotators with names as long as real systems' file names (GermEval 2014's
    runs), each list cut at ``cases`` as the command's HTML is: what once pushed the Pairs table out of
    the text column."""
    from ts_eval.agreement.api import agree as run
    from ts_eval.agreement.data import Annotations
    from ts_eval.io import read_conll
    from ts_eval.output.builders import agree as build

    names = ["annotator-one_germeval2014", "annotator-two_lstm_germeval", "annotator-three_spacy_germeval"]
    corpus = read_conll(str(DEMO), gold_column=2, system_columns=[3, 4], names=names[1:])
    return build.build(run(Annotations(corpus, names)), cases=cases)


# kind -> (document maker, id of its main table, the rows that table must have: one per system,
# label or metric, counted from the inputs, not from the document)
def analyze() -> Page:
    from ts_eval.analysis.study import analyze_corpus
    from ts_eval.output.builders import analyze as build

    return build.build(analyze_corpus(demo_corpus(), bootstrap=50, permutations=0, seed=0))


PAGES: Dict[str, Tuple[Callable[[], Page], str, int]] = {
    "score": (score, "summary", len(DEMO_SYSTEMS)),
    "fair": (fair, "fair-traditional", 4 + 1),                    # LOC ORG OTH PER and micro
    "rank": (rank, "lb-task-exact-f1-micro", len(DEMO_SYSTEMS)),   # the leaderboard
    "rank_runs": (rank_runs, "lb-task-exact-f1-micro", len(DEMO_SYSTEMS)),   # four systems of four runs each
    "compare": (compare, "systems", len(DEMO_SYSTEMS)),
    "germeval": (germeval, "metrics-nested", 4),                   # Metrics 1, 2 and 3 on both levels
    "analyze": (analyze, "overall", len(DEMO_SYSTEMS)),
    "generated": (generated, "strings-llm", 4 + 2),                # LOC ORG PER POLITICIAN, micro, macro
    "agree": (agree, "pairs", 10),                                 # gold and 4 systems: 5 annotators, 10 pairs
}
