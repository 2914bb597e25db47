"""`d2m.mask`s of device data as programs: the tile padding of a tensor an op computed holds that op's value of
the padding (exp of 0 is 1), so a reduction reading it needs the padding set to its identity on the device.

Each such mask becomes one or two elementwise generics `tile_where(inside, input, fill)`, one per padded dim:
`inside` is host data of ones with the logical shape along that dim and 1 across it (rows x 1, or 1 x cols), moved
into the mask's layout (host data is staged padded with zeros, so it is 0 exactly where the tiles or the grid pad
the tensor) and spread across the other dim, and `fill` one tile of the fill value (a fill generic the host
writes) spread over each tile. Upstream's `--d2m-decompose-masking` reaches the same values on buffers by comparing
tile indices and writing row/column mask tiles; here the masks are known when compiling, so the host writes them.
A zero mask of host data (staged zero-padded already) stays for `--convert-d2m-to-ttmetal`; any other fill of host
data is set on the device as here."""

from __future__ import annotations

import math
from dataclasses import replace

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


def _host_mask(values: tuple[int, ...], layout: ttcore.MetalLayout, tile: ttcore.TileType, shape: list[int],
               element) -> tuple[list[Operation], SSAValue]:
    """Host data of ones in the logical shape `values`, moved into a device tensor of `shape` laid out as `layout`
    (staged padded with zeros: 0 exactly where a tile or the grid pads it)."""
    host_type = TensorType(element, values)
    one = 1 if isinstance(element, IntegerType) else 1.0
    ones = TTIR_OP_CLASSES["constant"].create(result_types=[host_type], properties={  # a splat, stored once
        "value": DenseIntOrFPElementsAttr(host_type, BytesAttr(element.pack([one])))})
    device_type = TensorType(tile, shape, ttcore.MetalLayoutAttr(replace(layout, logical_shape=values)))
    empty = d2m.EmptyOp.create(result_types=[device_type])
    moved = d2m.ToLayoutOp.create(operands=[ones.results[0], empty.result], result_types=[device_type])
    return [ones, empty, moved], moved.results[0]


def decompose_device_masks(func: FuncOp) -> None:
    """Each mask of device data in `func` replaced by the where generics of the module doc."""
    for mask in [op for op in func.body.block.ops if isinstance(op, MaskOp) and
                 not (_of_host_data(op) and op.fill_value.data.value == "zero")]:
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
        layout = out_type.encoding.data
        logical = tuple(mask.logical_shape.get_values())
        grid_y, grid_x, shard_y, shard_x = shape
        # a dim is masked where its tiles are partial, or the device holds more tiles than the logical shape needs
        row_tiles = math.prod(logical[:-2]) * -(-logical[-2] // TILE)
        masked_rows = logical[-2] % TILE != 0 or row_tiles != grid_y * shard_y
        masked_cols = logical[-1] % TILE != 0 or -(-logical[-1] // TILE) != grid_x * shard_x
        new: list[Operation] = []
        fill_empty = d2m.EmptyOp.create(result_types=[metal_type((1, 1), element, layout.memory_space)])
        filled = fill_generic(fills[fill], fill_empty.result)  # one tile, spread over each tile it replaces
        new += [fill_empty, filled]
        value = mask.input
        steps = [(logical[:-1] + (1,), [grid_y, 1, shard_y, 1], _map(2, 0, None))] if masked_rows else []
        if masked_cols:
            steps.append(((1,) * (len(logical) - 1) + logical[-1:], [1, grid_x, 1, shard_x], _map(2, None, 1)))
        for i, (values, inside_shape, inside_map) in enumerate(steps):
            made, inside = _host_mask(values, layout, tile, inside_shape, element)
            if i == len(steps) - 1:
                target = mask.output
            else:
                made.append(d2m.EmptyOp.create(result_types=[out_type]))
                target = made[-1].result
            where = build_generic([inside, value, filled.results[0]], target,
                                  [inside_map, _map(2, 0, 1), _map(2, None, None), _map(2, 0, 1)], ["parallel"] * 2,
                                  _elementwise("tile_where", 3), (grid_y, grid_x))
            new += [*made, where]
            value = where.results[0]
        derive(new, mask)
        mask.parent_block().insert_ops_before(new, mask)
        mask.result.replace_all_uses_with(value)
        mask.detach()
        mask.erase()
