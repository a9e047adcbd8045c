"""Inputs of any size counted block by block, in one process or in shards on several.

:func:`count` reads :class:`~ts_eval.io.inputs.Inputs` in blocks of whole sentences (documents) and adds up
the blocks' :class:`~ts_eval.models.counts.Counts`, so its memory does not grow with the inputs;
``counts.report()`` is the :class:`~ts_eval.results.report.Report` that :func:`ts_eval.score` gives for the
inputs read whole.  ``count_file(path, ...)`` is that for one column file, ``count_files(gold, systems, ...)``
for a gold input and one input per system (any formats).  ``file_shards(path, n, ...)``
(:mod:`ts_eval.streaming.shards`) cuts a plain column file into ``n`` :class:`~ts_eval.streaming.shards.Shard` s
of whole sentences, each counted on its own by ``count_file(shard, ...)`` -- in other processes, or on the
workers of a Dask cluster -- and the counts of the shards, added in order, are the counts of the file::

    shards = file_shards("big.conll", 8)
    counts = sum(client.gather(client.map(count_file, shards)))   # dask.distributed
    report = counts.report()

On one machine ``jobs`` does that for :func:`count` (``count_file(path, jobs=4)``, ``ts-eval score --jobs 4``):
a plain column file of at least two :data:`MIN_SHARD_BYTES` is counted in up to ``jobs`` processes, a shard each,
with the counts and the first error (with the file's line numbers) of one process; standard input, compressed
files, a gold input with system inputs and the scheme ``auto`` are counted in one.

Options: :class:`~ts_eval.io.inputs.Inputs`'s reading options (``gold_column``, ``system_columns``,
``scheme``, ...; a format's own, ``align``, ``misc_key``, ..., go with them) and the scoring options of
:func:`ts_eval.models.evaluate.evaluate` (``models``, ``beta``, ...); ``labels`` and ``exclude`` keep some labels
(a part may lack a label the inputs have, so they are not checked here: check the labels of the whole with
:func:`ts_eval.core.corpus.check_selection` and ``counts.input_labels``).
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Sequence, Tuple, Union

from ..core.corpus import Corpus, select_labels
from ..errors import InputError, OptionError
from ..io.inputs import Inputs
from ..io.source import STDIN
from ..models.counts import Counts, count_corpus
from ..models.evaluate import DEFAULT_MODELS, score_settings

if TYPE_CHECKING:
    from .shards import Shard

#: Inputs' fields a caller gives as reading options (the others: a format's own options)
READING = tuple(f.name for f in dataclasses.fields(Inputs) if f.name not in ("file", "gold", "systems", "options"))
SCORING = ("separator_weight", "beta", "all_labels_row", "models", "k1", "k2", "focus", "weights", "fair_mode",
           "min_overlap", "assignment", "partial_weight")


#: ``Inputs.jobs``: a smaller shard costs more to start than it saves (~3M tokens)
MIN_SHARD_BYTES = 32 << 20


def count(inputs: Inputs, *, labels: Optional[Sequence[str]] = None, exclude: Sequence[str] = (),
          command: str = "score", min_systems: int = 1, each: Optional[Callable[[Corpus], None]] = None,
          **scoring: Any) -> Counts:
    """The counts of every block of ``inputs`` added up (``scoring``: :func:`~ts_eval.models.evaluate.evaluate`'s
    options; ``command`` and ``min_systems`` word the error for too few systems); one plain column file in
    ``inputs.jobs`` processes when it can be cut (:func:`_in_shards`), unless ``each`` is given: then every
    block, with the labels kept, is also handed to ``each`` as it is read (in one process), so that another
    tally of the same blocks reads the inputs once with this one."""
    settings = score_settings(**scoring)
    if not isinstance(inputs.jobs, int) or inputs.jobs < 1:
        raise OptionError("expected a whole number of processes >= 1", option="jobs", value=inputs.jobs)
    if inputs.jobs > 1 and inputs.shard is None and each is None:
        sharded = _in_shards(inputs, dict(labels=labels, exclude=exclude, command=command, min_systems=min_systems,
                                          **scoring))
        if sharded is not None:
            return sharded
    models = tuple(scoring.get("models") or DEFAULT_MODELS)
    total: Optional[Counts] = None
    for corpus in inputs.read(command, min_systems):
        seen = list(corpus.labels)
        if labels is not None or exclude:
            corpus = select_labels(corpus, labels, exclude, check=False)
        part = count_corpus(corpus, models, settings, seen)
        if each is not None:
            each(corpus)
        total = part if total is None else total + part
        del corpus, part
    assert total is not None        # (the inputs hold a block at least, else reading them raises)
    return total


def inputs_of(options: Dict[str, Any], **where: Any) -> Tuple[Inputs, Dict[str, Any]]:
    """(the Inputs ``where`` names, read with the reading options among ``options``; the scoring options)."""
    unknown = set(options) - set(READING) - set(SCORING) - {"labels", "exclude", "system_column"} - set(_OTHER)
    if unknown:
        raise OptionError(f"option(s) {', '.join(sorted(unknown))}: expected reading options "
                          f"({', '.join(sorted(set(READING) | set(_OTHER)))}) or scoring options "
                          f"({', '.join(sorted(SCORING))})")
    reading = {k: v for k, v in options.items() if k in READING}
    if "system_column" in options:
        reading["system_columns"] = (options["system_column"],)
    if isinstance(reading.get("system_columns"), list):
        reading["system_columns"] = tuple(reading["system_columns"])
    for key in ("names", "label_map"):
        if reading.get(key) is not None:
            reading[key] = tuple(tuple(x) if isinstance(x, list) else x for x in reading[key])
    other = {k: v for k, v in options.items() if k in _OTHER}
    rest = {k: v for k, v in options.items() if k in SCORING or k in ("labels", "exclude")}
    return Inputs(options=other, **where, **reading), rest


#: the readers' own options (:class:`~ts_eval.io.inputs.Inputs`'s ``options``)
_OTHER = ("tag_names", "align", "discontinuous", "misc_key", "column", "id_key", "text_key", "source", "tokenizer",
          "generated", "ground", "normalize", "fuzzy_threshold", "field")


def count_file(source: Union[str, Shard], *, block_bytes: Optional[int] = None, **options: Any) -> Counts:
    """The counts of a column file (a path, or a :class:`Shard` of :func:`file_shards`), read in blocks
    (``options``: reading options and scoring options, see the module docstring; a shard brings its reading
    options)."""
    if isinstance(source, str) or hasattr(source, "__fspath__"):
        inputs, rest = inputs_of(options, file=str(source))
    else:
        inputs, rest = inputs_of({**dict(source.options), **options}, file=source.path)
        if source.stop >= 0:
            inputs = dataclasses.replace(inputs, shard=(source.start, source.stop, source.lines, source.head))
    if block_bytes is not None:
        inputs = dataclasses.replace(inputs, block_bytes=block_bytes)
    return count(inputs, **rest)


def count_files(gold: str, systems: Sequence[str], *, format: Union[str, Sequence[str], None] = None,
                block_bytes: Optional[int] = None, **options: Any) -> Counts:
    """The counts of a gold input and one input per system (two-file mode), read in lock-step blocks of
    whole sentences or documents, in any formats (``format``: one for every input, or gold's and then each
    system's; None: each detected); ``options`` as :func:`count_file`'s."""
    if not systems:
        raise OptionError("no system file given")
    formats = [format] * (len(systems) + 1) if isinstance(format, str) or format is None else list(format)
    inputs, rest = inputs_of(options, gold=gold, systems=tuple(systems))
    if len(set(formats)) == 1:
        inputs = dataclasses.replace(inputs, format=formats[0])
    else:
        inputs = dataclasses.replace(inputs, gold_format=formats[0], format=formats[1])
        if len(set(formats[1:])) > 1:
            raise OptionError("give one format for every system input (gold's may differ)")
    if block_bytes is not None:
        inputs = dataclasses.replace(inputs, block_bytes=block_bytes)
    return count(inputs, **rest)


def _in_shards(inputs: Inputs, options: Dict[str, Any]) -> Optional[Counts]:
    """The counts of one plain column file from ``inputs.jobs`` processes (fewer for a file of less than ``jobs``
    times :data:`MIN_SHARD_BYTES`), one shard of whole sentences each, added in order (None: one process will
    do, or the file cannot be cut -- gold with system files, standard input, a compressed file, the scheme
    ``auto``).  The first shard that holds an error holds the file's first: its error is raised, with the file's
    line numbers."""
    import functools
    import os

    from .processes import start
    from .shards import add_shards, file_shards, with_file_lines

    path, scheme = inputs.file, inputs.scheme or inputs.default_scheme
    if path is None or path == STDIN or scheme == "auto":
        return None
    jobs = min(inputs.jobs, os.path.getsize(path) // MIN_SHARD_BYTES)
    if jobs < 2:
        return None
    cut = dict(delimiter=inputs.delimiter, scheme=scheme, gold_column=inputs.gold_column,
               system_columns=inputs.system_columns, outside_tag=inputs.outside_tag)
    # The lines before each shard are not counted first (a pass over the bytes before the last shard, on
    # the path of every process): add_shards places a shard's line numbers where the report shows one.
    shards = file_shards(path, jobs, count_lines=False, **{k: v for k, v in cut.items() if v is not None})
    if len(shards) < 2:
        return None
    each = [functools.partial(count, dataclasses.replace(inputs, shard=(s.start, s.stop, s.lines, s.head), jobs=1),
                              **options) for s in shards]
    parts = []
    with start(each) as started:
        for k, shard in enumerate(shards):
            try:
                parts.append(started.result(k))
            except InputError as err:
                raise with_file_lines(err, shard) from None
    return add_shards(shards, parts)
