"""What :func:`ts_eval.agree` returns: plain data whose ``to_dict()`` is the JSON output.

A figure is ``{"value": v}``, with ``"low"`` and ``"high"`` (the bootstrap's percentile interval)
when resamples were asked for; the counts behind it stand beside it.  Lists are ordered lowest
agreement first (pairs by their micro kappa, labels by Krippendorff's alpha, documents by alpha).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..core.corpus import SpanSet
from ..results.display import Displayed, listing, number
from ..results.vocabulary import layout


@dataclass
class Agreement(Displayed):
    """Everything ``ts-eval agree`` shows; ``to_dict()`` is the JSON output.

    ``str``: the overall figures (terminal table); ``repr``: one line per annotator pair;
    ``_repr_html_``: the HTML page."""

    settings: Dict[str, Any]
    corpus: Dict[str, Any]
    annotators: List[Dict[str, Any]]
    figures: Dict[str, Any]                 # every figure of the corpus (all annotators, means of the pairs)
    pairs: List[Dict[str, Any]]
    labels: List[Dict[str, Any]]
    documents: List[Dict[str, Any]]
    disagreements: Dict[str, Any]
    majority: Optional[Dict[str, Any]] = None
    majority_spans: Optional[SpanSet] = field(default=None, repr=False, compare=False)   # not in the JSON
    #: how many documents, disagreement groups and disagreements there are when the lists hold only the first
    #: (read in blocks for a person's format); None: the lists hold every one
    listed: Optional[Dict[str, int]] = field(default=None, repr=False, compare=False)

    def total(self, what: str) -> int:
        """How many ``documents``, disagreement ``groups`` or ``items`` there are (listed or not)."""
        if self.listed is not None:
            return self.listed[what]
        return len(self.documents if what == "documents" else self.disagreements[what])

    summary_sections = 2

    def to_dict(self) -> Dict[str, Any]:
        return {"layout": layout("agree"), "settings": self.settings, "corpus": self.corpus,
                "annotators": self.annotators, "figures": self.figures, "pairs": self.pairs,
                "labels": self.labels, "documents": self.documents, "disagreements": self.disagreements,
                "majority": self.majority}

    def __repr__(self) -> str:
        o = self.figures
        head = (f"<Agreement: {len(self.annotators)} annotators, {self.corpus.get('tokens')} tokens; "
                f"Fleiss {number(o['fleiss']['micro']['value'])}, alpha {number(o['alpha']['micro']['value'])}, "
                f"alpha_u {number(o['alpha_u']['micro']['value'])}; per pair: exact F1, kappa>")
        return listing(head, (f"{p['a']} ~ {p['b']}: F1 {number(p['f_exact']['micro']['value'])}, "
                              f"kappa {number(p['kappa']['micro']['value'])}" for p in self.pairs))
