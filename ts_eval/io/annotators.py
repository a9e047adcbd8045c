"""One export, several annotators: a JSON file whose annotations carry who made them, split into one
:class:`~ts_eval.io.documents.Documents` per annotator (what ``ts-eval agree`` compares).

Shapes read (the annotator is the value of ``field``, a string or an integer; an object -- Label
Studio's expanded user -- is named by its ``email``, else ``username``, else ``id``):

* Label Studio's JSON export (a JSON array of tasks): every element of a task's ``annotations``
  (``source="predictions"``: of its ``predictions``) is one annotator's annotation of that task;
  the field is on the annotation (Label Studio writes ``completed_by``);
* JSON Lines text records (doccano, spaCy/Prodigy shapes, see :mod:`ts_eval.io.jsonl_text`) with the
  field on the record: one record per document and annotator, documents matched by ``id`` (by text
  when a record has no id);
* the same records with the field on each span object instead: a record's spans split by annotator.

Every annotator must have annotated every document: a document one of them lacks is an error naming
both, unless ``partial=True`` (then it counts as not annotated by that annotator).  doccano's
per-user export (a zip of ``NAME.jsonl`` files, one per annotator) needs no field: give the files.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..errors import Hint, InputError
from .charspans import CharDocs, to_documents
from .documents import Documents
from .jsonl import record_chunks, short
from .jsonl_text import SPAN_KEYS, label_studio_task, text_record
from .source import display_name, gc_paused

Record = Tuple[Dict[str, Any], int]        # a record and its line (record number in a JSON array)


def annotator_name(value: Any, field: str, where: str, path: str, line: int) -> str:
    """The annotator a field's value names."""
    if isinstance(value, dict):
        for key in ("email", "username", "id"):
            if isinstance(value.get(key), (str, int)) and not isinstance(value.get(key), bool):
                return str(value[key])
    elif isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
        return str(value)
    raise InputError(f"{where}: {field!r} is {short(value)}; expected an annotator's name or id (a string, an integer, "
                     "or an object with email, username or id)", path, line)


@gc_paused
def read_annotators(path: str, field: str, *, partial: bool = False, align: str = "strict",
                    tokenizer: str = "default", source: str = "annotations", text_key: str = "text",
                    id_key: str = "id", raw: Optional[bytes] = None
                    ) -> Tuple[List[str], List[Documents], Optional[np.ndarray]]:
    """(annotator names in order of first appearance, one Documents each over the same documents,
    (annotators x documents) coverage or None when everyone annotated everything)."""
    name = display_name(path)
    docs: Dict[str, Record] = {}                   # document key -> (its first record, line)
    order: List[str] = []
    per: Dict[str, Dict[str, Record]] = {}         # annotator -> document key -> record
    seen_field = False
    for recs, nums in record_chunks(path, raw):
        for rec, line in zip(recs, nums):
            rid = rec.get(id_key)
            is_task = isinstance(rec.get("data"), dict)
            text = rec["data"].get(text_key) if is_task else rec.get(text_key)
            key = f"id:{rid}" if rid is not None else f"text:{text}"
            where = f"record {line}" if rid is None else f"document {rid!r}"
            if key not in docs:
                docs[key] = (rec, line)
                order.append(key)
            for who, part in _split(rec, field, is_task, source, where, name, line):
                seen_field = True
                got = per.setdefault(who, {})
                if key in got:
                    raise InputError(f"{where}: annotator {who!r} has two annotations of it (lines {got[key][1]} "
                                     f"and {line}); expected one per annotator", name, line)
                got[key] = (part, line)
    if not seen_field:
        raise InputError([f"no annotation carries the field {field!r}; give the field that names the annotator (",
                          Hint("annotator_field", metavar="FIELD"), ")"], name)
    names = list(per)
    if len(names) < 2:
        raise InputError(f"one annotator ({names[0]!r}) in {field!r}; agreement needs at least two", name)
    covered = np.array([[k in per[a] for k in order] for a in names], bool)
    if not covered.all() and not partial:
        a, d = map(int, np.argwhere(~covered)[0])
        rec_line = docs[order[d]][1]
        raise InputError([f"annotator {names[a]!r} has no annotation of the document at line {rec_line} "
                          f"({_key_text(order[d])}; {int((~covered).sum())} annotations missing in all); "
                          "expected every annotator to annotate every document (or give ", Hint("partial", True),
                          " to count them as missing)"],
                         name, rec_line)
    out = [_documents(name, order, per[a], docs, align, tokenizer, text_key, source) for a in names]
    return names, out, None if covered.all() else covered


def _key_text(key: str) -> str:
    kind, value = key.split(":", 1)
    return f"id {value!r}" if kind == "id" else f"text {value[:30]!r}"


def _split(rec: Dict[str, Any], field: str, is_task: bool, source: str, where: str, path: str,
           line: int) -> List[Tuple[str, Dict[str, Any]]]:
    """The record as (annotator, record of that annotator's annotation) parts."""
    if is_task:
        anns = rec.get(source)
        if not isinstance(anns, list):
            raise InputError(f"{where}: Label Studio task without a {source!r} list", path, line)
        parts = []
        for k, a in enumerate(anns):
            if not isinstance(a, dict) or field not in a:
                raise InputError(f"{where}: {source}[{k}] has no {field!r}; expected every annotation to name its "
                                 "annotator", path, line)
            parts.append((annotator_name(a[field], field, where, path, line), {**rec, source: [a]}))
        return parts
    if field in rec:
        return [(annotator_name(rec[field], field, where, path, line), rec)]
    present = [k for k in SPAN_KEYS if k in rec]
    spans = rec.get(present[0]) if present else None
    if not isinstance(spans, list) or not all(isinstance(s, dict) for s in spans):
        raise InputError(f"{where}: no {field!r} on the record or on its span objects", path, line)
    by: Dict[str, List[Dict[str, Any]]] = {}
    for s in spans:
        if field not in s:
            raise InputError(f"{where}: span {short(s)} has no {field!r}; expected every span to name its annotator",
                             path, line)
        by.setdefault(annotator_name(s[field], field, where, path, line), []).append(s)
    return [(who, {**rec, present[0]: part}) for who, part in by.items()]


def _documents(path: str, order: List[str], got: Dict[str, Record], docs: Dict[str, Record],
               align: str, tokenizer: str, text_key: str, source: str) -> Documents:
    """One annotator's Documents over every document (an empty annotation where it has none)."""
    cd = CharDocs(path, "jsonl-text")
    notes: Dict[str, int] = {"other_results": 0, "extra_annotations": 0}
    for d, key in enumerate(order):
        rec, line = got.get(key) or _empty(docs[key], source)
        cd.ids.append(key.split(":", 1)[1] if key.startswith("id:") else None)
        cd.lines.append(line)
        if isinstance(rec.get("data"), dict):
            label_studio_task(cd, d, rec, line, text_key, source, notes)
        else:
            text_record(cd, d, rec, line, text_key)
    return to_documents(cd, align, tokenizer)


def _empty(first: Record, source: str) -> Record:
    """A document an annotator did not annotate: its text with no spans (it counts as missing)."""
    rec, line = first
    if isinstance(rec.get("data"), dict):
        return {**rec, source: [{"result": []}]}, line
    present = [k for k in SPAN_KEYS if k in rec] or ["spans"]
    return {**rec, present[0]: []}, line
