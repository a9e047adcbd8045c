"""UniversalNER's string-set F1 (its src/eval/evaluate.py) through ts_eval's ``strings`` model with the
``universalner`` normalisation: the examples are written in UniversalNER's conversation format, the
expected numbers worked by hand from its rules (lower case, ASCII punctuation and the articles
a/an/the removed, whitespace collapsed, repeats dropped; micro P/R/F1 over all examples).
``scripts/universalner_reproduce.py`` runs the same adapter on UniversalNER's own test files against
its own evaluator code (see docs/generated.md for the numbers)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List

import pytest

SCRIPT = Path(__file__).parent.parent / "scripts" / "universalner_reproduce.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("universalner_reproduce", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example(k: int, text: str, label: str, gold: List[str]) -> Dict[str, Any]:
    return {"id": f"ex_{k}", "conversations": [
        {"from": "human", "value": f"Text: {text}"}, {"from": "gpt", "value": "I've read this text."},
        {"from": "human", "value": f"What describes {label} in the text?"},
        {"from": "gpt", "value": json.dumps(gold)}]}


TURING = "Alan Turing worked at the University of Manchester ."
BLUE = "Deep Blue beat Kasparov in 1997 ."
EXAMPLES = [example(0, TURING, "person", ["Alan Turing"]),
            example(1, TURING, "organisation", ["University of Manchester"]),
            example(2, BLUE, "person", ["Kasparov"]),
            example(3, BLUE, "product", [])]
PREDICTIONS = [["alan turing", "Turing"],                         # 1 right ("alan turing"), 1 wrong
               ["the University of Manchester", "University of Manchester!", "Manchester United"],
               # both first two normalise to "university of manchester": one string, right; 1 wrong
               [],                                                 # Kasparov missed
               ["Deep Blue"]]                                      # not gold's: wrong


def test_the_string_set_f1_of_universalner_by_hand() -> None:
    s = _script()
    gold, generated = s.as_inputs(EXAMPLES, PREDICTIONS)
    got = s.ts_eval_scores(gold, generated)
    # correct 2 (alan turing, university of manchester), predicted 5 after repeats drop, gold 3
    assert (got["tp"], got["system"], got["gold"]) == (2, 5, 3)
    assert got["precision"] == pytest.approx(0.4) and got["recall"] == pytest.approx(2 / 3)
    assert got["f"] == pytest.approx(0.5)
    assert got["reading"]["duplicates"] == 1
    # "Turing" occurs in the text; "Manchester United" nowhere; "Deep Blue" as a product: placed
    assert got["reading"]["ungrounded"] == 1


def test_the_evaluator_is_taken_from_its_source_and_nothing_else_runs() -> None:
    s = _script()
    source = "\n".join([
        "import vllm  # never imported: only the three definitions run",
        "def normalize_answer(s):", "    return s.lower()",
        "def parser(text):", "    return [normalize_answer(x) for x in json.loads(text)]",
        "class NEREvaluator:", "    def evaluate(self, preds, golds):",
        "        p = [set(parser(x)) for x in preds]", "        g = [set(parser(x)) for x in golds]",
        "        c = sum(len(a & b) for a, b in zip(p, g))",
        "        return {'precision': c / sum(map(len, p)), 'recall': c / sum(map(len, g)), 'f1': 0.0}",
        "main()"])
    evaluate = s.load_evaluator(source)
    assert evaluate(['["A", "b"]'], ['["a"]'])["precision"] == 0.5


def test_predictions_are_reproducible() -> None:
    s = _script()
    golds = [["a", "b", "c"], [], ["d"]] * 5
    assert s.predict(golds, 3) == s.predict(golds, 3)
