"""``ts-eval score --gold G.jsonl S.jsonl`` reads JSON Lines files (token lists with tags, spans or
``ner_tags``, texts with character spans; gold and systems may differ in format, CoNLL-U and column files
among them) in blocks of whole records, paired by the one joiner (:class:`ts_eval.io.inputs.Inputs`,
:mod:`ts_eval.io.join`): every output is byte for byte what reading the files whole gives, for blocks down
to one record, compressed files and standard input too; records that pair by id in another order give the
report of the same records in order; files that do not pair, and bad lines late in a file, give the same
first error at every block size."""
from __future__ import annotations

import bz2
import gzip
import json
import lzma
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamed import MODELS, Run, blocks_of, run, same_at, same_error, whole_and_streamed
from test_score_properties import span_corpus, tag_corpus
from test_streaming_conllu import conllu_text, sample, system_of

from ts_eval.streaming.files import count_files

Spans = List[Tuple[str, int, int]]


def tokens_of(s: int, n: int) -> List[str]:
    return [f"w{s}_{t}" for t in range(n)]


def tags_lines(sides_tags: Sequence[Sequence[str]], ids: Optional[Sequence[Optional[str]]] = None,
               key: str = "tags") -> str:
    out = []
    for s, tags in enumerate(sides_tags):
        rec: Dict[str, Any] = {} if ids is None or ids[s] is None else {"id": ids[s]}
        rec.update(tokens=tokens_of(s, len(tags)), **{key: list(tags)})
        out.append(json.dumps(rec))
    return "\n".join(out) + "\n"


def spans_lines(lengths: Sequence[int], spans: Sequence[Spans], ids: Optional[Sequence[str]] = None,
                compact: bool = False) -> str:
    sep = (",", ":") if compact else (", ", ": ")
    out = []
    for s, (n, side) in enumerate(zip(lengths, spans)):
        rec: Dict[str, Any] = {} if ids is None else {"id": ids[s]}
        rec.update(tokens=tokens_of(s, n), spans=[{"start": b, "end": e, "label": lab} for lab, b, e in side])
        out.append(json.dumps(rec, separators=sep))
    return "\n".join(out) + "\n"


def text_lines(lengths: Sequence[int], spans: Sequence[Spans], ids: Optional[Sequence[str]] = None,
               doccano: bool = False, shift: int = 0) -> str:
    """Texts of the tokens joined by spaces; ``shift`` moves every span's end that many characters (off the
    tokens)."""
    out = []
    for s, (n, side) in enumerate(zip(lengths, spans)):
        toks = tokens_of(s, n)
        at = [sum(len(t) + 1 for t in toks[:k]) for k in range(n + 1)]
        rec: Dict[str, Any] = {} if ids is None else {"id": ids[s]}
        rec["text"] = " ".join(toks)
        found = [(at[b], at[e] - 1 - (shift if e - b > 1 else 0), lab) for lab, b, e in side]
        if doccano:
            rec["label"] = [[b, e, lab] for b, e, lab in found]
        else:
            rec["spans"] = [{"start": b, "end": e, "label": lab} for b, e, lab in found]
        out.append(json.dumps(rec))
    return "\n".join(out) + "\n"


def write(tmp, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def same(argv: List[str], block_bytes: int, stdin: bytes = b"") -> Tuple[Run, Run, List[int]]:
    return whole_and_streamed(argv, stdin=stdin, block_bytes=block_bytes)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(tag_corpus(n_systems=2), st.booleans(), st.booleans(), st.sampled_from(["IOB2", "conlleval", "IOB1"]),
       st.sampled_from([1, 7, 60, 400]))
def test_tags_in_lock_step_blocks_give_the_report_of_the_whole_files(tmp_path_factory, sides, with_ids, blank,
                                                                    scheme, block_bytes):
    tmp = tmp_path_factory.mktemp("j")
    ids = [f"s{k}" for k in range(len(sides[0]))] if with_ids else None
    texts = [tags_lines(side, ids) for side in sides]
    if blank:       # blank lines between records (and a CRLF): not records
        texts = [t.replace("\n", "\n\n \r\n", 2) for t in texts]
    paths = [write(tmp, name, t) for name, t in zip(["gold.jsonl", "a.jsonl", "b.jsonl"], texts)]
    argv = ["score", "--gold", *paths, "--models", MODELS, "--scheme", scheme, "--format", "json"]
    whole, streamed, seen = same(argv, block_bytes)
    assert len(seen) == 1 and seen[0] >= 1 and (block_bytes > 1 or seen[0] == len(sides[0]))
    assert streamed == whole and whole[0] == 0


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(span_corpus(), st.sampled_from(["jsonl-tokens", "jsonl-text", "doccano", "compact"]),
       st.sampled_from(["jsonl-tokens", "jsonl-text"]), st.booleans(), st.sampled_from([1, 9, 120]))
def test_spans_in_lock_step_blocks_give_the_report_of_the_whole_files(tmp_path_factory, corpus, gold_format,
                                                                     system_format, with_ids, block_bytes):
    lengths, gold, system = corpus
    tmp = tmp_path_factory.mktemp("s")
    ids = [f"d{k}" for k in range(len(lengths))] if with_ids else None

    def text(fmt: str, spans: Sequence[Spans]) -> str:
        if fmt in ("jsonl-tokens", "compact"):
            return spans_lines(lengths, spans, ids, compact=fmt == "compact")
        return text_lines(lengths, spans, ids, doccano=fmt == "doccano")
    g = write(tmp, "gold.jsonl", text(gold_format, gold))
    s = write(tmp, "sys.jsonl", text(system_format, system))
    argv = ["score", "--gold", g, s, "--models", MODELS, "--format", "json"]
    whole, streamed, seen = same(argv, block_bytes)
    assert len(seen) == 1 and (block_bytes > 1 or seen[0] == len(lengths))
    assert streamed == whole and whole[0] == 0


FORMATS = [["--format", "table", "--details"], ["--format", "conlleval"], ["--format", "faireval"],
           ["--format", "csv"], ["--format", "markdown"], ["--format", "html"],
           ["--format", "json", "--all-labels-row", "--map-label", "^LOC$=PLACE"]]


@pytest.mark.parametrize("options", FORMATS, ids=lambda o: " ".join(o[1:]))
def test_every_format_in_one_record_blocks(tmp_path, options):
    gold = sample()
    ids = [f"doc{k}" for k in range(len(gold))]
    paths = [write(tmp_path, "gold.jsonl", tags_lines(gold, ids))]
    paths += [write(tmp_path, f"sys{k}.jsonl", tags_lines(system_of(gold, k), ids)) for k in range(2)]
    argv = ["score", "--gold", *paths, *options]
    if options[1] == "conlleval":
        argv = ["score", "--gold", *paths[:2], *options]
    whole, streamed, seen = same(argv, 1)
    assert streamed == whole and whole[0] == 0
    assert seen == [30]          # one streamed run, a block per record


def test_gold_and_systems_in_different_formats(tmp_path):
    """Gold as texts, one system as token lists with tags, one as CoNLL-U: paired as the whole read pairs them
    (tokens compared; texts where both sides have them)."""
    gold = sample(20)
    lengths = [len(t) for t in gold]
    g = write(tmp_path, "gold.jsonl", text_lines(lengths, [[("PER", 0, 1)] if n > 1 else [] for n in lengths]))
    a = write(tmp_path, "a.jsonl", tags_lines(system_of(gold, 1)))
    b = write(tmp_path, "b.conllu", "".join(conllu_text([t], comments=True).replace("w0_", f"w{k}_")
                                            for k, t in enumerate(system_of(gold, 2))))
    argv = ["score", "--gold", g, a, b, "--models", MODELS, "--format", "json"]
    whole, streamed, seen = same(argv, 40)
    assert streamed == whole and whole[0] == 0
    assert len(seen) == 1 and seen[0] > 3


@pytest.mark.parametrize("opener", [gzip.compress, bz2.compress, lzma.compress], ids=["gz", "bz2", "xz"])
def test_compressed_files(tmp_path, opener):
    gold = sample(40)
    lengths = [len(t) for t in gold]
    spans = [[("ORG", 0, n)] for n in lengths]
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(opener(spans_lines(lengths, spans).encode("utf-8")))
    system = write(tmp_path, "sys.jsonl", tags_lines(system_of(gold, 1)))
    argv = ["score", "--gold", str(path), system, "--input-format", "jsonl-tokens", "--format", "json"]
    whole, streamed, seen = same(argv, 50)
    assert streamed == whole and whole[0] == 0
    assert len(seen) == 1 and seen[0] > 3


def test_hugging_face_tag_numbers(tmp_path):
    names = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    gold = sample(25)
    number = {t: k for k, t in enumerate(names)}
    tag_file = write(tmp_path, "names.json", json.dumps(names))
    g = write(tmp_path, "gold.jsonl", tags_lines([[number[t] for t in s] for s in gold], key="ner_tags"))
    s = write(tmp_path, "sys.jsonl", tags_lines([[number[t] for t in s] for s in system_of(gold, 3)], key="ner_tags"))
    argv = ["score", "--gold", g, s, "--tag-names", tag_file, "--format", "json"]
    whole, streamed, seen = same(argv, 30)
    assert streamed == whole and whole[0] == 0
    assert len(seen) == 1 and seen[0] > 3


@pytest.mark.parametrize("with_ids", [True, False])
def test_misaligned_spans_are_listed_with_the_files_records_and_lines(tmp_path,
                                                                     with_ids):
    """``--align expand``: what reading found lists each misaligned span with its record and line in the file."""
    lengths = [3] * 30
    spans = [[("PER", 0, 2)] if k % 4 == 1 else [("LOC", 1, 2)] for k in range(30)]
    ids = [f"t{k}" for k in range(30)] if with_ids else None
    g = write(tmp_path, "gold.jsonl", "\n" + text_lines(lengths, spans, ids, shift=1))
    s = write(tmp_path, "sys.jsonl", text_lines(lengths, spans, ids, shift=1))
    argv = ["score", "--gold", g, s, "--align", "expand", "--format", "json"]
    whole, streamed, seen = same(argv, 40)
    assert streamed == whole and whole[0] == 0
    assert whole[1].count('"misaligned": 8') == 2 and '"line": 30' in whole[1] and '"line": 31' in whole[1]
    assert len(seen) == 1 and seen[0] > 3


def test_records_in_another_order_pair_by_id_as_in_order(tmp_path):
    """Records whose ids come in another order than gold's are held and paired by id: the report of the same
    records in gold's order, whole and at every block size."""
    gold = sample(12)
    ids = [f"x{k}" for k in range(len(gold))]
    order = list(range(len(gold)))[::-1]
    g = write(tmp_path, "gold.jsonl", tags_lines(gold, ids))
    lines = tags_lines(system_of(gold, 0), ids).splitlines(keepends=True)
    s = write(tmp_path, "sys.jsonl", "".join(lines[k] for k in order))
    (tmp_path / "in_order").mkdir()
    in_order = write(tmp_path / "in_order", "sys.jsonl", "".join(lines))
    held, seen = same_at(["score", "--gold", g, s, "--format", "json"], (60, 1))
    assert held[0] == 0 and seen == [12]
    rc, out, err = same_at(["score", "--gold", g, in_order, "--format", "json"], (1,))[0]
    assert held == (rc, out.replace(in_order, s), err)       # (the paths aside)


def test_records_in_another_order_beyond_what_may_be_held(tmp_path, monkeypatch):
    """More of a system to hold than ``hold_bytes`` is an error naming the first record out of gold's order
    and asking for the files in the same order, at every block size (read whole, the files are held whole)."""
    import ts_eval.io.join as join

    gold = sample(12)
    ids = [f"x{k}" for k in range(len(gold))]
    g = write(tmp_path, "gold.jsonl", tags_lines(gold, ids))
    lines = tags_lines(system_of(gold, 0), ids).splitlines(keepends=True)
    s = write(tmp_path, "sys.jsonl", "".join(lines[:3] + lines[4:] + lines[3:4]))
    real = join.join
    monkeypatch.setattr(join, "join", lambda *a, **k: real(*a, **{**k, "hold_bytes": 4}))
    argv = ["score", "--gold", g, s, "--format", "json"]
    with blocks_of(None):
        assert run(argv)[0] == 0
    err = same_error(argv, (1, 60), whole=False, line=4)
    assert "document 'x4', line 4 is not in gold's order" in err and "in the same order" in err, err


def test_ids_on_one_side_only_pair_by_order_in_blocks(tmp_path):
    gold = sample(12)
    g = write(tmp_path, "gold.jsonl", tags_lines(gold, [f"x{k}" for k in range(len(gold))]))
    s = write(tmp_path, "sys.jsonl", tags_lines(system_of(gold, 0)))
    whole, streamed, seen = same(["score", "--gold", g, s, "--format", "json"], 1)
    assert streamed == whole and whole[0] == 0
    assert seen == [12]


def misaligned() -> List[Tuple[str, str, str]]:
    gold = sample(14)
    ids = [f"i{k}" for k in range(len(gold))]
    text = tags_lines(gold)
    dup = [*ids[:5], ids[3], *ids[6:]]
    return [("token", text, text.replace('"w9_0"', '"zz"')), ("system ends", text, tags_lines(gold[:10])),
            ("system goes on", text, tags_lines(gold + [["O", "O"]])),
            ("id missing", tags_lines(gold, ids), tags_lines(gold, ids[:3] + ["other"] + ids[4:])),
            ("id twice", tags_lines(gold, dup), tags_lines(gold, dup)),
            ("empty", text, " \n\n"), ("no records", text, "\u00a0\n"),
            ("a JSON array", text, json.dumps([json.loads(x) for x in text.splitlines()], indent=1)),
            ("text differs", text_lines([2] * 14, [[("PER", 0, 1)]] * 14),
             text_lines([2] * 14, [[("PER", 0, 1)]] * 14).replace("w9_0 w9_1", "w9_0  w9_1"))]


@pytest.mark.parametrize("case", misaligned(), ids=lambda c: c[0])
@pytest.mark.parametrize("block_bytes", [1, 60])
def test_files_that_do_not_pair_give_the_same_error_at_every_block_size(tmp_path, case, block_bytes):
    _, gold_text, system_text = case
    g, s = write(tmp_path, "gold.jsonl", gold_text), write(tmp_path, "sys.jsonl", system_text)
    same_error(["score", "--gold", g, s], (1, block_bytes))


# (the files' records have ids: so have the lines put among them, as every record has an id or none has)
TWO = '{"id": "new", "tokens": ["a", "b"], "tags": ["O", "O"]}\n'
ONE = '{"id": "new", "tokens": ["a"], "tags": ["O"]}\n'
BAD_LINES = [("json", '{"id": "new", "tokens": ["a", "b"], "tags": ["O", "O"]\n', TWO),
             ("tags", '{"id": "new", "tokens": ["a", "b"], "tags": ["O"]}\n', TWO),
             ("object", '["a", "b"]\n', TWO),
             ("shape", '{"id": "new", "tokens": ["a"], "spans": []}\n', ONE),
             ("tag", '{"id": "new", "tokens": ["a"], "tags": [3]}\n', ONE),
             ("utf-8", '{"id": "new", "tokens": ["a\xff"], "tags": ["O"]}\n', ONE),
             ("strict", '{"id": "new", "tokens": ["a", "b"], "tags": ["O", "I-PER"]}\n', TWO),
             ("no id", '{"tokens": ["a"], "tags": ["O"]}\n', ONE)]


@pytest.mark.parametrize("bad", BAD_LINES, ids=lambda b: b[0])
@pytest.mark.parametrize("side", ["gold", "system"])
def test_a_bad_line_deep_in_a_file_names_the_same_line(tmp_path, bad, side):
    """The file's line, read whole and at every block size (the line put among records with ids has one too:
    a record without, ``no id``, is an error at its line)."""
    gold = sample(60)
    lines = tags_lines(gold, [f"r{k}" for k in range(60)]).splitlines(keepends=True)
    at = len(lines) - 7
    broken = "".join(lines[:at]) + "\n" + bad[1] + "".join(lines[at:])
    raw = broken.encode("utf-8")
    if bad[0] == "utf-8":
        raw = raw.replace("a\xff".encode(), b"a\xff")
    (tmp_path / "bad.jsonl").write_bytes(raw)
    good = write(tmp_path, "good.jsonl", "".join(lines[:at]) + "\n" + bad[2] + "".join(lines[at:]))
    g, s = (str(tmp_path / "bad.jsonl"), good) if side == "gold" else (good, str(tmp_path / "bad.jsonl"))
    same_error(["score", "--gold", g, s, "--policy", "strict"], (1, 40), line=at + 2)


def test_generated_outputs_are_read_in_blocks_too(tmp_path):
    g = write(tmp_path, "gold.jsonl", tags_lines(sample(10), [f"g{k}" for k in range(10)]))
    gen = write(tmp_path, "gen.jsonl", "".join(json.dumps({"id": f"g{k}", "entities": []}) + "\n"
                                               for k in range(10)))
    whole, streamed, seen = same(["score", "--gold", g, gen, "--format", "json"], 1)
    assert streamed == whole and whole[0] == 0
    assert seen == [10]       # (tests/test_streaming_generated.py: every mode, shape and error)


@pytest.mark.parametrize("pack", [bytes, gzip.compress], ids=["plain", "gzip"])
@pytest.mark.parametrize("side", ["gold", "system"])
def test_standard_input_is_read_in_blocks(tmp_path, side, pack):
    gold = sample(12)
    ids = [f"g{k}" for k in range(12)]
    texts = [tags_lines(gold, ids), tags_lines(system_of(gold, 1), ids)]
    paths = [write(tmp_path, n, t) for n, t in zip(["gold.jsonl", "sys.jsonl"], texts)]
    at = 0 if side == "gold" else 1
    stdin = pack(texts[at].encode())
    argv = ["score", "--gold", *["-" if k == at else p for k, p in enumerate(paths)], "--format", "json"]
    whole, streamed, seen = same(argv, 1, stdin=stdin)
    assert streamed == whole and whole[0] == 0
    assert seen == [12]


@pytest.mark.parametrize("pack", [bytes, gzip.compress], ids=["plain", "gzip"])
@pytest.mark.parametrize("late", [True, False], ids=["late", "first-record"])
def test_standard_input_that_pairs_in_another_order_is_held_and_paired_by_id(tmp_path, late, pack):
    """Records that pair by id in another order, after some blocks (``late``) or at the first record: the
    rest of standard input is held and paired by id, with the report of the whole read."""
    gold = sample(40)
    ids = [f"g{k}" for k in range(40)]
    order = list(range(40))
    swap = (36, 37) if late else (0, 1)
    order[swap[0]], order[swap[1]] = order[swap[1]], order[swap[0]]
    system = system_of(gold, 2)
    text = "".join(json.dumps({"id": ids[k], "tokens": tokens_of(k, len(system[k])), "tags": system[k]}) + "\n"
                   for k in order)
    g = write(tmp_path, "gold.jsonl", tags_lines(gold, ids))
    argv = ["score", "--gold", g, "-", "--format", "json"]
    whole, streamed, seen = same(argv, 64, stdin=pack(text.encode()))
    assert streamed == whole and whole[0] == 0
    assert json.loads(whole[1])["systems"][0]["source"]["spans"] > 0
    assert len(seen) == 1 and seen[0] > 10       # gold's blocks (the system's rest held)
    in_order = "".join(json.dumps({"id": ids[k], "tokens": tokens_of(k, len(system[k])), "tags": system[k]}) + "\n"
                       for k in range(40))
    assert same(argv, 64, stdin=in_order.encode())[0] == whole


def test_conllu_on_standard_input_is_read_in_blocks_in_any_order(tmp_path):
    """Sentences in gold's order or (by id) in another: the same report whole and in blocks of a sentence."""
    gold = sample(30)
    ids = [f"s{k}" for k in range(30)]
    g = write(tmp_path, "gold.conllu", conllu_text(gold, ids=ids))
    system = system_of(gold, 3)
    in_order = conllu_text(system, ids=ids)
    order = [*range(28), 29, 28]          # the last two sentences in another order
    swapped = conllu_text([system[k] for k in order], ids=[ids[k] for k in order], numbers=order)
    runs = []
    for text in (in_order, swapped):
        whole, streamed, seen = same(["score", "--gold", g, "-", "--format", "json"], 1, stdin=text.encode())
        assert streamed == whole and whole[0] == 0
        assert seen == [30]
        runs.append(whole)
    assert runs[0] == runs[1]


def test_count_files_reads_json_lines_in_blocks(tmp_path):
    gold = sample(25)
    g = write(tmp_path, "gold.jsonl", tags_lines(gold))
    s = write(tmp_path, "sys.jsonl", tags_lines(system_of(gold, 2)))
    options = dict(names=["sys"], models=MODELS.split(","))
    whole = count_files(g, [s], format="jsonl-tokens", block_bytes=1 << 30, **options).report().to_dict()
    for block_bytes in (1, 9, 200):
        assert count_files(g, [s], format=["jsonl-tokens", "jsonl-tokens"], block_bytes=block_bytes,
                           **options).report().to_dict() == whole


TEXT_BAD = [("span outside the text",
             '{"id": "bad", "text": "a b", "spans": [{"start": 0, "end": 9, "label": "X"}]}\n'),
            ("span off the tokens", '{"id": "bad", "text": "ab c", "spans": [{"start": 0, "end": 1, "label": "X"}]}\n'),
            ("no id: numbered", '{"text": "a b", "spans": [{"start": 0, "end": 9, "label": "X"}]}\n'),
            ("no text", '{"id": "bad", "spans": []}\n')]


@pytest.mark.parametrize("bad", TEXT_BAD, ids=lambda b: b[0])
@pytest.mark.parametrize("side", ["gold", "system"])
def test_a_bad_text_record_deep_in_a_file_names_the_same_line(tmp_path, bad, side):
    lengths = [2] * 50
    lines = text_lines(lengths, [[("PER", 0, 1)]] * 50, [f"t{k}" for k in range(50)]).splitlines(keepends=True)
    at = len(lines) - 6
    good_line = '{"id": "bad", "text": "%s", "spans": []}\n' % ("ab c" if "ab c" in bad[1] else "a b")
    bad_file = write(tmp_path, "bad.jsonl", "".join(lines[:at]) + bad[1] + "".join(lines[at:]))
    good = write(tmp_path, "good.jsonl", "".join(lines[:at]) + good_line + "".join(lines[at:]))
    g, s = (bad_file, good) if side == "gold" else (good, bad_file)
    same_error(["score", "--gold", g, s], (1, 60), line=at + 1)


def columns_text(sentences: Sequence[Sequence[str]], docstart: bool = False) -> str:
    out = ["-DOCSTART- O", ""] if docstart else []
    for s, tags in enumerate(sentences):
        out += [f"{tok} {tag}" for tok, tag in zip(tokens_of(s, len(tags)), tags)] + [""]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("block_bytes", [1, 60])
@pytest.mark.parametrize("gold_side", ["columns", "jsonl"])
def test_column_files_mixed_with_other_formats(tmp_path, block_bytes, gold_side):
    """A column file among JSON Lines and CoNLL-U files: read in blocks of its sentences, each a document."""
    gold = sample(24)
    columns = write(tmp_path, "cols.conll", columns_text(gold if gold_side == "columns" else system_of(gold, 1),
                                                         docstart=True))
    jsonl = write(tmp_path, "tags.jsonl", tags_lines(gold if gold_side == "jsonl" else system_of(gold, 1)))
    conllu = write(tmp_path, "c.conllu", "".join(conllu_text([t]).replace("w0_", f"w{k}_")
                                                 for k, t in enumerate(system_of(gold, 2))))
    g, s = (columns, jsonl) if gold_side == "columns" else (jsonl, columns)
    argv = ["score", "--gold", g, s, conllu, "--models", MODELS, "--format", "json"]
    whole, streamed, seen = same(argv, block_bytes)
    assert streamed == whole and whole[0] == 0
    assert len(seen) == 1 and seen[0] > 3


@pytest.mark.parametrize("case", ["bad line", "shorter", "empty"])
def test_a_column_file_that_fails_among_other_formats(tmp_path, case):
    gold = sample(40)
    text = columns_text(system_of(gold, 1))
    if case == "bad line":
        lines = text.split("\n")
        lines.insert(len(lines) - 8, "w x y")
        text = "\n".join(lines)
    elif case == "shorter":
        text = columns_text(system_of(gold, 1)[:-3])
    else:
        text = "\n\n"
    g, s = write(tmp_path, "gold.jsonl", tags_lines(gold)), write(tmp_path, "sys.conll", text)
    same_error(["score", "--gold", g, s], (1, 40))
