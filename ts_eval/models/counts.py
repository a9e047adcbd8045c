"""Counts: everything ``score``'s report is made of, for any run of sentences; the counts of two runs
add up to the counts of both.

``count_corpus(corpus, ...)`` counts every system of a corpus with the chosen models
(:class:`~ts_eval.models.tally.Tally` per model and system, what each side and the corpus hold);
``a + b`` are the counts of ``a``'s sentences followed by ``b``'s (labels seen by only one part are
aligned by name); :meth:`Counts.report` is the :class:`~ts_eval.results.report.Report`.  So a corpus can
be read in blocks of sentences keeping only running counts (``ts-eval score`` does), or scored in shards
on several processes or machines, with the report of the whole.  Counts are plain data and pickle.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus
from ..errors import OptionError
from ..fair.weights import resolve_weights
from ..results.report import Report, versions
from .context import CorpusData, ScoreSettings, SystemData
from .registry import ModelSpec, score_specs
from .tally import SUMS, CorpusTally, SideTally, Tally, Totals

GENERATED_SETTINGS = ("mode", "ground", "normalize", "normalize_steps", "fuzzy_threshold")


@dataclass(frozen=True)
class SystemCounts:
    """One system's counts: where it came from, and one tally per model."""

    name: str
    source: SideTally
    tallies: Dict[str, Tally]

    def relabel(self, where: np.ndarray, n_labels: int) -> SystemCounts:
        return replace(self, tallies={m: t.relabel(where, n_labels) for m, t in self.tallies.items()})

    def __add__(self, other: SystemCounts) -> SystemCounts:
        return SystemCounts(self.name, self.source + other.source,
                            {m: t + other.tallies[m] for m, t in self.tallies.items()})


@dataclass(frozen=True)
class Counts:
    """The counts of every system of a corpus (or of a run of its sentences) under the chosen models.

    ``models``, ``settings`` and how the input was decoded (``scheme``, ``policy``, ``label_map``) are
    the same in every part (adding parts that differ is a ValueError); ``labels`` are the labels some
    span carries, ``input_labels`` those of the input before ``labels``/``exclude`` selected some.
    """

    models: Tuple[str, ...]
    settings: ScoreSettings
    scheme: Optional[str]
    scheme_requested: Optional[str]
    policy: Optional[str]
    label_map: Tuple[Tuple[str, str], ...]
    labels: Tuple[str, ...]
    corpus: CorpusTally
    gold: SideTally
    systems: Tuple[SystemCounts, ...]
    input_labels: Tuple[str, ...] = field(default=())

    # -- adding

    def _same(self) -> Tuple[object, ...]:
        return (self.models, self.settings, self.scheme, self.scheme_requested, self.policy, self.label_map,
                tuple(s.name for s in self.systems))

    def relabel(self, labels: Sequence[str]) -> Counts:
        """The same counts over ``labels`` (which hold every label of these counts)."""
        labels = tuple(labels)
        if labels == self.labels:
            return self
        index = {lab: k for k, lab in enumerate(labels)}
        where = np.array([index[lab] for lab in self.labels], np.int64)
        return replace(self, labels=labels, systems=tuple(s.relabel(where, len(labels)) for s in self.systems))

    def __add__(self, other: Any) -> Counts:
        """The counts of these sentences followed by ``other``'s (``other`` may be 0, so ``sum()`` works)."""
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, Counts):
            return NotImplemented
        if self._same() != other._same():
            mine, theirs = self._same(), other._same()
            what = ("models", "settings", "scheme", "scheme requested", "policy", "label map", "systems")
            diff = next(w for w, a, b in zip(what, mine, theirs) if a != b)
            raise ValueError(f"counts of different evaluations cannot be added: {diff} {mine[what.index(diff)]!r} "
                             f"and {theirs[what.index(diff)]!r}")
        labels = tuple(sorted(set(self.labels) | set(other.labels)))
        a, b = self.relabel(labels), other.relabel(labels)
        return replace(a, corpus=a.corpus + b.corpus, gold=a.gold + b.gold,
                       systems=tuple(x + y for x, y in zip(a.systems, b.systems)),
                       input_labels=tuple(sorted(set(a.input_labels) | set(b.input_labels))))

    @property
    def line_numbers(self) -> Tuple[Optional[int], ...]:
        """The line numbers these counts hold (per side, gold first: its first repaired tag's line, or None)."""
        return (self.gold.first_repair_line, *(s.source.first_repair_line for s in self.systems))

    def after_lines(self, lines: int) -> Counts:
        """The same counts with every line number ``lines`` further on: the counts of a part of a file read
        as if it began the file (a shard of :func:`~ts_eval.streaming.shards.file_shards` cut without
        counting its lines), placed after ``lines`` lines of the file."""
        return replace(self, gold=self.gold.after_lines(lines),
                       systems=tuple(replace(s, source=s.source.after_lines(lines)) for s in self.systems))

    def __radd__(self, other: Any) -> Counts:
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    # -- the report

    def settings_dict(self) -> Dict[str, Any]:
        """What produced the numbers (the report's ``settings``)."""
        st, models = self.settings, list(self.models)
        return {
            "models": models,
            "scheme": self.scheme,
            "scheme_requested": self.scheme_requested,
            "policy": self.policy,
            "separator_weight": st.separator_weight,
            "beta": st.beta,
            "k1": st.k1,
            "k2": st.k2,
            **st.matching.to_dict(),
            "partial_weight": st.partial_weight,
            "fair": ({"focus": st.focus, "weights": resolve_weights(st.weights), "mode": st.fair_mode}
                     if "fair" in models else None),
            "generated": self.generated_settings(),
            "label_map": [f"{p}={r}" for p, r in self.label_map],
            "all_labels_row": st.all_labels_row,
            "macro_average": "mean over labels with gold or system units (segments); others are left out",
            "micro_average": "tables summed over labels with gold or system units; others add nothing "
                             "(none present: 0 TP/FP/FN, every unit TN)",
            "zero_division": 0.0,
            "versions": versions(),
        }

    def generated_settings(self) -> Optional[Dict[str, Any]]:
        """How the generated outputs among the systems were placed and normalised (None: there are none;
        one read places them all alike)."""
        for sc in self.systems:
            gen = (sc.source.reading or {}).get("generated")
            if isinstance(gen, Mapping):
                return {k: gen.get(k) for k in GENERATED_SETTINGS}
        return None

    def report(self) -> Report:
        """The :class:`~ts_eval.results.report.Report` of these counts."""
        order = score_specs(self.models)
        systems = []
        for s in self.systems:
            totals = Totals(list(self.labels), self.settings, self.corpus, self.gold, s.source)
            result: Dict[str, Any] = {"name": s.name, "source": s.source.summary()}
            for m, spec in order.items():
                result[m] = result_of(spec, s.tallies[m], totals)
            systems.append(result)
        return Report(self.settings_dict(), self.corpus.info(self.labels), self.gold.summary(), systems)


def tally_of(spec: ModelSpec, sd: SystemData, settings: ScoreSettings) -> Tally:
    """``score``'s counts of one system under one model: the column sums of its statistics
    (:data:`~ts_eval.models.tally.SUMS`) and its figures beside them (``extras``)."""
    x = np.asarray(spec.stats(sd, settings, False))[0]
    whole, per = spec.columns
    sums = Tally({"whole": x[:whole], "labels": x[whole:].reshape(sd.cd.n_labels, per)}, SUMS)
    return sums if spec.extras is None else sums.joined(spec.extras(sd, settings))


def result_of(spec: ModelSpec, tally: Tally, totals: Totals) -> Dict[str, Any]:
    """``score``'s result of one model from its tally of the whole corpus."""
    if spec.result is None:
        raise OptionError(f"model {spec.name!r} has no result of its own (a ranking model)")
    return spec.result(tally, totals)


def count_corpus(corpus: Corpus, models: Sequence[str], settings: ScoreSettings,
                 input_labels: Optional[Sequence[str]] = None) -> Counts:
    """The counts of every system of ``corpus`` under the models ``models`` (checked by the caller)."""
    cd = CorpusData(corpus, settings.matching)
    order = score_specs(models)
    systems: List[SystemCounts] = []
    for name in corpus.systems:
        sd = SystemData(cd, name)    # not kept in cd: one system's intermediate results in memory at a time
        tallies = {}
        for m, spec in order.items():
            tallies[m] = tally_of(spec, sd, settings)
            sd.cache.clear()
        systems.append(SystemCounts(name, SideTally.of(corpus.system_info[name]), tallies))
    return Counts(tuple(models), settings, corpus.scheme, corpus.scheme_requested, corpus.policy,
                  tuple((p, r) for p, r in corpus.label_map), tuple(corpus.labels), CorpusTally.of(corpus),
                  SideTally.of(corpus.gold_info), tuple(systems),
                  tuple(input_labels if input_labels is not None else corpus.labels))


def add_up(parts: Iterable[Counts]) -> Counts:
    """The counts of consecutive parts of a corpus, in order (a ValueError when there are none)."""
    total: Optional[Counts] = None
    for part in parts:
        total = part if total is None else total + part
    if total is None:
        raise ValueError("no counts to add up")
    return total
