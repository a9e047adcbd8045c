"""How much memory this process may still use, and sizes written for people.

A computation that would need more than :func:`available` is refused before it allocates
(``rank --bootstrap 1000000000`` would otherwise die deep inside numpy).
"""
from __future__ import annotations

import os
from typing import Optional


def _meminfo_available() -> Optional[int]:
    """Linux: MemAvailable of /proc/meminfo, in bytes."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_available() -> Optional[int]:
    """A cgroup v2 memory limit (containers) minus what the group uses now, in bytes."""
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            limit = fh.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
            used = int(fh.read().strip())
        return max(int(limit) - used, 0)
    except (OSError, ValueError):
        return None


def _physical_available() -> Optional[int]:
    """Free physical memory as the OS reports it (other Unix systems), in bytes."""
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def available() -> Optional[int]:
    """Bytes of memory this process can still allocate without swapping (None: unknown)."""
    found = [b for b in (_meminfo_available(), _cgroup_available()) if b is not None]
    if not found:
        phys = _physical_available()
        found = [phys] if phys is not None else []
    return min(found) if found else None


def size(n_bytes: float) -> str:
    """``n_bytes`` for people: 1.5 GiB, 320 MiB, 12 KiB, 100 bytes."""
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= scale:
            value = n_bytes / scale
            return f"{value:.1f} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{int(n_bytes)} bytes"
