"""The TTNN optimizer (`optimization-level`): memory layouts, L1 spilling, validation and fallback."""
