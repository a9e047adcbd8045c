"""ts_eval: evaluation of labelled spans.

Token-and-separator scores (Esuli & Sebastiani 2010), conlleval-exact segment
scores, and more, from one pass over the data.
"""
import warnings
from typing import Any

from .errors import InputError, OptionError, TsEvalError
from .output import views  # noqa: F401  (registers str() and the notebook view of every result)
from .version import __version__

# Everything else is imported on first use (PEP 562), so that `import ts_eval` is cheap (numpy is not
# loaded yet: the command line picks its BLAS threads first, ts_eval.cli) and `ts-eval score` on a
# column file loads neither the other readers nor ranking and comparison code.
_LAZY = {"score": "api", "rank": "api", "read": "api", "compare": "comparison", "analyze": "analysis.api",
         "agree": "agreement.api", "validate": "validation.check", "convert": "io.convert", "Inputs": "io.inputs",
         "Corpus": "core.corpus", "Report": "results.report", "EmptyInputWarning": "core.validation"}
#: the package's folders, reachable as attributes (``ts_eval.io.read_conll``, ``ts_eval.ranking.study``, ...)
_LAZY_MODULES = ("compat", "core", "io", "models", "fair", "ranking", "comparison", "analysis", "agreement",
                 "streaming", "germeval", "results", "output", "validation")
#: the names of earlier releases: still there for a release, with a warning that says the new spelling
_MOVED = {"evaluate": ("models.evaluate", "ts_eval.score(corpus)"),
          "read_conll": ("io.api", "ts_eval.io.read_conll (or ts_eval.Inputs(file=...))"),
          "read_conll_pair": ("io.api", "ts_eval.io.read_conll_pair (or ts_eval.Inputs(gold=..., systems=...))"),
          "read_pair": ("io.api", "ts_eval.read(gold, systems)"),
          "SpanSet": ("core.corpus", "ts_eval.core.corpus.SpanSet"),
          "from_sequences": ("core.sequences", "ts_eval.core.sequences.from_sequences"),
          "from_spans": ("core.sequences", "ts_eval.core.sequences.from_spans"),
          "fair_corpus": ("fair", "ts_eval.fair.fair_corpus"), "fair_errors": ("fair", "ts_eval.fair.fair_errors"),
          "rank_corpus": ("ranking.study", "ts_eval.rank(corpus)"),
          "rank_tasks": ("ranking.study", "ts_eval.rank({task: corpus, ...})"),
          "error_analysis": ("analysis.errors", "ts_eval.analysis.errors.error_analysis"),
          "count_file": ("streaming.files", "ts_eval.streaming.files.count_file"),
          "count_files": ("streaming.files", "ts_eval.score(ts_eval.Inputs(gold=..., systems=...))"),
          "file_shards": ("streaming.shards", "ts_eval.streaming.shards.file_shards")}


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name in _LAZY_MODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _MOVED:
        module, spelling = _MOVED[name]
        warnings.warn(f"ts_eval.{name} is deprecated: use {spelling}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(f".{module}", __name__), name)
    raise AttributeError(f"module 'ts_eval' has no attribute {name!r}")


__all__ = ["score", "rank", "compare", "analyze", "agree", "validate", "convert", "read", "Inputs", "Corpus",
           "Report", "TsEvalError", "InputError", "OptionError", "EmptyInputWarning", "__version__"]
