"""`--convert-ttnn-to-ttir`: the TTNN ops marked `ttnn.hoist_generic_via_d2m`, and every TTNN op of a function a
`ttnn.d2m_subgraph` runs, back to the TTIR ops they lower from, on the same TTNN-laid-out tensors, so
`--ttir-to-ttmetal-pipeline="ttnn-mode=true"` compiles them into `ttnn.generic` programs of the compiler's own
kernels. Every other TTNN op stays as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass

from ttmlir.ir.op_table import TTIR_OPS
from ttmlir.ir.props import KINDS
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.dialects.ttnn import TTNN, DeviceType, ShapeAttr, TTNNOp
from ttmlir.dialects.ttnn_d2m_subgraph import D2MSubgraphOp
from ttmlir.errors import PassFailure

HOIST_ATTR = "ttnn.hoist_generic_via_d2m"
TTNN_OPS = [op for op in TTNN.operations if hasattr(op, "ROW")]
# the TTIR op each TTNN op lowers from (its row's TTNN name); where several lower to one TTNN op (ttir.matmul and
# ttir.dot_general to ttnn.matmul), the one of the same name
TTIR_OF_TTNN = {row.ttnn: row.name for row in sorted((r for r in TTIR_OPS if r.ttnn), key=lambda r: r.name == r.ttnn)}
# TTNN's layout ops no TTIR row names: a change of layout is a ttir.to_layout
TTIR_OF_TTNN["to_tensor_spec"] = "to_layout"
# TTIR ops whose last operand is a destination: an empty tensor of the result's type
DESTINATION_OPS = frozenset({"to_layout"})
# TTIR property kinds a TTNN property's integers are rebuilt in (TTNN spells them otherwise: `dim_arg = 1 : si64`,
# `shape = #ttnn.shape<32x32>`)
INT_LIST_KINDS = frozenset({"i32_array", "i32_darray", "i64_darray"})
INT_KINDS = frozenset({"i32", "si32", "i64", "si64"})
# TTNN properties named otherwise in TTIR, per TTIR op
TTIR_NAMES = {"argmax": {"dim": "dim_arg"}, "repeat": {"repeat_dims": "repeat_dimensions"}}


def survives(ttir_name: str) -> bool:
    """Whether a TTIR op comes back from its TTNN op with every property it requires."""
    row = TTIR_OP_CLASSES[ttir_name].ROW
    back = TTIR_OF_TTNN.get(row.ttnn) if row.ttnn else None
    ttnn = next((op for op in TTNN_OPS if op.ROW.name == row.ttnn), None) if back else None
    if ttnn is None:
        return False
    renames = TTIR_NAMES.get(back, {})
    carried = {renames.get(p[0], p[0]) for p in ttnn.ROW.props}
    return all(p[0] in carried for p in TTIR_OP_CLASSES[back].ROW.props if p[3])


def _ints(attr: Attribute) -> list[int] | None:
    if isinstance(attr, IntegerAttr):
        return [attr.value.data]
    if isinstance(attr, ArrayAttr) and all(isinstance(a, IntegerAttr) for a in attr.data):
        return [a.value.data for a in attr.data]
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, ShapeAttr):
        return list(attr.data)
    return None


def _property(kind: str, attr: Attribute) -> Attribute:
    """`attr` as the TTIR property of `kind` holds it."""
    if KINDS[kind].check(attr) or (ints := _ints(attr)) is None:
        return attr
    if kind in INT_LIST_KINDS:
        return KINDS[kind].build(ints)
    return KINDS[kind].build(ints[0]) if kind in INT_KINDS and len(ints) == 1 else attr


@dataclass(frozen=True)
class ConvertTTNNToTTIRPass(ModulePass):
    """Marked TTNN ops to TTIR: same operands, results and the properties the TTIR op has."""

    name: ClassVar[str] = "convert-ttnn-to-ttir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        subgraphs = {s.main_func() for s in op.walk() if isinstance(s, D2MSubgraphOp)}
        # TTIR has no get_device: a subgraph's stays for the programs D2M makes there
        in_subgraph = {o for f in subgraphs if f is not None for o in f.walk()
                       if isinstance(o, TTNNOp) and o.ROW.name != "get_device"}
        for ttnn_op in [o for o in op.walk() if o in in_subgraph or (isinstance(o, TTNNOp) and HOIST_ATTR in o.attributes)]:
            convert_op(ttnn_op)


def convert_op(ttnn_op: TTNNOp) -> None:
    """`ttnn_op` replaced by the TTIR op it lowers from (same operands but the device, results, properties)."""
    name = TTIR_OF_TTNN.get(ttnn_op.ROW.name)
    if name is None:
        raise PassFailure(ttnn_op, f"failed to legalize operation '{ttnn_op.name}' that was explicitly "
                                   "marked illegal")
    cls = TTIR_OP_CLASSES[name]
    kinds = {p[0]: p[1] for p in cls.ROW.props}
    names = TTIR_NAMES.get(name, {})
    props = {names.get(k, k): v for k, v in ttnn_op.properties.items()}
    props = {k: _property(kinds[k], v) for k, v in props.items() if k in kinds}
    if missing := [p[0] for p in cls.ROW.props if p[3] and p[0] not in props]:
        raise PassFailure(ttnn_op, f"'{ttnn_op.name}' does not carry the '{missing[0]}' property 'ttir.{name}' "
                                   "requires")
    if "operandSegmentSizes" in ttnn_op.properties:
        props["operandSegmentSizes"] = ttnn_op.properties["operandSegmentSizes"]
    # the device a TTNN creation op takes is implicit in TTIR
    operands = [v for v in ttnn_op.operands if not isinstance(v.type, DeviceType)]
    if name in DESTINATION_OPS and len(operands) < len(cls.ROW.operands):
        empty = TTIR_OP_CLASSES["empty"].create(result_types=[ttnn_op.results[0].type])
        empty.location = ttnn_op.location
        ttnn_op.parent_block().insert_op_before(empty, ttnn_op)
        operands.append(empty.results[0])
    new = cls.create(operands=operands, result_types=[r.type for r in ttnn_op.results], properties=props,
                     attributes={k: v for k, v in ttnn_op.attributes.items() if k != HOIST_ATTR})
    new.location = ttnn_op.location
    ttnn_op.parent_block().insert_op_before(new, ttnn_op)
    for old, result in zip(ttnn_op.results, new.results):
        old.replace_all_uses_with(result)
    ttnn_op.detach()
    ttnn_op.erase()
