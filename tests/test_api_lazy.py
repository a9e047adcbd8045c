"""The lazily imported top-level functions (ts_eval.compare, ts_eval.rank, ...)."""
import pytest


@pytest.mark.xfail(strict=True, reason="ts_eval.compare is both a lazy function name and the subpackage "
                   "ts_eval.compare: once the subpackage is imported (import ts_eval.compare, or any module "
                   "importing from it), the attribute is the package and ts_eval.compare(corpus) raises "
                   "TypeError: 'module' object is not callable")
def test_compare_stays_the_function_after_the_package_is_imported():
    import ts_eval
    import ts_eval.compare  # noqa: F401
    assert callable(ts_eval.compare)


def test_convert_is_the_function():
    import ts_eval
    import ts_eval.io.convert  # noqa: F401  (a module, not a package attribute named convert)
    assert callable(ts_eval.convert)
