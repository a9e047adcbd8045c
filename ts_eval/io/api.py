"""One input read whole, or gold and systems read whole and paired, on the one road of :mod:`ts_eval.io`.

``read(path, format=None, **options)`` reads one side (gold or a system) into
:class:`~ts_eval.io.documents.Documents` (the format's feed, one block); ``read_pair(gold, systems, ...)`` reads
gold and one or more systems (each in its own format, or Documents read already) and pairs them into a Corpus
(:func:`ts_eval.io.join.join`).  ``format=None`` picks the reader by extension and content.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..core.corpus import Corpus
from ..errors import Hint, InputError, OptionError
from .documents import Documents, no_documents
from .source import STDIN, display_name, is_dir, read_head, system_name


def _options(fmt: Any, options: Mapping[str, Any]) -> Tuple[Any, Any]:
    """(the format's options, how its tags are decoded) from the keywords given; one it does not take is an
    error."""
    from .join import Decoding

    takes = set(fmt.option_names()) | ({"scheme", "policy"} if fmt.tags else set())
    unknown = set(options) - takes
    if unknown:
        raise OptionError(f"option(s) {', '.join(sorted(unknown))} do not apply to format {fmt.name}; it takes "
                          f"{', '.join(sorted(takes))}")
    return fmt.make_options(options), Decoding(options.get("scheme") or "IOB2", options.get("policy") or "conlleval")


def format_of(path: str, fmt: Optional[str]) -> Any:
    """The format record ``path`` is read with: ``fmt``, else by its name and content."""
    from .formats import detect, get_format

    return get_format(fmt or detect(path, None if is_dir(path) else read_head(path)))


def read(path: str, *, format: Optional[str] = None, **options: Any) -> Documents:
    """Read one input of any supported format (``format`` None: by extension and content) whole.

    ``options`` are the format's options (scheme, policy, align, tag_names, misc_key, column, discontinuous,
    ...); one the format does not take is an error.
    """
    if isinstance(path, Documents):
        return path
    fmt = format_of(str(path), format)
    if fmt.places:
        raise OptionError(["generated outputs (strings without offsets) are placed on gold's texts: read them as "
                           "a system beside gold (read_pair), or convert them with ", Hint("gold", metavar="GOLD")],
                          option="format", value="generated")
    opts, decoding = _options(fmt, options)
    feed = fmt.feed(str(path), opts, decoding, None)
    if feed.done():
        feed.end()
    docs = feed.take(None)
    if docs.deferred is not None:
        raise docs.deferred[1]
    return docs


class _Read:
    """Documents read already, handed out as a feed of the joiner (one block)."""

    def __init__(self, docs: Documents) -> None:
        self.docs, self.name, self.given = docs, docs.path, False

    def take(self, n: Optional[int] = None) -> Documents:
        if self.given:
            return no_documents(self.name, self.docs.format)
        self.given = True
        return self.docs

    def done(self) -> bool:
        return self.given

    def end(self) -> None:
        raise InputError("no documents", self.name)

    def size(self, part: Any) -> int:
        return int(part.n_docs)

    def pending(self) -> Optional[InputError]:
        return None


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

        return Inputs(gold=str(gold), systems=tuple(str(s) for _, s in items), names=tuple(n for n, _ in items),
                      gold_format=format, format=system_format, label_map=tuple(tuple(x) for x in label_map),
                      words=tuple(sides) if sides is not None else None, scheme=options.pop("scheme", None),
                      policy=options.pop("policy", None), options=options, block_bytes=None).corpus()
    from .join import Decoding, join

    feeds = [_Read(read(s, format=fmt, **_taken(s, fmt, options))) if not isinstance(s, Documents) else _Read(s)
             for s, fmt in [(gold, format), *((s, system_format) for _, s in items)]]
    return next(join(feeds[0], feeds[1:], [n for n, _ in items],
                     decoding=Decoding(options.get("scheme") or "IOB2", options.get("policy") or "conlleval",
                                       tuple(tuple(x) for x in label_map)), words=sides))


def _taken(path: Any, fmt: Optional[str], options: Dict[str, Any]) -> Dict[str, Any]:
    """The options the format of ``path`` takes."""
    f = format_of(str(path), fmt)
    takes = set(f.option_names()) | ({"scheme", "policy"} if f.tags else set())
    return {k: v for k, v in options.items() if k in takes}


def read_generated_on(gold: Union[str, Documents], path: str, *, format: Optional[str] = None,
                      generated: Optional[str] = None, ground: Optional[str] = None, normalize: Any = None,
                      fuzzy_threshold: Optional[float] = None, field: Optional[str] = None,
                      **options: Any) -> Documents:
    """The spans of a generated output (entity strings with labels, :mod:`ts_eval.io.generated`) placed on
    ``gold``'s documents (:mod:`ts_eval.io.grounding`; the options as :func:`read_pair` takes them): the
    grounded spans with gold's texts and tokens, ready to write (``convert``).  What grounding found
    (ungrounded strings, duplicates, labels outside gold's) is in ``notes["generated"]``."""
    from .formats import get_format
    from .generated import FIELD, GeneratedOptions
    from .grounding import ground as placed
    from .grounding import ground_settings
    from .join import Decoding

    settings = ground_settings(generated, ground, normalize, fuzzy_threshold)
    ids = {"id_key": options.pop("id_key")} if "id_key" in options else {}
    gold_docs = gold if isinstance(gold, Documents) else read(gold, format=format, **options)
    feed = get_format("generated").feed(path, GeneratedOptions(field=field or FIELD, **ids), Decoding(), None)
    if feed.done():
        feed.end()
    return placed(gold_docs, feed.take(None), settings).docs


def _name(src: Any, k: int) -> str:
    """A system's name from its path (:func:`~ts_eval.io.source.system_name`), ``systemK`` when that leaves nothing."""
    return system_name(src.path if isinstance(src, Documents) else str(src)) or f"system{k + 1}"


__all__: List[str] = ["read", "read_pair", "read_generated_on", "format_of", "STDIN", "display_name"]
