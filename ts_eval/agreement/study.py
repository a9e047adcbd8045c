"""The study: :func:`agreement` counts the annotations once and assembles an
:class:`~ts_eval.agreement.results.Agreement`: the figures of the corpus, per pair, per label and per
document, bootstrap intervals, the disagreements and the majority spans."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from scipy import sparse

from ..core.corpus import Corpus, SpanSet
from ..core.measures import check_separator_weight
from ..errors import OptionError
from ..io.documents import TOKEN_SEP, Documents, build_documents
from ..io.source import gc_paused
from ..ranking.study import bootstrap_weights, check_options
from .assemble import DOCUMENT_FIGURES, _bootstrap, _figures, _labels, _pairs
from .continuum import Continuum
from .data import Annotations
from .disagreements import by_label, clusters, groups
from .disagreements import majority as majority_spans
from .figures import Figures, figures
from .layout import Stats
from .results import Agreement
from .statistics import sentence_stats

DOC_CHUNK = 2000    # documents per vectorised step; results do not depend on it


@gc_paused     # the result is tens of thousands of small dicts and lists (no cycles): the collector only costs time
def agreement(
    ann: Annotations,
    *,
    separator_weight: float = 1.0,
    continuum: str = "tokens",
    bootstrap: int = 0,
    confidence: float = 0.95,
    seed: int = 0,
    majority: Optional[int] = None,
) -> Agreement:
    """The agreement of ``ann`` (see :func:`ts_eval.agree`, which reads or converts its input first)."""
    w = check_separator_weight(separator_weight)
    if ann.m < 2:
        raise OptionError(f"agreement needs at least two annotators, got {ann.m}")
    check_options(bootstrap=bootstrap, seed=seed, confidence=confidence)
    if majority is not None and not 1 <= int(majority) <= ann.m:
        raise OptionError(f"expected a number between 1 and the number of annotators ({ann.m})", option="majority",
                          value=majority)
    cont = Continuum(ann.corpus, continuum, w)
    st = sentence_stats(ann, w, cont)
    x = st.sums()
    f = figures(st, x)
    unit, group = resampling_units(ann.corpus)
    by_group = st.matrix @ group
    intervals = (_bootstrap(st, by_group, int(bootstrap), seed, float(confidence), bootstrap_weights)
                 if bootstrap else {})
    settings = {"separator_weight": w, "continuum": continuum, "token_atoms": cont.token_atoms,
                "separator_atoms": cont.separator_atoms,
                "bootstrap": int(bootstrap), "confidence": float(confidence), "seed": seed,
                "resampling": unit, "units": int(group.shape[1]), "majority": majority,
                "missing": "every figure but alpha counts the sentences every annotator annotated"
                if ann.covered is not None else None}
    dis = clusters(ann)
    result = Agreement(settings, _corpus(ann, st, cont), _annotators(ann, f), _figures(f, intervals),
                       _pairs(ann.corpus.labels, ann.names, st, f, intervals),
                       _labels(ann.corpus.labels, ann.names, st.columns.get(x, "spans"), f, intervals),
                       _documents(ann, st, by_group, unit),
                       {"total": dis["total"], "kinds": dis["kinds"], "by_label": by_label(dis["items"]),
                        "groups": groups(dis["items"]),
                        "items": dis["items"]})
    if majority is not None:
        spans = majority_spans(ann, int(majority))
        result.majority_spans = spans
        result.majority = {"at_least": int(majority), "spans": len(spans)}
    return result


def resampling_units(corpus: Corpus) -> Tuple[str, sparse.csr_matrix]:
    """``documents`` (when the corpus has more than one) or ``sentences``, and the (sentences x units)
    indicator matrix of which unit each sentence belongs to."""
    S = corpus.n_sentences
    docs = corpus.doc_offsets
    if docs is not None and len(docs) > 2:
        unit = "documents"
        gid = np.searchsorted(docs, corpus.sent_offsets[:-1], side="right") - 1
        gid -= gid.min()
    else:
        unit, gid = "sentences", np.arange(S)
    D = int(gid.max()) + 1 if S else 0
    return unit, sparse.csr_matrix((np.ones(S), (np.arange(S), gid)), shape=(S, D))


def _annotators(ann: Annotations, f: Figures) -> List[Dict[str, Any]]:
    cov = ann.coverage()
    rows = []
    spans = ann.spans
    for i, (name, info) in enumerate(zip(ann.names, ann.infos)):
        rows.append({"name": name, "path": info.path, "column": info.column, "spans": len(spans[i]),
                     "nested": int((info.shape or {}).get("nested", 0)),
                     "crossing": int((info.shape or {}).get("crossing", 0)),
                     "sentences": int(cov[i].sum())})
    return rows


def _corpus(ann: Annotations, st: Stats, cont: Continuum) -> Dict[str, Any]:
    c = ann.corpus
    docs = c.doc_offsets
    return {"tokens": c.n_tokens, "sentences": c.n_sentences, "separators": c.n_separators,
            "documents": int(len(docs) - 1) if docs is not None else c.n_sentences,
            "complete_sentences": int(st.complete.sum()), "labels": list(c.labels),
            "categories": list(st.category_names), "continuum_length": int(cont.sentence_length.sum())}


def _documents(ann: Annotations, st: Stats, by_group: sparse.csr_matrix, unit: str) -> List[Dict[str, Any]]:
    """Per document (per sentence without documents) the main figures, lowest alpha first."""
    c = ann.corpus
    D = by_group.shape[1]
    mat = by_group.tocsc()
    cols: Dict[str, List[np.ndarray]] = {k: [] for k in DOCUMENT_FIGURES + ("spans",)}
    for a in range(0, D, DOC_CHUNK):
        x = mat[:, a:a + DOC_CHUNK].T.toarray()
        f = figures(st, x, rows=True)
        cols["f_exact"].append(f["mean_f_exact_micro"])
        cols["kappa"].append(f["mean_kappa_micro"])
        cols["alpha"].append(f["alpha_micro"])
        cols["alpha_u"].append(f["alpha_u_micro"])
        cols["spans"].append(st.columns.get(x, "spans").sum(-1))
    arr = {k: np.concatenate(v) if v else np.zeros(0) for k, v in cols.items()}
    if unit == "documents" and c.doc_offsets is not None:
        starts = c.doc_offsets[:-1]
        first_sentence = np.searchsorted(c.sent_offsets, starts, side="left")
    else:
        first_sentence = np.arange(c.n_sentences)
    ends = np.append(first_sentence[1:], c.n_sentences)
    lines = ann.infos[0].token_lines if ann.infos else None
    rows = []
    for d in range(D):
        s0 = int(first_sentence[d])
        t0 = int(c.sent_offsets[s0])
        row: Dict[str, Any] = {"document": d + 1, "first_sentence": s0, "sentences": int(ends[d] - s0),
                               "tokens": int(c.sent_offsets[int(ends[d])] - t0),
                               "line": int(lines[t0]) if lines is not None and t0 < len(lines) else None,
                               "spans": {n: int(arr["spans"][d, i]) for i, n in enumerate(ann.names)}}
        row.update({k: float(arr[k][d]) + 0.0 for k in DOCUMENT_FIGURES})
        rows.append(row)
    rows.sort(key=lambda r: (r["alpha"], r["document"]))
    return rows


def majority_documents(ann: Annotations, spans: SpanSet, path: str = "majority") -> Documents:
    """The spans at least k annotators share (:func:`ts_eval.agreement.disagreements.majority`) over the
    annotations' sentences, as Documents any writer of :func:`ts_eval.convert` writes."""
    c = ann.corpus
    if c.tokens is None:
        raise OptionError("the majority spans are written with their tokens; these annotations have none")
    lengths = np.diff(c.sent_offsets).tolist()
    keys = [TOKEN_SEP.join(c.tokens(int(a), int(b))) for a, b in zip(c.sent_offsets[:-1], c.sent_offsets[1:])]
    doc = c.sentence_of(spans.start)
    base = c.sent_offsets[doc]
    return build_documents(path, "columns", lengths, [None] * c.n_sentences, keys, doc.tolist(),
                           (spans.start - base).tolist(), (spans.last + 1 - base).tolist(),
                           [c.labels[k] for k in spans.label.tolist()])
