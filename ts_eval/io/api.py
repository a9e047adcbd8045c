"""One input read whole, or gold and systems read whole and paired, on the one road of :mod:`ts_eval.io`.

``read(path, format=None, **options)`` reads one side (gold or a system) into
:class:`~ts_eval.io.documents.Documents` (the format's feed, one block); ``read_pair(gold, systems, ...)`` reads
gold and one or more systems (each in its own format, or Documents read already) and pairs them into a Corpus
(:func:`ts_eval.io.join.join`).  ``format=None`` picks the reader by extension and content.
"""
from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

from ..core.corpus import Corpus
from ..errors import OptionError
from .conll import _check_pair, _pair_names
from .documents import Documents
from .reader import _taken, format_of, not_blank, read, read_generated_on
from .source import STDIN, display_name, system_name


def read_pair(gold: Union[str, Documents], systems: Union[str, Documents, Sequence[Any], Mapping[str, Any]], *,
              format: Optional[str] = None, system_format: Optional[str] = None,
              names: Optional[Sequence[str]] = None, label_map: Sequence[Tuple[str, str]] = (),
              sides: Optional[Sequence[str]] = None, **options: Any) -> Corpus:
    """Read gold and one or more systems (paths or Documents, possibly in different formats) whole and pair
    their documents (by id, else by order, with tokens and texts compared) into a Corpus.

    ``systems``: one path, a list of paths, or a mapping name -> path.  ``format`` is gold's,
    ``system_format`` the systems' (each None: detected).  ``label_map``: (pattern, replacement) pairs
    rewriting every side's labels.  ``options`` go to every reader that takes them (one that no reader takes
    is an error).  A system in the ``generated`` format (entity strings with labels,
    :mod:`ts_eval.io.generated`) is placed on gold's texts (:mod:`ts_eval.io.grounding`) with ``generated``
    (``"ground"``, default; ``"strings"``; ``"fuzzy"``), ``ground`` (``"first"`` or ``"all"``), ``normalize``,
    ``fuzzy_threshold`` and ``field``.  ``sides``: what the messages call gold and each system.
    """
    if isinstance(systems, Mapping):
        items = [(str(n), s) for n, s in systems.items()]
    else:
        seq = [systems] if isinstance(systems, (str, Documents)) else list(systems)
        if names is None:
            names = [_name(s, k) for k, s in enumerate(seq)]
            if len(set(names)) != len(names):
                names = [f"system{k + 1}" for k in range(len(seq))]
        if len(names) != len(seq):
            raise OptionError(f"{len(names)} names for {len(seq)} systems")
        items = list(zip(names, seq))
    if all(not isinstance(x, Documents) for x in [gold, *(s for _, s in items)]):
        from .inputs import Inputs

        inputs = Inputs(gold=str(gold), systems=tuple(str(s) for _, s in items), names=tuple(n for n, _ in items),
                        gold_format=format, format=system_format, label_map=tuple((a, b) for a, b in label_map),
                        words=tuple(sides) if sides is not None else None, scheme=options.pop("scheme", None),
                        policy=options.pop("policy", None), options=options, block_bytes=None)
        inputs.check_stdin_once()
        for path in inputs.paths():
            not_blank(path)
        return inputs.corpus()
    from .feed import Decoding
    from .join import Held, join

    feeds = [Held(read(s, format=fmt, **_taken(s, fmt, options))) if not isinstance(s, Documents) else Held(s)
             for s, fmt in [(gold, format), *((s, system_format) for _, s in items)]]
    return next(join(feeds[0], feeds[1:], [n for n, _ in items],
                     decoding=Decoding(options.get("scheme") or "IOB2", options.get("policy") or "conlleval",
                                       tuple((a, b) for a, b in label_map)), words=sides))


def _name(src: Any, k: int) -> str:
    """A system's name from its path (:func:`~ts_eval.io.source.system_name`), ``systemK`` when that leaves nothing."""
    return system_name(src.path if isinstance(src, Documents) else str(src)) or f"system{k + 1}"


__all__: List[str] = ["read", "read_pair", "read_generated_on", "format_of", "STDIN", "display_name"]


def read_conll(path: str, *, gold_column: int = -2, system_columns: Sequence[int] = (-1,),
               names: Optional[Sequence[str]] = None, **reading: Any) -> Corpus:
    """One column file read whole: gold in ``gold_column``, one system per entry of ``system_columns``
    (1-based; negative numbers count from the end: conlleval's layout, ``TOKEN ... GOLD SYSTEM``, is the
    default; a file of exactly two columns has no token column).  ``reading``: the other options of
    :class:`~ts_eval.io.inputs.Inputs` (``scheme``, ``policy``, ``label_map``, ``token_column``,
    ``delimiter``, ``raw``, ``outside_tag``, ``tags_only``)."""
    from .inputs import Inputs

    return Inputs.given(file=path, gold_column=gold_column, system_columns=system_columns, names=names,
                        **reading).corpus()


def read_conll_pair(gold_path: str, system_paths: Sequence[str], *, gold_column: int = -1, system_column: int = -1,
                    names: Optional[Sequence[str]] = None, sides: Optional[Sequence[str]] = None,
                    **reading: Any) -> Corpus:
    """A gold column file and one file per system read whole; sentences and tokens must match the gold file's
    (``tags_only``: only the sentences and their lengths are compared); ``sides``: what the messages call gold
    and each system."""
    from .inputs import Inputs

    _check_pair(gold_path, system_paths)
    return Inputs.given(gold=gold_path, systems=system_paths, gold_column=gold_column, system_columns=(system_column,),
                        names=_pair_names(system_paths, names), words=sides, format="columns", **reading).corpus()


def read_with_references(references: Mapping[str, Any], systems: Union[Mapping[str, Any], Sequence[Any]] = (), *,
                         option: str = "references", **options: Any) -> Corpus:
    """Two or more references of the same tokens (name -> path or Documents, in order: the first is reference A)
    and the systems (paths, or a mapping name -> path) as one Corpus: the first reference is its gold, named so,
    every other one the side of its name beside the systems, so that the readers check that every reference and
    every system hold the first reference's tokens and name the first difference otherwise (file, line, the two
    tokens, each reference as ``reference NAME``).  ``options``: as :func:`read_pair` takes them; ``option``: how
    a message names the references."""
    refs = list(references.items())
    if len(refs) < 2:
        raise OptionError(f"{len(refs)} reference given; several references are two or more (name -> path)",
                          option=option, value=list(references))
    if any(not str(n) for n, _ in refs):
        raise OptionError("a reference without a name; give each reference a name", option=option,
                          value=list(references))
    items = list(systems.items()) if isinstance(systems, Mapping) else [
        (system_name(str(p)) or f"system{k + 1}", p) for k, p in enumerate(systems)]
    taken = [n for n, _ in items if n in references]
    if taken:
        raise OptionError(f"a system is called {taken[0]!r}, the name of reference {taken[0]}; name the references "
                          "otherwise", option=option, value=taken[0])
    sides = (*(f"reference {n}" for n, _ in refs), *("system" for _ in items))
    corpus = read_pair(refs[0][1], {**dict(refs[1:]), **dict(items)}, sides=sides, **options)
    corpus.gold_info.name = refs[0][0]       # what the results call the first reference
    return corpus
