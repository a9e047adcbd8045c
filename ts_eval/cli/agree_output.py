"""How ``ts-eval agree`` writes its report: a person's formats as every command does (:func:`emit`);
JSON and CSV, which list every document and disagreement, in pieces as they are made, the
documents and disagreements read back from where the reading kept them (:class:`ts_eval.agreement.spool.Spool`,
a temporary file), so that the output is never held whole.  The bytes are those :func:`emit` writes."""
from __future__ import annotations

import argparse
from typing import Any, Iterator, Optional

from .outputs import build_page, emit, spelling

#: the formats that list every document and disagreement (a person's formats list --cases of each)
MACHINE_FORMATS = ("json", "csv")


def _pieces(result: Any, args: argparse.Namespace) -> Iterator[str]:
    if args.format == "json":
        from ..agreement.spool import json_chunks

        yield from json_chunks(result.to_dict())
        yield "\n"
        return
    from ..output.renderers.csv import chunks

    yield from chunks(build_page(result, getattr(args, "argv", None), spelling(args), cases=None))


def emit_agreement(result: Any, args: argparse.Namespace, cases: Optional[int]) -> None:
    """``result`` as ``args.format`` to ``args.output`` (or standard output); the temporary file of its
    documents and disagreements is removed, whatever happens."""
    from ..io.sink import Streamed
    from ..io.source import STDIN

    kept = [result.documents, result.disagreements.get("groups"), result.disagreements.get("items")]
    try:
        if args.format not in MACHINE_FORMATS:
            emit(result, args, page_options={"cases": cases}, details=args.details)
            return
        out = Streamed(args.output or STDIN)
        try:
            for piece in _pieces(result, args):
                out.write(piece)
        except BaseException:
            out.abort()
            raise
        out.close()
    finally:
        for spool in kept:
            if hasattr(spool, "close"):
                spool.close()
