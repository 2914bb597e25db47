"""`ttir.topk` as D2M programs (upstream's D2MTopKRewriter and emitLeafTopk), over a matrix along dim 0 or 1:

- the input on the device, its tile padding along the reduced dim masked to -inf so no padding is ever picked
  (smallest-k negates it first, exact in floats); a reduction of one tile is first widened to two (the merge tree
  sorts tiles in pairs) with infinities that lose,
- for dim 1 a generic of `d2m.tile_transpose` on every tile in place (`d2m.topk_block` sorts down tile columns),
- the leaf: one generic of `d2m.topk_block` (generate_indices: the kernel builds the index buffer from a one-tile
  scratch) writing the whole reduction's values and si32 indices, its `d2m.topk_index_type` the user's index type,
- the extract of the first ceil(k/32) tiles along the reduced dim (a `d2m.view_layout` narrowing them): a
  `d2m.tile_transpose` undoing the pre-transpose (dim 1, the indices then cast in a generic of their own) or a
  `d2m.tile_typecast` (dim 0, casting the indices to the user's type on the way),
- for smallest-k the values negated back, then both moved to the host.

`--d2m-grid-selection` plans the leaf's split (`d2m.topk_plan`) and `--d2m-build-topk-chain` builds it."""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import (AffineMapAttr, ArrayAttr, BFloat16Type, BoolAttr, DenseArrayBase,
                                   DenseIntOrFPElementsAttr, Float32Type, IndexType, IntegerAttr, TensorType, i32, i64)
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.conversion.ttir_to_d2m.tiles import TILE, _dtype, _elementwise
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.ir.props import KINDS
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_topk import TopkBlockOp
from ttmlir.errors import PassFailure, derive
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp

INDEX_TYPE_ATTR = "d2m.topk_index_type"  # the user's index element type, on the leaf generic
FLOATS = (Float32Type(), BFloat16Type())


def _layout(shape: tuple[int, int], alignments: tuple[int, int], memory: str = "l1") -> ttcore.MetalLayoutAttr:
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2, 2]), [0, 1, 1, 2])
    return ttcore.MetalLayoutAttr(ttcore.MetalLayout(shape, alignments, intervals, memory,
                                                     "sharded" if memory == "l1" else "interleaved"))


def device_type(shape: tuple[int, int], tiles: tuple[int, int], dtype: str, memory: str = "l1",
                grid: tuple[int, int] = (1, 1)) -> TensorType:
    """A matrix of logical `shape` held as `tiles` (rows, cols) of tiles, on `grid`."""
    layout = _layout(shape, (tiles[0] * TILE, tiles[1] * TILE), memory)
    return TensorType(ttcore.TileType((TILE, TILE), dtype),
                      [*grid, tiles[0] // grid[0], tiles[1] // grid[1]], layout)


def _region(inputs: list[SSAValue], outputs: list[SSAValue], maps: list[AffineMap], body) -> Region:
    """A unified-thread generic region: each operand's block loaded (block index 0 along a constant map result),
    `body(ops, blocks)` giving the output blocks, stored and yielded."""
    ops: list[Operation] = []
    index = []
    for dim in range(2):
        op = d2m.BlockIndexOp.create(properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()])
        ops.append(op)
        index.append(op.result)

    def at(amap: AffineMap) -> list[SSAValue]:
        where = []
        for r in amap.results:
            if r == AffineExpr.constant(0):
                zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
                ops.append(zero)
                where.append(zero.result)
            else:
                where.append(index[r.position])
        return where

    def local(t: TensorType) -> TensorType:
        return TensorType(t.element_type, t.get_shape()[2:])

    blocks = []
    for value, amap in zip([*inputs, *outputs], maps):
        empty = TensorEmptyOp([], local(value.type))
        ops.append(empty)
        if value in inputs:
            where = at(amap)
            load = d2m.RemoteLoadOp.create(operands=[empty.tensor, value, *where], result_types=[empty.tensor.type],
                                           properties={"operandSegmentSizes": DenseArrayBase.from_list(
                                               i32, [1, 1, len(where), 0, 0, 0, 0])})
            ops.append(load)
            blocks.append(load.result)
        else:
            blocks.append(empty.tensor)
    results = body(ops, blocks)
    stored = []
    for output, amap, block in zip(outputs, maps[len(inputs):], results):
        where = at(amap)
        store = d2m.RemoteStoreOp.create(operands=[output, *where, block], result_types=[output.type],
                                         properties={"operandSegmentSizes": DenseArrayBase.from_list(
                                             i32, [1, len(where), 1, 0])})
        ops.append(store)
        stored.append(store.result)
    ops.append(d2m.YieldOp.create(operands=stored))
    return Region(Block(ops))


def region_generic(inputs: list[SSAValue], outputs: list[SSAValue], maps: list[AffineMap], body,
                   grid: tuple[int, int] = (1, 1)) -> d2m.GenericOp:
    """A unified-thread generic on `grid` whose region `_region` writes."""
    parallel = ttcore.IteratorTypeAttr(ttcore.IteratorTypeAttr.enum_type("parallel"))
    attrs = {"block_factors": ArrayAttr([IntegerAttr(1, i64)] * 2), "grid": ttcore.GridAttr(ttcore.Grid(grid)),
             "indexing_maps": ArrayAttr([AffineMapAttr(m) for m in maps]), "iterator_types": ArrayAttr([parallel] * 2),
             "threads": ArrayAttr([d2m.ThreadAttr.get("unified")])}
    return d2m.GenericOp.create(operands=[*inputs, *outputs], result_types=[o.type for o in outputs],
                                attributes=attrs, regions=[_region(inputs, outputs, maps, body)], properties={
                                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(inputs),
                                                                                          len(outputs), 0])})


def _unary(new: list[Operation], value: SSAValue, out_type: TensorType, tile_op: str) -> SSAValue:
    """A generic applying `tile_op` to every tile of `value` into a new tensor of `out_type`."""
    empty = d2m.EmptyOp.create(result_types=[out_type])
    identity = AffineMapAttr(AffineMap.identity(2))
    compute = _elementwise(tile_op, 1)

    def body(ops, blocks):
        return [compute(ops, blocks[:1], blocks[1], [identity, identity])]

    generic = region_generic([value], [empty.result], [AffineMap.identity(2)] * 2, body)
    new += [empty, generic]
    return generic.results[0]


def topk_body(k: int, dim: int, elements: int, generate: bool):
    """A region body of one `d2m.topk_block` over the loaded blocks (values, scratch or indices, outputs)."""

    def body(ops, blocks):
        block = TopkBlockOp.create(operands=blocks, result_types=[blocks[2].type, blocks[3].type], properties={
            "k": IntegerAttr(k, i32), "num_elements": IntegerAttr(elements, i64), "stable_sort": BoolAttr(False, 1),
            "dim": IntegerAttr(dim, i32), "generate_indices": BoolAttr(generate, 1)})
        ops.append(block)
        return list(block.results)

    return body


def leaf_topk(new: list[Operation], value: SSAValue, k: int, dim: int, elements: int,
              index_type: Attribute) -> d2m.GenericOp:
    """The generic of one `d2m.topk_block` over the whole of `value` (see the module doc)."""
    t = value.type
    scratch = d2m.EmptyOp.create(result_types=[TensorType(ttcore.TileType((TILE, TILE), "si32"), [1, 1, 1, 1],
                                                          _layout((TILE, TILE), (TILE, TILE)))])
    values = d2m.EmptyOp.create(result_types=[t])
    indices = d2m.EmptyOp.create(result_types=[TensorType(ttcore.TileType((TILE, TILE), "si32"), t.get_shape(),
                                                          t.encoding)])
    identity = AffineMap.identity(2)
    constant = AffineMap(2, 0, (AffineExpr.constant(0), AffineExpr.constant(0)))

    generic = region_generic([value, scratch.result], [values.result, indices.result],
                             [identity, constant, identity, identity], topk_body(k, dim, elements, True))
    generic.attributes[INDEX_TYPE_ATTR] = index_type  # a type as an attribute prints as the type, as a TypeAttr
    new += [scratch, values, indices, generic]
    return generic


def _narrowed(new: list[Operation], value: SSAValue, tiles: tuple[int, int], shape: tuple[int, int]) -> SSAValue:
    """A view of the first `tiles` of `value` (of logical `shape`)."""
    t = value.type
    view = d2m.ViewLayoutOp.create(operands=[value], properties={"remapping": AffineMapAttr(AffineMap.identity(4))},
                                   result_types=[device_type(shape, tiles, t.element_type.dtype)])
    new.append(view)
    return view.result


def _padded_to_pair(pass_, op: TTOp, dim: int, largest: bool, device: tuple[int, int]) -> None:
    """`op`'s input widened to two tiles along `dim`, the new elements -inf (+inf for smallest-k, negated next): a
    `ttir.pad` with zeros plus host data of 0 inside the input and the infinity past it (`ttir.constant`, `ttir.add`),
    converted where they are."""
    value = op.operands[0]
    shape = list(value.type.get_shape())
    padding = [0, 0, 0, 0]
    padding[2 * dim + 1] = 2 * TILE - shape[dim]
    wide = list(shape)
    wide[dim] = 2 * TILE
    wide_type = TensorType(value.type.element_type, wide)
    pad = TTIR_OP_CLASSES["pad"].create(operands=[value], result_types=[wide_type], properties={
        "padding": KINDS["i32_darray"].build(padding), "value": KINDS["f32"].build(0.0)})
    beyond = -math.inf if largest else math.inf
    fills = [beyond if (r, c)[dim] >= shape[dim] else 0.0 for r in range(wide[0]) for c in range(wide[1])]
    fill = TTIR_OP_CLASSES["constant"].create(result_types=[wide_type], properties={
        "value": DenseIntOrFPElementsAttr.from_list(wide_type, fills)})
    add = TTIR_OP_CLASSES["add"].create(operands=[pad.results[0], fill.results[0]], result_types=[wide_type])
    derive([pad, fill, add], op)
    op.parent_block().insert_ops_before([pad, fill, add], op)
    op.operands[0] = add.results[0]
    for made in (pad, add):
        pass_.convert(made, device)


def _masked(new: list[Operation], value: SSAValue, logical: tuple[int, int]) -> SSAValue:
    """`value` with what lies outside `logical` set to -inf."""
    target = d2m.EmptyOp.create(result_types=[value.type])
    mask = d2m.MaskOp.create(operands=[value, target.result], result_types=[value.type], properties={
        "logical_shape": DenseArrayBase.from_list(i64, list(logical)),
        "fill_value": ttcore.OOBValAttr(ttcore.OOBValAttr.enum_type("neginf"))})
    new += [target, mask]
    return mask.result


def lower_topk(pass_, op: TTOp, device: tuple[int, int]) -> None:
    """Replaces `op` by its programs (see the module doc)."""
    (value,) = op.operands
    shape = tuple(value.type.get_shape())
    k, dim = scalar(op.prop("k")), scalar(op.prop("dim"))
    largest, is_sorted = scalar(op.prop("largest")), scalar(op.prop("sorted"))
    if len(shape) != 2 or dim % 2 not in (0, 1) or not -2 <= dim < 2:
        raise PassFailure(op, "D2M topk only supports 2D reduction on dim 0 or dim 1")
    dim %= 2
    if pass_.ttnn_mode:
        raise PassFailure(op, "a D2M topk in ttnn-mode is not converted yet (its chain moves host tensors)")
    element = value.type.element_type
    if element not in FLOATS:
        raise PassFailure(op, f"a topk of {element} is not converted to D2M yet (of f32 and bf16 is)")
    reduced = shape[dim]
    red_tiles = -(-reduced // TILE)
    if not 1 <= k <= 64 or k > reduced:
        raise PassFailure(op, f"D2M topk only supports 1 <= k <= 64 and k <= the reduced dim ({reduced}), got {k}")
    if is_sorted and k == TILE and red_tiles <= 2:
        raise PassFailure(op, "a sorted D2M topk with k = 32 over at most two tiles is not converted yet (its one "
                              "merge leaves the 32 values unsorted)")
    values_type, indices_type = (r.type for r in op.results)
    new: list[Operation] = []
    if red_tiles == 1:
        _padded_to_pair(pass_, op, dim, largest, device)
    laid = tuple(op.operands[0].type.get_shape())
    tiles = tuple(-(-n // TILE) for n in laid)
    dtype = _dtype(element)
    held = device_type(laid, tiles, dtype)
    target = d2m.EmptyOp.create(result_types=[held])
    moved = d2m.ToLayoutOp.create(operands=[op.operands[0], target.result], result_types=[held])
    new += [target, moved]
    laid_out = moved.results[0]
    if not largest:  # the smallest k of x are the largest of -x
        laid_out = _unary(new, laid_out, held, "tile_negative")
    if laid[dim] % TILE:
        laid_out = _masked(new, laid_out, laid)
    if dim == 1:
        laid_out = _unary(new, laid_out, held, "tile_transpose")
    leaf = leaf_topk(new, laid_out, k, dim, reduced, indices_type.element_type)
    out_tiles = [-(-n // TILE) for n in values_type.get_shape()]
    out_shape = tuple(values_type.get_shape())
    results = []
    for source, result_type in zip(leaf.results, (values_type, indices_type)):
        narrow = _narrowed(new, source, tuple(out_tiles), out_shape)
        if dim == 1:
            extracted = _unary(new, narrow, device_type(out_shape, tuple(out_tiles), source.type.element_type.dtype),
                               "tile_transpose")
            if source is leaf.results[1] and _dtype(result_type.element_type) != "si32":
                extracted = _unary(new, extracted, device_type(out_shape, tuple(out_tiles),
                                                               _dtype(result_type.element_type)), "tile_typecast")
        else:
            extracted = _unary(new, narrow, device_type(out_shape, tuple(out_tiles), _dtype(result_type.element_type)),
                               "tile_typecast")
        if source is leaf.results[0] and not largest:
            extracted = _unary(new, extracted, extracted.type, "tile_negative")
        host = d2m.EmptyOp.create(result_types=[result_type])
        back = d2m.ToLayoutOp.create(operands=[extracted, host.result], result_types=[result_type])
        new += [host, back]
        results.append(back.results[0])
    derive([inner for made in new for inner in made.walk()], op)
    op.parent_block().insert_ops_before(new, op)
    for old, result in zip(op.results, results):
        old.replace_all_uses_with(result)
    op.detach()
    op.erase()


MULTI_RESULT = {"topk": lower_topk}
