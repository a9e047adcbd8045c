"""The entry point: :func:`compare` checks its arguments and assembles a :class:`Comparison`
from the token, span, TS and several-systems parts."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import ThresholdLike, match_settings
from ..core.measures import check_separator_weight, prf
from ..errors import OptionError
from ..models.context import CorpusData, ScoreSettings
from ..models.counts import report_of
from ..models.registry import check_matching, check_partial_weight, score_specs
from ..models.segment import EXACT_STATS
from .examples import pair_examples
from .results import Comparison, PairComparison
from .semeval_spans import semeval_diff
from .several import exact_hits, several_systems
from .spans import fair_outcomes, span_diff, systems_instead
from .tokens import _correct_sentences, token_diff, token_labels
from .transitions import _ratio
from .ts import ts_diff


def compare(
    corpus: Corpus,
    a: Optional[str] = None,
    b: Optional[str] = None,
    *,
    top: Optional[int] = 5,
    examples: int = 1,
    view: str = "auto",
    separator_weight: float = 1.0,
    spans: bool = True,
    fair_mode: str = "paper",
    models: Sequence[str] = (),
    min_overlap: ThresholdLike = None,
    assignment: str = "many-to-many",
    partial_weight: float = 0.5,
) -> Comparison:
    """Compare the systems of ``corpus``.

    ``a`` (baseline) and ``b`` (new system) pick the pair compared in detail; with exactly
    two systems they default to them in order, with more the pair is optional.  With more
    than two systems the pairwise matrix, the oracle upper bounds and the hard/easy gold
    spans are computed.  ``top``: transitions kept per class (None: all); ``examples``:
    sentences per top transition; ``spans=False`` skips the span-level pair comparison;
    ``fair_mode``: :func:`ts_eval.fair.fair_errors`'s mode (``paper`` or ``faireval-skip``).

    ``models``: names of ``score``'s models (``ts``, ``exact``, ``overlap``, ``constrained``,
    ``contain``, ``fair``, ``semeval``); each system's row then holds each model's result under
    its name, the dict ``score`` reports (the same registered statistics, ``separator_weight``
    and ``fair_mode`` as given here, F1, score's other defaults).  With ``semeval`` the pair is
    also compared span by span under each SemEval-2013 scheme (``pair.semeval``).  ``min_overlap``,
    ``assignment`` and ``partial_weight`` are ``score``'s (:func:`ts_eval.score`): the span-level
    models among ``models`` and the SemEval comparison read the matcher's pairs with them.
    """
    names = list(corpus.systems)
    check_separator_weight(separator_weight)
    a, b = _check_arguments(corpus, a, b, top, examples)
    models = check_models(models)
    matching = match_settings(min_overlap, assignment)
    check_matching(matching, models)
    cd = CorpusData(corpus, matching)
    used_view, vocab, ids = token_labels(corpus, names, view)
    gold_ids, sys_ids = ids[0], ids[1:]
    settings_ = ScoreSettings(separator_weight, fair_mode=fair_mode, matching=matching,
                              partial_weight=check_partial_weight(partial_weight))
    systems, hits = _system_rows(cd, names, gold_ids, sys_ids, (models, settings_))
    pair = None
    if a is not None and b is not None:     # (both or neither)
        pair = _pair(corpus, names, a, b, gold_ids, sys_ids, vocab, top, examples, separator_weight, spans,
                     fair_mode)
        if "semeval" in models:
            pair.semeval = semeval_diff(corpus, a, b, top, cd.system(a).pairs, cd.system(b).pairs, matching)
    multi = None
    if len(names) > 2:
        multi = several_systems(corpus, names, gold_ids, sys_ids, vocab, np.stack(hits))
        if spans:
            hard = np.array([r["index"] for r in multi.hard_cases], np.int64)
            for rec, inst in zip(multi.hard_cases, systems_instead(corpus, names, hard, fair_mode)):
                rec["systems_instead"] = inst
    settings = {"view": used_view, "view_requested": view, "top": top, "examples": examples,
                "separator_weight": separator_weight, "scheme": corpus.scheme, "policy": corpus.policy,
                "label_map": [f"{p}={r}" for p, r in corpus.label_map], "pair": [a, b] if a else None,
                "models": list(models), **matching.to_dict(), "partial_weight": settings_.partial_weight,
                "span_outcomes": f"ts_eval.fair, mode {fair_mode}" if spans and a is not None else None,
                "tokens_note": "-DOCSTART- lines are not tokens (conlleval counts them as correct O tokens)"}
    corpus_info = {"tokens": corpus.n_tokens, "sentences": corpus.n_sentences, "separators": corpus.n_separators,
                   "gold_spans": len(corpus.gold), "labels": list(corpus.labels), "token_labels": list(vocab),
                   "docstart_lines": corpus.docstart_lines, "gold_path": corpus.gold_info.path}
    return Comparison(settings, corpus_info, systems, pair, multi)


def _check_arguments(corpus: Corpus, a: Optional[str], b: Optional[str], top: Optional[int],
                     examples: int) -> Tuple[Optional[str], Optional[str]]:
    """The pair (A, B) to compare in detail, or (None, None); OptionError for a bad argument."""
    names = list(corpus.systems)
    if len(names) < 2:
        raise OptionError(f"compare needs at least two systems, got {len(names)}"
                          + (f" ({names[0]})" if names else ""))
    if top is not None and top < 0:
        raise OptionError("expected a whole number >= 0", option="top", value=top)
    if examples < 0:
        raise OptionError("expected a whole number >= 0", option="examples", value=examples)
    if (a is None) != (b is None):
        raise OptionError("give both systems of the pair (A and B) or neither")
    if a is None and len(names) == 2:
        a, b = names
    for n in (a, b):
        if n is not None and n not in corpus.systems:
            raise OptionError(f"no system named {n!r}; systems: {', '.join(names)}")
    if a is not None and a == b:
        raise OptionError(f"A and B are the same system ({a!r})")
    return a, b


def check_models(models: Sequence[str]) -> List[str]:
    """``models`` in the registry's order, each once; OptionError naming an unknown one."""
    return list(score_specs([models] if isinstance(models, str) else models))


def _system_rows(cd: CorpusData, names: List[str], gold_ids: np.ndarray, sys_ids: np.ndarray,
                 chosen: Tuple[List[str], ScoreSettings]) -> Tuple[List[Dict[str, Any]], List[np.ndarray]]:
    """One row per system (token accuracy, correct sentences, exact-match span counts and scores:
    the column sums of the exact model's statistics, as score and rank count them; then the
    chosen models' results, as score reports them), and per system which gold spans it finds
    exactly."""
    corpus = cd.corpus
    n = corpus.n_tokens
    models, settings = chosen
    systems, hits = [], []
    for i, name in enumerate(names):
        right = sys_ids[i] == gold_ids
        sd = cd.system(name)
        hits.append(exact_hits(corpus.gold, sd.spans, sd.pairs)[0])
        gold, system, tp, _ = sd.stats(EXACT_STATS).sum(0).reshape(-1, 4).sum(0).astype(int).tolist()
        p, r, f = prf(tp, system - tp, gold - tp)
        info = corpus.system_info[name]
        row = {"name": name, "path": info.path, "column": info.column,
               "token_accuracy": _ratio(right.sum(), n),
               "correct_sentences": _correct_sentences(corpus, right),
               "gold": gold, "system": system, "tp": tp, "precision": p, "recall": r, "f": f}
        for m, spec in score_specs(models).items():
            row[m] = report_of(spec, sd, settings)
            sd.cache.clear()      # each model's statistics are summed: free them before the next
        systems.append(row)
    return systems, hits


def _pair(corpus: Corpus, names: List[str], a: str, b: str, gold_ids: np.ndarray, sys_ids: np.ndarray,
          vocab: List[str], top: Optional[int], examples: int, separator_weight: float, spans: bool,
          fair_mode: str) -> PairComparison:
    """A (baseline) against B (new system) on tokens, spans (fair outcomes) and TS units."""
    ia, ib = names.index(a), names.index(b)
    tok = token_diff(corpus, a, b, gold_ids, sys_ids[ia], sys_ids[ib], vocab, top)
    sd, ctx = None, None
    if spans:
        oa = fair_outcomes(corpus, a, mode=fair_mode)
        ob = fair_outcomes(corpus, b, mode=fair_mode)
        sd, ctx = span_diff(corpus, a, b, oa, ob, top)
    pair = PairComparison(a, b, tok, sd, ts_diff(corpus, a, b, separator_weight))
    if examples:
        pair.examples = pair_examples(corpus, a, b, gold_ids, sys_ids[ia], sys_ids[ib], vocab, tok, sd, ctx,
                                      examples)
    return pair
