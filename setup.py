"""The package's metadata is in setup.cfg; this file adds the optional compiled scanners of the column reader
and of the JSON Lines readers.

``optional=True``: where they cannot be built (no C compiler, no Python headers) the package installs
without them and ts_eval.io.columns and ts_eval.io.jsonl_scan read every chunk with numpy."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("ts_eval.io._column_scan", ["ts_eval/io/_column_scan.c"], optional=True),
                   Extension("ts_eval.io._jsonl_scan", ["ts_eval/io/_jsonl_scan.c"], optional=True)])
