"""An option a command takes once: given twice it is a usage error naming both values (argparse keeps the last one
silently, so ``fair --gold a.conll --gold b.conll`` scored against b alone)."""
from __future__ import annotations

import argparse
from typing import Any, Optional, Sequence, Union


class Once(argparse.Action):
    """Store the value; refuse a second one (exit 2, as argparse's own errors)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Union[str, Sequence[Any], None], option_string: Optional[str] = None) -> None:
        before = getattr(namespace, self.dest, None)
        if before is not None:
            parser.error(f"{option_string} given twice ({before} and {values}): this command takes one")
        setattr(namespace, self.dest, values)
