"""The canonicalization trait every tt op carries.

Upstream attaches folds and rewrites to each op class; here a table keyed by op name holds them, and a rewrite
builds its new ops from the classes of the op's own dialect, which the trait carries. So the tables need none of
the dialect modules, and the dialects need only this trait: neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Callable

from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait


@dataclass(frozen=True)
class TableCanonicalization(HasCanonicalizationPatternsTrait):
    """The canonicalization patterns of a tt op, by its name; `dialect_ops` are its dialect's op classes by short
    name (filled as the dialect builds them)."""

    dialect_ops: Mapping[str, type[Operation]] = field(compare=False, hash=False)
    patterns: Callable[[str], tuple[RewritePattern, ...]] = field(compare=False, hash=False)

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return self.patterns(op.name)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()


def sibling(op: Operation, short_name: str) -> type[Operation]:
    """The class of the op `short_name` in `op`'s dialect (`reshape` of a ttir op is `ttir.reshape`)."""
    return op.get_trait(TableCanonicalization).dialect_ops[short_name]
