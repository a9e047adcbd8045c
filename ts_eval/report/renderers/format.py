"""How a value of each cell kind is written: :mod:`ts_eval.report.values` (in the page layer, so
that page builders and every renderer share one rule); re-exported here for renderers."""
from ..values import inline, interval, text, value  # noqa: F401
