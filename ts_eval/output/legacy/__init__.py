"""The byte-exact layouts of the reference tools, each reproduced character for character from a
result's own numbers (nothing here computes a score; percentages in the tools' order of operations
are computed by :mod:`ts_eval.core.measures`):

- :mod:`.conlleval`: conlleval.pl's report (``ts-eval score --format conlleval``);
- :mod:`.nereval`: the GermEval 2014 scorer's report (``ts-eval germeval --format nereval``);
- :mod:`.faireval`: the FairEval reference tool's ``eval.csv`` (``ts-eval fair``, ``score --format faireval``).
"""
