"""Reading is one road (:class:`ts_eval.io.inputs.Inputs`, :mod:`ts_eval.io.join`): whole is one block of
unbounded size, so small corpora written in every input format -- a column file pair and a column file with
both sides, CoNLL-U, JSON Lines of tokens and of texts, a Label Studio export, brat collections, a generated
output as a system -- give the same report in blocks of one byte, of a few records, of the default size and
whole; inputs with faults (a bad tag or value, a malformed record or line, a token that differs, a document
missing or extra, an id given twice, ids on some documents only) give the same first error at every block
size.  By hand: which of two errors is the first (a bad tag before a difference, a difference before a bad
tag in its sentence, a file that cannot be read before a difference, gold before a system); ids on some
documents only is an error naming the first document that breaks the rule; documents that pair by id in
another order give the report of the same documents in order."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ts_eval
from ts_eval.errors import InputError
from ts_eval.io.inputs import Inputs
from ts_eval.streaming.files import count

Spans = List[Tuple[str, int, int]]          # (label, first token, end token exclusive)
LABELS = ["PER", "LOC", "ORG"]
#: every format a side is written in: "columns-file" is one column file with gold and the system
DOC_FORMATS = ["columns", "conllu", "jsonl-tokens", "jsonl-text", "label-studio", "brat"]
#: formats whose documents carry ids (brat: the file names, always)
WITH_IDS = {"conllu", "jsonl-tokens", "jsonl-text", "label-studio", "generated"}


@dataclasses.dataclass
class Doc:
    id: Optional[str]
    tokens: List[str]
    spans: Spans
    bad: bool = False           # written with a value its format rejects
    malformed: bool = False     # written with a record (line) its format cannot read


# ---------------------------------------------------------------------------
# writing a side in each format


def tags(doc: Doc) -> List[str]:
    out = ["O"] * len(doc.tokens)
    for lab, b, e in doc.spans:
        out[b:e] = [f"B-{lab}"] + [f"I-{lab}"] * (e - b - 1)
    if doc.bad:
        out[-1] = "Q-PER"
    return out


def offsets(doc: Doc) -> List[int]:
    """Where each token starts in the document's text (its tokens joined by spaces), and the text's end + 1."""
    return [sum(len(w) + 1 for w in doc.tokens[:t]) for t in range(len(doc.tokens) + 1)]


def char_spans(doc: Doc) -> List[Tuple[int, int, str]]:
    at = offsets(doc)
    out = [(at[b], at[e] - 1, lab) for lab, b, e in doc.spans]
    return out + [(0, at[-1] + 5, "PER")] if doc.bad else out       # a span beyond the text


def columns(docs: Sequence[Doc]) -> str:
    return "".join("".join(f"{w} {t}\n" for w, t in zip(d.tokens, tags(d))) + ("w x y\n" if d.malformed else "")
                   + "\n" for d in docs)


def conllu(docs: Sequence[Doc]) -> str:
    out = []
    for d in docs:
        out += [f"# sent_id = {d.id}"] if d.id is not None else []
        out += ["\t".join([str(k + 1), w, "_", "_", "_", "_", "0", "dep", "_", f"NER={t}"])
                for k, (w, t) in enumerate(zip(d.tokens, tags(d)))] + (["9\tw\t_"] if d.malformed else []) + [""]
    return "\n".join(out) + "\n"


def with_id(doc: Doc, record: Dict[str, Any]) -> Dict[str, Any]:
    return record if doc.id is None else {"id": doc.id, **record}


def dumps(doc: Doc, value: Any, **options: Any) -> str:
    """``value`` as JSON (``doc.malformed``: without its last character, a record that does not end)."""
    text = json.dumps(value, **options)
    return text[:-1] if doc.malformed else text


def jsonl_tokens(docs: Sequence[Doc]) -> str:
    return "".join(dumps(d, with_id(d, {"tokens": d.tokens, "tags": tags(d)})) + "\n" for d in docs)


def jsonl_text(docs: Sequence[Doc]) -> str:
    return "".join(dumps(d, with_id(d, {"text": " ".join(d.tokens), "spans": [
        {"start": b, "end": e, "label": lab} for b, e, lab in char_spans(d)]})) + "\n" for d in docs)


def label_studio(docs: Sequence[Doc]) -> str:
    tasks = [dumps(d, with_id(d, {"data": {"text": " ".join(d.tokens)}, "annotations": [{"result": [
        {"type": "labels", "value": {"start": b, "end": e, "labels": [lab]}} for b, e, lab in char_spans(d)]}]}),
        indent=1) for d in docs]
    return "[\n" + ",\n".join(tasks) + "\n]\n"


def generated(docs: Sequence[Doc]) -> str:
    out = []
    for d in docs:
        ents: List[List[str]] = [[" ".join(d.tokens[b:e]), lab] for lab, b, e in d.spans]
        ents += [["x"]] if d.bad else []
        out.append(dumps(d, ents if d.id is None else {"id": d.id, "entities": ents}))
    return "\n".join(out) + "\n"


def brat(folder: Path, docs: Sequence[Doc]) -> None:
    folder.mkdir()
    for k, d in enumerate(docs):
        stem = d.id if d.id is not None else f"d{k:03d}"
        lines = [f"T{j + 1}\t{lab} {b} {e}\t{' '.join(d.tokens)[b:e]}" for j, (b, e, lab) in enumerate(char_spans(d))
                 if not d.bad]
        lines += ["X9 not brat"] if d.bad else []
        lines += ["T9\tPER one two\tw"] if d.malformed else []
        (folder / f"{stem}.txt").write_text(" ".join(d.tokens), encoding="utf-8")
        (folder / f"{stem}.ann").write_text("".join(x + "\n" for x in lines), encoding="utf-8")


WRITERS = {"columns": columns, "conllu": conllu, "jsonl-tokens": jsonl_tokens, "jsonl-text": jsonl_text,
           "label-studio": label_studio, "generated": generated}
SUFFIX = {"columns": ".conll", "conllu": ".conllu", "jsonl-tokens": ".jsonl", "jsonl-text": ".jsonl",
          "label-studio": ".json", "generated": ".jsonl"}


def write_side(tmp: Path, name: str, fmt: str, docs: Sequence[Doc]) -> str:
    if fmt == "brat":
        brat(tmp / name, docs)
        return str(tmp / name)
    path = tmp / (name + SUFFIX[fmt])
    path.write_text(WRITERS[fmt](docs), encoding="utf-8")
    return str(path)


def column_file(tmp: Path, gold: Sequence[Doc], system: Sequence[Doc]) -> str:
    """One column file: token, gold's tag, the system's tag."""
    path = tmp / "both.conll"
    path.write_text("".join("".join(f"{w} {a} {b}\n" for w, a, b in zip(g.tokens, tags(g), tags(s)))
                            + ("w x\n" if g.malformed or s.malformed else "") + "\n"
                            for g, s in zip(gold, system)), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------
# corpora, faults, and what reading gives


@st.composite
def spans_of(draw: Any, n: int) -> Spans:
    out, t = [], 0
    while t < n:
        if draw(st.booleans()):
            e = min(n, t + draw(st.integers(1, 3)))
            out.append((draw(st.sampled_from(LABELS)), t, e))
            t = e
        else:
            t += 1
    return out


@st.composite
def corpora(draw: Any, min_docs: int = 1) -> Tuple[List[Doc], List[Doc]]:
    """Gold's documents (ids d000, ...) and a system's: the same tokens, spans of their own or gold's."""
    lengths = draw(st.lists(st.integers(1, 6), min_size=min_docs, max_size=6))
    gold = [Doc(f"d{k:03d}", [f"w{k}t{t}" for t in range(n)], draw(spans_of(n))) for k, n in enumerate(lengths)]
    system = [Doc(g.id, list(g.tokens), g.spans if draw(st.booleans()) else draw(spans_of(len(g.tokens))))
              for g in gold]
    return gold, system


def without_ids(docs: Sequence[Doc]) -> List[Doc]:
    return [dataclasses.replace(d, id=None) for d in docs]


def inputs_of(tmp: Path, gold_fmt: str, system_fmt: str, gold: Sequence[Doc], system: Sequence[Doc],
              ids: bool) -> Inputs:
    """The Inputs of gold and the system written in their formats (``ids``: documents carry ids where their
    format has them; gold's keep theirs when a generated system needs them to pair)."""
    if gold_fmt == "columns-file":
        return Inputs(file=column_file(tmp, gold, system), names=("sys",))
    if not ids:
        gold, system = without_ids(gold) if gold_fmt != "brat" else gold, without_ids(system)
    g = write_side(tmp, "gold", gold_fmt, gold)
    s = write_side(tmp, "sys", system_fmt, system)
    return Inputs(gold=g, systems=(s,), gold_format=gold_fmt, format=system_fmt)


Outcome = Union[Dict[str, Any], str]


def outcome(inputs: Inputs, block_bytes: Optional[int]) -> Outcome:
    """The report of ``inputs`` read in blocks of ``block_bytes`` (None: whole), or its error's message."""
    try:
        return count(dataclasses.replace(inputs, block_bytes=block_bytes)).report().to_dict()
    except InputError as err:
        return f"{err.path}:{err.line}: {err}"


SIZES = st.sampled_from([7, 40, 150])
DEFAULT = Inputs().block_bytes
FORMAT_PAIRS = ([(f, f) for f in DOC_FORMATS] + [("columns-file", "columns-file"), ("jsonl-text", "generated"),
                ("conllu", "generated"), ("brat", "generated")]
                + [(g, s) for g in DOC_FORMATS for s in DOC_FORMATS if g != s])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora(), st.sampled_from(FORMAT_PAIRS[:10]) | st.sampled_from(FORMAT_PAIRS), st.booleans(), SIZES)
def test_every_format_gives_one_report_at_every_block_size(tmp_path_factory, corpus, formats, ids, small):
    gold, system = corpus
    inputs = inputs_of(tmp_path_factory.mktemp("r"), *formats, gold, system, ids)
    whole = outcome(inputs, None)
    assert isinstance(whole, dict), whole
    assert whole["systems"][0]["exact"]["micro"]["gold"] == sum(len(d.spans) for d in gold)
    assert outcome(inputs, 1) == whole and outcome(inputs, small) == whole and outcome(inputs, DEFAULT) == whole
    assert ts_eval.score(inputs.corpus()).to_dict() == whole


#: the faults, each put into one side at one document: (name, formats it applies to)
FAULTS = {"bad": DOC_FORMATS + ["generated", "columns-file"], "malformed": DOC_FORMATS + ["generated", "columns-file"],
          "token": DOC_FORMATS,
          "missing": DOC_FORMATS + ["generated"], "extra": DOC_FORMATS + ["generated"],
          "twice": sorted(WITH_IDS), "mixed": sorted(WITH_IDS)}


def faulty(docs: List[Doc], fault: str, at: int) -> List[Doc]:
    """``docs`` with ``fault`` at document ``at``."""
    docs = list(docs)
    if not docs:
        return docs
    at = min(at, len(docs) - 1)
    d = docs[at]
    if fault == "bad":
        docs[at] = dataclasses.replace(d, bad=True)
    elif fault == "malformed":
        docs[at] = dataclasses.replace(d, malformed=True)
    elif fault == "token":
        docs[at] = dataclasses.replace(d, tokens=d.tokens[:-1] + ["zz"])
    elif fault == "missing":
        del docs[at]
    elif fault == "extra":
        docs.insert(at, Doc("extra", ["w", "x"], [("PER", 0, 1)]))
    elif fault == "twice":          # the document again, with its id
        docs.insert(at + 1, d)
    elif fault == "mixed":
        docs[at] = dataclasses.replace(d, id=None if d.id is not None else "odd")
    return docs


@st.composite
def faults(draw: Any) -> Tuple[List[Doc], List[Doc], Tuple[str, str], bool, List[Tuple[str, str, int]]]:
    gold, system = draw(corpora(2))       # (two documents at least: a document's id can differ from another's)
    formats = draw(st.sampled_from(FORMAT_PAIRS))
    ids = "generated" in formats or draw(st.booleans())
    put = []
    for side in draw(st.sampled_from([["gold"], ["system"], ["gold", "system"], ["system", "gold"]])):
        fmt = formats[0] if side == "gold" else formats[1]
        choices = [f for f, where in FAULTS.items() if fmt in where and (ids or f != "twice")
                   and not (fmt == "columns-file" and f not in ("bad", "malformed"))]
        if side == "gold":        # gold's faults that are not the system's are bad values, records and ids
            choices = [f for f in choices if f in ("bad", "malformed", "twice", "mixed")]
        if choices:
            put.append((side, draw(st.sampled_from(choices)), draw(st.integers(0, 5))))
    return gold, system, formats, ids, put


@settings(max_examples=800, deadline=None)
@given(faults(), SIZES)
def test_a_fault_gives_the_same_first_error_at_every_block_size(tmp_path_factory, case, small):
    gold, system, formats, ids, put = case
    gold_ids = ids or formats[0] == "brat"
    if not ids:
        gold, system = (without_ids(gold) if formats[0] != "brat" else gold), without_ids(system)
    for side, fault, at in put:
        if side == "gold":
            gold = faulty(gold, fault, at)
        else:
            system = faulty(system, fault, at)
    inputs = inputs_of(tmp_path_factory.mktemp("f"), *formats, gold, system, True)
    whole = outcome(inputs, None)
    assert outcome(inputs, 1) == whole and outcome(inputs, small) == whole and outcome(inputs, DEFAULT) == whole
    # every fault is an error, but a document given twice on both sides where they pair by order
    by_id = gold_ids and ids and formats[1] in WITH_IDS
    if put and (by_id or [f for _, f, _ in put] != ["twice", "twice"]):
        assert isinstance(whole, str), (put, formats, whole)


# ---------------------------------------------------------------------------
# by hand


def errors_at_every_size(inputs: Inputs, sizes: Sequence[Optional[int]] = (None, 1, 7, 40, 1 << 22)) -> str:
    """The error reading ``inputs`` gives, the same at every block size of ``sizes`` (None: whole)."""
    got = {size: outcome(inputs, size) for size in sizes}
    first = got[sizes[0]]
    assert isinstance(first, str) and all(v == first for v in got.values()), got
    return first


def two_docs() -> List[Doc]:
    return [Doc(f"d{k:03d}", [f"w{k}t0", f"w{k}t1"], [("PER", 0, 1)]) for k in range(3)]


def test_a_bad_tag_before_a_token_that_differs_is_the_first_error(tmp_path):
    """Gold's bad tag in a sentence before the one whose token differs: the bad tag, at gold's line, whether
    or not the two sentences are in one block."""
    gold, system = two_docs(), two_docs()
    gold[0].bad = True
    system[1] = dataclasses.replace(system[1], tokens=["w1t0", "zz"])
    err = errors_at_every_size(inputs_of(tmp_path, "columns", "columns", gold, system, False))
    assert err.endswith("gold.conll:2: bad tag 'Q-PER': expected O or PREFIX-LABEL with PREFIX one of B, I "
                        "(e.g. B-PER) (gold side)") and err.startswith(str(tmp_path / "gold.conll") + ":2: "), err


def test_a_token_that_differs_in_the_sentence_of_a_bad_tag_is_the_first_error(tmp_path):
    """A sentence whose token differs is not decoded: its bad tag is no error before the difference, whether
    or not sentences after it are in its block (a bad tag after the difference neither)."""
    gold, system = two_docs(), two_docs()
    gold[1].bad = gold[2].bad = True
    system[1] = dataclasses.replace(system[1], tokens=["w1t0", "zz"])
    err = errors_at_every_size(inputs_of(tmp_path, "columns", "columns", gold, system, False))
    assert err.endswith("token 'w1t1' (gold line 5) differs from 'zz' in sentence 2"), err
    assert err.startswith(str(tmp_path / "sys.conll") + ":5: "), err


@pytest.mark.parametrize("fmt", sorted(WITH_IDS - {"generated"}))
def test_ids_on_some_documents_only_name_the_first_that_breaks_the_rule(tmp_path, fmt):
    gold, system = two_docs(), two_docs()
    system[1] = dataclasses.replace(system[1], id=None)
    err = errors_at_every_size(inputs_of(tmp_path, fmt, fmt, gold, system, True))
    line, first = (5, 2) if fmt == "conllu" else (2, 1)
    assert err == (f"{tmp_path / 'sys'}{SUFFIX[fmt]}:{line}: {tmp_path / 'sys'}{SUFFIX[fmt]}:{line}: document 2, line "
                   f"{line} has no id and document 'd000', line {first} has one; expected an id on every document "
                   "(they pair by id) or on none (paired by order)"), err


@pytest.mark.parametrize("extra", [False, True], ids=["in gold's last sentence", "after gold's last sentence"])
def test_a_bad_tag_before_a_malformed_line_at_the_end_is_the_first_error(tmp_path, extra):
    """Gold's bad tag in its first sentence, and the system's line that is not 2 columns in (or after) gold's
    last sentence: the bad tag, also when the whole files are one block (the line is gold's end)."""
    gold, system = two_docs()[:2], two_docs()[:2]
    gold[0].bad = True
    if extra:
        system.append(Doc(None, ["w"], [], malformed=True))
    else:
        system[1].malformed = True
    err = errors_at_every_size(inputs_of(tmp_path, "columns", "columns", gold, system, False))
    assert err == (f"{tmp_path / 'gold.conll'}:2: {tmp_path / 'gold.conll'}:2: bad tag 'Q-PER': expected O or "
                   "PREFIX-LABEL with PREFIX one of B, I (e.g. B-PER) (gold side)"), err
    gold[0].bad = False
    (tmp_path / "x").mkdir()
    err = errors_at_every_size(inputs_of(tmp_path / "x", "columns", "columns", gold, system, False))
    where = f"{tmp_path / 'x' / 'sys.conll'}:{8 if extra else 6}: "
    assert err == f"{where}{where}3 columns, expected 2 as on line 1: 'w x y'", err


def test_a_system_file_that_cannot_be_read_is_that_error_before_a_difference(tmp_path):
    """A system column file whose first sentence differs from gold's and whose third has a line of 3 columns
    (a README taken for a system): the line that cannot be read, at every block size (the file is read to its
    end for it)."""
    gold, system = two_docs(), two_docs()
    system[0] = dataclasses.replace(system[0], tokens=["#", "Runs"])
    system[2].malformed = True
    err = errors_at_every_size(inputs_of(tmp_path, "columns", "columns", gold, system, False))
    where = f"{tmp_path / 'sys.conll'}:9: "
    assert err == f"{where}{where}3 columns, expected 2 as on line 1: 'w x y'", err


def test_gold_goes_before_a_system_at_one_document(tmp_path):
    """Gold's second document has no id (its first has one) and the system's second a bad tag: gold's error,
    whether or not the system's error is in the block the system hands out with it."""
    gold, system = without_ids(two_docs()[:2]), without_ids(two_docs()[:2])
    gold[0].id = "odd"
    system[1].bad = True
    err = errors_at_every_size(inputs_of(tmp_path, "conllu", "conllu", gold, system, True))
    assert err == (f"{tmp_path / 'gold.conllu'}:5: {tmp_path / 'gold.conllu'}:5: document 2, line 5 has no id and "
                   "document 'odd', line 2 has one; expected an id on every document (they pair by id) or on none "
                   "(paired by order)"), err


@pytest.mark.parametrize("fmt", sorted(WITH_IDS - {"generated"}) + ["brat"])
def test_documents_in_another_order_pair_by_id_as_in_order(tmp_path, fmt):
    gold, system = two_docs(), two_docs()
    system[1] = dataclasses.replace(system[1], spans=[])
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    in_order = inputs_of(tmp_path / "a", fmt, fmt, gold, system, True)
    other = inputs_of(tmp_path / "b", fmt, fmt, gold, system[::-1], True)
    want = outcome(in_order, None)
    assert isinstance(want, dict) and want["systems"][0]["exact"]["micro"]["tp"] == 2
    for size in (None, 1, 7, 1 << 22):
        got = outcome(other, size)
        assert isinstance(got, dict), got
        assert got["systems"][0]["exact"] == want["systems"][0]["exact"]
