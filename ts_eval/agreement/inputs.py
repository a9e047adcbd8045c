"""Reading annotations for :func:`ts_eval.agree`: one input per annotator (any format, a folder per
annotator for brat), one column file with an annotator per column, or one JSON export whose
annotations name their annotator (:mod:`ts_eval.io.annotators`).

Inputs are aligned and validated as gold and systems are for ``score``: the same documents (by id,
else in order) with the same tokens; a document one input lacks is an error naming it.  Annotators
are named after their files (:func:`ts_eval.io.source.system_name`), after their columns (``colN``),
or after the export's field.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ..core.corpus import Corpus
from ..errors import Hint, OptionError
from ..io.annotators import read_annotators
from ..io.api import read_pair
from ..io.formats import detect as detect_format
from ..io.inputs import Inputs
from ..io.source import is_dir, read_head, system_name
from .data import Annotations, from_corpus

#: what :func:`read_annotations` takes for an export split by an annotator field
EXPORT_OPTIONS = {"align", "tokenizer", "source", "text_key", "id_key", "label_map"}


def annotator_names(paths: Sequence[str], names: Optional[Sequence[str]] = None) -> List[str]:
    """``names`` (checked) or the files' names; two equal names are an error naming both files."""
    if names is not None:
        if len(names) != len(paths):
            raise OptionError(f"{len(names)} names for {len(paths)} annotators")
        out = [str(n) for n in names]
    else:
        out = [system_name(p) or f"annotator{k + 1}" for k, p in enumerate(paths)]
    for k, n in enumerate(out):
        if n in out[:k]:
            j = out.index(n)
            raise OptionError(f"annotator name {n!r} is given twice ({paths[j]} and {paths[k]}); names must be "
                              "unique (rename the files or give names)")
    return out


def annotator_words(found: Sequence[str]) -> List[str]:
    """What the readers' messages call each input (they name gold and system otherwise)."""
    return [f"annotator {n}" for n in found]


def side_names(found: Sequence[str]) -> List[str]:
    """The names the pair readers give annotators 2, 3, ... (the first annotator is their gold side):
    the annotators' own, except that ``gold`` names the readers' first side, so an annotator of
    that name is read under a stand-in (``from_corpus`` names every side by ``found`` afterwards)."""
    out: List[str] = []
    for k, n in enumerate(found[1:], start=2):
        stand_in = f"annotator{k}"
        while n == "gold" and stand_in in found:
            stand_in += "'"
        out.append(stand_in if n == "gold" else n)
    return out


def read_annotations(paths: Sequence[str], *, names: Optional[Sequence[str]] = None,
                     annotator_field: Optional[str] = None, partial: bool = False,
                     columns: Optional[Sequence[int]] = None, format: Optional[str] = None,
                     **options: Any) -> Annotations:
    """The annotations in ``paths``: with ``annotator_field``, one JSON export split by that field
    (``partial``: annotators may leave documents out); one path alone, a column file whose
    ``columns`` (default: every column after the first) are the annotators; else one input per
    annotator, any format (``format``: all inputs' format, default detected; ``options`` go to the
    readers)."""
    paths = [str(p) for p in paths]
    if annotator_field is not None:
        if len(paths) != 1:
            raise OptionError(f"an annotator field splits one export; got {len(paths)} inputs")
        unknown = set(options) - EXPORT_OPTIONS
        if unknown:
            raise OptionError(f"{', '.join(sorted(unknown))}: not an option of an export split by an annotator field "
                              f"(expected {', '.join(sorted(EXPORT_OPTIONS))})")
        relabelling = options.pop("label_map", ())
        found, docs, covered = read_annotators(paths[0], annotator_field, partial=partial, **options)
        corpus = read_pair(docs[0], dict(zip(side_names(found), docs[1:])), label_map=relabelling,
                           sides=annotator_words(found))
        return from_corpus(corpus, list(names) if names is not None else found, covered)
    if partial:
        raise OptionError("partial applies to an export split by an annotator field")
    if len(paths) == 1:
        return annotations_of(_column_file(paths[0], columns, **options), names)
    if columns is not None:
        raise OptionError("columns apply to one column file with an annotator per column")
    found = annotator_names(paths, names)
    formats = {format} if format is not None else {detect_format(p, None if is_dir(p) else read_head(p))
                                                    for p in paths}
    layout: Dict[str, Any] = {"gold_column": -1, "system_columns": (-1,)} if formats == {"columns"} else {}
    return annotations_of(Inputs.given(gold=paths[0], systems=paths[1:], format=format, **layout, **options), found)


def annotations_of(inputs: Inputs, names: Optional[Sequence[str]] = None) -> Annotations:
    """The annotations ``inputs`` describe, read whole: the one block of :func:`annotation_blocks`."""
    from dataclasses import replace

    ((found, corpus),) = list(annotation_blocks(replace(inputs, block_bytes=None), names))
    return from_corpus(corpus, found)


def annotation_blocks(inputs: Inputs, names: Optional[Sequence[str]] = None) -> Iterator[Tuple[List[str], Corpus]]:
    """The blocks of the annotations ``inputs`` describe (how they are read: :class:`~ts_eval.io.inputs.Inputs`),
    each with the annotators' names: one column file (``inputs.file``) whose gold and system columns are the
    annotators, named ``colN`` unless ``names``; or one input per annotator (``inputs.gold`` the first,
    ``inputs.systems`` the others), named after their files unless ``names`` (:func:`annotator_names`)."""
    from dataclasses import replace

    if inputs.file is not None:
        _one_holds_annotators(inputs, inputs.file)
        found: Optional[List[str]] = None
        wrong = None            # (names that do not fit are an error after the reading's, as read whole)
        for corpus in inputs.read("agree"):
            if found is None:
                found = [f"col{corpus.gold_info.column}"] + [f"col{corpus.system_info[n].column}"
                                                             for n in corpus.systems]
                if names is not None and len(names) != len(found):
                    wrong = OptionError(f"{len(names)} names for {len(found)} annotator columns")
                found = list(names) if names is not None and wrong is None else found
            yield found, corpus
        if wrong is not None:
            raise wrong
        return
    assert inputs.gold is not None
    found = annotator_names([inputs.gold, *inputs.systems], names)
    for corpus in replace(inputs, names=tuple(side_names(found)), words=tuple(annotator_words(found))).read("agree"):
        yield found, corpus


def _column_file(path: str, columns: Optional[Sequence[int]], **options: Any) -> Inputs:
    """A column file whose ``columns`` (default: every column after the first, the tokens) are the
    annotators."""
    if columns is None:
        from ..io.columns import count_columns

        n = count_columns(path, options.get("delimiter"))
        columns = list(range(2, n + 1))
    cols = list(columns)
    if len(cols) < 2:
        raise OptionError(f"{path}: {len(cols)} annotator columns; agreement needs at least two")
    return Inputs.given(file=path, gold_column=cols[0], system_columns=cols[1:],
                        names=[f"c{k}" for k in range(1, len(cols))], **options)


def _one_holds_annotators(inputs: Inputs, path: str) -> None:
    """One input alone must be a column file with two or more annotator columns (after the tokens, when the
    columns are not given)."""
    from ..io.source import STDIN

    fmt = inputs.input_format(path)
    if fmt != "columns":
        raise OptionError([f"{path} is read as {fmt}, which holds one annotation: give one input per annotator, or ",
                           Hint("annotator_field", metavar="FIELD"),
                           " for an export whose annotations name their annotator"])
    if inputs.system_columns is None:
        from ..io.columns import count_columns

        n = count_columns(path, inputs.delimiter) if path != STDIN else 3
        if n < 3:
            raise OptionError(f"{path} has {max(n - 1, 0)} annotation column(s) after the tokens; agreement needs at "
                              "least two: give one input per annotator, or a column file with an annotator per column")
