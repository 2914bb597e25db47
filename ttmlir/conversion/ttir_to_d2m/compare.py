"""Comparisons whose result's element type differs from their operands' (upstream's models compare si32 positions
into a bf16 mask): before conversion, each becomes the comparison in its operands' type (a 0/1 tensor of it) and a
`ttir.typecast` of that to the result's type, so each program computes in one format and the int-to-float cast is a
typecast program of its own (the SFPU's `typecast_tile`)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, TensorType

from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.ttir.ttir_flatten_sliding_window import ttir_op

COMPARES = ("eq", "ne", "gt", "ge", "lt", "le")


def split_mixed_compares(module: ModuleOp) -> None:
    """Each comparison of operands of one element type into a result of another: compare, then typecast."""
    for op in [o for o in module.walk() if isinstance(o, TTOp) and o.name.removeprefix("ttir.") in COMPARES]:
        element, result = op.operands[0].type.element_type, op.results[0]
        if not isinstance(result.type, TensorType) or result.type.element_type == element or \
                any(v.type.element_type != element for v in op.operands):
            continue
        compare = ttir_op(op.name.removeprefix("ttir."), op.operands, dict(op.properties),
                          [TensorType(element, result.type.get_shape())], op)
        cast = ttir_op("typecast", compare.results, {}, [result.type], op)
        result.replace_all_uses_with(cast.results[0])
        op.detach()
        op.erase()
