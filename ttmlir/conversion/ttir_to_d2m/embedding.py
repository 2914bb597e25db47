"""`ttir.embedding` as a D2M program: a generic of one data-movement thread whose region is a `d2m.embedding` of
the indices, the table and the output (upstream's form). The indices (si32 or ui32) and the output are device
tensors of tiles as every other op's; the table is moved to DRAM (tables are large; its rows are read by the face
row from its tile pages, as a reshape's gather reads them). The output is placed on the largest grid dividing its
tiles (the generic has no indexing maps, so `--d2m-grid-selection` keeps it); each core gathers the rows of its
shard (`convert-d2m-to-ttkernel`). Index tensors of other types, and tables that are not matrices, are refused. A
`ttir.gather` of whole rows of a matrix by one-element index vectors is the same lookup (`gathered_rows`)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.conversion.ttir_to_d2m.tiles import metal_type
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
    return lookup(convert, op, device, indices, weight, tuple(indices.type.get_shape()) or (1,))


def gathered_rows(op: TTOp) -> bool:
    """Whether `ttir.gather` `op` is an embedding: whole rows of a matrix (slice sizes 1 x width, the row dim
    collapsed, the result's last dim the row's), each picked by a one-element index vector (the indices' last dim of
    size 1, or implicit)."""
    operand, indices = op.operands[:2]
    table, index_shape = operand.type.get_shape(), tuple(indices.type.get_shape())
    props = {name: tuple(op.properties[name].get_values()) for name in (
        "collapsed_slice_dims", "offset_dims", "slice_sizes", "start_index_map", "operand_batching_dims",
        "start_indices_batching_dims") if name in op.properties}
    vector_dim = op.properties.get("index_vector_dim")
    vector_dim = vector_dim.value.data if vector_dim is not None else len(index_shape)
    rank = len(op.results[0].type.get_shape())
    return len(table) == 2 and props.get("collapsed_slice_dims") == (0,) and props.get("start_index_map") == (0,) \
        and props.get("slice_sizes") == (1, table[1]) and props.get("offset_dims") == (rank - 1,) \
        and not props.get("operand_batching_dims") and not props.get("start_indices_batching_dims") \
        and (vector_dim == len(index_shape) or (vector_dim == len(index_shape) - 1 and index_shape[-1] == 1))


def gather(convert, op: TTOp, device: tuple[int, int]) -> tuple[list[Operation], SSAValue] | None:
    """A gather that is an embedding (see `gathered_rows`) as one; None for any other gather (refused as it was)."""
    if not gathered_rows(op):
        return None
    weight, indices = op.operands[:2]
    shape = tuple(op.results[0].type.get_shape()[:-1]) or (1,)
    return lookup(convert, op, device, indices, weight, shape)


def lookup(convert, op: TTOp, device: tuple[int, int], indices: SSAValue, weight: SSAValue,
           shape: tuple[int, ...]) -> tuple[list[Operation], SSAValue]:
    """The program of an embedding lookup `op` of `indices` (of `shape`, or of `shape` and a last dim of 1) into
    table `weight`."""
    result = op.results[0]
    if convert.ttnn_mode:
        raise PassFailure(op, f"'{op.name}' as an embedding is not converted in ttnn-mode yet")
    element = indices.type.element_type
    if not isinstance(element, IntegerType) or element.width.data != 32:
        raise PassFailure(op, f"'{op.name}' with indices of {element} is not converted to D2M yet (ui32 and "
                              "si32 are)")
    table = weight.type.get_shape()
    if len(table) != 2 or str(weight.type.element_type) not in TABLE_ELEMENTS:
        raise PassFailure(op, f"'{op.name}' of a table {weight.type} is not converted to D2M yet (a matrix of "
                              "f32, bf16 or si32 is)")
    if tuple(result.type.get_shape()) != (*shape, table[1]):
        raise PassFailure(op, f"'{op.name}' result {result.type} is not the indices' shape and the table's row "
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
DATA_MOVEMENT = {"embedding": embedding, "gather": gather}
