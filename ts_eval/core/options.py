"""Settings that say themselves as JSON: the base of every options and settings dataclass.

A frozen dataclass of settings (a format's options, :class:`~ts_eval.io.inputs.Inputs`, the models'
:class:`~ts_eval.models.context.ScoreSettings`) derives from :class:`Options` and has ``to_dict()``:
its fields by name, as JSON values (a tuple is a list, a nested record its own ``to_dict()``, a
value JSON has no word for, such as a shard's file head, its ``repr``)."""
from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Dict, List, Mapping, Union

Plain = Union[None, bool, int, float, str, List[Any], Dict[str, Any]]


class Options:
    """A dataclass of settings with :meth:`to_dict`."""

    def to_dict(self) -> Dict[str, Any]:
        """The fields by name, as JSON values."""
        assert is_dataclass(self)
        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}


def plain(value: Any) -> Plain:
    """``value`` as a JSON value."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        out: Dict[str, Any] = to_dict()
        return out
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return repr(value)
