"""`ttir.embedding` as a D2M program: a generic of one data-movement thread whose region is a `d2m.embedding` of
the indices, the table and the output (upstream's form). The indices (si32 or ui32) and the output are device
tensors of tiles as every other op's; the table is moved to DRAM (tables are large; its rows are read by the face
row from its tile pages, as a reshape's gather reads them). The output is placed on the largest grid dividing its
tiles (the generic has no indexing maps, so `--d2m-grid-selection` keeps it); each core gathers the rows of its
shard (`convert-d2m-to-ttkernel`). Index tensors of other types, and tables that are not matrices, are refused."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, TensorType, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.conversion.ttir_to_d2m.tiles import TILE, metal_type
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_embedding import EmbeddingOp
from ttmlir.errors import PassFailure
from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.d2m.d2m_grid_selection import grid_for

TABLE_ELEMENTS = ("f32", "bf16", "si32", "i32")
INTEGERS_32 = ("i32", "si32", "ui32")


def moves_bits(op: TTOp, families: dict) -> bool:
    """Whether `op` only moves 32-bit words, so ui32 data (an embedding's indices) can take it as si32 tiles: a
    data-movement op family (reshape, permute, ...) or a typecast between 32-bit integers."""
    if op.ROW.name in families:
        return True
    return op.ROW.name == "typecast" and all(str(v.type.element_type) in INTEGERS_32 for v in (*op.operands,
                                                                                               *op.results))


def _moved(value: SSAValue, memory: str) -> list[Operation]:
    """`value` moved onto the device into tiles in `memory` (a d2m.empty and the d2m.to_layout filling it)."""
    target = d2m.EmptyOp.create(result_types=[metal_type(value.type.get_shape(), value.type.element_type, memory)])
    return [target, d2m.ToLayoutOp.create(operands=[value, target.result], result_types=[target.result.type])]


def embedding(convert, op: TTOp, device: tuple[int, int]) -> tuple[list[Operation], SSAValue]:
    """The ops computing `op` (to be inserted before it) and the host tensor its result is moved back into.
    `convert` is the pass (its memory spaces)."""
    indices, weight = op.operands[:2]
    result = op.results[0]
    if convert.ttnn_mode:
        raise PassFailure(op, "'ttir.embedding' is not converted in ttnn-mode yet")
    element = indices.type.element_type
    if not isinstance(element, IntegerType) or element.width.data != 32:
        raise PassFailure(op, f"'ttir.embedding' with indices of {element} is not converted to D2M yet (ui32 and "
                              "si32 are)")
    table = weight.type.get_shape()
    if len(table) != 2 or str(weight.type.element_type) not in TABLE_ELEMENTS:
        raise PassFailure(op, f"'ttir.embedding' of a table {weight.type} is not converted to D2M yet (a matrix of "
                              "f32, bf16 or si32 is)")
    shape = tuple(indices.type.get_shape()) or (1,)
    if tuple(result.type.get_shape()) != (*shape, table[1]):
        raise PassFailure(op, f"'ttir.embedding' result {result.type} is not the indices' shape and the table's row "
                              "width")
    new = [*_moved(indices, convert.memory_of(indices, False)), *_moved(weight, "dram")]
    ins = [new[1].results[0], new[3].results[0]]
    returned = any(use.operation.name == "func.return" for use in result.uses)
    memory = convert.memory_of(result, returned)
    tiles = metal_type(result.type.get_shape(), result.type.element_type, memory).get_shape()[2:]
    grid = grid_for(tuple(tiles), device)
    out = d2m.EmptyOp.create(result_types=[metal_type(result.type.get_shape(), result.type.element_type, memory,
                                                      grid)])
    embed = EmbeddingOp.create(operands=[*ins, out.result], result_types=[out.result.type], properties={
        "numIndices": IntegerAttr(math.prod(shape), i64), "embeddingDim": IntegerAttr(table[1], i64),
        "indicesShape": DenseArrayBase.from_list(i64, list(shape))})
    generic = d2m.GenericOp.create(
        operands=[*ins, out.result], result_types=[out.result.type],
        attributes={"block_factors": ArrayAttr([]), "grid": ttcore.GridAttr(ttcore.Grid(grid)),
                    "indexing_maps": ArrayAttr([]), "iterator_types": ArrayAttr([]),
                    "threads": ArrayAttr([d2m.ThreadAttr.get("datamovement")])},
        regions=[Region(Block([embed, d2m.YieldOp.create(operands=[embed.result])]))],
        properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [2, 1, 0])})
    host = d2m.EmptyOp.create(result_types=[result.type])
    back = d2m.ToLayoutOp.create(operands=[generic.results[0], host.result], result_types=[result.type])
    return [*new, out, generic, host, back], back.results[0]


# op families written as data-movement programs: name -> (pass, op, device grid) -> (ops, host result)
DATA_MOVEMENT = {"embedding": embedding}
