"""One side's tags checked as the readers decode them (:mod:`ts_eval.core.schemes`): tags the scheme cannot
read, ill-formed sequences (with what each policy makes of them), and labels outside those allowed."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..core.corpus import map_labels
from ..core.schemes import TagError, decode, detect_scheme, ill_formed_reasons, parse_tags
from .result import Problem


@dataclass
class SideTags:
    """A side's tags, one per token (None: the line has no such column), each token's line, sentence starts."""

    tags: List[Optional[str]]
    lines: List[int]
    sent_first: np.ndarray


def _parsed(tags: Sequence[Optional[str]], scheme: Optional[str]
            ) -> Tuple[np.ndarray, np.ndarray, List[str], Dict[str, str]]:
    """(prefix code per token, label id per token, labels, {bad tag: why}); a tag no scheme reads is O."""
    vocab = sorted({t for t in tags if t is not None})
    bad: Dict[str, str] = {}
    good: List[str] = []
    for t in vocab:
        try:
            parse_tags([t], scheme)
            good.append(t)
        except TagError as err:
            why = str(err).split(": ", 1)[-1]
            bad[t] = why[len("expected "):] if why.startswith("expected ") else why
    table = parse_tags(good, scheme)
    labels = sorted(set(table.labels))
    code = {t: (int(p), labels.index(lab)) for t, p, lab in zip(table.tags, table.prefix.tolist(), table.labels)}
    outside = (0, labels.index("") if "" in labels else -1)
    pairs = [code.get(t, outside) if t is not None else outside for t in tags]
    prefix = np.array([p for p, _ in pairs], np.int8)
    types = np.array([k for _, k in pairs], np.int64)
    return prefix, types, labels, bad


def scheme_for(sides: Sequence[SideTags]) -> str:
    """The scheme ``auto`` names for these sides (as the readers detect it over gold and systems)."""
    found = []
    for side in sides:
        prefix, types, _, _ = _parsed(side.tags, None)
        found.append((prefix, types))
    first = sides[0].sent_first
    return detect_scheme(found, first) if all(len(s.sent_first) == len(first) for s in sides) else \
        detect_scheme(found[:1], first)


def check_tags(path: str, side: SideTags, scheme: str, label_map: Sequence[Tuple[str, str]] = (),
               allowed: Optional[Set[str]] = None, allowed_what: str = "gold's labels"
               ) -> Tuple[List[Problem], Set[str]]:
    """The problems of ``side``'s tags (bad tags, ill-formed sequences, labels not in ``allowed``) and the
    labels its spans carry after ``label_map``."""
    tags, lines = side.tags, side.lines
    prefix, types, labels, bad = _parsed(tags, scheme)
    problems = [Problem(path, lines[k], "bad_tag", repr(t), bad[t]) for k, t in enumerate(tags) if t in bad]
    outside = labels.index("") if "" in labels else -1
    decoded = decode(prefix, types, side.sent_first, scheme, outside)
    mapped = map_labels(label_map, labels)
    if scheme != "conlleval" and decoded.ill_formed.any():
        reasons = iter(ill_formed_reasons(scheme, prefix, decoded))
        for k in np.flatnonzero(decoded.ill_formed).tolist():
            reason = next(reasons)
            if not _tagless_beside(side, decoded, k):
                problems.append(_ill_formed(path, side, decoded, k, reason, mapped))
    used: Set[str] = set()
    for a, lab in zip(decoded.start.tolist(), decoded.label.tolist()):
        name = mapped[lab]
        if not name:
            continue
        used.add(name)
        if allowed is not None and name not in allowed:
            shown = ", ".join(sorted(allowed)) or "none"
            problems.append(Problem(path, lines[a], "unknown_label", f"label {name!r} (tag {tags[a]!r})",
                                    f"one of {allowed_what}: {shown}"))
    return problems, used


def _tagless_beside(side: SideTags, decoded: object, k: int) -> bool:
    """Whether the ill-formed span ``k`` is ill-formed only beside a line without a tag column (a ``column_count``
    problem already): its bad tag, or the tag it is judged against, is not there, so what the sequence would be
    is not known and a second problem would only repeat the first."""
    d = decoded
    a, tok = int(d.start[k]), int(d.bad_token[k])   # type: ignore[attr-defined]
    tags = side.tags
    beside = tok - 1 if tok == a else tok + 1
    return tags[tok] is None or (0 <= beside < len(tags) and not side.sent_first[max(tok, beside)]
                                 and tags[beside] is None)


def _ill_formed(path: str, side: SideTags, decoded: object, k: int, reason: str, labels: List[str]) -> Problem:
    """The problem of the ill-formed span ``k``: its bad tag after the tag before it, why, and each policy's
    repair."""
    d = decoded
    a, b, tok = int(d.start[k]), int(d.last[k]), int(d.bad_token[k])   # type: ignore[attr-defined]
    tags, lines = side.tags, side.lines
    before = "the sentence start" if side.sent_first[tok] else repr(tags[tok - 1])
    after = "the sentence end" if tok + 1 >= len(tags) or side.sent_first[tok + 1] else repr(tags[tok + 1])
    found = f"{tags[tok]!r} after {before}" if tok == a else f"{tags[tok]!r} before {after}"
    label = labels[int(d.label[k])]   # type: ignore[attr-defined]
    span = f"line {lines[a]}" if a == b else f"lines {lines[a]}-{lines[b]}"
    repairs = {"conlleval": f"read as one {label} span ({span}) and counted as a repair",
               "strict": "an error: the file is not scored",
               "discard": f"the {label} span ({span}) is dropped"}
    return Problem(path, lines[tok], "ill_formed", found, reason, repairs=repairs)
