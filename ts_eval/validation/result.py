"""What ``validate`` finds: every :class:`Problem` of each submission, grouped by kind and counted.

Plain data: the page builder (:mod:`ts_eval.output.builders.validate`) selects and labels it, ``to_dict()`` is
its JSON (words of :mod:`ts_eval.results.vocabulary`)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..results.vocabulary import layout

#: every kind of problem, in the order reports show them, with what it means
KINDS: Dict[str, str] = {
    "empty_file": "the file holds no token lines",
    "encoding": "a byte that is not UTF-8",
    "column_count": "a token line with another number of columns than the file's first (or the others', when the "
                    "first is the odd one out), or an empty field",
    "token_mismatch": "a token that differs from gold's on the aligned line",
    "missing_token": "gold's token lines missing in a sentence",
    "extra_token": "token lines gold does not have",
    "missing_sentence": "gold's sentences missing",
    "extra_sentence": "sentences gold does not have",
    "sentence_boundary": "a sentence split where gold does not, or not split where gold is",
    "missing_document": "a document of gold missing (a -DOCSTART- line in a column file; a record, or an id)",
    "extra_document": "a document gold does not have",
    "bad_record": "a record (a JSON line, a sentence) its format's reader refuses: bad JSON, a key missing, ...",
    "bad_tag": "a tag the scheme cannot read",
    "ill_formed": "an ill-formed tag sequence (I- after O in IOB2, ...): each policy's repair",
    "unknown_label": "a label gold does not use (or not among the labels given)",
    "unreadable": "the reader's first error, where the problems are not collected one by one",
}
#: the longest ``found`` or ``expected`` a problem keeps: a token of megabytes (a file without line ends) is
#: shown by its start and its length, not copied into every report and onto the participant's screen
LONGEST = 200


@dataclass
class Problem:
    """One problem: where (file, line; the gold line it is aligned with), what (kind), what was found and
    what was expected; an ill-formed tag sequence says what each policy makes of it (``repairs``)."""

    file: str
    line: int
    kind: str
    found: str
    expected: str
    gold_line: Optional[int] = None
    repairs: Dict[str, str] = field(default_factory=dict)
    byte: Optional[int] = None

    def __post_init__(self) -> None:
        self.found, self.expected = _short(self.found), _short(self.expected)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"file": self.file, "line": self.line, "kind": self.kind, "found": self.found,
                               "expected": self.expected}
        if self.gold_line is not None:
            out["gold_line"] = self.gold_line
        if self.repairs:
            out["repairs"] = dict(self.repairs)
        if self.byte is not None:
            out["byte"] = self.byte
        return out

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        gold = f" (gold line {self.gold_line})" if self.gold_line else ""
        repairs = "".join(f"; {policy}: {what}" for policy, what in self.repairs.items())
        return f"{where}{self.kind}{gold}: {self.found}; expected {self.expected}{repairs}"


def _short(text: str) -> str:
    return text if len(text) <= LONGEST else f"{text[:LONGEST - 40]}... ({len(text):,} characters)"


@dataclass
class SubmissionCheck:
    """One submission: its problems (at most ``max_problems`` kept, in file order), the exact count of each
    kind, and its notes."""

    file: str
    name: str
    problems: List[Problem]
    counts: Dict[str, int]
    notes: Dict[str, str] = field(default_factory=dict)
    lines: int = 0
    sentences: int = 0
    tokens: int = 0
    scheme: Optional[str] = None      # the scheme its tags were read in (scheme auto: the one detected)

    @property
    def valid(self) -> bool:
        return not self.counts

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def to_dict(self) -> Dict[str, Any]:
        return {"file": self.file, "name": self.name, "valid": self.valid, "problems": self.total,
                "shown": len(self.problems), "kinds": dict(self.counts), "notes": dict(self.notes),
                "lines": self.lines, "sentences": self.sentences, "tokens": self.tokens, "scheme": self.scheme,
                "list": [p.to_dict() for p in self.problems]}


def checked(file: str, name: str, problems: List[Problem], max_problems: Optional[int],
            notes: Optional[Dict[str, str]] = None, scheme: Optional[str] = None, **sizes: int) -> SubmissionCheck:
    """A :class:`SubmissionCheck` of every problem found: counted by kind (in :data:`KINDS`' order), the list
    in file order and cut to ``max_problems``."""
    counts = Counter(p.kind for p in problems)
    ordered = sorted(problems, key=lambda p: (p.line, list(KINDS).index(p.kind)))
    kept = ordered if max_problems is None else ordered[:max_problems]
    return SubmissionCheck(file, name, kept, {k: counts[k] for k in KINDS if counts[k]}, dict(notes or {}),
                           scheme=scheme, **sizes)


@dataclass
class Validation:
    """Every submission checked against gold (``ts_eval.validate``)."""

    gold: Optional[str]
    submissions: List[SubmissionCheck]
    settings: Dict[str, Any] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        """Whether every submission would score as it is."""
        return all(s.valid for s in self.submissions)

    @property
    def problems(self) -> List[Problem]:
        """The problems listed, submission by submission (at most ``max_problems`` of each)."""
        return [p for s in self.submissions for p in s.problems]

    @property
    def counts(self) -> Dict[str, int]:
        """The exact number of problems of each kind, over every submission (also those the list leaves out)."""
        total: Counter = Counter()
        for s in self.submissions:
            total.update(s.counts)
        return {k: total[k] for k in KINDS if total[k]}

    def to_dict(self) -> Dict[str, Any]:
        return {"layout": layout("validate"), "valid": self.valid, "gold": self.gold,
                "problems": sum(self.counts.values()), "kinds": self.counts,
                "submissions": [s.to_dict() for s in self.submissions], "settings": dict(self.settings)}

    def __str__(self) -> str:
        head = "valid" if self.valid else f"{sum(self.counts.values())} problems"
        return "\n".join([f"validation: {head}"] + [str(p) for p in self.problems])
