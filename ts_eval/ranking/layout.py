"""The columns of every system's statistics side by side as the labels grow: a family's columns per label
(:attr:`~ts_eval.models.registry.Model.columns`) put among more labels, for ``rank``'s blocks
(:class:`~ts_eval.ranking.blocks.StatsBuilder`) and ``analyze``'s (:class:`ts_eval.analysis.study.Statistics`):
a block brings its own sorted labels, a later one may bring a label that sorts before earlier ones."""
from __future__ import annotations

from typing import Any, Hashable, Optional, Sequence, Tuple

import numpy as np


class NotInBlocks(ValueError):
    """The statistics of these models cannot be taken block by block (a family whose columns per label
    are not known, :attr:`~ts_eval.models.registry.Model.columns`, met blocks with other labels)."""


def label_width(fam: Hashable, cols: Optional[Tuple[int, int]], labels: int, found: int, had: Optional[int]) -> int:
    """A family's columns per system with ``labels`` labels (``found``: its width in a block with ``had`` labels;
    ``cols``: how its columns depend on the labels, :attr:`~ts_eval.models.registry.Model.columns`)."""
    if cols is None:
        if had is not None and had != labels:
            raise NotInBlocks(f"statistics family {fam!r} does not say how its columns depend on the "
                              "labels; its statistics cannot be read in blocks with other labels")
        return found
    if found != cols[0] + cols[1] * (had if had is not None else labels):
        raise ValueError(f"statistics family {fam!r} gives {found} columns with {had} labels, but says "
                         f"{cols[0]} + {cols[1]} per label")
    return cols[0] + cols[1] * labels


def placed(columns: Optional[Tuple[int, int]], x: np.ndarray, where: np.ndarray, width: int) -> np.ndarray:
    """A block's (rows, k) statistics of one family whose columns depend on the labels as ``columns`` says
    (:attr:`~ts_eval.models.registry.Model.columns`) with its labels at ``where`` among ``width`` columns of more
    labels (labels the block lacks: 0)."""
    if columns is None or columns[1] == 0 or (len(where) * columns[1] + columns[0] == width
                                              and np.array_equal(where, np.arange(len(where)))):
        return x
    fixed, per = columns
    out = np.zeros((x.shape[0], width), x.dtype)
    out[:, :fixed] = x[:, :fixed]
    out[:, fixed:].reshape(x.shape[0], -1, per)[:, where, :] = x[:, fixed:].reshape(x.shape[0], -1, per)
    return out


def placed_columns(col: np.ndarray, fixed: Any, per: Any, where: np.ndarray) -> np.ndarray:
    """The column numbers ``col`` of a family's columns (``fixed`` columns, then ``per`` columns a label; arrays
    of them, one for each of ``col``, or one for all) with the labels put at ``where``: where :func:`placed`
    puts a column, as a number."""
    col = np.asarray(col, np.int64)
    label = np.maximum(col - fixed, 0)
    moved: np.ndarray = np.where(col < fixed, col, fixed + where[np.minimum(label // per, len(where) - 1)] * per
                                 + label % per)
    return moved


def relabelled(data: np.ndarray, rows: int, columns: Sequence[Optional[Tuple[int, int]]],
               old: Sequence[Tuple[int, int]], new: Sequence[Tuple[int, int]], systems: int,
               where: np.ndarray) -> np.ndarray:
    """The first ``rows`` rows of ``data`` (every system's statistics side by side: per family (first column,
    columns per system) in ``old``) in the layout ``new`` of more labels, the old labels at ``where`` among the
    new (:func:`placed`); as many rows as ``data`` (those after ``rows``: 0)."""
    out = np.zeros((data.shape[0], sum(w for _, w in new) * systems), data.dtype)
    for cols, (a, k), (b, w) in zip(columns, old, new):
        for i in range(systems):
            out[:rows, b + i * w:b + (i + 1) * w] = placed(cols, data[:rows, a + i * k:a + (i + 1) * k], where, w)
    return out
