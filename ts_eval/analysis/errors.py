"""Errors a person can read (issue 19.5): :func:`error_analysis`.

For every system, against gold:

- the **span-level confusion matrix**, gold label x system label with a ``missed`` column and a
  ``spurious`` row, under exact and under overlap matching (each gold span counted once, in the
  cell of its best counterpart: :mod:`.errors_match` states the rule);
- its **most frequent errors**, grouped by error type (Ortmann's fair types: FN missed, FP
  spurious, LE wrong label, BES/BEL/BEO wrong boundary, LBE both), gold string and label, system
  string and label, each with its first occurrence as an example (:mod:`.errors_lists`);
- **per-document scores** under exact match and TS, with their counts (:mod:`.errors_documents`).

Over all the systems: the confusion matrices summed and the errors pooled (with how many
systems make each), and the **gold suspects** -- gold spans that a clear majority of the systems
reject in the same way, spans they agree gold lacks, and strings gold labels inconsistently
(:mod:`.errors_suspects`).

A system's own numbers depend only on gold and that system; nothing depends on the order in which
the systems are given.  Everything is read from the shared matcher's pairs and Ortmann's
outcomes, vectorised over a block of sentences at a time (:class:`.errors_blocks.ErrorCounts`: the
pairs, events and strings of one block exist at once; :func:`error_result` then makes the examples of
the listed errors and suspects from what it kept, :mod:`.errors_kept`).  A caller that reads the corpus in
blocks (each a corpus of its own, as a reader gives them) calls :func:`error_counts`, then
``counts.add(block)`` for each block in order, then :func:`error_result`; :func:`error_analysis` does that
with the blocks of a corpus read whole.  28 systems of CoNLL-2003's test set take well under a second
(``scripts/gold_suspects_conll2003.py`` measures it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import ThresholdLike, parse_threshold
from ..errors import OptionError
from ..fair.types import OUTCOME_NAMES
from ..results.display import Displayed, listing
from ..results.vocabulary import layout
from .corpus_blocks import can_cut, sentence_blocks
from .errors_blocks import ErrorCounts
from .errors_documents import DocumentScores
from .errors_documents import sentence_documents as sentence_documents  # (tests number the documents with it)
from .errors_lists import ErrorGroup
from .errors_match import MATCHINGS, Confusion
from .errors_suspects import (
    Suspects,
    check_min_agree,
    label_inconsistencies,
    rank_suspects,
    unannotated_inconsistencies,
)
from .errors_text import WINDOW, Shifted, Texts, example, focus, gold_where, side_where


@dataclass
class SystemErrors:
    """One system's confusion matrices, error counts and most frequent errors (``by_systems`` None);
    or the same over all the systems (``name`` None: matrices summed, errors pooled)."""

    name: Optional[str]
    confusion: Dict[str, Confusion]
    types: Dict[str, int]           # errors per fair type (its fair counts), ``be`` = bes + bel + beo
    distinct: int                   # distinct errors (groups)
    errors: List[ErrorGroup]

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"name": self.name} if self.name is not None else {}
        d.update({"matching": {m: c.to_dict() for m, c in self.confusion.items()}, "types": dict(self.types),
                  "distinct": self.distinct, "errors": [e.to_dict() for e in self.errors]})
        return d


@dataclass
class ErrorAnalysis(Displayed):
    """What :func:`error_analysis` finds; ``to_dict()`` is its JSON (layout ``errors``; made to be
    the ``errors`` part of the fine-grained analysis's JSON)."""

    settings: Dict[str, Any]
    corpus: Dict[str, Any]
    systems: List[SystemErrors]
    pooled: Optional[SystemErrors]      # several systems: all of them together
    documents: DocumentScores
    suspects: Suspects
    notes: List[str] = field(default_factory=list)

    summary_sections = 2

    def to_dict(self) -> Dict[str, Any]:
        s = self.suspects
        return {"layout": layout("errors"), "settings": dict(self.settings), "corpus": dict(self.corpus),
                "notes": list(self.notes), "systems": [x.to_dict() for x in self.systems],
                "pooled": self.pooled.to_dict() if self.pooled is not None else None,
                "documents": self.documents.to_dict(),
                "suspects": {"min_agree": s.min_agree, "count": s.total, "spans": [x.to_dict() for x in s.suspects]},
                "inconsistent": {"label": {"count": s.label_total, "strings": [x.to_dict() for x in s.labels]},
                                 "unannotated": {"count": s.unannotated_total,
                                                 "strings": [x.to_dict() for x in s.unannotated]}}}

    def __repr__(self) -> str:
        head = (f"<ErrorAnalysis: {len(self.systems)} systems, {self.corpus.get('gold_spans')} gold spans, "
                f"{self.suspects.total} gold suspects; errors per system (exact-match diagonal)>")
        return listing(head, (f"{x.name}: {sum(x.types.values()) - x.types['be']} errors, "
                              f"{x.confusion['exact'].diagonal} exact hits" for x in self.systems))


def _check(corpus: Corpus, systems: Optional[Sequence[str]], top: Optional[int], window: int) -> List[str]:
    names = list(corpus.systems) if systems is None else list(systems)
    if not names:
        raise OptionError("no system to analyse; the corpus has none" if not corpus.systems else
                          "no system given", option="systems")
    unknown = [n for n in names if n not in corpus.systems]
    if unknown:
        raise OptionError(f"{', '.join(map(repr, unknown))} not in the corpus; its systems are "
                          f"{', '.join(corpus.systems)}", option="systems")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise OptionError(f"{', '.join(map(repr, twice))} given twice; expected each system once", option="systems")
    if top is not None and (isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1):
        raise OptionError("expected a whole number, at least 1 (or None: all)", option="top", value=top)
    if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 0:
        raise OptionError("expected a whole number of tokens, at least 0", option="window", value=window)
    return names


def _group(corpus: Corpus, key: Any, count: int, by_systems: Optional[int], name: str, g: int, s: int,
           window: int) -> ErrorGroup:
    """An error group with its example (its first occurrence: system ``name``'s span ``s`` against gold span
    ``g``, -1: none)."""
    code_id, glab, gtext, slab, stext = key
    gold, labels = corpus.gold, corpus.labels
    ss = corpus.systems[name]
    gspan = (int(gold.start[g]), int(gold.last[g])) if g >= 0 else (-1, -1)
    sspan = (int(ss.start[s]), int(ss.last[s])) if s >= 0 else (-1, -1)
    a, b = focus(gspan, sspan)
    code = OUTCOME_NAMES[int(code_id)]
    ex = example(corpus, {"gold": gold, "system": ss},
                 {"gold": gold_where(corpus, a), "system": side_where(corpus, name, a)},
                 code, f"gold → {name}", a, b, window)
    return ErrorGroup(code, labels[glab] if g >= 0 else None, gtext if g >= 0 else None,
                      labels[slab] if s >= 0 else None, stext if s >= 0 else None, int(count), by_systems, ex)


def error_analysis(corpus: Corpus, *, systems: Optional[Sequence[str]] = None, top: Optional[int] = 20,
                   min_agree: Optional[int] = None, window: int = WINDOW,
                   min_overlap: ThresholdLike = None) -> ErrorAnalysis:
    """Confusion matrices, the most frequent errors, per-document scores and gold suspects of the
    corpus's systems (``systems``: some of them, by name; default all).

    ``top``: how many errors per list, suspects and inconsistent strings (None: all);
    ``min_agree``: how many systems must agree against gold for a gold suspect (default: a clear
    majority, more than half of the systems and at least 3); ``window``: tokens shown on each side
    of an example's span; ``min_overlap``: the matcher's threshold (``"iou:0.5"``, ``"gold:0.5"``, ...,
    :mod:`ts_eval.core.matching`): under overlap matching a system span is a gold span's candidate
    only when the pair overlaps that much (exact pairs meet every threshold; the fair error types
    read every overlap, as in ``score``).

    >>> from ts_eval.analysis.errors import error_analysis
    >>> from ts_eval.core.sequences import from_spans
    >>> c = from_spans([3], [[("PER", 0, 1), ("PER", 2, 3)]], {"s": [[("PER", 0, 1), ("LOC", 2, 3)]]})
    >>> error_analysis(c).systems[0].confusion["exact"].matrix()["PER"]
    {'LOC': 1, 'PER': 1, 'missed': 0}
    """
    counts = error_counts(corpus, systems=systems, top=top, min_agree=min_agree, window=window,
                          min_overlap=min_overlap)
    whole = Texts(corpus).tokens        # decoded once (and shared with the attributes), cut for each block
    for block in sentence_blocks(corpus, counts.names, can_cut(corpus, counts.names, [""])):
        b = block.corpus
        t0 = int(corpus.sent_offsets[block.first_sentence])
        counts.add(b, tokens=None if whole is None or b.tokens is None else Shifted(whole, t0, b.n_tokens))
    return error_result(counts)


@dataclass(frozen=True)
class ErrorOptions:
    """The error analysis asked of ``analyze``'s one pass over the blocks
    (:func:`ts_eval.analysis.study.analyze_blocks`): its options, its counts made from the first block, its result
    from the counts of every block."""

    top: Optional[int] = 20
    min_agree: Optional[int] = None

    def counts(self, first: Corpus, systems: Sequence[str]) -> ErrorCounts:
        return error_counts(first, systems=systems, top=self.top, min_agree=self.min_agree)

    @staticmethod
    def result(counts: ErrorCounts) -> ErrorAnalysis:
        return error_result(counts)


def error_counts(corpus: Corpus, *, systems: Optional[Sequence[str]] = None, top: Optional[int] = 20,
                 min_agree: Optional[int] = None, window: int = WINDOW,
                 min_overlap: ThresholdLike = None) -> ErrorCounts:
    """The error analysis to be fed a corpus's blocks in order (:meth:`ErrorCounts.add`, each block a corpus of its
    own as a reader gives it), and then made by :func:`error_result`; the options are :func:`error_analysis`'s,
    checked against ``corpus``'s systems (the corpus or any block of it)."""
    threshold = parse_threshold(min_overlap)
    names = _check(corpus, systems, top, window)
    return ErrorCounts(names, agree=check_min_agree(min_agree, len(names)), top=top, threshold=threshold,
                       window=window)


def error_result(counts: ErrorCounts) -> ErrorAnalysis:
    """The analysis of ``counts`` (every block of a corpus added, in order): the ranked lists with their examples,
    and the strings gold labels inconsistently, read from what ``counts`` kept of the blocks."""
    window = WINDOW if counts.window is None else counts.window
    names, top, agree, threshold = counts.names, counts.top, counts.agree, counts.threshold
    corpus, tokens, _ = counts.kept.corpus()
    texts = Texts(corpus, tokens)
    gold = corpus.gold
    per = []
    for k, name in enumerate(names):
        kept, distinct = counts.ranked_groups(k)
        errs = [_group(corpus, key, v[0], None, name, v[2], v[3], window) for key, v in kept]
        per.append(SystemErrors(name, counts.confusion(k), counts.types[k], distinct, errs))
    pooled = None
    if len(names) > 1:
        kept, distinct = counts.ranked_groups(None)
        errs = [_group(corpus, key, v[0], len(v[6]), names[v[3]], v[4], v[5], window) for key, v in kept]
        summed = {m: sum((x.confusion[m] for x in per[1:]), per[0].confusion[m]) for m in MATCHINGS}
        types = {t: sum(x.types[t] for x in per) for t in per[0].types}
        pooled = SystemErrors(None, summed, types, distinct, errs)
    sus = Suspects(agree, counts.suspect_total, rank_suspects(corpus, texts, counts.found_suspects(), top, window))
    sus.label_total, sus.labels = label_inconsistencies(corpus, texts, top, window)
    sus.unannotated_total, sus.unannotated = unannotated_inconsistencies(corpus, texts, top, window)
    docs = counts.documents()
    notes = []
    if len(names) < agree:
        notes.append(f"{len(names)} system(s): no gold span can have {agree} systems agreeing against it "
                     f"(min_agree {agree})")
    if not texts.available:
        notes.append("the input has no token texts: errors are grouped by type and label only, and strings "
                     "labelled inconsistently in gold cannot be found")
    settings = {"systems": names, "top": top, "min_agree": agree, "window": window, "matchings": list(MATCHINGS),
                "min_overlap": None if threshold is None else str(threshold),
                "scheme": corpus.scheme}
    info = {"tokens": corpus.n_tokens, "sentences": corpus.n_sentences, "documents": len(docs.sentences),
            "gold_spans": len(gold), "labels": list(corpus.labels), "gold": corpus.gold_info.path}
    return ErrorAnalysis(settings, info, per, pooled, docs, sus, notes)
