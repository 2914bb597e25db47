"""`--tt-populate-argument-types`: mark function arguments `ttcore.argument_type` from a map.

`argument-types=forward=input,parameter,parameter,constant;other=input` gives, per function name, one type per
argument (input, parameter, constant or default); a function the map names with the wrong number of types, or
an unknown type, is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore
from ttmlir.errors import PassFailure
from ttmlir.transforms.shardy.sdy_user_priority_propagate import set_func_attr

ARGUMENT_TYPE = "ttcore.argument_type"
KINDS = ("input", "parameter", "constant", "default")


def parse_map(text: str) -> dict[str, list[str]]:
    found = {}
    for phrase in filter(None, text.split(";")):
        name, eq, types = phrase.partition("=")
        if not eq or not name:
            raise ValueError(f"expected '<function>=<type>,...', got '{phrase}'")
        found[name] = [t for t in types.split(",") if t]
        if bad := [t for t in found[name] if t not in KINDS]:
            raise ValueError(f"unknown argument type '{bad[0]}' (expected one of {', '.join(KINDS)})")
    return found


@dataclass(frozen=True)
class TTPopulateArgumentTypesPass(ModulePass):
    """Annotate function arguments with their types (input, parameter, constant)."""

    name = "tt-populate-argument-types"
    argument_types: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            types = parse_map(self.argument_types)
        except ValueError as error:
            raise PassFailure(op, f"invalid argument-types: {error}") from None
        funcs = {f.sym_name.data: f for f in op.walk() if isinstance(f, FuncOp)}
        if missing := [name for name in types if name not in funcs]:
            raise PassFailure(op, f'Function: "{missing[0]}" was provided in the argument types map, however it was '
                                  "not found in module!")
        for name, kinds in types.items():
            func, count = funcs[name], len(funcs[name].function_type.inputs.data)
            if len(kinds) != count:
                raise PassFailure(func, f'Did not provide the correct number of argument types for function: "{name}". '
                                        f"Expected: {count} arguments, got: {len(kinds)} arguments")
            for i, kind in enumerate(kinds):
                set_func_attr(func, i, "arg_attrs", ARGUMENT_TYPE,
                              ttcore.ArgumentTypeAttr(ttcore.ArgumentTypeAttr.enum_type(kind)))
