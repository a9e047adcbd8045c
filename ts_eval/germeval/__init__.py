"""GermEval 2014 nested NER scored as the shared task did: its counting rules, its report.

Its files are a format of :mod:`ts_eval.io` (readers and writers load no study):
:mod:`ts_eval.io.germeval_data` holds the official label set, one system's tags
(:class:`~ts_eval.io.germeval_data.GermEvalData`) and their chunks under each policy (``nereval``, the
official scorer's rule, by default); :mod:`ts_eval.io.germeval` reads the shared task's 6-column files
(and a 4-column system file beside a gold file), or one side of a 6-column file as input documents
(both levels, for ``convert``).  Here:

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
