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

Options: :class:`~ts_eval.io.inputs.Inputs`'s reading options (``gold_column``, ``system_columns``,
``scheme``, ...; a format's own, ``align``, ``misc_key``, ..., go with them) and the scoring options of
:func:`ts_eval.models.evaluate.evaluate` (``models``, ``beta``, ...); ``labels`` and ``exclude`` keep some labels
(a part may lack a label the inputs have, so they are not checked here: check the labels of the whole with
:func:`ts_eval.core.corpus.check_selection` and ``counts.input_labels``).
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Dict, Optional, Sequence, Tuple, Union

from ..core.corpus import select_labels
from ..errors import OptionError
from ..io.inputs import Inputs
from ..models.counts import Counts, count_corpus
from ..models.evaluate import DEFAULT_MODELS, score_settings

if TYPE_CHECKING:
    from .shards import Shard

#: Inputs' fields a caller gives as reading options (the others: a format's own options)
READING = tuple(f.name for f in dataclasses.fields(Inputs) if f.name not in ("file", "gold", "systems", "options"))
SCORING = ("separator_weight", "beta", "all_labels_row", "models", "k1", "k2", "focus", "weights", "fair_mode",
           "min_overlap", "assignment", "partial_weight")


def count(inputs: Inputs, *, labels: Optional[Sequence[str]] = None, exclude: Sequence[str] = (),
          command: str = "score", min_systems: int = 1, **scoring: Any) -> Counts:
    """The counts of every block of ``inputs`` added up (``scoring``: :func:`~ts_eval.models.evaluate.evaluate`'s
    options; ``command`` and ``min_systems`` word the error for too few systems)."""
    settings = score_settings(**scoring)
    models = tuple(scoring.get("models") or DEFAULT_MODELS)
    total: Optional[Counts] = None
    for corpus in inputs.read(command, min_systems):
        seen = list(corpus.labels)
        if labels is not None or exclude:
            corpus = select_labels(corpus, labels, exclude, check=False)
        part = count_corpus(corpus, models, settings, seen)
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
