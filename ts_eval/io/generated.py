"""Generated outputs: entity strings with labels and no offsets (instruction-tuned LLMs,
UniversalNER-style models, GPT-NER) -> :class:`Generated`, one record per document.

Shapes read, one JSON value per line (or a JSON array of records):

* ``{"id": ..., "entities": [{"text": "...", "label": "..."}, ...]}``
* ``{"id": ..., "entities": [["text", "label"], ...]}``
* ``{"id": ..., "entities": {"label": ["text", ...], ...}}``
* a whole line ``[["text", "label"], ...]`` (or a list of ``{"text", "label"}`` objects) or
  ``{"label": ["text", ...], ...}``: no id, so the records are paired with gold's documents by order.

Records with an ``id`` are paired with gold's documents by id (every gold document needs a
record, an empty list for none).  The field and the id key can be renamed (``field=``,
``id_key=``).  Nothing is normalised or deduplicated here: :mod:`ts_eval.io.grounding` does that.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, List, Optional, Sequence, Tuple

import msgspec

from ..core.options import Options
from ..errors import InputError
from .formats import Format, register_format
from .jsonl import decode, short
from .source import display_name

FIELD = "entities"
ID_KEY = "id"


@dataclass
class Generated:
    """The records of one generated-output file: per record its id and line, per string its record,
    text, label and line."""

    path: str
    ids: List[Optional[str]] = dc_field(default_factory=list)
    lines: List[int] = dc_field(default_factory=list)
    doc: List[int] = dc_field(default_factory=list)      # per string: its record
    text: List[str] = dc_field(default_factory=list)
    label: List[str] = dc_field(default_factory=list)
    first: int = 0                                       # the records of the file before these
    id_key: str = ID_KEY

    @property
    def n_docs(self) -> int:
        return len(self.ids)

    def where(self, d: int) -> str:
        """How a message names record ``d``."""
        return f"record {self.ids[d]!r}" if self.ids[d] is not None else f"record {self.first + d + 1}"

    def id_error(self, d: int, first_has: bool, first_line: int) -> InputError:
        """The error for record ``d``, the first whose id is there or not unlike the file's first record's."""
        if first_has:
            return mixed_ids(self.first + d + 1, self.id_key, self.path, self.lines[d])
        return mixed_ids(1, self.id_key, self.path, first_line)

    @staticmethod
    def concat(parts: Sequence[Generated]) -> Generated:
        return concat_generated(list(parts))

    def take(self, order: Any, notes: bool = False) -> Generated:
        """Records ``order`` (indices, in that order) as records of their own."""
        pick = [int(k) for k in order]
        where = {k: j for j, k in enumerate(pick)}
        keep = [k for k, d in enumerate(self.doc) if d in where]
        keep.sort(key=lambda k: where[self.doc[k]])
        contiguous = bool(pick) and pick == list(range(pick[0], pick[0] + len(pick)))
        return Generated(self.path, [self.ids[d] for d in pick], [self.lines[d] for d in pick],
                         [where[self.doc[k]] for k in keep], [self.text[k] for k in keep],
                         [self.label[k] for k in keep], self.first + (pick[0] if contiguous else 0), self.id_key)


def concat_generated(parts: List[Generated]) -> Generated:
    """Consecutive records of one file as one."""
    out = Generated(parts[0].path, first=parts[0].first, id_key=parts[0].id_key)
    for p in parts:
        base = len(out.ids)
        out.ids += p.ids
        out.lines += p.lines
        out.doc += [d + base for d in p.doc]
        out.text += p.text
        out.label += p.label
    return out


def add_record(out: Generated, value: Any, line: int, number: int, *, field: str = FIELD,
               id_key: str = ID_KEY) -> None:
    """Add the record ``value`` (the input's record ``number``, counted from 1, on ``line``) to ``out``."""
    rid, entities = _record(value, field, id_key, out.path, line, number - 1)
    d = len(out.ids)
    out.ids.append(rid)
    out.lines.append(line)
    for text, label in _entities(entities, out.path, line, f"record {number}"):
        out.doc.append(d)
        out.text.append(text)
        out.label.append(label)


def mixed_ids(number: int, id_key: str, name: str, line: int) -> InputError:
    """The error for record ``number`` (on ``line``), the first without an id in an input where others have one."""
    return InputError(f"record {number} has no {id_key!r} but others have one; give every record an id (they "
                      "pair with gold's documents by id) or none (paired by order)", name, line)


def starts_array(line: str) -> bool:
    """Whether the first non-empty line of an input opens a JSON array of records over several lines (it
    starts with ``[`` and is no JSON value by itself): the whole input is then one array."""
    if not line.lstrip().startswith("["):
        return False
    try:
        msgspec.json.decode(line)
    except msgspec.DecodeError:
        return True
    return False


def line_value(line: str, name: str, number: int) -> Any:
    """The JSON value of the non-empty line ``number``."""
    return decode(line, name, number, "; expected one JSON value per line")


def _record(value: Any, field: str, id_key: str, name: str, line: int, d: int) -> Tuple[Optional[str], Any]:
    """(id or None, the entities) of one line."""
    if isinstance(value, dict) and (field in value or id_key in value):
        if field not in value:
            raise InputError(f"record {d + 1}: no {field!r} key; expected {{{id_key!r}: ..., {field!r}: [...]}} "
                             "(an empty list for a record without entities)", name, line)
        rid = value.get(id_key)
        if rid is not None and (not isinstance(rid, (str, int)) or isinstance(rid, bool)):
            raise InputError(f"record {d + 1}: id {short(rid)} is not a string or integer", name, line)
        return (None if rid is None else str(rid)), value[field]
    return None, value


def _entities(value: Any, name: str, line: int, where: str) -> List[Tuple[str, str]]:
    """(text, label) pairs of one record's entities, in order (a label's strings in their order)."""
    pairs: List[Tuple[Any, Any]] = []
    if isinstance(value, dict):
        for label, texts in value.items():
            if not isinstance(texts, list):
                raise InputError(f"{where}: label {label!r} maps to {short(texts)}, expected a list of strings",
                                 name, line)
            pairs.extend((t, label) for t in texts)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and "text" in item and "label" in item:
                pairs.append((item["text"], item["label"]))
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                pairs.append((item[0], item[1]))
            else:
                raise InputError(f"{where}: entity {short(item)}; expected {{\"text\": ..., \"label\": ...}} or "
                                 '["text", "label"]', name, line)
    else:
        raise InputError(f"{where}: {short(value)}; expected a list of entities or an object label -> strings",
                         name, line)
    for text, label in pairs:
        if not isinstance(text, str) or not text.strip():
            raise InputError(f"{where}: entity text {short(text)} is not a non-empty string (expected the "
                             "entity's words as the text has them)", name, line)
        if not isinstance(label, str) or not label.strip():
            raise InputError(f"{where}: entity label {short(label)} is not a non-empty string", name, line)
    return [(str(t), str(lab)) for t, lab in pairs]


def looks_generated(line: str) -> bool:
    """Whether one line (the first of a file) is a generated-output record, for detection by content:
    entities as strings with labels and no offsets (a record without text, tokens or spans, or a whole
    line of [text, label] pairs)."""
    try:
        value = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return False
    if isinstance(value, dict):
        return FIELD in value and not any(k in value for k in ("text", "tokens", "spans", "data", "label"))
    if isinstance(value, list) and value:
        first = value[0]
        return (isinstance(first, dict) and set(first) == {"text", "label"}) or (
            isinstance(first, list) and len(first) == 2 and all(isinstance(x, str) for x in first))
    return False


# ---------------------------------------------------------------------------
# the format: records placed on gold's documents


@dataclass(frozen=True)
class GeneratedOptions(Options):
    """How the strings are placed on gold's texts (:mod:`ts_eval.io.grounding`): ``generated`` (the mode:
    ground, strings, fuzzy), ``ground`` (first or all occurrences), ``normalize``, ``fuzzy_threshold``; the
    keys of a record's entities (``field``) and id (``id_key``)."""

    generated: Optional[str] = None
    ground: Optional[str] = None
    normalize: Any = None
    fuzzy_threshold: Optional[float] = None
    field: str = FIELD
    id_key: str = ID_KEY


def parse_records(data: bytes, name: str, lines_before: int, first: int, field: str, id_key: str,
                  bytes_before: int = 0) -> Generated:
    """The records of the lines ``data`` of a file, after ``lines_before`` lines, ``bytes_before`` bytes and
    ``first`` records."""
    from .source import BOM, check_utf8

    check_utf8(data, name, lines_before=lines_before, bytes_before=bytes_before)
    text = (data[len(BOM):] if not lines_before and data.startswith(BOM) else data).decode("utf-8")
    out = Generated(name, first=first, id_key=id_key)
    for k, ln in enumerate(text.split("\n")):
        if ln.strip():
            add_record(out, line_value(ln, name, lines_before + k + 1), lines_before + k + 1, first + out.n_docs + 1,
                       field=field, id_key=id_key)
    return out


class GeneratedFeed:
    """A generated output's records, handed out a number at a time (:class:`ts_eval.io.feed.Feed`) and placed on
    gold's documents (:meth:`place`, :meth:`attach`); what grounding finds is added up as they are placed
    (:class:`~ts_eval.io.grounding.GroundingTally`), its notes of the whole on the last block."""

    def __init__(self, path: str, options: GeneratedOptions, decoding: Any, block_bytes: Optional[int]) -> None:
        from .feed import DocumentFeed, before_line
        from .grounding import GroundingTally, ground_settings
        from .jsonl import json_stream
        from .source import line_blocks, line_end

        self.name = display_name(path)
        self.settings = ground_settings(options.generated, options.ground, options.normalize,
                                        options.fuzzy_threshold)
        self.label_map = tuple(decoding.label_map)
        self.tally = GroundingTally(self.settings)
        self.placed = 0

        def parse(raw: Any, stop: Optional[int], first: int) -> Generated:
            return parse_records(raw.data if stop is None else raw.data[:stop], self.name, raw.lines, first,
                                 options.field, options.id_key, raw.bytes)

        blocks = line_blocks(lambda: json_stream(path, starts_array), line_end, block_bytes)
        self.feed = DocumentFeed(self.name, blocks, parse, before_line(self.name, False),
                                 lambda last: Generated(self.name),
                                 lambda: InputError("empty input, expected JSON values, one per line", self.name))

    def take(self, n: Optional[int] = None) -> Generated:
        part: Generated = self.feed.take(n)
        return part

    def done(self) -> bool:
        return self.feed.done()

    def pending(self) -> Optional[InputError]:
        return self.feed.pending()

    def end(self) -> None:
        self.feed.end()

    def size(self, part: Any) -> int:
        return int(part.n_docs)

    def place(self, gold: Any, gen: Generated, order: Any, last: bool) -> Any:
        """The records ``gen`` placed on ``gold``'s documents (gold's document g takes record ``order[g]``);
        ``last``: gold has no more (the notes of the whole are then the block's)."""
        import numpy as np

        from .grounding import place

        if len(order) != gen.n_docs or not np.array_equal(order, np.arange(gen.n_docs)):
            gen = gen.take(order)
        grounded = place(gold, gen, np.arange(gold.n_docs), self.tally, gen.first)
        self.placed += gen.n_docs
        notes = self.tally.notes(self.label_map) if last else {"generated": {"mode": self.settings.mode}}
        grounded.notes.update(notes)
        grounded.docs.notes.update(notes)
        return grounded

    def attach(self, corpus: Any, gold: Any, grounded: Any) -> Any:
        from .grounding import attach

        return attach(corpus, gold, grounded, self.settings)


def _sniff(head: str) -> bool:
    return head.startswith(("[", "{")) and looks_generated(head.split("\n", 1)[0])


FORMAT = register_format(Format("generated", GeneratedFeed, GeneratedOptions, sniff=_sniff, places=True,
                                description="a generated output: entity strings with labels, no offsets"))
