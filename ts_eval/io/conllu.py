"""CoNLL-U -> :class:`Documents`: NER or chunk tags from a named column or a MISC key.

Tokens are the syntactic words (lines whose ID is an integer); multi-word token lines
(``1-2``) and empty nodes (``1.1``) are not tokens, as the format defines (they are
counted in ``notes``).  Sentences end at a blank line; ``# sent_id = X`` gives the
sentence id.  Tags come from ``column`` (a name: ID FORM LEMMA UPOS XPOS FEATS HEAD
DEPREL DEPS MISC, a CoNLL-U Plus ``# global.columns`` name, or a 1-based number) or from
the MISC key ``misc_key`` (``NER=B-PER|SpaceAfter=No``), which every word must carry.

The file is read as bytes and split with numpy in blocks of whole lines
(:mod:`ts_eval.io.conllu_lines`): no Python object per token; only the distinct tags,
the sentence ids and (when pairing needs them) each sentence's tokens become strings.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

import numpy as np

from ..core.options import Options
from ..errors import AnyOf, Hint, InputError
from .conllu_lines import Lines, scan
from .documents import Documents, documents_from_tags, no_documents, tags_evidence, token_keys
from .formats import Format, register_format
from .source import check_utf8, display_name, line_blocks

COLUMNS = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC"]


@dataclass(frozen=True)
class TagSource:
    """Where a CoNLL-U file's tags are: its column names, the tag column (or None) and the MISC column
    with ``misc_key`` (when the tags are a MISC key)."""

    name: str                      # the file's name in messages
    names: List[str]
    column: Optional[int]
    misc: Optional[int]
    misc_key: str


def tag_source(raw: Union[bytes, bytearray], shift: int, column: Union[str, int, None], misc_key: Optional[str],
               name: str) -> TagSource:
    """The :class:`TagSource` of a file whose (UTF-8) bytes from ``shift`` on start with ``raw``'s."""
    nl = raw.find(b"\n", shift)
    names, col, misc = _tag_source(bytes(raw[shift:nl if nl >= 0 else len(raw)]).decode("utf-8"), column, misc_key,
                                   name)
    return TagSource(name, names, col, misc, misc_key or "")


def scan_lines(raw: Union[bytes, bytearray], shift: int, source: TagSource,
               missing: Callable[[int], InputError], line0: int = 0) -> Lines:
    """:func:`~ts_eval.io.conllu_lines.scan` of ``raw[shift:]`` (the file after ``line0`` lines) for ``source``;
    ``missing(line)`` is the error for a word without the MISC key."""
    field = source.column if source.column is not None else source.misc
    assert field is not None       # (_tag_source raises when there is neither)
    return scan(raw, shift, source.name, source.names, field, None if source.column is not None else source.misc_key,
                missing, line0)


def documents(name: str, lines: Lines, data: np.ndarray, scheme: str, policy: str, before: int = 0,
              detected: Optional[str] = None, evidence: bool = False) -> Any:
    """Sentences from the scanned lines: the words between two blank lines, with the block's last
    ``# sent_id`` as id (``before``: the sentences of the file before them; ``detected``: the scheme ``auto``
    stands for; ``evidence``: what the scheme ``auto`` is detected from instead of the documents)."""
    block = np.searchsorted(lines.blank_line, lines.word_line)     # blank lines before each word
    first = np.ones(len(block), bool)
    first[1:] = block[1:] != block[:-1]
    starts = np.flatnonzero(first)
    lengths = np.diff(np.append(starts, len(block)))
    sent_block = block[starts]
    id_block = np.searchsorted(lines.blank_line, lines.id_line)
    last = np.searchsorted(id_block, sent_block, side="right") - 1
    found = (last >= 0) & (id_block[np.maximum(last, 0)] == sent_block) if len(id_block) else np.zeros(len(starts),
                                                                                                        bool)
    ids: List[Optional[str]] = [lines.id_value[k] if ok else None for k, ok in zip(last.tolist(), found.tolist())]
    keys = token_keys(data, lines.form_start, lines.form_len, lengths)
    if evidence:
        return tags_evidence(name, lengths, lines.vocab, lines.tag_ids, lines.word_line[starts].tolist(),
                             lines.word_line, before)
    docs = documents_from_tags(name, "conllu", lengths, ids, keys, lines.vocab, lines.tag_ids, scheme, policy,
                               lines=lines.word_line[starts].tolist(), token_lines=lines.word_line, first=before,
                               detected=detected)
    docs.notes.update({"multiword_tokens": lines.multiword, "empty_nodes": lines.empty})
    return docs


def _tag_source(first_line: str, column: Union[str, int, None], misc_key: Optional[str],
                name: str) -> Tuple[List[str], Optional[int], Optional[int]]:
    """(column names, tag column index or None, MISC column index or None) of the file."""
    names = COLUMNS
    if first_line.startswith("# global.columns ="):
        names = first_line.split("=", 1)[1].split()
    if len(names) < 2:
        raise InputError(f"# global.columns names {len(names)} column(s); expected at least ID and FORM", name, 1)
    col = _column(column, names, name) if column is not None else None
    misc = names.index("MISC") if "MISC" in names else None
    if col is None and (misc_key is None or misc is None):
        source = AnyOf(Hint("column", metavar="NAME"), Hint("misc_key", metavar="KEY"))
        raise InputError(["no tag source: give ", source, " (the file has no MISC column)" if misc is None else ""],
                         name)
    return names, col, misc


def misc_error(lines: Iterable[bytes], source: TagSource, at: int) -> InputError:
    """The error for the word on (1-based) line ``at`` whose MISC field lacks the key: it names the MISC keys
    the words up to it carry (``lines``: the file's first ``at`` lines, read again here, on the error path
    only)."""
    assert source.misc is not None
    key_seen: Dict[str, int] = {}
    misc_key = source.misc_key
    prefix = misc_key + "="
    field = ""
    for k, line in enumerate(lines, 1):
        text = line.decode("utf-8").rstrip("\r\n")
        if not text.strip() or text.startswith("#"):
            continue
        f = text.split("\t")
        if "-" in f[0] or "." in f[0]:
            continue
        field = f[source.misc]
        for item in field.split("|"):
            if not item.startswith(prefix):
                key_seen[item.split("=", 1)[0]] = k
    found = ", ".join(sorted(k_ for k_ in key_seen if k_ != "_")) or "none"
    other = AnyOf(Hint("misc_key", metavar="KEY"), Hint("column", metavar="NAME"))
    return InputError([f"MISC {field!r} has no {misc_key}=...; expected the key {misc_key!r} on every "
                       f"word (MISC keys seen so far: {found}; or give ", other, ")"], source.name, at)


def _column(column: Union[str, int], names: List[str], path: str) -> int:
    if isinstance(column, int) and not isinstance(column, bool):
        if 1 <= column <= len(names):
            return column - 1
        raise InputError(f"column {column} does not exist; expected 1..{len(names)}", path)
    if str(column).upper() in names:
        return names.index(str(column).upper())
    raise InputError(f"column {column!r} does not exist; expected one of {', '.join(names)}", path)


# ---------------------------------------------------------------------------
# the format


@dataclass(frozen=True)
class ConlluOptions(Options):
    """Where the tags are: the MISC key ``misc_key``, or a ``column`` (a name or a 1-based number)."""

    misc_key: Optional[str] = "NER"
    column: Union[str, int, None] = None


class _Reading:
    """What reading one CoNLL-U input has found so far: where its tags are, whether it holds any text."""

    def __init__(self, path: str, options: ConlluOptions, scheme: str, policy: str) -> None:
        self.path, self.name, self.options = path, display_name(path), options
        self.scheme, self.policy = scheme, policy
        self.source: Optional[TagSource] = None
        self.detected: Optional[str] = None
        self.text = False

    def parse(self, raw: Any, stop: Optional[int], first: int, evidence: bool = False) -> Any:
        data = raw.data if stop is None else raw.data[:stop]
        shift = check_utf8(data, self.name, lines_before=raw.lines, bytes_before=raw.bytes)
        if raw.bytes:       # (a BOM only at the start of the input)
            shift = 0
        if self.source is None:
            self.source = tag_source(data, shift, self.options.column, self.options.misc_key, self.name)
        self.text = self.text or bool(bytes(data).strip())
        lines = scan_lines(data, shift, self.source, self._missing, raw.lines)
        if not len(lines.word_line):
            return None if evidence else _none(self.name)
        return documents(self.name, lines, np.frombuffer(data, np.uint8, count=len(data) - shift, offset=shift),
                         self.scheme, self.policy, first, self.detected, evidence)

    def _missing(self, at: int) -> InputError:
        """The error for a word without the MISC key on line ``at``: the file's first lines, read again."""
        assert self.source is not None
        from .source import open_stream

        def lines() -> Iterable[bytes]:
            with open_stream(self.path) as fh:
                for k, line in enumerate(fh):
                    if k >= at:
                        return
                    yield line[3:] if k == 0 and line.startswith(b"\xef\xbb\xbf") else line

        return misc_error(lines(), self.source, at)

    def none(self) -> InputError:
        return InputError("no word lines; expected CoNLL-U sentences" if self.text else "empty input", self.name)


def _none(name: str) -> Documents:
    return no_documents(name, "conllu")


def feed(path: str, options: ConlluOptions, decoding: Any, block_bytes: Optional[int]) -> Any:
    """A CoNLL-U input handed out a number of sentences at a time (:class:`~ts_eval.io.feed.DocumentFeed`)."""
    from .columns import sentence_cut
    from .feed import DocumentFeed, before_line, detected_scheme
    from .source import open_stream

    reading = _Reading(path, options, decoding.scheme, decoding.policy)

    def blocks() -> Any:
        return line_blocks(lambda: open_stream(path), sentence_cut(None), block_bytes)

    if decoding.scheme == "auto":
        reading.detected = detected_scheme(path, blocks, reading.parse)
        reading.source, reading.text = None, False
    return DocumentFeed(reading.name, blocks(), reading.parse, before_line(reading.name, True),
                        lambda last: _none(reading.name), reading.none)


def _sniff(head: str) -> bool:
    for line in head.split("\n"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\r").split("\t")
        return len(f) == 10 and f[0].split("-")[0].split(".")[0].isdigit()
    return False


FORMAT = register_format(Format("conllu", feed, ConlluOptions, extensions=(".conllu",), sniff=_sniff, tags=True,
                                description="CoNLL-U: tags in a MISC key or a column"))
