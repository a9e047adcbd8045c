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
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.printable import control_message, first_control
from ..errors import InputError
from .documents import TOKEN_SEP, Documents, Keys, build_documents, documents_from_tags, token_keys
from .jsonl import is_int, record_chunks, short
from .jsonl_scan import MARK, Item, Scanned, first_record, scan_chunks
from .source import display_name, gc_paused, read_bytes, read_text

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


#: scan the token arrays' bytes (:mod:`ts_eval.io.jsonl_scan`) where the records allow it; False: ``json`` only
SCAN = True


@gc_paused
def read_jsonl_tokens(path: str, scheme: str = "IOB2", policy: str = "conlleval",
                      tag_names: Union[str, Sequence[str], None] = None, id_key: str = "id",
                      raw: Optional[bytes] = None) -> Documents:
    """Read a token-list JSON Lines file (see the module docstring for the shapes)."""
    name = display_name(path)
    data = read_bytes(path) if raw is None else raw
    return tokens_documents(data, name, scheme=scheme, policy=policy, tag_names=tag_names, id_key=id_key)[0]


#: the shape of a file's records, and the line of the record that decided it
Shape = Tuple[str, int]


def tokens_documents(data: bytes, name: str, *, scheme: str = "IOB2", policy: str = "conlleval",
                     tag_names: Union[str, Sequence[str], None] = None, id_key: str = "id",
                     shape_of: Optional[Shape] = None) -> Tuple[Documents, Shape]:
    """The Documents of the bytes of a token-list JSON Lines file, or of a run of its lines (``shape_of``:
    the shape its first record decided), and the shape."""
    forced = shape_of[0] if shape_of is not None else None
    chunks: Iterator[Item] = _chunks(data, name, id_key, forced) or record_chunks(name, data)
    head = next(chunks)
    first, first_line = (head.first, head.lines[0]) if isinstance(head, Scanned) else (head[0][0], head[1][0])
    if shape_of is not None:
        shape, first_line = shape_of
    else:
        found = next((s for s in SHAPES if s in first), None)
        if found is None or "tokens" not in first:
            raise InputError(f"keys {', '.join(map(repr, first)) or '(none)'}; expected 'tokens' "
                             f"and one of {', '.join(map(repr, SHAPES))}", name, first_line)
        shape = found
    names = None
    if shape == "ner_tags":
        if tag_names is None:
            raise InputError("'ner_tags' holds tag numbers: give tag_names (a JSON list or dataset_info.json)",
                             name, first_line)
        names = load_tag_names(tag_names)
    ids: List[Optional[str]] = []
    lines: List[int] = []
    lengths: List[int] = []
    counts: List[int] = []
    keys: List[Any] = []      # per chunk: its keys (a list), or a Scanned chunk's token byte ranges
    flat: List[Any] = []      # per chunk: its tags or spans (a list), or a Scanned chunk's
    for item in itertools.chain([head], chunks):
        if isinstance(item, Scanned):
            if _scanned_chunk(item, shape, id_key, lines, lengths, ids, counts):
                keys.append(item)
                flat.append(item)
                continue
            item = (item.parse(name), item.lines)
        recs, nums = item
        ckeys: List[str] = []
        cflat: List[Any] = []
        keys.append(ckeys)
        flat.append(cflat)
        if _fast_chunk(recs, nums, shape, id_key, lines, ckeys, lengths, ids, cflat, counts):
            continue
        for rec, line in zip(recs, nums):
            lines.append(line)
            toks = rec.get("tokens")
            if not isinstance(toks, list):
                raise InputError(f"'tokens' is {short(toks)}, expected a list of strings", name, line)
            try:
                ckeys.append(TOKEN_SEP.join(toks))
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
                cflat.extend(value)
                counts.append(len(value))
            else:
                if len(value) != n:
                    raise InputError(f"{len(value)} {shape} for {n} tokens; expected one per token", name, line)
                cflat.extend(value)
    doc_len = np.asarray(lengths, np.int64)
    all_keys = _keys(data, keys, doc_len)
    if shape == "spans":
        fast = _scanned_spans(flat, counts)
        if fast is None:
            span_doc, span_b, span_e, span_lab = _check_spans(name, _spans_as_json(flat), counts, doc_len, lines)
        else:
            span_doc, span_b, span_e, span_lab = fast
        return build_documents(name, "jsonl-tokens", doc_len, ids, all_keys, span_doc, span_b, span_e, span_lab,
                               lines=lines), (shape, first_line)
    token_lines = np.repeat(np.asarray(lines, np.int32), lengths)
    if shape == "tags" and all(isinstance(part, Scanned) for part in flat):
        tag_vocab, tag_ids = _scanned_tags(flat)
    else:
        tag_vocab, tag_ids = _tag_ids(name, shape, _tags_as_json(flat), names, token_lines)
    return documents_from_tags(name, "jsonl-tokens", lengths, ids, all_keys, tag_vocab, tag_ids, scheme, policy,
                               lines=lines, token_lines=token_lines), (shape, first_line)


def _chunks(data: bytes, name: str, id_key: str, shape: Optional[str] = None) -> Optional[Iterator[Item]]:
    """The scanned chunks of a file whose first record has tokens and spans, tags or ner_tags (or of the
    records of a file of that ``shape``; None: the file goes to the json path)."""
    if not SCAN:
        return None
    if shape is not None:
        return scan_chunks(data, name, shape if shape != "ner_tags" else None, id_key)
    first = first_record(data)
    if not isinstance(first, dict) or "tokens" not in first:
        return None
    shape = next((s for s in SHAPES if s in first), None)
    if shape is None:
        return None
    return scan_chunks(data, name, shape if shape != "ner_tags" else None, id_key)


def _scanned_chunk(item: Scanned, shape: str, id_key: str, lines: List[int], lengths: List[int],
                   ids: List[Optional[str]], counts: List[int]) -> bool:
    """Take a scanned chunk when its records are well formed as :func:`_fast_chunk` checks them (its token
    and tag or span arrays were checked by the scan); False, with nothing appended, when one is not."""
    scanned = ("tokens", shape) if shape != "ner_tags" else ("tokens",)
    n = len(item.lines)
    rids = item.record_ids({key: [MARK] for key in scanned}, id_key)
    if rids is None:
        return False
    if shape == "ner_tags":
        values: List[Any] = list(map(dict.get, item.objects, itertools.repeat(shape)))
        if item.template is not None:
            values = values * n
        if not set(map(type, values)) <= {list} or list(map(len, values)) != item.tok_count.tolist():
            return False
        item.values = list(itertools.chain.from_iterable(values))
    lines.extend(item.lines)
    lengths.extend(item.tok_count.tolist())
    ids.extend(rids)
    if shape == "spans":
        assert item.span_count is not None
        counts.extend(item.span_count.tolist())
    return True


def _keys(data: bytes, parts: List[Any], lengths: np.ndarray) -> Keys:
    """Every document's key: cut from the file's bytes when every chunk was scanned (made when first asked
    for: a read alone keeps only the tokens' byte ranges), else chunk by chunk."""
    buf = np.frombuffer(data, np.uint8)
    if all(isinstance(p, Scanned) for p in parts):
        starts, lens = [p.tok_start for p in parts], [p.tok_len for p in parts]

        def make() -> List[str]:
            if not starts:
                return []
            return token_keys(buf, np.concatenate(starts), np.concatenate(lens), lengths)()
        return make
    out: List[str] = []
    for p in parts:
        out.extend(token_keys(buf, p.tok_start, p.tok_len, p.tok_count)() if isinstance(p, Scanned) else p)
    return out


def _scanned_spans(parts: List[Any], counts: List[int]) -> Optional[Tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                            List[str]]]:
    """(document, start, end, label) of every span when every chunk was scanned (their spans are checked)."""
    if not all(isinstance(p, Scanned) for p in parts):
        return None
    doc = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    got = [p.spans for p in parts]
    if not got:
        return doc, np.zeros(0, np.int64), np.zeros(0, np.int64), []
    return (doc, np.concatenate([g[0] for g in got]).astype(np.int64),
            np.concatenate([g[1] for g in got]).astype(np.int64), [x for g in got for x in g[2]])


def _spans_as_json(parts: List[Any]) -> List[Any]:
    out: List[Any] = []
    for p in parts:
        if isinstance(p, Scanned):
            assert p.spans is not None
            out.extend({"start": b, "end": e, "label": lab} for b, e, lab in
                       zip(p.spans[0].tolist(), p.spans[1].tolist(), p.spans[2]))
        else:
            out.extend(p)
    return out


def _tags_as_json(parts: List[Any]) -> List[Any]:
    out: List[Any] = []
    for p in parts:
        if isinstance(p, Scanned):
            if p.values is not None:
                out.extend(p.values)
            else:
                assert p.tags is not None
                vocab, idx = p.tags
                out.extend(vocab[k] for k in idx.tolist())
        else:
            out.extend(p)
    return out


def _scanned_tags(parts: List[Scanned]) -> Tuple[List[str], np.ndarray]:
    """(tag vocabulary in order of first appearance, as the json path has it; per-token tag ids)."""
    index: Dict[str, int] = {}
    out = []
    for p in parts:
        assert p.tags is not None
        vocab, idx = p.tags
        if not len(idx):
            continue
        if p.tags_seen:     # the values already in the order first seen (and each used)
            order = range(len(vocab))
        else:
            first = np.full(len(vocab), len(idx), np.int64)
            first[idx[::-1]] = np.arange(len(idx) - 1, -1, -1)
            used = np.flatnonzero(first < len(idx))
            order = used[np.argsort(first[used], kind="stable")].tolist()
        remap = np.zeros(len(vocab), np.int32)
        for k in order:
            remap[k] = index.setdefault(vocab[k], len(index))
        out.append(remap[idx])
    return list(index), (np.concatenate(out) if out else np.zeros(0, np.int32))


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
        try:
            bb, ee = np.asarray(b, np.int64), np.asarray(e, np.int64)
        except OverflowError:       # an offset beyond 64 bits: the span by span check names it
            ok = False
        else:
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
