"""The lazily imported top-level functions (ts_eval.compare, ts_eval.rank, ts_eval.convert, ...) stay
functions after the modules and packages that hold them are imported: no package of ts_eval has the
name of a top-level function (Python sets a package attribute to every submodule it imports)."""
import pytest

import ts_eval


def test_compare_stays_the_function_after_the_package_is_imported():
    import ts_eval.comparison
    assert callable(ts_eval.compare) and ts_eval.compare is ts_eval.comparison.compare
    gold = [["B-PER", "O"]]
    corpus = ts_eval.from_sequences(gold, {"a": [["B-PER", "O"]], "b": [["O", "O"]]})
    result = ts_eval.compare(corpus)
    assert [s["name"] for s in result.systems] == ["a", "b"]


def test_rank_stays_the_function_after_the_package_is_imported():
    import ts_eval.ranking.study
    assert ts_eval.rank is ts_eval.ranking.study.rank


def test_convert_is_the_function():
    import ts_eval.io.convert  # a module, not a package attribute named convert
    assert callable(ts_eval.convert)


@pytest.mark.parametrize("name", [n for n in ts_eval.__all__ if n not in ("compat", "__version__")])
def test_every_public_name_is_not_a_module(name):
    import types
    assert not isinstance(getattr(ts_eval, name), types.ModuleType)
