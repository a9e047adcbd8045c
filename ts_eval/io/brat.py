"""brat standoff -> :class:`Documents`: a directory of ``NAME.txt`` + ``NAME.ann`` pairs.

Text-bound annotations (``T`` lines: ``T1<TAB>LABEL START END<TAB>TEXT``) are the spans;
the document id is ``NAME``.  A discontinuous span (``START END;START END``) is an
error unless ``discontinuous`` is ``first`` (its first fragment) or ``hull`` (from its
first start to its last end).  Relations, events, attributes, normalisations and notes
(``R E A M N #`` lines) are not spans: they are counted in ``notes["other_annotations"]``.
A span's TEXT must equal the document text at its offsets.

Tokens: brat's own ``tools.conf`` in the directory decides, as in brat itself: a line
``Tokens tokenizer:whitespace`` splits at whitespace only (what :mod:`ts_eval.io.write_brat`
writes for texts it made by joining tokens with spaces); otherwise the default tokenizer.
The ``tokenizer`` option overrides it.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional

from ..core.options import Options
from ..core.printable import control_message, has_control
from ..errors import Hint, InputError
from .charspans import CharDocs, to_documents
from .documents import Documents
from .formats import DISCONTINUOUS, Format, register_format
from .source import display_name, read_text


def brat_pairs(path: str) -> List[str]:
    """Stems of the .txt/.ann pairs in a directory (or the one pair a .ann/.txt path names)."""
    if os.path.isdir(path):
        names = os.listdir(path)
        anns = {n[:-4] for n in names if n.endswith(".ann")}
        txts = {n[:-4] for n in names if n.endswith(".txt")}
        for stem in sorted(anns - txts):
            raise InputError(f"{stem}.ann has no {stem}.txt beside it; expected a .txt + .ann pair",
                             os.path.join(path, stem + ".ann"))
        for stem in sorted(txts - anns):
            raise InputError(f"{stem}.txt has no {stem}.ann beside it; expected a .txt + .ann pair "
                             "(an empty .ann for a document without spans)", os.path.join(path, stem + ".txt"))
        if not anns:
            raise InputError("no .ann/.txt pairs in the directory", path)
        return [os.path.join(path, s) for s in sorted(anns)]
    stem = path[:-4] if path.endswith((".ann", ".txt")) else path
    for ext in (".txt", ".ann"):
        if not os.path.exists(stem + ext):
            raise InputError(f"missing {os.path.basename(stem)}{ext}; expected a .txt + .ann pair", stem + ext)
    return [stem]


def tools_tokenizer(path: str) -> str:
    """The tokenizer a brat directory's ``tools.conf`` names (``whitespace`` or ``default``)."""
    conf = os.path.join(path if os.path.isdir(path) else os.path.dirname(path) or ".", "tools.conf")
    if os.path.isfile(conf):
        m = re.search(r"^\s*Tokens\s+tokenizer:(\w+)", read_text(conf), re.M)
        if m and m.group(1) == "whitespace":
            return "whitespace"
    return "default"


def brat_documents(path: str, stems: List[str], discontinuous: str, align: str, tokenizer: str, first: int = 0,
                   defer: bool = False) -> Documents:
    """The Documents of the .txt/.ann pairs ``stems`` of the brat input ``path`` (all of them, or a run of
    them, after ``first`` others; ``defer``: :func:`~ts_eval.io.charspans.to_documents`'s)."""
    cd = CharDocs(str(path), "brat", first=first)
    other = 0
    for d, stem in enumerate(stems):
        cd.ids.append(os.path.basename(stem))
        cd.texts.append(read_text(stem + ".txt"))
        cd.lines.append(1)
        cd.own_tokens.append(None)
        cd.files.append(stem + ".ann")
        other += _read_ann(cd, d, stem + ".ann", discontinuous)
    docs = to_documents(cd, align, tokenizer, defer)
    docs.notes["other_annotations"] = other
    return docs


def _read_ann(cd: CharDocs, d: int, ann: str, discontinuous: str) -> int:
    text = cd.texts[d]
    other = 0
    for k, line in enumerate(read_text(ann).split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if line[0] in "REAMN#*":
            other += 1
            continue
        if line[0] != "T":
            raise InputError(f"annotation {line[:40]!r}; expected a brat line starting with T, R, E, A, M, N or #",
                             ann, k)
        parts = line.split("\t")
        if len(parts) < 2:
            raise InputError(f"{line[:40]!r}: expected 'ID<TAB>LABEL START END<TAB>TEXT'", ann, k)
        head = parts[1].split(" ", 1)
        if len(head) != 2 or not head[0]:
            raise InputError(f"{parts[1]!r}: expected 'LABEL START END'", ann, k)
        label, offs = head
        if has_control(label):
            raise InputError(f"{parts[0]}: {control_message(label, 'label')}", ann, k)
        frags = []
        for frag in offs.split(";"):
            se = frag.split()
            if len(se) != 2 or not all(x.isdigit() for x in se):
                raise InputError(f"offsets {offs!r}: expected 'START END' (integers; fragments joined by ';')",
                                 ann, k)
            frags.append((int(se[0]), int(se[1])))
        for s, e in frags:
            if not 0 <= s < e <= len(text):
                raise InputError(f"{parts[0]}: offsets [{s}, {e}) are outside the text (length {len(text)}) or "
                                 "empty; expected 0 <= start < end <= length", ann, k)
        if len(parts) > 2:
            want = " ".join(text[s:e] for s, e in frags)
            if parts[2] != want:
                raise InputError(f"{parts[0]}: the annotation text {parts[2]!r} differs from the document text "
                                 f"{want!r} at [{frags[0][0]}, {frags[-1][1]}); expected them equal", ann, k)
        if len(frags) > 1:
            if discontinuous == "error":
                raise InputError([f"{parts[0]}: discontinuous span {offs!r}; expected one fragment (or give ",
                                  Hint("discontinuous", "first", "hull"), ")"], ann, k)
            frags = frags[:1] if discontinuous == "first" else [(frags[0][0], max(e for _, e in frags))]
        cd.add_span(d, frags[0][0], frags[0][1], label, k)
    return other


# ---------------------------------------------------------------------------
# the format


@dataclass(frozen=True)
class BratOptions(Options):
    """``discontinuous``: a span of several fragments is an error, its first fragment, or its hull;
    ``align`` and ``tokenizer`` as for texts (:class:`~ts_eval.io.jsonl_text.TextOptions`; the tokenizer by
    default from the collection's ``tools.conf``)."""

    discontinuous: str = "error"
    align: str = "strict"
    tokenizer: Optional[str] = None


class _Pairs:
    """A run of the collection's .txt/.ann pairs (a block of documents)."""

    __slots__ = ("stems",)

    def __init__(self, stems: List[str]) -> None:
        self.stems = stems


def feed(path: str, options: BratOptions, decoding: Any, block_bytes: Optional[int]) -> Any:
    """A brat collection handed out a number of documents at a time: blocks of pairs whose .txt files hold
    about ``block_bytes`` (all of them when None), in name order (an error names the .ann file and its line)."""
    from .documents import no_documents
    from .feed import DocumentFeed

    if options.discontinuous not in DISCONTINUOUS:
        raise ValueError(f"discontinuous {options.discontinuous!r}: expected one of {', '.join(DISCONTINUOUS)}")
    name = display_name(path)
    tokenizer = options.tokenizer or tools_tokenizer(path)

    def blocks() -> Iterator[_Pairs]:
        stems = brat_pairs(path)
        at = 0
        while at < len(stems):
            end, size = at, 0
            while end < len(stems) and (end == at or block_bytes is None or size < block_bytes):
                size += os.path.getsize(stems[end] + ".txt")
                end += 1
            yield _Pairs(stems[at:end])
            at = end

    def parse(raw: _Pairs, stop: Optional[int], first: int) -> Documents:
        return brat_documents(path, raw.stems[:stop], options.discontinuous, options.align, tokenizer, first,
                              defer=True)

    def before(raw: _Pairs, err: InputError) -> int:
        stem = os.path.splitext(err.path)[0] if err.path else None
        return raw.stems.index(stem) if stem in raw.stems else 0

    return DocumentFeed(name, blocks(), parse, before, lambda last: no_documents(name, "brat"),
                        lambda: InputError("no .ann/.txt pairs in the directory", name))


FORMAT = register_format(Format("brat", feed, BratOptions, extensions=(".ann",), directory=True,
                                description="brat standoff: .txt + .ann pairs in a directory"))
