"""Several annotators' files of the same text read as one corpus, beside the systems' (for the human ceiling,
:func:`ts_eval.comparison.ceiling.human_ceiling`); apart from it, so that the ceiling reads no file and the
rankings under several references (:mod:`ts_eval.ranking.references`) can use it."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..core.corpus import Corpus
from ..errors import OptionError


def read_annotators(annotators: Mapping[str, str], systems: Mapping[str, str] | Sequence[str] = (),
                    **options: Any) -> Corpus:
    """Annotators' files (a mapping name -> path, two or more) and systems' (paths, or a mapping name -> path)
    as one Corpus: the first annotator is its gold (named so), the others and the systems its systems
    (``options`` as :func:`ts_eval.read` takes them).  The readers check that every file holds the first
    annotator's tokens, naming the first difference otherwise."""
    from ..io.api import read_pair
    from ..io.source import system_name

    names = list(annotators)
    if len(names) < 2:
        raise OptionError("the human ceiling needs two annotators or more", option="annotators", value=names)
    items = list(systems.items()) if isinstance(systems, Mapping) else [
        (system_name(str(p)) or f"system{k + 1}", str(p)) for k, p in enumerate(systems)]
    clash = sorted({n for n, _ in items} & set(names))
    if clash:
        raise OptionError(f"{clash[0]!r} names an annotator and a system; name them otherwise",
                          option="systems", value=clash[0])
    sides = (*(f"annotator {n}" for n in names), *("system" for _ in items))
    others = {n: str(annotators[n]) for n in names[1:]}
    corpus = read_pair(str(annotators[names[0]]), {**others, **{n: str(p) for n, p in items}}, sides=sides,
                       **options)
    corpus.gold_info.name = names[0]
    return corpus
