"""The error analysis counted a block of sentences at a time (issue 32): :class:`ErrorCounts`.

The blocks are those a reader gives (or a corpus read whole cut into such blocks): each a corpus of its own,
tokens, sentences and spans numbered from 0, with its own sorted ``labels`` (a later block may bring a label that
sorts before the others), ``doc_offsets`` and token texts.  :meth:`ErrorCounts.add` takes them in order and keeps
where each starts (tokens, sentences, spans of every side) and the labels in the order they came (a block's label
ids are mapped to these as it is read; the sorted union is the order of every output).  Every figure of
:func:`ts_eval.analysis.errors.error_analysis` but the examples and the strings gold labels inconsistently is a sum
over sentences or a ranking of such sums, so the matcher's pairs, the fair error events and the spans' strings
exist for one block only.  What is kept between blocks:

- per system and matching the confusion matrix, and the errors per type (running sums);
- per system, and pooled over the systems, every distinct error group (its type, gold label and string,
  system label and string) with its count and its first occurrence (the token, the system, the gold and
  system span), as arrays (:class:`ts_eval.analysis.errors_groups.GroupTable`: the key 20 bytes of int32, the
  strings numbered in one table of distinct strings, the values int32 while they fit; no Python object a group;
  the systems making a pooled group are those whose groups have its key): this grows with the distinct errors,
  not the tokens;
- the gold suspects: their number, and the first ``top`` in their ranking order (the ranking key of a
  suspect is known when its sentence is read);
- per document its sentences, tokens, gold spans, first line and every system's exact-match and TS
  statistics (summed over its sentences; a document that runs on into the next block adds up);
- the words, sentences, spans and lines the examples and the inconsistency finders read at the end, in the fewest
  bytes (:class:`ts_eval.analysis.errors_kept.Kept`: 2 bytes a token, 4 a sentence, 6 a span, 8 a run of lines).

:func:`ts_eval.analysis.errors.error_result` then builds the examples of the kept groups and suspects (a window of
their sentence: ``top`` per list, not one per group) and the inconsistent gold strings from what is kept.  Fed
the blocks of a corpus in order, down to one sentence a block, the result is the analysis of the corpus read
whole, byte for byte: within a block rows are in the whole corpus's order, everything that ties (a group's first
occurrence, a suspect's ranking key) lies within one sentence, so within one block, and labels are compared by
their place among the sorted labels.
"""
from __future__ import annotations

from itertools import repeat
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import meets
from ..fair.algorithm import fair_outcomes
from ..models.context import CorpusData
from ..models.segment import EXACT_STATS, segment_f1
from ..models.ts import TS_STATS, ts_f1, ts_table
from .attributes import Tokens, token_texts
from .errors_documents import DocumentScores, sentence_documents
from .errors_groups import GroupTable
from .errors_kept import Kept
from .errors_lists import Events, error_events, type_counts
from .errors_match import MATCHINGS, Confusion, best_counterparts, confusion
from .errors_suspects import _Found, system_suspects
from .errors_text import Shifted

#: a group's key: fair outcome code, gold label id, gold string, system label id, system string (-1 / None: no span)
GroupKey = Tuple[int, int, Optional[str], int, Optional[str]]


def _found() -> _Found:
    return _Found([], [], [], [], [], [], [])


def _suspect_order(f: _Found, j: int) -> Tuple[int, bool, int, int, bool]:
    """The ranking key of :func:`ts_eval.analysis.errors_suspects.rank_suspects`."""
    return (-f.agreeing[j], f.kind[j] == "FN", f.confirming[j], f.position[j], f.kind[j] == "FP")


def group_order(key: GroupKey) -> Tuple[Any, ...]:
    """The order of groups that tie on count and first occurrence: by type, gold label, gold string, system
    label, system string (no string before every string), as the whole corpus's sorted string ids give it."""
    code, glab, gtext, slab, stext = key
    return (code, glab, (0, "") if gtext is None else (1, gtext), slab, (0, "") if stext is None else (1, stext))


class ErrorCounts:
    """What the error analysis keeps while the blocks of a corpus are added in order (see the module docstring).

    ``names``: the systems (checked); ``labels``: labels known before any block (default none: each block brings
    its own); ``agree``: the checked min_agree; ``threshold``: the parsed min_overlap (None: every pair); ``top``:
    the length of each list (None: all); ``window``: the examples' tokens on each side of their span (None: the
    default of :func:`ts_eval.analysis.errors.error_result`)."""

    def __init__(self, names: Sequence[str], labels: Sequence[str] = (), *, agree: int, top: Optional[int],
                 threshold: Any = None, window: Optional[int] = None):
        self.names = list(names)
        self.window = window
        self.kept = Kept(self.names, labels)
        self.agree = agree
        self.top = top
        self.threshold = threshold
        self.rank = {n: r for r, n in enumerate(sorted(self.names))}
        # per system and matching: the confusion counts (index 0 the missed column / spurious row, label j at j + 1,
        # labels numbered as they came) and the gold, system, spurious and unpaired spans
        self._confusion: List[Dict[str, List[Any]]] = [{} for _ in self.names]
        self.types: List[Dict[str, int]] = [{} for _ in self.names]
        # per system its groups (values: count, first token, gold span, system span), and pooled over the systems
        # (count, first token, system rank, system, gold span, system span; the systems that make a group: those
        # whose groups have its key); the strings of their keys numbered in one table
        self.groups = [GroupTable(4) for _ in self.names]
        self.pooled = GroupTable(6, ties=2)
        self._string_id: Dict[str, int] = {}
        self.strings: List[str] = []
        self.suspects = _found()
        self.suspect_total = 0
        # per document (global ids in order), an array a block: sentences, tokens, gold spans, first sentence,
        # first line, whether it has a first line (a row a document, as few bytes as its numbers)
        self.doc_rows: List[np.ndarray] = []
        self.n_documents = 0
        self.in_documents = False      # a block had -DOCSTART- (else every sentence is a document)
        # per system the rows of its documents' statistics, the labels' columns in the order the labels came
        self.exact: List[List[np.ndarray]] = [[] for _ in self.names]
        self.ts: List[List[np.ndarray]] = [[] for _ in self.names]
        self.tokens = 0
        self.sentences = 0

    @property
    def labels(self) -> List[str]:
        """The labels seen so far, in the order they came (a block's label ids are mapped to their numbers here)."""
        return self.kept.labels

    # ------------------------------------------------------------------ per block
    def add(self, block: Corpus, *, first_sentence: Optional[int] = None, first_token: Optional[int] = None,
            first_span: Optional[Dict[Optional[str], int]] = None, documents: Any = None,
            tokens: Optional[Union[Tokens, Shifted]] = None) -> None:
        """Count ``block``, the next block of whole sentences (a corpus of its own: tokens, sentences and spans
        numbered from its first, its own sorted ``labels``, ``doc_offsets`` and token texts): where it starts in
        the whole corpus is what the blocks added before it hold (``first_sentence``, ``first_token``,
        ``first_span``: the same, when the caller says it: checked).  ``documents``: its sentences' documents
        numbered over the whole corpus when the caller knows them (default: from the block's ``doc_offsets``);
        ``tokens``: its token texts (default: :func:`ts_eval.analysis.attributes.token_texts` of the block)."""
        kept = self.kept
        t0, s0 = self.tokens, self.sentences
        spans0 = dict(kept.n_spans)
        told = {"first_sentence": (first_sentence, s0), "first_token": (first_token, t0),
                "first_span": (first_span, {k: spans0[k] for k in first_span} if first_span else None)}
        for what, (given, have) in told.items():
            if given is not None and given != have:
                raise ValueError(f"{what} {given}: expected {have}, the blocks added so far (blocks in order)")
        lut = kept.label_ids(block.labels)
        if tokens is None and block.tokens is not None and block.n_tokens:
            tokens = token_texts(block)[0]
        if block.tokens is None:
            tokens = None
        cd = CorpusData(block)
        gold = block.gold
        pairs, best, events = {}, {}, []
        for k, name in enumerate(self.names):
            ss = block.systems[name]
            every = cd.system(name).pairs
            p = every.take(meets(every, self.threshold)) if self.threshold is not None else every
            pairs[name] = p
            for m in MATCHINGS:
                b = best_counterparts(p, len(gold), ss, m)
                self._confuse(k, confusion(gold, ss, p, block.labels, m, best=b), lut)
                if m == "overlap":
                    best[name] = b
            ev = error_events(fair_outcomes(gold, ss, every, block))
            for t, v in type_counts(ev).items():
                self.types[k][t] = self.types[k].get(t, 0) + v
            events.append(ev)
        sid = self._span_strings(block, tokens, events)
        for k, name in enumerate(self.names):
            self._groups(k, events[k], block, block.systems[name], lut, sid[0], sid[k + 1], t0, spans0)
        self._suspects(block, pairs, best, lut, t0, spans0[None])
        docs = self._block_documents(block) if documents is None else np.asarray(documents, np.int64)
        self._documents(block, cd, lut, s0, docs)
        cd.release()        # the systems' data refer back to it: freed now, not when the cycle collector runs
        kept.add(block, lut, tokens)
        self.tokens += block.n_tokens
        self.sentences += block.n_sentences

    def _confuse(self, k: int, c: Confusion, lut: np.ndarray) -> None:
        """A block's confusion matrix (its labels' ids ``lut``) added to system ``k``'s."""
        n = len(self.labels) + 1
        have = self._confusion[k].setdefault(c.matching, [np.zeros((n, n), np.int64), 0, 0, 0, 0])
        if len(have[0]) < n:
            grown = np.zeros((n, n), np.int64)
            grown[:len(have[0]), :len(have[0])] = have[0]
            have[0] = grown
        at = np.concatenate([lut + 1, [0]])
        have[0][np.ix_(at, at)] += c.counts
        for j, v in enumerate((c.gold, c.system, c.spurious, c.unpaired)):
            have[j + 1] += v

    def confusion(self, k: int) -> Dict[str, Confusion]:
        """System ``k``'s confusion matrices, over the sorted labels."""
        labels = sorted(self.labels)
        order = np.concatenate([np.argsort(self._to_sorted(), kind="stable") + 1, [0]]).astype(np.int64)
        out = {}
        for m in MATCHINGS:
            counts, g, s, sp, un = self._confusion[k].get(m, [np.zeros((1, 1), np.int64), 0, 0, 0, 0])
            n = len(labels) + 1
            full = np.zeros((n, n), np.int64)
            full[:len(counts), :len(counts)] = counts
            out[m] = Confusion(m, list(labels), full[np.ix_(order, order)], g, s, sp, un)
        return out

    def _to_sorted(self) -> np.ndarray:
        """Per label in the order they came, its number among the sorted labels."""
        rank = {lab: j for j, lab in enumerate(sorted(self.labels))}
        return np.array([rank[lab] for lab in self.labels], np.int64)

    def _span_strings(self, block: Corpus, tokens: Optional[Union[Tokens, Shifted]], events: List[Events]
                      ) -> List[np.ndarray]:
        """Per side (gold, then each system) of ``block`` the number of every span's string in the table of
        distinct strings (:attr:`strings`), for the spans of the systems' error ``events`` only (the others -1):
        the strings of their distinct ranges joined once, and only they put in the table (new ones last)."""
        sides = [block.gold] + [block.systems[n] for n in self.names]
        used = [np.zeros(len(ss), bool) for ss in sides]
        for k, ev in enumerate(events):
            used[0][ev.gold[ev.gold >= 0]] = True
            used[k + 1][ev.system[ev.system >= 0]] = True
        at = [np.flatnonzero(u) for u in used]
        out = [np.full(len(ss), -1, np.int64) for ss in sides]
        n = sum(len(a) for a in at)
        if not n:
            return out
        start = np.concatenate([ss.start[a] for ss, a in zip(sides, at)]).astype(np.int64)
        last = np.concatenate([ss.last[a] for ss, a in zip(sides, at)]).astype(np.int64)
        if tokens is None:
            text: List[str] = [""]
            inverse = np.zeros(n, np.int64)
        else:
            ranges, inverse = np.unique(start * (block.n_tokens + 1) + last, return_inverse=True)
            first, end = ranges // (block.n_tokens + 1), ranges % (block.n_tokens + 1) + 1
            text = tokens.joined(first, end)
        ids, have = self._string_id, self.strings
        of = np.fromiter(map(ids.get, text, repeat(-1)), np.int64, len(text))     # (one C loop)
        for j in np.flatnonzero(of < 0).tolist():          # strings not seen before (a string may come twice)
            of[j] = ids.setdefault(text[j], len(ids))
            if of[j] == len(have):
                have.append(text[j])
        sid = of[inverse.reshape(-1)]
        cuts = np.cumsum([0] + [len(a) for a in at])
        for j, a in enumerate(at):
            out[j][a] = sid[cuts[j]:cuts[j + 1]]
        return out

    def _groups(self, k: int, ev: Events, block: Corpus, ss: Any, lut: np.ndarray, gsid: np.ndarray,
                ssid: np.ndarray, t0: int, first_span: Dict[Optional[str], int]) -> None:
        """One system's error events of a block put into its group table and the pooled one (a row an event)."""
        if not len(ev):
            return
        g, s = ev.gold, ev.system
        hg, hs = g >= 0, s >= 0
        gold = block.gold
        gi, si = np.maximum(g, 0), np.maximum(s, 0)
        big = np.iinfo(np.int64).max
        first = np.where(hg, gold.start[gi] if len(gold) else 0, big)
        if len(ss):
            first = np.minimum(first, np.where(hs, ss.start[si], big))
        keys = [ev.code, np.where(hg, lut[gold.label[gi]] if len(gold) else -1, -1).astype(np.int64),
                np.where(hg, gsid[gi] if len(gsid) else -1, -1).astype(np.int64),
                np.where(hs, lut[ss.label[si]] if len(ss) else -1, -1).astype(np.int64),
                np.where(hs, ssid[si] if len(ssid) else -1, -1).astype(np.int64)]
        rank = self.rank[self.names[k]]
        g0, s0 = first_span[None], first_span[self.names[k]]
        found = np.stack(keys, axis=1)          # every event a row, a count of 1: the tables group them
        count, pos = np.ones(len(ev), np.int64), first + t0
        gg = np.where(hg, g + g0, -1)
        sg = np.where(hs, s + s0, -1)
        self.groups[k].add(found, np.stack([count, pos, gg, sg], axis=1))
        self.pooled.add(found, np.stack([count, pos, np.full(len(pos), rank), np.full(len(pos), k), gg, sg], axis=1))

    def _suspects(self, block: Corpus, pairs: Dict[str, Any], best: Dict[str, np.ndarray], lut: np.ndarray, t0: int,
                  g0: int) -> None:
        f = system_suspects(block, self.names, pairs, best, self.agree)
        self.suspect_total += len(f.kind)
        kept = self.suspects
        for j in range(len(f.kind)):
            label, start, last = f.span[j]
            kept.kind.append(f.kind[j])
            i = f.index[j]
            kept.index.append(None if i is None else i + g0)
            kept.span.append((int(lut[label]), start + t0, last + t0) if start >= 0 else (label, start, last))
            kept.agreeing.append(f.agreeing[j])
            kept.confirming.append(f.confirming[j])
            kept.systems.append(f.systems[j])
            kept.position.append(f.position[j] + t0)
        if self.top is not None and len(kept.kind) > self.top:       # the first ``top`` in ranking order
            order = sorted(range(len(kept.kind)), key=lambda j: _suspect_order(kept, j))[:self.top]
            order.sort()                                               # in the order found (ties stay stable)
            self.suspects = _Found(*([getattr(kept, a)[j] for j in order] for a in
                                     ("kind", "index", "span", "agreeing", "confirming", "systems", "position")))

    def _block_documents(self, block: Corpus) -> np.ndarray:
        """Per sentence of ``block`` its document, numbered over the blocks added so far: a block with
        ``doc_offsets`` numbers its own (the first continues the last one unless the block opens a document); one
        without continues the last document, or, while no block had any, makes each sentence a document."""
        offsets = block.doc_offsets
        if offsets is None or len(offsets) < 2:
            if self.in_documents:
                return np.full(block.n_sentences, self.n_documents - 1, np.int64)
            return self.n_documents + np.arange(block.n_sentences, dtype=np.int64)
        if not self.in_documents:
            self.in_documents = True
            if self.n_documents:        # the sentences before the first -DOCSTART-: one document
                self._collapse()
        local = sentence_documents(block)
        return local + (self.n_documents - 1 if self.n_documents and not block.opens_document else self.n_documents)

    def _collapse(self) -> None:
        """Every document so far made one (the sentences before the first -DOCSTART- are one document)."""
        rows = np.concatenate(self.doc_rows)
        one = rows[:1].copy()
        one[0, :3] = rows[:, :3].sum(axis=0)
        self.doc_rows = [one]
        for k in range(len(self.names)):
            for store in (self.exact[k], self.ts[k]):
                width = max(x.shape[1] for x in store)
                summed = sum(_widened(x, width).sum(axis=0) for x in store)
                store[:] = [np.asarray(summed)[None, :]]
        self.n_documents = 1

    def _documents(self, block: Corpus, cd: CorpusData, lut: np.ndarray, s0: int, documents: np.ndarray) -> None:
        """Each document's counts and every system's statistics, summed over its sentences in this block."""
        S = block.n_sentences
        if not S:
            return
        doc = np.asarray(documents, np.int64)
        first = np.flatnonzero(np.diff(np.concatenate(([-1], doc))) != 0)
        carried = self.n_documents > 0 and int(doc[0]) == self.n_documents - 1    # the block starts inside the last
        lengths = np.diff(block.sent_offsets).astype(np.int64)
        gold_sent = np.bincount(block.sentence_of(block.gold.start), minlength=S).astype(np.int64)
        t = np.asarray(block.sent_offsets[first], np.int64)
        lines = block.gold_info.token_lines
        has = t < (len(lines) if lines is not None else 0)
        line = np.zeros(len(first), np.int64)
        if lines is not None:
            line[has] = np.asarray(lines)[t[has]]
        rows = np.column_stack([np.diff(np.append(first, S)), np.add.reduceat(lengths, first),
                                np.add.reduceat(gold_sent, first), s0 + first, line, has]).astype(np.int64)
        self._extend(self.doc_rows, rows, carried, 3)
        self.n_documents += len(rows) - carried
        L = len(self.labels)
        for k, name in enumerate(self.names):
            sd = cd.system(name)
            for store, stats, head, per in ((self.exact[k], sd.stats(EXACT_STATS), 0, 4),
                                            (self.ts[k], sd.stats(TS_STATS), 2, 6)):
                part = np.add.reduceat(stats, first, axis=0)
                self._extend(store, _spread(part, lut, L, head, per), carried)

    @staticmethod
    def _extend(store: List[np.ndarray], part: np.ndarray, carried: bool, width: Optional[int] = None) -> None:
        """A block's documents' rows put after ``store``'s (one array a block, no object a document); with
        ``carried`` its first row is added to the last document's (its first ``width`` columns)."""
        if carried:
            if width is None and store[-1].shape[1] < part.shape[1]:     # labels came since
                store[-1] = _widened(store[-1], part.shape[1])
            last = store[-1]
            w = part.shape[1] if width is None else width
            last[-1, :w] = last[-1, :w] + part[0, :w]
            part = part[1:]
        if len(part):
            store.append(part)

    # ------------------------------------------------------------------ at the end
    def ranked_groups(self, k: Optional[int]) -> Tuple[List[Tuple[GroupKey, List[Any]]], int]:
        """The first ``top`` groups of system ``k`` (None: pooled), best first, and how many groups there are: each
        as its key (labels numbered among the sorted labels) and [count, first token, gold span, system span]
        (pooled: [count, first token, system rank, system, gold span, system span, the systems that make it])."""
        table = self.pooled if k is None else self.groups[k]
        keys, rows = table.rows()
        chosen = np.arange(len(keys))
        if self.top is not None and len(keys) > self.top:     # those up to the top-th by (count, first) only
            best = np.lexsort((rows[:, 1], -rows[:, 0]))[self.top - 1]
            cut = (-rows[best, 0], rows[best, 1])
            chosen = np.flatnonzero((-rows[:, 0] < cut[0]) | ((-rows[:, 0] == cut[0]) & (rows[:, 1] <= cut[1])))
        to_sorted = self._to_sorted().tolist() + [-1]          # -1: no span stays -1
        strings: List[Optional[str]] = [*self.strings, None]    # -1: no span, no string
        items: List[Tuple[GroupKey, List[Any], int]] = []
        for j, (code, glab, gtext, slab, stext) in zip(chosen.tolist(), keys[chosen].tolist()):
            key = (code, to_sorted[glab], strings[gtext], to_sorted[slab], strings[stext])
            items.append((key, rows[j].tolist(), j))
        items.sort(key=lambda kv: (-kv[1][0], kv[1][1], group_order(kv[0])))
        items = items if self.top is None else items[:self.top]
        if k is None:
            at = keys[[j for _, _, j in items]].reshape(-1, keys.shape[1])
            made = [mine.contains(at) for mine in self.groups]
            for i, (_, v, _) in enumerate(items):
                v.append({m for m in range(len(made)) if made[m][i]})
        return [(key, v) for key, v, _ in items], len(keys)

    def found_suspects(self) -> _Found:
        """The kept suspects (the first ``top`` in ranking order, or all), their labels numbered among the sorted
        labels."""
        to_sorted = self._to_sorted()
        f = self.suspects
        spans = [(int(to_sorted[lab]), a, b) if a >= 0 else (lab, a, b) for lab, a, b in f.span]
        return _Found(f.kind, f.index, spans, f.agreeing, f.confirming, f.systems, f.position)

    def documents(self, unit: Optional[str] = None) -> DocumentScores:
        """The documents' counts and scores (``unit``: what a document is called; default ``document`` when a block
        had -DOCSTART-, else ``sentence``)."""
        unit = unit or ("document" if self.in_documents else "sentence")
        rows = np.concatenate(self.doc_rows) if self.doc_rows else np.zeros((0, 6), np.int64)
        D = len(rows)
        L = len(self.labels)
        order = np.argsort(self._to_sorted(), kind="stable")
        exact, exact_f, ts, ts_f = [], [], [], []
        for k in range(len(self.names)):
            e = np.concatenate([_widened(x, 4 * L) for x in self.exact[k]]) if D else np.zeros((0, 4 * L))
            t = np.concatenate([_widened(x, 2 + 6 * L) for x in self.ts[k]]) if D else np.zeros((0, 2 + 6 * L))
            e = e.reshape(D, L, 4)[:, order].reshape(D, 4 * L)
            t = np.concatenate([t[:, :2], t[:, 2:].reshape(D, L, 6)[:, order].reshape(D, 6 * L)], axis=1)
            exact.append(e.reshape(D, L, 4).sum(axis=1))
            exact_f.append(segment_f1(e, average="micro"))
            tp, fp, fn, _ = ts_table(t, 1.0)
            ts.append(np.stack([tp.sum(-1), fp.sum(-1), fn.sum(-1)], axis=1))
            ts_f.append(ts_f1(t, 1.0, average="micro"))

        def stack(parts: List[np.ndarray], shape: Tuple[int, ...]) -> np.ndarray:
            return np.stack(parts) if parts else np.zeros(shape)

        lines = [x if h else None for x, h in zip(rows[:, 4].tolist(), rows[:, 5].tolist())]
        return DocumentScores(list(self.names), unit, rows[:, 3].copy(), rows[:, 0].copy(), rows[:, 1].copy(), lines,
                              rows[:, 2].copy(),
                              stack(exact, (0, D, 4)), stack(exact_f, (0, D)), stack(ts, (0, D, 3)),
                              stack(ts_f, (0, D)))


def _spread(part: np.ndarray, lut: np.ndarray, n_labels: int, head: int, per: int) -> np.ndarray:
    """Statistics rows of a block (``head`` columns, then ``per`` columns a label of the block) with the labels'
    columns where their numbers ``lut`` put them among ``n_labels`` (the others 0)."""
    out = np.zeros((len(part), head + per * n_labels), part.dtype)
    out[:, :head] = part[:, :head]
    spread = out[:, head:].reshape(len(part), n_labels, per)
    spread[:, lut] = part[:, head:].reshape(len(part), len(lut), per)
    out[:, head:] = spread.reshape(len(part), -1)
    return out


def _widened(rows: np.ndarray, width: int) -> np.ndarray:
    """Rows with 0 columns added at the end up to ``width`` (labels that came after them)."""
    if rows.shape[1] >= width:
        return rows
    return np.concatenate([rows, np.zeros((len(rows), width - rows.shape[1]), rows.dtype)], axis=1)
