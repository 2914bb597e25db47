"""The canonicalization patterns of a tt op by name, as the dialects hand them to their ops' trait.

The tables behind them (`ttmlir.dialects.canonicalize`: the folds, the rewrites and numpy) are imported when a pass
first asks for an op's patterns, not when a dialect builds its classes: reading, verifying and printing IR never
need them, and every tool start would pay for them.
"""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern


def patterns_for(op_name: str) -> tuple[RewritePattern, ...]:
    from ttmlir.dialects.canonicalize import patterns_for as table_patterns

    return table_patterns(op_name)
