"""GermEval 2014 Metric 1 as a ranking model (``germeval-m1``; needs GermEval-layout input).

Its statistics are, per sentence, the gold, found and correct chunks of both levels pooled, as the
official scorer counts them; a corpus read from GermEval-layout files
(:func:`ts_eval.germeval.corpus.germeval_corpus`) gives them on every system side
(:meth:`ts_eval.germeval.corpus.GermEvalSide.metric1_sentences`).  This module reads them through
that method alone: the GermEval package sits above the models (it reads files and builds its
report with the TS and fair models), so the models do not import it.
"""
from __future__ import annotations

import numpy as np

from ..core import measures
from ..errors import OptionError
from .context import RANK_SETTINGS, ScoreSettings, SystemData
from .registry import ModelSpec, Score, register


def metric1_sentence_stats(sd: SystemData, settings: ScoreSettings = RANK_SETTINGS, sentences: bool = True
                           ) -> np.ndarray:
    """``(sentences, 3)``: Metric 1's gold, found and correct chunks per sentence of one system, under the
    corpus's chunk policy; an :class:`OptionError` for a corpus that was not read from GermEval-layout files."""
    corpus = sd.cd.corpus
    counts = getattr(corpus.system_info[sd.name], "metric1_sentences", None)
    if counts is None:
        raise OptionError("GermEval Metric 1 needs GermEval-layout input (read with "
                          "ts_eval.germeval.corpus.germeval_corpus)")
    return np.asarray(counts(corpus.policy or "nereval"), float)


def metric1_f1(x: np.ndarray) -> np.ndarray:
    """Metric 1 F1 (a fraction) of summed statistics ``(..., 3)`` = gold, found, correct.

    Vectorised over leading axes (bootstrap resamples x systems); F1 = 2PR/(P+R) with
    0 when P + R = 0, which equals 2 * correct / (gold + found): the F1 of tp = correct,
    fp = found - correct, fn = gold - correct.
    """
    x = np.asarray(x, float)
    g, f, k = x[..., 0], x[..., 1], x[..., 2]
    return np.asarray(measures.fbeta(k, f - k, g - k))


SPEC = register(ModelSpec(
    "germeval", "GermEval 2014 Metric 1 (ranking only; needs GermEval-layout input)", metric1_sentence_stats, (3, 0),
    (Score("germeval-m1", "M1-F1", metric1_f1,
           "GermEval 2014 Metric 1 F1 (strict, combined: outer and inner chunks pooled), the shared task's official "
           "ranking, as nereval.perl computes it; needs GermEval-layout input"),), needs="germeval"))
MODEL = SPEC.models[0]
