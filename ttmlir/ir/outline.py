"""Ops moved into a function of their own: the part every outlining pass shares (composites re-outlined from
StableHLO, TTNN's D2M subgraphs)."""

from __future__ import annotations

from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue


def outline_function(module: ModuleOp, name: str, ops: list[Operation], captures: list[SSAValue],
                     escapes: list[SSAValue]) -> FuncOp:
    """A private `@name` added to `module` that takes `captures`, runs copies of `ops` (in order) and returns what
    they make of `escapes`. The ops themselves stay where they are."""
    body = Block(arg_types=[v.type for v in captures])
    values: dict[SSAValue, SSAValue] = dict(zip(captures, body.args))
    for op in ops:
        clone = op.clone(value_mapper=values)
        values.update(zip(op.results, clone.results))
        body.add_op(clone)
    body.add_op(ReturnOp(*(values[v] for v in escapes)))
    func = FuncOp(name, FunctionType.from_lists([v.type for v in captures], [v.type for v in escapes]), Region(body),
                  visibility="private")
    module.body.block.add_op(func)
    return func
