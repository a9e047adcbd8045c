"""The attributes an analysis splits the data by: of a span, of a sentence, and the user's own.

A *span attribute* gives every span a value, gold's and each system's alike (a system span's
value is read from that span: its length, its label, its string's frequency in the training
data); a *sentence attribute* gives every sentence a value, read from gold and the tokens (so
every side's spans in one sentence share it).  Values are numbers (``numeric``: bucketed by
ranges) or names (``categorical``: one bucket per name).

Built in, of a span: ``length`` (tokens), ``chars`` (characters, tokens joined by one space),
``label``, ``shape`` (capitalisation of its letters), ``position`` (in the sentence); with
training data also ``train_frequency`` (how often its lower-cased string is an entity in the
training data, any label), ``label_consistency`` (the share of those occurrences that carry this
span's label; unseen strings have none) and ``seen`` (seen or unseen as a training entity).  Of a
sentence: ``sentence_length``, ``entity_density`` (tokens inside a gold span / tokens),
``oov_density`` (tokens not in the training vocabulary / tokens; needs training data or a
vocabulary); the slice ``document`` and the fields of JSON Lines records are asked for (``by``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Mapping, Optional, Sequence, Tuple, Union, overload
from weakref import WeakKeyDictionary

import numpy as np

from ..core.arrays import distinct_slices, join_slices, ranges_tokens
from ..core.corpus import Corpus, SpanSet
from ..errors import AnyOf, Hint, InputError, Part

SPAN = "span"
SENTENCE = "sentence"
NUMERIC = "numeric"
CATEGORICAL = "categorical"

#: shapes of a span's letters, in the order buckets show them
SHAPES = ("Xx", "XX", "xx", "mixed", "no letters")
#: positions of a span in its sentence
POSITIONS = ("first", "inside", "last", "whole")
SEEN = ("seen", "unseen")
UNSEEN = "unseen"     # the bucket of spans without a label consistency (their string is no training entity)


@dataclass
class Training:
    """What the training-based attributes read of training data: how often each lower-cased entity
    string (tokens joined by one space) occurs as an entity under each label, and the tokens."""

    labels: List[str]
    counts: Dict[str, np.ndarray]        # entity string -> occurrences per label (of ``labels``)
    vocabulary: FrozenSet[str]            # every training token, as written (case kept)
    source: Optional[str] = None
    sentences: int = 0
    tokens: int = 0
    spans: int = 0
    words: List[str] = field(default_factory=list)    # the training tokens, flat (InterpretEval's tables read them)
    tags: List[str] = field(default_factory=list)     # their IOB2 tags, from the spans

    def summary(self) -> Dict[str, Any]:
        return {"path": self.source, "sentences": self.sentences, "tokens": self.tokens, "spans": self.spans,
                "labels": list(self.labels)}


def training_from(tokens: Sequence[str], start: np.ndarray, last: np.ndarray, label: np.ndarray,
                  labels: Sequence[str], *, source: Optional[str] = None, sentences: int = 0) -> Training:
    """:class:`Training` from training tokens (flat) and spans over them (first, last token, label id)."""
    counts: Dict[str, np.ndarray] = {}
    n_labels = len(labels)
    for s, e, lab in zip(start.tolist(), last.tolist(), label.tolist()):
        key = " ".join(tokens[s:e + 1]).lower()
        row = counts.get(key)
        if row is None:
            row = counts[key] = np.zeros(n_labels, np.int64)
        row[lab] += 1
    return Training(list(labels), counts, frozenset(tokens), source, sentences, len(tokens), len(start),
                    list(tokens), iob2_tags(len(tokens), start, last, label, labels))


def iob2_tags(n: int, start: np.ndarray, last: np.ndarray, label: np.ndarray, labels: Sequence[str]) -> List[str]:
    """IOB2 tags of n tokens from spans (first, last token, label id); a later span overwrites."""
    tags = ["O"] * n
    for s, e, lab in zip(start.tolist(), last.tolist(), label.tolist()):
        tags[s] = "B-" + labels[lab]
        for k in range(s + 1, e + 1):
            tags[k] = "I-" + labels[lab]
    return tags


def read_vocabulary(path: str) -> FrozenSet[str]:
    """A vocabulary file: one token per line (UTF-8; blank lines are skipped; a line is taken as
    written, without its line end)."""
    from ..io.source import display_name, read_text

    name = display_name(path)
    words = [w.rstrip("\r") for w in read_text(path).split("\n") if w.strip()]
    if not words:
        raise InputError("empty vocabulary, expected one token per line", name)
    return frozenset(words)


@dataclass
class Attribute:
    """One attribute: its name, what it describes (``span`` or ``sentence``), whether its values are
    numbers or names, and how to read them."""

    name: str
    level: str                     # SPAN or SENTENCE
    kind: str                      # NUMERIC or CATEGORICAL
    description: str
    # span attributes: values(corpus, spans, text) of a SpanSet; sentence attributes: values(corpus, text), one
    # value per sentence (``text``: the corpus's :class:`Text` when ``reads_text``, else None); an array, or for a
    # categorical attribute its :class:`Coded` values
    values: Callable[..., Union[np.ndarray, Coded]]
    integer: bool = False          # numeric values are whole numbers (bucket labels read "3-4", "5+")
    order: Optional[Sequence[str]] = None   # categorical: the order of its names (others after, sorted)
    missing: Optional[str] = None  # numeric: the bucket of spans without a value (nan)
    source: str = "built in"       # built in, training data, vocabulary, a record field
    extra: Dict[str, Any] = field(default_factory=dict)
    reads_text: bool = False       # its values read the token texts (a :class:`Text`)


class Coded:
    """A categorical attribute's values as codes into its names: value ``i`` is ``names[codes[i]]`` (no Python
    object a span; ``numpy.asarray`` of it gives the values as an object array)."""

    def __init__(self, codes: np.ndarray, names: Sequence[str]):
        self.codes, self.names = np.asarray(codes), list(names)

    def __len__(self) -> int:
        return len(self.codes)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        names = np.empty(len(self.names), object)
        names[:] = self.names
        out: np.ndarray = names[self.codes]
        return out if dtype is None else out.astype(dtype)


class Text:
    """The corpus's tokens as numpy columns: character lengths, per-token letter classes (each read once
    per distinct token string, ``distinct``, and spread by ``token_id``), and each distinct span's
    lower-cased string (made once, shared by gold and every system)."""

    LOWER, TITLE, UPPER, NONE = 0, 1, 2, 3

    def __init__(self, corpus: Corpus):
        if corpus.tokens is None:
            raise ValueError("the corpus has no token texts")
        self.corpus = corpus
        # each distinct token's length and letter class once, then spread to the tokens by its id
        self.tokens, self.token_id, self.distinct = token_texts(corpus)
        code = self.token_id
        chars = self.tokens.distinct_bytes().chars()
        total = int(chars[code].sum(dtype=np.int64)) if len(code) else 0
        self.char_cum = np.zeros(len(code) + 1, np.int32 if total < 2 ** 31 else np.int64)
        np.cumsum(chars[code], out=self.char_cum[1:])
        #: each token's letter class (the counts of a class over a range are made when asked, :meth:`class_counts`)
        self.letter_class = letter_classes(self.tokens.distinct_bytes())[code]
        self._strings: Dict[int, str] = {}
        # (id(training), id(spans)) -> (training rows of the spans, the spans: kept, so that their id stays theirs)
        self.cache: Dict[Tuple[int, int], Tuple[Tuple[np.ndarray, np.ndarray], SpanSet]] = {}

    def class_counts(self, start: np.ndarray, last: np.ndarray) -> np.ndarray:
        """(4, spans): the tokens of each letter class from ``start`` to ``last`` (inclusive), read from the
        spans' tokens (about :data:`TEXT_CHUNK` at a time), not from every token of the corpus."""
        start, last = np.asarray(start, np.int64), np.asarray(last, np.int64)
        out = np.zeros((len(start), 4), np.int64)
        ends = np.cumsum(last - start + 1)
        a = 0
        while a < len(start):
            b = max(int(np.searchsorted(ends, (ends[a - 1] if a else 0) + TEXT_CHUNK, side="right")), a + 1)
            cls = self.letter_class[ranges_tokens(start[a:b], last[a:b] + 1)]
            span = np.repeat(np.arange(b - a), last[a:b] - start[a:b] + 1)
            out[a:b] = np.bincount(span * 4 + cls, minlength=4 * (b - a)).reshape(b - a, 4)
            a = b
        counts: np.ndarray = out.T
        return counts

    def strings(self, spans: SpanSet) -> List[str]:
        """Each span's tokens joined by one space, lower-cased."""
        n = max(self.corpus.n_tokens, 1)
        keys = spans.start.astype(np.int64) * n + spans.last.astype(np.int64)
        new = np.array([k for k in np.unique(keys).tolist() if k not in self._strings], np.int64)
        self._strings.update(zip(new.tolist(), self.tokens.joined(new // n, new % n + 1, lower=True)))
        return [self._strings[k] for k in keys.tolist()]


class Tokens(Sequence[str]):
    """Every token's text as the number of its distinct text (``token_id``; the texts, ``distinct``, once):
    ``tokens[i]`` a text, ``tokens[a:b]`` a list of them, as a list of every token's text would give; the
    texts of many ranges at once (:meth:`joined`) are cut from the distinct texts' bytes."""

    def __init__(self, token_id: np.ndarray, distinct: List[str]):
        self.token_id, self.distinct = token_id, distinct
        self._texts = np.empty(len(distinct), object)
        self._texts[:] = distinct
        self._bytes: Optional[_Bytes] = None
        self._lower: Optional[Tuple[np.ndarray, _Bytes]] = None

    def __len__(self) -> int:
        return len(self.token_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts[self.token_id].tolist())

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> List[str]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[str, List[str]]:
        if isinstance(i, slice):
            texts: List[str] = self._texts[self.token_id[i]].tolist()
            return texts
        return self.distinct[int(self.token_id[i])]

    def distinct_bytes(self) -> _Bytes:
        """The distinct texts as UTF-8 bytes (made once)."""
        if self._bytes is None:
            self._bytes = _Bytes(self.distinct)
        return self._bytes

    def lower(self) -> Tuple[np.ndarray, _Bytes]:
        """(per distinct text the number of its lower-cased text, numbered in order of first occurrence; the
        lower-cased texts as bytes): each distinct text lower-cased once."""
        if self._lower is None:
            index: Dict[str, int] = {}
            of = np.fromiter((index.setdefault(t.lower(), len(index)) for t in self.distinct), np.int64,
                             len(self.distinct))
            self._lower = (of.astype(np.int32) if len(index) < 2 ** 31 else of), _Bytes(list(index))
        return self._lower

    def joined(self, a: np.ndarray, b: np.ndarray, lower: bool = False) -> List[str]:
        """Per range the texts of tokens a[i]..b[i]-1 joined by one space (every range holds a token),
        lower-cased with ``lower`` (a text joined by spaces lower-cases token by token)."""
        a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
        code = self.token_id[ranges_tokens(a, b)]
        store = self.distinct_bytes()
        if lower:
            of, store = self.lower()
            code = of[code]
        if store.lines:          # a text with a line end (not from a column file): joined one range at a time
            texts = store.texts
            return [" ".join(texts[k] for k in code[x:y].tolist())
                    for x, y in zip((np.cumsum(b - a) - (b - a)).tolist(), np.cumsum(b - a).tolist())]
        return join_slices(store.raw, store.start[code], store.length[code], b - a)


class _Bytes:
    """Texts as UTF-8 bytes (``raw``, each at ``start`` for ``length`` bytes, a line end after each)."""

    def __init__(self, texts: List[str]):
        self.texts = texts
        self.raw = np.frombuffer(("\n".join(texts) + "\n").encode("utf-8", "surrogatepass"), np.uint8)
        ends = np.flatnonzero(self.raw == ord("\n"))
        self.lines = len(ends) != len(texts)          # some text holds a line end
        if self.lines:
            ends = np.cumsum([len(t.encode("utf-8", "surrogatepass")) + 1 for t in texts], dtype=np.int64) - 1
        self.start = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64) if len(texts) else np.zeros(0, np.int64)
        self.length = ends - self.start

    def chars(self) -> np.ndarray:
        """Per text its characters (code points: the bytes that do not continue one)."""
        cum = np.concatenate(([0], np.cumsum((self.raw & 0xC0) != 0x80, dtype=np.int64)))
        out: np.ndarray = cum[self.start + self.length] - cum[self.start]
        return out


_TOKENS: WeakKeyDictionary[Corpus, Tuple[Tokens, np.ndarray, List[str]]] = WeakKeyDictionary()

#: the token texts decoded at a time (the texts of every token are never a list at once)
TEXT_CHUNK = 1 << 16


def token_texts(corpus: Corpus) -> Tuple[Tokens, np.ndarray, List[str]]:
    """(every token's text, the number of its distinct text in order of first occurrence (int32 while they
    fit), the distinct texts) of a corpus with token texts: made once per corpus while it lives, for the
    attributes (:class:`Text`) and the error analysis (:class:`ts_eval.analysis.errors_text.Texts`) alike.
    A column file's token texts are told apart by their bytes (:func:`ts_eval.io.columns.distinct_slices`:
    only the distinct texts are decoded); other texts are decoded :data:`TEXT_CHUNK` tokens at a time."""
    got = _TOKENS.get(corpus)
    if got is None:
        tokens = corpus.tokens
        assert tokens is not None
        n = corpus.n_tokens
        owner: Any = getattr(tokens, "__self__", None)     # a column file's ``texts``: its ``loaded()`` gives the bytes
        found: Optional[Tuple[np.ndarray, np.ndarray]] = None
        if getattr(tokens, "__name__", None) == "texts" and getattr(owner, "has_tokens", False) \
                and getattr(owner, "n_tokens", -1) == n:
            raw, start, length = owner.loaded()
            found = distinct_slices(raw, start, length, TEXT_CHUNK)
        if found is not None:
            token_id, first = found
            distinct = join_slices(raw, start[first], length[first], np.ones(len(first), np.int64))
        else:
            ids: Dict[str, int] = {}
            texts = (t for a in range(0, n, TEXT_CHUNK) for t in tokens(a, min(n, a + TEXT_CHUNK)))
            token_id = np.fromiter((ids.setdefault(t, len(ids)) for t in texts), np.int64, n)
            distinct = list(ids)
        if len(distinct) < 2 ** 31:
            token_id = token_id.astype(np.int32, copy=False)
        got = _TOKENS[corpus] = (Tokens(token_id, distinct), token_id, distinct)
    return got


def letter_classes(texts: _Bytes) -> np.ndarray:
    """Each text's :func:`_letter_class` (int8): an ASCII text's read from its bytes, all at once; a text with
    another character by :func:`_letter_class` itself."""
    raw = texts.raw
    n = len(texts.start)
    if texts.lines or not n:
        return np.fromiter((_letter_class(t) for t in texts.texts), np.int8, n)
    owner = np.repeat(np.arange(n), texts.length + 1)                 # each byte's text (its line end too)
    upper, lower = (raw >= 65) & (raw <= 90), (raw >= 97) & (raw <= 122)
    letter = np.flatnonzero(upper | lower)
    has_letter = np.zeros(n, bool)
    first = np.full(n, len(raw) - 1, np.int64)                        # (a line end: not upper case)
    texts_with, at_first = np.unique(owner[letter], return_index=True)
    first[texts_with], has_letter[texts_with] = letter[at_first], True
    has_lower = np.bincount(owner, weights=lower, minlength=n) > 0
    out = np.where(~has_letter, Text.NONE, np.where(~upper[first], Text.LOWER,
                                                     np.where(has_lower, Text.TITLE, Text.UPPER))).astype(np.int8)
    other = np.flatnonzero(np.bincount(owner, weights=raw >= 0x80, minlength=n) > 0)   # not ASCII
    out[other] = np.fromiter((_letter_class(texts.texts[k]) for k in other.tolist()), np.int8, len(other))
    return out


def _letter_class(token: str) -> int:
    """LOWER (first letter lower case), TITLE (first letter upper case, another letter lower case),
    UPPER (every letter upper case), NONE (no letter)."""
    letters = [c for c in token if c.isalpha()]
    if not letters:
        return Text.NONE
    if not letters[0].isupper():
        return Text.LOWER
    return Text.TITLE if any(c.islower() for c in letters[1:]) else Text.UPPER


# ---------------------------------------------------------------------------
# span attributes


def span_length(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> np.ndarray:
    length: np.ndarray = (spans.last - spans.start + 1).astype(float)
    return length


def span_chars(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> np.ndarray:
    assert text is not None
    n = spans.last - spans.start + 1
    chars: np.ndarray = (text.char_cum[spans.last + 1] - text.char_cum[spans.start] + (n - 1)).astype(float)
    return chars


def span_label(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> Coded:
    return Coded(spans.label, corpus.labels)


def span_shape(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> Coded:
    """``Xx`` (every word capitalised, one at least not all capitals), ``XX`` (all capitals), ``xx``
    (every word lower case), ``mixed`` (some words capitalised, some not: "de Gaulle"), ``no letters``."""
    assert text is not None
    c = text.class_counts(spans.start, spans.last)
    lower, title, upper = c[Text.LOWER], c[Text.TITLE], c[Text.UPPER]
    words = lower + title + upper
    out = np.full(len(spans), SHAPES.index("mixed"), np.int8)
    out[(lower == 0) & (title > 0)] = SHAPES.index("Xx")
    out[(lower == 0) & (title == 0) & (upper > 0)] = SHAPES.index("XX")
    out[(lower > 0) & (lower == words)] = SHAPES.index("xx")
    out[words == 0] = SHAPES.index("no letters")
    return Coded(out, SHAPES)


def span_position(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> Coded:
    """``first`` (starts the sentence), ``last`` (ends it), ``whole`` (both), ``inside`` (neither)."""
    sent = corpus.sentence_of(spans.start)
    first = spans.start == corpus.sent_offsets[sent]
    last = spans.last == corpus.sent_offsets[sent + 1] - 1
    return Coded(first.astype(np.int8) + 2 * last.astype(np.int8), _AT)


#: :func:`span_position`'s names by code: starts the sentence + 2 x ends it
_AT = ("inside", "first", "last", "whole")


def _training_rows(training: Training, text: Text, spans: SpanSet) -> Tuple[np.ndarray, np.ndarray]:
    """(occurrences of each span's string as a training entity, of them with the span's label); made
    once per span set and training data (three attributes read them)."""
    key = (id(training), id(spans))
    if key not in text.cache:
        text.cache[key] = (_count_rows(training, text, spans), spans)   # the spans kept: their id stays theirs
    return text.cache[key][0]


def _count_rows(training: Training, text: Text, spans: SpanSet) -> Tuple[np.ndarray, np.ndarray]:
    strings = text.strings(spans)
    where = {lab: k for k, lab in enumerate(training.labels)}
    lab_in_train = np.array([where.get(lab, -1) for lab in text.corpus.labels] or [-1], np.int64)
    mine = lab_in_train[spans.label] if len(spans) else np.zeros(0, np.int64)
    # each distinct string looked up once; its training row (zeros: not a training entity)
    index: Dict[str, int] = {}
    sid = np.fromiter((index.setdefault(x, len(index)) for x in strings), np.int64, len(strings))
    rows = np.zeros((len(index) + 1, len(training.labels) + 1), np.int64)     # a last column of zeros: no label
    for j, x in enumerate(index):
        row = training.counts.get(x)
        if row is not None:
            rows[j, :-1] = row
    total = rows.sum(axis=1)[sid].astype(float)
    same = rows[sid, mine].astype(float)                  # mine -1: the column of zeros
    return total, same


def train_frequency(training: Training) -> Callable[..., np.ndarray]:
    def values(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> np.ndarray:
        assert text is not None
        return _training_rows(training, text, spans)[0]
    return values


def label_consistency(training: Training) -> Callable[..., np.ndarray]:
    def values(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> np.ndarray:
        assert text is not None
        total, same = _training_rows(training, text, spans)
        out = np.full(len(spans), np.nan)
        seen = total > 0
        out[seen] = same[seen] / total[seen]
        return out
    return values


def seen(training: Training) -> Callable[..., Coded]:
    def values(corpus: Corpus, spans: SpanSet, text: Optional[Text] = None) -> Coded:
        assert text is not None
        total = _training_rows(training, text, spans)[0]
        return Coded((total <= 0).astype(np.int8), SEEN)
    return values


# ---------------------------------------------------------------------------
# sentence attributes


def sentence_length(corpus: Corpus) -> np.ndarray:
    return np.diff(corpus.sent_offsets).astype(float)


def entity_density(corpus: Corpus) -> np.ndarray:
    """Tokens inside a gold span (each token once) / tokens, per sentence."""
    size = corpus.n_tokens + 1
    inside = np.bincount(corpus.gold.start, minlength=size) - np.bincount(corpus.gold.last + 1, minlength=size)
    covered = (np.cumsum(inside)[:-1] > 0).astype(float)
    per = np.add.reduceat(covered, corpus.sent_offsets[:-1]) if corpus.n_tokens else np.zeros(0)
    n = np.diff(corpus.sent_offsets)
    return np.where(n > 0, per / np.maximum(n, 1), 0.0)


def oov_density(vocabulary: FrozenSet[str], text: Text) -> np.ndarray:
    """Tokens whose string (as written) is not in ``vocabulary`` / tokens, per sentence."""
    corpus = text.corpus
    oov = np.fromiter((t not in vocabulary for t in text.distinct), float, len(text.distinct))[text.token_id]
    per = np.add.reduceat(oov, corpus.sent_offsets[:-1]) if corpus.n_tokens else np.zeros(0)
    return per / np.maximum(np.diff(corpus.sent_offsets), 1)


def document_numbers(corpus: Corpus, text: Optional[Text] = None) -> np.ndarray:
    """Per sentence the number of its document in ``corpus`` (0 the first; -DOCSTART- blocks in order, a
    document without a sentence counted too: :class:`~ts_eval.analysis.attribute_values.AttributeValues`
    numbers the documents of every block and names them ``doc 1``, ``doc 2``, ... in order, those without a
    sentence left out)."""
    assert corpus.doc_offsets is not None
    numbers: np.ndarray = np.searchsorted(np.asarray(corpus.doc_offsets), corpus.sent_offsets[:-1], side="right") - 1
    return numbers


def record_field(records: Sequence[Mapping[str, Any]], path: str, where: str) -> Tuple[np.ndarray, bool]:
    """Per record the value of ``path`` (dotted: ``meta.genre``) and whether every value is a number.

    A record without the field is an error naming the record; a value that is a list or an object is
    an error too (a slice is one value per record)."""
    keys = path.split(".")
    out: List[Any] = []
    for k, rec in enumerate(records):
        node: Any = rec
        for key in keys:
            if not isinstance(node, dict) or key not in node:
                raise InputError(f"record {k + 1} has no field {path!r}; expected it in every record", where)
            node = node[key]
        if isinstance(node, (list, dict)) or node is None:
            raise InputError(f"record {k + 1}: field {path!r} is {type(node).__name__ if node is not None else 'null'}"
                             ", expected a string or a number", where)
        out.append(node)
    numeric = bool(out) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in out)
    if numeric:
        return np.asarray(out, float), True
    return np.array([str(v) for v in out], dtype=object), False


# ---------------------------------------------------------------------------
# the attribute set


BUILT_IN = ("length", "chars", "label", "shape", "position", "train_frequency", "label_consistency", "seen",
            "sentence_length", "entity_density", "oov_density")


def unavailable(names: Sequence[str], available: Sequence[str], *, training: bool, vocabulary: bool,
                text: bool, built_in: bool = True) -> List[Part]:
    """Why each of ``names`` (asked for, not among ``available``) is not there: a built-in attribute that
    needs what the analysis lacks (training data, a vocabulary, token texts) says so; any other name is no
    attribute.  ``built_in``: the built-in attributes were computed (not InterpretEval's)."""
    out: List[Part] = []
    for name in names:
        needs: List[Part] = []
        if built_in and name in ("chars", "shape", "train_frequency", "label_consistency", "seen", "oov_density") \
                and not text:
            needs = ["token texts, which the input has none of"]
        elif built_in and name in ("train_frequency", "label_consistency", "seen") and not training:
            needs = ["training data (give ", Hint("train", metavar="TRAIN"), ")"]
        elif built_in and name == "oov_density" and not (training or vocabulary):
            needs = ["training data or a vocabulary (give ", AnyOf(Hint("train", metavar="TRAIN"),
                                                                     Hint("vocab", metavar="FILE")), ")"]
        out += [f"attribute {name!r} needs ", *needs, "; "] if needs else [f"no attribute {name!r}; "]
    return out + [f"available: {', '.join(available)}"]


def built_in(training: Optional[Training], vocabulary: Optional[FrozenSet[str]],
             text: bool) -> Tuple[List[Attribute], List[str]]:
    """The built-in attributes that apply (``text``: the input has token texts) and what is left out, one line
    each.  Their values are read a block of sentences at a time (:mod:`ts_eval.analysis.attribute_values`)."""
    out: List[Attribute] = [
        Attribute("length", SPAN, NUMERIC, "span length in tokens", span_length, integer=True),
    ]
    left_out: List[str] = []
    if text:
        out.append(Attribute("chars", SPAN, NUMERIC, "span length in characters (tokens joined by one space)",
                             span_chars, integer=True, reads_text=True))
    # (the labels sorted: the corpus's labels are the sorted union of its blocks')
    out.append(Attribute("label", SPAN, CATEGORICAL, "the span's label", span_label))
    if text:
        out.append(Attribute("shape", SPAN, CATEGORICAL, "capitalisation of the span's letters: Xx every word "
                             "capitalised, XX all capitals, xx all lower case, mixed, no letters", span_shape,
                             order=SHAPES, reads_text=True))
    out.append(Attribute("position", SPAN, CATEGORICAL, "where the span sits in its sentence", span_position,
                         order=POSITIONS))
    if training is not None and text:
        out += [
            Attribute("train_frequency", SPAN, NUMERIC, "occurrences of the span's lower-cased string as an "
                      "entity (any label) in the training data", train_frequency(training), integer=True,
                      source="training data", reads_text=True),
            Attribute("label_consistency", SPAN, NUMERIC, "share of those occurrences that carry the span's "
                      "label (strings never seen as a training entity: unseen)", label_consistency(training),
                      missing=UNSEEN, source="training data", reads_text=True),
            Attribute("seen", SPAN, CATEGORICAL, "whether the span's lower-cased string is an entity of the "
                      "training data (any label)", seen(training), order=SEEN, source="training data",
                      reads_text=True),
        ]
    out += [
        Attribute("sentence_length", SENTENCE, NUMERIC, "sentence length in tokens",
                  lambda c, t: sentence_length(c), integer=True),
        Attribute("entity_density", SENTENCE, NUMERIC, "tokens inside a gold span / tokens of the sentence",
                  lambda c, t: entity_density(c)),
    ]
    vocab = vocabulary if vocabulary is not None else (training.vocabulary if training is not None else None)
    if vocab is not None and text:
        out.append(Attribute("oov_density", SENTENCE, NUMERIC, "tokens not in the training vocabulary / tokens "
                             "of the sentence", lambda c, t: oov_density(vocab, t),
                             source="vocabulary" if vocabulary is not None else "training data", reads_text=True))
    if not text:
        left_out.append("chars, shape and the training-based attributes: the input has no token texts")
    if training is None:
        left_out.append("train_frequency, label_consistency, seen" + ("" if vocabulary is not None else
                                                                      ", oov_density")
                        + ": they need training data (train)")
    return out, left_out


def document_attribute(corpus: Corpus) -> Optional[Attribute]:
    """The ``document`` slice (one bucket per document), or None when gold has no documents (``corpus``: the
    input's first block will do)."""
    if corpus.doc_offsets is None or len(corpus.doc_offsets) < 2:
        return None
    return Attribute("document", SENTENCE, CATEGORICAL, "the document (-DOCSTART- blocks, in order)",
                     document_numbers, source="documents", extra={"documents": True})
