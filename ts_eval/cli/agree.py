"""``ts-eval agree``: agreement between two or more annotations of the same text.

    ts-eval agree A B [C ...]                       one input per annotator (any format; brat: a folder)
    ts-eval agree FILE [--columns N N ...]          one column file, an annotator per column
    ts-eval agree EXPORT --annotator-field FIELD    one JSON export whose annotations name their annotator
    ts-eval agree A B C --majority 2 -o silver.conll   also write the spans at least 2 annotators share

Exit codes: 0 done, 1 bad input, 2 bad usage.
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Dict, List, Union

from ..io.inputs import Inputs
from .agree_output import MACHINE_FORMATS, emit_agreement
from .errors import UsageError, option_errors
from .input_options import add_jobs_option, add_reading_options
from .inputs import check_paths, inputs_of, label_map
from .outputs import add_output_options

if TYPE_CHECKING:
    from ..agreement.data import Annotations

WRITE_FORMATS = ("columns", "jsonl-tokens", "jsonl-text", "brat")    # = ts_eval.io.convert.WRITERS
#: reading options (and their defaults) that an export split by an annotator field cannot use
EXPORT_IGNORES = {"scheme": None, "policy": None, "token_col": 1, "delimiter": None, "outside_tag": "O", "raw": False,
                  "tags_only": False, "input_format": "auto", "gold_format": None, "tag_names": None,
                  "discontinuous": None, "misc_key": None}


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "agree", help="agreement between annotators (F1, kappa, Fleiss, Krippendorff's alpha and alpha_u)",
        description="Agreement between two or more annotations of the same text: pairwise F1 (exact and overlap), "
                    "Cohen's kappa on token-and-separator units, Fleiss' kappa, Krippendorff's alpha and unitizing "
                    "alpha, per label and overall, with bootstrap intervals; the disagreements to adjudicate; "
                    "with --majority the spans at least K annotators share, written to -o. Inputs: one per "
                    "annotator in any format (a folder per annotator for brat), one column file with an annotator "
                    "per column (--columns), or one JSON export with --annotator-field. Inputs must hold the same "
                    "documents and tokens; a missing document is an error.")
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="one input per annotator, or one column file or export")
    p.add_argument("--names", nargs="+", metavar="NAME",
                   help="annotator names (default: the file names, colN for columns, the export's field values)")
    p.add_argument("--columns", type=int, nargs="+", metavar="N",
                   help="one column file: the annotator columns (default: every column after the first)")
    p.add_argument("--annotator-field", metavar="FIELD",
                   help="one JSON export (Label Studio: completed_by; JSON Lines records or spans with a field "
                        "such as user) split into one annotation per annotator")
    p.add_argument("--partial", action="store_true",
                   help="with --annotator-field: annotators may leave documents out (counted as missing: "
                        "Krippendorff's alpha uses them, the other figures the documents everyone annotated)")
    add_reading_options(p)
    add_jobs_option(p, "read", alone="one input per annotator, --annotator-field, --majority, sums not exact in "
                                     "blocks (docs/agreement.md), files under 8 MB")
    g = p.add_argument_group("figures and output")
    g.add_argument("--separator-weight", type=float, default=1.0, metavar="W",
                   help="weight of a separator unit, as in score (default 1; 0: token-level figures)")
    g.add_argument("--continuum", default="tokens", choices=("tokens", "characters"),
                   help="where unitizing alpha measures lengths: TS units (default) or characters")
    g.add_argument("--bootstrap", type=int, default=0, metavar="N",
                   help="bootstrap resamples of documents (sentences without documents) for intervals (default 0)")
    g.add_argument("--confidence", type=float, default=0.95, metavar="C", help="interval level (default 0.95)")
    g.add_argument("--seed", type=int, default=0, help="random seed of the resamples (default 0)")
    g.add_argument("--cases", type=int, default=10, metavar="N",
                   help="documents, disagreement groups and disagreements listed, each list saying how many more "
                        "there are (default 10; json and csv list all)")
    g.add_argument("--details", action="store_true", help="table format: also every pair per label; html: open it")
    g.add_argument("--majority", type=int, metavar="K",
                   help="write the spans at least K annotators share to -o (the report then goes to standard output)")
    g.add_argument("--to", dest="to_format", choices=WRITE_FORMATS, help="--majority: output format (default: -o's)")
    g.add_argument("--majority-scheme", default="IOB2", metavar="S",
                   help="--majority to columns: the tag scheme written (default IOB2)")
    g.add_argument("--overlapping", default="error", choices=("error", "outermost"),
                   help="--majority to columns: nested or overlapping spans are an error (default) or only the "
                        "outermost are kept")
    add_output_options(g)


def _annotations(args: argparse.Namespace) -> Union[Annotations, Inputs]:
    """The annotations of an export split by --annotator-field (read whole), else the Inputs to read."""
    from ..agreement.inputs import annotator_names, read_annotations

    inputs: List[str] = list(args.inputs)
    if args.annotator_field is not None:
        if len(inputs) != 1:
            raise UsageError(f"--annotator-field splits one export; got {len(inputs)} inputs")
        given = [k for k, default in EXPORT_IGNORES.items() if getattr(args, k, default) != default]
        if given:
            raise UsageError(f"--{given[0].replace('_', '-')} does not apply to an export split by --annotator-field "
                             "(it is read as JSON: --align and --map-label apply)")
        options: Dict[str, Any] = {"label_map": label_map(args), **({"align": args.align} if args.align else {})}
        with option_errors():
            return read_annotations(inputs, names=args.names, annotator_field=args.annotator_field,
                                    partial=args.partial, **options)
    if args.partial:
        raise UsageError("--partial applies with --annotator-field")
    if len(inputs) == 1:
        cols = args.columns
        if cols is not None and len(cols) < 2:
            raise UsageError("--columns: give at least two annotator columns")
        return inputs_of(args, file=inputs[0], names=None, columns=False, gold_column=cols[0] if cols else 2,
                         system_columns=tuple(cols[1:]) if cols else None)
    if args.columns is not None:
        raise UsageError("--columns applies to one column file with an annotator per column")
    with option_errors():
        annotator_names(inputs, args.names)     # (names are checked before the reading options)
    return inputs_of(args, gold=inputs[0], systems=inputs[1:], names=None, columns=False)


def run(args: argparse.Namespace) -> int:
    from ..agreement.inputs import annotation_blocks, annotations_of
    from ..agreement.stream import agreement_of_inputs, reads_in_blocks
    from ..agreement.study import agreement, majority_documents
    from ..io.convert import convert

    if args.bootstrap < 0 or args.cases < 0:
        raise UsageError("--bootstrap and --cases must be >= 0")
    if args.majority is None and (args.to_format or args.overlapping != "error" or args.majority_scheme != "IOB2"):
        raise UsageError("--to, --majority-scheme and --overlapping apply with --majority")
    if args.majority is not None and not args.output:
        raise UsageError("--majority needs -o FILE: where to write the spans at least K annotators share")
    report_to = None if args.majority is not None else args.output
    check_paths(args, [(f"input {k + 1}", p) for k, p in enumerate(args.inputs)],
                [("-o", args.output)] if args.output else [])
    read, cases = _annotations(args), None if args.format in MACHINE_FORMATS else args.cases
    figures = {k: getattr(args, k) for k in ("separator_weight", "continuum", "bootstrap", "confidence", "seed")}
    with option_errors():       # in blocks where their sums are the whole's; --majority writes the whole's spans
        if isinstance(read, Inputs) and args.majority is None and reads_in_blocks(read, args.separator_weight):
            ann, result = None, agreement_of_inputs(read, annotation_blocks, args.names, jobs=args.jobs, keep=cases,
                                                    spool="json" if args.format == "json" else "records",
                                                    **figures)
        else:
            ann = annotations_of(read, args.names) if isinstance(read, Inputs) else read
            result = agreement(ann, majority=args.majority, **figures)
    result.settings["input"] = {"inputs": list(args.inputs), "annotator_field": args.annotator_field,
                                "columns": args.columns}
    if args.majority is not None:
        with option_errors():
            assert ann is not None and result.majority_spans is not None and result.majority is not None
            docs = majority_documents(ann, result.majority_spans, path=f"majority of {len(ann.names)} annotators")
            rep = convert(docs, args.output, to_format=args.to_format, scheme=args.majority_scheme,
                          overlapping=args.overlapping)
        result.majority["path"] = args.output
        for line in rep.lines():
            print(f"ts-eval agree: {line}", file=sys.stderr)
    args.output = report_to
    emit_agreement(result, args, cases)
    return 0
