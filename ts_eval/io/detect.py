"""Which reader a path needs: by directory, extension (compression suffix ignored) and content."""
from __future__ import annotations

from typing import Optional

from .source import STDIN, is_dir, plain_name

FORMATS = ("columns", "jsonl-tokens", "jsonl-text", "label-studio", "brat", "conllu", "generated")
_EXT = {".conllu": "conllu", ".ann": "brat", ".conll": "columns", ".iob": "columns", ".bio": "columns",
        ".tsv": "columns"}


def detect_format(path: str, raw: Optional[bytes] = None) -> str:
    """The format of ``path`` (``raw``: its bytes, for content sniffing, e.g. of standard input)."""
    if is_dir(path):
        return "brat"
    name = plain_name(path).lower() if path != STDIN else ""
    for ext, fmt in _EXT.items():
        if name.endswith(ext):
            return fmt
    if raw is None:
        return "columns"
    return sniff(raw)


def sniff(raw: bytes) -> str:
    """Format from content: a JSON object or array (by its keys; entity strings without offsets are
    generated outputs), CoNLL-U word lines, else columns."""
    from .generated import looks_generated  # (not imported for a file whose name tells its format)

    head = raw[:1 << 16].decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if head.startswith(("[", "{")) and looks_generated(head.split("\n", 1)[0]):
        return "generated"
    if head.startswith("["):
        return "label-studio" if '"data"' in head and ('"annotations"' in head or '"predictions"' in head) \
            else "jsonl-text"
    if head.startswith("{"):
        import msgspec

        line = head.split("\n", 1)[0]
        try:
            rec = msgspec.json.decode(line)
        except msgspec.DecodeError:
            rec = {}
        if isinstance(rec, dict) and "tokens" in rec and any(k in rec for k in ("spans", "tags", "ner_tags")) \
                and ("text" not in rec):
            return "jsonl-tokens"
        return "jsonl-text"
    for line in head.split("\n"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\r").split("\t")
        if len(f) == 10 and f[0].split("-")[0].split(".")[0].isdigit():
            return "conllu"
        break
    return "columns"
