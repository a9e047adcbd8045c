"""What the error analysis keeps of a corpus read a block at a time to make its examples and find the strings
gold labels inconsistently at the end (issue 32): :class:`Kept`, and the corpus it makes of them.

The examples of the listed errors and suspects and both inconsistency finders read sentences anywhere in the
corpus (an unannotated occurrence of a string may come before or after its gold span, and which groups make the
lists is known only at the end), so the words and spans are kept, in the fewest bytes that give them back exactly:

- per token the number of its text among the distinct texts seen so far (**2 bytes a token** while there are at
  most 65,536 distinct texts, else 4; the distinct texts once each, numbered in the order they first occur, as
  :func:`ts_eval.analysis.attributes.token_texts` numbers them for a corpus read whole);
- per sentence its first token (**4 bytes a sentence**);
- per span of gold and of every analysed system its first token, its length less one (one byte while spans are at
  most 256 tokens long) and its label (one byte while there are at most 128 labels): **6 bytes a span**;
- per side the runs of tokens whose file lines follow one another (a column file: a run a sentence), as where the
  run starts and its line minus its token (**8 bytes a run**, none for a system whose lines are gold's).

(Token numbers and lines are int32 while they fit, else int64: twice the bytes; each block's numbers in the fewest
bytes that hold them.)  So what is kept grows with the tokens: 2 bytes each, plus the sentences, spans and runs,
about 5 bytes a token in all for a CoNLL file with two systems (1M tokens: 2 the texts' numbers, 1.8 the 0.3 spans
a token, 0.5 the line runs, 0.3 the sentences), not with the texts (a token's text is kept once however often it
occurs).  The corpus made of them at the end (:meth:`Kept.corpus`) reads these arrays joined (token numbers as
kept: no int64 copy of them; each span's last token made of its first and its length) and the labels renumbered
among the sorted labels (4 bytes a span).
That is the bound: the inconsistency finders need, for every string gold labels somewhere, its occurrences
anywhere else, which no summary smaller than the token sequence gives exactly.
"""
from __future__ import annotations

from itertools import repeat
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.arrays import search
from ..core.corpus import Corpus, SideInfo, SpanSet
from .attributes import Tokens
from .errors_text import Shifted

#: a side's key: None for gold, else a system's name
Side = Optional[str]


class Lines:
    """A side's file line of every token, as runs (``first`` token of each run, ``shift``: line minus token):
    ``lines[t]`` is token ``t``'s line (what :meth:`ts_eval.core.corpus.SideInfo.where` reads)."""

    def __init__(self, first: np.ndarray, shift: np.ndarray):
        self.first, self.shift = first, shift

    def __getitem__(self, token: int) -> int:
        k = int(search(self.first, token, side="right")) - 1
        return int(self.shift[k]) + int(token)


def narrow(x: np.ndarray) -> np.ndarray:
    """Whole numbers as int32 while they fit (4 bytes each), else int64."""
    x = np.asarray(x, np.int64)
    return x.astype(np.int32) if not len(x) or (int(x.min()) >= -2 ** 31 and int(x.max()) < 2 ** 31) else x


def smallest(x: np.ndarray, unsigned: bool = False) -> np.ndarray:
    """Whole numbers in the fewest bytes that hold them (``unsigned``: none is negative)."""
    x = np.asarray(x, np.int64)
    top = int(x.max()) if len(x) else 0
    low = int(x.min()) if len(x) else 0
    for t in ((np.uint8, np.uint16, np.uint32) if unsigned else (np.int8, np.int16, np.int32)):
        if np.iinfo(t).min <= low and top <= np.iinfo(t).max:
            return x.astype(t)
    return x


def line_runs(lines: np.ndarray, t0: int) -> Tuple[np.ndarray, np.ndarray]:
    """The runs of a block's token lines (its tokens numbered from ``t0`` in the whole corpus)."""
    d = np.asarray(lines, np.int64) - np.arange(len(lines), dtype=np.int64)
    first = np.flatnonzero(np.concatenate(([True], d[1:] != d[:-1])))
    return narrow(first + t0), narrow(d[first] - t0)


class Kept:
    """The words, sentences, spans and lines of the blocks added so far (see the module docstring), and the
    labels in the order they first came (a block's label ids are mapped to these)."""

    def __init__(self, names: Sequence[str], labels: Sequence[str] = ()):
        self.names = list(names)
        self.labels: List[str] = []
        self._label_id: Dict[str, int] = {}
        self.label_ids(labels)
        self.offsets: List[np.ndarray] = [np.zeros(1, np.int64)]
        self.n_tokens = 0
        self.n_spans: Dict[Side, int] = {None: 0, **{n: 0 for n in self.names}}
        self._vocab: Dict[str, int] = {}
        self._codes: List[np.ndarray] = []
        self._last: Optional[Tuple[List[str], np.ndarray]] = None       # the last block's distinct texts, numbered
        self.texts = False                      # whether the blocks have token texts
        self._spans: Dict[Side, List[Tuple[np.ndarray, np.ndarray, np.ndarray]]] = {s: [] for s in self.n_spans}
        self._runs: Dict[Side, List[Any]] = {s: [] for s in self.n_spans}     # a block's runs, None, or "gold"
        self._info: Dict[Side, Optional[str]] = {}                              # side -> its path (seen: has info)
        self.scheme: Optional[str] = None

    def label_ids(self, labels: Sequence[str]) -> np.ndarray:
        """Each of ``labels``' number in :attr:`labels` (new ones put last)."""
        for lab in labels:
            if lab not in self._label_id:
                self._label_id[lab] = len(self.labels)
                self.labels.append(lab)
        return np.array([self._label_id[lab] for lab in labels], np.int64)

    def add(self, block: Corpus, lut: np.ndarray, tokens: Optional[Union[Tokens, Shifted]]) -> None:
        """Keep ``block``'s words, sentences, spans and lines (``lut``: its label ids -> :attr:`labels`'s;
        ``tokens``: its token texts, None: none)."""
        t0 = self.n_tokens
        self.scheme = block.scheme
        self.offsets.append(narrow(np.asarray(block.sent_offsets[1:], np.int64) + t0))
        if tokens is not None:
            self.texts = True
            self._codes.append(self._numbers(tokens.distinct)[np.asarray(tokens.token_id)])
        elif block.n_tokens:
            self._codes.append(np.zeros(block.n_tokens, np.uint8))
        gold_runs = None
        sides = [(None, block.gold, block.gold_info)] + [(n, block.systems[n], block.system_info.get(n))
                                                         for n in self.names]
        gold_lines = block.gold_info.token_lines
        for side, ss, info in sides:
            self._spans[side].append((narrow(np.asarray(ss.start, np.int64) + t0),
                                      smallest(np.asarray(ss.last, np.int64) - ss.start, unsigned=True),
                                      smallest(lut[ss.label])))
            self.n_spans[side] += len(ss)
            if info is None:
                continue
            self._info.setdefault(side, info.path)
            lines = info.token_lines
            if side is not None and lines is not None and gold_lines is not None and gold_runs is not None and (
                    lines is gold_lines or np.array_equal(lines, gold_lines)):
                self._runs[side].append("gold")     # (a column file's sides share one array of lines)
                continue
            runs = None if lines is None else line_runs(lines, t0)
            if side is None:
                gold_runs = runs
            self._runs[side].append(runs)
        self.n_tokens += block.n_tokens

    def _numbers(self, distinct: List[str]) -> np.ndarray:
        """Per text of ``distinct`` (a block's distinct texts, in the order they first occur in it) its number among
        the texts seen so far (new ones put last); the same list as the last block's (blocks seen from one corpus's
        texts) is numbered once."""
        last = self._last
        if last is not None and last[0] is distinct and len(last[1]) == len(distinct):
            return last[1]
        vocab = self._vocab
        of = np.fromiter(map(vocab.get, distinct, repeat(-1)), np.int64, len(distinct))     # (one C loop)
        for j in np.flatnonzero(of < 0).tolist():          # the texts not seen before (each once in ``distinct``)
            of[j] = vocab[distinct[j]] = len(vocab)
        out = smallest(of, unsigned=True)          # 2 bytes a token while fewer than 65,537 texts
        self._last = (distinct, out)
        return out

    def _lines(self, side: Side) -> Optional[Lines]:
        parts = self._runs[side]
        if not parts or any(p is None for p in parts):
            return None
        gold = self._runs[None]
        runs = [gold[k] if p == "gold" else p for k, p in enumerate(parts)]
        return Lines(np.concatenate([r[0] for r in runs]), np.concatenate([r[1] for r in runs]).astype(np.int64))

    def corpus(self) -> Tuple[Corpus, Optional[Tokens], np.ndarray]:
        """(the corpus of what is kept: sentences, the spans with the sorted labels' ids, token texts and lines;
        its token texts (None: none); per label of :attr:`labels` its number among the sorted labels).  The parts
        kept a block at a time are joined in place (kept once, not twice)."""
        labels = sorted(self.labels)
        rank = {lab: k for k, lab in enumerate(labels)}
        to_sorted = np.array([rank[lab] for lab in self.labels], np.int64)
        spans = {}
        for side, parts in self._spans.items():
            start, length, label = (np.concatenate([p[j] for p in parts]) if parts else np.zeros(0, np.int64)
                                    for j in range(3))
            parts[:] = [(start, length, label)]
            last = start + length.astype(start.dtype)
            spans[side] = SpanSet(start, last, to_sorted.astype(np.int32)[label])     # token numbers as kept
        infos = {side: SideInfo(side or "gold", path=path, token_lines=self._lines(side))  # type: ignore[arg-type]
                 for side, path in self._info.items()}
        distinct = list(self._vocab)
        codes = np.concatenate(self._codes) if self._codes else np.zeros(0, np.int32)
        self._codes, self.offsets = [codes], [np.concatenate(self.offsets)]
        tokens = Tokens(codes, distinct) if self.texts and self.n_tokens else None
        gold_info = infos.pop(None, SideInfo("gold"))
        gold = spans.pop(None)
        systems = {n: s for n, s in spans.items() if n is not None}
        corpus = Corpus(self.offsets[0].astype(np.int64), labels, gold, systems, gold_info,
                        {n: i for n, i in infos.items() if n is not None}, scheme=self.scheme,
                        tokens=None if tokens is None else (lambda a, b: tokens[a:b]))
        return corpus, tokens, to_sorted
