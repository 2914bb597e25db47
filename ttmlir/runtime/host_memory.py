"""What this machine can still give the simulation: below the executor, the session and the Metal grid, which
all bound what they hold by it."""

from __future__ import annotations

import resource


def host_memory_available() -> int | None:
    """Bytes this machine can still give this process (MemAvailable, and what is left under an address-space limit
    such as `ulimit -v`), or None where that is not known."""
    found = [_meminfo_kib("/proc/meminfo", "MemAvailable:")]
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit != resource.RLIM_INFINITY and (used := _meminfo_kib("/proc/self/status", "VmSize:")) is not None:
        found.append(max(0, limit // 1024 - used))
    known = [kib * 1024 for kib in found if kib is not None]
    return min(known) if known else None


def _meminfo_kib(path: str, key: str) -> int | None:
    try:
        with open(path, encoding="ascii") as info:
            for line in info:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None
