"""Agreement between annotators: the public entry point is :func:`ts_eval.agree` (:mod:`.api`); the
study itself is :mod:`.study`."""
