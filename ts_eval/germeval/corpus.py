"""GermEval 2014 chunks as :class:`ts_eval.core.corpus.Corpus` views (twelve labels, both levels in one
span set, so that a unit inside a nested entity carries both labels), for the TS and fair models of
:mod:`.evaluate` and for ranking.

A system side of a corpus of several systems (:func:`systems_corpus`) is a :class:`GermEvalSide`: it
keeps the system's :class:`~.data.GermEvalData` and its chunks, and gives the per-sentence Metric 1
counts (:meth:`GermEvalSide.metric1_sentences`) that the ranking model ``germeval-m1``
(:mod:`ts_eval.models.germeval`) reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SideInfo, SpanSet
from ..errors import Hint, InputError, OptionError
from ..io.germeval import read_germeval_any
from ..io.germeval_data import LABELS, LEVELS, TAGS, GermEvalData, LevelChunks, level_chunks, sentence_bounded, union
from .counts import germeval_counts


def level_corpus(data: GermEvalData, chunks: Dict[Tuple[str, str], LevelChunks],
                 levels: Sequence[str] = LEVELS) -> Corpus:
    """A :class:`Corpus` (twelve labels) of gold and this system over the given levels.

    With both levels, gold and system each hold their outer and inner chunks in one
    span set, so a unit inside a nested entity carries both labels.
    """
    offsets = data.sent_offsets
    sides = {}
    for side in ("gold", "system"):
        sides[side] = union([sentence_bounded(chunks[(side, lv)], offsets) for lv in levels])
    gold_info = SideInfo("gold", data.gold_path, spans=len(sides["gold"]))
    sys_info = SideInfo(data.name, data.system_path, spans=len(sides["system"]))
    return Corpus(offsets, list(LABELS), sides["gold"], {data.name: sides["system"]}, gold_info,
                  {data.name: sys_info}, scheme="IOB2", policy=None, tokens=data.texts)


@dataclass
class GermEvalSide(SideInfo):
    """A system side of a GermEval corpus; ``germeval`` keeps the system's tags (both levels,
    with gold's) so that GermEval models compute their statistics from them, ``chunks``
    their decoding under the corpus's policy (:func:`level_chunks`, decoded once), and
    ``eof_quirk`` says whether those statistics follow the official scorer's end-of-input rule."""

    germeval: Optional[GermEvalData] = None
    chunks: Optional[Dict[Tuple[str, str], LevelChunks]] = None
    eof_quirk: bool = True

    def metric1_sentences(self, policy: str = "nereval") -> np.ndarray:
        """``(sentences, 3)``: per sentence the gold, found and correct chunks of Metric 1 (both levels
        pooled, each chunk filed under the sentence of its first token), as the official scorer counts
        them under ``policy`` (the corpus's) and this side's end-of-input rule."""
        if self.germeval is None:
            raise ValueError(f"side {self.name!r} has no GermEval tags")
        counts = germeval_counts(self.germeval, policy, self.eof_quirk, self.chunks)
        return counts.m1_sentences


def systems_corpus(datas: Sequence[GermEvalData], policy: str = "nereval", eof_quirk: bool = True) -> Corpus:
    """A :class:`Corpus` of several systems scored against the same gold (both levels, twelve labels).

    The caller has checked that the datas share their gold tags and sentences; the gold
    span set is the first one's.  Each system side is a :class:`GermEvalSide`.
    """
    systems: Dict[str, SpanSet] = {}
    infos: Dict[str, SideInfo] = {}
    gold_set: Optional[SpanSet] = None
    for d in datas:
        chunks = level_chunks(d, policy)
        corpus1 = level_corpus(d, chunks)
        gold_set = corpus1.gold if gold_set is None else gold_set
        systems[d.name] = corpus1.systems[d.name]
        infos[d.name] = GermEvalSide(d.name, d.system_path, spans=len(systems[d.name]), germeval=d,
                                     chunks=chunks, eof_quirk=eof_quirk)
    first = datas[0]
    if gold_set is None:
        raise ValueError("no system given")
    gold_info = SideInfo("gold", first.gold_path, spans=len(gold_set))
    return Corpus(first.sent_offsets, list(LABELS), gold_set, systems, gold_info, infos, scheme="IOB2",
                  policy=policy, tokens=first.texts)


def germeval_corpus(gold_path: Optional[str], system_paths: Sequence[str], *, names: Optional[Sequence[str]] = None,
                    policy: str = "nereval", eof_quirk: bool = True) -> Corpus:
    """A :class:`Corpus` of several systems in GermEval layout (both levels, twelve labels).

    ``gold_path`` None: every system file is a 6-column file and all must carry the same
    gold tags and tokens.  Otherwise each system file (4 or 6 columns) is read against
    the gold file.  Each system side is a :class:`ts_eval.germeval.corpus.GermEvalSide`
    that keeps the system's :class:`GermEvalData`, from which the GermEval ranking model
    (Metric 1, :mod:`ts_eval.models.germeval`) takes its statistics.
    """
    if not system_paths:
        raise OptionError("no system file given")
    if names is not None and len(names) != len(system_paths):
        raise OptionError(f"{len(names)} names for {len(system_paths)} system files")
    datas = [read_germeval_any(gold_path or p, p if gold_path else None, name=names[k] if names else None,
                               policy=policy)
             for k, p in enumerate(system_paths)]
    _check_same_gold(datas)
    return systems_corpus(datas, policy, eof_quirk)


def _check_same_gold(datas: List[GermEvalData]) -> None:
    """Unique system names; every system read against the same sentences and gold tags as the first."""
    first = datas[0]
    seen = set()
    for d in datas:
        if d.name in seen or d.name == "gold":
            raise OptionError([f"system name {d.name!r} is used twice (or is 'gold'); give unique ", Hint("names")])
        seen.add(d.name)
        if d is first:
            continue
        if d.n_tokens != first.n_tokens or not np.array_equal(d.sent_first, first.sent_first):
            raise InputError(f"{d.n_tokens} tokens / {d.n_sentences} sentences, but {first.system_path} has "
                             f"{first.n_tokens} / {first.n_sentences}: the files are not about the same text",
                             d.system_path)
        diff = np.nonzero(d.tags[:2] != first.tags[:2])
        if len(diff[0]):
            t = int(diff[1].min())
            r = int(diff[0][diff[1] == t][0])
            path, line = d.where(r, t)
            raise InputError(f"gold {LEVELS[r]} tag {TAGS[d.tags[r, t]]!r} differs from "
                             f"{TAGS[first.tags[r, t]]!r} in {first.gold_path} line {int(first.gold_lines[t])}: "
                             "all systems must be scored against the same gold", path, line)
