#!/usr/bin/env python3
"""ts_eval's ``strings`` model against UniversalNER's own evaluation code, on its own examples.

UniversalNER (Zhou et al. 2024) evaluates a generative NER model by asking, per text and entity
type, for a JSON list of strings, and scores the lists with ``NEREvaluator`` in its
``src/eval/evaluate.py``: each list is parsed and normalised (lower case, ASCII punctuation
removed, the articles a/an/the removed, whitespace collapsed), repeats dropped, and micro
precision, recall and F1 are taken over all (example, string) pairs.

This script reads that evaluator from a UniversalNER checkout at run time (the functions
``normalize_answer``, ``parser`` and the class ``NEREvaluator``, nothing else: the file's other
imports load a model), takes its test examples (``src/eval/test_data/*.json``: one example per
text and entity type, gold answer = the list), makes a prediction per example from the gold list
with a seeded random generator (strings dropped, re-cased, given surrounding punctuation or an
article, repeated, and strings of other examples added: hallucinations), and scores the same
predictions twice:

* UniversalNER's ``NEREvaluator().evaluate(predictions, golds)``;
* ts_eval: every example a gold document (its text, tokens split at spaces, the gold strings as
  spans of the example's type) and every prediction a generated record with the same id, read
  with ``read_pair(..., generated="strings", normalize="universalner")`` and scored by the
  ``strings`` model (micro).

Precision, recall and F1 must agree to 1e-9 (UniversalNER adds 1e-10 to every denominator).

    python scripts/universalner_reproduce.py --repo /path/to/universal-ner
    python scripts/universalner_reproduce.py --evaluator evaluate.py --data CrossNER_AI.json ...
"""
from __future__ import annotations

import argparse
import ast
import json
import random
import re
import string
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import ts_eval  # noqa: E402
from ts_eval.io.api import read_pair  # noqa: E402

QUESTION = re.compile(r"What describes (.*) in the text\?")
TEXT = "Text: "
KEEP = ("normalize_answer", "parser", "NEREvaluator")


def load_evaluator(source: str) -> Callable[[List[str], List[str]], Dict[str, float]]:
    """UniversalNER's ``NEREvaluator().evaluate`` from the text of its evaluate.py (only the three
    definitions it needs are run, with the standard modules they use)."""
    tree = ast.parse(source)
    body = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in KEEP]
    missing = set(KEEP) - {node.name for node in body}
    if missing:
        raise SystemExit(f"the evaluator lacks {', '.join(sorted(missing))}")
    namespace: Dict[str, Any] = {"re": re, "json": json, "string": string}
    exec(compile(ast.Module(body=body, type_ignores=[]), "universalner-evaluate", "exec"), namespace)
    return namespace["NEREvaluator"]().evaluate


def example_parts(example: Dict[str, Any]) -> Tuple[str, str, List[str]]:
    """(text, entity type, gold strings) of one UniversalNER example."""
    turns = example["conversations"]
    text = turns[0]["value"]
    question = QUESTION.fullmatch(turns[2]["value"])
    if not text.startswith(TEXT) or question is None:
        raise ValueError(f"example {example.get('id')}: not a UniversalNER NER query")
    return text[len(TEXT):], question.group(1), json.loads(turns[3]["value"])


def predict(golds: Sequence[List[str]], seed: int) -> List[List[str]]:
    """A prediction per example, made from the gold lists: each gold string kept (70 %; then 20 % of
    those re-cased, 10 % with punctuation around, 10 % with an article in front) and sometimes
    repeated, plus a string of another example now and then (a hallucination)."""
    rng = random.Random(seed)
    pool = [s for g in golds for s in g] or ["nothing"]
    out = []
    for gold in golds:
        pred = []
        for s in gold:
            if rng.random() < 0.3:
                continue
            r = rng.random()
            if r < 0.2:
                s = s.upper() if rng.random() < 0.5 else s.lower()
            elif r < 0.3:
                s = f'"{s}",'
            elif r < 0.4:
                s = f"the {s}"
            pred.append(s)
            if rng.random() < 0.1:
                pred.append(s)
        if rng.random() < 0.15:
            pred.insert(rng.randrange(len(pred) + 1), rng.choice(pool))
        out.append(pred)
    return out


def _whitespace_tokens(text: str) -> List[Tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def as_inputs(examples: Sequence[Dict[str, Any]], predictions: Sequence[List[str]]
              ) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """(gold records in the jsonl-text shape, generated records): one document per example, its
    tokens the text split at spaces (the examples are tokenised), each gold string a span of the
    example's type at its first occurrence on token boundaries (a string the list repeats, once: a
    span cannot be given twice, and the evaluator drops repeats)."""
    gold, generated = [], []
    for k, (ex, pred) in enumerate(zip(examples, predictions)):
        text, label, strings = example_parts(ex)
        tokens = _whitespace_tokens(text)
        starts = {a for a, _ in tokens}
        ends = {b for _, b in tokens}
        spans = []
        for s in dict.fromkeys(strings):        # a string listed twice is one span (both sides dedupe)
            at = next((m.start() for m in re.finditer(re.escape(s), text)
                       if m.start() in starts and m.end() in ends), None)
            if at is None:
                raise ValueError(f"example {ex.get('id')}: gold string {s!r} is not in its text")
            spans.append([at, at + len(s), label])
        rid = f"{k}:{ex.get('id')}"
        gold.append({"id": rid, "text": text, "tokens": [{"start": a, "end": b} for a, b in tokens],
                     "spans": spans})
        generated.append({"id": rid, "entities": [[s, label] for s in pred]})
    return gold, generated


def ts_eval_scores(gold: List[Dict[str, Any]], generated: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The strings model's micro scores and the grounding counts of ``generated`` against ``gold``."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, records in (("gold", gold), ("predictions", generated)):
            path = Path(tmp) / f"{name}.jsonl"
            path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            paths.append(str(path))
        corpus = read_pair(paths[0], paths[1], format="jsonl-text", generated="strings", normalize="universalner")
        report = ts_eval.score(corpus)
    system = report.systems[0]
    return {**system["strings"]["micro"], "reading": system["source"]["reading"]["generated"]}


def check(evaluator_source: str, data: Sequence[Path], seed: int) -> bool:
    evaluate = load_evaluator(evaluator_source)
    ok = True
    print(f"{'data':28s} {'examples':>8s} {'gold':>6s} {'pred':>6s}   {'P (UniNER / ts_eval)':>25s}   "
          f"{'R':>21s}   {'F1':>21s}  agree  ungrounded  dupl.")
    for path in data:
        examples = json.loads(path.read_text(encoding="utf-8"))
        golds = [example_parts(ex)[2] for ex in examples]
        predictions = predict(golds, seed)
        t0 = time.perf_counter()
        theirs = evaluate([json.dumps(p) for p in predictions], [json.dumps(g) for g in golds])
        t1 = time.perf_counter()
        gold, generated = as_inputs(examples, predictions)
        ours = ts_eval_scores(gold, generated)
        t2 = time.perf_counter()
        agree = all(abs(theirs[a] - ours[b]) < 1e-9 for a, b in (("precision", "precision"), ("recall", "recall"),
                                                                 ("f1", "f")))
        ok &= agree
        print(f"{path.name:28s} {len(examples):8d} {ours['gold']:6d} {ours['system']:6d}   "
              f"{theirs['precision']:.9f} / {ours['precision']:.9f}   {theirs['recall']:.9f} / {ours['recall']:.9f}   "
              f"{theirs['f1']:.9f} / {ours['f']:.9f}  {'yes' if agree else 'NO':5s}  "
              f"{ours['reading']['ungrounded']:10d}  {ours['reading']['duplicates']:5d}"
              f"   ({t1 - t0:.2f} s / {t2 - t1:.2f} s)")
    return ok


def main(argv: Sequence[str] = ()) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repo", type=Path, help="a UniversalNER checkout (src/eval/evaluate.py, src/eval/test_data)")
    p.add_argument("--evaluator", type=Path, help="UniversalNER's src/eval/evaluate.py")
    p.add_argument("--data", type=Path, nargs="+", help="UniversalNER test files (src/eval/test_data/*.json)")
    p.add_argument("--seed", type=int, default=21)
    args = p.parse_args(list(argv) or None)
    evaluator = args.evaluator or (args.repo / "src" / "eval" / "evaluate.py" if args.repo else None)
    data = args.data or (sorted((args.repo / "src" / "eval" / "test_data").glob("*.json")) if args.repo else None)
    if evaluator is None or not data:
        p.error("give --repo, or --evaluator and --data")
    ok = check(evaluator.read_text(encoding="utf-8"), data, args.seed)
    print("all agree" if ok else "DISAGREEMENT")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
