"""Tallies: what one model counts for one system over a run of sentences, made so that the tallies of
two runs add up to the tally of both.

Every number ``score`` reports is a function of sums over sentences.  A :class:`Tally` holds one
model's sums as named arrays (its summed statistics, and the figures of its ``extras``); some of their
axes are indexed by label, and a *layout* says which (one letter per axis):

``L``  the labels;
``O``  an outside slot first, then the labels (the TS confusion matrix, SemEval's overall row);
``M``  the labels, then a missing slot last (the fair confusion matrix's ``_``);
``.``  anything else (the fields of a count table).

Two runs of sentences may have seen different labels, so tallies are added after both are *relabelled*
onto the union of their labels (:meth:`Tally.relabel`).  How an array adds is its *merge*: ``sum``, or
``first:N`` (the first position of something, counted from the run's start: the left run's value if it
has one, else the right run's plus the left run's ``N``; -1 means none).  Adding is the concatenation of
runs: ``a + b`` are the counts of ``a``'s sentences followed by ``b``'s.

:class:`SideTally` and :class:`CorpusTally` are the same for what a report says about each side (spans,
repairs, nested spans ...) and about the corpus (tokens, sentences, documents ...).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, merge_reading

#: array name -> (axes, merge); see the module docstring
Layout = Mapping[str, Tuple[str, str]]
#: the layout of a model's summed statistics in its tally: the columns of the sentence as a whole, then those
#: of each label (:attr:`~ts_eval.models.registry.ModelSpec.columns`)
SUMS: Layout = {"whole": (".", "sum"), "labels": ("L.", "sum")}


def _label_index(axis: str, where: np.ndarray, old: int, new: int) -> Tuple[np.ndarray, int]:
    """(positions of the old axis in the new one, new axis length) of one label axis."""
    if axis == "L":
        return where, new
    if axis == "O":
        return np.concatenate(([0], where + 1)), new + 1
    if axis == "M":
        return np.concatenate((where, [new])), new + 1
    raise ValueError(f"unknown axis {axis!r}")


class Tally:
    """One model's counts of one system over a run of sentences (see the module docstring)."""

    __slots__ = ("layout", "values")

    def __init__(self, values: Dict[str, np.ndarray], layout: Layout):
        missing = set(layout) ^ set(values)
        if missing:
            raise ValueError(f"tally arrays and layout differ: {', '.join(sorted(missing))}")
        self.values = values
        self.layout = layout

    def __getitem__(self, name: str) -> np.ndarray:
        return self.values[name]

    def __getstate__(self) -> Tuple[Dict[str, np.ndarray], Dict[str, Tuple[str, str]]]:
        return self.values, dict(self.layout)

    def __setstate__(self, state: Tuple[Dict[str, np.ndarray], Dict[str, Tuple[str, str]]]) -> None:
        self.values, self.layout = state

    def __repr__(self) -> str:
        return "Tally(" + ", ".join(f"{k}{tuple(v.shape)}" for k, v in self.values.items()) + ")"

    @property
    def sums(self) -> np.ndarray:
        """The model's summed statistics as one row (its ``whole`` and ``labels`` arrays, :data:`SUMS`, in
        the columns' order)."""
        return np.concatenate((self.values["whole"], self.values["labels"].reshape(-1)))

    def joined(self, other: Tally) -> Tally:
        """These arrays and ``other``'s in one tally."""
        return Tally({**self.values, **other.values}, {**self.layout, **other.layout})

    def relabel(self, where: np.ndarray, n_labels: int) -> Tally:
        """The same counts over ``n_labels`` labels, old label ``k`` at ``where[k]`` (labels not seen: 0,
        or -1 for a ``first`` merge)."""
        out = {}
        for name, (axes, merge) in self.layout.items():
            value = self.values[name]
            if not any(a in "LOM" for a in axes):
                out[name] = value
                continue
            index, shape = [], []
            for k, axis in enumerate(axes):
                if axis == ".":
                    index.append(np.arange(value.shape[k]))
                    shape.append(value.shape[k])
                else:
                    pos, size = _label_index(axis, where, value.shape[k], n_labels)
                    index.append(pos)
                    shape.append(size)
            new = np.full(shape, -1 if merge.startswith("first") else 0, value.dtype)
            new[np.ix_(*index)] = value
            out[name] = new
        return Tally(out, self.layout)

    def __add__(self, other: Tally) -> Tally:
        """The tally of this run followed by ``other`` (both over the same labels)."""
        if not isinstance(other, Tally):
            return NotImplemented
        out = {}
        for name, (_, merge) in self.layout.items():
            a, b = self.values[name], other.values[name]
            if merge == "sum":
                out[name] = a + b
            elif merge.startswith("first:"):
                shift = self.values[merge[len("first:"):]]
                out[name] = np.where(a >= 0, a, np.where(b >= 0, b + shift, -1))
            else:
                raise ValueError(f"unknown merge {merge!r}")
        return Tally(out, self.layout)


def _first(a: Optional[int], b: Optional[int]) -> Optional[int]:
    return a if a is not None else b


@dataclass(frozen=True)
class SideTally:
    """What a report says about one side (gold or a system) over a run of sentences: where it came from
    and what reading it found (:meth:`ts_eval.core.corpus.SideInfo.summary`)."""

    name: str
    path: Optional[str] = None
    column: Optional[int] = None
    spans: int = 0
    repairs: int = 0
    discarded: int = 0
    unmapped: int = 0
    merged: int = 0
    first_repair_line: Optional[int] = None
    nested: int = 0
    crossing: int = 0
    reading: Optional[Dict[str, Any]] = None
    #: the side's tags were read from a column file (conlleval's token accuracy compares them)
    tags: bool = False

    @classmethod
    def of(cls, info: SideInfo) -> SideTally:
        shape = info.shape or {}
        return cls(info.name, info.path, info.column, info.spans, info.repairs, info.discarded, info.unmapped,
                   info.merged, info.first_repair_line, int(shape.get("nested", 0)), int(shape.get("crossing", 0)),
                   dict(info.reading) if info.reading is not None else None, info.tags is not None)

    def __add__(self, other: SideTally) -> SideTally:
        if not isinstance(other, SideTally):
            return NotImplemented
        for f in ("name", "path", "column", "tags"):
            if getattr(self, f) != getattr(other, f):
                raise ValueError(f"parts of different inputs: {self.name} {f} {getattr(self, f)!r} and "
                                 f"{getattr(other, f)!r}")
        return replace(self, spans=self.spans + other.spans, repairs=self.repairs + other.repairs,
                       discarded=self.discarded + other.discarded, unmapped=self.unmapped + other.unmapped,
                       merged=self.merged + other.merged,
                       first_repair_line=_first(self.first_repair_line, other.first_repair_line),
                       nested=self.nested + other.nested, crossing=self.crossing + other.crossing,
                       reading=merge_reading(self.reading, other.reading))

    def after_lines(self, lines: int) -> SideTally:
        """The same tally with its line numbers ``lines`` further on (a part read as if it began the file,
        placed after ``lines`` lines)."""
        if self.first_repair_line is None:
            return self
        return replace(self, first_repair_line=self.first_repair_line + lines)

    @property
    def shape(self) -> Dict[str, int]:
        return {"nested": self.nested, "crossing": self.crossing}

    def summary(self) -> Dict[str, Any]:
        """As :meth:`ts_eval.core.corpus.SideInfo.summary` gives it for the whole input."""
        return {"name": self.name, "path": self.path, "column": self.column, "spans": self.spans,
                "repairs": self.repairs, "discarded": self.discarded, "unmapped": self.unmapped,
                "merged": self.merged, "first_repair_line": self.first_repair_line, **self.shape,
                **({"reading": self.reading} if self.reading is not None else {})}


@dataclass(frozen=True)
class CorpusTally:
    """What a report says about the corpus, over a run of sentences."""

    tokens: int = 0
    sentences: int = 0
    doc_starts: int = 0             # tokens that open a document (the first after a -DOCSTART- line)
    opens_document: Optional[bool] = None   # the run's first token opens a document (None: no tokens)
    docstart_lines: int = 0
    boundary_lines: int = 0

    @classmethod
    def of(cls, corpus: Corpus) -> CorpusTally:
        starts, opens = 0, None
        if corpus.n_tokens:
            opens = bool(corpus.opens_document)
        if corpus.doc_offsets is not None:
            starts = len(corpus.doc_offsets) - 1 - (0 if corpus.opens_document else 1)
        return cls(corpus.n_tokens, corpus.n_sentences, starts, opens, corpus.docstart_lines, corpus.boundary_lines)

    def __add__(self, other: CorpusTally) -> CorpusTally:
        if not isinstance(other, CorpusTally):
            return NotImplemented
        return CorpusTally(self.tokens + other.tokens, self.sentences + other.sentences,
                           self.doc_starts + other.doc_starts,
                           self.opens_document if self.opens_document is not None else other.opens_document,
                           self.docstart_lines + other.docstart_lines, self.boundary_lines + other.boundary_lines)

    @property
    def separators(self) -> int:
        return self.tokens - self.sentences if self.tokens else 0

    @property
    def documents(self) -> Optional[int]:
        """Documents as the column readers count them: none without -DOCSTART- lines; tokens before the
        first -DOCSTART- line are a document of their own."""
        if not self.doc_starts:
            return None
        return self.doc_starts + (0 if self.opens_document else 1)

    def info(self, labels: Sequence[str]) -> Dict[str, Any]:
        """The report's ``corpus`` entry."""
        return {"tokens": self.tokens, "sentences": self.sentences, "separators": self.separators,
                "documents": self.documents, "docstart_lines": self.docstart_lines,
                "boundary_lines": self.boundary_lines, "labels": list(labels)}


@dataclass(frozen=True)
class Totals:
    """What a model's result reads besides its own tally: the labels, the settings, the corpus and the
    two sides it compares (all over the whole corpus)."""

    labels: Sequence[str]
    settings: Any                  # ScoreSettings (models.context)
    corpus: CorpusTally
    gold: SideTally
    system: SideTally

    @classmethod
    def of(cls, sd: Any, settings: Any) -> Totals:
        """The totals of one system of one corpus (``sd``: a :class:`~ts_eval.models.context.SystemData`)."""
        corpus = sd.cd.corpus
        return cls(list(corpus.labels), settings, CorpusTally.of(corpus), SideTally.of(corpus.gold_info),
                   SideTally.of(corpus.system_info[sd.name]))


def over_labels(per: np.ndarray) -> Tuple[np.ndarray, ...]:
    """Each statistic of ``per`` (..., labels, k) summed over its labels: k arrays (...).  Fewer than 8
    labels are added one after another either way (numpy adds 8 or more pairwise along an axis), so their
    sum along the labels' axis, a pass over contiguous rows, gives the same numbers as each statistic's
    strided sum."""
    if per.shape[-2] < 8:
        total = per.sum(-2)
        return tuple(total[..., i] for i in range(per.shape[-1]))
    return tuple(per[..., i].sum(-1) for i in range(per.shape[-1]))
