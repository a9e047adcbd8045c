"""The lazily imported top-level functions (ts_eval.compare, ts_eval.rank, ...)."""


def test_compare_stays_the_function_after_the_package_is_imported():
    import ts_eval
    import ts_eval.compare  # noqa: F401
    assert callable(ts_eval.compare)
    gold = [["B-PER", "O"]]
    corpus = ts_eval.from_sequences(gold, {"a": [["B-PER", "O"]], "b": [["O", "O"]]})
    result = ts_eval.compare(corpus)                 # the package, called, is the function
    assert [s["name"] for s in result.systems] == ["a", "b"]


def test_convert_is_the_function():
    import ts_eval
    import ts_eval.io.convert  # noqa: F401  (a module, not a package attribute named convert)
    assert callable(ts_eval.convert)
