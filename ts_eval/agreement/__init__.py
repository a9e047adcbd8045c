"""Agreement between annotators (see :mod:`.study`)."""
from .study import agree

__all__ = ["agree"]
