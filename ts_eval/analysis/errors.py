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
outcomes, vectorised over the corpus; 28 systems of CoNLL-2003's test set take well under a
second (``scripts/gold_suspects_conll2003.py`` measures it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus, SpanSet
from ..core.matching import ThresholdLike, meets, parse_threshold
from ..errors import OptionError
from ..fair.algorithm import fair_errors
from ..fair.types import OUTCOME_NAMES
from ..models.context import CorpusData
from ..results.display import Displayed, listing
from ..results.vocabulary import layout
from .errors_documents import DocumentScores, document_scores
from .errors_lists import ErrorGroup, Events, error_events, group, type_counts
from .errors_match import MATCHINGS, Confusion, best_counterparts, confusion
from .errors_suspects import (
    Suspects,
    check_min_agree,
    label_inconsistencies,
    rank_suspects,
    system_suspects,
    unannotated_inconsistencies,
)
from .errors_text import Texts, example, focus, gold_where, side_where
from .gold_suspects import WINDOW


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


def _rows(ev: Events, corpus: Corpus, gsid: np.ndarray, ssid: np.ndarray, ss: SpanSet) -> Dict[str, np.ndarray]:
    """One system's error events as the grouping's key columns, with each event's first token."""
    g, s = ev.gold, ev.system
    hg, hs = g >= 0, s >= 0
    gold = corpus.gold
    gi, si = np.maximum(g, 0), np.maximum(s, 0)
    first = np.where(hg, gold.start[gi] if len(gold) else 0, np.iinfo(np.int64).max)
    if len(ss):
        first = np.minimum(first, np.where(hs, ss.start[si], np.iinfo(np.int64).max))
    return {"code": ev.code,
            "glab": np.where(hg, gold.label[gi] if len(gold) else -1, -1).astype(np.int64),
            "gsid": np.where(hg, gsid[gi] if len(gsid) else -1, -1).astype(np.int64),
            "slab": np.where(hs, ss.label[si] if len(ss) else -1, -1).astype(np.int64),
            "ssid": np.where(hs, ssid[si] if len(ssid) else -1, -1).astype(np.int64),
            "first": first, "g": g, "s": s}


KEYS = ("code", "glab", "gsid", "slab", "ssid")


def _groups(corpus: Corpus, rows: Dict[str, np.ndarray], owner: np.ndarray, names: List[str],
            strings: List[str], top: Optional[int], pooled: bool, window: int) -> Tuple[List[ErrorGroup], int]:
    """The ranked error groups (with examples) of some rows, and how many groups there are."""
    rank = np.argsort(np.argsort(np.array(names, dtype=object))) if names else np.zeros(0, np.int64)
    gr = group([rows[k] for k in KEYS], rows["first"], rank[owner] if len(owner) else owner, owner, top)
    gold, labels = corpus.gold, corpus.labels
    out: List[ErrorGroup] = []
    for r, cnt, n_sys in zip(gr.rows.tolist(), gr.count.tolist(), gr.systems.tolist()):
        name = names[int(owner[r])]
        ss = corpus.systems[name]
        g, s = int(rows["g"][r]), int(rows["s"][r])
        gspan = (int(gold.start[g]), int(gold.last[g])) if g >= 0 else (-1, -1)
        sspan = (int(ss.start[s]), int(ss.last[s])) if s >= 0 else (-1, -1)
        a, b = focus(gspan, sspan)
        code = OUTCOME_NAMES[int(rows["code"][r])]
        ex = example(corpus, {"gold": gold, "system": ss},
                     {"gold": gold_where(corpus, a), "system": side_where(corpus, name, a)},
                     code, f"gold → {name}", a, b, window)
        out.append(ErrorGroup(code, labels[int(rows["glab"][r])] if g >= 0 else None,
                              strings[int(rows["gsid"][r])] if g >= 0 else None,
                              labels[int(rows["slab"][r])] if s >= 0 else None,
                              strings[int(rows["ssid"][r])] if s >= 0 else None,
                              int(cnt), int(n_sys) if pooled else None, ex))
    return out, gr.total


def _kept(pairs: Any, threshold: Any) -> Any:
    """The matcher's pairs that meet ``threshold`` (None: all of them)."""
    return pairs.take(meets(pairs, threshold)) if threshold is not None else pairs


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
    threshold = parse_threshold(min_overlap)
    names = _check(corpus, systems, top, window)
    agree = check_min_agree(min_agree, len(names))
    cd = CorpusData(corpus)
    texts = Texts(corpus)
    gold = corpus.gold
    # every span's string once: gold first, then each system's spans
    starts = [gold.start] + [corpus.systems[n].start for n in names]
    lasts = [gold.last] + [corpus.systems[n].last for n in names]
    sid, strings = texts.strings(np.concatenate(starts), np.concatenate(lasts))
    cuts = np.cumsum([0] + [len(x) for x in starts])
    gsid = sid[:cuts[1]]
    pairs, best, per, all_rows, owners = {}, {}, [], [], []
    for k, name in enumerate(names):
        ss = corpus.systems[name]
        every = cd.system(name).pairs
        p = _kept(every, threshold)
        pairs[name] = p
        conf = {}
        for m in MATCHINGS:
            b = best_counterparts(p, len(gold), ss, m)
            conf[m] = confusion(gold, ss, p, corpus.labels, m, best=b)
            if m == "overlap":
                best[name] = b
        ev = error_events(fair_errors(gold, ss, every, corpus.labels, corpus).span_outcomes)
        rows = _rows(ev, corpus, gsid, sid[cuts[k + 1]:cuts[k + 2]], ss)
        own = np.full(len(ev), k, np.int64)
        errs, distinct = _groups(corpus, rows, own, names, strings, top, False, window)
        per.append(SystemErrors(name, conf, type_counts(ev), distinct, errs))
        all_rows.append(rows)
        owners.append(own)
    pooled = None
    if len(names) > 1:
        rows = {k: np.concatenate([r[k] for r in all_rows]) for k in all_rows[0]}
        errs, distinct = _groups(corpus, rows, np.concatenate(owners), names, strings, top, True, window)
        summed = {m: sum((x.confusion[m] for x in per[1:]), per[0].confusion[m]) for m in MATCHINGS}
        types = {t: sum(x.types[t] for x in per) for t in per[0].types}
        pooled = SystemErrors(None, summed, types, distinct, errs)
    found = system_suspects(corpus, names, pairs, best, agree)
    sus = Suspects(agree, len(found.kind), rank_suspects(corpus, texts, found, top, window))
    sus.label_total, sus.labels = label_inconsistencies(corpus, texts, top, window)
    sus.unannotated_total, sus.unannotated = unannotated_inconsistencies(corpus, texts, top, window)
    docs = document_scores(corpus, cd, names)
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
