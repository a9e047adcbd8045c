"""JSON Lines with token lists -> :class:`Documents`.

One document or sentence per line, in one of three shapes (the first record decides,
all records must share it):

* spans: ``{"id": "d1", "tokens": [..], "spans": [{"start": 0, "end": 1, "label": "PER"}]}``
  (token offsets, ``end`` exclusive; nested and overlapping spans are kept);
* tags: ``{"tokens": [..], "tags": ["B-PER", "O", ..]}`` decoded by ``scheme``/``policy``;
* Hugging Face: ``{"tokens": [..], "ner_tags": [3, 0, ..]}`` with the tag names from
  ``tag_names`` (a list, a JSON list file, or a data set's ``dataset_info.json``).

msgspec decodes each chunk of records (:mod:`ts_eval.io.jsonl`) into a record of the file's shape whose
values have the types the reader takes (``tokens`` strings, ``tags`` strings, ``ner_tags`` integers, an id
string or integer; the ``spans`` are kept as JSON and decoded into span objects of their own): such a chunk
needs no check of its own.  A chunk that msgspec does not decode so is decoded as dicts and checked record
by record, which names the first bad one.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import msgspec
import numpy as np

from ..core.options import Options
from ..core.printable import control_message, first_control
from ..errors import InputError
from .documents import TOKEN_SEP, build_documents, documents_from_tags, tags_evidence
from .formats import Format, register_format
from .jsonl import Buffer, Span, decode, is_int, line_chunks, records, short
from .source import display_name, gc_paused, read_text

SHAPES = ("spans", "tags", "ner_tags")


def load_tag_names(source: Union[str, Sequence[str]], feature: str = "ner_tags") -> List[str]:
    """Tag names: a list as is, or a file holding a JSON list or a Hugging Face
    ``dataset_info.json`` (``features[feature].feature.names``; one config level is looked into)."""
    if not isinstance(source, str):
        return [str(x) for x in source]
    obj = decode(read_text(source), source, None, "")
    if isinstance(obj, dict) and "features" not in obj and len(obj) == 1:
        obj = next(iter(obj.values()))  # dataset_infos.json: {config: info}
    if isinstance(obj, dict):
        try:
            feat = obj["features"][feature]
            obj = feat["feature"]["names"] if "feature" in feat else feat["names"]
        except (KeyError, TypeError):
            raise InputError(f"no features.{feature}.feature.names; expected a JSON list of tag names or a "
                             "Hugging Face dataset_info.json", source) from None
    if not isinstance(obj, list) or not obj or not all(isinstance(x, str) for x in obj):
        raise InputError("expected a non-empty JSON list of tag-name strings", source)
    bad = first_control(obj)
    if bad is not None:
        raise InputError(f"tag name {bad}: {control_message(obj[bad])}", source)
    return obj

#: the shape of a file's records, and the line of the record that decided it
Shape = Tuple[str, int]

_SPANS = msgspec.json.Decoder(List[List[Span]])
_VALUES = msgspec.json.Decoder()
_TYPES: Dict[str, Any] = {"tags": List[str], "spans": msgspec.Raw, "ner_tags": List[int]}


@functools.lru_cache(maxsize=16)
def _record_type(shape: str, id_key: str) -> Optional[msgspec.json.Decoder[Any]]:
    """How msgspec decodes a chunk of records of ``shape`` into values of the types the reader takes (the spans
    left as JSON); None when the id key is one of the record's other keys."""
    if id_key in ("tokens", shape):
        return None
    rec = msgspec.defstruct("TokenRecord", [("tokens", List[str]), ("value", _TYPES[shape]),
                                            ("id", Union[str, int, None], None)],
                            rename={"value": shape, "id": id_key})
    return msgspec.json.Decoder(List[rec])      # type: ignore[valid-type]


@gc_paused
def tokens_documents(data: bytes, name: str, *, scheme: str = "IOB2", policy: str = "conlleval",
                     tag_names: Union[str, Sequence[str], None] = None, id_key: str = "id",
                     shape_of: Optional[Shape] = None, lines_before: int = 0, bytes_before: int = 0, first: int = 0,
                     detected: Optional[str] = None, evidence: bool = False) -> Tuple[Any, Optional[Shape]]:
    """The Documents of the bytes of a token-list JSON Lines file, or of a run of its lines (``shape_of``:
    the shape its first record decided; ``lines_before``, ``bytes_before``, ``first``: the lines, bytes and
    records of the file before them; None for lines without records), and the shape.  ``detected``: the
    scheme ``auto`` stands for; ``evidence``: what the scheme ``auto`` is detected from instead of Documents."""
    read: Optional[_Read] = None
    for body, numbers in line_chunks(data, name, lines_before=lines_before, bytes_before=bytes_before):
        if read is None:        # (the first chunk's JSON is checked before the shape of its first record)
            shape = shape_of or _shape(records(body, numbers, name)[0], name, numbers[0])
            names = None
            if shape[0] == "ner_tags":
                if tag_names is None:
                    raise InputError("'ner_tags' holds tag numbers: give tag_names (a JSON list or "
                                     "dataset_info.json)", name, shape[1])
                names = load_tag_names(tag_names)
            read = _Read(name, shape, names, id_key)
        read.chunk(body, numbers)
    if read is None:                # (line_chunks raises for a file without records: this is a block)
        return None, shape_of
    return read.documents(scheme, policy, first, detected, evidence), read.shape


def _shape(first: Dict[str, Any], name: str, line: int) -> Shape:
    found = next((s for s in SHAPES if s in first), None)
    if found is None or "tokens" not in first:
        raise InputError(f"keys {', '.join(map(repr, first)) or '(none)'}; expected 'tokens' "
                         f"and one of {', '.join(map(repr, SHAPES))}", name, line)
    return found, line


class _Read:
    """What the chunks of one file (or block) give: per record its line, tokens (joined: its key), id; the tags
    as ids (or the tag numbers, or the spans' JSON), chunk by chunk."""

    def __init__(self, name: str, shape: Shape, names: Optional[List[str]], id_key: str) -> None:
        self.name, self.shape, self.names, self.id_key = name, shape, names, id_key
        self.typed = _record_type(shape[0], id_key)
        self.lines: List[int] = []
        self.lengths: List[int] = []
        self.ids: List[Optional[str]] = []
        self.keys: List[str] = []               # per record its tokens joined by TOKEN_SEP
        self.vocab: Dict[str, int] = {}         # the tags, in order of first appearance
        self.tags: List[np.ndarray] = []        # per chunk its tags' ids
        self.tag_error: Optional[InputError] = None             # the first tag that is not a string
        self.values: List[Any] = []             # ner_tags
        self.spans: List[bytes] = []            # per chunk its records' "spans", as one JSON array
        self.counts: List[int] = []             # per record its spans
        #: per chunk its spans' starts, ends and labels (None: a span is not integers and a string)
        self.typed_spans: Optional[List[Tuple[np.ndarray, np.ndarray, List[str]]]] = []

    def chunk(self, body: List[Buffer], numbers: List[int]) -> None:
        """Take a chunk's records (its lines ``body``): of the reader's types as msgspec decodes them, else as
        dicts checked one by one."""
        recs = records(body, numbers, self.name, self.typed)
        if isinstance(recs[0], dict):
            self._checked(recs, numbers)
            return
        toks = [r.tokens for r in recs]
        lengths = list(map(len, toks))
        values = [r.value for r in recs]
        spans = _span_lists(values) if self.shape[0] == "spans" else None
        if 0 in lengths or (spans is None and list(map(len, values)) != lengths) or \
                (spans is not None and spans[1] is None and not set(map(type, _VALUES.decode(spans[0]))) <= {list}):
            self._checked(records(body, numbers, self.name), numbers)      # (what is wrong is named)
            return
        rids = [r.id for r in recs]
        self.lines.extend(numbers)
        self.lengths.extend(lengths)
        self.ids.extend(rids if int not in set(map(type, rids)) else [None if r is None else str(r) for r in rids])
        self.keys.extend(map(TOKEN_SEP.join, toks))
        if spans is not None:
            self._spans(*spans)
        else:
            self._values(values, numbers, typed=True)

    def _values(self, values: List[Any], numbers: List[int], typed: bool = False) -> None:
        """Keep a chunk's tags (as ids) or tag numbers (``values``: per record its list; ``typed``: of the
        reader's types, as msgspec decoded them)."""
        flat = list(itertools.chain.from_iterable(values))
        if self.shape[0] == "ner_tags":
            self.values.extend(flat)
        elif typed or set(map(type, flat)) <= {str}:
            if not set(flat) <= self.vocab.keys():      # a tag not seen before: in order of first appearance
                for tag in dict.fromkeys(flat):
                    self.vocab.setdefault(tag, len(self.vocab))
            self.tags.append(np.fromiter(map(self.vocab.__getitem__, flat), np.int32, len(flat)))
        elif self.tag_error is None:        # reported when every record is read (as a record's error comes first)
            k = next(k for k, t in enumerate(flat) if not isinstance(t, str))
            line = int(np.repeat(numbers, self.lengths[-len(numbers):])[k])
            self.tag_error = InputError(f"tag {short(flat[k])} is not a string", self.name, line)

    def _checked(self, recs: List[Dict[str, Any]], numbers: List[int]) -> None:
        """A chunk of records as dicts, checked one by one (the first bad one is reported)."""
        name, (shape, first_line) = self.name, self.shape
        values: List[Any] = []
        for rec, line in zip(recs, numbers):
            self.lines.append(line)
            tokens = rec.get("tokens")
            if not isinstance(tokens, list):
                raise InputError(f"'tokens' is {short(tokens)}, expected a list of strings", name, line)
            try:
                self.keys.append(TOKEN_SEP.join(tokens))
            except TypeError:
                bad = next(t for t in tokens if not isinstance(t, str))
                raise InputError(f"token {short(bad)} is not a string", name, line) from None
            n = len(tokens)
            if n == 0:
                raise InputError("'tokens' is empty; expected at least one token", name, line)
            self.lengths.append(n)
            rid = rec.get(self.id_key)
            if rid is not None and not isinstance(rid, str) and not is_int(rid):
                raise InputError(f"id {short(rid)} is not a string or integer", name, line)
            self.ids.append(None if rid is None else str(rid))
            value = rec.get(shape)
            if not isinstance(value, list):
                raise InputError(f"{shape!r} is {short(value)}, expected a list (all lines must have the shape "
                                 f"of line {first_line}: 'tokens' and {shape!r})", name, line)
            if shape != "spans" and len(value) != n:
                raise InputError(f"{len(value)} {shape} for {n} tokens; expected one per token", name, line)
            values.append(value)
        if shape == "spans":
            self._spans(*_span_lists([msgspec.json.encode(value) for value in values]))
        else:
            self._values(values, numbers)

    def _spans(self, joined: bytes, typed: Optional[List[List[Span]]]) -> None:
        """Keep a chunk's spans (``joined``: its records' ``"spans"`` as one JSON array): their JSON, for the
        messages, and as arrays while each is a span of msgspec's types (``typed``; integers of 64 bits)."""
        self.spans.append(joined)
        self.counts.extend(map(len, typed if typed is not None else _VALUES.decode(joined)))
        if typed is None or self.typed_spans is None:
            self.typed_spans = None
            return
        flat = list(itertools.chain.from_iterable(typed))
        try:
            starts, ends = (np.fromiter(map(attrgetter(key), flat), np.int64, len(flat)) for key in ("start", "end"))
        except OverflowError:       # an offset beyond 64 bits: the span by span check names it
            self.typed_spans = None
            return
        self.typed_spans.append((starts, ends, list(map(attrgetter("label"), flat))))

    def documents(self, scheme: str, policy: str, first: int = 0, detected: Optional[str] = None,
                  evidence: bool = False) -> Any:
        name, shape = self.name, self.shape[0]
        doc_len = np.asarray(self.lengths, np.int64)
        keys = self.keys
        lines = self.lines
        if shape == "spans":
            if evidence:
                return None
            span_doc, span_b, span_e, span_lab = self._checked_spans(doc_len)
            return build_documents(name, "jsonl-tokens", doc_len, self.ids, keys, span_doc, span_b, span_e, span_lab,
                                   lines=lines, first=first)
        token_lines = np.repeat(np.asarray(lines, np.int32), self.lengths)
        if shape == "tags":
            if self.tag_error is not None:
                raise self.tag_error
            tag_vocab = list(self.vocab)
            tag_ids = np.concatenate(self.tags) if self.tags else np.zeros(0, np.int32)
        else:
            tag_vocab, tag_ids = _tag_numbers(name, self.values, self.names or [], token_lines)
        if evidence:
            return tags_evidence(name, self.lengths, tag_vocab, tag_ids, lines, token_lines, first)
        return documents_from_tags(name, "jsonl-tokens", self.lengths, self.ids, keys, tag_vocab, tag_ids, scheme,
                                   policy, lines=lines, token_lines=token_lines, first=first, detected=detected)

    def _checked_spans(self, lengths: np.ndarray) -> Tuple[np.ndarray, Any, Any, List[Any]]:
        """(document, start, end, label) of every span, each checked (the first bad one is reported)."""
        doc = np.repeat(np.arange(len(self.counts), dtype=np.int64), self.counts)
        if self.typed_spans is not None:
            b, e = (np.concatenate([part[j] for part in self.typed_spans] or [np.zeros(0, np.int64)]) for j in (0, 1))
            labels = [x for part in self.typed_spans for x in part[2]]
            if not np.any((b < 0) | (b >= e) | (e > lengths[doc])) and "" not in set(labels):
                return doc, b, e, labels
        flat = [sp for joined in self.spans for spans in _VALUES.decode(joined) for sp in spans]
        for k, sp in enumerate(flat):       # (msgspec refused a span, or one is out of range: it is named)
            _check_span(sp, int(lengths[doc[k]]), self.name, self.lines[doc[k]])
        starts, ends = (np.asarray([sp[key] for sp in flat], np.int64) for key in ("start", "end"))
        return doc, starts, ends, [sp["label"] for sp in flat]


def _span_lists(values: List[Buffer]) -> Tuple[bytes, Optional[List[List[Span]]]]:
    """A chunk's ``"spans"`` values as one JSON array, and as msgspec decodes them into spans (None: one is not
    a list of span objects of integers and a string)."""
    joined = b"[" + b",".join(values) + b"]"
    try:
        return joined, _SPANS.decode(joined)
    except msgspec.ValidationError:
        return joined, None


def _tag_numbers(name: str, flat: List[Any], names: List[str], token_lines: np.ndarray) -> Tuple[List[str], np.ndarray]:
    """(tag vocabulary, per-token tag ids) of Hugging Face ``ner_tags`` numbers."""
    if not set(map(type, flat)) <= {int}:
        k = next(i for i, t in enumerate(flat) if not is_int(t))
        raise InputError(f"ner_tags value {short(flat[k])} is not an integer", name, int(token_lines[k]))
    tag_ids = np.asarray(flat, np.int64)
    out = (tag_ids < 0) | (tag_ids >= len(names))
    if out.any():
        k = int(np.flatnonzero(out)[0])
        raise InputError(f"ner_tags value {flat[k]} has no tag name; expected 0..{len(names) - 1} "
                         f"({len(names)} names given)", name, int(token_lines[k]))
    return names, tag_ids.astype(np.int32)


def _check_span(sp: Any, n: int, name: str, line: int) -> None:
    if not isinstance(sp, dict) or not {"start", "end", "label"} <= sp.keys():
        raise InputError(f"span {short(sp)}; expected {{\"start\": int, \"end\": int, \"label\": str}}", name, line)
    b, e, lab = sp["start"], sp["end"], sp["label"]
    if not is_int(b) or not is_int(e) or not 0 <= b < e <= n:
        raise InputError(f"span {short(sp)}: token offsets must be integers with 0 <= start < end "
                         f"<= {n} (the number of tokens; end exclusive)", name, line)
    if not isinstance(lab, str) or not lab:
        raise InputError(f"span {short(sp)}: label {short(lab)} is not a non-empty string", name, line)


# ---------------------------------------------------------------------------
# the format


@dataclass(frozen=True)
class TokensOptions(Options):
    """``tag_names``: the names of Hugging Face ``ner_tags`` numbers (a list, or a file: a JSON list or a data
    set's ``dataset_info.json``); ``id_key``: the key of a record's id."""

    tag_names: Union[str, Sequence[str], None] = None
    id_key: str = "id"


def feed(path: str, options: TokensOptions, decoding: Any, block_bytes: Optional[int]) -> Any:
    """A token-list JSON Lines input (or one JSON array of records) handed out a number of records at a time."""
    from .documents import no_documents
    from .feed import DocumentFeed, before_line, detected_scheme
    from .jsonl import json_stream
    from .source import line_blocks, line_end

    name = display_name(path)
    shape: List[Shape] = []             # what the first record decided
    names: List[Union[str, Sequence[str], None]] = [options.tag_names]     # a file's names, once it is read
    detected: List[Optional[str]] = [None]

    def parse(raw: Any, stop: Optional[int], first: int, evidence: bool = False) -> Any:
        if shape and shape[0][0] == "ner_tags" and isinstance(names[0], str):
            names[0] = load_tag_names(names[0])      # (read once)
        docs, found = tokens_documents(raw.data if stop is None else raw.data[:stop], name, scheme=decoding.scheme,
                                       policy=decoding.policy, id_key=options.id_key,
                                       shape_of=shape[0] if shape else None, lines_before=raw.lines,
                                       bytes_before=raw.bytes, first=first, detected=detected[0], evidence=evidence,
                                       tag_names=names[0])
        if found is not None and not shape:
            shape.append(found)
        return docs if docs is not None or evidence else no_documents(name, "jsonl-tokens")

    def blocks() -> Any:
        return line_blocks(lambda: json_stream(path), line_end, block_bytes)

    if decoding.scheme == "auto":
        detected[0] = detected_scheme(path, blocks, parse)
        shape.clear()
    return DocumentFeed(name, blocks(), parse, before_line(name, False),
                        lambda last: no_documents(name, "jsonl-tokens"),
                        lambda: InputError("empty input, expected JSON records", name))


def _sniff(head: str) -> bool:
    if not head.startswith("{"):
        return False
    try:
        rec = msgspec.json.decode(head.split("\n", 1)[0])
    except msgspec.DecodeError:
        return False
    return isinstance(rec, dict) and "tokens" in rec and any(k in rec for k in SHAPES) and "text" not in rec


FORMAT = register_format(Format("jsonl-tokens", feed, TokensOptions, sniff=_sniff, tags=True,
                                write=None, description="JSON Lines with token lists and spans or tags"))
