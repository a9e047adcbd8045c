"""JSON Lines / JSON with text and character-offset spans -> :class:`Documents`.

Shapes read (one per record, recognised by its keys):

* spaCy / Prodigy: ``{"id": .., "text": .., "spans": [{"start", "end", "label"}], "tokens"?: [{"start", "end"}]}``
* doccano: ``{"id": .., "text": .., "label": [[start, end, label], ...]}`` (also ``"entities"`` as
  triples or as ``{"start_offset", "end_offset", "label"}``)
* Label Studio JSON export: a JSON array of tasks ``{"id", "data": {"text"}, "annotations":
  [{"result": [{"type": "labels", "value": {"start", "end", "labels": [..]}}]}]}``; the first
  annotation is read (``source="predictions"`` reads the first prediction instead).
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Dict, List, Optional, Tuple, Union

import msgspec
import numpy as np

from ..errors import InputError
from .charspans import CharDocs, to_documents
from .documents import Documents
from .formats import Format, register_format
from .jsonl import Span, is_int, record_chunks, short
from .source import display_name, gc_paused, read_bytes

SPAN_KEYS = ("spans", "label", "entities")


@gc_paused
def read_jsonl_text(path: str, align: str = "strict", id_key: str = "id", text_key: str = "text",
                    source: str = "annotations", tokenizer: str = "default", raw: Optional[bytes] = None, *,
                    lines_before: int = 0, bytes_before: int = 0, first: int = 0,
                    defer: bool = False) -> Optional[Documents]:
    """Read a text-with-character-offsets file (see the module docstring for the shapes); documents
    without their own ``tokens`` are split by ``tokenizer`` (default or whitespace).  ``raw`` may be a block
    of the file after ``lines_before`` lines, ``bytes_before`` bytes and ``first`` records (None: it holds no
    record); ``defer``: :func:`~ts_eval.io.charspans.to_documents`'s."""
    name = display_name(path)
    cd = CharDocs(name, "jsonl-text", first=first)
    notes: Dict[str, int] = {"other_results": 0, "extra_annotations": 0}
    data = read_bytes(path) if raw is None else raw
    for recs, nums in record_chunks(path, data, typed=_spacy_records(text_key, id_key), lines_before=lines_before,
                                    bytes_before=bytes_before):
        if not isinstance(recs[0], dict):
            _spacy_chunk(cd, recs, nums)
            continue
        for rec, line in zip(recs, nums):
            d = len(cd.ids)              # the record's index in the file
            rid = rec.get(id_key)
            if rid is not None and (not isinstance(rid, (str, int)) or isinstance(rid, bool)):
                raise InputError(f"record {first + d + 1}: id {short(rid)} is not a string or integer", name, line)
            cd.ids.append(None if rid is None else str(rid))
            cd.lines.append(line)
            if "data" in rec and isinstance(rec["data"], dict):
                label_studio_task(cd, d, rec, line, text_key, source, notes)
            else:
                text_record(cd, d, rec, line, text_key)
    if not cd.texts and (lines_before or bytes_before):
        return None
    docs = to_documents(cd, align, tokenizer, defer)
    if notes["other_results"] or notes["extra_annotations"]:
        docs.notes.update(notes)
    return docs


class _Token(msgspec.Struct):
    start: int
    end: int


@functools.lru_cache(maxsize=8)
def _spacy_records(text_key: str, id_key: str) -> Optional[msgspec.json.Decoder]:
    """How msgspec decodes a chunk of spaCy-shaped records (a text, spans, maybe own tokens; no Label Studio
    ``data``), each value of the types the reader takes; None when the keys collide.  A chunk with any other
    record is decoded as dicts and read record by record."""
    if len({text_key, id_key, "spans", "tokens", "data"}) < 5:
        return None
    rec = msgspec.defstruct("TextRecord", [("text", str), ("spans", List[Span]),
                                           ("tokens", Optional[List[_Token]], None),
                                           ("id", Union[str, int, None], None),
                                           ("data", None, None)],
                            rename={"text": text_key, "id": id_key})
    return msgspec.json.Decoder(List[rec])      # type: ignore[valid-type]


def _spacy_chunk(cd: CharDocs, recs: List[Any], nums: List[int]) -> None:
    """Append a chunk of spaCy-shaped records as msgspec decoded them (checked with every span at the end)."""
    first = len(cd.ids)
    rids = list(map(attrgetter("id"), recs))
    cd.ids.extend(rids if int not in set(map(type, rids)) else [None if r is None else str(r) for r in rids])
    cd.lines.extend(nums)
    cd.texts.extend(map(attrgetter("text"), recs))
    cd.own_tokens.extend([None if toks is None else ([t.start for t in toks], [t.end for t in toks])
                          for toks in map(attrgetter("tokens"), recs)])
    spans = list(map(attrgetter("spans"), recs))
    counts = np.fromiter(map(len, spans), np.int64, len(spans))
    flat = list(itertools.chain.from_iterable(spans))
    cd.span_start.extend(list(map(attrgetter("start"), flat)))
    cd.span_end.extend(list(map(attrgetter("end"), flat)))
    cd.span_label.extend(list(map(attrgetter("label"), flat)))
    cd.span_doc.extend(np.repeat(np.arange(first, first + len(recs)), counts).tolist())
    cd.span_line.extend(np.repeat(np.asarray(nums, np.int64), counts).tolist())


def _set_text(cd: CharDocs, d: int, text: Any, line: int, what: str) -> None:
    if not isinstance(text, str):
        raise InputError(f"{cd.where(d)}: {what} is {short(text)}, expected a string", cd.path, line)
    cd.texts.append(text)


def text_record(cd: CharDocs, d: int, rec: Dict[str, Any], line: int, text_key: str) -> None:
    if text_key not in rec:
        raise InputError(f"{cd.where(d)}: no {text_key!r} key; expected a text record with keys "
                         f"{text_key!r} and one of {', '.join(SPAN_KEYS)}", cd.path, line)
    _set_text(cd, d, rec[text_key], line, f"{text_key!r}")
    cd.own_tokens.append(_own_tokens(cd, d, rec.get("tokens"), line))
    present = [k for k in SPAN_KEYS if k in rec]
    if not present:
        raise InputError(f"{cd.where(d)}: no spans key; expected one of {', '.join(SPAN_KEYS)} "
                         "(an empty list for a document without spans)", cd.path, line)
    spans = rec[present[0]]
    if not isinstance(spans, list):
        raise InputError(f"{cd.where(d)}: {present[0]!r} is {short(spans)}, expected a list", cd.path, line)
    for sp in spans:
        if isinstance(sp, dict):
            if "start_offset" in sp:
                cd.add_span(d, sp.get("start_offset"), sp.get("end_offset"), sp.get("label"), line)
            elif "start" in sp and "end" in sp and "label" in sp:
                cd.add_span(d, sp["start"], sp["end"], sp["label"], line)
            else:
                raise InputError(f"{cd.where(d)}: span {short(sp)} lacks start/end/label; expected "
                                 '{"start": int, "end": int, "label": str}', cd.path, line)
        elif isinstance(sp, list) and len(sp) == 3:
            cd.add_span(d, sp[0], sp[1], sp[2], line)
        else:
            raise InputError(f"{cd.where(d)}: span {short(sp)}; expected [start, end, label] or an object "
                             "with start, end, label", cd.path, line)


def _own_tokens(cd: CharDocs, d: int, tokens: Any, line: int) -> Optional[Tuple[List[int], List[int]]]:
    if tokens is None:
        return None
    if not isinstance(tokens, list):
        raise InputError(f"{cd.where(d)}: 'tokens' is {short(tokens)}, expected a list of "
                         '{"start", "end"} objects', cd.path, line)
    for k, t in enumerate(tokens):
        if not isinstance(t, dict) or not is_int(t.get("start")) or not is_int(t.get("end")):
            raise InputError(f"{cd.where(d)}: token {k} is {short(t)}; expected an object with integer "
                             "'start' and 'end' character offsets", cd.path, line)
    return [t["start"] for t in tokens], [t["end"] for t in tokens]


def label_studio_task(cd: CharDocs, d: int, task: Dict[str, Any], line: int, text_key: str, source: str,
                  notes: Dict[str, int]) -> None:
    data = task["data"]
    if text_key not in data:
        raise InputError(f"{cd.where(d)}: Label Studio task without data[{text_key!r}]; the data keys are "
                         f"{', '.join(map(repr, data)) or '(none)'} (pass text_key=...)", cd.path, line)
    _set_text(cd, d, data[text_key], line, f"data[{text_key!r}]")
    cd.own_tokens.append(None)
    anns = task.get(source)
    if not isinstance(anns, list) or not anns:
        raise InputError(f"{cd.where(d)}: Label Studio task has no {source!r}; expected at least one "
                         "(source='annotations' or 'predictions')", cd.path, line)
    notes["extra_annotations"] += len(anns) - 1
    result = anns[0].get("result") if isinstance(anns[0], dict) else None
    if not isinstance(result, list):
        raise InputError(f"{cd.where(d)}: {source}[0] has no 'result' list", cd.path, line)
    for item in result:
        value = item.get("value") if isinstance(item, dict) else None
        if not isinstance(value, dict) or "start" not in value or "labels" not in value:
            notes["other_results"] += 1  # relations, choices, ...: not spans
            continue
        labels = value["labels"]
        if not isinstance(labels, list) or not labels:
            raise InputError(f"{cd.where(d)}: result labels {short(labels)}; expected a non-empty list of "
                             "strings", cd.path, line)
        for lab in labels:
            cd.add_span(d, value.get("start"), value.get("end"), lab, line)


# ---------------------------------------------------------------------------
# the formats: JSON Lines with texts, and Label Studio's export (the same reader)


@dataclass(frozen=True)
class TextOptions:
    """``align``: a span off the token boundaries is an error (strict), grows to the tokens it touches
    (expand) or shrinks to those inside it (contract); ``tokenizer``: default or whitespace, for documents
    without tokens of their own; the keys of a record's id and text; ``source``: Label Studio's annotations or
    predictions."""

    align: str = "strict"
    id_key: str = "id"
    text_key: str = "text"
    source: str = "annotations"
    tokenizer: str = "default"


def feed(path: str, options: TextOptions, decoding: Any, block_bytes: Optional[int]) -> Any:
    """A JSON Lines input of texts (or one JSON array of records, Label Studio's) handed out a number of
    records at a time; a span off the token boundaries under ``align="strict"`` is raised by the joiner, once
    the text is compared with gold's (:func:`~ts_eval.io.charspans.to_documents`'s ``defer``)."""
    from .documents import no_documents
    from .feed import DocumentFeed, before_line
    from .jsonl import json_stream
    from .source import line_blocks, line_end

    name = display_name(path)

    def parse(raw: Any, stop: Optional[int], first: int) -> Documents:
        docs = read_jsonl_text(name, options.align, options.id_key, options.text_key, options.source,
                               options.tokenizer, raw.data if stop is None else raw.data[:stop],
                               lines_before=raw.lines, bytes_before=raw.bytes, first=first, defer=True)
        return docs if docs is not None else no_documents(name, "jsonl-text")

    blocks = line_blocks(lambda: json_stream(path), line_end, block_bytes)
    return DocumentFeed(name, blocks, parse, before_line(name, False),
                        lambda last: no_documents(name, "jsonl-text"),
                        lambda: InputError("empty input, expected JSON records", name))


def _label_studio(head: str) -> bool:
    return head.startswith("[") and '"data"' in head and ('"annotations"' in head or '"predictions"' in head)


def _json(head: str) -> bool:
    return head.startswith(("[", "{"))


LABEL_STUDIO = register_format(Format("label-studio", feed, TextOptions, sniff=_label_studio,
                                      description="a Label Studio JSON export (its first annotation per task)"))
FORMAT = register_format(Format("jsonl-text", feed, TextOptions, sniff=_json,
                                description="JSON Lines with texts and character-offset spans"))
