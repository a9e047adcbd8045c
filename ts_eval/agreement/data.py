"""What :func:`ts_eval.agree` reads: two or more annotations of the same tokens.

:class:`Annotations` keeps the sentence structure (a :class:`~ts_eval.core.corpus.Corpus`, whose
gold side is the first annotator and whose systems are the others: every reader builds that), the
annotators' names in order, and which sentences each annotator annotated (``covered``; None when
every annotator annotated everything, the only case the file readers produce unless a JSON export
is read with ``partial=True``).  No annotator is "gold": every figure is symmetric.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, SpanSet
from ..core.sequences import spans_corpus
from ..errors import InputError, OptionError


@dataclass
class Annotations:
    """The annotations of ``names`` (in order) over one corpus's sentences."""

    corpus: Corpus
    names: List[str]
    covered: Optional[np.ndarray] = None    # (annotators, sentences) bool: who annotated which sentence

    def __post_init__(self) -> None:
        if len(self.names) != 1 + len(self.corpus.systems):
            raise ValueError(f"{len(self.names)} names for {1 + len(self.corpus.systems)} annotations")
        if len(set(self.names)) != len(self.names):
            dup = next(n for n in self.names if self.names.count(n) > 1)
            raise OptionError(f"the annotator name {dup!r} is given twice; expected each annotator once")
        if self.covered is not None:
            self.covered = np.asarray(self.covered, bool)
            if self.covered.shape != (len(self.names), self.corpus.n_sentences):
                raise ValueError(f"covered has shape {self.covered.shape}, expected "
                                 f"({len(self.names)}, {self.corpus.n_sentences})")
            if self.covered.all():
                self.covered = None

    @property
    def m(self) -> int:
        return len(self.names)

    @property
    def spans(self) -> List[SpanSet]:
        """Each annotator's spans (without conlleval's chunk events: exact means same tokens and label)."""
        sides = [self.corpus.gold] + list(self.corpus.systems.values())
        return [SpanSet(s.start, s.last, s.label) for s in sides]

    @property
    def infos(self) -> List[SideInfo]:
        c = self.corpus
        return [c.gold_info] + [c.system_info[n] for n in c.systems if n in c.system_info]

    def coverage(self) -> np.ndarray:
        """(annotators, sentences) bool: who annotated which sentence."""
        if self.covered is None:
            return np.ones((self.m, self.corpus.n_sentences), bool)
        return self.covered

    def complete(self) -> np.ndarray:
        """Per sentence: did every annotator annotate it?"""
        return np.asarray(self.coverage().all(0))


def from_corpus(corpus: Corpus, names: Optional[Sequence[str]] = None,
                covered: Optional[np.ndarray] = None) -> Annotations:
    """The annotations of a corpus read as gold + systems: gold is the first annotator (named
    ``names[0]``, default its side's name), the systems the others in their order."""
    if names is None:
        names = [corpus.gold_info.name or "gold"] + list(corpus.systems)
    return Annotations(corpus, list(names), covered)


SpanLists = Sequence[Optional[Sequence[Tuple[str, int, int]]]]


def from_span_lists(annotations: Mapping[str, SpanLists], lengths: Sequence[int]) -> Annotations:
    """Annotations from ``{name: per sentence a list of (label, start, end)}`` (end exclusive, as
    :func:`ts_eval.core.sequences.from_spans` takes them); a sentence given as None was not annotated by that
    annotator (Krippendorff's alpha counts it as missing; the other figures use the sentences
    every annotator annotated)."""
    items = list(annotations.items())
    if len(items) < 2:
        raise OptionError(f"agreement needs at least two annotators, got {len(items)}")
    lens = np.asarray(lengths, np.int64)
    covered = np.ones((len(items), len(lens)), bool)
    cleaned: Dict[str, List[Sequence[Tuple[str, int, int]]]] = {}
    for k, (name, sents) in enumerate(items):
        sents = list(sents)
        if len(sents) != len(lens):
            raise InputError(f"{name}: {len(sents)} sentences of spans, expected {len(lens)}")
        covered[k] = [s is not None for s in sents]
        cleaned[str(name)] = [[] if s is None else s for s in sents]
    names = list(cleaned)
    rest = {f"a{k}": (n, cleaned[n]) for k, n in enumerate(names[1:], 1)}
    corpus = spans_corpus(lens.tolist(), names[0], cleaned[names[0]], rest)
    corpus = dataclasses.replace(corpus, systems={n: corpus.systems[f"a{k}"] for k, n in enumerate(names[1:], 1)},
                                 system_info={n: dataclasses.replace(corpus.system_info[f"a{k}"], name=n)
                                              for k, n in enumerate(names[1:], 1)},
                                 gold_info=dataclasses.replace(corpus.gold_info, name=names[0]))
    return Annotations(corpus, names, covered)
