"""Submissions checked whole against gold before they are scored (``ts-eval validate``,
:func:`ts_eval.validate`): every problem, not only the first, grouped by kind and counted.

- :mod:`.result`: the result (:class:`~.result.Validation`, :class:`~.result.Problem`), plain data;
- :mod:`.tags`: a side's tags checked (tags no scheme reads, ill-formed sequences with the repair each policy
  makes, labels gold does not use);
- :mod:`.align`: a submission's tokens, sentences and documents against gold's;
- :mod:`.records`: a submission in a format of records (JSON Lines, CoNLL-U, ...) read record by record;
- :mod:`.check`: the study, :func:`~.check.validate`.
"""
