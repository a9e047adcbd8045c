"""The study: every submission checked whole against gold (:func:`validate`, ``ts-eval validate``).

Column files (two-file mode, and one file with gold and system columns) are read line by line with every
problem collected (:mod:`ts_eval.io.collect`, :mod:`.align`, :mod:`.tags`).  Inputs in the other formats
are read by their reader, which stops at its first error (one ``unreadable`` problem); what it reads is
checked for labels gold does not use.  A column submission without a problem is then read on the road
``score`` reads it (:meth:`ts_eval.io.inputs.Inputs.corpus`): an error there is a problem too, so that a
submission is valid only when it would score as it is.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, Union

import numpy as np

from ..core.corpus import Corpus
from ..errors import InputError, OptionError
from ..io.collect import ColumnLines, column_lines
from ..io.conll import raw_tag
from ..io.inputs import Inputs, resolve_columns
from ..io.paths import system_names
from ..io.source import STDIN, display_name, system_name
from .align import Aligner
from .records import check_records
from .result import Problem, SubmissionCheck, Validation, checked
from .tags import SideTags, check_tags, scheme_for


def validate(gold: Optional[str] = None, submissions: Union[str, Sequence[str]] = (), *, file: Optional[str] = None,
             labels: Optional[Sequence[str]] = None, max_problems: Optional[int] = None, **options: Any) -> Validation:
    """Check ``submissions`` (a path or several) against ``gold`` -- or the system columns of ``file`` against its
    gold column -- and return every problem, not only the first (:class:`~.result.Validation`: ``.valid``,
    ``.problems``, ``.counts``, ``.to_dict()``).

    ``options`` are the reading options ``score`` takes (``scheme`` -- also ``'IOB1'`` or ``'auto'`` --,
    ``policy``, ``label_map``, ``format``, ``gold_column``, ``system_columns``, ``token_column``, ``delimiter``,
    ``raw``, ``outside_tag``, ``tags_only``, a reader's options); ``labels``: the labels a submission may use
    (default: gold's); ``max_problems``: list at most this many problems of each submission (the counts stay
    exact)."""
    systems = [submissions] if isinstance(submissions, str) else list(submissions)
    inputs = Inputs.given(gold=gold, systems=systems, file=file, **options)
    return validate_inputs(inputs, labels=labels, max_problems=max_problems)


def validate_inputs(inputs: Inputs, labels: Optional[Sequence[str]] = None,
                    max_problems: Optional[int] = None) -> Validation:
    """:func:`validate` of an :class:`~ts_eval.io.inputs.Inputs`."""
    if max_problems is not None and max_problems < 0:
        raise OptionError("expected a number of problems >= 0", option="max_problems", value=max_problems)
    inputs.check_stdin_once()
    allowed = set(labels) if labels else None
    if inputs.gold is None:
        checks = _one_file(inputs, allowed, max_problems)
    else:
        checks = _two_files(inputs, allowed, max_problems)
    scheme = inputs.scheme or inputs.default_scheme
    settings: Dict[str, Any] = {
        "scheme": scheme, "policy": inputs.policy or "conlleval", "labels": sorted(allowed) if allowed else None,
        "label_map": [list(x) for x in inputs.label_map], "max_problems": max_problems,
        "input": {"file": inputs.file, "gold": inputs.gold, "submissions": list(inputs.systems),
                  "format": inputs.format, "gold_format": inputs.gold_format, "gold_col": inputs.gold_column,
                  "system_cols": list(inputs.system_columns) if inputs.system_columns else None,
                  "token_col": inputs.token_column, "delimiter": inputs.delimiter, "raw": inputs.raw,
                  "outside_tag": inputs.outside_tag, "tags_only": inputs.tags_only}}
    return Validation(None if inputs.gold is None else display_name(inputs.gold), checks, settings)


def _side(lines: ColumnLines, column: int, inputs: Inputs) -> SideTags:
    """The tags of 0-based ``column`` (None on a line of another width), each token's line, sentence starts."""
    tags: List[Optional[str]] = []
    where: List[int] = []
    first: List[bool] = []
    for s in lines.sentences:
        for k, (line, fields) in enumerate(zip(s.lines, s.fields)):
            ok = len(fields) == lines.width and 0 <= column < len(fields)
            tags.append(raw_tag(fields[column], inputs.outside_tag, inputs.raw) if ok else None)
            where.append(line)
            first.append(k == 0)
    return SideTags(tags, where, np.array(first, bool))


def _tokens(lines: ColumnLines, inputs: Inputs) -> List[Tuple[str, ...]]:
    """Each sentence's tokens (tags only: as many empty strings)."""
    k = inputs.token_column - 1 if inputs.token_column > 0 else lines.width + inputs.token_column
    if inputs.tags_only:
        return [("",) * len(s.lines) for s in lines.sentences]
    return [tuple(f[k] if 0 <= k < len(f) else "" for f in s.fields) for s in lines.sentences]


def _column(lines: ColumnLines, column: int) -> int:
    """The 0-based index of 1-based ``column`` (negative: from the end); one the file lacks is an option error."""
    n = lines.width
    if column == 0 or not -n <= column <= n:
        raise OptionError(f"{lines.path}: column {column} does not exist: the file has {n} columns "
                          f"(give 1..{n}, or -1..-{n} counting from the end)")
    return lines.column(column)


def _notes(lines: ColumnLines, gold: Optional[ColumnLines] = None) -> Dict[str, str]:
    notes = {}
    if lines.bom:
        notes["bom"] = "a byte order mark at the start: skipped, as every reader does"
    if lines.crlf_lines:
        notes["crlf"] = f"{lines.crlf_lines} of {lines.lines} lines end with CR LF: read as LF"
    if gold is not None and gold.documents and not lines.documents and lines.sentences:
        notes["no_documents"] = (f"no -DOCSTART- lines where gold has {gold.documents}: read as one document "
                                 "(column files score the same)")
    if gold is not None and not gold.documents and lines.documents:
        n = lines.documents
        notes["documents"] = (f"{n} -DOCSTART- line{'s' * (n != 1)} where gold has none: column files are paired "
                              "by their tokens (they score the same)")
    return notes


def _file_problems(lines: ColumnLines) -> List[Problem]:
    return [Problem(lines.path, p.line, p.kind, p.found, p.expected, byte=p.byte) for p in lines.problems]


def _gold_lines(inputs: Inputs) -> ColumnLines:
    """Gold read line by line; a problem in gold is the organiser's: an error, as ``score`` raises it."""
    assert inputs.gold is not None
    lines = column_lines(inputs.gold, inputs.delimiter)
    if lines.problems:
        p = min(lines.problems, key=lambda q: q.line)
        raise InputError(f"gold: {p.found}; expected {p.expected}", lines.path, p.line or None)
    return lines


def _two_files(inputs: Inputs, allowed: Optional[Set[str]], most: Optional[int]) -> List[SubmissionCheck]:
    assert inputs.gold is not None
    files = inputs.system_inputs()
    if not files:
        raise OptionError("give at least one submission to validate")
    names = system_names(files, inputs.names)
    columns = inputs.input_format(inputs.gold, gold=True) == "columns"
    if not columns or any(inputs.input_format(f) != "columns" for f in files):
        return [_records(inputs, f, n, allowed, most) for f, n in zip(files, names)]
    gold = _gold_lines(inputs)
    gside = _side(gold, _column(gold, -1 if inputs.gold_column is None else inputs.gold_column), inputs)
    gold_tokens = _tokens(gold, inputs)
    scol = (inputs.system_columns or (-1,))[0]
    return [_one_submission(inputs, gold, gside, gold_tokens, f, n, scol, allowed, most) for f, n in zip(files, names)]


def _one_submission(inputs: Inputs, gold: ColumnLines, gside: SideTags, gold_tokens: List[Tuple[str, ...]], path: str,
                    name: str, scol: int, allowed: Optional[Set[str]], most: Optional[int]) -> SubmissionCheck:
    lines = column_lines(path, inputs.delimiter)
    problems = _file_problems(lines)
    sizes = {"lines": lines.lines, "sentences": len(lines.sentences),
             "tokens": sum(len(s.lines) for s in lines.sentences)}
    scheme = None
    if lines.sentences:
        aligner = Aligner(gold, lines, gold_tokens, _tokens(lines, inputs))
        problems += aligner.problems() + aligner.documents()
        side = _side(lines, _column(lines, scol), inputs)
        scheme = _scheme(inputs, [gside, side])
        gold_labels = check_tags(gold.path, gside, scheme, inputs.label_map)[1]
        problems += check_tags(lines.path, side, scheme, inputs.label_map, allowed or gold_labels,
                               "the labels given" if allowed else "gold's labels")[0]
    if not problems and path != STDIN:
        problems += _scored(inputs, path, name)[1]
    return checked(lines.path, name, problems, most, _notes(lines, gold), scheme, **sizes)


def _scheme(inputs: Inputs, sides: List[SideTags]) -> str:
    scheme = inputs.scheme or inputs.default_scheme
    return scheme_for(sides) if scheme == "auto" else scheme


def _scored(inputs: Inputs, path: str, name: Optional[str] = None) -> Tuple[Optional[Corpus], List[Problem]]:
    """The submission read as ``score`` reads it (named ``name``, by default after its file): (the corpus, no
    problem), or (None, the reading's error as an ``unreadable`` problem)."""
    try:
        return replace(inputs, systems=(path,), names=None if name is None else (name,), glob=None).corpus(
            "validate"), []
    except InputError as err:
        return None, [Problem(err.path or display_name(path), err.line or 0, "unreadable", err.message,
                              "a file the reader reads")]


def _records(inputs: Inputs, path: str, name: str, allowed: Optional[Set[str]],
             most: Optional[int]) -> SubmissionCheck:
    """A submission in a format of records, read record by record (:mod:`.records`); one its reader reads whole
    only: :func:`_by_reader`."""
    found = check_records(inputs, path, allowed) if path != STDIN else None
    if found is None:
        return _by_reader(inputs, path, name, allowed, most)
    problems, records = found
    if not problems:
        problems = _scored(inputs, path, name)[1]
    return checked(display_name(path), name, problems, most, lines=records)


def _by_reader(inputs: Inputs, path: str, name: str, allowed: Optional[Set[str]],
               most: Optional[int]) -> SubmissionCheck:
    """A submission in a format other than columns: its reader's first error, or the labels it uses that
    gold does not."""
    corpus, unreadable = _scored(inputs, path, name)
    if corpus is None:
        return checked(display_name(path), name, unreadable, most)
    gold_labels = {corpus.labels[k] for k in np.unique(corpus.gold.label).tolist()}
    ok = allowed or gold_labels
    ss = corpus.systems[name]
    problems = [Problem(display_name(path), 0, "unknown_label", f"label {corpus.labels[k]!r} ({n} spans)",
                        f"one of {'the labels given' if allowed else 'gold' + chr(39) + 's labels'}: "
                        f"{', '.join(sorted(ok))}")
                for k, n in zip(*np.unique(ss.label, return_counts=True)) if corpus.labels[k] not in ok]
    return checked(display_name(path), name, problems, most, sentences=len(corpus.sentences) if hasattr(
        corpus, "sentences") else 0)


def _one_file(inputs: Inputs, allowed: Optional[Set[str]], most: Optional[int]) -> List[SubmissionCheck]:
    """One column file with gold and system columns: each system column checked against the gold column."""
    path = inputs.file
    if path is None:
        raise OptionError("give a gold file and submissions, or one file with gold and system columns")
    lines = column_lines(path, inputs.delimiter)
    problems = _file_problems(lines)
    if not lines.sentences:
        return [checked(lines.path, system_name(path), problems, most, _notes(lines))]
    gcol, scols = resolve_columns(path, lambda: lines.width, inputs.gold_column, inputs.system_columns)
    names = (list(inputs.names) if inputs.names is not None else
             [f"col{c}" for c in scols] if len(scols) > 1 else [system_name(path)])
    gside = _side(lines, _column(lines, gcol), inputs)
    sizes = {"lines": lines.lines, "sentences": len(lines.sentences),
             "tokens": sum(len(s.lines) for s in lines.sentences)}
    out = []
    for c, name in zip(scols, names):
        side = _side(lines, _column(lines, c), inputs)
        scheme = _scheme(inputs, [gside, side])
        gold_labels = check_tags(lines.path, gside, scheme, inputs.label_map)[1]
        found = problems + check_tags(lines.path, side, scheme, inputs.label_map, allowed or gold_labels,
                                      "the labels given" if allowed else "gold's labels")[0]
        if not found and path != STDIN:
            found += _scored(inputs, path)[1]
        out.append(checked(lines.path, name, found, most, _notes(lines), scheme, **sizes))
    return out
