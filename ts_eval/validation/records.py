"""Submissions in the formats of records (JSON Lines of tokens or text, Label Studio, CoNLL-U, and a column file
beside gold in another format): every record read on its own by its format's reader
(:func:`ts_eval.io.collect.record_parts`), so that a record the reader refuses is one problem and the records
after it are still checked; the records it reads are aligned with gold's documents (by id when both have ids,
else in order, :mod:`.align`) and their spans checked for labels gold does not use and ill-formed tags."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

import numpy as np

from ..core.corpus import map_labels
from ..errors import InputError
from ..io.collect import ColumnLines, Record, Sentence, record_parts
from ..io.documents import TOKEN_SEP
from ..io.feed import Decoding, whole
from ..io.formats import get_format
from ..io.source import display_name
from .align import Aligner
from .result import Problem

if TYPE_CHECKING:
    from ..io.inputs import Inputs


@dataclass
class Unit:
    """One document of an input: its line, id, tokens and spans (label, first token, last token)."""

    line: int
    id: Optional[str]
    tokens: Tuple[str, ...]
    spans: List[Tuple[str, int, int]] = field(default_factory=list)
    record: Optional[Record] = None


def _units(docs: Any, line: Optional[int] = None, record: Optional[Record] = None) -> List[Unit]:
    """The documents of a Documents, each with its spans (labels as read)."""
    out = []
    for d in range(docs.n_docs):
        a, b = int(docs.offsets[d]), int(docs.offsets[d + 1])
        keep = np.flatnonzero((docs.start >= a) & (docs.start < b))
        spans = [(docs.labels[int(docs.label[k])], int(docs.start[k]) - a, int(docs.last[k]) - a) for k in keep]
        key = docs.keys[d]
        at = line if line is not None else (docs.lines[d] if docs.lines is not None else d + 1)
        out.append(Unit(at, docs.ids[d], tuple(key.split(TOKEN_SEP)) if key else (), spans, record))
    return out


def _lines(path: str, units: List[Unit], size: int) -> ColumnLines:
    """``units`` as the aligner reads lines: each a sentence whose tokens all sit on its record's line."""
    return ColumnLines(path, [Sentence([u.line] * len(u.tokens), [[t] for t in u.tokens]) for u in units], [],
                       width=1, lines=size)


def _by_id(gold: List[Unit], sub: List[Unit], path: str) -> Tuple[List[Unit], List[Unit], List[Problem]]:
    """Gold's and the submission's documents paired by id (gold's order), and the ids one side lacks."""
    have = {u.id: u for u in sub}
    want = {u.id for u in gold}
    problems = [Problem(path, 0, "missing_document", f"no document {u.id!r}", f"gold's document {u.id!r} (line "
                        f"{u.line}): {' '.join(u.tokens[:6])}", gold_line=u.line) for u in gold if u.id not in have]
    problems += [Problem(path, u.line, "extra_document", f"document {u.id!r}", "only gold's documents")
                 for u in sub if u.id not in want]
    paired = [u for u in gold if u.id in have]
    return paired, [have[u.id] for u in paired], problems


def _in_order(records: List[Record], gold: List[Unit]) -> List[Unit]:
    """The submission's documents in order, a record the reader refuses taken as the gold document in its place
    (its problem is the refusal: the documents after it are not reported missing or shifted)."""
    out: List[Unit] = []
    for r in records:
        if r.docs is None:
            k = len(out)
            out.append(Unit(r.line, None, gold[k].tokens if k < len(gold) else (), [], r))
        else:
            out.extend(u for u in _units(r.docs, None, r) if u.tokens)
    return [u for u in out if u.tokens]


def check_records(inputs: Inputs, path: str, allowed: Optional[Set[str]]) -> Optional[Tuple[List[Problem], int]]:
    """Every problem of the submission ``path`` read record by record (and its count of records), or None when its
    format is not read record by record."""
    assert inputs.gold is not None
    options = inputs.reader_options()
    decoding = Decoding(inputs.scheme or "IOB2", inputs.policy or "conlleval", tuple(inputs.label_map))
    fmt = inputs.input_format(path)
    records = record_parts(path, fmt, options, decoding)
    if records is None:
        return None
    if not records:     # the kind a column file gets, not every document of gold missing
        return [Problem(display_name(path), 0, "empty_file", "no records", "a record for each document of gold")], 0
    gfmt = get_format(inputs.input_format(inputs.gold, gold=True))
    gold_docs = whole(gfmt.feed(inputs.gold, gfmt.make_options(options), decoding, None))
    gold = [u for u in _units(gold_docs) if u.tokens]
    name = display_name(path)
    problems = [_refused(name, r) for r in records if r.error is not None]
    gold_labels = set(map_labels(inputs.label_map, sorted({s[0] for u in gold for s in u.spans}))) - {""}
    sub = [u for r in records if r.docs is not None for u in _units(r.docs, None, r) if u.tokens]
    if gold and sub and all(u.id is not None for u in gold + sub):
        gold, sub, found = _by_id(gold, sub, name)
        problems += found
    else:
        sub = _in_order(records, gold)
    size = max([r.line for r in records] + [0])
    aligner = Aligner(_lines(display_name(inputs.gold), gold, 0), _lines(name, sub, size),
                      [u.tokens for u in gold], [u.tokens for u in sub], unit="document")
    problems += aligner.problems()
    problems += _labels(name, sub, inputs, allowed or gold_labels, "the labels given" if allowed else "gold's labels")
    problems += _ill_formed(inputs, path, fmt, options, records)
    return problems, len(records)


def _refused(name: str, r: Record) -> Problem:
    """A record the reader refuses: its message, split at what it expected."""
    assert r.error is not None
    text = r.error.message
    kind = "encoding" if text.startswith("not UTF-8") else "bad_record"
    found, sep, expected = text.partition("; expected ")
    if not sep:
        found, sep, expected = text.partition(", expected ")
    return Problem(r.error.path or name, r.line, kind, found, expected or "a record its reader reads")


def _labels(name: str, sub: List[Unit], inputs: Inputs, allowed: Set[str], what: str) -> List[Problem]:
    out = []
    shown = ", ".join(sorted(allowed)) or "none"
    for u in sub:
        for label, a, b in u.spans:
            mapped = map_labels(inputs.label_map, [label])[0]
            if mapped and mapped not in allowed:
                out.append(Problem(name, u.line, "unknown_label", f"label {mapped!r} (tokens {a + 1}-{b + 1}: "
                                   f"{' '.join(u.tokens[a:b + 1][:6])})", f"one of {what}: {shown}"))
    return out


def _ill_formed(inputs: Inputs, path: str, fmt: str, options: Dict[str, Any], records: List[Record]) -> List[Problem]:
    """A record whose tags hold ill-formed sequences: the first one as the strict policy names it, and how many."""
    bad = [r for r in records if r.docs is not None and (r.docs.notes.get("repairs") or r.docs.notes.get("discarded"))]
    if not bad:
        return []
    record = get_format(fmt)
    strict = record.feed(path, record.make_options(options), Decoding(inputs.scheme or "IOB2", "strict"), 1)
    out = []
    for r in bad:
        n = int(r.docs.notes.get("repairs") or 0) + int(r.docs.notes.get("discarded") or 0)
        try:
            strict.parse(r.raw, None, 0)
            why = "an ill-formed span"
        except InputError as err:
            why = err.message.split("; policy strict", 1)[0]
        out.append(Problem(display_name(path), r.line, "ill_formed", f"{why} ({n} ill-formed span{'s' * (n != 1)} "
                           "in this record)", "well-formed tags of the scheme",
                           repairs={"conlleval": "each read as a span and counted as a repair",
                                    "strict": "an error: the file is not scored", "discard": "each span is dropped"}))
    return out
