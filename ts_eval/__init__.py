"""ts_eval: evaluation of labelled spans.

Token-and-separator scores (Esuli & Sebastiani 2010), conlleval-exact segment
scores, and more, from one pass over the data.
"""
from typing import Any

from .errors import InputError, OptionError, TsEvalError
from .output import views  # noqa: F401  (registers str() and the notebook view of every result)
from .version import __version__

# Everything else is imported on first use (PEP 562), so that `import ts_eval` is cheap (numpy is not
# loaded yet: the command line picks its BLAS threads first, ts_eval.cli) and `ts-eval score` on a
# column file loads neither the other readers nor ranking and comparison code.
_LAZY = {"evaluate": "models.evaluate", "score": "models.evaluate",
         "Corpus": "core.corpus", "SpanSet": "core.corpus", "from_sequences": "core.sequences",
         "from_spans": "core.sequences",
         "read_conll": "io", "read_conll_pair": "io",
         "read": "io.api", "read_pair": "io.api", "Report": "results.report", "EmptyInputWarning": "core.validation",
         "fair_corpus": "fair", "fair_errors": "fair", "compare": "comparison",
         "rank": "ranking.study", "rank_corpus": "ranking.study", "rank_tasks": "ranking.study",
         "convert": "io.convert", "analyze": "analysis.api", "error_analysis": "analysis.errors",
         "agree": "agreement.api", "count_file": "streaming.files", "file_shards": "streaming.shards",
         "count_files": "streaming.files"}
_LAZY_MODULES = ("compat",)   # ts_eval.compat.seqeval, ts_eval.compat.huggingface


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name in _LAZY_MODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'ts_eval' has no attribute {name!r}")


__all__ = ["Corpus", "SpanSet", "from_sequences", "from_spans", "InputError", "OptionError", "TsEvalError",
           "evaluate", "score", "read_conll", "read_conll_pair", "read", "read_pair", "Report", "fair_corpus",
           "fair_errors", "compare", "analyze", "rank", "rank_corpus", "rank_tasks", "convert", "error_analysis",
           "agree", "count_file", "file_shards", "count_files", "compat",
           "EmptyInputWarning", "__version__"]
