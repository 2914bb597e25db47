"""The pieces every `--ttir-to-d2m` op family builds its program from: a host tensor's device type (`metal_type`),
affine maps and the elementwise tile computation (a `linalg.generic` of a `d2m.tile_*` op, broadcast operands
spread within their tiles by `d2m.tile_bcast`). Kept apart from the pass so the op families' files can use them."""

from __future__ import annotations

import math
from typing import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (AffineMapAttr, BFloat16Type, DenseArrayBase, DenseIntOrFPElementsAttr,
                                   Float32Type, FloatAttr, IntegerType, TensorType, i64)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_mask_tiles import TileWhereOp
from ttmlir.dialects.d2m_tile_bcast import TileBcastOp, TileBcastTypeAttr
from ttmlir.dialects.d2m_tile_extra import EXTRA_TILE_OPS

TILE = 32
TILE_CLASSES = {**d2m.TILE_OP_CLASSES, "tile_where": TileWhereOp}
# every tile op a chain of them may make (the comparisons with zero too)
TILE_OP_MAKERS = {**TILE_CLASSES, **{c.name.removeprefix("d2m."): c for c in EXTRA_TILE_OPS}}


def metal_type(shape: tuple[int, ...], element: Attribute, memory: str, grid: tuple[int, int] = (1, 1)) -> TensorType:
    """A host tensor's device form: its matrices, each padded to whole tiles, in tiles (leading dims folded into
    rows), on `grid`."""
    dims = (1,) * max(0, 2 - len(shape)) + tuple(shape)
    ht, wt = math.prod(dims[:-2]) * -(-dims[-2] // TILE), -(-dims[-1] // TILE)  # each matrix in whole tiles
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2, 2]), [0, len(dims) - 1, len(dims) - 1,
                                                                            len(dims)])
    layout = ttcore.MetalLayoutAttr(ttcore.MetalLayout(dims, (1,) * (len(dims) - 2) + (TILE, TILE), intervals, memory,
                                                       "sharded" if memory == "l1" else "interleaved"))
    return TensorType(ttcore.TileType((TILE, TILE), _dtype(element)), [*grid, ht // grid[0], wt // grid[1]], layout)


def _dtype(element: Attribute) -> str:
    if isinstance(element, IntegerType):
        return "si32"
    return {Float32Type(): "f32", BFloat16Type(): "bf16"}[element]


def _map(dims: int, *results: int | None) -> AffineMapAttr:
    """`(d0, .., d<dims-1>) -> (d<r> for r in results)`, a result None the constant 0."""
    return AffineMapAttr(AffineMap(dims, 0, tuple(AffineExpr.constant(0) if r is None else AffineExpr.dimension(r)
                                                  for r in results)))


def _tile_bcast(amap: AffineMapAttr) -> str | None:
    """How an operand read through `amap` is spread within each tile: a map fixing the block row reads a row
    (`row`), fixing the block column a column (`col`), both one value (`scalar`)."""
    fixed = [isinstance(r, AffineConstantExpr) for r in amap.data.results[-2:]]
    return {(True, True): "scalar", (True, False): "row", (False, True): "col"}.get(tuple(fixed))


def spread_leaves(body: Block, maps: list[AffineMapAttr], spread=None) -> list[SSAValue]:
    """The input tiles of a linalg.generic's `body` as its tile ops use them: each one read through a broadcast map
    spread over the tile by a `d2m.tile_bcast` added to `body` (of the inputs whose indices are in `spread`, if
    given)."""
    leaves = []
    for index, (arg, amap) in enumerate(zip(body.args, maps[:-1])):
        if (spread is None or index in spread) and (kind := _tile_bcast(amap)) is not None:
            bcast = TileBcastOp.create(operands=[arg], result_types=[arg.type],
                                       properties={"bcast_type": TileBcastTypeAttr(kind)})
            body.add_op(bcast)
            arg = bcast.result
        leaves.append(arg)
    return leaves


def tile_chain(chain: Callable[[Callable[..., SSAValue], list[SSAValue]], SSAValue]):
    """A linalg.generic over the loaded blocks computing `chain(made, leaves)` on each tile: `leaves` the operands'
    tiles (each block indexed as the generic's own map reads it: an operand broadcast along the rows or columns
    reads one block for all, and each of its tiles spread over the whole tile by a `d2m.tile_bcast`; a transposed
    one swaps them), `made(mnemonic, *operands)` a tile op's result."""

    def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
        tile = out.type.element_type
        body = Block(arg_types=[*(v.type.element_type for v in loaded), tile])

        def made(mnemonic: str, *operands: SSAValue | float, **properties: Attribute) -> SSAValue:
            """A tile op's result; a float operand is a scalar constant (an f32 `arith.constant`)."""
            values = []
            for operand in operands:
                if isinstance(operand, float):
                    constant = arith.ConstantOp(FloatAttr(operand, Float32Type()))
                    body.add_op(constant)
                    operand = constant.result
                values.append(operand)
            op = TILE_OP_MAKERS[mnemonic].create(operands=values, result_types=[tile], properties=properties)
            body.add_op(op)
            return op.results[0]

        body.add_op(LinalgYieldOp(chain(made, spread_leaves(body, maps))))
        generic = LinalgGenericOp(loaded, [out], Region(body), maps,
                                  [IteratorTypeAttr.parallel()] * maps[-1].data.num_dims, [out.type])
        ops.append(generic)
        return generic.res[0]

    return compute


def _elementwise(tile_op: str, arity: int, **properties: Attribute):
    """`tile_op` (with `properties`) on each tile (`tile_chain`)."""
    return tile_chain(lambda made, leaves: made(tile_op, *leaves, **properties))


def masked(value: SSAValue, fill: str | None, *along: int) -> list[Operation]:
    """A device tensor (a reduction's input, a matmul's operand) with its tile padding set to `fill` (a
    reduction's identity, zero for a matmul) by a `d2m.mask`, when its logical shape leaves padding in its tiles
    along a reduced (contracted) dim of `along` (padding across them only reaches padding of the result)."""
    layout = value.type.encoding.data
    logical = layout.logical_shape
    if fill is None or all(logical[dim] % layout.dim_alignments[dim] == 0 for dim in along):
        return []
    target = d2m.EmptyOp.create(result_types=[value.type])
    mask = d2m.MaskOp.create(operands=[value, target.result], result_types=[value.type], properties={
        "logical_shape": DenseArrayBase.from_list(i64, list(logical)),
        "fill_value": ttcore.OOBValAttr(ttcore.OOBValAttr.enum_type(fill))})
    return [target, mask]
