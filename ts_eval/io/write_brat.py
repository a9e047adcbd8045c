"""Documents -> brat standoff: a directory with ``NAME.txt`` and ``NAME.ann`` per document.

``NAME`` is the document id when every document has one that is a safe file name (letters,
digits, ``_ . -``; unique), else ``doc000001``... in document order (so reading the directory,
in name order, gives the documents back in their order).  Each span is a text-bound
annotation ``T<k><TAB>LABEL START END<TAB>TEXT`` (the text is left out when it holds a line
break or TAB).  Nested and overlapping spans are kept.

brat keeps no tokens: when the input's texts were made by joining tokens with spaces (or
its tokens are exactly the whitespace-separated words), ``tools.conf`` gets brat's own
``Tokens tokenizer:whitespace``, which the brat reader (:mod:`ts_eval.io.brat`) honours.  Tokens
that neither the default nor the whitespace tokenizer reproduce are an error (use
jsonl-text, which keeps token offsets).
"""
from __future__ import annotations

import os
import re
from typing import List

import numpy as np

from ..errors import InputError
from .documents import Documents
from .sink import output_dir
from .write_jsonl import differs_from
from .writing import ConversionReport, grouped, start_report, texts_of

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,100}\Z")
TOOLS_CONF = "[options]\nTokens\ttokenizer:whitespace\n"


def file_names(docs: Documents) -> List[str]:
    ids = docs.ids
    if all(i is not None and _SAFE.match(i) for i in ids) and len(set(ids)) == len(ids):
        return [str(i) for i in ids]
    width = max(6, len(str(docs.n_docs)))
    return [f"doc{d + 1:0{width}d}" for d in range(docs.n_docs)]


def write_brat(docs: Documents, path: str) -> ConversionReport:
    """Write ``docs`` as a brat directory at ``path`` (created if missing)."""
    rep = start_report(docs, path, "brat")
    texts, ts, te, made = texts_of(docs)
    tokenizer = "default"
    if differs_from(texts, docs.offsets, ts, te, "default").any():
        wrong = differs_from(texts, docs.offsets, ts, te, "whitespace")
        if wrong.any():
            d = int(np.flatnonzero(wrong)[0])
            raise InputError(f"{docs.where(d)}: brat keeps no token offsets and neither the default nor the "
                             f"whitespace tokenizer gives this document's tokens back ({int(wrong.sum())} such "
                             "documents); expected jsonl-text (which keeps token offsets) as the target", docs.path)
        tokenizer = "whitespace"
    names = file_names(docs)
    if os.path.isdir(path):
        ours = {n + ext for n in names for ext in (".txt", ".ann")}
        stale = sorted(f for f in os.listdir(path) if f.endswith((".txt", ".ann")) and f not in ours)
        if stale:
            raise InputError(f"holds {len(stale)} other .txt/.ann files (e.g. {stale[0]}) that would be read as "
                             "documents too; expected a new or empty directory", str(path))
    idx, bounds = grouped(docs)
    lab = [docs.labels[k] for k in docs.label[idx].tolist()]
    bad = next((x for x in set(lab) if re.search(r"\s", x)), None)
    if bad is not None:
        raise InputError(f"label {bad!r} holds whitespace; brat labels are single words", docs.path)
    s, e = docs.start[idx].tolist(), docs.last[idx].tolist()
    tsl, tel = ts.tolist(), te.tolist()
    conf = os.path.join(path, "tools.conf")
    with output_dir(path) as batch:     # every file replaces the old one only when all are written
        for d in range(docs.n_docs):
            text = texts[d]
            lines: List[str] = []
            for k in range(int(bounds[d]), int(bounds[d + 1])):
                cs, ce = tsl[s[k]], tel[e[k]]
                frag = text[cs:ce]
                tail = "" if ("\n" in frag or "\r" in frag or "\t" in frag) else f"\t{frag}"
                lines.append(f"T{len(lines) + 1}\t{lab[k]} {cs} {ce}{tail}\n")
            stem = os.path.join(path, names[d])
            batch.add(stem + ".txt", text.encode("utf-8"))
            batch.add(stem + ".ann", "".join(lines).encode("utf-8"))
        if tokenizer == "whitespace":
            batch.add(conf, TOOLS_CONF.encode("utf-8"))
    if tokenizer == "whitespace":
        rep.notes.append("tools.conf: Tokens tokenizer:whitespace (tokens are the text's whitespace-separated words)")
    elif os.path.exists(conf):    # an old tools.conf would tokenize the new texts by whitespace
        try:
            os.remove(conf)
        except OSError as err:
            raise InputError(f"cannot remove the old tools.conf: {err.strerror or err}", conf) from None
    if made:
        rep.notes.append("texts made by joining each document's tokens with one space")
    if names != [i for i in docs.ids]:
        rep.ids_dropped = sum(i is not None for i in docs.ids)
        rep.notes.append(f"files named doc000001... in document order ({docs.n_docs} documents)")
    rep.written = len(docs.start)
    return rep
