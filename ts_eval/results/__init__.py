"""Results as plain data, below everything that produces them and everything that shows them.

- :mod:`.report`: the :class:`~.report.Report` of ``score`` and ``germeval`` (nested dicts of
  counts and scores; ``to_dict()`` is the JSON) and the versions every result records;
- :mod:`.vocabulary`: the one word per quantity every non-legacy result uses, and the layout
  version each kind of JSON carries;
- :mod:`.display`: how a result shows itself in Python (``str``, ``repr``, Jupyter, pandas).  The
  views themselves are registered from above (:mod:`ts_eval.output.views`), so no result imports
  a page builder or a renderer.

Each study keeps its own result class beside its code (:class:`ts_eval.ranking.study.study.RankingResult`,
:class:`ts_eval.comparison.results.Comparison`); they use this layer's display and vocabulary.
"""
