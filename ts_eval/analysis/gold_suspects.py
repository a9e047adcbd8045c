"""The gold suspects alone (the spans of a reference that most systems reject alike), as the error analysis finds
them (:func:`ts_eval.analysis.errors.error_analysis` with ``top=None``: its ``suspects``, the same list), without
the rest of the analysis (confusion matrices, error lists, per-document scores): the rankings under several
references (:mod:`ts_eval.ranking.references`) check them against each correction, and the whole analysis sits
too many floors up for them to import."""
from __future__ import annotations

from typing import Dict, Optional, Sequence

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import Pairs, ThresholdLike, meets, parse_threshold
from ..models.context import CorpusData
from .errors_match import best_counterparts
from .errors_suspects import Suspects, check_min_agree, rank_suspects, system_suspects
from .errors_text import WINDOW, Texts


def gold_suspects(corpus: Corpus, systems: Optional[Sequence[str]] = None, *, min_agree: Optional[int] = None,
                  min_overlap: ThresholdLike = None, window: int = WINDOW) -> Suspects:
    """Every gold suspect of ``corpus``'s gold found from ``systems`` (names of its sides; default all), ranked, as
    ``error_analysis(corpus, systems=systems, top=None, min_agree=..., min_overlap=..., window=...).suspects``
    gives them (without its label and unannotated inconsistencies)."""
    threshold = parse_threshold(min_overlap)
    names = list(corpus.systems if systems is None else systems)
    agree = check_min_agree(min_agree, len(names))
    cd = CorpusData(corpus)
    pairs: Dict[str, Pairs] = {}
    best: Dict[str, np.ndarray] = {}
    for name in names:
        every = cd.system(name).pairs
        p = every.take(meets(every, threshold)) if threshold is not None else every
        pairs[name] = p
        best[name] = best_counterparts(p, len(corpus.gold), corpus.systems[name], "overlap")
    found = system_suspects(corpus, names, pairs, best, agree)
    return Suspects(agree, len(found.kind), rank_suspects(corpus, Texts(corpus), found, None, window))
