"""The checks of :func:`~ts_eval.comparison.comparison.compare`'s arguments that do not need the whole corpus
(the first block's systems will do)."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..core.corpus import Corpus
from ..errors import OptionError
from ..models.registry import score_specs


def check_arguments(corpus: Corpus, a: Optional[str], b: Optional[str], top: Optional[int],
                     examples: int) -> Tuple[Optional[str], Optional[str]]:
    """The pair (A, B) to compare in detail, or (None, None); OptionError for a bad argument."""
    names = list(corpus.systems)
    if len(names) < 2:
        raise OptionError(f"compare needs at least two systems, got {len(names)}"
                          + (f" ({names[0]})" if names else ""))
    if top is not None and top < 0:
        raise OptionError("expected a whole number >= 0", option="top", value=top)
    if examples < 0:
        raise OptionError("expected a whole number >= 0", option="examples", value=examples)
    if (a is None) != (b is None):
        raise OptionError("give both systems of the pair (A and B) or neither")
    if a is None and len(names) == 2:
        a, b = names
    for n in (a, b):
        if n is not None and n not in corpus.systems:
            raise OptionError(f"no system named {n!r}; systems: {', '.join(names)}")
    if a is not None and a == b:
        raise OptionError(f"A and B are the same system ({a!r})")
    return a, b


def check_models(models: Sequence[str]) -> List[str]:
    """``models`` in the registry's order, each once; OptionError naming an unknown one."""
    return list(score_specs([models] if isinstance(models, str) else models))


