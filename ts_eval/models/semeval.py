"""nervaluate's SemEval-2013 schemes (strict, exact, partial, ent_type) as a model family:
per-sentence counts from :func:`ts_eval.semeval.semeval_stats` (the shared matcher's pairs),
``score``'s result from their column sums, and one ranking model per scheme (overall F1).
``--models semeval`` (and ``resolve_models(["semeval"])``) stands for the four."""
from __future__ import annotations

from functools import partial
from typing import Any, Dict

import numpy as np

from ..semeval import SCHEMES, scheme_f, semeval_result, semeval_stats
from .context import SystemData
from .registry import Family, Model, ScoreSettings, register, register_family, register_group


def stats(sd: SystemData) -> np.ndarray:
    """(sentences, 4 schemes x (1 + labels) x 5 counts) of one system."""
    corpus = sd.cd.corpus
    return semeval_stats(corpus, corpus.gold, sd.spans, sd.pairs)


def overall_stats(sd: SystemData) -> np.ndarray:
    """(sentences, 4 schemes x 5 counts): the overall rows only -- all a ranking model reads, so
    the bootstrap and permutation products stay small (the label rows are 1 + labels times more)."""
    x = sd.stats(stats)
    return np.ascontiguousarray(x.reshape(x.shape[0], len(SCHEMES), -1, 5)[:, :, 0, :].reshape(x.shape[0], -1))


def report(sd: SystemData, settings: ScoreSettings) -> Dict[str, Any]:
    """``score``'s result: per scheme ``overall`` and per-label rows (see :func:`semeval_result`)."""
    return semeval_result(sd.stats(stats).sum(0), sd.cd.corpus.labels, settings.beta)


_TEXT = {
    "strict": "exact bounds and label (COR / actual, COR / possible)",
    "exact": "exact bounds, any label",
    "partial": "bounds overlap, any label; a partial match counts half",
    "ent_type": "same label, bounds overlap",
}

register_family(Family("semeval", report, "nervaluate's SemEval-2013 schemes strict, exact, partial, ent_type"))
for _s in SCHEMES:
    register(Model(f"semeval-{_s.replace('_', '-')}-f1", f"SE-{_s.replace('_', '-')}", overall_stats,
                   partial(scheme_f, scheme=_s),
                   f"SemEval-2013 {_s} F1 as nervaluate counts it, overall: {_TEXT[_s]}"))
register_group("semeval", tuple(f"semeval-{_s.replace('_', '-')}-f1" for _s in SCHEMES))
