"""``ts-eval score --gold G.conllu S.conllu`` reads CoNLL-U files in blocks of whole sentences, paired by the
one joiner (:class:`ts_eval.io.inputs.Inputs`, :mod:`ts_eval.io.join`): every output is byte for byte what
reading the files whole gives, for blocks down to one sentence, with comments, ``# sent_id``, multi-word
tokens, empty nodes, MISC keys or a tag column, CRLF line ends; sentences that pair by id in another order
give the report of the same sentences in order; files that do not pair, and bad lines, give the same first
error at every block size."""
from __future__ import annotations

import gzip
from typing import List, Optional, Sequence, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamed import MODELS, blocks_of, run, same_at, same_error, whole_and_streamed
from test_score_properties import tag_corpus

from ts_eval.streaming.files import count_files


def word(k: int, form: str, tag: str, extra: str = "", column: bool = False) -> str:
    misc = "|".join(x for x in (extra, f"NER={tag}") if x) if not column else "SpaceAfter=No"
    return "\t".join([str(k), form, "_", "_", tag if column else "_", "_", "0", "dep", "_", misc])


def conllu_text(sentences: Sequence[Sequence[str]], *, ids: Optional[Sequence[Optional[str]]] = None,
                comments: bool = False, multiword: bool = False, empty: bool = False, crlf: bool = False,
                column: bool = False, seed: int = 0, numbers: Optional[Sequence[int]] = None) -> str:
    """A CoNLL-U file of ``sentences`` (each a list of tags), token texts w<s>_<t> (``numbers``: each
    sentence's s, default its position)."""
    out: List[str] = []
    for k, tags in enumerate(sentences):
        s = k if numbers is None else numbers[k]
        if comments and (s + seed) % 2 == 0:
            out.append(f"# text = sentence {s}")
        if ids is not None and ids[k] is not None:
            out.append(f"# sent_id = {ids[k]}")
        for t, tag in enumerate(tags):
            if multiword and t == 0 and len(tags) > 1 and (s + seed) % 3 == 0:
                out.append(f"{t + 1}-{t + 2}\tmw{s}\t_\t_\t_\t_\t_\t_\t_\t_")
            out.append(word(t + 1, f"w{s}_{t}", tag, "SpaceAfter=No" if (s + t) % 4 == 1 else "", column))
            if empty and t == 0 and (s + seed) % 2 == 1:
                out.append(f"{t + 1}.1\tnull\t_\t_\t_\t_\t_\t_\t_\t_")
        out.append("")
    text = "\n".join(out) + "\n"
    return text.replace("\n", "\r\n") if crlf else text


def write(tmp, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(tag_corpus(n_systems=2), st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from(["IOB2", "conlleval", "IOB1"]), st.sampled_from([1, 7, 60, 400]))
def test_conllu_files_in_blocks_give_the_report_of_the_whole_files(tmp_path_factory, sides, with_ids, comments,
                                                                  multiword, empty, crlf, scheme, block_bytes):
    tmp = tmp_path_factory.mktemp("u")
    ids = [f"s{k}" for k in range(len(sides[0]))] if with_ids else None
    paths = [write(tmp, name, conllu_text(side, ids=ids, comments=comments, multiword=multiword, empty=empty,
                                          crlf=crlf, seed=k))
             for k, (name, side) in enumerate(zip(["gold.conllu", "a.conllu", "b.conllu"], sides))]
    argv = ["score", "--gold", *paths, "--models", MODELS, "--scheme", scheme, "--format", "json"]
    whole, streamed, seen = whole_and_streamed(argv, block_bytes=block_bytes)
    assert streamed == whole and whole[0] == 0
    assert len(seen) == 1 and seen[0] >= 1        # one read, every block a Corpus
    if block_bytes == 1:
        assert seen == [len(sides[0])]


FORMATS = [["--format", "table", "--details"], ["--format", "conlleval"], ["--format", "faireval"],
           ["--format", "csv"], ["--format", "markdown"], ["--format", "html"],
           ["--format", "json", "--all-labels-row", "--map-label", "^LOC$=PLACE"]]


def sample(n: int = 30) -> List[List[str]]:
    labels = ["PER", "LOC", "ORG"]
    out = []
    for s in range(n):
        tags: List[str] = []
        for t in range(1 + (s * 7) % 5):
            k = (s * 3 + t * 5) % 7
            tags.append("O" if k < 3 else ("B-" if k < 5 or not tags or tags[-1] == "O" else "I-")
                        + labels[k % 3])
        out.append(tags)
    return out


def system_of(gold: List[List[str]], seed: int) -> List[List[str]]:
    return [[("O" if (s + t + seed) % 5 == 0 else tag) for t, tag in enumerate(sent)] for s, sent in enumerate(gold)]


@pytest.mark.parametrize("options", FORMATS, ids=lambda o: " ".join(o[1:]))
def test_every_format_in_one_sentence_blocks(tmp_path, options):
    gold = sample()
    ids = [f"doc{k}" for k in range(len(gold))]
    paths = [write(tmp_path, "gold.conllu", conllu_text(gold, ids=ids, comments=True, multiword=True, empty=True))]
    paths += [write(tmp_path, f"sys{k}.conllu", conllu_text(system_of(gold, k), ids=ids, multiword=True, seed=k))
              for k in range(2)]
    argv = ["score", "--gold", *paths, "--input-format", "conllu", *options]
    if options[1] == "conlleval":
        argv = ["score", "--gold", *paths[:2], *options]
    whole, streamed, seen = whole_and_streamed(argv, block_bytes=1)
    assert streamed == whole and whole[0] == 0
    assert seen == [30]          # one read, a block per sentence


def test_a_misc_key_and_compressed_files(tmp_path):
    gold = sample(40)
    text = conllu_text(gold, comments=True).replace("NER=", "TAG=")
    path = tmp_path / "gold.conllu.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    system = write(tmp_path, "sys.conllu", conllu_text(system_of(gold, 1)).replace("NER=", "TAG="))
    argv = ["score", "--gold", str(path), system, "--input-format", "conllu", "--misc-key", "TAG", "--format", "json"]
    whole, streamed, seen = whole_and_streamed(argv, block_bytes=50)
    assert streamed == whole and whole[0] == 0
    assert len(seen) == 1 and seen[0] > 3


def test_a_tag_column_in_blocks_gives_the_counts_of_the_whole(tmp_path):
    gold = sample(25)
    g = write(tmp_path, "gold.conllu", conllu_text(gold, column=True, comments=True))
    s = write(tmp_path, "sys.conllu", conllu_text(system_of(gold, 2), column=True, multiword=True))
    options = dict(format="conllu", column="XPOS", misc_key=None, names=["sys"], models=MODELS.split(","))
    whole = count_files(g, [s], block_bytes=1 << 30, **options).report().to_dict()
    assert whole["systems"][0]["exact"]["micro"]["tp"] > 0
    for block_bytes in (1, 9, 200):
        assert count_files(g, [s], block_bytes=block_bytes, **options).report().to_dict() == whole


def reversed_system(tmp, gold: List[List[str]], ids: List[str], name: str = "sys.conllu") -> str:
    """The system of ``gold`` (seed 0) with its sentences, ids and tokens in reverse order."""
    order = list(range(len(gold)))[::-1]
    system = system_of(gold, 0)
    return write(tmp, name, conllu_text([system[k] for k in order], ids=[ids[k] for k in order], numbers=order))


def test_sentences_in_another_order_pair_by_id_as_in_order(tmp_path):
    """Sentences whose ids come in another order than gold's are held and paired by id: the report of the
    same sentences in gold's order, at every block size."""
    gold = sample(12)
    ids = [f"x{k}" for k in range(len(gold))]
    g = write(tmp_path, "gold.conllu", conllu_text(gold, ids=ids))
    s = reversed_system(tmp_path, gold, ids)
    (tmp_path / "in_order").mkdir()
    in_order = write(tmp_path / "in_order", "sys.conllu", conllu_text(system_of(gold, 0), ids=ids))
    argv = ["score", "--gold", g, "--format", "json", "--input-format", "conllu", "--names", "sys"]
    held, seen = same_at([*argv[:3], s, *argv[3:]], (60, 1))
    assert held[0] == 0 and seen == [12]      # in blocks of one sentence
    rc, out, err = same_at([*argv[:3], in_order, *argv[3:]], (1,))[0]
    assert held == (rc, out.replace(in_order, s), err)       # (the paths aside)


def test_sentences_in_another_order_beyond_what_may_be_held(tmp_path, monkeypatch):
    """More of a system to hold than ``hold_bytes`` is an error naming the first sentence out of gold's order
    and asking for the files in the same order, at every block size (the files read whole are held whole)."""
    import ts_eval.io.join as join

    gold = sample(12)
    ids = [f"x{k}" for k in range(len(gold))]
    g = write(tmp_path, "gold.conllu", conllu_text(gold, ids=ids))
    s = reversed_system(tmp_path, gold, ids)
    real = join.join
    monkeypatch.setattr(join, "join", lambda *a, **k: real(*a, **{**k, "hold_bytes": 4}))
    argv = ["score", "--gold", g, s, "--input-format", "conllu", "--format", "json"]
    with blocks_of(None):
        assert run(argv)[0] == 0
    err = same_error(argv, (1, 60), whole=False, line=2)
    assert "document 'x11', line 2 is not in gold's order" in err and "in the same order" in err, err


def misaligned() -> List[Tuple[str, str, str]]:
    gold = sample(14)
    ids = [f"i{k}" for k in range(len(gold))]
    text = conllu_text(gold)
    changed = text.replace("\tw9_0\t", "\tzz\t")
    fewer = conllu_text(gold[:10])
    more = conllu_text(gold + [["O", "O"]])
    dup = [*ids[:5], ids[3], *ids[6:]]
    mixed = [*ids[:6], None, *ids[7:]]
    return [("token", text, changed), ("system ends", text, fewer), ("system goes on", text, more),
            ("id missing", conllu_text(gold, ids=ids), conllu_text(gold, ids=ids[:3] + ["other"] + ids[4:])),
            ("id twice", conllu_text(gold, ids=dup), conllu_text(gold, ids=dup)),
            ("mixed ids", conllu_text(gold, ids=ids), conllu_text(gold, ids=mixed)),
            ("no words", text, "# only a comment\n"), ("empty", text, " \n\n")]


@pytest.mark.parametrize("case", misaligned(), ids=lambda c: c[0])
def test_files_that_do_not_pair_give_the_same_error_at_every_block_size(tmp_path, case):
    _, gold_text, system_text = case
    g, s = write(tmp_path, "gold.conllu", gold_text), write(tmp_path, "sys.conllu", system_text)
    same_error(["score", "--gold", g, s, "--input-format", "conllu"], (1, 60))


BAD_LINES = [("fields", "3\tbad\t_\n"), ("id", "x\tw\t_\t_\t_\t_\t0\tdep\t_\tNER=O\n"),
             ("misc key", "3\tw\t_\t_\t_\t_\t0\tdep\t_\tFoo=1|Bar=2\n"), ("utf-8", "3\tw\xff\t_\n")]


@pytest.mark.parametrize("bad", BAD_LINES, ids=lambda b: b[0])
@pytest.mark.parametrize("side", ["gold", "system"])
def test_a_bad_line_deep_in_a_file_names_the_same_line(tmp_path, bad, side):
    """The file's line, whole and at every block size."""
    gold = sample(60)
    text = conllu_text(gold, comments=True, multiword=True)
    lines = text.split("\n")
    at = len(lines) - 12
    while lines[at]:
        at += 1
    broken = "\n".join(lines[:at + 1]) + "\n" + bad[1] + "\n".join(lines[at + 1:])
    raw = broken.encode("utf-8")
    if bad[0] == "utf-8":
        raw = raw.replace("w\xff".encode(), b"w\xff")
    (tmp_path / "bad.conllu").write_bytes(raw)
    good = write(tmp_path, "good.conllu", text)
    g, s = (str(tmp_path / "bad.conllu"), good) if side == "gold" else (good, str(tmp_path / "bad.conllu"))
    same_error(["score", "--gold", g, s, "--input-format", "conllu"], (1, 40), line=at + 2)


def test_ids_on_one_side_only_pair_by_order_in_blocks(tmp_path):
    """Gold with ``# sent_id`` and a system without: paired by order, whole and in blocks."""
    gold = sample(12)
    g = write(tmp_path, "gold.conllu", conllu_text(gold, ids=[f"x{k}" for k in range(len(gold))]))
    s = write(tmp_path, "sys.conllu", conllu_text(system_of(gold, 0)))
    whole, streamed, seen = whole_and_streamed(["score", "--gold", g, s, "--format", "json"], block_bytes=1)
    assert streamed == whole and whole[0] == 0
    assert seen == [12]
