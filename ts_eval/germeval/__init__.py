"""GermEval 2014 nested NER in one package: its data, its reader, its counting rules, its report.

- :mod:`.data`: the official label set, one system's tags (:class:`~.data.GermEvalData`) and
  their chunks under each policy (``nereval``, the official scorer's rule, by default);
- :mod:`.reader`: the shared task's 6-column files (and a 4-column system file beside a gold
  file) -> :class:`~.data.GermEvalData`, or a corpus of several systems;
- :mod:`.documents`: one side of a 6-column file as input documents (both levels), for
  ``convert``;
- :mod:`.counts`: the official scorer's counts behind Metrics 1-4;
- :mod:`.corpus`: the chunks as a :class:`ts_eval.core.corpus.Corpus` (for the TS and fair models
  and for ranking);
- :mod:`.evaluate`: :func:`~.evaluate.evaluate_germeval`, one system's report (Metrics 1-4, TS
  over both levels, fair error types per level).

Elsewhere, by their layer: the ranking model ``germeval-m1`` is registered in
:mod:`ts_eval.models.germeval`; the page of a GermEval report is built by
:mod:`ts_eval.output.builders.germeval`, its byte-exact layout is :mod:`ts_eval.output.legacy.nereval`,
and the command is :mod:`ts_eval.cli.germeval`.
"""
