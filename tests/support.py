"""Helpers shared by the tests: an independent unit-vector reference for the TS model,
an independent reading of conlleval.pl's rules, and CLI plumbing.

Nothing here imports ts_eval's internals: the references are written from the papers
(Esuli & Sebastiani 2010, section 4) and from conlleval.pl's documented behaviour, so
they can check the package rather than repeat it.
"""
from __future__ import annotations

import contextlib
import re
import warnings
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

import numpy as np

FIXTURES = Path(__file__).parent / "fixtures"
CONLLEVAL_FIXTURES = FIXTURES / "conlleval"

Span = Tuple[str, int, int]     # (label, start, end), end exclusive, as ts_eval's API takes spans


@contextlib.contextmanager
def expect_warnings(*expected: Tuple[type, str]) -> Iterator[list]:
    """The block raises each warning of ``expected`` (a class and a regular expression its message matches)
    and no other: a test that causes warnings asserts them, so that the suite's summary lists none."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught

    def fits(w: warnings.WarningMessage, cls: type, pattern: str) -> bool:
        return issubclass(w.category, cls) and re.search(pattern, str(w.message)) is not None

    unexpected = [f"{w.category.__name__}: {w.message}" for w in caught
                  if not any(fits(w, cls, pattern) for cls, pattern in expected)]
    missing = [(cls.__name__, pattern) for cls, pattern in expected if not any(fits(w, cls, pattern) for w in caught)]
    assert not unexpected and not missing, (unexpected, missing)


# ---------------------------------------------------------------------------
# the TS model, unit by unit

def unit_matrix(lengths: Sequence[int], spans: Sequence[Sequence[Span]], labels: Sequence[str]) -> np.ndarray:
    """Binary matrix (units x labels): unit 2i is token i, unit 2i+1 the separator after it.

    A sentence of n tokens contributes 2n-1 units; a span (b, e) (tokens b..e-1) covers units 2b..2e-2.
    """
    col = {lab: k for k, lab in enumerate(labels)}
    blocks = []
    for n, sent in zip(lengths, spans):
        m = np.zeros((2 * n - 1, len(labels)), dtype=int)
        for lab, b, e in sent:
            m[2 * b: 2 * e - 1, col[lab]] = 1
        blocks.append(m)
    return np.concatenate(blocks) if blocks else np.zeros((0, len(labels)), int)


def unit_weights(lengths: Sequence[int], separator_weight: float) -> np.ndarray:
    """Weight of every unit: 1 for tokens, ``separator_weight`` for separators."""
    return np.concatenate([np.where(np.arange(2 * n - 1) % 2 == 0, 1.0, separator_weight) for n in lengths])


def unit_classes(lengths: Sequence[int], spans: Sequence[Sequence[Span]], labels: Sequence[str]) -> np.ndarray:
    """Class per unit for single-tag data: 0 = outside, k+1 = labels[k]."""
    m = unit_matrix(lengths, spans, labels)
    assert (m.sum(axis=1) <= 1).all(), "not single-tag data"
    return np.where(m.any(axis=1), m.argmax(axis=1) + 1, 0)


# ---------------------------------------------------------------------------
# tag sequences <-> spans (IOB2, written out by hand for the tests)

def iob2(n: int, spans: Sequence[Span]) -> List[str]:
    tags = ["O"] * n
    for lab, b, e in spans:
        tags[b] = f"B-{lab}"
        for k in range(b + 1, e):
            tags[k] = f"I-{lab}"
    return tags


def random_spans(rng: np.random.Generator, n: int, labels: Sequence[str], overlapping: bool) -> List[Span]:
    """Random spans in a sentence of n tokens; non-overlapping unless asked."""
    out: List[Span] = []
    if overlapping:
        for _ in range(int(rng.integers(0, 4))):
            b = int(rng.integers(0, n))
            e = int(rng.integers(b, min(n, b + 4)))
            sp = (str(rng.choice(labels)), b, e + 1)
            if sp not in out:
                out.append(sp)
        return out
    k = 0
    while k < n:
        if rng.random() < 0.35:
            e = min(n - 1, k + int(rng.integers(0, 3)))       # the last token
            out.append((str(rng.choice(labels)), k, e + 1))
            k = e + 1 + int(rng.integers(0, 2))
        else:
            k += 1
    return out


# ---------------------------------------------------------------------------
# conlleval.pl's rules, read from its documentation and the project's fixtures

def _split(tag: str) -> Tuple[str, str]:
    """conlleval.pl: prefix up to the first hyphen, the rest is the type; Perl-false '0' is ''."""
    if "-" in tag:
        head, typ = tag.split("-", 1)
    else:
        head, typ = tag, ""
    return head, ("" if typ in ("", "0") else typ)


def _ends(prev: str, tag: str, ptype: str, typ: str) -> bool:
    if (prev, tag) in {("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"), ("E", "O")}:
        return True
    if prev not in ("O", ".") and ptype != typ:
        return True
    return prev in ("[", "]")


def _starts(prev: str, tag: str, ptype: str, typ: str) -> bool:
    if (prev, tag) in {("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"), ("O", "E")}:
        return True
    if tag not in ("O", ".") and ptype != typ:
        return True
    return tag in ("[", "]")


def conlleval_reference(text: str) -> str:
    """What conlleval.pl prints for a ``TOKEN ... GOLD GUESS`` file (space-separated).

    A blank line or a line whose first field is ``-X-`` is a boundary (tags O O, not a
    token); every other line, ``-DOCSTART-`` included, is a token.  A chunk is counted
    correct when both sides start it at the same token with the same type, keep the
    same type, and both see a chunk end at the same place.
    """
    counts: Dict[str, Dict[str, int]] = {"gold": {}, "found": {}, "correct": {}}
    tokens = tags_ok = 0
    lc, lct, lg, lgt = "O", "", "O", ""
    in_correct = False

    def bump(kind: str, typ: str) -> None:
        counts[kind][typ] = counts[kind].get(typ, 0) + 1

    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
        feats = line.split(" ") if line else []
        if not feats or feats[0] == "-X-":
            feats = ["-X-", "O", "O"]
        g, gt = _split(feats[-1])
        c, ct = _split(feats[-2])
        boundary = feats[0] == "-X-"
        if boundary:
            g = "O"
        if in_correct:
            ec, eg = _ends(lc, c, lct, ct), _ends(lg, g, lgt, gt)
            if ec and eg and lgt == lct:
                in_correct = False
                bump("correct", lct)
            elif ec != eg or gt != ct:
                in_correct = False
        sc, sg = _starts(lc, c, lct, ct), _starts(lg, g, lgt, gt)
        if sc and sg and gt == ct:
            in_correct = True
        if sc:
            bump("gold", ct)
        if sg:
            bump("found", gt)
        if not boundary:
            tokens += 1
            tags_ok += c == g and gt == ct
        lg, lc, lgt, lct = g, c, gt, ct
    if in_correct:
        bump("correct", lct)

    G, F, C = (sum(counts[k].values()) for k in ("gold", "found", "correct"))
    p = 100 * C / F if F > 0 else 0.0
    r = 100 * C / G if G > 0 else 0.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    out = [f"processed {tokens} tokens with {G} phrases; found: {F} phrases; correct: {C}.\n"]
    if tokens > 0:
        out.append("accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"
                   % (100 * tags_ok / tokens, p, r, f))
    names, last = [], None
    for t in sorted(list(counts["gold"]) + list(counts["found"])):
        if not last or last != t:  # Perl: an empty previous name is false, so "" repeats
            names.append(t)
        last = t
    for t in names:
        cc, fo, go = counts["correct"].get(t, 0), counts["found"].get(t, 0), counts["gold"].get(t, 0)
        p = 100 * cc / fo if fo else 0.0
        r = 100 * cc / go if go else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        pad = " " * max(0, 17 - len(t.encode("utf-8")))  # Perl pads bytes, not characters
        out.append(pad + t + ": precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n" % (p, r, f, fo))
    return "".join(out)


# ---------------------------------------------------------------------------
# CLI plumbing

def run_cli(argv: Sequence[str], capsys) -> Tuple[int, str, str]:
    """Run ``ts-eval argv`` in-process; returns (exit code, stdout, stderr)."""
    from ts_eval.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse exits on bad usage and --version
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def fails(capsys, argv: Sequence[str], code: int, *needles: str) -> str:
    """Run and check: exit ``code``, one line on stderr naming every needle, nothing on stdout."""
    got, out, err = run_cli(argv, capsys)
    assert got == code, (got, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, (n, err)
    return err


def write(path: Path, text: str) -> str:
    path.write_bytes(text.encode("utf-8"))
    return str(path)


# ---------------------------------------------------------------------------
# the same spans written in every input format

Sentence = Tuple[List[str], List[Tuple[int, int, str]]]   # tokens, spans (first token, end exclusive, label)


def _iob2_tags(n: int, spans) -> List[str]:
    tags = ["O"] * n
    for b, e, lab in spans:
        assert all(t == "O" for t in tags[b:e]), "one IOB column cannot hold overlapping spans"
        tags[b:e] = [f"B-{lab}"] + [f"I-{lab}"] * (e - b - 1)
    return tags


def _char_offsets(tokens: List[str]) -> List[int]:
    """Where each token starts in its tokens joined by single spaces."""
    out, at = [], 0
    for t in tokens:
        out.append(at)
        at += len(t) + 1
    return out


def write_sentences(folder: Path, fmt: str, name: str, sents: Sequence[Sentence]) -> str:
    """``sents`` as one input of format ``fmt`` named ``name`` in ``folder``: one sentence per document
    (ids s1, s2, ...; texts are the tokens joined by single spaces).  Returns the path."""
    import json

    if fmt == "columns":
        return write(folder / f"{name}.conll", "\n".join("".join(f"{t} {g}\n" for t, g in
                                                                 zip(toks, _iob2_tags(len(toks), spans)))
                                                         for toks, spans in sents))
    if fmt == "conllu":
        return write(folder / f"{name}.conllu", "".join(
            f"# sent_id = s{k + 1}\n" + "".join(f"{j + 1}\t{t}\t_\t_\t_\t_\t_\t_\t_\tNER={g}\n" for j, (t, g) in
                                                enumerate(zip(toks, _iob2_tags(len(toks), spans)))) + "\n"
            for k, (toks, spans) in enumerate(sents)))
    if fmt == "jsonl-tokens":
        return write(folder / f"{name}.jsonl", "".join(json.dumps(
            {"id": f"s{k + 1}", "tokens": toks, "spans": [{"start": b, "end": e, "label": lab} for b, e, lab in spans]})
            + "\n" for k, (toks, spans) in enumerate(sents)))
    texts, chars = [" ".join(toks) for toks, _ in sents], []
    for toks, spans in sents:
        at = _char_offsets(toks)
        chars.append([(at[b], at[e - 1] + len(toks[e - 1]), lab) for b, e, lab in spans])
    if fmt == "jsonl-text":
        return write(folder / f"{name}.json", "".join(json.dumps(
            {"id": f"s{k + 1}", "text": text, "spans": [{"start": b, "end": e, "label": lab} for b, e, lab in cs]})
            + "\n" for k, (text, cs) in enumerate(zip(texts, chars))))
    assert fmt == "brat", fmt
    d = folder / name
    d.mkdir()
    for k, (text, cs) in enumerate(zip(texts, chars)):
        (d / f"s{k + 1}.txt").write_text(text, encoding="utf-8")
        (d / f"s{k + 1}.ann").write_text("".join(f"T{j + 1}\t{lab} {b} {e}\t{text[b:e]}\n"
                                                 for j, (b, e, lab) in enumerate(cs)), encoding="utf-8")
    return str(d)


def fit_check(text: str, width: int) -> Tuple[int, str]:
    """(widest line, that line) of rendered text, in terminal cells."""
    from ts_eval.output.renderers.text import cell_len

    lines = text.split("\n")
    w = max(lines, key=cell_len)
    return cell_len(w), w


def statistics_entries(st: object) -> List[Tuple[int, int, float]]:
    """Every span contribution (span, column, weight) of analyze's statistics: sorted when made from the spans'
    patterns (whole numbers, summed in any order), else in the order kept (fractions, summed in that order)."""
    s: object = st
    if s.span_pattern is None:
        return list(zip(*(getattr(s, n).tolist() for n in ("entry_span", "entry_col", "entry_weight"))))
    made = s.entries_of(np.arange(int(s.span_offset[-1])))
    return sorted(zip(*(x.tolist() for x in made)))
