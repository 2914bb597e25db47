"""`d2m.mask`s of device data as programs: the tile padding of a tensor an op computed holds that op's value of
the padding (exp of 0 is 1), so a reduction reading it needs the padding set to its identity on the device.

Each such mask becomes an elementwise generic `tile_where(inside, input, fill)`: `inside` is host data of ones in
the tensor's logical shape, moved into the mask's layout (host data is staged padded with zeros, so it is 0 exactly
in the padding, whatever padding the layout has), and `fill` a tensor of the fill value filling the whole padded
shape (a fill generic the host writes). Upstream's `--d2m-decompose-masking` reaches the same values on buffers by
comparing tile indices and writing row/column mask tiles; here the mask is known when compiling, so the host
writes it. A mask of host data (staged zero-padded already) stays for `--convert-d2m-to-ttmetal`."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import ELEMENTS, TILE
from ttmlir.conversion.ttir_to_d2m.tiles import _elementwise, _map, metal_type
from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import build_generic, fill_generic
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_mask import MaskOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure, derive

MOVES = ("d2m.to_layout", "ttir.to_layout", "d2m.to_device", "d2m.to_host")
FLOAT_FILLS = {"zero": 0.0, "one": 1.0, "inf": math.inf, "neginf": -math.inf}
INT_FILLS = {"zero": 0, "one": 1, "inf": (1 << 31) - 1, "neginf": -(1 << 31)}


def _on_device(value: SSAValue) -> bool:
    return isinstance(getattr(value.type, "encoding", None), ttcore.MetalLayoutAttr)


def _of_host_data(mask: MaskOp) -> bool:
    """The mask's input is host data moved onto the device (not a device tensor read back and moved again)."""
    move = mask.input.owner
    if not isinstance(move, Operation) or move.name not in MOVES or _on_device(move.operands[0]):
        return False
    back = move.operands[0].owner
    return not (isinstance(back, Operation) and back.name in MOVES and _on_device(back.operands[0]))


def decompose_device_masks(func: FuncOp) -> None:
    """Each mask of device data in `func` replaced by the where generic of the module doc."""
    for mask in [op for op in func.body.block.ops if isinstance(op, MaskOp) and not _of_host_data(op)]:
        out_type = mask.output.type
        shape = tuple(out_type.get_shape())
        tile = out_type.element_type
        if len(shape) != 4 or not isinstance(tile, ttcore.TileType):
            raise PassFailure(mask, "only d2m.masks of tensors of tiles on a 2-d grid are lowered to TTMetal yet")
        fills = INT_FILLS if tile.dtype == "si32" else FLOAT_FILLS
        fill = mask.fill_value.data.value
        if fill not in fills:
            raise PassFailure(mask, f"a d2m.mask fills padding with one of {', '.join(fills)}, not '{fill}'")
        element = ELEMENTS[tile.dtype]
        grid = shape[:2]
        logical = tuple(out_type.encoding.data.logical_shape)
        host_type = TensorType(element, logical)
        one = 1 if isinstance(element, IntegerType) else 1.0
        ones = TTIR_OP_CLASSES["constant"].create(result_types=[host_type], properties={  # a splat, stored once
            "value": DenseIntOrFPElementsAttr(host_type, BytesAttr(element.pack([one])))})
        inside_empty = d2m.EmptyOp.create(result_types=[out_type])
        inside = d2m.ToLayoutOp.create(operands=[ones.results[0], inside_empty.result], result_types=[out_type])
        padded = (shape[0] * shape[2] * TILE, shape[1] * shape[3] * TILE)
        memory = out_type.encoding.data.memory_space
        fill_empty = d2m.EmptyOp.create(result_types=[metal_type(padded, element, memory, grid)])
        filled = fill_generic(fills[fill], fill_empty.result, grid)
        where = build_generic([inside.results[0], mask.input, filled.results[0]], mask.output,
                              [_map(2, 0, 1)] * 4, ["parallel"] * 2, _elementwise("tile_where", 3), grid)
        new = [ones, inside_empty, inside, fill_empty, filled, where]
        derive(new, mask)
        mask.parent_block().insert_ops_before(new, mask)
        mask.result.replace_all_uses_with(where.results[0])
        mask.detach()
        mask.erase()
