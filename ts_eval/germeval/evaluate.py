"""GermEval 2014 nested NER: the report of one system (official Metrics 1-4, TS over both levels, fair errors).

Metrics 1-4 are the official scorer's (``nereval.perl`` 2014-05-19), from the counts of
:func:`ts_eval.germeval.counts.germeval_counts` (which documents the scorer's rules).
Next to the official numbers: TS scores over both levels at once (both levels' chunks
in one span set with the twelve labels, so a unit may carry an outer and an inner
label) and Ortmann's fair error types per level (:mod:`ts_eval.fair`).

The report carries every number the renderers print: besides the fractions, an
``official`` part holds the scorer's blocks and per-type lines in percent, computed in
its order of operations (:func:`ts_eval.core.measures.prf` with ``percent=True``), so ``nereval`` output rounds
exactly as the scorer's.  This module reads no files (:mod:`ts_eval.io.germeval` does; :mod:`.files` has it
read a 6-column file in pieces, in one process or in shards on several).
Metric 1 for ranking is the model ``germeval-m1`` (:mod:`ts_eval.models.germeval`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..core import measures
from ..core.corpus import SpanSet
from ..core.matching import match
from ..core.measures import percent, percent_of_ratio, prf
from ..fair.algorithm import fair_errors
from ..fair.scores import fair_report
from ..fair.types import ERROR_TYPES, FairResult
from ..io.germeval_data import (
    BASES,
    LABELS,
    LEVELS,
    TAG_PREFIX,
    GermEvalData,
    LevelChunks,
    level_chunks,
    sentence_bounded,
    union,
)
from ..models.ts import TSCounts, ts_result, ts_totals
from ..results.report import Report, versions
from .counts import MODES, GermEvalCounts, germeval_counts
from .sums import GermEvalSums

# ---------------------------------------------------------------------------
# the official numbers (percentages, computed in the scorer's order of operations)


#: the scorer's four blocks: (metric key, block title, mode, levels)
BLOCKS = (("m1_strict_combined", "1. Strict, Combined Evaluation (official)", "strict", LEVELS),
          ("m2_loose_combined", "2. Loose, Combined Evaluation", "loose", LEVELS),
          ("m3_strict_outer", "3.1 Per-Level Evaluation (outer chunks)", "strict", ("outer",)),
          ("m3_strict_inner", "3.2 Per-Level Global Evaluation (inner chunks)", "strict", ("inner",)))
ROW_TITLES = (("strict", "outer", "Outer strict"), ("strict", "inner", "Inner strict"),
              ("loose", "outer", "Outer loose"), ("loose", "inner", "Inner loose"))
_NO_CHUNKS = {"gold": 0, "system": 0, "tp": 0}
COUNTS = ("gold", "system", "tp")   # the report's chunk counts (the scorer's gold, found, correct)


def nereval_types(c: GermEvalCounts) -> List[str]:
    """Type names of gold or found chunks in any (mode, level) run, sorted as the scorer sorts them."""
    names: Set[str] = set()
    for lc in c.levels.values():
        names.update(t for t, g, f in zip(lc.types, lc.gold, lc.found) if g > 0 or f > 0)
    return sorted(names)


def _official_block(levels: Dict[str, Any], n: int, key: str, title: str, mode: str,
                    lvs: Sequence[str]) -> Dict[str, Any]:
    """One block of the scorer's report: counts, token accuracy, P, R, F1 (percent, the scorer's order)."""
    g, f, k = (sum(levels[lv][mode][x] for lv in lvs) for x in COUNTS)
    if len(lvs) == 2:
        acc = percent((levels["outer"][mode]["tags_correct"] + levels["inner"][mode]["tags_correct"]) / 2, n)
    else:
        acc = percent_of_ratio(levels[lvs[0]][mode]["tags_correct"], n)
    p, r, f1 = prf(k, f - k, g - k, percent=True)
    return {"metric": key, "title": title, "mode": mode, "levels": list(lvs), "gold": g, "system": f,
            "tp": k, "accuracy": acc, "precision": p, "recall": r, "f": f1}


def official_numbers(levels: Dict[str, Any], n: int, types: Sequence[str]) -> Dict[str, Any]:
    """Every number nereval.perl prints, in percent and in its order of operations.

    ``blocks``: Metrics 1-3 with the token accuracies (Metric 4); ``per_type``: for each
    type, the strict lines of both levels and, for the four base classes, the loose lines.
    """
    blocks = [_official_block(levels, n, *b) for b in BLOCKS]
    per_type: Dict[str, Any] = {}
    for t in types:
        rows = []
        for mode, lv, title in ROW_TITLES:
            if mode == "loose" and t not in BASES:
                continue
            d = levels[lv][mode]["types"].get(t, _NO_CHUNKS)
            p, r, f1 = prf(d["tp"], d["system"] - d["tp"], d["gold"] - d["tp"], percent=True)
            rows.append({"run": title, "level": lv, "mode": mode, "gold": d["gold"], "system": d["system"],
                         "tp": d["tp"], "precision": p, "recall": r, "f": f1})
        per_type[t] = rows
    return {"blocks": blocks, "per_type": per_type}


# ---------------------------------------------------------------------------
# TS over both levels, fair error types per level

def bounded_sets(data: GermEvalData, chunks: Dict[Tuple[str, str], LevelChunks]) -> Dict[Tuple[str, str], SpanSet]:
    """The four rows' chunks as span sets, cut at sentence ends (:func:`sentence_bounded`): what the TS and
    fair counts read."""
    offsets = data.sent_offsets
    return {key: sentence_bounded(ch, offsets) for key, ch in chunks.items()}


def ts_tables(data: GermEvalData, chunks: Dict[Tuple[str, str], LevelChunks],
              sets: Optional[Dict[Tuple[str, str], SpanSet]] = None) -> Tuple[TSCounts, Dict[str, TSCounts]]:
    """TS counts over both levels at once, and of each level alone (the spans of both levels in one set, as
    :func:`~.corpus.level_corpus` puts them; ``sets``: :func:`bounded_sets`, when made already)."""
    sets = sets if sets is not None else bounded_sets(data, chunks)
    n, seps = data.n_tokens, data.n_tokens - data.n_sentences if data.n_tokens else 0

    def counts(levels: Sequence[str]) -> TSCounts:
        gold, system = (union([sets[(side, lv)] for lv in levels]) for side in ("gold", "system"))
        return ts_totals(gold, system, len(LABELS), n, seps)

    return counts(LEVELS), {lv: counts((lv,)) for lv in LEVELS}


def ts_scores(both: TSCounts, levels: Dict[str, TSCounts], separator_weight: float = 1.0,
              beta: float = 1.0) -> Dict[str, Any]:
    """TS model over both levels at once (per label, micro, macro) plus each level's micro scores."""
    out = ts_result(both, LABELS, separator_weight, beta)
    out["levels"] = {}
    for lv in LEVELS:
        tab = levels[lv].micro(separator_weight)
        out["levels"][lv] = {"tp": float(tab[0]), "fp": float(tab[1]), "fn": float(tab[2]), "tn": float(tab[3]),
                             **{k: float(v) for k, v in measures.scores(*tab, beta=beta).items()}}
    return out


def fair_results(data: GermEvalData, chunks: Dict[Tuple[str, str], LevelChunks],
                 sets: Optional[Dict[Tuple[str, str], SpanSet]] = None) -> Dict[str, Tuple[FairResult, int]]:
    """Fair error types of each level alone (gold outer vs system outer, inner vs inner), with the level's
    gold spans: :func:`ts_eval.fair.fair_errors` on the shared matcher's pairs.  Chunks that run over a
    sentence boundary (policy nereval) are cut at it first (``sets``: :func:`bounded_sets`, when made)."""
    sets = sets if sets is not None else bounded_sets(data, chunks)
    offsets = data.sent_offsets
    out = {}
    for lv in LEVELS:
        g, s = sets[("gold", lv)], sets[("system", lv)]
        out[lv] = (fair_errors(g, s, match(g, s), list(LABELS), offsets, per_sentence=False), len(g))
    return out


def fair_scores(results: Dict[str, Tuple[FairResult, int]]) -> Dict[str, Any]:
    """The fair part of the report: :func:`ts_eval.fair.fair_report` (traditional, fair and weighted (eq5)
    scores) per level, and a table of the error types."""
    out: Dict[str, Any] = {"available": True, "levels": {}}
    header = ["level", *ERROR_TYPES, "trad F1", "fair F1"]
    rows = []
    for lv in LEVELS:
        res = results[lv][0]
        rep = _plain(fair_report(res))
        out["levels"][lv] = rep
        tot = res.counts()
        rows.append([lv, *[tot[k] for k in ERROR_TYPES],
                     "%.2f" % (100 * rep["traditional"]["micro"]["f"]), "%.2f" % (100 * rep["fair"]["micro"]["f"])])
    out["table"] = {"header": header, "rows": rows}
    return out


def _plain(obj: Any) -> Any:
    """Dataclasses / numpy values -> plain JSON-able data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


# ---------------------------------------------------------------------------
# the report


def _scores(g: int, f: int, k: int) -> Dict[str, Any]:
    """Counts (gold, system and correct chunks) and P, R, F1 (fractions; F1 from P and R, as the scorer computes it)."""
    p, r, f1 = prf(k, f - k, g - k)
    return {"gold": g, "system": f, "tp": k, "precision": p, "recall": r, "f": float(f1)}


def counts_dict(c: GermEvalCounts) -> Dict[str, Any]:
    """The counts and Metrics 1-4 (fractions) as plain data, and the scorer's own numbers (``official``, percent)."""
    n = c.n_tokens
    levels: Dict[str, Any] = {}
    for lv in LEVELS:
        levels[lv] = {}
        for mode in MODES:
            lc = c.get(mode, lv)
            g, f, k = lc.totals()
            levels[lv][mode] = {
                "gold": g, "system": f, "tp": k, "tags_correct": lc.tags_correct, "eof_dropped": lc.eof_dropped,
                "types": {t: {"gold": int(lc.gold[i]), "system": int(lc.found[i]), "tp": int(lc.correct[i])}
                          for i, t in enumerate(lc.types)},
            }

    def combined(mode: str) -> Dict[str, Any]:
        g = sum(levels[lv][mode]["gold"] for lv in LEVELS)
        f = sum(levels[lv][mode]["system"] for lv in LEVELS)
        k = sum(levels[lv][mode]["tp"] for lv in LEVELS)
        acc = (levels["outer"][mode]["tags_correct"] + levels["inner"][mode]["tags_correct"]) / 2 / n if n else 0.0
        return {**_scores(g, f, k), "accuracy": acc}

    def single(lv: str) -> Dict[str, Any]:
        d = levels[lv]["strict"]
        return {**_scores(d["gold"], d["system"], d["tp"]), "accuracy": d["tags_correct"] / n if n else 0.0}

    metrics = {
        "m1_strict_combined": combined("strict"),
        "m2_loose_combined": combined("loose"),
        "m3_strict_outer": single("outer"),
        "m3_strict_inner": single("inner"),
        "m4_token_accuracy": {
            "strict_combined": combined("strict")["accuracy"], "loose_combined": combined("loose")["accuracy"],
            "outer": single("outer")["accuracy"], "inner": single("inner")["accuracy"],
        },
    }
    types = nereval_types(c)
    per_type: Dict[str, Any] = {}
    for t in types:
        rows = {}
        for mode, lv, _ in ROW_TITLES:
            if mode == "loose" and t not in BASES:
                continue
            d = levels[lv][mode]["types"].get(t, _NO_CHUNKS)
            rows[f"{lv}_{mode}"] = _scores(d["gold"], d["system"], d["tp"])
        per_type[t] = rows
    return {"tokens": n, "policy": c.policy, "eof_quirk": c.eof_quirk, "levels": levels, "metrics": metrics,
            "per_type": per_type, "official": official_numbers(levels, n, types)}


def validation_rows(data: GermEvalData, c: GermEvalCounts) -> Dict[str, Dict[str, int]]:
    """What reading and decoding found, per row: spans (chunks), ill-formed ones and how they were treated."""
    rows = {}
    for side in ("gold", "system"):
        for lv in LEVELS:
            ch = c.chunks[(side, lv)]
            rows[f"{side} {lv}"] = {
                "spans": len(ch), "ill_formed": int(ch.ill_formed.sum()), "discarded": ch.dropped,
                "i_start": int(np.count_nonzero(TAG_PREFIX[data.row(side, lv)[ch.start]] == 2)),
                "label_change_inside": int(ch.mixed.sum()), "crosses_sentence": int(ch.crosses.sum()),
            }
    return rows


def validation_dict(rows: Dict[str, Dict[str, int]], c: GermEvalCounts) -> Dict[str, Any]:
    """The validation part of the report: the rows' counts and the correct chunks the end-of-input rule
    left out (strict)."""
    eof = sum(lc.eof_dropped for (mode, _), lc in c.levels.items() if mode == "strict")
    return {"rows": rows, "eof_dropped_strict": eof}


def add_piece(sums: GermEvalSums, data: GermEvalData, at_end: bool, fair: bool) -> None:
    """Count one piece of the input (whole sentences, no chunk cut) into ``sums``."""
    chunks = level_chunks(data, sums.policy)
    c = germeval_counts(data, sums.policy, sums.eof_quirk, chunks, at_end, sentences=False)
    sums.add_counts(c, validation_rows(data, c), data.n_sentences, data.comment_lines)
    sets = bounded_sets(data, chunks)
    sums.add_ts(*ts_tables(data, chunks, sets))
    if fair:
        sums.add_fair(fair_results(data, chunks, sets))


def evaluate_germeval(data: GermEvalData, *, policy: str = "nereval", separator_weight: float = 1.0,
                      beta: float = 1.0, eof_quirk: bool = True, fair: bool = True) -> Report:
    """Score one system: Metrics 1-4 (official), TS over both levels, fair error types per level."""
    return evaluate_germeval_pieces([(data, True)], policy=policy, separator_weight=separator_weight, beta=beta,
                                    eof_quirk=eof_quirk, fair=fair)


@dataclass(frozen=True)
class Source:
    """Where the report's input came from (the first piece's names and layout)."""

    name: str
    gold_path: str
    system_path: str
    layout: str


def piece_sums(pieces: Iterable[Tuple[GermEvalData, bool]], *, policy: str = "nereval", eof_quirk: bool = True,
               fair: bool = True, last: bool = True) -> Tuple[GermEvalSums, Optional[Source]]:
    """The sums of pieces of the input in order (whole sentences, no chunk cut, the last one marked; ``last``
    False: they are not the input's last, its end-of-input rule does not apply), and their source (None:
    no piece)."""
    sums = GermEvalSums(policy, eof_quirk)
    source: Optional[Source] = None
    for data, at_end in pieces:
        source = source or Source(data.name, data.gold_path, data.system_path, data.layout)
        add_piece(sums, data, at_end and last, fair)
    return sums, source


def evaluate_germeval_pieces(pieces: Iterable[Tuple[GermEvalData, bool]], *, policy: str = "nereval",
                             separator_weight: float = 1.0, beta: float = 1.0, eof_quirk: bool = True,
                             fair: bool = True) -> Report:
    """Score one system from pieces of its input in order (whole sentences, no chunk cut, the last one
    marked; :func:`ts_eval.io.germeval.germeval_blocks`), keeping only their sums (:class:`.sums.GermEvalSums`):
    the report of the whole input."""
    measures.check_separator_weight(separator_weight)
    measures.check_beta(beta)
    sums, source = piece_sums(pieces, policy=policy, eof_quirk=eof_quirk, fair=fair)
    return sums_report(sums, source, separator_weight=separator_weight, beta=beta, fair=fair)


def sums_report(sums: GermEvalSums, source: Optional[Source], *, separator_weight: float = 1.0,
                beta: float = 1.0, fair: bool = True) -> Report:
    """The report of the whole input from the sums of all its pieces."""
    if source is None or sums.ts is None:
        raise ValueError("no piece of input given")
    policy, eof_quirk = sums.policy, sums.eof_quirk
    c = sums.counts()
    system: Dict[str, Any] = {
        "name": source.name,
        "source": {"name": source.name, "path": source.system_path, "input_layout": source.layout},
        "germeval": counts_dict(c),
        "validation": validation_dict(sums.validation, c),
        "ts": ts_scores(sums.ts, sums.ts_levels, separator_weight, beta),
    }
    if fair:
        system["fair"] = fair_scores(sums.fair)
    settings = {
        "command": "germeval", "policy": policy, "eof_quirk": eof_quirk, "separator_weight": separator_weight,
        "beta": beta, "labels": list(LABELS), "input_layout": source.layout,
        "scorer": "nereval.perl 2014-05-19 (GermEval 2014 official); Metrics 1-4 reproduce it",
        "versions": versions(),
    }
    corpus = {"tokens": sums.n_tokens, "sentences": sums.n_sentences, "separators": sums.n_tokens - sums.n_sentences,
              "comment_lines": sums.comment_lines, "labels": list(LABELS)}
    gold = {"name": "gold", "path": source.gold_path, "spans": {lv: sums.gold_spans[lv] for lv in LEVELS}}
    return Report(settings, corpus, gold, [system], kind="germeval")

