"""Drop-in replacements for other tools' Python APIs, computed by ts_eval's core.

``ts_eval.compat.seqeval``      seqeval 1.2.2's metrics (``classification_report``,
                                ``precision_score``, ``recall_score``, ``f1_score``,
                                ``accuracy_score``, ``performance_measure``) with the
                                same arguments and the same numbers;
``ts_eval.compat.huggingface``  the Hugging Face ``seqeval`` metric's ``compute``
                                dict (plus TS and fair scores) and a Trainer
                                ``compute_metrics`` helper.

Neither imports seqeval, ``evaluate`` or ``transformers``.
"""
