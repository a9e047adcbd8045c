"""A submission's tokens, sentences and documents against gold's, realigned after a difference.

Sentences are aligned first (:class:`difflib.SequenceMatcher` over whole sentences): a run of gold's
sentences the submission lacks is one ``missing_sentence`` problem (and the submission's extra ones one
``extra_sentence``), so a missing line or a cut file never makes every following line a mismatch.  Where
sentences differ, their tokens are aligned the same way: a token for a token is a ``token_mismatch`` (the
line in both files, the two tokens), a run of tokens missing or extra one problem, the same tokens split
into other sentences a ``sentence_boundary`` problem."""
from __future__ import annotations

from difflib import SequenceMatcher
from typing import List, Optional, Sequence, Tuple

from ..io.collect import ColumnLines
from .result import Problem

Tokens = List[Tuple[str, ...]]
BIG = 20000        # tokens of a block beyond which the matcher may skip frequent tokens (autojunk)


def _shown(tokens: Sequence[str], most: int = 6) -> str:
    words = " ".join(tokens[:most])
    return words + (" ..." if len(tokens) > most else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _pieces(seq: List[Tuple[str, int, int]], a: int, b: int) -> List[Tuple[bool, int, int]]:
    """The run ``seq[a:b]`` of tokens (each (token, line, its sentence's index where it starts one, else -1)) cut
    into whole sentences (True) and the tokens before and after them (False)."""
    starts = [k for k in range(a, b) if seq[k][2] >= 0]
    if not starts:
        return [(False, a, b)]
    ends_whole = b == len(seq) or seq[b][2] >= 0
    last = b if ends_whole else starts[-1]
    out = [(False, a, starts[0])] if starts[0] > a else []
    if last > starts[0]:
        out.append((True, starts[0], last))
    if last < b:
        out.append((False, last, b))
    return out


def _position(seq: List[Tuple[str, int, int]], k: int) -> int:
    """The 1-based place of token ``k`` of ``seq`` in its sentence (record)."""
    start = k
    while start > 0 and seq[start][2] < 0:
        start -= 1
    return k - start + 1


class Aligner:
    """Gold's and a submission's lines (``gold``, ``sub``) with each sentence's tokens (``gold_tokens``,
    ``sub_tokens``); :meth:`problems` aligns them."""

    def __init__(self, gold: ColumnLines, sub: ColumnLines, gold_tokens: Tokens, sub_tokens: Tokens,
                 unit: str = "sentence") -> None:
        self.gold, self.sub, self.gt, self.st = gold, sub, gold_tokens, sub_tokens
        self.unit = unit                           # what a run of whole units missing or extra is: its kind
        self.token = "token line" if unit == "sentence" else "token"   # (a record's tokens share its line)
        self.out: List[Problem] = []
        self.pairs: List[Tuple[int, int]] = []     # (gold sentence, submission sentence) aligned whole

    def _end_line(self) -> int:
        return self.sub.lines + 1

    def problems(self) -> List[Problem]:
        if self.gt == self.st:
            self.pairs = [(i, i) for i in range(len(self.gt))]
            return []
        matcher = SequenceMatcher(None, self.gt, self.st, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                self.pairs.extend(zip(range(i1, i2), range(j1, j2)))
            elif op == "delete":
                self._sentences_missing(i1, i2, self._sub_line(j1))
            elif op == "insert":
                self._sentences_extra(j1, j2, self._gold_line(i1))
            else:
                self._tokens(i1, i2, j1, j2)
        return self.out

    def _sub_line(self, j: int) -> int:
        """The line where submission sentence ``j`` starts (after the last: the end of the file)."""
        return self.sub.sentences[j].lines[0] if j < len(self.sub.sentences) else self._end_line()

    def _gold_line(self, i: int) -> Optional[int]:
        return self.gold.sentences[i].lines[0] if i < len(self.gold.sentences) else None

    def _sentences_missing(self, i1: int, i2: int, line: int) -> None:
        g = self.gold.sentences
        lines = f"gold lines {g[i1].lines[0]}-{g[i2 - 1].lines[-1]}"
        where = "the end of the file" if line > self.sub.lines else f"line {line}"
        self.out.append(Problem(self.sub.path, line, f"missing_{self.unit}",
                                f"{where}: {_plural(i2 - i1, self.unit)} of gold not there",
                                f"{lines}: {_shown(self.gt[i1])}", gold_line=g[i1].lines[0]))

    def _sentences_extra(self, j1: int, j2: int, gold_line: Optional[int]) -> None:
        s = self.sub.sentences
        self.out.append(Problem(self.sub.path, s[j1].lines[0], f"extra_{self.unit}",
                                f"{_plural(j2 - j1, self.unit)} gold does not have (lines {s[j1].lines[0]}-"
                                f"{s[j2 - 1].lines[-1]}): {_shown(self.st[j1])}",
                                f"no {self.unit} here" + (f" (gold goes on at line {gold_line})" if gold_line
                                                          else " (gold has ended)"), gold_line=gold_line))

    def _tokens(self, i1: int, i2: int, j1: int, j2: int) -> None:
        """Sentences i1..i2 of gold against j1..j2 of the submission, token by token."""
        g = [(t, line, i if k == 0 else -1) for i in range(i1, i2) for k, (t, line) in
             enumerate(zip(self.gt[i], self.gold.sentences[i].lines))]
        s = [(t, line, j if k == 0 else -1) for j in range(j1, j2) for k, (t, line) in
             enumerate(zip(self.st[j], self.sub.sentences[j].lines))]
        matcher = SequenceMatcher(None, [x[0] for x in g], [x[0] for x in s], autojunk=len(g) > BIG)
        for op, a1, a2, b1, b2 in matcher.get_opcodes():
            if op == "equal":
                self._boundaries(g[a1:a2], s[b1:b2], a1 == 0 or b1 == 0)
                continue
            n = min(a2 - a1, b2 - b1) if op == "replace" else 0
            for k, ((gt, gl, _), (st, sl, _)) in enumerate(zip(g[a1:a1 + n], s[b1:b1 + n])):
                at, gold = "", f"as on gold line {gl}"
                if self.unit != "sentence":
                    at = f" (token {_position(s, b1 + k)} of the record)"
                    gold = f"as token {_position(g, a1 + k)} of gold's record at line {gl}"
                self.out.append(Problem(self.sub.path, sl, "token_mismatch", repr(st) + at, f"{gt!r} {gold}",
                                        gold_line=gl))
            if a1 + n < a2:
                line = s[b1 + n][1] if b1 + n < len(s) else self._sub_line(j2)
                if self.unit == "sentence" and b1 + n > 0 and (b1 + n == len(s) or s[b1 + n][2] >= 0):
                    line = s[b1 + n - 1][1] + 1           # (missing at a sentence's end: where it ends)
                for whole, a, b in _pieces(g, a1 + n, a2):
                    if whole:
                        self._sentences_missing(g[a][2], g[a][2] + sum(x[2] >= 0 for x in g[a:b]), line)
                    else:
                        self._run("missing_token", g[a:b], line)
            if b1 + n < b2:
                gold_line = g[a1 + n][1] if a1 + n < len(g) else self._gold_line(i2)
                for whole, a, b in _pieces(s, b1 + n, b2):
                    if whole:
                        self._sentences_extra(s[a][2], s[a][2] + sum(x[2] >= 0 for x in s[a:b]), gold_line)
                    else:
                        self._run("extra_token", s[a:b], s[a][1], gold_line)

    def _run(self, kind: str, run: List[Tuple[str, int, int]], line: int, gold_line: Optional[int] = None) -> None:
        words = _shown([t for t, _, _ in run])
        several = run[-1][1] != run[0][1]
        lines = f"line{'s' if several else ''} {run[0][1]}" + (f"-{run[-1][1]}" if several else "")
        if kind == "missing_token":
            here = "at the end of the file" if line > self.sub.lines else "before this line"
            self.out.append(Problem(self.sub.path, line, kind, f"{_plural(len(run), self.token)} missing {here}",
                                    f"gold {lines}: {words}", gold_line=run[0][1]))
        else:
            self.out.append(Problem(self.sub.path, line, kind, f"{_plural(len(run), self.token)} gold does not "
                                    f"have ({lines}): {words}", f"no {self.token} here", gold_line=gold_line))

    def _boundaries(self, g: List[Tuple[str, int, int]], s: List[Tuple[str, int, int]], edge: bool) -> None:
        """Tokens alike: a sentence that starts in one file and not in the other (but at the block's edge); two
        that start together are aligned whole for the documents' check."""
        for k, ((_, gl, gi), (_, sl, si)) in enumerate(zip(g, s)):
            gf, sf = gi >= 0, si >= 0
            if gf and sf:
                self.pairs.append((gi, si))
            if (k == 0 and edge) or gf == sf:
                continue
            if gf:
                self.out.append(Problem(self.sub.path, sl, "sentence_boundary", "the sentence goes on at this line",
                                        f"a sentence end before it (a blank line), as before gold line {gl}",
                                        gold_line=gl))
            else:
                self.out.append(Problem(self.sub.path, sl, "sentence_boundary", "a sentence starts at this line",
                                        f"the sentence to go on, as on gold line {gl}", gold_line=gl))

    def documents(self) -> List[Problem]:
        """Document starts of gold and the submission, on the sentences aligned whole."""
        if not self.sub.documents or not self.gold.documents:     # (none in gold: a note, they score the same)
            return []
        out: List[Problem] = []
        gs, ss = self.gold.sentences, self.sub.sentences
        for i, j in self.pairs:
            g_new = gs[i].document != (gs[i - 1].document if i else 0)
            s_new = ss[j].document != (ss[j - 1].document if j else 0)
            if g_new and not s_new:
                out.append(Problem(self.sub.path, ss[j].lines[0], "missing_document",
                                   "no -DOCSTART- line before this sentence",
                                   f"a document start, as before gold line {gs[i].lines[0]}", gold_line=gs[i].lines[0]))
            elif s_new and not g_new:
                out.append(Problem(self.sub.path, ss[j].lines[0], "extra_document",
                                   "a -DOCSTART- line before this sentence",
                                   f"none: gold's document goes on at line {gs[i].lines[0]}", gold_line=gs[i].lines[0]))
        return out
