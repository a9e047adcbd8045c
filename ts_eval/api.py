"""The verbs of ``ts_eval`` whose input may be of several kinds: what they are given decides how it is read.

- :func:`score`: a :class:`~ts_eval.core.corpus.Corpus`, the :class:`~ts_eval.io.inputs.Inputs` of files (counted
  block by block: memory does not grow with them), or Python lists (tags, or spans with ``lengths``) ->
  :class:`~ts_eval.results.report.Report`.
- :func:`rank`: a Corpus, Inputs (ranked block by block), Python tag lists, or tasks (a mapping task name ->
  Corpus) -> a ranking.
- :func:`read`: one input (a path) -> its documents; gold and systems (paths, or documents read already), or
  Inputs -> a Corpus.

The other verbs take one kind of input and live where their study does (``compare``, ``analyze``, ``agree``,
``convert``: see ``ts_eval.__all__``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence, Union

if TYPE_CHECKING:
    from .core.corpus import Corpus
    from .io.documents import Documents


def score(gold: Any, systems: Any = None, *, references: Optional[Sequence[str]] = None, **options: Any) -> Any:
    """Score systems against gold under every model asked for (``models``; default TS, exact match and fair).

    ``gold``: a :class:`~ts_eval.core.corpus.Corpus` (``systems`` None); the
    :class:`~ts_eval.io.inputs.Inputs` of files of any size and format, read in blocks
    (``ts_eval.Inputs(gold="gold.jsonl", systems=("a.jsonl",))``; ``labels``/``exclude`` keep some labels);
    or seqeval-style lists of tags per sentence with ``systems`` the same for one system or a mapping
    name -> lists (``scheme``, ``policy``), or span lists ``(label, start, end)`` with ``lengths``.
    ``options``: the models' settings (``separator_weight``, ``beta``, ``all_labels_row``, ``k1``, ``k2``,
    ``focus``, ``weights``, ``fair_mode``, ``min_overlap``, ``assignment``, ``partial_weight``).

    Several references of the same tokens (docs/references.md): ``gold`` a mapping name -> path of two or more
    references (the first is reference A) with ``systems`` the system files (a list, or a mapping name -> path),
    or a Corpus with ``references`` the names of two or more of its sides (its gold's name among them, first):
    every system against every reference, a
    :class:`~ts_eval.comparison.by_reference.ScoresByReference`.
    """
    from .core.corpus import Corpus
    from .io.inputs import Inputs

    if references is not None or (isinstance(gold, Mapping) and all(isinstance(p, str) for p in gold.values())):
        from .comparison.by_reference import score_references

        if isinstance(gold, Mapping):
            from .io.api import read_with_references

            gold, references = read_with_references(gold, systems or ()), references or list(gold)
        elif not isinstance(gold, Corpus) or systems is not None:
            raise TypeError("score(..., references=...) takes a Corpus and no systems, or gold as a mapping "
                            "name -> path of the references")
        return score_references(gold, list(references or ()), **options)

    if isinstance(gold, (Corpus, Inputs)) and systems is not None:
        raise TypeError("score(corpus) and score(inputs) take no systems: they are in the corpus or the inputs")
    if isinstance(gold, Inputs):
        from .core.corpus import check_selection
        from .streaming.files import count

        counts = count(gold, **options)
        check_selection(counts.input_labels, options.get("labels"), options.get("exclude", ()))
        return counts.report()
    if isinstance(gold, Corpus):
        from .models.evaluate import evaluate

        return evaluate(gold, **options)
    from .models.evaluate import score as score_lists

    return score_lists(gold, systems, **options)


def rank(gold: Any, systems: Any = None, **options: Any) -> Any:
    """Rank systems under several evaluation models (see docs/ranking.md).

    ``gold``: a Corpus (``systems`` may name a subset), Inputs (read and ranked block by block: only the
    per-sentence statistics are kept), seqeval-style tag lists with ``systems`` a mapping name -> tag lists, or
    a mapping task name -> Corpus (every task ranked with the same options, correlations averaged).
    ``options``: :func:`ts_eval.ranking.study.rank_corpus`'s (``models``, ``reference``, ``bootstrap``,
    ``permutations``, ``unit``, ``seed``, ``runs``, ...).  With Inputs, ``runs`` may give a system's runs as
    files: system name -> a glob pattern or folder (:func:`ts_eval.io.runs.with_runs`; ``glob``: the Inputs').
    """
    from .core.corpus import Corpus
    from .io.inputs import Inputs

    if isinstance(gold, Inputs):
        from .ranking.blocks import rank_blocks

        if systems is not None:
            raise TypeError("rank(inputs) takes no systems: they are in the inputs")
        runs = options.get("runs")
        if runs and all(isinstance(v, str) for v in runs.values()):     # patterns or folders of run files
            from .io.runs import with_runs

            gold, options["runs"] = with_runs(gold, runs, gold.glob or "*")
        return rank_blocks(gold.read("rank", 2), **options)
    if isinstance(gold, Mapping) and systems is None and all(isinstance(c, Corpus) for c in gold.values()):
        from .ranking.study import rank_tasks

        return rank_tasks(gold, **options)
    from .ranking.study import rank as rank_study

    return rank_study(gold, systems, **options)


def read(source: Any, systems: Any = None, **options: Any) -> Union[Documents, Corpus]:
    """Read inputs of any supported format (docs/inputs.md).

    ``read(path)``: one input (gold or a system) -> :class:`~ts_eval.io.documents.Documents` (``format``: forced,
    else by extension and content; the format's options).  ``read(gold, systems)``: gold and one or more
    systems (paths or Documents, possibly in different formats: ``format``, ``system_format``; a mapping name
    -> path names them) paired document by document -> Corpus.  ``read(inputs)``: the
    :class:`~ts_eval.io.inputs.Inputs` read whole -> Corpus.
    """
    from .io.inputs import Inputs

    if isinstance(source, Inputs):
        if systems is not None or options:
            raise TypeError("read(inputs) takes nothing else: the inputs say what and how")
        return source.corpus()
    if systems is None:
        from .io.reader import read as read_one

        return read_one(source, **options)
    from .io.api import read_pair

    return read_pair(source, systems, **options)

