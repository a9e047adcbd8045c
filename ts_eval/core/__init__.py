"""The core: what every other layer reads and none of it knows about files, models or output.

- :mod:`.corpus`: the :class:`~.corpus.Corpus` (sentences as token offsets, gold's and every
  system's spans as numpy columns) and its builders from per-token tag ids;
- :mod:`.schemes`: tagging schemes as data (tag tables, decoding, encoding, repair, detection);
- :mod:`.sequences`: Python input (seqeval-style tag lists and span lists) -> Corpus;
- :mod:`.validation`: checks of Python input, reported before anything is scored;
- :mod:`.printable`: what a tag, label or token may hold (no control characters);
- :mod:`.matching`: the shared matcher (gold x system span pairs);
- :mod:`.units`: token and separator units painted as label bitmasks;
- :mod:`.tokensets`: token sets of spans that do not own their whole range;
- :mod:`.measures`: P, R, F, kappa and accuracy from counts, one zero-division rule;
- :mod:`.arrays`: small numpy helpers.
"""
