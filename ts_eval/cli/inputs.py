"""A command's inputs from its arguments: the :class:`~ts_eval.io.inputs.Inputs` that the options of
:mod:`.input_options` describe (the column rule, the formats and the system names are the library's:
:mod:`ts_eval.io.inputs`), the paths checked before anything is read, and the corpus read whole."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from ..io.inputs import READER_OPTIONS, Inputs
from .errors import UsageError, option_errors

if TYPE_CHECKING:
    from types import SimpleNamespace

    from ..core.corpus import Corpus

STDIN = "-"


def file_request(args: argparse.Namespace, runs: bool = False) -> Inputs:
    """The :class:`~ts_eval.io.inputs.Inputs` of :func:`add_file_arguments` and :func:`add_column_options`;
    afterwards ``args.file`` is the one FILE (or None) and ``args.system`` the system files (or None).  ``runs``:
    systems are given as runs too (``--runs``), so ``--gold`` may come without system files."""
    files = [args.file] if isinstance(args.file, str) else list(args.file or [])
    if args.gold:
        if files and args.system:
            raise UsageError("give either FILE or --gold/--system, not both (system files go after --gold G "
                             "or after --system)")
        systems = args.system or files
        if not systems and not runs:
            raise UsageError("two-file mode needs system files: --gold G S [S ...] or --gold G --system S [S ...]")
        args.file, args.system = None, systems
        return inputs_of(args, gold=args.gold, systems=systems)
    if args.system:
        if files:
            raise UsageError("give either FILE or --gold/--system, not both")
        raise UsageError("two-file mode needs both --gold and --system")
    if len(files) != 1:
        raise UsageError("give a FILE, or --gold G --system S" if not files else
                         f"{len(files)} files: give --gold G to name the gold file (the others are systems), or "
                         "one FILE holding gold and system columns")
    args.file = files[0]
    return inputs_of(args, file=files[0])


def inputs_of(args: argparse.Namespace, *, file: Optional[str] = None, gold: Optional[str] = None,
              systems: Sequence[str] = (), names: Any = "--names", columns: bool = True, **more: Any) -> Inputs:
    """The :class:`~ts_eval.io.inputs.Inputs` of ``file`` (gold and system columns), or of ``gold`` and
    ``systems``, read with the shared reading options in ``args`` (``names``: the systems' names, None for
    their files' and columns', by default ``--names``; ``columns``: ``--gold-col`` and ``--system-col``
    apply; ``more``: other fields of Inputs)."""
    given = args.names if names == "--names" else names
    cols: Dict[str, Any] = {}
    if columns:
        system_col = args.system_col
        cols = dict(gold_column=args.gold_col,
                    system_columns=None if system_col is None else tuple([system_col] if isinstance(system_col, int)
                                                                         else system_col))
    options = {k: getattr(args, k) for k in READER_OPTIONS if getattr(args, k, None) is not None}
    if getattr(args, "generated_field", None) is not None:
        options["field"] = args.generated_field
    forced = getattr(args, "input_format", "auto")
    return Inputs(file=file, gold=gold, systems=tuple(systems), names=tuple(given) if given is not None else None,
                  format=None if forced in (None, "auto") else forced, gold_format=getattr(args, "gold_format", None),
                  scheme=args.scheme, policy=args.policy, label_map=tuple(label_map(args)),
                  token_column=args.token_col, delimiter=args.delimiter, raw=args.raw, outside_tag=args.outside_tag,
                  tags_only=args.tags_only, options=options,
                  default_scheme="conlleval" if getattr(args, "format", None) == "conlleval" else "IOB2",
                  **{**cols, **more})


def request_paths(inputs: Inputs) -> List[Tuple[str, str]]:
    """The files ``inputs`` reads, each with how a message names it."""
    if inputs.gold is None:
        return [("FILE", inputs.file)] if inputs.file is not None else []
    systems = list(inputs.systems)
    return [("--gold", inputs.gold)] + [(f"system {k + 1}" if len(systems) > 1 else "system", s)
                                        for k, s in enumerate(systems)]


def check_paths(args: argparse.Namespace, inputs: Sequence[Tuple[str, Optional[str]]],
                outputs: Optional[Sequence[Tuple[str, Optional[str]]]] = None) -> None:
    """Before anything is read: standard input is named at most once, and no output (``--output``
    unless ``outputs`` are given) is one of the inputs (``--tag-names`` included), by inode."""
    from ..io.sink import check_outputs, check_stdin_once

    named = [(what, path) for what, path in inputs if path] + \
        ([("--tag-names", args.tag_names)] if getattr(args, "tag_names", None) else [])
    check_stdin_once(named)
    wanted = outputs if outputs is not None else [("--output", getattr(args, "output", None))]
    check_outputs([(what, path) for what, path in wanted if path], named)


def input_settings(args: argparse.Namespace, corpus: Union[Corpus, SimpleNamespace]) -> Dict[str, Any]:
    """What :func:`file_request` read (``corpus``: its ``gold_info`` and ``system_info``), for a report's
    ``settings["input"]``."""
    return {"file": args.file, "gold": args.gold, "system": args.system, "gold_col": corpus.gold_info.column,
            "token_col": args.token_col, "system_cols": [i.column for i in corpus.system_info.values()],
            "delimiter": args.delimiter, "raw": args.raw, "outside_tag": args.outside_tag,
            "tags_only": args.tags_only}


def label_map(args: argparse.Namespace) -> List[Tuple[str, str]]:
    """``--map-label`` as (pattern, replacement) pairs (a bad pattern is an option error)."""
    from ..core.corpus import parse_label_map

    with option_errors():
        return parse_label_map(args.map_label)


def load(inputs: Inputs, command: str = "score", min_systems: int = 1) -> Any:
    """The Corpus ``inputs`` describe, read whole (its errors as the command line spells them)."""
    with option_errors():
        return inputs.corpus(command, min_systems)
