"""Many systems x many evaluation models (``ts_eval.rank``; the package is named for the study,
the function keeps the short name).

- :mod:`.sufficient`: every system's per-sentence statistics under every model, as one matrix
  (what the resampling multiplies);
- :mod:`.rows`: such statistics kept once per distinct row (every unit its row's number) and the
  resampling sums, of the distinct rows or of every unit's row;
- :mod:`.statistics`: ranks, rank correlations and the plain pieces of a ranking (bootstrap and
  permutation results);
- :mod:`.uncertainty`: correlation intervals, order flips and significance groups;
- :mod:`.study`: :func:`~.study.rank`, :func:`~.study.rank_corpus`, :func:`~.study.rank_tasks`
  and their results (:class:`~.study.RankingResult`, :class:`~.study.MultiTaskResult`);
- :mod:`.memory`: how much memory a bootstrap may still take.
- :mod:`.aso`: Almost Stochastic Order (deep-significance's ε_min) and the beat probability between
  systems given as several runs (on run scores only; it imports nothing of the package but errors).

The modules import each other one way: ``study`` -> ``uncertainty`` -> ``statistics``.
"""
