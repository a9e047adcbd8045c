"""One input (gold or a system) read whole into :class:`~ts_eval.io.documents.Documents`: its format's feed
(:mod:`ts_eval.io.formats`), one block; and a generated output placed on gold's documents, ready to write."""
from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Optional, Tuple, Union

from ..errors import Hint, InputError, OptionError
from .documents import Documents
from .feed import Decoding, concat_parts, each_part, whole
from .source import display_name, is_dir, read_head

#: the blocks :func:`read_blocks` reads by default (about 4 MiB of the input each)
BLOCK_BYTES = 1 << 22


def _options(fmt: Any, options: Mapping[str, Any]) -> Tuple[Any, Any]:
    """(the format's options, how its tags are decoded) from the keywords given; one it does not take is an
    error."""
    takes = fmt.takes()
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
    docs: Documents = whole(input_feed(str(path), format, options, None))
    return docs


def read_blocks(path: str, *, format: Optional[str] = None, block_bytes: Optional[int] = BLOCK_BYTES,
                **options: Any) -> Iterator[Documents]:
    """:func:`read` a block of whole documents (about ``block_bytes`` of the input) at a time: the blocks add up
    to what it reads, and its errors are raised where they are (the blocks before them come first)."""
    return each_part(input_feed(str(path), format, options, block_bytes))


def input_feed(path: str, format: Optional[str], options: Mapping[str, Any], block_bytes: Optional[int]) -> Any:
    """The feed :func:`read` reads ``path`` from (in blocks of about ``block_bytes``; None: one)."""
    fmt = format_of(path, format)
    if fmt.places:
        raise OptionError(["generated outputs (strings without offsets) are placed on gold's texts: read them as "
                           "a system beside gold (read_pair), or convert them with ", Hint("gold", metavar="GOLD")],
                          option="format", value="generated")
    if fmt.name != "brat":
        not_blank(path)
    opts, decoding = _options(fmt, options)
    return fmt.feed(path, opts, decoding, block_bytes)


def not_blank(path: str) -> None:
    """An input that holds nothing or white space only is an error, ``empty input``, whatever its format (as
    the reading of one input whole has always said; its first 64 KiB decide: more white space than that is
    left to the format's reader).  A directory is not looked at."""
    if is_dir(path):
        return
    head = read_head(path)
    if len(head) < 1 << 16 and not head.strip():
        raise InputError("empty input", display_name(path))


def _taken(path: Any, fmt: Optional[str], options: Dict[str, Any]) -> Dict[str, Any]:
    """The options the format of ``path`` takes."""
    takes = format_of(str(path), fmt).takes()
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
    from .join import Held, pairs

    ids = {"id_key": options.pop("id_key")} if "id_key" in options else {}
    fmt = get_format("generated")
    opts = {**({"field": field} if field else {}), **ids, "generated": generated, "ground": ground,
            "normalize": normalize, "fuzzy_threshold": fuzzy_threshold}
    feed = fmt.feed(path, fmt.make_options(opts), Decoding(), None)     # (its options checked before gold is read)
    gold_docs = gold if isinstance(gold, Documents) else read(gold, format=format, **options)
    docs: Documents = concat_parts([feed.place(g, p[0], p[1], last).docs
                                    for g, (p,), last in pairs(Held(gold_docs), [feed])])
    return docs
