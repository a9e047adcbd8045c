"""The package's metadata is in setup.cfg; this file adds the optional compiled scanner of the column reader.

``optional=True``: where it cannot be built (no C compiler, no Python headers) the package installs
without it and ts_eval.io.columns reads every chunk with numpy."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("ts_eval.io._column_scan", ["ts_eval/io/_column_scan.c"], optional=True)])
