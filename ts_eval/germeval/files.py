"""A 6-column GermEval file scored block by block, in one process or in shards on several (``jobs``).

:func:`evaluate_germeval_file` reads the file in pieces of whole sentences
(:func:`ts_eval.io.germeval.germeval_blocks`) and keeps only the report's sums (:class:`.sums.GermEvalSums`).
With ``jobs`` > 1, a plain file of at least two :data:`MIN_SHARD_BYTES` is cut into up to ``jobs`` shards of whole
sentences (:func:`ts_eval.io.germeval.germeval_shards`: never where a chunk runs on into the next sentence), each
counted in a process of its own; the shards' sums, added in order, are the file's, and the report is the one
of one process.  Standard input and compressed files are read in one process.  When a shard holds an error,
the file is read again in one process, so that the error is the one the whole file gives first (with its line).
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import List, Optional, Tuple

from ..core import measures
from ..errors import OptionError, TsEvalError
from ..io.germeval import BLOCK_BYTES, germeval_blocks, germeval_shards
from ..io.germeval_data import check_policy_name
from ..results.report import Report
from .evaluate import Source, piece_sums, sums_report
from .sums import GermEvalSums

#: a shard smaller than this costs more to start than it saves (about 1.8M tokens of a 6-column file)
MIN_SHARD_BYTES = 32 << 20


def evaluate_germeval_file(path: str, *, name: Optional[str] = None, policy: str = "nereval",
                           separator_weight: float = 1.0, beta: float = 1.0, eof_quirk: bool = True,
                           fair: bool = True, jobs: int = 1, block_bytes: Optional[int] = BLOCK_BYTES) -> Report:
    """The report of one system in a 6-column file (:func:`ts_eval.germeval.evaluate.evaluate_germeval`'s),
    read in blocks of about ``block_bytes``, in up to ``jobs`` processes (see the module docstring)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise OptionError("expected a whole number of processes >= 1", option="jobs", value=jobs)
    measures.check_separator_weight(separator_weight)
    measures.check_beta(beta)
    check_policy_name(policy)
    options = _Reading(name, policy, eof_quirk, fair, block_bytes)
    found = _in_shards(path, jobs, options) if jobs > 1 else None
    sums, source = found if found is not None else _shard_sums((path, None, True, options))
    return sums_report(sums, source, separator_weight=separator_weight, beta=beta, fair=fair)


@dataclass(frozen=True)
class _Reading:
    """How each shard is read and counted (the options of :func:`evaluate_germeval_file` that shards share)."""

    name: Optional[str]
    policy: str
    eof_quirk: bool
    fair: bool
    block_bytes: Optional[int]


_Job = Tuple[str, Optional[Tuple[int, int]], bool, _Reading]


def _shard_sums(job: _Job) -> Tuple[GermEvalSums, Optional[Source]]:
    """The sums of one shard (None: the whole file) and its source; ``last``: it is the file's last."""
    path, shard, last, options = job
    pieces = germeval_blocks(path, name=options.name, policy=options.policy, block_bytes=options.block_bytes,
                             shard=shard)
    return piece_sums(pieces, policy=options.policy, eof_quirk=options.eof_quirk, fair=options.fair, last=last)


def _in_shards(path: str, jobs: int, options: _Reading) -> Optional[Tuple[GermEvalSums, Optional[Source]]]:
    """The sums of the file from up to ``jobs`` processes, a shard each, added in order (None: one process will
    do -- a small file, standard input, a compressed file, a file that cannot be cut -- or a shard holds an
    error)."""
    from ..streaming.processes import start

    try:
        jobs = min(jobs, os.path.getsize(path) // MIN_SHARD_BYTES)
    except OSError:
        return None
    shards = germeval_shards(path, jobs, options.policy) if jobs > 1 else None
    if shards is None:
        return None
    each: List[_Job] = [(path, s, k == len(shards) - 1, options) for k, s in enumerate(shards)]
    total: Optional[Tuple[GermEvalSums, Optional[Source]]] = None
    try:
        with start([functools.partial(_shard_sums, job) for job in each]) as started:
            for part in started:
                if total is None:
                    total = part
                else:
                    total[0].add_sums(part[0])
    except (TsEvalError, ValueError):
        return None
    return total
