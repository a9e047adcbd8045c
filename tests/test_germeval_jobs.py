"""``germeval --jobs N`` (issue 32): a 6-column file cut into shards of whole sentences -- never where a nereval
chunk runs on into the next sentence -- counted in N processes, the counts added: the report of one process in
every format; a shard's error is the whole file's; two-file mode is read in one process."""
from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import numpy as np
import pytest

import ts_eval.germeval.files as evaluate
from ts_eval.core.corpus import Corpus, SideInfo, SpanSet
from ts_eval.errors import InputError, OptionError
from ts_eval.germeval.files import evaluate_germeval_file
from ts_eval.io.germeval import germeval_shards
from ts_eval.models.ts import ts_counts, ts_totals

FORMATS = ("table", "json", "markdown", "latex", "csv", "html", "nereval")
TAGS = ("O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORGpart", "I-ORG", "B-OTHderiv")


def sentence(s: int, rng: np.random.Generator) -> str:
    """A sentence of 2-6 tokens with tags drawn from TAGS on every row (ill-formed IOB2 included)."""
    rows = []
    for t in range(int(rng.integers(2, 7))):
        tags = [TAGS[int(k)] for k in rng.integers(0, len(TAGS), 4)]
        rows.append(f"{t + 1}\tw{s}_{t}\t" + "\t".join(tags) + "\n")
    return "".join(rows)


def corpus_text(n: int, seed: int = 7) -> str:
    """``n`` sentences, each after a '#' line or a blank line (many start with I- after a tag: runs on), and a
    correct chunk on the very last token (the end-of-input rule)."""
    rng = np.random.default_rng(seed)
    parts = [(f"#\tsource {s}\n" if s % 3 == 0 else "\n") + sentence(s, rng) for s in range(n)]
    return "".join(parts) + "\n1\tend\tO\tO\tO\tO\n2\tRom\tB-LOC\tO\tB-LOC\tO\n"


@pytest.fixture
def small_shards(monkeypatch) -> List[int]:
    """Shards of any size (a test file is far below MIN_SHARD_BYTES); records how many each cut gave."""
    monkeypatch.setattr(evaluate, "MIN_SHARD_BYTES", 1)
    given: List[int] = []
    real = evaluate.germeval_shards
    monkeypatch.setattr(evaluate, "germeval_shards", lambda *a: given.append(len(real(*a) or [])) or real(*a))
    return given


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def runs_on_at(raw: bytes, cut: int) -> bool:
    """Whether a nereval chunk runs on over byte ``cut``: the token lines either side of it."""
    def token_lines(text: bytes) -> List[List[bytes]]:
        return [ln.split(b"\t") for ln in text.split(b"\n") if ln.strip() and not ln.startswith(b"#")]
    before, after = token_lines(raw[:cut])[-1], token_lines(raw[cut:])[0]
    return any(t.startswith(b"I-") and p != b"O" for p, t in zip(before[2:6], after[2:6]))


def test_shards_are_whole_sentences_and_cut_no_chunk(tmp_path):
    path = write(tmp_path / "c.tsv", corpus_text(300))
    raw = Path(path).read_bytes()
    runs_on = [m.start() + 1 for m in re.finditer(rb"\n(?=\n|#)", raw) if runs_on_at(raw, m.start() + 1)]
    assert len(runs_on) > 50            # the fixture has many places where a cut would cut a chunk
    for n in (2, 3, 7):
        shards = germeval_shards(path, n)
        assert shards is not None and len(shards) == n
        assert shards[0][0] == 0 and shards[-1][1] == len(raw)
        for (_, b), (c, _) in zip(shards, shards[1:]):
            assert b == c and raw[b - 1:b] == b"\n" and raw[b:b + 1] in (b"\n", b"#")
            assert not runs_on_at(raw, b)
    # conlleval chunks end at sentence ends: any sentence end will do, also where nereval's run on
    cuts = {b for n in range(2, 40) for _, b in germeval_shards(path, n, "conlleval") or []}
    assert cuts & set(runs_on)


def test_shards_skip_every_place_a_chunk_runs_on(tmp_path):
    # sentences 2 and 3 start with I- after B-/I- (gold outer): a chunk runs on; before 4 and 5 one may cut
    text = ("1\ta\tB-PER\tO\tO\tO\n\n1\tb\tI-PER\tO\tO\tO\n\n1\tc\tI-PER\tO\tO\tI-LOC\n\n"
            "1\td\tO\tO\tO\tO\n\n1\te\tO\tO\tO\tO\n")
    path = write(tmp_path / "r.tsv", text)
    allowed = [text.index("\n\n1\td") + 1, text.index("\n\n1\te") + 1]
    for n in (2, 3, 4):
        shards = germeval_shards(path, n)
        assert shards is not None and 2 <= len(shards) <= 3
        assert {b for _, b in shards[:-1]} <= set(allowed) and shards[-1][1] == len(text)
    assert germeval_shards(path, 3) == [(0, allowed[0]), (allowed[0], allowed[1]), (allowed[1], len(text))]
    assert germeval_shards(write(tmp_path / "one.tsv", "1\ta\tO\tO\tO\tO\n"), 2) is None
    assert germeval_shards(path, 1) is None


@pytest.mark.parametrize("fmt", FORMATS)
def test_jobs_give_the_report_of_one_process_in_every_format(tmp_path, small_shards, fmt):
    from ts_eval.cli import main

    path = write(tmp_path / "c.tsv", corpus_text(400))
    outs = []
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"out{jobs}.{fmt}"
        assert main(["germeval", path, "--format", fmt, "--jobs", jobs, "-o", str(out)]) == 0
        text = out.read_text(encoding="utf-8")
        if fmt == "html":       # (the page shows the command line, which names --jobs and the output)
            command = re.findall(r'<pre class="command"><code>.*?</code></pre>', text)
            assert len(command) == 1 and f"--jobs {jobs}" in command[0]
            text = text.replace(command[0], "")
        outs.append(text)
    assert small_shards == [2, 3]
    assert outs[1] == outs[0] and outs[2] == outs[0]


@pytest.mark.parametrize("options", [{}, {"policy": "conlleval"}, {"policy": "discard", "fair": False},
                                     {"eof_quirk": False, "separator_weight": 0.5, "beta": 2.0}])
def test_library_jobs_every_option(tmp_path, small_shards, options):
    path = write(tmp_path / "c.tsv", corpus_text(250, seed=3))
    one = evaluate_germeval_file(path, **options).to_dict()
    assert one["systems"][0]["germeval"]["levels"]["outer"]["strict"]["eof_dropped"] == \
        (0 if options.get("eof_quirk") is False else 1)
    for jobs in (2, 4):
        assert evaluate_germeval_file(path, jobs=jobs, **options).to_dict() == one
    assert small_shards == [2, 4]


def test_a_shards_error_is_the_whole_files_first(tmp_path, small_shards):
    text = corpus_text(300)
    lines = text.split("\n")
    bad = len(lines) - 20
    while lines[bad].startswith("#") or not lines[bad]:
        bad -= 1
    lines[bad] = lines[bad].rsplit("\t", 1)[0] + "\tB-MISC"            # late: in the last shard
    path = write(tmp_path / "bad.tsv", "\n".join(lines))
    errors: List[Tuple[str, int]] = []
    for jobs in (1, 3):
        with pytest.raises(InputError) as err:
            evaluate_germeval_file(path, jobs=jobs)
        errors.append((str(err.value), err.value.line))
    assert errors[0] == errors[1] and errors[0][1] == bad + 1 and small_shards == [3]


@pytest.mark.parametrize("value", ["0", "-2", "x", "1.5"])
def test_a_bad_jobs_value_is_a_usage_error(tmp_path, capsys, value):
    from ts_eval.cli import main

    path = write(tmp_path / "c.tsv", corpus_text(5))
    assert main(["germeval", path, "--jobs", value]) == 2
    assert f"argument --jobs: expected a whole number of processes >= 1, got '{value}'" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", True])
def test_library_jobs_must_be_a_whole_number(tmp_path, jobs):
    path = write(tmp_path / "c.tsv", corpus_text(5))
    with pytest.raises(OptionError, match="jobs"):
        evaluate_germeval_file(path, jobs=jobs)


def test_two_file_mode_is_read_in_one_process(tmp_path, small_shards):
    from ts_eval.cli import main

    text = corpus_text(100)
    gold = "".join("\t".join(ln.split("\t")[:4]) + "\n" if ln and not ln.startswith("#") else ln + "\n"
                   for ln in text.split("\n")[:-1])
    system = "".join("\t".join(ln.split("\t")[:2] + ln.split("\t")[4:]) + "\n" if ln and not ln.startswith("#")
                     else ln + "\n" for ln in text.split("\n")[:-1])
    g, s = write(tmp_path / "g.tsv", gold), write(tmp_path / "s.tsv", system)
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"o{jobs}.json"
        assert main(["germeval", "--gold", g, "--system", s, "--format", "json", "--jobs", jobs, "-o", str(out)]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1] and small_shards == []


def test_ts_totals_are_the_column_sums_of_the_per_sentence_counts():
    # two sentences (tokens 0-4, 5-9), two labels; nested and overlapping spans on both sides
    offsets = np.array([0, 5, 10])
    gold = SpanSet(np.array([0, 1, 2, 5, 6]), np.array([2, 1, 4, 7, 9]), np.array([0, 1, 0, 1, 1], np.int32))
    system = SpanSet(np.array([0, 2, 5, 8]), np.array([1, 4, 6, 9]), np.array([0, 0, 1, 0], np.int32))
    corpus = Corpus(offsets, ["A", "B"], gold.sorted(), {"s": system.sorted()}, SideInfo("gold", None),
                    {"s": SideInfo("s", None)})
    want = ts_counts(corpus, corpus.gold, corpus.systems["s"])
    got = ts_totals(corpus.gold, corpus.systems["s"], 2, 10, 8)
    assert np.array_equal(got.tok, want.tok) and np.array_equal(got.sep, want.sep)
    assert (got.n_tokens, got.n_separators) == (10, 8)
    assert (got.confusion is None) == (want.confusion is None)
    # label A: gold tokens 0-4 (merged), system 0-1, 2-4 and 8-9: tokens TP 5 FP 2, separators
    # TP 3 FP 1 (8-9) FN 1 (1-2 is not shared)
    assert got.tok[0].tolist() == [5, 2, 0] and got.sep[0].tolist() == [3, 1, 1]
