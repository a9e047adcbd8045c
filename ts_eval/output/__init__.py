"""From results to what people read: the page model, one builder per kind of result, one renderer
per output format, and the reference tools' byte-exact layouts.

- :mod:`.page`: the output page model (:class:`~.page.Page` of :class:`~.page.Section` s holding
  :class:`~.page.Table` s of :class:`~.page.Cell` s, :class:`~.page.Figure` s and :class:`~.page.Text`);
- :mod:`.values`: how every format writes a cell's value;
- :mod:`.builders`: ``build(result) -> Page``, one module per kind of result (score, fair, rank,
  compare, germeval); a builder selects, orders and labels numbers, it computes none;
- :mod:`.renderers`: ``render(page, fmt)`` for the terminal, Markdown, LaTeX, CSV and HTML;
- :mod:`.legacy`: conlleval.pl's, the GermEval scorer's and FairEval's own layouts, byte for byte;
- :mod:`.views`: ``str(result)`` and Jupyter's view of every result (registered at import);
- :mod:`.plot`: the bump chart of a ranking (matplotlib, optional).

JSON is not here: it is each result's own ``to_dict()``.  The results themselves (``Report``,
``RankingResult``, ``Comparison``) are plain data below this layer (:mod:`ts_eval.results` and
each study's package); where a command writes its text is the command line's (:mod:`ts_eval.cli.outputs`).
"""
