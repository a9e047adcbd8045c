"""The lazily imported top-level functions (ts_eval.compare, ts_eval.rank, ts_eval.convert, ...) stay
functions after the modules and packages that hold them are imported: no package of ts_eval has the
name of a top-level function (Python sets a package attribute to every submodule it imports)."""
import re

import pytest

import ts_eval


def test_compare_stays_the_function_after_the_package_is_imported():
    import ts_eval.comparison
    from ts_eval.core.sequences import from_sequences
    assert callable(ts_eval.compare) and ts_eval.compare is ts_eval.comparison.compare
    gold = [["B-PER", "O"]]
    corpus = from_sequences(gold, {"a": [["B-PER", "O"]], "b": [["O", "O"]]})
    result = ts_eval.compare(corpus)
    assert [s["name"] for s in result.systems] == ["a", "b"]


def test_rank_stays_the_function_after_the_package_is_imported():
    import ts_eval.api
    import ts_eval.ranking.study
    assert ts_eval.rank is ts_eval.api.rank


def test_convert_is_the_function():
    import ts_eval.io.convert  # a module, not a package attribute named convert
    assert callable(ts_eval.convert)


@pytest.mark.parametrize("name", [n for n in ts_eval.__all__ if n not in ("compat", "__version__")])
def test_every_public_name_is_not_a_module(name):
    import types
    assert not isinstance(getattr(ts_eval, name), types.ModuleType)


def test_the_public_face_is_small():
    """One verb per study, the classes a caller meets, the errors: at most 16 names (issue 31.6); the
    submodules (``compat`` among them) are reached as attributes, not listed."""
    assert len(ts_eval.__all__) <= 16
    assert "compat" not in ts_eval.__all__ and ts_eval.compat.seqeval.classification_report
    assert set(ts_eval.__all__) >= {"score", "rank", "compare", "analyze", "agree", "validate", "convert", "read",
                                    "Inputs"}


@pytest.mark.parametrize("name", sorted(ts_eval._MOVED))
def test_an_earlier_name_still_works_and_says_its_new_spelling(name):
    import importlib

    module, spelling = ts_eval._MOVED[name]
    with pytest.warns(DeprecationWarning, match=rf"ts_eval\.{name} is deprecated: use {re.escape(spelling)}"):
        got = getattr(ts_eval, name)
    assert got is getattr(importlib.import_module(f"ts_eval.{module}"), name)
