"""A column file's counts read in blocks of sentences, in one process or in shards on several.

``count_file(path, ...)`` reads a column file (also ``-`` and compressed files) in blocks of whole
sentences (:func:`ts_eval.io.conll.read_conll_blocks`) and adds up the blocks'
:class:`~ts_eval.models.counts.Counts`, so its memory does not grow with the file; ``counts.report()`` is
the :class:`~ts_eval.results.report.Report` that :func:`ts_eval.evaluate` gives for the file read whole.
``file_shards(path, n, ...)`` (:mod:`ts_eval.streaming.shards`) cuts a plain file into ``n``
:class:`~ts_eval.streaming.shards.Shard` s of whole sentences, each counted on its own by
``count_file(shard, ...)`` -- in other processes, or on the workers of a Dask cluster -- and the counts of
the shards, added in order, are the counts of the file::

    shards = file_shards("big.conll", 8)
    counts = sum(client.gather(client.map(count_file, shards)))   # dask.distributed
    report = counts.report()

``count_files(gold, systems, ...)`` does the same for a gold file and one file per system (two-file mode),
column files, or CoNLL-U and JSON Lines files (gold and systems may differ in format), read in lock-step
(:func:`ts_eval.io.conll.read_conll_pair_blocks`, :func:`read_pair_blocks`).

Options: the reading options of :func:`ts_eval.io.conll.read_conll` (``gold_column``, ``scheme``, ...) and
the scoring options of :func:`ts_eval.models.evaluate.evaluate` (``models``, ``beta``, ...); ``labels`` and
``exclude`` keep some labels (a part may lack a label the file has, so they are not checked here: check
the labels of the whole with :func:`ts_eval.core.corpus.check_selection` and ``counts.input_labels``).
"""
from __future__ import annotations

import inspect
import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple, Union

from ..core.corpus import Corpus, select_labels
from ..errors import OptionError
from ..io import columns
from ..io.conll import read_conll, read_conll_blocks, read_conll_pair, read_conll_pair_blocks
from ..io.source import STDIN, display_name, replayable_stdin, system_name
from ..models.counts import Counts, count_corpus
from ..models.evaluate import DEFAULT_MODELS, score_settings

if TYPE_CHECKING:   # the readers of two-file mode in other formats are imported where they are used (not by
    # ``score FILE``: its imports are a good part of its time)
    from ..io.lockstep import Feed, Placing
    from .shards import Shard  # (only --jobs and Python callers cut a file into shards)


READING = set(inspect.signature(read_conll).parameters) - {"path"}
_SCORING = set(inspect.signature(score_settings).parameters)


def count_file(source: Union[str, Shard], *, labels: Optional[Sequence[str]] = None, exclude: Sequence[str] = (),
               block_bytes: Optional[int] = None, **options: Any) -> Counts:
    """The counts of a column file (a path, or a :class:`Shard` of :func:`file_shards`), read in blocks.

    ``options``: :func:`~ts_eval.io.conll.read_conll`'s reading options and
    :func:`~ts_eval.models.evaluate.evaluate`'s scoring options (a shard brings its reading options).
    """
    reading, scoring = _options(options, READING)
    if not isinstance(source, (str, os.PathLike)):     # a Shard
        reading = {**dict(source.options), **reading}
        whole = source.stop < 0
        blocks = read_conll_blocks(source.path, block_bytes=block_bytes,
                                   shard=None if whole else (source.start, source.stop, source.lines, source.head),
                                   **reading)
    else:
        blocks = read_conll_blocks(source, block_bytes=block_bytes, **reading)
    return _count(blocks, scoring, labels, exclude)


PAIR_READING = set(inspect.signature(read_conll_pair).parameters) - {"gold_path", "system_paths"}


def _conllu_reading() -> Set[str]:
    from ..io.conllu_blocks import read_conllu_pair_blocks

    return set(inspect.signature(read_conllu_pair_blocks).parameters) - {"gold_path", "system_paths", "block_bytes"}


def _feed(path: str, fmt: str, block_bytes: int, options: Dict[str, Any], system: bool,
          label_map: Sequence[Tuple[str, str]] = ()) -> Union[Feed, Placing]:
    from ..io.columns_feed import ColumnFeed
    from ..io.conllu_blocks import conllu_feed
    from ..io.jsonl_blocks import JsonlFeed, text_reader, tokens_reader
    from ..io.lockstep import TAKES

    kw = {k: v for k, v in options.items() if k in TAKES[fmt]}
    if fmt == "generated":
        from ..io.generated_blocks import GeneratedFeed  # only with generated outputs

        return GeneratedFeed(path, block_bytes, label_map=label_map, **kw)
    if fmt == "conllu":
        return conllu_feed(path, block_bytes, **kw)
    if fmt == "columns":
        return ColumnFeed(path, block_bytes, **kw)
    if fmt == "brat":
        from ..io.brat_blocks import BratFeed  # not on the path of a column file

        return BratFeed(path, block_bytes, system=system, **kw)
    return JsonlFeed(path, fmt, tokens_reader(**kw) if fmt == "jsonl-tokens" else text_reader(**kw), block_bytes,
                     system=system)


def read_pair_blocks(gold: str, systems: Union[Sequence[str], Mapping[str, str]], *, formats: Sequence[str],
                     names: Optional[Sequence[str]] = None, label_map: Sequence[Tuple[str, str]] = (),
                     block_bytes: Optional[int] = None, **options: Any) -> Iterator[Corpus]:
    """The Corpus of each block of whole documents of ``gold`` and the same documents of every system,
    read in lock-step (``formats``: gold's, then each system's, each one of
    :data:`~ts_eval.io.lockstep.TAKES`; ``names``: the systems' names, in order, by default as
    :func:`~ts_eval.io.api.read_pair` names them); ``options`` go to the formats that take them, as
    :func:`~ts_eval.io.api.read_pair` passes them.  Raises :class:`~ts_eval.io.lockstep.NotInStep` when
    the files must be read whole (standard input, ``-``, can be read again: what the blocks read of it is
    kept in a temporary file, :func:`~ts_eval.io.source.replayable_stdin`)."""
    from ..io.lockstep import TAKES, NotInStep, Placing, lock_step

    paths: List[str] = list(systems.values()) if isinstance(systems, Mapping) else list(systems)
    if names is None:
        names = list(systems) if isinstance(systems, Mapping) else [system_name(p) for p in paths]
    if len(formats) != len(paths) + 1 or not set(formats) <= set(TAKES):
        raise ValueError(f"formats {list(formats)!r}: expected one of {', '.join(TAKES)} for gold and each system")
    if options.get("scheme") == "auto":
        raise NotInStep("the scheme is detected over the whole input", display_name(gold))
    if STDIN in [gold, *paths]:
        replayable_stdin()      # read whole again (NotInStep) from a temporary file that keeps what was read
    unknown = set(options) - set().union(*(TAKES[f] for f in formats))
    if unknown:
        raise NotInStep(f"option(s) {', '.join(sorted(unknown))} apply to none of the formats read", gold)
    if formats[0] == "generated":
        raise NotInStep("gold is in the generated format", display_name(gold))   # the whole read says why not
    size = block_bytes or columns.BLOCK_BYTES
    feeds = [_feed(p, f, size, options, k > 0, label_map) for k, (p, f) in enumerate(zip([gold, *paths], formats))]
    gold_feed = feeds[0]
    assert not isinstance(gold_feed, Placing)
    yield from lock_step(gold_feed, feeds[1:], names, scheme=options.get("scheme", "IOB2"),
                         policy=options.get("policy", "conlleval"), label_map=label_map)


def _document_reading() -> Set[str]:
    from ..io.lockstep import TAKES

    return set().union(*TAKES.values()) | {"names", "label_map"}


def count_files(gold: str, systems: Sequence[str], *, format: Union[str, Sequence[str]] = "columns",
                labels: Optional[Sequence[str]] = None, exclude: Sequence[str] = (),
                block_bytes: Optional[int] = None, **options: Any) -> Counts:
    """The counts of a gold file and one file per system (two-file mode), read in lock-step in blocks of
    whole sentences or documents: column files (``format`` ``"columns"``,
    :func:`~ts_eval.io.conll.read_conll_pair_blocks`), CoNLL-U files (``"conllu"``,
    :func:`~ts_eval.io.conllu_blocks.read_conllu_pair_blocks`), or files in any of the formats of
    :func:`read_pair_blocks` (``"jsonl-tokens"``, ``"jsonl-text"``, ``"conllu"``: one for
    every file, or a list: gold's, then each system's, ``"columns"`` among them; a system may be
    ``"generated"``: entity strings placed on gold's documents, with ``generated=``, ``ground=``, ...).
    Files that do not pair in order raise :class:`~ts_eval.io.lockstep.NotInStep`: read them whole.

    ``options``: :func:`~ts_eval.io.conll.read_conll_pair`'s reading options (CoNLL-U:
    :func:`~ts_eval.io.conllu_blocks.read_conllu_pair_blocks`'s; other formats: the options their readers
    take, as :func:`~ts_eval.io.api.read_pair` passes them) and :func:`~ts_eval.models.evaluate.evaluate`'s
    scoring options.
    """
    if format == "columns":
        takes = PAIR_READING
    else:
        takes = _conllu_reading() if format == "conllu" else _document_reading()
    reading, scoring = _options(options, takes)
    return _count(_pair_blocks(gold, systems, format, block_bytes, reading), scoring, labels, exclude)


def _pair_blocks(gold: str, systems: Sequence[str], format: Union[str, Sequence[str]], block_bytes: Optional[int],
                 reading: Dict[str, Any]) -> Iterator[Corpus]:
    """The blocks of a gold file and one file per system in ``format`` (see :func:`count_files`)."""
    if format == "columns":
        return read_conll_pair_blocks(gold, systems, block_bytes=block_bytes, **reading)
    from ..io.conllu_blocks import read_conllu_pair_blocks
    from ..io.lockstep import TAKES

    if format == "conllu":
        return read_conllu_pair_blocks(gold, systems, block_bytes=block_bytes, **reading)
    formats = [format] * (len(systems) + 1) if isinstance(format, str) else list(format)
    if not set(formats) <= set(TAKES):
        raise OptionError(f"format {format!r}: expected columns, or {', '.join(TAKES)} (one, or one per file)")
    return read_pair_blocks(gold, systems, formats=formats, block_bytes=block_bytes, **reading)


def corpus_blocks(file: Optional[str] = None, gold: Optional[str] = None, systems: Sequence[str] = (), *,
                  format: Union[str, Sequence[str]] = "columns", block_bytes: Optional[int] = None,
                  **reading: Any) -> Iterator[Corpus]:
    """The blocks of whole sentences of one column ``file`` (:func:`~ts_eval.io.conll.read_conll_blocks`)
    or of a ``gold`` file and ``systems`` (two-file mode, read in lock-step; ``format`` as in
    :func:`count_files`), each a :class:`~ts_eval.core.corpus.Corpus`; ``reading``: the reader's options."""
    if file is not None:
        return read_conll_blocks(file, block_bytes=block_bytes, **reading)
    if gold is None:
        raise OptionError("give a file, or a gold file and system files")
    return _pair_blocks(gold, systems, format, block_bytes, reading)


def _options(options: Dict[str, Any], reading: Set[str]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """``options`` split into reading and scoring options (any other is an error)."""
    unknown = set(options) - reading - _SCORING
    if unknown:
        raise OptionError(f"option(s) {', '.join(sorted(unknown))}: expected reading options "
                          f"({', '.join(sorted(reading))}) or scoring options ({', '.join(sorted(_SCORING))})")
    return ({k: v for k, v in options.items() if k in reading}, {k: v for k, v in options.items() if k in _SCORING})


def _count(blocks: Iterable[Corpus], scoring: Dict[str, Any], labels: Optional[Sequence[str]],
           exclude: Sequence[str]) -> Counts:
    """The counts of every block, added up."""
    settings = score_settings(**scoring)
    models = tuple(scoring.get("models", DEFAULT_MODELS))
    total: Optional[Counts] = None
    for corpus in blocks:
        seen = list(corpus.labels)
        if labels is not None or exclude:
            corpus = select_labels(corpus, labels, exclude, check=False)
        part = count_corpus(corpus, models, settings, seen)
        total = part if total is None else total + part
        del corpus, part
    assert total is not None        # a file holds at least one block (else the reader raises)
    return total
