"""One module per output format, each rendering any :class:`ts_eval.document.Document`."""
