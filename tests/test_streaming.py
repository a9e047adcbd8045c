"""``ts-eval score`` reads its inputs in blocks of whole sentences (:meth:`ts_eval.io.inputs.Inputs.read`),
keeping only the running counts: every output is byte for byte what reading them as one block (whole) gives,
for blocks down to one sentence, for every model and format, standard input and compressed files, -DOCSTART-
and -X- lines, delimiters, label selection, and the conlleval scheme (whose state may run across a sentence
boundary); a bad input gives the same first error whatever the size of the blocks."""
from __future__ import annotations

import bz2
import dataclasses
import functools
import gzip
import io
import lzma
import random
import re
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamed import Run, run
from support import CONLLEVAL_FIXTURES
from test_score_properties import tag_corpus

import ts_eval
import ts_eval.io.conll as conll
import ts_eval.streaming.files as files
import ts_eval.streaming.shards as streaming_shards
from ts_eval.errors import InputError
from ts_eval.io.columns import _cut, _has_token_line, _is_token_line, sentence_cut
from ts_eval.io.conll import ColumnOptions, column_feed, concat_columns, conll_shards
from ts_eval.io.inputs import Inputs
from ts_eval.io.reader import read as read_input
from ts_eval.io.source import line_blocks
from ts_eval.streaming.files import count_file, count_files
from ts_eval.streaming.shards import file_shards

SAME: Any = object()        # (count_blocks: the blocks as the inputs ask for them)


def count_blocks(monkeypatch, block_bytes: Optional[int] = SAME) -> List[int]:
    """How many blocks each read of :class:`~ts_eval.io.inputs.Inputs` gave (an entry per read, in order);
    with ``block_bytes`` every read in blocks is in blocks of that many bytes (None: one block, the inputs
    whole; a read whole, :meth:`~ts_eval.io.inputs.Inputs.corpus`, stays whole)."""
    assert block_bytes is SAME or block_bytes is None or isinstance(block_bytes, int), block_bytes
    seen: List[int] = []
    real = Inputs.read

    @functools.wraps(real)
    def read(self, *args, **kw):
        if block_bytes is not SAME and self.block_bytes is not None:
            self = dataclasses.replace(self, block_bytes=block_bytes)
        blocks = real(self, *args, **kw)
        seen.append(0)

        def counted():
            for corpus in blocks:
                seen[-1] += 1
                yield corpus
        return counted()

    monkeypatch.setattr(Inputs, "read", read)
    return seen


@pytest.fixture
def blocks_counted(monkeypatch):
    """How many blocks each read of the inputs gave (a run of :func:`whole_and_streamed` reads twice: whole,
    one block, then in blocks)."""
    return count_blocks(monkeypatch)


def whole_and_streamed(monkeypatch, argv: List[str], stdin: bytes = b"", block_bytes: Optional[int] = 1
                       ) -> Tuple[Run, Run]:
    """The run of ``argv`` with its inputs read as one block, and in blocks of ``block_bytes``."""
    with monkeypatch.context() as m:
        count_blocks(m, None)
        whole = run(argv, stdin)
    with monkeypatch.context() as m:
        count_blocks(m, block_bytes)
        streamed = run(argv, stdin)
    return whole, streamed


def corpus_text(sides, docstart: bool = False, x_lines: bool = False, crlf: bool = False) -> str:
    """A column file of gold and systems, one sentence a paragraph."""
    gold, *systems = sides
    out = ["-DOCSTART- O" + " O" * len(systems), ""] if docstart else []
    for s, sent in enumerate(gold):
        if docstart and s and s % 3 == 0:
            out += ["-DOCSTART- O" + " O" * len(systems), ""]
        for t, tag in enumerate(sent):
            out.append(" ".join([f"w{s}_{t}", tag] + [sys_[s][t] for sys_ in systems]))
        out.append("-X- O" + " O" * len(systems) if x_lines and s % 2 else "")
    text = "\n".join(out) + "\n"
    return text.replace("\n", "\r\n") if crlf else text


MODELS = "ts,exact,overlap,constrained,contain,fair,semeval"


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(tag_corpus(n_systems=2), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from(["IOB2", "conlleval", "IOB1"]), st.sampled_from([1, 7, 60, 4096]))
def test_blocks_of_any_size_give_the_report_of_the_whole_file(tmp_path_factory, sides, docstart, x_lines, crlf,
                                                              scheme, block_bytes):
    path = tmp_path_factory.mktemp("s") / "c.conll"
    path.write_text(corpus_text(sides, docstart, x_lines, crlf), encoding="utf-8", newline="")
    argv = ["score", str(path), "--gold-col", "2", "--models", MODELS, "--scheme", scheme, "--format", "json"]
    with pytest.MonkeyPatch.context() as mp:
        whole, streamed = whole_and_streamed(mp, argv, block_bytes=block_bytes)
    assert streamed == whole


FORMATS = [["--format", "table", "--details"], ["--format", "conlleval"], ["--format", "faireval"],
           ["--format", "csv"], ["--format", "markdown"], ["--format", "json", "--all-labels-row"]]


@pytest.mark.parametrize("fixture", sorted(p.name for p in CONLLEVAL_FIXTURES.glob("*.conll")))
@pytest.mark.parametrize("options", FORMATS, ids=lambda o: o[1])
def test_conlleval_fixtures_in_one_sentence_blocks(monkeypatch, blocks_counted, fixture, options):
    path = str(CONLLEVAL_FIXTURES / fixture)
    extra = ["-d", "\t"] if fixture == "tab_delimited.conll" else []
    extra += ["-r"] if fixture == "raw_tags.conll" else []
    for scheme in (["--scheme", "conlleval"], []):
        argv = ["score", path, *options, *extra, *scheme]
        before = len(blocks_counted)
        whole, streamed = whole_and_streamed(monkeypatch, argv)
        assert streamed == whole, argv
        read_in_blocks(blocks_counted[before:], whole, path, extra, bool(scheme) or "conlleval" in options)


def read_in_blocks(counted: List[int], whole: Run, path: str, extra: List[str], outside: bool) -> None:
    """The blocks a run of :func:`whole_and_streamed` read of the column file ``path``: one whole, then a block
    at each blank line after a sentence (``outside``, the conlleval scheme: where every column is outside);
    an error: the blocks before it."""
    cut = len(_blocks_of(Path(path).read_bytes(), 1, "\t" if extra[:1] == ["-d"] else None))
    if whole[0] == 0:
        assert counted[0] == 1 and 1 <= counted[1] <= cut
        assert outside or counted[1] == cut
    else:
        assert counted[0] == 0 and counted[1] < cut


def synthetic(n_sentences: int, seed: int = 3) -> str:
    rng = random.Random(seed)
    lines = []
    for s in range(n_sentences):
        for t in range(rng.randint(1, 9)):
            g = rng.choice(["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"])
            p = g if rng.random() < 0.7 else rng.choice(["O", "B-PER", "I-LOC", "B-MISC"])
            lines.append(f"t{s}.{t} {g} {p}")
        lines.append("")
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_many_blocks_standard_input_and_compressed_files(tmp_path, monkeypatch, blocks_counted):
    text = synthetic(400).encode()
    plain = tmp_path / "s.conll"
    plain.write_bytes(text)
    argv = ["score", str(plain), "--format", "json", "--models", MODELS]
    whole, streamed = whole_and_streamed(monkeypatch, argv, block_bytes=500)
    assert streamed == whole and whole[0] == 0
    assert blocks_counted[-1] > 10
    for k, compress in enumerate((gzip.compress, bz2.compress, lzma.compress)):
        packed = tmp_path / f"s{k}.conll.z"
        packed.write_bytes(compress(text))
        assert whole_and_streamed(monkeypatch, ["score", str(packed), "--format", "conlleval"], block_bytes=500)[1] \
            == run(["score", str(plain), "--format", "conlleval"])
        stdin = whole_and_streamed(monkeypatch, ["score", "-", "--format", "json"], compress(text), 500)
        assert stdin[0] == stdin[1]
    assert blocks_counted[-1] > 10
    stdin = whole_and_streamed(monkeypatch, ["score", "-", "--format", "table"], text, 500)
    assert stdin[0] == stdin[1]


def test_labels_missing_from_some_blocks_are_selected_and_checked_over_the_whole(tmp_path, monkeypatch):
    text = synthetic(200) + "a B-RARE O\n\n"
    path = tmp_path / "s.conll"
    path.write_text(text)
    for sel in (["--labels", "RARE,PER"], ["--exclude", "LOC,RARE"], ["--labels", "NOPE"]):
        whole, streamed = whole_and_streamed(monkeypatch, ["score", str(path), "--format", "json", *sel], b"", 300)
        assert streamed == whole
    assert whole[0] == 2 and "'NOPE' not in the data" in whole[2]


@pytest.mark.parametrize("bad, message", [
    ("t1 O O O\n", "4 columns, expected 3 as on line 1"),
    ("t1 B-X\xff O\n", "not UTF-8"),
    ("t1 B-X I-\n", "bad tag"),
])
def test_an_error_in_a_later_block_is_reported_as_reading_whole_reports_it(tmp_path, monkeypatch, bad, message):
    text = synthetic(300).encode() + b"\n" + bad.encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff")
    path = tmp_path / "bad.conll"
    path.write_bytes(text)
    whole, streamed = whole_and_streamed(monkeypatch, ["score", str(path)], b"", 400)
    assert streamed == whole and whole[0] != 0 and message in whole[2]
    # standard input is read once: the block that holds the error says it, with the input's line
    whole, streamed = whole_and_streamed(monkeypatch, ["score", "-"], text, 400)
    assert streamed == whole and message in whole[2]


def test_blocks_are_whole_sentences_and_keep_line_numbers(tmp_path):
    text = synthetic(50, seed=5)
    path = tmp_path / "s.conll"
    path.write_text("-DOCSTART- O O\n\n" + text + "\n-X- O O\n")
    whole = concat_columns(feed_parts(column_feed(str(path), [-2, -1], ColumnOptions(), None))).cf   # one block
    parts = [p.cf for p in feed_parts(column_feed(str(path), [-2, -1], ColumnOptions(), 1))]
    assert len(parts) == 50
    assert sum(p.n_tokens for p in parts) == whole.n_tokens
    assert [int(x) for p in parts for x in p.token_line] == whole.token_line.tolist()
    assert [bool(x) for p in parts for x in p.sent_first] == whole.sent_first.tolist()
    assert sum(p.docstart_lines for p in parts) == 1 and sum(p.boundary_lines for p in parts) == 1
    assert bool(parts[0].doc_first[0]) and parts[-1].trailing_boundary == whole.trailing_boundary


def feed_parts(feed) -> List[Any]:
    """Every part a feed hands out, a block's worth at a time."""
    parts = []
    while not feed.done():
        parts.append(feed.take(None))
    return parts


def _blocks_of(raw: bytes, block_bytes: int, delimiter: Optional[str] = None) -> List[bytes]:
    """The blocks a column file's reader cuts ``raw`` into, each checked to be followed by 8 zero bytes in its
    buffer."""
    out = []
    for block in line_blocks(lambda: io.BytesIO(raw), sentence_cut(delimiter), block_bytes,
                             lambda data: _has_token_line(data, delimiter)):
        n = len(block.array)
        assert block.array.base is not None and block.array.base[n:n + 8].tolist() == [0] * 8
        out.append(block.data)
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([b"a O\n", b"bc B-X\n", b"\n", b" \n", b"-X- O\n", b"-DOCSTART- O\n"]),
                max_size=40), st.integers(1, 30))
def test_blocks_are_the_file_cut_after_a_token_line_that_a_blank_line_follows(lines, block_bytes):
    raw = b"".join(lines)
    blocks = _blocks_of(raw, block_bytes)
    assert b"".join(blocks) == raw and all(blocks[:-1])
    at = 0
    for block in blocks[:-1]:
        at += len(block)
        assert len(block) >= block_bytes
        assert _is_token_line(block.rsplit(b"\n", 2)[-2], None)     # a token line ends it ...
        assert raw[at:].split(b"\n", 1)[0].strip() == b""          # ... and a blank line follows
        rest = raw[at - len(block):]                # no earlier place at or after block_bytes
        assert _cut(bytearray(rest), block_bytes - 1, re.compile(rb"\n[ \t\r\x0b\x0c]*\n"), None) == len(block)
    # lines after the last cut that hold no token line (blank, -X-, -DOCSTART-) end the block before
    assert len(blocks) == 1 or _has_token_line(blocks[-1], None)


def test_blocks_longer_than_the_reads_and_blank_lines_at_the_end():
    body = b"".join(b"w%d O\n" % k for k in range(40_000))          # 300 KB without a blank line: one block
    assert _blocks_of(body, 1) == [body]
    text = b"a O\n\n" * 30_000 + b"\n\n-X- O\n\n" * 3                 # lines after the last cut end the last block
    blocks = _blocks_of(text, 100_000)
    assert b"".join(blocks) == text and len(blocks) > 1 and blocks[-1].endswith(b"-X- O\n\n")
    tail = b"a O\n\n" + b"\n" * 100_000                                 # more of them than the block's room
    assert _blocks_of(tail, 1) == [tail]


@pytest.mark.parametrize("pack", [bytes, gzip.compress], ids=["plain", "gzip"])
def test_scheme_auto_on_standard_input_is_read_in_blocks_twice(monkeypatch, blocks_counted, pack):
    """The scheme is detected over all of standard input in a first pass over its blocks; the second pass
    reads it again from the temporary file that kept it: the report of the whole read, an E- tag of the
    last block deciding how the first block's I- tags end their spans."""
    opened: List[str] = []
    real = conll.column_feed
    monkeypatch.setattr(conll, "column_feed", lambda path, *a, **k: opened.append(path) or real(path, *a, **k))
    text = "a I-A O\nb O O\n\n" + "c O O\n\n" * 5 + "d I-A I-A\ne O E-A\n\n"
    argv = ["score", "-", "--scheme", "auto", "--format", "json"]
    whole, streamed = whole_and_streamed(monkeypatch, argv, stdin=pack(text.encode()))
    assert streamed == whole and whole[0] == 0 and '"scheme": "IOE2"' in whole[1]
    assert blocks_counted == [1, 7] and opened == ["-"] * 4     # each run: a pass for the scheme, one to count
    body = synthetic(20).encode()
    whole, streamed = whole_and_streamed(monkeypatch, ["score", "-", "--scheme", "auto"], stdin=pack(body))
    assert streamed == whole and whole[0] == 0


def test_scheme_auto_with_a_system_file_on_standard_input(tmp_path, monkeypatch):
    gold = "a B-A\nb I-A\n\nc O\n\nd I-A\ne E-A\n\n"
    system = "a B-A\nb O\n\nc I-A\n\nd I-A\ne E-A\n\n"
    path = tmp_path / "gold.conll"
    path.write_text(gold)
    argv = ["score", "--gold", str(path), "-", "--scheme", "auto", "--format", "json"]
    with monkeypatch.context() as m:
        seen = count_blocks(m)
        whole, streamed = whole_and_streamed(m, argv, stdin=system.encode())
    assert streamed == whole and whole[0] == 0
    assert seen == [1, 3]


@pytest.fixture
def pairs_counted(monkeypatch):
    """How many blocks each read of a gold file and system files gave."""
    return count_blocks(monkeypatch)


def split_files(tmp_path, text: str, delimiter: str = " ", tags_only: Sequence[bool] = ()) -> List[str]:
    """A column file ``TOKEN GOLD S1 S2 ...`` as a gold file ``TOKEN GOLD`` and one file per system
    (``TOKEN X TAG``, or the tag alone where ``tags_only``), boundary lines kept in every file."""
    rows = [line.rstrip("\r").split(delimiter) if line.strip() and not line.startswith(("-DOCSTART-", "-X-"))
            else line for line in text.split("\n")]
    width = max(len(r) for r in rows if isinstance(r, list))
    crlf = "\r" if "\r\n" in text else ""
    paths = []
    for k in range(1, width):
        alone = k > 1 and k - 2 < len(tags_only) and tags_only[k - 2]
        out = []
        for r in rows:
            if isinstance(r, str):
                out.append(r)
            elif k == 1:
                out.append(delimiter.join([r[0], r[1]]) + crlf)
            else:
                out.append(r[k] + crlf if alone else delimiter.join([r[0], "x", r[k]]) + crlf)
        path = tmp_path / ("gold.conll" if k == 1 else f"sys{k - 1}.conll")
        path.write_text("\n".join(out), encoding="utf-8", newline="")
        paths.append(str(path))
    return paths


@st.composite
def any_scheme_corpus(draw, n_systems=2):
    """Gold and systems of tags from one of a few schemes' prefixes (so that each is detected)."""
    prefixes = draw(st.sampled_from(["BI", "IE", "BIES", "BILU", "I", "BIE"]))
    tags = ["O"] + [f"{p}-{lab}" for p in prefixes for lab in "AB"]
    lengths = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6))
    return [[draw(st.lists(st.sampled_from(tags), min_size=n, max_size=n)) for n in lengths]
            for _ in range(1 + n_systems)]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.one_of(tag_corpus(n_systems=2), any_scheme_corpus()), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from(["IOB2", "conlleval", "IOB1", "auto"]), st.sampled_from([1, 7, 60]), st.booleans())
def test_two_files_in_lock_step_blocks_give_the_report_of_the_whole_files(tmp_path_factory, sides, docstart,
                                                                         x_lines, crlf, scheme, block_bytes,
                                                                         tags_only):
    tmp = tmp_path_factory.mktemp("p")
    gold, *systems = split_files(tmp, corpus_text(sides, docstart, x_lines, crlf), tags_only=[tags_only])
    argv = ["score", "--gold", gold, *systems, "--models", MODELS, "--scheme", scheme, "--format", "json"]
    if tags_only:
        argv.append("--tags-only")
    with pytest.MonkeyPatch.context() as mp:
        whole, streamed = whole_and_streamed(mp, argv, block_bytes=block_bytes)
    assert streamed == whole


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(any_scheme_corpus(), st.booleans(), st.sampled_from([1, 7, 60]))
def test_scheme_auto_detected_in_blocks_as_over_the_whole_file(tmp_path_factory, sides, x_lines, block_bytes):
    path = tmp_path_factory.mktemp("a") / "c.conll"
    path.write_text(corpus_text(sides, False, x_lines), encoding="utf-8")
    argv = ["score", str(path), "--gold-col", "2", "--scheme", "auto", "--format", "json"]
    with pytest.MonkeyPatch.context() as mp:
        whole, streamed = whole_and_streamed(mp, argv, block_bytes=block_bytes)
    assert streamed == whole


def test_scheme_auto_in_blocks_sees_an_e_tag_of_a_later_block_and_side(tmp_path, monkeypatch, blocks_counted):
    """An I- that ends its span counts once some side (this one or one before it) uses E-, wherever in the
    file: IOE1 when gold's first sentence ends a span with I- and a system's last sentence holds an E-."""
    text = "a I-A O\nb O O\n\n" + "c O O\n\n" * 5 + "d I-A I-A\ne O E-A\n\n"
    for order in (text, text.replace("I-A O\nb O O", "O I-A\nb O O")):
        path = tmp_path / "e.conll"
        path.write_text(order)
        argv = ["score", str(path), "--scheme", "auto", "--format", "json"]
        whole, streamed = whole_and_streamed(monkeypatch, argv)
        assert streamed == whole and whole[0] == 0
        assert blocks_counted[-2:] == [1, 7]
    assert '"scheme": "IOE1"' in whole[1]


@pytest.mark.parametrize("fixture", sorted(p.name for p in CONLLEVAL_FIXTURES.glob("*.conll")
                                           if p.name != "two_columns.conll"))
@pytest.mark.parametrize("options", FORMATS, ids=lambda o: o[1])
def test_conlleval_fixtures_as_two_files_in_one_sentence_blocks(tmp_path, monkeypatch, pairs_counted, fixture,
                                                                options):
    text = (CONLLEVAL_FIXTURES / fixture).read_text(encoding="utf-8")
    delimiter = "\t" if fixture == "tab_delimited.conll" else " "
    extra = ["-d", "\t"] if fixture == "tab_delimited.conll" else []
    extra += ["-r"] if fixture == "raw_tags.conll" else []
    gold, system = split_files(tmp_path, text, delimiter)
    for scheme in (["--scheme", "conlleval"], [], ["--scheme", "auto"]):
        argv = ["score", "--gold", gold, system, *options, *extra, *scheme]
        before = len(pairs_counted)
        whole, streamed = whole_and_streamed(monkeypatch, argv)
        assert streamed == whole, argv
        outside = scheme[1:] == ["conlleval"] or "conlleval" in options
        read_in_blocks(pairs_counted[before:], whole, gold, extra, outside)


@pytest.mark.slow
def test_two_files_many_blocks_standard_input_compressed_and_several_systems(tmp_path, monkeypatch, pairs_counted):
    text = synthetic(300)
    rng = random.Random(9)
    lines = [line + " " + (rng.choice(["O", "B-PER", "I-PER"]) if line else "") if line else line
             for line in text.split("\n")]
    gold, s1, s2 = split_files(tmp_path, "\n".join(line.rstrip() for line in lines), tags_only=[False, True])
    packed = tmp_path / "s1.conll.gz"
    packed.write_bytes(gzip.compress(Path(s1).read_bytes()))
    for argv in (["score", "--gold", gold, s1, s2, "--format", "json", "--models", MODELS, "--tags-only"],
                 ["score", "--gold", gold, "--system", str(packed), "--format", "table", "--details"],
                 ["score", "--gold", gold, s1, "--scheme", "conlleval", "--format", "conlleval"]):
        whole, streamed = whole_and_streamed(monkeypatch, argv, block_bytes=300)
        assert streamed == whole and whole[0] == 0, argv
        assert pairs_counted[-1] > 5
    stdin = Path(s1).read_bytes()
    whole, streamed = whole_and_streamed(monkeypatch, ["score", "--gold", gold, "-", "--format", "json"], stdin, 300)
    assert streamed == whole and whole[0] == 0 and pairs_counted[-1] > 10


LINE_UP = "{system}: gold {gold} vs system {system}: files do not line up (gold has "


def misaligned_cases() -> List[Tuple[str, str, str, str]]:
    """(id, gold text, system text, the error) of files that do not line up, in every way check_aligned names
    (the error with ``{gold}`` and ``{system}`` for the files' names: what reading them whole gave before the
    one road, with and without ``--tags-only``)."""
    sents = [[f"t{s}.{t}" for t in range(1 + s % 3)] for s in range(12)]

    def text(rows, col):
        return "".join("".join(f"{w} {col}\n" for w in sent) + "\n" for sent in rows)

    gold = text(sents, "O")
    changed = [list(x) for x in sents]
    changed[7][0] = "zz"
    longer = [list(x) for x in sents]
    longer[5].append("extra")
    shorter = [list(x) for x in sents]
    shorter[8] = shorter[8][:1] if len(shorter[8]) > 1 else []
    shorter = [x for x in shorter if x]
    ends = "is not in the system file, which ends after system line"
    return [("token", gold, text(changed, "O"), "{system}:21: gold {gold} vs system {system}: token 't7.0' (gold line "
             "21) differs from 'zz' in sentence 8"),
            ("longer sentence", gold, text(longer, "O"), LINE_UP.replace(":", ":18:", 1) + "12 sentences / 24 "
             "tokens, system has 12 / 25): sentence 6 (gold line 15, system line 15) has 3 tokens in gold, 4 in the "
             "system; first difference: gold line 18 (the sentence ends; its next token, gold line 19, is in "
             "sentence 7), system line 18 (a token)"),
            ("shorter sentence", gold, text(shorter, "O"), LINE_UP.replace(":", ":25:", 1) + "12 sentences / 24 "
             "tokens, system has 12 / 22): sentence 9 (gold line 24, system line 24) has 3 tokens in gold, 1 in the "
             "system; first difference: gold line 25 (a token), system line 25 (the sentence ends; its next token, "
             "system line 26, is in sentence 10)"),
            ("system ends", gold, text(sents[:9], "O"), LINE_UP + "12 sentences / 24 tokens, system has 9 / 18): "
             f"sentence 10 (gold line 28) {ends} 26"),
            ("system ends at a block end", gold, text(sents[:6], "O"), LINE_UP + "12 sentences / 24 tokens, system "
             f"has 6 / 12): sentence 7 (gold line 19) {ends} 17"),
            ("system goes on", gold, text(sents + [["more", "words"]], "O"), LINE_UP.replace(":", ":37:", 1)
             + "12 sentences / 24 tokens, system has 13 / 26): sentence 13 (system line 37) is not in the gold file, "
             "which ends after gold line 35"),
            ("gold ends early", text(sents[:4], "O"), text(sents, "O"), LINE_UP.replace(":", ":12:", 1)
             + "4 sentences / 7 tokens, system has 12 / 24): sentence 5 (system line 12) is not in the gold file, "
             "which ends after gold line 10"),
            ("split sentence", gold, text(sents[:2] + [sents[2][:1], sents[2][1:]] + sents[3:], "O"),
             LINE_UP.replace(":", ":7:", 1) + "12 sentences / 24 tokens, system has 13 / 24): sentence 3 (gold line "
             "6, system line 6) has 3 tokens in gold, 1 in the system; first difference: gold line 7 (a token), "
             "system line 7 (the sentence ends; its next token, system line 8, is in sentence 4)")]


@pytest.mark.parametrize("case", misaligned_cases(), ids=lambda c: c[0])
@pytest.mark.parametrize("block_bytes", [1, 40, None])
def test_misaligned_files_give_the_error_of_the_whole_files(tmp_path, monkeypatch, case, block_bytes):
    """The error that reading whole gives, at every block size, also with the system on standard input (read
    once: the block that holds the error says it): the same sentence and line numbers, the whole files'
    counts."""
    what, gold_text, system_text, error = case
    gold, system = tmp_path / "gold.conll", tmp_path / "sys.conll"
    gold.write_text(gold_text)
    system.write_text(system_text)
    for options in ([], ["--tags-only"]):
        for source, stdin, name in ((str(system), b"", str(system)), ("-", system_text.encode(), "<stdin>")):
            argv = ["score", "--gold", str(gold), source, *options]
            whole, streamed = whole_and_streamed(monkeypatch, argv, stdin, block_bytes=block_bytes)
            if what == "token" and options:       # the same sentence lengths: only the texts differ
                assert whole[0] == 0
            else:
                assert whole == (1, "", "ts-eval: error: " + error.format(gold=gold, system=name) + "\n"), options
            assert streamed == whole


def clean(n_sentences: int) -> str:
    """Sentences without ill-formed spans (so the first repair is where a test puts it)."""
    return "".join(f"a{s} B-PER B-PER\nb{s} I-PER O\nc{s} O B-LOC\n\n" for s in range(n_sentences))


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["IOB2", "conlleval"])
def test_jobs_score_shards_in_processes_with_the_report_of_one(tmp_path, monkeypatch, scheme):
    monkeypatch.setattr(files, "MIN_SHARD_BYTES", 1)     # shard even a small file
    cut: List[int] = []
    real = streaming_shards.file_shards
    monkeypatch.setattr(streaming_shards, "file_shards", lambda *a, **k: cut.append(a[1]) or real(*a, **k))
    path = tmp_path / "s.conll"
    path.write_text(clean(900) + synthetic(200) + "z I-ORG O\n\n")     # the first repair is in the last shard
    for options in (["--format", "json", "--models", MODELS], ["--format", "conlleval"], ["--labels", "PER,ORG"]):
        argv = ["score", str(path), "--scheme", scheme, *options]
        whole = whole_and_streamed(monkeypatch, argv)[0]
        assert run(argv + ["--jobs", "2"]) == whole
        assert run(argv + ["--jobs", "3"]) == whole
    assert cut == [2, 3] * 3
    assert [len(conll_shards(str(path), n, scheme=scheme)) for n in (2, 3)] == [2, 3]
    for jobs in ("2", "3"):      # line 3603 is in a later shard: its line numbers count from the file's start
        assert '"first_repair_line": 3603' in run(["score", str(path), "--format", "json", "--jobs", jobs])[1]


@pytest.mark.slow
def test_jobs_count_the_lines_before_a_shard_only_when_its_line_numbers_show(tmp_path, monkeypatch):
    """--jobs cuts the file without counting lines (a pass over the bytes): a later shard's line numbers
    are placed after the lines before it only when the report shows one of them."""
    monkeypatch.setattr(files, "MIN_SHARD_BYTES", 1)
    counted: List[int] = []
    real = streaming_shards.lines_before
    monkeypatch.setattr(streaming_shards, "lines_before",
                        lambda path, offset, **kw: counted.append(offset) or real(path, offset, **kw))
    early, late = tmp_path / "early.conll", tmp_path / "late.conll"
    early.write_text("z I-ORG O\n\n" + clean(300) + synthetic(300))      # the first repair on line 1
    late.write_text(clean(900) + synthetic(200) + "z I-ORG O\n\n")       # the first repair in the last shard
    for path, lines in ((early, 0), (late, 1)):
        counted.clear()
        argv = ["score", str(path), "--format", "json"]
        whole = whole_and_streamed(monkeypatch, argv)[0]
        assert run(argv + ["--jobs", "3"]) == whole and len(counted) == lines
    assert '"first_repair_line": 1,' in run(["score", str(early), "--format", "json", "--jobs", "3"])[1]


@pytest.mark.slow
def test_shards_cut_without_counting_lines_add_up_once_placed(tmp_path):
    path = tmp_path / "s.conll"
    path.write_text(clean(900) + synthetic(200) + "z I-ORG O\n\n")
    models = MODELS.split(",")
    expected = ts_eval.score(ts_eval.io.read_conll(str(path)), models=models).to_dict()
    shards = file_shards(str(path), 4, count_lines=False)
    assert len(shards) == 4 and [s.lines for s in shards] == [0] * 4
    parts = [count_file(s, models=models) for s in shards]
    counted = file_shards(str(path), 4)
    assert [streaming_shards.lines_before(str(path), s.start) for s in shards] == [s.lines for s in counted]
    placed = [p.after_lines(streaming_shards.lines_before(str(path), s.start)) for s, p in zip(shards, parts)]
    assert sum(placed).report().to_dict() == expected
    assert [p.report().to_dict() for p in placed] == [count_file(s, models=models).report().to_dict()
                                                       for s in counted]
    assert parts[0].line_numbers == (None, None)     # 900 clean sentences: the first repair is further on
    whole = count_file(str(path), models=models).line_numbers
    assert sum(placed).line_numbers == whole != sum(parts).line_numbers
    assert streaming_shards.add_shards(shards, parts).report().to_dict() == expected
    assert streaming_shards.add_shards(counted, [count_file(s, models=models) for s in counted]
                                       ).report().to_dict() == expected
    assert streaming_shards.lines_before(str(path), shards[3].start, after=(shards[2].start, counted[2].lines)
                                         ) == counted[3].lines


def test_a_file_ending_in_blank_lines_gives_no_shard_without_token_lines(tmp_path):
    path = tmp_path / "s.conll"
    path.write_bytes(b"a B-PER B-PER\n\nb O O\n\n\n")      # a cut after "b O O" would leave "\n\n" alone
    shards = file_shards(str(path), 3)
    assert [(s.start, s.stop, s.lines) for s in shards] == [(0, 14, 0), (14, 23, 1)]
    assert sum(count_file(s) for s in shards).report().to_dict() \
        == count_file(str(path)).report().to_dict()


SHARD_LINES = st.sampled_from([b"\n", b" \n", b"-DOCSTART- O O\n", b"-X- O O\n\n"])


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(tag_corpus(n_systems=1), st.lists(st.lists(SHARD_LINES, min_size=1, max_size=3), min_size=8, max_size=8),
       st.lists(SHARD_LINES, max_size=4))
def test_the_shards_of_a_file_add_up_to_the_file_for_every_n(tmp_path_factory, sides, between, end):
    """Counting every shard and adding them gives the counts of the whole file, for every number of shards
    (blank, -DOCSTART- and -X- lines between the sentences and after the last)."""
    gold, system = sides
    raw = b"".join(b"".join(b"w%d %s %s\n" % (t, g.encode(), p.encode()) for t, (g, p) in enumerate(zip(gs, ps)))
                   + b"".join(between[s]) for s, (gs, ps) in enumerate(zip(gold, system))) + b"".join(end)
    path = tmp_path_factory.mktemp("s") / "s.conll"
    path.write_bytes(raw)
    expected = count_file(str(path), models=["ts", "exact"]).report().to_dict()
    counted, checked = {}, set()
    for n in range(1, len(raw) + 1):
        for lines in (True, False):
            shards = file_shards(str(path), n, count_lines=lines)
            assert len(shards) <= n and shards[0].start == 0 and shards[-1].stop in (-1, len(raw))
            if tuple(shards) in checked:     # (many n cut the file alike: each cut is checked once)
                continue
            checked.add(tuple(shards))
            for s in shards:
                if s not in counted:
                    counted[s] = count_file(s, models=["ts", "exact"])
            parts = [counted[s] for s in shards]
            assert streaming_shards.add_shards(shards, parts).report().to_dict() == expected


@pytest.mark.slow
def test_jobs_report_an_error_as_one_process_does(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MIN_SHARD_BYTES", 1)
    path = tmp_path / "bad.conll"
    path.write_text(clean(300) + "x B-PER\n\n")
    whole = whole_and_streamed(monkeypatch, ["score", str(path)])[0]
    assert whole[0] == 1 and "2 columns, expected 3 as on line 1" in whole[2]
    assert run(["score", str(path), "--jobs", "2"]) == whole
    assert run(["score", str(path), "--jobs", "0"])[0] == 2


@pytest.mark.slow
def test_count_file_and_its_shards_add_up_to_evaluate_of_the_file_read_whole(tmp_path):
    import ts_eval

    path = tmp_path / "s.conll"
    path.write_text(clean(100) + synthetic(300) + "z I-ORG O\n\n")
    expected = ts_eval.score(ts_eval.io.read_conll(str(path)), models=MODELS.split(",")).to_dict()
    shards = file_shards(str(path), 4)
    assert len(shards) == 4 and shards[0].start == 0 and shards[-1].stop == path.stat().st_size
    parts = [count_file(s, models=MODELS.split(","), block_bytes=200) for s in shards]
    assert sum(parts).report().to_dict() == expected
    assert count_file(str(path), models=MODELS.split(",")).report().to_dict() == expected
    with pytest.raises(ts_eval.OptionError, match="colour"):
        count_file(str(path), colour=1)


@pytest.mark.slow
def test_shards_on_a_dask_cluster_give_the_report_of_one_process(tmp_path):
    import dask.distributed as distributed  # the test extra brings it: the Dask road runs in CI

    import ts_eval

    path = tmp_path / "s.conll"
    path.write_text(synthetic(500))
    expected = ts_eval.score(ts_eval.io.read_conll(str(path), scheme="conlleval")).to_dict()
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        shards = file_shards(str(path), 3, scheme="conlleval")
        counts = sum(client.gather(client.map(count_file, shards)))
    assert len(shards) == 3 and counts.report().to_dict() == expected


def test_a_file_reports_the_error_of_the_block_that_holds_it(tmp_path, monkeypatch, blocks_counted):
    """A file is read once, in blocks: the block that holds the error says it, with the file's line, as one
    block of the whole file does (the sentences before the error are handed out first: one block of the whole
    file, many of the blocks)."""
    path = tmp_path / "bad.conll"
    path.write_text(clean(300) + "x B-PER\n\n")
    whole, streamed = whole_and_streamed(monkeypatch, ["score", str(path)], b"", 400)
    error = f"ts-eval: error: {path}:1201: 2 columns, expected 3 as on line 1: 'x B-PER'\n"
    assert streamed == whole == (1, "", error)
    assert blocks_counted[-2] == 1 and blocks_counted[-1] > 20, blocks_counted


def test_conlleval_scheme_grows_a_block_until_every_system_is_outside(tmp_path, monkeypatch, pairs_counted):
    """conlleval.pl's state runs on across a sentence boundary after a tag that is not O: a block of the
    gold file ends only where every system file is O as well, so some blocks hold several of gold's."""
    gold = "".join(f"a{s} B-PER\nb{s} O\n\n" for s in range(30))
    system = "".join(f"a{s} B-PER\nb{s} {'I-PER' if s % 3 else 'O'}\n\n" for s in range(30))
    (tmp_path / "gold.conll").write_text(gold)
    (tmp_path / "sys.conll").write_text(system)
    argv = ["score", "--gold", str(tmp_path / "gold.conll"), str(tmp_path / "sys.conll"), "--scheme", "conlleval",
            "--format", "conlleval"]
    whole, streamed = whole_and_streamed(monkeypatch, argv)
    assert streamed == whole and whole[0] == 0
    assert pairs_counted == [1, 11]     # {0}, {1, 2, 3}, ..., {25, 26, 27}, {28, 29}: cut where the system is O


def test_count_files_gives_the_counts_of_the_pair_read_whole(tmp_path):
    gold, system = split_files(tmp_path, synthetic(80))
    models = MODELS.split(",")
    for scheme in ("IOB2", "auto", "conlleval"):
        whole = ts_eval.score(ts_eval.io.read_conll_pair(gold, [system], scheme=scheme), models=models).to_dict()
        counts = count_files(gold, [system], scheme=scheme, models=models, block_bytes=100)
        assert counts.report().to_dict() == whole
    with pytest.raises(ts_eval.OptionError, match="colour"):
        count_files(gold, [system], colour=1)
    with pytest.raises(ts_eval.OptionError, match="no system file"):
        count_files(gold, [])
    with pytest.raises(ts_eval.OptionError, match="a shard is only a part of the file"):
        count_file(file_shards(system, 2)[0], scheme="auto")


@pytest.mark.slow
def test_jobs_with_scheme_auto_count_in_one_process(tmp_path, monkeypatch, blocks_counted):
    monkeypatch.setattr(files, "MIN_SHARD_BYTES", 1)
    path = tmp_path / "s.conll"
    path.write_text(synthetic(300))
    argv = ["score", str(path), "--scheme", "auto", "--format", "json"]
    whole = whole_and_streamed(monkeypatch, argv)[0]
    assert run(argv + ["--jobs", "2"]) == whole
    assert len(blocks_counted) == 3      # one process read the file (whole, then in blocks of a sentence before)


def test_a_column_file_read_whole_raises_an_error_after_its_first_sentences(tmp_path):
    path = tmp_path / "bad.conll"
    path.write_text("a B-PER B-PER\nb O O\n\nc O\n\n")
    with pytest.raises(InputError, match=r"bad.conll:4: 2 columns, expected 3 as on line 1: 'c O'"):
        read_input(str(path), format="columns")
