"""The JSON Lines readers' whole-chunk fast paths read exactly what the record-by-record path reads.

Each reader appends a chunk of well-formed records in a few C-level passes and walks the chunk
record by record only when one record is not well formed (to report it).  Property: on random files,
good and bad, several chunks each, the reader with its fast path gives the same documents, or the
same error message, as with the fast path switched off.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval import InputError
from ts_eval.io import jsonl, jsonl_text, jsonl_tokens
from ts_eval.io.api import read
from ts_eval.io.tokenizer import align_spans, tokenize

pytestmark = pytest.mark.slow

WORDS = ["a", "bb", "New", "York", "-", ",", "é", "x_y"]
IDS = st.one_of(st.none(), st.text("ab1", min_size=1, max_size=3), st.integers(-2, 99), st.just(True),
                st.just(1.5))


def _outcome(path: str, fast: bool, **kw: Any) -> Any:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(jsonl, "CHUNK_LINES", 3)       # several chunks in a small file
        if not fast:
            m.setattr(jsonl_tokens, "_fast_chunk", lambda *a, **k: False)
            m.setattr(jsonl_text, "_fast_chunk", lambda *a, **k: False)
        try:
            docs = read(path, **kw)
        except InputError as err:
            return ("error", str(err))
        out: Dict[str, Any] = {k: v for k, v in vars(docs).items() if k != "key_data"}
        out["keys"] = docs.keys
        for k, v in out.items():
            if isinstance(v, np.ndarray):
                out[k] = (v.dtype.str, v.tolist())
        if docs.char_tokens is not None:
            out["char_tokens"] = [(a.dtype.str, a.tolist()) for a in docs.char_tokens]
        return out


def _write(tmp_path: Any, records: List[Any]) -> str:
    p = tmp_path / "f.jsonl"
    p.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return str(p)


@st.composite
def token_record(draw: Any, shape: str) -> Any:
    rec: Dict[str, Any] = {}
    rid = draw(IDS)
    if rid is not None:
        rec["id"] = rid
    toks = draw(st.one_of(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
                          st.sampled_from([[], ["a", 1], "a b", None])))
    if toks is not None:
        rec["tokens"] = toks
    n = len(toks) if isinstance(toks, list) else 2
    if shape == "spans":
        span = st.fixed_dictionaries({"start": st.integers(-1, 5), "end": st.integers(0, 6),
                                      "label": st.sampled_from(["PER", "LOC", "", 3])})
        value = draw(st.one_of(st.lists(span, max_size=3), st.just([[0, 1, "PER"]]), st.just("x")))
    else:
        value = draw(st.one_of(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC"]), min_size=n, max_size=n),
                               st.lists(st.sampled_from(["O", "B-PER", 7]), min_size=max(n - 1, 0),
                                        max_size=n + 1)))
    if draw(st.integers(0, 9)):
        rec[shape] = value
    return rec


@settings(max_examples=80, deadline=None)
@given(shape=st.sampled_from(["spans", "tags"]), data=st.data())
def test_jsonl_tokens_fast_path_reads_what_the_record_path_reads(shape: str, data: Any,
                                                                 tmp_path_factory: Any) -> None:
    good = token_record(shape).filter(lambda r: isinstance(r.get("tokens"), list) and shape in r)
    records = [data.draw(good)] + data.draw(st.lists(token_record(shape), max_size=9))
    if data.draw(st.booleans()):      # mostly good files: one bad record at most
        records = [r for r in records if r is records[0] or data.draw(st.integers(0, 5))]
    path = _write(tmp_path_factory.mktemp("t"), records)
    assert _outcome(path, True) == _outcome(path, False)


@st.composite
def text_record(draw: Any) -> Any:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=5))
    text = " ".join(words)
    rec: Dict[str, Any] = {}
    rid = draw(IDS)
    if rid is not None:
        rec["id"] = rid
    rec["text"] = draw(st.one_of(st.just(text), st.just(text), st.just(3)))
    span = st.fixed_dictionaries({"start": st.integers(-1, len(text) + 1), "end": st.integers(0, len(text) + 2),
                                  "label": st.sampled_from(["PER", "LOC", "", None])})
    kind = draw(st.integers(0, 9))
    if kind == 0:
        rec["label"] = [[0, 1, "PER"]]
    elif kind == 1:
        rec["tokens"] = [{"start": 0, "end": 1}]
        rec["spans"] = []
    elif kind == 2:
        rec["spans"] = [{"start_offset": 0, "end_offset": 1, "label": "PER"}]
    elif kind == 3:
        rec["spans"] = "x"
    elif kind != 4:
        rec["spans"] = draw(st.lists(span, max_size=3))
    return rec


@settings(max_examples=80, deadline=None)
@given(records=st.lists(text_record(), min_size=1, max_size=10), align=st.sampled_from(["strict", "expand"]))
def test_jsonl_text_fast_path_reads_what_the_record_path_reads(records: List[Any], align: str,
                                                               tmp_path_factory: Any) -> None:
    path = _write(tmp_path_factory.mktemp("x"), records)
    assert _outcome(path, True, format="jsonl-text", align=align) == \
        _outcome(path, False, format="jsonl-text", align=align)


def _tokenize_before(texts: List[str], tokenizer: str) -> Any:
    """The tokenizer as it was before it worked in place (the reference for the property below)."""
    from ts_eval.io.tokenizer import _PUNCT, _SPACE, _WORD, _classes
    joined = "\n".join(texts)
    base = np.zeros(len(texts) + 1, np.int64)
    np.cumsum(np.fromiter((len(t) + 1 for t in texts), np.int64, len(texts)), out=base[1:])
    cls = _classes(np.frombuffer(joined.encode("utf-32-le"), np.uint32))
    if tokenizer == "whitespace":
        cls[cls == _PUNCT] = _WORD
    prev = np.empty_like(cls)
    prev[0] = _SPACE
    prev[1:] = cls[:-1]
    nxt = np.empty_like(cls)
    nxt[-1:] = _SPACE
    nxt[:-1] = cls[1:]
    on = cls != _SPACE
    starts = np.flatnonzero(on & ((cls != prev) | (cls == _PUNCT)))
    ends = np.flatnonzero(on & ((cls != nxt) | (cls == _PUNCT))) + 1
    doc_offsets = np.searchsorted(starts, base)
    doc_offsets[-1] = len(starts)
    doc = np.repeat(np.arange(len(texts)), np.diff(doc_offsets))
    return doc_offsets, starts - base[doc], ends - base[doc]


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(st.sampled_from(list("ab _-,.é\u0301 \t\u00a0\u4e2d1")), min_size=1, max_size=12),
                      min_size=1, max_size=6), tokenizer=st.sampled_from(["default", "whitespace"]))
def test_tokenizer_in_place_equals_the_reference(texts: List[str], tokenizer: str) -> None:
    got, want = tokenize(texts, tokenizer), _tokenize_before(texts, tokenizer)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.tolist() == w.tolist()
    lens = np.array([len(t) for t in texts], np.int64)
    off, ts, te = got
    # every character range of every document, aligned as before (global offsets computed out of place)
    doc = np.array([d for d, t in enumerate(texts) for a in range(len(t)) for b in range(a + 1, len(t) + 1)], np.int64)
    cs = np.array([a for t in texts for a in range(len(t)) for b in range(a + 1, len(t) + 1)], np.int64)
    ce = np.array([b for t in texts for a in range(len(t)) for b in range(a + 1, len(t) + 1)], np.int64)
    base = np.zeros(len(texts) + 1, np.int64)
    np.cumsum(lens + 1, out=base[1:])
    of_tok = np.repeat(np.arange(len(texts)), np.diff(off))
    gs, ge = ts + base[of_tok], te + base[of_tok]
    a, z = cs + base[doc], ce + base[doc]
    for mode in ("expand", "contract"):
        b, e, ok = align_spans(off, ts, te, lens, doc, cs, ce, mode)
        b_exp, e_exp = np.searchsorted(ge, a, "right"), np.searchsorted(gs, z, "left")
        b_con, e_con = np.searchsorted(gs, a, "left"), np.searchsorted(ge, z, "right")
        want_b, want_e = (b_exp, e_exp) if mode == "expand" else (b_con, e_con)
        assert (b + off[doc]).tolist() == want_b.tolist() and (e + off[doc]).tolist() == want_e.tolist()
        assert ok.tolist() == ((b_exp == b_con) & (e_exp == e_con) & (b_con < e_con)).tolist()
