"""The option values the readers accept, in a module of their own so that the command line can
list them without importing the readers (``ts-eval score`` on a column file loads no brat or
character-offset code)."""

ALIGN_MODES = ("strict", "expand", "contract")   # character spans off token boundaries (io.tokenizer)
DISCONTINUOUS = ("error", "first", "hull")      # discontinuous brat spans (io.brat)
