"""The ranking scores of resampled sums, computed for what each score reads only, are the numbers of the
whole computation to the last bit (``analyze`` and ``rank`` print them: the outputs may not move)."""
import numpy as np
import pytest

from ts_eval.core import measures
from ts_eval.models.segment import segment_f1, segment_prf
from ts_eval.models.semeval import SCHEMES, scheme_f, scores_of_sums
from ts_eval.models.tally import over_labels
from ts_eval.models.ts import ts_f1, ts_table


def _sums(rng: np.random.Generator, width: int, fractions: bool) -> np.ndarray:
    x = rng.integers(0, 60, (200, 3, width)).astype(float)
    x[:4] = 0.0                                     # resamples without a span: the undefined scores too
    return x * rng.choice([1.0, 0.37], size=x.shape) if fractions else x


@pytest.mark.parametrize("labels", [1, 4, 7, 9])
@pytest.mark.parametrize("fractions", [False, True])
def test_sums_over_labels_are_the_strided_sums(labels: int, fractions: bool) -> None:
    per = _sums(np.random.default_rng(labels), 4 * labels, fractions).reshape(200, 3, labels, 4)
    for got, i in zip(over_labels(per), range(4)):
        assert got.tobytes() == per[..., i].sum(-1).tobytes()


@pytest.mark.parametrize("labels", [1, 4, 9])
@pytest.mark.parametrize("fractions", [False, True])
def test_micro_scores_as_summed_label_by_label(labels: int, fractions: bool) -> None:
    rng = np.random.default_rng(10 + labels)
    x = _sums(rng, 4 * labels, fractions)
    per = x.reshape(200, 3, labels, 4)
    G, F, GH, FH = (per[..., i].sum(-1) for i in range(4))
    want = measures.f_from_pr(measures.precision(FH, F - FH), measures.recall(GH, G - GH))
    assert segment_f1(x, "micro").tobytes() == np.asarray(want).tobytes()
    assert segment_prf(x)[1][2].tobytes() == np.asarray(want).tobytes()
    y = _sums(rng, 2 + 6 * labels, fractions)
    for w in (1.0, 0.0, 0.5):
        tp, fp, fn, _ = ts_table(y, w)
        want = measures.fbeta(tp.sum(-1), fp.sum(-1), fn.sum(-1))
        assert ts_f1(y, w, "micro").tobytes() == np.asarray(want).tobytes()


@pytest.mark.parametrize("labels", [0, 4])
@pytest.mark.parametrize("partial_weight", [0.5, 0.3])
def test_scheme_f_is_the_overall_row_of_every_scheme(labels: int, partial_weight: float) -> None:
    z = _sums(np.random.default_rng(labels), 20 * (1 + labels), True)
    every = scores_of_sums(z, None, 1.0, partial_weight)["f"]
    for k, scheme in enumerate(SCHEMES):
        assert scheme_f(z, scheme, 1.0, partial_weight).tobytes() == every[..., k, 0].tobytes()
    # 3 correct, 1 incorrect, 1 partial (half a hit), 0 missed, 2 spurious: P = 3.5 / 7, R = 3.5 / 5
    assert scheme_f(np.array([3.0, 1, 1, 0, 2] * 4), "partial") == pytest.approx(2 * 0.5 * 0.7 / 1.2)
    assert scheme_f(np.array([3.0, 1, 1, 0, 2] * 4), "strict") == pytest.approx(2 * 3 / 7 * 3 / 5 / (3 / 7 + 3 / 5))


@pytest.mark.parametrize("labels", [1, 4, 9])
def test_macro_segment_f1_is_the_mean_of_the_per_label_scores(labels: int) -> None:
    x = _sums(np.random.default_rng(20 + labels), 4 * labels, True)
    (_, _, f), _, present = segment_prf(x)
    assert segment_f1(x, "macro").tobytes() == measures.masked_mean(f, present).tobytes()
    # one label of 2 gold spans, 2 found, 1 hit each way: P = R = F = 1/2; a label nobody has is left out
    assert segment_f1(np.array([2.0, 2, 1, 1, 0, 0, 0, 0]), "macro") == pytest.approx(0.5)


@pytest.mark.parametrize("weight", [1.0, 0.5, 0.0])
def test_ts_tables_weigh_the_separators(weight: float) -> None:
    y = _sums(np.random.default_rng(30), 2 + 6 * 4, True)
    per = y[..., 2:].reshape(200, 3, 4, 6)
    want = per[..., :3] + weight * per[..., 3:]
    tp, fp, fn, _ = ts_table(y, weight)
    assert np.stack([tp, fp, fn], -1).tobytes() == want.tobytes()
    # 2 tokens and 1 separator in tp, 1 token in fp, none in fn: tp = 2 + w, fp = 1
    one = np.array([10.0, 9, 2, 1, 0, 1, 0, 0])
    assert [float(a[0]) for a in ts_table(one, weight)[:3]] == [2 + weight, 1.0, 0.0]


def test_the_models_keep_their_order_in_a_fresh_interpreter() -> None:
    """``--models all`` lists the ranking models in the registry's order: TS before the segment models (a module
    importing another model module would register that one first and reorder every table and JSON list)."""
    import subprocess
    import sys
    code = "from ts_eval.models import registry; print(' '.join(registry.REGISTRY))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names = out.stdout.split()
    assert names[:3] == ["ts-f1-micro", "ts-f1-macro", "t-f1-micro"]
    assert names.index("ts-kappa-macro") < names.index("exact-f1-micro") < names.index("fair-f1")
