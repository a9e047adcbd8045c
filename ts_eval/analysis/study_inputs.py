"""What ``analyze`` is asked: its systems, attributes, training data, records, flips and pair, checked."""
from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from ..core.corpus import Corpus
from ..errors import Hint, InputError, OptionError
from . import attributes as at


def _not_a_slice(name: str) -> OptionError:
    return OptionError([f"{name!r} is an attribute, not a slice: give ", Hint("attributes", name)],
                       option="by", value=name)


def _records(corpus: Corpus, records: Optional[Sequence[Mapping[str, Any]]],
             fields: Sequence[str]) -> List[Mapping[str, Any]]:
    """One record per sentence of the corpus: given, or read again from gold's JSON Lines file a chunk at a
    time, each record kept only along the dotted ``fields`` (see :func:`slim`; the first is named in an
    error)."""
    field = fields[0]
    if records is not None:
        out = list(records)
    else:
        reading = corpus.gold_info.reading or {}
        fmt = str(reading.get("format", ""))
        if not (fmt.startswith("jsonl") or fmt == "label-studio") or corpus.gold_info.path is None:
            if field in at.BUILT_IN:
                raise _not_a_slice(field)
            raise OptionError(["the input is not JSON Lines: it has no record fields to slice by; ", Hint("by"),
                               " takes document (one bucket per -DOCSTART- block) or, with JSON Lines input (one "
                               "record per document), a field of its records (dotted: meta.genre)"],
                              option="by", value=field)
        from ..io.jsonl import record_chunks

        out = [slim(rec, fields) for chunk, _ in record_chunks(corpus.gold_info.path) for rec in chunk]
    if len(out) != corpus.n_sentences:
        raise OptionError(f"{len(out)} records for {corpus.n_sentences} documents of the corpus; expected one "
                          "record per document", option="by", value=field)
    return out


def slim(record: Any, fields: Sequence[str]) -> Any:
    """``record`` with only what the dotted ``fields`` reach (the tokens and spans of a record are not
    kept): each path's value, or the record's structure as far as the path goes, so that
    :func:`ts_eval.analysis.attributes.record_field` finds the same values and the same errors."""
    if not isinstance(record, dict):
        return record
    out: Dict[str, Any] = {}
    for path in fields:
        node, into = record, out
        keys = path.split(".")
        for depth, key in enumerate(keys):
            if not isinstance(node, dict) or key not in node:
                break
            node = node[key]
            if depth == len(keys) - 1 or not isinstance(node, dict):
                into[key] = node
                break
            nested = into.setdefault(key, {})
            if not isinstance(nested, dict) or nested is node:
                break
            into = nested
    return out



def system_names(corpus: Corpus, systems: Optional[Sequence[str]]) -> List[str]:
    """The systems analysed (default: every system of the corpus), checked."""
    names = list(corpus.systems) if systems is None else list(systems)
    missing = [s for s in names if s not in corpus.systems]
    if missing:
        raise OptionError(f"no system named {', '.join(map(repr, missing))} in the corpus")
    if not names:
        raise OptionError("no system to analyse")
    if len(set(names)) != len(names):
        raise OptionError("a system is named twice", option="systems", value=",".join(names))
    return names


def chosen_attributes(corpus: Corpus, names: List[str], training: Any, vocabulary: Optional[FrozenSet[str]],
                      text: bool, spec: Dict[str, Any], by: List[str],
                      records: Optional[Sequence[Mapping[str, Any]]], attributes: Optional[Sequence[str]]
                      ) -> Tuple[List[at.Attribute], List[str]]:
    """The attributes analysed (built in or InterpretEval's, slices ``by``, those ``attributes`` names) and
    what is left out, with why (``text``: the input has token texts).

    The built-in attributes read nothing of ``corpus`` and the ``document`` slice only whether it has
    documents: the input's first block will do (their values are read a block at a time,
    :class:`~ts_eval.analysis.attribute_values.AttributeValues`).  InterpretEval's attributes and record
    fields read the whole corpus (``corpus`` must be it: the tags of every sentence; one record per sentence)."""
    if spec["interpreteval"]:
        from .interpreteval import interpreteval_attributes

        if training is None or not text:
            raise OptionError("InterpretEval's attributes need training data and token texts", option="buckets",
                              value="interpreteval")
        attrs = interpreteval_attributes(corpus, names, training, at.Text(corpus))
        left_out = ["tCon, tFre: InterpretEval's token-level attributes put tokens, not spans, in buckets "
                    "(ts_eval.analysis.interpreteval.bucket_f1 has them)"]
    else:
        attrs, left_out = at.built_in(training, vocabulary, text)
    fields = [f for f in by if f != "document"]
    if "document" in by:
        doc = at.document_attribute(corpus)
        if doc is None:
            raise OptionError("the gold input has no documents (-DOCSTART- lines, or records of a JSON Lines "
                              "file) to slice by", option="by", value="document")
        attrs.append(doc)
    if fields:
        recs = _records(corpus, records, fields)
        for path in fields:
            try:
                vals, numeric = at.record_field(recs, path, corpus.gold_info.path or "records")
            except InputError:
                if path in at.BUILT_IN:         # no such field: the attribute was meant
                    raise _not_a_slice(path) from None
                raise
            attrs.append(at.Attribute(path, at.SENTENCE, at.NUMERIC if numeric else at.CATEGORICAL,
                                      f"the record field {path}", (lambda c, t, v=vals: v), source="record field",
                                      extra={"every_sentence": vals}))
    if attributes is not None:
        unknown = [a for a in attributes if a not in [x.name for x in attrs]]
        if unknown:
            raise OptionError(at.unavailable(unknown, [x.name for x in attrs], training=training is not None,
                                             vocabulary=vocabulary is not None, text=text,
                                             built_in=not spec["interpreteval"]),
                              option="attributes", value=",".join(attributes))
    _check_edges(spec["edges"], attrs, attributes)
    if attributes is not None:
        attrs = [a for a in attrs if a.name in attributes]
    return attrs, left_out


def _check_edges(edges: Dict[str, List[float]], attrs: Sequence[at.Attribute],
                 selected: Optional[Sequence[str]]) -> None:
    """Fixed edges name an attribute analysed (among ``selected``, when given) whose values are numbers it
    buckets by ranges."""
    takes = [a.name for a in attrs if a.kind == at.NUMERIC and a.extra.get("assigned") is None]
    for name, given in edges.items():
        value = f"{name}=" + ",".join(f"{e:g}" for e in given)
        if name not in [a.name for a in attrs]:
            raise OptionError(f"no attribute {name!r} to give edges to; attributes that take edges: "
                              f"{', '.join(takes) or 'none'}", option="buckets", value=value)
        if selected is not None and name not in selected:
            raise OptionError(["edges for an attribute not analysed (add it to ", Hint("attributes"), ")"],
                              option="buckets", value=value)
        if name not in takes:
            kind = next(a for a in attrs if a.name == name)
            why = "InterpretEval's buckets are its own" if kind.extra.get("assigned") is not None else \
                "its values are names, one bucket each"
            raise OptionError(f"attribute {name!r} takes no edges ({why}); attributes that take edges: "
                              f"{', '.join(takes) or 'none'}", option="buckets", value=value)



def flip_arg(flips: Optional[Sequence[Tuple[str, str]]], models: List[str]) -> List[Tuple[int, int]]:
    if flips is None:
        return [(i, j) for i in range(len(models)) for j in range(i + 1, len(models))]
    out = []
    for given in flips:
        pr = tuple(given)
        if len(pr) != 2 or pr[0] == pr[1] or any(x not in models for x in pr):
            raise OptionError(f"expected two different models among {', '.join(models)}", option="flips",
                              value=",".join(map(str, pr)))
        out.append((models.index(pr[0]), models.index(pr[1])))
    return out


def pair_arg(pair: Optional[Tuple[str, str]], names: List[str]) -> Optional[Tuple[int, int]]:
    if pair is None:
        return (0, 1) if len(names) == 2 else None
    pr = tuple(pair)
    if len(pr) != 2 or pr[0] == pr[1] or any(x not in names for x in pr):
        raise OptionError(f"expected two different systems among {', '.join(names)}", option="pair",
                          value=" ".join(map(str, pr)))
    return names.index(pr[0]), names.index(pr[1])
