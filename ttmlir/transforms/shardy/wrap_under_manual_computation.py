"""`--wrap-under-manual-computation`: a function's body moves into one `sdy.manual_computation`.

Its in_shardings are the arguments' shardings and its out_shardings the returned values'; no axis is manual
yet (`--update-global-to-local-shapes` makes the body per-chip). Functions already holding a manual
computation, and modules without a mesh, are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.conversion.stablehlo_to_ttir.gspmd import gspmd_annotated
from ttmlir.transforms.shardy.sdy_user_priority_propagate import (SHARDING, arg_sharding, entry_functions, set_func_attr, single_mesh,
                                           value_sharding)


def wrap(func: FuncOp, mesh_name: str) -> None:
    block = func.body.block
    ret = block.last_op
    if not isinstance(ret, ReturnOp):
        return

    def sharding_of(s, t):
        rank = len(t.get_shape()) if isinstance(t, TensorType) else 0
        return s if s is not None else sdy.replicated_sharding(mesh_name, rank)

    ins = [sharding_of(arg_sharding(func, a.index), a.type) for a in block.args]
    outs = [sharding_of(value_sharding(v), v.type) for v in ret.operands]
    body = Block(arg_types=[a.type for a in block.args])
    for arg, inner in zip(block.args, body.args):
        arg.replace_all_uses_with(inner)
    for op in list(block.ops):
        if op is ret:
            continue
        op.detach()
        body.add_op(op)
    returned = list(ret.operands)
    body.add_op(sdy.ReturnOp(operands=[returned]))
    manual = sdy.ManualComputationOp(
        operands=[list(block.args)], result_types=[[v.type for v in returned]], regions=[Region(body)],
        properties={"in_shardings": sdy.ShardingPerValueAttr(tuple(ins)),
                    "out_shardings": sdy.ShardingPerValueAttr(tuple(outs)), "manual_axes": sdy.ManualAxesAttr(())})
    block.insert_op_before(manual, ret)
    for i, result in enumerate(manual.results):
        ret.operands[i] = result
        set_func_attr(func, i, "res_attrs", SHARDING, sdy.ShardingAttr(outs[i]))


@dataclass(frozen=True)
class WrapUnderManualComputationPass(ModulePass):
    """Wrap every function body under an sdy manual computation."""

    name = "wrap-under-manual-computation"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = single_mesh(op)
        if found is None or gspmd_annotated(op):  # GSPMD partitions by its own custom calls
            return
        for func in entry_functions(op):
            if not any(isinstance(o, sdy.ManualComputationOp) for o in func.body.walk()):
                wrap(func, found[0])
