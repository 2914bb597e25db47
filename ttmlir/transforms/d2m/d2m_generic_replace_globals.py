"""`--d2m-generic-replace-globals`: a `ttcore.get_global` inside a `d2m.generic` reads the generic's operand the
global's index names (a kernel sees its operands, not module globals); one outside a generic stays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.ttcore import GetGlobalOp, GlobalOp
from ttmlir.errors import PassFailure


def _enclosing_generic(op: Operation) -> d2m.GenericOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, d2m.GenericOp):
        parent = parent.parent_op()
    return parent


def _global_named(op: Operation, name: str) -> GlobalOp | None:
    """The `ttcore.global @name` of the nearest enclosing module holding one (MLIR's nearest symbol lookup)."""
    scope = op.parent_op()
    while scope is not None:
        if isinstance(scope, ModuleOp):
            for candidate in scope.ops:
                if isinstance(candidate, GlobalOp) and candidate.sym_name.data == name:
                    return candidate
        scope = scope.parent_op()
    return None


@dataclass(frozen=True)
class D2MGenericReplaceGlobalsPass(ModulePass):
    """A get_global inside a generic as the generic's operand the global's index names (see the module doc)."""

    name: ClassVar[str] = "d2m-generic-replace-globals"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for get in [o for o in op.walk() if isinstance(o, GetGlobalOp)]:
            generic = _enclosing_generic(get)
            if generic is None:
                continue
            legalize = ((get, f"failed to legalize operation '{get.name}'"),)
            name = get.sym_name.data
            found = _global_named(get, name)
            if found is None:
                raise PassFailure(get, f'Global symbol not found: "{name}"', legalize)
            if found.index is None:
                raise PassFailure(get, "Global must have a valid index attribute", legalize)
            index = found.index.value.data
            if not 0 <= index < len(generic.operands):
                raise PassFailure(get, f"Global index {index} is not an operand of the enclosing d2m.generic "
                                       f"({len(generic.operands)} operands)", legalize)
            get.results[0].replace_all_uses_with(generic.operands[index])
            get.detach()
            get.erase()
