"""JSON Lines with token lists -> :class:`Documents`.

One document or sentence per line, in one of three shapes (the first record decides,
all records must share it):

* spans: ``{"id": "d1", "tokens": [..], "spans": [{"start": 0, "end": 1, "label": "PER"}]}``
  (token offsets, ``end`` exclusive; nested and overlapping spans are kept);
* tags: ``{"tokens": [..], "tags": ["B-PER", "O", ..]}`` decoded by ``scheme``/``policy``;
* Hugging Face: ``{"tokens": [..], "ner_tags": [3, 0, ..]}`` with the tag names from
  ``tag_names`` (a list, a JSON list file, or a data set's ``dataset_info.json``).
"""
from __future__ import annotations

import itertools
import json
from operator import itemgetter
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.printable import control_message, first_control
from ..errors import InputError
from .documents import TOKEN_SEP, Documents, build_documents, documents_from_tags
from .jsonl import is_int, record_chunks, short
from .source import display_name, gc_paused, read_text

SHAPES = ("spans", "tags", "ner_tags")


def load_tag_names(source: Union[str, Sequence[str]], feature: str = "ner_tags") -> List[str]:
    """Tag names: a list as is, or a file holding a JSON list or a Hugging Face
    ``dataset_info.json`` (``features[feature].feature.names``; one config level is looked into)."""
    if not isinstance(source, str):
        return [str(x) for x in source]
    try:
        obj = json.loads(read_text(source))
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg} (column {err.colno})", source, err.lineno) from None
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


@gc_paused
def read_jsonl_tokens(path: str, scheme: str = "IOB2", policy: str = "conlleval",
                      tag_names: Union[str, Sequence[str], None] = None, id_key: str = "id",
                      raw: Optional[bytes] = None) -> Documents:
    """Read a token-list JSON Lines file (see the module docstring for the shapes)."""
    name = display_name(path)
    chunks = record_chunks(path, raw)
    head = next(chunks)
    first, first_line = head[0][0], head[1][0]
    shape = next((s for s in SHAPES if s in first), None)
    if shape is None or "tokens" not in first:
        raise InputError(f"keys {', '.join(map(repr, first)) or '(none)'}; expected 'tokens' "
                         f"and one of {', '.join(map(repr, SHAPES))}", name, first_line)
    names = None
    if shape == "ner_tags":
        if tag_names is None:
            raise InputError("'ner_tags' holds tag numbers: give tag_names (a JSON list or dataset_info.json)",
                             name, first_line)
        names = load_tag_names(tag_names)
    ids: List[Optional[str]] = []
    keys: List[str] = []
    lines: List[int] = []
    lengths: List[int] = []
    flat: List[Any] = []
    counts: List[int] = []
    for recs, nums in itertools.chain([head], chunks):
        if _fast_chunk(recs, nums, shape, id_key, lines, keys, lengths, ids, flat, counts):
            continue
        for rec, line in zip(recs, nums):
            lines.append(line)
            toks = rec.get("tokens")
            if not isinstance(toks, list):
                raise InputError(f"'tokens' is {short(toks)}, expected a list of strings", name, line)
            try:
                keys.append(TOKEN_SEP.join(toks))
            except TypeError:
                bad = next(t for t in toks if not isinstance(t, str))
                raise InputError(f"token {short(bad)} is not a string", name, line) from None
            n = len(toks)
            if n == 0:
                raise InputError("'tokens' is empty; expected at least one token", name, line)
            lengths.append(n)
            rid = rec.get(id_key)
            if rid is not None and (not isinstance(rid, (str, int)) or isinstance(rid, bool)):
                raise InputError(f"id {short(rid)} is not a string or integer", name, line)
            ids.append(None if rid is None else str(rid))
            value = rec.get(shape)
            if not isinstance(value, list):
                raise InputError(f"{shape!r} is {short(value)}, expected a list (all lines must have the shape "
                                 f"of line {first_line}: 'tokens' and {shape!r})", name, line)
            if shape == "spans":
                flat.extend(value)
                counts.append(len(value))
            else:
                if len(value) != n:
                    raise InputError(f"{len(value)} {shape} for {n} tokens; expected one per token", name, line)
                flat.extend(value)
    doc_len = np.asarray(lengths, np.int64)
    if shape == "spans":
        span_doc, span_b, span_e, span_lab = _check_spans(name, flat, counts, doc_len, lines)
        return build_documents(name, "jsonl-tokens", doc_len, ids, keys, span_doc, span_b, span_e, span_lab,
                               lines=lines)
    token_lines = np.repeat(np.asarray(lines, np.int32), lengths)
    tag_vocab, tag_ids = _tag_ids(name, shape, flat, names, token_lines)
    return documents_from_tags(name, "jsonl-tokens", lengths, ids, keys, tag_vocab, tag_ids, scheme, policy,
                               lines=lines, token_lines=token_lines)


def _fast_chunk(recs: List[Dict[str, Any]], nums: List[int], shape: str, id_key: str, lines: List[int],
                keys: List[str], lengths: List[int], ids: List[Optional[str]], flat: List[Any],
                counts: List[int]) -> bool:
    """Append one chunk of records at once (a few C-level passes instead of a Python loop per record) when
    every record is well formed; False, with nothing appended, when one is not (the caller then walks the
    chunk record by record, to report the first bad one as always)."""
    toks: List[Any] = [rec.get("tokens") for rec in recs]
    values: List[Any] = [rec.get(shape) for rec in recs]
    rids = [rec.get(id_key) for rec in recs]
    if not set(map(type, toks)) <= {list} or not set(map(type, values)) <= {list}:
        return False
    id_types = set(map(type, rids))
    if not id_types <= {str, int, type(None)}:
        return False
    try:
        joined = list(map(TOKEN_SEP.join, toks))
    except TypeError:
        return False
    ns = list(map(len, toks))
    if 0 in ns:
        return False
    ms = list(map(len, values))
    if shape != "spans" and ms != ns:
        return False
    lines.extend(nums)
    keys.extend(joined)
    lengths.extend(ns)
    ids.extend(rids if id_types <= {str, type(None)} else [None if r is None else str(r) for r in rids])
    flat.extend(itertools.chain.from_iterable(values))
    if shape == "spans":
        counts.extend(ms)
    return True


def _tag_ids(name: str, shape: str, flat: List[Any], names: Optional[List[str]],
             token_lines: np.ndarray) -> Tuple[List[str], np.ndarray]:
    """(tag vocabulary, per-token tag ids) of ``tags`` strings or Hugging Face ``ner_tags`` numbers."""
    if shape == "tags":
        vocab: dict = {}
        try:    # ids in order of first appearance
            vocab = {t: k for k, t in enumerate(dict.fromkeys(flat))}
            tag_ids = np.fromiter(map(vocab.__getitem__, flat), np.int32, len(flat))
        except TypeError:       # an unhashable tag (a list, a dict)
            tag_ids = np.zeros(0, np.int32)
            vocab = {None: 0}
        if any(not isinstance(t, str) for t in vocab):
            k = next(i for i, t in enumerate(flat) if not isinstance(t, str))
            raise InputError(f"tag {short(flat[k])} is not a string", name, int(token_lines[k]))
        tag_vocab = list(vocab)
    else:
        assert names is not None
        if not set(map(type, flat)) <= {int}:
            k = next(i for i, t in enumerate(flat) if not is_int(t))
            raise InputError(f"ner_tags value {short(flat[k])} is not an integer", name, int(token_lines[k]))
        tag_ids = np.asarray(flat, np.int64)
        out = (tag_ids < 0) | (tag_ids >= len(names))
        if out.any():
            k = int(np.flatnonzero(out)[0])
            raise InputError(f"ner_tags value {flat[k]} has no tag name; expected 0..{len(names) - 1} "
                             f"({len(names)} names given)", name, int(token_lines[k]))
        tag_ids = tag_ids.astype(np.int32)
        tag_vocab = names
    return tag_vocab, tag_ids


def _check_spans(name: str, flat: List[Any], counts: List[int], lengths: np.ndarray, lines: List[int]):
    """Token spans of all documents checked at once; the first bad one is reported with its line."""
    doc = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    try:
        b, e, lab = (list(map(itemgetter(key), flat)) for key in ("start", "end", "label"))
        ok = set(map(type, b)) <= {int} and set(map(type, e)) <= {int} and set(map(type, lab)) <= {str} \
            and "" not in set(lab)
    except (TypeError, KeyError, IndexError):
        ok = False
    if ok and flat:
        bb, ee = np.asarray(b, np.int64), np.asarray(e, np.int64)
        ok = not np.any((bb < 0) | (bb >= ee) | (ee > lengths[doc]))
    if not ok:
        for k, sp in enumerate(flat):
            _check_span(sp, int(lengths[doc[k]]), name, lines[doc[k]])
    if not flat:
        return doc, [], [], []
    return doc, bb, ee, lab


def _check_span(sp: Any, n: int, name: str, line: int) -> None:
    if not isinstance(sp, dict) or not {"start", "end", "label"} <= sp.keys():
        raise InputError(f"span {short(sp)}; expected {{\"start\": int, \"end\": int, \"label\": str}}", name, line)
    b, e, lab = sp["start"], sp["end"], sp["label"]
    if not is_int(b) or not is_int(e) or not 0 <= b < e <= n:
        raise InputError(f"span {short(sp)}: token offsets must be integers with 0 <= start < end "
                         f"<= {n} (the number of tokens; end exclusive)", name, line)
    if not isinstance(lab, str) or not lab:
        raise InputError(f"span {short(sp)}: label {short(lab)} is not a non-empty string", name, line)
