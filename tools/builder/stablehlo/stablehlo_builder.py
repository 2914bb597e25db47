"""StableHLOBuilder: importable as the seed imports it; this build has no StableHLO dialect."""

from __future__ import annotations

from builder.base.builder_runtime import not_supported


class StableHLOBuilder:
    """Building StableHLO modules is not supported by this build; constructing one says so."""

    def __init__(self, *args, **kwargs):
        raise not_supported("the StableHLO builder")
