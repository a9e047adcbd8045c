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

import itertools
from operator import itemgetter
from typing import Any, Dict, Iterator, List, Optional

import numpy as np

from ..errors import InputError
from .charspans import CharDocs, to_documents
from .documents import Documents
from .jsonl import is_int, record_chunks, short
from .jsonl_scan import MARK, Item, Scanned, first_record, scan_chunks
from .source import display_name, gc_paused, read_bytes

SPAN_KEYS = ("spans", "label", "entities")


@gc_paused
def read_jsonl_text(path: str, align: str = "strict", id_key: str = "id", text_key: str = "text",
                    source: str = "annotations", tokenizer: str = "default", raw: Optional[bytes] = None) -> Documents:
    """Read a text-with-character-offsets file (see the module docstring for the shapes); documents
    without their own ``tokens`` are split by ``tokenizer`` (default or whitespace)."""
    name = display_name(path)
    cd = CharDocs(name, "jsonl-text")
    notes: Dict[str, int] = {"other_results": 0, "extra_annotations": 0}
    data = read_bytes(path) if raw is None else raw
    chunks: Iterator[Item] = _scanned(data, name, id_key, text_key) or record_chunks(path, data)
    for item in chunks:
        if isinstance(item, Scanned):
            if _scanned_chunk(cd, item, data, id_key, text_key):
                continue
            item = (item.parse(name), item.lines)
        cd.flush()          # the spans of the json path go to the lists, after the scanned ones
        recs, nums = item
        if _fast_chunk(cd, recs, nums, id_key, text_key):
            continue
        for rec, line in zip(recs, nums):
            d = len(cd.ids)              # the record's index in the file
            rid = rec.get(id_key)
            if rid is not None and (not isinstance(rid, (str, int)) or isinstance(rid, bool)):
                raise InputError(f"record {d + 1}: id {short(rid)} is not a string or integer", name, line)
            cd.ids.append(None if rid is None else str(rid))
            cd.lines.append(line)
            if "data" in rec and isinstance(rec["data"], dict):
                label_studio_task(cd, d, rec, line, text_key, source, notes)
            else:
                text_record(cd, d, rec, line, text_key)
    docs = to_documents(cd, align, tokenizer)
    if notes["other_results"] or notes["extra_annotations"]:
        docs.notes.update(notes)
    return docs


#: scan the records' bytes (:mod:`ts_eval.io.jsonl_scan`) where they allow it; False: ``json`` only
SCAN = True


def _scanned(data: bytes, name: str, id_key: str, text_key: str) -> Optional[Iterator[Item]]:
    """The scanned chunks of a file whose first record is a text with ``"spans"`` and no tokens of its own
    (None: the file goes to the json path)."""
    if not SCAN:
        return None
    first = first_record(data)
    if not isinstance(first, dict) or text_key not in first or "spans" not in first or "data" in first \
            or "tokens" in first:
        return None
    return scan_chunks(data, name, "spans", id_key, text_key=text_key)


def _scanned_chunk(cd: CharDocs, item: Scanned, data: bytes, id_key: str, text_key: str) -> bool:
    """Append one scanned chunk (its texts and spans taken from the bytes) when its records are what
    :func:`_fast_chunk` takes; False, with nothing appended, otherwise."""
    rids = item.record_ids({text_key: MARK, "spans": [MARK]}, id_key)
    if rids is None or any("data" in rec or "tokens" in rec for rec in item.objects):
        return False
    assert item.spans is not None and item.span_count is not None
    assert item.source is not None
    lo, hi = int(item.source[1][0]), int(item.source[2][-1])
    starts, ends = item.tok_start - lo, item.tok_start + item.tok_len - lo
    chunk = data[lo:hi]
    if chunk.isascii():     # a character a byte: the texts are slices of the chunk's one string
        cd.texts.extend(map(chunk.decode("ascii").__getitem__, map(slice, starts.tolist(), ends.tolist())))
    else:                   # no text holds a line end: the chunk's texts as one string, split
        cd.texts.extend(b"\n".join(map(chunk.__getitem__, map(slice, starts.tolist(), ends.tolist())))
                        .decode("utf-8").split("\n"))
    n = len(item.lines)
    first = len(cd.ids)
    cd.ids.extend(rids)
    cd.lines.extend(item.lines)
    cd.own_tokens.extend([None] * n)
    counts = item.span_count
    cd.add_span_arrays(np.repeat(np.arange(first, first + n, dtype=np.int64), counts), item.spans[0],
                       item.spans[1], item.spans[2], np.repeat(np.asarray(item.lines, np.int64), counts))
    return True


def _fast_chunk(cd: CharDocs, recs: List[Dict[str, Any]], nums: List[int], id_key: str, text_key: str) -> bool:
    """Append one chunk of spaCy-shaped records (text, spans as objects, no own tokens) at once, a few
    C-level passes instead of a Python loop per record and span, when every record is well formed in that
    shape; False, with nothing appended, otherwise (the caller then reads the chunk record by record,
    which reports the first bad record or reads the other shapes)."""
    if any("data" in rec or "tokens" in rec or "spans" not in rec for rec in recs):
        return False
    rids = [rec.get(id_key) for rec in recs]
    id_types = set(map(type, rids))
    texts: List[Any] = [rec.get(text_key) for rec in recs]
    spans = [rec["spans"] for rec in recs]
    if not id_types <= {str, int, type(None)} or not set(map(type, texts)) <= {str} \
            or not set(map(type, spans)) <= {list}:
        return False
    flat = list(itertools.chain.from_iterable(spans))
    try:
        st, en, lb = (list(map(itemgetter(key), flat)) for key in ("start", "end", "label"))
    except (TypeError, KeyError, IndexError):
        return False
    counts = list(map(len, spans))
    first = len(cd.ids)
    cd.ids.extend(rids if id_types <= {str, type(None)} else [None if r is None else str(r) for r in rids])
    cd.lines.extend(nums)
    cd.texts.extend(texts)
    cd.own_tokens.extend([None] * len(recs))
    cd.span_start.extend(st)
    cd.span_end.extend(en)
    cd.span_label.extend(lb)
    cd.span_doc.extend(itertools.chain.from_iterable(map(itertools.repeat, range(first, first + len(recs)), counts)))
    cd.span_line.extend(itertools.chain.from_iterable(map(itertools.repeat, nums, counts)))
    return True


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
    if present[0] == "spans":
        try:  # the common shape, without a Python call per span
            st, en, lb = [sp["start"] for sp in spans], [sp["end"] for sp in spans], [sp["label"] for sp in spans]
        except (TypeError, KeyError, IndexError):
            pass
        else:
            cd.span_start.extend(st)
            cd.span_end.extend(en)
            cd.span_label.extend(lb)
            cd.span_doc.extend([d] * len(st))
            cd.span_line.extend([line] * len(st))
            return
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


def _own_tokens(cd: CharDocs, d: int, tokens: Any, line: int) -> Optional[List[tuple]]:
    if tokens is None:
        return None
    if not isinstance(tokens, list):
        raise InputError(f"{cd.where(d)}: 'tokens' is {short(tokens)}, expected a list of "
                         '{"start", "end"} objects', cd.path, line)
    out = []
    for k, t in enumerate(tokens):
        if not isinstance(t, dict) or not is_int(t.get("start")) or not is_int(t.get("end")):
            raise InputError(f"{cd.where(d)}: token {k} is {short(t)}; expected an object with integer "
                             "'start' and 'end' character offsets", cd.path, line)
        out.append((t["start"], t["end"]))
    return out


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
