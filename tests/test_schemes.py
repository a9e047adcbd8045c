"""Tagging schemes: equivalent encodings decode to the same spans; auto detection;
hyphenated labels; policies conlleval / strict / discard on ill-formed sequences."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import run_cli, write

import ts_eval
from ts_eval.core import schemes
from ts_eval.core.sequences import from_sequences
from ts_eval.errors import InputError

# ten tokens; two adjacent PER spans (only B-/E-/U-/S- style prefixes can separate them)
SPANS = [("PER", 0, 1), ("PER", 2, 2), ("LOC", 4, 6), ("ORG", 7, 7), ("ARGM-LOC", 8, 9)]
ENCODINGS = {
    "IOB2": "B-PER I-PER B-PER O B-LOC I-LOC I-LOC B-ORG B-ARGM-LOC I-ARGM-LOC",
    "IOB1": "I-PER I-PER B-PER O I-LOC I-LOC I-LOC I-ORG I-ARGM-LOC I-ARGM-LOC",
    "IOE1": "I-PER E-PER I-PER O I-LOC I-LOC I-LOC I-ORG I-ARGM-LOC I-ARGM-LOC",
    "IOE2": "I-PER E-PER E-PER O I-LOC I-LOC E-LOC E-ORG I-ARGM-LOC E-ARGM-LOC",
    "IOBES": "B-PER E-PER S-PER O B-LOC I-LOC E-LOC S-ORG B-ARGM-LOC E-ARGM-LOC",
    "BILOU": "B-PER L-PER U-PER O B-LOC I-LOC L-LOC U-ORG B-ARGM-LOC L-ARGM-LOC",
}
# IO cannot separate adjacent spans of one label: its own example
IO_TAGS = "I-PER I-PER O I-LOC I-ARGM-LOC I-ARGM-LOC".split()
IO_SPANS = [("PER", 0, 1), ("LOC", 3, 3), ("ARGM-LOC", 4, 5)]


def spans_of(corpus, side="gold"):
    ss = corpus.gold if side == "gold" else corpus.systems[side]
    return sorted((corpus.labels[lab], int(b), int(e)) for b, e, lab in zip(ss.start, ss.last, ss.label))


@pytest.mark.parametrize("scheme", list(ENCODINGS))
def test_equivalent_encodings_decode_to_the_same_spans(scheme):
    tags = ENCODINGS[scheme].split()
    corpus = from_sequences([tags], [tags], scheme=scheme)
    assert spans_of(corpus) == sorted(SPANS)
    assert spans_of(corpus, "system") == sorted(SPANS)
    assert corpus.gold_info.repairs == 0
    assert corpus.scheme == scheme


def test_io_scheme():
    corpus = from_sequences([IO_TAGS], [IO_TAGS], scheme="IO")
    assert spans_of(corpus) == sorted(IO_SPANS)
    # in IO, I-PER I-PER is one span even where IOB2 would see two
    corpus = from_sequences([["I-PER", "I-PER", "I-LOC"]], [["I-PER", "O", "I-LOC"]], scheme="IO")
    assert spans_of(corpus) == [("LOC", 2, 2), ("PER", 0, 1)]
    assert spans_of(corpus, "system") == [("LOC", 2, 2), ("PER", 0, 0)]


@pytest.mark.parametrize("scheme", list(ENCODINGS))
def test_scores_across_encodings_are_identical(scheme):
    # the IOB2 system against the IOB2 gold and the same pair re-encoded must score alike
    gold_iob2 = ENCODINGS["IOB2"].split()
    sys_iob2 = "B-PER I-PER I-PER O B-LOC I-LOC O B-LOC B-ARGM-LOC I-ARGM-LOC".split()
    ref = ts_eval.score([gold_iob2], [sys_iob2])
    enc = {
        "IOB2": sys_iob2,
        "IOB1": "I-PER I-PER I-PER O I-LOC I-LOC O I-LOC I-ARGM-LOC I-ARGM-LOC".split(),
        "IOE1": "I-PER I-PER I-PER O I-LOC I-LOC O I-LOC I-ARGM-LOC I-ARGM-LOC".split(),
        "IOE2": "I-PER I-PER E-PER O I-LOC E-LOC O E-LOC I-ARGM-LOC E-ARGM-LOC".split(),
        "IOBES": "B-PER I-PER E-PER O B-LOC E-LOC O S-LOC B-ARGM-LOC E-ARGM-LOC".split(),
        "BILOU": "B-PER I-PER L-PER O B-LOC L-LOC O U-LOC B-ARGM-LOC L-ARGM-LOC".split(),
    }[scheme]
    got = ts_eval.score([ENCODINGS[scheme].split()], [enc], scheme=scheme)
    for model in ("ts", "exact"):
        assert got.systems[0][model]["labels"] == ref.systems[0][model]["labels"]
        assert got.systems[0][model]["micro"] == ref.systems[0][model]["micro"]
    # system spans PER 0-2, LOC 4-5, LOC 7, ARGM-LOC 8-9: only ARGM-LOC is exact
    ex = got.systems[0]["exact"]["micro"]
    assert (ex["gold"], ex["system"], ex["tp"]) == (5, 4, 1)
    per = got.systems[0]["ts"]["labels"]["PER"]
    # PER 0-2 covers both gold PER spans and the separator between them (FP)
    assert (per["tp"], per["fp"], per["fn"]) == (4, 1, 0)


def test_scheme_aliases():
    tags = ENCODINGS["IOBES"].split()
    assert from_sequences([tags], [tags], scheme="BIOES").scheme == "IOBES"
    assert from_sequences([tags], [tags], scheme="iobes").scheme == "IOBES"
    tags = ENCODINGS["IOB2"].split()
    assert from_sequences([tags], [tags], scheme="BIO").scheme == "IOB2"


@pytest.mark.parametrize("scheme", list(ENCODINGS))
def test_auto_detection_finds_the_scheme(scheme):
    tags = ENCODINGS[scheme].split()
    corpus = from_sequences([tags], [tags], scheme="auto")
    assert corpus.scheme == scheme
    assert corpus.scheme_requested == "auto"
    assert spans_of(corpus) == sorted(SPANS)
    rep = ts_eval.score([tags], [tags], scheme="auto")
    assert rep.settings["scheme"] == scheme
    assert rep.settings["scheme_requested"] == "auto"


def test_auto_detection_io():
    corpus = from_sequences([IO_TAGS], [IO_TAGS], scheme="auto")
    assert corpus.scheme == "IO"
    assert spans_of(corpus) == sorted(IO_SPANS)


def test_auto_detection_uses_every_side():
    # gold alone looks like IOB1 (B- only after the same label); the system's fresh B- says IOB2
    gold = ["I-PER", "B-PER", "O"]
    pred = ["B-PER", "O", "O"]
    assert from_sequences([gold], [pred], scheme="auto").scheme == "IOB2"


def test_auto_detection_is_reported_by_the_cli(tmp_path, capsys):
    path = write(tmp_path / "bilou.conll", "a U-PER U-PER\nb B-LOC B-LOC\nc L-LOC L-LOC\n")
    code, out, err = run_cli(["score", "--scheme", "auto", path], capsys)
    assert code == 0, err
    assert "scheme BILOU (detected)" in out
    code, out, _ = run_cli(["score", "--scheme", "auto", "--format", "json", path], capsys)
    import json
    settings = json.loads(out)["settings"]
    assert (settings["scheme"], settings["scheme_requested"]) == ("BILOU", "auto")


@pytest.mark.parametrize("scheme", ["IOB2", "IOB1", "IOBES", "BILOU", "IOE2", "conlleval"])
def test_labels_with_hyphens(scheme):
    tags = {"IOB2": ["B-ARGM-LOC", "I-ARGM-LOC", "B-ARG0"], "IOB1": ["I-ARGM-LOC", "I-ARGM-LOC", "I-ARG0"],
            "IOBES": ["B-ARGM-LOC", "E-ARGM-LOC", "S-ARG0"], "BILOU": ["B-ARGM-LOC", "L-ARGM-LOC", "U-ARG0"],
            "IOE2": ["I-ARGM-LOC", "E-ARGM-LOC", "E-ARG0"], "conlleval": ["B-ARGM-LOC", "I-ARGM-LOC", "B-ARG0"]}[scheme]
    corpus = from_sequences([tags], [tags], scheme=scheme)
    assert corpus.labels == ["ARG0", "ARGM-LOC"]
    assert spans_of(corpus) == [("ARG0", 2, 2), ("ARGM-LOC", 0, 1)]


# ---------------------------------------------------------------------------
# ill-formed sequences and policies

# (scheme, tags, spans kept by policy conlleval, spans kept by policy discard, ill-formed count)
ILL_FORMED = [
    ("IOB2", "O I-PER I-PER O", [("PER", 1, 2)], [], 1),
    ("IOB2", "B-PER I-LOC O", [("LOC", 1, 1), ("PER", 0, 0)], [("PER", 0, 0)], 1),
    ("IOB1", "O B-PER I-PER", [("PER", 1, 2)], [], 1),
    ("IOB1", "I-PER B-PER I-LOC", [("LOC", 2, 2), ("PER", 0, 0), ("PER", 1, 1)],
     [("LOC", 2, 2), ("PER", 0, 0), ("PER", 1, 1)], 0),
    ("IOE1", "I-PER E-PER O", [("PER", 0, 1)], [], 1),
    ("IOE2", "I-PER I-PER O E-LOC", [("LOC", 3, 3), ("PER", 0, 1)], [("LOC", 3, 3)], 1),
    ("IOBES", "B-PER O E-LOC I-ORG S-PER", [("LOC", 2, 2), ("ORG", 3, 3), ("PER", 0, 0), ("PER", 4, 4)],
     [("PER", 4, 4)], 3),
    ("IOBES", "B-PER I-PER I-PER E-PER", [("PER", 0, 3)], [("PER", 0, 3)], 0),
    ("BILOU", "B-PER I-PER O L-LOC U-LOC", [("LOC", 3, 3), ("LOC", 4, 4), ("PER", 0, 1)], [("LOC", 4, 4)], 2),
]


@pytest.mark.parametrize("scheme,tags,kept,discard_kept,n_bad", ILL_FORMED)
def test_policy_conlleval_repairs_and_counts(scheme, tags, kept, discard_kept, n_bad):
    seq = tags.split()
    corpus = from_sequences([seq], [["O"] * len(seq)], scheme=scheme, policy="conlleval")
    assert spans_of(corpus) == kept
    assert corpus.gold_info.repairs == n_bad
    assert corpus.gold_info.discarded == 0
    assert corpus.system_info["system"].repairs == 0


@pytest.mark.parametrize("scheme,tags,kept,discard_kept,n_bad", ILL_FORMED)
def test_policy_discard_drops_and_counts(scheme, tags, kept, discard_kept, n_bad):
    seq = tags.split()
    corpus = from_sequences([["O"] * len(seq)], [seq], scheme=scheme, policy="discard")
    assert spans_of(corpus, "system") == discard_kept
    assert corpus.system_info["system"].discarded == n_bad
    assert corpus.system_info["system"].repairs == 0


@pytest.mark.parametrize("scheme,tags,kept,discard_kept,n_bad", ILL_FORMED)
def test_policy_strict_raises_on_ill_formed(scheme, tags, kept, discard_kept, n_bad):
    seq = tags.split()
    if n_bad == 0:
        corpus = from_sequences([seq], [seq], scheme=scheme, policy="strict")
        assert spans_of(corpus) == kept
        return
    with pytest.raises(InputError, match="ill-formed"):
        from_sequences([seq], [seq], scheme=scheme, policy="strict")


def test_policy_counts_are_per_side_in_the_report():
    gold = [["O", "I-PER", "I-PER", "O", "B-LOC"]]
    pred = [["B-PER", "I-LOC", "O", "O", "I-LOC"]]
    rep = ts_eval.score(gold, pred, policy="conlleval")
    assert rep.gold["repairs"] == 1
    assert rep.systems[0]["source"]["repairs"] == 2
    assert rep.settings["policy"] == "conlleval"
    ex = rep.systems[0]["exact"]["labels"]
    # gold PER 1-2, LOC 4; system PER 0, LOC 1, LOC 4
    assert (ex["LOC"]["gold"], ex["LOC"]["system"], ex["LOC"]["tp"]) == (1, 2, 1)
    assert (ex["PER"]["gold"], ex["PER"]["system"], ex["PER"]["tp"]) == (1, 1, 0)
    rep = ts_eval.score(gold, pred, policy="discard")
    assert (rep.gold["discarded"], rep.systems[0]["source"]["discarded"]) == (1, 2)
    assert (rep.gold["repairs"], rep.systems[0]["source"]["repairs"]) == (0, 0)
    ex = rep.systems[0]["exact"]["labels"]
    # gold keeps LOC 4 only, the system keeps PER 0 only
    assert (ex["LOC"]["gold"], ex["LOC"]["system"], ex["LOC"]["tp"]) == (1, 0, 0)
    assert (ex["PER"]["gold"], ex["PER"]["system"], ex["PER"]["tp"]) == (0, 1, 0)


def test_strict_error_names_file_line_and_tag(tmp_path, capsys):
    path = write(tmp_path / "ill.conll", "a O O\nb B-PER B-PER\n\nc O O\nd O I-LOC\n")
    code, _out, err = run_cli(["score", "--policy", "strict", path], capsys)
    assert code == 1
    assert err.count("\n") == 1
    assert f"{path}:5:" in err
    assert "'I-LOC'" in err
    assert "strict" in err


def test_strict_error_on_the_gold_side_in_two_file_mode(tmp_path, capsys):
    gold = write(tmp_path / "g.conll", "a O\nb O\nc I-PER\n")
    sys_ = write(tmp_path / "s.conll", "a O\nb O\nc B-PER\n")
    code, _, err = run_cli(["score", "--policy", "strict", "--gold", gold, "--system", sys_], capsys)
    assert code == 1
    assert f"{gold}:3:" in err and "'I-PER'" in err and "gold" in err


def test_strict_iobes_error_points_at_the_offending_token(tmp_path, capsys):
    # B-PER I-PER without an E-PER: the span ends with I-, the error is at the last token
    path = write(tmp_path / "x.conll", "a B-PER B-PER\nb I-PER I-PER\nc O O\n")
    code, _, err = run_cli(["score", "--scheme", "IOBES", "--policy", "strict", path], capsys)
    assert code == 1
    assert f"{path}:2:" in err and "'I-PER'" in err


def test_tags_outside_the_scheme_are_errors():
    with pytest.raises(InputError, match="S-"):
        from_sequences([["S-PER"]], [["O"]], scheme="IOB2")
    with pytest.raises(InputError, match="E-"):
        from_sequences([["O"]], [["E-PER"]], scheme="IOB1")
    with pytest.raises(InputError, match="B-"):
        from_sequences([["B-PER"]], [["O"]], scheme="IO")


@pytest.mark.parametrize("tag", ["X-PER", "B_PER", "B-", "BB-PER", "PER", "b-PER", "-PER"])
def test_unknown_tag_shapes_are_errors(tag):
    with pytest.raises(InputError, match="bad tag"):
        from_sequences([["O", tag]], [["O", "O"]])


def test_unknown_scheme_and_policy():
    with pytest.raises(ValueError):
        from_sequences([["O"]], [["O"]], scheme="IOB3")
    with pytest.raises(ValueError):
        from_sequences([["O"]], [["O"]], policy="lenient")


def test_conlleval_scheme_decodes_like_conlleval():
    # I- after O opens, I-X after B-Y opens, B- after I- of the same type opens,
    # E- closes, bare B / I are type "", S- continues (conlleval knows no S)
    tags = "I-PER I-PER B-ORG I-LOC B-LOC B-LOC O B- I- B I S-PER S-PER".split()
    corpus = from_sequences([tags], [tags], scheme="conlleval")
    assert spans_of(corpus) == [("", 7, 8), ("", 9, 10), ("LOC", 3, 3), ("LOC", 4, 4), ("LOC", 5, 5),
                                ("ORG", 2, 2), ("PER", 0, 1), ("PER", 11, 12)]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(schemes.SCHEMES)), st.data())
def test_decoding_tag_ids_by_pairs_is_decoding_the_tags(scheme, data):
    # decode_tags reads a table of tag pairs; decode reads the per-token prefix codes and label ids
    sch = schemes.SCHEMES[scheme]
    vocab = [(p, lab) for p in [schemes.O, *(schemes.PREFIX_CODES[c] for c in sch.prefixes)] for lab in (0, 1, 2)
             if (p == schemes.O) == (lab == 0)]
    n = data.draw(st.integers(0, 60))
    tags = np.array(data.draw(st.lists(st.integers(0, len(vocab) - 1), min_size=n, max_size=n)), np.uint16)
    sent_first = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), bool)
    sent_first[:1] = True
    tag_prefix = np.array([p for p, _ in vocab], np.int8)
    tag_type = np.array([lab for _, lab in vocab], np.int16)
    want = schemes.decode(tag_prefix[tags], tag_type[tags], sent_first, scheme)
    got = schemes.decode_tags(tags, tag_prefix, tag_type, sent_first, scheme)
    for name in ("start", "last", "label", "ill_formed", "bad_token"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.tolist() == b.tolist(), name
    assert got.reason == want.reason
