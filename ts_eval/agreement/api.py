"""The public entry point :func:`agree`: any input (annotations, a corpus, span lists, input files)
made into :class:`~ts_eval.agreement.data.Annotations` and measured by
:func:`ts_eval.agreement.study.agreement`."""
from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Sequence, Union

from ..core.corpus import Corpus
from ..errors import OptionError
from .data import Annotations, SpanLists, from_corpus, from_span_lists
from .inputs import read_annotations
from .results import Agreement
from .study import agreement

AnnotationInput = Union[Annotations, Corpus, Mapping[str, SpanLists], Sequence[str], str, "os.PathLike[str]"]


def agree(
    annotations: AnnotationInput,
    *,
    lengths: Optional[Sequence[int]] = None,
    names: Optional[Sequence[str]] = None,
    separator_weight: float = 1.0,
    continuum: str = "tokens",
    bootstrap: int = 0,
    confidence: float = 0.95,
    seed: int = 0,
    majority: Optional[int] = None,
    **read_options: Any,
) -> Agreement:
    """Agreement between two or more annotations of the same text.

    ``annotations``: :class:`~ts_eval.agreement.data.Annotations`; a Corpus (gold and systems are
    the annotators, in order); ``{name: per sentence a list of (label, start, end)}`` with
    ``lengths`` (end exclusive; a sentence given as None was not annotated by that annotator); or a
    list of input paths in any format ts_eval reads (``read_options`` go to the readers, as
    :func:`ts_eval.read` takes them; names from the files, or ``names``).

    ``separator_weight``: of the separator units (0: token-level figures), as in ``score``;
    ``continuum``: ``tokens`` or ``characters``, where unitizing alpha measures lengths;
    ``bootstrap``: resamples of documents (of sentences when the input has no documents) for
    percentile intervals at ``confidence``; ``majority``: also keep the spans at least this many
    annotators share (``result.majority_spans``).
    """
    ann = annotations_of(annotations, lengths=lengths, names=names, **read_options)
    return agreement(ann, separator_weight=separator_weight, continuum=continuum, bootstrap=bootstrap,
                     confidence=confidence, seed=seed, majority=majority)


def annotations_of(annotations: AnnotationInput, *, lengths: Optional[Sequence[int]] = None,
                   names: Optional[Sequence[str]] = None, **read_options: Any) -> Annotations:
    """:func:`agree`'s first argument as :class:`Annotations` (an option that does not apply to the
    kind of input given is an error, never ignored)."""
    given_paths = not isinstance(annotations, (Annotations, Corpus, Mapping))
    unused = [k for k, v in (("lengths", lengths if not isinstance(annotations, Mapping) else None),
                             ("names", names if isinstance(annotations, (Annotations, Mapping)) else None))
              if v is not None] + ([] if given_paths else sorted(read_options))
    if unused:
        raise OptionError(f"{', '.join(unused)}: not an option for {type(annotations).__name__} input (lengths go "
                          "with span lists, names with a corpus or input paths, reading options with paths)")
    if isinstance(annotations, Annotations):
        return annotations
    if isinstance(annotations, Corpus):
        return from_corpus(annotations, names)
    if isinstance(annotations, Mapping):
        if lengths is None:
            raise OptionError("span lists need the sentence lengths: give lengths=[...]")
        return from_span_lists(annotations, lengths)
    paths = [str(annotations)] if isinstance(annotations, (str, os.PathLike)) else [str(p) for p in annotations]
    return read_annotations(paths, names=names, **read_options)
