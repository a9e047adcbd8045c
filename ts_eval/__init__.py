"""ts_eval: evaluation of labelled spans.

Token-and-separator scores (Esuli & Sebastiani 2010), conlleval-exact segment
scores, and more, from one pass over the data.
"""
__version__ = "0.1.0"

from .corpus import Corpus, SpanSet, from_sequences, from_spans  # noqa: E402
from .errors import InputError, TsEvalError, UsageError  # noqa: E402
from .evaluate import evaluate, score  # noqa: E402
from .io import read_conll, read_conll_pair  # noqa: E402
from .report import Report  # noqa: E402

__all__ = ["Corpus", "SpanSet", "from_sequences", "from_spans", "InputError", "TsEvalError", "UsageError",
           "evaluate", "score", "read_conll", "read_conll_pair", "Report", "__version__"]
