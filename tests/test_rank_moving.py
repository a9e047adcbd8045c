"""The permutation test counts only the units that move statistics between systems
(:meth:`ts_eval.ranking.sufficient.StatsMatrix.swap_sums`, :class:`ts_eval.ranking.rows.MovingSums`): a unit whose
every system has the same statistics adds the same to every system, so it is passed over (the generator moves on as
if its number were drawn) and neither counted nor multiplied, and only what each system has more than the first is
kept of the others; every difference between systems is the same number, and so the report."""
from __future__ import annotations

import numpy as np
import pytest
from streamed import QUICK, run, without_timings
from test_rank_rows import copies

from ts_eval.ranking.rows import DenseSums, MovingSums, distinct
from ts_eval.ranking.sufficient import StatsMatrix


def matrix(units: int, systems: int, agree: float, seed: int) -> StatsMatrix:
    """Whole-number statistics of two families (3 and 2 columns per system), the systems' rows the same on
    about ``agree`` of the units."""
    rng = np.random.default_rng(seed)
    fams = {"f": (0, 3), "g": (3 * systems, 2)}
    per = rng.integers(0, 5, size=(units, systems, 5)).astype(np.float32)
    same = rng.random(units) < agree
    per[same] = per[same, :1]
    data = np.concatenate([per[:, :, :3].reshape(units, -1), per[:, :, 3:].reshape(units, -1)], axis=1)
    table, ids = distinct(data)
    return StatsMatrix([f"s{i}" for i in range(systems)], [], table, fams, "sentence", np.ones(units), ids)


@pytest.mark.parametrize("units,systems,agree", [(1, 2, 1.0), (50, 2, 1.0), (50, 2, 0.0), (1000, 2, 0.9),
                                                 (1000, 3, 0.7)])
def test_moving_units_give_every_difference_between_systems_draw_for_draw(units, systems, agree):
    sm = matrix(units, systems, agree, seed=units + systems)
    sums = sm.swap_sums()
    assert isinstance(sums, MovingSums)
    moving_units = np.zeros(units, bool)
    for first, k in sm.family_cols.values():
        block = sm.dense()[:, first:first + systems * k].reshape(units, systems, k)
        moving_units |= (block != block[:, :1]).any((1, 2))
    assert np.array_equal(sums.picked, np.flatnonzero(moving_units))
    moving_rows = len(np.unique(sm.ids[moving_units]))
    assert sums.sums.product.data.shape == (moving_rows, (systems - 1) * 5)   # only the moving rows' differences
    every = DenseSums(sm.dense(), units)
    a_rng, b_rng = np.random.default_rng(5), np.random.default_rng(5)
    for count in (3, 1, 4):
        whole, moved = every.swapped(a_rng, count), sums.swapped(b_rng, count)
        assert moved.shape == whole.shape == (count, sm.data.shape[1])
        for first, k in sm.family_cols.values():
            w = whole[:, first:first + systems * k].reshape(count, systems, k)
            m = moved[:, first:first + systems * k].reshape(count, systems, k)
            assert np.array_equal(w - w[:, :1], m - m[:, :1])
    if agree == 1.0:
        assert not len(sums.picked) and not sums.swapped(b_rng, 2).any()


def test_a_matrix_of_every_unit_is_swapped_whole():
    sm = matrix(40, 2, 0.5, seed=2)
    dense = StatsMatrix(sm.systems, [], sm.dense(), sm.family_cols, "sentence", np.ones(40))
    assert isinstance(dense.swap_sums(), DenseSums)


@pytest.mark.parametrize("unit", ["sentence", "document"])
def test_the_report_is_that_of_every_unit_swapped(tmp_path, monkeypatch, unit):
    path = tmp_path / "c.conll"
    path.write_text(copies(30, 4, seed=5), encoding="utf-8")
    argv = ["rank", str(path), "--gold-col", "2", *QUICK, "--format", "json", "--unit", unit]
    moving = without_timings(run(argv))
    assert moving[0] == 0
    monkeypatch.setattr(StatsMatrix, "swap_sums", StatsMatrix.sums)
    assert without_timings(run(argv)) == moving
