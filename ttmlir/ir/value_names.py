"""The names mlir-opt gives SSA values when it prints (MLIR's AsmPrinter, `SSANameState`).

All of an op's values are named before any is printed. A region numbers its own block arguments and op
results first; each region nested in it then continues from the counters its parent ended with, so sibling
regions reuse the same numbers and a parent's later values never skip over a nested region's. Entry-block
arguments count apart as `%argN`; names an op asks for (`%values`, `%cst`) are unique among those of the
enclosing regions, a repeat getting MLIR's `_N` suffix from a counter that nested regions inherit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from xdsl.ir import Operation, Region, SSAValue

ResultNames = Callable[[Operation], "list[str] | None"]


@dataclass
class Counters:
    """The next value number, entry-argument number and conflict suffix, carried from a region to those
    nested in it."""

    value: int = 0
    argument: int = 0
    conflict: int = 0
    used: set[str] = field(default_factory=set)

    def nested(self) -> Counters:
        return Counters(self.value, self.argument, self.conflict, set(self.used))

    def unique(self, name: str) -> str:
        if name in self.used:
            probe = name
            while probe in self.used:
                probe = f"{name}_{self.conflict}"
                self.conflict += 1
            name = probe
        self.used.add(name)
        return name


def name_values(top: Operation, names: dict[SSAValue, str], counters: Counters,
                result_names: ResultNames) -> None:
    """Add to `names` every value under `top` not named yet. `counters` continue from earlier ops printed
    with the same names (the top op's own results take the next numbers); its regions start from the
    counters as they were before them, as mlir-opt numbers an op printed on its own."""
    pending = [(region, counters.nested()) for region in top.regions]
    name_results(top, names, counters, result_names)
    while pending:
        region, scope = pending.pop()
        _name_region(region, names, scope, result_names)
        pending.extend((nested, scope.nested()) for block in region.blocks for op in block.ops
                       for nested in op.regions)


def _name_region(region: Region, names: dict[SSAValue, str], scope: Counters, result_names: ResultNames) -> None:
    for block in region.blocks:
        entry = block is region.first_block
        for arg in block.args:
            if arg not in names:
                if entry:
                    names[arg] = scope.unique(f"arg{scope.argument}")
                    scope.argument += 1
                else:
                    names[arg] = str(scope.value)
                    scope.value += 1
        for op in block.ops:
            name_results(op, names, scope, result_names)


def name_results(op: Operation, names: dict[SSAValue, str], scope: Counters, result_names: ResultNames) -> None:
    """An op's own names for its results, else one number for all of them: `%3`, or `%3#0`, `%3#1`, ..."""
    if not op.results or op.results[0] in names:
        return
    if (wanted := result_names(op)) is not None and len(wanted) == len(op.results):
        for result, name in zip(op.results, wanted):
            names[result] = scope.unique(name)
        return
    number = str(scope.value)
    scope.value += 1
    if len(op.results) == 1:
        names[op.results[0]] = number
        return
    for i, result in enumerate(op.results):
        names[result] = f"{number}#{i}"
