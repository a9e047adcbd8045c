"""The entry point: :func:`compare` (a corpus read whole) and :func:`compare_blocks` (a corpus given in blocks
of whole sentences, the blocks of :meth:`ts_eval.io.inputs.Inputs.read`): :class:`ComparisonBuilder` takes one
block at a time and keeps only running sums, so :func:`compare_blocks` never holds the corpus; its result is
the one of :func:`compare` on the corpus read whole (which is :func:`compare_blocks` with one block).

What it keeps (none of it a Python object per token or span): per system the tokens and sentences it gets
right and its exact-match counts (and, with ``models``, ``score``'s counts: :class:`~ts_eval.models.counts.Counts`);
for the pair the token transitions and counts per token label (:class:`~.tokens.TokenSums`), the span-level
sums per outcome vocabulary (:class:`~.outcomes.OutcomeSums`), the TS units per label
(:func:`~.ts.ts_counts`) and the candidate example sentences (:class:`~.examples.ExampleSums`, a number per
transition); with more than two systems the pairwise and oracle counts and the hard and easy gold spans,
listed whole (:class:`~.several.MultiSums`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Hashable, Iterable, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import ThresholdLike, match_settings
from ..core.measures import check_separator_weight, prf
from ..models.context import CorpusData, ScoreSettings, SystemData
from ..models.counts import Counts, SystemCounts, result_of, tally_of
from ..models.registry import check_matching, check_partial_weight, score_specs
from ..models.segment import EXACT_STATS
from ..models.tally import CorpusTally, SideTally, Totals
from .checks import check_arguments, check_models

__all__ = ["ComparisonBuilder", "check_models", "compare", "compare_blocks"]
from .examples import ExampleSums
from .outcomes import OutcomeCodes, OutcomeNames, OutcomeSums, SpanSides
from .results import ARROW, CLASSES, Comparison, PairComparison
from .semeval_spans import add_semeval, semeval_result, semeval_sums
from .several import MultiSums, exact_hits
from .spans import FAIR_NAMES, fair_outcomes, systems_instead
from .tokens import TokenSums, key_name, key_order, resolve_view, token_label_keys
from .transitions import _ratio
from .ts import ts_counts, ts_result


def _transitions(names: OutcomeNames) -> List[str]:
    """Every span transition key's name (a key that names no transition: "")."""
    G = len(names.gold)
    return [ARROW.join(names.name(k)) if k >= names.dropped or (k % names.w < G and k // names.w < G) else ""
            for k in range(names.added + 1)]


_FAIR_TRANSITIONS = _transitions(FAIR_NAMES)


@dataclass(frozen=True)
class _Heading:
    """What a comparison says of its inputs, from the first block."""

    systems: Dict[str, Tuple[Optional[str], Optional[int]]]     # name -> path, column
    gold_path: Optional[str]
    gold_column: Optional[int]
    scheme: Optional[str]
    policy: Optional[str]
    label_map: List[Tuple[str, str]]

    @classmethod
    def of(cls, corpus: Corpus) -> _Heading:
        return cls({n: (i.path, i.column) for n, i in corpus.system_info.items()}, corpus.gold_info.path,
                   corpus.gold_info.column, corpus.scheme, corpus.policy, list(corpus.label_map))


class ComparisonBuilder:
    """The comparison of a corpus given block by block (:meth:`add`), made from the first block's systems
    and the options of :func:`~ts_eval.comparison.comparison.compare` (checked here: an
    :class:`~ts_eval.errors.OptionError` for a bad one)."""

    def __init__(self, first: Corpus, a: Optional[str] = None, b: Optional[str] = None, *, top: Optional[int] = 5,
                 examples: int = 1, view: str = "auto", separator_weight: float = 1.0, spans: bool = True,
                 fair_mode: str = "paper", models: Sequence[str] = (), min_overlap: Any = None,
                 assignment: str = "many-to-many", partial_weight: float = 0.5) -> None:
        self.names = list(first.systems)
        check_separator_weight(separator_weight)
        self.a, self.b = check_arguments(first, a, b, top, examples)
        self.models = check_models(models)
        self.matching = match_settings(min_overlap, assignment)
        check_matching(self.matching, self.models)
        self.view_requested, self.view = view, resolve_view(first, self.names, view)
        self.settings = ScoreSettings(separator_weight, fair_mode=fair_mode, matching=self.matching,
                                      partial_weight=check_partial_weight(partial_weight))
        self.top, self.examples, self.spans, self.fair_mode = top, examples, spans, fair_mode
        pair = (self.names.index(self.a), self.names.index(self.b)) if self.a is not None and self.b is not None \
            else None
        self.tokens = TokenSums(len(self.names), pair)
        self.exact = np.zeros((len(self.names), 4), np.int64)      # gold, system, tp (and fp) per system
        self.counts: Optional[Counts] = None
        self.outcomes = OutcomeSums(FAIR_NAMES) if pair is not None and spans else None
        self.semeval = semeval_sums() if pair is not None and "semeval" in self.models else None
        self.ts: Dict[str, np.ndarray] = {}
        self.example_sums = ExampleSums({"gold": "gold", "A": str(self.a), "B": str(self.b)}, examples, top) \
            if pair is not None and examples else None
        self.multi = MultiSums(self.names) if len(self.names) > 2 else None
        self.vocab: Set[Hashable] = set()
        self.labels: Set[str] = set()
        self.tally = CorpusTally()
        self.gold_spans = 0
        self.first = _Heading.of(first)

    def add(self, corpus: Corpus) -> None:
        """Take one block of whole sentences (the next of the corpus)."""
        cd = CorpusData(corpus, self.matching)
        systems = {name: SystemData(cd, name) for name in self.names}    # (cd.system() would make cycles)
        keys, ids = token_label_keys(corpus, self.names, self.view)
        gold_ids, sys_ids = ids[0], ids[1:]
        right = sys_ids == gold_ids[None, :]
        self.vocab.update(keys)
        self.labels.update(corpus.labels)
        self.tokens.add(corpus, keys, gold_ids, sys_ids, right)
        at = (self.tally.tokens, self.tally.sentences)
        fair: Dict[str, OutcomeCodes] = {}

        def outcomes(name: str) -> OutcomeCodes:
            if name not in fair:
                fair[name] = fair_outcomes(corpus, name, systems[name].pairs, self.fair_mode)
            return fair[name]

        hits = self._systems(cd, systems)
        if self.a is not None and self.b is not None:
            self._pair(corpus, systems, keys, ids, outcomes, at)
        if self.multi is not None:
            hard = self.multi.add(corpus, keys, gold_ids, sys_ids, right, np.stack(hits), (self.gold_spans, at[1]))
            if self.spans:
                found = systems_instead(corpus, self.names, hard, self.fair_mode, outcomes)
                for rec, inst in zip(self.multi.hard[len(self.multi.hard) - len(hard):], found):
                    rec["systems_instead"] = inst
        self.tally = self.tally + CorpusTally.of(corpus)
        self.gold_spans += len(corpus.gold)

    def _systems(self, cd: CorpusData, each: Dict[str, SystemData]) -> List[np.ndarray]:
        """Each system's exact-match counts (and ``score``'s counts under the models); per system which gold
        spans it finds exactly."""
        corpus = cd.corpus
        hits, systems = [], []
        for i, name in enumerate(self.names):
            sd = each[name]
            hits.append(exact_hits(corpus.gold, sd.spans, sd.pairs)[0])
            self.exact[i] += sd.stats(EXACT_STATS).sum(0).reshape(-1, 4).sum(0).astype(np.int64)
            tallies = {}
            for m, spec in score_specs(self.models).items():
                tallies[m] = tally_of(spec, sd, self.settings)
                sd.cache.clear()
            systems.append(SystemCounts(name, SideTally.of(corpus.system_info[name]), tallies))
        if self.models:
            part = Counts(tuple(self.models), self.settings, corpus.scheme, corpus.scheme_requested, corpus.policy,
                          tuple((p, r) for p, r in corpus.label_map), tuple(corpus.labels), CorpusTally.of(corpus),
                          SideTally.of(corpus.gold_info), tuple(systems), tuple(corpus.labels))
            self.counts = part if self.counts is None else self.counts + part
        return hits

    def _pair(self, corpus: Corpus, each: Dict[str, SystemData], keys: Sequence[Hashable], ids: np.ndarray,
              outcomes: Any, at: Tuple[int, int]) -> None:
        """The pair's span-level, SemEval and TS sums of one block, and its example candidates."""
        a, b = str(self.a), str(self.b)
        sides = SpanSides(corpus.gold, corpus.systems[a], corpus.systems[b], corpus.labels)
        ctx = self.outcomes.add(sides, outcomes(a), outcomes(b)) if self.outcomes is not None else None
        if self.semeval is not None:
            add_semeval(self.semeval, sides, each[a].pairs, each[b].pairs, self.matching)
        for lab, row in ts_counts(corpus, a, b).items():
            self.ts[lab] = row + self.ts[lab] if lab in self.ts else row
        if self.example_sums is None:
            return
        ia, ib = self.names.index(a), self.names.index(b)
        self._token_examples(corpus, keys, ids[0], ids[1 + ia], ids[1 + ib], at)
        if ctx is not None:
            names, transitions = FAIR_NAMES, _FAIR_TRANSITIONS
            for k, cls in enumerate(CLASSES):
                sel = np.flatnonzero(ctx.g_cls == k)
                self.example_sums.add(corpus, "span", cls, transitions, ctx.gold_key[sel], corpus.gold.start[sel],
                                      corpus.gold.last[sel], at)
            for idx, src, key in ((ctx.dropped, sides.a, names.dropped), (ctx.added, sides.b, names.added)):
                cls = CLASSES[0] if key == names.dropped else CLASSES[1]
                self.example_sums.add(corpus, "span", cls, transitions, np.full(len(idx), key, np.int64),
                                      src.start[idx], src.last[idx], at)

    def _token_examples(self, corpus: Corpus, keys: Sequence[Hashable], g: np.ndarray, xa: np.ndarray,
                        xb: np.ndarray, at: Tuple[int, int]) -> None:
        from .tokens import change_keys, change_masks, transition_of

        assert self.example_sums is not None
        V = max(len(keys), 1)
        masks = change_masks(g, xa, xb)
        for cls, codes in change_keys(g, xa, xb, V, masks).items():
            if not len(codes):
                continue
            u, which = np.unique(codes, return_inverse=True)
            names = [ARROW.join(key_name(keys[i]) for i in transition_of(cls, int(k), V)) for k in u.tolist()]
            pos = np.flatnonzero(masks[cls])
            self.example_sums.add(corpus, "token", cls, names, which.reshape(-1), pos, pos, at)

    def result(self) -> Comparison:
        """The :class:`Comparison` of every block so far."""
        labels = sorted(self.labels)
        vocab = key_order(list(self.vocab), self.view, labels)
        systems = self._rows(labels)
        pair = None
        a, b = self.a, self.b
        if a is not None and b is not None:
            tok = self.tokens.result(self.names, self.top)
            sd = self.outcomes.result(a, b, labels, self.top) if self.outcomes is not None else None
            pair = PairComparison(a, b, tok, sd, ts_result(a, b, self.settings.separator_weight, labels, self.ts))
            if self.example_sums is not None:
                pair.examples = self.example_sums.result(tok, sd)
            if self.semeval is not None:
                pair.semeval = semeval_result(self.semeval, a, b, labels, self.top, self.matching)
        multi = self.multi.result(self.tokens.right, self.tally.tokens, key_name) if self.multi is not None else None
        return Comparison(self._settings(), self._corpus(labels, vocab), systems, pair, multi)

    def _rows(self, labels: List[str]) -> List[Dict[str, Any]]:
        """One row per system: token accuracy, correct sentences, exact-match span counts and scores, then
        the chosen models' results, as score reports them."""
        first, n = self.first, self.tally.tokens
        rows = []
        for i, name in enumerate(self.names):
            gold, system, tp, _ = self.exact[i].tolist()
            p, r, f = prf(tp, system - tp, gold - tp)
            path, column = first.systems[name]
            row = {"name": name, "path": path, "column": column,
                   "token_accuracy": _ratio(self.tokens.right[i], n),
                   "correct_sentences": self.tokens.correct_sentences(i),
                   "gold": gold, "system": system, "tp": tp, "precision": p, "recall": r, "f": f}
            if self.counts is not None:
                c = self.counts.relabel(labels)
                s = c.systems[i]
                totals = Totals(list(c.labels), c.settings, c.corpus, c.gold, s.source)
                for m, spec in score_specs(self.models).items():
                    row[m] = result_of(spec, s.tallies[m], totals)
            rows.append(row)
        return rows

    def _settings(self) -> Dict[str, Any]:
        first, a, b = self.first, self.a, self.b
        st = self.settings
        return {"view": self.view, "view_requested": self.view_requested, "top": self.top, "examples": self.examples,
                "separator_weight": st.separator_weight, "scheme": first.scheme, "policy": first.policy,
                "label_map": [f"{p}={r}" for p, r in first.label_map], "pair": [a, b] if a else None,
                "models": list(self.models), **self.matching.to_dict(), "partial_weight": st.partial_weight,
                "span_outcomes": f"ts_eval.fair, mode {self.fair_mode}" if self.spans and a is not None else None,
                "tokens_note": "-DOCSTART- lines are not tokens (conlleval counts them as correct O tokens)"}

    def _corpus(self, labels: List[str], vocab: List[Hashable]) -> Dict[str, Any]:
        t = self.tally
        return {"tokens": t.tokens, "sentences": t.sentences, "separators": t.tokens - t.sentences if t.tokens else 0,
                "gold_spans": self.gold_spans, "labels": labels, "token_labels": [key_name(k) for k in vocab],
                "docstart_lines": t.docstart_lines, "gold_path": self.first.gold_path}


def compare_blocks(blocks: Iterable[Corpus], a: Optional[str] = None, b: Optional[str] = None,
                   **options: Any) -> Comparison:
    """:func:`~ts_eval.comparison.comparison.compare` of a corpus given as consecutive blocks of whole sentences
    (``options``: its options): the result of the corpus read whole, with memory for one block and the sums.
    A bad option is raised after every block was read (so that an error in the inputs comes first, as when
    the corpus is read whole)."""
    it = iter(blocks)
    first = next(it)
    try:
        builder = ComparisonBuilder(first, a, b, **options)
    except ValueError:
        for _ in it:
            pass
        raise
    builder.add(first)
    del first
    for block in it:
        builder.add(block)
        del block
    return builder.result()


def compare(
    corpus: Corpus,
    a: Optional[str] = None,
    b: Optional[str] = None,
    *,
    top: Optional[int] = 5,
    examples: int = 1,
    view: str = "auto",
    separator_weight: float = 1.0,
    spans: bool = True,
    fair_mode: str = "paper",
    models: Sequence[str] = (),
    min_overlap: ThresholdLike = None,
    assignment: str = "many-to-many",
    partial_weight: float = 0.5,
) -> Comparison:
    """Compare the systems of ``corpus``.

    ``a`` (baseline) and ``b`` (new system) pick the pair compared in detail; with exactly
    two systems they default to them in order, with more the pair is optional.  With more
    than two systems the pairwise matrix, the oracle upper bounds and the hard/easy gold
    spans are computed.  ``top``: transitions kept per class (None: all); ``examples``:
    sentences per top transition; ``spans=False`` skips the span-level pair comparison;
    ``fair_mode``: :func:`ts_eval.fair.fair_errors`'s mode (``paper`` or ``faireval-skip``).

    ``models``: names of ``score``'s models (``ts``, ``exact``, ``overlap``, ``constrained``,
    ``contain``, ``fair``, ``semeval``); each system's row then holds each model's result under
    its name, the dict ``score`` reports (the same registered statistics, ``separator_weight``
    and ``fair_mode`` as given here, F1, score's other defaults).  With ``semeval`` the pair is
    also compared span by span under each SemEval-2013 scheme (``pair.semeval``).  ``min_overlap``,
    ``assignment`` and ``partial_weight`` are ``score``'s (:func:`ts_eval.score`): the span-level
    models among ``models`` and the SemEval comparison read the matcher's pairs with them.
    """
    return compare_blocks([corpus], a, b, top=top, examples=examples, view=view, separator_weight=separator_weight,
                          spans=spans, fair_mode=fair_mode, models=models, min_overlap=min_overlap,
                          assignment=assignment, partial_weight=partial_weight)
