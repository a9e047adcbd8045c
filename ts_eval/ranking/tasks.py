"""The tasks of a ranking: what each reads and how (the tasks as given, and manifests:
:mod:`ts_eval.ranking.manifest`).

A :class:`Task` holds one task's input: its corpus read whole, or its :class:`~ts_eval.io.inputs.Inputs` read in
blocks of sentences (:meth:`Task.blocks`), whose statistics the ranking takes block by block
(:func:`ts_eval.ranking.blocks.rank_blocks`) without holding the corpus -- which it can when every model says how
its statistics depend on the labels (:func:`reads_in_blocks`).  :func:`read_task` makes one from a
:class:`~ts_eval.ranking.manifest.TaskSpec` and the inputs every task shares (:func:`task_inputs`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple

from .manifest import TaskSpec, check_two

if TYPE_CHECKING:
    from ..core.corpus import Corpus
    from ..io.inputs import Inputs
    from ..models.counts import Counts
    from ..results.report import Report


def task_inputs(spec: TaskSpec, shared: Inputs, glob: str) -> Inputs:
    """What a task reads: the ``shared`` reading options with the task's own (``spec.options``: ``gold_col``,
    ``system_col``, ``scheme``; its ``names``), on its one file with gold and system columns or on its gold and
    system files (a directory's files that match ``glob``; at least two)."""
    from ..io.inputs import expand

    opts = spec.options
    system_col = opts.get("system_col", shared.system_columns)
    inputs = replace(shared, names=None if spec.names is None else tuple(spec.names),
                     gold_column=opts.get("gold_col", shared.gold_column),
                     system_columns=None if system_col is None else tuple([system_col] if isinstance(system_col, int)
                                                                          else system_col))
    if opts.get("scheme"):
        inputs = replace(inputs, scheme=opts["scheme"])
    if opts.get("single_file"):
        return replace(inputs, file=spec.systems[0])
    files = expand(spec.systems, glob, exclude=[spec.gold])
    check_two(spec.name, files)
    return replace(inputs, gold=spec.gold, systems=tuple(files))


def read_task(spec: TaskSpec, inputs: Optional[Inputs], glob: str, models: Optional[Sequence[str]], reference: str,
              policy: Optional[str] = None) -> Task:
    """A task that reads ``inputs`` (:func:`task_inputs`) in blocks as it is ranked when :func:`reads_in_blocks`
    (and ``policy`` is not GermEval's ``nereval``), else read whole now; ``inputs`` None: a task in GermEval 2014's
    layout (:func:`germeval_task`)."""
    from ..io.inputs import taken_from_directories

    if inputs is None:
        return Task(spec.name, corpus=germeval_task(spec, glob, policy))
    if policy != "nereval" and reads_in_blocks(models, reference):
        return Task(spec.name, inputs=inputs, directories=spec.systems, glob=glob)
    with taken_from_directories(spec.systems, glob):
        task = Task(spec.name, corpus=inputs.corpus("ranking", min_systems=2))
    task.source = inputs
    return task


def germeval_task(spec: TaskSpec, glob: str, policy: Optional[str]) -> Corpus:
    """A task in GermEval 2014's layout (both levels, twelve labels) read whole."""
    from ..germeval.corpus import germeval_corpus
    from ..io.inputs import expand, system_names

    files = expand(spec.systems, glob, exclude=[spec.gold] if spec.gold else [])
    names = system_names(files, spec.names)
    check_two(spec.name, files)
    return germeval_corpus(spec.gold or None, files, names=names, policy=policy or "nereval")


def reads_in_blocks(models: Optional[Sequence[str]], reference: str) -> bool:
    """Whether a task can be ranked block by block: every model (and the reference) says how its statistics
    depend on the labels."""
    from .sufficient import get_model, resolve_models

    return all(m.columns is not None for m in resolve_models(models)) and get_model(reference).columns is not None


class Task:
    """One task's input: a corpus read whole, or inputs read in blocks of sentences (``inputs``; the
    ``directories`` among its systems, whose files match ``glob``, are named in its errors)."""

    def __init__(self, name: str, *, corpus: Optional[Corpus] = None, inputs: Optional[Inputs] = None,
                 directories: Sequence[str] = (), glob: str = "*") -> None:
        assert (corpus is None) != (inputs is None)
        self.name, self.corpus, self.inputs = name, corpus, inputs
        self.directories, self.glob = list(directories), glob
        #: the score report of the task's systems, once :meth:`blocks` has read them all with ``report``
        self.report: Optional[Report] = None
        #: the score counts that :attr:`report` is made of, once :meth:`blocks` has read them with ``report``
        self.counts: Optional[Counts] = None
        #: what the task reads (also when its corpus is read whole now; None: GermEval's layout)
        self.source: Optional[Inputs] = inputs
        #: systems given as several runs: system name -> the names of its runs among the systems read (the
        #: ``runs`` of :func:`ts_eval.ranking.study.rank_corpus`); None: every system is one file
        self.runs: Optional[Dict[str, List[str]]] = None

    @property
    def systems(self) -> int:
        """How many systems the task has (1 when not known before reading: :attr:`known_systems`)."""
        return self.known_systems or 1

    @property
    def known_systems(self) -> int:
        """How many systems the task has, as known before reading (0: the columns of a file after its gold's)."""
        if self.corpus is not None:
            return len(self.corpus.systems)
        assert self.inputs is not None
        if self.inputs.gold is not None:
            return len(self.inputs.system_inputs())
        return len(self.inputs.names or self.inputs.system_columns or ())

    def blocks(self, block_bytes: int, report: bool = False, shard: Optional[Tuple[int, int, int, Any]] = None
               ) -> Iterator[Corpus]:
        """The task's blocks of whole sentences, of about ``block_bytes`` of gold (``rank``:
        :data:`ts_eval.ranking.blocks.BLOCK_BYTES`; ``report``: after the last, :attr:`counts` are the score counts
        of the whole, added up block by block, and :attr:`report` their report; ``shard``: only that part of its
        one column file, :attr:`ts_eval.io.inputs.Inputs.shard`)."""
        from ..io.inputs import taken_from_directories
        from ..models.counts import add_up, count_corpus
        from ..models.evaluate import DEFAULT_MODELS, score_settings

        assert self.inputs is not None
        parts: List[Counts] = []
        settings = score_settings()
        with taken_from_directories(self.directories, self.glob):
            for block in replace(self.inputs, block_bytes=block_bytes, shard=shard or self.inputs.shard).read(
                    "ranking", min_systems=2):
                if report:      # what evaluate() counts of the whole corpus, added up block by block
                    parts[:] = [add_up(parts + [count_corpus(block, DEFAULT_MODELS, settings)])]
                yield block
        if report:
            self.counts = parts[0]
            self.report = self.counts.report()

    def score_report(self) -> Report:
        """The score report of the task's systems (what :func:`ts_eval.models.evaluate.evaluate` gives): of its
        corpus, or added up from its blocks once :meth:`blocks` has read them with ``report``."""
        if self.report is None:
            from ..models.evaluate import evaluate

            assert self.corpus is not None
            self.report = evaluate(self.corpus)
        return self.report
