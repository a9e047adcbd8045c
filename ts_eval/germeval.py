"""GermEval 2014 nested NER: the official Metrics 1-4, TS scores over both levels, fair errors per level.

Metrics 1-4 are computed exactly as the shared task's scorer ``nereval.perl``
(version 2014-05-19) computes them, including its ways:

- **Chunks** (policy ``nereval``, the default; see :func:`ts_eval.io.germeval.decode_level`):
  a chunk starts at ``B-`` or at an ``I-`` after ``O`` and runs to the next ``B-`` or
  ``O``; an ``I-`` of another label does *not* open a new chunk (``I-LOC I-ORG`` and
  ``B-LOC I-ORG`` are one chunk), and since the scorer skips blank lines a chunk runs
  on into the next sentence when that sentence starts with ``I-``.  A chunk is filed
  under the label of its first token.
- **Correct** (strict): gold and system chunk start and end on the same tokens and every
  token of it has the same label in both (the ``B``/``I`` prefix does not matter: ``I-LOC``
  after ``O`` matches ``B-LOC``).  Loose: the same with ``deriv``/``part`` collapsed onto
  the base class.  A correct chunk is counted under its gold label at its last token.
  The scorer never counts a correct chunk that ends on the last token of the input
  (its end is only noticed on the next line); ``eof_quirk=True`` (default) does the same
  and the report says how many chunks that concerns.
- **Metric 1**, strict combined: outer and inner chunks pooled, P = correct / found,
  R = correct / gold.  **Metric 2**: the same, loose.  **Metric 3**: each level alone,
  strict.  **Metric 4**: token accuracy: a token is right on a level when its tag string
  equals gold's (loose: same prefix and base class); the combined accuracies average the
  two levels.
- **Per-type breakdown**: the type names of gold and found chunks of all four
  (level, mode) runs, sorted; strict lines for every type, loose lines for the four base
  classes only (loose counts of a base class include its ``deriv`` and ``part`` chunks).

Every span-pair computation reads the shared matcher's pairs
(:func:`ts_eval.matching.match`): a pair is correct when it has no token outside the
overlap on either side, the same label, and no token whose labels differ.

Next to the official numbers: TS scores over both levels at once (both levels' chunks
in one span set with the twelve labels, so a unit may carry an outer and an inner
label) and Ortmann's fair error types per level (:mod:`ts_eval.fair`).

For ranking: :func:`metric1_stats` gives per-sentence (gold, found, correct) counts of
Metric 1 and :func:`metric1_f1` the score of their sums.
"""
from __future__ import annotations

import platform
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import __version__
from .corpus import Corpus, SideInfo, SpanSet
from .errors import InputError, UsageError
from .io.germeval import (BASES, LABELS, LEVELS, TAG_BASE, TAG_LABEL, TAG_PREFIX, TAGS,
                          GermEvalData, LevelChunks, decode_level, read_germeval_any)
from .matching import Pairs, match
from .report import Report

MODES = ("strict", "loose")
M1_FIELDS = ("gold", "found", "correct")


# ---------------------------------------------------------------------------
# counts


@dataclass
class LevelCounts:
    """One level under one mode: per type (12 labels strict, 4 base classes loose) counts."""

    types: Tuple[str, ...]
    gold: np.ndarray          # chunks in gold, by the label of their first token
    found: np.ndarray         # system chunks, by the label of their first token
    correct: np.ndarray       # correct chunks, by gold's label at their last token
    tags_correct: int         # tokens whose tag is right (Metric 4)
    eof_dropped: int = 0      # correct chunks ending on the last token, not counted (eof_quirk)

    def totals(self) -> Tuple[int, int, int]:
        return int(self.gold.sum()), int(self.found.sum()), int(self.correct.sum())


@dataclass
class GermEvalCounts:
    """Everything Metrics 1-4 are computed from, for one system."""

    n_tokens: int
    policy: str
    eof_quirk: bool
    levels: Dict[Tuple[str, str], LevelCounts]            # (mode, level) -> counts
    chunks: Dict[Tuple[str, str], LevelChunks]            # (side, level) -> chunks
    m1_sentences: np.ndarray                              # (sentences, 3): gold, found, correct (Metric 1)

    def get(self, mode: str, level: str) -> LevelCounts:
        return self.levels[(mode, level)]


def level_chunks(data: GermEvalData, policy: str = "nereval") -> Dict[Tuple[str, str], LevelChunks]:
    """Chunks of the four rows (gold/system x outer/inner) under ``policy``."""
    return {(side, level): decode_level(data.row(side, level), data.sent_first, policy)
            for side in ("gold", "system") for level in LEVELS}


def _spanset(ch: LevelChunks) -> SpanSet:
    return SpanSet(ch.start, ch.end, ch.label.astype(np.int32))


def _correct_pairs(pairs: Pairs, gold: LevelChunks, system: LevelChunks, gold_tags: np.ndarray,
                   sys_tags: np.ndarray, mode: str) -> np.ndarray:
    """Mask of the matcher's pairs that the official scorer counts as correct (before the EOF rule)."""
    same_bounds = (pairs.gold_only == 0) & (pairs.system_only == 0)
    if mode == "strict":
        same = pairs.same_label
        tok_label = TAG_LABEL
    else:
        same = (gold.label[pairs.gold] // 3) == (system.label[pairs.system] // 3)
        tok_label = TAG_BASE
    differ = tok_label[gold_tags] != tok_label[sys_tags]
    cum = np.concatenate(([0], np.cumsum(differ, dtype=np.int64)))
    s, e = gold.start[pairs.gold], gold.end[pairs.gold]
    return same_bounds & same & ((cum[e + 1] - cum[s]) == 0)


def germeval_counts(data: GermEvalData, policy: str = "nereval", eof_quirk: bool = True,
                    chunks: Optional[Dict[Tuple[str, str], LevelChunks]] = None) -> GermEvalCounts:
    """The official scorer's counts for one system (both levels, strict and loose)."""
    chunks = chunks if chunks is not None else level_chunks(data, policy)
    n = data.n_tokens
    offsets = data.sent_offsets
    n_sent = len(offsets) - 1
    m1 = np.zeros((n_sent, 3), np.int64)
    levels: Dict[Tuple[str, str], LevelCounts] = {}
    for level in LEVELS:
        g, s = chunks[("gold", level)], chunks[("system", level)]
        gt, st = data.row("gold", level), data.row("system", level)
        pairs = match(_spanset(g), _spanset(s))
        for mode in MODES:
            ok = _correct_pairs(pairs, g, s, gt, st, mode)
            at_eof = ok & (g.end[pairs.gold] == n - 1)
            dropped = int(at_eof.sum()) if eof_quirk else 0
            if eof_quirk:
                ok &= ~at_eof
            gi = pairs.gold[ok]
            last_label = TAG_LABEL[gt[g.end[gi]]]
            if mode == "strict":
                types, key_g, key_s, key_c = LABELS, g.label, s.label, last_label
                tags_ok = int(np.count_nonzero(gt == st))
            else:
                types, key_g, key_s, key_c = BASES, g.label // 3, s.label // 3, last_label // 3
                tags_ok = int(np.count_nonzero((TAG_PREFIX[gt] == TAG_PREFIX[st]) & (TAG_BASE[gt] == TAG_BASE[st])))
            k = len(types)
            levels[(mode, level)] = LevelCounts(
                types, np.bincount(key_g, minlength=k)[:k], np.bincount(key_s, minlength=k)[:k],
                np.bincount(key_c, minlength=k)[:k], tags_ok, dropped)
            if mode == "strict":
                sent = lambda starts: np.searchsorted(offsets, starts, side="right") - 1  # noqa: E731
                m1[:, 0] += np.bincount(sent(g.start), minlength=n_sent)[:n_sent]
                m1[:, 1] += np.bincount(sent(s.start), minlength=n_sent)[:n_sent]
                m1[:, 2] += np.bincount(sent(g.start[gi]), minlength=n_sent)[:n_sent]
    return GermEvalCounts(n, policy, eof_quirk, levels, chunks, m1)


# ---------------------------------------------------------------------------
# the official numbers (percentages, computed in the scorer's order of operations)


def pct(num: float, den: float) -> float:
    """``100*num/den``, 0.0 when ``den`` is 0 (the scorer's default)."""
    return 100 * num / den if den > 0 else 0.0


def fb1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


BLOCK_TITLES = ("1. Strict, Combined Evaluation (official)", "2. Loose, Combined Evaluation",
                "3.1 Per-Level Evaluation (outer chunks)", "3.2 Per-Level Global Evaluation (inner chunks)")
ROW_TITLES = (("strict", "outer", "Outer strict"), ("strict", "inner", "Inner strict"),
              ("loose", "outer", "Outer loose"), ("loose", "inner", "Inner loose"))


def nereval_types(c: GermEvalCounts) -> List[str]:
    """Type names of gold or found chunks in any (mode, level) run, sorted as the scorer sorts them."""
    names = set()
    for lc in c.levels.values():
        names.update(t for t, g, f in zip(lc.types, lc.gold, lc.found) if g > 0 or f > 0)
    return sorted(names)


# ---------------------------------------------------------------------------
# TS over both levels, fair error types per level


def sentence_bounded(ch: LevelChunks, sent_offsets: np.ndarray) -> SpanSet:
    """The chunks as a span set, with chunks that run over a sentence boundary cut at it."""
    ss = _spanset(ch)
    if not ch.crosses.any():
        return ss
    keep = ~ch.crosses
    starts, ends, labels = [ss.start[keep]], [ss.end[keep]], [ss.label[keep]]
    for b, e, lab in zip(ss.start[ch.crosses].tolist(), ss.end[ch.crosses].tolist(), ss.label[ch.crosses].tolist()):
        cuts = sent_offsets[(sent_offsets > b) & (sent_offsets <= e)].tolist()
        bounds = [b] + cuts
        for lo, hi in zip(bounds, cuts + [e + 1]):
            starts.append(np.array([lo]))
            ends.append(np.array([hi - 1]))
            labels.append(np.array([lab], np.int32))
    return SpanSet(np.concatenate(starts).astype(np.int64), np.concatenate(ends).astype(np.int64),
                   np.concatenate(labels).astype(np.int32)).sorted()


def _union(a: SpanSet, b: SpanSet) -> SpanSet:
    return SpanSet(np.concatenate([a.start, b.start]), np.concatenate([a.end, b.end]),
                   np.concatenate([a.label, b.label])).sorted()


def level_corpus(data: GermEvalData, chunks: Dict[Tuple[str, str], LevelChunks],
                 levels: Sequence[str] = LEVELS) -> Corpus:
    """A :class:`Corpus` (twelve labels) of gold and this system over the given levels.

    With both levels, gold and system each hold their outer and inner chunks in one
    span set, so a unit inside a nested entity carries both labels.
    """
    offsets = data.sent_offsets
    sides = {}
    for side in ("gold", "system"):
        sets = [sentence_bounded(chunks[(side, lv)], offsets) for lv in levels]
        ss = sets[0]
        for extra in sets[1:]:
            ss = _union(ss, extra)
        sides[side] = ss
    gold_info = SideInfo("gold", data.gold_path, spans=len(sides["gold"]))
    sys_info = SideInfo(data.name, data.system_path, spans=len(sides["system"]))
    return Corpus(offsets, list(LABELS), sides["gold"], {data.name: sides["system"]}, gold_info,
                  {data.name: sys_info}, scheme="IOB2", policy=None, tokens=data.texts)


def ts_scores(data: GermEvalData, chunks: Dict[Tuple[str, str], LevelChunks], separator_weight: float = 1.0,
              beta: float = 1.0) -> Dict[str, Any]:
    """TS model over both levels at once (per label, micro, macro) plus each level's micro scores."""
    from .evaluate import ts_model
    from .events import ts_counts
    from . import measures

    corpus = level_corpus(data, chunks)
    out = ts_model(ts_counts(corpus, corpus.gold, corpus.systems[data.name]), LABELS, separator_weight, beta)
    out["levels"] = {}
    for lv in LEVELS:
        c1 = level_corpus(data, chunks, (lv,))
        tab = ts_counts(c1, c1.gold, c1.systems[data.name]).table(separator_weight).sum(axis=0)
        out["levels"][lv] = {"tp": float(tab[0]), "fp": float(tab[1]), "fn": float(tab[2]), "tn": float(tab[3]),
                             **{k: float(v) for k, v in measures.scores(*tab, beta=beta).items()}}
    return out


def fair_scores(data: GermEvalData, chunks: Dict[Tuple[str, str], LevelChunks]) -> Dict[str, Any]:
    """Ortmann's fair error types per level, from :mod:`ts_eval.fair`.

    Returns ``{"available": False, "note": ...}`` when :mod:`ts_eval.fair` cannot be imported.
    """
    try:
        from . import fair
        fair.fair_errors, fair.fair_report, fair.ERROR_TYPES  # noqa: B018  (the API used here)
    except (ImportError, AttributeError) as err:
        return {"available": False, "note": f"ts_eval.fair is not usable here ({err}): no fair error types"}
    return _fair_per_level(fair, data, chunks)


def _fair_per_level(fair, data: GermEvalData, chunks) -> Dict[str, Any]:
    """Fair error types of each level alone (gold outer vs system outer, inner vs inner).

    Uses :func:`ts_eval.fair.fair_errors` on the shared matcher's pairs and
    :func:`ts_eval.fair.fair_report` for the traditional, fair and weighted (eq5) scores.
    Chunks that run over a sentence boundary (policy nereval) are cut at it first.
    """
    offsets = data.sent_offsets
    out: Dict[str, Any] = {"available": True, "levels": {}}
    header = ["level", *fair.ERROR_TYPES, "trad F1", "fair F1"]
    rows = []
    for lv in LEVELS:
        g = sentence_bounded(chunks[("gold", lv)], offsets)
        s = sentence_bounded(chunks[("system", lv)], offsets)
        res = fair.fair_errors(g, s, match(g, s), list(LABELS), offsets)
        rep = _plain(fair.fair_report(res))
        out["levels"][lv] = rep
        tot = res.counts()
        rows.append([lv, *[tot[k] for k in fair.ERROR_TYPES],
                     "%.2f" % (100 * rep["traditional"]["overall"]["f1"]), "%.2f" % (100 * rep["fair"]["overall"]["f1"])])
    out["table"] = {"header": header, "rows": rows}
    return out


def _plain(obj: Any) -> Any:
    """Dataclasses / numpy values -> plain JSON-able data."""
    import dataclasses

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


def _prf(g: int, f: int, k: int) -> Dict[str, Any]:
    p = k / f if f else 0.0
    r = k / g if g else 0.0
    return {"gold": g, "found": f, "correct": k, "precision": p, "recall": r,
            "f1": 2 * p * r / (p + r) if p + r > 0 else 0.0}


def counts_dict(c: GermEvalCounts) -> Dict[str, Any]:
    """The counts and Metrics 1-4 (fractions) as plain data."""
    n = c.n_tokens
    levels: Dict[str, Any] = {}
    for lv in LEVELS:
        levels[lv] = {}
        for mode in MODES:
            lc = c.get(mode, lv)
            g, f, k = lc.totals()
            levels[lv][mode] = {
                "gold": g, "found": f, "correct": k, "tags_correct": lc.tags_correct, "eof_dropped": lc.eof_dropped,
                "types": {t: {"gold": int(lc.gold[i]), "found": int(lc.found[i]), "correct": int(lc.correct[i])}
                          for i, t in enumerate(lc.types)},
            }

    def combined(mode: str) -> Dict[str, Any]:
        g = sum(levels[lv][mode]["gold"] for lv in LEVELS)
        f = sum(levels[lv][mode]["found"] for lv in LEVELS)
        k = sum(levels[lv][mode]["correct"] for lv in LEVELS)
        acc = (levels["outer"][mode]["tags_correct"] + levels["inner"][mode]["tags_correct"]) / 2 / n if n else 0.0
        return {**_prf(g, f, k), "accuracy": acc}

    def single(lv: str) -> Dict[str, Any]:
        d = levels[lv]["strict"]
        return {**_prf(d["gold"], d["found"], d["correct"]), "accuracy": d["tags_correct"] / n if n else 0.0}

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
    per_type: Dict[str, Any] = {}
    for t in nereval_types(c):
        rows = {}
        for mode, lv, _ in ROW_TITLES:
            if mode == "loose" and t not in BASES:
                continue
            d = levels[lv][mode]["types"].get(t, {"gold": 0, "found": 0, "correct": 0})
            rows[f"{lv}_{mode}"] = _prf(d["gold"], d["found"], d["correct"])
        per_type[t] = rows
    return {"tokens": n, "policy": c.policy, "eof_quirk": c.eof_quirk, "levels": levels, "metrics": metrics,
            "per_type": per_type}


def validation_dict(data: GermEvalData, c: GermEvalCounts) -> Dict[str, Any]:
    """What reading and decoding found, per row: chunks, ill-formed ones and how they were treated."""
    rows = {}
    for side in ("gold", "system"):
        for lv in LEVELS:
            ch = c.chunks[(side, lv)]
            rows[f"{side} {lv}"] = {
                "chunks": len(ch), "ill_formed": int(ch.ill_formed.sum()), "dropped": ch.dropped,
                "i_start": int(np.count_nonzero(TAG_PREFIX[data.row(side, lv)[ch.start]] == 2)),
                "label_change_inside": int(ch.mixed.sum()), "crosses_sentence": int(ch.crosses.sum()),
            }
    eof = sum(lc.eof_dropped for (mode, _), lc in c.levels.items() if mode == "strict")
    return {"rows": rows, "eof_dropped_strict": eof}


def evaluate_germeval(data: GermEvalData, policy: str = "nereval", separator_weight: float = 1.0,
                      beta: float = 1.0, eof_quirk: bool = True, fair: bool = True) -> Report:
    """Score one system: Metrics 1-4 (official), TS over both levels, fair error types per level."""
    if separator_weight < 0:
        raise ValueError(f"separator weight must be >= 0, got {separator_weight}")
    if beta <= 0:
        raise ValueError(f"beta must be > 0, got {beta}")
    chunks = level_chunks(data, policy)
    c = germeval_counts(data, policy, eof_quirk, chunks)
    system: Dict[str, Any] = {
        "name": data.name,
        "source": {"name": data.name, "path": data.system_path, "layout": data.layout},
        "germeval": counts_dict(c),
        "validation": validation_dict(data, c),
        "ts": ts_scores(data, chunks, separator_weight, beta),
    }
    if fair:
        system["fair"] = fair_scores(data, chunks)
    settings = {
        "command": "germeval", "policy": policy, "eof_quirk": eof_quirk, "separator_weight": separator_weight,
        "beta": beta, "labels": list(LABELS), "layout": data.layout,
        "scorer": "nereval.perl 2014-05-19 (GermEval 2014 official); Metrics 1-4 reproduce it",
        "versions": {"ts_eval": __version__, "numpy": np.__version__, "python": platform.python_version()},
    }
    corpus = {"tokens": data.n_tokens, "sentences": data.n_sentences, "separators": data.n_tokens - data.n_sentences,
              "comment_lines": data.comment_lines, "labels": list(LABELS)}
    gold = {"name": "gold", "path": data.gold_path,
            "chunks": {lv: len(c.chunks[("gold", lv)]) for lv in LEVELS}}
    return Report(settings, corpus, gold, [system])


def score_files(gold_or_file: str, system_path: Optional[str] = None, name: Optional[str] = None,
                policy: str = "nereval", **kwargs) -> Report:
    """Read (6-column FILE, or gold + system files) and score: the one-call entry point."""
    data = read_germeval_any(gold_or_file, system_path, name, policy)
    return evaluate_germeval(data, policy, **kwargs)


# ---------------------------------------------------------------------------
# ranking: Metric 1 as a model of per-sentence sufficient statistics


@dataclass
class Metric1Stats:
    """Per-sentence Metric 1 counts of one system (outer and inner chunks pooled).

    ``stats[:, 0]`` gold chunks, ``[:, 1]`` found chunks, ``[:, 2]`` correct chunks, each
    filed under the sentence of its first token.  Their column sums are exactly the
    official scorer's totals (including the end-of-input rule when ``eof_quirk``).
    """

    name: str
    stats: np.ndarray      # (sentences, 3) int64
    sent_offsets: np.ndarray

    @property
    def totals(self) -> np.ndarray:
        return self.stats.sum(axis=0)

    @property
    def f1(self) -> float:
        return float(metric1_f1(self.totals))

    @property
    def precision(self) -> float:
        g, f, k = self.totals.tolist()
        return k / f if f else 0.0

    @property
    def recall(self) -> float:
        g, f, k = self.totals.tolist()
        return k / g if g else 0.0


def metric1_f1(x: np.ndarray) -> np.ndarray:
    """Metric 1 F1 (a fraction) of summed statistics ``(..., 3)`` = gold, found, correct.

    Vectorised over leading axes (bootstrap resamples x systems); F1 = 2PR/(P+R) with
    0 when P + R = 0, which equals 2 * correct / (gold + found).
    """
    x = np.asarray(x, float)
    g, f, k = x[..., 0], x[..., 1], x[..., 2]
    den = g + f
    return np.divide(2 * k, den, out=np.zeros_like(den), where=den > 0)


def metric1_stats(data: GermEvalData, policy: str = "nereval", eof_quirk: bool = True) -> Metric1Stats:
    """Metric 1's per-sentence (gold, found, correct) counts of one system."""
    c = germeval_counts(data, policy, eof_quirk)
    return Metric1Stats(data.name, c.m1_sentences, data.sent_offsets)


def metric1_from_files(gold_or_file: str, system_path: Optional[str] = None, name: Optional[str] = None,
                       policy: str = "nereval", eof_quirk: bool = True) -> Metric1Stats:
    """Metric 1 statistics from a 6-column FILE, or from a gold file and a system file."""
    return metric1_stats(read_germeval_any(gold_or_file, system_path, name, policy), policy, eof_quirk)


@dataclass
class GermEvalSide(SideInfo):
    """A system side of a GermEval corpus: its Metric 1 statistics travel with it."""

    metric1: Optional[np.ndarray] = None     # (sentences, 3) gold, found, correct


def germeval_corpus(gold_path: Optional[str], system_paths: Sequence[str], names: Optional[Sequence[str]] = None,
                    policy: str = "nereval", eof_quirk: bool = True) -> Corpus:
    """A :class:`Corpus` of several systems in GermEval layout (both levels, twelve labels).

    ``gold_path`` None: every system file is a 6-column file and all must carry the same
    gold tags and tokens.  Otherwise each system file (4 or 6 columns) is read against
    the gold file.  Each system's :class:`GermEvalSide` carries its Metric 1
    per-sentence statistics, which :func:`metric1_sentence_stats` hands to ranking.
    """
    if not system_paths:
        raise UsageError("no system file given")
    if names is not None and len(names) != len(system_paths):
        raise UsageError(f"{len(names)} names for {len(system_paths)} system files")
    datas = [read_germeval_any(gold_path or p, p if gold_path else None, names[k] if names else None, policy)
             for k, p in enumerate(system_paths)]
    first = datas[0]
    seen = set()
    for d in datas:
        if d.name in seen or d.name == "gold":
            raise UsageError(f"system name {d.name!r} is used twice (or is 'gold'); give unique --names")
        seen.add(d.name)
        if d is first:
            continue
        if d.n_tokens != first.n_tokens or not np.array_equal(d.sent_first, first.sent_first):
            raise InputError(f"{d.n_tokens} tokens / {d.n_sentences} sentences, but {first.system_path} has "
                             f"{first.n_tokens} / {first.n_sentences}: the files are not about the same text",
                             d.system_path)
        diff = np.nonzero(d.tags[:2] != first.tags[:2])
        if len(diff[0]):
            t = int(diff[1].min())
            r = int(diff[0][diff[1] == t][0])
            path, line = d.where(r, t)
            raise InputError(f"gold {LEVELS[r]} tag {TAGS[d.tags[r, t]]!r} differs from "
                             f"{TAGS[first.tags[r, t]]!r} in {first.gold_path} line {int(first.gold_lines[t])}: "
                             "all systems must be scored against the same gold", path, line)
    systems, infos = {}, {}
    gold_set = None
    for d in datas:
        chunks = level_chunks(d, policy)
        corpus1 = level_corpus(d, chunks)
        gold_set = corpus1.gold if gold_set is None else gold_set
        systems[d.name] = corpus1.systems[d.name]
        c = germeval_counts(d, policy, eof_quirk, chunks)
        infos[d.name] = GermEvalSide(d.name, d.system_path, spans=len(systems[d.name]), metric1=c.m1_sentences)
    gold_info = SideInfo("gold", first.gold_path, spans=len(gold_set))
    return Corpus(first.sent_offsets, list(LABELS), gold_set, systems, gold_info, infos, scheme="IOB2",
                  policy=policy, tokens=first.texts)


def metric1_sentence_stats(sd) -> np.ndarray:
    """Ranking statistics function: ``(sentences, 3)`` Metric 1 counts of a system of a GermEval corpus.

    ``sd`` is a :class:`ts_eval.sufficient.SystemData` (anything with ``cd.corpus`` and
    ``name``); the corpus must come from :func:`germeval_corpus`.
    """
    info = sd.cd.corpus.system_info[sd.name]
    stats = getattr(info, "metric1", None)
    if stats is None:
        raise UsageError("GermEval Metric 1 needs GermEval-layout input (read with ts_eval.germeval.germeval_corpus)")
    return np.asarray(stats, float)


#: Metric 1 as a ranking model: ``ts_eval.sufficient.register(Model(**RANK_MODEL))``
RANK_MODEL: Dict[str, Any] = {
    "name": "germeval-m1",
    "title": "M1-F1",
    "stats": metric1_sentence_stats,
    "score": metric1_f1,
    "description": "GermEval 2014 Metric 1 F1 (strict, combined: outer and inner chunks pooled), the shared "
                   "task's official ranking, as nereval.perl computes it; needs GermEval-layout input",
}
