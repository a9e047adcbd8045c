"""``ts_eval.analyze``: the analysis by attributes (:mod:`.study`) and the error analysis
(:mod:`.errors`) of one corpus, in one result."""
from __future__ import annotations

import time
from typing import Any, Mapping, Optional, Sequence, Union

from ..core.corpus import Corpus
from .errors import ErrorOptions, _check
from .errors_suspects import check_min_agree
from .errors_text import WINDOW
from .gold_suspects import gold_suspects
from .result import Analysis
from .study import analyze_corpus, corpus_of


def analyze(
    gold: Union[Corpus, Sequence[Sequence[str]]],
    systems: Optional[Union[Mapping[str, Any], Sequence[Any]]] = None,
    *,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    errors: bool = True,
    top: Optional[int] = 20,
    min_agree: Optional[int] = None,
    references: Optional[Sequence[str]] = None,
    **options: Any,
) -> Analysis:
    """Score one system, two or many by the attributes of spans and sentences, under every model.

    ``gold``: a :class:`~ts_eval.core.corpus.Corpus` (its systems are analysed; ``systems`` may then
    name a subset), or seqeval-style tag sequences with ``systems`` a mapping name -> tag sequences.
    ``options`` go to :func:`ts_eval.analysis.study.analyze_corpus`:

    - ``train``: training data (a path in any input format, a Corpus, or Documents) for the
      training-based attributes; ``vocab``: a vocabulary (a file of one token per line, or strings)
      for the out-of-vocabulary density;
    - ``by``: slices: ``"document"`` (one bucket per document: the -DOCSTART- blocks), fields of the
      JSON Lines records (``"meta.genre"``); ``records``: the records themselves (one per
      document), else read again from gold's file;
    - ``buckets``: a number of buckets (default 4), ``"ATTR=E1,E2"`` fixed edges, or
      ``"interpreteval"`` (InterpretEval's span attributes, buckets and quirks); a list combines them;
    - ``models`` (default :data:`~ts_eval.analysis.study.ANALYSIS_MODELS`), ``reference`` (the model
      charts and summaries use; default the first), ``bootstrap`` (resamples, default 1000; 0 =
      none), ``permutations`` (the pair test, default 1000), ``seed``, ``confidence``, ``flips``
      (model pairs whose flips are attributed; default every pair), ``pair`` (the two systems
      compared per bucket; default the two when there are two), ``attributes`` (names: only these).

    ``errors`` (default True): also the error analysis (:func:`ts_eval.analysis.errors.error_analysis`:
    confusion matrices, the most frequent errors, per-document scores, gold suspects) with its ``top``
    and ``min_agree``, checked before anything is computed.

    ``references``: several references of the same tokens, two or more names (the gold's and sides of the
    corpus: :func:`ts_eval.comparison.by_reference.read_with_references` reads them so); the analysis is then
    under the first, of the sides that are no reference, and ``result.references`` holds what changes from
    each reference to the next (:func:`ts_eval.analysis.reference_steps.reference_steps`: the changes, each
    system's errors that change sides and its scores on the changed and unchanged sentences, and with
    ``errors`` the first reference's gold suspects checked against the next).
    """
    corpus = corpus_of(gold, systems, scheme=scheme, policy=policy, options=options)
    whole = corpus
    if references is not None:
        from ..comparison.changes import reference_sides, under

        refs, chosen = reference_sides(corpus, references, options.get("systems"))
        corpus = under(corpus, refs[0], chosen)
        options["systems"] = chosen
    names = list(options.get("systems") or corpus.systems)
    if errors:
        _check(corpus, names, top, WINDOW)
        check_min_agree(min_agree, len(names))
    result = analyze_corpus(corpus, errors=ErrorOptions(top, min_agree) if errors else None, **options)
    if references is not None:
        from .reference_steps import reference_steps

        t0 = time.perf_counter()
        find = (lambda c, names: gold_suspects(c, systems=names, min_agree=min_agree)) if errors else None
        result.references = reference_steps(whole, refs, result.systems, models=result.models, suspects=find)
        result.timings["references"] = time.perf_counter() - t0
    return result
