"""Results and options are dataclasses that say themselves as JSON (``to_dict()``)."""
import dataclasses
import json

import pytest

import ts_eval
from ts_eval.core.options import Options
from ts_eval.core.sequences import from_sequences
from ts_eval.fair import fair_corpus
from ts_eval.io.formats import LISTED, get_format
from ts_eval.models.context import ScoreSettings


@pytest.mark.parametrize("name", LISTED)
def test_every_format_s_options_say_their_fields(name):
    options = get_format(name).make_options({})
    assert isinstance(options, Options) and dataclasses.is_dataclass(options)
    d = options.to_dict()
    assert list(d) == [f.name for f in dataclasses.fields(options)]
    assert json.loads(json.dumps(d)) == d


def test_inputs_and_score_settings_say_their_fields():
    inputs = ts_eval.Inputs(gold="g.conll", systems=("a.conll",), label_map=(("B-X", "O"),), options={"k": (1, 2)})
    d = inputs.to_dict()
    assert d["gold"] == "g.conll" and d["systems"] == ["a.conll"] and d["label_map"] == [["B-X", "O"]]
    assert d["options"] == {"k": [1, 2]} and d["block_bytes"] == 1 << 22 and d["jobs"] == 1
    s = ScoreSettings(separator_weight=0.5).to_dict()
    assert s["separator_weight"] == 0.5 and s["matching"] == {"min_overlap": None, "assignment": "many-to-many"}
    assert json.loads(json.dumps(s)) == s


def test_a_fair_result_says_its_counts():
    # gold PER 0-2 and LOC 3; the system PER 0-1 (a boundary error, shorter) and ORG 3 (a label error)
    corpus = from_sequences([["B-PER", "I-PER", "O", "B-LOC"]], {"a": [["B-PER", "O", "O", "B-ORG"]]})
    d = fair_corpus(corpus, "a").to_dict()
    assert d["overall"]["traditional"] == {"TP": 0, "FP": 2, "FN": 2}
    assert d["labels"]["PER"]["fair"]["BES"] == 1 and d["labels"]["LOC"]["fair"]["LE"] == 1
    assert d["confusion"]["LOC"]["ORG"] == 1 and d["confusion"]["PER"]["PER"] == 1
    assert [t["label"] for t in d["targets"]] == ["PER", "LOC"] and d["focus"] == "target"
    assert json.loads(json.dumps(d)) == d
