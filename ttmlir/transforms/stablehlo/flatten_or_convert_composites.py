"""`--flatten-or-convert-composites`: before sharding propagation, composites either become one custom call or
their ops.

In a sharded module (a mesh, and an argument or result of some function split over one of its axes), each
`stablehlo.composite` at a function's top level
- named in `CUSTOM_SHARDING` (composites the sharding rules know as one op; `tenstorrent.topk*` only on rank-2
  operands, the only rank its rule covers) becomes `stablehlo.custom_call @<name>` tagged `tt.has_custom_sharding`,
  its attributes kept as `tt.composite_attributes`;
- otherwise is replaced by a copy of its decomposition's ops, each tagged `reoutline.group = "composite_<callee>"`
  (the first also `reoutline.seed`, `reoutline.orig_name` and `reoutline.comp_attrs`; ops reading the composite's
  operands `reoutline.arg_operand_indices`, -1 for other operands; ops producing its results
  `reoutline.result_pos`), so `--reoutline-composite` can rebuild it after propagation.
Private functions nothing refers to any more are erased. An unsharded module is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr, TensorType, UnitAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import sdy
from ttmlir.dialects import stablehlo as shlo
from ttmlir.errors import PassFailure
from ttmlir.transforms.shardy.sdy_user_priority_propagate import arg_sharding

CUSTOM_SHARDING = frozenset({"tenstorrent.rms_norm", "tenstorrent.topk", "tenstorrent.topk_values",
                             "tenstorrent.topk_indices", "tenstorrent.argmax",
                             "tenstorrent.scaled_dot_product_attention", "tenstorrent.gather",
                             "tenstorrent.gather_dim"})
TOPK = frozenset({"tenstorrent.topk", "tenstorrent.topk_values", "tenstorrent.topk_indices"})


def is_sharded_module(module: ModuleOp) -> bool:
    if not any(isinstance(op, sdy.MeshOp) for op in module.body.block.ops):
        return False
    for func in module.body.block.ops:
        if not isinstance(func, FuncOp):
            continue
        for key, count in (("arg_attrs", len(func.function_type.inputs.data)),
                           ("res_attrs", len(func.function_type.outputs.data))):
            if any((s := arg_sharding(func, i, key)) is not None and s.axes() for i in range(count)):
                return True
    return False


def _keeps_custom_sharding(op: Operation) -> bool:
    name = op.attr("name").data
    if name not in CUSTOM_SHARDING:
        return False
    if name in TOPK:
        return bool(op.operands) and isinstance(op.operands[0].type, TensorType) and \
            len(op.operands[0].type.get_shape()) == 2
    return True


def _to_custom_call(op: Operation) -> None:
    call = shlo.OPS["custom_call"].create(operands=list(op.operands), result_types=[r.type for r in op.results],
                                          properties={"call_target_name": op.attr("name")})
    if (attrs := op.attr("composite_attributes")) is not None:
        call.attributes["tt.composite_attributes"] = attrs
    call.attributes["tt.has_custom_sharding"] = UnitAttr()
    Rewriter.replace_op(op, call)


def decomposition_of(op: Operation, module: ModuleOp) -> FuncOp:
    ref = op.attr("decomposition")
    if not isinstance(ref, SymbolRefAttr):
        raise PassFailure(op, "missing required SymbolRefAttr attribute 'decomposition' (stablehlo.composite "
                              "requires a 'decomposition' target).")
    name = (ref.nested_references.data[-1] if ref.nested_references.data else ref.root_reference).data
    callee = next((f for f in module.body.block.ops if isinstance(f, FuncOp) and f.sym_name.data == name), None)
    if callee is None:
        raise PassFailure(op, f"failed to resolve callee function '{name}' referenced by attribute 'decomposition'")
    if not callee.body.blocks or not isinstance(callee.body.block.last_op, ReturnOp):
        raise PassFailure(op, f"callee function '{name}' has an empty body; cannot inline/flatten composite "
                              f"'{op.attr('name').data}'")
    block = callee.body.block
    if len(block.args) != len(op.operands) or len(block.last_op.operands) != len(op.results):
        raise PassFailure(op, f"operands and results do not match those of function '{name}'")
    return callee


def _flatten(op: Operation, callee: FuncOp) -> None:
    block = callee.body.block
    group = StringAttr(f"composite_{callee.sym_name.data}")
    values: dict[SSAValue, SSAValue] = dict(zip(block.args, op.operands))
    argument_index = {v: i for i, v in reversed(list(enumerate(op.operands)))}
    for i, inner in enumerate(list(block.ops)[:-1]):
        clone = inner.clone(value_mapper=values)
        values.update(zip(inner.results, clone.results))
        Rewriter.insert_op(clone, InsertPoint.before(op))
        clone.attributes["reoutline.group"] = group
        if i == 0:
            clone.attributes.update({"reoutline.seed": UnitAttr(), "reoutline.orig_name": op.attr("name"),
                                     "reoutline.comp_attrs": op.attr("composite_attributes") or DictionaryAttr({})})
        if any(v in argument_index for v in clone.operands):
            clone.attributes["reoutline.arg_operand_indices"] = shlo.i64_array(
                [argument_index.get(v, -1) for v in clone.operands])
    for position, (result, returned) in enumerate(zip(op.results, block.last_op.operands)):
        value = values.get(returned, returned)
        producer = value.owner if isinstance(value.owner, Operation) else None
        if producer is not None and producer.parent_block() is op.parent_block():
            previous = shlo.ints_of(producer.attributes.get("reoutline.result_pos"))
            positions = list(previous) or [-1] * len(producer.results)
            positions[value.index] = position
            producer.attributes["reoutline.result_pos"] = shlo.i64_array(positions)
        result.replace_all_uses_with(value)
    Rewriter.erase_op(op)


def erase_unused_private_functions(module: ModuleOp) -> None:
    used = {a.root_reference.data for op in module.walk() for a in (*op.properties.values(),
            *op.attributes.values()) if isinstance(a, SymbolRefAttr)}
    for func in list(module.body.block.ops):
        if isinstance(func, FuncOp) and func.sym_visibility is not None and \
                func.sym_visibility.data == "private" and func.sym_name.data not in used:
            Rewriter.erase_op(func)


@dataclass(frozen=True)
class FlattenOrConvertCompositesPass(ModulePass):
    """Flatten or convert stablehlo.composite ops depending on whether they have custom sharding rules."""

    name: ClassVar[str] = "flatten-or-convert-composites"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if not is_sharded_module(module):
            return
        for func in [f for f in module.body.block.ops if isinstance(f, FuncOp) and f.body.blocks]:
            for op in [o for o in func.body.block.ops if o.name == "stablehlo.composite"]:
                if _keeps_custom_sharding(op):
                    _to_custom_call(op)
                else:
                    _flatten(op, decomposition_of(op, module))
        erase_unused_private_functions(module)
