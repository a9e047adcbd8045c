"""The ``strings`` model: generated outputs scored as strings, without positions.

Per record (sentence) and label, the multiset of a system's normalised strings is compared with
the multiset of gold's (the texts of gold's spans, normalised the same way;
:mod:`ts_eval.io.grounding` makes both): tp is the size of their intersection (a string said
twice counts twice, as often as gold has it), precision = tp / system strings, recall = tp / gold
strings.  With the normalisation step ``dedupe`` both sides are sets per record and label, as in
UniversalNER's evaluation.  Every string counts, whether or not it occurs in the text.

Statistics (:func:`strings_stats`): per sentence and label the gold strings, system strings and
tp (twice, in the segment models' four-column shape), so ``score``'s result and ``rank``'s
scores are exact match's (:func:`~ts_eval.models.segment.segment_prf`).
"""
from __future__ import annotations

from functools import partial
from typing import Any, Dict

import numpy as np

from ..core.corpus import SideStrings
from ..errors import OptionError
from .context import RANK_SETTINGS, ScoreSettings, SystemData
from .registry import Display, ModelSpec, ResultColumn, Score, register
from .segment import segment_f1, segment_result
from .tally import Tally, Totals


def _strings(sd: SystemData) -> tuple[SideStrings, SideStrings]:
    corpus = sd.cd.corpus
    gold, system = corpus.gold_info.strings, corpus.system_info[sd.name].strings
    if gold is None or system is None:
        raise OptionError(f"the strings model scores generated outputs; system {sd.name!r} was not read in the "
                          "generated format (entity strings with labels)", option="models", value="strings")
    return gold, system


def strings_stats(sd: SystemData, settings: ScoreSettings = RANK_SETTINGS, sentences: bool = True) -> np.ndarray:
    """(sentences, 4 * labels): per label gold strings, system strings, tp, tp (multiset intersection
    of the normalised strings of each sentence and label); ``sentences`` False: their totals."""
    if not sentences:
        totals: np.ndarray = sd.stats(strings_stats).sum(0, keepdims=True).astype(np.int64)
        return totals
    cd = sd.cd
    gold, system = _strings(sd)
    S, L = cd.n_sentences, cd.n_labels
    size = S * L
    g_cell = gold.sentence * L + gold.label.astype(np.int64)
    s_cell = system.sentence * L + system.label.astype(np.int64)
    width = int(max(gold.key.max(initial=-1), system.key.max(initial=-1))) + 1
    ids, inverse = np.unique(np.concatenate([g_cell * width + gold.key, s_cell * width + system.key]),
                             return_inverse=True)
    inverse = inverse.reshape(-1)
    n_g = np.bincount(inverse[:len(gold)], minlength=len(ids))
    n_s = np.bincount(inverse[len(gold):], minlength=len(ids))
    tp = np.bincount(ids // max(width, 1), weights=np.minimum(n_g, n_s), minlength=size)[:size]
    out = np.zeros((size, 4))
    out[:, 0] = np.bincount(g_cell, minlength=size)[:size]
    out[:, 1] = np.bincount(s_cell, minlength=size)[:size]
    out[:, 2] = out[:, 3] = tp
    return out.reshape(S, 4 * L)


def result(tally: Tally, totals: Totals) -> Dict[str, Any]:
    """``score``'s result: per-label, micro and macro gold, system, tp, precision, recall, f."""
    out = segment_result(tally.sums, totals.labels, totals.settings.beta, True)
    gen = (totals.system.reading or {}).get("generated", {})
    out["normalize"] = gen.get("normalize")
    out["normalize_steps"] = gen.get("normalize_steps")
    return out


STRING_COUNTS = ("gold", "system", "tp")
register(ModelSpec(
    "strings", "generated outputs: multiset F1 over (normalised string, label) pairs", strings_stats, (0, 4),
    tuple(Score(f"strings-f1-{avg}", title, partial(segment_f1, average=avg),
                f"generated outputs: F1 over (normalised string, label) pairs, {avg} (no positions)",
                reported=(avg, "f")) for avg, title in (("micro", "Str-F1µ"), ("macro", "Str-F1M"))),
    result, needs="generated", display=Display(
        "generated strings (no positions)",
        tuple(ResultColumn(f"strings_{k}", f"str {t}", ("micro", k), counts=STRING_COUNTS)
              for k, t in (("precision", "P"), ("recall", "R"), ("f", "F")))
        + (ResultColumn("strings_macro_f", "str MF", ("macro", "f")),),
        ResultColumn("strings", "strings micro F", ("micro", "f")),
        ResultColumn("strings", "strings macro F", ("macro", "f")),
        gloss="strings compares generated strings without positions", tables=("strings",))))
