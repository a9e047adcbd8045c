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

from types import ModuleType

__all__ = ["seqeval", "huggingface"]


def __getattr__(name: str) -> ModuleType:
    """``ts_eval.compat.seqeval`` works after ``import ts_eval`` alone (imported on first use)."""
    if name in __all__:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'ts_eval.compat' has no attribute {name!r}")
