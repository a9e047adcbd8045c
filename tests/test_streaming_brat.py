"""Two-file mode with brat collections (directories of .txt/.ann pairs) is read in blocks of whole documents
(the brat feed, :mod:`ts_eval.io.brat`) paired by the one joiner (:class:`ts_eval.io.inputs.Inputs`): every
report is the one of the directories read whole, for blocks down to one document, brat beside the other
formats, ``rank`` too; documents named otherwise, a missing document, an error late in a file and a system
span off the tokens give the same first error at every block size."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import List, Sequence, Tuple

import pytest
from streamed import QUICK, same_error, whole_and_streamed

from ts_eval.io.brat import BratOptions
from ts_eval.io.brat import feed as brat_feed
from ts_eval.io.feed import Decoding

Spans = List[Tuple[str, int, int]]      # (label, first token, end token exclusive)


def doc_spans(rng: random.Random, n: int) -> Spans:
    out, t = [], 0
    while t < n:
        if rng.random() < 0.35:
            e = min(n, t + rng.randint(1, 3))
            out.append((rng.choice(["PER", "LOC", "ORG"]), t, e))
            t = e
        else:
            t += 1
    return out


def brat_dir(root: Path, name: str, docs: Sequence[Tuple[str, int, Spans]], other: int = 0) -> str:
    """A brat directory: document ``NAME`` with ``n`` tokens w<NAME>_<t> and its spans (``other``: R lines)."""
    folder = root / name
    folder.mkdir()
    (folder / "tools.conf").write_text("[options]\nTokens tokenizer:whitespace\n")
    for stem, n, spans in docs:
        tokens = [f"w{stem}_{t}" for t in range(n)]
        at = [sum(len(w) + 1 for w in tokens[:t]) for t in range(n + 1)]
        text = " ".join(tokens)
        lines = [f"T{k + 1}\t{lab} {at[b]} {at[e] - 1}\t{text[at[b]:at[e] - 1]}" for k, (lab, b, e) in enumerate(spans)]
        lines += [f"R{k + 1}\tRel Arg1:T1 Arg2:T1" for k in range(other)]
        (folder / f"{stem}.txt").write_text(text, encoding="utf-8")
        (folder / f"{stem}.ann").write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
    return str(folder)


def corpus(seed: int, n_docs: int = 12) -> Tuple[List[Tuple[str, int, Spans]], List[List[Tuple[str, int, Spans]]]]:
    rng = random.Random(seed)
    gold = [(f"d{k:02d}", rng.randint(1, 9), []) for k in range(n_docs)]
    gold = [(s, n, doc_spans(rng, n)) for s, n, _ in gold]
    systems = [[(s, n, doc_spans(rng, n) if rng.random() < 0.5 else sp) for s, n, sp in gold] for _ in range(2)]
    return gold, systems


@pytest.mark.parametrize("block_bytes", [1, 40, 1 << 20])
@pytest.mark.parametrize("out", [["--format", "json"], ["--format", "table"], ["--format", "json", "--models",
                                 "ts,exact,overlap,fair,semeval"]], ids=["json", "table", "models"])
def test_brat_directories_in_blocks_give_the_report_of_the_whole_read(tmp_path, block_bytes, out):
    gold, systems = corpus(1)
    paths = [brat_dir(tmp_path, "gold", gold, other=1)] + [brat_dir(tmp_path, f"sys{k}", s, other=k)
                                                          for k, s in enumerate(systems)]
    whole, streamed, seen = whole_and_streamed(["score", "--gold", *paths, *out], block_bytes=block_bytes)
    assert whole[0] == 0 and streamed == whole
    assert len(seen) == 1 and seen[0] == (12 if block_bytes == 1 else 1 if block_bytes > 1000 else seen[0])
    if out == ["--format", "json"]:
        reading = json.loads(whole[1])["systems"][1]["source"]["reading"]
        assert reading["other_annotations"] == 12 and reading["documents"] == 12     # added up over the blocks


def test_brat_beside_json_lines_texts(tmp_path):
    gold, systems = corpus(2)
    g = brat_dir(tmp_path, "gold", gold)
    lines = []
    for stem, n, spans in systems[0]:
        tokens = [f"w{stem}_{t}" for t in range(n)]
        at = [sum(len(w) + 1 for w in tokens[:t]) for t in range(n + 1)]
        lines.append(json.dumps({"id": stem, "text": " ".join(tokens), "spans": [
            {"start": at[b], "end": at[e] - 1, "label": lab} for lab, b, e in spans]}))
    s = tmp_path / "sys.jsonl"
    s.write_text("\n".join(lines) + "\n")
    argv = ["score", "--gold", g, str(s), "--input-format", "jsonl-text", "--gold-format", "brat",
            "--format", "json"]
    whole, streamed, seen = whole_and_streamed(argv, block_bytes=1)
    assert whole[0] == 0 and streamed == whole
    assert seen == [12]


def test_what_does_not_pair_is_the_same_error_at_every_block_size(tmp_path):
    gold, systems = corpus(3)
    g = brat_dir(tmp_path, "gold", gold)
    renamed = brat_dir(tmp_path, "renamed", [(("x" if k == 5 else "") + s, n, sp)
                                             for k, (s, n, sp) in enumerate(systems[0])])
    missing = brat_dir(tmp_path, "missing", systems[0][:-1])
    late = brat_dir(tmp_path, "late", systems[0])
    Path(late, "d10.ann").write_text("T1\tPER 0 1\tw\nX9 not brat\n")
    off = brat_dir(tmp_path, "off", systems[0])
    Path(off, "d07.ann").write_text("T1\tPER 1 3\td0\n")           # inside a token
    for system in (renamed, missing, late, off):
        same_error(["score", "--gold", g, system, "--format", "json"], (1, 40))


def test_rank_reads_brat_directories_in_blocks(tmp_path):
    gold, systems = corpus(4, 20)
    paths = [brat_dir(tmp_path, "gold", gold)] + [brat_dir(tmp_path, f"s{k}", s) for k, s in enumerate(systems)]
    whole, streamed, seen = whole_and_streamed(["rank", "--gold", *paths, *QUICK, "--format", "json"], block_bytes=1)
    assert seen == [20]
    assert whole[0] == 0 and streamed == whole


def test_a_block_is_documents_whose_texts_hold_the_block_bytes(tmp_path):
    gold, _ = corpus(5, 6)
    feed = brat_feed(brat_dir(tmp_path, "g", gold), BratOptions(), Decoding(), 1 << 20)
    assert feed.take().n_docs == 6 and feed.done()
    feed = brat_feed(brat_dir(tmp_path, "h", gold), BratOptions(), Decoding(), 1)
    assert [feed.take().n_docs for _ in range(6)] == [1] * 6 and feed.done()
    assert feed.take().n_docs == 0
