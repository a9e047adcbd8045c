"""Scoring a column file of any size: read in blocks of sentences, counted, and added up
(:mod:`ts_eval.streaming.files`), in one process or in shards on several (``--jobs``, Dask)."""
