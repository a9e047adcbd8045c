"""Fine-grained analysis of one system, two or many against gold (issue 19): ``ts_eval.analyze``,
``ts-eval analyze``.

- :mod:`.attributes`: the attributes of spans and sentences (and the training data some read);
- :mod:`.buckets`: how an attribute's values fall into buckets (equal frequency, fixed edges, names);
- :mod:`.attribute_values`: every attribute's values read a block of sentences at a time, and their buckets;
- :mod:`.study`: the analysis itself (:func:`~ts_eval.analysis.study.analyze_corpus`);
- :mod:`.api`: ``ts_eval.analyze`` (:func:`~ts_eval.analysis.api.analyze`): the analysis and the error analysis;
- :mod:`.result`: what it returns (:class:`~ts_eval.analysis.result.Analysis`);
- :mod:`.interpreteval`: InterpretEval's attributes, tables, buckets and per-bucket F1;
- :mod:`.errors`: errors a person can read (:func:`~ts_eval.analysis.errors.error_analysis`).

The package is called ``analysis`` because ``ts_eval.analyze`` is the function.
"""
