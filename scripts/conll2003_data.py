"""Where the CoNLL-2003 scripts find their data: ``../shared/data/conll2003-en`` beside the checkout
(``gold.iob2``, ``train.iob2`` and one ``systems/NAME.conll`` per system), or the folder given by
``--data``.  The data are Reuters text without an open licence: the scripts read them and write nothing.
"""
from __future__ import annotations

import glob
from pathlib import Path
from typing import Any, List, Union

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "conll2003-en"


def system_files(data: Union[str, Path]) -> List[str]:
    """The system files under ``data/systems``, sorted; exits with a one-line message when there are none."""
    files = sorted(glob.glob(str(Path(data) / "systems" / "*.conll")))
    if not files:
        raise SystemExit(f"no systems/*.conll under {data}")
    return files


def read_original_and_conllpp(data: Union[str, Path]) -> Any:
    """The test set (``gold.iob2``, reference ``original``), CoNLL++'s correction (``gold-conllpp.iob2``, the side
    ``conllpp``) and the system outputs as one corpus (:func:`ts_eval.comparison.references.read_references`)."""
    from ts_eval.comparison.references import read_references

    data = Path(data)
    return read_references(str(data / "gold.iob2"), str(data / "gold-conllpp.iob2"), system_files(data),
                           names=("original", "conllpp"))
