"""Analysis by span and sentence attributes (``ts_eval.analyze``, ``ts-eval analyze``).

- :mod:`.attributes`: the attributes of spans and sentences (and the training data some read);
- :mod:`.buckets`: how an attribute's values fall into buckets (equal frequency, fixed edges, names);
- :mod:`.splits`: each model family's statistics split by span;
- :mod:`.study`: the analysis itself (:func:`~ts_eval.analysis.study.analyze`);
- :mod:`.result`: what it returns (:class:`~ts_eval.analysis.result.Analysis`).

The package is called ``analysis`` because ``ts_eval.analyze`` is the function.
"""
