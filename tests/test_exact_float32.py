"""ts_eval.ranking.statistics.exact_float32: float32 products only where they equal float64's exactly."""
import numpy as np

from ts_eval.ranking.statistics import exact_float32


def test_integer_statistics_use_float32_and_give_identical_sums():
    rng = np.random.default_rng(0)
    data = rng.integers(0, 300, (2000, 50)).astype(float)
    w = rng.integers(0, 4, (30, 2000)).astype(float)
    d32, dtype = exact_float32(data, 2000)
    assert dtype is np.float32 and d32.dtype == np.float32
    np.testing.assert_array_equal((w.astype(dtype) @ d32).astype(np.float64), w @ data)


def test_fractions_or_large_sums_stay_float64():
    data = np.array([[0.5, 1.0]])
    assert exact_float32(data, 10)[1] is np.float64            # not integers
    big = np.full((4, 2), 2.0 ** 22)
    out, dtype = exact_float32(big, 4)                          # 2**22 x 4 units reaches 2**24
    assert dtype is np.float64 and out is big
