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
from contextlib import suppress
from typing import Any, List, Optional, Set, Tuple

import numpy as np

from ..errors import InputError
from .documents import Documents
from .feed import raising
from .sink import Batch, make_dir
from .write_jsonl import differs_from
from .writing import ConversionReport, Failed, grouped, texts_of, written

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,100}\Z")
TOOLS_CONF = "[options]\nTokens\ttokenizer:whitespace\n"
#: the order of the checks of a whole write (the earliest that fails anywhere is the error)
_PLAIN, _TOKENS, _STALE, _LABEL = range(1, 5)


def write_brat(blocks: Any, path: str) -> ConversionReport:
    """Write an input's blocks of documents (in order) as one brat directory at ``path`` (created if missing),
    block by block: the files are
    written to temporary files as they come and named, and renamed over the old ones, when all are written
    (the names need every document's id).  What it keeps grows with the documents: their ids and files."""
    return written(BratWriter(path), blocks, path, "brat")


class BratWriter:
    """:class:`~ts_eval.io.writing.BlockWriter` of brat folders."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.batch = Batch()
        self.made: Optional[bool] = None     # the folder was made here (None: not yet opened)
        self.ids: List[Optional[str]] = []
        self.seen: Optional[Set[str]] = set()   # the ids so far while all are safe file names, unique
        self.documents = self.written = self.written_docs = 0
        self.text_made = self.other_tokens = False      # some document's text differs from the default tokenizer's
        self.wrong = 0                      # documents the whitespace tokenizer does not give back either
        self.first_wrong: Optional[Tuple[Documents, int]] = None
        self.block: Any = None

    def check(self, docs: Documents) -> Optional[Failed]:
        try:
            texts, ts, te, made = texts_of(docs)
        except InputError as err:
            return _PLAIN, raising(err)
        if differs_from(texts, docs.offsets, ts, te, "default").any():
            self.other_tokens = True
        wrong = differs_from(texts, docs.offsets, ts, te, "whitespace")
        if wrong.any():
            if self.first_wrong is None:
                self.first_wrong = (docs, int(np.flatnonzero(wrong)[0]))
            self.wrong += int(wrong.sum())
        idx, bounds = grouped(docs)
        lab = [docs.labels[k] for k in docs.label[idx].tolist()]
        bad = next((x for x in set(lab) if re.search(r"\s", x)), None)
        self._add_ids(docs)
        self.text_made = self.text_made or made
        if bad is not None:
            return _LABEL, lambda: InputError(f"label {bad!r} holds whitespace; brat labels are single words",
                                              docs.path)
        self.block = (texts, ts, te, idx, bounds, lab)
        return None

    def _add_ids(self, docs: Documents) -> None:
        self.ids += docs.ids
        self.documents += docs.n_docs
        if self.seen is None:
            return
        for i in docs.ids:
            if i is None or not _SAFE.match(i) or i in self.seen:
                self.seen = None
                return
            self.seen.add(i)

    def write(self, docs: Documents) -> None:
        texts, ts, te, idx, bounds, lab = self.block
        self.block = None
        if self.made is None:
            self.made = not os.path.isdir(self.path)
            make_dir(self.path)
        s, e = docs.start[idx].tolist(), docs.last[idx].tolist()
        tsl, tel = ts.tolist(), te.tolist()
        for d in range(docs.n_docs):
            text = texts[d]
            lines: List[str] = []
            for k in range(int(bounds[d]), int(bounds[d + 1])):
                cs, ce = tsl[s[k]], tel[e[k]]
                frag = text[cs:ce]
                tail = "" if ("\n" in frag or "\r" in frag or "\t" in frag) else f"\t{frag}"
                lines.append(f"T{len(lines) + 1}\t{lab[k]} {cs} {ce}{tail}\n")
            stem = os.path.join(self.path, f".pending{self.written_docs + d}")     # (named by finish)
            self.batch.add(stem + ".txt", text.encode("utf-8"))
            self.batch.add(stem + ".ann", "".join(lines).encode("utf-8"))
        self.written_docs += docs.n_docs
        self.written += len(docs.start)

    def names(self) -> List[str]:
        if self.seen is not None and len(self.seen) == self.documents:
            return [str(i) for i in self.ids]
        width = max(6, len(str(self.documents)))
        return [f"doc{d + 1:0{width}d}" for d in range(self.documents)]

    def verdict(self) -> Optional[Failed]:
        if self.other_tokens and self.first_wrong is not None:
            docs, d = self.first_wrong
            return _TOKENS, lambda: InputError(
                f"{docs.where(d)}: brat keeps no token offsets and neither the default nor the whitespace tokenizer "
                f"gives this document's tokens back ({self.wrong} such documents); expected jsonl-text (which keeps "
                "token offsets) as the target", docs.path)
        if os.path.isdir(self.path):
            ours = {n + ext for n in self.names() for ext in (".txt", ".ann")}
            stale = sorted(f for f in os.listdir(self.path) if f.endswith((".txt", ".ann")) and f not in ours)
            if stale:
                return _STALE, lambda: InputError(
                    f"holds {len(stale)} other .txt/.ann files (e.g. {stale[0]}) that would be read as documents "
                    "too; expected a new or empty directory", str(self.path))
        return None

    def finish(self, rep: ConversionReport) -> None:
        if self.made is None:       # no document: the folder still is one
            self.made = not os.path.isdir(self.path)
            make_dir(self.path)
        names = self.names()
        self.batch.retarget([os.path.join(self.path, n + ext) for n in names for ext in (".txt", ".ann")])
        conf = os.path.join(self.path, "tools.conf")
        if self.other_tokens:
            self.batch.add(conf, TOOLS_CONF.encode("utf-8"))
        self.batch.commit()
        self.made = False
        if self.other_tokens:
            rep.notes.append("tools.conf: Tokens tokenizer:whitespace (tokens are the text's whitespace-separated "
                             "words)")
        elif os.path.exists(conf):    # an old tools.conf would tokenize the new texts by whitespace
            try:
                os.remove(conf)
            except OSError as err:
                raise InputError(f"cannot remove the old tools.conf: {err.strerror or err}", conf) from None
        if self.text_made:
            rep.notes.append("texts made by joining each document's tokens with one space")
        if names != self.ids:
            rep.ids_dropped = sum(i is not None for i in self.ids)
            rep.notes.append(f"files named doc000001... in document order ({self.documents} documents)")
        rep.written = self.written

    def abort(self) -> None:
        self.batch.abort()
        if self.made:
            with suppress(OSError):
                os.rmdir(self.path)
