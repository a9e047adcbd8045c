"""Generated strings -> spans: normalisation, grounding in gold's texts, and the corpus they make.

**Normalisation** (:class:`Normalization`; the ``strings`` model compares normalised strings, and
grounding reads two of its steps), applied in this order:

``case``       lower-case (``str.lower``, as SQuAD-style evaluators do; grounding then ignores case too)
``all-punct``  remove every ASCII punctuation character (UniversalNER's ``remove_punc``)
``punct``      strip punctuation (Unicode category P) and spaces around the string (grounding
               looks for the string as given first, then with ever more of that punctuation
               removed, fewest characters first: "Apple Inc.," finds "Apple Inc."; with
               ``all-punct`` too)
``articles``   replace the words a, an, the by a space (UniversalNER's ``remove_articles``;
               grounding also looks for a string without its leading article)
``space``      collapse runs of whitespace to one space, strip both ends
``dedupe``     a (string, label) repeated in a record counts once (UniversalNER dedupes)

Presets: ``default`` = ``space,punct`` (case kept); ``none``; ``universalner`` = ``case,all-punct,
articles,space,dedupe`` (its ``normalize_answer`` and ``parser``).

**Grounding** places each string in its record's document (gold's text, or its tokens joined by
spaces): the string is split by the default tokenizer and matched with any whitespace between its
pieces, and an occurrence counts only where it starts at a token start and ends at a token end.
``first`` (default): the strings of a record, left to right, each take the first occurrence that
does not already hold a span of their label; ``all``: a string is a span at every occurrence.  A
string with no occurrence is *ungrounded*; ``fuzzy`` then takes the best window of tokens (its
token count +- 2) whose similarity (``rapidfuzz.fuzz.ratio`` of the whitespace-normalised texts,
0-100) is at least the threshold (default 90), ties to the left.  Every string that gets no span
-- ungrounded, or (``first``) a repeat with no free occurrence left -- is *unplaced*: a false
positive of its label in its record for every span-level model (:class:`~ts_eval.core.corpus.Unplaced`).
"""
from __future__ import annotations

import re
import string as _string
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Protocol, Sequence, Set, Tuple, Union

import numpy as np

from ..core.corpus import Corpus, SideStrings, Unplaced, map_labels
from ..errors import Hint, OptionError
from .documents import Documents, build_documents
from .tokenizer import tokenize


class Strings(Protocol):
    """What grounding reads of generated outputs (:class:`ts_eval.io.generated.Generated`, named by what it
    holds: the format module imports this one): per record its id and line, per string its record, text and
    label."""

    path: str
    ids: List[Optional[str]]
    lines: List[int]
    doc: List[int]
    text: List[str]
    label: List[str]

    @property
    def n_docs(self) -> int: ...

    def where(self, d: int) -> str: ...

NORMALIZE_STEPS = ("case", "all-punct", "punct", "articles", "space", "dedupe")
NORMALIZE_PRESETS: Dict[str, Tuple[str, ...]] = {
    "default": ("space", "punct"), "none": (),
    "universalner": ("case", "all-punct", "articles", "space", "dedupe")}
MODES = ("strings", "ground", "fuzzy")
OCCURRENCES = ("first", "all")
EXAMPLES = 20          # ungrounded strings listed by name in the reading notes (all are counted)

_ASCII_PUNCT = set(_string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_LEADING_ARTICLE = re.compile(r"(?i)(?:a|an|the)\s+(\S.*)")


@dataclass(frozen=True)
class Normalization:
    """The steps of string normalisation (see the module docstring), in their fixed order."""

    steps: Tuple[str, ...] = NORMALIZE_PRESETS["default"]

    def __str__(self) -> str:
        for name, steps in NORMALIZE_PRESETS.items():
            if set(steps) == set(self.steps):
                return name
        return ",".join(self.steps)

    def __call__(self, s: str) -> str:
        steps = self.steps
        if "case" in steps:
            s = s.lower()
        if "all-punct" in steps:
            s = "".join(ch for ch in s if ch not in _ASCII_PUNCT)
        if "punct" in steps:
            s = strip_punctuation(s)
        if "articles" in steps:
            s = _ARTICLES.sub(" ", s)
        if "space" in steps:
            s = " ".join(s.split())
        return s

    @property
    def dedupe(self) -> bool:
        return "dedupe" in self.steps


def strip_punctuation(s: str) -> str:
    """``s`` without the punctuation (Unicode category P) and whitespace at either end."""
    a, b = 0, len(s)
    while a < b and (s[a].isspace() or unicodedata.category(s[a]).startswith("P")):
        a += 1
    while b > a and (s[b - 1].isspace() or unicodedata.category(s[b - 1]).startswith("P")):
        b -= 1
    return s[a:b]


def trimmings(s: str) -> List[str]:
    """``s`` without surrounding whitespace, then with ever more of its surrounding punctuation removed
    (fewest characters first, the end before the start): the strings grounding tries in turn."""
    s = s.strip()
    core = strip_punctuation(s)
    if not core:
        return [s]
    a = s.index(core)
    b = a + len(core)
    cuts = sorted({(i, j) for i in range(a + 1) for j in range(b, len(s) + 1)},
                  key=lambda c: ((c[0] + len(s) - c[1]), c[1]))
    out: List[str] = []
    for i, j in cuts:
        t = s[i:j].strip()
        if t and t not in out:
            out.append(t)
    return out


def candidates(text: str, punct: bool, articles: bool) -> List[str]:
    """The strings grounding looks for, in turn: ``text`` as given, then (``punct``) its
    :func:`trimmings`, then (``articles``) each of those without a leading a/an/the."""
    out = trimmings(text) if punct else [text.strip()]
    bare = _LEADING_ARTICLE.match(text.strip()) if articles else None
    if bare:
        out += [t for t in (trimmings(bare.group(1)) if punct else [bare.group(1)]) if t not in out]
    return out


def normalization(spec: Union[str, Sequence[str], Normalization, None]) -> Normalization:
    """A preset name (default, none, universalner), a comma-separated list of steps, or the steps."""
    if spec is None:
        return Normalization()
    if isinstance(spec, Normalization):
        return spec
    names = [x.strip() for x in spec.split(",")] if isinstance(spec, str) else [str(x) for x in spec]
    names = [x for x in names if x]
    if len(names) == 1 and names[0] in NORMALIZE_PRESETS:
        return Normalization(NORMALIZE_PRESETS[names[0]])
    bad = [x for x in names if x not in NORMALIZE_STEPS]
    if bad:
        raise OptionError(f"unknown step {bad[0]!r}; expected a preset ({', '.join(NORMALIZE_PRESETS)}) or steps "
                          f"from {', '.join(NORMALIZE_STEPS)}", option="normalize", value=spec)
    return Normalization(tuple(x for x in NORMALIZE_STEPS if x in names))


@dataclass(frozen=True)
class GroundSettings:
    """How generated strings are scored: ``mode`` strings, ground or fuzzy; ``occurrences`` first or all;
    ``normalize``; ``fuzzy_threshold`` (0-100)."""

    mode: str = "ground"
    occurrences: str = "first"
    normalize: Normalization = Normalization()
    fuzzy_threshold: float = 90.0

    def to_dict(self) -> Dict[str, Any]:
        return {"mode": self.mode, "ground": self.occurrences, "normalize": str(self.normalize),
                "normalize_steps": list(self.normalize.steps),
                "fuzzy_threshold": self.fuzzy_threshold if self.mode == "fuzzy" else None}


def ground_settings(mode: Optional[str] = None, ground: Optional[str] = None, normalize: Any = None,
                    fuzzy_threshold: Optional[float] = None) -> GroundSettings:
    """Checked :class:`GroundSettings` from the public options (None: the default)."""
    m = mode or "ground"
    if m not in MODES:
        raise OptionError(f"expected one of {', '.join(MODES)}", option="generated", value=mode)
    occ = ground or "first"
    if occ not in OCCURRENCES:
        raise OptionError(f"expected one of {', '.join(OCCURRENCES)}", option="ground", value=ground)
    t = 90.0 if fuzzy_threshold is None else float(fuzzy_threshold)
    if not 0 < t <= 100:
        raise OptionError("expected a similarity in (0, 100]", option="fuzzy_threshold", value=fuzzy_threshold)
    if m == "fuzzy":
        fuzz()     # the optional dependency, asked for before anything is read
    return GroundSettings(m, occ, normalization(normalize), t)


def fuzz() -> Any:
    """rapidfuzz's ``fuzz`` and ``process`` modules (the optional ``fuzzy`` extra)."""
    try:
        from rapidfuzz import fuzz as f
        from rapidfuzz import process as p
    except ImportError:
        raise OptionError(["needs rapidfuzz (pip install 'ts_eval[fuzzy]'), or give ",
                           Hint("generated", "ground")], option="generated", value="fuzzy") from None
    return f, p


# ---------------------------------------------------------------------------
# documents as text with token offsets


@dataclass
class _Doc:
    text: str
    starts: np.ndarray     # token start characters
    ends: np.ndarray       # token end characters
    at_start: Dict[int, int] = field(default_factory=dict)
    at_end: Dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.at_start = {int(c): k for k, c in enumerate(self.starts.tolist())}
        self.at_end = {int(c): k for k, c in enumerate(self.ends.tolist())}


def _document(gold: Documents, d: int) -> _Doc:
    """Gold document ``d`` as text with its tokens' character offsets (a document without text: its
    tokens joined by single spaces)."""
    a, b = int(gold.offsets[d]), int(gold.offsets[d + 1])
    if gold.texts is not None and gold.char_tokens is not None:
        return _Doc(gold.texts[d], gold.char_tokens[0][a:b], gold.char_tokens[1][a:b])
    toks = gold.tokens(d)
    lens = np.array([len(t) for t in toks], np.int64)
    starts = np.concatenate([[0], np.cumsum(lens + 1)[:-1]]).astype(np.int64) if len(toks) else lens
    return _Doc(" ".join(toks), starts, starts + lens)


_PIECES: Dict[str, List[str]] = {}     # string -> its tokenizer pieces (filled in blocks by pieces_of)
_PIECES_MAX = 1 << 16


def pieces_of(strings: Sequence[str]) -> None:
    """Tokenize the strings not yet known in one block (the tokenizer works on many texts at once)."""
    new = list(dict.fromkeys(x for x in strings if x not in _PIECES))
    if len(_PIECES) + len(new) > _PIECES_MAX:
        _PIECES.clear()
    for x in new:
        if not x.strip():           # nothing to find (the tokenizer wants some text in its block)
            _PIECES[x] = []
    new = [x for x in new if x.strip()]
    if not new:
        return
    off, ts, te = tokenize(new)
    starts, ends, offsets = ts.tolist(), te.tolist(), off.tolist()
    for k, x in enumerate(new):
        _PIECES[x] = [x[a:b] for a, b in zip(starts[offsets[k]:offsets[k + 1]], ends[offsets[k]:offsets[k + 1]])]


def _pieces(s: str) -> List[str]:
    if s not in _PIECES:
        pieces_of([s])
    return _PIECES[s]


def occurrences(doc: _Doc, s: str, case: bool) -> List[Tuple[int, int]]:
    """Token ranges [b, e) where ``s`` occurs in ``doc`` on token boundaries, left to right (its
    tokenizer pieces with any whitespace between them; ``case``: ignoring case)."""
    pieces = _pieces(s)
    if not pieces:
        return []
    if not case:
        return _occurrences_as_written(doc, pieces)
    pattern = re.compile("(?=(" + r"\s*".join(map(re.escape, pieces)) + "))", re.IGNORECASE if case else 0)
    out = []
    for m in pattern.finditer(doc.text):
        b, e = doc.at_start.get(m.start(1)), doc.at_end.get(m.end(1))
        if b is not None and e is not None and m.end(1) > m.start(1):
            out.append((b, e + 1))
    return out


def _occurrences_as_written(doc: _Doc, pieces: List[str]) -> List[Tuple[int, int]]:
    """What :func:`occurrences` finds with its pattern when case counts, without compiling one pattern per
    string: each place the first piece occurs at a token start (``str.find``), then every next piece after
    any whitespace (``str.isspace`` is the pattern's ``\\s``; a piece holds none, so the whitespace between
    two pieces is all of it), ending at a token end."""
    text, first, rest = doc.text, pieces[0], pieces[1:]
    n = len(text)
    out = []
    p = text.find(first)
    while p >= 0:
        b = doc.at_start.get(p)
        if b is not None:
            q = p + len(first)
            for piece in rest:
                while q < n and text[q].isspace():
                    q += 1
                if not text.startswith(piece, q):
                    break
                q += len(piece)
            else:
                e = doc.at_end.get(q)
                if e is not None:
                    out.append((b, e + 1))
        p = text.find(first, p + 1)
    return out


def _fuzzy(doc: _Doc, s: str, case: bool, threshold: float) -> List[Tuple[float, int, int]]:
    """(similarity, b, e) of the windows of ``doc``'s tokens near ``s`` in length, at least
    ``threshold``, best first, then leftmost, then shortest."""
    f, p = fuzz()
    k = max(len(_pieces(s)), 1)
    n = len(doc.starts)

    def norm(x: str) -> str:
        x = " ".join(x.split())
        return x.casefold() if case else x

    windows = [(b, b + w) for w in range(max(1, k - 2), k + 3) for b in range(0, n - w + 1)]
    if not windows:
        return []
    texts = [norm(doc.text[int(doc.starts[b]):int(doc.ends[e - 1])]) for b, e in windows]
    scores = p.cdist([norm(s)], texts, scorer=f.ratio)[0]
    out = [(float(sc), b, e) for sc, (b, e) in zip(scores.tolist(), windows) if sc >= threshold]
    return sorted(out, key=lambda x: (-x[0], x[1], x[2] - x[1]))


# ---------------------------------------------------------------------------
# grounding


@dataclass
class Grounded:
    """One generated system placed on gold's documents: its spans (as Documents), the strings that got
    no span (unplaced: document, label, tokens), its normalised strings, and what grounding found."""

    docs: Documents
    unplaced: Tuple[List[int], List[str], List[int]]
    strings: Tuple[List[int], List[str], List[str]]
    notes: Dict[str, Any]


#: what grounding counts, in the order the notes give them (then ``outside_labels``)
COUNTS = ("strings", "grounded", "fuzzy_grounded", "ungrounded", "duplicates", "unplaced")


@dataclass
class GroundingTally:
    """What grounding found in the records placed so far, placed all at once or a run of records at a time
    (:func:`place`): the counts add, the first :data:`EXAMPLES` ungrounded strings are kept, the strings of
    each label and gold's labels are counted, so that :meth:`notes` -- the labels outside gold's over the
    whole gold input -- can wait for the last record.  What it holds grows with the labels, not the records."""

    settings: GroundSettings
    counts: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTS, 0))
    examples: List[Dict[str, Any]] = field(default_factory=list)
    labels: Dict[str, int] = field(default_factory=dict)      # strings per label, in the order first seen
    gold_labels: Set[str] = field(default_factory=set)        # gold's labels (as read, before the label map)
    records: int = 0

    def notes(self, label_map: Sequence[Tuple[str, str]] = ()) -> Dict[str, Any]:
        """The reading notes of the records placed (``label_map`` only decides which labels count as outside
        gold's label set)."""
        gold_labels = set(map_labels(label_map, sorted(self.gold_labels)))
        names = list(self.labels)
        outside = [lab for lab, m in zip(names, map_labels(label_map, names)) if m not in gold_labels]
        counts = {**self.counts, "outside_labels": sum(self.labels[lab] for lab in outside)}
        return {"generated": {**self.settings.to_dict(), **counts, "outside_label_names": sorted(outside),
                              "ungrounded_examples": list(self.examples), "records": self.records}}


def place(gold: Documents, gen: Strings, order: np.ndarray, tally: GroundingTally,
          first_record: int = 0) -> Grounded:
    """Place the strings of ``gen``'s records on ``gold``'s documents (gold document g <- record
    ``order[g]``), adding what grounding finds to ``tally`` (``first_record``: the records of the input
    before ``gen``'s, which number the records of the examples).  The Grounded's notes are empty: they are
    ``tally``'s once every record is placed."""
    settings = tally.settings
    tally.gold_labels.update(gold.labels)
    doc_of_record = np.empty(gen.n_docs, np.int64)
    doc_of_record[order] = np.arange(gold.n_docs)
    norm = settings.normalize
    case = "case" in norm.steps
    strip = "punct" in norm.steps or "all-punct" in norm.steps
    articles = "articles" in norm.steps
    by_record: Dict[int, List[int]] = {}
    for k, r in enumerate(gen.doc):
        by_record.setdefault(r, []).append(k)
    sd: List[int] = []
    ss: List[int] = []
    se: List[int] = []
    sl: List[str] = []
    un_doc: List[int] = []
    un_label: List[str] = []
    un_tokens: List[int] = []
    st_doc: List[int] = []
    st_label: List[str] = []
    st_text: List[str] = []
    counts = tally.counts
    counts["strings"] += len(gen.text)
    ungrounded = tally.examples
    pieces_of([c for t in gen.text for c in candidates(t, strip, articles)])    # one tokenizer pass
    for r in range(gen.n_docs):
        if r not in by_record:       # no strings: nothing to place (and no token index to build)
            continue
        d = int(doc_of_record[r])
        doc = _document(gold, d)
        placed: Set[Tuple[int, int, str]] = set()
        seen = set()
        for k in by_record.get(r, []):
            text, label = gen.text[k], gen.label[k]
            key = (norm(text), label)
            repeat = key in seen
            seen.add(key)
            counts["duplicates"] += repeat
            if repeat and norm.dedupe:       # counted once: no span, no false positive
                continue
            st_doc.append(d)
            st_label.append(label)
            st_text.append(key[0])
            found, fuzzy = _found(doc, text, settings, case, strip, articles)
            new = _new(found, fuzzy, label, placed, settings.occurrences)
            for b, e in new:
                placed.add((b, e, label))
                sd.append(d)
                ss.append(b)
                se.append(e)
                sl.append(label)
            counts["grounded"] += bool(new) and not fuzzy
            counts["fuzzy_grounded"] += bool(new) and fuzzy
            if not found:
                counts["ungrounded"] += 1
                if len(ungrounded) < EXAMPLES:
                    ungrounded.append({"record": gen.ids[r] if gen.ids[r] is not None else first_record + r + 1,
                                       "line": gen.lines[r], "text": text, "label": label})
            if not new and not (found and settings.occurrences == "all"):
                counts["unplaced"] += 1                 # a false positive with no tokens
                un_doc.append(d)
                un_label.append(label)
                un_tokens.append(max(len(_pieces(text)), 1))
    for label in gen.label:
        tally.labels[label] = tally.labels.get(label, 0) + 1
    tally.records += gen.n_docs
    lengths = np.diff(gold.offsets).tolist()
    docs = build_documents(gen.path, "generated", lengths, list(gold.ids), gold.key_data, sd, ss, se, sl,
                           lines=[gen.lines[int(order[g])] for g in range(gold.n_docs)], texts=gold.texts,
                           char_tokens=gold.char_tokens)
    extra = sorted((set(un_label) | set(st_label)) - set(docs.labels))
    if extra:
        docs = _with_labels(docs, sorted(set(docs.labels) | set(extra)))
    return Grounded(docs, (un_doc, un_label, un_tokens), (st_doc, st_label, st_text), {})


def _found(doc: Any, text: str, settings: GroundSettings, case: bool, strip: bool,
           articles: bool) -> Tuple[List[Tuple[int, int]], bool]:
    """Where ``text`` occurs in ``doc`` (token ranges), and whether only near matches were found (fuzzy)."""
    found: List[Tuple[int, int]] = []
    for candidate in candidates(text, strip, articles):   # "Apple Inc.," -> "Apple Inc."
        found = occurrences(doc, candidate, case)
        if found:
            return found, False
    if settings.mode == "fuzzy":
        near = _fuzzy(doc, text.strip(), case, settings.fuzzy_threshold)
        if settings.occurrences == "all" and near:
            near = [x for x in near if x[0] == near[0][0]]
        found = [(b, e) for _, b, e in near]
    return found, bool(found)


def _new(found: List[Tuple[int, int]], fuzzy: bool, label: str, placed: Set[Tuple[int, int, str]],
         occurrences: str) -> List[Tuple[int, int]]:
    """The spans a string takes of where it was ``found``: not placed with its label already; the first
    (``occurrences`` first), or all (fuzzy: the best windows that do not overlap)."""
    new = [(b, e) for b, e in found if (b, e, label) not in placed]
    if occurrences == "first":
        return new[:1]
    if occurrences == "all" and fuzzy:
        kept: List[Tuple[int, int]] = []
        for b, e in sorted(new):
            if all(e <= x or b >= y for x, y in kept):
                kept.append((b, e))
        return kept
    return new


def _with_labels(docs: Documents, labels: List[str]) -> Documents:
    """``docs`` with a larger label list (labels of strings that have no span stay known to the corpus)."""
    index = {lab: k for k, lab in enumerate(labels)}
    remap = np.array([index[lab] for lab in docs.labels] or [0], np.int32)
    docs.label = remap[docs.label] if len(docs.label) else docs.label
    docs.labels = labels
    return docs


def gold_strings(gold: Documents, normalize: Normalization) -> Tuple[List[int], List[str], List[str]]:
    """Gold's spans as normalised strings (document, label, text): the span's text (or its tokens joined by
    spaces), deduplicated per document and label when the normalisation says so."""
    doc = np.searchsorted(gold.offsets, gold.start, side="right") - 1
    out_d: List[int] = []
    out_l: List[str] = []
    out_t: List[str] = []
    seen = set()
    for d, b, e, lab in zip(doc.tolist(), gold.start.tolist(), gold.last.tolist(), gold.label.tolist()):
        if gold.texts is not None and gold.char_tokens is not None:
            text = gold.texts[d][int(gold.char_tokens[0][b]):int(gold.char_tokens[1][e])]
        else:
            a = int(gold.offsets[d])
            text = " ".join(gold.tokens(d)[b - a:e - a + 1])
        t = normalize(text)
        key = (d, gold.labels[lab], t)
        if normalize.dedupe and key in seen:
            continue
        seen.add(key)
        out_d.append(d)
        out_l.append(gold.labels[lab])
        out_t.append(t)
    return out_d, out_l, out_t


def attach(corpus: Corpus, gold: Documents, grounded: Mapping[str, Grounded], settings: GroundSettings) -> Corpus:
    """The corpus with every generated system's unplaced spans and strings, and gold's strings (one string
    vocabulary for all sides).  ``corpus`` is :func:`~ts_eval.io.join.pair_aligned` of ``gold`` and the
    grounded systems: its sentences are gold's documents."""
    if not grounded:
        return corpus
    index = {lab: k for k, lab in enumerate(corpus.labels)}
    vocab: Dict[str, int] = {}

    def strings(parts: Tuple[List[int], List[str], List[str]]) -> SideStrings:
        d, lab, text = parts
        return SideStrings(np.asarray(d, np.int64), np.array([index[x] for x in lab], np.int32),
                           np.array([vocab.setdefault(t, len(vocab)) for t in text], np.int64))

    corpus.gold_info.strings = strings(gold_strings(gold, settings.normalize))
    for name, g in grounded.items():
        info = corpus.system_info[name]
        d, lab, tok = g.unplaced
        info.unplaced = Unplaced(np.asarray(d, np.int64), np.array([index[x] for x in lab], np.int32),
                                 np.asarray(tok, np.int64))
        info.strings = strings(g.strings)
    return corpus
